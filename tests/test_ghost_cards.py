"""Ghost cards 1-3 and their combinations (rulebook "Ghost Cards", "Game Modes",
"Increasing Difficulty", "Basic Terms: Adjacency" example)."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.actions import Explore, Extract
from haunted_kit.haunted.scenario import end_round, learn, place, put_building, put_ghost, scenario, set_tokens
from ruletools import active, assert_illegal, res

NONE = {"food": 0, "water": 0, "wood": 0, "ore": 0}
FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


def r(**kw):
    return {**NONE, **kw}


# ------------------------------------------------------------------ card 1: production next to a ghost


def test_card_1_the_rulebook_adjacency_example():
    # the rulebook's adjacency example ("Ghost Cards", card 1): the ghost beside mill A stops its
    # production; mine B, which does not touch the ghost, produces
    s = scenario(players=2, mode="wanderer")
    put_building(s, (2, -1), "mill", 0)   # mill A
    put_building(s, (1, 2), "mine", 0)    # mine B
    put_ghost(s, (3, -1))                 # east of mill A, far from mine B
    assert s.field.adjacent((2, -1), (3, -1)) and not s.field.adjacent((1, 2), (3, -1))
    n = len(s.log)
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == r(ore=1)  # A: nothing, B: 1 ore
    blocked = [e for e in s.log[n:] if e.kind == "production_blocked"]
    assert [(e.cell, e.data["building"]) for e in blocked] == [((2, -1), "mill")]


def test_card_1_blocks_skill_10_too():
    s = scenario(players=2, mode="wanderer", skills=(1, 4, 7, 10))
    learn(s, 0, 10)
    put_building(s, (2, -1), "mill", 0)
    put_ghost(s, (1, -1))  # a suburb next to the mill
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == NONE


def test_card_1_ghost_placed_by_the_spread_blocks_the_same_round():
    # spread comes before production in the round
    s = scenario(players=2, mode="wanderer")
    put_building(s, (2, -1), "mill", 0)
    end_round(s, "plain", [(3, -1)] + FAR_PLAINS[:3])
    assert res(s, 0) == NONE


def test_without_card_1_a_building_next_to_a_ghost_produces():
    s = scenario(players=2, mode="builder")
    put_building(s, (2, -1), "mill", 0)
    put_ghost(s, (3, -1))
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == r(food=1)


# ------------------------------------------------------------------ card 2: no extraction on a ghost


def test_card_2_no_extraction_on_a_ghost_cell():
    s = scenario(players=2, mode="builder")
    put_ghost(s, (2, 0))
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 0), "wood"), "ghost card 2")
    assert_illegal(s, Extract((2, 0), "water"), "ghost card 2")
    s.apply_action(Extract((2, 1), "water"))  # the lake next to it holds no ghost
    assert res(s, 0) == r(water=1)


def test_card_2_ghost_elsewhere_does_not_matter():
    s = scenario(players=2, mode="builder")
    put_ghost(s, (3, 0))
    place(s, 0, (2, 0))
    s.apply_action(Extract((2, 0), "wood"))
    assert res(s, 0) == r(wood=1)


# ------------------------------------------------------------------ card 3: exploring a ghost cell costs 1 more


@pytest.mark.parametrize("start, target, skill, cost", [
    ((0, 0), (1, 0), None, 2),   # suburb 1 + 1
    ((1, 0), (2, -1), None, 2),  # plain 1 + 1
    ((1, 0), (2, 0), None, 3),   # forest 2 + 1
    ((1, 1), (1, 2), None, 4),   # mountain 3 + 1
    ((1, 0), (2, 0), 4, 2),      # forest 2 - 1 (skill 4) + 1
    ((1, 1), (1, 2), 5, 3),      # mountain 3 - 1 (skill 5) + 1
])
def test_card_3_ghost_cell_costs_one_more(start, target, skill, cost):
    skills = (1, 4, 7, 10) if skill != 5 else (1, 5, 7, 10)
    s = scenario(players=2, mode="citizen", skills=skills)
    if skill:
        learn(s, 0, skill)
    place(s, 0, start)
    put_ghost(s, target)
    s.apply_action(Explore(target))
    assert active(s, 0)["exploration"] == 4 - cost


def test_card_3_unaffordable_because_of_the_ghost():
    s = scenario(players=2, mode="citizen")
    place(s, 0, (1, 1))
    put_ghost(s, (1, 2))
    set_tokens(s, 0, "exploration", active=3)
    assert_illegal(s, Explore((1, 2)), "costs 4 exploration tokens", "3 active")


def test_card_3_leaving_a_ghost_cell_costs_nothing_more():
    s = scenario(players=2, mode="citizen")
    put_ghost(s, (1, 0))
    place(s, 0, (1, 0))
    s.apply_action(Explore((2, -1)))
    assert active(s, 0)["exploration"] == 3


def test_without_card_3_ghost_cells_cost_the_usual():
    s = scenario(players=2, mode="wanderer")
    put_ghost(s, (1, 0))
    s.apply_action(Explore((1, 0)))
    assert active(s, 0)["exploration"] == 3


# ------------------------------------------------------------------ combinations


def test_all_three_cards_hardest_level():
    s = scenario(players=2, mode="wanderer", extra_ghost_cards=(2, 3))
    assert s.config.ghost_cards == (1, 2, 3)
    put_building(s, (2, -1), "mill", 1)
    put_ghost(s, (2, 0))
    place(s, 0, (1, 0))
    s.apply_action(Explore((2, 0)))  # card 3: forest 2 + 1
    assert active(s, 0)["exploration"] == 1
    assert_illegal(s, Extract((2, 0), "wood"), "ghost card 2")  # card 2
    s.apply_action(Extract((2, 1), "water"))
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 1) == NONE  # card 1: P2's mill (2,-1) is next to the ghost on (2,0)


def test_builder_with_card_1_added():
    s = scenario(players=2, mode="builder", extra_ghost_cards=(1,))
    put_building(s, (2, -1), "mill", 0)
    put_ghost(s, (2, 0))
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 0), "wood"), "ghost card 2")
    s.apply_action(Explore((3, 0)))  # no card 3: plain for 1
    assert active(s, 0)["exploration"] == 3
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == NONE


def test_citizen_with_card_2_added():
    s = scenario(players=2, mode="citizen", extra_ghost_cards=(2,))
    put_ghost(s, (2, -1))
    place(s, 0, (1, 0))
    s.apply_action(Explore((2, -1)))  # 1 + 1
    assert active(s, 0)["exploration"] == 2
    assert_illegal(s, Extract((2, -1), "food"), "ghost card 2")
    put_building(s, (3, -1), "mill", 1)
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 1) == r(food=1)  # no card 1: next to the ghost, it still produces
