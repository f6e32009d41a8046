"""Static SVG of a game state, through the same geometry and scene as the canvas widget.

The text is deterministic: fixed float formatting (2 decimals), a stable element order
(cells by index, pieces by kind then cell), no ids taken from memory. The same state
gives the same bytes on every machine, so the SVG serves docs, the README picture and
nbval-checked notebook outputs.

    from haunted_kit.haunted.draw import render_svg, board_svg
    text = render_svg(state, highlight=[(1, 0)], path=[(0, 0), (1, 0)])
    board_svg(state)          # displays inline in Jupyter (_repr_html_: never under 12 px text)

Command line (the README picture)::

    python -m haunted_kit.haunted.draw --seed 1 --out docs/board.svg
"""


from __future__ import annotations

import argparse
from weakref import WeakKeyDictionary
from xml.sax.saxutils import escape, quoteattr

from ...fileio import atomic_write
from ...render import style as S
from ...render.primitives import Circle, Poly, Rect, Text
from ...render.svg import BoardSVG, extent, marks_words, primitive_svg, text_width
from ..engine import new_game
from .geometry import board_geometry
from .scene import highlight_layer, pieces_layer, status_line, terrain_layer

#: field -> {(geometry size, margin, labels, names): (geometry, SVG text)}: see :func:`terrain_svg`.
TERRAIN_CACHE: WeakKeyDictionary = WeakKeyDictionary()


def legend(state, geom, viewer=None, paper: bool = False) -> tuple[list, float]:
    """Primitives of the key drawn under the field, and the height they take. On
    ``paper`` the key has no on-screen text: no status line (whose move), no valor
    (it changes in play), no "to move" ring."""
    s = geom.size
    fs = round(max(10.0, 0.4 * s), 2)
    row = fs * 1.9
    x0 = geom.margin
    y = geom.height + fs * 0.6
    out: list = []
    if not paper:
        status = status_line(state, viewer)
        if viewer is not None:
            status += f" View of {S.player_name(viewer)}."
        out.append(Text(x0, y, status, fs, S.INK, bold=True, anchor="start"))
        y += row
    x = x0
    for p in range(state.config.players):
        r = fs * 0.55
        out.append(Circle(x + r, y, r, fill=S.player_colour(p), stroke=S.INK, width=1.0))
        out.append(Text(x + r, y, S.PLAYER_MARKS[p], fs * 0.8, S.INK, bold=True))
        label = f"{S.player_name(p)} sensor" if paper else f"{S.player_name(p)} valor {state.valor[p]}"
        out.append(Text(x + 2 * r + fs * 0.3, y, label, fs, S.INK, anchor="start"))
        x += 2 * r + fs * 0.3 + text_width(label, fs) + fs
    y += row
    x = x0
    box = state.config.box
    for name in box.terrains:
        st = S.terrain_style(name)
        w = fs * 1.3
        out.append(Rect(x, y - w / 2, w, w, fill=st.fill, stroke=S.INK, width=0.8))
        out.append(Text(x + w / 2, y, S.terrain_letter(box, name), fs * 0.8, st.ink, bold=True))
        out.append(Text(x + w + fs * 0.3, y, st.word, fs, S.INK, anchor="start"))
        x += w + fs * 0.3 + text_width(st.word, fs) + fs * 0.8
    y += row
    x = x0
    w, h = fs * 2.0, fs * 1.2
    marks = ", ".join(f"{S.building_mark(b)} {b}" for b in box.buildings)
    out.append(Rect(x, y - h / 2, w, h, fill=S.PAPER, stroke=S.INK, width=1.0))
    out.append(Text(x + w / 2, y, "Ml1", fs * 0.7, S.INK, bold=True))
    label = f"building + owner ({marks})"
    out.append(Text(x + w + fs * 0.3, y, label, fs, S.INK, anchor="start"))
    y += row
    x = x0
    out.append(Circle(x + fs * 0.6, y, fs * 0.6, fill=S.GHOST_FILL, stroke=S.GHOST_LINE, width=1.0))
    out.append(Text(x + fs * 0.6, y, "G", fs * 0.8, S.GHOST_LINE, bold=True))
    out.append(Text(x + fs * 1.5, y, "ghost", fs, S.INK, anchor="start"))
    x += fs * 1.5 + text_width("ghost", fs) + fs
    r = fs * 0.45
    out.append(Poly(((x + r, y - r), (x + 2 * r, y), (x + r, y + r), (x, y)), fill=S.DEPLETION_FILL))
    out.append(Text(x + 2 * r + fs * 0.3, y, "depletion token", fs, S.INK, anchor="start"))
    x += 2 * r + fs * 0.3 + text_width("depletion token", fs) + fs
    if not paper:
        out.append(Circle(x + fs * 0.6, y, fs * 0.6, fill=S.PAPER, stroke=S.INK, width=1.0))
        out.append(Circle(x + fs * 0.6, y, fs * 0.42, fill=S.PAPER, stroke=S.INK, width=1.0))
        out.append(Text(x + fs * 1.5, y, "ringed sensor: to move", fs, S.INK, anchor="start"))
    y += row * 0.6
    return out, y - geom.height


def layer_svg(name: str, prims) -> str:
    """One layer's SVG text: its primitives in a ``<g class="hk-NAME">`` group, one
    element a line; "" for no primitives."""
    if not prims:
        return ""
    return "\n".join([f'<g class="hk-{name}">', *(primitive_svg(p) for p in prims), "</g>"])


def terrain_svg(field, geom, show_labels: bool = True, show_coords: bool = False) -> str:
    """The terrain layer's SVG text (:func:`~.scene.terrain_layer` in a ``hk-terrain``
    group): cell fills, tile outlines, terrain letters and cell names. It depends only on
    the field (its box and tile layout, which never change in a game) and the geometry
    (hex size in pixels), so it is made once per field, geometry and flags and kept while
    the field lives: a view of a new position builds only the pieces and highlights (the
    table server draws every position for each viewer)."""
    per_field = TERRAIN_CACHE.setdefault(field, {})
    key = (geom.size, geom.margin, bool(show_labels), bool(show_coords))
    hit = per_field.get(key)
    if hit is None or hit[0] is not geom:
        hit = per_field[key] = (geom, layer_svg("terrain", terrain_layer(field, geom, show_labels, show_coords)))
    return hit[1]


def render_svg(state, *, viewer=None, highlight=(), path=(), size=30, show_labels=True, legend_rows=True,
               event_cell=None, title=None, paper: bool = False, show_coords: bool = False) -> str:
    """The field of ``state`` as deterministic SVG text.

    Args:
        state: a :class:`haunted_kit.State` after setup (it needs its field).
        viewer: player whose view this is (thicker edge on that sensor, named in the
            caption); ``None`` for everyone. The field holds no hidden information.
        highlight: cells to highlight (axial tuples or indexes); a dict ``{cell: text}``
            also writes the text in each cell (e.g. exploration costs).
        path: cells of a path, drawn as a line through their centres.
        size: hex size in pixels (centre to corner).
        show_labels: write the terrain letter in every cell.
        show_coords: also write each cell's name (``render.style.cell_name``: ``2,-1``),
            the name buttons and logs use (the classroom server's pages).
        legend_rows: draw the caption and key under the field.
        event_cell: a cell to mark in yellow (the cell of an explained event).
        title: the SVG ``<title>``; the status line by default (on ``paper``: "board").
        paper: for print (handouts): no on-screen text (status line, valor, the
            to-move ring and its key), only the field and its key.

    Raises:
        RenderError: the state cannot be drawn (see :func:`haunted_kit.render.style.check_drawable`).
    """
    S.check_drawable(state)
    geom = board_geometry(state.config.box, size)
    layers = [
        ("pieces", pieces_layer(state, geom, viewer, mover_ring=not paper)),
        ("highlights", highlight_layer(state.field, geom, highlight, path, event_cell)),
    ]
    extra_h = 0.0
    if legend_rows:
        key, extra_h = legend(state, geom, viewer, paper)
        layers.append(("legend", key))
    width, height = geom.width, int(round(geom.height + extra_h))
    if legend_rows:
        _, _, max_x, _ = extent(key)
        width = max(width, int(max_x + geom.margin + 1))
    head = title if title is not None else ("board" if paper else status_line(state, viewer) + _marks(state, highlight, path))
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family={quoteattr(S.FONT)} class="hk-board-svg">',
        f"<title>{escape('Haunted Lands: ' + head)}</title>",
        f'<rect x="0.00" y="0.00" width="{width}" height="{height}" fill="{S.PAPER}"/>',
        terrain_svg(state.field, geom, show_labels, show_coords),  # the same text for every position of the game
    ]
    lines.extend(layer_svg(name, prims) for name, prims in layers)
    lines = [line for line in lines if line]  # an empty layer has no group
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _marks(state, highlight, path) -> str:
    """What the drawing marks, cells as the boards write them (highlight and path may give indexes)."""
    cells = state.field.cells
    at = {cells[state.field.cell_index(c)]: v for c, v in
          (highlight.items() if isinstance(highlight, dict) else ((c, None) for c in highlight))}
    return marks_words(at if isinstance(highlight, dict) else list(at), [cells[state.field.cell_index(c)] for c in path])


def board_svg(state, **kwargs) -> BoardSVG:
    """:func:`render_svg` wrapped for display in a notebook (same keyword arguments)."""
    return BoardSVG(render_svg(state, **kwargs))


#: Preference of the picture-making policy in :func:`readme_state`, by action type name.
_PICTURE_ORDER = ("Build", "Learn", "Extract", "Contact", "Train", "Sell", "Explore", "PlaceGhost", "ChooseQuest",
                  "ChooseResource", "ChooseBonus", "RestoreToken", "RollBonus", "EndTurn")


def readme_state(seed: int = 1, players: int = 4, decisions: int = 80):
    """A game a few turns in, for pictures: seed ``seed``, each decision taken by a fixed
    preference over the legal actions (build, learn, extract, contact, train, sell,
    explore, ..., end the turn; ties by a fixed index), so the picture never depends on
    a bot implementation."""
    s = new_game(players=players, seed=seed)
    rank = {name: i for i, name in enumerate(_PICTURE_ORDER)}
    for k in range(decisions):
        legal = s.legal_actions()
        if s.is_terminal() or not legal:
            break
        best = min(rank.get(type(a).__name__, 99) for a in legal)
        keep = [a for a in legal if rank.get(type(a).__name__, 99) == best]
        s.apply_action(keep[(k * 7) % len(keep)])
    return s


def main(argv=None) -> int:

    ap = argparse.ArgumentParser(description="Write the board of a seeded game as SVG.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--decisions", type=int, default=80, help="decisions played before the picture")
    ap.add_argument("--size", type=float, default=30)
    ap.add_argument("--out", default="-")
    a = ap.parse_args(argv)
    text = render_svg(readme_state(a.seed, a.players, a.decisions), size=a.size)
    if a.out == "-":
        print(text, end="")
    else:
        atomic_write(a.out, text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
