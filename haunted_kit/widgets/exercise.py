"""An exercise that answers back, for any game: the facts, the question, a way to answer, and
the engine's stepped verdict (:mod:`haunted_kit.exercises`).

    from haunted_kit.widgets.exercise import ExerciseWidget
    ExerciseWidget(EXERCISES.make("08-take-limit", seed=1))

``choose`` exercises show one toggle button per option, ``pick`` exercises one checkbox per
option, ``number`` exercises a number box. **Check** judges the answer: a first wrong try
gets a nudge with the rule's section, later wrong tries the rule applied to this position
(:meth:`~haunted_kit.exercises.Exercise.check`); **Show answer** works once there has been an
attempt; **New exercise** makes the same exercise on the next seed. ``board``: an optional
``board(state) -> widget`` drawn under the facts (the game's panel of the position).

CSS classes: ``hk-exercise`` (the view), ``hk-ex-facts``, ``hk-ex-question``, ``hk-ex-check``,
``hk-ex-answer``, ``hk-ex-new``, ``hk-ex-feedback`` (the verdict), ``hk-ex-option`` (each option).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..exercises import Exercise, ExerciseError
from .errors import ErrorReporting

_BOX = "font-family:sans-serif;font-size:14px"
_STYLE = {"nudge": ("#8a5300", "Not quite"), "rule": ("#8b1a1a", "Not quite")}


class ExerciseWidget(ErrorReporting, W.VBox):
    """Args:
        ex: an :class:`~haunted_kit.exercises.Exercise`.
        board: ``board(state) -> widget`` showing the exercise's position, or ``None``.

    Attributes:
        tries: wrong answers so far; ``solved``: a right answer was given; ``feedback``:
        the verdict (an HTML widget); ``last``: the last :class:`~haunted_kit.exercises.Feedback`.
    """

    def __init__(self, ex: Exercise, *, board=None, **kw):
        super().__init__(**kw)
        self.add_class("hk-exercise")
        self.board_of = board
        self.banner = self._init_errors()
        self.title = W.HTML()
        self.facts = W.HTML()
        self.facts.add_class("hk-ex-facts")
        self.question = W.HTML()
        self.question.add_class("hk-ex-question")
        self.feedback = W.HTML()
        self.feedback.add_class("hk-ex-feedback")
        self.b_check = W.Button(description="Check", button_style="primary", tooltip="judge my answer")
        self.b_check.add_class("hk-ex-check")
        self.b_answer = W.Button(description="Show answer", tooltip="after a first try", disabled=True)
        self.b_answer.add_class("hk-ex-answer")
        self.b_new = W.Button(description="New exercise", tooltip="the same question on another seeded position")
        self.b_new.add_class("hk-ex-new")
        self.b_check.on_click(self.guard(lambda _b: self.submit(), "checking the answer"))
        self.b_answer.on_click(self.guard(lambda _b: self.reveal(), "showing the answer"))
        self.b_new.on_click(self.guard(lambda _b: self.load(self.ex.regenerate()), "making a new exercise"))
        self.load(ex)

    def load(self, ex: Exercise) -> None:
        """Show exercise ``ex`` (a fresh start: no tries, no feedback)."""
        self.ex = ex
        self.tries = 0
        self.solved = False
        self.last = None
        self.b_answer.disabled = True
        self.feedback.value = ""
        self.title.value = (f'<div style="{_BOX};font-weight:bold">Exercise: {escape(ex.title)} '
                            f'<span style="color:#666;font-weight:normal">({escape(ex.key)}, seed {ex.seed})</span></div>')
        items = "".join(f"<li>{escape(f)}</li>" for f in ex.facts)
        self.facts.value = f'<ul style="{_BOX};margin:2px 0">{items}</ul>'
        self.question.value = f'<div style="{_BOX};margin:4px 0"><b>{escape(ex.question)}</b></div>'
        self.input = self._make_input(ex)
        board = [self.board_of(ex.state)] if self.board_of is not None and ex.state is not None else []
        self.children = [self.title, self.facts, *board, self.question, self.input,
                         W.HBox([self.b_check, self.b_answer, self.b_new]), self.feedback, self.banner]

    def _make_input(self, ex: Exercise):
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

    def response(self):
        """The answer as given in the widgets now."""
        if self.ex.kind == "choose":
            return self.choice.value
        if self.ex.kind == "pick":
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
                                   f"<b>Right!</b> {escape(fb.text)}</div>")
            return fb
        self.tries += 1
        colour, head = _STYLE[fb.stage]
        what = "Hint" if fb.stage == "nudge" else "The rule here"
        self.feedback.value = (f'<div style="{_BOX};color:{colour};border-left:4px solid {colour};padding-left:6px">'
                               f"<b>{head}</b> (try {self.tries}). <b>{what}:</b> {escape(fb.text)}</div>")
        return fb

    def reveal(self) -> None:
        """Show the answer (only after an attempt)."""
        if self.b_answer.disabled:
            self.feedback.value = f'<div style="{_BOX};color:#8a5300">Have a try first; then the answer can be shown.</div>'
            return
        self.feedback.value = f'<div style="{_BOX};color:#333"><b>Answer.</b> {escape(self.ex.answer_text())}</div>'
