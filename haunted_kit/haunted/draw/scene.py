"""What the field looks like, as a list of drawing primitives per layer.

One description, two back ends: :mod:`haunted_kit.render.svg` writes the primitives as
SVG text and :mod:`haunted_kit.widgets.canvas` sends them to an ipycanvas layer, so
the static picture and the live widget always show the same board.

Layers (bottom to top): ``terrain`` (cell fills, tile outlines, terrain letters; changes
only with the tile layout), ``pieces`` (buildings, ghosts, depletion tokens, sensors),
``highlights`` (legal targets, reachable cells, a path, the cell of an event) and, in
the canvas widget only, ``hover``.

Nothing here decides a rule: the builders read the state's plain fields.
"""


from __future__ import annotations

from dataclasses import dataclass

from ...explain import KeyEntry, player_marks
from ...hexgrid import name_cells
from ...render import style as S
from ...render.geometry import BoardGeometry
from ...render.primitives import Circle, Poly, Polyline, Rect, Segments, Text
from .. import rules as R


LAYERS = ("terrain", "pieces", "highlights")


# ----------------------------------------------------------------------------- layers
def _idx(field, cell) -> int:
    return field.cell_index(cell)


def terrain_layer(field, geom: BoardGeometry, show_labels: bool = True, show_coords: bool = False,
                  min_text: float = 0.0) -> list:
    """Cell fills with thin borders, thick tile outlines and terrain letters; with
    ``show_coords`` each cell's axial coordinates follow its letter (``F 2,-1``), the
    names the exercises use for cells ("(2, -1)"), never in text under ``min_text`` px
    (a notebook's board passes the kit's least text size; 0: scaled with the cell)."""
    box = field.box
    s = geom.size
    coord_px = max(S.LABEL_FONT * 0.75 * s, min_text)
    out: list = []
    for i, c in enumerate(field.cells):
        st = S.terrain_style(field.terrain[i])
        out.append(Poly(geom.polygons[i], fill=st.fill, stroke=S.CELL_LINE, width=round(max(1.0, s * S.CELL_LINE_W), 2),
                        title=name_cells(field.describe(c))))  # as the boards write a cell
    out.append(Segments(geom.tile_edges, S.TILE_LINE, round(max(1.5, s * S.TILE_LINE_W), 2)))
    if show_labels:
        for i, c in enumerate(field.cells):
            st = S.terrain_style(field.terrain[i])
            x, y = geom.centres[i]
            letter = S.terrain_letter(box, field.terrain[i])
            if show_coords:
                out.append(Text(x, y + S.LABEL_DY * s, f"{letter} {S.cell_name(c)}", coord_px, st.ink, bold=True))
            else:
                out.append(Text(x, y + S.LABEL_DY * s, letter, S.LABEL_FONT * s, st.ink, bold=True))
    elif show_coords:
        for i, c in enumerate(field.cells):
            x, y = geom.centres[i]
            out.append(Text(x, y + S.LABEL_DY * s, S.cell_name(c), coord_px,
                            S.terrain_style(field.terrain[i]).ink, bold=True))
    return out


def least_text(size: float, show_labels: bool = True, show_coords: bool = False, min_text: float = 0.0) -> float:
    """The least size in px any text of a field drawn at hex ``size`` can have, whatever the
    position (:func:`terrain_layer`'s letters or coordinates, :func:`pieces_layer`'s marks,
    the smallest when 4 sensors share a cell, :func:`highlight_layer`'s labels): a board is
    drawn no smaller than this size's readable scale (:func:`haunted_kit.widgets.canvas.fit_to_output`)."""
    sizes = [S.PIECE_FONT * size, 1.5 * min(S.SENSOR_R.values()) * size, S.HIGHLIGHT_LABEL_R * 1.5 * size]
    if show_labels and not show_coords:
        sizes.append(S.LABEL_FONT * size)
    if show_coords:
        sizes.append(max(S.LABEL_FONT * 0.75 * size, min_text))
    return min(sizes)


def pieces_key(state, viewer=None) -> tuple:
    """Everything :func:`pieces_layer` reads; equal keys draw equal pictures."""
    return (tuple(state.ghosts), tuple(state.depleted), tuple(state.building), tuple(state.owner),
            tuple(state.sensor), _mover(state), viewer)


def _mover(state):
    try:
        return state.current_player()
    except Exception:  # a half-built state: no mover ring
        return None


def pieces_layer(state, geom: BoardGeometry, viewer=None, mover_ring: bool = True) -> list:
    """Buildings (owner colour + mark), ghosts, depletion tokens and sensors.

    Several sensors on one cell sit side by side along the bottom of the cell. The
    sensor of the player to move has an extra ring (not with ``mover_ring=False``: a
    printed board has nobody to move); the viewer's sensor a thicker edge.
    """
    f = state.field
    s = geom.size
    box = state.config.box
    bnames = list(box.buildings)
    rects, ghosts, depl, sensors, rings, texts = [], [], [], [], [], []
    line = round(max(1.0, s * 0.04), 2)
    font = S.PIECE_FONT * s
    for i in range(len(f.cells)):
        x, y = geom.centres[i]
        b = state.building[i]
        if b >= 0:
            o = state.owner[i]
            bx, by = x + S.BUILDING_DX * s, y + S.PIECE_DY * s
            rects.append(Rect(bx - S.BUILDING_W * s / 2, by - S.BUILDING_H * s / 2, S.BUILDING_W * s, S.BUILDING_H * s,
                              fill=S.player_colour(o), stroke=S.INK, width=line))
            texts.append(Text(bx, by, S.building_mark(bnames[b]) + S.PLAYER_MARKS[o], font, S.INK, bold=True))
        if state.ghosts[i]:
            gx, gy = x + S.GHOST_DX * s, y + S.PIECE_DY * s
            ghosts.append(Circle(gx, gy, S.GHOST_R * s, fill=S.GHOST_FILL, stroke=S.GHOST_LINE, width=line))
            texts.append(Text(gx, gy, "G", font, S.GHOST_LINE, bold=True))
        if state.depleted[i]:
            dx, dy, r = x + S.DEPLETION_DX * s, y + S.DEPLETION_DY * s, S.DEPLETION_R * s
            depl.append(Poly(((dx, dy - r), (dx + r, dy), (dx, dy + r), (dx - r, dy)), fill=S.DEPLETION_FILL,
                             stroke=S.PAPER, width=round(line / 2, 2)))
    by_cell: dict[int, list[int]] = {}
    for p, c in enumerate(state.sensor):
        by_cell.setdefault(c, []).append(p)
    mover = _mover(state) if mover_ring else None
    for c in sorted(by_cell):
        ps = by_cell[c]
        x, y = geom.centres[c]
        y0 = y + S.SENSOR_DY * s
        r = S.SENSOR_R.get(len(ps), min(S.SENSOR_R.values())) * s
        gap = 2 * r + 0.03 * s
        x0 = x - (len(ps) - 1) * gap / 2
        for k, p in enumerate(ps):
            px = x0 + k * gap
            if p == mover:
                rings.append(Circle(px, y0, r + max(1.5, s * 0.05), fill=S.PAPER, stroke=S.INK, width=line))
            sensors.append(Circle(px, y0, r, fill=S.player_colour(p), stroke=S.INK, width=line * (2 if p == viewer else 1)))
            texts.append(Text(px, y0, S.PLAYER_MARKS[p], min(font, 1.5 * r), S.INK, bold=True))
    return rects + ghosts + depl + rings + sensors + texts


def highlight_layer(field, geom: BoardGeometry, highlight=(), path=(), event_cell=None) -> list:
    """Highlighted cells (legal targets, reachable cells; a mapping cell -> text also
    writes the text, e.g. a cost), a path through cell centres, and an event's cell."""
    s = geom.size
    out: list = []
    if event_cell is not None:
        i = _idx(field, event_cell)
        out.append(Poly(geom.polygons[i], fill=S.EVENT, stroke=S.INK, width=round(max(2.0, s * 0.1), 2), alpha=0.45))
    labels = highlight if isinstance(highlight, dict) else None
    cells = sorted({_idx(field, c) for c in highlight})
    for i in cells:
        out.append(Poly(geom.polygons[i], fill=S.HIGHLIGHT, stroke=S.HIGHLIGHT, width=round(max(2.0, s * 0.09), 2),
                        alpha=0.22, dash=(round(s * 0.2, 2), round(s * 0.1, 2))))
    if labels:
        texts = []
        for i, label in sorted((_idx(field, c), v) for c, v in labels.items() if v is not None and v != ""):
            x, y = geom.centres[i]
            lx, ly = x + S.HIGHLIGHT_LABEL_DX * s, y + S.HIGHLIGHT_LABEL_DY * s
            out.append(Circle(lx, ly, S.HIGHLIGHT_LABEL_R * s, fill=S.PAPER, stroke=S.HIGHLIGHT, width=1.5))
            texts.append(Text(lx, ly, str(label), S.HIGHLIGHT_LABEL_R * 1.5 * s, S.HIGHLIGHT, bold=True))
        out.extend(texts)
    if path:
        pts = tuple(geom.centres[_idx(field, c)] for c in path)
        if len(pts) > 1:
            out.append(Polyline(pts, S.PATH, round(max(2.0, s * 0.12), 2)))
        for k, (x, y) in enumerate(pts):
            out.append(Circle(x, y, (0.16 if k == 0 else 0.1) * s, fill=S.PATH, stroke=S.PAPER, width=1.0))
    return out


def cursor_ring(geom: BoardGeometry, index: int) -> list:
    """The keyboard cursor on cell ``index``: its outline drawn as a thick white line under a black
    one, so it shows on every terrain and against the tile outlines (black) and the lines between
    cells (white), and stays clear of the cell's name inside it."""
    pts = geom.polygons[index]
    w = max(2.0, geom.size * 0.06)
    return [Poly(pts, stroke="#ffffff", width=round(2.5 * w, 2)), Poly(pts, stroke=S.HOVER, width=round(w, 2))]


def hover_layer(geom: BoardGeometry, index: int | None, cursor: bool = False) -> list:
    """The cell under the mouse outlined, or with ``cursor`` the keyboard's cursor ring (:func:`cursor_ring`)."""
    if index is None:
        return []
    if cursor:
        return cursor_ring(geom, index)
    return [Poly(geom.polygons[index], stroke=S.HOVER, width=round(max(2.0, geom.size * 0.09), 2))]


def status_line(state, viewer=None) -> str:
    """One line saying where the game stands, for captions (no rule decided here)."""
    if state.phase == "over":
        if state.lost:
            return "Game over: Kalena fell and every player lost."
        return f"Game over: {S.player_name(state.winner)} wins."
    where = f"Season {state.season}, round {state.round}, {state.phase.replace('_', ' ')}"
    p = _mover(state)
    if p is None:
        return where + "."
    what = ""
    if state.pending:
        kind = state.pending[-1].kind
        what = {"ghosts": "places ghosts", "resource": "chooses a resource", "bonus": "takes a bonus",
                "restore": "restores a token", "quests": "chooses quests"}.get(kind, kind)
        what = f" ({what})"
    who = S.player_name(p) + (" (you)" if viewer is not None and p == viewer else "")
    return f"{where}: {who} to move{what}."


PHASE_SENTENCES = {
    "setup": "Setting up: the field, the cards and the starting stack are being laid out.",
    "spread": ("Spread: ghosts arrive on cells of the terrain the die showed; when that terrain is full they go to "
               "Kalena, and if Kalena cannot take them every player loses."),
    "turns": ("Turns: on a turn a player spends action tokens to explore, extract, build and contact ghosts, sells "
              "in the city, trains and learns in the suburb, then ends the turn. Rest and the new turn order "
              "follow the last turn of the round."),
    "season_end": ("End of the season: depletion tokens leave the field and every player but the leader chooses "
                   "quest cards face down."),
}


def phase_sentence(state) -> str:
    """What the current phase is for, in a sentence or two for the whole class
    (rulebook "Game Flow"; :func:`status_line` says who is to move); at the end, who
    won or why everyone lost."""
    if state.phase == "over":
        if state.lost:
            return f"Game over: Kalena fell ({state.over_reason}), so every player loses together."
        return (f"Game over: the quests are revealed and scored; {S.player_name(state.winner)} wins with "
                f"{state.valor[state.winner]} valor.")
    return PHASE_SENTENCES.get(state.phase, f"{state.phase.replace('_', ' ').capitalize()}.")


@dataclass(frozen=True)
class RankingRow:
    """One line of the final ranking: ``rank`` (1 = winner; the valor stack breaks
    ties), ``player`` (index), ``valor`` (total), ``quests``: (quest number, times
    fulfilled, valor) per quest card, ``quest_valor``: their sum."""
    rank: int
    player: int
    valor: int
    quests: tuple[tuple[int, int, int], ...]
    quest_valor: int


def final_ranking(state) -> list[RankingRow]:
    """The players from first to last (the valor stack's order, rulebook "Final
    Scoring") with each quest card's score: from the log's ``quest_revealed`` events
    when the game was logged (the values scored), else worked out from the final state.
    Before final scoring, or after a collective loss, no quest is listed (they stay
    face down)."""
    revealed: dict[int, list[tuple[int, int, int]]] = {}
    for e in state.log or []:
        if e.kind == "quest_revealed" and e.player is not None:
            revealed.setdefault(e.player, []).append((e.data["quest"], e.data["fulfilments"], e.data["valor"]))
    ctx = R.ctx_of(state)
    rows = []
    for rank, p in enumerate(R.stack_order(state), start=1):
        if state.log is not None or state.lost or state.phase != "over":
            qs = tuple(revealed.get(p, ()))  # never a hidden quest before final scoring
        else:
            qs = tuple((q, *reversed(R.quest_score(state, ctx, p, q))) for q in state.quests[p])
        rows.append(RankingRow(rank, p, state.valor[p], qs, sum(v for _, _, v in qs)))
    return rows


def board_key(state) -> list:
    """Every code the field's drawing writes, with its words, rule section and the box's
    numbers for it (the box in play: a house rule's own values), for the kit's key
    (:mod:`haunted_kit.explain`): terrain letters, building marks, the ghost's "G", the
    players' numbers on sensors and buildings, the depletion diamond, the cost circles of
    highlighted cells and the ring of the sensor to move."""
    box = state.config.box
    out = []
    for name, t in box.terrains.items():
        does = []
        if t.explorable:
            does.append(f"entering it costs {t.explore_cost} exploration token{'s' if t.explore_cost != 1 else ''}")
        else:
            does.append("cannot be entered")
        if t.extract:
            does.append(f"gives {t.extract}")
        if t.build:
            does.append(f"a {t.build} may be built on it")
        if t.sell:
            does.append("sell here")
        if t.train_and_learn:
            does.append("train and learn here")
        out.append(KeyEntry((S.terrain_letter(box, name),), f"{name} cell", "Game Field, Tiles and Terrain Types",
                            "; ".join(does)))
    for name, b in box.buildings.items():
        out.append(KeyEntry((S.building_mark(name),), f"{name} (a building; the number after it is its owner)",
                            f"Buildings: {name.title()}",
                            f"stands on {b.terrain}; costs {b.cost_tokens} construction token"
                            f"{'s' if b.cost_tokens != 1 else ''} and {' and '.join(b.cost)}; worth {b.valor} valor; "
                            f"produces {b.production} {b.income}"))
    out.append(KeyEntry(("G",), "a ghost on the cell", "Ghosts",
                        f"{box.ghosts_per_spread} arrive at each spread; {box.supply_ghosts} in the supply"))
    out.append(player_marks(state.config.players, "a sensor (round disc) or a building", "Basic Actions: Exploration"))
    out.append(KeyEntry(("black diamond",), "a depletion token: nothing more is extracted on the cell this season",
                        "Basic Actions: Extraction", f"{box.supply_depletion} in the supply"))
    out.append(KeyEntry(("ringed disc",), "the sensor of the player to move", "Game Flow"))
    out.append(KeyEntry(("?", "number in a small circle"), "on a highlighted cell: the cell a question asks "
                        "about, or what choosing it costs (exploration tokens to enter it)",
                        "Basic Actions: Exploration"))
    return out
