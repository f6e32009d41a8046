"""The environments keep Gymnasium's contract: unseeded resets draw new games from the
environment's own generator, ``check_env`` passes for every game (an unmasked illegal
action has a documented outcome), and observations stay within the declared bounds."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from haunted_kit.env import KitAECEnv, SingleSeatEnv
from haunted_kit.games import get_game
from ruletools import ENV_HOOKS, games_with


def _players(game: str) -> list[int]:
    g = get_game(game)  # the game's own range (of its default box, when it has one)
    return [g.min_players, g.max_players]


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_check_env_passes_for_every_game(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on infinite highs (uncapped counts) is not a failure
        check_env(SingleSeatEnv(game, players=_players(game)[0], opponents=["random"]), skip_render_check=True)


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_unseeded_resets_draw_new_games_from_the_seeded_generator(game):
    n = _players(game)[0]
    env = SingleSeatEnv(game, players=n, opponents=["random"])
    env.reset(seed=5)
    assert env.aec.game_seed == 5
    env.reset()
    first = env.aec.game_seed
    env.reset()
    second = env.aec.game_seed
    assert len({5, first, second}) == 3  # each reset() is another game
    again = SingleSeatEnv(game, players=n, opponents=["random"])
    again.reset(seed=5)
    obs = [again.reset()[0]["observation"] for _ in range(2)]
    assert again.aec.game_seed == second  # reset(seed=5), reset(), reset() is one reproducible series
    env.reset(seed=5)
    env.reset()
    np.testing.assert_array_equal(env._out()[0]["observation"], obs[0])
    # two fresh copies (as a vector environment makes them) start different games
    a, b = (SingleSeatEnv(game, players=n, opponents=["random"]) for _ in range(2))
    a.reset(), b.reset()
    assert a.aec.game_seed != b.aec.game_seed
    aec = KitAECEnv(game, players=n)
    aec.reset(seed=9)
    aec.reset()
    drawn = aec.game_seed
    aec.reset()
    assert len({9, drawn, aec.game_seed}) == 3
    fresh = KitAECEnv(game, players=n)
    fresh.reset(seed=aec.game_seed)
    assert fresh.state_.to_dict() == aec.state_.to_dict()  # the game played is the drawn seed's game


def test_vector_copies_start_different_games():
    vec = gymnasium.vector.SyncVectorEnv([lambda: SingleSeatEnv("haunted", players=2, opponents=["random"])] * 2)
    vec.reset()
    seeds = [e.aec.game_seed for e in vec.envs]
    assert seeds[0] != seeds[1]
    vec.reset()
    assert [e.aec.game_seed for e in vec.envs] != seeds  # and every episode is another game
    vec.close()


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_an_unmasked_illegal_action_is_penalised_and_changes_nothing(game):
    env = SingleSeatEnv(game, players=_players(game)[0], opponents=["random"])
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.aec.state_.to_dict()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, False, False)
    assert info2["illegal_action"].startswith(f"action {illegal}")  # the reason, naming the number
    assert env.aec.state_.to_dict() == before
    np.testing.assert_array_equal(obs2["observation"], obs["observation"])
    np.testing.assert_array_equal(obs2["action_mask"], obs["action_mask"])
    # not an action of the space: always refused, nothing changes
    with pytest.raises(ValueError):
        env.step(env.action_space.n)
    with pytest.raises(ValueError):
        env.step(1.5)
    assert env.aec.state_.to_dict() == before
    # a legal action afterwards plays on
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.aec.state_.to_dict() != before
    strict = SingleSeatEnv(game, players=_players(game)[0], opponents=["random"], illegal_reward=None)
    strict.reset(seed=3)
    with pytest.raises(ValueError):
        strict.step(illegal)
    assert strict.aec.state_.to_dict() == before


def test_a_custom_penalty_and_a_bad_one():
    env = SingleSeatEnv("haunted", players=2, illegal_reward=-0.25)
    obs, _ = env.reset(seed=1)
    assert env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))[1] == -0.25
    for bad in ("-1", float("nan"), True, float("inf")):
        with pytest.raises(ValueError, match="illegal_reward must be a finite number or None"):
            SingleSeatEnv("haunted", players=2, illegal_reward=bad)


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_observations_stay_within_the_declared_bounds(game):
    for n in _players(game):
        env = KitAECEnv(game, players=n)
        space = env.observation_space("player_0")["observation"]
        assert (space.low == 0).all()  # every entry is a count or a flag
        names = env.encode.names
        assert space.high[names.index("to_move=me")] == 1
        assert np.isfinite(space.high).sum() > len(names) / 2  # most entries are flags or capped counts
        top = np.zeros(len(names), dtype=np.float32)
        for seed in range(4):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while env.agents:
                for agent in env.possible_agents:
                    v = env.observe(agent)["observation"]
                    assert space.contains(v), [names[i] for i in np.flatnonzero((v < space.low) | (v > space.high))]
                    top = np.maximum(top, v)
                agent = env.agent_selection
                if env.terminations[agent]:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        assert top.max() > 1  # the games reached counts above a flag's 1


def test_haunted_caps_come_from_the_box():
    env = KitAECEnv("haunted", players=4)
    box = get_game("haunted").default_box()
    high = dict(zip(env.encode.names, env.observation_space("player_0")["observation"].high))
    assert high["season"] == box.seasons == 3
    assert high["round"] == box.rounds_per_season == 3
    assert high["supply_ghosts"] == box.supply_ghosts == 25
    assert high["player+2.water"] == box.resource_cap == 3
    assert high["cell0.ghost"] == high["phase=turns"] == 1
    assert high["player+0.pecunias"] == np.inf  # the rules set no cap
