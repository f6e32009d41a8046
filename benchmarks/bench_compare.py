"""Figures for the house-rule impact report (``haunted-kit compare``). Prints figures; asserts nothing.

    python benchmarks/bench_compare.py                   # time the default Haunted Lands report, as typed
    python benchmarks/bench_compare.py --runs 3          # three times (the machine's load varies)
    python benchmarks/bench_compare.py --game estate     # a companion (house box: start gold 0 -> 5)
    python benchmarks/bench_compare.py --widths          # each row's half-width and the games +-5 pts needs
    python benchmarks/bench_compare.py --splits 200      # how often two halves of the same games mark a row

Timing: runs ``haunted-kit compare --box HOUSE --no-progress`` (the defaults: the game's
the game's ``compare_games``, one worker per CPU) as a new process, as a user types it, and prints
its wall time, the CPU seconds of that process and its workers, and the one-minute load
average before and after (the machine may be shared: wall is CPU over the share of the
cores the run got). The house box is a copy of the game's box with one number changed
(Haunted Lands: ghosts_per_spread 4 -> 6).

``--splits K``: plays ``2 x games`` games of the reference box once, then K times splits
them at random into two halves (split k: ``random.Random(k)``) and builds the report's
rows for half against half (:func:`haunted_kit.compare._rows`, the report's own
statistics). Nothing differs between the halves, so every marked row is a false alarm:
prints the share of splits in which any row is marked ``*`` (significant after Holm's
correction; the report promises at most 5%) and, for comparison, in which any row's test
on its own is below 5%, each with its 95% Wilson interval, and the rate per row at 5% and
at 5%/rows (Holm's first step: were each test exact there, Bonferroni's bound says the
share of splits marking any row is at most rows x that rate).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchargs import number_at_least  # noqa: E402
from haunted_kit import compare as C  # noqa: E402
from haunted_kit.games import get_game  # noqa: E402
from haunted_kit.simulate import Grid, load_dataset, simulate  # noqa: E402

DATA = ROOT / "data"
HOUSE = {"haunted": (DATA, "game.toml", "ghosts_per_spread = 4", "ghosts_per_spread = 6"),
         "estate": (DATA / "estate", "game.toml", "hand = { gold = 0,", "hand = { gold = 5,"),
         "landmarks": (DATA / "landmarks", "scoring.toml", "points = 2", "points = 3")}
PLAYERS = {"haunted": 4}  # compare's default player count: 4 for Haunted Lands, 3 for the others


def house_box(game: str, where: Path) -> Path:
    src, file, old, new = HOUSE[game]
    box = where / "house_rules"
    shutil.copytree(src, box, ignore=shutil.ignore_patterns("estate", "landmarks"))
    (box / file).write_text((box / file).read_text().replace(old, new, 1))
    return box


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_cli(game: str, games: int | None, workers: int | None, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        box = house_box(game, Path(tmp))
        cmd = [sys.executable, "-m", "haunted_kit.cli", "compare", "--box", str(box), "--game", game, "--no-progress"]
        cmd += ["--games", str(games)] if games else []
        cmd += ["--workers", str(workers)] if workers else []
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        shown = " ".join(["haunted-kit", *cmd[3:]]).replace(str(box), "HOUSE")
        print(f"{shown}  ({os.cpu_count()} CPUs)")
        for k in range(runs):
            load0 = os.getloadavg()[0]
            cpu0 = children_cpu()
            t0 = time.perf_counter()
            done = subprocess.run(cmd, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            cpu = children_cpu() - cpu0
            load1 = os.getloadavg()[0]
            if done.returncode:
                print(done.stderr.strip())
                raise SystemExit(done.returncode)
            print(f"run {k + 1}: wall {wall:.1f} s, CPU {cpu:.1f} s (the command and its workers), "
                  f"load average {load0:.1f} before, {load1:.1f} after")


def widths(game: str, games: int, workers: int | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        c = C.compare(house_box(game, Path(tmp)), game=game, games=games, workers=workers, progress=False)
    print(f"{game}: {games} games per box")
    print(f"{'figure':34} {'half-width of the difference':>30} {'games for +-5 pts / +-10% of mean':>36}")
    for r in c.rows:
        half = (r.diff[2] - r.diff[1]) / 2
        if r.kind == "rate":
            print(f"{r.name:34} {100 * half:>26.1f} pts {r.games_for(0.05):>36}")
        else:
            need = r.games_for(0.1 * abs(r.ref[0])) if r.ref[0] else "-"
            print(f"{r.name:34} {half:>30.3f} {need:>36}")


def splits(game: str, games: int, workers: int | None, count: int) -> None:
    g = get_game(game)
    players = PLAYERS.get(game, 3)
    grid = Grid(game=game, players=(players,), games=2 * games)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        simulate(grid, Path(tmp) / "reference", workers=workers, progress=False)
        frame = load_dataset(Path(tmp) / "reference")
    played = time.perf_counter() - t0
    ids = sorted(set(frame["game_id"]))
    holm_any = alone_any = alone_rows = tail_rows = rows_seen = 0
    for k in range(count):
        order = list(ids)
        random.Random(k).shuffle(order)
        first = set(order[:games])
        a = frame[frame["game_id"].isin(first)]
        b = frame[~frame["game_id"].isin(first)]
        rows = C._rows(g, a, b, players)
        holm_any += any(r.significant for r in rows)
        alone_any += any(r.alone for r in rows)
        alone_rows += sum(r.alone for r in rows)
        tail_rows += sum(r.p < C.ALPHA / len(rows) for r in rows)
        rows_seen += len(rows)

    def share(k: int, n: int) -> str:
        lo, hi = C.wilson_interval(k, n)
        return f"{k} of {n} = {100 * k / n:.1f}% [95% Wilson {100 * lo:.1f}%, {100 * hi:.1f}%]"

    print(f"{game}: {2 * games} reference games ({players} players, greedy; played in {played:.0f} s), "
          f"{count} random splits into two halves of {games}, {rows_seen // count} rows per report")
    print(f"splits with any row marked * (after Holm's correction): {share(holm_any, count)}")
    print(f"splits with any row's own test below 5% (no correction):  {share(alone_any, count)}")
    print(f"rows whose own test is below 5%:                          {share(alone_rows, rows_seen)}")
    m = rows_seen // count
    print(f"rows whose own test is below 5%/{m} (Holm's first step; nominal {100 * C.ALPHA / m:.2f}%): "
          f"{share(tail_rows, rows_seen)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="haunted", choices=list(HOUSE))
    ap.add_argument("--games", type=number_at_least(2), default=None, help="games per box (default: the game's compare_games)")
    ap.add_argument("--workers", type=number_at_least(1), default=None, help="worker processes (default: one per CPU)")
    ap.add_argument("--runs", type=number_at_least(1), default=1, help="timed runs of the command (default 1)")
    ap.add_argument("--widths", action="store_true", help="print each row's half-width instead of timing")
    ap.add_argument("--splits", type=number_at_least(1), default=None, metavar="K",
                    help="measure the false alarms over K splits of the same games instead of timing")
    args = ap.parse_args()
    if args.splits:
        splits(args.game, args.games or C.default_games(args.game), args.workers, args.splits)
    elif args.widths:
        widths(args.game, args.games or C.default_games(args.game), args.workers)
    else:
        time_cli(args.game, args.games, args.workers, args.runs)


if __name__ == "__main__":
    main()
