"""The environment and the search agent over every game of the kit: figures, not tests.

    python benchmarks/bench_env.py [--games N] [--thirds N] [--strength N]

For each game (Haunted Lands 4 players, estate 3, Landmarks 3 over 3 rounds):

* env steps/s: decisions per second of a seeded random policy through ``KitAECEnv``
  (``agent_iter`` / ``last`` / ``step``: the observation vector and the action mask of
  every decision included), and in the same run the same games played straight on the
  engine (random legal action), so the ratio shows the environment's own cost whatever
  the machine's load;
* hint: CPU seconds (``time.process_time``) for ``hints(state, playouts=1000)`` from a
  position a few greedy decisions into a game (truncated rollouts where the game has
  ``evaluate``); for the estate and Landmarks also the median and the most over positions
  a third of the way (in decisions) into ``--thirds`` seeded random games;
* with ``--strength N``: ``search[playouts=50]`` (random rollouts, the default) and
  ``search[playouts=50,rollout=greedy]`` in seat P1 against greedy bots in the companion games (estate 2 players, Landmarks 3 players over 3 rounds), N seeded games
  each through ``simulate`` on 2 processes: its share of games won (each game's own
  winner: the sole highest gold value, the sole most module points) with a 95% Wilson
  interval, beside one seat's fair share.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from haunted_kit.bots import make_bot
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
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def random_decisions(s, seed: int, stop: int | None = None) -> int:
    """Play random legal actions (``random.Random(seed)``) on ``s`` to the end or ``stop`` decisions."""
    rng, n = random.Random(seed), 0
    while not s.is_terminal() and (stop is None or n < stop):
        if s.is_chance_node():
            sample_chance(s, rng)
            continue
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return n


def engine_games(game: str, players: int, options: dict, seeds) -> tuple[int, float]:
    """Decisions and CPU seconds of random games straight on the engine."""
    g = get_game(game)
    steps, start = 0, time.process_time()
    for seed in seeds:
        steps += random_decisions(g.new_game(players=players, seed=seed, log=False, **options), seed)
    return steps, time.process_time() - start


def hint_position(game: str, players: int, options: dict):
    """The position a few greedy decisions into game seed 3 (the hint figure's position)."""
    g = get_game(game)
    s = g.new_game(players=players, seed=3, **options)
    bots = [make_bot("greedy", i, g) for i in range(players)]
    for _ in range(6):
        if s.is_terminal() or s.current_player() is None:
            break
        s.apply_action(bots[s.current_player()].act(s))
    return s


def third_positions(game: str, players: int, options: dict, seeds) -> list:
    """For each seed, the position a third of the way (in decisions) into that seeded random game."""
    g = get_game(game)
    out = []
    for seed in seeds:
        bots = [make_bot("random", seed * 10 + i, g) for i in range(players)]
        s = g.new_game(players=players, seed=seed, **options)
        states = []
        while not s.is_terminal():
            states.append(s.copy())
            s.apply_action(bots[s.current_player()].act(s))
        out.append(states[len(states) // 3])
    return out


def hint_cpu(state) -> tuple[float, str]:
    """CPU seconds (this process) of ``hints(state, playouts=1000)`` and its top sentence."""
    start = time.process_time()
    found = hints(state, playouts=1000, seed=1)
    return time.process_time() - start, found[0].sentence


def strength(games: int) -> None:
    import tempfile
    from pathlib import Path

    from bench_scale import wilson  # the same interval as the Haunted Lands strength figures

    from haunted_kit.simulate import Grid, load_dataset, simulate

    out = Path(tempfile.mkdtemp(prefix="hk-bench-env-"))
    for game, players, options in (("estate", 2, {}), ("landmarks", 3, {"rounds": [3]})):
        specs = ("search[playouts=50]", "search[playouts=50,rollout=greedy]")
        grid = Grid(game=game, players=(players,), options=options, lineups=tuple(f"{x},greedy" for x in specs),
                    games=games)
        start = time.perf_counter()
        simulate(grid, out / game, workers=2, progress=False)
        f = load_dataset(out / game)
        for spec in specs:
            me = f[(f.player == 0) & (f.agent == spec)]
            k, n = int(me.won.sum()), len(me)
            low, high = wilson(k, n)
            print(f"{game:10} {spec} in P1 vs greedy, {players} players: won {k} of {n} = {k / n:.0%} "
                  f"(95% CI {low:.0%}-{high:.0%}; fair share {1 / players:.0%}; a tie at the top counts for nobody)")
        print(f"{'':10} {len(f.game_id.unique())} games in {time.perf_counter() - start:.0f} s on 2 processes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="seeded games per game and way (default 20)")
    ap.add_argument("--thirds", type=int, default=5, metavar="N",
                    help="estate and Landmarks hints from a third of the way into N seeded random games (default 5)")
    ap.add_argument("--strength", type=int, default=0, metavar="N",
                    help="also play N games of search vs greedy in each companion game")
    args = ap.parse_args()
    seeds = range(args.games)
    print(f"{'game':10} {'env steps/s':>12} {'engine steps/s':>15} {'env/engine':>10} {'hint 1000 playouts':>19}")
    for game, players, options in GAMES:
        e_steps, e_sec = env_games(game, players, options, seeds)
        g_steps, g_sec = engine_games(game, players, options, seeds)
        h_sec, sentence = hint_cpu(hint_position(game, players, options))
        print(f"{game:10} {e_steps / e_sec:12,.0f} {g_steps / g_sec:15,.0f} {(e_steps / e_sec) / (g_steps / g_sec):10.2f} "
              f"{h_sec:15.2f} s CPU")
        print(f"{'':10} top hint: {sentence}")
        if game in ("estate", "landmarks"):
            thirds = sorted(hint_cpu(s)[0] for s in third_positions(game, players, options, range(args.thirds)))
            print(f"{'':10} hint CPU from a third into {args.thirds} seeded random games: median "
                  f"{thirds[len(thirds) // 2]:.2f} s, most {thirds[-1]:.2f} s")
    if args.strength:
        strength(args.strength)


if __name__ == "__main__":
    main()
