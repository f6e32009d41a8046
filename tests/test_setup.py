"""Game setup (rulebook "Game Setup" steps 1-17, "Game Modes", "Increasing Difficulty";
box-defaults: field, supplies, marker slots)."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.flow import GhostPlacement
import haunted_kit as hk
from ruletools import supply

LAYOUT = ("R01", "R02", "R03", "R04", "R05", "R06")


def fresh(players, order=None, mode="wanderer", **kw):
    order = tuple(range(players)) if order is None else order
    return hk.new_game(players=players, mode=mode, auto_chance=False, layout=LAYOUT, skills=(1, 4, 7, 10),
                       market=1, order=order, **kw)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_everyone_starts_in_the_city_with_4_1_1_1_active_tokens_and_nothing_else(n):
    s = fresh(n)
    d = s.to_dict()
    for p in range(n):
        pl = d["players"][p]
        assert pl["sensor"] == [0, 0]  # step 14: the city, Kalena's centre
        # step 11: 4 exploration, 1 contact, 1 extraction, 1 construction, all active
        assert pl["tokens"] == {"exploration": 4, "contact": 1, "extraction": 1, "construction": 1}
        assert pl["active"] == pl["tokens"]
        assert pl["resources"] == {"food": 0, "water": 0, "wood": 0, "ore": 0}
        assert pl["pecunias"] == 0 and pl["valor"] == 0 and pl["skills"] == [] and pl["quests"] == []
        assert pl["markers_used"] == 0


@pytest.mark.parametrize("n, expected", [
    # tokens in the box 24/24/8/8 minus n players x 4/1/1/1 at setup
    (2, {"exploration": 16, "contact": 22, "extraction": 6, "construction": 6}),
    (3, {"exploration": 12, "contact": 21, "extraction": 5, "construction": 5}),
    (4, {"exploration": 8, "contact": 20, "extraction": 4, "construction": 4}),
])
def test_general_supply_at_setup(n, expected):
    sup = supply(fresh(n))
    assert sup["tokens"] == expected
    assert sup["ghosts"] == 25
    assert sup["buildings"] == {"mill": 12, "sawmill": 12, "mine": 12, "noria": 12}
    assert sup["resources"] == {"food": 16, "water": 16, "wood": 16, "ore": 16}
    assert sup["depletion"] == 12


@pytest.mark.parametrize("n, slots", [
    (4, [None, None, None, None]),
    (3, ["covered", None, None, None]),  # step 16 (3 players): leftmost slot covered
    (2, ["covered", None, None, "covered"]),  # step 16 (2 players): both outermost covered
])
def test_marker_slots_covered_by_player_count(n, slots):
    d = fresh(n).to_dict()
    assert d["marker_slots"] == {str(k): slots for k in (1, 4, 7, 10)}


@pytest.mark.parametrize("n, hand", [(2, [1, 2, 5, 6, 7, 8]), (3, list(range(1, 9))), (4, list(range(1, 9)))])
def test_quest_hand_two_players_return_quests_3_and_4(n, hand):
    d = fresh(n).to_dict()
    assert all(pl["quests_in_hand"] == hand for pl in d["players"])


def test_turn_order_follows_the_starting_stack():
    s = fresh(3, order=(2, 0, 1))
    # step 13: the top token gets turn order token 1
    assert s.turn_order == [2, 0, 1]
    assert hk.haunted.rules.stack_order(s) == [2, 0, 1]
    s.apply_chance("forest")  # 13 forests on this field: the last player (P2, index 1) chooses
    assert s.current_player() == 1 and s.pending[-1] == GhostPlacement(1, "forest", 4)
    die = [e for e in s.log if e.kind == "terrain_die"]
    assert len(die) == 1 and die[0].player == 1


def test_first_season_first_round_waits_for_the_terrain_die():
    s = fresh(2)
    assert (s.season, s.round, s.phase) == (1, 1, "spread")
    assert s.is_chance_node() and s.current_player() is None
    # kit-default terrain die: plain, plain, forest, forest, mountain, mountain
    assert s.chance_outcomes() == [("plain", 2 / 6), ("forest", 2 / 6), ("mountain", 2 / 6)]
    s2 = fresh(2, terrain_die="with_lakes")
    # ruling 15 optional die: plain, plain, forest, mountain, lake, lake
    assert s2.chance_outcomes() == [("plain", 2 / 6), ("forest", 1 / 6), ("mountain", 1 / 6), ("lake", 2 / 6)]


@pytest.mark.parametrize("mode, extra, cards", [
    ("wanderer", (), (1,)), ("builder", (), (2,)), ("citizen", (), (3,)),
    ("wanderer", (2,), (1, 2)),  # increasing difficulty: one more card
    ("citizen", (1, 2), (3, 1, 2)),  # hardest level: all three cards
])
def test_ghost_cards_by_mode(mode, extra, cards):
    s = fresh(2, mode=mode, extra_ghost_cards=extra)
    assert s.config.ghost_cards == cards


@pytest.mark.parametrize("kw, word", [
    (dict(players=1), "players"), (dict(players=5), "players"), (dict(mode="hermit"), "mode"),
    (dict(extra_ghost_cards=(1,)), "already"), (dict(extra_ghost_cards=(4,)), "ghost card"),
    (dict(extra_ghost_cards=(2, 2)), "repeat"), (dict(terrain_die="loaded"), "terrain_die"),
])
def test_bad_configuration(kw, word):
    with pytest.raises(hk.ConfigError, match=word):
        hk.GameConfig(**kw)


def test_field_cells_from_the_tile_table():
    s = fresh(2)
    f = s.field
    assert len(f.cells) == 49 and len(set(f.cells)) == 49
    t = f.terrain_of
    assert t((0, 0)) == "city"
    assert [t(c) for c in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]] == ["suburb"] * 6
    # R01 at slot centre (2,1): L | E P, NE P, NW F, W F, SW M, SE P
    assert [t(c) for c in [(2, 1), (3, 1), (3, 0), (2, 0), (1, 1), (1, 2), (2, 2)]] == \
        ["lake", "plain", "plain", "forest", "forest", "mountain", "plain"]
    # R06 at slot centre (-1,3): F | E P, NE P, NW M, W F, SW L, SE M
    assert [t(c) for c in [(-1, 3), (0, 3), (0, 2), (-1, 2), (-2, 3), (-2, 4), (-1, 4)]] == \
        ["forest", "plain", "plain", "mountain", "forest", "lake", "mountain"]
    # counts on this field: 14 plains, 13 forests, 9 mountains, 6 lakes
    assert {k: len(v) for k, v in f.by_terrain.items()} == \
        {"city": 1, "suburb": 6, "lake": 6, "plain": 14, "forest": 13, "mountain": 9}


def test_same_tile_in_another_slot_is_not_rotated():
    s = hk.new_game(players=2, auto_chance=False, layout=("R03", "R01", "R02", "R04", "R05", "R06"),
                    skills=(1, 4, 7, 10), market=1, order=(0, 1))
    t = s.field.terrain_of
    # R03 in slot 1 (centre (2,1)): F | E F, NE L, NW P, W M, SW M, SE F
    assert [t(c) for c in [(2, 1), (3, 1), (3, 0), (2, 0), (1, 1), (1, 2), (2, 2)]] == \
        ["forest", "forest", "lake", "plain", "mountain", "mountain", "forest"]
    # R01 in slot 2 (centre (3,-2)): its lake is the centre
    assert t((3, -2)) == "lake"
    assert s.field.tile[s.field.cell_index((3, -2))] == "R01"


def test_adjacency_and_near_lake():
    f = fresh(2).field
    assert sorted(f.graph.neighbors((0, 0))) == sorted([(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
    assert f.adjacent((1, 0), (2, 0)) and not f.adjacent((1, 0), (2, 1))
    assert f.is_adjacent_to_lake((2, 0))  # touches R01's lake (2,1)
    assert not f.is_adjacent_to_lake((2, -1)) and not f.is_adjacent_to_lake((1, 0))


def test_random_setup_draws_are_legal():
    for seed in range(25):
        s = hk.new_game(players=4, seed=seed)
        assert len(set(s.layout)) == 6 and all(t in s.box.tiles for t in s.layout)
        # one skill card of each deck: Communication 1-3, Wandering 4-6, Trade 7-9, Craft 10-12
        assert [1 <= s.skills[0] <= 3, 4 <= s.skills[1] <= 6, 7 <= s.skills[2] <= 9, 10 <= s.skills[3] <= 12] == [True] * 4
        assert s.market in (1, 2, 3)
        assert sorted(s.turn_order) == [0, 1, 2, 3]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_is_logged(n):
    s = fresh(n)
    k = [e.kind for e in s.log]
    assert k.count("tile_drawn") == 6 and k.count("skill_drawn") == 4 and k.count("market_drawn") == 1
    assert k.count("stack_placed") == n - 1  # the last token's place follows from the others
    assert k[-2:] == ["season_started", "round_started"]
