"""The seven actions: legal cases with the exact resulting state, illegal cases with
the reason (rulebook "Basic Actions", "Additional Actions", "Game Field, Tiles and
Terrain Types", "Buildings", bonus cards of box-defaults).

Every illegal case checks (via ``assert_illegal``) that IllegalAction is raised with
the same reason as ``why_not`` and that ``to_json()`` is identical before and after.
"""

from __future__ import annotations

import pytest

from haunted_kit.haunted.actions import Build, Contact, EndTurn, Explore, Extract, Learn, Sell, Train, ChooseResource
from haunted_kit.haunted.scenario import (deplete, give, place, put_building, put_ghost, scenario, set_calendar,
                                          set_pecunias, set_tokens)
from ruletools import active, assert_illegal, kinds, res, supply, tokens

NONE = {"food": 0, "water": 0, "wood": 0, "ore": 0}


def r(**kw):
    return {**NONE, **kw}


@pytest.fixture
def s():
    return scenario(players=2)


# ============================================================================ exploration


@pytest.mark.parametrize("start, target, cost", [
    ((0, 0), (1, 0), 1),   # suburb: 1 token
    ((1, 0), (2, 0), 2),   # forest: 2 tokens
    ((1, 0), (2, -1), 1),  # plain: 1 token
    ((1, 1), (1, 2), 3),   # mountain: 3 tokens
    ((1, 0), (0, 0), 1),   # city: 1 token
])
def test_explore_pays_the_entered_cells_cost(s, start, target, cost):
    place(s, 0, start)
    n = len(s.log)
    s.apply_action(Explore(target))
    assert s.to_dict()["players"][0]["sensor"] == list(target)
    assert active(s, 0)["exploration"] == 4 - cost
    assert tokens(s, 0)["exploration"] == 4  # spent tokens are flipped, not lost
    assert supply(s)["tokens"]["exploration"] == 16
    ev = [e for e in s.log[n:] if e.kind == "explored"]
    assert len(ev) == 1 and ev[0].data["cost"] == cost and ev[0].cell == target


def test_explore_onto_sensors_ghosts_and_buildings(s):
    place(s, 1, (2, -1))
    put_ghost(s, (2, -1))
    s.apply_action(Explore((1, 0)))
    s.apply_action(Explore((2, -1)))  # another sensor and a ghost: allowed, no surcharge without ghost card 3
    assert active(s, 0)["exploration"] == 2  # 4 - 1 - 1
    put_building(s, (3, -1), "mill", 1)
    s.apply_action(Explore((3, -1)))  # a building: allowed
    assert active(s, 0)["exploration"] == 1


def test_explore_a_lake_is_refused(s):
    place(s, 0, (2, 0))
    assert_illegal(s, Explore((2, 1)), "lake", "cannot be explored")


def test_explore_a_cell_that_is_not_adjacent(s):
    assert_illegal(s, Explore((2, 0)), "not adjacent")


def test_explore_unaffordable_terrain(s):
    place(s, 0, (1, 1))
    set_tokens(s, 0, "exploration", active=2)
    assert_illegal(s, Explore((1, 2)), "costs 3 exploration tokens", "2 active")
    assert Explore((1, 2)) not in s.legal_actions()
    assert Explore((2, 0)) in s.legal_actions()  # the forest for 2 is fine


def test_no_exploration_without_active_tokens(s):
    set_tokens(s, 0, "exploration", active=0)
    assert not any(isinstance(a, Explore) for a in s.legal_actions())
    assert_illegal(s, Explore((1, 0)), "costs 1", "0 active")


def test_off_field_cell_is_refused(s):
    assert_illegal(s, Explore((9, 9)), "not on the field")


# ============================================================================ extraction


def test_extract_own_terrain_resource(s):
    place(s, 0, (2, 0))  # forest next to the lake (2,1)
    n = len(s.log)
    s.apply_action(Extract((2, 0), "wood"))
    assert res(s, 0) == r(wood=1)
    assert active(s, 0)["extraction"] == 0
    sup = supply(s)
    assert sup["resources"]["wood"] == 15 and sup["depletion"] == 11  # 16 - 1, 12 - 1
    assert s.to_dict()["cells"]["depleted"] == [[2, 0]]
    assert {"extracted", "resource_gained"} <= set(kinds(s, n))


@pytest.mark.parametrize("cell, resource", [
    ((2, 0), "water"),   # forest next to a lake: water too
    ((3, 1), "food"), ((3, 1), "water"),   # plain next to a lake
    ((1, 2), "ore"), ((1, 2), "water"),    # mountain next to a lake
])
def test_extract_on_terrain_next_to_a_lake(s, cell, resource):
    place(s, 0, cell)
    s.apply_action(Extract(cell, resource))
    assert res(s, 0) == r(**{resource: 1})
    assert s.to_dict()["cells"]["depleted"] == [list(cell)]


def test_extract_water_from_an_adjacent_lake_depletes_the_lake(s):
    place(s, 0, (2, 0))
    s.apply_action(Extract((2, 1), "water"))
    assert res(s, 0) == r(water=1)
    # the depletion token marks the lake that was extracted, not the sensor's cell (rulebook "Extraction")
    assert s.to_dict()["cells"]["depleted"] == [[2, 1]]
    # the own cell is still free to extract by someone else
    assert s.why_not(Extract((2, 0), "wood")) is not None  # (no active extraction token left)
    assert "extraction token" in s.why_not(Extract((2, 0), "wood")).text


def test_extract_only_water_from_a_lake(s):
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 1), "food"), "lake gives only water")


def test_extract_water_away_from_a_lake(s):
    place(s, 0, (2, -1))  # plain, no lake around
    assert_illegal(s, Extract((2, -1), "water"), "water only where the cell is adjacent to a lake")
    s.apply_action(Extract((2, -1), "food"))
    assert res(s, 0) == r(food=1)


def test_extract_a_lake_that_is_not_adjacent(s):
    place(s, 0, (2, -1))
    assert_illegal(s, Extract((2, 1), "water"), "sensor's own cell or an adjacent lake")


def test_extract_the_wrong_resource(s):
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 0), "ore"), "gives wood or water, not ore")


def test_extract_in_the_city_and_a_dry_suburb(s):
    assert_illegal(s, Extract((0, 0), "food"), "nothing can be extracted on a city")
    place(s, 0, (1, 0))
    assert_illegal(s, Extract((1, 0), "water"), "nothing can be extracted on a suburb", "not adjacent to a lake")


def test_extract_water_in_a_suburb_next_to_a_lake():
    # R05 in slot 1: its W cell (1,1) is a lake, touching the suburbs (1,0) and (0,1)
    s = scenario(players=2, layout=("R05", "R02", "R03", "R04", "R01", "R06"))
    assert s.field.terrain_of((1, 1)) == "lake"
    place(s, 0, (1, 0))
    legal = [a for a in s.legal_actions() if isinstance(a, Extract)]
    assert legal == [Extract((1, 0), "water"), Extract((1, 1), "water")]
    s.apply_action(Extract((1, 0), "water"))
    assert res(s, 0) == r(water=1)
    assert s.to_dict()["cells"]["depleted"] == [[1, 0]]


def test_extract_on_a_depleted_cell(s):
    place(s, 0, (2, 0))
    deplete(s, (2, 0))
    assert_illegal(s, Extract((2, 0), "wood"), "depletion token")
    assert_illegal(s, Extract((2, 0), "water"), "depletion token")
    s.apply_action(Extract((2, 1), "water"))  # the lake is still available
    assert res(s, 0) == r(water=1)


def test_extract_on_a_building(s):
    put_building(s, (2, 0), "sawmill", 1)
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 0), "wood"), "has a building")
    s.apply_action(Extract((2, 1), "water"))
    assert res(s, 0) == r(water=1)


def test_extract_on_a_ghost_is_allowed_without_ghost_card_2(s):
    put_ghost(s, (2, 0))
    place(s, 0, (2, 0))
    s.apply_action(Extract((2, 0), "wood"))
    assert res(s, 0) == r(wood=1)


def test_extract_without_an_active_extraction_token(s):
    place(s, 0, (2, 0))
    set_tokens(s, 0, "extraction", active=0)
    assert_illegal(s, Extract((2, 0), "wood"), "no active extraction token")


def test_extract_beyond_the_cap_goes_back(s):
    place(s, 0, (2, 0))
    give(s, 0, wood=3)
    n = len(s.log)
    s.apply_action(Extract((2, 0), "wood"))
    assert res(s, 0) == r(wood=3)
    assert supply(s)["resources"]["wood"] == 13  # 16 - 3: the extracted wood went straight back
    assert supply(s)["depletion"] == 11  # the cell is depleted all the same
    lost = [e for e in s.log[n:] if e.kind == "resource_lost"]
    assert len(lost) == 1 and lost[0].data["reason"] == "cap"


def test_extract_needs_a_depletion_token_in_the_supply(s):
    # ruling 1: extraction needs a depletion token left. 12 tokens, put on 12 cells.
    cells = [(3, 1), (3, 0), (1, 1), (1, 2), (2, 2), (3, -2), (4, -3), (3, -3), (2, -2), (2, -1), (3, -1), (1, -3)]
    deplete(s, *cells)
    assert supply(s)["depletion"] == 0
    place(s, 0, (2, 0))
    assert_illegal(s, Extract((2, 0), "wood"), "no depletion token left")


# ============================================================================ construction


@pytest.mark.parametrize("cell, building, pay, valor", [
    ((2, -1), "mill", dict(wood=1, water=1), 1),      # mill: plain, 1 wood + 1 water, 1 valor
    ((2, 0), "sawmill", dict(water=1, ore=1), 2),     # sawmill: forest, 1 water + 1 ore, 2 valor
    ((2, -2), "mine", dict(water=1, food=1), 3),      # mine: mountain, 1 water + 1 food, 3 valor
    ((2, 0), "noria", dict(ore=1), 1),                # noria: next to a lake, 1 ore, 1 valor
    ((3, 1), "noria", dict(ore=1), 1),
    ((1, 2), "noria", dict(ore=1), 1),
])
def test_build(s, cell, building, pay, valor):
    place(s, 0, cell)
    give(s, 0, **pay)
    n = len(s.log)
    s.apply_action(Build(building))
    d = s.to_dict()
    assert d["cells"]["buildings"] == [{"cell": list(cell), "building": building, "owner": 0}]
    assert res(s, 0) == NONE
    assert d["supply"]["resources"] == {"food": 16, "water": 16, "wood": 16, "ore": 16}  # paid back to the supply
    assert d["supply"]["buildings"][building] == 11
    assert active(s, 0)["construction"] == 0
    assert d["players"][0]["valor"] == valor and d["players"][0]["markers_used"] == 1
    assert {"built", "valor"} <= set(kinds(s, n))


def test_build_on_a_depleted_cell_returns_the_token(s):
    place(s, 0, (2, -1))
    deplete(s, (2, -1))
    give(s, 0, wood=1, water=1)
    s.apply_action(Build("mill"))
    assert s.to_dict()["cells"]["depleted"] == []
    assert supply(s)["depletion"] == 12


def test_build_a_noria_away_from_a_lake(s):
    place(s, 0, (2, -1))
    give(s, 0, ore=1)
    assert_illegal(s, Build("noria"), "noria needs a cell adjacent to a lake")


def test_build_on_the_wrong_terrain(s):
    place(s, 0, (2, 0))
    give(s, 0, wood=1, water=1)
    assert_illegal(s, Build("mill"), "mill stands on plain, not on forest")


def test_build_in_kalena(s):
    give(s, 0, ore=1)
    assert_illegal(s, Build("noria"), "nothing can be built on a city")
    place(s, 0, (1, 0))
    assert_illegal(s, Build("noria"), "nothing can be built on a suburb")


def test_build_on_a_ghost(s):
    put_ghost(s, (2, 0))
    place(s, 0, (2, 0))
    give(s, 0, water=1, ore=1)
    assert_illegal(s, Build("sawmill"), "holds a ghost")
    assert_illegal(s, Build("noria"), "holds a ghost")


def test_build_on_a_building(s):
    put_building(s, (2, 0), "noria", 1)
    place(s, 0, (2, 0))
    give(s, 0, water=1, ore=1)
    assert_illegal(s, Build("sawmill"), "already has a building")


def test_build_unaffordable(s):
    place(s, 0, (2, 0))
    give(s, 0, water=1)
    assert_illegal(s, Build("sawmill"), "sawmill costs water and ore", "1 ore")


def test_build_without_an_active_construction_token(s):
    place(s, 0, (2, 0))
    give(s, 0, ore=1)
    set_tokens(s, 0, "construction", active=0)
    assert_illegal(s, Build("noria"), "no active construction token")


def test_build_with_no_piece_left(s):
    # ruling 1: construction needs a building piece left; 12 sawmills in the box
    forests = [(1, 1), (4, -3), (3, -3), (1, -3), (2, -3), (1, -2), (-1, -2), (-2, 0), (-3, 1), (-4, 3), (-1, 3), (-2, 3)]
    for c in forests:
        put_building(s, c, "sawmill", 1)
    assert supply(s)["buildings"]["sawmill"] == 0
    place(s, 0, (2, 0))
    give(s, 0, water=1, ore=1)
    assert_illegal(s, Build("sawmill"), "no sawmill piece left")
    assert Build("noria") in s.legal_actions()


# ============================================================================ contact


@pytest.mark.parametrize("season, face, cost, pec, valor, resources", [
    # box-defaults bonus cards: season 1 contact 1, season 2 contact 2, season 3 contact 3
    (1, 1, 1, 2, 0, 0), (1, 2, 1, 3, 0, 0), (1, 3, 1, 0, 0, 1), (1, 4, 1, 1, 0, 1), (1, 5, 1, 0, 1, 0), (1, 6, 1, 0, 2, 0),
    (2, 1, 2, 4, 0, 0), (2, 2, 2, 0, 0, 2), (2, 3, 2, 2, 0, 1), (2, 4, 2, 0, 2, 0), (2, 5, 2, 1, 2, 0), (2, 6, 2, 0, 3, 0),
    (3, 1, 3, 6, 0, 0), (3, 2, 3, 2, 0, 2), (3, 3, 3, 0, 3, 0), (3, 4, 3, 0, 3, 1), (3, 5, 3, 0, 4, 0), (3, 6, 3, 0, 5, 0),
])
def test_contact_pays_the_season_cost_and_gives_the_bonus(s, season, face, cost, pec, valor, resources):
    set_calendar(s, season, 1)
    set_tokens(s, 0, "contact", owned=3, active=3)
    place(s, 0, (1, 0))
    put_ghost(s, (1, 0))
    assert supply(s)["ghosts"] == 24
    s.force_chance(face)
    n = len(s.log)
    s.apply_action(Contact())
    for _ in range(resources):
        assert s.current_player() == 0 and s.pending[-1].kind == "resource"
        s.apply_action(ChooseResource("ore"))
    d = s.to_dict()
    assert d["cells"]["ghosts"] == [] and d["supply"]["ghosts"] == 25
    assert active(s, 0)["contact"] == 3 - cost
    assert d["players"][0]["pecunias"] == pec
    assert d["players"][0]["valor"] == valor
    assert res(s, 0) == r(ore=resources)
    k = kinds(s, n)
    assert k[:3] == ["contacted", "bonus_die", "bonus_reward"]


def test_contact_with_no_ghost(s):
    place(s, 0, (1, 0))
    put_ghost(s, (2, 0))
    assert_illegal(s, Contact(), "no ghost")


def test_contact_costs_more_than_the_active_tokens(s):
    set_calendar(s, 2, 1)
    put_ghost(s, (0, 0))
    assert_illegal(s, Contact(), "costs 2 contact tokens in season 2", "1 active")


def test_contact_in_the_city(s):
    put_ghost(s, (0, 0))
    s.force_chance(2)
    s.apply_action(Contact())
    assert s.to_dict()["players"][0]["pecunias"] == 3  # season 1 face 2: 3 pecunias


# ============================================================================ selling (market card 1)


@pytest.mark.parametrize("option, payment, pec", [
    (1, ("food",), 2), (2, ("wood", "wood"), 5), (3, ("ore", "ore", "ore"), 8),
])
def test_sell_in_the_city(s, option, payment, pec):
    give(s, 0, food=1, wood=2, ore=3)
    n = len(s.log)
    s.apply_action(Sell(option, payment))
    assert s.to_dict()["players"][0]["pecunias"] == pec
    left = {"food": 1, "water": 0, "wood": 2, "ore": 3}
    for x in payment:
        left[x] -= 1
    assert res(s, 0) == left
    assert sum(supply(s)["resources"].values()) == 64 - sum(left.values())
    assert kinds(s, n)[0] == "sold"


def test_sell_any_number_of_times(s):
    give(s, 0, food=3)
    s.apply_action(Sell(1, ("food",)))
    s.apply_action(Sell(1, ("food",)))
    s.apply_action(Sell(1, ("food",)))
    assert s.to_dict()["players"][0]["pecunias"] == 6  # 3 x 2


def test_sell_outside_the_city(s):
    give(s, 0, food=1)
    place(s, 0, (1, 0))
    assert_illegal(s, Sell(1, ("food",)), "selling needs the city")
    place(s, 0, (2, -1))
    assert_illegal(s, Sell(1, ("food",)), "selling needs the city")


def test_sell_wrong_payment(s):
    give(s, 0, food=1, wood=1)
    assert_illegal(s, Sell(2, ("food", "wood")), "does not fit")
    assert_illegal(s, Sell(4, ("food",)), "options 1 to 3")


def test_sell_unaffordable(s):
    give(s, 0, food=1)
    assert_illegal(s, Sell(2, ("food", "food")), "cannot pay")


# ============================================================================ training


@pytest.mark.parametrize("track, cost", [("exploration", 4), ("contact", 2), ("extraction", 5), ("construction", 5)])
def test_train_next_token(s, track, cost):
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 10)
    before_tok, before_sup = tokens(s, 0)[track], supply(s)["tokens"][track]
    s.apply_action(Train(track))
    d = s.to_dict()["players"][0]
    assert d["pecunias"] == 10 - cost
    assert d["tokens"][track] == before_tok + 1
    assert d["active"][track] == before_tok  # the new token is inactive
    assert supply(s)["tokens"][track] == before_sup - 1
    # extraction/construction: slot 2 is the last slot -> 2 valor; the others are not full yet
    assert d["valor"] == (2 if track in ("extraction", "construction") else 0)


def test_train_to_the_end_of_the_exploration_track(s):
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 10)
    s.apply_action(Train("exploration"))  # slot 5: 4 pecunias
    s.apply_action(Train("exploration"))  # slot 6: 6 pecunias, last slot: 3 valor
    d = s.to_dict()["players"][0]
    assert d["pecunias"] == 0 and d["tokens"]["exploration"] == 6 and d["active"]["exploration"] == 4
    assert d["valor"] == 3


def test_train_to_the_end_of_the_contact_track(s):
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 21)
    for _ in range(5):
        s.apply_action(Train("contact"))  # 2 + 3 + 4 + 5 + 6 = 20 pecunias
    d = s.to_dict()["players"][0]
    assert d["pecunias"] == 1 and d["tokens"]["contact"] == 6 and d["valor"] == 4


def test_train_a_full_track(s):
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 10)
    s.apply_action(Train("extraction"))
    assert_illegal(s, Train("extraction"), "every slot", "extraction track")


def test_train_unaffordable(s):
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 3)
    assert_illegal(s, Train("exploration"), "costs 4 pecunias", "has 3")


def test_train_outside_the_suburb(s):
    set_pecunias(s, 0, 10)
    assert_illegal(s, Train("contact"), "training needs the suburb")


def test_train_unknown_track(s):
    place(s, 0, (1, 0))
    assert_illegal(s, Train("stealth"), "not an action track")


# ============================================================================ learning


@pytest.mark.parametrize("players, valors", [(4, [3, 2, 1, 0]), (3, [2, 1, 0]), (2, [2, 1])])
def test_learn_takes_the_leftmost_free_slot(players, valors):
    s = scenario(players=players)
    for p in range(players):
        assert s.current_player() == p
        place(s, p, (1, 0))
        give(s, p, food=1, ore=1)  # skill 4 costs food + ore
        s.apply_action(Learn(4))
        d = s.to_dict()["players"][p]
        assert d["skills"] == [4] and d["valor"] == valors[p] and d["markers_used"] == 1
        assert d["resources"] == NONE
        s.apply_action(EndTurn())
    row = s.to_dict()["marker_slots"]["4"]
    covered = {4: [], 3: [0], 2: [0, 3]}[players]
    open_slots = [j for j in range(4) if j not in covered]
    assert [row[j] for j in open_slots] == list(range(players))


def test_learn_twice(s):
    place(s, 0, (1, 0))
    give(s, 0, food=2, ore=2)
    s.apply_action(Learn(4))
    assert_illegal(s, Learn(4), "already learned skill 4")


def test_learn_a_skill_not_in_play(s):
    place(s, 0, (1, 0))
    give(s, 0, water=1, ore=1)
    assert_illegal(s, Learn(5), "not in play")


def test_learn_unaffordable(s):
    place(s, 0, (1, 0))
    give(s, 0, food=1)
    assert_illegal(s, Learn(4), "skill 4 costs food and ore")


def test_learn_outside_the_suburb(s):
    give(s, 0, food=1, ore=1)
    assert_illegal(s, Learn(4), "learning needs the suburb")


# ============================================================================ turn flow within a turn


def test_end_turn_passes_to_the_next_player(s):
    n = len(s.log)
    s.apply_action(EndTurn())
    assert s.current_player() == 1
    assert kinds(s, n) == ["turn_ended", "turn_started"]


def test_a_turn_action_while_a_sub_decision_is_pending(s):
    place(s, 0, (1, 0))
    put_ghost(s, (1, 0))
    s.force_chance(3)  # season 1 face 3: 1 resource of your choice
    s.apply_action(Contact())
    assert s.pending[-1].kind == "resource"
    assert_illegal(s, Explore((0, 0)), "must choose 1 resource", "first")
    assert_illegal(s, EndTurn(), "must choose")


def test_turn_ends_by_itself_when_nothing_is_left(s):
    # P1 in a forest with no exploration, no extraction, nothing to build: only EndTurn is left
    place(s, 0, (1, 0))
    set_tokens(s, 0, "exploration", active=2)
    set_tokens(s, 0, "extraction", active=0)
    s.apply_action(Explore((2, 0)))
    assert s.current_player() == 1
    ended = [e for e in s.log if e.kind == "turn_ended"]
    assert ended[-1].player == 0 and ended[-1].data.get("forced") is True


def test_extract_on_a_depleted_lake(s):
    place(s, 0, (2, 0))
    deplete(s, (2, 1))
    assert_illegal(s, Extract((2, 1), "water"), "depletion token")


def test_cells_may_be_given_as_lists(s):
    s.apply_action(Explore([1, 0]))
    assert s.to_dict()["players"][0]["sensor"] == [1, 0]


def test_player_markers_run_out_ruling_16(s):
    # 15 markers per colour: 12 mills (all the box has) + 3 sawmills
    mills = [(3, 1), (3, 0), (2, 2), (3, -2), (2, -1), (3, -1), (1, -4), (-3, -1), (-3, 0), (-3, 2), (-2, 2), (-3, 3)]
    for c in mills:
        put_building(s, c, "mill", 0)
    for c in [(1, 1), (4, -3), (3, -3)]:
        put_building(s, c, "sawmill", 0)
    assert s.to_dict()["players"][0]["markers_used"] == 15
    place(s, 0, (2, 0))
    give(s, 0, ore=1, food=1)
    assert_illegal(s, Build("noria"), "used all 15 player markers")
    place(s, 0, (1, 0))
    assert_illegal(s, Learn(4), "used all 15 player markers")
