"""The village and landmark panel, drawn with the kit's renderer.

:func:`panel_scene` lays a position out as the kit's scene primitives
(:mod:`haunted_kit.haunted.draw.scene`: rectangles, circles, text), so the same picture goes to
SVG (:func:`panel_svg`, through :func:`haunted_kit.render.svg.primitive_svg`) and to an
ipycanvas canvas (:class:`haunted_kit.landmarks.widgets.LandmarksPanel`, through
:func:`haunted_kit.widgets.canvas.draw_primitives`). Colours come from
:mod:`haunted_kit.render.style` (Okabe-Ito players, each also marked by number); every
resource and building type is written out too, so the panel reads in black and white.

Top row: the landmark cards with their acquisition cost, victory points and tokens left.
Then one band per player: gold, castle and Castle Grounds (with the gold on them, marked
with the number of the player who placed it, in a strip under the box's text), developed
resources (a dot when they hold gold), landmark tokens, the village's buildings and
adventurers (type and points; as many rows as it needs), the hand (cards for the viewer,
a count for others) and the architect (hidden from others until the end). The footer says
that the cards are the kit example deck. Every text is at least
:data:`haunted_kit.render.style.MIN_TEXT_PX` pixels at the panel's own size and whole:
long names wrap or get wider boxes, and the panel grows taller.
"""

from __future__ import annotations

from ..explain import KeyEntry, player_marks
from ..render import style as S
from ..render.primitives import Circle, Rect, Text
from ..render.svg import fitted_text, primitive_svg, readable_html, readable_width, text_width
from . import rules as R
from .actions import card_words

RESOURCE_FILL = {"food": "#f0e442", "wood": "#6fb07f", "stone": "#bdbdbd", "magic": "#cc99cc"}
WIDTH = 900
CARD_ROW = 70  #: pixels of the landmark card row (name, cost on up to 2 lines, supply)
CARD_W, CARD_STEP = 96, 100  #: a card box in a band: "Wandering Knight" at 9 px bold with 4.8 px padding each side
BOX_H = 44  #: castle, Castle Grounds and developed boxes: name, icons, then a strip for the gold badges
VILLAGE_H, VILLAGE_STEP = 30, 34  #: a village card box and the pitch of the village rows
TOKEN_STEP = 52  #: pixels between landmark tokens (each name fits under its token, on up to 2 lines)
BADGE_R = 7  #: radius of a gold badge (the payer's number at MIN_TEXT_PX inside)
MIN_PX = S.MIN_TEXT_PX  #: no text of the panel is smaller (at the panel's own size)


def _res_fill(r: str) -> str:
    return RESOURCE_FILL.get(r, "#eeeeee")


def _gold_dot(x, y, payer: int) -> list:
    return [Circle(x, y, BADGE_R, S.player_colour(payer), S.INK, 1), Text(x, y, str(payer + 1), MIN_PX, S.INK, True)]


def _badges(x_right: float, y: float, payers) -> list:
    """Gold badges right to left in a box's bottom strip (clear of its two lines of text)."""
    out: list = []
    for i, payer in enumerate(payers):
        out += _gold_dot(x_right - BADGE_R - 3 - (2 * BADGE_R + 1) * i, y + BOX_H - BADGE_R - 2, payer)
    return out


def _flow(n: int, x_start: float, x_end: float, step: float) -> list[tuple[int, float]]:
    """``(row, x)`` of ``n`` boxes ``step`` apart, wrapping to a new row at ``x_end``."""
    per = max(1, int((x_end - x_start) // step))
    return [(i // per, x_start + (i % per) * step) for i in range(n)]


NARROW_WIDTH, NARROW_SCALE = 200, 4 / 3  #: a phone's panel: laid out 200 px wide, drawn 267 px wide (text >= 12 px): whole in a phone's Lab output area (274 px)
WIDE_WIDTH, WIDE_SCALE = 675, 4 / 3  #: a laptop's panel: laid out 675 px wide, drawn 900 px wide (text >= 12 px)
CARD_MIN_W = 110  #: the least width of a landmark card in the top row (the row wraps into a grid below it)


def _scaled(p, k: float):
    """Primitive ``p`` drawn ``k`` times larger (positions, sizes and line widths)."""
    if isinstance(p, Text):
        return Text(p.x * k, p.y * k, p.text, p.size * k, p.fill, p.bold, p.anchor)
    if isinstance(p, Rect):
        return Rect(p.x * k, p.y * k, p.w * k, p.h * k, p.fill, p.stroke, p.width * k)
    if isinstance(p, Circle):
        return Circle(p.x * k, p.y * k, p.r * k, p.fill, p.stroke, p.width * k)
    raise TypeError(f"the panel draws no {type(p).__name__}")


def _lines(x: float, y: float, text: str, width: float, size: float, bold: bool = False, fill: str = S.INK,
           max_lines: int = 4) -> tuple[list, float]:
    """``text`` from ``(x, y)`` (its first line's top) wrapped to ``width``: ``(texts, height)``."""
    lines = fitted_text(x, 0, text, width, size, fill, bold, "start", max_lines=max_lines)
    step = lines[0].size * 1.15
    return [Text(t.x, y + step / 2 + i * step, t.text, t.size, t.fill, t.bold, t.anchor)
            for i, t in enumerate(lines)], step * len(lines)


def _list_flow(items: list[str], x: float, y: float, width: float, size: float) -> tuple[list, float]:
    """A wrapping list: ``items`` left to right, ``", "`` apart, a new line where the next
    would pass ``width`` (an item is never split unless it alone is wider):
    ``(texts, height)``."""
    out, line, lines = [], "", []
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        trial = f"{line} {piece}" if line else piece
        if line and text_width(trial, size) > width:
            lines.append(line)
            trial = piece
        line = trial
    lines.append(line)
    height = 0.0
    for text in lines:
        texts, h = _lines(x, y + height, text, width, size, max_lines=3)
        out += texts
        height += h
    return out, height


def _title(s) -> str:
    """The panel's title line: the turn, the lead and whose choice it is."""
    lead = f"lead: {s.lead} (P{s.leader + 1} leads)" if s.lead else f"P{s.leader + 1} to lead"
    status = "game over" if s.is_terminal() else ("architects being dealt" if s.is_chance_node() else
                                                   f"P{s.current_player() + 1} to choose")
    return f"Landmarks & Architects - {R.turn_words(s)} - {lead} - {status}"


def panel_scene(s, viewer: int | None = None, width: float = WIDTH, scale: float = 1.0) -> tuple[list, float, float]:
    """The panel of position ``s`` as ``(primitives, width, height)`` in pixels.

    ``viewer`` hides other players' hands and architects (``None``: everything shown).
    ``width``: the width it is laid out for (rows wrap to fit it: the landmark cards into a
    grid, a player's boxes, tokens, village and hand onto more rows; :data:`NARROW_WIDTH`
    for a phone); ``scale``: it is then drawn that much larger (:data:`NARROW_SCALE`: text
    at least 12 px). Every text is at least :data:`MIN_PX` pixels before scaling and whole
    (names wrap, boxes grow, the panel grows taller: a village of 12 cards takes two rows);
    the gold badges sit in a strip of their own under the box's text."""
    box = s.box
    prims: list = []
    title, h = _lines(8, 14 - 14 * 1.15 / 2, _title(s), width - 16, 14, True, max_lines=3)
    prims += title
    # landmark cards: one row when they fit, else a grid
    y0 = max(30, 14 - 14 * 1.15 / 2 + h + 6)
    if s.modules["landmarks"]:
        cols = max(1, min(len(box.landmarks), int((width - 16) // CARD_MIN_W)))
        w = (width - 16) / cols
        for i, (key, lt) in enumerate(box.landmarks.items()):
            x, y = 8 + (i % cols) * w, y0 + (i // cols) * CARD_ROW
            fill = _res_fill(lt.icon) if lt.icon else "#f7f1e3"
            prims += [Rect(x + 2, y, w - 4, CARD_ROW - 8, fill, S.INK, 1),
                      *fitted_text(x + w / 2, y + 11, lt.name, w - 12, 12, S.INK, True),
                      *fitted_text(x + w / 2, y + 29, lt.cost_text(), w - 12, MIN_PX),
                      *fitted_text(x + w / 2, y + 50, f"{s.supply[key]} left - {lt.victory_points} VP each - "
                                                      f"most +{box.most_points}", w - 12, MIN_PX)]
        y0 += CARD_ROW * -(-len(box.landmarks) // cols)
    for p in range(s.players):
        band, height = _band(s, p, viewer, 8, y0, width)
        prims += band
        y0 += height
    foot, h = _lines(8, y0 + 2, f"Building cards: {box.deck_label}.", width - 16, 10, fill="#444444")
    prims += foot
    height = y0 + h + 6
    if scale != 1.0:
        prims = [_scaled(p, scale) for p in prims]
    return prims, width * scale, height * scale


def _band(s, p: int, viewer, x0: float, y0: float, width: float = WIDTH) -> tuple[list, float]:
    """Player ``p``'s band at ``(x0, y0)`` in a panel ``width`` wide: ``(primitives, height in pixels)``.
    On a narrow panel the architect, the tokens, the developed row and the village each
    start a row of their own."""
    right = width - 16
    out, y = _band_head(s, p, viewer, x0, y0, right)
    sources, y = _band_sources(s, p, x0, y, right)
    village, y = _band_village(s, p, x0, y, right, width < 600)
    out += sources + village
    # the hand, under the village: a wrapping list, each card with its type and cost
    hand = s.hands[p]
    if viewer is None or viewer == p:
        items = [card_words(s.box, k) for k in hand] or ["empty"]
    else:
        items = [f"{len(hand)} cards"]
    items[0] = "hand: " + items[0]
    texts, h = _list_flow(items, x0 + 6, y, right - x0 - 12, 10)
    out += texts
    height = y + h + 6 - y0
    turn = s.current_player() == p
    out.insert(0, Rect(x0, y0, right, height, "#fffdf5" if not turn else "#eef6ff", S.INK, 2.5 if turn else 1))
    return out, height + 6


def _band_head(s, p: int, viewer, x0: float, y0: float, right: float) -> tuple[list, float]:
    """The band's first lines: the player's disc, role, gold and village count, and the
    architect (beside them on a wide panel, under them on a narrow one): ``(primitives, next y)``."""
    box = s.box
    out: list = [Circle(x0 + 16, y0 + 16, 10, S.player_colour(p), S.INK, 1),
                 Text(x0 + 16, y0 + 16, str(p + 1), 11, S.INK, True)]
    role = "leader" if p == s.leader else ("cannot follow" if p in s.cannot_follow and s.lead else "")
    arch = s.architects[p]
    arch_text = None
    if s.modules["architects"] and arch is not None:
        shown = viewer is None or viewer == p or s.is_terminal()
        a = box.architects[arch]
        arch_text = f"architect: {a.name} ({' + '.join(a.types)})" if shown else "architect: face down"
    head, h = _lines(x0 + 32, y0 + 16 - 12 * 1.15 / 2, f"P{p + 1}{' (' + role + ')' if role else ''} - {s.gold[p]} gold - "
                     f"village {R.village_cards(s, p)}/{box.end_trigger_cards} cards", right - x0 - 32 - 4, 12, True,
                     max_lines=2)
    out += head
    y = y0 + max(30, 16 - 12 * 1.15 / 2 + h + 4)
    if arch_text is not None:
        if right < 600 - 16:
            texts, h = _lines(x0 + 6, y, arch_text, right - x0 - 12, 11, max_lines=2)
            out += texts
            y += h + 4
        else:
            out.append(Text(right, y0 + 16, arch_text, 11, S.INK, False, "end"))
    return out, y


def _band_sources(s, p: int, x0: float, y: float, right: float) -> tuple[list, float]:
    """Castle, Castle Grounds, developed resources and landmark tokens from ``y``: the
    tokens right-aligned beside the boxes when there is room, else (a narrow panel) the
    developed row and the tokens on rows of their own. ``(primitives, next y)``."""
    box = s.box
    out = [Rect(x0 + 6, y, 70, BOX_H, "#e8e0d0", S.INK, 1), Text(x0 + 41, y + 10, "Castle", 10, S.INK, True),
           Text(x0 + 41, y + 22, "wild", MIN_PX)]
    if "castle" in s.spent[p]:
        out += _badges(x0 + 76, y, [p])
    if s.modules["castle_grounds"]:
        out += [Rect(x0 + 82, y, CARD_W, BOX_H, "#d9ead3", S.INK, 1),
                Text(x0 + 82 + CARD_W / 2, y + 10, "Castle Grounds", MIN_PX, S.INK, True),
                Text(x0 + 82 + CARD_W / 2, y + 22, "wild + discard", MIN_PX)]
        out += _badges(x0 + 82 + CARD_W, y, s.grounds[p])
    n_marks = len(box.landmarks) if s.modules["landmarks"] else 0
    tokens_x = right + 2 - TOKEN_STEP * n_marks if n_marks else right
    dev_start, dev_end = x0 + 82 + CARD_W + 6, tokens_x - 4
    own_rows = dev_end - dev_start < 2 * CARD_STEP  # too little room beside the boxes: rows of their own
    y_dev = y
    if own_rows:
        dev_start, dev_end, y_dev = x0 + 6, right, y + BOX_H + 4
    rows = 0 if own_rows else 1
    for i, (row, x) in enumerate(_flow(len(s.developed[p]), dev_start, dev_end, CARD_STEP)):
        c, yy = box.cards[s.developed[p][i]], y_dev + row * (BOX_H + 4)
        out += [Rect(x, yy, CARD_W, BOX_H, _res_fill(c.icons[0]) if c.icons else "#ffffff", S.INK, 1),
                *fitted_text(x + CARD_W / 2, yy + 10, c.name, CARD_W - 8, MIN_PX, S.INK, True, max_lines=1),
                *fitted_text(x + CARD_W / 2, yy + 22, "/".join(c.icons), CARD_W - 8, MIN_PX, max_lines=1)]
        if f"developed:{i}" in s.spent[p]:
            out += _badges(x + CARD_W, yy, [p])
        rows = max(rows, row + 1)
    y_next = y_dev + rows * (BOX_H + 4) + 6
    if n_marks:
        spots = (_flow(n_marks, x0 + 6, right, TOKEN_STEP) if own_rows
                 else [(0, tokens_x + TOKEN_STEP * i) for i in range(n_marks)])
        ty = y_next if own_rows else y
        for (key, lt), (row, tx) in zip(box.landmarks.items(), spots):
            n, cx, cy = s.tokens[p][key], tx + TOKEN_STEP / 2, ty + row * 52
            out += [Circle(cx, cy + 12, 11, "#ffffff" if n == 0 else "#333333", S.INK, 1),
                    Text(cx, cy + 12, str(n), 11, "#000000" if n == 0 else "#ffffff", True),
                    *fitted_text(cx, cy + 36, lt.name, TOKEN_STEP - 6, MIN_PX)]
        if own_rows:
            y_next += 52 * (spots[-1][0] + 1)
    return out, y_next


def _band_village(s, p: int, x0: float, y: float, right: float, narrow: bool) -> tuple[list, float]:
    """The village's cards from ``y``, as many rows as it needs (on a narrow panel under
    its label): ``(primitives, next y)``."""
    box = s.box
    if narrow:
        out = [Text(x0 + 6, y + 7, "village:", 10, S.INK, True, "start")]
        y += 14
        v_start = x0 + 6
    else:
        out = [Text(x0 + 6, y + VILLAGE_H / 2, "village:", 10, S.INK, True, "start")]
        v_start = x0 + 58
    rows = 1
    for k, (row, x) in zip(s.villages[p], _flow(len(s.villages[p]), v_start, right, CARD_STEP)):
        c, yy = box.cards[k], y + row * VILLAGE_STEP
        fill = "#ffffff" if c.kind == "building" else "#f3e6ff"
        out += [Rect(x, yy, CARD_W, VILLAGE_H, fill, S.INK, 1),
                *fitted_text(x + CARD_W / 2, yy + 9, c.name, CARD_W - 8, MIN_PX, S.INK, True, max_lines=1),
                *fitted_text(x + CARD_W / 2, yy + 21, f"{c.type if c.kind == 'building' else 'adventurer'} "
                                                      f"{c.victory_points}VP", CARD_W - 8, MIN_PX, max_lines=1)]
        rows = row + 1
    return out, y + (rows - 1) * VILLAGE_STEP + VILLAGE_H + 6


def board_key(s) -> list:
    """Every code and short word the panel writes, with its words, rule section and the
    box's numbers (the box in play, so a house rule shows its own), for the kit's key
    (:mod:`haunted_kit.explain`)."""
    box = s.box
    out = [KeyEntry(("VP",), "victory points", R.SEC_LANDMARK_SCORING,
                    f"{R.majority_words(box)}; "
                    f"a set of landmark tokens: {box.set_points} each"),
           KeyEntry(("wild",), "the castle pays as any one resource", R.SEC_TAKE,
                    f"{box.castle_wild} resource{'s' if box.castle_wild != 1 else ''}; "
                    f"{box.castle_gold} gold on it while spent"),
           player_marks(s.players, "a gold badge (the player who put the gold there) or a band", R.SEC_TAKE),
           KeyEntry(tuple(str(n) for n in range(box.tokens_per_type + 1)), "in a disc over a landmark's name: "
                    "landmark tokens of that kind the player holds", R.SEC_ACQUIRE),
           KeyEntry(("left",), "landmark tokens of that kind still in the supply", R.SEC_ACQUIRE,
                    f"{box.tokens_per_type} of each kind at the start"),
           KeyEntry(("developed",), "a resource card in a player's developed row: pays its resource",
                    R.SEC_TAKE, f"{box.developed_gold} gold on it while spent")]
    for lt in box.landmarks.values():
        out.append(KeyEntry((lt.name,), "a landmark (its card on top, a player's tokens of it in their band)",
                            R.SEC_ACQUIRE, f"costs {lt.cost_text()}; {lt.victory_points} VP a token", drawn_only=True))
    for c in box.cards.values():
        what = (f"{c.type} building card" if c.kind == "building" else f"{c.type} adventurer card")
        cost = f"costs {' + '.join(c.cost)}; " if c.cost else ""
        icons = f"pays {' or '.join(c.icons)} when developed; " if c.icons else ""
        out.append(KeyEntry((c.name,), what, R.SEC_BUILD, f"{cost}{icons}{c.victory_points} VP", drawn_only=True))
    if s.modules["castle_grounds"]:
        out.append(KeyEntry(("wild + discard",), "Castle Grounds pay as any resource by discarding a card",
                            R.SEC_GROUNDS, f"{box.grounds_wild} resource, {box.grounds_discard} card discarded, "
                            f"{box.grounds_gold} gold on it"))
    if s.modules["architects"]:
        out.append(KeyEntry(("architect",), "a secret card naming building types that score at the end",
                            R.SEC_ARCHITECT_SCORING, f"{box.architect_points} VP per building of its types"))
    return out


def layouts_css(host: str, wide: float) -> str:
    """The ``<style>`` choosing between a panel's two layouts inside ``host`` (a CSS selector
    of the element holding both, made a size container): the wide layout (class
    ``hk-panel-wide``) where ``host`` is at least ``wide`` px wide (the wide layout's width at
    12 px text), else the narrow one (``hk-panel-narrow``). A container query, not the
    window's width: a laptop's Lab beside its file browser gives a notebook less than the wide
    layout needs, as a phone does."""
    w = int(round(wide))
    return (f"<style>{host} {{ container-type: inline-size; }}"
            f"@container (max-width: {w - 1}px) {{ {host} .hk-panel-wide {{ display: none !important; }}"
            f" {host} .hk-panel-narrow {{ display: block !important; }} }}"
            f"@container (min-width: {w}px) {{ {host} .hk-panel-narrow {{ display: none !important; }} }}</style>")


class PanelSVG:
    """An SVG picture that notebooks display; ``str()`` is the SVG text (the wide layout).
    A notebook or Voila page shows it as HTML (``_repr_html_``) holding both layouts, each
    an image never under 12 px text (:func:`haunted_kit.render.svg.readable_html`): the
    phone's (``narrow``: :data:`NARROW_WIDTH`) where the output area is narrower than the
    wide layout at 12 px text (a container query, :func:`layouts_css`), so nothing of it
    scrolls sideways on a laptop's Lab beside its file browser; a notebook's stored output
    (whose ``<style>`` JupyterLab drops) shows the wide one, panning in its box."""

    def __init__(self, text: str, narrow: str | None = None, alt: str = "Landmarks & Architects panel"):
        self.text = text
        self.narrow = narrow
        self.alt = alt

    def _repr_html_(self) -> str:
        if self.narrow is None:
            return readable_html(self.text, self.alt)
        return (f'<div class="hk-landmarks-layouts">{layouts_css(".hk-landmarks-layouts", readable_width(self.text)[1])}'
                f'{readable_html(self.text, self.alt, "hk-panel-wide")}'
                f'{readable_html(self.narrow, self.alt, "hk-panel-narrow", hidden=True)}</div>')

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<PanelSVG {len(self.text)} characters>"


def _svg_text(prims, w: float, h: float) -> str:
    body = "\n".join(primitive_svg(p) for p in prims)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif" class="hk-landmarks-panel" '
            f'style="max-width:100%;height:auto">\n'
            f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="#ffffff"/>\n{body}\n</svg>')


def panel_svg(s, viewer: int | None = None) -> PanelSVG:
    """The panel as deterministic SVG (same position, same bytes): laid out
    :data:`WIDE_WIDTH` px wide and drawn 900 px wide with text of at least 12 px, with the
    phone's layout beside it for an output area narrower than that (:class:`PanelSVG`)."""
    return PanelSVG(_svg_text(*panel_scene(s, viewer, WIDE_WIDTH, WIDE_SCALE)),
                    _svg_text(*panel_scene(s, viewer, NARROW_WIDTH, NARROW_SCALE)), alt=_title(s))
