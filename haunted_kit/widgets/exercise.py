"""An exercise that answers back, for any game: the facts, the question, a way to answer, and
the engine's stepped verdict (:mod:`haunted_kit.exercises`).

    from haunted_kit.widgets.exercise import ExerciseWidget
    ExerciseWidget(EXERCISES.make("08-take-limit", seed=1))

``choose`` exercises show one toggle button per option, ``pick`` exercises one checkbox per
option (the last, "none of them", answers that no option applies), ``number`` exercises a
number box that starts empty, ``cells`` exercises a click on a board cell to select
or unselect it (selected cells marked ``✓``). **Check** judges the answer: a first wrong try
gets a nudge, later wrong tries the rule applied to this position
(:meth:`~haunted_kit.exercises.Exercise.check`); an answer that cannot be read (nothing chosen,
no option ticked, no cell selected, an empty number or one out of range) gets a message,
counts no try and reveals nothing; **Show answer** works once there has been an
attempt (with the engine's explanation, :meth:`~haunted_kit.exercises.Exercise.why_text`, and on
the board the answer's cells marked ``●``); **New exercise** makes the same exercise on the next
seed (:meth:`~haunted_kit.exercises.Exercise.regenerate`).

``board``: an optional ``board(state) -> widget`` drawn under the facts (the game's panel of the
position; ``None`` draws none); its key and "What is this?" (a ``whatis``,
:class:`~haunted_kit.widgets.whatis.WhatIsThis`) are withheld, since the key's numbers would
answer the question. For a ``cells`` exercise, or one whose
:attr:`~haunted_kit.exercises.Exercise.highlight` is not empty, the board is also the answer
input: it must offer ``set_highlight({cell: mark})`` and ``on_click(callback(cell))``.

A game's subclass may change the look through the class attributes :attr:`ExerciseWidget.QUESTION_FIRST`,
:attr:`~ExerciseWidget.FACTS_HEADING`, :attr:`~ExerciseWidget.HEADS` and :attr:`~ExerciseWidget.TAIL`.

The view is a region landmark named after the exercise shown ("Exercise: <title> (<key>, seed
<n>)", :class:`~haunted_kit.widgets.access.Landmark`). A board wider than the output (a phone keeping
its text at 12 px) pans in its box under the kit's pan cue (:func:`~haunted_kit.widgets.canvas.pan_parts`).

CSS classes: ``hk-exercise`` (the view), ``hk-ex-facts``, ``hk-ex-question``, ``hk-ex-check``,
``hk-ex-answer``, ``hk-ex-new``, ``hk-ex-feedback`` (the verdict), ``hk-ex-option`` (each option).
"""

from __future__ import annotations

from html import escape

import anywidget
import ipywidgets as W
import traitlets

from ..events import rulings_html
from ..exercises import Exercise, ExerciseError, cite_rulings, sentence_case
from ..hexgrid import cell_name
from .access import Landmark
from .errors import ErrorReporting
from .text import visible_text

_BOX = "font-family:sans-serif;font-size:14px"
_COLOUR = {"nudge": "#8a5300", "rule": "#8b1a1a"}
#: said after every wrong answer's verdict, in every game
TRY_AGAIN = "Try again, or press Show answer."
#: the first line of an exercise's plain-text form (what a notebook shows before it is run)
RUN_FIRST = "Interactive exercise: run this cell (Shift+Enter), or Run > Run All Cells, to answer it here."


class NumberBox(anywidget.AnyWidget):
    """The box for a whole-number answer: empty until something is typed (an ``IntText`` would
    show "0", an answer), a numeric keyboard on a phone (``inputmode="numeric"``), and Enter
    sends ``{"event": "submit"}`` (:meth:`on_submit`). ``value`` is the text typed (a str);
    ``autofocus``: take the keyboard focus when shown (a new exercise keeps the focus in it).
    CSS class of the input: ``hk-ex-number``."""

    _esm = """
    function render({ model, el }) {
      const label = document.createElement("label");
      label.style.cssText = "font-family:sans-serif;font-size:14px;display:inline-flex;gap:8px;" +
                            "align-items:center;max-width:100%;margin:2px 0";
      const name = document.createElement("span");
      name.textContent = model.get("description");
      const input = document.createElement("input");
      input.type = "text";
      input.inputMode = "numeric";
      input.pattern = "-?[0-9]*";
      input.autocomplete = "off";
      input.className = "hk-ex-number";
      input.placeholder = model.get("placeholder");
      input.value = model.get("value");
      // 16 px: a phone does not zoom the page in when the box takes the focus
      input.style.cssText = "font-size:16px;width:12em;max-width:100%;min-width:0;padding:2px 4px";
      el.setAttribute("data-lm-suppress-shortcuts", "true");   // JupyterLab's Enter/Shift+Enter stay out of it
      const sync = () => { model.set("value", input.value); model.save_changes(); };
      input.addEventListener("input", sync);
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
        e.preventDefault();
        e.stopPropagation();
        sync();
        model.send({ event: "submit" });
      });
      model.on("change:value", () => { if (input.value !== model.get("value")) input.value = model.get("value"); });
      label.append(name, input);
      el.appendChild(label);
      if (model.get("autofocus")) requestAnimationFrame(() => input.focus());
    }
    export default { render };
    """
    value = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("answer").tag(sync=True)
    placeholder = traitlets.Unicode("a whole number").tag(sync=True)
    autofocus = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._submit: list = []
        self.on_msg(lambda _w, content, _b: content.get("event") == "submit" and [cb() for cb in list(self._submit)])

    def on_submit(self, callback) -> None:
        """``callback()`` when Enter is pressed in the box."""
        self._submit.append(callback)

    def press_enter(self) -> None:
        """Enter pressed in the box, through the widget's own message path (as a browser sends it)."""
        self._handle_custom_msg({"event": "submit"}, [])


class ExerciseWidget(ErrorReporting, W.VBox):
    """Args:
        ex: an :class:`~haunted_kit.exercises.Exercise`.
        board: ``board(state) -> widget`` showing the exercise's position (``None`` from it:
            no board), or ``None``; see the module doc for a board that takes cell answers.

    Attributes:
        tries: wrong answers so far; ``solved``: a right answer was given; ``feedback``:
        the verdict (an HTML widget); ``last``: the last :class:`~haunted_kit.exercises.Feedback`;
        ``board``: the board widget shown, or ``None``; ``selected``: the cells selected on it.
    """

    #: the question above the facts and the board (else below them)
    QUESTION_FIRST = False
    #: a heading over the facts (``"What you know:"``); with one, no facts shows no panel
    FACTS_HEADING = ""
    #: stage -> (heading, label before the text or ``""``) of a wrong answer's verdict (the
    #: two steps are headed differently)
    HEADS = {"nudge": ("Not quite: a hint", ""), "rule": ("Not quite: the rule on this position", "")}
    #: HTML after a wrong answer's text; ``{section}`` is the rules section (escaped)
    TAIL = f' <span style="color:#555">{escape(TRY_AGAIN)}</span>'

    def __init__(self, ex: Exercise, *, board=None, **kw):
        super().__init__(**kw)
        self.add_class("hk-exercise")
        self.board_of = board
        self.board = None
        self.banner = self._init_errors()
        self._parts = ()
        # sized to their words (a fixed width cut them to "Show a..." on a phone), wrapping in their row
        whole = dict(width="auto", min_width="fit-content", max_width="100%")
        self.b_check = W.Button(description="Check", button_style="primary", tooltip="judge my answer",
                                layout=W.Layout(**whole))
        self.b_check.add_class("hk-ex-check")
        self.b_answer = W.Button(description="Show answer", tooltip="after a first try", disabled=True,
                                 layout=W.Layout(**whole))
        self.b_answer.add_class("hk-ex-answer")
        self.b_new = W.Button(description="New exercise", tooltip="the same question on another seeded position",
                              layout=W.Layout(**whole))
        self.b_new.add_class("hk-ex-new")
        self.b_check.on_click(self.guard(lambda _b: self.submit(), "checking the answer"))
        self.b_answer.on_click(self.guard(lambda _b: self.reveal(), "showing the answer"))
        self.b_new.on_click(self.guard(lambda _b: self.load(self.ex.regenerate(), focus=True), "making a new exercise"))
        #: the buttons' row: one widget for every exercise shown, so a browser keeps it (and the
        #: focus on "New exercise") when a new exercise replaces the parts above it
        self.buttons = W.HBox([self.b_check, self.b_answer, self.b_new],
                              layout=W.Layout(flex_flow="row wrap", max_width="100%"))
        #: the parts of the exercise shown (title, question, facts, board, answer input)
        self.body = W.VBox(layout=W.Layout(max_width="100%"))
        #: the view is a region landmark named after the exercise shown ("Exercise: What does ...")
        self.landmark = Landmark("hk-exercise")
        self.load(ex)

    #: whether the title names the exercise's key and seed (a teacher's way to find it again);
    #: a tutorial's question, asked of a newcomer, does not (:meth:`hide_key`)
    key_shown = True

    def _title_html(self, ex) -> str:
        named = (f' <span style="color:#666;font-weight:normal">({escape(ex.key)}, seed {ex.seed})</span>'
                 if self.key_shown else "")
        return f'<div style="{_BOX};font-weight:bold">Exercise: {escape(ex.title)}{named}</div>'

    def _label(self, ex) -> str:
        return f"Exercise: {ex.title}" + (f" ({ex.key}, seed {ex.seed})" if self.key_shown else "")

    def hide_key(self) -> None:
        """Name the exercise by its title alone, without its key and seed (a tutorial's question:
        a newcomer read "(02-spread-cells, seed 1099511627777)" as jargon)."""
        self.key_shown = False
        self.title.value = self._title_html(self.ex)
        self.landmark.label = self._label(self.ex)

    # ------------------------------------------------------------------ building
    def load(self, ex: Exercise, focus: bool = False) -> None:
        """Show exercise ``ex`` (a fresh start: no tries, no feedback, nothing selected).
        Every part is built first, in new widgets, and shown by one assignment of the
        children of :attr:`body`, so a view never shows the new title beside the old question.
        ``focus``: a number answer's box takes the keyboard focus (New exercise; otherwise the
        focus stays on the button pressed, whose row is kept)."""
        title = W.HTML(self._title_html(ex))
        lines = [cite_rulings(f) for f in ex.fact_lines()]
        items = "".join(f"<li>{escape(f)}{rulings_html(f)}</li>" for f in lines)  # a cited ruling opens in place
        if not self.FACTS_HEADING:
            facts = f'<ul style="{_BOX};margin:2px 0">{items}</ul>' if lines else ""
        else:
            facts = (f'<div style="{_BOX};margin:2px 0"><b>{escape(self.FACTS_HEADING)}</b>'
                     f'<ul style="margin:2px 0">{items}</ul></div>') if lines else ""
        facts = W.HTML(facts)
        facts.add_class("hk-ex-facts")
        question = W.HTML(f'<div style="{_BOX};margin:4px 0"><b>{escape(ex.question)}</b></div>')
        question.add_class("hk-ex-question")
        feedback = W.HTML("")
        feedback.add_class("hk-ex-feedback")
        old = list(self._parts)
        self.ex = ex
        self.tries = 0
        self.solved = False
        self.last = None
        self.selected: set = set()
        #: what the last cell selected or unselected said (also in the board's live region)
        self.said = ""
        self.title, self.facts, self.question, self.feedback = title, facts, question, feedback
        self.input = self._make_input(ex, focus)
        self.board = self.board_of(ex.state) if self.board_of is not None and ex.state is not None else None
        board = []
        if self.board is not None:
            whatis = getattr(self.board, "whatis", None)
            if whatis is not None:  # the board's key would say the rule's numbers the question asks for
                whatis.withhold()
            if self._marks_on_board():
                self.board.on_click(self.guard(self._on_cell, "selecting a cell"))
                self._draw_marks()
            pan = getattr(self.board, "pan_to", None)  # a phone shows the cells the question is about
            own = getattr(self.board, "player_cells", None)  # else where the player it is about stands
            cells = list(ex.highlight) or (own(ex.player) if own is not None and ex.player is not None else [])
            if pan is not None and cells:
                pan(cells)
            board = [W.HBox([self.board], layout=W.Layout(max_width="100%"))]  # the board fits the output width
        top = [self.question, self.facts, *board] if self.QUESTION_FIRST else [self.facts, *board, self.question]
        self.b_answer.disabled = True
        self.body.children = [self.title, *top, self.input]
        self.landmark.label = self._label(ex)
        # the verdict right above Check: a phone student tapping Check sees it without scrolling (it sat under
        # New exercise, off the screen)
        self.children = [self.body, self.feedback, self.buttons, self.banner, self.landmark]
        self._parts = (title, facts, question, feedback, self.input, *board)
        for w in old:
            w.close()

    def _marks_on_board(self) -> bool:
        return self.ex.kind == "cells" or bool(self.ex.highlight)

    def _make_input(self, ex: Exercise, focus: bool = False):
        if ex.kind == "cells":
            return W.HTML(f'<div style="{_BOX};color:#555">Click or tap cells on the board to select them; again to '
                          "unselect. Then press Check.</div>")
        if ex.kind == "choose":
            self.choice = W.ToggleButtons(options=list(ex.options), value=None)
            self.choice.add_class("hk-ex-option")
            return self.choice
        if ex.kind == "pick":
            self.boxes = {}
            for label in ex.options:
                cb = W.Checkbox(value=False, description=label, indent=False, layout=W.Layout(width="auto"))
                cb.add_class("hk-ex-option")
                self.boxes[label] = cb
            return W.VBox(list(self.boxes.values()))
        # empty until something is typed, a numeric keyboard on a phone, Enter checks
        self.number = NumberBox(autofocus=focus, layout=W.Layout(max_width="100%"))
        self.number.add_class("hk-ex-option")
        self.number.on_submit(self.guard(self.submit, "checking the answer"))
        return self.number

    def _draw_marks(self, shown: str = "✓", cells=None) -> None:
        marks = dict(self.ex.highlight)
        marks.update({c: shown for c in (self.selected if cells is None else cells)})
        self.board.set_highlight(marks)

    # ------------------------------------------------------------------ answering
    def _on_cell(self, cell) -> None:
        if self.ex.kind != "cells":
            return
        cell = tuple(cell)
        self.selected ^= {cell}
        self._draw_marks()
        said = f"cell {cell_name(cell)} {'selected' if cell in self.selected else 'unselected'} ({len(self.selected)} selected)"
        announce = getattr(self.board, "announce", None)  # a board with a live region says it (keyboard, screen reader)
        if announce is not None:
            announce(said)
        self.said = said

    def plain_text(self) -> str:
        """The exercise's plain-text form (what a notebook shows before it is run, and what the
        notebook tests compare): :data:`RUN_FIRST`, then the words the widget shows."""
        return f"{RUN_FIRST}\n{visible_text(self)}"

    def response(self):
        """The answer as given in the widgets now."""
        k = self.ex.kind
        if k == "cells":
            return set(self.selected)
        if k == "choose":
            return self.choice.value
        if k == "pick":
            return {label for label, cb in self.boxes.items() if cb.value}
        return self.number.value

    def submit(self, response=None):
        """Judge ``response`` (default: what the widgets hold) and show the verdict;
        returns the :class:`~haunted_kit.exercises.Feedback`, or ``None`` when the answer
        cannot be read (the message says why; no try is counted)."""
        response = self.response() if response is None else response
        try:
            fb = self.ex.check(response, self.tries)
        except ExerciseError as exc:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">{escape(str(exc))}</div>'
            return None
        self.last = fb
        self.b_answer.disabled = False
        if fb.correct:
            self.solved = True
            self.feedback.value = (f'<div style="{_BOX};color:#0b6e2f;border-left:4px solid #0b6e2f;padding-left:6px">'
                                   f"<b>Right!</b> {escape(sentence_case(self.ex.right_text()))}{rulings_html(self.ex.right_text())}"
                                   "</div>")  # with its why
            return fb
        if not self.solved:  # a wrong answer after a right one is explained but counts no try
            self.tries += 1
        colour = _COLOUR[fb.stage]
        head, label = self.HEADS[fb.stage]
        said = (f"<b>{label}:</b> " if label else "") + escape(fb.text)
        count = "you answered right before" if self.solved else f"try {self.tries}"
        self.feedback.value = (f'<div style="{_BOX};color:{colour};border-left:4px solid {colour};padding-left:6px">'
                               f"<b>{head}</b> ({count}). {said}"
                               f"{self.TAIL.format(section=escape(fb.section))}{rulings_html(fb.text)}</div>")
        return fb

    def reveal(self) -> None:
        """Show the answer (only after an attempt), with the engine's explanation where it
        adds to it; the answer's cells are marked ``●`` on the board."""
        if self.b_answer.disabled:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">Have a try first; then the answer can be shown.</div>'
            return
        text = self.ex.answer_text()
        why = cite_rulings(self.ex.why_text())
        if why and why not in text:
            text += f" {why}"
        text = sentence_case(text)
        self.feedback.value = f'<div style="{_BOX};color:#333"><b>Answer.</b> {escape(text)}{rulings_html(text)}</div>'
        if self.ex.kind == "cells" and self.board is not None:
            self._draw_marks("●", self.ex.answer)
