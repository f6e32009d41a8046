"""The projector view: a game's public side, large, for the shared screen of a class.

    from haunted_kit.haunted.widgets import PlayView, ProjectorView
    play = PlayView(players=4, seed=3, bots=[1, 2, 3])
    ProjectorView(play)                  # follows the play view, decision by decision
    ProjectorView(state, size=52)        # one position, a larger board

It shows what every player may see and nothing more: the field (no seat's sensor
marked as "you"), the current phase explained in a sentence, who is to move, the event
log with every quest choice face down, the game board and every player board with the
quests face down; at the end, the ranking with each player's quest breakdown (quests
are revealed at final scoring). It has no buttons: nobody plays from the projector.

CSS classes for browser tests: ``hk-projector`` (the view), ``hk-projector-status``,
``hk-phase``, ``hk-ranking`` (inside the ranking panel), and the panels' own classes.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..draw import html as H
from ...render import style as S
from ..draw.scene import phase_sentence, status_line
from ...widgets.errors import ErrorReporting
from .field import FieldWidget
from .panels import EventLogPanel, GameBoardPanel, PlayerBoards

DEFAULT_SIZE = 44.0   # hex size in pixels: the field about 630 px wide, readable from the back of a room
DEFAULT_ZOOM = 1.25   # the panels' text, relative to the play view's


class ProjectorView(ErrorReporting, W.VBox):
    """The public view of a game for a projector.

    Args:
        game: a :class:`~haunted_kit.State` to show, or a
            :class:`~haunted_kit.haunted.widgets.PlayView` to follow (the projector redraws
            after each of its decisions, undos and new games).
        size: hex size in pixels (centre to corner).
        zoom: scale of the panels' text (1 = as in the play view; 0.5 to 3).
        last: how many of the latest events the log shows.

    Raises:
        ValueError: a zoom out of range; RenderError: a state that cannot be drawn.
    """

    def __init__(self, game, *, size: float = DEFAULT_SIZE, zoom: float = DEFAULT_ZOOM, last: int = 8):
        super().__init__()
        if not 0.5 <= zoom <= 3:
            raise ValueError(f"zoom must be between 0.5 and 3, got {zoom}")
        self.add_class("hk-projector")
        self.zoom = zoom
        self.play = None
        state = game
        if hasattr(game, "on_change") and hasattr(game, "state"):
            self.play, state = game, game.state
        S.check_drawable(state)
        self.state = state
        banner = self._init_errors()
        self.status = W.HTML()
        self.status.add_class("hk-projector-status")
        self.phase = W.HTML()
        self.phase.add_class("hk-phase")
        self.field = FieldWidget(state, size=size, viewer=H.PUBLIC, hover=False)
        self.log_panel = EventLogPanel(state, H.PUBLIC, last=last)
        self.ranking = W.HTML()
        self.board_panel = GameBoardPanel(state)
        self.player_panels = PlayerBoards(state, H.PUBLIC)
        # one column of boards when two do not fit the window
        self.player_panels.layout.grid_template_columns = "repeat(auto-fit, minmax(min(100%, 560px), 1fr))"
        style = W.HTML(f"<style>.hk-projector .hk-panel {{ zoom: {zoom:g}; }}</style>",
                       layout=W.Layout(height="0px", margin="0px"))
        side = W.VBox([self.log_panel], layout=W.Layout(flex="1 1 320px", min_width="0"))
        self.children = [style, self.status, self.phase, banner,
                         W.HBox([self.field, side], layout=W.Layout(flex_flow="row wrap")),
                         self.ranking, self.board_panel, self.player_panels]
        self.update(state)
        if self.play is not None:
            self.play.on_change(self.guard(lambda view: self.update(view.state), "following the play view"))

    def update(self, state=None) -> None:
        """Redraw from ``state`` (or the current state): only what changed is sent."""
        if state is not None:
            S.check_drawable(state)
            self.state = state
        s = self.state
        self.field.update(s, viewer=H.PUBLIC)
        self.field.set_highlight(())
        big = round(26 * self.zoom)
        status = (f'<div style="font-family:sans-serif;font-size:{big}px;font-weight:bold;line-height:1.2">'
                  f"{escape(status_line(s))}</div>")
        phase = (f'<div style="font-family:sans-serif;font-size:{round(17 * self.zoom)}px;line-height:1.3;'
                 f'max-width:60em">{escape(phase_sentence(s))}</div>')
        for widget, value in ((self.status, status), (self.phase, phase)):
            if widget.value != value:
                widget.value = value
        ranking = H.ranking_html(s)
        if self.ranking.value != ranking:
            self.ranking.value = ranking
        self.ranking.layout.display = "" if ranking else "none"
        self.log_panel.update(s)
        self.board_panel.update(s)
        self.player_panels.update(s)
