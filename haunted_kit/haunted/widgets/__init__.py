"""Haunted Lands board widgets for Jupyter and Voila (ipycanvas + ipywidgets).

* :class:`FieldWidget` - the field on a layered canvas; hover facts, click callbacks.
* :class:`PlayerBoardPanel`, :class:`PlayerBoards`, :class:`GameBoardPanel`,
  :class:`EventLogPanel` - the panels.
* :class:`PlayView` - a playable game, any seat human or bot, with undo.
* :class:`ProjectorView` - a game's public side, large, for the shared screen of a class.
* :class:`StepThroughView` - a slider over a game's events, live or saved.

Built on the kit's shared pieces (:mod:`haunted_kit.widgets`). Widgets only draw and
forward: every rule question goes to the engine.
"""

from ...widgets import CallbackError, CommandCounter, ErrorBanner, capture_errors, held
from .field import LAYER_NAMES, FieldWidget, cell_facts
from .panels import EventLogPanel, GameBoardPanel, PlayerBoardPanel, PlayerBoards
from .play import PlayView, action_cell, attempts_for_cell, candidates_for_cell
from .projector import ProjectorView
from .step import StepThroughView
from .exercise import exercise as exercise_view  # the kit tutorial's hook (docs/NEW_GAME.md)


def play_view(state, *, bots, hints: bool = True) -> PlayView:
    """The play view of ``state`` with ``bots`` (seats) for the kit's tutorial (the
    ``widgets`` module's ``play_view`` hook, docs/NEW_GAME.md); bots answer at once."""
    return PlayView(state, bots=bots, hints=hints, bot_delay=0)

__all__ = [
    "CallbackError", "CommandCounter", "ErrorBanner", "EventLogPanel", "FieldWidget", "GameBoardPanel", "LAYER_NAMES",
    "PlayView", "PlayerBoardPanel", "PlayerBoards", "ProjectorView", "StepThroughView", "action_cell", "attempts_for_cell",
    "candidates_for_cell", "capture_errors", "cell_facts", "exercise_view", "held", "play_view",
]
