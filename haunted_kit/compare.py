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
  Wilson intervals); the test: two-proportion z test with the pooled rate;
* a mean (per game: decisions, length, the players' mean score and parts): Student t
  interval; the difference: Welch's t interval and Welch's t test
  (Welch-Satterthwaite degrees of freedom).

The two boxes are played on the same seeds, but a changed rule changes the whole game,
so the samples are treated as independent (no pairing). ``significant`` is each test on
its own at 5%; with many rows some differences come out "significant" by chance (about
one in twenty when nothing changed), so ``holm`` also marks the rows that stay
significant under Holm's step-down correction over all rows of the report (family-wise
error 5%). :meth:`Comparison.games_for` says how many games per box give the
difference's interval a wanted half-width (widths shrink as 1/sqrt(games)).

The kit level: no game is imported; games are reached through the registry and their
Game hooks.
"""

from __future__ import annotations

import base64
import io
import json
import math
import tempfile
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from statistics import NormalDist

from .fileio import atomic_write
from .games import DecisionCapReached, box_words, get_game
from .progress import Bar
from .protocol import SCORE_ONLY_MEANINGS, is_integer
from .simulate import Grid, load_dataset, simulate

__all__ = ["Comparison", "Row", "DEFAULT_GAMES", "compare", "newcombe_interval", "t_interval", "two_proportion_z",
           "welch", "wilson_interval"]

#: level of every interval and test
CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE
_Z = NormalDist().inv_cdf(1 - ALPHA / 2)

#: ``compare``'s default games per box for each game, each about 10 to 15 CPU seconds of
#: games for both boxes: a default Haunted Lands report (4 players, greedy bots, two
#: worker processes) takes about 6 s on two free cores and stayed under 60 s with the
#: cores shared about six ways (load average 12; ``benchmarks/bench_compare.py``
#: measures it); a rate's difference then has a 95% half-width of about +-5 pts.
DEFAULT_GAMES = {"haunted": 500, "estate": 300, "landmarks": 250}


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


def holm(pvalues, alpha: float = ALPHA) -> list[bool]:
    """Which of ``pvalues`` are significant under Holm's step-down correction
    (family-wise error ``alpha``)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        out[i] = True
    return out


# ============================================================================ the report


@dataclass
class Row:
    """One figure of the report. ``kind`` is ``"rate"`` (Wilson / Newcombe / z test) or
    ``"mean"`` (t / Welch); ``ref`` and ``house`` are ``(estimate, low, high)``;
    ``diff`` is ``(house - reference, low, high)``; ``p`` the test's two-sided p-value;
    ``significant`` p < 5%; ``holm`` still significant after Holm's correction over the
    report; ``spread`` each side's variance of one observation (p(1-p) for a rate), for
    :meth:`Comparison.games_for`."""

    group: str
    name: str
    kind: str
    ref: tuple
    house: tuple
    diff: tuple
    p: float
    n: int
    spread: tuple = (0.0, 0.0)
    significant: bool = False
    holm: bool = False

    def games_for(self, half_width: float) -> int:
        """Games per box for the difference's 95% interval to be about ``+-half_width``
        (normal approximation: z^2 (v_ref + v_house) / half_width^2; at least 2)."""
        if not half_width > 0:
            raise ValueError(f"half_width must be more than 0, got {half_width!r}")
        return max(2, math.ceil(_Z * _Z * sum(self.spread) / half_width ** 2))

    def to_dict(self) -> dict:
        return {"group": self.group, "figure": self.name, "kind": self.kind,
                "reference": self.ref[0], "reference_low": self.ref[1], "reference_high": self.ref[2],
                "house": self.house[0], "house_low": self.house[1], "house_high": self.house[2],
                "difference": self.diff[0], "difference_low": self.diff[1], "difference_high": self.diff[2],
                "p": self.p, "significant": self.significant, "holm": self.holm, "games": self.n}


def _rate_row(group, name, ref_flags, house_flags) -> Row:
    n1, n2 = len(ref_flags), len(house_flags)
    k1, k2 = int(sum(ref_flags)), int(sum(house_flags))
    p1, p2 = k1 / n1, k2 / n2
    return Row(group, name, "rate", (p1, *wilson_interval(k1, n1)), (p2, *wilson_interval(k2, n2)),
               (p2 - p1, *newcombe_interval(k1, n1, k2, n2)), two_proportion_z(k1, n1, k2, n2), n1,
               (p1 * (1 - p1), p2 * (1 - p2)))


def _mean_row(group, name, ref_values, house_values) -> Row:
    d, lo, hi, p = welch(ref_values, house_values)
    return Row(group, name, "mean", t_interval(ref_values), t_interval(house_values), (d, lo, hi), p, len(ref_values),
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
    flags = holm([r.p for r in rows])
    for r, h in zip(rows, flags):
        r.significant = r.p < ALPHA
        r.holm = h
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
    game and seat) and the wall time in seconds."""

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
    #: per box (reference, house), the seeds of the games stopped at the decision cap
    #: (:func:`haunted_kit.games.decision_cap`): they have no result and are left out of every row
    capped: tuple = ((), ())
    cap_words: str = ""  #: the house-rule box in words (:func:`haunted_kit.games.box_words`)

    def significant(self, holm_only: bool = False) -> list[Row]:
        """The rows whose difference is significant at 5% (``holm_only``: after Holm's
        correction)."""
        return [r for r in self.rows if (r.holm if holm_only else r.significant)]

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
        """Games per box for every ``kind`` row's difference interval to be about
        ``+-half_width`` (rates: in rate units, 0.05 = 5 points; means: in the figure's
        units), at the spreads measured."""
        return max((r.games_for(half_width) for r in self.rows if r.kind == kind), default=2)

    def to_frame(self):
        """The rows as a pandas DataFrame (one row per figure, :meth:`Row.to_dict`)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame([r.to_dict() for r in self.rows])

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
        mark = "**" if r.holm else ("*" if r.significant else "")
        p = "<0.001" if r.p < 0.001 else f"{r.p:.3f}"
        return [r.name, f"{f(r.ref[0])} [{f(r.ref[1])}, {f(r.ref[2])}]",
                f"{f(r.house[0])} [{f(r.house[1])}, {f(r.house[2])}]",
                f"{fd(r.diff[0])}{unit} [{fd(r.diff[1])}, {fd(r.diff[2])}]", p, mark]

    def header(self) -> list[str]:
        return [f"{self.title}: house rules {self.house_name} against {self.reference_name}",
                f"{self.games} games per box, seeds {self.seed}..{self.seed + self.games - 1}, {self.players} players, "
                f"agents {self.agents} (the same seeds and bots for both boxes)"]

    def capped_lines(self) -> list[str]:
        """One sentence per box with games stopped at the decision cap (none when every game ended)."""
        return [f"CAPPED: {len(seeds)} of {self.games} {name} games did not end within the decision cap (seeds "
                f"{', '.join(map(str, seeds[:20]))}{' ...' if len(seeds) > 20 else ''}) and are left out of every "
                f"figure; box: {words}. Check it with 'haunted-kit check-box --game {self.game} DIR'."
                for name, seeds, words in (("reference-box", self.capped[0], self.reference_name),
                                           ("house-rule", self.capped[1], self.cap_words)) if seeds]

    def notes(self) -> list[str]:
        rates = [r for r in self.rows if r.kind == "rate"]
        widths = [f"+-{100 * w:g} pts needs {self.games_for(w)} games per box" for w in (0.05, 0.02)]
        got = max(((r.diff[2] - r.diff[1]) / 2 for r in rates), default=0)
        return [*self.capped_lines(),
            "95% intervals. Rates: Wilson (each box), Newcombe hybrid score (difference), two-proportion z test. "
            "Means (per game; a score: the players' mean in each game): Student t (each box), Welch t (difference "
            "and test).",
            "* = significant at 5% on its own; ** = still significant after Holm's correction over all "
            f"{len(self.rows)} rows (with this many tests about one in twenty unchanged figures shows * by chance).",
            f"Precision: the widest rate difference here is +-{100 * got:.1f} pts with {self.games} games per box; "
            + "; ".join(widths) + " (interval widths shrink as 1/sqrt(games): half the width takes 4x the games).",
        ]

    def table(self) -> str:
        """The report as a text table for the terminal."""
        head = ["figure", "reference [95% CI]", "house rules [95% CI]", "difference [95% CI]", "p", "sig"]
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
        marks are significant at 5%, open ones are not; rates in percentage points,
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
        head = "".join(f"<th>{escape(h)}</th>" for h in ["figure", "reference [95% CI]", "house rules [95% CI]",
                                                         "difference [95% CI]", "p", "sig"])
        body, last = [], None
        for r in self.rows:
            if r.group != last:
                body.append(f'<tr><th colspan="6" class="group">{escape(r.group)}</th></tr>')
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
<p>Bold rows and * : significant at 5%; ** : also after Holm's correction.</p>
<ul>{''.join(f'<li>{escape(n)}</li>' for n in self.notes())}</ul>
<h2>The differences with their 95% intervals</h2>
<p>Filled marks are significant at 5%, open marks are not; the dashed line is no difference.</p>
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


def compare(box, *, game: str = "haunted", reference=None, games: int | None = None, seed: int = 0,
            players: int | None = None, agents: str = "greedy", options: dict | None = None,
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
            :data:`DEFAULT_GAMES` for the game).
        seed: the first seed.
        players: player count (default: the game's ``new_game`` default: 4 for Haunted
            Lands, 3 for the companions).
        agents: an agent lineup (:mod:`haunted_kit.bots`), one spec per seat, repeating.
        options: other ``new_game`` keywords, one value each (Haunted Lands: ``mode``,
            ``extra_ghost_cards``).
        workers, dask, scheduler: as :func:`haunted_kit.simulate.simulate`.
        progress: one progress bar over both boxes' games.

    Returns:
        a :class:`Comparison`.

    Raises:
        ValueError: an unknown game or agent, a bad count, a box the game cannot load
            (the game's BoxError) or a grid cell the box cannot play.
        DecisionCapReached (a RuntimeError): fewer than 2 games of a box ended within the
            decision cap (the message names the seeds and the box). Fewer capped games are
            counted in ``capped`` and left out of every row.
    """
    g = get_game(game)
    if games is None:
        games = DEFAULT_GAMES.get(game, 500)
    if not is_integer(games) or games < 2:
        raise ValueError(f"games must be a whole number of at least 2 (an interval needs two games), got {games!r}")
    if players is None:
        players = 4 if game == "haunted" else 3
    house = g.load_box(box) if isinstance(box, (str, Path)) else box
    if reference is None:
        ref = g.default_box()
    else:
        ref = g.load_box(reference) if isinstance(reference, (str, Path)) else reference
    opts = {k: [v] for k, v in (options or {}).items()}
    grid = Grid(game=game, players=(players,), options=opts, lineups=(agents,), games=games, first_seed=seed)
    grid.check(ref)
    grid.check(house)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="haunted-kit-compare-") as tmp:
        bar = Bar(2 * len(grid), f"compare {game}") if progress else None
        try:
            for name, b in (("reference", ref), ("house", house)):
                report = simulate(grid, Path(tmp) / name, box=b, workers=workers, dask=dask, scheduler=scheduler,
                                  progress=bar if bar is not None else False)
                if report.interrupted:
                    raise KeyboardInterrupt
        finally:
            if bar is not None:
                bar.close()
        ref_rows = load_dataset(Path(tmp) / "reference")
        house_rows = load_dataset(Path(tmp) / "house")
    seconds = time.perf_counter() - start
    lineup = agents if isinstance(agents, str) else ",".join(agents)
    capped = tuple(tuple(sorted(set(int(x) for x in rows.loc[rows["capped"], "seed"]))) for rows in (ref_rows, house_rows))
    ended = [rows[~rows["capped"]] for rows in (ref_rows, house_rows)]
    for name, b, rows, seeds in zip(("reference", "house-rule"), (ref, house), ended, capped):
        if rows["game_id"].nunique() < 2:  # no interval can be drawn: say why instead of a report of nothing
            raise DecisionCapReached(f"compare: {len(seeds)} of {games} {name} games did not end within the decision "
                                     f"cap (seeds {', '.join(map(str, seeds[:20]))}), too few ended to compare; box: "
                                     f"{box_words(g, b)}. Check it with 'haunted-kit check-box --game {game} DIR'.",
                                     seed=seeds[0] if seeds else None)
    return Comparison(game=game, title=g.title, reference_name=_box_name(ref, g, True), house_name=_box_name(house, g, False),
                      fingerprints=(ref.fingerprint, house.fingerprint), players=players, agents=lineup, games=games,
                      seed=seed, rows=_rows(g, ended[0], ended[1], players), reference_rows=ref_rows,
                      house_rows=house_rows, seconds=seconds, capped=capped, cap_words=box_words(g, house))
