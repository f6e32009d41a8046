"""Exercises over many seeds: fairness (the answer recomputed on a position rebuilt from
the shown facts alone), seeds skipped because the game ended first, and CPU time.

    PYTHONPATH=$PWD python benchmarks/bench_exercises.py [SEEDS] [KEY ...]

Prints one row per exercise: seeds tried, unfair answers (must be 0), seeds skipped
(finished games), and the median CPU milliseconds to make one exercise and to check it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from haunted_kit.haunted.exercises import EXERCISES, make, rebuild
from benchargs import number_at_least


def run(key: str, seeds: int) -> tuple[int, int, float, float]:
    unfair, skipped, t_make, t_check = 0, 0, [], []
    for seed in range(seeds):
        t0 = time.process_time()
        ex = make(key, seed)
        t1 = time.process_time()
        unfair += ex.solve(rebuild(ex.facts)) != ex.answer
        t2 = time.process_time()
        skipped += ex.seed != seed
        t_make.append(t1 - t0)
        t_check.append(t2 - t1)
    return unfair, skipped, 1000 * statistics.median(t_make), 1000 * statistics.median(t_check)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds", nargs="?", type=number_at_least(1), default=500, help="seeds per exercise (default 500)")
    ap.add_argument("keys", nargs="*", metavar="exercise",
                    help=f"exercises to check (default all: {', '.join(EXERCISES)})")
    args = ap.parse_args(argv)
    unknown = [k for k in args.keys if k not in EXERCISES]
    if unknown:
        ap.error(f"unknown exercise {unknown[0]!r} (known: {', '.join(EXERCISES)})")
    seeds, keys = args.seeds, args.keys or list(EXERCISES)
    print(f"{'exercise':20} {'seeds':>6} {'unfair':>7} {'skipped':>8} {'make ms':>8} {'rebuild+solve ms':>17}")
    bad = 0
    for key in keys:
        unfair, skipped, tm, tc = run(key, seeds)
        bad += unfair
        print(f"{key:20} {seeds:6d} {unfair:7d} {skipped:8d} {tm:8.1f} {tc:17.1f}", flush=True)
    print("all answers follow from the shown facts" if bad == 0 else f"{bad} unfair answers")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
