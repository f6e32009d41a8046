"""The estate encoder's fast path (issue 21: the environment's observation at a fraction of
an engine step): ``EstateObservation.from_state`` keeps one vector, a copy of each state
field it was written from and each observer's slot flags, and rewrites only the fields
that changed. Edits made in place on one state object (outside the rules) and positions
loaded into it must show at once, for every observer, as the plain vector of
``state.observation(me)``; its memory of lands stays bounded."""

from __future__ import annotations

import random

import numpy as np

from haunted_kit.env import KitAECEnv
from haunted_kit.estate import encoding as E
from haunted_kit.estate.scenario import position
from haunted_kit.estate.state import position_of, set_position
from haunted_kit.games import get_game
from haunted_kit.search import sample_chance


def _plain(enc, s, p):
    return enc(s.observation(p), p, None if s.is_terminal() else s.current_player())


def _fast(enc, s, p):
    return enc.from_state(s, p, None if s.is_terminal() else s.current_player())


def _entry(enc, s, p, name):
    return float(_fast(enc, s, p)[enc.names.index(name)])


def test_estate_from_state_follows_in_place_edits_of_one_state_object():
    s = position(players=3, lands={(0, 2): ("forest", [0])}, display=["tax_land", "forest"], log=False)
    enc = KitAECEnv("estate", players=3).encode
    for p in range(3):
        assert np.array_equal(_fast(enc, s, p), _plain(enc, s, p))
    assert _entry(enc, s, 1, "slot0,2.owner=player+2") == 1  # P1's land, seen by P2 (two seats on)
    assert s.display == ["tax_land", "forest", "limestone_quarry", "tax_land"]  # refilled to four from the stack
    assert [_entry(enc, s, 0, f"display.{t}") for t in ("tax_land", "forest", "limestone_quarry")] == [2, 1, 1]

    s.hand[1]["gold"] = 7  # a nested value changed in place
    assert [_entry(enc, s, p, f"player+{(1 - p) % 3}.hand.gold") for p in range(3)] == [7, 7, 7]
    s.lands[(0, 2)]["markers"].append(2)  # P3 joins, in place
    assert _entry(enc, s, 2, "slot0,2.marker=player+0") == 1 and _entry(enc, s, 0, "slot0,2.marker=player+2") == 1
    assert _entry(enc, s, 1, "slot0,2.marker=player+1") == 1 and _entry(enc, s, 1, "slot0,2.marker=player+0") == 0
    s.display.append("forest")
    assert _entry(enc, s, 2, "display.forest") == 2
    s.first_taker["wood"] = 2
    assert _entry(enc, s, 0, "player+2.first_taker.wood") == 1 and _entry(enc, s, 2, "player+0.first_taker.wood") == 1
    s.first_taker["wood"] = None
    assert _entry(enc, s, 0, "player+2.first_taker.wood") == 0
    del s.lands[(0, 2)]  # a land gone: its slot's flags cleared for every observer
    assert [_entry(enc, s, p, "slot0,2.tile=forest") for p in range(3)] == [0, 0, 0]
    assert [_entry(enc, s, p, f"slot0,2.marker=player+{(2 - p) % 3}") for p in range(3)] == [0, 0, 0]
    for p in range(3):
        assert np.array_equal(_fast(enc, s, p), _plain(enc, s, p))


def test_estate_from_state_follows_positions_loaded_into_one_state_object():
    """Positions of a seeded random game loaded in a shuffled order (lands, display and
    visits come and go) into one state object, each seen by every player."""
    game = get_game("estate")
    s, rng, seen = game.new_game(players=3, seed=5, log=False), random.Random(5), []
    while not s.is_terminal():
        if s.is_chance_node():
            sample_chance(s, rng)
            continue
        seen.append(position_of(s))
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    rng.shuffle(seen)
    enc = KitAECEnv("estate", players=3).encode
    one = game.new_game(players=3, seed=5, log=False)
    lands = set()
    for d in seen[:60]:
        set_position(one, d)
        lands.add(len(one.lands))
        for p in range(3):
            assert np.array_equal(_fast(enc, one, p), _plain(enc, one, p))
    assert len(lands) > 3  # positions with different numbers of lands met, in no order


def test_estate_from_state_memory_of_lands_stays_bounded(monkeypatch):
    monkeypatch.setattr(E, "_SECTIONS_KEPT", 4)
    enc = KitAECEnv("estate", players=3).encode
    slots = [(0, 2), (-1, 2), (-2, 2)]
    for i, tile in enumerate(["forest", "tax_land", "limestone_quarry", "marble_quarry", "forest", "tax_land"]):
        for owner in range(3):
            s = position(players=3, lands={slots[owner]: (tile, [owner])}, log=False)
            assert np.array_equal(_fast(enc, s, (owner + i) % 3), _plain(enc, s, (owner + i) % 3))
            assert len(enc._sections) <= 5  # the cap, then one more before it starts afresh
