"""Estate and Market: decisions per second with random and greedy bots, and the time of
the cheapest-exchange query on the reference box. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_estate.py
"""

from __future__ import annotations

import argparse
import time
import timeit

from haunted_kit.estate import new_game
from haunted_kit.estate.analysis import cheapest_conversion
from haunted_kit.estate.scenario import position
from haunted_kit.estate.sim import play_game


def decisions_per_second(agent: str, games: int, log: bool) -> tuple[float, float]:
    t0 = time.perf_counter()
    decisions = 0
    for seed in range(games):
        s, _ = play_game(3, seed, (agent,), log=log)
        decisions += s.decisions
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt


def main() -> None:
    for agent in ("random", "greedy"):
        for log in (False, True):
            dps, gps = decisions_per_second(agent, 40, log)
            print(f"3 players, {agent:6} bots, log {'on ' if log else 'off'}: {dps:8.0f} decisions/s, {gps:6.1f} games/s")
    s = new_game(3, seed=0)
    n = 2000
    copy_us = timeit.timeit(s.copy, number=n) / n * 1e6
    print(f"state copy: {copy_us:.1f} us")
    cases = [
        ("1 marble from 4 gold, 3 wood, 2 limestone", {0: {"gold": 4, "wood": 3, "limestone": 2}}, {"marble": 1}),
        ("1 glass from 1 marble only", {0: {"marble": 1}}, {"glass": 1}),
        ("2 glass (impossible in one visit)", {0: {"gold": 9, "wood": 6, "limestone": 6, "marble": 3}}, {"glass": 2}),
        ("6 wood from a full hand", {0: {"gold": 9, "wood": 2, "limestone": 6, "marble": 3, "glass": 3}}, {"wood": 6}),
    ]
    for text, hand, target in cases:
        s = position(3, hand=hand, log=False)
        cheapest_conversion(s, target)  # the first query builds the cached table of row sets
        n = 500
        ms = timeit.timeit(lambda: cheapest_conversion(s, target), number=n) / n * 1000
        c = cheapest_conversion(s, target)
        print(f"cheapest exchange, {text}: {ms:.3f} ms per query -> "
              f"{'none' if c is None else f'{len(c.steps)} steps, cost {c.cost} gold'}")
    t0 = time.perf_counter()
    from haunted_kit.estate.analysis import _combo_table

    _combo_table.cache_clear()
    cheapest_conversion(position(3, hand={0: {"wood": 3}}, log=False), {"marble": 1})
    print(f"cheapest exchange, first query (builds the table): {(time.perf_counter() - t0) * 1000:.1f} ms")


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options: --help, and misuse refused
    main()
