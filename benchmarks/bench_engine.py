"""Engine speed: full games per second, decisions per second, state copy time, memory.

Usage::

    .venv/bin/python benchmarks/bench_engine.py [--games N] [--copies N]

Figures are CPU time of this process (time.process_time), so other work on the
machine disturbs them less; the event log is switched off, as in bulk simulation.
A figure, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from haunted_kit import new_game  # noqa: E402
from haunted_kit.agents import make_agent  # noqa: E402


def run_games(agent: str, players: int, games: int, first_seed: int = 0):
    decisions = 0
    t0 = time.process_time()
    for seed in range(first_seed, first_seed + games):
        s = new_game(players=players, seed=seed, log=False)
        bots = [make_agent(agent, seed * 10 + i) for i in range(players)]
        while s.phase != "over":
            s.apply_action(bots[s.current_player()].act(s))
        decisions += s.decisions
    dt = time.process_time() - t0
    return games / dt, decisions / dt, decisions / games


def copy_time(copies: int) -> float:
    """Median microseconds to copy a mid-game 4-player state (no log)."""
    s = new_game(players=4, seed=3, log=False)
    bot = make_agent("random", 1)
    while not (s.season == 2 and s.phase == "turns"):
        s.apply_action(bot.act(s))
    samples = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(copies):
            s.copy(keep_log=False)
        samples.append((time.perf_counter() - t0) / copies * 1e6)
    return statistics.median(samples)


def memory_growth(games: int) -> tuple[float, float]:
    """Traced Python memory (KiB) after `games` and after 2x`games` random 4-player games."""
    tracemalloc.start()
    out = []
    seed = 10_000
    for _ in range(2):
        run_games("random", 4, games, seed)
        seed += games
        gc.collect()
        out.append(tracemalloc.get_traced_memory()[0] / 1024)
    tracemalloc.stop()
    return out[0], out[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per configuration (default 200)")
    ap.add_argument("--copies", type=int, default=20000, help="copies per copy-time sample (default 20000)")
    ap.add_argument("--memory-games", type=int, default=1000, help="games per memory sample (default 1000)")
    args = ap.parse_args(argv)
    print(f"{'agents':8} {'players':>7} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
    for agent in ("random", "greedy"):
        for players in (2, 4):
            g, d, per = run_games(agent, players, args.games)
            print(f"{agent:8} {players:>7} {g:>9.1f} {d:>12,.0f} {per:>15.1f}")
    print(f"state copy (4 players, season 2, no log): {copy_time(args.copies):.2f} us (median of 7)")
    if args.memory_games:
        a, b = memory_growth(args.memory_games)
        print(f"traced memory after {args.memory_games} / {2 * args.memory_games} games: {a:,.0f} KiB / {b:,.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
