"""The estate's printable handout: a rules summary and a player aid, generated from the box
(so house rules print as played), on the kit's page (:mod:`haunted_kit.handout`).

    html = handout_html(box, paper="a4")

Every number comes from the box; a kit default (the rules text is silent) is marked ``*``,
a house rule ``†`` with the kit's value (``4† (house rule; rulebook 3)``), and the legend
under each part says so. The summary ends with the player counts (the rules text changes
nothing with the count; the chosen one is highlighted). Sections: ``hk-rules``
(the summary), ``hk-aid`` (tiles, Market rows, values).
"""

from __future__ import annotations

from html import escape

from ..handout import ProvenanceMarks, handout_page, player_counts, table
from .box import load_estate_box

__all__ = ["handout_html"]


def _amounts(pairs) -> str:
    return " + ".join(f"{n} {r}" for r, n in pairs) or "nothing"


def _rules(box, m: ProvenanceMarks, players: int | None) -> str:
    g = "game.toml"
    income = ", ".join(f"{n} {r}" for r, n in box.start_income.items())
    hand = ", ".join(f"{n} {r}" for r, n in box.start_hand.items() if n) or "nothing"
    return f"""
<section class="hk-rules">
<h1>Estate and Market · rules summary</h1>
<p class="sub">The kit's summary of "Resources, Land and the Market" in its own words; section names refer to the rules text.
{box.min_players}-{box.max_players}{m.mark(g, 'players')} players, {box.seasons}{m.mark(g, 'seasons')} seasons.</p>
<div class="cols">
<h2>Setup</h2>
<ul>
<li>Start income: <b>{income}</b>{m.mark(g, 'start', 'income')}.</li>
<li>In hand: {hand}{m.mark(g, 'start', 'hand')}; workers: {box.start_workers}{m.mark(g, 'start', 'workers')}
(at most {box.worker_limit}{m.mark(g, 'workers', 'limit')}).</li>
<li>{box.display_size}{m.mark('lands.toml', 'rules', 'display')} land tiles face up in the display.</li>
</ul>
<h2>Resource income</h2>
<ul>
<li>A worker ({box.workers_per_take}{m.mark(g, 'workers', 'per_take')} per take) in the Raw Materials Factory takes up to
your income of one of {escape(', '.join(box.factory_resources))}.</li>
<li>The season's first taker of a material may take {box.first_taker_extra}{m.mark(g, 'factory')} extra unit.</li>
<li>The gold marker gives your gold income, no worker needed.</li>
</ul>
<h2>Expand the lands</h2>
<ul>
<li>A land tile costs <b>{box.tile_price}</b>{m.mark('lands.toml', 'rules', 'tile_price')} gold; your first tile must lie over the
shared lower area{m.mark('lands.toml', 'board', 'lower_area')}, every later one connects to your estate.</li>
<li>Joining another player's tile: {box.join_fee_per_marker}{m.mark('lands.toml', 'rules', 'join_fee_per_marker')} gold per
marker on it to its owner, at most {box.join_fee_cap}{m.mark('lands.toml', 'rules', 'join_fee_cap')}.</li>
<li>Marble quarry: only with at least {box.marble_quarry_min_tiles}{m.mark('lands.toml', 'rules', 'marble_quarry_min_tiles')}
land tiles.</li>
</ul>
<h2>Market actions</h2>
<ul>
<li>The season's first visitor takes {box.first_visitor_actions}{m.mark('market.toml', 'visit', 'first_visitor_actions')}
different actions, later ones {box.later_visitor_actions}{m.mark('market.toml', 'visit', 'later_visitor_actions')}.</li>
<li>A marked action costs {box.price_first}{m.mark('market.toml', 'marked_price', 'first_use')} gold at its first use in a
season, {box.price_later}{m.mark('market.toml', 'marked_price', 'later_use')} later; each Market-condition token takes
{box.condition_discount}{m.mark('market.toml', 'marked_price', 'condition_discount')} off, never below
{box.price_minimum}{m.mark('market.toml', 'marked_price', 'minimum')}.</li>
<li>The Inn: after a season, pay {box.inn_price}{m.mark(g, 'inn', 'return_price')} gold to bring
{box.inn_returns}{m.mark(g, 'inn', 'returns_per_season')} worker back.</li>
</ul>
</div>
{player_counts({n: [] for n in range(box.min_players, box.max_players + 1)}, players,
               section="the rules text has no rule that depends on the number of players")}
{m.legend()}
<p class="end">End of the rules summary.</p>
</section>"""


def _aid(box, m: ProvenanceMarks) -> str:
    tiles = table(["tile", "raises", "by", "spaces", "in the stack"],
                  [[f"{escape(t.name.replace('_', ' '))}{m.mark('lands.toml', f'tiles.{k}')}", escape(t.raises), t.amount,
                    t.spaces or "any", t.count] for k, t in box.tiles.items()])
    market = table(["Market action", "options (give -> take)", "marked price"],
                   [[f"{escape(a.text)}{m.mark('market.toml', f'actions.{k}')}",
                     "; ".join(f"{escape(_amounts(give))} -> {escape(_amounts(take))}" for give, take in a.options),
                     "yes" if a.marked else "-"] for k, a in box.market.items()])
    value = ", ".join(f"{r} {v}" for r, v in box.value.items())
    return f"""
<section class="hk-aid">
<h1>Estate and Market · player aid</h1>
<h2>Land tiles</h2>{tiles}
<h2>The Market</h2>{market}
<h2>Gold value (a kit measure for bots and tables, not a rule)</h2><p>{escape(value)}{m.mark('game.toml', 'value')}.</p>
{m.legend()}
</section>"""


def handout_html(box=None, *, paper: str = "a4", players: int | None = None) -> str:
    """The estate handout as one HTML page (rules summary, player aid).

    Args:
        box: an :class:`~haunted_kit.estate.box.EstateBox` (default: the reference box).
        paper: ``"a4"`` or ``"letter"``.
        players: the player count to highlight in the player-count table (``None``: none).

    Raises:
        HandoutError: an unknown paper.
    """
    box = load_estate_box() if box is None else box
    marks = ProvenanceMarks(box, shipped=load_estate_box())
    return handout_page("Estate and Market handout", [_rules(box, marks, players), _aid(box, marks)], paper, flow=True)
