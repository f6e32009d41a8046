"""The flow as data (haunted_kit.haunted.flow): the round table the engine interprets, the
phases the event log shows, and the registries of pending decisions and chance nodes
with their shape checks, status sentences and phases."""

from __future__ import annotations

import json

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.flow import (AUTOMATIC, CHANCE, PENDING, ROUND, BonusChoice, BonusDie, GhostPlacement,
                                      Phase, QuestChoice, ResourceChoice, StackDraw, TerrainDie, TileDraw,
                                      chance_from_json, next_step, pending_from_json)
from haunted_kit.haunted.scenario import end_round, give, give_quests, put_building, put_ghost, scenario, set_calendar


def test_the_round_is_spread_production_turns_rest_reorder():
    """Rulebook "Game Flow", steps 1-5, in order; the steps after turns run by themselves."""
    assert [step.phase for step in ROUND] == ["spread", "production", "turns", "rest", "reorder"]
    assert [next_step(p.phase) for p in ROUND] == ["production", "turns", "rest", "reorder", None]
    assert AUTOMATIC == {"production", "rest", "reorder"}


def test_the_event_log_names_all_five_steps_of_a_round():
    """A round with a building: its events carry the phase of the step that logged them."""
    s = scenario(players=2)
    put_building(s, (3, 1), "mill", owner=0)
    n = len(s.log)
    end_round(s, terrain="mountain")
    phases = [e.phase for e in s.log[n:]]
    steps = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]  # runs of one phase
    assert steps == ["turns", "rest", "reorder", "spread", "production", "turns"]
    kinds = {e.kind: e.phase for e in s.log[n:]}
    assert (kinds["rest"], kinds["reorder"], kinds["terrain_die"], kinds["production"]) == \
        ("rest", "reorder", "spread", "production")
    frame = s.events()
    assert set(frame.phase[n:]) == {"spread", "production", "turns", "rest", "reorder"}


def round_steps(s, start):
    """The runs of one phase in ``s``'s event frame from row ``start``, per (season, round)."""
    frame = s.events().iloc[start:]
    out = {}
    for (season, rnd), rows in frame.groupby(["season", "round"], sort=True):
        phases = list(rows.phase)
        out[season, rnd] = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    return out


def test_every_round_shows_its_production_step_even_when_nothing_is_produced():
    """Rulebook "Game Flow": every round has all five steps. With no building at all,
    production logs one ``nothing_produced`` event (before this, the round's log went
    from spread straight to turns)."""
    s = hk.new_game(players=2, seed=4)
    while (s.season, s.round) < (2, 1) and not s.is_terminal():  # every turn ended at once: nobody builds
        s.apply_action(A.EndTurn() if A.EndTurn() in s.legal_actions() else s.legal_actions()[0])
    steps = round_steps(s, 0)
    for rnd in (1, 2, 3):
        assert steps[1, rnd][:5] == ["spread", "production", "turns", "rest", "reorder"], (rnd, steps[1, rnd])
    none = [e for e in s.log if e.kind == "nothing_produced"]
    assert [(e.season, e.round, e.phase, e.player) for e in none] == [(1, 1, "production", None), (1, 2, "production", None),
                                                                      (1, 3, "production", None)]
    assert none[0].text == "Production: no building produces this round (nobody has built yet)."


def test_a_round_whose_only_building_is_blocked_logs_that_nothing_was_produced():
    """Wanderer mode plays ghost card 1 (block_production): a mill next to a ghost
    produces nothing, and the step still says so."""
    s = scenario(players=2, mode="wanderer")
    put_building(s, (3, 1), "mill", owner=0)
    put_ghost(s, (3, 0))  # a neighbour of (3, 1)
    n = len(s.log)
    end_round(s, terrain="mountain")
    kinds = [(e.kind, e.phase) for e in s.log[n:] if e.phase == "production"]
    assert kinds == [("production_blocked", "production"), ("nothing_produced", "production")]
    assert [e.text for e in s.log[n:] if e.kind == "nothing_produced"] == [
        "Production: no building produces this round (every building stands next to a ghost)."]


def test_every_pending_kind_states_its_phase_actions_and_sentence():
    examples = [GhostPlacement(1, "forest", 3), ResourceChoice(0, 2, "skill 12"), BonusChoice(2),
                PENDING["restore"](1), QuestChoice(3, 1)]
    assert sorted(PENDING) == ["bonus", "ghosts", "quests", "resource", "restore"]
    assert [e.status() for e in examples] == [
        "P2 must place 3 more ghosts on forest cells (spread)",
        "P1 must choose 2 resources (skill 12)",
        "P3 must take a bonus reward or roll the bonus die (skill 2)",
        "P2 must choose a token to restore (skill 9)",
        "P4 must choose 1 more quest card (end of season)",
    ]
    assert [e.phase for e in examples] == ["spread", "turns", "turns", "turns", "season_end"]
    assert BonusChoice.accepts == (A.ChooseBonus, A.RollBonus)
    for e in examples:  # the JSON form reads back to an equal value
        assert pending_from_json(json.loads(json.dumps(e.to_json())), players=4) == e
    with pytest.raises(AttributeError):
        examples[0].remaining = 2  # frozen


def test_version_1_lists_and_malformed_entries():
    assert pending_from_json(["resource", 0, 1, "skill 12"], players=2) == ResourceChoice(0, 1, "skill 12")
    assert chance_from_json(["terrain_die"], players=2) == TerrainDie()
    assert chance_from_json(["bonus_die", 1], players=2) == BonusDie(1)
    for bad, words in [(["dance", 0], "kinds: ghosts, resource"), (["bonus"], "a 'bonus' has player"),
                       ({"kind": "resource", "player": 0, "count": "2", "why": "x"}, "count must be an integer"),
                       (["quests", 5, 1], "player 5 does not exist in a 2-player game"),
                       (["ghosts", 0, "forest", -1], "remaining cannot be negative"), (7, "is not a pending decision")]:
        with pytest.raises(ValueError, match=words):
            pending_from_json(bad, players=2)
    with pytest.raises(ValueError, match="a 'tile' has slot"):
        chance_from_json(["tile"], players=2)
    assert sorted(CHANCE) == ["bonus_die", "market", "skill", "stack", "terrain_die", "tile"]
    assert (TileDraw(2).name(), StackDraw(0).phase) == ("draw of the region tile for slot 3", "setup")


def test_saves_hold_typed_entries_and_refuse_a_game_stopped_in_an_automatic_step():
    s = hk.new_game(players=2, seed=1)
    d = s.to_dict()
    assert d["pending"] == [s.pending[0].to_json()] and d["pending"][0]["kind"] == "ghosts"
    assert hk.State.from_dict(d).pending == s.pending
    d["phase"] = "production"
    d["pending"] = []
    with pytest.raises(hk.SaveError, match="a game never stops in the production step"):
        hk.State.from_dict(d)
    t = hk.new_game(players=2, seed=1, auto_chance=False)
    assert t.chance == TileDraw(0) and t.to_dict()["chance"] == {"kind": "tile", "slot": 0}
    assert t.why_not(A.EndTurn()).text == "the game waits for a chance outcome (draw of the region tile for slot 1), not for a decision"


def test_final_scoring_events_carry_the_scoring_phase():
    """Rulebook "Final Scoring": after the last round's reorder, the quest reveals, their
    valor are logged under the phase ``scoring`` (they used to read
    ``reorder``, the step before); the winner is logged under ``over``, where the game rests."""
    s = scenario(players=2)
    put_building(s, (3, 1), "mill", owner=0)
    give(s, 0, food=3)
    give_quests(s, 0, 1)
    give_quests(s, 1, 2)
    set_calendar(s, 3, 3)
    n = len(s.log)
    while not s.is_terminal():
        s.apply_action(A.EndTurn())
    by_kind = {}
    for e in s.log[n:]:
        by_kind.setdefault(e.kind, set()).add(e.phase)
    assert by_kind["reorder"] == {"reorder"}
    assert by_kind["quest_revealed"] == {"scoring"}
    assert by_kind["game_over"] == {"over"}
    assert {e.phase for e in s.log[n:] if e.kind == "valor"} == {"scoring"}  # quest 1: P1's 3 food
    assert s.phase == Phase.OVER and Phase.SCORING not in (e.phase for e in s.log[:n])
