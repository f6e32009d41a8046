"""The environment and the search agent over every game of the kit: figures, not tests.

    python benchmarks/bench_env.py [--games N]

For each game (Haunted Lands 4 players, estate 3, Landmarks 3 over 3 rounds):

* env steps/s: decisions per second of a seeded random policy through ``KitAECEnv``
  (``agent_iter`` / ``last`` / ``step``: the observation vector and the action mask of
  every decision included), and in the same run the same games played straight on the
  engine (random legal action), so the ratio shows the environment's own cost whatever
  the machine's load;
* hint: seconds for ``hints(state, playouts=1000)`` from a position a few greedy
  decisions into a game (truncated rollouts where the game has ``evaluate``).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from haunted_kit.agents import make_agent
from haunted_kit.env import KitAECEnv
from haunted_kit.games import get_game
from haunted_kit.search import hints, sample_chance

GAMES = [("haunted", 4, {}), ("estate", 3, {}), ("landmarks", 3, {"rounds": 3})]


def env_games(game: str, players: int, options: dict, seeds) -> tuple[int, float]:
    """Decisions and CPU seconds of random-policy games through the AEC environment."""
    env = KitAECEnv(game, players=players, **options)
    steps, start = 0, time.process_time()
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.process_time() - start


def engine_games(game: str, players: int, options: dict, seeds) -> tuple[int, float]:
    """Decisions and CPU seconds of random games straight on the engine."""
    g = get_game(game)
    steps, start = 0, time.process_time()
    for seed in seeds:
        s = g.new_game(players=players, seed=seed, log=False, **options)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                sample_chance(s, rng)
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def hint_seconds(game: str, players: int, options: dict) -> tuple[float, str]:
    g = get_game(game)
    s = g.new_game(players=players, seed=3, **options)
    bots = [make_agent("greedy", i, game=g) for i in range(players)]
    for _ in range(6):
        if s.is_terminal() or s.current_player() is None:
            break
        s.apply_action(bots[s.current_player()].act(s))
    start = time.perf_counter()
    found = hints(s, playouts=1000, seed=1)
    return time.perf_counter() - start, found[0].sentence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="seeded games per game and way (default 20)")
    args = ap.parse_args()
    seeds = range(args.games)
    print(f"{'game':10} {'env steps/s':>12} {'engine steps/s':>15} {'env/engine':>10} {'hint 1000 playouts':>19}")
    for game, players, options in GAMES:
        e_steps, e_sec = env_games(game, players, options, seeds)
        g_steps, g_sec = engine_games(game, players, options, seeds)
        h_sec, sentence = hint_seconds(game, players, options)
        print(f"{game:10} {e_steps / e_sec:12,.0f} {g_steps / g_sec:15,.0f} {(e_steps / e_sec) / (g_steps / g_sec):10.2f} "
              f"{h_sec:17.2f} s")
        print(f"{'':10} top hint: {sentence}")


if __name__ == "__main__":
    main()
