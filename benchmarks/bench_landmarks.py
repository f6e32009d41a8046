"""Landmarks & Architects speed: scoring a full position and planning a Build's payments.

Usage::

    .venv/bin/python benchmarks/bench_landmarks.py [--repeat N]

Prints the median wall-clock milliseconds (time.perf_counter) over ``--repeat`` runs of:
scoring a full 5-player position of the kit example deck (every landmark type held, tied
and untied majorities, sets, architects over 8-card villages), both the points with their
explanations (``rules.score_rows``) and the pandas table (``score_table``); and enumerating
every minimal payment (``plan_payments``) for the text's Vardo example and for a rich
position (5 players, 4 developed resources, every Castle Grounds free, 3-resource costs);
a plan's :class:`Use` parts are made on first read, so a second figure reads them all.
A figure, not a test: nothing here asserts a time. The aim (issue 12) is under 1 ms each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from haunted_kit import landmarks as lm  # noqa: E402
from haunted_kit.landmarks import rules as R  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pathfinding import median_ms  # noqa: E402  (the benchmarks' one timing helper)


def full_position():
    villages = [["barracks", "armory", "watch_post", "guard_house", "vardo", "tannery", "granary", "wandering_knight"],
                ["chapel", "shrine", "library", "crypt", "thieves_den", "alchemist_hut", "sly_rogue", "cathedral"],
                ["market_hall", "grain_mill", "fishery", "stone_quarry", "lumber_camp", "arena", "herb_garden", "barracks"],
                ["village_square", "hidden_sanctum", "fortified_keep", "watch_post", "crypt", "granary", "fishery", "vardo"],
                ["armory", "chapel", "shrine", "library", "thieves_den", "alchemist_hut", "tannery", "guard_house"]]
    tokens = [{"gate": 2, "silo": 3, "statue": 2, "ward_tower": 4, "windmill": 2}, {"gate": 2, "silo": 1, "statue": 1},
              {"windmill": 2, "ward_tower": 1}, {"statue": 2, "silo": 3}, {"gate": 1, "windmill": 1}]
    return lm.position(hands=[[]] * 5, villages=villages, gold=[0] * 5, tokens=tokens, lead=None,
                       architects=["dont_glaver", "vesper_lark", "master_hewn", "captain_morrow", "mother_hallow"])


def rich_payment():
    return lm.position(hands=[["library", "vardo", "tannery", "granary", "shrine"], [], [], [], []], villages=[[]] * 5,
                       developed=[["armory", "grain_mill", "hidden_sanctum", "lumber_camp"], [], [], [], []],
                       gold=[9, 0, 0, 0, 0], lead=None)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=500)
    args = ap.parse_args(argv)
    s = full_position()
    vardo = lm.position(hands=[["vardo", "tannery"], ["granary"]], villages=[[], []], developed=[["lumber_camp"], []],
                        gold=[3, 0], lead=None)
    rich = rich_payment()
    n_rows = len(R.score_rows(s))
    n_vardo = len(R.plan_payments(vardo, 0, "vardo"))
    n_lib = len(R.plan_payments(rich, 0, "library"))
    n_builds = len(R.build_options(rich, 0))
    print(f"scoring a full 5-player position ({n_rows} explained rows), score_rows:  "
          f"{median_ms(lambda: R.score_rows(s), args.repeat):.3f} ms")
    print(f"scoring a full 5-player position, score_table (pandas):           "
          f"{median_ms(lambda: R.score_table(s), args.repeat):.3f} ms")
    print(f"payment plans, the Vardo example ({n_vardo} plans):                       "
          f"{median_ms(lambda: R.plan_payments(vardo, 0, 'vardo'), args.repeat):.3f} ms")
    print(f"payment plans, Library (magic+wood+stone), 5 players ({n_lib} plans):    "
          f"{median_ms(lambda: R.plan_payments(rich, 0, 'library'), args.repeat):.3f} ms")
    print(f"the same, reading every plan's parts (Use objects):                "
          f"{median_ms(lambda: [p.uses for p in R.plan_payments(rich, 0, 'library').plans], args.repeat):.3f} ms")
    print(f"every legal Build of that hand ({n_builds} actions, discards included):  "
          f"{median_ms(lambda: R.build_options(rich, 0), max(20, args.repeat // 10)):.3f} ms")


if __name__ == "__main__":
    main()
