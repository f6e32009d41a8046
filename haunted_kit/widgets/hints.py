"""The "Suggest a move" panel of the play view: the search agent's top three moves.

In a live kernel the search runs in a worker thread, so the page stays responsive
(clicks, redraws) while it thinks; the answer is shown only if the position has not
changed meanwhile. Outside a kernel (tests, scripts) it runs at once. A progress bar
(``hk-hint-progress``) counts the playouts while it thinks. Every game's play view asks
for at most :data:`STANDARD_HINT_PLAYOUTS` playouts by default (hints' standard budget:
under a second on an idle machine in every game, ``benchmarks/bench_hints.py``); a teacher
may give the classroom app more. A teacher switches hints off with
``PlayView(hints=False)`` or ``haunted-kit classroom --no-hints``.
"""

from __future__ import annotations

import asyncio
from html import escape

import ipywidgets as W

from ..render import style as S
from ..search import hints

#: hints' standard budget: no play view's default asks for more
STANDARD_HINT_PLAYOUTS = 1000


def kernel_loop():
    """The running event loop of a Jupyter kernel, or None outside one (tests, scripts;
    another library's loop, such as Playwright's in a test session, does not count)."""
    try:
        from IPython import get_ipython  # lazy: IPython exists only inside a notebook kernel

        shell = get_ipython()
    except ImportError:  # pragma: no cover - ipywidgets depends on IPython
        return None
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def hint_seed(state) -> int:
    """The search seed of a hint for ``state``: its game's seed times 1000 plus the number of
    decisions made (``state.decisions`` where the game counts them, else the record's length),
    so the same position always gets the same hint."""
    config = getattr(state, "config", None)
    seed = getattr(config, "seed", getattr(state, "seed", 0)) or 0
    made = getattr(state, "decisions", None)
    return int(seed) * 1000 + int(len(state.history()) if made is None else made)


class HintPanel(W.VBox):
    """A "Suggest a move" button and the hints it found, for ``view`` (a PlayView).

    Args:
        view: the play view whose human seat to advise.
        kernel_loop: returns the kernel's running event loop, or ``None`` outside one.
        playouts: the search budget per hint, a whole number of at least 1 (1,000 answers
            within about a second on an idle machine).

    Raises:
        ValueError: a budget that is not a whole number of at least 1.
    """

    def __init__(self, view, kernel_loop, playouts: int = 1000):
        super().__init__()
        if not isinstance(playouts, int) or isinstance(playouts, bool) or playouts < 1:
            raise ValueError(f"hint playouts must be a whole number of at least 1, got {playouts!r}")
        self.add_class("hk-hints")
        self.view, self.playouts, self._kernel_loop = view, playouts, kernel_loop
        self.button = W.Button(description="Suggest a move", tooltip="the search agent's three best moves for you",
                               layout=W.Layout(width="auto"))
        self.button.add_class("hk-suggest")
        self.button.on_click(view.guard(lambda _b: self.suggest(), "suggesting a move"))
        self.output = W.HTML()
        self.output.add_class("hk-hint-list")
        self.bar = W.IntProgress(value=0, min=0, max=playouts, description="", layout=W.Layout(width="200px", display="none"))
        self.bar.add_class("hk-hint-progress")
        self.progress_seen: list = []   # (done, budget) reports of the last search
        self.busy = False
        self.hints: list = []
        self._position = 0  # bumped on every change of the view's state
        view.on_change(lambda _v: self._changed())
        self.children = [self.button, self.bar, self.output]

    def _changed(self) -> None:
        self._position += 1
        self.hints = []
        self.output.value = ""
        self.update()

    def update(self) -> None:
        """Enable the button only when a human is to move and no search runs."""
        v = self.view
        self.button.disabled = self.busy or v.bot_running or v._human_to_move() is None

    def suggest(self) -> None:
        """Search the current position for the human to move and show the top three."""
        v = self.view
        p = v._human_to_move()
        if p is None or self.busy:
            v.say("No human is to move: nothing to suggest." if p is None else "Still thinking...", "ignored")
            return
        state = v.state.copy()
        seed = hint_seed(state)
        position = self._position
        self.busy = True
        self.update()
        self.output.value = f"<i>Thinking for {escape(S.player_name(p))} ({self.playouts:,} playouts)...</i>"
        self.progress_seen = []
        self.bar.value, self.bar.layout.display = 0, ""
        loop = self._kernel_loop()
        if loop is None:
            try:
                self._show(position, hints(state, playouts=self.playouts, seed=seed, progress=self._progress))
            finally:
                self.busy = False
                self.bar.layout.display = "none"
                self.update()
            return
        future = loop.run_in_executor(None, lambda: hints(state, playouts=self.playouts, seed=seed,
                                                          progress=self._progress))
        future.add_done_callback(self.view.guard(lambda f: self._finished(position, f), "suggesting a move"))

    def _progress(self, done: int, budget) -> None:
        """The search's report (from its thread in a kernel): the bar counts the playouts."""
        self.progress_seen.append((done, budget))
        self.bar.value = min(done, self.bar.max)

    def _finished(self, position: int, future) -> None:
        self.busy = False
        self.bar.layout.display = "none"
        self.update()
        self._show(position, future.result())

    def _show(self, position: int, found: list) -> None:
        if position != self._position:  # the game moved on while searching
            self.output.value = ""
            return
        self.hints = found
        describe = getattr(self.view, "describe", None) or (lambda a: a.describe())
        items = "".join(f"<li><b>{escape(describe(h.action))}</b> ({h.share:.0%}): {escape(h.sentence)}</li>" for h in found)
        self.output.value = f'<ol style="font-family:sans-serif;margin:4px 0;padding-left:1.4em">{items}</ol>'


#: why hints are off, said by default (a classroom table: the teacher switched them off)
TEACHER_OFF = "for this table (the teacher's choice)"


def hints_off(why: str = TEACHER_OFF) -> W.HTML:
    """What the play view shows in place of the button when hints are off (CSS
    ``hk-hints-off``): ``"Hints are switched off {why}."``; by default a teacher's choice."""
    note = W.HTML(off_html(why))
    note.add_class("hk-hints-off")
    return note


def off_html(why: str) -> str:
    """The words of :func:`hints_off` (HTML)."""
    return f"<i>Hints are switched off {escape(why)}.</i>"


def say_hints_off(widget, why: str) -> None:
    """Reword every :func:`hints_off` note inside ``widget`` (any play view: the tutorial
    switches hints off with no teacher, and says why)."""
    if "hk-hints-off" in getattr(widget, "_dom_classes", ()):
        widget.value = off_html(why)
    for child in getattr(widget, "children", ()) or ():
        say_hints_off(child, why)
