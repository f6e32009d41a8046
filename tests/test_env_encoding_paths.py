"""The environment's cheap paths give the vectors and masks of the plain definitions.

``KitAECEnv.observe`` asks an encoder for ``from_state(state, player, to_move)`` where it has one and
numbers the legal actions through the catalogue's dict; these must equal, at every
decision of seeded random games and for every seat, the vector of
``encode(state.observation(player))`` and the mask marking each catalogue entry equal
(``==``) to a legal action (a ranked entry: counted by key in ``legal_actions()`` order).
"""

import random

import numpy as np
import pytest

from haunted_kit.env import KitAECEnv
from haunted_kit.games import default_players, game_names, get_game, option_defaults
from haunted_kit.protocol import RankedEntry
from haunted_kit.search import sample_chance
from ruletools import ENV_HOOKS, games_with

#: per game: players and options (the kit's games as measured; any other registered game its declared defaults)
SETTINGS = {**{n: (default_players(get_game(n)), option_defaults(get_game(n))) for n in game_names()},
            "haunted": (4, {}), "estate": (3, {}), "landmarks": (3, {"rounds": 2})}


def _plain_mask(env, s, p):
    mask = np.zeros(len(env.catalogue), dtype=np.int8)
    if s.is_terminal() or s.current_player() != p:
        return mask
    cat, ranks = env.catalogue, {}
    for a in s.legal_actions():
        key = cat.key_of(a)
        if key is None:
            hits = [i for i, e in enumerate(cat.entries) if not isinstance(e, RankedEntry) and e == a]
        else:
            ranks[key] = ranks.get(key, -1) + 1
            hits = [i for i, e in enumerate(cat.entries) if e == RankedEntry(key, ranks[key])]
        assert len(hits) == 1, a
        mask[hits[0]] = 1
    return mask


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_observe_equals_the_plain_vector_and_mask(game):
    players, options = SETTINGS[game]
    env = KitAECEnv(game, players=players, **options)
    checked = 0
    for seed in range(3):
        env.reset(seed=seed)
        s, rng = env.state_, random.Random(seed)
        for _ in range(150):
            if s.is_terminal():
                break
            for p, agent in enumerate(env.possible_agents):
                got = env.observe(agent)
                to_move = None if s.is_terminal() else s.current_player()
                assert np.array_equal(got["observation"], env.encode(s.observation(p), p, to_move))
                assert np.array_equal(got["action_mask"], _plain_mask(env, s, p))
                checked += 1
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            while s.is_chance_node():
                sample_chance(s, rng)
    assert checked > 50  # every game here has dozens of decisions
