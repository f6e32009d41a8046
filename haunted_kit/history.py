"""A game's states along its event log, for step-through views and replays.

A saved game holds its configuration, its setup draws and its event log, not the list
of decisions. :func:`replay` rebuilds the states by playing the game again through the
engine: the setup draws are forced from the save, every chance roll is forced from its
logged outcome, and each decision is the legal action whose events match the log. So
the engine, not this module, decides everything; a log that the engine cannot reproduce
raises :class:`ReplayError` naming the first event that differs.

    h = replay(state)            # a live State, a save's JSON text, or a path to a save
    h.state_at(seq)              # the state right after the step that logged event seq
    h.steps[k].action            # the decision (or chance outcome) of step k
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from pathlib import Path


class ReplayError(ValueError):
    """The event log cannot be reproduced by the engine (see the message)."""


@dataclass
class Step:
    """One step of a game: a decision or a chance outcome and the events it logged.

    ``state`` is the state right after the step; ``first``/``last`` the seq numbers of
    the first and last event it logged; ``action`` the decision (an action object), or
    ``None`` for the setup and for chance steps, whose ``label`` says what happened."""

    state: object
    first: int
    last: int
    action: object = None
    player: int | None = None
    label: str = ""


def _norm(events) -> list:
    return json.loads(json.dumps([e.to_dict() for e in events]))


def _load(source):
    from .engine import HauntedLandsState as State

    if isinstance(source, State):
        return source
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return State.load(source)
    if isinstance(source, str):
        return State.from_json(source)
    raise TypeError(f"replay needs a State, a save's JSON text or a path, not {type(source).__name__}")


class History:
    """The steps of one game (see :func:`replay`)."""

    def __init__(self, steps: list[Step], target=None):
        self.steps = steps
        self.target = target
        self._firsts = [s.first for s in steps]

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def events(self) -> list:
        """The event log of the last state."""
        return list(self.steps[-1].state.log or []) if self.steps else []

    def step_of(self, seq: int) -> int:
        """Index of the step that logged event ``seq``."""
        if not self.steps:
            raise IndexError("empty history")
        k = bisect.bisect_right(self._firsts, seq) - 1
        return max(0, k)

    def state_at(self, seq: int):
        """The state right after the step that logged event ``seq``."""
        return self.steps[self.step_of(seq)].state

    def append(self, step: Step) -> None:
        self.steps.append(step)
        self._firsts.append(step.first)


def _setup_order(log, players: int) -> list[int]:
    order = [e.player for e in log if e.kind == "stack_placed"]
    rest = [p for p in range(players) if p not in order]
    return order + rest


def replay(source, *, check_final: bool = True) -> History:
    """Rebuild the states of a game from its event log.

    Args:
        source: a :class:`~haunted_kit.State` with its log (a live game), a save's JSON
            text, or a path to a save file.
        check_final: also check that the replayed final state equals the source.

    Raises:
        ReplayError: the source has no log, or the engine cannot reproduce it (for
            example a log with other players' private events redacted).
    """
    from . import engine

    target = _load(source)
    if target.log is None:
        raise ReplayError("the game was played without an event log (new_game(log=False)); nothing to replay")
    log = target.log
    want = _norm(log)
    if any(e.get("private") and "quest" not in e.get("data", {}) for e in want):
        raise ReplayError("the log has redacted private events (an observation); replay needs the full save")
    n = target.config.players
    try:
        s = engine.new_game(target.config, auto_chance=False, layout=list(target.layout), skills=list(target.skills),
                            market=target.market, order=_setup_order(log, n))
    except Exception as exc:  # noqa: BLE001
        raise ReplayError(f"cannot set the game up again from the save: {exc}") from None
    _check_prefix(s, want, 0)
    steps = [Step(s.copy(), 0, len(s.log) - 1, None, None, "setup")]
    history = History(steps, target)
    while len(s.log) < len(log):
        k = len(s.log)
        if s.is_terminal():
            raise ReplayError(f"the replayed game ended at event {k - 1} but the log goes on to event {len(log) - 1}")
        if s.chance is not None:
            ev = log[k]
            kind = s.chance[0]
            if kind == "terrain_die" and ev.kind == "terrain_die":
                outcome = ev.data.get("terrain")
            elif kind == "bonus_die" and ev.kind == "bonus_die":
                outcome = ev.data.get("face")
            else:
                raise ReplayError(f"event {k} ({ev.kind}: {ev.text}) does not match the {kind} the engine waits for")
            try:
                s.apply_chance(outcome)
            except Exception as exc:  # noqa: BLE001
                raise ReplayError(f"event {k}: the engine refuses outcome {outcome!r}: {exc}") from None
            _check_prefix(s, want, k)
            history.append(Step(s.copy(), k, len(s.log) - 1, None, None, f"{kind.replace('_', ' ')}: {outcome}"))
            continue
        p = s.current_player()
        chosen = None
        for a in s.legal_actions():
            t = s.copy()
            t.apply_action(a)
            got = _norm(t.log[k:])
            if got and got == want[k:k + len(got)]:
                chosen, s = a, t
                break
        if chosen is None:
            ev = log[k]
            raise ReplayError(f"no legal action of P{p + 1 if p is not None else '?'} reproduces event {k} "
                              f"({ev.kind}: {ev.text})")
        history.append(Step(s.copy(), k, len(s.log) - 1, chosen, p, chosen.describe()))
    if check_final:
        if _norm(s.log) != want:
            raise ReplayError("the replayed log differs from the saved one")
        a, b = s.to_dict(), target.to_dict()
        diff = sorted(k for k in set(a) | set(b) if k not in ("auto_chance", "forced") and a.get(k) != b.get(k))
        if diff:
            raise ReplayError(f"the replayed final state differs from the saved one in {', '.join(diff)}")
    for st in history.steps:
        st.state.auto_chance = target.auto_chance
    return history


def _check_prefix(s, want, start) -> None:
    got = _norm(s.log[start:])
    if got != want[start:start + len(got)]:
        for i, (a, b) in enumerate(zip(got, want[start:])):
            if a != b:
                raise ReplayError(f"event {start + i} differs: replay says {a['text']!r}, the log says {b['text']!r}")
        raise ReplayError(f"the replay logged more events than the save holds (from event {start + len(want) - start})")
