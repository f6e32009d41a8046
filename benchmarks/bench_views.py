"""CPU time of one classroom view (a game's ``classroom.table_view``), per game: what the
table server spends on each viewer of each new position (4 seats and the shared screen).

    python benchmarks/bench_views.py                       # this checkout
    python benchmarks/bench_views.py --compare /tmp/old    # and another checkout, alternately

Seeded random games (3 or 4 players), a position every 10 decisions from the start; each run is a fresh
process (its caches cold at the start, as a server's); CPU time (``time.process_time``)
per view in ms, the median of ``--rounds`` runs per checkout, run alternately.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchargs import number_at_least

ROOT = Path(__file__).resolve().parents[1]

ONE_RUN = r"""
import importlib, json, random, time
from haunted_kit.games import game_names, get_game
from haunted_kit.tableview import PUBLIC
out = {}
for name in game_names():
    try:
        table_view = importlib.import_module(f"haunted_kit.{name}.classroom").table_view
    except ImportError:
        continue
    players = 4 if name == "haunted" else 3
    s, rng, states = get_game(name).new_game(players=players, seed=3), random.Random(3), []
    for n in range(200):
        if s.is_terminal():
            break
        if n % 10 == 0:
            states.append(s.copy())
        s.apply_action(rng.choice(s.legal_actions()))
    table_view(states[0], 0, 30.0)  # the modules imported
    t = time.process_time()
    for st in states:
        for v in (*range(players), PUBLIC):
            table_view(st, v, 30.0)
    out[name] = (time.process_time() - t) / (len(states) * (players + 1)) * 1000
print(json.dumps(out))
"""


def one_run(root: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", ONE_RUN], cwd=root, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the run at {root} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="CPU time of one classroom view per game (ms), medians of runs.")
    ap.add_argument("--rounds", type=number_at_least(1), default=5, help="runs per checkout, alternating (default 5)")
    ap.add_argument("--compare", type=Path, metavar="DIR", help="another checkout to run alternately (e.g. main)")
    a = ap.parse_args(argv)
    roots = {**({str(a.compare): a.compare.resolve()} if a.compare else {}), "this checkout": ROOT}
    runs: dict = {name: [] for name in roots}
    for _ in range(a.rounds):
        for name, root in roots.items():
            runs[name].append(one_run(root))
    for name, rs in runs.items():
        games = ", ".join(f"{g} {statistics.median(r[g] for r in rs):.2f}" for g in rs[0])
        print(f"{name}: CPU ms per view (median of {len(rs)} runs): {games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
