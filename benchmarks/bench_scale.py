"""Figures for issue 15 (scale and search). Prints figures; asserts nothing.

    python benchmarks/bench_scale.py speed      # random 4p decisions/s vs Catanatron (side by side), greedy decisions/s
    python benchmarks/bench_scale.py speed --ab main --rounds 7   # that side by side for git revision main and this tree, alternated
    python benchmarks/bench_scale.py scaling    # games/s with 1 and 2 processes and a Dask LocalCluster of 2 workers
    python benchmarks/bench_scale.py search     # playouts/s; 1,000-playout hints (CPU s) from bench_env's position and positions a third into seeded random games
    python benchmarks/bench_scale.py search --ab main --rounds 5   # hint CPU time of git revision main and this tree, alternated
    python benchmarks/bench_scale.py search --game estate [--ab main]   # the same for the estate (3 players) or landmarks (3, 3 rounds):
                                                  # bench_env's hint position and a third into seeded random games 0..4
    python benchmarks/bench_scale.py strength --games 200   # search[playouts=100] vs greedy, 4p and 2p, win rate with 95% CI
    python benchmarks/bench_scale.py strength --game landmarks --players 2 --games 200   # seats rotated, ties half
    python benchmarks/bench_scale.py strength --rotated --players 4 --games 50   # Haunted Lands, seats rotated: 200 games
    python benchmarks/bench_scale.py memory --games 100000  # RSS while simulate runs (main process and workers)

Catanatron (``pip install catanatron``) is only imported by ``speed``; it is not part of
the kit.

Where a random 4-player Haunted Lands game spends its time now (issue 21 item 4, session
25; shares of CPU time from a SIGPROF sampler over 3,000 seeded games, nested, so they
overlap; and valgrind instruction counts, PYTHONHASHSEED=0: 7.20M instructions a game over
50 games, 6.7% fewer than the 7.72M before this session, and 7.10M against 7.56M over
seeds 0-399, the same action records, event logs and hints):

* listing the legal turn actions (``engine._turn_legal``) ~30%: the explore reach memo
  ~8% (42 of its ~100 lookups a game miss: every game draws a new layout, and a miss
  costs about five hits), open extraction pairs ~5%, selling, training and learning on
  Kalena ~8% (learning is now skipped when the holding pays for no skill);
* setting the game up (``new_game``) ~20% of CPU time but ~14% of instructions (1.08M a
  game): 15 seeded setup draws, the field of the drawn layout (``build_field``, ~4%) and
  its tables (``Ctx.get`` ~6%, ``Ctx._field_tables`` ~5%), built anew for each distinct
  seed (layouts rarely repeat: 6 of 12 tiles in order); those two caches now keep 8
  (they kept 128, and the garbage collector traversed every kept Ctx's memos: about half
  of this session's saving);
* chance draws in setup and play (``sample_chance``) ~15%, the kit's ``chance_index``
  (BLAKE2b) ~6% of it all;
* the round's automatic steps (spread, production, rest, reorder, season end) ~15%, the
  spread's ghost placements ~7% of it;
* the agent (``RandomAgent.act``) ~7% and the loop's own protocol calls (``current_player``,
  ``is_terminal``) ~5%.

Issue 30 item 5 (session 28), the same games faster: 6.42M instructions a game against
7.21M for main at 7d37703 (-11%; callgrind, PYTHONHASHSEED=0, games of seeds 0..51 less
those of seeds 0..1, so imports and first-use tables cancel), and ``speed --ab 7d37703
--rounds 9`` at load average 8.7-9.2 on the shared 2-core machine: Haunted Lands +12.3%
(median of the rounds' new/old), median ratio to Catanatron 5.50 against main's 5.24 (each
side times its own Catanatron rounds; the rounds' ratios swing by +-0.8, mostly with
Catanatron's four games); again against main at 6d0632b (load 5.2-8.5): +12.4%, 5.60
against 5.32; ``speed --rounds 7`` of this tree alone: median ratio 5.60. Where it came
from, in instructions a game: loops instead of ``map(tuple.__getitem__, ...)`` (a slot wrapper per element: the turn's extractions, a
ghost placement's cells, a reach's actions, ``kalena_fallen``) -3.9%; loops instead of
comprehensions whose function costs more than their few elements save (a reach's cells
and actions in one loop, the placement's actions, a cell's extraction pairs, the
ghost-holding cells of each terrain, the tiles left to draw) -3.0%; ``apply_action``
running the decision itself, ``advance`` testing the no-chance case first and phases
compared by identity -1.3%; ``explore_reach``'s memo keyed by one whole number -0.4%;
smaller ones (the anywhere-in-Kalena skills as a table, ``[*x]`` for ``list(x)``, a
field's lakes found from the lakes, ``place_ghost`` called positionally) the rest. Hint
CPU time went down 1-9% with the same hints (``search --ab``). Tried and dropped: reading
the reach memo in ``_turn_legal`` (its 42 misses a game then look twice: no gain), a
per-tile memo of a field's terrain groups (no gain once the lakes were found directly).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the tree under test: this checkout, or (for search --ab) the one named by HK_BENCH_TREE
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(ROOT))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.bots import make_bot  # noqa: E402
from haunted_kit.haunted.agents import GreedyAgent, RandomAgent  # noqa: E402
from haunted_kit.haunted.engine import new_game  # noqa: E402
from haunted_kit.search import SearchAgent, hints  # noqa: E402
from haunted_kit.simulate import Grid, load_dataset, simulate  # noqa: E402


# decisions/s are per CPU second of this process (time.process_time), so that other work on a
# shared machine does not count against either engine; scaling figures use the wall clock.
def haunted_decisions(agent_cls, players: int, seeds) -> tuple[int, float]:
    n = 0
    t = time.process_time()
    for seed in seeds:
        s = new_game(players=players, seed=seed, log=False)
        bots = [agent_cls(seed * 100 + i) for i in range(players)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].act(s))
        n += s.decisions
    return n, time.process_time() - t


def catan_decisions(seeds) -> tuple[int, float]:
    from catanatron import Color, Game, RandomPlayer

    n = 0
    t = time.process_time()
    for seed in seeds:
        g = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)], seed=seed)
        g.play()
        n += len(g.state.actions)
    return n, time.process_time() - t


def speed_round(r: int) -> dict:
    """Round ``r`` of :func:`speed`'s side by side: random 4-player Haunted Lands games of
    seeds ``20r .. 20r+19``, then Catanatron's random 4-player games of seeds ``4r .. 4r+3``;
    decisions per CPU second of each, and the Haunted Lands decisions (the same in two
    trees that play the same games)."""
    n, dt = haunted_decisions(RandomAgent, 4, range(r * 20, r * 20 + 20))
    m, ct = catan_decisions(range(r * 4, r * 4 + 4))
    return {"haunted": n / dt, "catanatron": m / ct, "decisions": n}


def speed_ab(rev: str, rounds: int) -> None:
    """:func:`speed`'s side by side for git revision ``rev`` (a temporary worktree) and this
    tree, alternated (old, new, old, new...), one subprocess per side and round, each
    timing round ``k`` (:func:`speed_round`) after its own warm-up; per side the median of
    the rounds' ratios to Catanatron, and the median change of Haunted Lands decisions/s."""
    from bench_engine import tree_at  # it refuses an unknown revision (exit status 2) before making a worktree

    runs = {"old": [], "new": []}
    with tree_at(rev) as old:
        for k in range(rounds):
            for side, tree in (("old", old), ("new", ROOT)):
                path = os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])
                env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": path}
                got = subprocess.run([sys.executable, __file__, "speed-probe", "--round", str(k)], env=env, cwd=tree,
                                     capture_output=True, text=True, check=True)
                r = json.loads(got.stdout)
                runs[side].append(r)
                print(f"round {k + 1} {side}: haunted_kit {r['haunted']:,.0f}/s   catanatron {r['catanatron']:,.0f}/s   "
                      f"ratio {r['haunted'] / r['catanatron']:.2f}", flush=True)
    same = all(o["decisions"] == n["decisions"] for o, n in zip(runs["old"], runs["new"]))
    print(f"random 4-player decisions per CPU second, {rounds} alternated rounds (old = {rev}); the same games "
          f"(decisions per round equal): {same}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for side, rs in runs.items():
        ratios = [r["haunted"] / r["catanatron"] for r in rs]
        print(f"  {side}: median haunted_kit {statistics.median(r['haunted'] for r in rs):,.0f}/s, catanatron "
              f"{statistics.median(r['catanatron'] for r in rs):,.0f}/s, median ratio {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    change = statistics.median(n["haunted"] / o["haunted"] for o, n in zip(runs["old"], runs["new"]))
    print(f"  new / old haunted_kit decisions/s, median over rounds: {change:.3f} ({(change - 1) * 100:+.1f}%)")


def speed(rounds: int) -> None:
    import catanatron

    haunted_decisions(RandomAgent, 4, range(3))  # warm-up: imports and lookup tables
    catan_decisions(range(1))
    print(f"random 4-player decisions per CPU second, side by side ({rounds} alternating rounds; Catanatron {getattr(catanatron, '__version__', '3.x')}):")
    hk, ct = [], []
    for r in range(rounds):
        got = speed_round(r)
        hk.append(got["haunted"])
        ct.append(got["catanatron"])
        print(f"  round {r + 1}: haunted_kit {hk[-1]:,.0f}/s   catanatron {ct[-1]:,.0f}/s   ratio {hk[-1] / ct[-1]:.2f}")
    print(f"  median: haunted_kit {statistics.median(hk):,.0f}/s, catanatron {statistics.median(ct):,.0f}/s, "
          f"ratio of medians {statistics.median(hk) / statistics.median(ct):.2f}, median ratio {statistics.median(h / c for h, c in zip(hk, ct)):.2f}")
    g = []
    for r in range(rounds):
        n, dt = haunted_decisions(GreedyAgent, 4, range(r * 10, r * 10 + 10))
        g.append(n / dt)
    print(f"greedy 4-player decisions/s: median {statistics.median(g):,.0f}/s over {rounds} rounds of 10 games")


def scaling(games: int) -> None:
    grid = Grid(players=(4,), lineups=("greedy",), games=games)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, kw in (("1 worker (in process)", {"workers": 1}), ("2 processes", {"workers": 2}),
                          ("Dask LocalCluster, 2 workers", {"workers": 2, "dask": True})):
            t = time.perf_counter()
            simulate(grid, Path(tmp) / label.split()[0], progress=False, **kw)
            dt = time.perf_counter() - t
            out[label] = games / dt
            print(f"  {label}: {games} greedy 4-player games in {dt:.1f} s = {games / dt:.1f} games/s")
    one = out["1 worker (in process)"]
    print(f"parallel efficiency, 2 processes: {out['2 processes'] / (2 * one):.0%}; "
          f"Dask 2 workers: {out['Dask LocalCluster, 2 workers'] / (2 * one):.0%} (start-up included)")


def mid_game(players: int = 4, seed: int = 5, decisions: int = 60):
    s = new_game(players=players, seed=seed)
    bots = [GreedyAgent(i) for i in range(players)]
    while s.decisions < decisions and not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    return s


def search_speed(repeats: int) -> None:
    s = mid_game()
    print(f"mid-game 4-player position: season {s.season}, round {s.round}, decision {s.decisions}, "
          f"{len(s.legal_actions())} legal actions for P{s.current_player() + 1}")
    for spec, kw in (("greedy prior, greedy rollouts, depth 40 + evaluation (default)", {}),
                     ("greedy prior, random rollouts, depth 20 + evaluation", {"rollout": "random"}),
                     ("uniform prior, random rollouts to the end", {"prior": "uniform", "rollout": "random", "rollout_depth": None})):
        rates, cpu_rates = [], []
        for k in range(repeats):
            c = time.process_time()
            r = SearchAgent(k, playouts=500, **kw).search(s)
            rates.append(r.playouts / r.seconds)
            cpu_rates.append(r.playouts / (time.process_time() - c))
        print(f"  playouts/s, {spec}: median {statistics.median(rates):,.0f} (wall), "
              f"{statistics.median(cpu_rates):,.0f} per CPU second")
    hint_positions(repeats)


def bench_env_position():
    """The position of ``benchmarks/bench_env.py``'s hint: 4 players, seed 3, after 6 greedy decisions."""
    s = new_game(players=4, seed=3)
    bots = [make_bot("greedy", i, "haunted") for i in range(4)]
    for _ in range(6):
        s.apply_action(bots[s.current_player()].act(s))
    return s


def third_into_random_game(seed: int, players: int = 4):
    """The position a third of the way (in decisions) into the random game of ``seed``."""
    def play(stop):
        s = new_game(players=players, seed=seed)
        bots = [RandomAgent(seed * 100 + i) for i in range(players)]
        while not s.is_terminal() and s.decisions < stop:
            s.apply_action(bots[s.current_player()].act(s))
        return s
    return play(play(10**9).decisions // 3)


#: the Haunted Lands hint positions: name -> how to make it
HINT_POSITIONS = {"bench_env": bench_env_position,
                  **{f"third of random game {k}": (lambda k=k: third_into_random_game(k)) for k in (1, 2, 3)}}

#: the hint settings of each game (issue 21): players and options, as ``bench_env.GAMES``.
#: Where an estate hint's time goes (issue 21 item 2; cProfile shares of the 6 positions' hints after
#: bench_env's warm-up, nested, so they overlap; session 26): the greedy rollouts ~69% of it, 20
#: decisions a playout: listing the legal actions ~23%, applying them ~29% (joins ~4%, the slot cache
#: carried through a marker ~3%, the record ~2%, the turn's end ~4%, ``advance`` and the tile draws
#: ~5%), the greedy scores ~16%; the search's own selection ~10%, determinisations ~3%, ``evaluate``
#: ~2%. Session 26 cut the CPU time of these hints by 18-33% (``search --game estate --ab 3e73b0c
#: --rounds 5``, medians: 0.28-0.32 s, random game 3 0.42 s; the same hints): a search copy (no log)
#: makes no event sentences; another seat's worked-out open
#: slots are kept through a marker and the mover's are made from the carried bits; the Market's kept
#: legal trades and visit values are looked up again with the hand capped at what an option gives
#: (far fewer are worked out); actions without fields no longer share one hash in a search node's
#: children; a copy's lands are copied for their one shape. Random game 3's position (season 2, ~11
#: markers a playout) still costs the most.
#: Where a Landmarks hint's time goes: ``benchmarks/bench_landmarks.py``'s docstring (the
#: thirds whose root may lead Build were the dearest until a Build became two decisions, the
#: card and then its payment: a follower's list is now a few cards, not ~100 Builds).
HINT_GAMES = {"haunted": (4, {}), "estate": (3, {}), "landmarks": (3, {"rounds": 3})}


def hint_positions_of(game: str) -> dict:
    """The hint positions of ``game``: name -> position. Haunted Lands: :data:`HINT_POSITIONS`;
    the companions: ``bench_env``'s ``hint_position`` and its ``third_positions`` of seeds 0..4."""
    if game == "haunted":
        return {name: make() for name, make in HINT_POSITIONS.items()}
    from bench_env import hint_position, third_positions  # lazy: bench_env imports numpy and the environment

    players, options = HINT_GAMES[game]
    thirds = third_positions(game, players, options, range(5))
    return {"bench_env": hint_position(game, players, options),
            **{f"third of random game {k}": s for k, s in enumerate(thirds)}}


def describe_position(s) -> str:
    """Decision number, where in the game (season/round where the state has them) and the legal actions."""
    where = ", ".join(f"{k} {getattr(s, k)}" for k in ("season", "round") if isinstance(getattr(s, k, None), int))
    decisions = sum(1 for e in s.history() if not e.chance)
    n = len(s.legal_actions())
    return f"decision {decisions}{', ' + where if where else ''}, {n} legal action{'s' if n != 1 else ''}"


def hint_cpu(positions: dict) -> dict:
    """Per position: CPU seconds of one ``hints(s, playouts=1000, seed=1)`` (as bench_env) (hints' own
    settings: greedy rollouts of 20 decisions, then ``evaluate``) and a checksum of the hints
    (each top move's action, visits, value and sentence)."""
    out = {}
    for name, s in positions.items():
        c = time.process_time()
        hs = hints(s, playouts=1000, seed=1)
        cpu = time.process_time() - c
        text = repr([(h.action, h.visits, round(h.value, 9), h.sentence) for h in hs])
        out[name] = {"cpu": cpu, "hints": hashlib.sha256(text.encode()).hexdigest()[:12], "top": hs[0].sentence}
    return out


def hint_positions(rounds: int, game: str = "haunted") -> None:
    positions = hint_positions_of(game)
    hint_cpu({"warm-up": positions["bench_env"]})
    runs = [hint_cpu(positions) for _ in range(rounds)]
    print(f"{game}: 1,000-playout hints (hints' settings), CPU seconds over {rounds} rounds:")
    for name, s in positions.items():
        cpu = [r[name]["cpu"] for r in runs]
        print(f"  {name} ({describe_position(s)}): median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s")
        print(f"    top hint: {runs[-1][name]['top']}")


def hint_ab(rev: str, rounds: int, game: str = "haunted") -> None:
    """Hint CPU time of ``game``'s hint positions (:func:`hint_positions_of`) in git revision
    ``rev`` (a temporary worktree) and in this tree, alternated (old, new, old, new...) in
    subprocesses; medians per position, and whether both trees give the same hints. The
    positions are made by this checkout's benchmark code with each tree's kit."""
    with tempfile.TemporaryDirectory(prefix="hk-bench-") as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), rev], check=True, capture_output=True)
        try:
            runs = {"old": [], "new": []}
            for k in range(rounds):
                for side, tree in (("old", old), ("new", ROOT)):
                    env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
                    got = subprocess.run([sys.executable, __file__, "hint-probe", "--game", game], env=env, cwd=tree,
                                         capture_output=True, text=True, check=True)
                    runs[side].append(json.loads(got.stdout))
                    print(f"round {k + 1} {side}: " + ", ".join(f"{v['cpu']:.3f}" for v in runs[side][-1].values()) + " s", flush=True)
            print(f"{game}: 1,000-playout hint CPU seconds, medians of {rounds} alternated rounds (old = {rev}):")
            for name in runs["new"][0]:
                o = statistics.median(r[name]["cpu"] for r in runs["old"])
                n = statistics.median(r[name]["cpu"] for r in runs["new"])
                same = len({r[name]["hints"] for r in runs["old"] + runs["new"]}) == 1
                print(f"  {name:24} old {o:.3f} s  new {n:.3f} s  ({(n / o - 1) * 100:+.1f}%)  same hints: {same}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], capture_output=True)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def strength(games: int, playouts: int, out: Path, workers: int, player_counts=(4, 2)) -> None:
    spec = f"search[playouts={playouts}]"
    for players in player_counts:
        grid = Grid(players=(players,), lineups=(",".join([spec] + ["greedy"] * (players - 1)),), games=games, first_seed=10_000)
        path = out / f"strength_{players}p_{playouts}_{games}"
        t = time.perf_counter()
        simulate(grid, path, workers=workers, chunk=10, progress=True)
        dt = time.perf_counter() - t
        f = load_dataset(path)
        me = f[f.agent == spec]
        k, n = int(me.won.sum()), len(me)
        lo, hi = wilson(k, n)
        greedy_best = f[f.agent == "greedy"].groupby("game_id").won.any().sum()
        lost = int(me.collective_loss.sum())
        dec = int(me.decisions.sum())
        print(f"{players} players, {spec} (seat P1) vs {players - 1} greedy, {n} games ({dt:.0f} s, {workers} workers): "
              f"search wins {k} ({k / n:.1%}, 95% CI {lo:.1%}-{hi:.1%}; parity {1 / players:.0%}); greedy seats win {greedy_best}; "
              f"collective losses {lost} ({lost / n:.1%}, Wilson 95% CI {wilson(lost, n)[0]:.1%}-{wilson(lost, n)[1]:.1%})")
        print(f"  mean valor: search {me.score.mean():.1f}, greedy {f[f.agent == 'greedy'].score.mean():.1f}; "
              f"decisions per game: search {dec / n:.0f}, whole game {me.game_decisions.mean():.0f}; "
              f"about {dt * workers / dec * 1000:.0f} ms of a core per search decision (greedy moves included)")


def rotated_strength(game: str, players: int, games: int, playouts: int, out: Path, workers: int,
                     options: dict) -> None:
    """Issue 21's measure for any game: ``search[playouts=N]`` against greedy bots with the
    search's seat rotated (every seat, each on the measuring seeds ``0..games-1``, so
    ``players * games`` games), a game's points for the search being 1 for the sole top
    score, 1/k for a top shared by k players, 0 else (Haunted Lands: 1 when the rules name
    the search's seat the winner, 0 after a collective loss); the mean with a 95% Wilson interval
    (on the points as successes) beside the fair share 1/players."""
    spec = f"search[playouts={playouts}]"
    lineups = tuple(",".join(["greedy"] * seat + [spec] + ["greedy"] * (players - 1 - seat)) for seat in range(players))
    grid = Grid(game=game, players=(players,), options={k: [v] for k, v in options.items()}, lineups=lineups,
                games=games, first_seed=0)
    path = out / "_".join([f"strength_{game}_{players}p_{playouts}_{games}", *(f"{k}{v}" for k, v in options.items())])
    t = time.perf_counter()
    simulate(grid, path, workers=workers, chunk=10, progress=True)
    dt = time.perf_counter() - t
    f = load_dataset(path)
    points, by_seat = 0.0, {}
    for _, g in f.groupby("game_id"):
        me = g[g.agent == spec].iloc[0]
        if game == "haunted":  # the rules' winner (tie-breaks applied); a collective loss is won by nobody
            winners = int(g.won.sum())
            x = 1.0 / winners if me.won else 0.0
        else:
            top = g.score.max()
            tied = int((g.score == top).sum())
            x = 1.0 / tied if me.score == top else 0.0
        points += x
        by_seat.setdefault(int(me.player), []).append(x)
    n = len(f.game_id.unique())
    lo, hi = wilson(points, n)
    seats = ", ".join(f"P{s + 1} {sum(v) / len(v):.0%} of {len(v)}" for s, v in sorted(by_seat.items()))
    print(f"{game} {players} players {options}, {spec} vs {players - 1} greedy, seats rotated, seeds 0..{games - 1}: "
          f"{points:g} points of {n} games = {points / n:.1%} (95% Wilson CI {lo:.1%}-{hi:.1%}; fair share "
          f"{1 / players:.0%}; a top shared by k players counts 1/k) in {dt:.0f} s on {workers} workers")
    print(f"  by the search's seat: {seats}")


def rss_kib(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            kids = [int(x) for x in fh.read().split()]
    except OSError:
        return []
    return kids + [g for k in kids for g in children(k)]


def memory(games: int, workers: int) -> None:
    samples = []
    stop = threading.Event()
    me = os.getpid()

    def sample():
        t0 = time.perf_counter()
        while not stop.wait(2.0):
            kids = children(me)
            samples.append((time.perf_counter() - t0, rss_kib(), sum(rss_kib(k) for k in kids if os.path.exists(f"/proc/{k}"))))

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    grid = Grid(players=(2,), lineups=("greedy",), games=games)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        simulate(grid, Path(tmp) / "mem", workers=workers, progress=True)
        dt = time.perf_counter() - t
    stop.set()
    th.join()
    print(f"{games} greedy 2-player games with {workers} workers in {dt:.0f} s; RSS samples every 2 s:")
    step = max(1, len(samples) // 12)
    for t_, main_, kids in samples[::step] + samples[-1:]:
        print(f"  t={t_:6.0f} s  main {main_ / 1024:6.1f} MiB  workers {kids / 1024:6.1f} MiB")
    if len(samples) >= 4:
        q = len(samples) // 4
        first, last = samples[q], samples[-1]
        print(f"from the first quarter to the end: main {first[1] / 1024:.1f} -> {last[1] / 1024:.1f} MiB, "
              f"workers {first[2] / 1024:.1f} -> {last[2] / 1024:.1f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["speed", "scaling", "search", "strength", "memory", "hint-probe", "speed-probe"],
                    metavar="{speed,scaling,search,strength,memory}")  # hint-probe, speed-probe: one side of --ab
    ap.add_argument("--ab", metavar="REV", help="speed: the side by side with Catanatron for git revision REV and this "
                                                "tree, alternated; search: hint CPU time of REV and this tree, alternated")
    ap.add_argument("--round", type=number_at_least(0), default=0, help=argparse.SUPPRESS)  # speed-probe's round
    ap.add_argument("--games", type=number_at_least(1), default=None)
    ap.add_argument("--rounds", type=number_at_least(1), default=5)
    ap.add_argument("--playouts", type=number_at_least(1), default=100)
    ap.add_argument("--workers", type=number_at_least(1), default=2)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    ap.add_argument("--players", type=lambda t: [int(x) for x in t.split(",")], default=[4, 2],
                    help="player counts for strength (default 4,2)")
    ap.add_argument("--game", default="haunted",
                    help="strength: a companion game (estate, landmarks) measured with seats rotated, ties half; "
                         "with --game-rounds for Landmarks. search: the game whose hint positions are timed")
    ap.add_argument("--rotated", action="store_true",
                    help="strength for Haunted Lands: the search in every seat in turn (issue 21's measure), "
                         "--games seeds per seat; points from the rules' winner, none on a collective loss")
    ap.add_argument("--game-rounds", type=number_at_least(1), default=3, help="strength --game landmarks: rounds per game (default 3)")
    a = ap.parse_args()
    if a.part in ("speed", "speed-probe") and importlib.util.find_spec("catanatron") is None:
        ap.error("speed times Catanatron beside the kit: pip install catanatron (it is not part of the kit)")
    if a.part == "speed" and a.ab:
        speed_ab(a.ab, a.rounds)
    elif a.part == "speed":
        speed(a.rounds)
    elif a.part == "speed-probe":  # one side of speed --ab: a warm-up, then round --round
        haunted_decisions(RandomAgent, 4, range(3))
        catan_decisions(range(1))
        print(json.dumps(speed_round(a.round)))
    elif a.part == "scaling":
        scaling(a.games or 200)
    elif a.part == "search" and a.game not in HINT_GAMES:
        ap.error(f"search --game must be one of {', '.join(HINT_GAMES)}, got {a.game!r}")
    elif a.part == "search" and a.ab:
        hint_ab(a.ab, a.rounds, a.game)
    elif a.part == "search" and a.game == "haunted":
        search_speed(a.rounds)
    elif a.part == "search":
        hint_positions(a.rounds, a.game)
    elif a.part == "hint-probe":  # one side of search --ab
        positions = hint_positions_of(a.game)
        hint_cpu({"warm-up": positions["bench_env"]})
        print(json.dumps(hint_cpu(positions)))
    elif a.part == "strength":
        a.out.mkdir(parents=True, exist_ok=True)
        if a.game == "haunted" and a.rotated:
            for players in a.players:
                rotated_strength("haunted", players, a.games or 50, a.playouts, a.out, a.workers, {})
        elif a.game == "haunted":
            strength(a.games or 200, a.playouts, a.out, a.workers, a.players)
        else:
            options = {"rounds": a.game_rounds} if a.game == "landmarks" else {}
            for players in a.players:
                rotated_strength(a.game, players, a.games or 200, a.playouts, a.out, a.workers, options)
    else:
        memory(a.games or 100_000, a.workers)


if __name__ == "__main__":
    main()
