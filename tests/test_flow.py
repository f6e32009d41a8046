"""Game flow (rulebook "Game Flow", "Ghosts", "Valor Points and the Valor Track",
"Game Modes"; rulings 1-7, 12, 14, 15): spread, production, rest, reorder, season
ends of the three modes for 2, 3 and 4 players, collective loss."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.flow import GhostPlacement, QuestChoice
import haunted_kit as hk
from haunted_kit.haunted.actions import (Build, ChooseQuest, ChooseResource, Contact, EndTurn, Explore, Extract,
                                         PlaceGhost, Train)
from haunted_kit.haunted.scenario import (deplete, end_round, give, place, put_building, put_ghost, scenario,
                                          set_calendar, set_pecunias, set_turn, set_valor)
from ruletools import active, assert_illegal, copy_data, edit, kinds, res, supply, tokens

NONE = {"food": 0, "water": 0, "wood": 0, "ore": 0}
FORESTS = [(2, 0), (1, 1), (4, -3), (3, -3), (1, -3), (2, -3), (1, -2), (-1, -2), (-2, 0), (-3, 1), (-4, 3), (-1, 3), (-2, 3)]
MOUNTAINS = [(1, 2), (2, -2), (0, -3), (0, -2), (-2, -1), (-1, -1), (-2, 1), (-1, 2), (-1, 4)]
PLAINS = [(3, 1), (3, 0), (2, 2), (3, -2), (2, -1), (3, -1), (1, -4), (-3, -1), (-3, 0), (-3, 2), (-2, 2), (-3, 3), (0, 3), (0, 2)]
KALENA = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


def ghost_cells(s):
    return sorted(tuple(c) for c in s.to_dict()["cells"]["ghosts"])


def end_turns(s, terrain):
    """End both turns of a 2-player round with the next terrain die forced; stop at the spread."""
    s.force_chance(terrain)
    start = s.round
    while s.phase == "turns" and s.round == start and not s.pending:
        s.apply_action(EndTurn())


def small_box(tmp_path, old, new):
    d = copy_data(tmp_path)
    edit(d / "supplies.toml", old, new)
    return hk.load_box(d)


# ============================================================================ spread


def test_spread_the_last_player_chooses_the_cells():
    s = scenario(players=2)
    end_turns(s, "forest")
    assert (s.season, s.round, s.phase) == (1, 2, "spread")
    assert s.pending == [GhostPlacement(1, "forest", 4)]  # P2 is the last player
    assert s.legal_actions() == [PlaceGhost(c) for c in FORESTS]  # all 13 forests are free
    for i, c in enumerate([(1, 1), (-2, 3), (2, 0), (3, -3)]):
        s.apply_action(PlaceGhost(c))
        assert s.pending == ([GhostPlacement(1, "forest", 3 - i)] if i < 3 else [])
    assert ghost_cells(s) == sorted([(1, 1), (-2, 3), (2, 0), (3, -3)])
    assert supply(s)["ghosts"] == 21
    assert s.phase == "turns" and s.current_player() == 0


def test_spread_cells_may_hold_sensors_and_depletion_but_not_buildings_or_ghosts():
    s = scenario(players=2)
    place(s, 0, (2, 0))
    deplete(s, (1, 1))
    put_building(s, (4, -3), "sawmill", 1)
    put_ghost(s, (3, -3))
    end_turns(s, "forest")
    targets = [a.cell for a in s.legal_actions()]
    assert (2, 0) in targets and (1, 1) in targets  # ruling 3
    assert (4, -3) not in targets and (3, -3) not in targets
    assert len(targets) == 11  # 13 forests - 1 building - 1 ghost


def test_spread_illegal_placements():
    s = scenario(players=2)
    put_building(s, (4, -3), "sawmill", 1)
    put_ghost(s, (3, -3))
    end_turns(s, "forest")
    assert_illegal(s, PlaceGhost((3, 1)), "terrain die showed forest", "plain")
    assert_illegal(s, PlaceGhost((2, 1)), "terrain die showed forest")  # a lake
    # the reason gives the rule (ghosts go on the die's terrain), never "lake ... is lake"
    why = s.why_not(PlaceGhost((2, 1)))
    assert "so this spread's ghosts go on free forest cells" in why.text and why.text.endswith("is not a forest cell")
    assert why.section == "Ghosts; Game Flow: Spread"
    assert_illegal(s, PlaceGhost((3, -3)), "already holds a ghost")
    assert_illegal(s, PlaceGhost((4, -3)), "has a building")
    assert_illegal(s, PlaceGhost((0, 0)), "terrain die showed forest")  # Kalena while forests are free
    assert_illegal(s, Explore((1, 0)), "must place 4 more ghosts")


def test_spread_exactly_as_many_free_cells_as_ghosts_is_forced():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS[:5])  # 9 mountains, 4 left free
    n = len(s.log)
    end_turns(s, "mountain")
    assert s.phase == "turns" and s.round == 2 and s.current_player() == 0  # no decision was needed
    placed = [e for e in s.log[n:] if e.kind == "ghost_placed"]
    assert [(e.cell, e.data["forced"]) for e in placed] == [(c, True) for c in MOUNTAINS[5:]]
    assert ghost_cells(s) == sorted(MOUNTAINS)


def test_spread_overflow_onto_kalena():
    s = scenario(players=2)
    put_ghost(s, *FORESTS[:11])  # 2 forests left: (-1, 3), (-2, 3)
    end_turns(s, "forest")
    # the 2 free forests are filled at once, the 2 other ghosts go to Kalena: 7 free cells, P2 chooses
    assert s.pending == [GhostPlacement(1, "Kalena", 2)]
    assert s.legal_actions() == [PlaceGhost(c) for c in KALENA]
    assert_illegal(s, PlaceGhost((3, 1)), "not on kalena")
    s.apply_action(PlaceGhost((0, 0)))
    s.apply_action(PlaceGhost((1, 0)))
    assert ghost_cells(s) == sorted(FORESTS + [(0, 0), (1, 0)])
    assert supply(s)["ghosts"] == 10  # 25 - 11 - 4
    assert not s.is_terminal() and s.phase == "turns"


def test_spread_on_a_lake_result_goes_to_kalena_ruling_15():
    s = scenario(players=2, terrain_die="with_lakes")
    end_turns(s, "lake")
    assert s.pending == [GhostPlacement(1, "Kalena", 4)]


def test_collective_loss_kalena_full():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS)
    put_ghost(s, *KALENA[:3])  # 4 Kalena cells free
    n = len(s.log)
    end_turns(s, "mountain")
    # no mountain is free: all 4 ghosts go to the 4 free Kalena cells, which fills Kalena
    assert s.is_terminal() and s.lost and s.winner is None
    assert s.returns() == [-1.0, -1.0]
    assert ghost_cells(s) == sorted(MOUNTAINS + KALENA)
    assert supply(s)["ghosts"] == 9  # 25 - 9 - 7
    assert "collective_loss" in kinds(s, n)
    assert s.legal_actions() == [] and "kalena fell" in s.why_not(EndTurn()).text.lower()


def test_collective_loss_ghosts_cannot_all_be_placed():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS)
    put_ghost(s, *KALENA[:5])  # 2 Kalena cells free, 4 ghosts to place
    end_turns(s, "mountain")
    assert s.is_terminal() and s.lost
    assert s.returns() == [-1.0, -1.0]
    assert sum(1 for c in ghost_cells(s) if c in KALENA) == 7
    assert supply(s)["ghosts"] == 9  # 25 - 14 - 2: two spread ghosts found no cell
    assert [e.kind for e in s.log].count("collective_loss") == 1


def test_kalena_with_room_left_is_not_a_loss():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS)
    put_ghost(s, *KALENA[:2])  # 5 free, 4 to place: P2 chooses, one Kalena cell stays free
    end_turns(s, "mountain")
    assert s.pending == [GhostPlacement(1, "Kalena", 4)]
    for c in KALENA[2:6]:
        s.apply_action(PlaceGhost(c))
    assert not s.is_terminal() and s.phase == "turns"


def test_ghost_supply_short_places_what_it_has_ruling_2():
    s = scenario(players=2)
    put_ghost(s, *PLAINS, *FORESTS[:9])  # 23 on the field, 2 in the supply
    n = len(s.log)
    end_turns(s, "mountain")
    assert s.pending == [GhostPlacement(1, "mountain", 2)]
    s.apply_action(PlaceGhost((1, 2)))
    s.apply_action(PlaceGhost((2, -2)))
    assert supply(s)["ghosts"] == 0 and not s.is_terminal()
    short = [e for e in s.log[n:] if e.kind == "ghosts_short"]
    assert [e.data["amount"] for e in short] == [2]
    # next round: nothing to spread, not a loss
    end_round(s, "mountain")
    assert s.round == 3 and not s.is_terminal() and supply(s)["ghosts"] == 0


def test_ghost_supply_empty_with_kalena_almost_full_is_not_a_loss():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS, *KALENA[:6], *PLAINS[:10])  # 9 + 6 + 10 = all 25 pieces
    assert supply(s)["ghosts"] == 0
    end_round(s, "mountain")
    assert not s.is_terminal() and s.round == 2


def test_ghost_supply_short_but_enough_to_fill_kalena_is_a_loss():
    s = scenario(players=2)
    put_ghost(s, *MOUNTAINS, *KALENA[:6], *PLAINS[:9])  # 24 on the field, 1 in the supply
    end_turns(s, "mountain")
    assert s.is_terminal() and s.lost


def test_the_last_player_after_a_reorder_spreads():
    s = scenario(players=2)
    s.apply_action(EndTurn())
    place(s, 1, (2, -2))
    give(s, 1, water=1, food=1)
    s.apply_action(Build("mine"))  # P2: 3 valor
    end_turns(s, "forest")
    assert s.turn_order == [1, 0]
    assert (s.pending[-1].kind, s.pending[-1].player) == ("ghosts", 0)  # P1 is now the last player
    assert [e.player for e in s.log if e.kind == "terrain_die"][-1] == 0


# ============================================================================ production


def test_production_every_building_for_its_owner():
    s = scenario(players=2)
    put_building(s, (2, -1), "mill", 0)
    put_building(s, (2, 0), "sawmill", 0)
    put_building(s, (2, -2), "mine", 1)
    put_building(s, (3, 1), "noria", 1)
    place(s, 1, (-1, 3))  # production does not depend on where the sensors are
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == {**NONE, "food": 1, "wood": 1}
    assert res(s, 1) == {**NONE, "ore": 1, "water": 1}


def test_production_over_the_cap_goes_back():
    s = scenario(players=2)
    put_building(s, (2, -1), "mill", 0)
    give(s, 0, food=3)
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0)["food"] == 3 and supply(s)["resources"]["food"] == 13


@pytest.mark.parametrize("order, gets", [((0, 1), [1, 0]), ((1, 0), [0, 1])])
def test_production_supply_runs_out_in_turn_order_ruling_1(tmp_path, order, gets):
    box = small_box(tmp_path, "food = 16", "food = 1")
    s = scenario(players=2, box=box, order=order)
    put_building(s, (2, -1), "mill", 0)
    put_building(s, (3, -1), "mill", 1)
    n = len(s.log)
    end_round(s, "plain", FAR_PLAINS)
    assert [res(s, p)["food"] for p in (0, 1)] == gets  # the first in turn order takes the last food
    assert supply(s)["resources"]["food"] == 0
    lost = [e for e in s.log[n:] if e.kind == "resource_lost"]
    assert [(e.player, e.data["reason"]) for e in lost] == [(order[1], "supply")]


def test_reward_gives_what_the_supply_has_ruling_1(tmp_path):
    box = small_box(tmp_path, "ore = 16", "ore = 0")
    s = scenario(players=2, box=box)
    put_ghost(s, (0, 0))
    s.force_chance(3)  # season 1 face 3: 1 resource of your choice
    s.apply_action(Contact())
    s.apply_action(ChooseResource("ore"))  # ruling 8: any type may be picked; the supply has none
    assert res(s, 0) == NONE
    assert s.log[-1].kind == "resource_lost" and s.log[-1].data["reason"] == "supply"


def test_training_needs_a_token_in_the_supply_ruling_1(tmp_path):
    box = small_box(tmp_path, "contact = 24", "contact = 4")
    s = scenario(players=4, box=box)
    assert supply(s)["tokens"]["contact"] == 0  # 4 players x 1
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 10)
    assert_illegal(s, Train("contact"), "no contact token left")


# ============================================================================ rest and reorder


def test_rest_restores_every_token_including_trained_ones():
    s = scenario(players=2)
    place(s, 0, (1, 0))
    set_pecunias(s, 0, 2)
    s.apply_action(Train("contact"))  # placed inactive
    s.apply_action(Explore((2, -1)))
    assert active(s, 0) == {"exploration": 3, "contact": 1, "extraction": 1, "construction": 1}
    end_round(s, "plain", FAR_PLAINS)
    assert active(s, 0) == {"exploration": 4, "contact": 2, "extraction": 1, "construction": 1}
    assert active(s, 0) == tokens(s, 0)
    assert "rest" in [e.kind for e in s.log]


def test_reorder_example_plus_2_valor_moves_up():
    # 3 players; P2 (2 valor, on top) and P1 (2 valor) lead P3 (0). P3 gains 2 valor by
    # building a sawmill: their token lands on the mark 2, on top of the stack, so P3
    # takes the first turn of the next round.
    s = scenario(players=3)
    set_valor(s, 0, 2)
    set_valor(s, 1, 2)
    set_turn(s, [1, 0, 2])
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.current_player() == 2
    place(s, 2, (2, 0))
    give(s, 2, water=1, ore=1)
    s.apply_action(Build("sawmill"))
    assert [p["valor"] for p in s.to_dict()["players"]] == [2, 2, 2]
    end_round(s, "plain", FAR_PLAINS)
    assert s.turn_order == [2, 1, 0]
    reorder = [e for e in s.log if e.kind == "reorder"][-1]
    assert reorder.data["order"] == [2, 1, 0]


def test_reorder_most_valor_first():
    s = scenario(players=4)
    set_valor(s, 3, 5)
    set_valor(s, 2, 1)
    set_valor(s, 0, 3)
    # P2 stays at 0 with the starting stack position
    end_round(s, "plain", FAR_PLAINS)
    assert s.turn_order == [3, 0, 2, 1]


# ============================================================================ season ends


def play_season_end(s, terrain="plain"):
    """End every turn of the last round of the season; choose quests (smallest number
    offered) and place the next spread's ghosts; return the players who chose, in order."""
    s.force_chance(terrain)
    start = s.season
    while s.phase == "turns" and s.season == start:
        s.apply_action(EndTurn())
    chose = []
    while s.pending and s.pending[-1].kind == "quests":
        p = s.current_player()
        s.apply_action(s.legal_actions()[0])
        chose.append(p)
    while s.pending and s.pending[-1].kind == "ghosts":
        s.apply_action(s.legal_actions()[0])
    return chose


SEASON_END = {
    # (mode, season, players) -> the players choosing, one entry per quest card, in turn order
    # valors P1 4 > P2 3 > P3 2 > P4 1: P1 is the only leader, turn order P1, P2, P3, P4
    ("wanderer", 1, 2): [1], ("wanderer", 1, 3): [1, 2], ("wanderer", 1, 4): [1, 2, 3],
    ("wanderer", 2, 2): [1],  # 2 players: the trailing player chooses only 1 (ruling 14)
    ("wanderer", 2, 3): [1, 1, 2, 2], ("wanderer", 2, 4): [1, 1, 2, 2, 3, 3],
    ("builder", 1, 2): [1], ("builder", 1, 3): [1, 2], ("builder", 1, 4): [1, 2, 3],
    ("builder", 2, 2): [], ("builder", 2, 3): [], ("builder", 2, 4): [],  # ruling 6
    ("citizen", 1, 2): [0, 0, 1, 1], ("citizen", 1, 3): [0, 0, 1, 1, 2, 2],  # ruling 5: everyone, 2 each
    ("citizen", 1, 4): [0, 0, 1, 1, 2, 2, 3, 3],
    ("citizen", 2, 2): [], ("citizen", 2, 3): [], ("citizen", 2, 4): [],  # ruling 6
}


@pytest.mark.parametrize("mode, season, players", sorted(SEASON_END))
def test_season_end(mode, season, players):
    s = scenario(players=players, mode=mode)
    for p, v in zip(range(players), (4, 3, 2, 1)):
        set_valor(s, p, v)
    set_turn(s, list(range(players)))
    set_calendar(s, season, 3)
    deplete(s, (2, 0), (3, 1), (2, 1))
    n = len(s.log)
    chose = play_season_end(s)
    assert chose == SEASON_END[mode, season, players]
    for p in range(players):
        assert len(s.quests[p]) == chose.count(p)
    # every season end before the last returns the depletion tokens (all three modes)
    assert s.to_dict()["cells"]["depleted"] == [] and supply(s)["depletion"] == 12
    cleared = [e for e in s.log[n:] if e.kind == "depletion_cleared"]
    assert [e.data["amount"] for e in cleared] == [3]
    # the next season has begun with its bonus card
    assert (s.season, s.round, s.phase) == (season + 1, 1, "turns")
    started = [e for e in s.log[n:] if e.kind == "season_started"]
    assert [e.data["contact_cost"] for e in started] == [season + 1]


def test_quest_choice_example_leaders_tied():
    # end of season 1, 4 players: P1 and P2 share the lead with 5; P3 (3) and P4 (0) choose
    # 1 quest card each, in turn order, the leaders none.
    s = scenario(players=4)
    set_valor(s, 0, 5)
    set_valor(s, 1, 5)  # on top of P1
    set_valor(s, 2, 3)
    set_calendar(s, 1, 3)
    s.force_chance("plain")
    for _ in range(4):
        s.apply_action(EndTurn())
    assert s.turn_order == [1, 0, 2, 3]
    assert s.pending == [QuestChoice(3, 1), QuestChoice(2, 1)]  # P3 on top: chooses first
    assert s.legal_actions() == [ChooseQuest(q) for q in range(1, 9)]
    s.apply_action(ChooseQuest(5))
    assert s.pending == [QuestChoice(3, 1)]
    s.apply_action(ChooseQuest(8))
    assert s.quests == [(), (), (5,), (8,)]
    assert s.to_dict()["players"][2]["quests_in_hand"] == [1, 2, 3, 4, 6, 7, 8]


def test_two_player_tie_nobody_chooses():
    s = scenario(players=2)
    set_valor(s, 0, 3)
    set_valor(s, 1, 3)
    set_calendar(s, 1, 3)
    assert play_season_end(s) == []
    assert s.season == 2


def test_two_player_quests_3_and_4_are_not_offered():
    s = scenario(players=2)
    set_valor(s, 0, 1)
    set_calendar(s, 1, 3)
    s.force_chance("plain")
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.pending == [QuestChoice(1, 1)]
    assert s.legal_actions() == [ChooseQuest(q) for q in (1, 2, 5, 6, 7, 8)]
    assert_illegal(s, ChooseQuest(3), "returned to the box")
    assert_illegal(s, ChooseQuest(9), "no quest card 9")
    assert_illegal(s, EndTurn(), "must choose 1", "quest")


def test_a_quest_cannot_be_chosen_twice():
    s = scenario(players=2, mode="citizen")
    set_calendar(s, 1, 3)
    s.force_chance("plain")
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.pending[-1] == QuestChoice(0, 2)
    s.apply_action(ChooseQuest(7))
    assert s.pending[-1] == QuestChoice(0, 1)
    assert_illegal(s, ChooseQuest(7), "already chosen")


def test_quest_choice_follows_the_turn_order_after_the_reorder():
    s = scenario(players=3)
    set_calendar(s, 1, 3)
    set_valor(s, 2, 1)
    # during the last round P2 overtakes: reorder P2 (3), P3 (1), P1 (0) -> P3 then P1 choose
    s.force_chance("plain")
    s.apply_action(EndTurn())
    place(s, 1, (2, -2))
    give(s, 1, water=1, food=1)
    s.apply_action(Build("mine"))
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.turn_order == [1, 2, 0]
    assert [x.player for x in reversed(s.pending)] == [2, 0]


def test_a_whole_game_of_three_seasons_of_three_rounds():
    s = scenario(players=2)
    dice = ["plain", "plain", "plain", "forest", "forest", "forest", "mountain", "mountain"]
    for d in dice:
        assert not s.is_terminal()
        end_round(s, d)
    assert not s.is_terminal() and (s.season, s.round) == (3, 3)
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.is_terminal() and not s.lost
    k = [e.kind for e in s.log]
    assert k.count("season_started") == 3 and k.count("round_started") == 9
    assert k.count("quest_chosen") == 0  # everyone tied at 0: every player is a leader
    # 25 ghosts: round 1 (cleared by the scenario) took 4 and gave them back; rounds 2-7 place 24,
    # round 8 the last one, round 9 none
    assert supply(s)["ghosts"] == 0 and len(ghost_cells(s)) == 25
    assert [e.data["amount"] for e in s.log if e.kind == "ghosts_short"] == [1, 0]
    assert s.winner == 0  # tie at 0: top of the starting stack
    assert s.returns() == [1.0, 0.0]


def test_extraction_with_an_empty_resource_supply_ruling_20(tmp_path):
    box = small_box(tmp_path, "ore = 16", "ore = 0")
    s = scenario(players=2, box=box)
    place(s, 0, (2, -2))
    s.apply_action(Extract((2, -2), "ore"))
    assert res(s, 0) == NONE and active(s, 0)["extraction"] == 0
    assert s.to_dict()["cells"]["depleted"] == [[2, -2]]
    assert s.log[-1].kind == "resource_lost" and s.log[-1].data["reason"] == "supply"


def test_the_tutorial_explains_the_stack_tie_the_reorder_names():
    """The reorder's event says "top of a stack first"; the tutorial's steps where turn order
    is taught (setup and reorder) say what that means, so the tie rule is never unexplained."""
    from haunted_kit.tutorial import teach_points

    points = teach_points("haunted")
    s = hk.new_game(players=3, seed=1)
    assert "On a tie, the valor token on top of the stack plays first" in points["event:reorder"].text
    assert "goes on top of them" in points["event:reorder"].text
    assert "the token on top plays first" in points["phase:setup"].say(s)
