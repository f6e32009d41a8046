"""Drawing Haunted Lands without widgets: the field as drawing primitives per layer
(:mod:`.scene`), deterministic SVG of any position (:func:`render_svg`, :func:`board_svg`,
also ``board``), the field in pixels (:func:`board_geometry`), and the player boards,
game board and event log as HTML (:mod:`.html`).

Command line (the README picture)::

    python -m haunted_kit.haunted.draw --seed 1 --out docs/board.svg
"""

from .geometry import board_geometry
from .svg import board_svg, render_svg

#: The board of a state as a displayable picture (notebooks write ``board(s, highlight=...)``).
board = board_svg

__all__ = ["board", "board_geometry", "board_svg", "render_svg"]

from .scene import board_key  # noqa: E402  (the kit's key of the field's codes: haunted_kit.explain)

__all__ += ["board_key"]
