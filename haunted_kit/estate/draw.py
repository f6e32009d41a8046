"""The land board as drawing primitives, shared by the SVG picture and the canvas widget.

Built on the kit's renderer: :mod:`haunted_kit.render.geometry` lays out the 19 slots
(pointy-top axial hexes, :mod:`haunted_kit.hexgrid`), :mod:`haunted_kit.haunted.draw.scene`
primitives describe them, :mod:`haunted_kit.render.svg` writes them as SVG and
:func:`haunted_kit.widgets.canvas.draw_primitives` sends them to a canvas.

What is drawn: every slot with its name ``q,r`` (inside the hex, clear of its edges) (the coordinates questions use, written as
every board of the kit writes them: :func:`haunted_kit.render.style.cell_name`; a dashed outline for the slots over the shared lower area,
a white dot on white-dotted outer lands), each tile with its colour and a letter code,
its owner's colour as a thick outline, the markers as numbered discs in player colours,
and highlighted slots (legal targets) in the kit's highlight colour. Nothing here
decides a rule.
"""

from __future__ import annotations

from html import escape

import networkx as nx

from ..frames import reflow_table
from ..explain import KeyEntry, player_marks
from ..hexgrid import DIRECTIONS
from ..render import style as S
from ..render.geometry import cells_geometry
from ..render.primitives import Circle, Poly, Text
from ..render.svg import BoardSVG, marks_words, primitive_svg
from . import rules as R
from .analysis import market_graph

#: tile fills (lightness differs, the letter code is the primary cue) and codes
TILE_STYLES = {
    "forest": ("#2f6b3a", "#ffffff", "Fo"),
    "limestone_quarry": ("#cfc6b4", "#000000", "Lq"),
    "tax_land": ("#f3e7a1", "#000000", "Tx"),
    "marble_quarry": ("#8c8c8c", "#ffffff", "Mq"),
    "marble_field": ("#e8e8e8", "#000000", "Mf"),
}
EMPTY = "#fbfaf5"


_MARKET_CELL = "padding:2px 8px;border-bottom:1px solid #ddd"  # headers and columns apart (issue 32)


def tile_style(name: str):
    """(fill, ink, code) of a tile kind; an unknown kind (a house rule) gets grey and its initials."""
    return TILE_STYLES.get(name, ("#bbbbbb", "#000000", "".join(w[0] for w in name.split("_")).title()[:2]))


#: the least height in pixels of any text on the board: a slot's name, "lower", a tile's code,
#: a marker's digit (readable at the exercise's size 26 too): the kit's floor for every picture
NAME_PX = S.MIN_TEXT_PX
#: rows inside a slot, as fractions of the hex size (centre to corner; y down): the name sits in the
#: upper half where the hex is still wide enough for "-1,-1" (clear of its edges down to size 26),
#: then the tile code, then the markers (or "lower" on an empty slot over the shared lower area)
NAME_DY, CODE_DY, MARKER_DY = -0.5, -0.14, 0.3
#: the white dot of a white-dotted outer land: left of the tile code, clear of the name and the markers
DOT_DX, DOT_DY = -0.6, -0.14
#: the least radius in pixels of an estate marker (its digit, NAME_PX tall, fits inside)
MARKER_R = 6.5
#: the hex size of the play view's board: every text of it at least 12 px (names, "lower" and
#: markers' digits 0.32 of the size, codes 0.34), 349 px wide, so a phone's column holds it whole
BOARD_SIZE = 38
#: a slot name's height as a fraction of the hex size (at least NAME_PX)
NAME_SCALE = 0.32


def land_geometry(box, size: float = 34):
    """The pixel layout of the land board (a :class:`haunted_kit.render.geometry.BoardGeometry`
    whose cells are the slots; each slot is its own tile, so every slot is outlined);
    the same object for the same box layout and size (:func:`~haunted_kit.render.geometry.cells_geometry` is cached)."""
    slots = tuple(box.slots)
    return cells_geometry(slots, tuple(range(len(slots))), DIRECTIONS, float(size), round(size * 0.25, 2))


def board_primitives(s, geom, highlight=(), path=()) -> list:
    """The land board of state ``s`` as scene primitives (see the module doc).
    ``highlight``: slots to outline as legal targets; ``path``: slots to mark (e.g. an
    estate being explained)."""
    box, size = s.box, geom.size
    prims = []
    for slot in box.slots:
        pts = geom.polygon(slot)
        land = s.lands.get(slot)
        if land is None:
            dash = (size * 0.15, size * 0.1) if slot in box.lower_area else ()
            prims.append(Poly(pts, EMPTY, "#777777", size * 0.04, dash=dash, title=f"slot {S.cell_name(slot)}"))
        else:
            fill, _, _ = tile_style(land["tile"])
            prims.append(Poly(pts, fill, S.player_colour(land["owner"]), size * 0.12,
                              title=f"{land['tile'].replace('_', ' ')} of P{land['owner'] + 1} at slot {S.cell_name(slot)}"))
    for slot in box.slots:
        x, y = geom.centre(slot)
        land = s.lands.get(slot)
        # the slot's name, as every board of the kit writes a cell's (q, r) (questions say "slot -2,1"),
        # readable at every size: at least NAME_PX pixels tall, inside the hex clear of its edges
        name_ink = "#333333" if land is None else tile_style(land["tile"])[1]  # readable on the tile's fill
        prims.append(Text(x, y + size * NAME_DY, S.cell_name(slot), max(NAME_PX, size * NAME_SCALE), name_ink, bold=True))
        if slot in box.white_dotted:
            prims.append(Circle(x + size * DOT_DX, y + size * DOT_DY, size * 0.11, "#ffffff", "#000000", size * 0.03))
        if land is None:
            if slot in box.lower_area:
                prims.append(Text(x, y + size * MARKER_DY, "lower", max(NAME_PX, size * 0.32), "#555555"))
            continue
        _, ink, code = tile_style(land["tile"])
        prims.append(Text(x, y + size * CODE_DY, code, max(NAME_PX, size * 0.34), ink, bold=True))
        k = len(land["markers"])
        for i, p in enumerate(land["markers"]):
            r = max(MARKER_R, size * 0.19)
            step = min(2.2 * r, (1.5 * size - 2 * r) / max(1, k - 1))  # 4 markers stay inside a small hex
            mx = x + (i - (k - 1) / 2) * step
            prims.append(Circle(mx, y + size * MARKER_DY, r, S.player_colour(p), "#000000", size * 0.03))
            prims.append(Text(mx, y + size * MARKER_DY, S.PLAYER_MARKS[p % len(S.PLAYER_MARKS)], max(NAME_PX, size * 0.32),
                              "#000000", bold=True))
    for slot in highlight:
        prims.append(Poly(geom.polygon(slot), S.HIGHLIGHT, S.HIGHLIGHT, size * 0.1, alpha=0.18))
    for slot in path:
        x, y = geom.centre(slot)
        prims.append(Circle(x, y, size * 0.5, None, S.PATH, size * 0.08))
    return prims


def _tile_words(box, name: str, tile) -> tuple[str, str]:
    """A land tile's key words in a newcomer's terms: ``(what it is, when it matters)``."""
    who = (f"only the first {tile.spaces} markers on it count" if tile.spaces else "every marker on it counts")
    what = f"{name.replace('_', ' ')} land tile: a marker on it earns that player {tile.raises} every season"
    when = (f"raises {tile.amount} {tile.raises} income per marker ({who}); buy it from the display for "
            f"{box.tile_price} gold when you expand; {tile.count} in the stack")
    if name == "marble_quarry":
        when += f"; you may lay one only once you have {box.marble_quarry_min_tiles} land tiles (laid or joined)"
    return what, when


def board_key(s) -> list:
    """Every code the land board writes, with its words, rule section and the box's numbers
    (the box in play, so a house rule shows its own), for the kit's key
    (:mod:`haunted_kit.explain`): the tile codes, "lower", the players' numbers on markers,
    the white dot and the dashed outline, each said as what it is and when it matters."""
    box = s.box
    out = []
    for name, tile in box.tiles.items():
        what, when = _tile_words(box, name, tile)
        out.append(KeyEntry((tile_style(name)[2],), what, R.LANDS, when))
    out.append(KeyEntry(("lower",), "an empty slot over the shared lower area: a player's first tile goes on one",
                        R.LANDS))
    out.append(player_marks(s.players, "a marker on the tile (its owner has the thick coloured outline)", R.LANDS))
    out.append(KeyEntry(("white dot",), "a white-dotted outer land: an outer slot printed with a white dot; whoever "
                        "lays a tile there takes a Market-condition token and removes another tile of the display "
                        "from the game", R.LANDS, f"each token takes {box.condition_discount} gold off every marked "
                        f"Market price its holder pays (never under {box.price_minimum} gold), section "
                        f"{R.MARKET}"))
    out.append(KeyEntry(("dashed outline",), "a slot over the shared lower area: where every player's first tile "
                        "goes", R.LANDS))
    out.append(KeyEntry(("joining",), "putting a marker on another player's tile", R.LANDS,
                        f"the fee is {box.join_fee_per_marker} gold per marker on it, at most {box.join_fee_cap}"))
    return out


def slot_words(s, slot) -> str:
    """What the land board shows on ``slot`` of state ``s``, in words (the kit's "What is
    this?", :mod:`haunted_kit.widgets.whatis`): its tile and owner and the players' markers
    on it, or an empty slot; over the shared lower area (its dashed outline) and a
    white-dotted outer land (its white dot), rulebook "Expand the lands"."""
    box, slot = s.box, tuple(slot)
    land = s.lands.get(slot)
    if land is None:
        bits = ["an empty slot"]
    else:
        markers = ", ".join(f"P{p + 1}" for p in land["markers"])
        bits = [f"a {land['tile'].replace('_', ' ')} land tile of P{land['owner'] + 1}"
                + (f", with markers of {markers}" if markers else "")]
    if land is None and slot in box.lower_area:  # the dashed outline is drawn while the slot is empty
        bits.append("over the shared lower area (dashed outline)")
    if slot in box.white_dotted:
        bits.append("a white-dotted outer land (white dot)")
    return "; ".join(bits)


def legend_text(s) -> str:
    """The line under the land board: each tile code with the income it raises (and the
    marble tiles' conditions), the dashed outline and the white dot, in a newcomer's words,
    with the rule section (estate rules, "Expand the lands")."""
    box = s.box
    codes = []
    for name, tile in box.tiles.items():
        bits = [f"{tile.raises} income"]
        if tile.spaces:
            bits.append(f"for its first {tile.spaces} markers only")
        if name == "marble_quarry":
            bits.append(f"laid only by a player with {box.marble_quarry_min_tiles} land tiles")
        codes.append(f"{tile_style(name)[2]} = {name.replace('_', ' ')} ({', '.join(bits)})")
    return (f"Tiles: {'; '.join(codes)}. Dashed outline: the shared lower area, where every first tile goes. "
            f"White dot: an outer slot; laying a tile there earns a Market-condition token, "
            f"{box.condition_discount} gold off each marked Market price. (Rule: {R.LANDS}.)")


def board_svg(s, highlight=(), path=(), size: float = 34) -> BoardSVG:
    """The land board as an SVG picture (displayed inline in Jupyter)."""
    geom = land_geometry(s.box, size)
    body = "\n".join(primitive_svg(p) for p in board_primitives(s, geom, highlight, path))
    marks = marks_words(highlight, noun="slot") + marks_words(path, noun="slot", verb="Circled")
    title = f"Estate land board, season {s.season}" + (f".{marks}" if marks else "")
    text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{geom.width}" height="{geom.height}" '
            f'viewBox="0 0 {geom.width} {geom.height}" font-family="{S.FONT}"><title>{title}</title>\n'
            f'<rect x="0" y="0" width="{geom.width}" height="{geom.height}" fill="{S.PAPER}"/>\n{body}\n</svg>')
    return BoardSVG(text)


def _row_words(s, name: str) -> str:
    """A Market row's words for people (its text in the box in play), never its key."""
    row = s.box.market.get(name)
    return row.text if row is not None else name.replace("_", " ")


def _fixed_words(s, name: str) -> str:
    """An unmarked Market row's price column: no gold is paid for it; a sale's fixed price
    is what it pays (``"none; pays you 3 gold"``), a swap's ``"none (a swap)"``."""
    row = s.box.market.get(name)
    gold = sorted({n for _give, take in (row.options if row is not None else ()) for r, n in take if r == "gold"})
    if gold:
        return f"none; pays you {' or '.join(map(str, gold))} gold"
    return "none (a swap)"


def market_html(s, player=None) -> str:
    """The Market panel: every row with what it gives and takes, and for marked rows the
    price ``player`` (default the player to move) pays now; the visit in progress. Its rows
    reflow in a narrow column (a phone: :func:`haunted_kit.frames.reflow_table`)."""
    p = s.current_player() if player is None else player
    p = 0 if p is None else p
    rows = []
    for name, row in s.box.market.items():
        price = f"{R.marked_price(s, p, name)} gold" if s.config.marked(name) else _fixed_words(s, name)
        used = s.uses[name]
        mark = " (marked)" if s.config.marked(name) else ""
        inv = s.visit is not None and name in s.visit["used"]
        style = ' style="color:#999"' if inv else ""
        rows.append(f'<tr{style}><td style="{_MARKET_CELL}">{escape(row.text)}{mark}</td>'
                    f'<td style="{_MARKET_CELL}">{price}</td><td style="{_MARKET_CELL}">{used}</td></tr>')
    visit = ""
    if s.visit is not None:
        v = s.visit
        visit = (f"<div>P{v['player'] + 1} is at the Market: {len(v['used'])} of {v['limit']} actions used"
                 f"{': ' + escape(', '.join(_row_words(s, u) for u in v['used'])) if v['used'] else ''}.</div>")
    nxt = R.visit_limit(s)
    box = s.box
    return (f'<div class="hk-market" style="font:13px sans-serif"><b>Market</b> (season {s.season}; the next visitor '
            f"takes {nxt} different actions; prices for P{p + 1})"
            + reflow_table(f'<table style="border-collapse:collapse"><thead><tr><th align="left" style="{_MARKET_CELL}">'
                           f'action</th><th style="{_MARKET_CELL}">you pay now</th><th style="{_MARKET_CELL}">uses this '
                           f"season</th></tr></thead><tbody>{''.join(rows)}</tbody></table>", left=(0,))
            + f"<div style=\"color:#555\">A marked row costs gold: {box.price_first} the first time "
            f"in a season, {box.price_later} after, {box.condition_discount} less per Market-condition token. The other "
            f"rows cost only what you give (rule: {R.MARKET}).</div>{visit}</div>")


def draw_market_graph(s, player=None, path=None, ax=None):
    """Draw :func:`haunted_kit.estate.analysis.market_graph` with matplotlib (a circle of resources, one arrow per
    give->take pair); the Trades of ``path`` (e.g. a :class:`Conversion`'s steps) in
    the kit's path colour. Returns the matplotlib Axes."""
    import matplotlib.pyplot as plt  # lazy: matplotlib is heavy to import; only drawing needs it

    g = market_graph(s, player)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 5))
    pos = nx.circular_layout(list(g.nodes))
    simple = nx.DiGraph()
    simple.add_nodes_from(g.nodes)
    for u, v, d in g.edges(data=True):
        simple.add_edge(u, v)
    on = set()
    for t in path or []:
        for u in [r for r, _ in t.give] or ["gold"]:
            for v, _ in t.take:
                on.add((u, v))
    colours = [S.PATH if e in on else "#999999" for e in simple.edges]
    widths = [3.0 if e in on else 1.0 for e in simple.edges]
    nx.draw_networkx_nodes(simple, pos, ax=ax, node_color="#f3e7a1", edgecolors="#1a1a1a", node_size=1500)
    nx.draw_networkx_labels(simple, pos, ax=ax, font_size=9)
    nx.draw_networkx_edges(simple, pos, ax=ax, edge_color=colours, width=widths, arrowsize=14, node_size=1500,
                           connectionstyle="arc3,rad=0.12")
    ax.set_title("The Market as an exchange graph" + (" (cheapest path in colour)" if path else ""))
    ax.set_axis_off()
    return ax
