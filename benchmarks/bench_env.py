"""The environment and the search agent over every game of the kit: figures, not tests.

    python benchmarks/bench_env.py [--games N] [--thirds N] [--strength N] [--no-hints]
    python benchmarks/bench_env.py --ab main [--rounds 5] [--games N]
    python benchmarks/bench_env.py --instructions [--ab REV] [--games N]   (needs valgrind)

For each game (Haunted Lands 4 players, estate 3, Landmarks 3 over 3 rounds):

* env steps/s: decisions per second (CPU time) of a seeded random policy through
  ``KitAECEnv`` (``agent_iter`` / ``last`` / ``step``: the observation vector and the
  action mask of every decision included; the policy picks among the mask's numbers with
  ``random.Random``), and in the same run the very same games played again straight on
  the engine (at each decision the legal actions listed and a number drawn, as a random
  agent does, then the environment's action applied), each side in a fresh process of its
  own (:func:`side_by_side`), so the ratio weighs the environment's own cost on the same
  positions, whatever the machine's load and whichever games the seeds happened to give (the environment is made, and its first
  game played, before the clock starts, as the engine's modules are loaded before its clock);
* where an env step's time goes (Haunted Lands, 4 players, CPU time, the very games of this
  benchmark replayed on the live engine with each part added per decision, minimum of 9
  runs on a loaded machine, issue 21's third round): the engine's replay 6.5-7 us a
  decision; the encoder's ``from_state`` about 7 us (3e73b0c's: about 16 in the same
  loop; it now keeps one vector of what every player sees alike and rewrites only the
  state fields that changed, about 2 us of it reading and comparing the 20 fields, then
  copies it and writes the observer's part); the mask about 2 us
  (``ActionCatalogue.legal_numbers`` 1.3 us: Haunted Lands' legal actions are interned
  per field, so each is found by identity); the AEC calls (``agent_iter``, ``last``,
  ``observe``, ``step`` with its checks) and the policy's ``mask.nonzero()``
  together about 4 us; ``reset`` about 300 us a game (the game's setup). In instructions
  (``valgrind --tool=callgrind``, noise-free; this benchmark's 40 games, 5,524 decisions,
  issue 21's fourth round): the engine's replay 49,300 a decision; an env step 153,600 at
  86cfd0a, 146,100 after ``from_state`` read its fields by compiled attribute loads and
  ``step`` checked the mask's numbering with one list ``==`` (an instruction ratio of 0.33
  then 0.35; ``--instructions --games 10`` now: Haunted Lands 0.350, estate 0.348,
  Landmarks 0.587); ``from_state`` is about 57,000 of them, everything else the
  environment and the policy do (the AEC calls, the mask, the step's checks, ``nonzero``
  and the draw) about 38,000, so the observation and mask together cost about 1.3 engine
  steps. Timed (``--ab 86cfd0a --rounds 9 --games 40``, a loaded machine) the Haunted
  Lands ratio read 0.31 on both sides and the estate's 0.31 then 0.32: the environment's
  code takes more time per instruction than the engine's. The estate (3
  players; ``--instructions --ab 86cfd0a --games 10``): an env step 173,300 instructions
  (86cfd0a: 202,900, when ``from_state`` wrote the whole vector from zeros every call),
  the engine's replay 61,400; ``from_state`` now keeps one vector like Haunted Lands', a
  copy of each of the 18 state fields it reads, each observer's block of slot flags apart,
  and per call copies the vector, rotates the players' entries and pastes the observer's
  slot flags (a probe of ``from_state`` alone, issue 21 session 27: about 73k
  instructions a call against 97k before, of which comparing the fields about 15k and
  the copy, rotation and paste about 14k). Each game's
  action record is read after the clock (before: inside it, about 2 us a decision). The
  same random games on both sides (this benchmark since issue 21's second round: before, the
  engine played other games, and Landmarks' ratio swung from 0.07 to 0.85 with which
  games those were; the engine replaying the environment's games in the environment's
  own process found the positions in its memo tables). On this 2-core machine shared by
  several sessions one run's ratio swings by +-0.1: compare with ``--ab`` over several rounds;
* with ``--ab REV``: the env and engine figures of git revision ``REV`` (a temporary
  worktree) and of this tree, alternated over ``--rounds`` runs, with their medians, and
  whether both hand a learner the same outputs (``same outputs``: the digests of every
  observation, mask, reward and info of ``tests/env_golden.py``'s seeded episodes, both
  sides run by this checkout's digest code);
* with ``--instructions``: the same env and engine sides counted in machine instructions
  by valgrind's callgrind instead of timed (``PYTHONHASHSEED=0``; each side's count for
  ``--games`` games less its count for none, per decision): the same figure every run,
  whatever the machine's load, where one timed run swings by +-0.1. Instructions are not
  time: the environment's code spends more time per instruction than the engine's (its
  timed ratio reads about 0.03 lower), so the timed figure stays the measure and this one
  shows a change that load hides; with ``--ab REV`` also git revision ``REV``'s counts;
* hint: CPU seconds (``time.process_time``) for ``hints(state, playouts=1000)`` from a
  position a few greedy decisions into a game (truncated rollouts where the game has
  ``evaluate``); for the estate and Landmarks also the median and the most over positions
  a third of the way (in decisions) into ``--thirds`` seeded random games;
* with ``--strength N``: ``search[playouts=50]`` (random rollouts, the default) and
  ``search[playouts=50,rollout=greedy]`` in seat P1 against greedy bots in the companion games (estate 2 players, Landmarks 3 players over 3 rounds), N seeded games
  each through ``simulate`` on 2 processes: its share of games won (each game's own
  winner: the sole highest gold value, the sole most module points) with a 95% Wilson
  interval, beside one seat's fair share.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

import numpy as np

# the tree under test: this checkout, or (for --ab) the one named by HK_BENCH_TREE
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(ROOT))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.bots import make_bot  # noqa: E402
from haunted_kit.env import KitAECEnv  # noqa: E402
from haunted_kit.games import get_game  # noqa: E402
from haunted_kit.search import hints, sample_chance  # noqa: E402

GAMES = [("haunted", 4, {}), ("estate", 3, {}), ("landmarks", 3, {"rounds": 3})]


def env_games(game: str, players: int, options: dict, seeds, played: list | None = None) -> tuple[int, float]:
    """Decisions and CPU seconds of random-policy games through the AEC environment;
    each game's decisions (``(seed, places in the legal lists)``, read after the clock)
    are appended to ``played`` when given."""
    env = KitAECEnv(game, players=players, **options)
    play_env(env, [-1])  # a warm-up game: modules loaded and tables made before the clock starts
    start = time.process_time()
    steps = play_env(env, seeds, played)
    cpu = time.process_time() - start
    if played is not None:  # after the clock: each decision as its place in the engine's legal list
        played[:] = [(seed, picks_of(game, players, options, seed, [e.action for e in final.history() if not e.chance]))
                     for seed, final in played]
    return steps, cpu


def picks_of(game: str, players: int, options: dict, seed: int, actions: list) -> list[int]:
    """Where each of a seeded game's decisions ``actions`` stands in ``legal_actions()``
    at its turn (the game played again on the engine)."""
    s = get_game(game).new_game(players=players, seed=seed, log=False, **options)
    picks = []
    for a in actions:
        legal = s.legal_actions()
        picks.append(legal.index(a))
        s.apply_action(legal[picks[-1]])
    return picks


def play_env(env, seeds, played: list | None = None) -> int:
    """Play one seeded random-policy game per seed through ``env``; the decisions made.
    Each game's final state is appended to ``played`` (``(seed, state)``) when given: its
    action record is read after the clock (reading it costs about 2 us per decision)."""
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]  # the legal numbers (np.flatnonzero without its wrappers)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        if played is not None:
            played.append((seed, env.state_))  # reset makes a new state: this one stays the game's final one
    return steps


def random_decisions(s, seed: int, stop: int | None = None) -> int:
    """Play random legal actions (``random.Random(seed)``) on ``s`` to the end or ``stop`` decisions."""
    rng, n = random.Random(seed), 0
    while not s.is_terminal() and (stop is None or n < stop):
        if s.is_chance_node():
            sample_chance(s, rng)
            continue
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return n


def side_by_side(game: str, players: int, options: dict, seeds) -> tuple[tuple[int, float], tuple[int, float]]:
    """``((env decisions, CPU s), (engine decisions, CPU s))``: seeded random-policy games
    through the environment (:func:`env_games`), then the very same games played again
    straight on the engine as a random agent plays (:func:`engine_replay`: at each decision
    the legal actions listed, a number drawn, and the legal action at the environment's
    place applied). The same positions on both sides, so the ratio weighs the
    environment's own cost and not the luck of which games were played (Landmarks'
    decisions differ in cost tenfold from one game to another). Each side runs in a fresh
    process of its own, one after the other, so that neither finds the positions already
    in the engine's memo tables (legal actions, reach, payment plans: whichever side runs
    second in a shared process plays Landmarks three to ten times faster)."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        steps, cpu, played = pool.submit(env_side, game, players, options, list(seeds)).result()
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        return (steps, cpu), pool.submit(engine_replay, game, players, options, played).result()


def env_side(game: str, players: int, options: dict, seeds: list) -> tuple[int, float, list]:
    """:func:`env_games` with the games' decisions as places in the legal lists."""
    played = []
    steps, cpu = env_games(game, players, options, seeds, played)
    return steps, cpu, played


def engine_replay(game: str, players: int, options: dict, played: list) -> tuple[int, float]:
    """Decisions and CPU seconds of ``played`` (``(seed, places in the legal lists)`` per
    game) replayed on the engine as a random agent plays (see :func:`side_by_side`)."""
    g = get_game(game)
    random_decisions(g.new_game(players=players, seed=-1, log=False, **options), -1)  # warm-up, as env_games
    steps, start = 0, time.process_time()
    for seed, picks in played:
        s = g.new_game(players=players, seed=seed, log=False, **options)
        rng = random.Random(seed)
        for i in picks:
            legal = s.legal_actions()
            rng.randrange(len(legal))
            s.apply_action(legal[i])
        assert s.is_terminal(), f"{game} seed {seed}: the replayed game did not end as the environment's did"
        steps += len(picks)
    return steps, time.process_time() - start


def hint_position(game: str, players: int, options: dict):
    """The position a few greedy decisions into game seed 3 (the hint figure's position)."""
    g = get_game(game)
    s = g.new_game(players=players, seed=3, **options)
    bots = [make_bot("greedy", i, g) for i in range(players)]
    for _ in range(6):
        if s.is_terminal() or s.current_player() is None:
            break
        s.apply_action(bots[s.current_player()].act(s))
    return s


def third_positions(game: str, players: int, options: dict, seeds) -> list:
    """For each seed, the position a third of the way (in decisions) into that seeded random game."""
    g = get_game(game)
    out = []
    for seed in seeds:
        bots = [make_bot("random", seed * 10 + i, g) for i in range(players)]
        s = g.new_game(players=players, seed=seed, **options)
        states = []
        while not s.is_terminal():
            states.append(s.copy())
            s.apply_action(bots[s.current_player()].act(s))
        out.append(states[len(states) // 3])
    return out


def hint_cpu(state) -> tuple[float, str]:
    """CPU seconds (this process) of ``hints(state, playouts=1000)`` and its top sentence."""
    start = time.process_time()
    found = hints(state, playouts=1000, seed=1)
    return time.process_time() - start, found[0].sentence


def strength(games: int) -> None:
    from bench_scale import wilson  # the same interval as the Haunted Lands strength figures

    from haunted_kit.simulate import Grid, load_dataset, simulate

    out = Path(tempfile.mkdtemp(prefix="hk-bench-env-"))
    for game, players, options in (("estate", 2, {}), ("landmarks", 3, {"rounds": [3]})):
        specs = ("search[playouts=50]", "search[playouts=50,rollout=greedy]")
        grid = Grid(game=game, players=(players,), options=options, lineups=tuple(f"{x},greedy" for x in specs),
                    games=games)
        start = time.perf_counter()
        simulate(grid, out / game, workers=2, progress=False)
        f = load_dataset(out / game)
        for spec in specs:
            me = f[(f.player == 0) & (f.agent == spec)]
            k, n = int(me.won.sum()), len(me)
            low, high = wilson(k, n)
            print(f"{game:10} {spec} in P1 vs greedy, {players} players: won {k} of {n} = {k / n:.0%} "
                  f"(95% CI {low:.0%}-{high:.0%}; fair share {1 / players:.0%}; a tie at the top counts for nobody)")
        print(f"{'':10} {len(f.game_id.unique())} games in {time.perf_counter() - start:.0f} s on 2 processes")


def probe(games: int, digests: bool = False) -> dict:
    """Env and engine decisions and CPU seconds per game of :data:`GAMES` (the tree on the
    path); with ``digests``, also ``"outputs"``: the digests of ``tests/env_golden.py``'s
    seeded episodes (everything the environments hand a learner), after the clocks."""
    out = {}
    for game, players, options in GAMES:
        (e_steps, e_sec), (g_steps, g_sec) = side_by_side(game, players, options, range(games))
        out[game] = {"env": e_steps / e_sec, "engine": g_steps / g_sec, "env_steps": e_steps}
    if digests:
        sys.path.insert(1, str(ROOT / "tests"))  # this checkout's digests, of the tree under test
        import env_golden  # lazy: only --ab's first round compares the outputs

        out["outputs"] = env_golden.compute()
    return out


def ab(rev: str, rounds: int, games: int) -> None:
    """Env and engine steps/s of git ``rev`` and of this tree, alternated; prints medians."""
    from bench_engine import tree_at  # lazy: the temporary worktree of --ab only (bench_engine's own)

    def run(tree: Path, digests: bool) -> dict:
        env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
        done = subprocess.run([sys.executable, __file__, "--probe", "--games", str(games)]
                              + (["--digests"] if digests else []), env=env, cwd=tree,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    with tree_at(rev) as old:
        runs, outputs = {"old": [], "new": []}, {}
        for k in range(rounds):
            for side, tree in ((("old", old), ("new", ROOT)) if k % 2 == 0 else (("new", ROOT), ("old", old))):
                runs[side].append(run(tree, k == 0))
                if "outputs" in runs[side][-1]:
                    outputs[side] = runs[side][-1].pop("outputs")
                print(f"round {k + 1} {side}: " + "  ".join(f"{g} {r['env'] / r['engine']:.2f}"
                                                          for g, r in runs[side][-1].items()), flush=True)
    for game, _, _ in GAMES:  # the same seeded episodes on both sides: every vector, mask, reward and info
        rows = [[r for r in outputs[side] if r["game"]["game"] == game] for side in ("old", "new")]
        print(f"{game:10} same outputs (observations, masks, rewards, infos of {len(rows[0])} seeded episodes, "
              f"tests/env_golden.py): {rows[0] == rows[1]}")
    print(f"{'game':10} {'side':4} {'env steps/s':>12} {'engine steps/s':>15} {'env/engine':>10} (medians of {rounds})")
    for game, _, _ in GAMES:
        for side in ("old", "new"):
            rs = runs[side]
            env_s, eng_s = (statistics.median(r[game][k] for r in rs) for k in ("env", "engine"))
            ratio = statistics.median(r[game]["env"] / r[game]["engine"] for r in rs)
            print(f"{game:10} {side:4} {env_s:12,.0f} {eng_s:15,.0f} {ratio:10.2f}")


def count_side(side: str, game: str, games: int, picks_file: str) -> None:
    """``--instructions``'s child, run under callgrind: the env side's first ``games``
    seeded games, or the engine side's replay of them from ``picks_file`` (a JSON list of
    ``[seed, places]``, as :func:`engine_replay` takes); prints the decisions made."""
    players, options = next((p, o) for g, p, o in GAMES if g == game)
    if side == "env":
        steps, _ = env_games(game, players, options, range(games))
    else:
        played = [(seed, picks) for seed, picks in json.loads(Path(picks_file).read_text())[:games]]
        steps, _ = engine_replay(game, players, options, played)
    print(steps)


def instructions(games: int, rev: str | None) -> None:
    """Instructions per decision of each game's env and engine sides (:func:`count_side`
    under callgrind, ``games`` games less none), for this tree and, with ``rev``, for
    git revision ``rev`` too; prints the table and the ratios."""
    if shutil.which("valgrind") is None:
        print(f"{Path(sys.argv[0]).name}: error: --instructions needs valgrind (apt install valgrind)", file=sys.stderr)
        raise SystemExit(2)
    from bench_engine import tree_at  # lazy: the temporary worktree of --ab only (bench_engine's own)

    def count(tree: Path, side: str, game: str, n: int, picks: Path) -> tuple[int, int]:
        with tempfile.TemporaryDirectory(prefix="hk-callgrind-") as tmp:
            out = Path(tmp) / "callgrind.out"
            env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0",
                   "OPENBLAS_NUM_THREADS": "1"}
            done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                                   __file__, "--count", side, game, str(n), str(picks)],
                                  env=env, cwd=tree, capture_output=True, text=True, check=True)
            total = next(int(line.split()[1]) for line in out.read_text().splitlines()
                         if line.startswith(("summary:", "totals:")))
        return total, int(done.stdout.split()[-1])

    with tempfile.TemporaryDirectory(prefix="hk-bench-env-") as tmp, (tree_at(rev) if rev else nullcontext()) as old:
        trees = ([("old", old)] if rev else []) + [("new" if rev else "this", ROOT)]
        print(f"{'game':10} {'tree':4} {'env instr/decision':>19} {'engine instr/decision':>22} {'env/engine':>10} "
              f"(callgrind, {games} games)")
        for game, players, options in GAMES:
            picks = Path(tmp) / f"{game}.json"  # the games' decisions, from this tree's env (the same games on both)
            picks.write_text(json.dumps(env_side(game, players, options, list(range(games)))[2]))
            for name, tree in trees:
                per = {}
                for side in ("env", "engine"):
                    (none, _), (some, steps) = (count(tree, side, game, k, picks) for k in (0, games))
                    per[side] = (some - none) / steps
                print(f"{game:10} {name:4} {per['env']:19,.0f} {per['engine']:22,.0f} "
                      f"{per['engine'] / per['env']:10.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=number_at_least(1), default=20, help="seeded games per game and way (default 20)")
    ap.add_argument("--thirds", type=number_at_least(1), default=5, metavar="N",
                    help="estate and Landmarks hints from a third of the way into N seeded random games (default 5)")
    ap.add_argument("--no-hints", action="store_true", help="only the env and engine steps/s (no hint figures)")
    ap.add_argument("--strength", type=number_at_least(0), default=0, metavar="N",
                    help="also play N games of search vs greedy in each companion game")
    ap.add_argument("--ab", metavar="REV", help="compare the env figures with git revision REV, alternated")
    ap.add_argument("--rounds", type=number_at_least(1), default=5, help="alternated runs per side for --ab (default 5)")
    ap.add_argument("--instructions", action="store_true",
                    help="count machine instructions with valgrind's callgrind instead of timing (with --ab: both trees)")
    ap.add_argument("--count", nargs=4, metavar=("SIDE", "GAME", "GAMES", "PICKS"), help=argparse.SUPPRESS)
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)  # --ab's child: JSON figures
    ap.add_argument("--digests", action="store_true", help=argparse.SUPPRESS)  # --probe: the outputs' digests too
    args = ap.parse_args()
    if args.probe:
        print(json.dumps(probe(args.games, args.digests)))
        return
    if args.count:
        side, game, n, picks = args.count
        count_side(side, game, int(n), picks)
        return
    if args.instructions:
        instructions(args.games, args.ab)
        return
    if args.ab:
        ab(args.ab, args.rounds, args.games)
        return
    seeds = range(args.games)
    print("steps/s per CPU second; env/engine is the environment's share of the bare engine's speed on the same games "
          "(higher is better; issue 21 asks for at least 0.33)" + ("" if args.no_hints else
          "; hint: CPU seconds of one 1,000-playout hint (lower is better; issue 21 asks for under 0.5)"))
    print(f"{'game':10} {'env steps/s':>12} {'engine steps/s':>15} {'env/engine':>10}"
          + ("" if args.no_hints else f" {'hint 1000 playouts':>19}"))
    for game, players, options in GAMES:
        (e_steps, e_sec), (g_steps, g_sec) = side_by_side(game, players, options, seeds)
        ratio = f"{game:10} {e_steps / e_sec:12,.0f} {g_steps / g_sec:15,.0f} {(e_steps / e_sec) / (g_steps / g_sec):10.2f}"
        if args.no_hints:
            print(ratio)
            continue
        h_sec, sentence = hint_cpu(hint_position(game, players, options))
        print(f"{ratio} {h_sec:15.2f} s CPU")
        print(f"{'':10} top hint: {sentence}")
        if game in ("estate", "landmarks"):
            thirds = sorted(hint_cpu(s)[0] for s in third_positions(game, players, options, range(args.thirds)))
            print(f"{'':10} hint CPU from a third into {args.thirds} seeded random games: median "
                  f"{statistics.median(thirds):.2f} s, most {thirds[-1]:.2f} s")
    if args.strength:
        strength(args.strength)


if __name__ == "__main__":
    main()
