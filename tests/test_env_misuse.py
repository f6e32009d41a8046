"""Misuse of the environments, for every game of the kit: each constructor argument is
checked in ``__init__`` with a ValueError naming it; seeds must be integers; a step after
the end or before the first reset says so; a 0-d integer array is an action number (as
``spaces.Discrete.contains`` accepts)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from haunted_kit.env import KitAECEnv, SingleSeatEnv
from ruletools import ENV_HOOKS, games_with

GAMES = games_with(*ENV_HOOKS)
#: the game's own refusal of a player count it does not play (its config error, a ValueError)
RANGE = {"haunted": "players must be between 2 and 4, got 9", "estate": "players must be 2-4, got 9",
         "landmarks": "players must be an integer from 2 to 5, got 9"}


@pytest.mark.parametrize("game", GAMES)
def test_constructor_arguments_are_checked_at_once(game):
    with pytest.raises(ValueError, match=r"^players must be a whole number of players \(an int\), got '3'$"):
        KitAECEnv(game, players="3")
    with pytest.raises(ValueError, match=r"^players must be a whole number of players \(an int\), got 3.0$"):
        SingleSeatEnv(game, players=3.0)
    # the kit's games' own sentences; a game registered from outside words its own, naming the count
    with pytest.raises(ValueError, match=f"^{RANGE[game]}$" if game in RANGE else r"\b9\b"):
        KitAECEnv(game, players=9)  # refused here, not at the first reset
    with pytest.raises(ValueError, match=f"^'{game}' options: .*unexpected keyword argument 'bogus'; given options: bogus$"):
        KitAECEnv(game, players=3, bogus=1)
    with pytest.raises(ValueError, match=r"^render_mode must be None or 'ansi', got 'human'$"):
        KitAECEnv(game, players=3, render_mode="human")
    for seat in ("1", 1.0, True, 3, -1):
        with pytest.raises(ValueError, match=f"^seat must be a player index 0..2, got {seat!r}$".replace(".0,", r"\.0,")):
            SingleSeatEnv(game, players=3, seat=seat)
    assert SingleSeatEnv(game, players=3, seat=np.int64(2)).seat == 2
    with pytest.raises(ValueError, match=r"^opponents must name at least one agent spec, e\.g\. \['greedy'\] "
                                         r"\(they repeat over the other seats\)$"):
        SingleSeatEnv(game, players=3, opponents=[])
    with pytest.raises(ValueError, match=r"^opponents must be agent spec strings, got 7$"):
        SingleSeatEnv(game, players=3, opponents=[7])
    with pytest.raises(ValueError, match=r"^opponents: one spec per entry, got the lineup 'greedy,random'$"):
        SingleSeatEnv(game, players=3, opponents=["greedy,random"])


@pytest.mark.parametrize("game", GAMES)
def test_opponents_may_be_one_lineup_string(game):
    e = SingleSeatEnv(game, players=3, seat=0, opponents="random,greedy")
    assert e.opponents == ["random", "greedy"]
    e.reset(seed=2)
    assert type(e.bots[1]).__name__ == "RandomAgent" and type(e.bots[2]).__name__.endswith("GreedyAgent")


@pytest.mark.parametrize("game", GAMES)
def test_seeds_must_be_integers(game):
    e = KitAECEnv(game, players=3)
    single = SingleSeatEnv(game, players=3)
    for seed in (1.5, 1.0, True, "1", 2**63):
        msg = rf"^seed must be an integer of at most 64 bits \(-2\*\*63 <= seed < 2\*\*63\), got {re.escape(repr(seed))}$"
        with pytest.raises(ValueError, match=msg):
            e.reset(seed=seed)
        with pytest.raises(ValueError, match=msg):
            single.reset(seed=seed)
    single.reset(seed=-1)  # a negative game seed is a seed of the kit, for the one-seat wrapper too
    assert single.aec._seed == -1
    e.reset(seed=np.int64(4))
    twin = KitAECEnv(game, players=3)
    twin.reset(seed=4)
    assert e.state_.to_dict() == twin.state_.to_dict()
    single.reset(seed=np.int32(4))
    assert single.aec._seed == 4 and type(single.aec._seed) is int


@pytest.mark.parametrize("game", GAMES)
def test_a_0d_integer_array_is_an_action_number(game):
    e, twin = KitAECEnv(game, players=3), KitAECEnv(game, players=3)
    e.reset(seed=3)
    twin.reset(seed=3)
    a = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    assert e.action_space(e.agent_selection).contains(np.array(a))
    e.step(np.array(a))
    twin.step(a)
    assert e.state_.to_dict() == twin.state_.to_dict()
    before = e.state_.to_dict()
    last = len(e.catalogue) - 1
    for bad in (np.array([a]), np.array(float(a)), np.array(True)):  # Discrete.contains refuses these too
        assert not e.action_space(e.agent_selection).contains(bad)
        with pytest.raises(ValueError, match=rf"^action must be an integer 0\.\.{last}, got array\("):
            e.step(bad)
    assert e.state_.to_dict() == before


@pytest.mark.parametrize("game", GAMES)
def test_step_before_reset_and_after_every_agent_is_done(game):
    e = KitAECEnv(game, players=2)
    with pytest.raises(RuntimeError, match=r"^no game yet: call reset\(\) first$"):
        e.step(0)
    with pytest.raises(RuntimeError, match=r"^no game yet: call reset\(\) first$"):
        e.observe("player_0")
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"^unknown agent 'player_7' \(agents: player_0, player_1\)$"):
        e.observe("player_7")
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == [] and e.state_.is_terminal()
    end = e.state_.to_dict()
    with pytest.raises(RuntimeError, match=r"^the game is over and every agent is done: call reset\(\)$"):
        e.step(0)
    assert e.state_.to_dict() == end
    e.reset(seed=1)  # and the environment plays again
    assert e.agents == ["player_0", "player_1"]
