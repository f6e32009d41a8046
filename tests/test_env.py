"""The PettingZoo AEC environment and the Gymnasium single-seat wrapper."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.engine import GAME
from haunted_kit.env import KitAECEnv, SingleSeatEnv, action_table, observation_fields


def test_passes_pettingzoo_api_test():
    api_test(KitAECEnv(players=4), num_cycles=300, verbose_progress=False)
    api_test(KitAECEnv(players=2, mode="citizen"), num_cycles=300, verbose_progress=False)


def test_seeded_resets_repeat():
    seed_test(lambda: KitAECEnv(players=3), num_cycles=100)


def test_action_encoding_is_fixed_and_documented():
    t = action_table()
    box = hk.default_box()
    cells = 7 * (1 + len(box.region_centres))
    R = len(box.resources)
    assert json.loads(t.action[0]) == {"type": "end_turn"}
    assert json.loads(t.action[1]) == {"type": "contact"}
    assert json.loads(t.action[2]) == {"type": "roll_bonus"}
    assert json.loads(t.action[3]) == {"type": "explore", "cell": [0, 0]}  # Kalena's centre first
    assert json.loads(t.action[3 + cells]) == {"type": "extract", "cell": [0, 0], "resource": box.resources[0]}
    build0 = 3 + cells + cells * R
    assert json.loads(t.action[build0]) == {"type": "build", "building": list(box.buildings)[0]}
    assert t.action.is_unique
    assert len(t) == len(GAME.action_catalogue())
    # every legal action of many positions has a number
    env = KitAECEnv(players=4)
    for seed in range(3):
        s = hk.new_game(players=4, seed=seed)
        bots = [GreedyAgent(i) for i in range(4)]
        while not s.is_terminal():
            for a in s.legal_actions():
                assert a in env.catalogue.index
            s.apply_action(bots[s.current_player()].act(s))


def test_mask_and_step_follow_the_rules():
    env = KitAECEnv(players=2)
    env.reset(seed=3)
    s = env.state_
    me = s.current_player()
    agent = env.agent_selection
    assert agent == f"player_{me}"
    mask = env.observe(agent)["action_mask"]
    assert sorted(np.flatnonzero(mask)) == sorted(env.catalogue.index[a] for a in s.legal_actions())
    assert not env.observe(f"player_{1 - me}")["action_mask"].any()  # not to move: nothing legal
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = s.to_dict()
    with pytest.raises(ValueError, match=f"action {illegal} .* is illegal now"):
        env.step(illegal)
    assert env.state_.to_dict() == before
    with pytest.raises(ValueError, match="action must be an integer 0..361"):
        env.step(999)
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.state_.decisions == 1


def test_observation_is_the_players_own_view():
    # citizen mode: after season 1 everyone holds 2 face-down quests (ruling 5)
    s = hk.new_game(players=2, seed=4, mode="citizen")
    bots = [GreedyAgent(0), GreedyAgent(1)]
    while not (all(s.quests) and s.phase == "turns"):
        s.apply_action(bots[s.current_player()].act(s))
    env = KitAECEnv(players=2, mode="citizen")
    env.reset(seed=4)
    env.state_ = s
    me = s.current_player()
    other = 1 - me
    v1 = env.observe(f"player_{me}")["observation"]
    t = s.copy()
    dealt = [q for q in sorted(s.config.box.quests) if q not in s.config.box.removed_quests[2]]
    t.quests[other] = tuple(q for q in dealt if q not in s.quests[other])[:2]
    t.hand[other] = sum(1 << q for q in dealt if q not in t.quests[other])
    env.state_ = t
    assert np.array_equal(env.observe(f"player_{me}")["observation"], v1)  # the other's hidden quests do not show
    names = observation_fields(players=2)
    assert len(names) == len(v1)
    for q in s.quests[me]:
        assert v1[names.index(f"my_quest={q}")] == 1
    assert v1[names.index("player+0.valor")] == s.valor[me]
    assert v1[names.index("player+1.valor")] == s.valor[other]
    assert v1[names.index("player+1.quest_count")] == 2
    assert v1[names.index(f"cell{s.sensor[me]}.sensor=player+0")] == 1
    # the other player's vector sees the other's quests and not mine
    v2 = env.observe(f"player_{other}")["observation"]
    assert {q for q in dealt if v2[names.index(f"my_quest={q}")]} == set(t.quests[other])


def test_rewards_are_the_returns_at_the_end():
    env = KitAECEnv(players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert list(total.values()) == env.state_.returns()
    assert env.agents == []


def test_single_seat_against_greedy_bots():
    e = SingleSeatEnv(players=3, seat=1, opponents=["greedy"])
    obs, info = e.reset(seed=5)
    assert e.aec.state_.current_player() == 1
    assert np.array_equal(obs["action_mask"], info["action_mask"]) and obs["action_mask"].any()
    rng = np.random.default_rng(0)
    done, steps, reward = False, 0, 0.0
    while not done:
        assert e.aec.state_.current_player() == 1
        obs, reward, done, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
    assert reward == e.aec.state_.returns()[1]
    with pytest.raises(RuntimeError, match="call reset"):
        e.step(0)
    # the same seed and actions give the same game
    e2 = SingleSeatEnv(players=3, seat=1, opponents=["greedy"])
    e2.reset(seed=5)
    assert e2.aec.state_.to_dict() != e.aec.state_.to_dict()
    with pytest.raises(ValueError, match="seat must be a player index 0..2"):
        SingleSeatEnv(players=3, seat=3)
    with pytest.raises(ValueError, match="unknown agent 'clever'"):
        SingleSeatEnv(players=3, opponents=["clever"])


def test_example_runs_a_seeded_random_policy():
    example = runpy.run_path(str(Path(__file__).parent.parent / "examples" / "env_random_policy.py"))
    a, b = example["aec_game"](7), example["aec_game"](7)
    assert a == b and a["steps"] > 50
    assert example["single_seat"](range(2)) == example["single_seat"](range(2))
    for game in ("estate", "landmarks"):
        a = example["aec_game"](3, game, 3)
        assert a == example["aec_game"](3, game, 3) and a["steps"] >= 3 and len(a["returns"]) == 3
        assert len(example["single_seat"](range(2), game, 3)) == 2
