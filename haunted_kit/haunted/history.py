"""A game's states along its action record, for step-through views and replays.

:func:`replay` rebuilds the states of a game by re-applying its action record
(:meth:`~haunted_kit.State.history`) to a new game of the same configuration: every
chance outcome with ``apply_chance``, every decision with ``apply_action``. Nothing is
searched or guessed: the engine decides everything again, and with ``check_final`` the
replayed game must end in the saved state (a record the engine refuses raises
:class:`ReplayError` naming the step).

    h = replay(state)            # a live State, a save's JSON text, or a path to a save
    h.state_at(seq)              # the state right after the step that logged event seq
    h.steps[k].action            # the decision (or chance outcome) of step k
    h.decision(n)                # the step of the n-th decision (0-based)
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path

from .engine import HauntedLandsState, new_game
from ..protocol import ChanceError, IllegalAction


class ReplayError(ValueError):
    """The action record cannot be replayed to the saved game (see the message)."""


@dataclass
class Step:
    """One step of a game: a decision or a chance outcome and the events it logged.

    ``state`` is the state right after the step; ``first``/``last`` the seq numbers of
    the first and last event it logged; ``action`` the decision (an action object), or
    ``None`` for the setup and for chance steps, whose ``label`` says what happened;
    ``outcome`` the chance outcome of a chance step."""

    state: object
    first: int
    last: int
    action: object = None
    player: int | None = None
    label: str = ""
    outcome: object = None


def _load(source) -> HauntedLandsState:
    if isinstance(source, HauntedLandsState):
        return source
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return HauntedLandsState.load(source)
    if isinstance(source, str):
        return HauntedLandsState.from_json(source)
    raise TypeError(f"replay needs a State, a save's JSON text or a path, not {type(source).__name__}")


class History:
    """The steps of one game (see :func:`replay`)."""

    def __init__(self, steps: list[Step], target=None):
        self.steps = steps
        self.target = target
        self._firsts = [s.first for s in steps]
        self._decisions = [k for k, s in enumerate(steps) if s.action is not None]

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

    @property
    def decisions(self) -> int:
        """How many decisions the game holds."""
        return len(self._decisions)

    def decision(self, n: int) -> int:
        """Index (into :attr:`steps`) of decision number ``n`` (0-based; negative counts
        from the end). Raises IndexError naming the range."""
        if not -len(self._decisions) <= n < len(self._decisions):
            raise IndexError(f"decision {n} does not exist: the game holds {len(self._decisions)} decisions")
        return self._decisions[n]

    def append(self, step: Step) -> None:
        self.steps.append(step)
        self._firsts.append(step.first)
        if step.action is not None:
            self._decisions.append(len(self.steps) - 1)


def replay(source, *, check_final: bool = True) -> History:
    """Rebuild the states of a game by re-applying its action record.

    Args:
        source: a :class:`~haunted_kit.State` (a live game), a save's JSON text, or a
            path to a save file.
        check_final: also check that the replayed final state equals the source.

    Returns:
        a :class:`History`: one setup step (every setup draw), then one step per
        decision and per die roll.

    Raises:
        ReplayError: the source's log is a redacted observation, or the engine refuses
            a step of the record, or the replayed game differs from the source (for
            example a position edited with :mod:`haunted_kit.haunted.scenario`, which the
            record does not hold).
    """
    target = _load(source)
    if target.log is not None and any(e.private and "quest" not in e.data for e in target.log):
        raise ReplayError("the log has redacted private events (an observation); replay needs the full save")
    s = new_game(target.config, auto_chance=False, log=target.log is not None)
    record = target.history()
    n_events = lambda st: len(st.log) if st.log is not None else 0  # noqa: E731
    k = 0
    while k < len(record) and s.phase == "setup" and record[k].chance:
        s.apply_chance(record[k].action)
        k += 1
    history = History([Step(s.copy(), 0, n_events(s) - 1, None, None, "setup")], target)
    for i in range(k, len(record)):
        e = record[i]
        first = n_events(s)
        try:
            if e.chance:
                what = s.chance.name() if s.chance is not None else "chance outcome"
                s.apply_chance(e.action)
                step = Step(None, first, 0, None, None, f"{what}: {e.action}", e.action)
            else:
                if s.current_player() != e.player:
                    raise ReplayError(f"step {i} of the record is P{e.player + 1}'s decision, but the game waits for "
                                      f"{'P%d' % (s.current_player() + 1) if s.current_player() is not None else 'no player'}")
                s.apply_action(e.action)
                step = Step(None, first, 0, e.action, e.player, e.action.describe())
        except (IllegalAction, ChanceError) as exc:
            raise ReplayError(f"step {i} of the record ({e.action!r}): the engine refuses it: {exc}") from None
        step.state, step.last = s.copy(), n_events(s) - 1
        history.append(step)
    if check_final:
        a, b = s.to_dict(), target.to_dict()
        diff = sorted(k for k in set(a) | set(b) if k not in ("auto_chance", "forced") and a.get(k) != b.get(k))
        if diff:
            edited = any(ev.kind == "setup" and "scenario" in ev.data for ev in target.log or [])
            why = (" (the position was edited with haunted_kit.haunted.scenario, and the record holds only decisions "
                   "and chance outcomes)") if edited else ""
            raise ReplayError(f"the replayed final state differs from the saved one in {', '.join(diff)}{why}")
    for st in history.steps:
        st.state.auto_chance = target.auto_chance
    return history
