"""Landmarks & Architects speed: scoring a full position and planning a Build's payments.

Usage::

    .venv/bin/python benchmarks/bench_landmarks.py [--repeat N]

Prints the median wall-clock milliseconds (time.perf_counter) over ``--repeat`` runs of:
scoring a full 5-player position of the kit example deck (every landmark type held, tied
and untied majorities, sets, architects over 8-card villages), both the points with their
explanations (``rules.score_rows``) and the pandas table (``score_table``); and enumerating
every minimal payment (``plan_payments``) for the text's Vardo example and for a rich
position (5 players, 4 developed resources, every Castle Grounds free, 3-resource costs);
a plan's :class:`Use` parts are made on first read, so a second figure reads them all. Plans
and Builds are memoised by position (``rules.memo_table``), so after the first run these
figures time the memo's answer, as repeated positions in a search get it.
A figure, not a test: nothing here asserts a time. The aim (issue 12) is under 1 ms each.

With ``--hints`` it prints instead the CPU time (time.process_time, one core) of
``search.hints(state, playouts=1000)`` with the settings hints use (greedy rollouts cut at 20
decisions, then the game's ``evaluate``; 3 players over 3 rounds) from bench_env's position
(seed 3, six greedy decisions in) and from positions a third of the way into seeded random
games, and random decisions per second straight on the engine (the event log on, as it
always is here). The aim (issue 21) is 1,000 playouts under 0.5 s from both kinds::

    .venv/bin/python benchmarks/bench_landmarks.py --hints [--playouts N] [--positions K]
    .venv/bin/python benchmarks/bench_landmarks.py --hints --ab REV [--rounds R] [--playouts N]

Where a hint's time goes (issue 21, bench_env's position and five thirds in one process, CPU
time of each part measured around it): the legal actions of positions not seen before about
27% (a follower's Builds with each discard choice and new Build objects 15%, acquisitions 8%,
payment plans 2%), the greedy bot's scores 14%, determinisations 7%, applying actions 6%,
legality memo keys 7%, the search's own tree the rest; the cycle collector's passes over the
memo tables and the search tree add about a quarter more (hints with it switched off take
about 0.75 of the time). The engine leaves no cyclic garbage (``tests/test_no_cyclic_garbage.py``;
before issue 21 the payment planner's recursive closure left thousands of objects per hint).

Why the thirds of random games 1, 3 and 4 cost 2-4x the others before session 26 (game 1
cold, in a fresh process): at their root the leader may lead Build, and each playout then
reaches the followers of that Build with hands redealt by the determinisation, each hand new
(game 1: 2,400 distinct follower hands in 1,000 playouts, game 0: 139). A follower's legal
actions were every building of the hand with every minimal payment and every choice of Castle
Grounds discards, about 100 Builds a decision (game 1 listed 254,000 Builds a hint, 34,000 of
them new objects): listing them took ~0.5 s of game 1's ~1.2 s and the search's per-move loops
over those lists and its ~100,000 tree nodes ~0.4 s. No cache helped: a column-wise listing
made the cold listing 10-14% dearer, and interning Builds (for an identity hash) cost 2.2 us a
hit and 13 us a miss, more than the ~0.03 s its cheaper lookups could save.

Since session 26 a Build is two decisions (ruling L15): ``ChooseBuilding`` of a payable card,
then that card's Builds. A follower's list is the few payable cards (with its acquisitions and
Decline); only the card chosen lists its payments. ``bench_scale.py search --game landmarks
--ab <before>`` (3 alternated rounds, CPU s): bench_env 0.229 -> 0.128, thirds 0.268 -> 0.237,
1.059 -> 0.361, 0.379 -> 0.263, 0.470 -> 0.241, 0.652 -> 0.404; the search plays as well
(``bench_scale.py strength --game landmarks --players 2 --game-rounds 3 --games 100``: 55.0%,
95% CI 48.1-61.7%, against 56.2% before).

With ``--ceiling`` it prints instead how well *any* policy of one seat can do against the
greedy bots (issue 21's strength aim): on each seed, an exhaustive best response of that seat
that sees the other hands and the greedy bots' own seeded tie breaks (so an upper bound on
every real policy, the search included), as wins, ties and mean value (1 win, 1/2 tie)::

    .venv/bin/python benchmarks/bench_landmarks.py --ceiling [--seat 0] [--first-seed 10000] [--games 60] [--workers 2]

``--ab REV`` runs the same figures on git revision ``REV`` (a temporary git worktree) and on
this tree in alternating subprocesses (old, new, old, new...), prints each round and the
medians side by side, and whether both play the same random games (their decision counts).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# the tree under test: this checkout, or (for --ab) the one named by HK_BENCH_TREE
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(ROOT))

from benchargs import number_at_least  # noqa: E402
from haunted_kit import landmarks as lm  # noqa: E402
from haunted_kit.landmarks import rules as R  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import tree_at  # noqa: E402  (the benchmarks' one old-tree checkout)
from bench_env import random_decisions  # noqa: E402  (the benchmarks' one random game on the engine)
from bench_pathfinding import median_ms  # noqa: E402  (the benchmarks' one timing helper)

from haunted_kit.bots import make_bot  # noqa: E402
from haunted_kit.games import get_game  # noqa: E402
from haunted_kit.protocol import seat_seed  # noqa: E402
from haunted_kit.search import hints  # noqa: E402

HINT_GAME = {"players": 3, "rounds": 3}  #: bench_env's Landmarks setting


def bench_env_position():
    """bench_env's hint position: seed 3, six greedy decisions in."""
    g = get_game("landmarks")
    s = g.new_game(seed=3, **HINT_GAME)
    bots = [make_bot("greedy", i, g) for i in range(HINT_GAME["players"])]
    for _ in range(6):
        if s.is_terminal() or s.current_player() is None:
            break
        s.apply_action(bots[s.current_player()].act(s))
    return s


def third_position(seed: int):
    """A third of the way (in decisions) into the random game of ``seed``."""
    g = get_game("landmarks")
    total = random_decisions(g.new_game(seed=seed, **HINT_GAME), seed)
    s = g.new_game(seed=seed, **HINT_GAME)
    random_decisions(s, seed, total // 3)
    return s


def hint_cpu(s, playouts: int) -> float:
    start = time.process_time()
    hints(s, playouts=playouts, seed=1)
    return time.process_time() - start


def hint_probe(playouts: int, positions: int, games: int) -> dict:
    """The tree on the path: hint CPU seconds from bench_env's position and from ``positions``
    third-of-the-way positions (seeds 0..), and random decisions/s over ``games`` games."""
    env = hint_cpu(bench_env_position(), playouts)
    thirds = [hint_cpu(third_position(k), playouts) for k in range(positions)]
    g = get_game("landmarks")
    start, steps = time.process_time(), 0
    for seed in range(games):
        steps += random_decisions(g.new_game(seed=seed, **HINT_GAME), seed)
    return {"env": env, "thirds": thirds, "steps_per_s": steps / (time.process_time() - start), "steps": steps}


def print_hints(r: dict, playouts: int, label: str = "") -> None:
    th = r["thirds"]
    print(f"{label}hint {playouts:,} playouts, CPU s: bench_env position {r['env']:.3f}; a third into random games "
          f"{' '.join(f'{x:.3f}' for x in th)} (median {statistics.median(th):.3f}, max {max(th):.3f}); "
          f"random {r['steps_per_s']:,.0f} decisions/s", flush=True)


def hint_ab(rev: str, rounds: int, playouts: int, positions: int, games: int) -> int:
    """Old (git ``rev``) against this tree, alternating subprocesses; prints medians side by side."""
    args = ["--hints", "--probe", "--playouts", str(playouts), "--positions", str(positions), "--games", str(games)]
    with tree_at(rev) as old:
        runs: dict = {"old": [], "new": []}
        for k in range(rounds):
            for side, tree in (("old", old), ("new", ROOT)):
                env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
                out = subprocess.run([sys.executable, __file__, *args], env=env, cwd=tree, capture_output=True,
                                     text=True, check=True)
                r = json.loads(out.stdout)
                runs[side].append(r)
                print_hints(r, playouts, f"round {k + 1} {side}: ")
        same = {r["steps"] for r in runs["old"] + runs["new"]}
        print(f"random decisions in {games} games: {', '.join(map(str, sorted(same)))} "
              f"(old and new play the same games: {len(same) == 1})")
        for what, get in (("hint, bench_env position (s)", lambda r: r["env"]),
                          ("hint, third-way positions, median (s)", lambda r: statistics.median(r["thirds"])),
                          ("hint, third-way positions, max (s)", lambda r: max(r["thirds"])),
                          ("random decisions/s", lambda r: r["steps_per_s"])):
            o = statistics.median(get(r) for r in runs["old"])
            n = statistics.median(get(r) for r in runs["new"])
            print(f"median {what}: old {o:,.3f}  new {n:,.3f}  (new/old {n / o:.3f})")
    return 0


def best_response(s, seat: int, bots: dict) -> tuple[float, int]:
    """The best ``(value, margin)`` ``seat`` can reach from ``s`` with the other seats played
    by ``bots`` (seat -> greedy bot, copied at each branch so their tie breaks replay): value 1
    for the sole top score, 1/k for a top shared by k, else 0; margin, the seat's points less
    the best other. Sees every hand: an upper bound on any policy that does not."""
    while not s.is_terminal() and s.current_player() != seat:
        s.apply_action(bots[s.current_player()].act(s))
    if s.is_terminal():
        r = s.returns()
        top = max(r)
        return (1.0 / r.count(top) if r[seat] == top else 0.0), r[seat] - max(x for i, x in enumerate(r) if i != seat)
    best, seen = (-1.0, -10 ** 9), set()
    for a in s.legal_actions():
        t = s.copy(keep_log=False)
        t.apply_action(a)
        key = json.dumps(t.fields(), sort_keys=True)  # payments that leave the same position count once
        if key not in seen:
            seen.add(key)
            best = max(best, best_response(t, seat, {p: copy.deepcopy(b) for p, b in bots.items()}))
    return best


def ceiling_one(job: tuple) -> tuple:
    seed, seat, players, rounds = job
    g = get_game("landmarks")
    s = g.new_game(players=players, seed=seed, rounds=rounds)
    bots = {p: make_bot("greedy", seat_seed(seed, p), g) for p in range(players) if p != seat}
    return (seed,) + best_response(s, seat, bots)


def ceiling(seat: int, first: int, games: int, players: int, rounds: int, workers: int) -> None:
    """Prints the best response's wins, ties and mean value over seeds ``first..first+games-1``."""
    from multiprocessing import Pool  # lazy: only --ceiling runs workers

    start = time.perf_counter()
    with Pool(workers) as pool:
        res = pool.map(ceiling_one, [(k, seat, players, rounds) for k in range(first, first + games)])
    wins = sum(1 for r in res if r[1] == 1.0)
    ties = sum(1 for r in res if 0 < r[1] < 1)
    print(f"best response of P{seat + 1} (sees every hand) vs greedy, {players} players, {rounds} rounds, seeds "
          f"{first}..{first + games - 1}: {wins} wins, {ties} shared tops, {games - wins - ties} losses; mean value "
          f"{sum(r[1] for r in res) / games:.1%} (an upper bound on any policy of that seat) in "
          f"{time.perf_counter() - start:.0f} s on {workers} workers", flush=True)


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
    ap.add_argument("--repeat", type=number_at_least(1), default=500)
    ap.add_argument("--hints", action="store_true", help="hint CPU time and random decisions/s instead (issue 21)")
    ap.add_argument("--playouts", type=number_at_least(1), default=1000, help="playouts per hint with --hints (default 1000)")
    ap.add_argument("--positions", type=number_at_least(1), default=5, help="third-of-the-way positions with --hints (default 5)")
    ap.add_argument("--games", type=number_at_least(1), help="random games for decisions/s with --hints (default 200); seeds with "
                                               "--ceiling (default 60)")
    ap.add_argument("--ab", metavar="REV", help="with --hints: compare with git revision REV side by side")
    ap.add_argument("--rounds", type=number_at_least(1), default=3, help="old/new pairs with --ab (default 3)")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)  # one side of --ab
    ap.add_argument("--ceiling", action="store_true", help="the best any policy of --seat can do against greedy bots")
    ap.add_argument("--seat", type=number_at_least(0), default=0, help="with --ceiling: the seat (0-based, default 0)")
    ap.add_argument("--first-seed", type=number_at_least(0), default=10000, help="with --ceiling: the first seed (default 10000)")
    ap.add_argument("--players", type=number_at_least(1), default=2, help="with --ceiling: players (default 2)")
    ap.add_argument("--game-rounds", type=number_at_least(1), default=3, help="with --ceiling: rounds per game (default 3)")
    ap.add_argument("--workers", type=number_at_least(1), default=2, help="with --ceiling: worker processes (default 2)")
    args = ap.parse_args(argv)
    if args.ceiling:
        ceiling(args.seat, args.first_seed, args.games or 60, args.players, args.game_rounds, args.workers)
        return
    args.games = args.games or 200
    if args.hints:
        if args.probe:
            print(json.dumps(hint_probe(args.playouts, args.positions, args.games)))
        elif args.ab:
            hint_ab(args.ab, args.rounds, args.playouts, args.positions, args.games)
        else:
            print_hints(hint_probe(args.playouts, args.positions, args.games), args.playouts)
        return
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
