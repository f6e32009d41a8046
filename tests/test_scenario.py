"""haunted_kit.haunted.scenario: positions built for tests and notebooks keep the game consistent."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.scenario import (ScenarioError, clear_ghosts, conservation_problems, deplete, end_round,
                                          give, give_quests, learn, place, put_building, put_ghost, remove_building,
                                          remove_ghost, scenario, set_calendar, set_resources, set_tokens, set_turn,
                                          set_valor, take, undeplete)
from ruletools import supply


def test_scenario_starts_at_the_first_turn_on_a_clean_field():
    s = scenario(players=3, order=(2, 0, 1))
    assert (s.season, s.round, s.phase) == (1, 1, "turns")
    assert s.current_player() == 2 and s.turn_order == [2, 0, 1]
    assert sum(s.ghosts) == 0 and supply(s)["ghosts"] == 25
    assert s.layout == ["R01", "R02", "R03", "R04", "R05", "R06"] and s.skills == [1, 4, 7, 10] and s.market == 1
    assert conservation_problems(s) == []
    assert [e.kind for e in s.log].count("ghost_placed") == 4  # the first spread stays in the log


def test_scenario_keeps_the_first_spread_when_asked():
    s = scenario(players=2, clear_spread=False, first_terrain="forest",
                 spread_cells=[(2, 0), (1, 1), (-1, 3), (-2, 3)], ghosts=[(0, 0)])
    assert sorted(s.field.cells[i] for i, g in enumerate(s.ghosts) if g) == sorted([(2, 0), (1, 1), (-1, 3), (-2, 3), (0, 0)])
    assert supply(s)["ghosts"] == 20


def test_edits_conserve_components_and_are_logged():
    s = scenario(players=2)
    n = len(s.log)
    give(s, 0, food=2, ore=1, pecunias=4)
    take(s, 0, food=1)
    set_resources(s, 1, wood=3)
    set_tokens(s, 0, "contact", owned=3, active=2)
    put_ghost(s, (1, 0), (2, 0))
    remove_ghost(s, (2, 0))
    deplete(s, (3, 1), (3, 0))
    undeplete(s, (3, 0))
    put_building(s, (2, -2), "mine", 1, valor=True)
    put_building(s, (2, 0), "sawmill", 0)
    remove_building(s, (2, 0))
    learn(s, 0, 4, valor=True)
    set_valor(s, 1, 7)
    give_quests(s, 1, 5)
    assert conservation_problems(s) == []
    sup = supply(s)
    assert sup["resources"] == {"food": 15, "water": 16, "wood": 13, "ore": 15}
    assert sup["tokens"]["contact"] == 20 and sup["ghosts"] == 24 and sup["depletion"] == 11
    assert sup["buildings"]["mine"] == 11 and sup["buildings"]["sawmill"] == 12
    assert s.valor == [2, 7]  # skill 4, slot 2 in a 2-player game; set to 7 (the mine's 3 is overwritten)
    new = s.log[n:]
    assert all(e.kind == "setup" and "scenario" in e.data for e in new if e.kind == "setup")
    assert len(new) >= 15


@pytest.mark.parametrize("edit, words", [
    (lambda s: give(s, 0, food=4), "at most 3"),
    (lambda s: give(s, 0, gold=1), "not a resource"),
    (lambda s: take(s, 0, ore=1), "cannot return"),
    (lambda s: place(s, 0, (2, 1)), "cannot stand"),
    (lambda s: put_ghost(s, (2, 1)), "cannot stand"),
    (lambda s: put_building(s, (2, -1), "noria", 0), "cannot stand"),
    (lambda s: put_building(s, (2, 0), "mill", 0), "cannot stand"),
    (lambda s: set_tokens(s, 0, "extraction", owned=3), "2 slots"),
    (lambda s: set_tokens(s, 0, "contact", active=2), "active tokens"),
    (lambda s: learn(s, 0, 5), "not in play"),
    (lambda s: give_quests(s, 0, 3), "not in"),  # 2 players: quest 3 was returned to the box
    (lambda s: set_turn(s, [0, 0]), "once"),
    (lambda s: set_calendar(s, 4, 1), "season"),
    (lambda s: place(s, 2, (0, 0)), "player"),
])
def test_bad_edits_are_refused(edit, words):
    s = scenario(players=2)
    before = s.to_json()
    with pytest.raises(ScenarioError, match=words):
        edit(s)
    assert s.to_json() == before


def test_ghost_on_a_building_is_refused():
    s = scenario(players=2)
    put_building(s, (2, 0), "sawmill", 0)
    with pytest.raises(ScenarioError, match="building"):
        put_ghost(s, (2, 0))


def test_end_round_plays_the_next_spread():
    s = scenario(players=2)
    end_round(s, "mountain", [(1, 2), (2, -2), (0, -3), (0, -2)])
    assert (s.season, s.round, s.current_player()) == (1, 2, 0)
    assert sorted(s.field.cells[i] for i, g in enumerate(s.ghosts) if g) == sorted([(1, 2), (2, -2), (0, -3), (0, -2)])
    clear_ghosts(s)
    assert sum(s.ghosts) == 0 and supply(s)["ghosts"] == 25
