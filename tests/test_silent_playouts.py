"""Search playouts keep no event log, in every game, and play the same game as a logged copy.

A determinisation (:func:`haunted_kit.search.determinise`) is what every playout plays on:
it must compose no event sentences (issue 21: logging was a tenth of a Landmarks hint), yet
the rules must not depend on the log, so the same decisions lead to the same position and
the same returns with the log on.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from haunted_kit import games
from haunted_kit.bots import default_agent, make_bot
from haunted_kit.games import game_names, get_game
from haunted_kit.search import determinise, move_events


#: a game long enough to play on from a third of the way in (Landmarks plays one round by default)
OPTIONS = {"landmarks": {"rounds": 3}}


def _midgame(game, seed: int):
    s = game.new_game(players=3, seed=seed, **OPTIONS.get(game.name, {}))
    bots = [make_bot(default_agent(game), 7 + i, game) for i in range(3)]
    for _ in range(4):  # (a short game, a toy's, stops a decision before its end: there is a game to play on)
        while s.is_chance_node():
            s.apply_chance(s.sample_chance())
        before = s.copy()
        s.apply_action(bots[s.current_player()].act(s))
        while s.is_chance_node():
            s.apply_chance(s.sample_chance())
        if s.is_terminal():
            return before
    return s


#: the worked examples of tests/fourth_game keep the rule as the kit's games do (a maintainer copies them)
TOYS = {"nim": ("nim.engine", "GAME"), "bid": ("bid.engine", "GAME")}


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent / "fourth_game"))
    for name, where in TOYS.items():
        if name not in games.REGISTRY:
            monkeypatch.setitem(games.REGISTRY, name, where)


@pytest.mark.parametrize("name", [*game_names(), *[t for t in TOYS if t not in game_names()]])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_determinisation_logs_nothing_and_plays_as_a_logged_copy(name, seed, toys):
    game = get_game(name)
    s = _midgame(game, seed)
    me = s.current_player()
    d = determinise(game, s, me, random.Random(seed))
    assert d.log is None  # the playout composes no sentences
    logged = d.copy()
    logged.log = []
    rng_a, rng_b = random.Random(5), random.Random(5)
    bots_a = [make_bot(default_agent(game), 30 + i, game) for i in range(3)]
    bots_b = [make_bot(default_agent(game), 30 + i, game) for i in range(3)]
    steps = 0
    while not d.is_terminal() and steps < 400:
        if d.is_chance_node():
            outs = d.chance_outcomes()
            d.apply_chance(outs[rng_a.randrange(len(outs))][0])
            logged.apply_chance(outs[rng_b.randrange(len(outs))][0])
            continue
        a, b = bots_a[d.current_player()].act(d), bots_b[logged.current_player()].act(logged)
        assert a == b
        d.apply_action(a)
        logged.apply_action(b)
        steps += 1
        assert d.log is None
    assert steps > 0 and logged.log  # the logged copy did log the same decisions
    assert d.returns() == logged.returns()
    seen, seen_logged = d.observation(None), logged.observation(None)
    seen.pop("log", None), seen_logged.pop("log", None)  # an observation may carry the log (Haunted Lands)
    assert seen == seen_logged


@pytest.mark.parametrize("name", game_names())
def test_a_hint_still_tells_the_moves_own_events(name):
    game = get_game(name)
    s = _midgame(game, 3)
    me = s.current_player()
    action = s.legal_actions()[0]
    events, _ = move_events(game, s, me, action, random.Random(0))
    assert events and all(e.text for e in events)  # move_events gives the determinisation a log of its own
