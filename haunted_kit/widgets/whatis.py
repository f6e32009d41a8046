"""The key of a notebook board and "What is this?" for a spot on it, for every game's canvas.

A game's board widget (an ipycanvas board drawn from the kit's scene primitives) puts a
:class:`WhatIsThis` under its canvas and calls :meth:`WhatIsThis.show` with what it drew
whenever it draws; the play views, step-throughs, the tutorial and exercises that show that
board then show, with no code of their own:

* the key of the codes the board draws (:func:`haunted_kit.explain.shown_key` of the game's
  ``board_key(state)``: a card's name only when this board writes it, so a seat's key never
  names a card it cannot see), as the kit's ``<details>`` list (:func:`haunted_kit.explain.key_html`);
* a **What is this?** toggle (CSS ``hk-whatis-toggle``): while it is pressed a click or tap on
  the board is not a move but a question, and the line under it (``hk-whatis-answer``, an ARIA
  live region) says what is there: the cell as the kit names it
  (:func:`haunted_kit.hexgrid.cell_name`), the game's own words about it, and each code drawn
  there with its meaning, rule section and box value (:func:`haunted_kit.explain.what_is`);
  a board's owner may also answer a click that is no move (:meth:`WhatIsThis.answer_cell`);
* for the keyboard, a **What is at** list (``hk-whatis-pick``) of every cell (or, on a board
  without cells, every drawn word the key explains): choosing one gives the same answer.

No game's rules live here: the words come from the game's key and its ``cell_words``.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import explain, games
from ..hexgrid import cell_name, name_cells
from ..render.primitives import Text
from ..render.svg import text_box

#: the key's look under a notebook board: compact lines, each meaning indented under its codes
KEY_STYLE = ("<style>.hk-whatis-key details{font:13px/1.35 sans-serif} .hk-whatis-key dl{margin:2px 0}"
             " .hk-whatis-key dt{margin-top:3px} .hk-whatis-key dd{margin:0 0 0 1.2em}</style>")
#: the prompt of the keyboard list before anything is chosen
PICK_PROMPT = "choose a place"


def _position_of(state):
    """What tells one position from the next for the answer line: the state and how many
    events (else decisions and outcomes) it has had."""
    log = getattr(state, "log", None)
    return id(state), (len(log) if log is not None else len(state.history()))


class WhatIsThis(W.VBox):
    """The key and "What is this?" of one board (module doc).

    Args:
        noun: what the board's places are called (``"cell"``; the estate's land board: ``"slot"``).
        width: the board's width in px (the answer line wraps inside it).
        clicks_play: a click on the board may be a move, so the **What is this?** toggle is
            shown; ``False`` for a picture (every click on it is a question: no toggle).

    Attributes:
        entries: the key of the state shown last (``[]`` for a game that declares none).
        shown: the entries its key lists (only codes the board draws, see the module doc).
        last: the last answer, in words (``""`` once the board shows a new position: the
            answer line goes back to its prompt, as the seat page's does).
    """

    def __init__(self, noun: str = "cell", width: float | None = None, clicks_play: bool = True, **kw):
        super().__init__(**kw)
        self.add_class("hk-whatis")
        self.noun = noun
        self.entries: list = []
        self.shown: list = []
        self.last = ""
        self._texts: list = []     # (Text primitive, place or None) as drawn
        self._places: list = []    # the board's places (cells), in order
        self._cell_at = None
        self._cell_words = None
        self._key_of = None
        self._of_text: dict = {}
        self._quiet = False
        self.withheld = False
        self.toggle = W.ToggleButton(value=False, description="What is this?",
                                     tooltip="While pressed, a click on the board says what is there instead of playing",
                                     layout=W.Layout(width="auto", flex="0 0 auto"))
        self.toggle.add_class("hk-whatis-toggle")
        if not clicks_play:
            self.toggle.layout.display = "none"
        self.pick = W.Dropdown(options=[(PICK_PROMPT, None)], value=None, description="What is at",
                               style={"description_width": "initial"},
                               layout=W.Layout(width="auto", flex="1 1 200px", min_width="0", max_width="100%"))
        self.pick.add_class("hk-whatis-pick")
        self.pick.observe(self._picked, names="value")
        self.clicks_play = clicks_play
        self.answer = W.HTML(value=self._answer_html(""))
        self.answer.add_class("hk-whatis-answer")
        self.key = W.HTML()
        self.key.add_class("hk-whatis-key")
        width_css = f"{int(width)}px" if width else "100%"
        self.layout.max_width = "100%"
        self.layout.width = width_css
        self.children = [W.HBox([self.toggle, self.pick], layout=W.Layout(flex_flow="row wrap", max_width="100%")),
                         self.answer, self.key]

    # ------------------------------------------------------------------ what the board drew
    def show(self, state, prims, *, places=(), cell_at=None, cell_words=None) -> None:
        """Take what the board drew: ``state`` (its game's key, :func:`haunted_kit.explain.board_key`),
        ``prims`` (every scene primitive on the board now), ``places`` (the board's cells,
        axial ``(q, r)``; none for a panel), ``cell_at(x, y)`` (the cell under a pixel or
        ``None``) and ``cell_words(cell)`` (the game's words about a cell, or ``None``)."""
        try:
            entries = explain.board_key(games.game_of(state), state)
        except (games.MissingHook, games.UnknownGame):
            entries = []
        at = _position_of(state)
        if self.last and at != getattr(self, "_at", at):  # a new position: an answer about the old one is stale
            self._say("")
        self._at = at
        self._cell_at, self._cell_words, self._state = cell_at, cell_words, state
        self._texts = [(p, cell_at(p.x, p.y) if cell_at is not None else None) for p in prims if isinstance(p, Text)]
        key_of = (tuple(entries), tuple(dict.fromkeys(p.text for p, _c in self._texts)))
        if key_of != self._key_of:
            self._key_of = key_of
            self.entries = entries
            self._of_text = explain.entries_of(key_of[1], entries)
            drawn = {e for found in self._of_text.values() for e in found}
            self.shown = [e for e in entries if not e.drawn_only or e in drawn]  # as explain.shown_key
            self.key.value = KEY_STYLE + explain.key_html(self.shown) if self.shown else ""
            self.layout.display = "" if entries and not self.withheld else "none"
        self._set_places(places)

    def _set_places(self, places) -> None:
        if places:
            options = [(f"{self.noun} {cell_name(c)}", tuple(c)) for c in places]
        else:  # a panel: every drawn word the key explains
            options = [(w, w) for w, found in self._of_text.items() if found]
        self._places = [v for _l, v in options]
        options = [(PICK_PROMPT, None)] + options
        if list(self.pick.options) != options:
            self._quiet = True
            try:
                self.pick.options = options
                self.pick.value = None
            finally:
                self._quiet = False

    def withhold(self) -> None:
        """Show no key and answer no click from now on: an exercise's board, whose key would
        give its answer away (a rule's number the question asks for)."""
        self.withheld = True
        self.toggle.value = False
        self.layout.display = "none"

    # ------------------------------------------------------------------ answers
    def answer_cell(self, cell) -> str:
        """Say (and return) what is on ``cell`` (axial): its name, the game's words about it,
        each code drawn on it with its entry (:func:`haunted_kit.explain.what_is`)."""
        cell = tuple(cell)
        texts = [p.text for p, c in self._texts if c is not None and tuple(c) == cell]
        words = name_cells(self._cell_words(cell) or "") if self._cell_words is not None else ""
        return self._say(explain.what_is(self.entries, texts, f"{self.noun} {cell_name(cell)}", words))

    def answer_words(self, words: str) -> str:
        """Say (and return) what a drawn word or code of a panel is."""
        return self._say(explain.what_is(self.entries, [words], f'"{words}"'))

    def answer_at(self, x: float, y: float) -> str:
        """Say (and return) what is at pixel ``(x, y)`` of the board: the cell there on a
        board with cells; else the drawn words whose box holds the point (the nearest
        within a few px), or that nothing the key explains is drawn there."""
        if self._cell_at is not None:
            cell = self._cell_at(x, y)
            if cell is None:
                return self._say("What is this? That point is off the board.")
            return self.answer_cell(cell)
        hits = []
        for p, _c in self._texts:
            x0, y0, x1, y1 = text_box(p)
            d = max(x0 - x, x - x1, 0) + max(y0 - y, y - y1, 0)
            if d <= 4:
                hits.append((d, p.text))
        hits.sort(key=lambda h: h[0])
        texts = list(dict.fromkeys(t for _d, t in hits))
        if not texts:
            return self._say("What is this? Nothing the key explains is drawn there: tap a word or a code.")
        return self._say(explain.what_is(self.entries, texts, f'"{texts[0]}"'))

    def take_click(self, x: float, y: float) -> bool:
        """A click on the board at ``(x, y)``: while **What is this?** is pressed it is answered
        here (returns ``True``: the board must not play it); else ``False``."""
        if not self.toggle.value or self.withheld:
            return False
        self.answer_at(x, y)
        return True

    def _picked(self, change) -> None:
        if self._quiet or change["new"] is None:
            return
        value = change["new"]
        if isinstance(value, tuple):
            self.answer_cell(value)
        else:
            self.answer_words(value)

    def _say(self, text: str) -> str:
        self.last = text
        self.answer.value = self._answer_html(text)
        return text

    def _answer_html(self, text: str) -> str:
        first = "Press <b>What is this?</b> then click or tap the board" if self.clicks_play else "Tap the board"
        shown = escape(text) if text else f"What is this? {first}, or choose a place in the list."
        return f'<div role="status" aria-live="polite" style="font:13px sans-serif;color:#222">{shown}</div>'
