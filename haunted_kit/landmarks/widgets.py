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

They only draw and forward; every rule answer comes from the state. CSS classes:
``hk-landmarks-panel``, ``hk-record-step``, ``hk-explanation``.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W
from ipycanvas import Canvas

from .draw import panel_scene
from ..protocol import states_along as protocol_states_along
from ..widgets.canvas import draw_primitives, held
from ..widgets.errors import ErrorReporting


class LandmarksPanel(W.VBox):
    """The village and landmark panel on a canvas; ``update(state)`` redraws it."""

    def __init__(self, state, viewer: int | None = None, **kw):
        super().__init__(**kw)
        self.add_class("hk-landmarks-panel")
        self.viewer = viewer
        prims, w, h = panel_scene(state, viewer)
        self.canvas = Canvas(width=int(w), height=int(h), layout=W.Layout(width=f"{int(w)}px", height=f"{int(h)}px"))
        self.children = [self.canvas]
        self.state = None
        self.update(state)

    def update(self, state, viewer=...) -> None:
        if viewer is not ...:
            self.viewer = viewer
        self.state = state
        prims, w, h = panel_scene(state, self.viewer)
        with held():
            if (self.canvas.width, self.canvas.height) != (int(w), int(h)):
                self.canvas.width, self.canvas.height = int(w), int(h)
                self.canvas.layout.height = f"{int(h)}px"
            draw_primitives(self.canvas, prims)


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
                                  layout=W.Layout(width="420px"))
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
        self.children = [W.HBox([self.b_first, self.b_prev, self.slider, self.b_next, self.b_last]), self.explanation,
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
            what = f"P{entry.player + 1}: {escape(_describe(entry.action, before))}"
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
        table = before.options()
        rows = "".join(
            f"<tr><td>{escape(r.option)}</td><td>{'yes' if r.legal else 'no'}</td><td>{r.ways}</td>"
            f"<td>{escape(r.reason)}</td></tr>" for r in table.itertuples())
        return (f'<div style="font-family:sans-serif;font-size:12px"><b>P{entry.player + 1}\'s choices at this step</b>'
                f'<table style="border-collapse:collapse"><tr><th>option</th><th>legal</th><th>ways</th><th>why not</th></tr>'
                f"{rows}</table></div>")
