"""Widgets for the estate module: the land board on a canvas, the Market panel with
this season's prices, and a playable game against bots.

    from haunted_kit.estate.widgets import EstatePlayView
    EstatePlayView(players=3, seed=1, bots=[1, 2])     # P1 human, P2-P3 greedy bots

Built from the kit's shared pieces: the renderer's geometry and scene primitives
(:mod:`haunted_kit.estate.draw`), :func:`haunted_kit.widgets.canvas.draw_primitives`
and :func:`held` for the canvas, :class:`haunted_kit.widgets.errors.ErrorReporting`
for callback errors. Every choice comes from ``legal_actions()``, every refusal from
``why_not()``: the widgets only draw and forward.

CSS classes for browser tests: ``hk-estate-play``, ``canvas.hk-estate-board``,
``hk-message``, ``hk-status``, ``hk-market``, ``hk-choices``, ``hk-undo``,
``hk-bot-play``.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W
from ipycanvas import MultiCanvas

from ..render import style as S
from ..widgets.canvas import draw_primitives, forget_current_canvas, held
from ..widgets.errors import ErrorReporting
from . import actions as A
from . import rules as R
from .draw import board_primitives, land_geometry, legend_text
from ..bots import seat_bot
from .engine import GAME, new_game

BOT_STEP_LIMIT = 5000


class EstateBoard(ErrorReporting, W.VBox):
    """The land board, clickable: ``on_click(callback(slot))``; ``set_highlight(slots)``."""

    def __init__(self, state, *, size: float = 34, **kw):
        super().__init__(**kw)
        self.geom = land_geometry(state.box, size)
        # a one-layer MultiCanvas, as the Haunted Lands field uses (it redraws reliably
        # when a new browser view appears, e.g. in Voila)
        self.canvas = MultiCanvas(1, width=self.geom.width, height=self.geom.height)
        self.canvas.add_class("hk-estate-board")
        # drawn at its own size, never stretched to the column (clicks map 1:1 to canvas pixels)
        self.canvas.layout = W.Layout(width=f"{self.geom.width}px", height=f"{self.geom.height}px")
        banner = self._init_errors()
        self.legend = W.HTML(f'<div style="font:12px sans-serif;color:#444;max-width:{self.geom.width}px">'
                             f"{escape(legend_text(state))}</div>")
        # as for the Haunted Lands field: ipycanvas focuses the canvas on mousedown before it
        # reads the position, and focusing a partly visible canvas would scroll the page
        # under the click; a negative scroll margin keeps focus from scrolling
        self.focus_fix = W.HTML("<style>canvas.hk-estate-board { scroll-margin: -100000px; }</style>",
                                layout=W.Layout(height="0px", margin="0px"))
        self.children = [self.canvas, self.legend, banner, self.focus_fix]
        self.layout.flex = "0 0 auto"  # never squeeze the canvas: clicks map 1:1 to canvas pixels
        self._handlers: list = []
        self.highlight: tuple = ()
        self.state = state
        self.draws = 0
        self.canvas.on_mouse_down(self.guard(self._on_mouse_down, "handling a click on the land board"))
        self.canvas[0].on_client_ready(self.guard(self._on_client_ready, "drawing the land board for a new view"))
        self.redraw()

    def _on_client_ready(self) -> None:
        forget_current_canvas()  # a new browser view has no current canvas yet
        self.redraw()

    def update(self, state=None) -> None:
        if state is not None:
            self.state = state
        self.redraw()

    def set_highlight(self, slots) -> None:
        self.highlight = tuple(slots)
        self.redraw()

    def redraw(self) -> None:
        with held():
            draw_primitives(self.canvas[0], board_primitives(self.state, self.geom, self.highlight))
        self.draws += 1

    def on_click(self, callback) -> None:
        self._handlers.append(callback)

    def _on_mouse_down(self, x, y):
        slot = self.geom.cell_at(x, y)
        if slot is None:
            return
        for cb in list(self._handlers):
            cb(slot)

    def click_slot(self, slot) -> None:
        """Click the centre of ``slot`` through the canvas' message path (as a browser would)."""
        x, y = self.geom.centre(slot)
        self.canvas._handle_custom_msg({"event": "mouse_down", "x": x, "y": y}, [])


def market_html(s, player=None) -> str:
    """The Market panel: every row with what it gives and takes, and for marked rows the
    price ``player`` (default the player to move) pays now; the visit in progress."""
    p = s.current_player() if player is None else player
    p = 0 if p is None else p
    rows = []
    for name, row in s.box.market.items():
        price = f"{R.marked_price(s, p, name)} gold" if s.config.marked(name) else "-"
        used = s.uses[name]
        mark = " (marked)" if s.config.marked(name) else ""
        inv = s.visit is not None and name in s.visit["used"]
        style = ' style="color:#999"' if inv else ""
        rows.append(f"<tr{style}><td>{escape(row.text)}{mark}</td><td>{price}</td><td>{used}</td></tr>")
    visit = ""
    if s.visit is not None:
        v = s.visit
        visit = (f"<div>P{v['player'] + 1} is at the Market: {len(v['used'])} of {v['limit']} actions used"
                 f"{': ' + escape(', '.join(v['used'])) if v['used'] else ''}.</div>")
    nxt = R.visit_limit(s)
    return (f'<div class="hk-market" style="font:13px sans-serif"><b>Market</b> (season {s.season}; the next visitor '
            f"takes {nxt} different actions; prices for P{p + 1})"
            '<table style="border-collapse:collapse"><tr><th align="left">action</th><th>price now</th>'
            f"<th>uses this season</th></tr>{''.join(rows)}</table>{visit}</div>")


def players_html(s) -> str:
    rows = []
    for p in range(s.players):
        inc = ", ".join(f"{v} {r}" for r, v in s.income[p].items())
        hold = ", ".join(f"{v} {r}" for r, v in s.hand[p].items())
        w = s.workers[p]
        state = "passed" if s.passed[p] else ""
        rows.append(f'<tr><td style="color:{S.player_colour(p)};font-weight:bold">P{p + 1}</td><td>{inc}</td>'
                    f"<td>{hold}</td><td>{w['supply']}/{w['factory']}/{w['inn']}</td><td>{s.tokens[p]}</td>"
                    f"<td>{s.gold_value(p)}</td><td>{state}</td></tr>")
    return ('<table style="font:13px sans-serif;border-collapse:collapse"><tr><th>player</th><th>income</th>'
            "<th>holds</th><th>workers supply/Factory/Inn</th><th>tokens</th><th>gold value*</th><th></th></tr>"
            f"{''.join(rows)}</table><div style='font:11px sans-serif;color:#555'>* a kit measure, not a rule</div>")


class EstatePlayView(ErrorReporting, W.VBox):
    """A playable estate game: any seat human or bot.

    Args:
        state: a game to continue; by default a new one (``players``, ``seed`` and
            :class:`~haunted_kit.estate.state.EstateConfig` options).
        bots: bot seats (0-based): a list (each ``bot_kind``) or dict seat -> name/agent.
        auto_bots: bots play on by themselves after a human decision.
    """

    def __init__(self, state=None, *, players: int = 3, seed: int = 1, bots=None, size: float = 34,
                 auto_bots: bool = True, bot_kind: str = "greedy", **options):
        super().__init__()
        self.add_class("hk-estate-play")
        self.state = state if state is not None else new_game(players, seed, **options)
        items = bots.items() if isinstance(bots, dict) else [(b, bot_kind) for b in (bots or [])]
        self.bots = {}
        for seat, agent in items:
            if not 0 <= int(seat) < self.state.players:
                raise ValueError(f"bot seat {seat} is not a player index (0..{self.state.players - 1})")
            self.bots[int(seat)] = seat_bot(agent, GAME, self.state.config.seed, int(seat)) \
                if isinstance(agent, str) else agent
        self.auto_bots = auto_bots
        self.undo_stack: list = []
        self.message = ""
        self.last_refusal = None
        banner = self._init_errors()
        self.status = W.HTML()
        self.status.add_class("hk-status")
        self.message_label = W.HTML()
        self.message_label.add_class("hk-message")
        self.board = EstateBoard(self.state, size=size)
        self.board.on_click(self.guard(self.click_slot, "handling a click on a slot"))
        self.choices = W.VBox()
        self.choices.add_class("hk-choices")
        self.market = W.HTML()
        self.players_panel = W.HTML()
        self.log_panel = W.HTML()
        self.b_undo = W.Button(description="Undo", tooltip="take back the last decision")
        self.b_undo.add_class("hk-undo")
        self.b_undo.on_click(self.guard(lambda _b: self.undo(), "undoing"))
        self.b_bots = W.Button(description="Bots: play on", tooltip="bots decide until a human is to move")
        self.b_bots.add_class("hk-bot-play")
        self.b_bots.on_click(self.guard(lambda _b: self.play_on(), "letting the bots play"))
        side = W.VBox([W.HTML("<b>Your choices</b>"), self.choices, W.HBox([self.b_bots, self.b_undo]), self.market],
                      layout=W.Layout(padding="0 0 0 8px", min_width="360px"))
        self.children = [self.status, self.message_label, banner, W.HBox([self.board, side]), self.players_panel, self.log_panel]
        self.refresh()
        if self.auto_bots and self._bot_to_move():
            self.play_on()

    # ------------------------------------------------------------------ helpers
    def _bot_to_move(self) -> bool:
        p = self.state.current_player()
        return p is not None and p in self.bots

    def say(self, text: str, kind: str = "info") -> None:
        colour = {"info": "#000", "refusal": "#8a1c00"}.get(kind, "#000")
        self.message = text
        self.message_label.value = f'<div style="color:{colour};font-family:sans-serif">{escape(text)}</div>'

    def refresh(self) -> None:
        s = self.state
        p = s.current_player()
        human = p is not None and p not in self.bots
        legal = s.legal_actions() if human else []
        slots = [tuple(a.slot) for a in legal if isinstance(a, (A.PlaceTile, A.Join))]
        self.board.update(s)
        self.board.set_highlight(dict.fromkeys(slots))
        if s.is_terminal():
            who = "The game is over. " + ", ".join(f"P{q + 1} gold value {s.gold_value(q)}" for q in range(s.players)) \
                  + " (a kit measure)."
        else:
            who = f"Season {s.season} of {s.box.seasons}, {s.phase}: P{p + 1} to decide" + (" (bot)" if p in self.bots else "")
        self.status.value = f'<div style="font:14px sans-serif"><b>{escape(who)}</b> Display: ' \
                            f"{escape(', '.join(t.replace('_', ' ') for t in s.display))}</div>"
        buttons = []
        for a in legal:
            if isinstance(a, (A.PlaceTile, A.Join)):
                continue  # on the board
            b = W.Button(description=a.describe(), layout=W.Layout(width="auto"))
            b.add_class("hk-choice")
            b.on_click(self.guard(lambda _b, a=a: self.attempt(a), f"choosing: {a.describe()}"))
            buttons.append(b)
        if slots:
            buttons.append(W.HTML("<i>or click a highlighted slot to place a tile or join a land</i>"))
        self.choices.children = buttons
        self.market.value = market_html(s)
        self.players_panel.value = players_html(s)
        tail = (s.log or [])[-8:]
        self.log_panel.value = '<div style="font:12px sans-serif;color:#333">' + "<br>".join(escape(e.text) for e in tail) + "</div>"
        self.b_undo.disabled = not self.undo_stack
        self.b_bots.disabled = not self._bot_to_move()

    # ------------------------------------------------------------------ input
    def click_slot(self, slot):
        """A click on ``slot``: the legal PlaceTile/Join actions there (one tile kind ->
        applied; several -> offered as buttons), or the rules' reason why not."""
        s = self.state
        p = s.current_player()
        if p is None or p in self.bots:
            self.say("No decision of yours is due now.", "refusal")
            return []
        slot = tuple(slot)
        cands = [a for a in s.legal_actions() if isinstance(a, (A.PlaceTile, A.Join)) and tuple(a.slot) == slot]
        if len(cands) == 1:
            self.attempt(cands[0])
        elif cands:
            buttons = []
            for a in cands:
                b = W.Button(description=a.describe(), layout=W.Layout(width="auto"))
                b.add_class("hk-choice")
                b.on_click(self.guard(lambda _b, a=a: self.attempt(a), f"choosing: {a.describe()}"))
                buttons.append(b)
            self.choices.children = buttons
            self.say(f"Which tile for slot {slot}?")
        else:
            tried = A.Join(slot) if slot in s.lands else A.PlaceTile(s.display[0] if s.display else "forest", slot)
            why = s.why_not(tried)
            self.last_refusal = why
            self.say(f"Not on slot {slot}: {why}" if why else f"Nothing to do on slot {slot} now.", "refusal")
        return cands

    def attempt(self, action) -> bool:
        """Apply ``action`` for the human to move if legal, else show the rules' reason."""
        s = self.state
        why = s.why_not(action)
        if why is not None:
            self.last_refusal = why
            self.say(f"Not allowed: {action.describe()}: {why}", "refusal")
            return False
        said = self._apply(action)
        if self.auto_bots and self._bot_to_move():
            bots = self.play_on()
            if bots:
                self.say(said + " Then " + "; ".join(bots) + ".")
        return True

    def _apply(self, action) -> str:
        s = self.state
        before = s.copy()
        k = len(s.log or [])
        p = s.current_player()
        s.apply_action(action)
        self.undo_stack.append(before)
        said = [e.text for e in (s.log or [])[k:]][:3]
        self.say(f"P{p + 1}: {action.describe()}. " + " ".join(said))
        self.refresh()
        return self.message

    def undo(self) -> bool:
        """Take back decisions until a human is to move again (the bots' replies to the
        human's last decision go with it); the state is restored exactly."""
        if not self.undo_stack:
            self.say("Nothing to undo.", "refusal")
            return False
        self.state = self.undo_stack.pop()
        while self._bot_to_move() and self.undo_stack:
            self.state = self.undo_stack.pop()
        self.say("Your last decision was taken back.")
        self.refresh()
        return True

    def play_on(self) -> list[str]:
        """Bots decide until a human is to move or the game ends. Returns what they did,
        one short line per decision (also shown in the message line)."""
        done = []
        while self._bot_to_move() and len(done) < BOT_STEP_LIMIT:
            p = self.state.current_player()
            action = self.bots[p].act(self.state.copy())
            self._apply(action)
            done.append(f"P{p + 1} (bot): {action.describe()}")
        if done:
            self.say("; ".join(done) + ".")
        return done
