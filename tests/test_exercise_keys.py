"""The exercise widget from the keyboard and on a phone, over every game's exercises: Enter in a
number box checks, a new exercise keeps the focus in the exercise (its buttons' row is kept, a
number box takes the focus), a cell selected from the board is said in the board's live region,
the number box asks a phone for its numeric keyboard, the buttons wrap whole, the board of a
question about some cells is panned to them, and the text form a notebook shows before it is
run says to run the cell."""

from __future__ import annotations

import pytest

from haunted_kit.games import game_module
from haunted_kit.hexgrid import cell_name
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.exercise import RUN_FIRST, TRY_AGAIN, NumberBox

from ruletools import games_with_module

GAMES = [n for n in games_with_module("exercises", "widgets")
         if getattr(game_module(n, "widgets"), "exercise_view", None) is not None]


def _cases():
    return [(n, k) for n in GAMES for k in game_module(n, "exercises").EXERCISES]


@pytest.mark.parametrize("name,key", _cases())
def test_every_exercise_reads_checks_and_renews_from_the_keyboard(name, key):
    make = game_module(name, "widgets").exercise_view
    with capture_errors() as caught:
        w = make(key, 1)
        text = w._repr_mimebundle_()["text/plain"]
        assert text.startswith(RUN_FIRST + "\n") and w.ex.question.split()[0] in text   # the instruction first
        row = w.buttons
        assert row.layout.flex_flow == "row wrap" and all(b.layout.width == "auto" for b in row.children)
        if w.ex.kind == "number":
            assert isinstance(w.number, NumberBox) and "inputmode = \"numeric\"" in NumberBox._esm.replace("inputMode", "inputmode")
            assert not w.number.autofocus            # a notebook run takes no focus
            w.number.value = str(w.ex.answer + 1)
            w.number.press_enter()                   # Enter in the box checks
            assert w.tries == 1 and w.last.stage == "nudge"
            w.number.press_enter()
            assert w.tries == 2 and w.last.stage == "rule" and TRY_AGAIN in w.feedback.value
            w.number.value = str(w.ex.answer)
            w.number.press_enter()
            assert w.solved
        w.b_new.click()
        assert w.buttons is row and w.children[2] is row   # the row (and the focus on New exercise) is kept
        assert w.children[1] is w.feedback   # the verdict right above Check (a phone sees it where it tapped)
        if w.ex.kind == "number":
            assert w.number.autofocus and w.number.value == ""   # the new exercise's box takes the focus
    assert not caught, caught


@pytest.mark.parametrize("name", GAMES)
def test_a_cell_selected_is_said_in_the_live_region_and_the_board_is_panned_to_the_question(name):
    make = game_module(name, "widgets").exercise_view
    sets = game_module(name, "exercises").EXERCISES
    for key in sets:
        w = make(key, 2)
        if w.board is None:
            continue
        if w.ex.highlight and getattr(w.board, "pan_to", None) is not None:
            xs = [w.board.geom.centre(c)[0] for c in w.ex.highlight]
            want = round((min(xs) + max(xs)) / 2 / w.board.geom.width, 4)
            assert 0 < want < 1 and w.board.pan.pan_x == want, (key, w.board.pan.pan_x, want)
        if w.ex.kind != "cells":
            continue
        a, b = sorted(w.ex.answer)[:2] if len(w.ex.answer) > 1 else (sorted(w.ex.answer)[0], None)
        if getattr(w.board, "keypad", None) is not None:     # from the keyboard: the cursor there, Enter
            w.board.move_cursor(a)
            w.board.keypad.press("Enter")
        else:
            w._on_cell(a)
        said = f"cell {cell_name(a)} selected (1 selected)"
        assert w.said == said, (key, w.said)
        if getattr(w.board, "keypad", None) is not None:
            assert said in w.board.keypad.text, (key, w.board.keypad.text)
        w._on_cell(a)
        assert w.said == f"cell {cell_name(a)} unselected (0 selected)" and not w.selected
