"""Hex-grid geometry: axial and cube coordinates, neighbours, distance, pixels.

No game rules live here. Conventions follow Red Blob Games' hexagon guide:
pointy-top hexes, axial coordinates ``(q, r)``, cube coordinates ``(q, r, s)`` with
``q + r + s == 0``. The neighbour directions come from the box (``data/field.toml``)
in the order E, NE, NW, W, SW, SE.

Pixel geometry (used by the canvas widgets and the SVG renderer alike): a hex of
``size`` pixels (centre-to-corner) centred at ``(x, y)`` where::

    x = size * sqrt(3) * (q + r / 2)
    y = size * 3/2 * r

and :func:`pixel_to_axial` inverts it with cube rounding, so every point maps to the
hex that contains it (ties on an edge go to one of the two touching hexes).
"""

from __future__ import annotations

import math
import re
from typing import Iterable

Axial = tuple[int, int]

SQRT3 = math.sqrt(3.0)

#: Axial unit directions, E, NE, NW, W, SW, SE (same order as ``data/field.toml``).
DIRECTIONS: tuple[Axial, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(cell: Axial, directions: Iterable[Axial] = DIRECTIONS) -> list[Axial]:
    """The 6 axial neighbours of ``cell``, in direction order (E, NE, NW, W, SW, SE)."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in directions]


def axial_to_cube(cell: Axial) -> tuple[int, int, int]:
    q, r = cell
    return q, r, -q - r


def cube_to_axial(cube: tuple[int, int, int]) -> Axial:
    return cube[0], cube[1]


def distance(a: Axial, b: Axial) -> int:
    """Hex distance (number of steps) between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cube_round(q: float, r: float) -> Axial:
    """Round fractional axial coordinates to the hex that contains them."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def axial_to_pixel(cell: Axial, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Pixel centre of a pointy-top hex of ``size`` (centre-to-corner, pixels)."""
    q, r = cell
    return origin[0] + size * SQRT3 * (q + r / 2.0), origin[1] + size * 1.5 * r


def pixel_to_axial(x: float, y: float, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> Axial:
    """The hex containing pixel ``(x, y)`` (inverse of :func:`axial_to_pixel`)."""
    px, py = x - origin[0], y - origin[1]
    q = (SQRT3 / 3.0 * px - py / 3.0) / size
    r = (2.0 / 3.0 * py) / size
    return cube_round(q, r)


def corners(cell: Axial, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """The 6 corner pixels of a pointy-top hex, starting at the upper-right corner (30 degrees)
    and going clockwise in screen coordinates (y grows downwards)."""
    cx, cy = axial_to_pixel(cell, size, origin)
    pts = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        pts.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return pts


def edge_direction_index(i: int) -> int:
    """Index (into :data:`DIRECTIONS`) of the neighbour that lies across the edge between
    corner ``i`` and corner ``i + 1`` of :func:`corners`."""
    # corners at -30, 30, 90, 150, 210, 270 degrees (screen y down):
    # edge 0 (-30..30) faces E, 1 (30..90) faces SE, 2 faces SW, 3 faces W, 4 faces NW, 5 faces NE
    return (0, 5, 4, 3, 2, 1)[i]


def bounds(cells: Iterable[Axial], size: float) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of all hex corners of ``cells`` with origin (0, 0)."""
    xs, ys = [], []
    for c in cells:
        for x, y in corners(c, size):
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


# ---------------------------------------------------------------- writing a cell in words

def cell_name(cell) -> str:
    """How every board of the kit writes a cell's (or slot's) axial coordinates ``(q, r)``:
    ``"q,r"`` (``(2, -1)`` -> ``"2,-1"``), the cell a question names as ``(2, -1)``."""
    return f"{cell[0]},{cell[1]}"


_PAIR = r"\((-?\d+), ?(-?\d+)\)"
_COORDS = re.compile(_PAIR)
#: a parenthesised list of pairs, ``((-2, 2), (-1, 2))`` (a tuple of cells printed by Python)
_COORD_LIST = re.compile(r"\(\s*(" + _PAIR.replace("(-?", "(?:-?") + r"(?:, ?" + _PAIR.replace("(-?", "(?:-?")
                         + r")*),?\s*\)")

#: a pair, with the word the text names it by when it has one (``cell``/``cells``, or ``slot``/``slots``
#: for the estate's land slots, any case)
_NAMED_COORDS = re.compile(r"(?:\b([Cc]ells?|CELLS?|[Ss]lots?|SLOTS?) )?" + _PAIR)


def name_cells(text: str) -> str:
    """``text`` with every axial pair written ``(q, r)`` (an action's or event's words)
    renamed the way the board writes it (:func:`cell_name`): ``"explore to (-1, 2)"`` ->
    ``"explore to cell -1,2"``; a list of pairs as Python prints it, ``((-2, 2), (0, 2))``,
    -> ``"(cells -2,2; 0,2)"`` (one pair: ``"(cell 0,2)"``); a pair the text already calls
    a cell keeps one word: ``"the cell (3, -3)"`` -> ``"the cell 3,-3"``."""

    def listed(m) -> str:
        cells = [f"{q},{r}" for q, r in _COORDS.findall(m.group(1))]
        return f"(cell{'s' if len(cells) != 1 else ''} {'; '.join(cells)})"

    text = _COORD_LIST.sub(listed, text)
    # a pair the text already calls a cell ("the cell (3, -3)") gets no second word "cell"
    return _NAMED_COORDS.sub(lambda m: f"{m.group(1) or 'cell'} {m.group(2)},{m.group(3)}", text)
