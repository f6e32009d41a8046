"""What the classroom table server (:mod:`haunted_kit.server`) shows of a Haunted Lands
table, found through :func:`haunted_kit.games.game_module`: :func:`table_view` (the
board, the player boards, the event log and the choices, built for one viewer) and
:func:`status` (one line for the teacher page). The server itself knows seats, tokens
and sockets only."""

from __future__ import annotations

from . import actions as A
from .draw import html as H
from .draw.geometry import board_geometry
from .draw.scene import phase_sentence, status_line
from .draw.svg import render_svg

__all__ = ["PUBLIC", "status", "table_view"]

PUBLIC = H.PUBLIC  #: the viewer of a shared screen (-1): every hidden quest stays face down


def status(state) -> str:
    """One line on the game: season, round, who is to move (or the result)."""
    return status_line(state)


def legal_for(state, viewer) -> list:
    """The legal actions of ``viewer`` (a seat), empty when another seat is to move."""
    if viewer is None or viewer < 0 or state.is_terminal() or state.current_player() != viewer:
        return []
    return state.legal_actions()


def table_view(state, viewer: int, size: float, *, hot_seat: bool = False, revealed: bool = False, bots=()) -> dict:
    """The game's part of a page's message, built for ``viewer`` only.

    Args:
        state: the table's position.
        viewer: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen).
        size: hex size in pixels, centre to corner.
        hot_seat: a shared screen where the human to move (a seat not in ``bots``) may
            act; their quests show only when ``revealed`` (rulebook "Quests": quests are
            hidden from the other players).

    Returns:
        ``acting`` (the seat whose choices are listed, or None), ``needs_reveal``,
        ``status``, ``phase``, ``board`` (SVG), ``log``, ``game_board``, ``players`` (HTML,
        one per seat), ``ranking`` (HTML) and ``actions`` (``i``, ``label``, ``cell``, ``xy``:
        the index into ``legal_actions()``, its words and the hex it is played on).
    """
    from .widgets.play import action_cell  # lazy: widgets pull ipywidgets and ipycanvas, which the table server otherwise never loads

    mover = state.current_player()
    acting = mover if (hot_seat and mover is not None and mover not in bots) else viewer
    shown = acting if (not hot_seat or revealed) else PUBLIC
    legal = legal_for(state, acting)
    needs_reveal = hot_seat and not revealed and any(isinstance(a, A.ChooseQuest) for a in legal)
    if needs_reveal:  # quest choices name the player's cards: only once they uncovered them
        legal = []
    geom = board_geometry(state.config.box, size)
    actions = []
    for i, a in enumerate(legal):
        c = action_cell(state, a)
        actions.append({"i": i, "label": a.describe(), "cell": list(c) if c is not None else None,
                        "xy": [round(v, 1) for v in geom.centre(c)] if c is not None else None})
    highlight = {tuple(a["cell"]): "" for a in actions if a["cell"] is not None}
    return {
        "acting": acting if legal else None, "needs_reveal": needs_reveal,
        "status": status_line(state, shown if shown >= 0 else None),
        "phase": phase_sentence(state),
        "board": render_svg(state, viewer=shown if shown >= 0 else None, highlight=highlight, size=size,
                            legend_rows=False, title=status_line(state)),
        "log": H.event_log_html(state, shown, last=12),
        "game_board": H.game_board_html(state),
        "players": [H.player_board_html(state, p, shown) for p in range(state.config.players)],
        "ranking": H.ranking_html(state),
        "actions": actions,
    }
