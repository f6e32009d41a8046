"""House-rule impact report: what changing a rule does, measured.

:func:`compare` plays the reference box and a house-rule box of one game on the same
seeds with the same bots (a :class:`~haunted_kit.simulate.Grid` played twice by
:func:`~haunted_kit.simulate.simulate`, so the kit's one play loop and seat rule, in
processes or on Dask) and returns a :class:`Comparison`: side by side, each figure with
its 95% interval, the difference with its interval, a test and whether it is
significant.

Figures (rows of the report):

* win rate by seat (seat 1 = first to take a turn); for Haunted Lands a collective loss
  is a loss for every seat;
* the collective-loss rate (only games that have one: :func:`has_collective_loss`,
  Haunted Lands);
* game length in decisions (``game_decisions``) and in the game's own unit
  (``Game.game_length`` / ``length_name``: Haunted Lands rounds, estate seasons,
  Landmarks rounds);
* the score per player (``score_name``) and its parts by source (``Game.score_parts``:
  Haunted Lands valor by source, the estate's gold value by holding, Landmarks' module
  points by source).

Statistics (every interval is 95%, every test two-sided at 5%):

* a rate (wins, collective losses) over ``games`` games: Wilson score interval; the
  difference (house minus reference): Newcombe's hybrid score interval (from the two
  Wilson intervals);
* a mean (per game: decisions, length, the players' mean score and parts): Student t
  interval; the difference: Welch's t interval (Welch-Satterthwaite degrees of freedom);
* every row's test: a permutation test of the difference (:func:`permutation_p`, 4,999
  seeded relabellings of the pooled games), exact for any figure's distribution, where
  the z and Welch tests are only approximately so in the far tail that Holm's
  correction reads.

The two boxes are played on the same seeds, but a changed rule changes the whole game,
so the samples are treated as independent (no pairing). A report tests a dozen rows or
more, so tests on their own would mark about one unchanged row in twenty: ``*`` (a row's
``significant``) marks a difference that stays significant at 5% under Holm's step-down
correction over all rows of the report (:func:`holm_adjusted`; family-wise error 5%:
when the house rules change nothing, at most 5% of reports mark any row;
``benchmarks/bench_compare.py --splits 200`` measures it on two halves of the same
games). Each row keeps its own p-value beside the adjusted one.
:meth:`Comparison.games_for` says how many games per box give the difference's interval
a wanted half-width, worked out with the report's own intervals.

The kit level: no game is imported; games are reached through the registry and their
Game hooks.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import json
import math
import os
import tempfile
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from statistics import NormalDist

from .bots import default_agent
from .fileio import atomic_write
from .games import DEFAULT_GAME, DecisionCapReached, box_words, default_players, get_game, hook, option_defaults
from .progress import Bar
from .protocol import SCORE_ONLY_MEANINGS, is_integer
from .simulate import Grid, ProcessPool, SchedulerError, load_dataset, simulate
from .frames import nullable

__all__ = ["Comparison", "Row", "DEFAULT_GAMES", "compare", "default_games", "newcombe_interval", "t_interval", "two_proportion_z",
           "welch", "wilson_interval"]

#: the report's columns
HEADINGS = ("figure", "reference [95% CI]", "house rules [95% CI]", "difference [95% CI]", "p", "p Holm", "sig")

#: level of every interval and test
CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE
_Z = NormalDist().inv_cdf(1 - ALPHA / 2)

#: ``compare``'s default games per box for a game that declares none (a Game's optional
#: ``compare_games``, chosen so a report takes about 5 to 15 CPU seconds of games for both
#: boxes: Haunted Lands declares 500, the estate 300, Landmarks 250). A default Haunted
#: Lands report (4 players, greedy bots, one worker process per CPU for both boxes) takes
#: about 6 CPU seconds, about 6 s wall on two free cores and 16-21 s with the two cores
#: shared about nine ways (``benchmarks/bench_compare.py --runs 3``); a rate's difference
#: then has a 95% half-width of about +-5 pts.
DEFAULT_GAMES = 500


def default_games(game) -> int:
    """Games per box a report of ``game`` (a name or Game) plays when none are asked for:
    the Game's ``compare_games``, else :data:`DEFAULT_GAMES`."""
    g = get_game(game) if isinstance(game, str) else game
    return getattr(g, "compare_games", DEFAULT_GAMES)


# ============================================================================ statistics



def has_collective_loss(game) -> bool:
    """Whether ``game`` can end in a collective loss: its ``result_meanings`` give the
    ``collective_loss`` column a meaning other than the score-only games' "always false"
    (:data:`~haunted_kit.protocol.SCORE_ONLY_MEANINGS`). Haunted Lands: True."""
    meaning = getattr(game, "result_meanings", {}).get("collective_loss")
    return meaning is not None and meaning != SCORE_ONLY_MEANINGS["collective_loss"]

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def t_sf2(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic ``t`` with ``df`` degrees of freedom."""
    if math.isinf(df):
        return 2 * (1 - NormalDist().cdf(abs(t)))
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, level: float = CONFIDENCE) -> float:
    """The two-sided critical value of Student's t for ``level`` (1.96 as df grows)."""
    lo, hi = 0.0, 1e4
    for _ in range(64):  # bisection on the two-sided p-value, which falls as t grows
        mid = (lo + hi) / 2
        if t_sf2(mid, df) > 1 - level:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval (95%) of a rate of ``k`` successes in ``n`` trials (n >= 1)."""
    p = k / n
    den = 1 + _Z * _Z / n
    mid = (p + _Z * _Z / (2 * n)) / den
    half = _Z * math.sqrt(p * (1 - p) / n + _Z * _Z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def newcombe_interval(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval (95%) of the difference of rates ``k2/n2 - k1/n1``
    (his method 10, from the two Wilson intervals)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1)
    l2, u2 = wilson_interval(k2, n2)
    d = p2 - p1
    return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the two-proportion z test (pooled rate) of ``k1/n1`` against
    ``k2/n2``; 1 when both rates are 0 or both are 1 (nothing to tell apart)."""
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k2 / n2 - k1 / n1) / se
    return 2 * (1 - NormalDist().cdf(abs(z)))


def _mean_var(xs) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    return m, (sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0)


def t_interval(xs) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``xs`` (at least 2 values) with its Student t
    interval (95%)."""
    n = len(xs)
    m, v = _mean_var(xs)
    half = t_quantile(n - 1) * math.sqrt(v / n)
    return m, m - half, m + half


def welch(a, b) -> tuple[float, float, float, float]:
    """``(difference, low, high, p)``: ``mean(b) - mean(a)`` with Welch's t interval
    (95%) and the two-sided p-value of Welch's t test (Welch-Satterthwaite degrees of
    freedom). Both samples without spread: the interval is the difference itself and p
    is 1 for equal means, 0 otherwise."""
    ma, va = _mean_var(a)
    mb, vb = _mean_var(b)
    d = mb - ma
    sa, sb = va / len(a), vb / len(b)
    se2 = sa + sb
    if se2 == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    df = se2 ** 2 / ((sa ** 2 / (len(a) - 1) if sa else 0) + (sb ** 2 / (len(b) - 1) if sb else 0))
    se = math.sqrt(se2)
    half = t_quantile(df) * se
    return d, d - half, d + half, t_sf2(d / se, df)


#: label shuffles of a row's permutation test: the smallest p-value it can give is
#: 1 / (SHUFFLES + 1) = 0.0002, well below Holm's smallest threshold for a report's rows
#: (0.05 / 20 = 0.0025)
SHUFFLES = 4999


def permutation_p(a, b, *, shuffles: int = SHUFFLES, seed: int = 0) -> float:
    """Two-sided p-value of ``mean(b) - mean(a)`` by a permutation test: the games of both
    boxes pooled, ``shuffles`` random relabellings (a seeded generator: the same samples,
    the same p), p = (1 + relabellings at least as far from 0 as the observed difference)
    / (1 + shuffles).

    Exact whatever the figure's distribution (a win flag, a count of decisions, points
    mostly zero): when the house rules change nothing, the games of both boxes are
    exchangeable, so a p-value below ``alpha`` comes in at most ``alpha`` of reports. The
    z and Welch tests only approach that as games grow, and miss it most in the far tail
    where Holm's correction reads them (measured: 0.44% of rows below 0.05/13 instead of
    0.38%, ``benchmarks/bench_compare.py --splits 1000`` before this test).

    Args:
        a, b: the two samples (numbers; at least one value each).
        shuffles: relabellings (at least 1).
        seed: the generator's seed.

    Returns:
        a p-value in (0, 1]; 1 when every value is the same.
    """
    import numpy as np  # lazy: only the report's statistics need it

    x = np.concatenate([np.asarray(a, dtype=float), np.asarray(b, dtype=float)])
    n1 = len(a)
    observed = abs(x[n1:].mean() - x[:n1].mean())
    if np.all(x == x[0]):
        return 1.0
    perms = _relabellings(len(x), shuffles, seed)
    total = x.sum()
    first = x[perms[:, :n1]].sum(axis=1)          # each relabelling's first sample, summed
    diffs = np.abs((total - first) / (len(x) - n1) - first / n1)
    # a relabelling as far as the observed one counts, with a tolerance for the rounding of sums
    hits = int(np.count_nonzero(diffs >= observed - 1e-12 * max(1.0, abs(observed))))
    return (1 + hits) / (1 + len(perms))


@functools.lru_cache(maxsize=2)
def _relabellings(n: int, shuffles: int, seed: int):
    """``shuffles`` random orders of ``range(n)`` (a read-only ``shuffles x n`` int32
    array), seeded; kept for the report's other rows (about 20 MB for 1,000 games)."""
    import numpy as np  # lazy: only the report's statistics need it

    rng = np.random.default_rng(seed)
    out = rng.permuted(np.tile(np.arange(n, dtype=np.int32), (shuffles, 1)), axis=1)
    out.setflags(write=False)
    return out


def holm_adjusted(pvalues) -> list[float]:
    """Holm's step-down adjusted p-values of ``pvalues`` (same order; each in [0, 1]).

    With the ``m`` p-values sorted ascending, the ``i``-th (``i`` from 1) is multiplied by
    ``m - i + 1``, the running maximum is taken (an adjusted p-value never falls as the raw
    one grows) and the result capped at 1. A row is significant after the correction when
    its adjusted p-value is below 5%: the chance that any of the ``m`` rows is marked when
    no figure changed is then at most 5% (the family-wise error), whatever the rows'
    dependence. E.g. ``[0.01, 0.04, 0.03, 0.005]`` -> ``[0.03, 0.06, 0.06, 0.02]``."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def holm(pvalues, alpha: float = ALPHA) -> list[bool]:
    """Which of ``pvalues`` are significant under Holm's step-down correction
    (family-wise error ``alpha``): their :func:`holm_adjusted` p-value is below ``alpha``."""
    return [q < alpha for q in holm_adjusted(pvalues)]


# ============================================================================ the report


@dataclass
class Row:
    """One figure of the report. ``kind`` is ``"rate"`` (Wilson / Newcombe / z test) or
    ``"mean"`` (t / Welch); ``ref`` and ``house`` are ``(estimate, low, high)``;
    ``diff`` is ``(house - reference, low, high)``; ``p`` the test's two-sided p-value on
    its own; ``p_holm`` the Holm-adjusted p-value over every row of the report
    (:func:`holm_adjusted`); ``significant`` p_holm < 5% (the report's ``*``: when no
    figure changed, at most 5% of reports mark any row); ``alone`` p < 5% (the test on its
    own, about one unchanged row in twenty); ``spread`` each side's variance of one
    observation (p(1-p) for a rate), for :meth:`games_for`."""

    group: str
    name: str
    kind: str
    ref: tuple
    house: tuple
    diff: tuple
    p: float
    n: int
    spread: tuple = (0.0, 0.0)
    p_holm: float = 1.0
    significant: bool = False
    alone: bool = False

    def half_width(self, games: float) -> float:
        """The half-width of the difference's 95% interval with ``games`` games per box,
        worked out with the report's own interval at the estimates measured: for a rate
        Newcombe's interval at the two rates (``k = rate * games``), for a mean Welch's t
        interval at the two variances (Welch-Satterthwaite degrees of freedom). With the
        games played (``games == n``) it is the half-width shown, ``(high - low) / 2``."""
        if self.kind == "rate":
            p1, p2 = self.ref[0], self.house[0]
            lo, hi = newcombe_interval(p1 * games, games, p2 * games, games)
            return (hi - lo) / 2
        va, vb = self.spread
        if va + vb == 0:
            return 0.0
        df = (va + vb) ** 2 / ((va * va + vb * vb) / (games - 1))
        return t_quantile(df) * math.sqrt((va + vb) / games)

    def games_for(self, half_width: float) -> int:
        """The fewest games per box (at least 2) for the difference's 95% interval to be
        at most ``+-half_width`` (rates in rate units, 0.05 = 5 points; means in the
        figure's units), by :meth:`half_width` at the estimates measured: so it is at most
        :attr:`n` exactly when the interval shown is already that narrow. E.g. a rate of 0
        in both boxes: Newcombe's half-width is z^2 / (games + z^2), and +-5 points needs
        z^2 (1 / 0.05 - 1) = 72.99 -> 73 games per box.

        Raises:
            ValueError: ``half_width`` not more than 0.
        """
        if not half_width > 0:
            raise ValueError(f"half_width must be more than 0, got {half_width!r}")
        lo, hi = 1, 2  # half_width(hi) <= wanted; every n <= lo is too wide (n = 1 gives no interval)
        while self.half_width(hi) > half_width:
            lo, hi = hi, hi * 2
        while hi - lo > 1:  # the width falls as the games grow
            mid = (lo + hi) // 2
            if self.half_width(mid) > half_width:
                lo = mid
            else:
                hi = mid
        return hi

    def to_dict(self) -> dict:
        return {"group": self.group, "figure": self.name, "kind": self.kind,
                "reference": self.ref[0], "reference_low": self.ref[1], "reference_high": self.ref[2],
                "house": self.house[0], "house_low": self.house[1], "house_high": self.house[2],
                "difference": self.diff[0], "difference_low": self.diff[1], "difference_high": self.diff[2],
                "p": self.p, "p_holm": self.p_holm, "significant": self.significant,
                "significant_alone": self.alone, "games": self.n}


def _rate_row(group, name, ref_flags, house_flags) -> Row:
    n1, n2 = len(ref_flags), len(house_flags)
    k1, k2 = int(sum(ref_flags)), int(sum(house_flags))
    p1, p2 = k1 / n1, k2 / n2
    return Row(group, name, "rate", (p1, *wilson_interval(k1, n1)), (p2, *wilson_interval(k2, n2)),
               (p2 - p1, *newcombe_interval(k1, n1, k2, n2)), permutation_p(ref_flags, house_flags), n1,
               (p1 * (1 - p1), p2 * (1 - p2)))


def _mean_row(group, name, ref_values, house_values) -> Row:
    d, lo, hi, _p = welch(ref_values, house_values)
    return Row(group, name, "mean", t_interval(ref_values), t_interval(house_values), (d, lo, hi),
               permutation_p(ref_values, house_values), len(ref_values),
               (_mean_var(ref_values)[1], _mean_var(house_values)[1]))


def _per_game(frame) -> "pd.DataFrame":  # noqa: F821
    """One row per game (the first seat's row), sorted by game."""
    return frame[frame["seat"] == 1].sort_values("game_id").reset_index(drop=True)


def _parts_per_game(frame) -> tuple[list[str], dict]:
    """The score sources (in first-seen order) and, per source, the players' mean points
    of each game (game order)."""
    parts = [json.loads(t) for t in frame["score_parts"]]
    sources = list(dict.fromkeys(k for p in parts for k in p))
    ids = list(frame["game_id"])
    by_game: dict = {}
    for gid, p in zip(ids, parts):
        by_game.setdefault(gid, []).append(p)
    out = {s: [sum(p.get(s, 0) for p in ps) / len(ps) for _, ps in sorted(by_game.items())] for s in sources}
    return sources, out


def _rows(game, ref, house, players: int) -> list[Row]:
    """The report's rows, house against reference; every row's permutation test uses the
    same seeded relabellings of the games (:func:`_relabellings`, kept), so a report is
    the same every time."""
    rows = []

    for seat in range(1, players + 1):
        rows.append(_rate_row("win rate by seat", f"seat {seat} wins", list(ref[ref["seat"] == seat]["won"]),
                              list(house[house["seat"] == seat]["won"])))
    g1, g2 = _per_game(ref), _per_game(house)
    if has_collective_loss(game):
        rows.append(_rate_row("collective loss", "collective-loss rate", list(g1["collective_loss"]),
                              list(g2["collective_loss"])))
    rows.append(_mean_row("game length", "decisions per game", list(g1["game_decisions"]), list(g2["game_decisions"])))
    if hasattr(game, "game_length"):
        unit = getattr(game, "length_name", "turns")
        rows.append(_mean_row("game length", f"{unit} per game", list(g1["game_turns"]), list(g2["game_turns"])))
    score = getattr(game, "score_name", "score")
    mean1 = list(ref.groupby("game_id", sort=True)["score"].mean())
    mean2 = list(house.groupby("game_id", sort=True)["score"].mean())
    rows.append(_mean_row(f"{score} by source", f"{score} per player (total)", mean1, mean2))
    s1, p1 = _parts_per_game(ref)
    s2, p2 = _parts_per_game(house)
    zeros = [0.0] * len(mean1)
    for src in list(dict.fromkeys(s1 + s2)):
        if not any(p1.get(src, zeros)) and not any(p2.get(src, zeros)):  # a source neither box ever scores
            continue
        rows.append(_mean_row(f"{score} by source", f"{score}: {src}", p1.get(src, zeros), p2.get(src, zeros)))
    for r, q in zip(rows, holm_adjusted([r.p for r in rows])):
        r.p_holm = q
        r.significant = q < ALPHA
        r.alone = r.p < ALPHA
    return rows


def _box_name(box, game, reference: bool) -> str:
    """The box as the report names it: its folder's name, with ``reference`` for the
    game's own box as the reference and ``same data as the reference`` for a house box
    whose files are the reference's."""
    name = Path(box.path).name
    own = getattr(game, "default_box", None)
    if own is not None and own().fingerprint == box.fingerprint:
        return f"reference box ({name})" if reference else f"{name} (same data as the reference box)"
    return name


@dataclass
class Comparison:
    """What :func:`compare` measured: the settings, both boxes (``reference_name``,
    ``house_name``, their fingerprints), the :class:`Row` figures, both datasets' rows
    (``reference_rows``, ``house_rows``: :data:`haunted_kit.simulate.COLUMNS`, sorted by
    game and seat), the ``new_game`` options both boxes were played with and the wall
    time in seconds."""

    game: str
    title: str
    reference_name: str
    house_name: str
    fingerprints: tuple
    players: int
    agents: str
    games: int
    seed: int
    rows: list = field(default_factory=list)
    reference_rows: object = None
    house_rows: object = None
    seconds: float = 0.0
    options: dict = field(default_factory=dict)
    #: per box (reference, house), the seeds of the games stopped at the decision cap
    #: (:func:`haunted_kit.games.decision_cap`): they have no result and are left out of every row
    capped: tuple = ((), ())
    cap_words: str = ""  #: the house-rule box in words (:func:`haunted_kit.games.box_words`)

    def significant(self, alone: bool = False) -> list[Row]:
        """The rows whose difference is significant at 5% after Holm's correction over
        the report's rows (the rows marked ``*``); ``alone``: each test on its own."""
        return [r for r in self.rows if (r.alone if alone else r.significant)]

    def row(self, name: str) -> Row:
        """The row named ``name`` (e.g. ``"collective-loss rate"``); KeyError naming the known ones."""
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(f"no figure {name!r} (known: {', '.join(r.name for r in self.rows)})")

    def identical_games(self) -> bool:
        """Every seed's game gave the same rows in both boxes (every column)."""
        return self.reference_rows.reset_index(drop=True).equals(self.house_rows.reset_index(drop=True))

    def games_for(self, half_width: float, kind: str = "rate") -> int:
        """Games per box for every ``kind`` row's difference interval to be at most
        ``+-half_width`` (rates: in rate units, 0.05 = 5 points; means: in the figure's
        units), at the estimates measured (:meth:`Row.games_for`)."""
        return max((r.games_for(half_width) for r in self.rows if r.kind == kind), default=2)

    def games_frame(self):
        """One row per game of both boxes, as a pandas DataFrame, reference games first,
        each box in seed order: ``box`` (``reference`` or ``house``), ``box_name``,
        ``game_id``, ``seed``, ``players``, ``options`` (JSON), ``lineup``,
        ``game_decisions``, ``game_turns`` (the game's own length unit, ``length_name``),
        ``capped`` (stopped at the decision cap: no result, left out of every figure),
        ``collective_loss`` (games that have one), then per seat ``s`` (1 = first to take
        a turn) ``seat{s}_player`` (0-based player index), ``seat{s}_agent``,
        ``seat{s}_score``, ``seat{s}_rank``, ``seat{s}_won`` and ``seat{s}_score_parts``
        (JSON, source -> points): the per-seat columns of
        :data:`haunted_kit.simulate.COLUMNS` side by side."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        keep = ["game_id", "seed", "players", "options", "lineup", "game_decisions", "game_turns", "capped"]
        if has_collective_loss(get_game(self.game)):
            keep.append("collective_loss")
        seat_cols = ["player", "agent", "score", "rank", "won", "score_parts"]
        frames = []
        for box, name, rows in (("reference", self.reference_name, self.reference_rows),
                                ("house", self.house_name, self.house_rows)):
            per_game = rows[rows["seat"] == 1][keep].set_index("game_id")
            for seat in range(1, self.players + 1):
                one = rows[rows["seat"] == seat].set_index("game_id")[seat_cols]
                per_game = per_game.join(one.rename(columns={c: f"seat{seat}_{c}" for c in seat_cols}))
            per_game = per_game.sort_values("seed").reset_index()
            per_game.insert(0, "box", box)
            per_game.insert(1, "box_name", name)
            frames.append(per_game)
        return pd.concat(frames, ignore_index=True)

    def write_games(self, path) -> Path:
        """Write :meth:`games_frame` to ``path`` atomically: Parquet for a ``.parquet``
        name, else CSV. Returns the path. Raises OSError (the old file, if any, is left
        as it was)."""
        path = Path(path)
        frame = self.games_frame()
        if path.suffix.lower() == ".parquet":
            buf = io.BytesIO()
            frame.to_parquet(buf, index=False)
            atomic_write(path, buf.getvalue())
        else:
            atomic_write(path, lambda fh: frame.to_csv(fh, index=False))
        return path

    def to_frame(self):
        """The rows as a pandas DataFrame (one row per figure, :meth:`Row.to_dict`)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it


        return nullable(pd.DataFrame([r.to_dict() for r in self.rows]))

    # ---------------------------------------------------------------- text
    def _cells(self, r: Row) -> list[str]:
        if r.kind == "rate":
            f = lambda v: f"{100 * v:.1f}%"  # noqa: E731
            fd = lambda v: f"{100 * v:+.1f}"  # noqa: E731
            unit = " pts"
        else:
            f = lambda v: f"{v:.2f}"  # noqa: E731
            fd = lambda v: f"{v:+.2f}"  # noqa: E731
            unit = ""
        fp = lambda v: "<0.001" if v < 0.001 else f"{v:.3f}"  # noqa: E731
        return [r.name, f"{f(r.ref[0])} [{f(r.ref[1])}, {f(r.ref[2])}]",
                f"{f(r.house[0])} [{f(r.house[1])}, {f(r.house[2])}]",
                f"{fd(r.diff[0])}{unit} [{fd(r.diff[1])}, {fd(r.diff[2])}]", fp(r.p), fp(r.p_holm),
                "*" if r.significant else ""]

    def header(self) -> list[str]:
        opts = "".join(f", {k} {(','.join(map(str, v)) or 'none') if isinstance(v, (list, tuple)) else v}"
                       for k, v in self.options.items())
        return [f"{self.title}: house rules {self.house_name} against {self.reference_name}",
                f"{self.games} games per box, seeds {self.seed}..{self.seed + self.games - 1}, {self.players} players"
                f"{opts}, agents {self.agents} (the same seeds and bots for both boxes)"]

    def capped_lines(self) -> list[str]:
        """One sentence per box with games stopped at the decision cap (none when every game ended)."""
        return [f"CAPPED: {len(seeds)} of {self.games} {name} games did not end within the decision cap (seeds "
                f"{', '.join(map(str, seeds[:20]))}{' ...' if len(seeds) > 20 else ''}) and are left out of every "
                f"figure; box: {words}. Check it with 'haunted-kit check-box --game {self.game} DIR'."
                for name, seeds, words in (("reference-box", self.capped[0], self.reference_name),
                                           ("house-rule", self.capped[1], self.cap_words)) if seeds]

    def no_winner_shares(self) -> tuple:
        """Per box (reference, house), the share of the games that ended in which no seat
        won (the game's ``won``: a tie at the top or a collective loss), from 0 to 1;
        ``None`` for a box whose rows are not kept."""
        shares = []
        for rows in (self.reference_rows, self.house_rows):
            if rows is None or not len(rows):
                shares.append(None)
                continue
            ended = rows[~rows["capped"]] if "capped" in rows else rows
            won = ended.groupby("game_id")["won"].any()
            shares.append(float(1 - won.mean()) if len(won) else None)
        return tuple(shares)

    def ended_games(self) -> tuple:
        """Per box (reference, house), the games that ended (``games`` less those stopped at
        the decision cap): the games every figure counts."""
        return tuple(self.games - len(seeds) for seeds in self.capped)

    def wins_line(self) -> str:
        """What "seat N wins" counts, in the game's words (``result_meanings["won"]``), and
        the share of games no seat won in each box: why the seats' rates need not add to 100%."""
        meaning = getattr(get_game(self.game), "result_meanings", {}).get("won", "this player won")
        line = f"seat N wins: the share of the games that ended in which that seat won; won = {meaning}."
        ref, house = self.no_winner_shares()
        if ref is not None and house is not None:
            line += (f" No seat won {100 * ref:.1f}% of the reference games and {100 * house:.1f}% of the "
                     "house-rule games, so the seats' rates add up to 100% less that.")
        return line

    def notes(self) -> list[str]:
        rates = [r for r in self.rows if r.kind == "rate"]
        lines = [*self.capped_lines(), self.wins_line(),
            "95% intervals. Rates: Wilson (each box), Newcombe hybrid score (difference). "
            "Means (per game; a score: the players' mean in each game): Student t (each box), Welch t (difference). "
            f"p: a permutation test of the difference ({SHUFFLES:,} random relabellings of the two boxes' games, "
            "exact whatever the figure's distribution).",
            f"* = significant at 5% after Holm's correction over all {len(self.rows)} rows: p is each test on its "
            "own, p Holm the adjusted p-value; when the house rules change nothing, at most 5% of reports mark any "
            "row (without the correction about one unchanged row in twenty would be marked).",
        ]
        if rates:
            widest = max(rates, key=lambda r: r.diff[2] - r.diff[1])
            got = (widest.diff[2] - widest.diff[1]) / 2
            unit = "games" if not any(self.capped) else "games that end"
            widths = [f"+-{100 * w:g} pts needs {self.games_for(w)} {unit} per box" for w in (0.05, 0.02)]
            ended = self.ended_games()
            counted = (f"{self.games} games per box" if ended == (self.games, self.games) else
                       f"{ended[0]} reference and {ended[1]} house-rule games that ended (of {self.games} per box)")
            lines.append(f"Precision: the widest rate difference here is +-{100 * got:.1f} pts with {counted}; "
                         f"at the rates measured, " + "; ".join(widths) + " (Newcombe's interval worked out "
                         "for more games; widths shrink about as 1/sqrt(games): half the width takes about 4x the "
                         "games).")
        return lines

    def table(self) -> str:
        """The report as a text table for the terminal."""
        head = list(HEADINGS)
        body, groups = [], []
        for r in self.rows:
            body.append(self._cells(r))
            groups.append(r.group)
        widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
        line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()  # noqa: E731
        out = [*self.header(), "", line(head), line(["-" * w for w in widths])]
        last = None
        for g, cells in zip(groups, body):
            if g != last:
                out.append(f"{g}:")
                last = g
            out.append(line(cells))
        return "\n".join(out + [""] + self.notes())

    def __str__(self) -> str:
        return self.table()

    # ---------------------------------------------------------------- HTML
    def figure_png(self) -> bytes:
        """The differences with their 95% intervals as a PNG (black and white: filled
        marks are significant at 5% after Holm's correction, open ones are not; rates in percentage points,
        means as a percentage of the reference's mean)."""
        from matplotlib.figure import Figure  # lazy: matplotlib only for the HTML report

        rates = [r for r in self.rows if r.kind == "rate"]
        means = [r for r in self.rows if r.kind == "mean" and r.ref[0]]  # no percentage of a zero mean
        fig = Figure(figsize=(8, 1.2 + 0.32 * (len(rates) + len(means))), dpi=110)
        axes = fig.subplots(2, 1, gridspec_kw={"height_ratios": [max(1, len(rates)), max(1, len(means))]})
        panels = ((axes[0], rates, 100.0, "rates: house minus reference, percentage points"),
                  (axes[1], means, None, "means: house minus reference, % of the reference's mean"))
        for ax, rows, scale, label in panels:
            for i, r in enumerate(rows):
                k = scale if scale is not None else 100.0 / abs(r.ref[0])
                y = len(rows) - 1 - i
                d, lo, hi = (v * k for v in r.diff)
                ax.plot([lo, hi], [y, y], color="black", linewidth=1.2)
                ax.plot([d], [y], marker="o", markersize=6, color="black",
                        markerfacecolor="black" if r.significant else "white")
            ax.axvline(0, color="black", linestyle="--", linewidth=0.8)
            ax.set_yticks(range(len(rows)))
            ax.set_yticklabels([r.name for r in reversed(rows)], fontsize=8)
            ax.set_xlabel(label, fontsize=8)
            ax.tick_params(axis="x", labelsize=8)
            ax.set_ylim(-0.7, max(0.7, len(rows) - 0.3))
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()

    def html(self) -> str:
        """The report as one self-contained HTML page (the table, the notes and the
        figure embedded as PNG), readable printed in black and white."""
        head = "".join(f"<th>{escape(h)}</th>" for h in HEADINGS)
        body, last = [], None
        for r in self.rows:
            if r.group != last:
                body.append(f'<tr><th colspan="{len(HEADINGS)}" class="group">{escape(r.group)}</th></tr>')
                last = r.group
            cells = self._cells(r)
            strong = ' class="sig"' if r.significant else ""
            body.append(f"<tr{strong}>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        png = base64.b64encode(self.figure_png()).decode("ascii")
        ref_fp, house_fp = self.fingerprints
        title = f"House rules {self.house_name} against {self.reference_name}"
        return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>
body {{ font-family: sans-serif; color: #000; background: #fff; max-width: 62em; margin: 1em auto; }}
table {{ border-collapse: collapse; font-size: 0.9em; }}
th, td {{ border: 1px solid #000; padding: 0.2em 0.5em; text-align: right; }}
td:first-child, th.group {{ text-align: left; }}
th.group {{ background: #fff; font-style: italic; }}
tr.sig td {{ font-weight: bold; }}
</style></head><body>
<h1>{escape(self.title)}: house-rule impact report</h1>
<p>Reference box: <b>{escape(self.reference_name)}</b> (fingerprint <code>{escape(str(ref_fp))}</code>)<br>
House-rule box: <b>{escape(self.house_name)}</b> (fingerprint <code>{escape(str(house_fp))}</code>)</p>
<p>{escape(self.header()[1])}</p>
<table><thead><tr>{head}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table>
<p>Bold rows marked * : significant at 5% after Holm's correction over all the rows.</p>
<ul>{''.join(f'<li>{escape(n)}</li>' for n in self.notes())}</ul>
<h2>The differences with their 95% intervals</h2>
<p>Filled marks are significant at 5% after Holm's correction, open marks are not; the dashed line is no difference.</p>
<img alt="Differences between the house rules and the reference box with 95% intervals"
 src="data:image/png;base64,{png}">
</body></html>
"""

    def write_html(self, path) -> Path:
        """Write :meth:`html` to ``path`` atomically (a temporary file renamed; an
        interrupted write leaves no broken report). Returns the path."""
        path = Path(path)
        atomic_write(path, self.html())
        return path


# ============================================================================ running


def _settle(g, box, reference, games, players, agents) -> tuple:
    """:func:`compare`'s defaults filled in and boxes loaded: ``(games, players, agents,
    house, reference)``. Raises ValueError for too few games, MissingHook."""
    if games is None:
        games = default_games(g)
    if not is_integer(games) or games < 2:
        raise ValueError(f"games must be a whole number of at least 2 (an interval needs two games), got {games!r}")
    if players is None:
        players = default_players(g)
    agents = default_agent(g) if agents is None else agents
    house = hook(g, "load_box", "compare")(box) if isinstance(box, (str, Path)) else box
    if reference is None:
        ref = hook(g, "default_box", "compare (the reference box)")()
    else:
        ref = hook(g, "load_box", "compare")(reference) if isinstance(reference, (str, Path)) else reference
    return games, players, agents, house, ref


def _play_both(grid: Grid, ref, house, *, workers: int, dask: bool, scheduler: str | None, progress: bool) -> tuple:
    """Play ``grid`` with the reference box, then the house box, on one set of workers
    into a temporary folder: ``(reference rows, house rows)`` (:func:`load_dataset`).
    Raises SchedulerError (nothing to resume), KeyboardInterrupt when interrupted."""
    with tempfile.TemporaryDirectory(prefix="haunted-kit-compare-") as tmp, contextlib.ExitStack() as stack:
        # both boxes on one set of worker processes: each process starts (imports the kit
        # and the game) once, and the house games follow the reference ones without a pause
        pool = None if dask or scheduler or workers == 1 else stack.enter_context(ProcessPool(workers))
        bar = Bar(2 * len(grid), f"compare {grid.game}") if progress else None
        try:
            for name, b in (("reference", ref), ("house", house)):
                try:
                    report = simulate(grid, Path(tmp) / name, box=b, workers=workers, dask=dask, scheduler=scheduler,
                                      progress=bar if bar is not None else False, pool=pool)
                except SchedulerError as exc:  # the games are in a temporary folder: nothing to resume
                    if exc.done is None:
                        raise
                    raise SchedulerError(f"lost the Dask scheduler at {exc.address} after {exc.done} of {exc.total} "
                                         f"games of the {name} box; compare keeps no partial run: rerun the "
                                         "command") from None
                if report.interrupted:
                    raise KeyboardInterrupt
        finally:
            if bar is not None:
                bar.close()
        ref_rows = load_dataset(Path(tmp) / "reference")
        house_rows = load_dataset(Path(tmp) / "house")
    return ref_rows, house_rows


def _ended(g, game: str, games: int, boxes: tuple, both_rows: tuple) -> tuple:
    """The seeds each box's games were stopped at the decision cap, and each box's rows
    of the games that ended: ``(capped, ended)``. Raises DecisionCapReached when fewer
    than 2 games of a box ended."""
    capped = tuple(tuple(sorted(set(int(x) for x in rows.loc[rows["capped"], "seed"]))) for rows in both_rows)
    ended = [rows[~rows["capped"]] for rows in both_rows]
    for name, b, rows, seeds in zip(("reference", "house-rule"), boxes, ended, capped):
        if rows["game_id"].nunique() < 2:  # no interval can be drawn: say why instead of a report of nothing
            raise DecisionCapReached(f"compare: {len(seeds)} of {games} {name} games did not end within the decision "
                                     f"cap (seeds {', '.join(map(str, seeds[:20]))}), too few ended to compare; box: "
                                     f"{box_words(g, b)}. Check it with 'haunted-kit check-box --game {game} DIR'.",
                                     seed=seeds[0] if seeds else None)
    return capped, ended


def compare(box, *, game: str = DEFAULT_GAME, reference=None, games: int | None = None, seed: int = 0,
            players: int | None = None, agents: str | None = None, options: dict | None = None,
            workers: int | None = None, dask: bool = False, scheduler: str | None = None,
            progress: bool = True) -> Comparison:
    """Play ``reference`` and ``box`` on the same seeds with the same bots and compare.

    Args:
        box: the house-rule box: a loaded box of ``game``, or its folder (loaded with the
            Game's ``load_box``).
        game: a registered game's short name.
        reference: the box to compare against (a box or folder; default: the game's own,
            ``default_box()``).
        games: games per box (seeds ``seed .. seed + games - 1``; at least 2; default
            :func:`default_games`: the game's ``compare_games``).
        seed: the first seed.
        players: player count (default: the game's ``default_players``,
            :func:`haunted_kit.games.default_players`: 4 for Haunted Lands, 3 for the companions).
        agents: an agent lineup (:mod:`haunted_kit.bots`), one spec per seat, repeating
            (default: the game's :func:`~haunted_kit.bots.default_agent`, greedy when it has one).
        options: other ``new_game`` keywords, one value each, over the defaults of the
            game's declared ``options`` (:func:`~haunted_kit.games.option_defaults`:
            Haunted Lands: ``mode``, ``extra_ghost_cards``; e.g. Landmarks'
            ``rounds``).
        workers, dask, scheduler: as :func:`haunted_kit.simulate.simulate`.
        progress: one progress bar over both boxes' games.

    Returns:
        a :class:`Comparison`.

    Raises:
        ValueError: an unknown game or agent, a bad count, a box the game cannot load
            (the game's BoxError) or a grid cell the box cannot play; MissingHook (a
            ValueError) naming ``load_box`` or ``default_box`` for a game without it.
        DecisionCapReached (a RuntimeError): fewer than 2 games of a box ended within the
            decision cap (the message names the seeds and the box). Fewer capped games are
            counted in ``capped`` and left out of every row.
    """
    g = get_game(game)
    games, players, agents, house, ref = _settle(g, box, reference, games, players, agents)
    opts = {k: [v] for k, v in {**option_defaults(g), **(options or {})}.items()}  # the game's defaults, then these
    grid = Grid(game=game, players=(players,), options=opts, lineups=(agents,), games=games, first_seed=seed)
    grid.check(ref)
    grid.check(house)
    start = time.perf_counter()
    if workers is None:
        workers = os.cpu_count() or 1
    ref_rows, house_rows = _play_both(grid, ref, house, workers=workers, dask=dask, scheduler=scheduler,
                                      progress=progress)
    seconds = time.perf_counter() - start
    lineup = agents if isinstance(agents, str) else ",".join(agents)
    capped, ended = _ended(g, game, games, (ref, house), (ref_rows, house_rows))
    return Comparison(game=game, title=g.title, reference_name=_box_name(ref, g, True), house_name=_box_name(house, g, False),
                      fingerprints=(ref.fingerprint, house.fingerprint), players=players, agents=lineup, games=games,
                      seed=seed, rows=_rows(g, ended[0], ended[1], players), reference_rows=ref_rows,
                      house_rows=house_rows, seconds=seconds, options={**option_defaults(g), **(options or {})}, capped=capped,
                      cap_words=box_words(g, house))
