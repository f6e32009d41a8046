"""The environment over the companion rule modules (estate, Landmarks): the PettingZoo API,
the documented integer encodings, exact action masks, observations from each player's own
view (no hidden card leaks), and the Gymnasium wrapper against bots."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from haunted_kit import landmarks as lm
from haunted_kit.env import KitAECEnv, SingleSeatEnv, action_table, observation_fields
from haunted_kit.estate import actions as EA
from haunted_kit.estate.box import default_estate_box
from haunted_kit.estate.encoding import income_bound
from haunted_kit.games import MissingHook, get_game
from haunted_kit.landmarks.actions import Acquire, Build, Decline, Follow, Lead
from haunted_kit.landmarks.encoding import BUILD_OPTIONS


@pytest.mark.parametrize("game,players,options", [("estate", 2, {}), ("estate", 4, {"connection": "line"}),
                                                  ("landmarks", 2, {}), ("landmarks", 5, {"rounds": 3})])
def test_companions_pass_the_pettingzoo_api_test(game, players, options):
    api_test(KitAECEnv(game, players=players, **options), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("game", ["estate", "landmarks"])
def test_companion_seeded_resets_repeat(game):
    seed_test(lambda: KitAECEnv(game, players=3), num_cycles=100)


def test_estate_encoding_is_fixed_and_documented():
    box = default_estate_box()
    t = action_table("estate")
    assert [json.loads(x) for x in t.action[:5]] == [{"type": "Pass"}, {"type": "VisitMarket"}, {"type": "EndVisit"},
                                                    {"type": "InnReturn"}, {"type": "InnDecline"}]
    # wood income: 2 at the start; 6 forests raise it by 1, once when placed or joined and once more
    # under the 'adjacent' reading: at most 14, plus the first taker's extra unit = 15 takes
    assert income_bound(box, "wood") == 2 + 6 * 1 * 2 == 14
    assert income_bound(box, "gold") == 3 + 5 * 2 == 13
    assert json.loads(t.action[5]) == {"type": "TakeMaterial", "material": box.factory_resources[0], "amount": 1}
    takes = t[t.action.str.contains('"TakeMaterial"') & t.action.str.contains('"wood"')]
    assert len(takes) == 15
    assert len(t[t.action.str.contains('"PlaceTile"')]) == len(box.tiles) * len(box.slots) == 5 * 19
    trades = [json.loads(x) for x in t.action if '"Trade"' in x]
    assert len(trades) == sum(len(r.options) for r in box.market.values())
    assert {"type": "Trade", "action": "sell_marble", "give": [["marble", 1]], "take": [["gold", 3]]} in trades
    assert t.action.is_unique and t["describe"][0] == "pass for the rest of the season"


def test_landmarks_encoding_is_fixed_and_documented():
    box = lm.default_box()
    t = action_table("landmarks")
    forms = [json.loads(x) for x in t.action]
    assert forms[:len(box.lead_actions)] == [{"type": "Lead", "action": a} for a in box.lead_actions]
    assert forms[len(box.lead_actions):len(box.lead_actions) + 2] == [{"type": "Follow"}, {"type": "Decline"}]
    # a Gate costs any 2 cards (Landmarks: Acquiring a Landmark): every pair of card keys, a key twice only
    # when the deck holds 2 copies of it
    keys = sorted(box.cards)
    gates = [f for f in forms if f["type"] == "Acquire" and f["landmark"] == "gate"]
    twice = sum(1 for k in keys if box.cards[k].copies >= 2)
    assert len(gates) == len(keys) * (len(keys) - 1) // 2 + twice
    silos = [f["discards"] for f in forms if f["type"] == "Acquire" and f["landmark"] == "silo"]
    assert silos == [[k] for k in keys if "food" in box.cards[k].icons]  # 1 card showing food
    builds = [f for f in forms if f["type"] == "Build"]
    buildings = [k for k in keys if box.cards[k].kind == "building"]
    assert len(builds) == len(buildings) * BUILD_OPTIONS
    assert builds[0] == {"type": "Build", "card": buildings[0], "way": 0}
    assert t["describe"].iloc[-1] == f"build the {box.cards[buildings[-1]].name}, way to pay {BUILD_OPTIONS} (cheapest first)"


def _walk(game, players, seed, options=None):
    """The states of a seeded random-policy game through the environment."""
    env = KitAECEnv(game, players=players, **(options or {}))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(max_iter=2000):
        obs, _, term, trunc, _ = env.last()
        yield env, agent
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("game,options", [("estate", {}), ("estate", {"improvement": "adjacent", "marble_field": "single"}),
                                          ("landmarks", {"rounds": 3})])
def test_masks_are_exactly_the_legal_actions(game, options):
    steps = 0
    for seed in range(6):
        for env, agent in _walk(game, 2 + seed % 3, seed, options):
            s = env.state_
            if s.is_terminal():
                continue
            p = env.possible_agents.index(agent)
            mask = env.observe(agent)["action_mask"]
            legal = s.legal_actions()
            numbers = np.flatnonzero(mask)
            assert len(numbers) == len(legal)  # one number per legal action, none for anything else
            assert Counter(env.catalogue.decode(s, int(i)) for i in numbers) == Counter(legal)
            other = env.possible_agents[(p + 1) % env.n]
            assert not env.observe(other)["action_mask"].any()
            steps += 1
    assert steps > 50


def test_an_illegal_or_unoffered_number_changes_nothing():
    env = KitAECEnv("landmarks", players=3)
    env.reset(seed=2)
    s = env.state_
    assert s.phase == "lead" and s.current_player() == 0
    before = s.to_dict()
    build0 = int(np.flatnonzero(action_table("landmarks").action.str.contains('"Build"'))[0])
    with pytest.raises(ValueError, match=f"action {build0} .* is not offered now"):
        env.step(build0)
    follow = env.catalogue.index[Follow()]
    with pytest.raises(ValueError, match=f"action {follow} \\(follow the lead action\\) is illegal now: .*only the leader leads|"
                                         f"action {follow} .* is illegal now"):
        env.step(follow)
    with pytest.raises(ValueError, match=f"action must be an integer 0..{len(env.catalogue) - 1}"):
        env.step(len(env.catalogue))
    assert env.state_.to_dict() == before
    env.step(env.catalogue.index[Lead("harvest")])
    assert env.state_.lead == "harvest" and env.agent_selection == "player_1"


def _landmarks_after_deal(seed=3):
    s = get_game("landmarks").new_game(players=3, seed=seed)
    assert s.phase == "lead" and all(s.architects)
    return s


def test_landmarks_observation_hides_other_hands_and_architects():
    s = _landmarks_after_deal()
    env = KitAECEnv("landmarks", players=3)
    env.reset(seed=3)
    env.state_ = s
    names = observation_fields("landmarks", players=3)
    v = env.observe("player_0")["observation"]
    # P2's hand swapped card for card with the draw pile, P2 and P3 given other architects: P1 sees the same
    t = s.copy()
    other = [k for k in t.draw_pile if k not in t.hands[1]][:2]
    for k in other:
        j = t.draw_pile.index(k)
        t.draw_pile[j], t.hands[1][0] = t.hands[1][0], k
        t.hands[1].append(t.hands[1].pop(0))
    assert sorted(t.hands[1]) != sorted(s.hands[1]) and len(t.hands[1]) == len(s.hands[1])
    spare = [a for a in sorted(s.box.architects) if a not in s.architects]
    t.architects[1], t.architects[2] = spare[0], s.architects[1]
    env.state_ = t
    assert np.array_equal(env.observe("player_0")["observation"], v)
    # ... while P2's own vector changes (its hand and architect), and what P1 sees is read right
    env.state_ = s
    v2 = env.observe("player_1")["observation"]
    env.state_ = t
    assert not np.array_equal(env.observe("player_1")["observation"], v2)
    for k, c in Counter(s.hands[0]).items():
        assert v[names.index(f"my_hand.{k}")] == c
    assert v[names.index("player+1.hand_size")] == len(s.hands[1])
    assert v[names.index(f"player+0.architect={s.architects[0]}")] == 1
    assert not any(v[names.index(f"player+1.architect={a}")] for a in s.box.architects)
    assert v[names.index("player+0.gold")] == s.gold[0] and v[names.index("to_move=me")] == 1


def test_estate_observation_hides_the_tile_stack_order():
    g = get_game("estate")
    s = g.new_game(players=3, seed=5, log=False)
    for _ in range(6):
        s.apply_action(s.legal_actions()[0])
    env = KitAECEnv("estate", players=3)
    env.reset(seed=5)
    me = s.current_player()
    env.state_ = s
    v = env.observe(f"player_{me}")["observation"]
    t = s.copy()
    t.config = replace(s.config, seed=s.config.seed + 99)  # another order of the stack still face down
    t.rng_count += 3
    env.state_ = t
    assert np.array_equal(env.observe(f"player_{me}")["observation"], v)
    names = observation_fields("estate", players=3)
    nxt = (me + 1) % 3
    assert v[names.index("player+0.hand.wood")] == s.hand[me]["wood"]
    assert v[names.index("player+1.workers.factory")] == s.workers[nxt]["factory"]
    assert v[names.index("player+1.income.gold")] == s.income[nxt]["gold"]
    for tile in set(s.display):
        assert v[names.index(f"display.{tile}")] == s.display.count(tile)
    assert v[names.index("stack.forest")] == s.stack["forest"]


@pytest.mark.parametrize("game,players", [("estate", 3), ("landmarks", 4)])
def test_single_seat_plays_a_companion_against_chosen_bots(game, players):
    e = SingleSeatEnv(game, players=players, seat=1, opponents=["greedy", "random"], **({"rounds": 3} if game == "landmarks" else {}))
    obs, info = e.reset(seed=4)
    rng = random.Random(0)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert e.aec.state_.current_player() == 1
        legal = e.aec.state_.legal_actions()
        assert int(obs["action_mask"].sum()) == len(legal)
        obs, reward, done, _, info = e.step(rng.choice(list(np.flatnonzero(info["action_mask"]))))
        steps += 1
    s = e.aec.state_
    assert s.is_terminal() and steps >= 1 and reward == s.returns()[1]
    assert type(e.bots[0]).__name__.endswith("GreedyAgent") and type(e.bots[2]).__name__ == "RandomAgent"


def test_a_game_without_an_encoding_is_refused_by_name(monkeypatch):
    import haunted_kit.env as E

    class Plain:  # a protocol game that numbers no actions and encodes no observation
        name, title = "plain", "Plain"

    monkeypatch.setattr(E, "get_game", lambda name: Plain())
    with pytest.raises(MissingHook, match=r"^the environment \(a fixed action encoding\) needs the game's action_catalogue "
                                          r"hook; Plain \(--game plain\) has none$"):
        KitAECEnv("plain", players=2)
    Plain.action_catalogue = lambda self, box: [Follow(), Decline()]
    with pytest.raises(MissingHook, match=r"needs the game's observation_encoder hook; Plain \(--game plain\) has none"):
        KitAECEnv("plain", players=2)
