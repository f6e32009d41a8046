"""A game review for any game of the kit: the turning points and the costliest decisions,
each with a paired 95% interval, so that the report says how sure it is.

:func:`review` re-plays a finished (or running) game's action record from its start (the
Game's ``start_of(state)`` hook, then :func:`haunted_kit.protocol.states_along`) and, at
every decision with a choice (two or more legal actions), measures values by *playouts*:
a playout draws a determinisation of the position for the player to move (the Game's
``determinise``, from what that player could see, as :func:`haunted_kit.search.hints`
does) and lets the game's rollout policy (its greedy bots) play on for
:data:`ROLLOUT_DEPTH` decisions, where the Game's ``evaluate`` estimates the result (a
game without one plays to the end).

**The value scale.** A value is a share of playouts won by the player: 1 = a win, 0 = a
loss. For a game whose returns are win/loss values (``win_loss_returns``) a collective
loss (every player loses) counts -1; for the other games the top score at the end is the
win, and players tied on it split the 1. So a cost of 0.05 means that, from that
position and what the player knew, the better move wins about 5 more games in 100.

* **turning points**: the largest swings of each player's value (before one of their
  decisions) to their next decision (or the end, where the value is the result itself).
  Every decision's value is the mean of its playouts, and playout ``k`` uses the same
  seeds at every decision (common random numbers), so a swing's interval is the interval
  of the paired differences. Swings whose interval includes zero are dropped; the others
  are ranked by the lower bound of their size. Swings that might belong to the top
  ``turning`` get more playouts (doubling, up to :data:`LOOKS` looks) until the top is
  told apart from the rest or the budget is spent.
* **costly decisions** of one seat: at each of its decisions the kit's search
  (:class:`haunted_kit.search.SearchAgent`) proposes its top moves, and the chosen move
  and the search's ``candidates`` top other moves are played on the same playouts (each
  determinisation plays every candidate, with the same rollout seed), and each
  candidate's advantage gets the interval of its paired differences. Adaptive: the pairs double from ``playouts`` until an interval excludes
  zero, or every alternative's interval lies below :data:`NEGLIGIBLE` (none can be better
  by more than 2 games in 100), or :data:`LOOKS` looks are spent. A decision is
  called a **mistake** only when the best alternative's interval excludes zero; the others
  are **within noise** and are listed as such. Mistakes are ranked by their interval's
  lower bound and named with ``"better: X, because ..."``: the events each move would
  cause on a determinisation (:func:`haunted_kit.search.move_events`; their sentences
  carry the rule sections), an example of what the player could expect, each told as the
  seat may see it in a guessed position (no sampled hidden value or die,
  :mod:`haunted_kit.visibility`). ``Review.events``, the events between decisions, are as
  the reviewed seat may see them.

The intervals are 95% intervals of a mean of paired differences (normal theory with a
Student t correction; at least :data:`MIN_PAIRS` pairs), adjusted (Bonferroni) for the
looks and the candidates, so that a decision's stated interval covers its true cost with
at least 95% probability whatever look the sampling stopped at.

Seeded and reproducible: the same state, seed and budget give the same report (the
searches, determinisations and rollouts are seeded from ``seed`` with
:func:`haunted_kit.protocol.chance_hash`). Never imports a game: the game is found with
:func:`haunted_kit.games.game_of` and used through the protocol and its optional hooks.

Outputs: :meth:`Review.text` (the terminal), :meth:`Review.html` / :meth:`Review.save_html`
(a page for a class, written atomically), and the notebook widget
:class:`haunted_kit.widgets.review.ReviewView`. Command line: ``haunted-kit review SAVE``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from html import escape
from statistics import NormalDist

from .fileio import atomic_write
from .games import cap_reached, decision_cap, game_of, hook
from .progress import progress as progress_bar
from .render.style import name_cells
from .protocol import chance_hash, check_seed, describe_action, is_integer, states_along
from .visibility import decision_words, seen_events
from .tableview import clause
from .search import (SearchAgent, determinise, is_telling, move_events, playout_values, returns_are_win_loss, rollout,
                     rollout_policy)

__all__ = ["CONFIDENCE", "CostlyDecision", "Decision", "DEFAULT_PLAYOUTS", "LOOKS", "MIN_PAIRS", "Review", "ReviewError",
           "TurningPoint", "game_value_words", "paired_interval", "review", "scale_words", "value_words"]

#: playouts per decision by default: the search's budget at the reviewed seat's decisions
#: and the first look of every value and paired judgement (``benchmarks/bench_review.py``
#: measures the CPU time of a whole review)
DEFAULT_PLAYOUTS = 150
#: decisions per playout before the Game's ``evaluate`` scores the position (as hints)
ROLLOUT_DEPTH = 20
#: the level of every interval of the review
CONFIDENCE = 0.95
#: how many looks the adaptive sampling takes: look ``i`` (0-based) has ``first * 2**i``
#: pairs, so the budget is 8 times the first look
LOOKS = 4
#: the fewest pairs an interval is computed from (the first look is at least this)
MIN_PAIRS = 32
#: a cost too small to matter (2 games in 100): a judgement stops once every alternative's
#: interval lies below it
NEGLIGIBLE = 0.02


class ReviewError(ValueError):
    """A game the review cannot re-play (its record does not lead from its start to the
    position, e.g. a Haunted Lands position edited with a scenario), or bad arguments."""


def _critical(comparisons: int, n: int) -> float:
    """The two-sided critical value of a :data:`CONFIDENCE` interval shared by
    ``comparisons`` intervals (Bonferroni), for a mean of ``n`` values: the normal
    quantile with the Cornish-Fisher correction to Student's t with ``n - 1`` degrees of
    freedom (within 0.03% of the exact t for ``n >= 32`` and up to 12 comparisons)."""
    z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / (2 * comparisons))
    v = max(n - 1, 1)
    return z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v * v)


def paired_interval(diffs, comparisons: int = 1) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of paired differences ``diffs`` (2 or more, e.g.
    better move's playout value less the chosen move's, playout by playout) with its
    :data:`CONFIDENCE` interval, shared by ``comparisons`` intervals (Bonferroni: each uses
    level ``1 - (1 - CONFIDENCE) / comparisons``). Differences without spread give the
    mean itself as both bounds.

    Raises:
        ValueError: fewer than 2 differences.
    """
    n = len(diffs)
    if n < 2:
        raise ValueError(f"an interval needs 2 or more paired differences, got {n}")
    m = math.fsum(diffs) / n
    var = math.fsum((d - m) ** 2 for d in diffs) / (n - 1)
    half = _critical(comparisons, n) * math.sqrt(var / n)
    return m, m - half, m + half


def _signed(x: float) -> str:
    """``x`` with its sign, 3 decimals; exactly zero as ``0.000`` (a bound of ``-0.0004``
    reads ``-0.000``, so an interval that includes zero never looks as if it did not)."""
    return "0.000" if x == 0 else f"{x:+.3f}"


@dataclass(frozen=True)
class Decision:
    """One decision with a choice: ``number`` (1-based, counting every decision of the
    game), ``step`` (its index in ``state.history()``), the ``player`` (0-based) who
    moved, the ``action`` chosen and its ``text``, how many moves were ``legal``, the
    ``value`` of the position for that player (the mean of its playouts, see the module's
    value scale) over ``playouts`` playouts, and, at the reviewed seat's decisions, the
    search's ``best`` move (``None`` elsewhere)."""

    number: int
    step: int
    player: int
    action: object
    text: str
    legal: int
    value: float
    best: object
    best_text: str | None
    playouts: int = 0


@dataclass(frozen=True)
class TurningPoint:
    """A swing of ``player``'s value from decision ``number`` (their move ``text``) to
    their next decision ``until`` (``None``: the end of the record), from ``before`` to
    ``after``; ``swing`` is ``after - before``, ``low`` .. ``high`` its 95% interval from
    ``pairs`` paired playouts (see the module)."""

    number: int
    player: int
    text: str
    before: float
    after: float
    until: int | None
    low: float = 0.0
    high: float = 0.0
    pairs: int = 0

    @property
    def swing(self) -> float:
        return self.after - self.before

    def interval(self) -> str:
        """``"+0.176 [+0.153, +0.198]"``: the swing and its interval."""
        return f"{_signed(self.swing)} [{_signed(self.low)}, {_signed(self.high)}]"

    def plain(self, win_loss: bool = False) -> str:
        """The swing in words a class reads (the replay's first line): ``"Decision 3: P3: take 2
        gold. P3's chance of winning fell from about 78% to 1% by P3's next decision (7)."``
        (a game whose returns are win/loss values, where a collective loss counts -1, says
        ``"P3's outlook fell from about 27 to 5 in 100 (games won less games every player lost)"``)."""
        who = f"P{self.player + 1}"
        way = "rose" if self.swing > 0 else "fell"
        to = f"{who}'s next decision ({self.until})" if self.until is not None else "the end of the game"
        a, b = _per_hundred(self.before), _per_hundred(self.after)
        if win_loss:
            change = (f"{who}'s outlook {way} from about {a} to {b} in 100 (games won less games every player lost) "
                      f"by {to}")
        else:
            change = f"{who}'s chance of winning {way} from about {a}% to {b}% by {to}"
        return f"Decision {self.number}: {who}: {clause(self.text)}. {change}."

    def detail(self) -> str:
        """The measure behind :meth:`plain` (the replay's second line): ``"Change +0.228 (95%
        interval +0.215 to +0.241), from 256 paired playouts."``"""
        return (f"Change {_signed(self.swing)} (95% interval {_signed(self.low)} to {_signed(self.high)}), from "
                f"{self.pairs:,} paired playouts.")

    def sentence(self) -> str:
        to = f"P{self.player + 1}'s next decision ({self.until})" if self.until is not None else "the end"
        return (f"Decision {self.number}: P{self.player + 1}: {self.text}; P{self.player + 1}'s value went from "
                f"{self.before:.2f} to {self.after:.2f} by {to}: {self.interval()} ({self.pairs:,} paired playouts).")


@dataclass(frozen=True)
class CostlyDecision:
    """A judged decision of the reviewed seat: the chosen and the ``better``-looking move
    in words, their mean values on the same ``pairs`` playouts, ``cost`` (better less
    chosen) with its 95% interval ``low`` .. ``high``, and the event sentences each move
    would cause. ``mistake``: the interval excludes zero (``low > 0``); otherwise the
    decision is within noise."""

    number: int
    player: int
    chosen: str
    better: str
    chosen_value: float
    better_value: float
    chosen_events: tuple[str, ...]
    better_events: tuple[str, ...]
    better_action: object = field(compare=False, default=None)
    low: float = 0.0
    high: float = 0.0
    pairs: int = 0

    @property
    def cost(self) -> float:
        return self.better_value - self.chosen_value

    @property
    def mistake(self) -> bool:
        return self.low > 0

    def interval(self) -> str:
        """``"0.080 [+0.031, +0.129]"``: the cost and its interval."""
        return f"{_signed(self.cost)} [{_signed(self.low)}, {_signed(self.high)}]"

    def sentence(self) -> str:
        if not self.mistake:
            return (f"Decision {self.number}: P{self.player + 1} played {self.chosen}; the search's alternative "
                    f"{self.better}, on {self.pairs:,} paired playouts, differs by {self.interval()}: within noise, "
                    "not called a mistake.")
        because = "; ".join(e.rstrip(".") for e in self.better_events[:3]) or self.better
        instead = "; ".join(e.rstrip(".") for e in self.chosen_events[:3]) or self.chosen
        return (f"Decision {self.number}: P{self.player + 1} played {self.chosen}; better: {self.better}, because, "
                f"on a sampled deal of what P{self.player + 1} could not see, {because} (value "
                f"{self.better_value:.2f}), where on the same deal the move played gives: {instead} (value "
                f"{self.chosen_value:.2f}); a mistake: it cost {self.interval()} ({self.pairs:,} paired playouts).")


def value_words(win_loss: bool, depth: int | None) -> str:
    """What a value is, in words (the first part of :func:`scale_words`; the class's replay
    page shows it under its turning points, so the page and the report say the same)."""
    if win_loss:
        scale = ("1 = a win, 0 = a loss, -1 = a collective loss (every player loses), as the game's results count them")
    else:
        scale = "1 = a win (the top score at the end; players tied on it split the 1), 0 = a loss"
    cut = (f" (after {depth} decisions of a playout the game's own estimate of those chances stands in for the end)"
           if depth is not None else "")
    return (f"Values are shares of playouts won: {scale}. A playout starts from what the player could see, with "
            f"the hidden cards and future draws sampled, and greedy bots play on{cut}.")


def scale_words(win_loss: bool, depth: int | None) -> str:
    """The value scale in words (the text report's and the page's; see the module)."""
    return (f"{value_words(win_loss, depth)} A cost of 0.05 means the "
            "better move wins about 5 more games in 100 from that position. Every cost and swing comes with its 95% "
            "interval, computed from paired playouts (both moves, or both positions, on the same sampled deals and "
            "dice); a decision is called a mistake only when its interval excludes zero, otherwise it is within noise.")


def game_value_words(game) -> str:
    """:func:`value_words` for ``game``'s reviews (its returns' kind, its rollout depth)."""
    return value_words(returns_are_win_loss(game), ROLLOUT_DEPTH if getattr(game, "evaluate", None) is not None else None)


def _per_hundred(v: float) -> int:
    """A value (a share of playouts) as games in 100, rounded (never ``-0``)."""
    return round(v * 100) + 0


@dataclass
class Review:
    """A game's review (see the module). ``decisions``: every decision with a choice;
    ``costly``: the reviewed seat's mistakes (intervals above zero), ranked by their lower
    bound (the first ``top``; ``mistakes`` counts them all); ``noise``: its judged decisions
    whose interval includes zero, largest estimate first; ``judged``: how many of its
    decisions were judged; ``states[n]``: the position
    before decision ``n`` (for the widget); ``events[n]``: the event sentences from
    decision ``n`` to the next decision."""

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
    noise: list[CostlyDecision] = field(default_factory=list)
    judged: int = 0
    mistakes: int = 0
    win_loss: bool = False
    depth: int | None = ROLLOUT_DEPTH

    def scale(self) -> str:
        """The value scale and the meaning of the intervals, in words."""
        return scale_words(self.win_loss, self.depth)

    def _budget(self) -> str:
        first = max(self.playouts, MIN_PAIRS)
        return (f"the search's budget {self.playouts} playouts, every interval from {first} paired playouts at first, "
                f"up to {first * 2 ** (LOOKS - 1)} where undecided")

    def _judged_words(self) -> str:
        return (f"{self.judged} of P{self.seat + 1}'s decisions were checked against the search's top moves: "
                f"{self.mistakes} mistakes ({len(self.costly)} shown), the others not told apart from the move played "
                f"or worse than it ({len(self.noise)} within noise shown).")

    def text(self) -> str:
        """The report as plain text (the terminal's)."""
        lines = [f"Review of {self.title}, {self.players} players: {len(self.decisions)} decisions with a choice, "
                 f"{self._budget()}, seed {self.seed}.", "", self.scale(), "",
                 "Turning points (largest swings first, by the lower end of their interval):"]
        lines += [f"  {tp.sentence()}" for tp in self.turning_points] or ["  none told apart from zero"]
        lines += ["", f"P{self.seat + 1}'s costliest decisions (mistakes: intervals above zero):"]
        lines += [f"  {c.sentence()}" for c in self.costly] or ["  none: no decision's cost is told apart from zero"]
        lines += ["", self._judged_words()]
        if self.noise:
            lines += ["Within noise (not mistakes):"] + [f"  {c.sentence()}" for c in self.noise]
        return "\n".join(lines)

    def html(self) -> str:
        """The report as a self-contained HTML page (tables, no scripts), for a class."""
        def row(cells, tag="td"):
            return "<tr>" + "".join(f"<{tag}>{escape(str(c))}</{tag}>" for c in cells) + "</tr>"

        tps = [row(("Decision", "Player", "Move", "Before", "After", "Swing [95% interval]", "Until"), "th")] + [
            row((t.number, f"P{t.player + 1}", t.text, f"{t.before:.2f}", f"{t.after:.2f}",
                 t.interval(), t.until if t.until is not None else "end"))
            for t in self.turning_points]
        head = ("Decision", "Played", "Alternative (the search's)", "What it does (on a sampled deal)",
                "Cost [95% interval]", "Paired playouts", "Verdict")
        cost = [row(head, "th")] + [
            row((c.number, c.chosen, c.better, "; ".join(c.better_events[:3]) or "-", c.interval(), f"{c.pairs:,}",
                 "mistake" if c.mistake else "within noise")) for c in self.costly + self.noise]
        title = escape(f"Review of {self.title}")
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                f"<title>{title}</title><style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;"
                "line-height:1.4}table{border-collapse:collapse;width:100%}td,th{border:1px solid #999;"
                "padding:.3em;text-align:left;vertical-align:top}th{background:#eee}</style></head><body>"
                f"<h1>{title}</h1><p>{self.players} players; {len(self.decisions)} decisions with a choice, "
                f"{escape(self._budget())} (seed {self.seed}).</p>"
                f"<h2>How to read the values</h2><p class='hk-review-scale'>{escape(self.scale())}</p>"
                "<h2>Turning points</h2>"
                + ("<table>" + "".join(tps) + "</table>" if self.turning_points
                   else "<p>None told apart from zero.</p>")
                + f"<h2>P{self.seat + 1}'s costliest decisions</h2><p>{escape(self._judged_words())}</p>"
                + ("<table>" + "".join(cost) + "</table>" if self.costly or self.noise
                   else "<p>None: no decision's cost is told apart from zero.</p>")
                + "<ul>" + "".join(f"<li>{escape(c.sentence())}</li>" for c in self.costly + self.noise)
                + "</ul></body></html>\n")

    def save_html(self, path) -> None:
        """Write :meth:`html` to ``path`` atomically. Raises OSError."""
        atomic_write(path, self.html())


class _Playouts:
    """Paired playouts from one position for one player: playout ``k`` draws its
    determinisation with ``Random(chance_hash(seed, k))`` and rolls out with
    ``Random(chance_hash(seed, k, "rollout"))``, once per action of ``actions`` (``None``:
    the position itself). ``values[i][k]``: the player's value of playout ``k`` after
    action ``i``."""

    def __init__(self, ctx, state, player: int, actions, seed: int):
        self.ctx, self.state, self.player, self.seed = ctx, state, player, seed
        self.actions = actions if actions is not None else [None]
        self.values: list[list[float]] = [[] for _ in self.actions]

    def __len__(self) -> int:
        return len(self.values[0])

    def extend(self, n: int) -> None:
        game, policy, depth, evaluate, win_loss = self.ctx
        for k in range(len(self), n):
            base = determinise(game, self.state, self.player, random.Random(chance_hash(self.seed, k)))
            for i, a in enumerate(self.actions):
                d = base if a is None else base.copy()
                if a is not None:
                    d.apply_action(a)
                rng = random.Random(chance_hash(self.seed, k, "rollout"))
                policy.rng = rng
                self.values[i].append(rollout(d, policy, rng, depth, evaluate, win_loss)[self.player])

    def mean(self, i: int = 0) -> float:
        v = self.values[i]
        return math.fsum(v) / len(v)


class _Judgement:
    """A decision of the reviewed seat judged on paired playouts (see the module):
    ``actions[0]`` is the move played, the others the search's alternatives; each
    alternative's advantage is the mean of its paired differences, with an interval shared
    by the :data:`LOOKS` looks and the alternatives (Bonferroni)."""

    def __init__(self, ctx, state, player: int, actions, seed: int, first: int):
        self.runs = _Playouts(ctx, state, player, actions, seed)
        self.first, self.comparisons = first, LOOKS * (len(actions) - 1)
        for look in range(LOOKS):
            self.extend(look)
            ivs = self.intervals()
            if any(iv[1] > 0 for iv in ivs) or all(iv[2] < NEGLIGIBLE for iv in ivs):
                break  # decided: an alternative is better, or none is by more than a negligible cost

    def extend(self, look: int) -> None:
        self.runs.extend(self.first * 2 ** look)

    def intervals(self) -> list[tuple[float, float, float]]:
        chosen = self.runs.values[0]
        return [paired_interval([b - a for a, b in zip(chosen, v)], self.comparisons) for v in self.runs.values[1:]]

    def best(self) -> tuple[int, tuple[float, float, float]]:
        """``(i, (mean, low, high))``: the alternative ``actions[i]`` with the highest lower
        bound, or the highest mean while no lower bound is above zero."""
        ivs = self.intervals()
        above = [i for i, iv in enumerate(ivs) if iv[1] > 0]
        j = max(above, key=lambda i: ivs[i][1]) if above else max(range(len(ivs)), key=lambda i: ivs[i][0])
        return j + 1, ivs[j]


def _race(items, interval, extend, k: int) -> list:
    """Refine the ``items`` that might belong to the top ``k`` by estimate: at each look
    (1 .. :data:`LOOKS` - 1) the items whose interval ``interval(item) -> (estimate, low,
    high)`` straddles the cut between the ``k``-th and the next estimate get
    ``extend(item, look)``, until none does. Returns the items' final intervals."""
    for look in range(1, LOOKS):
        ivs = [interval(x) for x in items]
        if len(items) <= k:
            break
        ests = sorted((iv[0] for iv in ivs), reverse=True)
        cut = (ests[k - 1] + ests[k]) / 2
        unsure = [x for x, iv in zip(items, ivs) if iv[1] <= cut <= iv[2]]
        if not unsure:
            break
        for x in unsure:
            extend(x, look)
    return [interval(x) for x in items]


def _sentences(game, state, player: int, action, seed: int) -> tuple[str, ...]:
    """The sentences of what ``action`` would cause, as ``player`` may tell them: played on a
    determinisation, each event redacted by the game's visibility for a guessed position
    (:func:`haunted_kit.search.move_events`), so a sampled hidden value is never stated."""
    events, gain = move_events(game, state, player, action, random.Random(seed))
    out = [name_cells(e.text) for e in events if is_telling(e)]
    if gain:
        out.append(f"{getattr(game, 'score_name', 'score')} {gain:+g} at once.")
    return tuple(out)


def _size(iv) -> tuple[float, float]:
    """The interval of a swing's size ``|swing|`` from the swing's ``(mean, low, high)``."""
    _, lo, hi = iv
    if lo > 0:
        return lo, hi
    if hi < 0:
        return -hi, -lo
    return 0.0, max(-lo, hi)


def _turning_points(values: dict, decisions, final, turning: int, first: int) -> list[TurningPoint]:
    """The swings of each player's value (see the module), refined where they might be in
    the top ``turning`` and ranked by the lower bound of their size; swings whose interval
    includes zero are dropped."""
    pairs = []
    for p in sorted({d.player for d in decisions}):
        mine = [d for d in decisions if d.player == p]
        for a, b in zip(mine, mine[1:] + [None]):
            if b is not None or final is not None:
                pairs.append((a, b))

    def interval(a, b):
        xs = values[a.number].values[0]
        if b is None:
            return paired_interval([final[a.player] - x for x in xs], LOOKS)
        ys = values[b.number].values[0]
        return paired_interval([y - x for x, y in zip(xs, ys)], LOOKS)

    def size(pair):
        m, lo, hi = interval(*pair)
        return (abs(m), *_size((m, lo, hi)))

    def extend(pair, look):
        for d in pair:
            if d is not None:
                values[d.number].extend(first * 2 ** look)

    _race(pairs, size, extend, turning)
    ivs = [interval(a, b) for a, b in pairs]
    out = []
    for (a, b), iv in zip(pairs, ivs):
        if _size(iv)[0] > 0:
            xs = values[a.number].values[0]
            n = len(xs) if b is None else min(len(xs), len(values[b.number]))
            before = math.fsum(xs[:n]) / n  # the means over the playouts the interval pairs
            after = final[a.player] if b is None else math.fsum(values[b.number].values[0][:n]) / n
            out.append((_size(iv)[0], TurningPoint(a.number, a.player, a.text, before, after,
                                                   None if b is None else b.number, iv[1], iv[2], n)))
    out.sort(key=lambda x: (-x[0], x[1].number, x[1].player))
    return [t for _, t in out[:turning]]


def _check_request(state, seat, seed, playouts, top, turning, candidates) -> int:
    """:func:`review`'s seed, seat and counts checked; returns the seed. Raises ReviewError."""
    seed = check_seed(seed, error=ReviewError)
    if not is_integer(seat) or not 0 <= seat < state.players:
        raise ReviewError(f"seat must be a player index 0..{state.players - 1}, got {seat!r}")
    for name, v in (("playouts", playouts), ("top", top), ("turning", turning), ("candidates", candidates)):
        if not is_integer(v) or v < 1:
            raise ReviewError(f"{name} must be a whole number, 1 or more, got {v!r}")
    return seed


def _replay(game, state) -> list:
    """Re-play ``state``'s record from its start: the ``(entry, state after)`` pairs of
    :func:`states_along`. Raises MissingHook, DecisionCapReached, or ReviewError for a
    record that does not re-play or does not lead to ``state``."""
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
    return along


def _decision_events(game, along: list, end, seat: int) -> tuple:
    """Every decision, numbered from 1: ``(points, events)``, points the ``(number, step,
    entry)`` of each, events number -> the texts ``seat`` sees between it and the next."""
    points, number = [], 0
    for k, (entry, _) in enumerate(along[1:]):
        if not entry.chance:
            number += 1
            points.append((number, k, entry))
    events = {}
    for i, (n, k, entry) in enumerate(points):
        after = along[points[i + 1][1]][1] if i + 1 < len(points) else end
        before_log, after_log = getattr(along[k][1], "log", None), getattr(after, "log", None)
        events[n] = ([name_cells(e.text) for e in seen_events(game, after_log[len(before_log):], seat)]
                     if before_log is not None and after_log is not None else [])
    return points, events


def _value_decisions(ctx: tuple, along: list, points: list, *, seat: int, seed: int, playouts: int, first: int,
                     candidates: int, progress: bool, viewer=None) -> tuple:
    """Value the position of every decision with a choice (paired playouts) and search
    ``seat``'s (each decision's text as ``viewer`` may read it): returns
    ``(decisions, states, judged, values)``, judged the seat's
    decisions with other candidate moves, each with its :class:`_Judgement`."""
    game, depth = ctx[0], ctx[2]
    decisions, states, judged, values = [], {}, [], {}
    chosen_items = [p for p in points if len(along[p[1]][1].legal_actions()) > 1]
    items = progress_bar(chosen_items, "review") if progress else chosen_items
    for n, k, entry in items:
        s = along[k][1]
        p = entry.player
        # the position's value: playout k uses the same seeds at every decision (paired swings)
        values[n] = runs = _Playouts(ctx, s, p, None, chance_hash(seed, "value"))
        runs.extend(first)
        best = best_text = None
        if p == seat:
            res = SearchAgent(chance_hash(seed, "review", n), playouts=playouts, rollout_depth=depth, game=game).search(s)
            best, best_text = res.best, describe_action(res.best, s)
            others = [m.action for m in res.moves if m.action != entry.action][:candidates]
            if others:
                judged.append((n, s, p, [entry.action] + others,
                               _Judgement(ctx, s, p, [entry.action] + others, chance_hash(seed, "judge", n), first)))
        # another seat's decision reads as the viewer saw it (its events), never the action's own words
        text = name_cells(decision_words(game, along[k + 1][1], len(getattr(s, "log", None) or []), p, viewer,
                                         describe_action(entry.action, s)))
        decisions.append(Decision(n, k, p, entry.action, text, len(s.legal_actions()),
                                  runs.mean(), best, best_text, len(runs)))
        states[n] = s
    return decisions, states, judged, values


def _judge(game, judged: list, seed: int, top: int) -> tuple:
    """Give the judged decisions that might be among the ``top`` costliest more pairs,
    then name them: ``(checked, costly, noise)``, costly the mistakes by cost, noise
    those within noise."""
    _race(judged, lambda x: x[4].best()[1], lambda x, look: x[4].extend(look), top)
    checked = []
    for n, pos, p, cands, judgement in judged:
        j, (_, low, high) = judgement.best()
        runs, sent_seed = judgement.runs, chance_hash(seed, "events", n)
        checked.append(CostlyDecision(n, p, describe_action(cands[0], pos), describe_action(cands[j], pos), runs.mean(0),
                                      runs.mean(j), _sentences(game, pos, p, cands[0], sent_seed),
                                      _sentences(game, pos, p, cands[j], sent_seed), cands[j], low, high, len(runs)))
    costly = sorted((c for c in checked if c.mistake), key=lambda c: (-c.low, c.number))
    noise = sorted((c for c in checked if c.low <= 0 <= c.high), key=lambda c: (-c.cost, c.number))
    return checked, costly, noise


def review(state, *, seat: int = 0, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0, top: int = 3, turning: int = 5,
           candidates: int = 2, progress: bool = True, game=None, viewer="seat") -> Review:
    """Review the game that led to ``state`` (see the module).

    Args:
        state: any position of a registered game (a loaded save); its whole action
            record is reviewed.
        seat: the player (0-based) whose decisions are judged for the costly ones.
        playouts: the search budget at the seat's decisions and the first look of every
            value and paired judgement (a whole number >= 1; the first look has at least
            :data:`MIN_PAIRS` playouts); undecided intervals get up to ``2 ** (LOOKS - 1)``
            times as many.
        seed: seeds every search and playout (a seed of the kit).
        top: how many costly decisions (mistakes, and as many within noise); turning: how
            many turning points.
        candidates: how many of the search's top moves are judged against the chosen one.
        progress: show a progress bar (:mod:`haunted_kit.progress`).
        viewer: whose eyes the decisions' texts are for: ``"seat"`` (default: the reviewed
            seat), a player index, :data:`~haunted_kit.visibility.PUBLIC` (a class's replay)
            or ``None`` (everything). Another seat's decision is worded by the events it made
            as the viewer may see them (:func:`~haunted_kit.visibility.decision_words`), so a
            sealed offer of a game stopped mid-round stays sealed.

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
    seed = _check_request(state, seat, seed, playouts, top, turning, candidates)
    along = _replay(game, state)
    end = along[-1][1]
    evaluate = getattr(game, "evaluate", None)
    depth = ROLLOUT_DEPTH if evaluate is not None else None
    win_loss = returns_are_win_loss(game)
    ctx = (game, rollout_policy(game), depth, evaluate, win_loss)
    first = max(playouts, MIN_PAIRS)
    points, events = _decision_events(game, along, end, seat)
    decisions, states, judged, values = _value_decisions(ctx, along, points, seat=seat, seed=seed, playouts=playouts,
                                                         first=first, candidates=candidates, progress=progress,
                                                         viewer=seat if viewer == "seat" else viewer)
    checked, costly, noise = _judge(game, judged, seed, top)

    final = playout_values(state.returns(), win_loss) if state.is_terminal() else None
    swings = _turning_points(values, decisions, final, turning, first)
    decisions = [Decision(d.number, d.step, d.player, d.action, d.text, d.legal, values[d.number].mean(), d.best,
                          d.best_text, len(values[d.number])) for d in decisions]
    return Review(getattr(game, "title", game.name), state.players, seat, seed, playouts, decisions, swings,
                  costly[:top], states, events, final, noise[:top], len(checked), len(costly), win_loss, depth)
