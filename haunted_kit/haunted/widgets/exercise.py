"""An exercise that answers back: the question, a way to answer, and the engine's verdict.

    from haunted_kit.haunted.widgets.exercise import exercise
    exercise("03-explore-cells", seed=1)       # display it in a notebook

* ``cells`` exercises show the field (:class:`~haunted_kit.haunted.widgets.field.FieldWidget`):
  a click selects or unselects a cell (selected cells are marked ``✓``);
* ``choose`` exercises show one toggle button per option, ``pick`` exercises one
  checkbox per option, ``number`` exercises a number box.

**Check** judges the answer (:meth:`haunted_kit.haunted.exercises.Exercise.check`). A wrong
answer shows the engine's explanation with the rulebook section; after two wrong tries
the hint appears; **Show answer** works once there has been an attempt; **New
exercise** makes the same exercise on the next seed. CSS classes: ``hk-exercise`` (the
view), ``hk-ex-question``, ``hk-ex-check``, ``hk-ex-answer``, ``hk-ex-new``,
``hk-ex-feedback`` (the verdict), ``hk-ex-hint``, ``hk-ex-option`` (each option).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..exercises import EXERCISES, Exercise, ExerciseError, make
from ...widgets.errors import ErrorReporting
from .field import FieldWidget

#: wrong tries after which the hint is shown
HINT_AFTER = 2

_BOX = "font-family:sans-serif;font-size:14px"


class ExerciseWidget(ErrorReporting, W.VBox):
    """Args:
        ex: an :class:`~haunted_kit.haunted.exercises.Exercise` (or use :func:`exercise`).
        size: hex size of the board in pixels.

    Attributes:
        tries: wrong answers so far; ``solved``: a right answer was given;
        feedback, hint_box: the verdict and the hint (HTML widgets).
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
        self.hint_box = W.HTML()
        self.hint_box.add_class("hk-ex-hint")
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
        self.hint_box.value = ""
        title = EXERCISES[ex.key][1]
        self.title.value = (f'<div style="{_BOX};font-weight:bold">Exercise: {escape(title)} '
                            f'<span style="color:#666;font-weight:normal">({escape(ex.key)}, seed {ex.seed})</span></div>')
        self.question.value = f'<div style="{_BOX};margin:4px 0">{escape(ex.question)}</div>'
        self.input = self._make_input(ex)
        board = []
        if ex.state is not None and ex.state.field is not None:
            if self.field is None:
                self.field = FieldWidget(ex.state, size=self.size)
                self.field.on_click(self.guard(self._on_cell, "selecting a cell"))
            else:
                self.field.update(ex.state)
            self._draw_marks()
            board = [W.HBox([self.field])]  # in a row, the canvas keeps its own size (clicks map 1:1 to its pixels)
        buttons = W.HBox([self.b_check, self.b_answer, self.b_new])
        self.children = [self.title, self.question, *board, self.input, buttons, self.feedback, self.hint_box, self.banner]

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
        self.number = W.IntText(value=0, description="answer", layout=W.Layout(width="180px"))
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
            fb = self.ex.check(response)
        except ExerciseError as exc:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">{escape(str(exc))}</div>'
            return None
        self.b_answer.disabled = False
        if fb.correct:
            self.solved = True
            self.feedback.value = (f'<div style="{_BOX};color:#0b6e2f;border-left:4px solid #0b6e2f;padding-left:6px">'
                                   f"<b>Right!</b> {escape(fb.text)}</div>")
            return fb
        self.tries += 1
        self.feedback.value = (f'<div style="{_BOX};color:#8b1a1a;border-left:4px solid #8b1a1a;padding-left:6px">'
                               f"<b>Not quite</b> (try {self.tries}). {escape(fb.text)} "
                               f'<span style="color:#555">Rulebook: "{escape(fb.section)}".</span></div>')
        if self.tries >= HINT_AFTER:
            self.hint_box.value = f'<div style="{_BOX};color:#114a7a"><b>Hint:</b> {escape(self.ex.hint)}</div>'
        return fb

    def reveal(self) -> None:
        """Show the answer (only after an attempt)."""
        if self.b_answer.disabled:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">Have a try first; then the answer can be shown.</div>'
            return
        self.feedback.value = f'<div style="{_BOX};color:#333"><b>Answer.</b> {escape(self.ex.answer_text())}</div>'
        if self.ex.kind == "cells" and self.field is not None:
            marks = dict(self.ex.highlight)
            marks.update({c: "●" for c in self.ex.answer})
            self.field.set_highlight(marks)


def exercise(key: str, seed: int = 0, *, size: float = 22) -> ExerciseWidget:
    """The widget for exercise ``key`` of :data:`haunted_kit.haunted.exercises.EXERCISES` on
    seed ``seed``. Raises :class:`~haunted_kit.haunted.exercises.ExerciseError` for an unknown
    key or a bad seed."""
    return ExerciseWidget(make(key, seed), size=size)
