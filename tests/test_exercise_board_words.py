"""What an exercise shows besides its question and facts tells nothing more: a student read
"Last event: P2, the last player, rolls the terrain die" under the board of a question asking
who plays first. Over every exercise of every registered game (each game's own exercise view,
its ``widgets.exercise_view`` hook, else the kit's), on a few seeds, neither the shown words nor
a board's live region say the position's last event (what the question needs is in its facts)."""

import pytest

from haunted_kit.games import game_module
from haunted_kit.widgets.access import FieldKeys
from haunted_kit.widgets.exercise import ExerciseWidget
from haunted_kit.widgets.text import visible_text
from ruletools import games_with_module

SEEDS = range(3)


def _all():
    return [(g, key) for g in games_with_module("exercises") for key in game_module(g, "exercises").EXERCISES]


def _view(g, key, seed):
    try:
        own = getattr(game_module(g, "widgets"), "exercise_view", None)
    except ImportError:
        own = None
    return own(key, seed) if own is not None else ExerciseWidget(game_module(g, "exercises").EXERCISES.make(key, seed))


def live_regions(w) -> list[str]:
    """The texts of every keyboard live region under widget ``w`` (:class:`FieldKeys`: a screen
    reader says it, and the board's line shows it)."""
    out = [w.text] if isinstance(w, FieldKeys) else []
    for c in getattr(w, "children", ()):
        out += live_regions(c)
    return out


@pytest.mark.parametrize("g,key", _all())
def test_an_exercise_never_quotes_its_positions_last_event(g, key):
    for seed in SEEDS:
        v = _view(g, key, seed)
        said = " ".join(live_regions(v)) + " " + visible_text(v)
        assert "Last event" not in said, (g, key, seed, said[:300])


@pytest.mark.parametrize("g,key", _all())
def test_a_panning_board_starts_at_what_the_question_is_about(g, key):
    """A phone's board pans in its box and opened at its left edge, so a student had to find the
    question's cells by panning (a question about P2's sensor at 2,2, a target at 3,-3): a board
    that pans starts at the question's marked cells, else where the player it is about stands."""
    for seed in SEEDS:
        v = _view(g, key, seed)
        board, ex = v.board, v.ex
        if board is None or not hasattr(board, "pan_to"):
            continue
        own = getattr(board, "player_cells", None)
        cells = list(ex.highlight) or (own(ex.player) if own is not None and ex.player is not None else [])
        if not cells:
            assert board.pan.pan_x == -1.0
            continue
        xs = [board.geom.centre(tuple(c))[0] for c in cells]
        assert board.pan.pan_x == round((min(xs) + max(xs)) / 2 / board.geom.width, 4), (g, key, seed, cells)
        assert 0 < board.pan.pan_x < 1
