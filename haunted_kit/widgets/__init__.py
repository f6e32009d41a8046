"""The widget pieces every game's views are built from (ipycanvas + ipywidgets).

* :mod:`.canvas` - primitives drawn on an ipycanvas layer; :class:`CommandCounter` counts
  the canvas commands sent to the browser;
* :mod:`.errors` - callback errors shown in a banner; :func:`capture_errors` collects
  them (tests fail on them);
* :mod:`.access` - keyboard play and a live region for screen readers under a board;
* :mod:`.hints` - "Suggest a move" from the search agent, for any game;
* :mod:`.box_editor` - the house-rule editor of any game with a box schema
  (``hk.box_editor(name)``); not imported here: it plays games with
  :mod:`haunted_kit.testing`, a layer above the other pieces.

Each game's views live in its package (:mod:`haunted_kit.haunted.widgets`,
:mod:`haunted_kit.estate.widgets`, :mod:`haunted_kit.landmarks.widgets`). Widgets only draw
and forward: every rule question goes to the engine.
"""

from .canvas import CommandCounter, held
from .errors import CallbackError, ErrorBanner, capture_errors

__all__ = ["CallbackError", "CommandCounter", "ErrorBanner", "capture_errors", "held"]
