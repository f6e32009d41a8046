"""Colours, labels and marks of the board, defined once for the SVG renderer and the
canvas widgets alike.

Readable without colour: every terrain carries a letter (from the box, ``data/terrain.toml``)
and the fills differ in lightness, so the field reads in greyscale too. Player colours
come from the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies) and every player piece also carries the player's number. Buildings carry
a two-letter mark, ghosts a "G", depletion tokens are black diamonds.

A terrain without a style cannot be drawn: :func:`check_drawable` raises
:class:`RenderError` naming the terrain and the cell. A house rule that adds a terrain
registers its look with :func:`register_terrain`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..hexgrid import cell_name, name_cells  # noqa: F401  (the boards' one way of writing a cell, re-exported)


class RenderError(ValueError):
    """A state (or box) that the renderer cannot draw; the message says what and why."""


@dataclass(frozen=True, slots=True)
class TerrainStyle:
    fill: str  #: cell fill colour
    ink: str  #: colour of text drawn on that fill
    word: str  #: short word for legends


#: Terrain fills, chosen so that lightness alone separates plain > suburb > mountain >
#: lake > city > forest in greyscale; the letter label is the primary cue.
TERRAIN_STYLES: dict[str, TerrainStyle] = {
    "plain": TerrainStyle("#f3e7a1", "#000000", "plain"),
    "suburb": TerrainStyle("#cfc6b4", "#000000", "suburb"),
    "mountain": TerrainStyle("#a98467", "#000000", "mountain"),
    "lake": TerrainStyle("#3f88c5", "#ffffff", "lake"),
    "city": TerrainStyle("#66615c", "#ffffff", "city"),
    "forest": TerrainStyle("#2f6b3a", "#ffffff", "forest"),
}

#: Okabe-Ito orange, sky blue, bluish green, reddish purple (players P1..P4).
PLAYER_COLOURS: tuple[str, ...] = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7")
#: Text marks on player pieces (sensors, buildings, skill markers).
PLAYER_MARKS: tuple[str, ...] = ("1", "2", "3", "4")

#: Two-letter marks on building pieces (the full name is in hover texts and legends).
BUILDING_MARKS: dict[str, str] = {"mill": "Ml", "sawmill": "Sw", "mine": "Mn", "noria": "Nr"}

INK = "#000000"
PAPER = "#ffffff"
CELL_LINE = "#ffffff"  #: thin line between cells
TILE_LINE = "#1a1a1a"  #: thick line around each tile
GHOST_FILL = "#f7f7f7"
GHOST_LINE = "#333333"
DEPLETION_FILL = "#111111"
HIGHLIGHT = "#0072b2"  #: Okabe-Ito blue: legal targets, reachable cells
PATH = "#d55e00"  #: Okabe-Ito vermillion: a path
EVENT = "#f0e442"  #: Okabe-Ito yellow: the cell of the event being explained
HOVER = "#000000"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: the least font size in pixels of any text a picture of the kit draws (at the picture's own size):
#: smaller text is hard to read in a notebook at 1280x900; shared by every game's drawing
MIN_TEXT_PX = 9.0
#: the least size in CSS px of any drawing's text as shown on any screen: a drawing whose own
#: least text is smaller is shown that much larger, panning in its box where it does not fit
READABLE_PX = 12.0

# Geometry of the marks inside a cell, in units of the hex size (centre-to-corner).
LABEL_DY = -0.60
LABEL_FONT = 0.32
PIECE_DY = -0.12  #: row of the building (left) and the ghost (right)
BUILDING_DX, BUILDING_W, BUILDING_H = -0.30, 0.76, 0.44
PIECE_FONT = 0.28
GHOST_DX, GHOST_R = 0.38, 0.23
DEPLETION_DX, DEPLETION_DY, DEPLETION_R = 0.45, -0.56, 0.13
SENSOR_DY = 0.42  #: row of the sensors; radius by how many share the cell:
SENSOR_R = {1: 0.2, 2: 0.2, 3: 0.18, 4: 0.165}
#: a highlight's text (a cost, the "?" of a question's cell): low on the right, clear of the
#: cell's letter and name (LABEL_DY), the building and the ghost (PIECE_DY)
HIGHLIGHT_LABEL_DX, HIGHLIGHT_LABEL_DY, HIGHLIGHT_LABEL_R = 0.60, 0.28, 0.18
TILE_LINE_W, CELL_LINE_W = 0.09, 0.035  # of the size


def register_terrain(name: str, fill: str, ink: str = "#000000", word: str | None = None) -> None:
    """Give a new terrain (a house rule's data edit) its look on the board."""
    TERRAIN_STYLES[name] = TerrainStyle(fill, ink, word or name)


def terrain_style(name: str) -> TerrainStyle:
    try:
        return TERRAIN_STYLES[name]
    except KeyError:
        raise RenderError(f"no style for terrain {name!r} (known: {', '.join(sorted(TERRAIN_STYLES))}); "
                          "call haunted_kit.render.style.register_terrain(name, fill, ink) first") from None


def terrain_letter(box, name: str) -> str:
    t = box.terrains.get(name)
    return t.letter if t is not None else name[:1].upper()


def player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


def player_name(p: int) -> str:
    return f"P{p + 1}"


def building_mark(name: str) -> str:
    return BUILDING_MARKS.get(name, name[:2].title())


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` -> (r, g, b)."""
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def check_drawable(state) -> None:
    """Raise :class:`RenderError` when ``state`` holds something the board cannot draw:
    no field yet, a terrain without a style, more players than player colours, a
    building or sensor on a cell that is not on the field."""
    f = getattr(state, "field", None)
    if f is None:
        raise RenderError("the state has no field yet (the region tiles are still being drawn); "
                          "draw it after setup, e.g. hk.new_game(...) with auto_chance=True")
    for i, t in enumerate(f.terrain):
        if t not in TERRAIN_STYLES:
            raise RenderError(f"cannot draw cell {f.cells[i]} on tile {f.tile[i]}: terrain {t!r} has no style "
                              f"(known: {', '.join(sorted(TERRAIN_STYLES))}); "
                              "call haunted_kit.render.style.register_terrain(name, fill, ink) first")
    n = state.config.players
    if n > len(PLAYER_COLOURS):
        raise RenderError(f"{n} players but only {len(PLAYER_COLOURS)} player colours are defined")
    ncells = len(f.cells)
    for name in ("ghosts", "depleted", "building", "owner"):
        if len(getattr(state, name)) != ncells:
            raise RenderError(f"state.{name} has {len(getattr(state, name))} entries but the field has {ncells} cells")
    for p, c in enumerate(state.sensor):
        if not 0 <= c < ncells:
            raise RenderError(f"P{p + 1}'s sensor is on cell index {c}, which is not on the field")
    nb = len(state.config.box.buildings)
    for i, b in enumerate(state.building):
        if b >= nb:
            raise RenderError(f"cell {f.cells[i]} holds building number {b}, but the box has {nb} buildings")
        if b >= 0 and not 0 <= state.owner[i] < n:
            raise RenderError(f"the building on cell {f.cells[i]} has owner {state.owner[i]}, not a player")


def scroll_region(label: str) -> str:
    """HTML attributes for a box that scrolls (``overflow: auto``): reachable by Tab, so a
    keyboard user can scroll it with the arrow keys, and named ``label`` for screen readers
    (a region landmark). Returns ``' tabindex="0" role="region" aria-label="..."'``."""
    return f' tabindex="0" role="region" aria-label="{escape(label, quote=True)}"'
