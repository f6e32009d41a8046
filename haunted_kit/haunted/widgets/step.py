"""Step through a game's event log: the board redrawn at each event, with its explanation.

    StepThroughView(state)                 # a live game (its log so far)
    StepThroughView("game.json")           # a saved game
    StepThroughView(play_view)             # follows a PlayView; call .refresh() for new events

The board shown for an event is the state right after the decision (or die roll) that
logged it (see :mod:`haunted_kit.haunted.history`), with the event's cell marked in yellow.
Under the board, the key of its codes and "What is this?" (a click on a cell, or the
"What is at" list, says what is there: :class:`~haunted_kit.widgets.whatis.WhatIsThis`).
Controls: first, previous, a slider over the events, next, last, jumps to the
previous/next decision, and a box to go to any decision by its number
(:meth:`StepThroughView.show_decision`). Events are numbered by their ``seq``
everywhere (the header, the slider, the log panel and ``state.events()``), starting at
#0. CSS classes: ``hk-step`` (the view), ``hk-step-slider``, ``hk-step-decision``,
``hk-explanation``, and the field's ``hk-field``.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ...events import EVENT_KINDS
from ..history import History, replay
from ..draw import html as H
from ..state import VISIBILITY
from ...render.style import name_cells
from ...widgets.errors import ErrorReporting
from ...widgets.playview import row_layout, side_layout
from .field import FieldWidget
from .panels import EventLogPanel, GameBoardPanel, PlayerBoards
from .play import PlayView


class StepThroughView(ErrorReporting, W.VBox):
    """Args:
        source: a State, a save's JSON text, a path to a save, a :class:`History`, or a
            :class:`~haunted_kit.haunted.widgets.play.PlayView` (followed live).
        viewer: whose view (other players' quests hidden, their private events
            redacted); ``None`` shows everything.
        size: hex size in pixels.
        start: event seq to show first (default: the last event).
    """

    def __init__(self, source, *, viewer=None, size: float = 30, start: int | None = None, **kw):
        super().__init__(**kw)
        self.add_class("hk-step")
        self.viewer = viewer
        self._source = source
        banner = self._init_errors()
        self.history = self._build_history()
        first = self.history.steps[0].state
        self.field = FieldWidget(first, size=size, viewer=viewer)
        if self.field.whatis is not None:  # nothing is played here: a click on a cell asks what is there
            self.field.on_click(self.guard(self.field.whatis.answer_cell, "saying what is on a cell"))
        self.slider = W.IntSlider(min=0, max=max(0, self.n_events - 1), value=0, description="event #",
                                  continuous_update=False, layout=W.Layout(width="420px", max_width="100%"))
        self.slider.add_class("hk-step-slider")
        mk = lambda text, tip: W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto"))  # noqa: E731
        self.b_first, self.b_prev_step, self.b_prev = mk("|<", "first event"), mk("<< step", "previous decision"), mk("<", "previous event")
        self.b_next, self.b_next_step, self.b_last = mk(">", "next event"), mk("step >>", "next decision"), mk(">|", "last event")
        self.b_first.on_click(self.guard(lambda _b: self.show(0), "going to the first event"))
        self.b_prev.on_click(self.guard(lambda _b: self.show(self.seq - 1), "going back one event"))
        self.b_next.on_click(self.guard(lambda _b: self.show(self.seq + 1), "going on one event"))
        self.b_last.on_click(self.guard(lambda _b: self.show(self.n_events - 1), "going to the last event"))
        self.b_prev_step.on_click(self.guard(lambda _b: self.jump_step(-1), "going back one decision"))
        self.b_next_step.on_click(self.guard(lambda _b: self.jump_step(+1), "going on one decision"))
        self.slider.observe(self.guard(self._on_slider, "showing the chosen event"), names="value")
        self.decision = W.BoundedIntText(min=1, max=max(1, self.history.decisions), value=1, description="decision",
                                         layout=W.Layout(width="150px"))
        self.decision.add_class("hk-step-decision")
        self.decision.observe(self.guard(lambda ch: self.show_decision(ch["new"] - 1), "going to the chosen decision"),
                              names="value")
        self.explanation = W.HTML()
        self.explanation.add_class("hk-explanation")
        self.board = GameBoardPanel(first)
        self.players = PlayerBoards(first, viewer)
        self.events = EventLogPanel(first, viewer, last=8)
        # rows that wrap (row_layout): in a narrower output area (1280x800 with the Lab's sidebar, a phone)
        # the slider and the panels go below instead of running past the right edge
        controls = W.HBox([self.b_first, self.b_prev_step, self.b_prev, self.slider, self.b_next, self.b_next_step, self.b_last,
                           self.decision], layout=row_layout())
        for panel in (self.events, self.board):  # never wider than the side column (the valor track scrolls)
            panel.layout.min_width = "0"
        side = W.VBox([self.events, self.board], layout=side_layout())
        side.layout.min_width = "0"
        self.children = [controls, self.explanation, banner, W.HBox([self.field, side], layout=row_layout()), self.players]
        self.seq = -1
        self.show(self.n_events - 1 if start is None else start)

    # ------------------------------------------------------------------ source
    def _build_history(self) -> History:
        src = self._source
        if isinstance(src, History):
            return src

        return replay(src.state if isinstance(src, PlayView) else src)

    @property
    def n_events(self) -> int:
        return len(self.history.events)

    def refresh(self) -> None:
        """Replay the source again (a live game that went on, or was undone); stays on
        the last event if it was showing it."""
        at_end = self.seq >= self.n_events - 1
        self.history = self._build_history()
        self.slider.max = max(0, self.n_events - 1)
        self.decision.max = max(1, self.history.decisions)
        self.show(self.n_events - 1 if at_end else min(self.seq, self.n_events - 1), force=True)

    # ------------------------------------------------------------------ showing
    def _on_slider(self, change):
        self.show(change["new"])

    def jump_step(self, direction: int) -> None:
        """Show the first event of the previous (-1) or next (+1) step."""
        k = self.history.step_of(max(self.seq, 0)) + direction
        k = min(max(k, 0), len(self.history) - 1)
        self.show(self.history.steps[k].first)

    def show_decision(self, n: int) -> None:
        """Show the first event of decision number ``n`` (0-based; negative counts from
        the end): the board right after that decision. IndexError outside the game."""
        step = self.history.steps[self.history.decision(n)]
        self.show(max(step.first, 0))

    def show(self, seq: int, force: bool = False) -> None:
        """Draw the board at event ``seq`` and explain it."""
        if self.n_events == 0:
            return
        seq = min(max(int(seq), 0), self.n_events - 1)
        if seq == self.seq and not force:
            return
        self.seq = seq
        if self.slider.value != seq:
            self.slider.value = seq  # re-enters show() through the observer, then returns early
        step = self.history.steps[self.history.step_of(seq)]
        state = step.state
        event = VISIBILITY.event(state.log[seq], self.viewer)
        self.field.update(state)
        self.field.set_highlight(event_cell=event.cell)
        self.board.update(state)
        self.players.update(state, self.viewer)
        self.events.update(state, self.viewer, current=seq)
        what = step.label or (step.action.describe() if step.action is not None else "")
        who = f"{H.chip(step.player)} " if step.player is not None else ""
        self.explanation.value = (
            f'<div style="font-family:sans-serif;font-size:13px;padding:4px;border:1px solid #ccc;border-radius:4px">'
            f"<div><b>Event #{event.seq}</b> (events #0 to #{self.n_events - 1}) &middot; {escape(event.when())} "
            f"&middot; <i>{escape(EVENT_KINDS.get(event.kind, event.kind))}</i></div>"
            f'<div style="font-size:15px;margin:3px 0">{escape(name_cells(event.text))}</div>'
            f'<div style="color:#555">Step {self.history.step_of(seq) + 1} of {len(self.history)}: {who}'
            f"{escape(what)} (events #{step.first} to #{step.last}); the board shows the state after this step.</div></div>")
