"""The game review's CPU time, and how well its verdicts agree across search seeds.

Default: plays a seeded game of greedy bots (4 players, or the game's most if fewer) and
reviews it (seat P1, the default budget :data:`haunted_kit.review.DEFAULT_PLAYOUTS`) under
two search seeds, printing the CPU time of each (``time.process_time``) and the overlap of
the 3 costliest decisions and of the top 3 turning points. ``--before REV`` also reviews
the same game, in the same run, with the review module of git revision ``REV`` (loaded from
``git show REV:haunted_kit/review.py``; the rest of the kit is this tree's), so that the
CPU times before and after a change are side by side.

``--agreement``: for every game of the registry, ``--games`` seeded games (seeds 1..N),
each reviewed under search seeds 0 and 1; prints per game seed the overlap of the top 3
turning points (decision and player) and of the 3 costliest decisions, then per game how
many games agree (aim: every game, "at least 2 of 3", i.e. an overlap of at least
``min(2, m)`` where ``m = min(3, the larger list)``: two lists of one mistake must name the
same decision; two empty lists agree). With ``--before REV`` the review of revision ``REV``
is measured on the same games, side by side.

    PYTHONPATH=$PWD python benchmarks/bench_review.py [--game haunted] [--playouts K] [--seed S] [--before main]
    PYTHONPATH=$PWD python benchmarks/bench_review.py --agreement [--games 10] [--only estate] [--before main]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

from benchargs import number_at_least
from haunted_kit.games import game_names, get_game
from haunted_kit.play import play_game
from haunted_kit.review import DEFAULT_PLAYOUTS, review

ROOT = Path(__file__).resolve().parent.parent


def _players(name: str, asked: int | None) -> int:
    game = get_game(name)
    return max(game.min_players, min(asked or 4, game.max_players))


def _module_at(rev: str):
    """The review module as it was at git revision ``rev``, imported inside this tree's package."""
    source = subprocess.run(["git", "show", f"{rev}:haunted_kit/review.py"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout
    spec = importlib.util.spec_from_loader("haunted_kit._review_at_" + rev.replace("/", "_").replace("-", "_"),
                                           loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "haunted_kit"
    sys.modules[spec.name] = module  # dataclasses look their module up there
    exec(compile(source, f"{rev}:haunted_kit/review.py", "exec"), module.__dict__)
    return module


def overlap(a, b) -> tuple[int, int]:
    """``(k, m)``: ``k`` items in both of two top lists, out of ``m = min(3, larger list)``."""
    a, b = set(list(a)[:3]), set(list(b)[:3])
    return len(a & b), min(3, max(len(a), len(b)))


def agrees(k: int, m: int) -> bool:
    return k >= min(2, m)


def _timed(fn, *args, **kw):
    t0, w0 = time.process_time(), time.perf_counter()
    out = fn(*args, **kw)
    return out, time.process_time() - t0, time.perf_counter() - w0


def cpu(args) -> None:
    players = _players(args.game, args.players)
    s, _ = play_game(args.game, players=players, seed=args.seed, agents=["greedy"], log=False)
    versions = [("this tree", review)]
    if args.before:
        versions.insert(0, (f"at {args.before}", _module_at(args.before).review))
    print(f"{args.game}, {players} players, game seed {args.seed}, greedy bots; review of P1, {args.playouts} playouts")
    for label, fn in versions:
        runs = []
        for search_seed in (0, 1):
            r, c, w = _timed(fn, s, seat=0, playouts=args.playouts, seed=search_seed, progress=False)
            runs.append(r)
            print(f"  review {label}, search seed {search_seed}: {len(r.decisions)} decisions with a choice: "
                  f"{c:.1f} s CPU ({w:.1f} s wall)")
        costly = [[c.number for c in r.costly] for r in runs]
        turning = [[(t.number, t.player) for t in r.turning_points] for r in runs]
        print(f"  review {label}: costliest 3 {costly[0][:3]} / {costly[1][:3]}: overlap %d of %d; "
              % overlap(*costly) + f"turning points {turning[0][:3]} / {turning[1][:3]}: overlap %d of %d"
              % overlap(*turning))


def agreement(args) -> None:
    names = [args.only] if args.only else game_names()
    versions = [("this tree", review)]
    if args.before:
        versions.insert(0, (f"at {args.before}", _module_at(args.before).review))
    print(f"agreement of the review across search seeds 0 and 1: {args.games} games per game "
          f"(seeds {args.start}..{args.start + args.games - 1}), "
          f"greedy bots, review of P1, {args.playouts} playouts")
    for name in names:
        players = _players(name, args.players)
        ok = {label: [0, 0, 0.0] for label, _ in versions}  # turning points agree, costliest agree, CPU seconds
        for g in range(args.start, args.start + args.games):
            s, _ = play_game(name, players=players, seed=g, agents=["greedy"], log=False)
            for label, fn in versions:
                runs = []
                for search_seed in (0, 1):
                    r, c, _ = _timed(fn, s, seat=0, playouts=args.playouts, seed=search_seed, progress=False)
                    runs.append(r)
                    ok[label][2] += c
                t = overlap(*[[(tp.number, tp.player) for tp in r.turning_points] for r in runs])
                k = overlap(*[[c.number for c in r.costly] for r in runs])
                ok[label][0] += agrees(*t)
                ok[label][1] += agrees(*k)
                print(f"  {name} game {g}, review {label}: turning points {t[0]} of {t[1]}, costliest {k[0]} of {k[1]}",
                      flush=True)
        for label, (ok_t, ok_c, seconds) in ok.items():
            print(f"{name} ({players} players), review {label}: turning points agree in {ok_t} of {args.games} games, "
                  f"costliest decisions in {ok_c} of {args.games}; {seconds / (2 * args.games):.1f} s CPU per review",
                  flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=number_at_least(1), default=DEFAULT_PLAYOUTS)
    ap.add_argument("--players", type=number_at_least(1), default=None,
                    help="players per game (default 4, or the game's bounds)")
    ap.add_argument("--game", choices=game_names(), default=game_names()[0], help="the game of the CPU figure")
    ap.add_argument("--seed", type=int, default=1, help="the game's seed of the CPU figure")
    ap.add_argument("--before", metavar="REV", help="also time the review module of git revision REV (e.g. main)")
    ap.add_argument("--agreement", action="store_true", help="measure the agreement across search seeds instead")
    ap.add_argument("--games", type=number_at_least(1), default=10, help="games per game for --agreement")
    ap.add_argument("--only", choices=game_names(), help="--agreement for this game only")
    ap.add_argument("--start", type=number_at_least(0), default=1, help="the first game seed of --agreement (default 1)")
    args = ap.parse_args(argv)
    (agreement if args.agreement else cpu)(args)


if __name__ == "__main__":
    sys.exit(main())
