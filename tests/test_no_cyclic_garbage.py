"""Playing a game and asking for a hint leave no reference cycles behind (issue 21).

Garbage in cycles is freed only by Python's cycle collector, whose passes over a search's
many live objects cost a large share of a hint's time (Landmarks: 0.1-0.5 s of a 1,000-playout
hint, from the payment planner's recursive closure, a function that refers to itself through
its cell). With the collector switched off, ``gc.collect()`` counts the unreachable objects
that only it could free: it must count none after a game played by greedy bots and a hint.
A first game is played before measuring, so objects made once (lazy imports, memo tables'
first entries) are not counted.
"""

from __future__ import annotations

import gc

import pytest

from haunted_kit.bots import default_agent, make_bot
from haunted_kit.games import game_names, get_game, option_defaults
from haunted_kit.search import hints



def play_with_hint(name: str, seed: int, hint_at: int = 3, playouts: int = 60) -> int:
    """Play the seeded game of ``name`` by greedy bots (3 players, or the game's nearest count),
    with the game's declared option defaults (Landmarks: 3 rounds, its building and scoring
    paths), asking for a hint at decision ``hint_at``; the number of decisions played."""
    g = get_game(name)
    players = min(max(3, g.min_players), g.max_players)
    s = g.new_game(players=players, seed=seed, **option_defaults(g))
    bots = [make_bot(default_agent(g), p, g) for p in range(players)]
    decisions = 0
    while not s.is_terminal():
        assert s.current_player() is not None, "a waiting chance node in a game started with auto_chance"
        if decisions == hint_at:
            assert hints(s, playouts=playouts, seed=1)
        s.apply_action(bots[s.current_player()].act(s))
        decisions += 1
    return decisions


@pytest.mark.parametrize("name", game_names())
def test_a_played_game_and_a_hint_leave_no_cyclic_garbage(name):
    play_with_hint(name, seed=11)  # warm up: imports and first memo entries
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        decisions = play_with_hint(name, seed=12)
        left = gc.collect()
    finally:
        if was:
            gc.enable()
    assert decisions > 3  # the hint was asked
    assert left == 0, f"{name}: a game of {decisions} decisions and a hint left {left} objects in reference cycles"


@pytest.mark.parametrize("was_on", [True, False])
def test_a_search_pauses_the_collector_and_leaves_it_as_it_found_it(was_on):
    """The search pauses the collector for its playouts only, and restores it as it was:
    on stays on, off stays off (a caller who switched it off is not overruled)."""
    seen = []
    s = get_game("haunted").new_game(players=3, seed=5)

    def progress(done, budget):  # called between playouts
        seen.append(gc.isenabled())

    before = gc.isenabled()
    (gc.enable if was_on else gc.disable)()
    try:
        assert hints(s, playouts=100, seed=1, progress=progress)
        after = gc.isenabled()
    finally:
        (gc.enable if before else gc.disable)()
    assert seen == [False, False]  # at playouts 50 and 100
    assert after is was_on


def test_a_refused_search_leaves_the_collector_on():
    s = get_game("estate").new_game(players=2, seed=3)
    bots = [make_bot("random", p, get_game("estate")) for p in range(2)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    assert gc.isenabled()
    with pytest.raises(ValueError, match="the game is over"):
        hints(s, playouts=10)
    assert gc.isenabled()
