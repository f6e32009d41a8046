"""Keyboard play and a text alternative for the field (an ARIA live region).

:class:`FieldKeys` is a small focusable element (an ``anywidget``) shown under the
board: with it focused, the arrow keys move a cell cursor (drawn on the board like the
mouse hover), **Enter** or **Space** acts on the cursor's cell exactly as a click does,
**Home** brings the cursor back to the sensor of the player to move. Its text is an ARIA
live region (``role="status"``, ``aria-live="polite"``) that says the focused cell's
facts and the last event, so a screen reader announces every move and every change of
the game. The element sets ``data-lm-suppress-shortcuts`` and stops the keys it uses,
so JupyterLab's notebook shortcuts do not fire while it has the focus. It also removes
the keyboard trap of ipycanvas (whose canvas takes the focus and swallows every key,
Tab included): the canvas leaves the Tab order, and if a click focuses it, Tab leaves
it and the field keys still work.

:class:`Landmark` makes the widget holding it a named region landmark (the exercise view).

CSS classes: ``hk-keys`` (the focusable element), ``hk-live`` (the live region).
"""

from __future__ import annotations

from collections import deque
import anywidget
import ipywidgets as W
import traitlets

#: JavaScript every widget that acts on the board widget holding it starts with: ``hkWithHost(el,
#: cls, then)`` calls ``then(host)`` once the widget's element ``el`` is in the page inside an element
#: of CSS class ``cls`` (a widget's view is put in the page after its render runs)
WITH_HOST_JS = """
function hkWithHost(el, cls, then) {
  let tries = 0;
  const attach = () => {
    const host = el.closest("." + cls);
    if (!host) { if (tries++ < 600) requestAnimationFrame(attach); return; }
    then(host);
  };
  attach();
}
"""

#: keys the field answers, and the direction of the arrows in screen pixels (x right, y down)
ARROWS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
ACT_KEYS = ("Enter", " ")
HOME_KEY = "Home"


def cursor_step(geom, cells, cell, key: str):
    """The cell the cursor moves to from ``cell`` with arrow ``key``: the nearest cell
    whose centre lies within about 50 degrees of the arrow's direction (so Up and Down
    zig-zag through the rows of hexes); ``cell`` itself at the edge of the field."""
    dx, dy = ARROWS[key]
    x0, y0 = geom.centre(cell)
    best = None
    for c in cells:
        if c == cell:
            continue
        x, y = geom.centre(c)
        along = (x - x0) * dx + (y - y0) * dy
        across = abs((x - x0) * dy - (y - y0) * dx)
        if along <= 0 or across > 1.2 * along:
            continue
        score = (along * along + across * across) ** 0.5 + across
        if best is None or score < best[0] or (score == best[0] and c < best[1]):
            best = (score, c)
    return cell if best is None else best[1]


class FieldKeys(anywidget.AnyWidget):
    """The focusable keyboard element with the live region. ``text`` is what the live
    region says; key presses arrive as ``{"event": "key", "key": ...}`` messages (use
    ``on_msg``)."""

    _esm = WITH_HOST_JS + """
    const KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter", " ", "Home"];
    function render({ model, el }) {
      const pad = document.createElement("div");
      pad.className = "hk-keys";
      pad.tabIndex = 0;
      pad.setAttribute("role", "group");
      pad.setAttribute("aria-label", model.get("label"));
      pad.setAttribute("data-lm-suppress-shortcuts", "true");
      pad.style.cssText = "font-family:sans-serif;font-size:13px;border:1px solid #999;border-radius:4px;" +
                          "padding:3px 6px;margin:2px 0;max-width:100%;";
      const live = document.createElement("div");
      live.className = "hk-live";
      live.setAttribute("role", "status");
      live.setAttribute("aria-live", "polite");
      live.setAttribute("aria-atomic", "true");
      live.textContent = model.get("text");
      pad.appendChild(live);
      pad.addEventListener("keydown", (e) => {
        if (!KEYS.includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
        e.preventDefault();
        e.stopPropagation();
        model.send({ event: "key", key: e.key });
      });
      pad.addEventListener("focus", () => { pad.style.outline = "3px solid #0072b2"; model.send({ event: "focus" }); });
      pad.addEventListener("blur", () => { pad.style.outline = "none"; });
      model.on("change:text", () => { live.textContent = model.get("text"); });
      el.appendChild(pad);
      // ipycanvas makes the board's <canvas> a tab stop that swallows every key, Tab included (a
      // keyboard trap). Once this element is in the page: take the canvas out of the Tab order (this
      // element is the field's tab stop) and, should a mouse click focus the canvas, let Tab leave it
      // and send the field keys here, before ipycanvas sees them.
      hkWithHost(el, "hk-field-box", (box) => {
        const untab = () => box.querySelectorAll("canvas").forEach((c) => {
          if (c.getAttribute("tabindex") !== "-1") c.setAttribute("tabindex", "-1");
        });
        untab();
        new MutationObserver(untab).observe(box, { subtree: true, childList: true, attributes: true,
                                                  attributeFilter: ["tabindex"] });
        box.addEventListener("keydown", (e) => {
          if (e.target.tagName !== "CANVAS") return;
          e.stopPropagation();                       // ipycanvas never sees it: Tab works again
          if (KEYS.includes(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
            e.preventDefault();
            model.send({ event: "key", key: e.key });
          }
        }, true);
      });
    }
    export default { render };
    """
    text = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("The field: arrow keys move the cell cursor, Enter acts on the cell, "
                              "Home goes back to your sensor.").tag(sync=True)

    def press(self, key: str) -> None:
        """Deliver a key press through the widget's own message path, as the browser would."""
        self._handle_custom_msg({"event": "key", "key": key}, [])


def keys_to(geom, cells, start, target) -> list[str]:
    """The shortest list of arrow keys that brings the cursor from ``start`` to
    ``target`` (breadth-first over :func:`cursor_step`); raises ValueError if the
    arrows cannot reach it."""

    start, target = tuple(start), tuple(target)
    seen = {start: []}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if c == target:
            return seen[c]
        for key in ARROWS:
            n = cursor_step(geom, cells, c, key)
            if n not in seen:
                seen[n] = seen[c] + [key]
                queue.append(n)
    raise ValueError(f"the arrow keys cannot reach {target} from {start}")


class Landmark(anywidget.AnyWidget):
    """An invisible widget that makes the widget of CSS class ``host_class`` holding it a named
    region landmark (``role="region"``, ``aria-label`` = ``label``, kept up to date): a screen
    reader lists it among the page's landmarks and jumps to it, and on a page without landmarks
    of its own (a notebook in Voila) its content is inside one (axe-core's ``region`` rule)."""

    _esm = WITH_HOST_JS + """
    function render({ model, el }) {
      hkWithHost(el, model.get("host_class"), (host) => {
        host.setAttribute("role", "region");
        const name = () => host.setAttribute("aria-label", model.get("label"));
        name();
        model.on("change:label", name);
      });
    }
    export default { render };
    """
    host_class = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)

    def __init__(self, host_class: str, label: str = "", **kw):
        super().__init__(host_class=host_class, label=label, layout=W.Layout(height="0px", margin="0px", overflow="hidden"), **kw)
