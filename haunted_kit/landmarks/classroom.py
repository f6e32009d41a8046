"""What the classroom table server (:mod:`haunted_kit.server`) shows of a Landmarks &
Architects table, found through :func:`haunted_kit.games.game_module`: :func:`table_view`
(the village and landmark panel, the player boards, the event log and the choices, built
for one viewer), :func:`status` (one line for the teacher page) and the new-table form
(:data:`FORM`, :data:`PLAYERS`, :func:`options_from_form`).

Hidden information (``LandmarksState.observation``'s rule): each seat sees its own hand
and architect, the other hands only as a count and the other architects face down until
the end (Architects: Game Setup); the projector (:data:`PUBLIC`) sees no hand and no
architect. On the hot seat the mover's cards show only once revealed, and until then the
choices that would name a card of the hand (a ChooseBuilding, a Build, an Acquire with discards) are held
back (``needs_reveal``). No choice is played on a board cell: every one is a button.
"""

from __future__ import annotations

from html import escape

from ..protocol import results_by_score
from ..tableview import (BOX_STYLE, PUBLIC, chip, choice_entries, help_html, legal_for, mover_line, read_form,
                         seat_roles, sentence_log_html)
from ..visibility import seen_observation
from . import rules as R
from .actions import Acquire, Build, ChooseBuilding
from .draw import panel_svg
from .box import default_box
from .engine import GAME, VISIBILITY

__all__ = ["FORM", "PLAYERS", "PUBLIC", "options_from_form", "status", "table_view"]

_BOX = default_box()
MODULE_LABELS = {"landmarks": "Landmarks module", "architects": "Architects module",
                 "castle_grounds": "Castle Grounds cards"}

CLASS_ROUNDS = _BOX.example_round["rounds"]  #: a new table's turns unless the teacher says otherwise (the box's)

#: the teacher's new-table form: turns and which modules are played
FORM = [
    {"name": "rounds", "label": "Turns", "kind": "int", "min": 1, "max": 1000,
     "default": CLASS_ROUNDS,
     "help": f"Turns before the game ends (in each turn one player leads and the others follow, acquire or "
             f"decline; {CLASS_ROUNDS} by default, so that with 3 players every seat leads once). The base game "
             f"would also end when a village reaches {_BOX.end_trigger_cards} cards."},
    *({"name": m, "label": MODULE_LABELS.get(m, m.replace("_", " ")), "kind": "bool", "default": on,
       "help": f"Play with the {MODULE_LABELS.get(m, m)} (switched off, its rules and scoring are left out)."}
      for m, on in _BOX.modules.items()),
]
PLAYERS = (GAME.min_players, GAME.max_players)  #: (fewest, most) players of the reference box


def options_from_form(form: dict) -> dict:
    """The ``new_game`` keywords of the page's form values (:data:`FORM`; missing fields
    take their defaults): ``rounds`` and ``modules`` (module name -> played).

    Raises:
        ValueError: a sentence naming the field, e.g. ``"Turns (rounds) must be a whole
        number from 1 to 1000, got 0."``."""
    values = read_form(form, FORM, "Landmarks & Architects")
    return {"rounds": values.pop("rounds"), "modules": values}


# ============================================================================ lines
PHASE_SENTENCES = {
    "deal": "The architects are dealt face down, one to each player (Architects: Game Setup).",
    "lead": ("Lead: the leader chooses this turn's action; the gold on their castle and developed resources comes "
             "back first (Landmarks: How To Play, Take One Action)."),
    "build": ("Build: the leader chooses a building of their hand, then how to pay for it: each resource with a gold "
              "on their castle, a developed resource or a Castle Grounds (Architects: How To Play, Build)."),
    "follow": ("Follow: clockwise from the leader's left, each other player follows the lead, acquires a landmark "
               "token by discarding cards, or declines (Landmarks: How To Play, Take One Action)."),
}


def status(state, viewer=None) -> str:
    """One line on the game: turn, phase, the lead, who is to move (``viewer``'s seat says
    "you"), or the points at the end."""
    if state.is_terminal():
        points = R.totals(state)
        return "Game over: module points " + ", ".join(f"P{q + 1} {points[q]}" for q in range(state.players)) + "."
    lead = f", {state.lead} led by P{state.leader + 1}" if state.lead else ""
    return mover_line(state, f"{R.turn_words(state).capitalize()}, {state.phase}{lead}", viewer,
                      "the architects are dealt")


def phase_sentence(state) -> str:
    """What the current phase is for (the module texts' sections)."""
    if state.is_terminal():
        return ("Game over: the architects are revealed and the module points are counted (Landmarks: Scoring; "
                "Architects: Scoring).")
    return PHASE_SENTENCES[state.phase]


def names_hidden_cards(action) -> bool:
    """Whether ``action`` names a card of the player's hand (a ChooseBuilding, a Build, an
    Acquire with discards)."""
    return isinstance(action, (Build, ChooseBuilding)) or (isinstance(action, Acquire) and bool(action.discards))


def phase_help(state, acting) -> str:
    """The help panel's HTML (:func:`haunted_kit.tableview.help_html`): the phase explained
    (:func:`phase_sentence`, with its rule section), what the seat shown can do now, and
    what is hidden (Architects: a player's hand and architect)."""
    return help_html(state, phase_sentence(state), acting,
                     act="It is your decision: choose one of the buttons.",
                     end="The game is over: the ranking shows each player's points and where they come from.",
                     notes="<p>Your hand and your architect are hidden from the other players: only your own page "
                           "shows them (on a hot-seat screen, after <b>Show my hidden cards</b>).</p>")


# ============================================================================ html
def _cards(state, keys) -> str:
    return ", ".join(escape(state.box.cards[k].name) for k in keys) or "none"


def player_board_html(state, p: int, viewer: int, seen: dict | None = None) -> str:
    """Player ``p``'s board as ``viewer`` may see it: gold, developed resources, village,
    landmark tokens; the hand and the architect only for ``p`` (or everyone at the end
    for the architect), else a count and "face down". The hidden parts are read from
    ``seen``, the observation as ``viewer`` may see it (:data:`~.engine.VISIBILITY`; made
    here when not given), so the board shows nothing the declaration hides."""
    seen = seen if seen is not None else seen_observation(GAME, state, viewer)
    box = state.box
    mover = state.current_player() == p and not state.is_terminal()
    role = " &middot; leader" if p == state.leader else ""
    head = f"{chip(p)}&nbsp;<b>P{p + 1}</b>{role}" + (" &middot; <b>to move</b>" if mover else "")
    village = ", ".join(f"{escape(box.cards[k].name)} ({escape(box.cards[k].type if box.cards[k].kind == 'building' else 'adventurer')}, "
                        f"{box.cards[k].victory_points} VP)" for k in state.villages[p]) or "none"
    rows = [f"gold: {state.gold[p]}", f"developed resources: {_cards(state, state.developed[p])}",
            f"village ({R.village_cards(state, p)} of {box.end_trigger_cards} cards): {village}"]
    if state.modules["landmarks"]:
        rows.append("landmark tokens: " + ", ".join(f"{escape(lt.name)} {state.tokens[p][k]}"
                                                    for k, lt in box.landmarks.items()))
    hand = seen["hands"][p]
    if viewer == p and isinstance(hand, list):
        rows.append(f"your hand: {_cards(state, hand)}")
    else:
        n = len(hand) if isinstance(hand, list) else hand
        rows.append(f"hand: {n} card{'s' if n != 1 else ''} face down")
    arch = seen["architects"][p]
    if state.modules["architects"] and arch is not None:
        if arch in box.architects and (viewer == p or state.is_terminal()):
            a = box.architects[arch]
            rows.append(f"architect: {escape(a.name)} ({escape(R.architect_words(box, a))})")
        else:
            rows.append("architect: face down")
    return (f'<div class="hk-player-board" style="{BOX_STYLE}"><div>{head}</div>'
            + "".join(f"<div>{r}</div>" for r in rows) + "</div>")


def game_board_html(state) -> str:
    """The landmark supply (cost, victory points, tokens left) and the turn's lead."""
    parts = [f"<div><b>{R.turn_words(state).capitalize()}</b>"
             + (f": P{state.leader + 1} led {escape(state.lead)}" if state.lead else f": P{state.leader + 1} leads")
             + f" &middot; {len(state.draw_pile)} cards in the draw pile</div>"]
    if state.modules["landmarks"]:
        for key, lt in state.box.landmarks.items():
            parts.append(f"<div>{escape(lt.name)}: {escape(lt.cost_text())}; {lt.victory_points} VP each; "
                         f"{state.supply[key]} left</div>")
    return f'<div class="hk-game-board" style="{BOX_STYLE}">{"".join(parts)}</div>'


def ranking_html(state) -> str:
    """At the end: the players by module points, each source explained (:func:`rules.score_rows`). Empty before."""
    if not state.is_terminal():
        return ""
    points = R.totals(state)
    results = results_by_score(points)
    order = sorted(range(state.players), key=lambda p: (results[p]["rank"], p))
    winner = next((p for p in order if results[p]["won"]), None)
    head = f"<b>P{winner + 1} wins.</b>" if winner is not None else "<b>A tie at the top: nobody wins alone.</b>"
    why = {p: [] for p in range(state.players)}
    for r in R.score_rows(state):
        if r["points"]:
            why[int(r["player"][1:]) - 1].append(f"{r['source']}: {r['points']} ({r['explanation']})")
    rows = "".join(f'<tr class="hk-rank"><td><b>{results[p]["rank"]}</b></td><td>{chip(p)} P{p + 1}</td>'
                   f"<td>{points[p]}</td><td>{escape('; '.join(why[p]) or 'no points')}</td></tr>" for p in order)
    return (f'<div class="hk-ranking" style="{BOX_STYLE}"><div>{head}</div><table><tr><th>rank</th><th>player</th>'
            f"<th>points</th><th>from</th></tr>{rows}</table></div>")


def table_view(state, viewer: int, size: float, *, hot_seat: bool = False, revealed: bool = False, bots=()) -> dict:
    """The game's part of a page's message, built for ``viewer`` only.

    Args:
        state: the table's :class:`~haunted_kit.landmarks.engine.LandmarksState`.
        viewer: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen).
        size: the board's scale in the kit's server (unused: the panel has its own width).
        hot_seat: a shared screen where the human to move (a seat not in ``bots``) acts;
            their hand and architect show only when ``revealed``.

    Returns:
        ``acting`` (the seat whose choices are listed, or None), ``needs_reveal`` (a
        covered hot seat holds back choices naming cards of the hand), ``status``,
        ``phase``, ``board`` (SVG of the panel as the shown seat sees it), ``log`` (events,
        other architects redacted), ``game_board``, ``players`` (HTML, one per seat),
        ``ranking`` (HTML, at the end) and ``actions`` (``i`` the index into
        ``legal_actions()``, ``label``; ``cell`` and ``xy`` always None: buttons) and
        ``help`` (HTML: the phase explained, :func:`phase_help`).
    """
    acting, shown = seat_roles(state, viewer, hot_seat=hot_seat, revealed=revealed, bots=bots)
    seen = seen_observation(GAME, state, shown)
    legal = legal_for(state, acting)
    covered = hot_seat and not revealed
    keep = (lambda a: not names_hidden_cards(a)) if covered else None
    actions = choice_entries(legal, lambda a: a.describe(state.box), keep=keep)
    needs_reveal = covered and len(actions) < len(legal)
    return {
        "acting": acting if actions else None, "needs_reveal": needs_reveal,
        "status": status(state, shown if shown >= 0 else None),
        "phase": phase_sentence(state),
        "board": str(panel_svg(state, viewer=shown)),
        "log": sentence_log_html(VISIBILITY.log_for(state.log, shown)),
        "game_board": game_board_html(state),
        "players": [player_board_html(state, p, shown, seen) for p in range(state.players)],
        "ranking": ranking_html(state),
        "actions": actions,
        "help": phase_help(state, acting if actions else None),
    }
