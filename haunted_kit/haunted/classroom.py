"""What the classroom table server (:mod:`haunted_kit.server`) shows of a Haunted Lands
table, found through :func:`haunted_kit.games.game_module`: :func:`table_view` (the
board, the player boards, the event log and the choices, built for one viewer) and
:func:`status` (one line for the teacher page). The server itself knows seats, tokens
and sockets only."""

from __future__ import annotations

from html import escape

from ..render.style import name_cells
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


def action_label(state, action) -> str:
    """A choice's words for a button: cells named as the board writes them
    (:func:`haunted_kit.render.style.name_cells`), a quest card with its text
    (rulebook "Quests": the player chooses knowing the cards)."""
    if isinstance(action, A.ChooseQuest):
        return f"choose quest {action.quest}: {state.config.box.quests[action.quest].text}"
    return name_cells(action.describe())


def event_log(state, viewer, last: int = 12) -> str:
    """The last ``last`` events as ``viewer`` may see them, in sentences a student reads:
    a heading when the season, round or phase changes (``"Season 2, round 3, turns"``),
    then each event's sentence with cells named as on the board; no event numbers or
    engine kinds. HTML (class ``hk-event-log``), newest at the bottom."""
    rows, when = [], None
    for e in list(state.log or [])[-last:]:
        e = e.seen_by(viewer)
        phase = e.phase.replace("_", " ")
        now = ("Setup" if e.season == 0 else f"Season {e.season}, {phase}" if e.round == 0 else
               f"Season {e.season}, round {e.round}, {phase}")
        if now != when:
            when = now
            rows.append(f'<div class="hk-when" style="color:#555;margin-top:3px"><i>{escape(when)}</i></div>')
        rows.append(f'<div style="padding:1px 2px">{escape(name_cells(e.text))}</div>')
    if not rows:
        rows.append('<div style="color:#666">Nothing has happened yet.</div>')
    return ('<div class="hk-event-log" style="border:1px solid #ccc;padding:4px;max-height:260px;overflow-y:auto">'
            + "".join(rows) + "</div>")


def phase_help(state, acting) -> str:
    """The help panel's HTML: the phase explained (:func:`phase_sentence`) and what the
    seat shown can do now."""
    what = ("It is your decision: click a highlighted cell or a button." if acting is not None else
            "Wait for the player to move; the board updates by itself." if not state.is_terminal() else
            "The game is over: the ranking shows each player's valor and quests.")
    return (f"<p><b>Now:</b> {escape(phase_sentence(state))}</p><p>{escape(what)}</p>"
            "<p>Cells are named by their two coordinates, written in each cell (for example <b>2,-1</b>).</p>")


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
        one per seat), ``ranking`` (HTML), ``actions`` (``i``, ``label``, ``cell``, ``xy``:
        the index into ``legal_actions()``, its words with cells named as on the board
        and the hex it is played on) and ``help`` (HTML: the phase explained).
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
        actions.append({"i": i, "label": action_label(state, a), "cell": list(c) if c is not None else None,
                        "xy": [round(v, 1) for v in geom.centre(c)] if c is not None else None})
    highlight = {tuple(a["cell"]): "" for a in actions if a["cell"] is not None}
    return {
        "acting": acting if legal else None, "needs_reveal": needs_reveal,
        "status": status_line(state, shown if shown >= 0 else None),
        "phase": phase_sentence(state),
        "board": render_svg(state, viewer=shown if shown >= 0 else None, highlight=highlight, size=size,
                            legend_rows=False, title=status_line(state), show_coords=True),
        "log": event_log(state, shown, last=12),
        "game_board": H.game_board_html(state),
        "players": [H.player_board_html(state, p, shown) for p in range(state.config.players)],
        "ranking": H.ranking_html(state),
        "actions": actions,
        "help": phase_help(state, acting if legal else None),
    }
