"""Engine speed: full games per second, decisions per second, state copy time, memory.

Usage::

    .venv/bin/python benchmarks/bench_engine.py [--games N] [--copies N]
    .venv/bin/python benchmarks/bench_engine.py --ab REV [--rounds 4] [--games N]

``--ab REV`` compares this tree with git revision ``REV`` side by side: it checks REV
out into a temporary git worktree and alternates subprocesses (old, new, old, new...),
each measuring random 4-player decisions/s and the state copy time, then prints the
medians and the change. Alternating keeps other load on a shared machine from
favouring one side.

Figures are CPU time of this process (time.process_time), so other work on the
machine disturbs them less; the event log is switched off, as in bulk simulation.
A figure, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

# the tree under test: this checkout, or (for --ab) the one named by HK_BENCH_TREE
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(Path(__file__).resolve().parents[1]))

# only names both layouts have (the kit before and after Haunted Lands moved to haunted_kit/haunted/)
from benchargs import number_at_least  # noqa: E402
from haunted_kit import new_game  # noqa: E402
from haunted_kit.bots import make_bot  # noqa: E402


def make_agent(name: str, seed: int):
    """A Haunted Lands agent by name through the kit's one bot factory."""
    return make_bot(name, seed, "haunted")


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
        t0 = time.process_time()
        for _ in range(copies):
            s.copy(keep_log=False)
        samples.append((time.process_time() - t0) / copies * 1e6)
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


ROOT = Path(__file__).resolve().parents[1]

def _probe(tree: Path, games: int, copies: int) -> dict:
    """Run this script with ``--probe`` against ``tree`` (its haunted_kit first on the path)."""
    env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, __file__, "--probe", "--games", str(games), "--copies", str(copies)],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def probe(games: int, copies: int) -> dict:
    """Random 4-player decisions/s and the copy time of the tree on the path (as JSON)."""
    g, d, per = run_games("random", 4, games)
    return {"decisions_per_s": d, "copy_us": copy_time(copies), "decisions": round(per * games)}


@contextmanager
def tree_at(rev: str):
    """A temporary git worktree of this repository at revision ``rev`` (its path), removed after."""
    known = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    if known.returncode != 0:
        print(f"{Path(sys.argv[0]).name}: error: --ab {rev!r} is no git revision of {ROOT} (try main, HEAD~3 or a "
              "commit id)", file=sys.stderr)
        raise SystemExit(2)
    with tempfile.TemporaryDirectory(prefix="hk-bench-") as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), rev],
                       check=True, capture_output=True)
        try:
            yield old
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], capture_output=True)


def ab(rev: str, rounds: int, games: int, copies: int) -> int:
    """Old (git ``rev``) against this tree, alternating; prints medians and the change."""
    with tree_at(rev) as old:
        runs = {"old": [], "new": []}
        for k in range(rounds):
            for side, tree in (("old", old), ("new", ROOT)):
                r = _probe(tree, games, copies)
                runs[side].append(r)
                print(f"round {k + 1} {side}: {r['decisions_per_s']:,.0f} decisions/s, copy {r['copy_us']:.2f} us",
                      flush=True)
        same = {r["decisions"] for r in runs["old"] + runs["new"]}
        print(f"decisions per {games} games: {', '.join(map(str, sorted(same)))} (old and new play the same games: {len(same) == 1})")
        med = {side: (statistics.median(r["decisions_per_s"] for r in rs), statistics.median(r["copy_us"] for r in rs))
               for side, rs in runs.items()}
        (od, oc), (nd, nc) = med["old"], med["new"]
        print(f"median random 4-player decisions/s: old {od:,.0f}  new {nd:,.0f}  ({(nd / od - 1) * 100:+.1f}%)")
        print(f"median state copy: old {oc:.2f} us  new {nc:.2f} us  ({(nc / oc - 1) * 100:+.1f}%)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=number_at_least(1), default=200, help="games per configuration (default 200)")
    ap.add_argument("--copies", type=number_at_least(1), default=20000, help="copies per copy-time sample (default 20000)")
    ap.add_argument("--memory-games", type=number_at_least(1), default=1000, help="games per memory sample (default 1000)")
    ap.add_argument("--ab", metavar="REV", help="compare with git revision REV side by side (old, new, old, new...)")
    ap.add_argument("--rounds", type=number_at_least(1), default=4, help="old/new pairs with --ab (default 4)")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)  # one side of --ab
    args = ap.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.games, args.copies)))
        return 0
    if args.ab:
        return ab(args.ab, args.rounds, args.games, args.copies)
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
