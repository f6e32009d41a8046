"""Widgets for the estate module: the land board on a canvas, the Market panel with
this season's prices, a playable game against bots, and the exercises' widget
(:func:`exercise`, the land board of the exercise's position above its question).

    from haunted_kit.estate.widgets import EstatePlayView
    EstatePlayView(players=3, seed=1, bots=[1, 2])     # P1 human, P2-P3 greedy bots

Built from the kit's shared pieces: the renderer's geometry and scene primitives
(:mod:`haunted_kit.estate.draw`), :func:`haunted_kit.widgets.canvas.draw_primitives`
and :func:`held` for the canvas, :class:`haunted_kit.widgets.playview.GamePlayView` for
the play (seats, bots, undo, hints, keyboard, message line, error banner). Every choice comes from ``legal_actions()``, every refusal from
``why_not()``: the widgets only draw and forward.

CSS classes for browser tests: ``hk-estate-play``, ``canvas.hk-estate-board``,
``hk-message``, ``hk-status``, ``hk-market``, ``hk-choices``, ``hk-undo``,
``hk-bot-play``, ``hk-hints``, ``hk-keys`` (see :mod:`haunted_kit.widgets.playview`), ``hk-board-choices``
(the line under the choice buttons saying how many choices are on the board) and ``hk-board-list``
(its button listing them as buttons).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W
from ipycanvas import MultiCanvas

from ..render import style as S
from ..render.primitives import Text
from ..widgets.canvas import draw_primitives, fit_to_output, held, on_tap, pan_parts, redraw_for_new_views
from ..widgets.errors import ErrorReporting
from ..frames import reflow_table
from ..widgets.whatis import WhatIsThis
from . import actions as A
from .draw import BOARD_SIZE, board_primitives, land_geometry, legend_text, market_html, slot_words  # noqa: F401 - market_html: notebooks import it here
from ..widgets.exercise import ExerciseWidget
from ..widgets.playview import GamePlayView, board_row, recent_log_html, side_layout, since_last_decision
from .exercises import EXERCISES
from .engine import GAME, new_game


class EstateBoard(ErrorReporting, W.VBox):
    """The land board, clickable: ``on_click(callback(slot))``; ``set_highlight(slots)``.
    Under it, the legend line and (``key``) the key of its codes with "What is this?"
    (:attr:`whatis`, :class:`~haunted_kit.widgets.whatis.WhatIsThis`: while its toggle is
    pressed a click on a slot says what is there instead of playing)."""

    def __init__(self, state, *, size: float = BOARD_SIZE, key: bool = True, **kw):
        super().__init__(**kw)
        self.geom = land_geometry(state.box, size)
        # a one-layer MultiCanvas, as the Haunted Lands field uses (it redraws reliably
        # when a new browser view appears, e.g. in Voila)
        self.canvas = MultiCanvas(1, width=self.geom.width, height=self.geom.height)
        self.canvas.add_class("hk-estate-board")
        banner = self._init_errors()
        self.legend = W.HTML(f'<div style="font:12px sans-serif;color:#444;max-width:{self.geom.width}px">'
                             f"{escape(legend_text(state))}</div>")
        # as for the Haunted Lands field: ipycanvas focuses the canvas on mousedown before it
        # reads the position, and focusing a partly visible canvas would scroll the page
        # under the click; a negative scroll margin keeps focus from scrolling
        self.focus_fix = W.HTML("<style>canvas.hk-estate-board { scroll-margin: -100000px; }</style>",
                                layout=W.Layout(height="0px", margin="0px"))
        self.whatis = WhatIsThis(noun="slot", width=self.geom.width) if key else None
        # only the canvas pans in its box (a phone), under its cue; a swipe on it scrolls the page
        self.pan, self.pan_box, touch = pan_parts(self, "hk-estate-board-box", [self.canvas], "The land board")
        self.children = [self.pan, self.pan_box, self.legend, *([self.whatis] if key else []), banner, self.focus_fix,
                         touch]
        # drawn at its own size, scaled down in a narrow output area (clicks are scaled back)
        least = min(p.size for p in board_primitives(state, self.geom) if isinstance(p, Text))
        fit_to_output(self.canvas, self.geom.width, self.geom.height, box=self.pan_box, min_text=least)
        self._handlers: list = []
        self.highlight: tuple = ()
        self.marked: tuple = ()   # slots circled: the slot chosen for a tile still to be picked
        self.state = state
        self.draws = 0
        on_tap(self.canvas, self.guard(self._on_mouse_down, "handling a click on the land board"))
        redraw_for_new_views(self.canvas[0], self.guard(self.redraw, "drawing the land board for a new view"))
        self.redraw()

    def update(self, state=None) -> None:
        if state is not None:
            self.state = state
        self.redraw()

    def set_highlight(self, slots, marked=()) -> None:
        """Outline ``slots`` as the legal targets and circle ``marked`` (the slot chosen, its
        tile still to pick), then redraw."""
        self.highlight = tuple(slots)
        self.marked = tuple(marked)
        self.redraw()

    def redraw(self) -> None:
        prims = board_primitives(self.state, self.geom, self.highlight, self.marked)
        with held():
            draw_primitives(self.canvas[0], prims)
        self.draws += 1
        if self.whatis is not None:
            self.whatis.show(self.state, prims, places=self.geom.cells, cell_at=self.geom.cell_at,
                             cell_words=lambda slot: slot_words(self.state, slot))

    def on_click(self, callback) -> None:
        self._handlers.append(callback)

    def _on_mouse_down(self, x, y):
        if self.whatis is not None and self.whatis.take_click(x, y):
            return  # "What is this?" is pressed: a question, not a move
        slot = self.geom.cell_at(x, y)
        if slot is None:
            return
        for cb in list(self._handlers):
            cb(slot)

    def click_slot(self, slot) -> None:
        """Click the centre of ``slot`` through the canvas' message path (as a browser would)."""
        x, y = self.geom.centre(slot)
        self.canvas._handle_custom_msg({"event": "mouse_down", "x": x, "y": y}, [])


#: a cell of the players' table: padded, with a rule under it, so that "0 marble" and "0 gold" of
#: two columns never run together
_CELL = "padding:2px 6px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top"


def players_html(s) -> str:
    """The players' table of estate ``s``: income, holdings, workers, tokens, gold value (a
    kit measure) and whether each passed, one padded row per player, reflowing in a narrow
    column (:func:`haunted_kit.frames.reflow_table`)."""
    head = "".join(f'<th style="{_CELL}">{h}</th>' for h in ("player", "income", "holds", "workers supply/Factory/Inn",
                                                               "tokens", "gold value*", "passed"))
    rows = []
    for p in range(s.players):
        w = s.workers[p]
        cells = [", ".join(f"{v} {r}" for r, v in s.income[p].items()), ", ".join(f"{v} {r}" for r, v in s.hand[p].items()),
                 f"{w['supply']}/{w['factory']}/{w['inn']}", s.tokens[p], s.gold_value(p), "yes" if s.passed[p] else "no"]
        # the player's colour as a bar beside the name (coloured text on white would be too faint to read)
        rows.append(f'<tr><td style="{_CELL};border-left:6px solid {S.player_colour(p)};font-weight:bold">P{p + 1}</td>'
                    + "".join(f'<td style="{_CELL}">{c}</td>' for c in cells) + "</tr>")
    table = (f'<table class="hk-players" style="font:13px sans-serif;border-collapse:collapse"><thead><tr>{head}</tr>'
             f"</thead><tbody>{''.join(rows)}</tbody></table>")
    # its rows wrap in a narrow column (a phone) instead of running past it
    return reflow_table(table, left=range(7)) + "<div style='font:12px sans-serif;color:#555'>* a kit measure, not a rule</div>"


class EstatePlayView(GamePlayView):
    """A playable estate game against bots, on the kit's :class:`~haunted_kit.widgets.playview.GamePlayView`
    (choices from ``legal_actions``, refusals from ``why_not``, undo, "Suggest a move",
    keyboard play) with the land board (click a highlighted slot to place a tile or join a
    land; the line under the choice buttons says how many such choices there are and lists them
    as buttons on demand), the Market panel, the players' table and the last events.

    Args:
        state: a game to continue; by default a new one (``players``, ``seed`` and
            :class:`~haunted_kit.estate.state.EstateConfig` options).
        bots: bot seats (0-based): a list (each ``bot_kind``) or dict seat -> spec/agent.
        auto_bots: bots play on by themselves after a human decision.
        hints, hint_playouts, keyboard: as :class:`~haunted_kit.widgets.playview.GamePlayView`.

    Raises:
        ValueError: a bot seat that is not a player index, an unknown agent spec.
    """

    css_class = "hk-estate-play"

    def __init__(self, state=None, *, players: int = 3, seed: int = 1, bots=None, size: float = BOARD_SIZE,
                 auto_bots: bool = True, bot_kind: str = "greedy", hints: bool = True, hint_playouts: int = 300,
                 keyboard: bool = True, **options):
        state = state if state is not None else new_game(players, seed, **options)
        self.board = EstateBoard(state, size=size)
        self.market = W.HTML()
        self.players_panel = W.HTML()
        self.log_panel = W.HTML()
        # the choices made on the board, said among "Your choices" with their number, and listed
        # as buttons on demand, so that no one passes while a tile could still be placed
        self.slot_note = W.HTML()
        self.slot_note.add_class("hk-board-choices")
        self.b_board = W.Button(layout=W.Layout(width="auto", flex="0 0 auto"))
        self.b_board.add_class("hk-board-list")
        self.board_listed = False
        self.board_row = W.VBox([self.slot_note, self.b_board])
        super().__init__(GAME, state, bots=bots, auto_bots=auto_bots, bot_kind=bot_kind, hints=hints,
                         hint_playouts=hint_playouts, keyboard=keyboard)
        self.board.on_click(self.guard(self.click_slot, "handling a click on a slot"))
        self.b_board.on_click(self.guard(lambda _b: self.list_board_choices(not self.board_listed),
                                         "listing the choices on the board"))

    def extra_controls(self) -> list:
        """Under the choice buttons: the line that says how many choices are on the board (placing
        a tile, joining a land) and lists them as buttons (:meth:`list_board_choices`)."""
        return [self.board_row]

    def game_parts(self) -> list:
        side = W.VBox([self.controls, self.market], layout=side_layout())
        return [self.status, self.message_label, self.banner, board_row(self.board, side),
                self.players_panel,
                self.log_panel]

    def status_text(self) -> str:
        s = self.state
        if s.is_terminal():
            return "The game is over. " + ", ".join(f"P{q + 1} gold value {s.gold_value(q)}" for q in range(s.players)) \
                + " (a kit measure)."
        p = s.current_player()
        display = ", ".join(t.replace("_", " ") for t in s.display)
        return (f"Season {s.season} of {s.box.seasons}, {s.phase}: P{p + 1} to decide" + (" (bot)" if p in self.bots else "")
                + f". Display: {display}")

    def menu(self, legal: list) -> list:
        """The legal actions that are not on the board (tiles and joins are clicked on their slot)."""
        return [a for a in legal if not isinstance(a, (A.PlaceTile, A.Join))]

    def board_choices(self) -> list:
        """The legal actions chosen on the board: placing a tile, joining a land."""
        return [a for a in self.legal if isinstance(a, (A.PlaceTile, A.Join))]

    def board_words(self) -> str:
        """The line under the choice buttons for the board's choices, with their number:
        ``"Place a land tile: click a lit slot on the board (6 choices)."``; ``""`` when none."""
        on_board = self.board_choices()
        kinds = [w for w, t in (("place a land tile", A.PlaceTile), ("join a land", A.Join))
                 if any(isinstance(a, t) for a in on_board)]
        if not kinds:
            return ""
        n = len(on_board)
        return f"{' or '.join(kinds).capitalize()}: click a lit slot on the board ({n} choice{'s' if n != 1 else ''})."

    def list_board_choices(self, show: bool = True) -> None:
        """Show the board's choices as buttons after the others (``show``), or the usual buttons again."""
        self.board_listed = bool(show) and bool(self.board_choices())
        self.set_choices(self.menu(self.legal) + (self.board_choices() if self.board_listed else []))
        self._label_board_button()

    def _label_board_button(self) -> None:
        n = len(self.board_choices())
        self.b_board.description = "Hide the board's choices" if self.board_listed else f"List them as buttons ({n})"
        self.b_board.tooltip = "the board's choices as buttons, beside the others"

    def set_choices(self, actions) -> None:
        """The choice buttons (:meth:`GamePlayView.set_choices`); a pass while other choices are open
        says how many, so that it is never taken for the only choice left."""
        super().set_choices(actions)
        others = len(self.legal) - 1
        for b, a in zip(self.choices.children, actions):
            if isinstance(a, A.Pass) and a in self.legal and others > 0:
                b.description = f"{self.describe(a)} ({others} other choice{'s' if others != 1 else ''} still open)"

    def refresh_panels(self) -> None:
        s = self.state
        slots = [tuple(a.slot) for a in self.board_choices()]
        self.board.update(s)
        self.board.set_highlight(dict.fromkeys(slots))
        words = self.board_words()
        self.slot_note.value = f'<div style="font:14px sans-serif">{escape(words)}</div>'
        self.board_row.layout.display = "" if words else "none"
        self.board_listed = False
        self._label_board_button()
        self.market.value = market_html(s)
        self.players_panel.value = players_html(s)
        self.log_panel.value = recent_log_html((S.name_cells(e.text) for e in s.log or []), since_last_decision(self.undo_stack, self.humans, self.viewer()))

    # ------------------------------------------------------------------ input
    def click_slot(self, slot):
        """A click on ``slot``: the legal PlaceTile/Join actions there (one tile kind ->
        applied; several -> offered as buttons), or the rules' reason why not. Returns the
        legal actions found there."""
        s = self.state
        busy = self._busy_reason()
        if busy:
            self.say(busy, "ignored")
            return []
        slot = tuple(slot)
        cands = [a for a in self.legal if isinstance(a, (A.PlaceTile, A.Join)) and tuple(a.slot) == slot]
        if len(cands) == 1:
            self.attempt(cands[0])
        elif cands:
            self.set_choices(cands)
            # the slot chosen is the one lit now, and the line under the buttons asks the second half of
            # the decision (a newcomer saw every slot still lit and the old "click a lit slot" line)
            self.board.set_highlight(self.board.highlight, marked=(slot,))
            asked = f"Which tile for slot {S.cell_name(slot)} (circled)? Choose it above, or click another lit slot."
            self.slot_note.value = f'<div style="font:14px sans-serif"><b>{escape(asked)}</b></div>'
            self.say(f"Which tile for slot {slot}?")
        else:
            tried = A.Join(slot) if slot in s.lands else A.PlaceTile(s.display[0] if s.display else "forest", slot)
            why = s.why_not(tried)
            self.last_refusal = why
            if self.board.whatis is not None:  # no move here: say what is on the slot
                self.board.whatis.answer_cell(slot)
            self.say(f"Not on slot {slot}: {why}." if why else f"Nothing to do on slot {slot} now.", "refusal")
        return cands


def exercise(key: str, seed: int = 0, *, size: float = BOARD_SIZE) -> ExerciseWidget:
    """The widget for estate exercise ``key`` of :data:`haunted_kit.estate.exercises.EXERCISES` on
    seed ``seed``, with the land board of its position, drawn at the play view's size (every text of
    it at least 12 px, on a phone and on a laptop). Raises
    :class:`~haunted_kit.exercises.ExerciseError` for an unknown key or a bad seed."""
    return ExerciseWidget(EXERCISES.make(key, seed), board=lambda state: EstateBoard(state, size=size))


def play_view(state, *, bots, hints: bool = True) -> EstatePlayView:
    """The play view of ``state`` with ``bots`` (seats) for the kit's tutorial (the
    ``widgets`` module's ``play_view`` hook, docs/NEW_GAME.md)."""
    return EstatePlayView(state, bots=bots, hints=hints)


#: the kit tutorial's hook: the exercise widget of ``key`` on ``seed`` (docs/NEW_GAME.md)
exercise_view = exercise
