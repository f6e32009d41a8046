"""Quest cards and final scoring (rulebook "Quest Cards", "Final Scoring", "Valor
Points and the Valor Track"; rulings 10, 11 and 13)."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.actions import Build, EndTurn
from haunted_kit.haunted.rules import QuestScores, ctx_of, quest_score
from haunted_kit.haunted.scenario import (give, give_quests, learn, place, put_building, scenario, set_calendar,
                                          set_pecunias, set_valor)


def to_final_scoring(s):
    """Jump to round 3 of season 3 and end every turn: rest, reorder, final scoring."""
    set_calendar(s, 3, 3)
    while not s.is_terminal():
        s.apply_action(EndTurn())


def valors(s):
    return [p["valor"] for p in s.to_dict()["players"]]


# ------------------------------------------------------------------ quest 1 (ruling 13)


@pytest.mark.parametrize("skill7, held, valor", [
    (False, dict(food=3, water=3, wood=2), 6),          # 2 full sets (food, water) x 3
    (False, dict(food=2, water=2, wood=2, ore=2), 0),   # 8 resources but no type reaches 3
    (False, dict(food=3, water=3, wood=3, ore=3), 12),  # 4 sets x 3
    (True, dict(food=4, water=3), 6),                   # skill 7: 4 food is one set, not more
    (True, dict(food=4, water=4, wood=4, ore=4), 12),   # 16 resources: still one set per type
])
def test_quest_1_sets_of_three_per_type(skill7, held, valor):
    s = scenario(players=2)
    if skill7:
        learn(s, 0, 7)
    give(s, 0, **held)
    give_quests(s, 0, 1)
    to_final_scoring(s)
    assert valors(s)[0] == valor


@pytest.mark.parametrize("pec, valor", [(0, 0), (2, 0), (3, 1), (10, 3), (11, 3), (12, 4)])
def test_quest_2_one_valor_per_three_pecunias(pec, valor):
    s = scenario(players=2)
    set_pecunias(s, 0, pec)
    give_quests(s, 0, 2)
    to_final_scoring(s)
    assert valors(s)[0] == valor


def _majorities_position():
    """3 players. R01: P1 2 mills vs P2 1 sawmill -> P1;  R02: P1 1 mill vs P2 1 mill ->
    tie, nobody;  R03: P1's sawmill alone -> P1;  R04: P3's mine alone -> P3."""
    s = scenario(players=3)
    put_building(s, (3, 1), "mill", 0)
    put_building(s, (3, 0), "mill", 0)
    put_building(s, (2, 0), "sawmill", 1)
    put_building(s, (2, -1), "mill", 0)
    put_building(s, (3, -1), "mill", 1)
    put_building(s, (1, -3), "sawmill", 0)
    put_building(s, (-2, -1), "mine", 2)
    return s


def test_quest_3_region_majority():
    s = _majorities_position()
    for p in range(3):
        give_quests(s, p, 3)
    to_final_scoring(s)
    assert valors(s) == [8, 0, 4]  # P1: 2 regions x 4; P2: none; P3: 1 region x 4


def test_quest_4_rightmost_marker_slots_4_players():
    s = scenario(players=4)
    for skill in (1, 4):
        for p in range(4):  # P4 learns last and takes the rightmost slot
            learn(s, p, skill)
    learn(s, 0, 7)  # leftmost slot: no point
    for p in range(4):
        give_quests(s, p, 4)
    to_final_scoring(s)
    assert valors(s) == [0, 0, 0, 4]  # P4: 2 rightmost markers x 2


def test_quest_4_rightmost_slot_with_3_players():
    s = scenario(players=3)
    for p in (0, 1, 2):  # slot 1 is covered: P1 slot 2, P2 slot 3, P3 slot 4 (the rightmost)
        learn(s, p, 10)
    give_quests(s, 2, 4)
    give_quests(s, 0, 4)
    to_final_scoring(s)
    assert valors(s) == [0, 0, 2]


@pytest.mark.parametrize("quest, pieces, valor", [
    (5, [((3, 1), "mill"), ((3, 0), "mill")], 4),                               # 2 mills x 2
    (6, [((3, 1), "noria"), ((2, 0), "noria")], 4),                             # 2 norias x 2
    (7, [((2, 0), "sawmill"), ((1, 1), "sawmill"), ((1, -3), "sawmill")], 9),   # 3 sawmills x 3
    (8, [((1, 2), "mine"), ((2, -2), "mine")], 6),                              # 2 mines x 3
])
def test_quests_5_to_8_buildings(quest, pieces, valor):
    s = scenario(players=2)
    for cell, b in pieces:
        put_building(s, cell, b, 0)
    put_building(s, (-3, -1), {5: "mill", 6: "noria", 7: "mill", 8: "mill"}[quest], 1)  # P2's do not count
    put_building(s, (2, 2), "mill" if quest != 5 else "noria", 0)  # another type does not count
    give_quests(s, 0, quest)
    to_final_scoring(s)
    assert valors(s)[0] == valor


def test_quests_only_count_at_final_scoring():
    s = scenario(players=2)
    put_building(s, (3, 1), "mill", 0)
    give_quests(s, 0, 5)
    set_calendar(s, 3, 3)
    s.apply_action(EndTurn())
    assert valors(s) == [0, 0]  # still nothing before the end
    s.apply_action(EndTurn())
    assert valors(s) == [2, 0] and s.is_terminal()


def test_several_quests_add_up():
    s = scenario(players=2)
    put_building(s, (3, 1), "mill", 0)
    set_pecunias(s, 0, 6)
    give_quests(s, 0, 2, 5, 6)  # 6 pecunias -> 2; 1 mill -> 2; no noria -> 0
    to_final_scoring(s)
    assert valors(s)[0] == 4
    rev = [e for e in s.log if e.kind == "quest_revealed"]
    assert [(e.player, e.data["quest"], e.data["valor"]) for e in rev] == [(0, 2, 2), (0, 5, 2), (0, 6, 0)]


# ------------------------------------------------------------------ reveal order and tie-break (ruling 10)


def test_later_reveal_lands_on_top_and_wins_the_tie():
    s = scenario(players=2)
    set_valor(s, 0, 5)
    set_valor(s, 1, 3)
    give_quests(s, 0, 2)  # 0 pecunias: nothing
    put_building(s, (3, 1), "mill", 1)
    give_quests(s, 1, 5)  # 1 mill: 2 -> P2 reaches 5 and lands on top of P1
    to_final_scoring(s)
    assert valors(s) == [5, 5]
    assert s.winner == 1 and s.returns() == [0.0, 1.0]
    rev = [e.player for e in s.log if e.kind == "quest_revealed"]
    assert rev == [0, 1]  # last reorder: P1 (5) before P2 (3)


def test_reveal_order_is_the_last_turn_order():
    s = scenario(players=2)
    set_valor(s, 0, 3)
    set_valor(s, 1, 5)
    set_pecunias(s, 1, 3)
    give_quests(s, 1, 2)  # +1 -> 6
    put_building(s, (2, 0), "sawmill", 0)
    give_quests(s, 0, 7)  # +3 -> 6, revealed after P2: on top
    to_final_scoring(s)
    assert valors(s) == [6, 6]
    assert [e.player for e in s.log if e.kind == "quest_revealed"] == [1, 0]
    assert s.winner == 0


def test_reorder_at_the_end_of_the_last_round_decides_the_reveal_order():
    s = scenario(players=2)
    set_calendar(s, 3, 3)
    give_quests(s, 0, 2)
    give_quests(s, 1, 2)
    # P1 moves first this round; P2 overtakes during the round: the final reorder puts P2 first
    s.apply_action(EndTurn())
    place(s, 1, (2, -2))
    give(s, 1, water=1, food=1)
    s.apply_action(Build("mine"))  # 3 valor
    s.apply_action(EndTurn())
    assert s.is_terminal()
    assert [e.player for e in s.log if e.kind == "quest_revealed"] == [1, 0]
    assert s.winner == 1


def test_tie_without_quests_goes_to_the_top_of_the_stack():
    s = scenario(players=3)
    set_valor(s, 2, 4)
    set_valor(s, 0, 4)  # arrives last at 4: on top
    set_valor(s, 1, 1)
    to_final_scoring(s)
    assert s.winner == 0
    over = [e for e in s.log if e.kind == "game_over"][0]
    assert over.data["order"] == [0, 2, 1]


def test_nobody_moved_the_starting_stack_decides():
    s = scenario(players=3, order=(1, 2, 0))
    to_final_scoring(s)
    assert valors(s) == [0, 0, 0] and s.winner == 1


def test_zero_valor_quest_does_not_move_the_token():
    # ruling 10/11: a reveal worth 0 does not move the token, so it does not climb the stack
    s = scenario(players=2, order=(1, 0))
    set_valor(s, 0, 2)
    set_valor(s, 1, 2)  # P2 on top at 2
    give_quests(s, 0, 8)  # no mine: 0
    to_final_scoring(s)
    assert s.winner == 1


def test_the_game_is_over_after_scoring():
    s = scenario(players=2)
    to_final_scoring(s)
    assert s.is_terminal() and s.legal_actions() == [] and s.current_player() is None
    assert "game is over" in s.why_not(EndTurn()).text


def test_one_position_scores_every_quest_as_final_scoring_would():
    # the buildings of test_quest_3_region_majority, plus resources, pecunias and markers;
    # QuestScores counts the board once for all quests, asked in any order
    s = _majorities_position()
    give(s, 1, food=3, water=3, wood=2)
    set_pecunias(s, 2, 7)
    for p in (0, 1, 2):  # slot 1 is covered with 3 players: P3 takes the rightmost slot
        learn(s, p, 10)
    ctx = ctx_of(s)
    expected = {  # player -> quest -> (valor, fulfilments)
        0: {1: (0, 0), 2: (0, 0), 3: (8, 2), 4: (0, 0), 5: (6, 3), 6: (0, 0), 7: (3, 1), 8: (0, 0)},
        1: {1: (6, 2), 2: (0, 0), 3: (0, 0), 4: (0, 0), 5: (2, 1), 6: (0, 0), 7: (3, 1), 8: (0, 0)},
        2: {1: (0, 0), 2: (2, 2), 3: (4, 1), 4: (2, 1), 5: (0, 0), 6: (0, 0), 7: (0, 0), 8: (3, 1)},
    }
    for p, want in expected.items():
        qs = QuestScores(s, ctx, p)
        assert {q: qs.score(q) for q in reversed(list(want))} == want
        assert {q: quest_score(s, ctx, p, q) for q in want} == want
