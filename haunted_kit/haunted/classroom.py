"""What the classroom table server (:mod:`haunted_kit.server`) shows of a Haunted Lands
table, found through :func:`haunted_kit.games.game_module`: :func:`table_view` (the
board, the player boards, the event log and the choices, built for one viewer) and
:func:`status` (one line for the teacher page). The server itself knows seats, tokens
and sockets only."""

from __future__ import annotations

from ..protocol import describe_action
from ..render.style import name_cells
from ..tableview import choice_entries, help_html, legal_for, read_form, seat_roles, sentence_log_html
from . import actions as A
from .box import default_box
from .draw import html as H
from .draw.geometry import board_geometry
from .draw.scene import phase_sentence, status_line
from .draw.svg import render_svg
from .state import VISIBILITY, GameConfig

__all__ = ["FORM", "PLAYERS", "PUBLIC", "options_from_form", "status", "table_view"]

PUBLIC = H.PUBLIC  #: the viewer of a shared screen (-1): every hidden quest stays face down

_BOX = default_box()
#: the teacher's new-table form: Haunted Lands' own settings (rulebook "Game Modes", "Ghost Cards")
FORM = [
    {"name": "mode", "label": "Mode", "kind": "choice", "choices": list(_BOX.modes), "default": GameConfig.mode,
     "help": "The game mode (rulebook \"Game Modes\"): it sets the ghost card and the quests of each season end."},
    {"name": "ghost_cards", "label": "Extra ghost cards", "kind": "ints", "min": min(_BOX.ghost_cards),
     "max": max(_BOX.ghost_cards), "default": [],
     "help": "Ghost cards placed in addition to the mode's card, for a harder game (numbers separated by commas)."},
]
PLAYERS = (_BOX.min_players, _BOX.max_players)  #: (fewest, most) players of the reference box


def options_from_form(form: dict) -> dict:
    """The ``new_game`` keywords of the page's form values (:data:`FORM`; missing fields
    take their defaults): ``mode`` and ``extra_ghost_cards`` (a tuple).

    Raises:
        ValueError: a sentence naming the field, e.g. ``"Mode (mode) must be one of
        wanderer, builder, citizen, got 'nightmare'."``."""
    values = read_form(form, FORM, "Haunted Lands")
    return {"mode": values["mode"], "extra_ghost_cards": tuple(values["ghost_cards"])}


def status(state) -> str:
    """One line on the game: season, round, who is to move (or the result)."""
    return status_line(state)


def action_label(state, action) -> str:
    """A choice's words for a button, as every view says it (:func:`~haunted_kit.protocol.describe_action`):
    cells named as the board writes them, a card named with what it does and costs (a quest
    card's text, a skill's effect and cost, a sale's pecunias, a bonus reward)."""
    return describe_action(action, state)


def when_of(event) -> str:
    """The heading an event is logged under: ``"Setup"``, ``"Season 2, season end"`` or
    ``"Season 2, round 3, turns"``."""
    phase = event.phase.replace("_", " ")
    if event.season == 0:
        return "Setup"
    return f"Season {event.season}, {phase}" if event.round == 0 else f"Season {event.season}, round {event.round}, {phase}"


def event_log(state, viewer, last: int = 12) -> str:
    """The last ``last`` events as ``viewer`` may see them, in sentences a student reads:
    a heading when the season, round or phase changes (:func:`when_of`), then each
    event's sentence with cells named as on the board; no event numbers or engine kinds.
    HTML (class ``hk-event-log``), newest at the bottom."""
    events = VISIBILITY.log_for(list(state.log or [])[-last:], viewer)
    return sentence_log_html(events, last, heading=when_of, words=name_cells)


def phase_help(state, acting) -> str:
    """The help panel's HTML (:func:`haunted_kit.tableview.help_html`): the phase explained
    (:func:`phase_sentence`), what the seat shown can do now, how cells are named."""
    return help_html(state, phase_sentence(state), acting,
                     act="It is your decision: click a highlighted cell or a button.",
                     end="The game is over: the ranking shows each player's valor and quests.",
                     notes="<p>Cells are named by their two coordinates, written in each cell (for example <b>2,-1</b>)."
                           "</p>")


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

    acting, shown = seat_roles(state, viewer, hot_seat=hot_seat, revealed=revealed, bots=bots)
    legal = legal_for(state, acting)
    needs_reveal = hot_seat and not revealed and any(isinstance(a, A.ChooseQuest) for a in legal)
    if needs_reveal:  # quest choices name the player's cards: only once they uncovered them
        legal = []
    geom = board_geometry(state.config.box, size)
    actions = choice_entries(legal, lambda a: action_label(state, a), lambda a: action_cell(state, a), geom.centre)
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
