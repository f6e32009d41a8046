"""Widgets for the Landmarks & Architects modules.

* :class:`LandmarksPanel` - the village and landmark panel of a position on an ipycanvas
  canvas, drawn from the kit renderer's primitives (:func:`haunted_kit.landmarks.draw.panel_scene`).
* :class:`RecordStepView` - a step-through over a game's action record (the protocol's
  ``history()``), rebuilt from a start position: first / previous / slider / next / last, the
  decision of each step in words, the events it logged, the choices the player had (when
  the state offers an ``options()`` table) and the panel after it.

    LandmarksPanel(state, viewer=None)
    RecordStepView(state)                 # a Landmarks & Architects game, live or loaded
    RecordStepView(state, start=first, panel=...)   # any protocol game, from a copy of its start

* :class:`LandmarksPlayView` - a game against bots on the kit's
  :class:`~haunted_kit.widgets.playview.GamePlayView`: every choice from ``legal_actions()``
  (the box's leads and follow/decline as buttons even when refused, so a click shows the
  ``why_not`` reason; every build payment and landmark discard in the list), the follower's
  options table with the reason of each refused option, undo of your own last decision,
  "Suggest a move" and keyboard play;
* :func:`exercise` - an exercise of :mod:`haunted_kit.landmarks.exercises` with the panel of its position.

    LandmarksPlayView(players=3, seed=1, bots=[1, 2])   # P1 human, P2-P3 greedy bots

They only draw and forward; every rule answer comes from the state. CSS classes:
``hk-landmarks-panel``, ``hk-record-step``, ``hk-explanation``, ``hk-landmarks-play``,
``hk-options`` (and the play view's, :mod:`haunted_kit.widgets.playview`).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W
from ipycanvas import Canvas

from .actions import Acquire, Build, ChooseBuilding, Decline, Follow, Lead, card_words
from .exercises import EXERCISES
from .draw import NARROW_SCALE, NARROW_WIDTH, WIDE_SCALE, WIDE_WIDTH, panel_scene
from .engine import GAME, new_game
from . import rules as R
from ..frames import reflow_table
from ..games import game_of
from ..protocol import states_along as protocol_states_along
from ..visibility import decision_words
from ..render.primitives import Text
from ..render.svg import text_box
from ..widgets.canvas import (PHONE_MAX_PX, PHONE_TEXT_PX, draw_primitives, fit_to_output, held, on_tap,
                              pan_parts, redraw_for_new_views)
from ..widgets.errors import ErrorReporting
from ..widgets.whatis import WhatIsThis
from ..widgets.exercise import ExerciseWidget
from ..widgets.playview import (MENU_BUTTONS, WRAP_CLASS, GamePlayView, board_row, first_of_each, grey_with_reason,
                                recent_log_html, row_layout, side_layout, since_last_decision)


#: which of the panel's two canvases a window shows: the phone's layout under PHONE_MAX_PX, else the wide one
_PANEL_CSS = (f"<style>.hk-landmarks-panel canvas {{ scroll-margin: -100000px; }}"
              f"@media (max-width: {PHONE_MAX_PX - 1}px) {{ .hk-landmarks-panel .hk-panel-wide {{ display: none !important; }} }}"
              f"@media (min-width: {PHONE_MAX_PX}px) {{ .hk-landmarks-panel .hk-panel-narrow {{ display: none !important; }} }}"
              "</style>")


class LandmarksPanel(W.VBox):
    """The village and landmark panel on a canvas; ``update(state)`` redraws it. A new
    browser view of the panel (a page opened or reloaded, Voila) gets it drawn again when
    its canvas is ready: commands sent before a view exists never reach it. Under it (``key``)
    the key of the codes and names it draws for ``viewer`` and "What is this?" (:attr:`whatis`,
    :class:`~haunted_kit.widgets.whatis.WhatIsThis`): the panel is a picture, so every tap on
    it is a question, answered under it.

    It lays itself out for the window: :attr:`canvas` holds the wide layout (900 px, text of
    at least 12 px, scaled down in a narrower output area), :attr:`narrow` the phone's (each
    player's boxes, tokens, village and hand on rows of their own, drawn 267 px wide with text
    of at least 12 px, :data:`~haunted_kit.landmarks.draw.NARROW_WIDTH`: whole in a phone's
    274 px Lab output area); a CSS media query shows the wide one from
    :data:`~haunted_kit.widgets.canvas.PHONE_MAX_PX` px of window width up, else the narrow
    one, so nothing scrolls sideways on a phone."""

    def __init__(self, state, viewer: int | None = None, key: bool = True, **kw):
        super().__init__(**kw)
        self.viewer = viewer
        self.draws = 0
        self.narrow_prims: list = []
        prims, w, h = panel_scene(state, viewer, WIDE_WIDTH, WIDE_SCALE)
        self.canvas = Canvas(width=int(w), height=int(h))
        self.canvas.add_class("hk-panel-wide")
        _nprims, nw, nh = panel_scene(state, viewer, NARROW_WIDTH, NARROW_SCALE)
        self.narrow = Canvas(width=int(nw), height=int(nh))
        self.narrow.add_class("hk-panel-narrow")
        # only the canvases pan in their box (a phone narrower than the narrow layout), under its cue
        self.pan, self.pan_box, touch = pan_parts(self, "hk-landmarks-panel", [self.canvas, self.narrow], "The panel")
        # scaled down in a narrow output area (both layouts' least text is 12 px at their own size)
        fit_to_output(self.canvas, w, h, box=self.pan_box, min_text=PHONE_TEXT_PX)
        self.canvas.layout.min_width = "0"  # a phone shows the narrow layout instead
        # the phone's layout: never under 12 px text on a phone (it pans in an output narrower than it)
        fit_to_output(self.narrow, nw, nh, box=self.pan_box, min_text=PHONE_TEXT_PX)
        redraw_for_new_views(self.canvas, lambda: self.update(self.state))
        redraw_for_new_views(self.narrow, lambda: self.update(self.state))
        self.whatis = WhatIsThis(width=w, clicks_play=False) if key else None
        if self.whatis is not None:
            on_tap(self.canvas, lambda x, y: self.whatis.answer_at(x, y))
            on_tap(self.narrow, lambda x, y: self.answer_narrow(x, y))
        # as for the other boards: ipycanvas focuses the canvas on mousedown before it reads the
        # position, and focusing a partly visible canvas would scroll the page under the tap
        style = W.HTML(_PANEL_CSS, layout=W.Layout(height="0px", margin="0px"))
        self.children = [self.pan, self.pan_box, style, *([self.whatis] if key else []),
                         touch]  # a swipe on the panel scrolls the page (a phone)
        self.state = None
        self.update(state)

    def on_mouse_down(self, callback) -> None:
        """Call ``callback(x, y)`` on a click or a tap on either layout of the panel
        (:func:`haunted_kit.widgets.canvas.on_tap`)."""
        on_tap(self.canvas, callback)
        on_tap(self.narrow, callback)

    def answer_narrow(self, x: float, y: float) -> str:
        """"What is this?" for a tap at ``(x, y)`` on the narrow layout: the drawn words there."""
        hits = []
        for p in self.narrow_prims:
            if isinstance(p, Text):
                x0, y0, x1, y1 = text_box(p)
                d = max(x0 - x, x - x1, 0) + max(y0 - y, y - y1, 0)
                if d <= 4:
                    hits.append((d, p.text))
        if not hits:
            return self.whatis.answer_at(-1000, -1000)
        return self.whatis.answer_words(min(hits)[1])

    def update(self, state, viewer=...) -> None:
        if viewer is not ...:
            self.viewer = viewer
        self.state = state
        prims, w, h = panel_scene(state, self.viewer, WIDE_WIDTH, WIDE_SCALE)
        self.narrow_prims, nw, nh = panel_scene(state, self.viewer, NARROW_WIDTH, NARROW_SCALE)
        with held():
            for canvas, width, height, drawn in ((self.canvas, w, h, prims), (self.narrow, nw, nh, self.narrow_prims)):
                if (canvas.width, canvas.height) != (int(width), int(height)):
                    canvas.width, canvas.height = int(width), int(height)
                    canvas.layout.width = f"{int(width)}px"
                draw_primitives(canvas, drawn)
        self.draws += 1
        if self.whatis is not None:
            self.whatis.show(state, prims)


def states_along(state, start=None) -> list:
    """``[(None, first), (entry, state after it), ...]`` along ``state.history()``.

    With ``start`` (a copy of the game at an earlier step) the states are rebuilt through
    the protocol alone (``copy``, ``apply_action``, ``apply_chance``), so any game serves;
    without it the state's own ``replay()`` rebuilds them from its start position."""
    if start is None:
        return state.replay()
    return protocol_states_along(start, state.history()[len(start.history()):])


def _describe(action, state) -> str:
    box = getattr(state, "box", None)
    try:
        return action.describe(box)
    except TypeError:
        return action.describe()


class RecordStepView(ErrorReporting, W.VBox):
    """Step through the action record of ``state`` (see the module docstring).

    Args:
        state: a protocol state: a LandmarksState, or any game's state with ``start``.
        start: an earlier copy of the same game to step from (see :func:`states_along`).
        viewer: whose view (hidden hands and architects of others); ``None`` shows all.
        panel: the widget class drawing one state (``update(state)``); default
            :class:`LandmarksPanel`.
        step: the step to show first (default: the last).
    """

    def __init__(self, state, *, start=None, viewer: int | None = None, panel=LandmarksPanel, step: int | None = None,
                 **kw):
        super().__init__(**kw)
        self.add_class("hk-record-step")
        banner = self._init_errors()
        self.viewer = viewer
        self.steps = states_along(state, start)
        self.panel = panel(self.steps[0][1], viewer=viewer)
        n = len(self.steps)
        self.slider = W.IntSlider(min=0, max=n - 1, value=0, description="step", continuous_update=False,
                                  layout=W.Layout(width="420px", max_width="100%"))
        mk = lambda text, tip: W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto"))  # noqa: E731
        self.b_first, self.b_prev, self.b_next, self.b_last = (mk("|<", "first step"), mk("<", "previous step"),
                                                              mk(">", "next step"), mk(">|", "last step"))
        self.b_first.on_click(self.guard(lambda _b: self.show(0), "going to the first step"))
        self.b_prev.on_click(self.guard(lambda _b: self.show(self.k - 1), "going back one step"))
        self.b_next.on_click(self.guard(lambda _b: self.show(self.k + 1), "going on one step"))
        self.b_last.on_click(self.guard(lambda _b: self.show(len(self.steps) - 1), "going to the last step"))
        self.slider.observe(self.guard(lambda ch: self.show(ch["new"]), "showing the chosen step"), names="value")
        self.explanation = W.HTML()
        self.explanation.add_class("hk-explanation")
        self.choices = W.HTML()
        self.children = [W.HBox([self.b_first, self.b_prev, self.slider, self.b_next, self.b_last], layout=row_layout()),
                         self.explanation,
                         banner, self.panel, self.choices]
        self.k = -1
        self.show(n - 1 if step is None else step)

    def __len__(self) -> int:
        return len(self.steps)

    def show(self, k: int) -> None:
        """Show step ``k`` (0 = the start position): its decision, its events, the panel after it."""
        k = min(max(int(k), 0), len(self.steps) - 1)
        if k == self.k:
            return
        self.k = k
        if self.slider.value != k:
            self.slider.value = k
        entry, state = self.steps[k]
        before = self.steps[k - 1][1] if k > 0 else None
        ev = state.events(self.viewer)
        new = ev.iloc[len(before.events(self.viewer)):] if before is not None else ev
        if entry is None:
            what = "the start position"
        elif entry.chance:
            what = f"chance: {escape(str(entry.action))}"
        else:
            # another seat's decision as the viewer saw it (its events), never the action's own words
            what = f"P{entry.player + 1}: " + escape(decision_words(
                game_of(state), state, len(getattr(before, "log", None) or []), entry.player, self.viewer, _describe(entry.action, before)))
        items = "".join(f"<li>{escape(t)}</li>" for t in new.text)
        self.explanation.value = (
            f'<div style="font-family:sans-serif;font-size:13px;padding:4px;border:1px solid #ccc;border-radius:4px">'
            f"<div><b>Step {k} of {len(self.steps) - 1}</b> &middot; {what}</div>"
            f'<ul style="margin:3px 0">{items}</ul>'
            f'<div style="color:#555">The panel shows the position after this step.</div></div>')
        self.panel.update(state)
        self.choices.value = self._choices_html(before, entry)

    def _choices_html(self, before, entry) -> str:
        if before is None or entry is None or entry.chance or not hasattr(before, "options") or before.phase != "follow":
            return ""
        return _options_table(before.options(), f"P{entry.player + 1}'s choices at this step")


def _options_table(table, title: str, css_class: str = "") -> str:
    """A follower's options (``state.options``) as HTML under ``title``: each option, whether
    it is legal now, how many ways, and the rules' reason when refused; its rows reflow in a
    narrow column (:func:`haunted_kit.frames.reflow_table`), the reason wrapping."""
    rows = "".join(
        f"<tr><td>{escape(r.option)}</td><td>{'yes' if r.legal else 'no'}</td><td>{r.ways}</td>"
        f"<td>{escape(r.reason)}</td></tr>" for r in table.itertuples())
    html = ('<table style="border-collapse:collapse"><thead><tr><th>option</th><th>legal</th><th>ways</th>'
            f"<th>why not</th></tr></thead><tbody>{rows}</tbody></table>")
    cls = f' class="{css_class}"' if css_class else ""
    return (f'<div{cls} style="font-family:sans-serif;font-size:12px"><b>{escape(title)}</b>'
            f"{reflow_table(html, left=(0, 3))}</div>")


def options_html(state, p: int) -> str:
    """The follower's options table of ``state`` for ``p`` (``state.options``): each option,
    whether it is legal now, how many ways, and the rules' reason when refused."""
    return _options_table(state.options(p), f"P{p + 1}'s options", "hk-options")


class LandmarksPlayView(GamePlayView):
    """A Landmarks & Architects game against bots (see the module docstring).

    Args:
        state: a game to continue; by default :func:`~haunted_kit.landmarks.engine.new_game`
            with ``players``, ``seed`` and ``rounds`` (the turns; default: the box's, 3).
        bots: bot seats (0-based): a list (each ``bot_kind``) or dict seat -> spec/agent.
        viewer: whose hidden cards the panel shows (default: the only human seat, else everyone).
        auto_bots, bot_kind, hints, hint_playouts, keyboard: as
            :class:`~haunted_kit.widgets.playview.GamePlayView` (a hint searches 100 playouts
            by default: a Landmarks playout costs more than an estate one).

    Raises:
        ConfigError: bad players or turns; ValueError: a bad bot seat or agent spec.
    """

    css_class = "hk-landmarks-play"

    def __init__(self, state=None, *, players: int = 3, seed: int = 1, rounds: int | None = None, bots=None,
                 viewer="auto", auto_bots: bool = True, bot_kind: str = "greedy", hints: bool = True,
                 hint_playouts: int = 100, keyboard: bool = True):
        state = state if state is not None else new_game(players, seed, rounds=rounds)
        seats = range(state.players)
        if viewer == "auto":
            humans = [q for q in seats if q not in (bots if isinstance(bots, dict) else set(bots or []))]
            viewer = humans[0] if len(humans) == 1 else None
        self.panel = LandmarksPanel(state, viewer=viewer)
        self.options_panel = W.HTML()
        self.log_panel = W.HTML()
        # building, as a player thinks of it: first the card, then how to pay for it
        self.build_card = None
        self._card_pool: list = []
        self._cards: list = []
        self.card_row = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.card_row.add_class("hk-build-cards")
        # the payment plans as a wrapping list of radio buttons (a phone shows each plan whole), the
        # cheapest few first and "More ways to pay" for the rest; arrow keys move through them
        self.plans: list = []  # every payment plan of the chosen card, in the order offered
        self.plan_pick = W.RadioButtons(options=[], description="payment plan", style={"description_width": "initial"},
                                        layout=W.Layout(width="auto", flex="1 1 100%", min_width="0", max_width="100%"))
        self.plan_pick.add_class("hk-build-plans")
        self.b_more_plans = self._button("More ways to pay", "hk-build-more", "list more ways to pay for the chosen card",
                                         self.more_plans, "listing more ways to pay")
        self.plan_note = W.HTML()
        self.plan_chosen = W.HTML()
        self.plan_chosen.add_class("hk-build-plan-chosen")
        self.cannot_note = W.HTML()  # the hand's buildings no payment fits now, each with the reason
        self.cannot_note.add_class("hk-build-cannot")
        self.build_box = None
        super().__init__(GAME, state, bots=bots, auto_bots=auto_bots, bot_kind=bot_kind, hints=hints,
                         hint_playouts=hint_playouts, keyboard=keyboard)
        # the panel is a picture, not a control: a tap on it says where the choices are
        self.panel.on_mouse_down(self.guard(lambda _x, _y: self.panel_tapped(), "a tap on the panel"))

    def panel_tapped(self) -> str:
        """A tap on the village panel: it is not a control, so say what to do now (also
        returned): choose a card first when building is due, else use the choice buttons."""
        busy = self._busy_reason()
        picture = "The board is a picture, not a control"
        if busy:
            text = f"{picture}. {busy}"
        elif self.build_box.layout.display != "none" and self.build_card is None:
            text = f"{picture}: choose a card to build first (the Build buttons)."
        elif any(isinstance(a, Lead) for a in self.legal) and self.state.box.landmarks:
            # a leader taps a landmark to take it, say: the engine's reason why no landmark is theirs now
            why = self.state.why_not(Acquire(next(iter(self.state.box.landmarks))))
            text = f"{picture}: you lead now, so choose an action under 'Your choices'." + (
                f" No landmark can be taken now: {why}." if why is not None else "")
        else:
            text = f"{picture}: choose with the buttons under 'Your choices'."
        self.say(text, "ignored")
        return text

    def extra_controls(self) -> list:
        """The build chooser: a button per card the player can build now, then a list of
        the ways to pay for the chosen card (in words, those paying only the player's own
        sources first) and "Build it", which makes both of a Build's decisions (the
        ChooseBuilding of the card, then the Build with that payment)."""
        self.b_build = self._button("Build it", "hk-build-do", "build the chosen card with the chosen payment",
                                    self._build_picked, "building the chosen card")
        self.build_box = W.VBox([W.HTML("<b>Build</b>: choose a card (its building type and cost in brackets), "
                                        "then how to pay for it" + _WRAP_CSS),
                                 self.card_row, self.cannot_note, self.plan_note, self.plan_pick,
                                 W.HBox([self.b_more_plans, self.b_build], layout=W.Layout(flex_flow="row wrap",
                                                                                         max_width="100%")),
                                 self.plan_chosen])
        self.build_box.add_class("hk-build")
        self.plan_pick.observe(self.guard(lambda _c: self._show_plan(), "showing the chosen plan"), "value")
        return [self.build_box]

    def builds(self) -> list:
        """The Builds the human to move may make now, over both of a Build's decisions: every
        payment of every card they may choose to build, or of the card already chosen (empty
        when building is not due)."""
        cards = [a.card for a in self.legal if isinstance(a, ChooseBuilding)]
        if cards:
            p = self.state.current_player()
            return [b for k in cards for b in R.card_builds(self.state, p, k)]
        return [a for a in self.legal if isinstance(a, Build)]

    def plan_text(self, action) -> str:
        """A payment plan of ``action`` (a Build) in words, without the card: whose sources
        get gold and what each gives, e.g. ``"your own sources: P1's castle -> stone"``."""
        p = self.state.current_player()
        others = sorted({u.owner for u in action.payment} - {p})
        who = "your own sources" if not others else "gold to " + " and ".join(f"P{q + 1}" for q in others)
        parts = "; ".join(u.describe(self.state.box) for u in action.payment) or "nothing to pay"
        return f"{who}: {parts}"

    def choose_card(self, card) -> list:
        """Choose ``card`` (a deck key) to build: the plan list then holds its payment plans,
        those paying only the player's own sources first, then those discarding fewer cards,
        else in the rules' rank order (so the first, picked at once, never gives gold away or
        discards a card when a plan that does not exists). Returns the plans (Build actions);
        a card that cannot be built now gets a sentence and no plans."""
        plans = [a for a in self.builds() if a.card == card]
        self.build_card = card if plans else None
        if not plans:
            self.say(f"No way to build {_card_name(self.state, card)} now.", "ignored")
        p = self.state.current_player()
        # own sources first, then fewer discards; else the rules' rank order (the sort is stable)
        plans.sort(key=lambda a: (len({u.owner for u in a.payment} - {p}), sum(1 for u in a.payment if u.discard)))
        self.plans = plans
        self._list_plans(PLANS_SHOWN)
        self.plan_pick.index = 0
        self.plan_pick.disabled = not plans  # "Build it" stays clickable: with no plan it says why
        self.plan_note.value = self._plans_summary(card, plans)
        self._show_plan()
        self.select(ChooseBuilding(card))  # the keyboard's line and the list of every action name the same card
        for b, c in zip(self._card_pool, self._cards):
            b.button_style = "info" if c == self.build_card else ""
        return plans

    def _list_plans(self, n: int) -> None:
        """List the first ``n`` of :attr:`plans` (all when fewer), the chosen one kept; "More
        ways to pay" says how many more there are, greyed once all are listed."""
        shown = self.plans[:max(n, 1)]
        keep = self.plan_pick.value
        self.plan_pick.options = [(self.plan_text(a), a) for a in shown] or [("(choose a card first)", None)]
        if keep in shown:
            self.plan_pick.value = keep
        rest = len(self.plans) - len(shown)
        self.b_more_plans.description = f"More ways to pay ({rest} more)" if rest else "More ways to pay"
        grey_with_reason(self.b_more_plans, None if rest else (
            "every way to pay is listed." if self.plans else "choose a card first."),
            "list more ways to pay for the chosen card")

    def more_plans(self) -> int:
        """List :data:`PLANS_MORE` more ways to pay for the chosen card (keyboard: the button
        after the list). Returns how many are listed now."""
        if len(self.plan_pick.options) >= len(self.plans):
            self.say("Every way to pay for this card is listed." if self.plans else
                     "Choose a card to build first, then how to pay for it.", "ignored")
        else:
            self._list_plans(len(self.plan_pick.options) + PLANS_MORE)
        return len(self.plan_pick.options)

    def _plans_summary(self, card, plans: list) -> str:
        """HTML: the card's cost and its payment plans summed up (how many pay from the
        player's own sources only), the first - chosen at once - being the cheapest."""
        if not plans:
            return ""
        s = self.state
        p = s.current_player()
        own = sum(1 for a in plans if not {u.owner for u in a.payment} - {p})
        cost = ", ".join(s.box.cards[card].cost)
        gold = sum(R.source_gold(s.box, u.source) for u in plans[0].payment)
        # what it costs the player first: a newcomer read "no gold given away" as "free" and spent all 3 gold
        return (f'<div style="font:13px sans-serif">{escape(_card_name(s, card))} costs {escape(cost)}: each '
                f"resource takes gold placed on its source, so the first way to pay places {gold} of your "
                f"{s.gold[p]} gold. {len(plans)} way{'s' if len(plans) != 1 else ''} to pay ({own} from your own "
                f"sources only, {len(plans) - own} paying gold to other players). The first, chosen for you, is the "
                "cheapest (no gold paid to other players and the fewest cards discarded when it can be); "
                f"the {min(PLANS_SHOWN, len(plans))} cheapest are listed, \"More ways to pay\" lists more.</div>")

    def _show_plan(self) -> None:
        """The chosen payment plan written out whole (the list may cut it on a narrow screen)."""
        a = self.plan_pick.value
        self.plan_chosen.value = ('<div style="font:13px sans-serif;overflow-wrap:anywhere">Chosen: '
                                  f"{escape(self.plan_text(a))}</div>") if a is not None else ""

    def _build_picked(self) -> None:
        """"Build it": choose the card (unless it is already chosen), then pay as picked."""
        action = self.plan_pick.value  # kept: choosing the card refreshes the list
        if action is None:
            self.say("Choose a card to build first, then how to pay for it.", "ignored")
            return
        if self.state.chosen_building is None and not self.attempt(ChooseBuilding(action.card)):
            return
        self.attempt(action)

    def undo(self) -> bool:
        """Take back the human seat's own last decision (the kit's undo); a Build made with
        "Build it" is two decisions, so when the card's choice is left waiting for its
        payment, that choice is taken back too."""
        if not super().undo():
            return False
        s = self.state
        if s.chosen_building is not None and self.undo_stack and self.undo_stack[-1][1] == s.current_player():
            super().undo()
            self.say(f"P{s.current_player() + 1}'s Build was taken back: both its decisions, the card and the payment.")
        return True

    def _cannot_text(self, cards: list) -> str:
        """HTML naming each building of the hand of the player to move that no payment fits
        now, with the rules' reason (``plan_payments``' ``why_none``), while they may choose a
        card to build; empty otherwise."""
        s = self.state
        if not cards or s.chosen_building is not None:
            return ""
        p = s.current_player()
        lines = [f"{escape(card_words(s.box, k))}: {escape(R.plan_payments(s, p, k).why_none)}"
                 for k in sorted(set(s.hands[p])) if k not in cards and s.box.cards[k].kind == "building"]
        if not lines:
            return ""
        return ('<div style="font:13px sans-serif;color:#555">Not buildable now: '
                + "; ".join(lines) + "</div>")

    def _refresh_build(self) -> None:
        builds = self.builds()
        cards = list(dict.fromkeys(a.card for a in builds))
        while len(self._card_pool) < len(cards):
            i = len(self._card_pool)
            b = W.Button(layout=W.Layout(width="auto", flex="0 1 auto"))
            b.add_class("hk-build-card")
            b.add_class(WRAP_CLASS)  # its words wrap on a phone
            b.on_click(self.guard(lambda _b, i=i: self.choose_card(self._cards[i]), "choosing a card to build"))
            self._card_pool.append(b)
        self._cards = cards
        for b, c in zip(self._card_pool, cards):
            b.description = card_words(self.state.box, c)  # its type (what an architect scores), cost and points
        buttons = self._card_pool[:len(cards)]
        if list(self.card_row.children) != buttons:
            self.card_row.children = buttons
        self.build_box.layout.display = "" if cards else "none"
        self.cannot_note.value = self._cannot_text(cards)
        keep = self.build_card if self.build_card in cards else (cards[0] if len(cards) == 1 else None)
        if keep is not None:
            self.choose_card(keep)
            return
        self.build_card = None
        self.plans = []
        self._list_plans(PLANS_SHOWN)
        self.plan_pick.index = 0  # shown, not blank (a value of None alone would leave no selection)
        self.plan_pick.disabled = True  # "Build it" stays clickable and says: choose a card first
        self.plan_note.value = self.plan_chosen.value = ""
        for b in self._card_pool:
            b.button_style = ""

    def game_parts(self) -> list:
        side = W.VBox([self.controls, self.options_panel], layout=side_layout())
        return [self.status, self.message_label, self.banner, board_row(self.panel, side),
                self.log_panel]

    def status_text(self) -> str:
        s = self.state
        if s.is_terminal():
            points = R.totals(s)
            return "The game is over. Module points: " + ", ".join(f"P{q + 1} {points[q]}" for q in range(s.players)) + "."
        p = s.current_player()
        lead = f", {s.lead} led by P{s.leader + 1}" if s.lead else ""
        return f"{R.turn_words(s).capitalize()}, {s.phase}{lead}: P{p + 1} to decide" + (" (bot)" if p in self.bots else "")

    def menu(self, legal: list) -> list:
        """Lead phase: every lead of the box (a refused one shows its reason). Follow phase:
        follow (unless the lead is Build: the buildings to choose are in the Build box) and
        decline (not once a building is chosen: its payments come next), and the other legal
        actions (acquisitions) when they are few. Choosing a card and paying for it are the
        Build box's alone, so no second row of card buttons acts differently from its own."""
        s = self.state
        if not legal:
            return []
        if s.phase == "lead":
            return [Lead(a) for a in s.box.lead_actions]
        out = [a for a in legal if not isinstance(a, (ChooseBuilding, Build))]  # the Build box has those
        if len(out) > MENU_BUTTONS:  # many ways to acquire: the first (cheapest) of each landmark; the list has all
            out = first_of_each(out, lambda a: (type(a), getattr(a, "landmark", None)))[:MENU_BUTTONS]
        if s.phase == "follow" and s.chosen_building is None:
            fixed = ([Follow()] if s.lead != "build" else []) + [Decline()]
            out = [a for a in out if a not in fixed] + fixed
        return out

    def refresh_panels(self) -> None:
        s = self.state
        self.panel.update(s)
        self._refresh_build()
        p = s.current_player()
        show = p is not None and s.phase == "follow" and p not in self.bots
        self.options_panel.value = options_html(s, p) if show else ""
        self.log_panel.value = recent_log_html(s.events(self.panel.viewer).text, since_last_decision(self.undo_stack, self.humans, self.viewer()))


#: payment plans listed at first, and how many more "More ways to pay" lists
PLANS_SHOWN, PLANS_MORE = 5, 10
#: the payment plans wrap their words instead of cutting them on a phone (the card buttons: the kit's WRAP_CLASS)
_WRAP_CSS = ("<style>.hk-build-plans label, .hk-build-plans .widget-radio-box label "
             "{ white-space: normal !important; height: auto !important; line-height: 1.3 !important; "
             "overflow-wrap: anywhere; display: flex !important; flex-direction: row-reverse; "
             "justify-content: flex-end; align-items: flex-start; gap: 6px; margin: 2px 0; } "
             ".hk-build-plans label input { flex: 0 0 auto; margin-top: 2px; } "
             ".hk-build-plans .widget-radio-box { height: auto !important; min-width: 0; } "
             ".hk-build-plans { height: auto !important; }</style>")


def _card_name(state, key) -> str:
    card = state.box.cards.get(key) if key is not None else None
    return getattr(card, "name", None) or str(key)


def exercise(key: str, seed: int = 0) -> ExerciseWidget:
    """The widget for Landmarks exercise ``key`` of :data:`haunted_kit.landmarks.exercises.EXERCISES`
    on seed ``seed``, with the village and landmark panel of its position (seen by the player it
    is about). Raises :class:`~haunted_kit.exercises.ExerciseError` for an unknown key or a bad seed."""
    ex = EXERCISES.make(key, seed)
    return ExerciseWidget(ex, board=lambda state: LandmarksPanel(state, viewer=ex.player))


def play_view(state, *, bots, hints: bool = True) -> LandmarksPlayView:
    """The play view of ``state`` with ``bots`` (seats) for the kit's tutorial (the
    ``widgets`` module's ``play_view`` hook, docs/NEW_GAME.md)."""
    return LandmarksPlayView(state, bots=bots, hints=hints)


#: the kit tutorial's hook: the exercise widget of ``key`` on ``seed`` (docs/NEW_GAME.md)
exercise_view = exercise
