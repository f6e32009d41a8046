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
