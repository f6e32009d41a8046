"""The kit's exercise machinery (haunted_kit.exercises, haunted_kit.widgets.exercise) that every
game's exercises use: a toy exercise set shows the steps, the skipping of finished games, the
cell answers on a board; then every game's exercises are checked to run on it."""

from __future__ import annotations

import ipywidgets as W
import pytest

from haunted_kit.estate.exercises import EXERCISES as ESTATE
from haunted_kit.estate.widgets import exercise as estate_exercise
from haunted_kit.exercises import MAX_SKIPS, Exercise, ExerciseError, ExerciseSet, Feedback, NoPosition, how_off
from haunted_kit.haunted.exercises import EXERCISES as HAUNTED
from haunted_kit.haunted.widgets.exercise import exercise as haunted_exercise
from haunted_kit.landmarks.exercises import EXERCISES as LANDMARKS
from haunted_kit.landmarks.widgets import exercise as landmarks_exercise
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.exercise import ExerciseWidget


class Board(W.HTML):
    """A stand-in board that takes cell answers: records its marks, clicks call back."""

    def __init__(self, state):
        super().__init__()
        self.marks, self.callbacks = {}, []

    def set_highlight(self, marks):
        self.marks = dict(marks)

    def on_click(self, callback):
        self.callbacks.append(callback)

    def click(self, cell):
        for cb in self.callbacks:
            cb(cell)


CELLS = frozenset({(0, 0), (1, -1)})


class Position:
    """A stand-in position of a game in progress."""

    def is_terminal(self):
        return False


def _cells(seed):
    """Cells exercise; the 'game' of seeds 3 and 4 ends before the position."""
    if seed in (3, 4):
        raise NoPosition(f"seed {seed} ended")
    return Exercise("", seed, "", ("A fact.",), "Which cells?", "cells", CELLS, "Section 1", "look at the cells",
                    "the rule applied", state=Position(), highlight={(2, 2): "?"})


def _never(seed):
    raise NoPosition("always over")


TOY = ExerciseSet({"t-cells": ("99", "Toy cells", _cells), "t-never": ("99", "Never", _never)})


def test_a_set_skips_the_seeds_whose_game_ended_and_refuses_bad_seeds():
    assert TOY.make("t-cells", 2).seed == 2 and TOY.make("t-cells", 3).seed == 5
    assert TOY.make("t-cells", 2).regenerate().seed == 5     # 3 and 4 skipped
    assert TOY.make("t-cells", 0).regenerate(4).seed == 5
    assert (TOY["t-cells"][1], TOY.title("t-cells"), TOY.make("t-cells").title) == ("Toy cells",) * 3
    assert list(TOY) == ["t-cells", "t-never"] and len(TOY) == 2 and TOY.for_notebook("99") == list(TOY)
    with pytest.raises(ExerciseError, match=rf"^no position for t-never in seeds 7\.\.{7 + MAX_SKIPS - 1}: every game"):
        TOY.make("t-never", 7)
    for sets in (TOY, ESTATE, LANDMARKS, HAUNTED):
        with pytest.raises(ExerciseError, match=r"^seed must be a non-negative integer, got -1$"):
            sets.make(next(iter(sets)), -1)


def test_cell_answers_are_read_and_judged_in_steps():
    ex = TOY.make("t-cells", 0)
    assert ex.check([[0, 0], ("1", "-1")]).correct           # any pair of whole numbers names a cell
    fb = ex.check({(0, 0)})
    assert (fb.correct, fb.stage, fb.step, fb.text) == (False, "nudge", "nudge",
                                                     'Those are not the right cells. Look at the cells (rules: "Section 1")')
    assert ex.check({(0, 0), (1, -1), (2, 2)}).text == fb.text         # one too many: the same nudge, no count
    assert ex.check({(0, 0)}, tries=1) == ex.check({(0, 0)}, attempt=2) == Feedback(
        False, "rule", "Those are not the right cells. The rule applied", "Section 1")
    assert ex.answer_text() == "The answer: 0,0; 1,-1."             # cells written as the board writes them
    with pytest.raises(ExerciseError, match=r"answer with a set of cells"):
        ex.check({"a"})


@pytest.mark.parametrize("kind, got, answer, said", [
    ("number", 5, 3, "5 is too high."), ("number", 1, 3, "1 is too low."), ("choose", "P2", "P1", "Not P2."),
    # a set answer: neither counts nor which way (either would give the answer away)
    ("cells", {(0, 0), (1, 1), (2, 2)}, {(0, 0)}, "Those are not the right cells."),
    ("cells", {(0, 0)}, {(0, 0), (1, 1)}, "Those are not the right cells."),
    ("pick", {"a"}, {"a", "b", "c"}, "That is not the right set of choices."),
    ("pick", {"x", "a"}, {"a", "b"}, "That is not the right set of choices."),
])
def test_how_off_says_which_way_without_the_answer(kind, got, answer, said):
    assert how_off(kind, frozenset(got) if isinstance(got, set) else got,
                   frozenset(answer) if isinstance(answer, set) else answer) == said


def test_the_widget_takes_cell_answers_on_its_board():
    with capture_errors() as caught:
        w = ExerciseWidget(TOY.make("t-cells", 0), board=Board)
        assert w.board.marks == {(2, 2): "?"}                       # the highlight is drawn
        w.board.click((0, 0))
        assert w.selected == {(0, 0)} and w.board.marks == {(2, 2): "?", (0, 0): "✓"}
        w.b_check.click()
        assert (w.tries, w.last.stage) == (1, "nudge") and "Not quite: a hint" in w.feedback.value
        w.b_answer.click()
        assert "The answer: 0,0; 1,-1." in w.feedback.value
        assert w.board.marks == {(2, 2): "?", (0, 0): "●", (1, -1): "●"}
        w.board.click((1, -1))
        w.b_check.click()
        assert w.solved and "Right!" in w.feedback.value
        w.b_new.click()
        assert (w.ex.seed, w.selected, w.board.marks) == (1, set(), {(2, 2): "?"})
    assert not caught, caught


WIDGETS = [pytest.param(HAUNTED, haunted_exercise, id="haunted"), pytest.param(ESTATE, estate_exercise, id="estate"),
           pytest.param(LANDMARKS, landmarks_exercise, id="landmarks")]


@pytest.mark.parametrize("sets, widget", WIDGETS)
def test_every_games_exercises_run_on_the_kit_machinery(sets, widget):
    """Every exercise of every game is a kit record made by a kit set and shown by the kit
    widget: an unreadable answer counts no try, Show answer comes after any attempt (a right
    one too), New exercise moves to a later seed."""
    for key in sets:
        ex = sets.make(key, 1)
        assert isinstance(ex, Exercise) and ex.title == sets.title(key) and not ex.state.is_terminal()
    key = next(k for k in sets if sets.make(k, 1).kind == "number")
    with capture_errors() as caught:
        w = widget(key, 1)
        assert isinstance(w, ExerciseWidget) and type(w).__name__ == "ExerciseWidget"
        w.submit("lots")
        assert w.tries == 0 and w.b_answer.disabled and "whole number" in w.feedback.value
        w.submit(w.ex.answer)
        assert w.solved and w.tries == 0 and not w.b_answer.disabled
        seed = w.ex.seed
        w.b_new.click()
        assert w.ex.seed > seed and (w.tries, w.solved, w.feedback.value) == (0, False, "")
    assert not caught, caught


def test_a_number_nudge_never_leaves_a_single_possible_answer():
    """A direction is a nudge only while it leaves more than one answer: with answers from 0,
    "1 is too high" would give the answer 0 away (a student met it in 08-take-limit)."""
    from haunted_kit.exercises import how_off

    assert how_off("number", 1, 0, (0, None)) == "1 is not right."
    assert how_off("number", 2, 0, (0, None)) == "2 is too high."
    assert how_off("number", 3, 5, (0, 6)) == "3 is too low."
    assert how_off("number", 5, 6, (0, 6)) == "5 is not right."
    assert how_off("number", 4, 2) == "4 is too high."


def test_the_landmarks_points_rule_step_leaves_the_sum_to_the_student():
    """09-points' second step applies the scoring rules to this position and names one part
    (what a low count most likely missed, what a high count most likely counted), never
    every part, a part's points or the total (issue 29: listed parts sum to the answer)."""
    from haunted_kit.landmarks import rules as R
    from haunted_kit.landmarks.exercises import EXERCISES as LM

    for seed in range(6):
        ex = LM.make("09-points", seed)
        rows = [r for r in R.score_rows(ex.state) if r["player"] == R.who(ex.player)]
        for wrong in (ex.answer + 2, ex.answer - 1):
            if wrong < 0:
                continue
            text = ex.check(wrong, 2).text
            named = [r for r in rows if f"{r['source']}: {r['explanation']}" in text]
            assert "add the points of each part" in text and f": {ex.answer} (" not in text, text
            assert len(named) == 1, text
            # too low: a part that scores; too high: one that scores nothing
            assert (named[0]["points"] > 0) == (wrong < ex.answer), text


def test_a_wrong_answer_after_a_right_one_counts_no_try():
    """A student who found the answer and then tries another gets that answer explained,
    but the exercise stays solved and counts no try (a student met 'try 2' after 'Right!')."""
    from haunted_kit.haunted.widgets.exercise import exercise

    w = exercise("01-entry-cost", seed=1)
    assert w.submit(w.ex.right_response()).correct and w.tries == 0
    fb = w.submit(w.ex.answer + 1)
    assert not fb.correct and w.tries == 0 and w.solved
    assert "(you answered right before)" in w.feedback.value
