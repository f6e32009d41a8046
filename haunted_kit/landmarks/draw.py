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
with the number of the player who placed it), developed resources (a dot when they hold
gold), the village's buildings and adventurers (type and points), landmark tokens, the
hand (cards for the viewer, a count for others) and the architect (hidden from others
until the end). The footer says that the cards are the kit example deck.
"""

from __future__ import annotations

from ..render import style as S
from ..render.primitives import Circle, Rect, Text
from ..render.svg import fitted_text, primitive_svg
from . import rules as R

RESOURCE_FILL = {"food": "#f0e442", "wood": "#6fb07f", "stone": "#bdbdbd", "magic": "#cc99cc"}
WIDTH = 900
BAND = 112
TOKEN_STEP = 40  #: pixels between landmark tokens (a name fits under each)
HAND_WIDTH = 200  #: pixels for the hand's card names, right of the village


def _res_fill(r: str) -> str:
    return RESOURCE_FILL.get(r, "#eeeeee")


def _gold_dot(x, y, payer: int) -> list:
    return [Circle(x, y, 7, S.player_colour(payer), S.INK, 1), Text(x, y, str(payer + 1), 9, S.INK, True)]


def panel_scene(s, viewer: int | None = None) -> tuple[list, float, float]:
    """The panel of position ``s`` as ``(primitives, width, height)`` in pixels.

    ``viewer`` hides other players' hands and architects (``None``: everything shown)."""
    box = s.box
    prims: list = []
    cur = s.current_player()
    lead = f"lead: {s.lead} (P{s.leader + 1} leads)" if s.lead else f"P{s.leader + 1} to lead"
    status = "game over" if s.is_terminal() else ("architects being dealt" if s.is_chance_node() else
                                                   f"P{cur + 1} to choose")
    prims.append(Text(8, 14, f"Landmarks & Architects - round {s.round} of {s.rounds} - {lead} - {status}", 14,
                      S.INK, True, "start"))
    # landmark cards
    y0 = 30
    if s.modules["landmarks"]:
        w = (WIDTH - 16) / len(box.landmarks)
        for i, (key, lt) in enumerate(box.landmarks.items()):
            x = 8 + i * w
            fill = _res_fill(lt.icon) if lt.icon else "#f7f1e3"
            prims += [Rect(x + 2, y0, w - 4, 52, fill, S.INK, 1),
                      *fitted_text(x + w / 2, y0 + 11, lt.name, w - 8, 12, S.INK, True, max_lines=1),
                      *fitted_text(x + w / 2, y0 + 26, lt.cost_text(), w - 8, 9, max_lines=1),
                      *fitted_text(x + w / 2, y0 + 41, f"{s.supply[key]} left - {lt.victory_points} VP each - "
                                                      f"most +{box.most_points}", w - 8, 9, max_lines=1)]
        y0 += 60
    for p in range(s.players):
        prims += _band(s, p, viewer, 8, y0)
        y0 += BAND
    prims.append(Text(8, y0 + 8, f"Building cards: {box.deck_label}.", 10, "#444444", False, "start"))
    return prims, WIDTH, y0 + 18


def _band(s, p: int, viewer, x0: float, y0: float) -> list:
    box = s.box
    out: list = []
    turn = s.current_player() == p
    out.append(Rect(x0, y0, WIDTH - 16, BAND - 6, "#fffdf5" if not turn else "#eef6ff", S.INK, 2.5 if turn else 1))
    out += [Circle(x0 + 16, y0 + 16, 10, S.player_colour(p), S.INK, 1), Text(x0 + 16, y0 + 16, str(p + 1), 11, S.INK, True)]
    role = "leader" if p == s.leader else ("cannot follow" if p in s.cannot_follow and s.lead else "")
    out.append(Text(x0 + 32, y0 + 16, f"P{p + 1}{' (' + role + ')' if role else ''} - {s.gold[p]} gold - "
                                      f"village {R.village_cards(s, p)}/{box.end_trigger_cards} cards", 12, S.INK, True,
                    "start"))
    # architect
    arch = s.architects[p]
    if s.modules["architects"] and arch is not None:
        shown = viewer is None or viewer == p or s.is_terminal()
        a = box.architects[arch]
        text = f"architect: {a.name} ({' + '.join(a.types)})" if shown else "architect: face down"
        out.append(Text(WIDTH - 16, y0 + 16, text, 11, S.INK, False, "end"))
    # castle and Castle Grounds
    y = y0 + 32
    out += [Rect(x0 + 6, y, 70, 30, "#e8e0d0", S.INK, 1), Text(x0 + 41, y + 10, "Castle", 10, S.INK, True),
            Text(x0 + 41, y + 22, "wild", 9)]
    if "castle" in s.spent[p]:
        out += _gold_dot(x0 + 70, y + 4, p)
    if s.modules["castle_grounds"]:
        out += [Rect(x0 + 82, y, 84, 30, "#d9ead3", S.INK, 1), Text(x0 + 124, y + 10, "Castle Grounds", 9, S.INK, True),
                Text(x0 + 124, y + 22, "wild + discard", 9)]
        for i, payer in enumerate(s.grounds[p]):
            out += _gold_dot(x0 + 160 - 15 * i, y + 4, payer)
    # developed resources
    x = x0 + 176
    for i, k in enumerate(s.developed[p]):
        c = box.cards[k]
        out += [Rect(x, y, 80, 30, _res_fill(c.icons[0]) if c.icons else "#ffffff", S.INK, 1),
                *fitted_text(x + 40, y + 10, c.name, 76, 9, S.INK, True, max_lines=1),
                *fitted_text(x + 40, y + 22, "/".join(c.icons), 76, 9, max_lines=1)]
        if f"developed:{i}" in s.spent[p]:
            out += _gold_dot(x + 74, y + 4, p)
        x += 84
    # landmark tokens
    if s.modules["landmarks"]:
        x = max(x + 8, x0 + 520)
        for key, lt in box.landmarks.items():
            n = s.tokens[p][key]
            out += [Circle(x + 16, y + 15, 12, "#ffffff" if n == 0 else "#333333", S.INK, 1),
                    Text(x + 16, y + 15, str(n), 11, "#000000" if n == 0 else "#ffffff", True),
                    *fitted_text(x + 16, y + 34, lt.name, TOKEN_STEP - 2, 8, max_lines=1)]
            x += TOKEN_STEP
    # village
    y = y0 + 70
    out.append(Text(x0 + 6, y + 11, "village:", 10, S.INK, True, "start"))
    x = x0 + 52
    for k in s.villages[p]:
        c = box.cards[k]
        fill = "#ffffff" if c.kind == "building" else "#f3e6ff"
        out += [Rect(x, y, 74, 24, fill, S.INK, 1), *fitted_text(x + 37, y + 8, c.name, 70, 8, S.INK, True, max_lines=1),
                *fitted_text(x + 37, y + 18, f"{c.type if c.kind == 'building' else 'adventurer'} {c.victory_points}VP", 70,
                             8, max_lines=1)]
        x += 77
        if x > WIDTH - 300:
            out.append(Text(x + 4, y + 12, "...", 10, S.INK, True, "start"))
            break
    hand = s.hands[p]
    if viewer is None or viewer == p:
        text = "hand: " + (", ".join(box.cards[k].name for k in hand) or "empty")
    else:
        text = f"hand: {len(hand)} cards"
    out += fitted_text(WIDTH - 16, y + 12, text, HAND_WIDTH, 9, S.INK, False, "end", max_lines=3)
    return out


class PanelSVG:
    """An SVG picture that notebooks display (``_repr_svg_``); ``str()`` is the SVG text."""

    def __init__(self, text: str):
        self.text = text

    def _repr_svg_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<PanelSVG {len(self.text)} characters>"


def panel_svg(s, viewer: int | None = None) -> PanelSVG:
    """The panel as deterministic SVG (same position, same bytes), scaled down to fit a
    narrower output area (CSS ``max-width: 100%``; a notebook is about 850 px wide)."""
    prims, w, h = panel_scene(s, viewer)
    body = "\n".join(primitive_svg(p) for p in prims)
    return PanelSVG(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
                    f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif" class="hk-landmarks-panel" '
                    f'style="max-width:100%;height:auto">\n'
                    f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="#ffffff"/>\n{body}\n</svg>')
