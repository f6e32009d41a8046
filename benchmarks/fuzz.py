"""Hostile-input fuzz: games with malformed actions, corrupt saves, box edits, CLI misuse.

Usage::

    .venv/bin/python benchmarks/fuzz.py                       # full size (about an hour on 2 cores)
    .venv/bin/python benchmarks/fuzz.py --scale 0.1           # a tenth of every kind
    .venv/bin/python benchmarks/fuzz.py --games 100 --saves 0 --boxes 0 --cli 0

Kinds (every input seeded, so a finding is reproducible from its kind and number):

Every registered game with a box folder is covered (Haunted Lands gets 80% of each
kind; the Estate and Market and the Landmarks & Architects modules share the rest).

* games: seeded random games (every mode and player count); before every decision
  one random action from a hostile mix (wrong types, numpy integers, floats, bools,
  unknown names, cells off the field, non-actions, well-formed illegal ones) is
  tried. A refused action must raise IllegalAction and leave the save, the dice
  position and the log byte-identical; an accepted one must be a listed action.
  Every 25 decisions and at the end the state must pass the game's invariants.
* saves: saves of running and finished games (setup, spread, turns, season end,
  over) with 1-3 random edits (odd numbers, wrong types, Infinity, NaN, huge ints,
  keys deleted or added, lists cut or grown), fed through JSON text. Each must be
  refused with SaveError, or load into a state that passes the invariants, prints a
  summary (``haunted-kit replay``) and plays on to the end.
* boxes: one random edit of one file of ``data/`` (numbers, strings, lines, a
  Latin-1 byte, a cut). Each must be refused with BoxError, or pass
  :func:`haunted_kit.testing.check_box` (one game per mode and player count).
* cli: ``haunted-kit`` run in-process with hostile arguments (unknown options,
  bad numbers, missing/unwritable paths, same file twice, corrupt saves, bad
  boxes). Each must exit 0, 1 or 2 without a traceback.

Printed per kind: inputs tried, refused, accepted; raw exceptions (anything but the
kit's own errors), hangs (a game not ending within its step bound, or one input
taking over 60 s), accepted-but-broken (accepted, then failing later). All three
must be 0. A figure, not a test.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import math
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import haunted_kit as hk  # noqa: E402
from benchargs import number_at_least  # noqa: E402
from haunted_kit.haunted import actions as A  # noqa: E402
from haunted_kit.cli import main as cli_main, summary  # noqa: E402
from haunted_kit.protocol import IllegalAction  # noqa: E402
from haunted_kit.haunted.state import FIELDS  # noqa: E402
from haunted_kit.haunted.engine import GAME  # noqa: E402
from haunted_kit.games import game_names, get_game, load_state  # noqa: E402  (load_state: the box check, then from_dict)
from haunted_kit.testing import check_box, mutate_json, mutate_text, random_steps  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"
#: Each registered game's box folder (relative to data/) and its share of the inputs.
BOX_FOLDERS = {"haunted": "", "estate": "estate", "landmarks": "landmarks"}
SHARE = {"haunted": 0.8}  # the rest is split between the other games
SLOW = 60.0  # seconds: one input taking longer counts as a hang


class Tally:
    def __init__(self, kind):
        self.kind = kind
        self.c = collections.Counter()
        self.examples = collections.defaultdict(list)

    def bad(self, what, number, text):
        self.c[what] += 1
        if len(self.examples[what]) < 5:
            self.examples[what].append(f"#{number}: {text}")

    def row(self):
        return (f"{self.kind:<6} tried {self.c['tried']:>7,}  refused {self.c['refused']:>7,}  accepted {self.c['accepted']:>7,}"
                f"  raw exceptions {self.c['raw']}  hangs {self.c['hang']}  accepted-but-broken {self.c['broken']}")


def short_tb(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
    return f"{type(exc).__name__}: {str(exc)[:150]} at {where}"


# ============================================================================ games with hostile actions

ODD = [None, True, False, 1.0, 2.5, -1, 0, 10**30, -(10**30), float("nan"), float("inf"), "", "food", "mill",
       "contact", "gold", (1, 0), (1.0, 0), [1, 0], (True, 0), (0, 0, 0), (99, 99), np.int64(1), np.bool_(True),
       np.float64(1.0), ("food",), ["ore", "food"], ("food", 1), b"food", {"q": 1}]


def hostile_action(rng, s):
    """A random action from a hostile mix, sometimes well formed."""
    k = rng.random()
    if k < 0.05:
        return rng.choice(["explore", None, 3, A.Explore, object(), {"type": "learn", "skill": 1}])
    legal = s.legal_actions()
    if k < 0.35 and legal:  # a listed action with one field made odd (or a numpy twin)
        a = rng.choice(legal)
        kinds = A.FIELD_KINDS[type(a)]
        if not kinds:
            return a
        name = rng.choice(list(kinds))
        v = getattr(a, name)
        if rng.random() < 0.4 and kinds[name] == "cell":
            v = [np.int32(v[0]), np.int64(v[1])] if rng.random() < 0.5 else (float(v[0]), v[1])
        elif rng.random() < 0.4 and kinds[name] == "number":
            v = rng.choice([np.int16(v), float(v), bool(v % 2), str(v), v + 1000])
        else:
            v = rng.choice(ODD)
        vals = {f: getattr(a, f) for f in kinds}
        vals[name] = v
        return type(a)(**vals)
    cls = rng.choice(list(A.FIELD_KINDS))
    return cls(*[rng.choice(ODD) for _ in A.FIELD_KINDS[cls]])


def hostile_generic(rng, s):
    """For a game without haunted_kit.haunted.actions' table: a listed action (a dataclass)
    with one field replaced by an odd value, or a non-action."""
    import dataclasses

    legal = s.legal_actions()
    if rng.random() < 0.1 or not legal:
        return rng.choice(["pass", None, 3, object()])
    a = rng.choice(legal)
    if dataclasses.is_dataclass(a) and dataclasses.fields(a) and rng.random() < 0.7:
        f = rng.choice(dataclasses.fields(a))
        return dataclasses.replace(a, **{f.name: rng.choice(ODD)})
    return a


GAMES_CHOSEN: list[str] = []  # --game: only these games (default: every registered one)


def shares(n):
    """How many of ``n`` inputs each registered game gets."""
    names = [g for g in game_names() if g in BOX_FOLDERS and (not GAMES_CHOSEN or g in GAMES_CHOSEN)]
    if len(names) == 1:
        return {names[0]: n}
    rest = [g for g in names if g not in SHARE]
    out = {g: int(n * SHARE[g]) for g in names if g in SHARE}
    left = n - sum(out.values())
    for k, g in enumerate(rest):
        out[g] = left // len(rest) + (k < left % len(rest))
    return out


def fuzz_games(n, tally, seed0=0):
    split = shares(n)
    yield from fuzz_haunted_games(split.pop("haunted", 0), tally, seed0)
    for name, k in split.items():
        yield from fuzz_other_games(name, k, tally, seed0)


def fuzz_other_games(name, n, tally, seed0=0):
    game = get_game(name)
    settings = game.settings()
    for i in range(n):
        tally.c["tried"] += 1
        rng = random.Random(seed0 * 7919 + i)
        t0 = time.monotonic()
        try:
            s = game.new_game(seed=seed0 + i, **settings[i % len(settings)])
            steps = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_chance(rng.choice([o for o, _ in s.chance_outcomes()]))
                    continue
                a = hostile_generic(rng, s)
                tally.c["actions"] += 1
                before = (json.dumps(s.to_dict(), sort_keys=True, default=repr), s.rng_count if hasattr(s, "rng_count") else 0)
                try:
                    s.apply_action(a)
                    tally.c["accepted actions"] += 1
                except IllegalAction:
                    tally.c["refused actions"] += 1
                    if (json.dumps(s.to_dict(), sort_keys=True, default=repr), getattr(s, "rng_count", 0)) != before:
                        tally.bad("broken", f"{name} {i}", f"refused action {a!r} changed the state")
                        break
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
                if steps % 25 == 0 and game.invariants(s):
                    tally.bad("broken", f"{name} {i}", "; ".join(game.invariants(s)))
                    break
                if steps > 20_000:
                    tally.bad("hang", f"{name} {i}", "game did not end within 20,000 decisions")
                    break
            else:
                problems = game.invariants(s)
                load_state(game, json.loads(json.dumps(s.to_dict())))
                if problems:
                    tally.bad("broken", f"{name} {i}", "; ".join(problems))
        except Exception as exc:  # noqa: BLE001
            tally.bad("raw", f"{name} {i}", short_tb(exc))
        if time.monotonic() - t0 > SLOW:
            tally.bad("hang", f"{name} {i}", f"game took {time.monotonic() - t0:.0f} s")
        yield


def same_state(a, b) -> bool:
    """Every field of the field table equal (state, dice position, log, record...)."""
    return all(getattr(a, f.name) == getattr(b, f.name) for f in FIELDS if f.name != "_legal")


def fuzz_haunted_games(n, tally, seed0=0):
    settings = GAME.settings()
    for i in range(n):
        tally.c["tried"] += 1
        rng = random.Random(seed0 + i)
        setting = settings[i % len(settings)]
        t0 = time.monotonic()
        try:
            s = hk.new_game(seed=seed0 + i, **setting)
            steps = 0
            while not s.is_terminal():
                a = hostile_action(rng, s)
                tally.c["actions"] += 1
                before = s.copy()
                try:
                    legal_before = s.legal_actions()
                    s.apply_action(a)
                    tally.c["accepted actions"] += 1
                    if A.normalise(a, A.box_names(s.config.box)) not in legal_before:
                        tally.bad("broken", i, f"unlisted action accepted: {a!r}")
                        break
                except hk.IllegalAction:
                    tally.c["refused actions"] += 1
                    if not same_state(s, before) or (steps % 50 == 0 and s.to_json() != before.to_json()):
                        tally.bad("broken", i, f"refused action {a!r} changed the state")
                        break
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
                if steps % 25 == 0 and GAME.invariants(s):
                    tally.bad("broken", i, "; ".join(GAME.invariants(s)))
                    break
                if steps > 20_000:
                    tally.bad("hang", i, "game did not end within 20,000 decisions")
                    break
            else:
                problems = GAME.invariants(s)
                hk.State.from_json(s.to_json())
                if problems:
                    tally.bad("broken", i, "; ".join(problems))
        except Exception as exc:  # noqa: BLE001 - counting raw exceptions is the point
            tally.bad("raw", i, short_tb(exc))
        if time.monotonic() - t0 > SLOW:
            tally.bad("hang", i, f"game took {time.monotonic() - t0:.0f} s")
        yield


# ============================================================================ corrupt saves


def save_pool(game, rng, k=60):
    """Saves of ``game``'s games stopped at random points, in every phase."""
    pool = []
    settings = game.settings()
    for j in range(k):
        st = settings[j % len(settings)]
        extra = {"auto_chance": False} if game.name == "haunted" and j % 6 == 0 else {}
        s = game.new_game(seed=1000 + j, **st, **extra)
        random_steps(s, random.Random(j), rng.choice([0, 1, 5, 30, 80, 10**9]))
        pool.append(s.to_dict())
    return pool


def plays_on(game, s, rng, limit=20_000):
    """Play ``s`` to the end with random decisions; returns a problem or None."""
    steps = 0
    invariants = getattr(game, "invariants", lambda s, b=None: [])
    while not s.is_terminal():
        problems = invariants(s)
        if problems:
            return "; ".join(problems)
        try:
            if s.is_chance_node():
                outs = s.chance_outcomes()
                if not outs:
                    return "a chance node without outcomes"
                s.apply_chance(rng.choice([o for o, _ in outs]))
            else:
                legal = s.legal_actions()
                if not legal:
                    return "nobody can move in a running game"
                s.apply_action(legal[rng.randrange(len(legal))])
        except hk.ChanceError:
            # a forced outcome (saved from force_chance) that does not fit its chance node
            # is dropped and the game waits there: the documented behaviour, not a fault
            if not s.is_chance_node():
                return "ChanceError without a chance node waiting"
        steps += 1
        if steps > limit:
            return "hang"
    return None


def fuzz_saves(n, tally, seed0=0):
    for name, k in shares(n).items():
        game = get_game(name)
        pool = save_pool(game, random.Random(seed0))
        for i in range(k):
            tally.c["tried"] += 1
            rng = random.Random(seed0 * 7919 + i)
            data, paths = mutate_json(rng.choice(pool), rng, edits=rng.choice((1, 1, 2, 3)))
            t0 = time.monotonic()
            try:
                text = json.dumps(data)  # Infinity / NaN written as JSON readers accept them
            except (ValueError, TypeError):
                text = repr(data)
            try:
                s = hk.State.from_json(text) if name == "haunted" else load_state(game, json.loads(text))
            except ValueError:  # SaveError, or the module's own save error (a ValueError by the protocol)
                tally.c["refused"] += 1
                yield
                continue
            except Exception as exc:  # noqa: BLE001
                tally.bad("raw", f"{name} {i}", f"{paths}: {short_tb(exc)}")
                yield
                continue
            tally.c["accepted"] += 1
            try:
                if name == "haunted":
                    summary(s)
                s.observation(0)
                again = load_state(game, json.loads(json.dumps(s.to_dict())))
                if again.to_dict() != s.to_dict():
                    tally.bad("broken", f"{name} {i}", f"{paths}: the loaded save does not round-trip")
                problem = plays_on(game, s, rng)
                if problem == "hang":
                    tally.bad("hang", f"{name} {i}", f"{paths}: the loaded game does not end")
                elif problem:
                    tally.bad("broken", f"{name} {i}", f"{paths}: {problem}")
                elif name == "haunted":
                    summary(s)
            except Exception as exc:  # noqa: BLE001
                tally.bad("broken", f"{name} {i}", f"{paths}: {short_tb(exc)}")
            if time.monotonic() - t0 > SLOW:
                tally.bad("hang", f"{name} {i}", f"{paths}: {time.monotonic() - t0:.0f} s")
            yield


# ============================================================================ box edits


def fuzz_boxes(n, tally, seed0=0):
    tmp = Path(tempfile.mkdtemp(prefix="hk-fuzz-box-"))
    try:
        for name, k in shares(n).items():
            game = get_game(name)
            src = DATA / BOX_FOLDERS[name]
            files = sorted(p.name for p in src.iterdir() if p.is_file())
            texts = {f: (src / f).read_text(encoding="utf-8") for f in files}
            for i in range(k):
                tally.c["tried"] += 1
                rng = random.Random(seed0 * 7919 + i)
                d = tmp / f"{name}{i}"
                shutil.copytree(src, d)
                file = rng.choice(files)
                new = mutate_text(texts[file], rng)
                (d / file).write_bytes(new if isinstance(new, bytes) else new.encode("utf-8"))
                t0 = time.monotonic()
                try:
                    box = game.load_box(d)
                except ValueError:  # BoxError, or the module's own box error
                    tally.c["refused"] += 1
                except Exception as exc:  # noqa: BLE001
                    tally.bad("raw", f"{name} {i}", f"{file}: {short_tb(exc)}")
                else:
                    tally.c["accepted"] += 1
                    report = check_box(box, game=game, games=1, seed=i, max_steps=5000, save_every=0)
                    for f in report.failures:
                        what = "hang" if "did not end" in f.problem else "broken"
                        tally.bad(what, f"{name} {i}", f"{file}: {f}")
                        break
                if time.monotonic() - t0 > SLOW:
                    tally.bad("hang", f"{name} {i}", f"{file}: {time.monotonic() - t0:.0f} s")
                shutil.rmtree(d, ignore_errors=True)
                yield
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ============================================================================ command line


def cli_cases(tmp: Path, rng: random.Random):
    good = tmp / "good.json"
    corrupt = tmp / "corrupt.json"
    latin = tmp / "latin.json"
    bad_box = tmp / "badbox"
    if not good.exists():
        hk.new_game(players=2, seed=1).save(good)
        corrupt.write_text(good.read_text()[:500])
        latin.write_bytes(b'{"format": "haunted-kit-save", "caf\xe9": 1}')
        shutil.copytree(DATA, bad_box)
        (bad_box / "market_cards.toml").write_text("market_cards = {}\n")
        (tmp / "ro").mkdir()
        (tmp / "ro" / "x").write_text("")
    words = ["play", "replay", "check-box", "classroom", "--players", "--mode", "--seed", "--agents", "--ghost-cards",
             "--log", "--save", "--box", "--max-bytes", "--games", "--max-steps", "--report", "--port", "--size",
             "--bots", "--game", "estate", "-h", "2", "3", "5", "-1", "0", "1e3", "nan", ",", "1,,2", "greedy,random", "citizen", "hero",
             str(good), str(corrupt), str(latin), str(bad_box), str(tmp / "missing" / "x.json"), str(tmp),
             str(tmp / "out.json"), str(tmp / "out.csv"), str(tmp / "ro" / "x" / "y"), "/nonexistent", "", "é", "--"]
    fixed = [["play", "--save", str(tmp / "o.json"), "--log", str(tmp / "o.json")],
             ["play", "--ghost-cards", ","], ["play", "--box", "/nonexistent"], ["replay", str(corrupt)],
             ["replay", str(latin)], ["replay", str(tmp)], ["check-box", str(bad_box), "--no-progress"],
             ["play", "--players", "2", "--log", str(tmp / "missing" / "g.csv")], ["replay", str(good), "--max-bytes", "10"],
             ["play", "--game", "estate", "--players", "9"], ["play", "--game", "chess"],
             ["check-box", str(bad_box), "--game", "estate", "--no-progress"], ["simulate"],
             ["simulate", "--out", str(tmp / "sim"), "--players", "9"], ["simulate", "--out", str(tmp / "sim"), "--games", "-1"]]
    k = 0
    while True:
        if k < len(fixed):
            yield fixed[k]
        else:
            argv = [rng.choice(words[:4])] + [rng.choice(words) for _ in range(rng.randrange(6))]
            if "play" in argv[:1] and "--players" not in argv:
                argv += ["--players", "2"]
            if argv[0] in ("classroom",):  # never start a server: help or a usage error only
                argv += ["--port", "-5"]
            if argv[0] == "check-box":
                argv += ["--games", "1", "--no-progress"]
            yield argv
        k += 1


def fuzz_cli(n, tally, seed0=0):
    tmp = Path(tempfile.mkdtemp(prefix="hk-fuzz-cli-"))
    rng = random.Random(seed0)
    try:
        cases = cli_cases(tmp, rng)
        for i in range(n):
            argv = next(cases)
            tally.c["tried"] += 1
            out, err = io.StringIO(), io.StringIO()
            t0 = time.monotonic()
            try:
                # run in the scratch folder: a case naming a relative output path writes there
                with contextlib.chdir(tmp), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = cli_main(argv)
            except SystemExit as exc:
                code = exc.code
            except Exception as exc:  # noqa: BLE001
                tally.bad("raw", i, f"{argv}: {short_tb(exc)}")
                yield
                continue
            if code not in (0, 1, 2) or "Traceback" in err.getvalue():
                tally.bad("raw", i, f"{argv}: exit {code}, {err.getvalue()[-200:]}")
            else:
                tally.c["refused" if code else "accepted"] += 1
            if time.monotonic() - t0 > SLOW:
                tally.bad("hang", i, f"{argv}: {time.monotonic() - t0:.0f} s")
            yield
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ============================================================================ main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every count (default 1)")
    ap.add_argument("--games", type=number_at_least(0), default=10_000)
    ap.add_argument("--saves", type=number_at_least(0), default=50_000)
    ap.add_argument("--boxes", type=number_at_least(0), default=5_000)
    ap.add_argument("--cli", type=number_at_least(0), default=2_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", action="append", choices=list(BOX_FOLDERS), default=[],
                    help="fuzz only this game (repeatable; default every registered game)")
    args = ap.parse_args(argv)
    GAMES_CHOSEN[:] = args.game
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        tqdm = None
    tallies = []
    t_all = time.process_time()
    for kind, fn, count in (("games", fuzz_games, args.games), ("saves", fuzz_saves, args.saves),
                            ("boxes", fuzz_boxes, args.boxes), ("cli", fuzz_cli, args.cli)):
        n = math.ceil(count * args.scale)
        tally = Tally(kind)
        tallies.append(tally)
        if n <= 0:
            continue
        t0 = time.process_time()
        it = fn(n, tally, args.seed)
        if tqdm is not None and sys.stderr.isatty():
            it = tqdm(it, total=n, desc=kind, unit="input", file=sys.stderr)
        for _ in it:
            pass
        tally.c["cpu_s"] = round(time.process_time() - t0)
    print(f"benchmarks/fuzz.py --scale {args.scale:g} --seed {args.seed} games {', '.join(args.game) or 'all'}: "
          f"{args.games:,} games, {args.saves:,} saves, {args.boxes:,} box edits, {args.cli:,} CLI cases before scaling "
          f"(CPU {time.process_time() - t_all:.0f} s)")
    for t in tallies:
        print(t.row() + (f"  ({t.c['cpu_s']} s CPU)" if t.c["cpu_s"] else ""))
        if t.kind == "games" and t.c["actions"]:
            print(f"       hostile actions tried {t.c['actions']:,}: refused {t.c['refused actions']:,}, "
                  f"accepted {t.c['accepted actions']:,}")
        for what in ("raw", "hang", "broken"):
            for ex in t.examples[what]:
                print(f"       {what}: {ex}")
    bad = sum(t.c[w] for t in tallies for w in ("raw", "hang", "broken"))
    print(f"TOTAL raw exceptions {sum(t.c['raw'] for t in tallies)}, hangs {sum(t.c['hang'] for t in tallies)}, "
          f"accepted-but-broken {sum(t.c['broken'] for t in tallies)}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
