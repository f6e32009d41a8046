"""The game field as a networkx hex graph (rulebook: "Game Field, Tiles and Terrain Types").

The field is the Kalena tile plus the region tiles drawn at setup, each tile a centre
cell and its 6 neighbours. Tile positions are fixed by the box, so the 49 cells sit at
the same axial coordinates in every game; only their terrain changes with the draw.

Cells are named two ways:

* **axial** ``(q, r)`` tuples, the public name used in actions, events and the graph;
* **index** ``0..48``, the position in :attr:`Field.cells` (Kalena centre first, then
  Kalena's ring, then each region slot's 7 cells in the order centre, E, NE, NW, W,
  SW, SE). The engine keeps per-cell arrays by index for speed.

Adjacency has one source of truth: the edges of :attr:`Field.graph`, built from
:func:`haunted_kit.hexgrid.neighbours`; the index arrays are read off the graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain

import networkx as nx

from .. import hexgrid
from .box import Box, default_box
from ..protocol import is_integer

Axial = tuple[int, int]

KALENA = "Kalena"


class FieldError(ValueError):
    """A layout that does not make a legal field, or an unknown cell."""


@dataclass(frozen=True, eq=False)
class Field:
    """One game field: the drawn tiles, the cells and their adjacency.

    Attributes (tuples indexed by cell index unless stated):
        layout: region tile ids per region slot (length = number of region slots, 6).
        cells: axial coordinates of each cell (49).
        index: axial -> cell index.
        terrain: terrain name of each cell.
        tile: tile id of each cell (``"Kalena"`` or e.g. ``"R03"``).
        slot: tile slot of each cell (0 = Kalena, 1..6 the region slots).
        neighbours: on-field neighbour indexes of each cell, in direction order.
        lakes_adjacent: the lake cells adjacent to each cell.
        near_lake: whether each cell is adjacent to at least one lake.
        kalena: the Kalena cells (centre first).
        by_terrain: terrain name -> cell indexes of that terrain.
        graph: :class:`networkx.Graph` with axial nodes; node attributes ``terrain``,
            ``tile``, ``slot``, ``index``, ``q``, ``r``, ``near_lake``; an edge per
            adjacent pair.
    """

    box: Box
    layout: tuple[str, ...]
    cells: tuple[Axial, ...]
    index: dict
    terrain: tuple[str, ...]
    tile: tuple[str, ...]
    slot: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    lakes_adjacent: tuple[tuple[int, ...], ...]
    near_lake: tuple[bool, ...]
    kalena: tuple[int, ...]
    by_terrain: dict

    @cached_property
    def graph(self) -> nx.Graph:
        """The field as a :class:`networkx.Graph` (built on first use): axial nodes with
        attributes ``terrain``, ``tile``, ``slot``, ``index``, ``q``, ``r``,
        ``near_lake``; an edge per pair of adjacent cells."""
        g = nx.Graph(_topology(self.box))
        g.graph["layout"] = self.layout
        for i, c in enumerate(self.cells):
            g.nodes[c].update(terrain=self.terrain[i], tile=self.tile[i], slot=self.slot[i], near_lake=self.near_lake[i])
        return g

    # ---------------------------------------------------------------- queries
    def cell_index(self, cell) -> int:
        """Index of ``cell`` (axial tuple/list or index). Raises FieldError naming the value."""
        return resolve_cell(self.cells, self.index, cell)

    def terrain_of(self, cell) -> str:
        return self.terrain[self.cell_index(cell)]

    def is_adjacent_to_lake(self, cell) -> bool:
        """True when ``cell`` touches a lake cell (rulebook: "Adjacency")."""
        return self.near_lake[self.cell_index(cell)]

    def adjacent(self, a, b) -> bool:
        """True when the two cells share a side."""
        return self.cell_index(b) in self.neighbours[self.cell_index(a)]

    def region_cells(self, slot: int) -> tuple[int, ...]:
        """Cell indexes of tile slot ``slot`` (0 = Kalena)."""
        return self._slot_cells.get(slot, ())

    @cached_property
    def _slot_cells(self) -> dict[int, tuple[int, ...]]:
        out: dict[int, tuple[int, ...]] = {}
        for i, s in enumerate(self.slot):
            out[s] = out.get(s, ()) + (i,)
        return out

    def describe(self, cell) -> str:
        """``cell`` in words: its terrain, the cell and its tile, a region tile named as a region
        tile with its code (the box's tile list, as setup's events draw it): ``"plain (0, -2)
        on region tile R02"``, ``"suburb (0, -1) on Kalena"``."""
        i = self.cell_index(cell)
        tile = self.tile[i]
        return f"{self.terrain[i]} {self.cells[i]} on {tile if tile == KALENA else f'region tile {tile}'}"


def resolve_cell(cells, index: dict, cell) -> int:
    """Index of ``cell`` among ``cells``: an axial tuple/list (looked up in ``index``) or
    an index. Raises FieldError naming the value when it is not a cell."""
    if is_integer(cell):
        if 0 <= cell < len(cells):
            return cell
        raise FieldError(f"cell index {cell} is not on the field (0..{len(cells) - 1})")
    try:
        return index[tuple(cell)]
    except (KeyError, TypeError):
        raise FieldError(f"cell {cell!r} is not on the field") from None


def all_tile_slots(box: Box) -> list[list[Axial]]:
    """The axial cells of each tile slot (Kalena first), fixed by the box geometry."""
    slots = []
    for centre in (box.kalena_centre,) + box.region_centres:
        slots.append([tuple(centre)] + hexgrid.neighbours(tuple(centre), box.directions))
    return slots


@lru_cache(maxsize=8)
def _topology(box: Box) -> nx.Graph:
    """The adjacency of the field's cells, the same for every layout of a box (tiles
    sit at fixed positions and are never rotated). Nodes are axial cells with their
    ``index``, ``q`` and ``r``; an edge joins each pair of cells that share a side
    (:func:`haunted_kit.hexgrid.neighbours`). This is the one source of adjacency."""
    cells = [c for slot in all_tile_slots(box) for c in slot]
    index = {c: i for i, c in enumerate(cells)}
    g = nx.Graph()
    for i, c in enumerate(cells):
        g.add_node(c, index=i, q=c[0], r=c[1])
    for c in cells:
        for n in hexgrid.neighbours(c, box.directions):
            if n in index:
                g.add_edge(c, n)
    return g


@lru_cache(maxsize=8)
def cell_geometry(box: Box):
    """The box's cells (axial, in index order), axial -> index, and each cell's neighbour
    indexes; the same in every layout (tiles sit at fixed places)."""
    g = _topology(box)
    cells = tuple(g.nodes)
    index = {c: i for i, c in enumerate(cells)}
    # neighbour index arrays, in direction order, read off the graph
    nbrs = tuple(tuple(index[n] for n in hexgrid.neighbours(c, box.directions) if g.has_edge(c, n)) for c in cells)
    return cells, index, nbrs


@lru_cache(maxsize=8)
def _layout_frame(box: Box):
    """What every layout of ``box`` shares: :func:`cell_geometry`, each cell's tile slot,
    and the Kalena tile's terrains and tile ids (7 cells)."""
    cells, index, nbrs = cell_geometry(box)
    slot = tuple(s for s in range(1 + len(box.region_centres)) for _ in range(7))
    kalena = ((box.kalena_centre_terrain,) + (box.kalena_ring_terrain,) * 6, (KALENA,) * 7)
    return cells, index, nbrs, slot, kalena


@lru_cache(maxsize=8)  # small: bulk play draws a new layout every game (see rules.Ctx._CACHE_SIZE)
def build_field(layout: tuple[str, ...], box: Box | None = None) -> Field:
    """Build (and cache) the field for ``layout``, the region tile id of each slot.

    Args:
        layout: tile ids such as ``("R03", "R07", ...)``, one per region slot (6),
            all distinct and present in ``data/tiles.csv``.
        box: the box to use; the default box when ``None``.

    Raises:
        FieldError: wrong number of tiles, unknown or repeated tile ids.

    Rulebook: "Game Setup", step 1 (Kalena in the centre, 6 region tiles around it,
    all facing the same way).
    """
    box = box or default_box()
    layout = tuple(layout)
    if len(layout) != len(box.region_centres):
        raise FieldError(f"a field needs {len(box.region_centres)} region tiles, got {len(layout)}")
    for t in layout:
        if t not in box.tiles:
            raise FieldError(f"unknown region tile {t!r} (known: {', '.join(box.tiles)})")
    if len(set(layout)) != len(layout):
        raise FieldError(f"region tiles must be distinct, got {layout}")
    cells, index, nbrs, slot, kalena = _layout_frame(box)
    terrain = kalena[0] + tuple(chain.from_iterable(map(box.tiles.__getitem__, layout)))
    cells_by_terrain: dict[str, list[int]] = {}
    for i, t in enumerate(terrain):
        cs = cells_by_terrain.get(t)
        if cs is None:
            cells_by_terrain[t] = [i]
        else:
            cs.append(i)
    lake_cells = set(cells_by_terrain.get("lake", ()))
    lakes = [()] * len(nbrs)
    for lake in lake_cells:
        for i in nbrs[lake]:  # neighbours are mutual: only these cells touch a lake
            if not lakes[i]:  # each such cell once: its lakes in its neighbour order (plain loops: one field a game)
                got = []
                for j in nbrs[i]:
                    if j in lake_cells:
                        got.append(j)
                lakes[i] = tuple(got)
    lakes = tuple(lakes)
    tile = kalena[1]
    for t in layout:
        tile += (t,) * 7
    by_terrain = {t: tuple(cs) for t, cs in cells_by_terrain.items()}
    return Field(
        box=box,
        layout=layout,
        cells=cells,
        index=index,
        terrain=terrain,
        tile=tile,
        slot=slot,
        neighbours=nbrs,
        lakes_adjacent=lakes,
        near_lake=tuple(map(bool, lakes)),
        kalena=tuple(range(7)),
        by_terrain=by_terrain,
    )
