"""Drawing scene primitives on ipycanvas layers, safely batched, with a command counter.

* :func:`held` - like :func:`ipycanvas.hold_canvas` (all commands go out in one message)
  but safe on errors: if drawing raises, the half-drawn batch is dropped, the canvas
  manager leaves caching mode and the next draw reaches the canvas again (ipycanvas
  0.14's ``hold_canvas`` has no ``finally`` and would hold every later command forever).
* :func:`draw_primitives` - clear a layer and draw a list of :mod:`haunted_kit.haunted.draw.scene`
  primitives with few commands (vectorised fills for runs of polygons, circles, rects).
* :func:`fit_to_output` - a board drawn at its own size but scaled down (its aspect kept)
  where the notebook's output area is narrower, so no board scrolls sideways or runs under
  the panel beside it (ipycanvas maps a click on a scaled canvas back to canvas pixels); on a
  phone never below 12 CSS px text, panning sideways in its box instead.
* :func:`on_tap` - a click or a tap on a touch screen, one callback: ipycanvas turns a finger
  into touch events (no mouse click ever comes), so every board that takes clicks wires
  its click handler through it, in one line.
* :class:`TouchScroll` - put under a board: a swipe or a mouse wheel on its canvas scrolls the page and pans
  the board in its box (ipycanvas cancels every touch on a canvas), a tap still a click.
* :func:`pan_parts` - the box a board's canvases pan in (only they pan: the lines under the board
  stay in view), its :class:`PanCue` (a line over it, shown only while the board is wider than
  its box: "← left" / "right →" buttons and the words "Swipe or scroll sideways to see the whole
  board.", said to a screen reader; the box then a named region the arrow keys scroll) and its
  :class:`TouchScroll`; every canvas board of the kit is built with it.
* :class:`CommandCounter` - counts the messages and canvas commands sent to the
  browser (for the benchmark and for tests that a redraw touched only one layer).
"""

from __future__ import annotations

import contextlib

import anywidget
import ipywidgets as W
import traitlets
import numpy as np
from ipycanvas import canvas as _ipc

from ..render import style as S
from ..render.pancue import PAN_CUE_JS
from .access import WITH_HOST_JS
from ..render.primitives import Circle, Poly, Polyline, Rect, Segments, Text


#: a window narrower than this (CSS px) is a phone's: a board there keeps its text readable
PHONE_MAX_PX = 600
#: the least size in CSS px of a board's text on a phone (the kit's readability floor)
PHONE_TEXT_PX = 12.0
#: the CSS class of the box a board's canvases pan in (:func:`pan_parts`)
PAN_BOX_CLASS = "hk-pan-box"
#: the CSS class of a canvas whose least text is at least PHONE_TEXT_PX at its own size (a page's
#: test reads a drawn board's least text from it: a canvas' words are not in the DOM)
READABLE_CLASS = "hk-text-12"


def least_text_class(min_text: float) -> str:
    """The CSS class naming a canvas' least text at its own size, in hundredths of a px
    (``hk-least-text-900``: 9 px): a canvas' words are not in the DOM, so a page's test reads
    the size from it and multiplies it by the canvas' drawn scale."""
    return f"hk-least-text-{int(round(min_text * 100))}"


def phone_min_width(width: float, min_text: float = S.MIN_TEXT_PX) -> str:
    """The CSS ``min-width`` of a board ``width`` px wide whose smallest text is ``min_text``
    px at its own size: on a window narrower than :data:`PHONE_MAX_PX` it is drawn at least
    ``width * PHONE_TEXT_PX / min_text`` px wide (so its text is >= 12 CSS px and it pans in
    its box), elsewhere 0 (it may scale down to fit). One CSS value, no media query:
    ``clamp(0px, (PHONE_MAX_PX - 100vw) * 1000, N px)``."""
    need = int(round(width * PHONE_TEXT_PX / min_text))
    return f"clamp(0px, calc(({PHONE_MAX_PX}px - 100vw) * 1000), {need}px)"


def fit_to_output(canvas, width: float, height: float, box=None, min_text: float = S.MIN_TEXT_PX) -> None:
    """Lay ``canvas`` (an ipycanvas ``Canvas`` or ``MultiCanvas`` of ``width`` x ``height``
    pixels) out at its own size, but never wider than its container (CSS ``max-width:
    100%``, ``height: auto``: scaled down with its aspect kept in a narrow output area, such as
    a notebook's ~850 px) - except on a phone, where it is never drawn so small that its
    smallest text (``min_text`` px at its own size) is under 12 CSS px
    (:func:`phone_min_width`): there it pans sideways in ``box``. ``box``: the widget holding
    it, allowed to shrink in a row (``flex: 0 1 auto``, ``min-width: 0``) instead of
    overflowing it, scrolling sideways when the board is wider. The canvas carries its least
    text as a class (:func:`least_text_class`). Clicks stay right: ipycanvas scales a click's
    position by the canvas' drawn size."""
    canvas.layout = W.Layout(width=f"{int(width)}px", max_width="100%", height="auto",
                             min_width=phone_min_width(width, min_text))
    canvas.add_class(least_text_class(min_text))
    if min_text >= PHONE_TEXT_PX:
        canvas.add_class(READABLE_CLASS)
    if box is not None:
        box.layout.flex, box.layout.min_width, box.layout.max_width = "0 1 auto", "0", "100%"
        box.layout.overflow = "auto"  # a board drawn wider than the box (a phone) pans in it


#: a finger that moves more than this (canvas px) between touching and lifting is a swipe, not a tap
TAP_SLOP_PX = 10.0


def on_tap(canvas, callback) -> None:
    """Call ``callback(x, y)`` (canvas pixels) on a mouse click on ``canvas`` (an ipycanvas
    ``Canvas`` or ``MultiCanvas``) and on a tap of one finger on a touch screen, so a board
    answers a phone as it answers a mouse. A tap is a touch start with one finger and its end
    (ipycanvas reports the end with the fingers still down, none for the last one) without a
    move of more than :data:`TAP_SLOP_PX` in between (a swipe) and without a second finger (a
    pinch); the tap is at the touch start's point. A touch cancelled by the browser is no tap."""
    start: list = []

    def touch_start(touches) -> None:
        start[:] = [tuple(touches[0])] if len(touches) == 1 and not start else [None]

    def touch_move(touches) -> None:
        if start and start[0] is not None and touches:
            x, y = touches[0]
            x0, y0 = start[0]
            if abs(x - x0) > TAP_SLOP_PX or abs(y - y0) > TAP_SLOP_PX:
                start[:] = [None]

    def touch_end(touches) -> None:
        if touches:          # other fingers are still down: not a one-finger tap
            return
        point = start[0] if start else None
        start.clear()
        if point is not None:
            callback(*point)

    canvas.on_mouse_down(callback)
    canvas.on_touch_start(touch_start)
    canvas.on_touch_move(touch_move)
    canvas.on_touch_end(touch_end)
    canvas.on_touch_cancel(lambda _t: start.clear())


class TouchScroll(anywidget.AnyWidget):
    """An invisible widget put in a board's box (the element with CSS class ``box_class``):
    ipycanvas cancels every touch and every mouse wheel turn on its canvas (``preventDefault``),
    so a swipe or a wheel over a board would never scroll the page nor pan a phone's board in
    its box (and each wheel step would be a message to the kernel). This keeps a finger's and a
    wheel's events on the box's canvases from ipycanvas (stopped on their way down, in the
    capture phase): the browser then scrolls and pans as anywhere else and turns a tap into the
    mouse click the board takes (:func:`on_tap` also takes a tap that ipycanvas does see)."""

    _esm = WITH_HOST_JS + """
    function render({ model, el }) {
      hkWithHost(el, model.get("box_class"), (box) => {
        if (box.dataset.hkTouchScroll) return;
        box.dataset.hkTouchScroll = "1";
        for (const t of ["touchstart", "touchmove", "touchend", "touchcancel", "wheel"]) {
          box.addEventListener(t, (e) => { if (e.target.tagName === "CANVAS") e.stopPropagation(); },
                               { capture: true, passive: true });
        }
      });
    }
    export default { render };
    """
    box_class = traitlets.Unicode("").tag(sync=True)

    def __init__(self, box_class: str, **kw):
        super().__init__(box_class=box_class, layout=W.Layout(height="0px", margin="0px", overflow="hidden"), **kw)


class PanCue(anywidget.AnyWidget):
    """The line over a board's pan box (the element of CSS class :data:`PAN_BOX_CLASS` inside the
    board's widget of CSS class ``host_class``), drawn by the kit's one pan script
    (:data:`~haunted_kit.render.pancue.PAN_CUE_JS`, the table server's pages run it too): shown only
    while the board is wider than its box, "← left" and "right →" buttons around the words
    :data:`~haunted_kit.render.pancue.PAN_WORDS` (a live region: a screen reader says them when the
    board starts to overflow); the box is then a focusable region named after ``name`` that the
    arrow keys scroll. ``pan_x``: the fraction of the board's width to bring to the box's middle (a
    question's cells; -1: none), again whenever the box or the board in it is laid out anew; ``show``: ``[x0, x1, n]``,
    the part of the board from fraction ``x0`` to ``x1`` brought into view if it is not (the
    keyboard's cursor; ``n`` counts the requests, so the same part asked again pans again)."""

    _esm = WITH_HOST_JS + PAN_CUE_JS + """
    function render({ model, el }) {
      const cue = document.createElement("div");
      el.appendChild(cue);
      hkWithHost(el, model.get("host_class"), (host) => {
        const box = host.querySelector(".""" + PAN_BOX_CLASS + """");
        if (!box) return;
        hkPanCue(box, cue, { live: true, name: model.get("name"), what: model.get("what") });
        const centre = () => { const f = model.get("pan_x"); if (f >= 0) hkPanShow(box, f, f); };
        const show = () => { const s = model.get("show"); if (s.length >= 2) hkPanShow(box, s[0], s[1]); };
        centre();
        show();
        model.on("change:pan_x", centre);
        model.on("change:show", show);
        if (window.ResizeObserver) {  // the box or the board laid out anew (a notebook may draw the board after the box)
          let size = [box.clientWidth, box.scrollWidth];
          const ro = new ResizeObserver(() => {
            if (box.clientWidth !== size[0] || box.scrollWidth !== size[1]) { size = [box.clientWidth, box.scrollWidth]; centre(); show(); }
          });
          ro.observe(box);
          for (const c of box.children) ro.observe(c);
        }
      });
    }
    export default { render };
    """
    host_class = traitlets.Unicode("").tag(sync=True)
    name = traitlets.Unicode("The board").tag(sync=True)
    what = traitlets.Unicode("the board").tag(sync=True)
    pan_x = traitlets.Float(-1.0).tag(sync=True)
    show = traitlets.List(traitlets.Float(), []).tag(sync=True)

    def __init__(self, host_class: str, name: str = "The board", **kw):
        super().__init__(host_class=host_class, name=name, what=name[:1].lower() + name[1:],
                         layout=W.Layout(max_width="100%"), **kw)

    def show_part(self, x0: float, x1: float) -> None:
        """Bring the board's part from fraction ``x0`` to ``x1`` of its width into view (if it is not)."""
        n = self.show[2] + 1 if len(self.show) > 2 else 1
        self.show = [round(x0, 4), round(x1, 4), float(n)]


def pan_parts(host, host_class: str, canvases, name: str):
    """The pan machinery of a board widget ``host`` (a ``VBox``, given CSS class ``host_class``)
    whose ``canvases`` may be drawn wider than it (a phone keeping 12 px text): returns ``(cue,
    box, touch)``, to put in the host's children in that order's places: the :class:`PanCue`
    over the board, the box holding the canvases (CSS class :data:`PAN_BOX_CLASS`; lay each
    canvas out with :func:`fit_to_output` ``box=box``), and the :class:`TouchScroll` (anywhere,
    last by custom). Only the box pans: what the host shows under the board (its keyboard line,
    "What is this?") stays in view. ``name``: the board's name ("The field"), for the box's region
    and the buttons."""
    host.add_class(host_class)
    host.layout.min_width, host.layout.max_width = "0", "100%"
    box = W.VBox(list(canvases), layout=W.Layout(max_width="100%", min_width="0", overflow="auto"))
    box.add_class(PAN_BOX_CLASS)
    return PanCue(host_class, name), box, TouchScroll(host_class)


def _manager():
    return _ipc._CANVAS_MANAGER


def forget_current_canvas() -> None:
    """Make the next canvas command send its canvas switch again. A new browser view has a
    fresh canvas manager with no current canvas, while the kernel's manager may still
    think a canvas is current (it drew before the view existed) and would send no switch."""
    _manager()._current_canvas = None


def redraw_for_new_views(canvas, redraw) -> None:
    """Call ``redraw()`` whenever a new browser view of ``canvas`` (a page opened or
    reloaded, Voila) says it is ready: drawing commands sent before a view exists never
    reach it. The canvas switch is sent again first (:func:`forget_current_canvas`)."""
    def ready() -> None:
        forget_current_canvas()  # a new browser view has no current canvas yet
        redraw()

    canvas.on_client_ready(ready)


@contextlib.contextmanager
def held():
    """Batch every canvas command of the block into one message (see module doc)."""
    mgr = _manager()
    was = mgr._caching
    n_cmd, n_buf = len(mgr._commands_cache), len(mgr._buffers_cache)
    mgr._caching = True
    ok = False
    try:
        yield
        ok = True
    finally:
        if not ok:
            del mgr._commands_cache[n_cmd:]
            del mgr._buffers_cache[n_buf:]
            forget_current_canvas()  # the dropped batch may have held the canvas switch
        if not was:
            try:
                if ok:
                    mgr.flush()
                else:
                    mgr._commands_cache, mgr._buffers_cache = [], []
            finally:
                mgr._caching = False


class CommandCounter:
    """Count what goes to the browser while the block runs::

        with CommandCounter() as cc:
            field.redraw()
        cc.messages, cc.commands, cc.bytes
    """

    def __init__(self):
        self.messages = 0
        self.commands = 0
        self.bytes = 0
        self._orig = None

    def __enter__(self):
        mgr = _manager()
        self._orig = mgr._send_custom
        counter = self

        def send(command, buffers=[]):  # noqa: B006 - same signature as ipycanvas
            counter.messages += 1
            if command and isinstance(command[0], list):
                counter.commands += len(command)
            else:
                counter.commands += 1
            counter.bytes += sum(len(memoryview(b).cast("B")) for b in buffers)
            return counter._orig(command, buffers)

        mgr._send_custom = send
        return self

    def __exit__(self, *exc):
        mgr = _manager()
        if mgr.__dict__.get("_send_custom") is not None:
            del mgr._send_custom
        return False


def _font(size: float, bold: bool) -> str:
    return f"{'bold ' if bold else ''}{size:.1f}px {S.FONT}"


_ALIGN = {"start": "left", "middle": "center", "end": "right"}


def _runs(prims):
    """Consecutive primitives of the same type, as (type, [primitives])."""
    out = []
    for p in prims:
        if out and type(p) is out[-1][0]:
            out[-1][1].append(p)
        else:
            out.append((type(p), [p]))
    return out


def _stroke_groups(items):
    groups: dict = {}
    for p in items:
        if p.stroke:
            groups.setdefault((p.stroke, p.width, getattr(p, "dash", ())), []).append(p)
    return groups.items()


def _set_stroke(c, stroke, width, dash, cur):
    if cur.get("stroke_style") != stroke:
        c.stroke_style = stroke
        cur["stroke_style"] = stroke
    if cur.get("line_width") != width:
        c.line_width = width
        cur["line_width"] = width
    dash = list(dash)
    if cur.get("dash") != dash:
        c.set_line_dash(dash)
        cur["dash"] = dash


def _polys(points_list):
    n = {len(p) for p in points_list}
    if len(n) == 1:
        return np.asarray(points_list, dtype=np.float32)
    return [np.asarray(p, dtype=np.float32) for p in points_list]


def _rgb(colours):
    return np.asarray([S.rgb(c) for c in colours], dtype=np.uint8)


def draw_primitives(c, prims, clear: bool = True) -> None:
    """Draw scene primitives on canvas layer ``c`` (call inside :func:`held`)."""
    if clear:
        c.clear()
    cur: dict = {}
    c.line_join = "round"
    c.line_cap = "round"
    c.text_baseline = "middle"
    for kind, items in _runs(prims):
        if kind is Poly:
            filled = [p for p in items if p.fill]
            if filled:
                alphas = [p.alpha for p in filled]
                alpha = alphas[0] if len(set(alphas)) == 1 else np.asarray(alphas, dtype=np.float32)
                c.fill_styled_polygons(_polys([p.points for p in filled]), _rgb([p.fill for p in filled]), alpha)
            for (stroke, width, dash), group in _stroke_groups(items):
                _set_stroke(c, stroke, width, dash, cur)
                c.stroke_polygons(_polys([p.points for p in group]))
        elif kind is Segments:
            for p in items:
                _set_stroke(c, p.stroke, p.width, (), cur)
                c.stroke_line_segments(np.asarray(p.segments, dtype=np.float32))
        elif kind is Polyline:
            for p in items:
                _set_stroke(c, p.stroke, p.width, p.dash, cur)
                c.stroke_lines(np.asarray(p.points, dtype=np.float32))
        elif kind is Circle:
            filled = [p for p in items if p.fill]
            if filled:
                c.fill_styled_circles(np.asarray([p.x for p in filled], dtype=np.float32),
                                      np.asarray([p.y for p in filled], dtype=np.float32),
                                      np.asarray([p.r for p in filled], dtype=np.float32),
                                      _rgb([p.fill for p in filled]))
            for (stroke, width, dash), group in _stroke_groups(items):
                _set_stroke(c, stroke, width, dash, cur)
                c.stroke_circles(np.asarray([p.x for p in group], dtype=np.float32),
                                 np.asarray([p.y for p in group], dtype=np.float32),
                                 np.asarray([p.r for p in group], dtype=np.float32))
        elif kind is Rect:
            filled = [p for p in items if p.fill]
            if filled:
                c.fill_styled_rects(np.asarray([p.x for p in filled], dtype=np.float32),
                                    np.asarray([p.y for p in filled], dtype=np.float32),
                                    np.asarray([p.w for p in filled], dtype=np.float32),
                                    np.asarray([p.h for p in filled], dtype=np.float32),
                                    _rgb([p.fill for p in filled]))
            for (stroke, width, dash), group in _stroke_groups(items):
                _set_stroke(c, stroke, width, dash, cur)
                c.stroke_rects(np.asarray([p.x for p in group], dtype=np.float32),
                               np.asarray([p.y for p in group], dtype=np.float32),
                               np.asarray([p.w for p in group], dtype=np.float32),
                               np.asarray([p.h for p in group], dtype=np.float32))
        elif kind is Text:
            for p in items:
                font = _font(p.size, p.bold)
                if cur.get("font") != font:
                    c.font = font
                    cur["font"] = font
                if cur.get("fill_style") != p.fill:
                    c.fill_style = p.fill
                    cur["fill_style"] = p.fill
                align = _ALIGN[p.anchor]
                if cur.get("text_align") != align:
                    c.text_align = align
                    cur["text_align"] = align
                c.fill_text(p.text, p.x, p.y)
        else:  # pragma: no cover
            raise TypeError(f"not a scene primitive: {kind.__name__}")
