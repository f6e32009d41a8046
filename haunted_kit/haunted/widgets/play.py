"""A playable game in a notebook (or a Voila app): any seat human or bot.

    from haunted_kit.haunted.widgets import PlayView
    view = PlayView(players=4, mode="wanderer", seed=1, bots=[1, 2, 3])   # P1 human, P2-P4 greedy bots
    view                                                                  # display it

    PlayView(seed=7, players=3, bots={1: "random", 2: GreedyAgent(5)})    # agents by name or object
    PlayView(state)                                                       # continue an existing game, all seats human

Every choice comes from the engine: the field highlights the cells of the legal actions
of the human to move (with exploration costs), a click on a cell offers the legal
actions that mention it (one is applied at once, several are offered as buttons), and
buttons and dropdowns cover selling, training, learning, quests and the other choices.
An illegal attempt shows the engine's ``why_not`` reason. Bots decide one decision at a
time ("Bot: one decision") or play on until a human is to move. "Undo" takes back the
viewed seat's own last decision, restoring the state exactly, as long as no other seat
has decided since (it is disabled otherwise). Hidden quests are shown only for the seat
being viewed.

The view builds its widgets once and reuses them (buttons are relabelled, never
replaced), so the number of live widget models stays flat over a whole game, over undo
and over :meth:`PlayView.new_game`: a page can stay open for a whole lesson.

CSS classes for browser tests: ``hk-play`` (the view), ``canvas.hk-field`` (the board),
``hk-message`` (the message line), ``hk-status``, ``hk-error`` (error banner),
``hk-actions``, ``hk-choices`` (buttons for the current choice), ``hk-undo``,
``hk-bot-step``, ``hk-bot-play``, ``hk-end-turn``, ``hk-all-actions``, ``hk-ranking`` (the final
ranking with each player's quest breakdown, shown when the game is over).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import actions as A
from .. import rules as R
from ..tutorial import BUTTON_KINDS, places
from ..draw import html as H
from ...render import style as S
from ..draw.scene import status_line
from ..state import VISIBILITY
from ...events import shown_text
from ...hexgrid import name_cells
from ...protocol import describe_action
from ...visibility import decision_words
from ...widgets.errors import ErrorReporting
from .field import FieldWidget
from ...widgets.hints import HintPanel, hints_off, kernel_loop
from .panels import EventLogPanel, GameBoardPanel, PlayerBoards
from ...games import past_cap
from ...widgets.playview import (SIDE_PX, WRAP_CLASS, board_row, grey_with_reason, in_lines, line_layout, since_last_decision,
                                 message_html, pick_layout, resolve_bots, wrap_style)
from ..engine import GAME, new_game

CHOICE_BUTTONS = 8  # choice buttons made up front (more are made, once, when a choice needs them)


def action_cell(state, action):
    """The field cell an action mentions (axial), or ``None``: the target of explore,
    extract and ghost placement; the sensor's cell for build and contact."""
    if isinstance(action, (A.Explore, A.Extract, A.PlaceGhost)):
        return tuple(action.cell)
    if isinstance(action, (A.Build, A.Contact)):
        p = state.current_player()
        if p is not None:
            return state.field.cells[state.sensor[p]]
    return None


#: the turn's decisions made where the sensor stands (or on a lake next to it): offered as buttons
#: under "Your choices" as well as by a click on their cell (the kinds the tutorial declares so)
SENSOR_ACTIONS = tuple(A.ACTION_TYPES[k] for k in BUTTON_KINDS)


def candidates_for_cell(state, cell) -> list:
    """The legal actions that mention ``cell`` (what a click on it may mean)."""
    cell = tuple(cell)
    return [a for a in state.legal_actions() if action_cell(state, a) == cell]


def attempts_for_cell(state, cell) -> list:
    """Actions a click on ``cell`` might have meant when none is legal, so that the
    engine can say why not: a ghost placement during a spread; otherwise exploring
    there, the extractions the rules list for the sensor's position on that cell
    (:func:`haunted_kit.haunted.rules.extraction_options`), and on the sensor's own cell its
    buildings and a contact when a ghost is there."""
    cell = tuple(cell)
    if state.pending:
        if state.pending[-1].kind == "ghosts":
            return [A.PlaceGhost(cell)]
        return []
    p = state.current_player()
    if p is None:
        return []
    ctx = R.ctx_of(state)
    i = state.field.cell_index(cell)
    here = state.sensor[p]
    out = [] if i == here else [A.Explore(cell)]
    out += [A.Extract(cell, ctx.res_names[r]) for c, r in R.extraction_options(state, ctx, p) if c == i]
    if i == here:
        out += [A.Build(ctx.buildings[b].name) for b in ctx.build_here[i]]
        if state.ghosts[i]:
            out.append(A.Contact())
    return out


class PlayView(ErrorReporting, W.VBox):
    """A playable game.

    Args:
        state: a game to continue; by default a new one from ``players``, ``mode``,
            ``seed`` and any other :func:`haunted_kit.new_game` keyword.
        players, mode, seed: the new game's parameters.
        bots: the bot seats (0-based player indexes): a list (each plays ``bot_kind``)
            or a dict seat -> agent name (``"random"``, ``"greedy"``) or agent object
            (anything with ``act(state)``). The other seats are human.
        viewer: the seat whose hidden quests are shown: a player index, ``None``
            (everyone, for teaching and analysis) or ``"auto"`` (the only human seat;
            with several humans, the human to move; with none, everyone).
        size: hex size in pixels.
        auto_bots: after a human decision, bots play on by themselves until a human
            is to move (also at the start when there is a human seat).
        bot_delay: seconds between bot decisions when playing on in a live kernel
            (the page stays responsive; without a running event loop bots play at once).
        bot_kind: agent name for bot seats given as a list.
        hints: show the "Suggest a move" button (the search agent's top three moves,
            see :mod:`haunted_kit.widgets.hints`); ``False`` switches hints off (the
            page then says so in place of the button).
        hint_playouts: playouts each hint searches.
    """

    def __init__(self, state=None, *, players: int = 4, mode: str = "wanderer", seed: int = 1, bots=None,
                 viewer="auto", size: float = 34, auto_bots: bool = True, bot_delay: float = 0.4,
                 bot_kind: str = "greedy", hints: bool = True, hint_playouts: int = 1000, **game_kwargs):
        super().__init__()
        self.add_class("hk-play")
        if state is None:
            state = new_game(players=players, mode=mode, seed=seed, **game_kwargs)
        S.check_drawable(state)
        self.state = state
        self.bots = resolve_bots(GAME, bots, state.config.seed, bot_kind, state.config.players)
        self.humans = [p for p in range(state.config.players) if p not in self.bots]
        self._viewer_mode = viewer
        self.viewer = self._pick_viewer()
        self.auto_bots, self.bot_delay = auto_bots, bot_delay
        self.undo_stack: list = []
        self.bot_running = False
        self._stop = False
        self.candidates: list = []
        self.last_refusal = None
        self.message = ""
        self._listeners: list = []

        banner = self._init_errors()
        self.status = W.HTML(layout=line_layout(2))
        self.status.add_class("hk-status")
        self.message_label = W.HTML(layout=line_layout(3))
        self.message_label.add_class("hk-message")
        # every cell written q,r on the board, as the choices name it ("cell q,r")
        self.field = FieldWidget(state, size=size, viewer=self.viewer, show_coords=True)
        self.field.on_click(self.guard(self._on_cell, "handling a click on a cell"))
        self.field.on_miss(self.guard(self._on_miss, "handling a click off the field"))

        self._make_controls(state)
        actions = self._make_actions(hints, hint_playouts)
        self.board_panel = GameBoardPanel(state)
        self.player_panels = PlayerBoards(state, self.viewer)
        self.log_panel = EventLogPanel(state, self.viewer, last=10)
        self.ranking = W.HTML(layout=W.Layout(display="none"))  # the final ranking, once the game is over
        self.children = [self.status, self.message_label, banner, self.ranking,
                         board_row(self.field, W.VBox([actions, self.log_panel], layout=W.Layout(min_width="0", flex="1 1 340px")),
                                   W.Layout(flex_flow="row wrap")),  # a board too wide for the window pushes the buttons below it
                         self.board_panel, self.player_panels, wrap_style()]
        self.refresh()
        self.say(self._welcome())
        if self.auto_bots and self.humans and self._bot_to_move():
            self.play_on()

    def _button(self, text, cls, tip, fn, where) -> W.Button:
        b = W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto", flex="0 0 auto"))
        b.add_class(cls)
        b.on_click(self.guard(lambda _b: fn(), where))
        return b

    def _make_controls(self, state) -> None:
        """The choice, turn, sale, every-action, bot and undo controls (the pooled choice
        and skill buttons made up front)."""
        self.choices = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.choices.add_class("hk-choices")
        self._choice_pool: list = []     # buttons reused for every choice offered
        self._choice_actions: list = []  # the action behind each shown choice button
        self._learn_pool: list = []
        self._learn_skills: list = []
        self.b_end = self._button("End turn", "hk-end-turn", "end your turn", lambda: self.attempt(A.EndTurn()), "ending the turn")
        self.train_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.learn_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.learn_words = W.HTML(layout=W.Layout(max_width="100%"))  # each skill in play: its effect and cost, in words
        self.sell_pick = W.Dropdown(options=[], description="market option", style={"description_width": "initial"}, layout=pick_layout())
        self.b_sell = self._button("Sell", "hk-sell", "sell with the chosen market option", self._sell, "selling")
        self.all_pick = W.Dropdown(options=[], description="every legal action", style={"description_width": "initial"}, layout=pick_layout())
        self.all_pick.add_class("hk-all-actions")
        self.b_do = self._button("Do it", "hk-do", "apply the chosen legal action", self._do_picked, "applying the chosen action")
        self.b_bot_step = self._button("Bot: one decision", "hk-bot-step", "the bot to move decides once", self.bot_step,
                                       "letting a bot decide")
        self.b_bot_play = self._button("Bots: play on", "hk-bot-play", "bots decide until a human is to move", self.play_on,
                                       "letting the bots play")
        self.b_stop = self._button("Stop", "hk-bot-stop", "stop the bots after their current decision", self.stop, "stopping the bots")
        self.b_undo = self._button("Undo", "hk-undo", "take back your own last decision", self.undo, "undoing")
        self.train_buttons = []
        for name in state.config.box.tracks:
            b = self._button(name, "hk-train", A.Train(name).describe(), lambda n=name: self.attempt(A.Train(n)), f"training {name}")
            self.train_buttons.append(b)
        self.train_box.children = self.train_buttons
        # made up front so that a game's first multi-way choices and its skills add no models
        self._pooled(self._choice_pool, CHOICE_BUTTONS, "hk-choice", self._choice_clicked)
        self._pooled(self._learn_pool, len(state.skills), "hk-learn", self._learn_clicked)

    def _make_actions(self, hints: bool, hint_playouts: int) -> W.VBox:
        """The actions column: the choices, the turn's buttons, every legal action, the bot
        buttons and the hint panel (or the words saying hints are off)."""
        wrap = W.Layout(flex_flow="row wrap")  # rows of buttons wrap in a narrow window instead of cutting labels
        fixed = W.Layout(flex="0 0 auto")  # a row's name keeps its width; its buttons wrap beside it
        # where the rules allow training and learning, on the row's name (newcomers pressed them on a plain)
        at = f" (in {places(self.state, 'train_and_learn')})"
        self.turn_box = W.VBox([
            W.HBox([self.b_end]),
            W.HBox([W.Label(f"Train{at}:", layout=fixed), self.train_box]),
            W.HBox([W.Label(f"Learn{at}:", layout=fixed), self.learn_box]), self.learn_words,
            W.HBox([self.sell_pick, self.b_sell], layout=wrap),
        ])
        actions = W.VBox([
            W.HTML("<b>Your choices</b>"), self.choices, self.turn_box,
            W.HBox([self.all_pick, self.b_do], layout=wrap),
            W.HBox([self.b_bot_step, self.b_bot_play, self.b_stop, self.b_undo], layout=wrap),
            HintPanel(self, kernel_loop, hint_playouts) if hints else hints_off(),
        ], layout=W.Layout(min_width=f"min({SIDE_PX}px, 100%)", padding="0 0 0 8px"))  # a phone: the column's width
        actions.add_class("hk-actions")
        self.hint_panel = actions.children[-1] if hints else None
        self.actions_box = actions
        return actions

    # ------------------------------------------------------------------ seats
    def _pick_viewer(self):
        mode = self._viewer_mode
        if mode != "auto":
            return mode
        if not self.humans:
            return None
        if len(self.humans) == 1:
            return self.humans[0]
        p = self.state.current_player()
        if p in self.humans:
            return p
        return getattr(self, "viewer", self.humans[0])

    def is_bot(self, p) -> bool:
        return p in self.bots

    def _bot_to_move(self) -> bool:
        p = self.state.current_player()
        return p is not None and p in self.bots and not self.state.is_terminal()

    def _human_to_move(self):
        p = self.state.current_player()
        return p if (p is not None and p not in self.bots) else None

    def _welcome(self) -> str:
        seats = ", ".join(f"{S.player_name(p)} {'bot' if p in self.bots else 'human'}" for p in range(self.state.config.players))
        return f"Seats: {seats}. Click a highlighted cell or use the buttons."

    # ------------------------------------------------------------------ messages
    def say(self, text: str, kind: str = "info") -> None:
        """Show ``text`` in the message line (``kind``: info, refusal, ignored); a kit ruling
        the engine's sentence names is cited as the kit's (``kit ruling 32``)."""
        colour = {"info": "#000", "refusal": "#8a1c00", "ignored": "#5a4a00"}.get(kind, "#000")
        text = self.message = shown_text(text)
        self.message_label.value = message_html(text, colour)  # whole sentences, the latest shown; a cited ruling opens in place
        if getattr(self, "field", None) is not None:
            self.field.announce(text)  # the live region says it too (keyboard and screen-reader play)

    def on_change(self, callback) -> None:
        """``callback(view)`` after every change of the state (decision or undo)."""
        self._listeners.append(callback)

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        """Redraw everything from :attr:`state` (field layers only where they changed)."""
        s = self.state
        self.viewer = self._pick_viewer()
        human = self._human_to_move()
        legal = s.legal_actions() if human is not None and not self.bot_running else []
        self.field.update(s, viewer=self.viewer)
        highlight = {}
        p = s.current_player()
        for a in legal:
            c = action_cell(s, a)
            if c is None:
                continue
            if isinstance(a, A.Explore):
                highlight[c] = R.explore_cost(s, p, s.field.cell_index(c))
            else:
                highlight.setdefault(c, "")
        self.field.set_highlight(highlight)
        self.board_panel.update(s)
        self.player_panels.update(s, self.viewer)
        # what happened since their last decision
        self.log_panel.update(s, self.viewer, since=since_last_decision(self.undo_stack, self.humans, self.viewer))
        ranking = H.ranking_html(s)
        if self.ranking.value != ranking:
            self.ranking.value = ranking
            self.ranking.layout.display = "" if ranking else "none"
        who = " (bot)" if p is not None and p in self.bots else ""  # a human's line already says "(you)" or names them
        self.status.value = in_lines(f'<div style="font-family:sans-serif;font-size:14px"><b>{escape(status_line(s, self.viewer))}'
                                     f"</b>{escape(who)}</div>", 2, "status")
        self._refresh_controls(legal, human)

    def _refresh_controls(self, legal, human) -> None:
        s = self.state
        box = s.config.box
        in_turn = human is not None and s.phase == "turns" and not s.pending
        self.turn_box.layout.display = "" if in_turn else "none"
        # sub-decisions that are not on the board: buttons from the legal actions
        if human is not None and s.pending and s.pending[-1].kind != "ghosts":
            self._set_choices(legal)
        elif not self.candidates:
            # in a turn, what the sensor's own position allows (extract, build, contact) is a button
            # too: a newcomer did not think of clicking the cell their sensor stands on
            self._set_choices([a for a in legal if isinstance(a, SENSOR_ACTIONS)] if in_turn else [])
        if in_turn:
            ctx = R.ctx_of(s)
            for t, (name, b) in enumerate(zip(box.tracks, self.train_buttons)):
                cost = R.training_cost(s, ctx, human, t)
                b.description = f"{name} ({'full' if cost is None else cost})"
            self._learn_skills = list(s.skills)
            buttons = self._pooled(self._learn_pool, len(self._learn_skills), "hk-learn", self._learn_clicked)
            for b, k in zip(buttons, self._learn_skills):  # its cost on the button, its effect in the list under them
                b.description = f"skill {k} ({' + '.join(box.skills[k].cost)})"
                b.tooltip = A.skill_card_words(s, k)
            if list(self.learn_box.children) != buttons:
                self.learn_box.children = buttons
            said = "".join(f"<li>{escape(A.skill_card_words(s, k))}</li>" for k in self._learn_skills)
            self.learn_words.value = f'<ul style="margin:0;padding-left:1.2em;font-size:13px">{said}</ul>'
            sells = [(describe_action(a, s), a) for a in legal if isinstance(a, A.Sell)]  # each with what it pays
            self.sell_pick.options = sells or [("no sale is possible now", None)]
            self.sell_pick.index = 0
        opts = [(describe_action(a, self.state), a) for a in legal]  # cells as the board writes them, cards with their words
        self.all_pick.options = opts or [("(no decision for you now)", None)]
        self.all_pick.index = 0
        self.all_pick.disabled = not opts
        none = "the game is over." if self.state.is_terminal() else "no decision of yours is due now."
        grey_with_reason(self.b_do, None if opts else none, "apply the chosen legal action")
        bot_next = self._bot_to_move()
        bots_why = "the bots are playing." if self.bot_running else None if bot_next else "no bot is to decide now."
        grey_with_reason(self.b_bot_step, bots_why, "the bot to move decides once")
        grey_with_reason(self.b_bot_play, bots_why, "bots decide until a human is to move")
        grey_with_reason(self.b_stop, None if self.bot_running else "no bot is playing.",
                         "stop the bots after their current decision")
        grey_with_reason(self.b_undo, self._undo_refusal(), "take back your own last decision")
        if getattr(self, "hint_panel", None) is not None:
            self.hint_panel.update()

    def _pooled(self, pool: list, n: int, cls: str, on_click) -> list:
        """The first ``n`` buttons of ``pool``, creating only the missing ones; a button's
        handler gets its position in the pool."""
        while len(pool) < n:
            i = len(pool)
            b = W.Button(layout=W.Layout(width="auto", flex="0 1 auto"))
            b.add_class(cls)
            b.add_class(WRAP_CLASS)  # a long choice's words wrap in a narrow column (a phone)
            b.on_click(lambda _b, i=i: on_click(i))
            pool.append(b)
        return pool[:n]

    def _choice_clicked(self, i: int) -> None:
        if i < len(self._choice_actions):
            a = self._choice_actions[i]
            self.guard(lambda: self.attempt(a), f"choosing: {a.describe()}")()

    def _learn_clicked(self, i: int) -> None:
        if i < len(self._learn_skills):
            k = self._learn_skills[i]
            self.guard(lambda: self.attempt(A.Learn(k)), f"learning skill {k}")()

    def _set_choices(self, actions) -> None:
        actions = list(actions)
        if actions == self._choice_actions and len(self.choices.children) == len(actions):
            return
        buttons = self._pooled(self._choice_pool, len(actions), "hk-choice", self._choice_clicked)
        self._choice_actions = actions
        for b, a in zip(buttons, actions):  # a quest, a bonus reward, a skill: named with what it gives
            b.description = describe_action(a, self.state)
        self.choices.children = buttons

    # ------------------------------------------------------------------ human input
    def _busy_reason(self):
        if self.bot_running:
            p = self.state.current_player()
            who = S.player_name(p) if p is not None else "a bot"
            return f"The bots are playing ({who} is deciding); your input was ignored. Press Stop to interrupt."
        if self.state.is_terminal():
            return "The game is over; " + status_line(self.state)
        p = self.state.current_player()
        if p is None:
            return "No decision is due now."
        if p in self.bots:
            return (f"It is {S.player_name(p)}'s decision and {S.player_name(p)} is a bot; your input was ignored. "
                    "Press 'Bot: one decision' or 'Bots: play on'.")
        return None

    def _on_miss(self, x, y) -> None:
        self.say("That point is outside the field: click on a cell.", "ignored")

    def _on_cell(self, cell) -> None:
        busy = self._busy_reason()
        if busy:
            self.say(busy, "ignored")
            return
        self.click_action(cell)

    def click_action(self, cell):
        """What a click on ``cell`` does for the human to move: one legal candidate is
        applied, several are offered as buttons, none shows the engine's reason (and the
        field's "What is this?" line says what is on the cell)."""
        s = self.state
        cands = candidates_for_cell(s, cell)
        self.candidates = cands
        if len(cands) == 1:
            self.candidates = []
            self.attempt(cands[0])
        elif cands:
            self._set_choices(cands)
            self.say(f"Several things can be done on {s.field.describe(cell)}: choose one.")
        else:
            self._set_choices([])
            if self.field.whatis is not None:  # no move here: say what is on the cell
                self.field.whatis.answer_cell(cell)
            reasons, seen = [], set()
            for a in attempts_for_cell(s, cell):
                why = s.why_not(a)
                if why is not None and str(why) not in seen:
                    seen.add(str(why))
                    reasons.append((a, why))
            self.last_refusal = reasons[0][1] if reasons else None
            if reasons:
                self.say(f"Nothing you can do on {s.field.describe(cell)} now. "
                         + " ".join(f"{a.describe().capitalize()}: {why}." for a, why in reasons[:3]), "refusal")
            else:
                self.say(f"Nothing to do on {s.field.describe(cell)} now.", "refusal")
        return cands

    def attempt(self, action) -> bool:
        """Try ``action`` for the human to move: apply it if legal, else show the
        engine's reason. Returns whether it was applied."""
        busy = self._busy_reason()
        if busy:
            self.say(busy, "ignored")
            return False
        if action is None:
            return False
        why = self.state.why_not(action)
        if why is not None:
            self.last_refusal = why
            what = action.describe() if hasattr(action, "describe") else repr(action)
            self.say(f"Not allowed: {what}: {why}", "refusal")
            return False
        self._apply(action)
        if self.auto_bots and self._bot_to_move():
            self.play_on()
        return True

    def _sell(self) -> None:
        a = self.sell_pick.value
        if a is None:
            s = self.state
            opt = s.config.box.market_cards[s.market][0]
            a = A.Sell(1, (s.config.box.resources[0],) * opt.count)
        self.attempt(a)

    def _do_picked(self) -> None:
        if self.all_pick.value is None:
            self.say("Choose an action in the list first.", "ignored")
            return
        self.attempt(self.all_pick.value)

    def click_cell(self, cell) -> None:
        """Click at the pixel centre of ``cell`` (through the canvas' message path)."""
        self.field.click_cell(cell)

    # ------------------------------------------------------------------ applying
    def _apply(self, action) -> None:
        s = self.state
        before = s.copy()
        k = len(s.log) if s.log is not None else 0
        p = s.current_player()
        s.apply_action(action)  # raises IllegalAction with the state unchanged
        self.undo_stack.append((before, p))
        self.candidates = []
        self._set_choices([])
        said = [e.text for e in VISIBILITY.log_for((s.log or [])[k:], self.viewer)]
        head = f"{S.player_name(p)}{' (bot)' if p in self.bots else ''}:"
        if self.viewer is None or self.viewer == p:
            head += f" {action.describe()}."
        elif not said:  # another seat's decision is told by its events as the viewer sees them, never its words
            head += f" {decision_words(GAME, s, k, p, self.viewer, '')}."
        self.say(head + (" " + " ".join(said[:4]) if said else "") + (" ..." if len(said) > 4 else ""))
        self.refresh()
        for cb in list(self._listeners):
            cb(self)

    def _undo_seat(self):
        """The seat Undo acts for: the viewed seat, else the human to move."""
        return self.viewer if self.viewer is not None else self._human_to_move()

    def _undo_refusal(self):
        """Why Undo cannot be used now (a sentence), or ``None`` when it can."""
        if self.bot_running:
            return "The bots are playing; press Stop before undoing."
        if self.state.is_terminal():
            return "The game is over and its result stands: Undo cannot reopen it (start a new game instead)."
        if not self.undo_stack:
            return "Nothing to undo."
        seat = self._undo_seat()
        last = self.undo_stack[-1][1]
        if seat is None or last not in self.humans:
            who = "chance" if last is None else f"{S.player_name(last)} (bot)"
            return f"Nothing of yours to undo: {who} decided last."
        if last != seat:
            return (f"Nothing of {S.player_name(seat)}'s to undo: {S.player_name(last)} has decided since; "
                    "Undo takes back only your own last decision.")
        return None

    def undo(self) -> bool:
        """Take back the viewed seat's own last decision, restoring the state exactly.

        Allowed only while no other seat (bot or human) has decided since; otherwise the
        message line says why and nothing changes. Returns whether a decision was taken back.
        """
        why = self._undo_refusal()
        if why is not None:
            self.say(why, "ignored")
            return False
        self.state, seat = self.undo_stack.pop()
        self.candidates = []
        self._set_choices([])
        self.say(f"{S.player_name(seat)}'s last decision was taken back.")
        self.refresh()
        for cb in list(self._listeners):
            cb(self)
        return True

    def new_game(self, state=None, **game_kwargs) -> bool:
        """Start another game in this view, reusing its widgets: ``state`` or
        :func:`haunted_kit.new_game` with the current game's players, mode and box,
        overridden by ``game_kwargs`` (``seed=...``). The seats keep their bots; the undo
        history is cleared. Returns False (with a message) while the bots are playing. Raises
        ConfigError for bad parameters and ValueError for another number of players (the
        view keeps its game either way)."""
        if self.bot_running:
            self.say("The bots are playing; press Stop before starting a new game.", "ignored")
            return False
        if state is None:
            cfg = self.state.config
            kw = {"players": cfg.players, "mode": cfg.mode, "box": cfg.box, "seed": cfg.seed + 1}
            kw.update(game_kwargs)
            state = new_game(**kw)
        S.check_drawable(state)
        if state.config.players != self.state.config.players:
            raise ValueError(f"this view has {self.state.config.players} seats; start a new view for "
                             f"{state.config.players} players")
        self.state = state
        self.undo_stack.clear()
        self.candidates = []
        self._set_choices([])
        self.refresh()
        self.say(self._welcome())
        for cb in list(self._listeners):
            cb(self)
        if self.auto_bots and self.humans and self._bot_to_move():
            self.play_on()
        return True

    # ------------------------------------------------------------------ bots
    def bot_step(self) -> bool:
        """The bot to move makes one decision. Returns whether one was made: not when no
        bot is to move, nor at the game's decision cap (:func:`haunted_kit.games.past_cap`:
        the message line names the seed and the box, and the bots stop)."""
        if not self._bot_to_move():
            self.say("No bot is to move." if not self.state.is_terminal() else "The game is over.", "ignored")
            return False
        capped = past_cap(GAME, self.state, what="bots")
        if capped is not None:
            self._stop = True
            self.say(str(capped), "refusal")
            return False
        p = self.state.current_player()
        action = self.bots[p].act(self.state.copy())
        why = self.state.why_not(action)
        if why is not None:
            raise RuntimeError(f"the bot of {S.player_name(p)} chose an illegal action {action!r}: {why}")
        self._apply(action)
        return True

    def play_on(self, sync: bool | None = None) -> None:
        """Bots decide until a human is to move or the game ends. In a running kernel
        they decide one by one every :attr:`bot_delay` seconds (clicks meanwhile are
        ignored with a message; Stop interrupts); otherwise (tests, scripts) at once."""
        if self.bot_running:
            return
        if not self._bot_to_move():
            self.say("No bot is to move." if not self.state.is_terminal() else "The game is over.", "ignored")
            return
        loop = kernel_loop()
        self._stop = False
        if sync or loop is None:
            self.bot_running = True
            try:
                while self._bot_to_move() and not self._stop:  # bot_step stops them at the decision cap
                    self.bot_running = False  # let bot_step apply
                    self.bot_step()
                    self.bot_running = True
            finally:
                self.bot_running = False
                self.refresh()
            return
        self.bot_running = True
        self.refresh()
        self._loop = loop
        loop.call_later(self.bot_delay, self.guard(self._tick, "letting the bots play"))

    def _tick(self) -> None:
        try:
            if self._stop or not self._bot_to_move():
                self.bot_running = False
                self.refresh()
                return
            self.bot_running = False
            self.bot_step()
            self.bot_running = True
        except BaseException:
            self.bot_running = False
            self.refresh()
            raise
        if self._bot_to_move() and not self._stop:
            self._loop.call_later(self.bot_delay, self.guard(self._tick, "letting the bots play"))
        else:
            self.bot_running = False
            self.refresh()

    def stop(self) -> None:
        """Stop the bots after their current decision."""
        self._stop = True
        if self.bot_running:
            self.say("The bots stop after this decision.")
