"""A game review for any game of the kit: the turning points and the costliest decisions.

:func:`review` re-plays a finished (or running) game's action record from its start (the
Game's ``start_of(state)`` hook, then :func:`haunted_kit.protocol.states_along`) and, at
every decision with a choice (two or more legal actions), runs the kit's search
(:class:`haunted_kit.search.SearchAgent`) for the player to move, from what that player
could see (each playout starts from the Game's ``determinise`` for that player, as
:func:`haunted_kit.search.hints` does). From those searches it reports:

* **turning points**: the largest swings of each player's value as the search estimates
  it at that player's own decisions (the visit-weighted mean value of the search's root
  moves; the value of the result at the end), from one of the player's decisions to the
  next (or to the end). Values are the search's: for Haunted Lands about a win chance
  (1 win, 0 loss, -1 collective loss); for the other games the share of playouts ending
  with the top score.
* **costly decisions** of one seat: where the chosen move was not the search's best, the
  chosen move and the search's top moves are judged on the same determinisations
  (paired playouts: each determinisation plays every candidate, with the same dice), and
  the ``cost`` is the best candidate's mean value less the chosen move's. The three
  costliest are named with ``"better: X, because ..."``: the events each move would cause
  (:func:`haunted_kit.search.move_events`, their sentences carry the rule sections; played
  on a determinisation, so each is told as the seat may see it in a guessed position: no
  sampled hidden value or die, :mod:`haunted_kit.visibility`) and the value difference.
  ``Review.events``, the events between decisions, are as the reviewed seat may see them.

Seeded and reproducible: the same state, seed and budget give the same report (each
decision's search is seeded from ``seed`` and the decision number with
:func:`haunted_kit.protocol.chance_hash`). Never imports a game: the game is found with
:func:`haunted_kit.games.game_of` and used through the protocol and its optional hooks.

Outputs: :meth:`Review.text` (the terminal), :meth:`Review.html` / :meth:`Review.save_html`
(a page for a class, written atomically), and the notebook widget
:class:`haunted_kit.widgets.review.ReviewView`. Command line: ``haunted-kit review SAVE``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from html import escape

from .fileio import atomic_write
from .games import cap_reached, decision_cap, game_of, hook
from .progress import progress as progress_bar
from .protocol import chance_hash, check_seed, describe_action, is_integer, states_along
from .visibility import seen_events
from .search import (SearchAgent, determinise, is_telling, move_events, playout_values, returns_are_win_loss, rollout,
                     rollout_policy)

__all__ = ["CostlyDecision", "Decision", "DEFAULT_PLAYOUTS", "Review", "ReviewError", "TurningPoint", "review"]

#: playouts per decision by default: a 4-player Haunted Lands game (about 250 decisions with
#: a choice) is reviewed in under a minute on two cores (``benchmarks/bench_review.py``)
DEFAULT_PLAYOUTS = 150
#: decisions per playout before the Game's ``evaluate`` scores the position (as hints)
ROLLOUT_DEPTH = 20


class ReviewError(ValueError):
    """A game the review cannot re-play (its record does not lead from its start to the
    position, e.g. a Haunted Lands position edited with a scenario), or bad arguments."""


@dataclass(frozen=True)
class Decision:
    """One decision with a choice: ``number`` (1-based, counting every decision of the
    game), ``step`` (its index in ``state.history()``), the ``player`` (0-based) who
    moved, the ``action`` chosen and its ``text``, how many moves were ``legal``, the
    search's ``value`` of the position for that player and its ``best`` move."""

    number: int
    step: int
    player: int
    action: object
    text: str
    legal: int
    value: float
    best: object
    best_text: str


@dataclass(frozen=True)
class TurningPoint:
    """A swing of ``player``'s estimated value from decision ``number`` (their move
    ``text``) to their next decision ``until`` (``None``: the end of the record), from
    ``before`` to ``after``; ``swing`` is ``after - before``."""

    number: int
    player: int
    text: str
    before: float
    after: float
    until: int | None

    @property
    def swing(self) -> float:
        return self.after - self.before

    def sentence(self) -> str:
        to = f"P{self.player + 1}'s next decision ({self.until})" if self.until is not None else "the end"
        return (f"Decision {self.number}: P{self.player + 1} played {self.text}; P{self.player + 1}'s value went from "
                f"{self.before:+.2f} to {self.after:+.2f} by {to} ({self.swing:+.2f}).")


@dataclass(frozen=True)
class CostlyDecision:
    """A decision of the reviewed seat where a ``better`` move was found: the chosen and
    the better move in words, their mean values on the same determinisations, ``cost``
    (better less chosen, > 0), and the event sentences each move would cause."""

    number: int
    player: int
    chosen: str
    better: str
    chosen_value: float
    better_value: float
    chosen_events: tuple[str, ...]
    better_events: tuple[str, ...]
    better_action: object = field(compare=False, default=None)

    @property
    def cost(self) -> float:
        return self.better_value - self.chosen_value

    def sentence(self) -> str:
        because = "; ".join(e.rstrip(".") for e in self.better_events[:3]) or self.better
        instead = "; ".join(e.rstrip(".") for e in self.chosen_events[:3]) or self.chosen
        return (f"Decision {self.number}: P{self.player + 1} played {self.chosen}; better: {self.better}, because "
                f"{because} (value {self.better_value:+.2f}), where the move played gave: {instead} "
                f"(value {self.chosen_value:+.2f}); it cost {self.cost:.2f}.")


@dataclass
class Review:
    """A game's review (see the module). ``decisions``: every decision with a choice;
    ``states[n]``: the position before decision ``n`` (for the widget); ``events[n]``:
    the event sentences from decision ``n`` to the next decision."""

    title: str
    players: int
    seat: int
    seed: int
    playouts: int
    decisions: list[Decision]
    turning_points: list[TurningPoint]
    costly: list[CostlyDecision]
    states: dict = field(repr=False, default_factory=dict)
    events: dict = field(repr=False, default_factory=dict)
    final: list[float] | None = None

    def text(self) -> str:
        """The report as plain text (the terminal's)."""
        lines = [f"Review of {self.title}, {self.players} players: {len(self.decisions)} decisions with a choice, "
                 f"{self.playouts} playouts each, seed {self.seed}.", "", "Turning points (largest swings first):"]
        lines += [f"  {tp.sentence()}" for tp in self.turning_points] or ["  none"]
        lines += ["", f"P{self.seat + 1}'s costliest decisions:"]
        lines += [f"  {c.sentence()}" for c in self.costly] or ["  none: the search found no better move"]
        return "\n".join(lines)

    def html(self) -> str:
        """The report as a self-contained HTML page (tables, no scripts), for a class."""
        def row(cells, tag="td"):
            return "<tr>" + "".join(f"<{tag}>{escape(str(c))}</{tag}>" for c in cells) + "</tr>"

        tps = [row(("Decision", "Player", "Move", "Before", "After", "Swing", "Until"), "th")] + [
            row((t.number, f"P{t.player + 1}", t.text, f"{t.before:+.2f}", f"{t.after:+.2f}", f"{t.swing:+.2f}",
                 t.until if t.until is not None else "end")) for t in self.turning_points]
        cost = [row(("Decision", "Played", "Better", "Why", "Cost"), "th")] + [
            row((c.number, c.chosen, c.better, "; ".join(c.better_events[:3]) or "-", f"{c.cost:.2f}"))
            for c in self.costly]
        title = escape(f"Review of {self.title}")
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                f"<title>{title}</title><style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;"
                "line-height:1.4}table{border-collapse:collapse;width:100%}td,th{border:1px solid #999;"
                "padding:.3em;text-align:left;vertical-align:top}th{background:#eee}</style></head><body>"
                f"<h1>{title}</h1><p>{self.players} players; {len(self.decisions)} decisions with a choice, "
                f"judged by the kit's search with {self.playouts} playouts each (seed {self.seed}). Values are the "
                "search's estimate of each player's result, from what that player could see.</p>"
                "<h2>Turning points</h2><table>" + "".join(tps) + "</table>"
                f"<h2>P{self.seat + 1}'s costliest decisions</h2>"
                + ("<table>" + "".join(cost) + "</table>" if self.costly else "<p>None: the search found no better move.</p>")
                + "<ul>" + "".join(f"<li>{escape(c.sentence())}</li>" for c in self.costly) + "</ul></body></html>\n")

    def save_html(self, path) -> None:
        """Write :meth:`html` to ``path`` atomically. Raises OSError."""
        atomic_write(path, self.html())


def _position_value(result) -> float:
    """The search's value of the root position for its player: the visit-weighted mean of
    the root moves' values (all playouts)."""
    total = sum(m.visits for m in result.moves)
    return sum(m.visits * m.value for m in result.moves) / total if total else 0.0


def _judge(game, state, player: int, actions, playouts: int, seed: int, depth, evaluate, win_loss) -> list[float]:
    """Each of ``actions``' mean value for ``player`` over ``playouts`` paired playouts:
    playout ``k`` determinises ``state`` once for ``player`` and plays every action from a
    copy of it, with the same rollout seed (common random numbers)."""
    policy = rollout_policy(game)
    sums = [0.0] * len(actions)
    for k in range(playouts):
        base = determinise(game, state, player, random.Random(chance_hash(seed, k)))
        for i, a in enumerate(actions):
            d = base.copy()
            d.apply_action(a)
            rng = random.Random(chance_hash(seed, k, "rollout"))
            policy.rng = rng
            sums[i] += rollout(d, policy, rng, depth, evaluate, win_loss)[player]
    return [s / playouts for s in sums]


def _sentences(game, state, player: int, action, seed: int) -> tuple[str, ...]:
    """The sentences of what ``action`` would cause, as ``player`` may tell them: played on a
    determinisation, each event redacted by the game's visibility for a guessed position
    (:func:`haunted_kit.search.move_events`), so a sampled hidden value is never stated."""
    events, gain = move_events(game, state, player, action, random.Random(seed))
    out = [e.text for e in events if is_telling(e)]
    if gain:
        out.append(f"{getattr(game, 'score_name', 'score')} {gain:+g} at once.")
    return tuple(out)


def review(state, *, seat: int = 0, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0, top: int = 3, turning: int = 5,
           candidates: int = 2, progress: bool = True, game=None) -> Review:
    """Review the game that led to ``state`` (see the module).

    Args:
        state: any position of a registered game (a loaded save); its whole action
            record is reviewed.
        seat: the player (0-based) whose decisions are judged for the costly ones.
        playouts: the search budget per decision (a whole number >= 1); the paired
            judgement of a decision where the chosen move was not the best uses as many.
        seed: seeds every search (a seed of the kit).
        top: how many costly decisions; turning: how many turning points.
        candidates: how many of the search's top moves are judged against the chosen one.
        progress: show a progress bar (:mod:`haunted_kit.progress`).

    Returns:
        a :class:`Review`.

    Raises:
        ReviewError (a ValueError): a seat out of range, a bad budget or count, or a
            record that does not re-play to ``state``.
        MissingHook (a ValueError): the game has no ``start_of`` or ``determinise`` hook.
        DecisionCapReached (a RuntimeError): the record holds more decisions than the game's
            decision cap (:func:`haunted_kit.games.decision_cap`); the message names the seed
            and the box. Nothing is searched.
    """
    game = game or game_of(state)
    seed = check_seed(seed, error=ReviewError)
    if not is_integer(seat) or not 0 <= seat < state.players:
        raise ReviewError(f"seat must be a player index 0..{state.players - 1}, got {seat!r}")
    for name, v in (("playouts", playouts), ("top", top), ("turning", turning), ("candidates", candidates)):
        if not is_integer(v) or v < 1:
            raise ReviewError(f"{name} must be a whole number, 1 or more, got {v!r}")
    start = hook(game, "start_of", "review")(state)
    hook(game, "determinise", "review")
    history = state.history()
    cap = decision_cap(game, state)
    if sum(not e.chance for e in history) > cap:  # an endless game: a search per decision would never finish
        raise cap_reached(game, state, cap=cap, what="review: its record holds more decisions than the cap")
    try:
        along = states_along(start, history)
    except ValueError as exc:  # IllegalAction, ChanceError: the record does not lead from the start
        raise ReviewError(f"the game's record does not re-play from its start: {exc}") from None
    end = along[-1][1]
    if end.is_terminal() != state.is_terminal() or end.returns() != state.returns():
        raise ReviewError("the game's record does not lead to this position (was the position edited?)")
    evaluate = getattr(game, "evaluate", None)
    depth = ROLLOUT_DEPTH if evaluate is not None else None
    win_loss = returns_are_win_loss(game)

    # every decision, numbered; the events between it and the next one
    points, number = [], 0
    for k, (entry, _) in enumerate(along[1:]):
        if not entry.chance:
            number += 1
            points.append((number, k, entry))
    events = {}
    for i, (n, k, entry) in enumerate(points):
        after = along[points[i + 1][1]][1] if i + 1 < len(points) else end
        before_log, after_log = getattr(along[k][1], "log", None), getattr(after, "log", None)
        events[n] = ([e.text for e in seen_events(game, after_log[len(before_log):], seat)]
                     if before_log is not None and after_log is not None else [])

    decisions, states, costly = [], {}, []
    chosen_items = [p for p in points if len(along[p[1]][1].legal_actions()) > 1]
    items = progress_bar(chosen_items, "review") if progress else chosen_items
    for n, k, entry in items:
        s = along[k][1]
        legal = s.legal_actions()
        agent = SearchAgent(chance_hash(seed, "review", n), playouts=playouts, rollout_depth=depth, game=game)
        res = agent.search(s)
        best = res.best
        p = entry.player
        decisions.append(Decision(n, k, p, entry.action, describe_action(entry.action, s), len(legal),
                                  _position_value(res), best, describe_action(best, s)))
        states[n] = s
        if p != seat or best == entry.action:
            continue
        cands = [entry.action] + [m.action for m in res.moves if m.action != entry.action][:candidates]
        values = _judge(game, s, p, cands, playouts, chance_hash(seed, "judge", n), depth, evaluate, win_loss)
        j = max(range(1, len(cands)), key=lambda i: values[i])
        if values[j] <= values[0]:
            continue
        sent_seed = chance_hash(seed, "events", n)
        costly.append(CostlyDecision(n, p, describe_action(entry.action, s), describe_action(cands[j], s), values[0],
                                     values[j], _sentences(game, s, p, entry.action, sent_seed),
                                     _sentences(game, s, p, cands[j], sent_seed), cands[j]))
    costly.sort(key=lambda c: (-c.cost, c.number))

    final = playout_values(state.returns(), win_loss) if state.is_terminal() else None
    swings = []
    for p in range(state.players):
        mine = [d for d in decisions if d.player == p]
        for a, b in zip(mine, mine[1:] + [None]):
            if b is None and final is None:
                continue
            after = final[p] if b is None else b.value
            if after != a.value:
                swings.append(TurningPoint(a.number, p, a.text, a.value, after, None if b is None else b.number))
    swings.sort(key=lambda t: (-abs(t.swing), t.number, t.player))
    return Review(getattr(game, "title", game.name), state.players, seat, seed, playouts, decisions, swings[:turning],
                  costly[:top], states, events, final)
