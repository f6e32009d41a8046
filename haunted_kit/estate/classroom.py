"""What the classroom table server (:mod:`haunted_kit.server`) shows of an Estate and
Market table, found through :func:`haunted_kit.games.game_module`: :func:`table_view`
(the land board, the player boards, the Market, the event log and the choices, built for
one viewer), :func:`status` (one line for the teacher page) and the new-table form
(:data:`FORM`, :data:`PLAYERS`, :func:`options_from_form`).

Nothing of an estate position is hidden from a player (only the tile stack's order and
the seed, which no page shows), so every seat, the projector and the hot seat see the
same board; a hot-seat screen never needs to reveal anything. Tiles are placed and lands
joined by a click on their slot (the slot's ``q,r`` name is written on the board); every
other choice is a button.
"""

from __future__ import annotations

from html import escape

from ..protocol import describe_action, results_by_score
from ..render import style as S
from ..tableview import (BOX_STYLE, PUBLIC, chip, choice_entries, help_html, legal_for, mover_line, read_form,
                         seat_roles, sentence_log_html)
from . import actions as A
from .box import default_estate_box
from .draw import board_svg, land_geometry, market_html
from .engine import GAME
from .state import CONNECTION_RULES, IMPROVEMENT_RULES, MARBLE_FIELD_RULES

__all__ = ["FORM", "PLAYERS", "PUBLIC", "options_from_form", "status", "table_view"]

NO_THIRD = "none"  #: the form's word for "no third marked Market action" (ruling E11's default)

_MARKET = default_estate_box().market
#: the teacher's new-table form: the estate's own settings (the rulings that have a switch);
#: each choice with its words (``labels``), since a dropdown shows words, never a key
FORM = [
    {"name": "connection", "label": "Connected estate", "kind": "choice", "choices": list(CONNECTION_RULES),
     "labels": {"group": "one connected group", "line": "a line, each slot touching the next"},
     "default": "group", "help": "Ruling E6: how the land markers make a \"continuous line\": as one connected "
                                 "group of marked slots, or as a line in which each slot touches the next."},
    {"name": "marble_field", "label": "Marble field", "kind": "choice", "choices": list(MARBLE_FIELD_RULES),
     "labels": {"shared": "shared by two players", "single": "one player takes both raises"},
     "default": "shared", "help": "Ruling E8: its two spaces serve two players, or the player who places it "
                                  "takes both raises at once."},
    {"name": "improvement", "label": "Improvements", "kind": "choice", "choices": list(IMPROVEMENT_RULES),
     "labels": {"join": "a player who joins gets the raise", "adjacent": "also a player whose new tile touches it"},
     "default": "join", "help": "Ruling E7: a player who joins a land gets its income raise; with the second "
                                "choice also a player whose new tile touches it, once."},
    {"name": "third_marked", "label": "Third marked Market action", "kind": "choice",
     "choices": [NO_THIRD, *_MARKET], "labels": {NO_THIRD: "none", **{k: row.text for k, row in _MARKET.items()}},
     "default": NO_THIRD,
     "help": "Ruling E11: the text does not say which Market row is the third marked one; none by default."},
]
PLAYERS = (GAME.min_players, GAME.max_players)  #: (fewest, most) players of the reference box


def options_from_form(form: dict) -> dict:
    """The ``new_game`` keywords of the page's form values (:data:`FORM`; missing fields
    take their defaults): ``connection``, ``marble_field``, ``improvement`` and
    ``third_marked`` (None for ``"none"``).

    Raises:
        ValueError: a sentence naming the field, e.g. ``"Marble field (marble_field) must
        be one of shared, single, got 'double'."``."""
    values = read_form(form, FORM, "Estate and Market")
    if values["third_marked"] == NO_THIRD:
        values["third_marked"] = None
    return values


# ============================================================================ lines
PHASE_SENTENCES = {
    "setup": "Setting up: the land tiles are shuffled and the display is laid out.",
    "turns": ("Turns: in seat order each player takes one action (a Factory take, gold, a land tile, joining a land, "
              "a Market visit) or passes; the season ends when everyone has passed (ruling E1)."),
    "market": ("A Market visit: the visitor takes different rows of the Market one unit each (3 actions for the "
               "season's first visitor, 2 for later ones) or leaves (ruling E10)."),
    "inn": "Season end: each player with workers in the Inn may pay to bring one back (ruling E15).",
}


def _who(p) -> str:
    return f"P{p + 1}"


def status(state, viewer=None) -> str:
    """One line on the game: season, phase, who is to move (``viewer``'s seat says "you"),
    or the final gold values."""
    if state.is_terminal():
        values = ", ".join(f"P{q + 1} {state.gold_value(q)}" for q in range(state.players))
        return f"Game over after season {state.box.seasons}: gold values {values} (a kit measure, not a rule)."
    phase = "Market visit" if state.visit is not None else state.phase
    return mover_line(state, f"Season {state.season} of {state.box.seasons}, {phase}", viewer, "a land tile is drawn")


def phase_sentence(state) -> str:
    """What the current phase is for, in a sentence or two (the estate rules and rulings)."""
    if state.is_terminal():
        return ("Game over: the module prints no victory points; the kit ranks the players by the gold value of "
                "their holdings (ruling E18).")
    return PHASE_SENTENCES["market" if state.visit is not None else state.phase]


def label(state, action) -> str:
    """The sentence a student reads for ``action`` at ``state``, as every view says it
    (:func:`~haunted_kit.protocol.describe_action`: a slot written as the board writes it, a
    tile with what it gives and costs, a join with its owner and fee)."""
    return describe_action(action, state)


def cell_of(action):
    """The slot a PlaceTile or Join is played on, else None (a button)."""
    return tuple(action.slot) if isinstance(action, (A.PlaceTile, A.Join)) else None


# ============================================================================ html
def player_board_html(state, p: int) -> str:
    """Player ``p``'s board: income, holdings, workers, Market-condition tokens, lands, and
    whether ``p`` passed this season (nothing of it is hidden)."""
    inc = ", ".join(f"{v} {r}" for r, v in state.income[p].items())
    hold = ", ".join(f"{v} {r}" for r, v in state.hand[p].items() if v) or "nothing"
    w = state.workers[p]
    lands = sorted(slot for slot, land in state.lands.items() if p in land["markers"])
    mover = state.current_player() == p and not state.is_terminal()
    head = f"{chip(p)}&nbsp;<b>{_who(p)}</b>" + (" &middot; <b>to move</b>" if mover else "") + \
        (" &middot; passed" if state.passed[p] else "")
    rows = [f"income per season: {escape(inc)}", f"holds: {escape(hold)}",
            f"workers: {w['supply']} in supply, {w['factory']} in the Factory, {w['inn']} in the Inn",
            f"Market-condition tokens: {state.tokens[p]}",
            "lands: " + (", ".join(S.cell_name(s) for s in lands) or "none"),
            f"gold value: {state.gold_value(p)} (a kit measure)"]
    return (f'<div class="hk-player-board" style="{BOX_STYLE};border-left:6px solid {S.player_colour(p)}">'
            f"<div>{head}</div>" + "".join(f"<div>{r}</div>" for r in rows) + "</div>")


def game_board_html(state) -> str:
    """The display of face-up tiles, the tiles left in the stack, and the Market."""
    display = ", ".join(t.replace("_", " ") for t in state.display) or "empty"
    left = sum(state.stack.values())
    return (f'<div class="hk-game-board" style="{BOX_STYLE}"><div><b>Land tiles on offer:</b> {escape(display)} '
            f"({left} left in the stack)</div>{market_html(state)}</div>")


def ranking_html(state) -> str:
    """At the end: the players by gold value (ruling E18; the sole highest wins, E19). Empty before."""
    if not state.is_terminal():
        return ""
    results = results_by_score([state.gold_value(p) for p in range(state.players)])
    order = sorted(range(state.players), key=lambda p: (results[p]["rank"], p))
    winner = next((p for p in order if results[p]["won"]), None)
    head = (f"<b>{_who(winner)} has the highest gold value.</b>" if winner is not None else
            "<b>A tie at the top: nobody has the sole highest gold value.</b>")
    rows = "".join(f'<tr class="hk-rank"><td><b>{results[p]["rank"]}</b></td><td>{chip(p)} {_who(p)}</td>'
                   f"<td>{state.gold_value(p)}</td></tr>" for p in order)
    return (f'<div class="hk-ranking" style="{BOX_STYLE}"><div>{head} The gold value is a kit measure, not a '
            "rule (rulings E18, E19).</div><table><tr><th>rank</th><th>player</th><th>gold value</th></tr>"
            f"{rows}</table></div>")


def phase_help(state, acting) -> str:
    """The help panel's HTML (:func:`haunted_kit.tableview.help_html`): the phase explained
    (:func:`phase_sentence`, with its ruling), what the seat shown can do now, how slots
    are named and that nothing is hidden."""
    return help_html(state, phase_sentence(state), acting,
                     act="It is your decision: click a highlighted slot on the land board, or a button.",
                     end="The game is over: the ranking shows each player's gold value, a kit measure (ruling E18).",
                     notes="<p>Slots are named by their two coordinates, written on each slot (for example <b>-2,1</b>). "
                           "Nothing is hidden in this game: every page shows the same holdings, display and Market.</p>")


def table_view(state, viewer: int, size: float, *, hot_seat: bool = False, revealed: bool = False, bots=()) -> dict:
    """The game's part of a page's message, built for ``viewer``.

    Args:
        state: the table's :class:`~haunted_kit.estate.engine.EstateState`.
        viewer: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen).
        size: hex size in pixels, centre to corner.
        hot_seat: a shared screen where the human to move (a seat not in ``bots``) acts;
            ``revealed`` changes nothing (no estate card is hidden).

    Returns:
        ``acting`` (the seat whose choices are listed, or None), ``needs_reveal`` (always
        False), ``status``, ``phase``, ``board`` (SVG of the land board, the legal slots
        highlighted), ``log``, ``game_board`` (display and Market), ``players`` (HTML, one per
        seat), ``ranking`` (HTML, at the end) and ``actions`` (``i``, ``label``, ``cell``,
        ``xy``: the index into ``legal_actions()``, its sentence, and the slot it is played
        on with its pixel centre, or None for a button) and ``help`` (HTML: the phase
        explained, :func:`phase_help`).
    """
    acting, shown = seat_roles(state, viewer, hot_seat=hot_seat, revealed=revealed, bots=bots)
    legal = legal_for(state, acting)
    geom = land_geometry(state.box, size)
    actions = choice_entries(legal, lambda a: label(state, a), cell_of, geom.centre)
    highlight = dict.fromkeys(tuple(a["cell"]) for a in actions if a["cell"] is not None)
    return {
        "acting": acting if legal else None, "needs_reveal": False,
        "status": status(state, shown if shown >= 0 else None),
        "phase": phase_sentence(state),
        "board": str(board_svg(state, highlight=highlight, size=size)),
        "log": sentence_log_html(state.log or []),
        "game_board": game_board_html(state),
        "players": [player_board_html(state, p) for p in range(state.players)],
        "ranking": ranking_html(state),
        "actions": actions,
        "help": phase_help(state, acting if legal else None),
    }
