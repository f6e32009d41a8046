"""The tutorial in the notebook: a game's own play view and board with a lesson panel beside
it (:mod:`haunted_kit.tutorial` decides what to teach and when).

    import haunted_kit as hk
    hk.tutorial("estate")          # resumes from .haunted-kit-tutorial/estate.json when it exists

The play view is the game's own (its ``widgets`` module's ``play_view(state, *, bots, hints)``
hook; else the kit's :class:`~haunted_kit.widgets.playview.GamePlayView`), so its board lights
the legal choices as in any game. The lesson panel above it keeps one height whatever it says
(its text scrolls inside), so the board never moves under the mouse as steps change; the
first step says what the player plays for and how the game ends. The panel (CSS
``hk-lesson``) shows the step to read now, as it reads in the current position (title, text,
the rule's section with the short text of any kit ruling it cites on demand, the legal choices
it is about), with **Got it**
(``hk-lesson-next``), **Skip** (``hk-lesson-skip``), and a list of the steps met with
**Show again** (``hk-lesson-replay``), and **Player aid and goal** (``hk-lesson-aid``), which
shows the goal and the player aid (every kind of decision with the box's numbers, a compact
list) again at any time; a question from the game's exercises is shown in place of the game,
where the player is looking (beside the panel on a laptop, under it on a phone; the play view
hidden meanwhile, the question's heading taking the keyboard focus and scrolled into view:
:class:`QuestionHeading`), the game's ``exercise_view(key, seed)`` hook, else the kit's
:class:`~haunted_kit.widgets.exercise.ExerciseWidget`, with its stepped feedback, and
**Back to the game** (``hk-lesson-resume``) brings the game back (**Next question** while more questions
of the first round wait). The **Steps met** list follows
the step being read (a step chosen there is shown by **Show again**). A refused move is
explained in the panel with its section. **Start again** (``hk-lesson-restart``) begins a new
first game.
"""

from __future__ import annotations

import os
from html import escape

import anywidget
import ipywidgets as W
import traitlets

from ..events import rulings_html
from ..games import game_module
from ..tutorial import LEARNER, Tutorial, TutorialError, holdings_line, lines_html, round_word, set_aside, step_parts
from .errors import ErrorReporting
from .exercise import ExerciseWidget
from .hints import say_hints_off
from ..render.style import scroll_region
from .playview import BOARD_BOX, BOARD_ROW, LINE_PX, GamePlayView, in_lines, line_layout

_BOX = "font:14px sans-serif;line-height:1.4"
#: why a tutorial's play view has no "Suggest a move" (``hints=False``, its default)
TUTORIAL_OFF = "in this tutorial, so that you try each move yourself first"
#: how a notebook turns them on (said only where Python can be typed: never on a Voila page)
TUTORIAL_HINTS_ON = " (in a notebook, hk.tutorial(game, hints=True) turns them on)"
#: the lesson text's fixed height, in lines of 14 px text, at the least (longer text scrolls inside it)
LESSON_LINES = 9
#: the lesson box's fixed height: :data:`LESSON_LINES` lines at the least, a third of the
#: window's height on a taller window (13 lines on a 390x844 phone, 12 on a 1280x800 laptop),
#: 16 lines at the most; a given window's height never changes it, so the board never moves
LESSON_HEIGHT = f"clamp({LESSON_LINES * LINE_PX}px, 32vh, {16 * LINE_PX}px)"
#: the lines of the learner's holdings under the lesson (:func:`~haunted_kit.tutorial.holdings_line`)
YOU_LINES = 4
#: the cue shown at the foot of the lesson box while more of the step is below (drawn by CSS, never
#: in the page's text: a reader of the text is not told of words below when none are)
MORE_BELOW = "more below \u2193"
#: what the lesson panel says while a question is asked (it is shown in place of the game)
QUESTION_NOTE = "A question takes the game's place."
#: the words of the button under a question: the game back, or the next question while more wait
BACK_TO_GAME, NEXT_QUESTION = "Back to the game", "Next question"
#: the heading of a question asked (:class:`QuestionHeading`)
QUESTION_TITLE = "A quick question"
#: the CSS class of a step's folded rest (the "More" disclosure, :func:`step_body`)
MORE_CLASS = "hk-step-more"
#: from this window width up the lesson panel stands beside the game, not above it, and the
#: game keeps its choices beside its board (a board wider than its room pans in its box), so a
#: laptop's first screen (1280x800) shows the lesson, the board and the decision at once
BESIDE_MIN_PX = 1000
#: the lesson panel's width beside the game
PANEL_PX = 320
#: the tutorial's own layout: on a phone or a narrow window the panel over the game (as before);
#: from :data:`BESIDE_MIN_PX` up the panel on the left, the game's board and choices side by side
#: (:data:`~haunted_kit.widgets.playview.BOARD_ROW`); the board's box pans sideways only: it is as tall
#: as the board and what opens under it (a box scrolling up and down under the mouse wheel hid the
#: board's top row, where a choice was lit), and the page scrolls past it
TUTORIAL_CSS = f"""<style>
.hk-tutorial .hk-tutorial-row {{ flex-flow: row wrap !important; align-items: flex-start; }}
.hk-tutorial .hk-tutorial-panel, .hk-tutorial .hk-tutorial-game {{ flex: 1 1 100% !important; min-width: 0 !important; }}
.hk-tutorial details.{MORE_CLASS} > summary {{ margin: 2px 0; }}
@media (min-width: {BESIDE_MIN_PX}px) {{
  .hk-tutorial .hk-tutorial-row {{ flex-wrap: nowrap !important; }}
  .hk-tutorial .hk-tutorial-panel {{ flex: 0 0 {PANEL_PX}px !important; margin: 0 10px 0 0 !important; }}
  .hk-tutorial .hk-tutorial-panel .hk-lesson {{ height: min(60vh, 480px) !important; }}
  .hk-tutorial .hk-tutorial-game {{ flex: 1 1 0px !important; }}
  .hk-tutorial .{BOARD_ROW} {{ flex-wrap: nowrap !important; }}
  .hk-tutorial .{BOARD_BOX} {{ flex: 0 1 auto !important; min-width: 0 !important; overflow-x: auto !important;
                              overflow-y: hidden !important; }}
  .hk-tutorial .{BOARD_BOX} canvas {{ max-width: none !important; }}
  /* the box grows when the board's key or "What is this?" opens under the board: nothing in it is
     squashed to fit a height (a flattened board beside an open key) */
  .hk-tutorial .{BOARD_BOX} > *, .hk-tutorial .{BOARD_BOX} .widget-vbox > * {{ flex-shrink: 0 !important; }}
}}
</style>"""


def on_voila_page() -> bool:
    """Whether this kernel serves a Voila page (widgets only, no code cell): Voila gives its
    kernel the environment variable ``SERVER_SOFTWARE`` = ``"voila/<version>"``."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila/")


def lesson_box(html: str) -> str:
    """``html`` in the lesson box: a named region reachable by Tab that fills the box's fixed
    height (:data:`LESSON_HEIGHT`) and scrolls when the step is longer, with its scrollbar
    always shown, and the cue :data:`MORE_BELOW` (CSS ``hk-more``) stuck to its foot while
    words are hidden below. The cue needs no script: it sticks to the foot of the box and a
    blank cover (``hk-more-cover``) after the words hides it once the end of the words is in
    view (a short step, or scrolled to the end). The cue's words are CSS content (``::after``), so
    the page's text never says "more below", and screen readers skip it (the region reads whole)."""
    line = f"height:{LINE_PX}px"
    return (f'<div{scroll_region("lesson")} style="height:100%;box-sizing:border-box;overflow-y:scroll;'
            f'line-height:{LINE_PX}px;scrollbar-gutter:stable">{html}'
            f'<div class="hk-more-cover" aria-hidden="true" style="{line};position:relative;z-index:2;'
            'background:#fff"></div>'
            f'<div class="hk-more" aria-hidden="true" style="{line};margin-top:-{LINE_PX}px;position:sticky;bottom:0;'
            f'z-index:1;background:#fff;color:#333;font:bold 13px/{LINE_PX}px sans-serif;text-align:right;'
            f'padding-right:4px" data-cue="{MORE_BELOW}"></div></div>'
            '<style>.hk-lesson .hk-more::after { content: attr(data-cue); }</style>')


def step_body(st, choices: str, section: str) -> str:
    """A step's words in the lesson panel (``choices``, ``section``: their HTML): a short step
    whole (text, list, choices, rule); a longer one with the sentence that decides the move
    first, then its choices, and the rest (the other sentences, the list, the rule) in a
    closed **More** (``<details class="hk-step-more">``: a summary reached by Tab, opened with
    Enter or Space) (:func:`~haunted_kit.tutorial.step_parts`)."""
    lead, more, folded = step_parts(st)
    if not folded:
        return f"<div>{escape(lead)}</div>{lines_html(st.lines)}{choices}{section}"
    rest = f"<div>{escape(more)}</div>" if more else ""
    return (f"<div>{escape(lead)}</div>{choices}<details class=\"{MORE_CLASS}\"><summary style=\"cursor:pointer;"
            f"color:#1a4f7a\">More</summary>{rest}{lines_html(st.lines)}{section}</details>")


class BackInView(anywidget.AnyWidget):
    """Drawn when a question gives the game its place back: once laid out, the tutorial's top is
    scrolled into view when it is above the window (answering may have scrolled the page down to
    the question's Check), and the keyboard focus goes to the panel's "Got it" (or "Player aid
    and goal" when nothing is to read) without scrolling again. One is made per return."""

    _esm = """
    function render({ el }) {
      let done = false;
      const home = () => {
        const root = el.closest(".hk-tutorial");
        if (done || !root || el.offsetParent === null) return;
        done = true;
        if (root.getBoundingClientRect().top < 0) root.scrollIntoView({ block: "start" });
        const b = root.querySelector(".hk-lesson-next:enabled") || root.querySelector(".hk-lesson-aid");
        if (b) b.focus({ preventScroll: true });
      };
      requestAnimationFrame(home);
      if (window.ResizeObserver) {
        const ro = new ResizeObserver(() => { home(); if (done) ro.disconnect(); });
        ro.observe(el);
      }
    }
    export default { render };
    """


class QuestionHeading(anywidget.AnyWidget):
    """The heading of a question asked in the tutorial (an ``<h3>`` of :data:`QUESTION_TITLE`,
    then ``text``): once it is in the page and laid out it takes the keyboard focus and, unless its top is
    already in the upper half of the window, is scrolled to the top of it, so the question is
    where the player looks (the panel's "Got it" was just pressed) and Tab goes on into it.
    One is made per question asked (its focus is taken when it is drawn)."""

    _esm = """
    function render({ model, el }) {
      const h = document.createElement("h3");
      h.className = "hk-question-title";
      h.tabIndex = -1;
      h.textContent = model.get("title");
      h.style.cssText = "font:bold 16px sans-serif;margin:2px 0 4px 0;outline-offset:2px";
      const p = document.createElement("div");
      p.textContent = model.get("text");
      p.style.cssText = "font:14px sans-serif;line-height:1.4";
      el.append(h, p);
      let done = false;
      const show = () => {  // once the heading is in the page and laid out (a view is drawn before it is put in)
        if (done || !h.isConnected || h.offsetParent === null) return;
        done = true;
        const r = h.getBoundingClientRect();
        if (r.top < 0 || r.top > window.innerHeight / 2) h.scrollIntoView({ block: "start" });
        h.focus({ preventScroll: true });
      };
      requestAnimationFrame(show);
      // however late the question's box is shown (a loaded machine): the heading's first layout says so
      if (window.ResizeObserver) {
        const ro = new ResizeObserver(() => { show(); if (done) ro.disconnect(); });
        ro.observe(h);
      }
    }
    export default { render };
    """
    title = traitlets.Unicode(QUESTION_TITLE).tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)


def _hook(game, name: str):
    try:
        mod = game_module(game.name, "widgets")
    except Exception:
        return None
    return getattr(mod, name, None)


def make_play_view(game, state, *, hints: bool = False):
    """The game's own play view of ``state`` (seat 0 human, the others bots), or the kit's."""
    bots = [p for p in range(state.players) if p != LEARNER]
    own = _hook(game, "play_view")
    if own is not None:
        return own(state, bots=bots, hints=hints)
    return GamePlayView(game, state, bots=bots, hints=hints)


class TutorialView(ErrorReporting, W.VBox):
    """A first game of ``game`` that teaches while it is played (module doc).

    Args:
        game: a Game or its registered name.
        seed: the game's seed; progress: the progress file (see :class:`~haunted_kit.tutorial.Tutorial`);
        resume: continue from the progress file when there is one.
        hints: show the play view's "Suggest a move".

    Raises:
        UnknownGame, ValueError: as :class:`~haunted_kit.tutorial.Tutorial`;
        TutorialError: a progress file that cannot be read.
    """

    def __init__(self, game, *, seed: int = 1, progress=None, resume: bool = True, hints: bool = False):
        super().__init__()
        self.add_class("hk-tutorial")
        self.notice = ""
        if resume and progress is not False:
            try:
                self.tutorial = Tutorial.resume(game, progress, seed=seed)
            except TutorialError as exc:  # a damaged file is kept aside, never lost, and a new game begins
                aside = set_aside(exc.path)
                self.tutorial = Tutorial(game, seed=seed, progress=exc.path)
                self.notice = f"{exc} It was kept as {aside.name}; a new first game begins."
        else:
            self.tutorial = Tutorial(game, seed=seed, progress=progress)
        t = self.tutorial
        self.hints = hints
        self.banner = self._init_errors()
        self.head = W.HTML(layout=line_layout(2))
        self.lesson = W.HTML(layout=W.Layout(height=LESSON_HEIGHT, overflow="hidden", max_width="100%",
                                             flex="0 0 auto"))
        self.lesson.add_class("hk-lesson")
        # what the learner holds, always in view (newcomers scrolled to their own board before every
        # decision): a fixed height, so the board never moves as the numbers change
        self.you = W.HTML(layout=line_layout(YOU_LINES))
        self.you.add_class("hk-lesson-you")
        self.homing = W.Box(layout=W.Layout(height="1px", margin="0px"))   # holds a BackInView when one is due
        self.b_next = self._button("Got it", "hk-lesson-next", "I have read this step", self.next, "reading on")
        self.b_skip = self._button("Skip", "hk-lesson-skip", "skip this step", self.skip, "skipping a step")
        self.met = W.Dropdown(options=[], description="Steps met",  # its width never follows the titles
                              layout=W.Layout(width="auto", flex="1 1 220px", min_width="0", max_width="100%"))
        self.b_replay = self._button("Show again", "hk-lesson-replay", "show the chosen step again", self.replay,
                                     "showing a step again")
        self.b_aid = self._button("Player aid and goal", "hk-lesson-aid",
                                  "show every kind of decision and what you play for again", self.recall,
                                  "showing the player aid")
        self.b_restart = self._button("Start again", "hk-lesson-restart", "a new first game from the start",
                                      self.restart, "starting again")
        self.question_box = W.VBox(layout=W.Layout(display="none", max_width="100%"))
        self.question_box.add_class("hk-tutorial-game")
        self.question_box.add_class("hk-tutorial-question")
        self._followed = None  # the step the "Steps met" list last followed
        self.b_resume = self._button(BACK_TO_GAME, "hk-lesson-resume", "leave the question and play on",
                                     self.leave_question, "closing the question")
        self.exercise = None
        # one height whatever the step says (the board below never moves); a question takes the game's place
        panel = W.VBox([self.head, self.lesson, self.you, W.HBox([self.b_next, self.b_skip, self.b_aid], layout=W.Layout(flex_flow="row wrap")),
                        W.HBox([self.met, self.b_replay, self.b_restart], layout=W.Layout(flex_flow="row wrap")),
                        self.banner, self.homing],
                       layout=W.Layout(border="2px solid #2a5d8a", padding="6px", margin="0 0 8px 0", max_width="100%"))
        panel.add_class("hk-tutorial-panel")
        self.style = W.HTML(TUTORIAL_CSS, layout=W.Layout(height="0px", margin="0px"))
        self.view = None
        self._attach(make_play_view(t.game, t.state, hints=hints))
        self.panel = panel
        self._lay_out()
        self.changed()

    def _lay_out(self) -> None:
        """The panel and the game in one row (:data:`TUTORIAL_CSS`: beside each other on a wide
        window, the panel above on a narrow one); a question asked is in the same place as the
        game, shown instead of it (:meth:`_show_question`)."""
        self.view.add_class("hk-tutorial-game")
        row = W.HBox([self.panel, self.view, self.question_box], layout=W.Layout(max_width="100%"))
        row.add_class("hk-tutorial-row")
        self.children = [row, self.style]

    def _attach(self, view) -> None:
        """Follow ``view``: its changes, and its refusals (every play view says a refused move
        on its message line as a ``"refusal"``), which the lesson panel explains the first time."""
        self.view = view
        say_hints_off(view, TUTORIAL_OFF + ("" if on_voila_page() else TUTORIAL_HINTS_ON))  # no teacher switched them off: the tutorial says its own reason
        view.on_change(self.guard(lambda _v: self.changed(), "following the game"))
        plain_say = view.say

        def say(text, kind="info"):
            plain_say(text, kind)
            if kind == "refusal" and "refusal" not in self.tutorial.steps:
                why = getattr(view, "last_refusal", None)
                self.tutorial.refused_message(text, getattr(why, "section", "") or "")
                self.show()
        view.say = say

    def _button(self, text, cls, tip, fn, where) -> W.Button:
        b = W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto", flex="0 0 auto"))
        b.add_class(cls)
        b.on_click(self.guard(lambda _b: fn(), where))
        return b

    # ------------------------------------------------------------------ following the game
    def changed(self) -> None:
        """The play view's state changed (or the view was built): queue what matters now."""
        self.tutorial.follow(self.view.state)
        self.show()

    def show(self) -> None:
        """Draw the lesson panel from the tutorial: the current step as it reads now
        (:meth:`~haunted_kit.tutorial.Tutorial.shown`)."""
        t = self.tutorial
        st = t.shown() if not t.asking else None  # while a question is asked the lesson waits for it
        self.b_next.disabled = self.b_skip.disabled = st is None
        self._show_question()  # the question or the game in place before the panel's words change
        self.head.value = in_lines(f'<div style="{_BOX}"><b>Tutorial: {escape(t.game.title)}</b> - you are '
                                   f"P{LEARNER + 1}, the bots play the other seats.</div>", 2, "tutorial")
        notes = "".join(f'<div style="color:{c}">{escape(x)}</div>' for x, c in (
            (self.notice, "#8a1c00"),
            (f"The first {round_word(t.game)} is over. Play on to the end of the game (anything new is still taught "
             "when it first comes up), or start again." if t.round_done else "", "#333"),
            (QUESTION_NOTE if t.asking else "", "#8a1c00")) if x)
        if t.asking:
            body = (f'<div style="color:#333">{escape(question_intro(t))} The lesson goes on when you are back in '
                    "the game.</div>")
        elif st is None:
            body = ('<div style="color:#333">Nothing new right now: play on. A new step appears '
                    "the first time a new kind of decision, phase or rule matters.</div>")
        else:
            # the section is plain text (not link-coloured); a kit ruling it or the text cites opens in place
            section = (f'<div style="color:#333">Rule: <i>{escape(st.section)}</i></div>' if st.section else "") \
                + rulings_html(f"{st.text} {st.section}")
            choices = ("<div>Your choices of this kind now: " + "; ".join(escape(c) for c in st.choices) + "</div>") \
                if st.choices and not st.choices[0].startswith("then: ") else \
                ("<div>Your choices then: " + "; ".join(escape(c[6:]) for c in st.choices) + "</div>") if st.choices else ""
            also = next_html(t)
            body = f"<b>{escape(st.title)}</b>{step_body(st, choices, section)}{also}"
        held = holdings_line(t.game, t.state)
        self.you.layout.display = "" if held else "none"
        self.you.value = in_lines(f'<div style="{_BOX}"><b>You (P{LEARNER + 1}):</b> {escape(held)}</div>', YOU_LINES,
                                  "your holdings") if held else ""
        self.lesson.value = lesson_box(f'<div style="{_BOX}" role="status" aria-live="polite">{notes}{body}</div>')
        self._follow_met(st)

    def _follow_met(self, st) -> None:
        """The "Steps met" list: every step shown so far (read, skipped or on the panel; never one
        still queued to come), in order; it follows the step being read (a
        new current step is the one it shows), and between changes keeps what the player chose
        in it for Show again."""
        t = self.tutorial
        now = st.key if st is not None else None
        seen = t.read | t.skipped | t.displayed | {now}  # met: shown at least once (not the steps still to come)
        opts = [(f"{s.title}{' (skipped)' if k in t.skipped else ''}", k) for k, s in t.steps.items() if k in seen]
        if [o[1] for o in self.met.options] != [o[1] for o in opts]:
            self.met.options = opts
            self.met.value = now if now is not None else (opts[-1][1] if opts else None)
        elif now is not None and now != self._followed and now in t.steps:
            self.met.value = now
        self._followed = now
        self.b_replay.disabled = not opts

    def _show_question(self) -> None:
        """The question asked now in the game's place (the play view hidden), or the game back
        when none is (the keyboard focus then goes back to the lesson panel)."""
        t = self.tutorial
        if not t.asking:
            if self.exercise is not None:
                self.exercise.close()
                self.exercise = None
                self.homing.children = [BackInView()]   # the tutorial's top in view, the focus on the panel
            self.question_box.children = []
            self.question_box.layout.display = "none"
            self.view.layout.display = ""
            return
        self.view.layout.display = "none"
        self.question_box.layout.display = ""
        self.b_resume.description = NEXT_QUESTION if t.held else BACK_TO_GAME
        self.b_resume.tooltip = "leave this question for the next one" if t.held else "leave the question and play on"
        if self.exercise is not None and self.exercise.ex.key == t.asking:
            return
        own = _hook(t.game, "exercise_view")
        self.exercise = own(t.asking, t.question().seed) if own is not None else ExerciseWidget(t.question())
        self.exercise.hide_key()   # a question of the lesson, not an exercise a teacher looks up
        head = QuestionHeading(text=question_intro(t))
        self.question_box.children = [head, self.exercise, self.b_resume]

    # ------------------------------------------------------------------ the buttons
    def next(self) -> None:
        self.tutorial.next()
        self.show()

    def skip(self) -> None:
        self.tutorial.skip()
        self.show()

    def replay(self) -> None:
        if self.met.value is not None:
            self.tutorial.replay(self.met.value)
            self.show()

    def recall(self) -> None:
        """Show the player aid, then the goal, again (:meth:`~haunted_kit.tutorial.Tutorial.recall`)."""
        self.tutorial.recall()
        self.show()

    def leave_question(self) -> None:
        ex = self.exercise
        self.tutorial.answered("right" if ex is not None and ex.solved else "wrong" if ex is not None and ex.tries
                               else "skipped")
        self.show()

    def restart(self) -> None:
        """A new first game from the start (progress rewritten)."""
        self.tutorial.reset()
        old = self.view
        self._attach(make_play_view(self.tutorial.game, self.tutorial.state, hints=self.hints))
        self._lay_out()
        old.close()
        self.changed()


def question_intro(t) -> str:
    """The words under a question's heading: why it is asked now, how many wait behind it (the
    first round's questions come after it, one after another) and what the button under it does."""
    first = f"Your first {round_word(t.game)} is over: a look back at what it taught. " if t.round_done else ""
    more = (f"{len(t.held)} more after this one: '{NEXT_QUESTION}', under it, brings the next." if t.held else
            f"'{BACK_TO_GAME}', under it, brings your game back.")
    return (f"{first}A hint comes after a first wrong try. It is a prepared position of another game, not your "
            f"own. {more}")


def next_html(t) -> str:
    """The line under a step naming the steps queued behind it, in the order they will come:
    "Next in the lesson: ..." with a step about a phase over by now named as what happened
    before (``"Setting up (what happened before)"``), never as coming next under an
    "Earlier:" title; ``""`` for none."""
    titles = [t.shown(w.key).title for w in t.waiting()]
    if not titles:
        return ""
    named = [f"{x[len('Earlier: '):]} (what happened before)" if x.startswith("Earlier: ") else x for x in titles]
    return f"<div style='color:#555'>{escape('Next in the lesson: ' + ', '.join(named))}</div>"


def tutorial(game: str, *, seed: int = 1, progress=None, resume: bool = True, hints: bool = False) -> TutorialView:
    """``hk.tutorial("estate")``: the tutorial widget of ``game`` (see :class:`TutorialView`)."""
    return TutorialView(game, seed=seed, progress=progress, resume=resume, hints=hints)
