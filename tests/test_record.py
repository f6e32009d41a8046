"""The action record (state.history()): every decision and chance outcome, shared by
copies, saved, replayable; version 1 saves migrate to it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.protocol import GameState

FIXTURE = Path(__file__).parent / "fixtures" / "save_v1_citizen_3p.json"


def played(seed=5, players=3, steps=120):
    s = hk.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def replayed(s):
    """A new game of ``s``'s config, fed ``s.history()`` step by step."""
    r = hk.new_game(s.config, auto_chance=False)
    for e in s.history():
        if e.chance:
            r.apply_chance(e.action)
        else:
            assert r.current_player() == e.player
            r.apply_action(e.action)
    return r


def test_the_state_implements_the_protocol():
    assert isinstance(hk.new_game(players=2, seed=1), GameState)


def test_history_starts_with_the_setup_draws():
    s = hk.new_game(players=2, seed=3)
    h = s.history()
    # 6 region tiles, 4 skill cards, the market card, 1 stacking draw for 2 players, the first terrain die
    assert [e.chance for e in h] == [True] * 13
    assert [e.action for e in h[:6]] == s.layout and [e.action for e in h[6:10]] == s.skills
    assert h[10].action == s.market and h[11].action == s.turn_order[0]
    assert all(e.player is None for e in h)


def test_every_decision_is_recorded_with_its_player():
    s = hk.new_game(players=3, seed=4)
    before = len(s.history())
    p = s.current_player()
    a = s.legal_actions()[0]
    s.apply_action(a)
    last = [e for e in s.history()[before:] if not e.chance]
    assert last[0].player == p and last[0].action == a
    assert sum(1 for e in s.history() if not e.chance) == s.decisions == 1


def test_an_illegal_action_leaves_the_record_as_it_was():
    s = hk.new_game(players=2, seed=1)
    n = len(s.history())
    with pytest.raises(hk.IllegalAction):
        s.apply_action(hk.Learn(99))
    assert len(s.history()) == n


def test_copies_share_the_prefix_and_diverge():
    s = played(steps=40)
    assert not s.is_terminal()
    t = s.copy()
    assert t.steps is s.steps  # shared, not copied
    n = len(s.history())
    t.apply_action(t.legal_actions()[-1])
    assert len(s.history()) == n and len(t.history()) > n
    assert t.history()[:n] == s.history()


def test_replaying_the_record_gives_the_same_state():
    s = played(seed=9, players=4, steps=300)
    r = replayed(s)
    r.auto_chance = s.auto_chance
    assert r.to_json() == s.to_json()


def test_the_record_is_saved_and_loaded():
    s = played(seed=2)
    d = json.loads(s.to_json())
    assert d["version"] == 2 and len(d["history"]) == len(s.history())
    assert d["history"][0] == {"chance": s.layout[0]}
    t = hk.State.from_dict(d)
    assert t.history() == s.history()
    assert "history" not in s.observation(0)  # quest choices are decisions: the record is secret


def test_a_malformed_record_is_named():
    d = json.loads(played(seed=2).to_json())
    d["history"].append({"player": 7, "action": {"type": "end_turn"}})
    with pytest.raises(hk.SaveError, match=r"history\[\d+\].player': must be between 0 and 2, got 7"):
        hk.State.from_dict(d)


def test_a_version_1_save_loads_migrated_and_replays_to_the_same_result():
    """The fixture was saved by the kit before the action record existed (version 1,
    citizen mode, 3 players, season 2 round 2)."""
    d = json.loads(FIXTURE.read_text())
    assert d["version"] == 1 and "history" not in d
    s = hk.State.load(FIXTURE)
    assert (s.season, s.round, s.decisions) == (2, 2, 101)
    assert sum(1 for e in s.history() if not e.chance) == s.decisions
    r = replayed(s)
    r.auto_chance = s.auto_chance
    assert r.to_dict() == s.to_dict()
    assert json.loads(s.to_json())["version"] == 2
    # played on by greedy bots: the same end as the kit before the change reached from this save
    bots = [GreedyAgent(100 + i) for i in range(3)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    # 499 events as before, plus one `nothing_produced` for each round where no building produced
    none = [(e.season, e.round) for e in s.log if e.kind == "nothing_produced"]
    assert (s.valor, s.winner, s.decisions, len(s.log) - len(none)) == ([15, 40, 29], 1, 207, 499)
    assert none == [(1, 1), (1, 2), (1, 3)]


def test_a_version_1_save_whose_log_was_tampered_with_is_refused():
    d = json.loads(FIXTURE.read_text())
    k = next(i for i, e in enumerate(d["log"]) if e["kind"] == "explored")
    d["log"][k]["text"] = "P9 flies."
    with pytest.raises(hk.SaveError, match=f"version 1 save: no legal action reproduces event {k}"):
        hk.State.from_dict(d)
