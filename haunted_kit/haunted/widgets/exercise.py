"""An exercise that answers back: the question, a way to answer, and the engine's verdict.

    from haunted_kit.haunted.widgets.exercise import exercise
    exercise("03-explore-cells", seed=1)       # display it in a notebook

* the board (:class:`~haunted_kit.haunted.widgets.field.FieldWidget`) is drawn with every
  cell's coordinates (``F 2,-1``), the names the questions use; ``cells`` exercises
  select or unselect a cell with a click (selected cells are marked ``✓``);
* "What you know" lists the shown facts the board does not draw
  (:meth:`~haunted_kit.haunted.exercises.Exercise.fact_lines`: mode and ghost cards,
  holdings, tokens, the valor stack...);
* ``choose`` exercises show one toggle button per option, ``pick`` exercises one
  checkbox per option, ``number`` exercises a number box that starts empty.

**Check** judges the answer (:meth:`haunted_kit.haunted.exercises.Exercise.check`) in steps:
the first wrong try gets a nudge (what to look at, the rulebook section), the next
ones the rule applied to this position for the answer given; the answer itself only
with **Show answer** (after a first try). Check with nothing entered asks for an
answer and counts no try. **New exercise** makes the same exercise on a later seed
(always another position). CSS classes: ``hk-exercise`` (the view), ``hk-ex-question``,
``hk-ex-facts``, ``hk-ex-check``, ``hk-ex-answer``, ``hk-ex-new``, ``hk-ex-feedback``
(the verdict), ``hk-ex-option`` (each option).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..exercises import EXERCISES, Exercise, ExerciseError, make
from ...widgets.errors import ErrorReporting
from .field import FieldWidget

_BOX = "font-family:sans-serif;font-size:14px"


class ExerciseWidget(ErrorReporting, W.VBox):
    """Args:
        ex: an :class:`~haunted_kit.haunted.exercises.Exercise` (or use :func:`exercise`).
        size: hex size of the board in pixels.

    Attributes:
        tries: wrong answers so far; ``solved``: a right answer was given;
        feedback: the verdict (an HTML widget); facts: the "What you know" panel.
    """

    def __init__(self, ex: Exercise, *, size: float = 22, **kw):
        super().__init__(**kw)
        self.add_class("hk-exercise")
        self.size = size
        self.banner = self._init_errors()
        self.title = W.HTML()
        self.question = W.HTML()
        self.question.add_class("hk-ex-question")
        self.feedback = W.HTML()
        self.feedback.add_class("hk-ex-feedback")
        self.facts = W.HTML()
        self.facts.add_class("hk-ex-facts")
        self.b_check = W.Button(description="Check", button_style="primary", tooltip="judge my answer")
        self.b_check.add_class("hk-ex-check")
        self.b_answer = W.Button(description="Show answer", tooltip="after a first try", disabled=True)
        self.b_answer.add_class("hk-ex-answer")
        self.b_new = W.Button(description="New exercise", tooltip="the same question on another seeded position")
        self.b_new.add_class("hk-ex-new")
        self.b_check.on_click(self.guard(lambda _b: self.submit(), "checking the answer"))
        self.b_answer.on_click(self.guard(lambda _b: self.reveal(), "showing the answer"))
        self.b_new.on_click(self.guard(lambda _b: self.load(self.ex.regenerate()), "making a new exercise"))
        self.field: FieldWidget | None = None
        self.load(ex)

    # ------------------------------------------------------------------ building
    def load(self, ex: Exercise) -> None:
        """Show exercise ``ex`` (a fresh start: no tries, no feedback)."""
        self.ex = ex
        self.tries = 0
        self.solved = False
        self.selected: set = set()
        self.b_answer.disabled = True
        self.feedback.value = ""
        lines = ex.fact_lines()
        self.facts.value = (f'<div style="{_BOX};margin:2px 0"><b>What you know:</b><ul style="margin:2px 0">'
                            + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul></div>") if lines else ""
        title = EXERCISES[ex.key][1]
        self.title.value = (f'<div style="{_BOX};font-weight:bold">Exercise: {escape(title)} '
                            f'<span style="color:#666;font-weight:normal">({escape(ex.key)}, seed {ex.seed})</span></div>')
        self.question.value = f'<div style="{_BOX};margin:4px 0">{escape(ex.question)}</div>'
        self.input = self._make_input(ex)
        board = []
        if ex.state is not None and ex.state.field is not None:
            if self.field is None:
                self.field = FieldWidget(ex.state, size=self.size, show_coords=True)
                self.field.on_click(self.guard(self._on_cell, "selecting a cell"))
            else:
                self.field.update(ex.state)
            self._draw_marks()
            board = [W.HBox([self.field])]  # in a row, the canvas keeps its own size (clicks map 1:1 to its pixels)
        buttons = W.HBox([self.b_check, self.b_answer, self.b_new])
        self.children = [self.title, self.question, self.facts, *board, self.input, buttons, self.feedback, self.banner]

    def _make_input(self, ex: Exercise):
        if ex.kind == "cells":
            return W.HTML(f'<div style="{_BOX};color:#555">Click cells on the board to select them; click again to '
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
        self.number = W.Text(value="", placeholder="a whole number", description="answer", layout=W.Layout(width="180px"))
        self.number.add_class("hk-ex-option")
        return self.number

    def _draw_marks(self) -> None:
        marks = dict(self.ex.highlight)
        marks.update({c: "✓" for c in self.selected})
        self.field.set_highlight(marks)

    # ------------------------------------------------------------------ answering
    def _on_cell(self, cell) -> None:
        if self.ex.kind != "cells":
            return
        self.selected ^= {tuple(cell)}
        self._draw_marks()

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
        returns the :class:`~haunted_kit.haunted.exercises.Feedback`, or ``None`` if the answer
        could not be read (the message says why)."""
        response = self.response() if response is None else response
        try:
            fb = self.ex.check(response, attempt=self.tries + 1)
        except ExerciseError as exc:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">{escape(str(exc))}</div>'
            return None
        if fb.correct:
            self.solved = True
            self.feedback.value = (f'<div style="{_BOX};color:#0b6e2f;border-left:4px solid #0b6e2f;padding-left:6px">'
                                   f"<b>Right!</b> {escape(fb.text)}</div>")
            return fb
        self.tries += 1
        self.b_answer.disabled = False
        head = "Not quite" if fb.step == "nudge" else "Not yet: the rule on this board"
        self.feedback.value = (f'<div style="{_BOX};color:#8b1a1a;border-left:4px solid #8b1a1a;padding-left:6px">'
                               f"<b>{head}</b> (try {self.tries}). {escape(fb.text)} "
                               f'<span style="color:#555">Rulebook: "{escape(fb.section)}". Try again, or press '
                               "Show answer.</span></div>")
        return fb

    def reveal(self) -> None:
        """Show the answer (only after an attempt)."""
        if self.b_answer.disabled:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">Have a try first; then the answer can be shown.</div>'
            return
        why = self.ex.why_text()
        text = self.ex.answer_text() + (f" {why}" if why and why not in self.ex.answer_text() else "")
        self.feedback.value = f'<div style="{_BOX};color:#333"><b>Answer.</b> {escape(text)}</div>'
        if self.ex.kind == "cells" and self.field is not None:
            marks = dict(self.ex.highlight)
            marks.update({c: "●" for c in self.ex.answer})
            self.field.set_highlight(marks)


def exercise(key: str, seed: int = 0, *, size: float = 22) -> ExerciseWidget:
    """The widget for exercise ``key`` of :data:`haunted_kit.haunted.exercises.EXERCISES` on
    seed ``seed``. Raises :class:`~haunted_kit.haunted.exercises.ExerciseError` for an unknown
    key or a bad seed."""
    return ExerciseWidget(make(key, seed), size=size)
