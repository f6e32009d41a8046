"""Pathfinding speed: cost from one cell to all 49 cells, and the all-pairs matrix.

Usage::

    .venv/bin/python benchmarks/bench_pathfinding.py [--repeat N]

Prints the median wall-clock milliseconds (time.perf_counter) of each figure over
``--repeat`` runs. Every run starts from an empty result cache, so each figure includes
the Dijkstra searches it needs; "cold" figures also rebuild the cost map (49 calls of
rules.entry_cost and the weighted DiGraph). A figure, not a test: nothing here asserts
a time. The aim (issue 3) is the single-source table well under 1 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.haunted import pathfinding as pf  # noqa: E402
from haunted_kit.haunted.scenario import scenario  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    fn()  # warm up imports and lazily built objects
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=number_at_least(1), default=300)
    args = ap.parse_args(argv)

    s = scenario(players=4, mode="citizen", ghosts=[(2, -1), (3, 0), (-2, 2), (1, -2)], log=False)
    s.set_skills_known(0, s.skills_known(0) + [4])
    m = pf.cost_map(s, 0)

    def fresh():
        m._trees.clear()
        m._turns.clear()

    def single_source():          # costs (dict) from the city to every cell
        fresh()
        return m.costs_from((0, 0))

    def single_source_table():    # the DataFrame: cost, steps, previous, turns
        fresh()
        return m.table((0, 0), 4, 4)

    def single_source_cold():     # + rebuild the cost map from the rule
        pf.clear_cache()
        return pf.cost_table(s, 0)

    def all_pairs():              # 49 x 49 DataFrame
        fresh()
        return m.matrix()

    def all_pairs_cold():
        pf.clear_cache()
        return pf.all_pairs_table(s, 0)

    rows = [
        ("single source, 49 costs (dict)", single_source),
        ("single source, table (DataFrame)", single_source_table),
        ("single source, table, cold map", single_source_cold),
        ("all pairs, 49 x 49 (DataFrame)", all_pairs),
        ("all pairs, cold map", all_pairs_cold),
    ]
    print(f"median of {args.repeat} runs, milliseconds")
    for name, fn in rows:
        print(f"  {name:<36} {median_ms(fn, args.repeat):8.3f} ms")


if __name__ == "__main__":
    main()
