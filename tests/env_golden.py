"""Golden environment runs: digests of everything the environments hand a learning agent.

Speed work on the environments (``haunted_kit/env.py``, the games' observation encoders
and action catalogues) must not change one number a learner sees. This module plays
seeded episodes of every game through :class:`~haunted_kit.env.KitAECEnv` (a seeded
random policy over the mask's numbers, and every agent observed at every step, so each
encoder also meets observers who are not to move) and through
:class:`~haunted_kit.env.SingleSeatEnv` (seeded action numbers from the whole action space,
so masked-out actions and their ``illegal_reward`` and ``info["illegal_action"]`` text are
met too), and reduces each run to a SHA-256 of every observation vector, action mask,
reward, termination and truncation flag and info, in order, plus the number of steps.

``tests/test_env_golden.py`` compares them with ``tests/fixtures/env_golden.json``, which
was written by the environments of commit 3e73b0c (before issue 21's env speed work), so the
faster paths are held to the very arrays the earlier code gave. ``benchmarks/bench_env.py
--ab REV`` compares the same digests of REV and of the tree (``same outputs``). When a change
of what the environments show is intended, regenerate the file and review the diff::

    PYTHONPATH=. python tests/env_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from pathlib import Path

# the tree under test: this checkout, or the one named by HK_BENCH_TREE (bench_env.py --ab)
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from haunted_kit.env import KitAECEnv, SingleSeatEnv  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "env_golden.json"

#: (game, players, options, AEC seeds, single-seat seeds)
RUNS = (
    ("haunted", 4, {}, (0, 1, -5), (2,)),
    ("haunted", 2, {"mode": "citizen"}, (3,), (4,)),
    ("estate", 3, {}, (0, 1), (2,)),
    ("landmarks", 3, {"rounds": 2}, (0, 1), (2,)),
    ("landmarks", 2, {"rounds": 3}, (3,), (4,)),
)


def _put(h, *values) -> None:
    for x in values:
        if isinstance(x, np.ndarray):
            h.update(f"{x.dtype}{x.shape}".encode())
            h.update(x.tobytes())
        else:
            h.update(json.dumps(x, sort_keys=True, default=repr).encode())
        h.update(b"|")


def aec_digest(game: str, players: int, options: dict, seed: int) -> tuple[int, str]:
    """``(steps, SHA-256)`` of one seeded AEC episode: at each step every agent's
    ``observe`` (vector and mask), then ``last()``'s reward, flags and info."""
    env = KitAECEnv(game, players=players, **options)
    env.reset(seed=seed)
    rng, h, steps = random.Random(seed), hashlib.sha256(), 0
    for agent in env.agent_iter():
        for other in env.agents:
            o = env.observe(other)
            _put(h, other, o["observation"], o["action_mask"])
        obs, reward, done, cut, info = env.last()
        _put(h, agent, obs["observation"], obs["action_mask"], reward, done, cut, info, dict(env.rewards))
        if done or cut:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps, h.hexdigest()


def single_seat_digest(game: str, players: int, options: dict, seed: int) -> tuple[int, str]:
    """``(steps, SHA-256)`` of one seeded :class:`SingleSeatEnv` episode against greedy
    bots: one action number in three drawn from the whole action space (often masked out:
    the ``illegal_reward`` path), the others from the mask."""
    env = SingleSeatEnv(game, players=players, seat=1, opponents=["greedy"], **options)
    obs, info = env.reset(seed=seed)
    rng, h, steps = random.Random(seed), hashlib.sha256(), 0
    _put(h, obs["observation"], obs["action_mask"], info)
    done = False
    while not done and steps < 2000:
        legal = np.flatnonzero(obs["action_mask"])
        action = rng.randrange(env.action_space.n) if steps % 3 == 0 else int(legal[rng.randrange(len(legal))])
        obs, reward, done, cut, info = env.step(action)
        _put(h, obs["observation"], obs["action_mask"], reward, done, cut, info)
        steps += 1
    return steps, h.hexdigest()


def compute() -> list[dict]:
    rows = []
    for game, players, options, aec_seeds, seat_seeds in RUNS:
        for kind, seeds, digest in (("aec", aec_seeds, aec_digest), ("single_seat", seat_seeds, single_seat_digest)):
            for seed in seeds:
                steps, sha = digest(game, players, options, seed)
                rows.append({"game": {"game": game, "players": players, "options": options, "env": kind, "seed": seed},
                             "steps": steps, "sha256": sha})
    return rows


def main(argv=None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from golden_games import golden_main  # lazy: the golden-file command line, only when run as a script

    return golden_main(argv, __doc__, GOLDEN, compute)


if __name__ == "__main__":
    sys.exit(main())
