"""Drawing the board: shared geometry and style, a scene description, and static SVG.

* :func:`render_svg` / :func:`board_svg` - deterministic SVG of any state;
* :func:`board_geometry` - hex <-> pixel layout shared with the canvas widgets;
* :mod:`.style` - colours, letters and marks (one definition for every back end);
* :mod:`.html` - the player boards, the game board and the event log as HTML.

The ipycanvas widgets live in :mod:`haunted_kit.widgets`.
"""

from .geometry import BoardGeometry, board_geometry
from .style import RenderError, check_drawable
from .svg import BoardSVG, board_svg, render_svg

#: The board of a state as a displayable picture (notebooks write ``board(s, highlight=...)``).
board = board_svg

__all__ = ["BoardGeometry", "BoardSVG", "RenderError", "board", "board_geometry", "board_svg", "check_drawable", "render_svg"]
