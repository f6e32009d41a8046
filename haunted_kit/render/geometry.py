"""The board in pixels, computed once and shared by the SVG renderer and the canvas widgets.

Built on :mod:`haunted_kit.hexgrid` (pointy-top axial hexes). The cells of the field sit
at the same axial positions in every game (only their terrain changes with the tile
draw), so a :class:`BoardGeometry` depends on the box and the hex size only::

    g = board_geometry(state.config.box, size=30)
    g.width, g.height          # canvas extent in pixels
    g.centre((2, 1))           # pixel centre of a cell
    g.polygon((2, 1))          # its 6 corners
    g.cell_at(x, y)            # the field cell under a pixel, or None off the field
    g.tile_edges               # segments of the thick tile outlines
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .. import hexgrid
from ..protocol import is_integer

Axial = tuple[int, int]
Point = tuple[float, float]


@dataclass(frozen=True, eq=False)
class BoardGeometry:
    """Pixel layout of the field for one hex ``size`` (centre-to-corner, pixels).

    Attributes:
        size, margin: hex size and blank margin around the field, pixels.
        origin: pixel position of axial (0, 0).
        width, height: canvas extent (integers) holding every cell plus the margin.
        cells: the field cells in field index order (Kalena first, as in
            :class:`haunted_kit.haunted.board.Field`).
        slot: tile slot of each cell (0 = Kalena).
        centres, polygons: pixel centre and 6 corners of each cell, by index.
        tile_edges: ``((x1, y1), (x2, y2))`` for every cell side on a tile border
            (between two tiles, or on the outside of the field), each side once.
    """

    size: float
    margin: float
    origin: Point
    width: int
    height: int
    cells: tuple[Axial, ...]
    slot: tuple[int, ...]
    index: dict
    centres: tuple[Point, ...]
    polygons: tuple[tuple[Point, ...], ...]
    tile_edges: tuple[tuple[Point, Point], ...]

    def cell_index(self, cell) -> int:
        """Index of an axial cell (or pass an index through); KeyError off the field."""
        if is_integer(cell):
            if 0 <= cell < len(self.cells):
                return cell
            raise KeyError(cell)
        return self.index[tuple(cell)]

    def centre(self, cell) -> Point:
        return self.centres[self.cell_index(cell)]

    def polygon(self, cell) -> tuple[Point, ...]:
        return self.polygons[self.cell_index(cell)]

    def axial_at(self, x: float, y: float) -> Axial:
        """The axial hex under pixel (x, y), on the field or not."""
        return hexgrid.pixel_to_axial(x, y, self.size, self.origin)

    def cell_at(self, x: float, y: float) -> Axial | None:
        """The field cell under pixel (x, y); ``None`` when the point is off the field."""
        a = self.axial_at(x, y)
        return a if a in self.index else None

    def index_at(self, x: float, y: float) -> int | None:
        a = self.axial_at(x, y)
        return self.index.get(a)

    def contains(self, x: float, y: float) -> bool:
        return self.cell_at(x, y) is not None


@lru_cache(maxsize=64)
def cells_geometry(cells: tuple, slots: tuple, directions: tuple, size: float, margin: float) -> BoardGeometry:
    """The :class:`BoardGeometry` of any set of pointy-top axial ``cells`` (tuple of
    ``(q, r)``), grouped into ``slots`` (one slot index per cell; an outline is drawn where
    two neighbours' slots differ), hex ``size`` and ``margin`` in pixels; ``directions``
    are the six axial neighbour steps. Shared by the Haunted Lands field and the estate's
    land board. Cached (the arguments are tuples and numbers, so hashable): the same
    arguments give the same frozen object, and a page drawn for every viewer of every
    position lays its board out once."""
    size = float(size)
    min_x, min_y, max_x, max_y = hexgrid.bounds(cells, size)
    origin = (margin - min_x, margin - min_y)
    width = int(math.ceil(max_x - min_x + 2 * margin))
    height = int(math.ceil(max_y - min_y + 2 * margin))
    index = {c: i for i, c in enumerate(cells)}
    centres = tuple(hexgrid.axial_to_pixel(c, size, origin) for c in cells)
    polygons = tuple(tuple(hexgrid.corners(c, size, origin)) for c in cells)
    edges = []
    for i, c in enumerate(cells):
        pts = polygons[i]
        for k in range(6):
            dq, dr = directions[hexgrid.edge_direction_index(k)]
            n = (c[0] + dq, c[1] + dr)
            j = index.get(n)
            if j is None or (slots[j] != slots[i] and i < j):
                edges.append((pts[k], pts[(k + 1) % 6]))
    return BoardGeometry(size, float(margin), origin, width, height, cells, slots, index, centres, polygons, tuple(edges))
