"""The Haunted Lands field in pixels: every cell of every tile slot, for the SVG renderer and
the canvas widgets (one :class:`~haunted_kit.render.geometry.BoardGeometry` per box and hex size)."""

from __future__ import annotations

from ...render.geometry import BoardGeometry, cells_geometry
from ..board import all_tile_slots


def board_geometry(box_or_state, size: float = 30, margin: float | None = None) -> BoardGeometry:
    """The :class:`BoardGeometry` of a box (or of a state's box) at hex ``size``.

    ``margin`` defaults to a quarter of the size. Cached: the same arguments give the
    same object.
    """
    box = getattr(getattr(box_or_state, "config", None), "box", None) or box_or_state
    if margin is None:
        margin = round(size * 0.25, 2)
    cells, slots = [], []
    for s, slot_cells in enumerate(all_tile_slots(box)):
        for c in slot_cells:
            cells.append(tuple(c))
            slots.append(s)
    return cells_geometry(tuple(cells), tuple(slots), tuple(map(tuple, box.directions)), float(size), float(margin))
