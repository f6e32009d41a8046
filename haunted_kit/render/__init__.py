"""Drawing without widgets, for every game of the kit: shared pieces only.

* :mod:`.primitives` - the shapes a picture is made of (polygons, circles, text...);
* :mod:`.svg` - primitives as deterministic SVG text, :class:`BoardSVG` to display it;
* :mod:`.geometry` - hex <-> pixel layout of a set of axial cells (:func:`cells_geometry`);
* :mod:`.style` - colours, letters and marks (one definition for every back end).

Each game draws its own pictures from these pieces (Haunted Lands in
:mod:`haunted_kit.haunted.draw`, the estate in :mod:`haunted_kit.estate.draw`,
Landmarks in :mod:`haunted_kit.landmarks.draw`). The ipycanvas widgets' shared pieces
live in :mod:`haunted_kit.widgets`.
"""

from .geometry import BoardGeometry, cells_geometry
from .style import RenderError, check_drawable
from .svg import BoardSVG, primitive_svg

__all__ = ["BoardGeometry", "BoardSVG", "RenderError", "cells_geometry", "check_drawable", "primitive_svg"]
