"""Time to review a whole 4-player Haunted Lands game, and how stable the review is.

Plays a seeded 4-player game of greedy bots, reviews it (seat P1) with the default budget
(:data:`haunted_kit.review.DEFAULT_PLAYOUTS`) under two search seeds, and prints the CPU
time of each (``time.process_time``) and the overlap of the 3 costliest decisions and of
the top 3 turning points between the two seeds (aim: at least 2 of 3 each).

    PYTHONPATH=$PWD python benchmarks/bench_review.py [--playouts K] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from benchargs import number_at_least
from haunted_kit.play import play_game
from haunted_kit.review import DEFAULT_PLAYOUTS, review


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--playouts", type=number_at_least(1), default=DEFAULT_PLAYOUTS)
    ap.add_argument("--seed", type=int, default=1, help="the game's seed")
    args = ap.parse_args()
    s, _ = play_game("haunted", players=4, seed=args.seed, agents=["greedy"], log=False)
    runs = []
    for search_seed in (0, 1):
        t0, w0 = time.process_time(), time.perf_counter()
        r = review(s, seat=0, playouts=args.playouts, seed=search_seed, progress=False)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        runs.append(r)
        print(f"search seed {search_seed}: {len(r.decisions)} decisions with a choice, {args.playouts} playouts each: "
              f"{cpu:.1f} s CPU ({wall:.1f} s wall)")
    costly = [{c.number for c in r.costly[:3]} for r in runs]
    turning = [{(t.number, t.player) for t in r.turning_points[:3]} for r in runs]
    print(f"costliest 3 decisions: {sorted(costly[0])} / {sorted(costly[1])}: overlap {len(costly[0] & costly[1])} of 3")
    print(f"top 3 turning points: {sorted(turning[0])} / {sorted(turning[1])}: overlap {len(turning[0] & turning[1])} of 3")


if __name__ == "__main__":
    main()
