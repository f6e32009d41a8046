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

CSS classes: ``hk-exercise`` (the view), ``hk-ex-facts``, ``hk-ex-question``, ``hk-ex-check``,
``hk-ex-answer``, ``hk-ex-new``, ``hk-ex-feedback`` (the verdict), ``hk-ex-option`` (each option).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..events import rulings_html
from ..exercises import Exercise, ExerciseError, cite_rulings
from .errors import ErrorReporting

_BOX = "font-family:sans-serif;font-size:14px"
_COLOUR = {"nudge": "#8a5300", "rule": "#8b1a1a"}


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
    TAIL = ""

    def __init__(self, ex: Exercise, *, board=None, **kw):
        super().__init__(**kw)
        self.add_class("hk-exercise")
        self.board_of = board
        self.board = None
        self.banner = self._init_errors()
        self._parts = ()
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

    # ------------------------------------------------------------------ building
    def load(self, ex: Exercise) -> None:
        """Show exercise ``ex`` (a fresh start: no tries, no feedback, nothing selected).
        Every part is built first, in new widgets, and shown by one assignment of the
        children, so a view never shows the new title beside the old question."""
        title = W.HTML(f'<div style="{_BOX};font-weight:bold">Exercise: {escape(ex.title)} '
                       f'<span style="color:#666;font-weight:normal">({escape(ex.key)}, seed {ex.seed})</span></div>')
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
        self.title, self.facts, self.question, self.feedback = title, facts, question, feedback
        self.input = self._make_input(ex)
        self.board = self.board_of(ex.state) if self.board_of is not None and ex.state is not None else None
        board = []
        if self.board is not None:
            whatis = getattr(self.board, "whatis", None)
            if whatis is not None:  # the board's key would say the rule's numbers the question asks for
                whatis.withhold()
            if self._marks_on_board():
                self.board.on_click(self.guard(self._on_cell, "selecting a cell"))
                self._draw_marks()
            board = [W.HBox([self.board], layout=W.Layout(max_width="100%"))]  # the board fits the output width
        top = [self.question, self.facts, *board] if self.QUESTION_FIRST else [self.facts, *board, self.question]
        self.b_answer.disabled = True
        self.children = [self.title, *top, self.input, W.HBox([self.b_check, self.b_answer, self.b_new]),
                         self.feedback, self.banner]
        self._parts = (title, facts, question, feedback, self.input, *board)
        for w in old:
            w.close()

    def _marks_on_board(self) -> bool:
        return self.ex.kind == "cells" or bool(self.ex.highlight)

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
        # a text box, empty until something is typed (an IntText would show "0", an answer)
        # wide enough for its placeholder beside the label (180 px cut it to "a whole num")
        self.number = W.Text(value="", placeholder="a whole number", description="answer",
                             layout=W.Layout(width="280px", max_width="100%"))
        self.number.add_class("hk-ex-option")
        return self.number

    def _draw_marks(self, shown: str = "✓", cells=None) -> None:
        marks = dict(self.ex.highlight)
        marks.update({c: shown for c in (self.selected if cells is None else cells)})
        self.board.set_highlight(marks)

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
                                   f"<b>Right!</b> {escape(self.ex.right_text())}{rulings_html(self.ex.right_text())}"
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
        self.feedback.value = f'<div style="{_BOX};color:#333"><b>Answer.</b> {escape(text)}{rulings_html(text)}</div>'
        if self.ex.kind == "cells" and self.board is not None:
            self._draw_marks("●", self.ex.answer)
