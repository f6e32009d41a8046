"""Figures for the house-rule impact report (issue 21, item 6). Prints figures; asserts nothing.

    python benchmarks/bench_compare.py                 # the default Haunted Lands report, 2 workers
    python benchmarks/bench_compare.py --games 500     # another game count
    python benchmarks/bench_compare.py --game estate   # a companion (house box: start gold 0 -> 5)

The house-rule box is a copy of the game's box with one number changed (Haunted Lands:
ghosts_per_spread 4 -> 6). Prints the wall time of the whole report (both boxes played,
the datasets read back, the statistics), the CPU seconds of this process and of the
worker processes, and each figure's 95% half-width of the difference with the games per
box that a +-5 pts (rates) interval would need. The wall time is what ``DEFAULT_GAMES`` is
chosen by: under 60 s for the default Haunted Lands report on a 2-core machine.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.compare import DEFAULT_GAMES, compare  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "data"
HOUSE = {"haunted": (DATA, "game.toml", "ghosts_per_spread = 4", "ghosts_per_spread = 6"),
         "estate": (DATA / "estate", "game.toml", "hand = { gold = 0,", "hand = { gold = 5,"),
         "landmarks": (DATA / "landmarks", "scoring.toml", "points = 2", "points = 3")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="haunted", choices=list(HOUSE))
    ap.add_argument("--games", type=number_at_least(1), default=None)
    ap.add_argument("--workers", type=number_at_least(1), default=2)
    args = ap.parse_args()
    games = args.games or DEFAULT_GAMES[args.game]
    src, file, old, new = HOUSE[args.game]
    with tempfile.TemporaryDirectory() as tmp:
        box = Path(tmp) / "house_rules"
        shutil.copytree(src, box, ignore=shutil.ignore_patterns("estate", "landmarks"))
        (box / file).write_text((box / file).read_text().replace(old, new, 1))
        cpu0 = time.process_time()
        wall0 = time.perf_counter()
        c = compare(box, game=args.game, games=games, workers=args.workers, progress=False)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{args.game}: {games} games per box, {args.workers} workers: wall {wall:.1f} s "
          f"(main process CPU {cpu:.1f} s, workers CPU {children.ru_utime + children.ru_stime:.1f} s)")
    print(f"{'figure':34} {'half-width of the difference':>30} {'games for +-5 pts / +-10% of mean':>36}")
    for r in c.rows:
        half = (r.diff[2] - r.diff[1]) / 2
        if r.kind == "rate":
            print(f"{r.name:34} {100 * half:>26.1f} pts {r.games_for(0.05):>36}")
        else:
            need = r.games_for(0.1 * abs(r.ref[0])) if r.ref[0] else "-"
            print(f"{r.name:34} {half:>30.3f} {need:>36}")


if __name__ == "__main__":
    main()
