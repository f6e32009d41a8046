"""Panels beside the field: player boards, the game board and the event log.

Each panel is an ipywidgets ``HTML`` widget whose value is the deterministic fragment of
:mod:`haunted_kit.haunted.draw.html`; call ``update(state)`` to refresh it.

    PlayerBoardPanel(state, player=0, viewer=0)   # class hk-player-board inside
    PlayerBoards(state, viewer=0)                 # all players, two per row (one on a phone)
    GameBoardPanel(state)                         # class hk-game-board inside
    EventLogPanel(state, viewer=0, last=12)       # class hk-event-log inside
"""

from __future__ import annotations

import ipywidgets as W

from ..draw import html as H


class PlayerBoardPanel(W.HTML):
    """One player's board. Quests are listed only when ``viewer`` is that player (or
    ``None``, everyone); otherwise only their number shows."""

    def __init__(self, state, player: int, viewer=None, **kw):
        super().__init__(**kw)
        self.player, self.viewer = player, viewer
        self.add_class("hk-panel")
        self.update(state)

    def update(self, state, viewer=...) -> None:
        if viewer is not ...:
            self.viewer = viewer
        self.state = state
        value = H.player_board_html(state, self.player, self.viewer)
        if value != self.value:
            self.value = value


class PlayerBoards(W.GridBox):
    """Every player's board, two per row where 340 px each fit, else one (a phone)."""

    def __init__(self, state, viewer=None, **kw):
        self.boards = [PlayerBoardPanel(state, p, viewer) for p in range(state.config.players)]
        super().__init__(children=self.boards, layout=W.Layout(grid_template_columns="repeat(auto-fit, minmax(min(100%, 340px), 1fr))",
                                                               grid_gap="4px"), **kw)

    def update(self, state, viewer=...) -> None:
        for b in self.boards:
            b.update(state, viewer)


class GameBoardPanel(W.HTML):
    """Season and round, turn order, valor track, skill cards and their marker slots,
    market, bonus and ghost cards, supply."""

    def __init__(self, state, **kw):
        super().__init__(**kw)
        self.add_class("hk-panel")
        self.update(state)

    def update(self, state) -> None:
        self.state = state
        value = H.game_board_html(state)
        if value != self.value:
            self.value = value


class EventLogPanel(W.HTML):
    """The latest events with their explanations, as ``viewer`` may see them."""

    def __init__(self, state, viewer=None, last: int = 12, **kw):
        super().__init__(**kw)
        self.viewer, self.last = viewer, last
        self.add_class("hk-panel")
        self.update(state)

    def update(self, state, viewer=..., current=None, since=None) -> None:
        """Show ``state``'s latest events (``since``: also every event from that log position,
        where the viewer's last decision began; :func:`~haunted_kit.haunted.draw.html.event_log_html`)."""
        if viewer is not ...:
            self.viewer = viewer
        self.state = state
        value = H.event_log_html(state, self.viewer, self.last, current, since)
        if value != self.value:
            self.value = value
