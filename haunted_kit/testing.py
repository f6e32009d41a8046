"""Check a box (house rules) by playing it: seeded random games, invariants after every step.

The loader (:func:`haunted_kit.load_box`) refuses every inconsistency it can see in
the files. What only shows in play (a house rule that lets a game run forever, a
decision nobody can take, a state the rules could never produce) is found here, like
OpenSpiel's random simulation test: :func:`check_box` plays seeded games over every
setting the game offers (every mode and player count for Haunted Lands), takes random
legal decisions and random chance outcomes, and after every step checks:

* the protocol's promises: a running game has a player to move with at least one
  legal action or a chance node with outcomes whose probabilities sum to 1; a
  finished game has no legal action and one return per player; every listed action
  is legal by :meth:`why_not`; no step raises;
* the game's own invariants (``game.invariants(state)``, if the module has them:
  for Haunted Lands the save loader's checks, e.g. pieces adding up to the box,
  valor never going down);
* every ``save_every`` steps and at the end: the save round-trips (``to_dict`` ->
  ``from_dict`` -> the same ``to_dict``);
* the game ends within ``max_steps`` steps.

Any failure is reported with the setting, the seed and the step, and
:func:`replay_failure` rebuilds the state just before it. ``haunted-kit check-box DIR``
runs the same from the command line.

The module talks to a game only through :mod:`haunted_kit.protocol` and the registry
:mod:`haunted_kit.games`, so it serves every rule module. Two optional methods of a
:class:`~haunted_kit.protocol.Game` object widen the check: ``settings(box)`` (the
``new_game`` keyword sets to cover; default: every player count) and
``invariants(state, before)`` (problems in words, ``before`` the previous state or
``None``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import random
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any

from .games import DEFAULT_GAME, DecisionCapReached, box_words, decision_cap, get_game, hook, load_state, start_game
from .play import play_out
from .protocol import IllegalAction, agent_table, check_seed, is_integer, seat_seed
from .search import determinise
from .frames import nullable

__all__ = ["BoxReport", "Failure", "KIND_GAMES", "KindStep", "REFUSAL_ERRORS", "changed_fields", "check_box", "continuation",
           "continuation_elsewhere", "decision_kinds", "determinisation_problems", "game_settings", "kind_problems",
           "reach_decision_kinds", "malformed_forms", "other_actions", "play_checked", "random_steps", "refusal_problem",
           "replay_failure", "sampled_positions", "state_json"]


@dataclass(frozen=True)
class Failure:
    """One problem found in play.

    Attributes:
        game: the rule module's short name.
        setting: the ``new_game`` keywords (``players``, ``mode``...).
        seed: the game's seed; the decisions are drawn from ``random.Random(seed)``.
        step: steps (decisions and chance outcomes) applied before the problem.
        problem: the problem in one line.
        detail: the traceback of an exception, else ``""``.
    """

    game: str
    setting: dict
    seed: int
    step: int
    problem: str
    detail: str = ""

    def __str__(self) -> str:
        where = ", ".join(f"{k}={v}" for k, v in self.setting.items())
        return f"{where}, seed {self.seed}, step {self.step}: {self.problem}"


@dataclass
class BoxReport:
    """What :func:`check_box` found.

    Attributes:
        box: the box's folder.
        game: the rule module's short name.
        games: games played.
        steps: decisions and chance outcomes applied, in all games.
        finished: games that reached the end.
        failures: every problem found (at most one per game: a game stops at its first).
        rows: one dict per game (setting, seed, agents, steps, result), the bots' games too.
        bot_games: games played by the kit's bots (``agents``) under the decision cap.
        capped: the bots' games that did not end within the cap, one
            :class:`~haunted_kit.games.DecisionCapReached` each (its ``seed``, its message).
        cap_words: the box with its house-rule values, in words (set when a game was capped).
    """

    box: str
    game: str
    games: int = 0
    steps: int = 0
    finished: int = 0
    failures: list[Failure] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)
    bot_games: int = 0
    capped: list = field(default_factory=list)
    cap_words: str = ""

    @property
    def ok(self) -> bool:
        """``True`` when no game found a problem and every bot game ended within the cap."""
        return not self.failures and not self.capped

    def to_frame(self):
        """One row per game as a :class:`pandas.DataFrame`."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return nullable(pd.DataFrame(self.rows))

    def __str__(self) -> str:
        lines = [f"Box check of {self.box} ({self.game}): {self.games} games, {self.steps:,} steps, "
                 f"{self.finished} finished, {len(self.failures)} failure{'s' if len(self.failures) != 1 else ''}."]
        for f in self.failures:
            lines.append(f"  FAIL {f}")
        if self.bot_games:
            lines.append(f"Bots: {self.bot_games} games, {self.bot_games - len(self.capped)} ended within the "
                         f"decision cap.")
        if self.capped:
            by = {}
            for row in self.rows:
                if row.get("capped"):
                    where = ", ".join(f"{k}={v}" for k, v in row.items() if k not in _ROW_RESULTS)
                    by.setdefault(f"{where} (cap {row['cap']:,})", []).append(str(row["seed"]))
            lines.append(f"  WARNING {len(self.capped)} of {self.bot_games} bot games did not end within the "
                         f"decision cap; box: {self.cap_words}")
            lines += [f"    {where}: seeds {', '.join(seeds)}" for where, seeds in by.items()]
        if self.failures:
            lines.append("Rebuild a failing game with haunted_kit.testing.replay_failure(failure, box).")
        elif self.capped:
            lines.append("Games under this box may never end: a house rule may let a turn run for ever.")
        else:
            lines.append("No problem found: every game kept the invariants after every step"
                         + (" and the bots' games ended." if self.bot_games else "."))
        return "\n".join(lines)


#: a report row's result columns (the rest name the game: setting, agents)
_ROW_RESULTS = ("seed", "steps", "finished", "problem", "capped", "cap")


def random_steps(s, rng: random.Random, steps: int) -> int:
    """Play at most ``steps`` seeded random steps on ``s`` (in place): a uniform legal action
    when a player is to move, a uniform chance outcome (not weighted by its probability)
    at a chance node. Stops early at the end of the game. Returns the steps played."""
    k = 0
    while not s.is_terminal() and k < steps:
        if s.is_chance_node():
            s.apply_chance(rng.choice([o for o, _ in s.chance_outcomes()]))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        k += 1
    return k


def _settings(game, box) -> list[dict]:
    if hasattr(game, "settings"):
        return [dict(s) for s in game.settings(box)]
    return [{"players": n} for n in range(game.min_players, game.max_players + 1)]


def _protocol_problems(s) -> str | None:
    """Problems with the protocol's promises in state ``s`` (None if none)."""
    if s.is_terminal():
        if s.legal_actions():
            return "a finished game lists legal actions"
        if len(s.returns()) != s.players:
            return f"a finished game returns {len(s.returns())} values for {s.players} players"
        return None
    if s.is_chance_node():
        outs = s.chance_outcomes()
        if not outs:
            return "a chance node has no outcomes"
        total = sum(p for _, p in outs)
        if abs(total - 1) > 1e-9 or any(p <= 0 for _, p in outs):
            return f"a chance node's probabilities sum to {total} (must be 1, each above 0)"
        return None
    if s.current_player() is None:
        return "the game is neither finished nor at a chance node, yet nobody is to move"
    if not s.legal_actions():
        return f"player {s.current_player()} is to move but has no legal action"
    return None


def play_checked(game, box, setting: dict, seed: int, *, max_steps: int = 20_000, save_every: int = 50,
                 stop_before: int | None = None):
    """Play one seeded random game and check it after every step.

    Args:
        game: a :class:`~haunted_kit.protocol.Game` or its short name.
        box: the box to play with (``None``: the module's default).
        setting: ``new_game`` keywords (``players``, ``mode``...).
        seed: the game's seed and the seed of the random decisions.
        max_steps: a game still running after this many steps is a failure.
        save_every: round-trip the save every this many steps (and at the end).
        stop_before: return the state just before this step (for :func:`replay_failure`).

    Returns:
        ``(state, steps, failure)``: the last state, steps applied, and a
        :class:`Failure` or ``None``.
    """
    game = get_game(game) if isinstance(game, str) else game
    rng = random.Random(seed)
    invariants = getattr(game, "invariants", None)
    step = 0
    s = None

    def fail(problem, detail=""):
        return s, step, Failure(game.name, dict(setting), seed, step, problem, detail)

    try:
        kw = dict(setting)
        if box is not None:
            kw["box"] = box
        s = game.new_game(seed=seed, **kw)
        before = None
        while True:
            problem = _protocol_problems(s)
            if problem is None and invariants is not None:
                found = invariants(s, before)
                problem = "; ".join(found) if found else None
            if problem is None and (s.is_terminal() or (save_every and step % save_every == 0)):
                problem = _round_trip_problem(game, box, s)
            if problem:
                return fail(problem)
            if s.is_terminal() or step == stop_before:
                return s, step, None
            if step >= max_steps:
                return fail(f"the game did not end within {max_steps:,} steps")
            before = s.copy()
            if s.is_chance_node():
                outs = s.chance_outcomes()
                outcome = rng.choices([o for o, _ in outs], weights=[p for _, p in outs])[0]
                s.apply_chance(outcome)
            else:
                legal = s.legal_actions()
                action = legal[rng.randrange(len(legal))]
                refusal = s.why_not(action)
                if refusal is not None:
                    return fail(f"listed action {action!r} is refused: {refusal}")
                s.apply_action(action)
            step += 1
    except Exception as exc:  # any exception in play is what this check looks for
        return fail(f"{type(exc).__name__}: {exc}", traceback.format_exc())


def _round_trip_problem(game, box, s) -> str | None:
    try:
        data = s.to_dict()
        again = load_state(game, data, box).to_dict()
    except ValueError as exc:
        return f"the save of this state is refused: {exc}"
    if again != data:
        diff = sorted(k for k in set(data) | set(again) if data.get(k) != again.get(k))
        return f"the save does not round-trip (fields {', '.join(diff)} change)"
    return None


def check_box(box=None, *, game: Any = DEFAULT_GAME, games: int = 3, seed: int = 0, max_steps: int = 20_000,
              save_every: int = 50, progress=False, agents=("greedy",), bot_games: int = 20,
              cap: int | None = None) -> BoxReport:
    """Play ``games`` seeded random games per setting of ``box`` and check every step;
    then ``bot_games`` seeds per setting with the kit's bots, which a house rule can send
    round in circles where random play does not, each stopped at the decision cap.

    Args:
        box: a loaded box (:func:`haunted_kit.load_box`), a folder to load, or ``None``
            for the module's reference box.
        game: the rule module (short name or :class:`~haunted_kit.protocol.Game`).
        games: games per setting (every mode x every player count for Haunted Lands).
        seed: the first seed; game ``i`` of a setting uses seed ``seed + i``.
        max_steps: steps after which a running game counts as never ending.
        save_every: steps between save round-trips.
        progress: show a progress bar (tqdm, on stderr); or a function ``progress(done, total)``
            called before the first game (``done`` 0) and after each game (a widget's bar).
        agents: the bots that play each setting (:func:`haunted_kit.play.play_out`, every seat
            the same bot); those the game does not have are skipped (Nim without agents plays
            only the random games).
        bot_games: seeds ``seed .. seed + bot_games - 1`` per setting and bot (0: none). A bot
            game is quick (Haunted Lands: about 2 ms), so more seeds than random games: with 3,
            the issue-30 house rule's first endless seeds (4 and 7) went unseen.
        cap: the bots' decision cap (default: :func:`haunted_kit.games.decision_cap` of the
            game); a bot game still running there is reported in ``report.capped`` with its
            seed, and the report names the box's house-rule values.

    Returns:
        a :class:`BoxReport`; ``report.ok`` is ``True`` when nothing was found and every bot
        game ended.

    Raises:
        BoxError: ``box`` is a folder that does not load (or the module's own error).
        ValueError: ``seed`` or the last seed ``seed + games - 1`` is not a seed of the
            kit (:func:`~haunted_kit.protocol.check_seed`), ``games`` < 1, ``bot_games`` < 0
            or a bad ``cap``.
    """
    g = get_game(game) if isinstance(game, str) else game
    if box is not None and not hasattr(box, "fingerprint") and hasattr(g, "load_box"):
        box = g.load_box(box)
    seed = _check_counts(g, seed, games, bot_games, cap)
    settings = _settings(g, box)
    report = BoxReport(box=str(getattr(box, "path", None) or "the reference box"), game=g.name)
    table = agent_table(g)
    bots = [a for a in agents if a in table and a != "random"]
    plan = [(st, seed + i, "random") for st in settings for i in range(games)]
    plan += [(st, seed + i, a) for st in settings for a in bots for i in range(bot_games)]
    tell = progress if callable(progress) else None
    bar = _progress_bar(len(plan)) if progress and tell is None else None
    if tell is not None:
        tell(0, len(plan))
    for played, (st, sd, agent) in enumerate(plan, start=1):
        if agent != "random":
            _bot_game(report, g, box, st, sd, agent, cap)
        else:
            _random_game(report, g, box, st, sd, max_steps, save_every)
        if bar is not None:
            bar.update(1)
        if tell is not None:
            tell(played, len(plan))
    if bar is not None:
        bar.close()
    return report


def _check_counts(g, seed, games, bot_games, cap) -> int:
    """:func:`check_box`'s seeds and counts checked (every seed played a seed of the kit);
    returns the first seed. Raises ValueError."""
    seed = check_seed(seed)
    if not is_integer(games) or games < 1:
        raise ValueError(f"games must be a positive whole number, got {games!r}")
    check_seed(seed + games - 1, "the last seed (seed + games - 1)")
    if not is_integer(bot_games) or bot_games < 0:
        raise ValueError(f"bot_games must be a whole number >= 0, got {bot_games!r}")
    check_seed(seed + max(bot_games, 1) - 1, "the last seed of the bots (seed + bot_games - 1)")
    if cap is not None:
        decision_cap(g, None, cap)  # a bad cap: refused before anything is played
    return seed


def _progress_bar(total: int):
    """A tqdm bar over ``total`` games, or None without tqdm."""
    try:
        from tqdm.auto import tqdm  # lazy: progress bars only when asked for

        bar = tqdm(total=total, desc="games", unit="game")
    except ImportError:  # pragma: no cover - tqdm is a jupyter extra
        bar = None
    return bar


def _random_game(report: BoxReport, game, box, setting: dict, seed: int, max_steps: int, save_every: int) -> None:
    """Play one seeded random game of ``setting`` checking every step, and count it on ``report``."""
    s, steps, failure = play_checked(game, box, setting, seed, max_steps=max_steps, save_every=save_every)
    report.games += 1
    report.steps += steps
    done = failure is None and s is not None and s.is_terminal()
    report.finished += done
    if failure is not None:
        report.failures.append(failure)
    report.rows.append({**setting, "agents": "random", "seed": seed, "steps": steps, "finished": done,
                        "problem": failure.problem if failure else "", "capped": False, "cap": 0})


def _bot_game(report: BoxReport, game, box, setting: dict, seed: int, agent: str, cap: int | None) -> None:
    """One game of ``check_box`` played by ``agent`` in every seat (the kit's play loop,
    :func:`haunted_kit.play.play_out`, under the decision cap), added to ``report``."""
    kw = dict(setting)
    if box is not None:
        kw["box"] = box
    state, problem, capped, limit = None, "", False, 0
    try:
        state = start_game(game, players=kw.pop("players"), seed=seed, **kw)
        limit = decision_cap(game, state, cap)
        play_out(state, (agent,), seed=seed, game=game, cap=limit, what="check-box")
    except DecisionCapReached as exc:
        capped, problem = True, f"did not end within {exc.cap:,} decisions"
        report.capped.append(exc)
        report.cap_words = box_words(game, box if box is not None else getattr(game, "box_of", lambda s: None)(state))
    except Exception as exc:  # any exception in play is what this check looks for
        problem = f"{type(exc).__name__}: {exc}"
        report.failures.append(Failure(game.name, {**setting, "agents": agent}, seed, 0, problem, traceback.format_exc()))
    report.bot_games += 1
    steps = len(state.history()) if state is not None else 0
    report.steps += steps
    report.rows.append({**setting, "agents": agent, "seed": seed, "steps": steps,
                        "finished": state is not None and state.is_terminal(), "problem": problem, "capped": capped,
                        "cap": limit if state is not None else 0})


def replay_failure(failure: Failure, box=None, game=None):
    """The state just before ``failure``'s step, rebuilt by replaying its seeded game
    (so the failing step can be looked at and tried again). ``game`` is the rule
    module if it is not registered under ``failure.game``."""
    s, _, _ = play_checked(game or failure.game, box, failure.setting, failure.seed, stop_before=failure.step,
                           max_steps=failure.step + 1, save_every=0)
    return s


# ============================================================================ mutations, for fuzzing

#: Replacement values a mutation may put in place of a number or a JSON value.
ODD_NUMBERS = ("-1", "0", "1", "2", "7", "999", "1000", "100000000000000000000000", "1.0", "1.5", "-0", "nan", "inf",
               "true", '"3"', "[]", "{}")
ODD_JSON = (None, True, False, -1, 0, 1, 2, 7, 99, 10**9, 10**30, -(10**30), 1.0, 0.5, float("inf"), float("nan"),
            "", "x", "covered", [], {}, [0, 0], [1, 2, 3], {"a": 1})


def _odd(rng: random.Random):
    """A copy of one of :data:`ODD_JSON` (its lists and tables are never put in as they are)."""
    return copy.deepcopy(rng.choice(ODD_JSON))


def mutate_text(text: str, rng: random.Random) -> str | bytes:
    """One random edit of a data file's text, as a hostile or careless user might make:
    a number, string or line changed, deleted, duplicated or swapped, a Latin-1 byte, a
    cut-off file. Returns text, or bytes when the edit is not UTF-8."""

    lines = text.split("\n")
    kind = rng.randrange(9)
    if kind <= 2:  # a number replaced
        spots = [m.span() for m in re.finditer(r"(?<![\w.])-?\d+(?![\w.])", text)]
        if spots:
            a, b = rng.choice(spots)
            return text[:a] + rng.choice(ODD_NUMBERS) + text[b:]
    if kind == 3:  # a string replaced by another string of the file
        spots = [m.span() for m in re.finditer(r'"[^"\n]*"', text)]
        if spots:
            a, b = rng.choice(spots)
            x, y = rng.choice(spots)
            return text[:a] + (text[x:y] if rng.random() < 0.8 else '""') + text[b:]
    if kind == 4 and lines:  # a line deleted
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if kind == 5 and lines:  # a line duplicated
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if kind == 6 and len(lines) > 1:  # two lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == 7:  # a Latin-1 byte
        raw = text.encode("utf-8")
        i = rng.randrange(len(raw) + 1)
        return raw[:i] + bytes([rng.choice((0xE9, 0xE0, 0xFC, 0xA0))]) + raw[i:]
    return text[:rng.randrange(len(text) + 1)]  # cut off


def mutate_json(data, rng: random.Random, edits: int = 1):
    """A deep copy of JSON-like ``data`` with ``edits`` random edits: a value replaced
    (by an odd number, a wrong type, infinity, NaN, a huge int), a key deleted or
    added, a list shortened or lengthened. Returns ``(copy, paths)`` where ``paths``
    names each edited place, e.g. ``"players[1].pecunias"``. Every value put in is a copy of
    its own (no two places of the copy, nor :data:`ODD_JSON`, share a list or table, so a
    later edit changes one place only and the copy never contains itself)."""

    out = copy.deepcopy(data)
    paths = []
    for _ in range(edits):
        parent, key, path = None, None, ""
        node = out
        # walk down to a random place, stopping early sometimes
        while isinstance(node, (dict, list)) and node and rng.random() < 0.85:
            k = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            parent, key = node, k
            path += f".{k}" if isinstance(node, dict) else f"[{k}]"
            node = node[k]
        if parent is None:
            continue
        what = rng.randrange(6)
        if what <= 2:
            parent[key] = _odd(rng)
        elif what == 3 and isinstance(parent, dict):
            del parent[key]
        elif what == 3:
            parent.pop(key)
        elif what == 4 and isinstance(node, list) and node:
            node.append(copy.deepcopy(rng.choice(node)) if rng.random() < 0.5 else _odd(rng))
        elif what == 4 and isinstance(node, dict):
            node[rng.choice(("extra", "x", "0"))] = _odd(rng)
        elif is_integer(node):
            parent[key] = node + rng.choice((-1, 1, 2, -2, 10**6))
        else:
            parent[key] = _odd(rng)
        paths.append(path.lstrip("."))
    return out, paths


# ============================================================================ protocol conformance

#: Exceptions a refused action may raise: the protocol's IllegalAction, or a ValueError
#: (each game's action-format error) while reading a malformed JSON form. Anything else
#: (TypeError, KeyError, AttributeError...) is a fault the conformance checks report.
REFUSAL_ERRORS = (IllegalAction, ValueError)


def game_settings(game, box=None) -> list[dict]:
    """The ``new_game`` keyword sets a game offers (its ``settings(box)``, else every
    player count), as :func:`check_box` covers them."""
    return _settings(get_game(game) if isinstance(game, str) else game, box)


def sampled_positions(game, setting: dict, seed: int, every: int = 5, limit: int = 10_000) -> list:
    """Copies of the positions of one seeded random game (:func:`random_steps` with
    ``random.Random(seed)``, the game started with ``seed``): the start and every
    ``every``-th step after it, the last position included. At most ``limit`` steps."""
    s = game.new_game(seed=seed, **setting)
    rng = random.Random(seed)
    out = [s.copy()]
    steps = 0
    while not s.is_terminal() and steps < limit:
        steps += random_steps(s, rng, every)
        out.append(s.copy())
    return out


def determinisation_problems(game, state, player: int, twins=(), seeds=(0, 1, 2)) -> list[str]:
    """What is wrong with the determinisations of ``state`` for ``player`` (the kit's one
    path, :func:`haunted_kit.search.determinise`; empty when nothing): each must look to
    ``player`` as ``state`` does (``observation(player)``, the event log aside) and be a
    function of that observation and the generator alone. Checked against twin
    positions, which ``player`` sees alike but whose hidden parts differ: ``twins`` (e.g.
    with forced chance outcomes, other hands, another seed) and, for each of ``seeds``, a
    determinisation of ``state`` itself; for every seed the twin's determinisation must
    have the same save (``to_dict()``) as ``state``'s.

    Raises:
        ValueError: a twin that ``player`` does not see as ``state`` (a mistake of the caller).
    """
    def seen(s):
        return {k: v for k, v in s.observation(player).items() if k != "log"}

    base = seen(state)
    for i, twin in enumerate(twins):
        if seen(twin) != base:
            raise ValueError(f"twin {i} does not look to P{player + 1} as the position does: not a twin")
    problems = []
    for k in seeds:
        made = determinise(game, state, player, random.Random(k))
        if seen(made) != base:
            problems.append(f"seed {k}: P{player + 1}'s determinisation does not look to them as the position does")
        want = made.to_dict()
        for i, twin in enumerate([*twins, determinise(game, state, player, random.Random(10_000 + k))]):
            got = determinise(game, twin, player, random.Random(k)).to_dict()
            if got != want:
                diff = sorted(key for key in set(want) | set(got) if want.get(key) != got.get(key))
                problems.append(f"seed {k}: twin {i} (seen alike by P{player + 1}) gives another determinisation "
                                f"(save keys differing: {', '.join(diff)}): it reads hidden information")
    return problems


def state_json(s) -> str:
    """The save of ``s`` as canonical JSON text (sorted keys): two positions are the same
    exactly when these texts are equal. Values JSON cannot hold are written with repr."""
    return json.dumps(s.to_dict(), sort_keys=True, default=repr)


def refusal_problem(s, action=None, data=None, game=None) -> str | None:
    """Apply an action that must be refused to ``s`` and say what went wrong, or ``None``.

    ``action`` is applied as it is; ``data`` (a JSON form) is read first with
    ``game.action_from_dict``. The action must be refused with :data:`REFUSAL_ERRORS`
    (an :class:`~haunted_kit.protocol.IllegalAction` from ``apply_action``, or a
    ValueError from the reader) and ``s`` must be byte-identical afterwards
    (:func:`state_json`). Returns the problem in one line."""
    before = state_json(s)
    what = repr(action) if data is None else f"the JSON form {data!r}"
    try:
        a = action if data is None else game.action_from_dict(data)
        s.apply_action(a)
    except REFUSAL_ERRORS as exc:
        if not str(exc):
            return f"{what} is refused with an empty message"
    except Exception as exc:  # any other exception is the fault this check looks for
        return f"{what} raises {type(exc).__name__}: {exc}"
    else:
        return f"{what} is accepted"
    if state_json(s) != before:
        return f"{what} is refused but the state changed"
    return None


def malformed_forms(data: dict) -> list:
    """Malformed JSON forms derived from one action's JSON form ``data``: not an object,
    no ``"type"``, ``"type"`` as a list, an object, a number or an unknown name, each
    field missing, each field of a wrong type (list, object, float, bool, None, a huge
    number, a string) and an extra field."""
    out = [None, [], "x", 3, {}, dict(data, type=[data.get("type")]), dict(data, type={"name": data.get("type")}),
           dict(data, type=7), dict(data, type="no_such_action"), {k: v for k, v in data.items() if k != "type"},
           dict(data, unexpected_field=1)]
    for k in data:
        if k == "type":
            continue
        out.append({x: v for x, v in data.items() if x != k})
        for bad in ([], {}, 1.5, True, None, 10 ** 30, "nowhere", [[1, 2], "x"]):
            if bad != data[k] or type(bad) is not type(data[k]):
                out.append(dict(data, **{k: bad}))
    return out


def changed_fields(data: dict) -> list[dict]:
    """Variants of a legal action's JSON form with one field changed to another value of
    the same kind (a number moved, a name replaced, a pair shifted): well formed, mostly
    illegal. The caller skips those that happen to be legal."""
    out = []
    for k, v in data.items():
        if k == "type":
            continue
        if is_integer(v):
            out += [dict(data, **{k: v + 1000}), dict(data, **{k: -1 - v})]
        elif isinstance(v, str):
            out.append(dict(data, **{k: v + "_nowhere"}))
        elif isinstance(v, list) and v and all(is_integer(x) for x in v):
            out.append(dict(data, **{k: [x + 50 for x in v]}))
    return out


def other_actions(s, pool) -> list:
    """The actions of ``pool`` (legal actions gathered at other positions and seats)
    that are not legal in ``s``: well-formed actions that must be refused here."""
    legal = s.legal_actions()
    return [a for a in pool if a not in legal]


def continuation(save: dict, game_name: str, seed: int, steps: int) -> list:
    """The action record (JSON forms; chance outcomes as text) of ``steps`` seeded random
    steps (:func:`random_steps` with ``random.Random(seed)``) played from the save
    ``save`` of game ``game_name``, from the step after the save on. Run in two processes
    on the same save, it must give the same list."""
    g = get_game(game_name)
    s = load_state(g, save)
    start = len(s.history())
    random_steps(s, random.Random(seed), steps)
    return [[e.player, repr(e.action) if e.chance else g.action_to_dict(e.action)] for e in s.history()[start:]]


def continuation_elsewhere(jobs: list[dict], python: str | None = None, timeout: float = 120) -> list:
    """:func:`continuation` of each job (``{"save", "game", "seed", "steps"}``) in a fresh
    Python process (``sys.executable`` by default), so nothing of this process's memory
    (caches, shared objects, module state) can carry over. Returns one record per job.

    Raises:
        RuntimeError: the other process failed (its error output in the message)."""
    code = ("import json, sys\nfrom haunted_kit.testing import continuation\n"
            "jobs = json.load(sys.stdin)\n"
            "print(json.dumps([continuation(j['save'], j['game'], j['seed'], j['steps']) for j in jobs]))\n")
    run = subprocess.run([python or sys.executable, "-c", code], input=json.dumps(jobs), capture_output=True, text=True,
                         timeout=timeout, env={**os.environ, "PYTHONHASHSEED": "random"})
    if run.returncode != 0:
        raise RuntimeError(f"the other process failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout)


# ============================================================================ every decision kind


#: seeded games the conformance suite plays at most, per game, to reach every decision kind
KIND_GAMES = 40


@dataclass
class KindStep:
    """The first position of the seeded games where a decision kind was legal: ``kind``
    (its name in the Game's ``action_types``), a copy of the position (``state``), one
    legal action of that kind there (``action``) and where it was met (``where``:
    ``"seed 4 (players=3), step 677"``)."""

    kind: str
    state: Any
    action: Any
    where: str


def decision_kinds(game) -> dict[str, type]:
    """The decision kinds ``game`` declares: its ``action_types`` hook, name -> action
    class (every class whose instances ``legal_actions()`` may list). Raises
    :class:`~haunted_kit.games.MissingHook` for a game without the hook."""
    return dict(hook(game, "action_types", "the conformance suite"))


def _starts(game, settings: list[dict], games: int):
    """``(where, state)`` of the games :func:`reach_decision_kinds` plays: one seeded game
    per setting, then the game's ``conformance_starts(None)`` (prepared positions), then
    more seeded games, the settings taken in turn, ``games`` in all."""
    def seeded(i):
        setting = settings[i % len(settings)]
        label = ", ".join(f"{k}={v}" for k, v in setting.items())
        return f"seed {i + 1} ({label})", i + 1, lambda: game.new_game(seed=i + 1, **setting)

    for i in range(min(len(settings), games)):
        yield seeded(i)
    prepared = getattr(game, "conformance_starts", None)
    for k, s in enumerate(prepared(None) if prepared is not None else ()):
        yield f"prepared start {k}", k, (lambda s=s: s)
    for i in range(len(settings), games):
        yield seeded(i)


def _bots(game, seed: int, players: int) -> list:
    """The seats' policies of one game: every other seat plays the game's ``greedy`` agent
    (when it has one: greedy play reaches what only a purposeful player does, skill 2 or
    skill 9 in Haunted Lands), the others uniform random (``None``)."""
    greedy = (getattr(game, "agents", None) or {}).get("greedy")
    return [greedy(seat_seed(seed, p)) if greedy is not None and (p + seed) % 2 else None for p in range(players)]


def reach_decision_kinds(game, settings: list[dict] | None = None, *, games: int = KIND_GAMES,
                         max_steps: int = 20_000) -> tuple[dict[str, KindStep], list[str]]:
    """Play seeded games of ``game`` (see :func:`_starts`; seats random or greedy,
    :func:`_bots`; chance outcomes uniform from the seed) until every kind of
    :func:`decision_kinds` has been legal somewhere. Returns ``(reached, missing)``: the
    first :class:`KindStep` of each kind met, and the names of the kinds never met, in
    the declared order. A listed action of an undeclared class is reported as a kind of
    its own (``"undeclared Foo"``), so the declaration cannot fall behind the game."""
    kinds = decision_kinds(game)
    name_of = {cls: name for name, cls in kinds.items()}
    reached: dict[str, KindStep] = {}
    for where, seed, start in _starts(game, settings or game_settings(game), games):
        if len(reached) >= len(kinds):
            break
        s, rng, steps = start(), random.Random(seed), 0
        bots = _bots(game, seed, s.players)
        while not s.is_terminal() and steps < max_steps:
            if s.is_chance_node():
                s.apply_chance(rng.choice([o for o, _ in s.chance_outcomes()]))
            else:
                legal = s.legal_actions()
                for cls in {type(a) for a in legal}:
                    name = name_of.get(cls, f"undeclared {cls.__name__}")
                    if name not in reached:
                        reached[name] = KindStep(name, s.copy(), rng.choice([a for a in legal if type(a) is cls]),
                                                 f"{where}, step {steps}")
                bot = bots[s.current_player()]
                s.apply_action(bot.act(s) if bot is not None else legal[rng.randrange(len(legal))])
            steps += 1
    return reached, [name for name in kinds if name not in reached]


def kind_problems(game, step: KindStep, pool=(), seed: int = 0) -> list[str]:
    """What is wrong at ``step`` (a :class:`KindStep`; empty when nothing), checking its
    decision kind there: the listed action has no ``why_not`` reason, applies on a copy
    without touching the original, and its JSON form reads back as itself; the save of
    the position round-trips through :func:`~haunted_kit.games.load_state` and the loaded
    game takes the action to the same position; copies play on independently; actions of
    the same kind that are not legal here (``pool``: actions met elsewhere, and the action's
    JSON form with one field changed) and malformed JSON forms of it are refused leaving
    the state as it was; a determinisation for the mover looks to the mover as the position
    does (for a game with ``determinise``)."""
    s, a, rng = step.state, step.action, random.Random(seed)
    before, problems = state_json(s), []
    why = s.why_not(a)
    if why is not None:
        problems.append(f"listed {a!r} has a why_not reason: {why}")
    done = s.copy()
    try:
        done.apply_action(a)
    except Exception as exc:  # any exception for a listed action is a fault
        return problems + [f"listed {a!r} raises {type(exc).__name__}: {exc}"]
    if state_json(s) != before:
        problems.append(f"applying {a!r} on a copy changed the original")
    data = game.action_to_dict(a)
    if game.action_from_dict(json.loads(json.dumps(data))) != a:
        problems.append(f"the JSON form {data!r} does not read back as {a!r}")
    problems += _save_problems(game, s, a, state_json(done))
    other = s.copy()
    random_steps(other, rng, 3)
    if state_json(s) != before:
        problems.append("playing on a copy changed the original")
    problems += _refusal_problems(game, s, a, pool, data)
    problems += _determinisation_problems(game, s, rng)
    return [f"{step.kind} at {step.where}: {p}" for p in problems]


def _save_problems(game, s, a, after: str) -> list[str]:
    """The save of ``s`` must load as ``s`` (:func:`~haunted_kit.games.load_state`) and
    the loaded game must take ``a`` to the position ``after`` (:func:`state_json`)."""
    data = json.loads(json.dumps(s.to_dict()))
    try:
        loaded = load_state(game, data, getattr(s, "box", None))
    except ValueError as exc:
        return [f"the save of this position is refused: {exc}"]
    if loaded.to_dict() != data:
        diff = sorted(k for k in set(data) | set(loaded.to_dict()) if data.get(k) != loaded.to_dict().get(k))
        return [f"the save does not round-trip (fields {', '.join(diff)} change)"]
    loaded.apply_action(game.action_from_dict(game.action_to_dict(a)))
    return [] if state_json(loaded) == after else [f"the loaded save does not take {a!r} to the same position"]


def _refusal_problems(game, s, a, pool, data) -> list[str]:
    """Refusals of the kind of ``a`` at ``s``: the pool's actions of that kind that are not
    legal here, the JSON form ``data`` with one field changed (when that is not legal
    here) and malformed forms of it (when they do not read as a legal action)."""
    legal = s.legal_actions()
    problems = [refusal_problem(s, b) for b in pool if type(b) is type(a) and b not in legal][:10]

    def reads_legal(form):
        try:
            return game.action_from_dict(form) in legal
        except REFUSAL_ERRORS:
            return None

    forms = [d for d in changed_fields(data) if reads_legal(d) is False]
    forms += [d for d in malformed_forms(data) if not (reads_legal(d) and "unexpected_field" not in d)]
    problems += [refusal_problem(s, data=d, game=game) for d in forms]
    return [p for p in problems if p]


def _determinisation_problems(game, s, rng) -> list[str]:
    """For a game with ``determinise``: the mover's determinisation of ``s`` must look to
    the mover as ``s`` does (observation, the event log aside)."""
    if getattr(game, "determinise", None) is None or s.current_player() is None:
        return []
    p = s.current_player()
    seen = lambda t: {k: v for k, v in t.observation(p).items() if k != "log"}  # noqa: E731
    return [] if seen(determinise(game, s, p, rng)) == seen(s) else [
        f"P{p + 1}'s determinisation does not look to P{p + 1} as the position does"]
