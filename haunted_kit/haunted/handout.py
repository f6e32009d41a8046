"""Printable handouts: a one-page rules summary with the glossary, a player aid, and a
board of a seeded setup, all generated from the box (so house rules print as played).

    html = handout_html(box, paper="a4", seed=1, players=4, mode="wanderer")
    write_handout("handout.html", paper="letter")     # HTML, and a PDF when Chromium is there

The page is plain HTML with print CSS (``@page`` size A4 or Letter, black ink on white,
no colour needed: terrains carry their letters, players their numbers). Each part is a
``<section>`` that starts a new sheet: ``hk-rules`` (one page), ``hk-aid``, ``hk-board``.
Every number comes from the box and carries its provenance (the rows of
:meth:`haunted_kit.haunted.box.Box.provenance_frame`): a kit default (the rulebook is
silent, the kit chose) is marked ``*``; a value that differs from the box the kit ships
is marked ``†`` with the kit's value after it (``2† (house rule; rulebook 3)``) and
listed in the legend as ``old -> new``; every page with a mark carries the legend. The
rules summary also has what changes with 2, 3 and 4 players (the chosen count
highlighted); the board page is drawn for paper (the field and its key, no "to move").

The page, the marks and the PDF (Chromium in headless mode, ``--print-to-pdf``, found at
``/usr/bin/chromium`` or on the ``PATH``; without it the HTML is written and the command
says how to print it from a browser) are the kit's, shared by every game's handout
(:mod:`haunted_kit.handout`).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from .box import default_box
from .engine import GAME, new_game
from ..fileio import atomic_write
from ..handout import (PAPERS, HandoutError, ProvenanceMarks, board_with_key, find_chromium, handout_page, paper_size,
                       player_counts, print_pdf)
from .draw import board_svg
from .state import ConfigError

__all__ = ["PAPERS", "HandoutError", "find_chromium", "handout_html", "print_pdf", "write_handout"]


# --------------------------------------------------------------------------- marks

def _marks(box) -> ProvenanceMarks:
    """The marks of the box's values: kit defaults ``*``, house rules ``†`` with the kit's value."""
    return ProvenanceMarks(box, shipped=default_box())


def _slot_word(slots) -> str:
    return f"slot{'s' if len(slots) > 1 else ''} {', '.join(str(j + 1) for j in slots)}"


def player_changes(box, m: ProvenanceMarks) -> dict[int, list[str]]:
    """What the rulebook changes with each player count the box allows (Game Setup, step 16
    and 17; Game Flow, end of the season), as HTML with the marks: counter markers on
    marker slots, quest cards returned to the box, fewer quests for the trailing player."""
    out = {}
    for n in range(box.min_players, box.max_players + 1):
        said = []
        covered = box.covered_slots.get(n, ())
        if covered:
            said.append(f"counter markers cover marker {_slot_word(covered)} of every skill card"
                        f"{m.mark('skills.toml', 'marker_slots', f'covered_{n}_players')} (setup step 16)")
        removed = box.removed_quests.get(n, ())
        if removed:
            said.append(f"each player returns quest card{'s' if len(removed) > 1 else ''} "
                        f"{' and '.join(map(str, removed))}{m.mark('quests.toml', 'removed', f'players_{n}')} to the box")
        if n == 2:
            for mode in box.modes.values():
                for e in mode.season_ends:
                    if e.trailing_two_player is not None and e.choosers != "nobody":
                        said.append(f"{escape(mode.name)}, end of season {e.season}: the trailing player chooses "
                                    f"{e.trailing_two_player}{m.mark('game.toml', f'modes.{mode.name}', 'season_ends')} "
                                    f"quest card{'s' if e.trailing_two_player != 1 else ''}, not {e.quests}")
        out[n] = said
    return out


# --------------------------------------------------------------------------- parts

_GLOSSARY = [
    ("sensor", "your meeple on the field; it starts in the city"),
    ("valor", "victory points on the valor track; it never goes down"),
    ("stack", "tokens on one mark: the last to arrive is on top, plays first and wins a tie"),
    ("pecunia", "money: earned by selling, spent on training"),
    ("spread", "the last player rolls the terrain die and places ghosts on free cells of that terrain"),
    ("production", "every building gives its owner one resource"),
    ("rest", "every action token turns active again"),
    ("reorder", "turn order from the valor track, most valor first"),
    ("depletion token", "marks an extracted cell until the season ends"),
    ("contact", "pay contact tokens to send away the ghost on your cell, then roll the bonus die"),
    ("noria", "the water building, on a cell next to a lake"),
    ("leader", "most valor at a season end"),
    ("Kalena", "the city and its six suburb cells; ghosts on all seven: everyone loses"),
]


def _rules_section(box, m: ProvenanceMarks, players: int) -> str:
    t = box.terrains
    costs = ", ".join(f"{name} {tt.explore_cost}{m.mark('terrain.toml', name, 'explore_cost')}" for name, tt in t.items() if tt.explorable)
    lakes = ", ".join(name for name, tt in t.items() if not tt.explorable) or "none"
    contact = ", ".join(f"season {c.season}: {c.contact_cost}{m.mark('bonus_cards.toml', f'bonus_cards.{c.season}', 'contact_cost')}"
                        for c in box.bonus_cards.values())
    builds = "; ".join(f"{b.name} on {b.terrain}: {b.cost_tokens}{m.mark('buildings.toml', b.name, 'cost_tokens')} token + "
                       f"{' + '.join(b.cost)}{m.mark('buildings.toml', b.name, 'cost')}, {b.valor}{m.mark('buildings.toml', b.name, 'valor')} valor, "
                       f"produces {b.production}{m.mark('buildings.toml', b.name, 'production')} {b.income}" for b in box.buildings.values())
    modes = "; ".join(f"{md.name}: ghost card {md.ghost_card}{m.mark('game.toml', f'modes.{md.name}', 'ghost_card')}" for md in box.modes.values())
    ghost_cards = " ".join(f"<b>{g.number}</b> {escape(g.text)}{m.mark('ghost_cards.toml', f'ghost_cards.{g.number}')}"
                           for g in box.ghost_cards.values())
    gloss = "".join(f"<dt>{escape(w)}</dt><dd>{escape(d)}</dd>" for w, d in _GLOSSARY)
    slot_valor = ", ".join(map(str, box.skill_slot_valor)) + m.mark("skills.toml", "marker_slots", "valor")
    counts = player_counts(player_changes(box, m), players, section="Game Setup, steps 16-17; Game Flow, end of the season")
    return f"""
<section class="hk-rules">
<h1>Haunted Lands · rules summary</h1>
<p class="sub">The kit's summary in its own words; section names refer to the rulebook. {box.seasons} seasons × {box.rounds_per_season} rounds; the most valor wins.</p>
<div class="cols">
<h2>A round (Game Flow)</h2>
<ol>
<li><b>Spread.</b> The last player rolls the terrain die and places {box.ghosts_per_spread}{m.mark('game.toml', 'structure', 'ghosts_per_spread')} ghosts from the supply on cells of that terrain with no building and no ghost. No free cell left: the ghost goes to Kalena.</li>
<li><b>Production.</b> Every building gives its owner {_production(box, m)} of its kind, if a ghost next to it does not stop it.</li>
<li><b>Turns.</b> In turn order, each player performs any actions they can pay for, then ends the turn.</li>
<li><b>Rest.</b> All action tokens turn active.</li>
<li><b>Reorder.</b> Turn order follows the valor track: most valor first; on a stack, the top token first.</li>
</ol>
<p><b>Season end.</b> Depletion tokens go back to the supply; quest cards are chosen face down as the mode says (see the player aid).</p>
<h2>Basic actions (pay action tokens)</h2>
<ul>
<li><b>Exploration</b>: move to a neighbouring cell, paying the cost of the cell you enter: {costs}; never {lakes}.</li>
<li><b>Extraction</b>: 1 token; take your cell's resource (water on a cell next to a lake, or from a neighbouring lake); a depletion token marks the cell.</li>
<li><b>Construction</b>: build on your cell (no building, no ghost there). {builds}.</li>
<li><b>Contact</b>: send the ghost on your cell back to the supply; tokens by season: {contact}; then roll the bonus die.</li>
</ul>
<h2>Additional actions</h2>
<ul>
<li><b>Selling</b> (city): resources for pecunias, as the market card in play shows.</li>
<li><b>Training</b> (suburb): pecunias for a new action token (it arrives inactive).</li>
<li><b>Learning</b> (suburb): pay a skill's 2 resources, put a marker on its leftmost free slot (valor {slot_valor}).</li>
</ul>
<p>At most {box.resource_cap}{m.mark('player_board.toml', 'resources', 'cap')} of each resource; extra ones go back to the supply. Supplies are limited.</p>
<h2>Ghosts and the end</h2>
<p>Ghost cards: {ghost_cards} Modes: {modes}.</p>
<p><b>Collective loss</b>: all 7 Kalena cells hold ghosts, or a spread cannot place its ghosts: everyone loses, no quest is scored.
<b>Final scoring</b>: quests are revealed in turn order; each gain lands on top of a stack. Most valor wins; a tie goes to the token on top.</p>
<h2>Glossary</h2>
<dl class="gloss">{gloss}</dl>
</div>
{counts}
{m.legend()}
<p class="end">End of the rules summary.</p>
</section>"""


def _production(box, m: ProvenanceMarks) -> str:
    """How much a building produces, marked (one number when every building agrees)."""
    amounts = {b.production for b in box.buildings.values()}
    marks = "".join(sorted({m.mark("buildings.toml", b.name, "production") for b in box.buildings.values()}))
    if len(amounts) == 1:
        n = amounts.pop()
        return f"{n}{marks} resource{'s' if n != 1 else ''}"
    return "resources (" + ", ".join(f"{b.name} {b.production}" for b in box.buildings.values()) + f"){marks}"


def _aid_section(box, m: ProvenanceMarks) -> str:
    def tr(cells, head=False):
        tag = "th" if head else "td"
        return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"

    terr = [tr(["terrain", "tokens to enter", "extract", "build", "you may"], True)]
    for name, t in box.terrains.items():
        may = ", ".join(x for x, ok in (("sell", t.sell), ("train, learn", t.train_and_learn)) if ok) or "-"
        build = t.build + (" (noria next to a lake)" if t.noria_near_lake else "") if t.build else (
            "noria next to a lake" if t.noria_near_lake else "-")
        extract = (t.extract or "-") + (" (water next to a lake)" if t.water_near_lake else "")
        terr.append(tr([f"{escape(name)}", f"{t.explore_cost}{m.mark('terrain.toml', name, 'explore_cost')}" if t.explorable else "never",
                        escape(extract), escape(build), may]))
    tracks = [tr(["track", "start", "training cost per slot (pecunias)", "last slot"], True)]
    for name, t in box.tracks.items():
        entry = f"tracks.{name}"
        tracks.append(tr([escape(name), f"{t.start_tokens}{m.mark('player_board.toml', entry, 'start_tokens')}",
                          " · ".join(str(c) for c in t.training_costs[t.start_tokens:]) + m.mark("player_board.toml", entry, "training_costs"),
                          f"+{t.last_slot_valor}{m.mark('player_board.toml', entry, 'last_slot_valor')} valor"]))
    skills = [tr(["skill", "deck", "cost", "effect"], True)]
    for k, s in box.skills.items():
        e = f"skills.{k}"
        skills.append(tr([str(k), escape(s.deck) + m.mark("skills.toml", e, "deck"), escape(" + ".join(s.cost)) + m.mark("skills.toml", e, "cost"),
                          escape(s.text) + m.mark("skills.toml", e, "text")]))
    market = [tr(["market card", "options"], True)]
    for card, opts in box.market_cards.items():
        market.append(tr([str(card), "; ".join(escape(o.describe()) + m.mark('market_cards.toml', f'market_cards.{card}.options[{i}]')
                                            for i, o in enumerate(opts, 1))]))
    bonus = [tr(["bonus card", "contact tokens", *[f"die {f}{m.mark('dice.toml', 'bonus_die', 'faces')}" for f in box.bonus_die]], True)]
    for c in box.bonus_cards.values():
        e = f"bonus_cards.{c.season}"
        rewards = m.mark("bonus_cards.toml", e, "rewards")
        bonus.append(tr([f"season {c.season}", f"{c.contact_cost}{m.mark('bonus_cards.toml', e, 'contact_cost')}",
                         *[escape(r.describe()) + rewards for r in c.rewards]]))
    quests = [tr(["quest", "scores"], True)]
    for q in box.quests.values():
        quests.append(tr([str(q.number), escape(q.text) + m.mark("quests.toml", f"quests.{q.number}")]))
    ends = []
    for md in box.modes.values():
        parts = []
        for e in md.season_ends:
            if e.choosers == "nobody":
                parts.append(f"season {e.season}: no quest")
            else:
                who = {"non_leaders": "all but the leader(s)", "everyone": "everyone"}.get(e.choosers, e.choosers)
                parts.append(f"season {e.season}: {who} choose {e.quests}")
        ends.append(f"<li><b>{escape(md.name)}</b>{m.mark('game.toml', f'modes.{md.name}', 'season_ends')}: {'; '.join(parts)}</li>")
    return f"""
<section class="hk-aid">
<h1>Player aid</h1>
<h2>Where you stand</h2><table>{''.join(terr)}</table>
<h2>Action tracks and training</h2><table>{''.join(tracks)}</table>
<h2>Skills (one card of each deck is in play)</h2><table>{''.join(skills)}</table>
<h2>Market cards</h2><table>{''.join(market)}</table>
<h2>Bonus cards (contact)</h2><table>{''.join(bonus)}</table>
<h2>Quests (scored at the end)</h2><table>{''.join(quests)}</table>
<h2>Quest choices by mode</h2><ul>{''.join(ends)}</ul>
{m.legend()}
</section>"""


def _board_section(box, m: ProvenanceMarks, seed: int, players: int, mode: str, width_mm: float) -> str:
    """The seeded setup's board for paper: the field and its legend, the key of its codes
    beside it (:func:`haunted_kit.handout.board_with_key`), no on-screen status."""
    s = new_game(players=players, mode=mode, seed=seed, box=box)
    svg = board_svg(s, size=20, paper=True).data
    skills = ", ".join(f"{k} ({escape(box.skills[k].text)}{m.mark('skills.toml', f'skills.{k}', 'text')})" for k in s.skills)
    order = ", ".join(f"P{p + 1}" for p in s.turn_order)
    covered = box.covered_slots.get(players, ())
    cover = (f" Counter markers cover marker {_slot_word(covered)} of every skill card"
             f"{m.mark('skills.toml', 'marker_slots', f'covered_{players}_players')}." if covered else "")
    return f"""
<section class="hk-board">
<h1>Board · seed {seed}, {players} players, {escape(mode)} mode</h1>
<p>Region tiles {escape(', '.join(s.layout))}; market card {s.market}; ghost card{'s' if len(s.config.ghost_cards) > 1 else ''}
{', '.join(map(str, s.config.ghost_cards))}; first turn order {order}. Every sensor starts in the city.{cover}</p>
<p>Skills in play: {skills}.</p>
{board_with_key(GAME, s, svg, width_mm - 24, leave=("ringed disc", "number in a small circle"))}
{m.legend()}
</section>"""


def handout_html(box=None, *, paper: str = "a4", seed: int = 1, players: int = 4, mode: str = "wanderer") -> str:
    """The whole handout as one HTML page.

    Args:
        box: the :class:`~haunted_kit.haunted.box.Box` (default: the reference box).
        paper: ``"a4"`` or ``"letter"``.
        seed, players, mode: the seeded setup drawn on the board page.

    Raises:
        HandoutError: an unknown paper size, or a setup the box cannot play (the
            :class:`~haunted_kit.haunted.state.ConfigError` message).
    """
    box = default_box() if box is None else box
    _size, width, _height = paper_size(paper)
    marks = _marks(box)
    try:
        board = _board_section(box, marks, seed, players, mode, width)
    except ConfigError as exc:
        raise HandoutError(str(exc)) from None
    return handout_page("Haunted Lands handout", [_rules_section(box, marks, players), _aid_section(box, marks), board], paper)


def write_handout(path, box=None, *, paper: str = "a4", seed: int = 1, players: int = 4, mode: str = "wanderer",
                  pdf: bool = True, chromium: str | None = None) -> tuple[Path, Path | None]:
    """Write the handout's HTML to ``path`` (atomically) and, when ``pdf`` and Chromium
    is found, the PDF next to it (same name, ``.pdf``). Returns ``(html, pdf or None)``."""
    path = Path(path)
    atomic_write(path, handout_html(box, paper=paper, seed=seed, players=players, mode=mode))
    if not pdf:
        return path, None
    chromium = chromium or find_chromium()
    if chromium is None:
        return path, None
    return path, print_pdf(path, path.with_suffix(".pdf"), chromium)
