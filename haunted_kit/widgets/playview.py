"""A play view against bots for any game of the kit: the machinery every game's play view shares.

:class:`GamePlayView` takes a Game (the protocol's :class:`~haunted_kit.protocol.Game`) and
one of its states, and gives:

* seats: bot seats from a list or a dict of agent specs or agents (:func:`haunted_kit.bots.seat_bot`),
  the other seats human;
* every choice from ``legal_actions()``: a row of buttons (the game's :meth:`GamePlayView.menu`,
  which may also offer actions that are not legal now, so a click shows the rules' reason
  from ``why_not()``) and a list of every legal action with "Do it";
* bots that play on after a human decision (or on "Bots: play on");
* undo of a human seat's own last decision (the bots' replies since go with it), restoring
  the state exactly; refused, with a sentence, when another human has decided since;
* "Suggest a move" (:class:`~haunted_kit.widgets.hints.HintPanel`), or a note when a teacher
  switched hints off;
* keyboard play (:class:`~haunted_kit.widgets.access.FieldKeys`): with the keyboard element
  focused, the arrow keys move a cursor through the legal actions, Enter or Space plays the
  one under the cursor, Home goes back to the first; its ARIA live region says the cursor's
  action and the last message;
* a message line (``hk-message``), a status line (``hk-status``) and the error banner
  (``hk-error``, :mod:`haunted_kit.widgets.errors`).

A game's view subclasses it and adds its own panels (:meth:`GamePlayView.game_parts`,
:meth:`GamePlayView.refresh_panels`) and words (:meth:`GamePlayView.status_text`). Bots play
synchronously (a companion game's bot decides in milliseconds). CSS classes:
``hk-game-play``, ``hk-status``, ``hk-message``, ``hk-choices``, ``hk-choice``, ``hk-all-actions``,
``hk-do``, ``hk-bot-play``, ``hk-undo``, ``hk-keys``.
"""

from __future__ import annotations

import contextlib
import re

from html import escape

import ipywidgets as W

from ..bots import default_agent, seat_bot
from ..games import past_cap
from ..events import rulings_html, shown_text
from ..protocol import describe_action, sample_chance
from ..tableview import SINCE_LINE, log_window, observation_html, recent_log_html, seen_observation_and_log  # noqa: F401
from ..visibility import PUBLIC, decision_words, seen_events
from .access import ACT_KEYS, ARROWS, HOME_KEY, FieldKeys
from ..render.style import scroll_region
from .errors import ErrorReporting
from .hints import HintPanel, hints_off, kernel_loop

#: the most actions :meth:`GamePlayView.menu` shows as buttons by default (more go to the list only)
MENU_BUTTONS = 10
_COLOURS = {"info": "#000", "refusal": "#8a1c00", "ignored": "#555"}


def row_layout() -> W.Layout:
    """The layout of a play view's row of board and side panel: it wraps, so in an output
    area too narrow for both the side panel (choices, hints) goes below the board instead
    of running over it or being cut."""
    return W.Layout(flex_flow="row wrap", align_items="flex-start", max_width="100%")


#: the CSS classes of a play view's row of board and side panel, and of its board's box
#: (:func:`board_row`): a page holding the view may lay them out for its window (the tutorial
#: keeps the choices beside the board on a laptop, :mod:`haunted_kit.widgets.tutorial`)
BOARD_ROW, BOARD_BOX = "hk-board-row", "hk-board-box"


def board_row(board, side, layout: W.Layout | None = None) -> W.HBox:
    """A play view's row of ``board`` and ``side`` (its choices), laid out by ``layout``
    (default :func:`row_layout`), the row and the board marked :data:`BOARD_ROW` and
    :data:`BOARD_BOX`."""
    board.add_class(BOARD_BOX)
    row = W.HBox([board, side], layout=layout or row_layout())
    row.add_class(BOARD_ROW)
    return row


#: the width a play view's side panel asks for beside a board (its rows of buttons whole)
SIDE_PX = 340


def side_layout() -> W.Layout:
    """The layout of a play view's side panel (choices, hints, a game's tables): at least
    :data:`SIDE_PX` wide beside a board, growing into the room there; where the row has
    less room it goes under the board, as wide as the row (a phone's 274 px output area):
    its rows of buttons wrap there (:data:`WRAP_CSS`), never cut nor scrolled sideways."""
    return W.Layout(padding="0 0 0 8px", min_width=f"min({SIDE_PX}px, 100%)", flex=f"1 1 {SIDE_PX}px",
                    max_width="100%")


#: the class of a button whose words wrap onto more lines in a narrow column (a phone)
#: instead of being cut, and the style that does it (:func:`wrap_style`)
WRAP_CLASS = "hk-wrap"
WRAP_CSS = (f"<style>.{WRAP_CLASS} {{ white-space: normal !important; height: auto !important; min-height: 28px; "
            "max-width: 100%; text-align: left; overflow-wrap: anywhere; }</style>")


def wrap_style() -> W.HTML:
    """A widget of no height holding :data:`WRAP_CSS` (put once in a view)."""
    return W.HTML(WRAP_CSS, layout=W.Layout(height="0px", margin="0px"))


def pick_layout() -> W.Layout:
    """The layout of a play view's list (every legal action, a market option): 240 px beside
    its button where there is room, else the whole row's width, its button under it."""
    return W.Layout(width="auto", flex="1 1 240px", min_width="0", max_width="100%")


#: one line of 14 px text at line height 1.4, in CSS px
LINE_PX = 20


def line_layout(lines: int) -> W.Layout:
    """The layout of a line of words above a board (status, message, a lesson): ``lines``
    lines high (:data:`LINE_PX` each) whatever it says, so the board below never moves when
    the words change and a click meant for a cell lands on it. Its HTML goes through
    :func:`in_lines`, which scrolls longer words inside it."""
    return W.Layout(height=f"{lines * LINE_PX}px", overflow="hidden", max_width="100%", flex="0 0 auto")


#: a shadow along an edge of a scrolling box past which more words are hidden, none at an edge
#: the words end at (the covers scroll with the words, the shadows stay): the box visibly scrolls
SCROLL_CUE = ("background:linear-gradient(#fff 30%,rgba(255,255,255,0)),"
              "linear-gradient(rgba(255,255,255,0),#fff 70%) 0 100%,"
              "radial-gradient(farthest-side at 50% 0,rgba(0,0,0,.3),rgba(0,0,0,0)),"
              "radial-gradient(farthest-side at 50% 100%,rgba(0,0,0,.3),rgba(0,0,0,0)) 0 100%;"
              "background-repeat:no-repeat;background-size:100% 16px,100% 16px,100% 8px,100% 8px;"
              "background-attachment:local,local,scroll,scroll")


def in_lines(html: str, lines: int, label: str) -> str:
    """``html`` in a box ``lines`` lines high that scrolls when the words are longer, with a
    shadow on the edge past which more words are hidden (:data:`SCROLL_CUE`); the box is a
    named region reachable by Tab (:func:`~haunted_kit.render.style.scroll_region`), so a
    keyboard user can scroll it too. Its line height is :data:`LINE_PX` whatever the page's
    style, so ``lines`` lines of words show whole (a two-line status on a phone is not cut).
    It shows the words' start: a message longer than its box keeps its latest sentences in view
    by folding the earlier ones (:func:`message_html`), never by scrolling to its end, which
    would start the box in the middle of a sentence."""
    style = f"height:{lines * LINE_PX}px;line-height:{LINE_PX}px;overflow:auto;{SCROLL_CUE}"
    return f'<div{scroll_region(label)} style="{style}">{html}</div>'


#: about how many characters of 14 px text one line of a message holds on a laptop (the line is as
#: wide as the game); a message longer than its box keeps its earlier sentences folded (:func:`message_html`)
MESSAGE_LINE_CHARS = 90
#: where a message may be cut into whole sentences: after a full stop (or a semicolon joining
#: two players' decisions) before a capital letter
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+(?=[A-Z])")


def message_parts(text: str) -> list[str]:
    """``text`` cut into whole sentences (:data:`_SENTENCE_BREAK`), in order; joined by spaces
    they are ``text`` again (its runs of spaces aside)."""
    return [p for p in _SENTENCE_BREAK.split(text.strip()) if p]


def message_html(text: str, colour: str = "#000", lines: int = 3) -> str:
    """A play view's message line: ``text`` in a box ``lines`` lines high (:func:`in_lines`) that
    never starts with a sentence cut at its start. When the words would not fit (about
    :data:`MESSAGE_LINE_CHARS` a line), the latest whole sentences show under a closed
    **Show the N earlier sentences** (``<details class="hk-earlier">``, opened by a click, or by
    Tab and Enter) that holds the rest, in order; a sentence longer than the box shows its start
    and scrolls. A kit ruling the words cite opens in place (:func:`~haunted_kit.events.rulings_html`)."""
    parts = message_parts(text)
    room = lines * MESSAGE_LINE_CHARS
    latest = parts
    if len(text) > room:
        budget, latest = (lines - 1) * MESSAGE_LINE_CHARS, parts[-1:]
        for part in reversed(parts[:-1]):
            if sum(len(q) + 1 for q in latest) + len(part) > budget:
                break
            latest = [part] + latest
    earlier = parts[:len(parts) - len(latest)]
    style = f"color:{colour};font-family:sans-serif"
    fold = (f'<details class="hk-earlier" style="{style}"><summary style="cursor:pointer;color:#1a4f7a">Show the '
            f"{len(earlier)} earlier sentence{'s' if len(earlier) != 1 else ''}</summary>"
            f"<div>{escape(' '.join(earlier))}</div></details>") if earlier else ""
    return in_lines(f'{fold}<div style="{style}">{escape(" ".join(latest))}</div>' + rulings_html(text), lines, "message")


def grey_with_reason(button, why, tip: str) -> None:
    """Grey ``button`` out when ``why`` (a sentence) says it cannot be used now, with that
    sentence as its tooltip (hover, long press, a screen reader's description), so a greyed
    button always says why; else enable it with its usual ``tip``."""
    button.disabled = why is not None
    button.tooltip = f"Not now: {why}" if why is not None else tip


def first_of_each(actions, key) -> list:
    """The first of ``actions`` for each value of ``key(action)``, in order (a row of
    buttons that reaches every kind of a long list)."""
    seen: dict = {}
    for a in actions:
        seen.setdefault(key(a), a)
    return list(seen.values())


def resolve_bots(game, bots, seed: int, kind: str, players: int) -> dict:
    """``{seat: agent}`` from a list of seats (each plays ``kind``) or a dict seat -> agent
    spec (``"greedy"``, ``"search[playouts=100]"``) or agent (anything with ``act(state)``).

    Raises:
        ValueError: a seat that is not a player index (0..players-1), or an unknown spec.
        TypeError: an agent without ``act``.
    """
    items = bots.items() if isinstance(bots, dict) else [(b, kind) for b in (bots or [])]
    out = {}
    for seat, agent in items:
        if not 0 <= int(seat) < players:
            raise ValueError(f"bot seat {seat} is not a player index (0..{players - 1})")
        if isinstance(agent, str):
            agent = seat_bot(agent, game, seed, int(seat))
        if not hasattr(agent, "act"):
            raise TypeError(f"bot for seat {seat} has no act(state) method: {agent!r}")
        out[int(seat)] = agent
    return out


def game_seed(state) -> int:
    """The seed of a state's game: ``state.config.seed`` or ``state.seed`` (0 if neither)."""
    config = getattr(state, "config", None)
    return int(getattr(config, "seed", getattr(state, "seed", 0)) or 0)


def _log_length(state) -> int:
    log = getattr(state, "log", None)
    return len(log) if isinstance(log, list) else len(state.events())


def since_last_decision(undo_stack, humans, viewer) -> int | None:
    """:func:`last_decision_start` for a play view: the last decision of its ``viewer`` (a
    seat), or of any of its ``humans`` at a shared screen (``viewer`` ``None`` or ``PUBLIC``);
    ``undo_stack`` its ``(state before, seat)`` pairs. Every game's play view calls this one."""
    return last_decision_start(undo_stack, humans if viewer in (None, PUBLIC) else (viewer,))


def last_decision_start(undo_stack, seats) -> int | None:
    """Where "what happened since your last decision" begins: the log's length just before the
    latest decision of one of ``seats`` in ``undo_stack`` (a play view's ``(state before, seat)``
    pairs, oldest first), or ``None`` when none of them has decided yet."""
    for before, seat in reversed(undo_stack):
        if seat in seats:
            return _log_length(before)
    return None


def _seen_texts(game, state, since: int, viewer) -> list[str]:
    """The sentences of ``state``'s events from ``since`` as ``viewer`` may see them."""
    log = getattr(state, "log", None)
    if isinstance(log, list):
        return [e.text for e in seen_events(game, log[since:], viewer)]
    return list(state.events(viewer).text[since:])


class GamePlayView(ErrorReporting, W.VBox):
    """A game against bots (see the module docstring).

    Args:
        game: the Game (its ``agents`` name the bots; its ``name`` labels the view).
        state: the game to play (continued as it is).
        bots: bot seats (0-based): a list (each plays ``bot_kind``) or a dict seat -> spec or agent.
        auto_bots: after a human decision, bots play on until a human is to move (also at the start).
        bot_kind: the agent spec for bot seats given as a list (default: the game's default
            agent, :func:`~haunted_kit.bots.default_agent`: greedy when it has one, else random).
        hints: show "Suggest a move"; ``False`` shows that hints are off.
        hint_playouts: playouts each hint searches.
        keyboard: show the keyboard element with its live region.

    Raises:
        ValueError: a bot seat that is not a player index or an unknown agent spec.
    """

    css_class = "hk-game-play"

    def __init__(self, game, state, *, bots=None, auto_bots: bool = True, bot_kind: str | None = None,
                 hints: bool = True, hint_playouts: int = 1000, keyboard: bool = True):
        super().__init__()
        self.add_class(self.css_class)
        self.game = game
        self.state = state
        kind = default_agent(game) if bot_kind is None else bot_kind
        self.bots = resolve_bots(game, bots, game_seed(state), kind, state.players)
        self.humans = [p for p in range(state.players) if p not in self.bots]
        self.auto_bots = auto_bots
        self.bot_running = False  # bots play synchronously; the hint panel asks
        self.undo_stack: list = []  # (state before, seat that decided) per decision
        self.message = ""
        self.last_words = ""  # the last decision as the viewer may read it (:func:`~haunted_kit.visibility.decision_words`)
        self.last_refusal = None
        self.legal: list = []
        self.cursor = 0
        self._listeners: list = []
        self._menu_actions: list = []
        self._menu_pool: list = []

        self.banner = self._init_errors()
        self.status = W.HTML(layout=line_layout(2))
        self.status.add_class("hk-status")
        self.seen = W.HTML()
        self.seen.add_class("hk-seen")
        self.message_label = W.HTML(layout=line_layout(3))
        self.message_label.add_class("hk-message")
        self.choices = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.choices.add_class("hk-choices")
        self.all_pick = W.Dropdown(options=[], description="every legal action", style={"description_width": "initial"},
                                   layout=pick_layout())
        self.all_pick.add_class("hk-all-actions")
        self._syncing = False  # the kit itself is setting the list's value (a refresh, the keyboard's cursor)
        self.all_pick.observe(self.guard(self._picked_in_list, "following the chosen action"), "value")
        self.b_do = self._button("Do it", "hk-do", "apply the chosen legal action", self._do_picked,
                                 "applying the chosen action")
        self.b_bots = self._button("Bots: play on", "hk-bot-play", "bots decide until a human is to move",
                                   self.play_on, "letting the bots play")
        self.b_undo = self._button("Undo", "hk-undo", "take back your own last decision", self.undo, "undoing")
        self.hint_panel = HintPanel(self, kernel_loop, playouts=hint_playouts) if hints else None
        self.keypad = None
        if keyboard:
            self.keypad = FieldKeys(label="Your choices: the arrow keys move through your legal actions, Enter plays "
                                          "the one under the cursor, Home goes back to the first.")
            self.keypad.on_msg(self.guard(self._on_key_msg, "handling a key"))
        # rows wrap in a narrow panel: the list never pushes "Do it" out of sight or cuts its label
        self.list_row = W.HBox([self.all_pick, self.b_do], layout=W.Layout(flex_flow="row wrap", max_width="100%"))
        self.controls = W.VBox([W.HTML("<b>Your choices</b>"), self.choices, *self.extra_controls(), self.list_row,
                                W.HBox([self.b_bots, self.b_undo], layout=W.Layout(flex_flow="row wrap")),
                                self.hint_panel or hints_off()]
                               + ([self.keypad] if self.keypad is not None else []))
        self.children = [*self.game_parts(), wrap_style()]
        self.refresh()
        self.say(self.welcome())  # the message line is never a blank space above the board
        if self.auto_bots and self.humans and self._bot_to_move():
            self.play_on()

    # ------------------------------------------------------------------ hooks for a game's view
    def game_parts(self) -> list:
        """The view's children, top to bottom (a game's view adds its panels). By default
        the game as the viewer may see it (:meth:`seen_html`) stands under the message line."""
        return [self.status, self.message_label, self.banner, self.seen, self.controls]

    def welcome(self) -> str:
        """The message line's first words, before any decision: the seats and where to choose."""
        seats = ", ".join(f"P{p + 1} {'bot' if p in self.bots else 'human'}" for p in range(self.state.players))
        return f"Seats: {seats}. Choose under 'Your choices': a button, or an action of the list and Do it."

    def extra_controls(self) -> list:
        """Widgets a game's view puts between its choice buttons and the list of every legal
        action (called once, before the first refresh; none by default)."""
        return []

    def refresh_panels(self) -> None:
        """Redraw the game's own panels from ``self.state`` (nothing by default)."""

    def seen_html(self) -> str:
        """What the view's human may see of the game (:meth:`viewer`): their observation as
        tables and the game's log as they may read it (the reveal, the scores), from the
        game's visibility declaration (:func:`~haunted_kit.tableview.seen_observation_and_log`);
        shown by a view that keeps :attr:`seen` among its :meth:`game_parts`."""
        obs, log = seen_observation_and_log(self.game, self.state, self.viewer())
        return (f'<div style="font:13px sans-serif"><b>What you see</b>{observation_html(obs)}'
                f'{"<b>Game log</b>" + log if log else ""}</div>')

    def status_text(self) -> str:
        """The status line: whose decision it is, or the returns when the game is over (under
        the Game's ``score_name`` when it declares one: ``"The game is over. Points: P1 7, P2 9."``)."""
        s = self.state
        if s.is_terminal():
            name = str(getattr(self.game, "score_name", None) or "returns")
            return (f"The game is over. {name[:1].upper() + name[1:]}: "
                    + ", ".join(f"P{p + 1} {r:g}" for p, r in enumerate(s.returns())) + ".")
        p = s.current_player()
        return f"P{p + 1} to decide" + (" (bot)" if p in self.bots else "") if p is not None else "Chance to resolve"

    def menu(self, legal: list) -> list:
        """The actions shown as buttons: by default the legal actions when there are at most
        :data:`MENU_BUTTONS`, else the first of each kind (class) of action (so every kind
        open now has a visible control; the list has them all). A game may add actions that
        are not legal now: a click on one shows the rules' reason."""
        return list(legal) if len(legal) <= MENU_BUTTONS else first_of_each(legal, type)[:MENU_BUTTONS]

    def describe(self, action) -> str:
        """``action`` in words (:func:`describe_action`)."""
        return describe_action(action, self.state)

    # ------------------------------------------------------------------ protocol of the hint panel
    def on_change(self, callback) -> None:
        """Call ``callback(view)`` after every change of the state (a decision, undo)."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        for cb in list(self._listeners):
            cb(self)

    def _human_to_move(self):
        p = self.state.current_player()
        return p if p is not None and p not in self.bots and not self.state.is_terminal() else None

    def _bot_to_move(self) -> bool:
        p = self.state.current_player()
        return p is not None and p in self.bots and not self.state.is_terminal()

    # ------------------------------------------------------------------ showing
    def _button(self, text, cls, tip, fn, where) -> W.Button:
        b = W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto", flex="0 0 auto"))
        b.add_class(cls)
        b.on_click(self.guard(lambda _b: fn(), where))
        return b

    def say(self, text: str, kind: str = "info") -> None:
        """Show ``text`` on the message line (``kind``: info, refusal, ignored) in whole sentences,
        the latest shown and the earlier ones folded when they would not fit (:func:`message_html`); a kit ruling
        the engine's sentence names is cited as the kit's (``kit ruling E10``)
        and its own short text opens under it on demand (:func:`~haunted_kit.events.rulings_html`)."""
        text = self.message = shown_text(text)
        self.message_label.value = message_html(text, _COLOURS.get(kind, "#000"))  # whole sentences, the latest shown
        self._say_keys()

    def refresh(self) -> None:
        """Redraw everything from ``self.state``."""
        s = self.state
        self.legal = list(s.legal_actions()) if self._human_to_move() is not None else []
        self.cursor = min(self.cursor, max(len(self.legal) - 1, 0))
        self.status.value = in_lines(f'<div style="font:14px sans-serif"><b>{escape(self.status_text())}</b></div>', 2,
                                     "status")
        self.set_choices(self.menu(self.legal))
        opts = [(self.describe(a), a) for a in self.legal]
        with self._setting_list():
            self.all_pick.options = opts or [("(no decision for you now)", None)]
            self.all_pick.index = 0
            if self.legal:  # the list shows what the keyboard's cursor is on
                self.all_pick.value = self.legal[self.cursor]
        self.all_pick.disabled = not opts
        none = "the game is over." if self.state.is_terminal() else "no decision of yours is due now."
        grey_with_reason(self.b_do, None if opts else none, "apply the chosen legal action")
        grey_with_reason(self.b_bots, None if self._bot_to_move() else "no bot is to decide now.",
                         "bots decide until a human is to move")
        grey_with_reason(self.b_undo, self._undo_refusal(), "take back your own last decision")
        if self.seen in self.children:
            self.seen.value = self.seen_html()
        self.refresh_panels()
        if self.hint_panel is not None:
            self.hint_panel.update()
        self._say_keys()

    def set_choices(self, actions) -> None:
        """Show ``actions`` as the choice buttons (buttons are reused, never replaced)."""
        actions = list(actions)
        while len(self._menu_pool) < len(actions):
            i = len(self._menu_pool)
            b = W.Button(layout=W.Layout(width="auto", flex="0 1 auto"))
            b.add_class("hk-choice")
            b.add_class(WRAP_CLASS)  # a long action's words wrap in a narrow column
            b.on_click(self.guard(lambda _b, i=i: self._menu_clicked(i), "choosing an action"))
            self._menu_pool.append(b)
        self._menu_actions = actions
        buttons = self._menu_pool[:len(actions)]
        for b, a in zip(buttons, actions):
            b.description = self.describe(a)
        if list(self.choices.children) != buttons:
            self.choices.children = buttons

    def _menu_clicked(self, i: int) -> None:
        if i < len(self._menu_actions):
            self.attempt(self._menu_actions[i])

    def _do_picked(self) -> None:
        self.attempt_chosen(self.all_pick, "No decision of yours is due now.")

    def attempt_chosen(self, pick, missing: str) -> bool:
        """:meth:`attempt` the action chosen in the dropdown ``pick``; with none chosen, say
        ``missing`` (ignored). Returns whether an action was applied."""
        if pick.value is None:
            self.say(missing, "ignored")
            return False
        return self.attempt(pick.value)

    # ------------------------------------------------------------------ one selection
    @contextlib.contextmanager
    def _setting_list(self):
        was, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = was

    def select(self, action) -> bool:
        """Make ``action`` (one of :attr:`legal`) the selected action everywhere: the keyboard's
        cursor and its line ("Choice k of n: ...") and the list of every legal action, so no
        line about the selection names another action than the one chosen (a card chosen in
        a game's own controls, an entry of the list, an arrow key). Returns whether
        ``action`` is legal now (else nothing changes)."""
        if action not in self.legal:
            return False
        self.cursor = self.legal.index(action)
        if self.all_pick.value != action:
            with self._setting_list():
                self.all_pick.value = action
        self._say_keys()
        return True

    def _picked_in_list(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self.select(change["new"])

    # ------------------------------------------------------------------ keyboard
    def _say_keys(self) -> None:
        if self.keypad is None:
            return
        if self.legal:
            where = f"Keyboard choice {self.cursor + 1} of {len(self.legal)}: {self.describe(self.legal[self.cursor])}."  # the keys' cursor, not a count of decisions
        else:
            where = "No decision of yours is due now."
        text = f"{where} {self.message}".strip()
        if self.keypad.text != text:
            self.keypad.text = text

    def press(self, key: str) -> None:
        """Act on one key as the keyboard element would: Up/Left and Down/Right move the
        cursor through the legal actions, Enter or Space plays the one under it, Home goes
        back to the first. Other keys are ignored."""
        if key in ARROWS and self.legal:
            step = -1 if key in ("ArrowUp", "ArrowLeft") else 1
            self.select(self.legal[min(max(self.cursor + step, 0), len(self.legal) - 1)])
        elif key == HOME_KEY and self.legal:
            self.select(self.legal[0])
        elif key in ACT_KEYS:
            if not self.legal:
                self.say(self._busy_reason() or "No decision of yours is due now.", "ignored")
                return
            self.attempt(self.legal[self.cursor])
            return
        self._say_keys()

    def _on_key_msg(self, _widget, content, _buffers) -> None:
        if content.get("event") == "key":
            self.press(str(content.get("key", "")))

    # ------------------------------------------------------------------ deciding
    def _busy_reason(self):
        s = self.state
        if s.is_terminal():
            return "The game is over."
        p = s.current_player()
        if p is None:
            return "No decision is due now."
        if p in self.bots:
            return f"It is P{p + 1}'s decision and P{p + 1} is a bot: press 'Bots: play on'."
        return None

    def attempt(self, action) -> bool:
        """Apply ``action`` for the human to move if legal, else show the rules' reason
        (``why_not``, kept in :attr:`last_refusal`). After a human decision the bots play
        on (``auto_bots``). Returns whether it was applied."""
        busy = self._busy_reason()
        if busy:
            self.say(busy, "ignored")
            return False
        why = self.state.why_not(action)
        if why is not None:
            self.last_refusal = why
            self.say(f"Not allowed: {self.describe(action)}: {why}", "refusal")
            return False
        said = self._apply(action)
        if self.auto_bots and self._bot_to_move():
            bots = self.play_on()
            if bots:
                self.say(said + " Then " + "; ".join(bots) + ".")
        return True

    def viewer(self):
        """Whom the view's words and seen panel are for: the one human seat; with several
        humans at one screen :data:`~haunted_kit.visibility.PUBLIC` (what every seat may see);
        with none (bots only) ``None``, the omniscient view."""
        if len(self.humans) == 1:
            return self.humans[0]
        return PUBLIC if self.humans else None

    def _apply(self, action) -> str:
        s = self.state
        before = s.copy()
        p = s.current_player()
        k = _log_length(s)
        own = self.describe(action)
        s.apply_action(action)  # raises IllegalAction with the state unchanged
        viewer, made = self.viewer(), _log_length(s)
        # another seat's decision is told by its events as the viewer may see them, never its words
        self.last_words = shown_text(decision_words(self.game, s, k, p, viewer, own))
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance(sample_chance(s, game_seed(s)))
        self.undo_stack.append((before, p))
        # the decision's own words come before its events; words made of its events stand for them
        said = _seen_texts(self.game, s, k if viewer is None or viewer == p else made, viewer)[:3]
        self.say(f"P{p + 1}{' (bot)' if p in self.bots else ''}: {self.last_words}." + "".join(" " + t for t in said))
        self.refresh()
        self._changed()
        return self.message

    def play_on(self) -> list[str]:
        """Bots decide until a human is to move, the game ends or its decision cap is
        reached (:func:`haunted_kit.games.past_cap`: the message line then names the seed
        and the box). Returns what they did, one short line per decision (also shown on
        the message line)."""
        done = []
        while self._bot_to_move():
            capped = past_cap(self.game, self.state, what="bots")
            if capped is not None:
                self.say(str(capped), "refusal")
                return done
            p = self.state.current_player()
            action = self.bots[p].act(self.state.copy())
            why = self.state.why_not(action)
            if why is not None:
                raise RuntimeError(f"the bot of P{p + 1} chose an illegal action {action!r}: {why}")
            self._apply(action)
            done.append(f"P{p + 1} (bot): {self.last_words}")
        if done:
            self.say("; ".join(done) + ".")
        return done

    # ------------------------------------------------------------------ undo
    def _undo_seat(self):
        """The seat Undo acts for: the human to move, else the last human who decided."""
        p = self._human_to_move()
        if p is not None:
            return p
        for _before, seat in reversed(self.undo_stack):
            if seat in self.humans:
                return seat
        return None

    def _undo_refusal(self):
        """Why Undo cannot be used now (a sentence), or ``None`` when it can."""
        if self.state.is_terminal():
            return "The game is over and its result stands: Undo cannot reopen it (start a new game instead)."
        seat = self._undo_seat()
        deciders = [q for _b, q in self.undo_stack]
        if seat is None or seat not in deciders:
            return "Nothing of yours to undo."
        for q in reversed(deciders):
            if q == seat:
                return None
            if q in self.humans:
                return (f"Nothing of P{seat + 1}'s to undo: P{q + 1} has decided since; "
                        "Undo takes back only your own last decision.")
        return None  # pragma: no cover - the loop meets the seat

    def undo(self) -> bool:
        """Take back the human seat's own last decision and the bots' replies since,
        restoring the state exactly. Refused (a sentence on the message line, nothing
        changes) when that seat has not decided or another human has decided since."""
        why = self._undo_refusal()
        if why is not None:
            self.say(why, "ignored")
            return False
        seat = self._undo_seat()
        while True:
            before, q = self.undo_stack.pop()
            if q == seat:
                break
        self.state = before
        self.say(f"P{seat + 1}'s last decision was taken back.")
        self.refresh()
        self._changed()
        return True
