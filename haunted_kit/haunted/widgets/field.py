"""The field on an ipycanvas MultiCanvas: terrain, pieces, highlights and hover layers.

    fw = FieldWidget(state, size=34)
    fw.on_click(lambda cell: print("clicked", cell))
    fw.set_highlight([(1, 0), (0, 1)])          # legal targets, reachable cells...
    fw.set_highlight(path=[(0, 0), (1, 0), (2, 0)])
    fw.update(new_state)                        # redraws only the layers that changed
    fw                                          # display it

The canvas carries the CSS class ``hk-field`` (ipycanvas renders the whole MultiCanvas
as one ``<canvas>`` element, so the selector is ``canvas.hk-field``); the line under it
that shows the hovered cell's facts and hints has the class ``hk-hover``.

Under it, the key of the codes it draws and "What is this?" (:attr:`FieldWidget.whatis`,
:class:`~haunted_kit.widgets.whatis.WhatIsThis`): while its toggle is pressed a click says
what is on the cell (its facts, each code with its rule section and box value) instead of
being passed on; its "What is at" list answers the same from the keyboard.

The widget only draws and forwards: a click calls back with the cell under the mouse
(axial ``(q, r)``); deciding what the click means is the caller's business. The field
can be played by keyboard too (:mod:`.access`): under the board, a focusable element
moves a cell cursor with the arrow keys (a white-and-black ring on the cell's outline, which
the board's pan box brings into view on a phone) and sends Enter as a click on the cursor's
cell; its ARIA live region says the cell's facts and the last event. The canvas pans in a box
of its own under the kit's pan cue (:func:`~haunted_kit.widgets.canvas.pan_parts`), so the
keyboard line and the lines under the board stay in view.
"""

from __future__ import annotations

from collections import Counter
from html import escape

import ipywidgets as W
from ipycanvas import MultiCanvas

from .. import rules as R
from ...events import shown_text
from ...render import style as S
from ..draw.geometry import board_geometry
from ..state import VISIBILITY
from ..draw.scene import highlight_layer, hover_layer, least_text, pieces_key, pieces_layer, terrain_layer
from ...widgets.canvas import draw_primitives, fit_to_output, held, on_tap, pan_parts
from ...widgets.errors import ErrorReporting
from ...widgets.whatis import WhatIsThis
from ...widgets.access import ACT_KEYS, ARROWS, HOME_KEY, FieldKeys, cursor_step

LAYER_NAMES = ("terrain", "pieces", "highlights", "hover")


def cell_facts(state, cell, cost: bool = True, shapes: bool = False) -> str:
    """Plain words about one cell: terrain, tile, lake nearby, pieces on it, and (with
    ``cost``) the exploration cost for the player to move (from
    :func:`haunted_kit.haunted.rules.explore_cost`). With ``shapes`` the pieces drawn as a
    shape say which (the key's names: "black diamond", "ringed disc"), for "What is this?"."""
    f = state.field
    i = f.cell_index(cell)
    box = state.config.box
    bits = [f.describe(i)]
    if f.near_lake[i] and f.terrain[i] != "lake":
        bits.append("next to a lake")
    if state.ghosts[i]:
        bits.append("a ghost")
    if state.depleted[i]:
        bits.append("a depletion token" + (" (black diamond)" if shapes else ""))
    if state.building[i] >= 0:
        bits.append(f"{S.player_name(state.owner[i])}'s {list(box.buildings)[state.building[i]]}")
    here = [S.player_name(p) for p, c in enumerate(state.sensor) if c == i]
    if here:
        bits.append("sensor" + ("s" if len(here) > 1 else "") + " of " + ", ".join(here))
        p = state.current_player()
        if shapes and p is not None and state.sensor[p] == i:
            bits.append(f"{S.player_name(p)}'s sensor is to move (ringed disc)")
    p = state.current_player()
    if cost and p is not None and state.phase == "turns" and not state.pending and state.sensor[p] != i:
        cost = R.explore_cost(state, p, i)
        bits.append("cannot be explored" if cost is None else f"exploring here costs {S.player_name(p)} {cost}")
    return "; ".join(bits)


class FieldWidget(ErrorReporting, W.VBox):
    """The field, drawn on four canvas layers, clickable and hoverable.

    Args:
        state: the state to draw (raises :class:`~haunted_kit.render.RenderError` at
            construction when it cannot be drawn, e.g. an unknown terrain).
        size: hex size in pixels (centre to corner).
        viewer: the player whose view this is (thicker edge on their sensor).
        show_labels: terrain letters on the cells.
        show_coords: the axial coordinates of every cell next to its letter (the exercises
            name cells by them).
        hover: show the facts of the cell under the mouse.
        keyboard: the keyboard element with its live region (:mod:`.access`).
        last_event: the live region also says the last event (an exercise's board does not:
            the position's last event may tell the answer).
        key: the key of the codes drawn and "What is this?" under the board
            (:class:`~haunted_kit.widgets.whatis.WhatIsThis`; while its toggle is pressed a
            click is a question, not a move).

    Attributes:
        canvas: the :class:`ipycanvas.MultiCanvas` (layers in :data:`LAYER_NAMES` order).
        geom: the shared :class:`~haunted_kit.render.geometry.BoardGeometry`.
        info: the hover/hint line (HTML widget, class ``hk-hover``).
        whatis: the :class:`~haunted_kit.widgets.whatis.WhatIsThis` under the board, or ``None``.
        draw_counts: how many times each layer was drawn (a Counter).
        last_hint: the last hint shown (e.g. for a click off the field).
    """

    def __init__(self, state, *, size: float = 34, viewer=None, show_labels: bool = True, hover: bool = True,
                 keyboard: bool = True, show_coords: bool = False, key: bool = True, last_event: bool = True, **kw):
        S.check_drawable(state)
        super().__init__(**kw)
        self.last_event = last_event  # the live region says the last event (an exercise's board does not: it may tell the answer)
        self.geom = board_geometry(state.config.box, size)
        self.viewer = viewer
        self.show_labels = show_labels
        self.show_coords = show_coords
        self.hover_enabled = hover
        self.canvas = MultiCanvas(len(LAYER_NAMES), width=self.geom.width, height=self.geom.height)
        self.canvas.add_class("hk-field")
        self.info = W.HTML(value="&nbsp;")
        self.info.add_class("hk-hover")
        banner = self._init_errors()
        # ipycanvas focuses the canvas on mousedown before it reads the click position; focusing a
        # partly visible canvas scrolls the page and the click lands on another cell. A negative
        # scroll margin makes the browser count the canvas as already in view, so focus never scrolls.
        self.focus_fix = W.HTML("<style>canvas.hk-field { scroll-margin: -100000px; }</style>",
                                layout=W.Layout(height="0px", margin="0px"))
        self.whatis = WhatIsThis(width=self.geom.width) if key else None
        below = [self.whatis] if self.whatis is not None else []
        # only the canvas pans in its box (a phone), under its cue; a swipe on it scrolls the page
        self.pan, self.pan_box, self.touch = pan_parts(self, "hk-field-box", [self.canvas], "The field")
        self.children = [self.pan, self.pan_box, self.info, *below, banner, self.focus_fix, self.touch]
        #: the keyboard element with the ARIA live region (:mod:`.access`), or ``None``
        self.keypad = None
        self.cursor = None
        self._message = ""
        if keyboard:
            # as wide as the board: a long sentence wraps instead of widening the field
            self.keypad = FieldKeys(layout=W.Layout(width=f"{self.geom.width}px", max_width="100%"))
            self.keypad.on_msg(self.guard(self._on_key_msg, "handling a key on the field"))
            self.children = [self.pan, self.pan_box, self.keypad, self.info, *below, banner, self.focus_fix, self.touch]
        # scaled down in a narrow output area; on a phone never under 12 CSS px text (its least text
        # in any position), panning in its box instead
        fit_to_output(self.canvas, self.geom.width, self.geom.height, box=self.pan_box,
                      min_text=least_text(size, show_labels, show_coords, S.MIN_TEXT_PX))
        self.draw_counts: Counter = Counter()
        self.last_hint = ""
        self._click_handlers: list = []
        self._miss_handlers: list = []
        self._keys: dict = {}
        self._prims: dict = {}  # each layer's primitives as drawn last (the key and "What is this?" read them)
        self._highlight = ((), (), None)
        self._hover_index = None
        self._hover_cursor = False  # the hover layer shows the keyboard's cursor ring, not the mouse's outline
        self.state = state
        on_tap(self.canvas, self.guard(self._on_mouse_down, "handling a click on the field"))
        self.canvas.on_mouse_move(self.guard(self._on_mouse_move, "showing the cell under the mouse"))
        self.canvas.on_mouse_out(self.guard(self._on_mouse_out, "clearing the hover"))
        for name in LAYER_NAMES:  # a new browser view starts empty: draw that layer again
            self.layer(name).on_client_ready(self.guard(lambda name=name: self._on_client_ready(name),
                                                        "drawing the field for a new view"))
        self.update(state)

    # ------------------------------------------------------------------ drawing
    def layer(self, name: str):
        return self.canvas[LAYER_NAMES.index(name)]

    def _draw(self, name: str, prims_fn, key) -> bool:
        if self._keys.get(name, object()) == key:
            return False
        self._keys.pop(name, None)  # dirty until the draw succeeds
        prims = prims_fn()
        with held():
            draw_primitives(self.layer(name), prims)
        self._prims[name] = prims
        self._keys[name] = key
        self.draw_counts[name] += 1
        return True

    def update(self, state=None, *, viewer=...) -> list[str]:
        """Draw ``state`` (or the current state again), redrawing only the layers whose
        content changed. Returns the names of the layers drawn."""
        if state is not None:
            S.check_drawable(state)
            self.state = state
            if self.last_hint:  # a hint about an earlier position ("outside the field") is not kept as current
                self.last_hint = ""
                if self._hover_index is None:
                    self.info.value = "&nbsp;"
        if viewer is not ...:
            self.viewer = viewer
        s = self.state
        drawn = []
        if self._draw("terrain", lambda: terrain_layer(s.field, self.geom, self.show_labels, self.show_coords, S.MIN_TEXT_PX),
                      (s.field.layout, s.field.terrain, self.show_labels, self.show_coords)):
            drawn.append("terrain")
        if self._draw("pieces", lambda: pieces_layer(s, self.geom, self.viewer), pieces_key(s, self.viewer)):
            drawn.append("pieces")
        hl, path, ev = self._highlight
        if self._draw("highlights", lambda: highlight_layer(s.field, self.geom, hl, path, ev), (s.field.layout,) + self._highlight):
            drawn.append("highlights")
        if self._hover_index is not None and self.hover_enabled:
            self.info.value = escape(shown_text(cell_facts(s, self._hover_index)))  # cells as the board writes them
        self._keyed()
        self._say()
        return drawn

    def _keyed(self) -> None:
        """Give the key and "What is this?" what the board shows now."""
        if self.whatis is not None:
            self.whatis.show(self.state, [p for name in LAYER_NAMES if name != "hover" for p in self._prims.get(name, ())],
                             places=self.state.field.cells, cell_at=self.geom.cell_at,
                             cell_words=lambda cell: cell_facts(self.state, cell, cost=False, shapes=True))

    def set_highlight(self, cells=(), path=(), event_cell=None) -> None:
        """Highlight ``cells`` (a dict cell -> text also writes the text), draw ``path``
        through cell centres, mark ``event_cell``; redraws the highlight layer only."""
        if isinstance(cells, dict):
            key_cells = tuple(sorted((tuple(k) if not isinstance(k, int) else k, str(v)) for k, v in cells.items()))
            cells_val = dict(cells)
        else:
            key_cells = tuple(sorted(tuple(c) if not isinstance(c, int) else (c,) for c in cells))
            cells_val = tuple(cells)
        self._highlight = (cells_val, tuple(path), event_cell)
        s = self.state
        if self._draw("highlights", lambda: highlight_layer(s.field, self.geom, cells_val, path, event_cell),
                      (s.field.layout, key_cells, tuple(path), event_cell)):
            self._keyed()

    def player_cells(self, player: int) -> list:
        """Where ``player`` (0-based) stands: its sensor's cell, as one axial tuple in a list
        (the board's answer to "where is the question's player?", for :meth:`pan_to`)."""
        s = self.state
        return [tuple(s.field.cells[s.sensor[player]])] if 0 <= player < len(s.sensor) else []

    def pan_to(self, cells) -> float:
        """On a phone, where the board is drawn wider than its box and pans sideways, bring
        ``cells`` (axial tuples; the cells a question is about) into view: the box is scrolled
        so their centre is in its middle. Returns that centre as a fraction of the board's
        width (``-1``: no cell given, the box is left as it is); a no-op where the board fits."""
        xs = [self.geom.centre(tuple(c))[0] for c in cells]
        f = -1.0 if not xs else round((min(xs) + max(xs)) / 2 / self.geom.width, 4)
        self.pan.pan_x = f
        return f

    def _on_client_ready(self, name: str) -> None:
        if name == "hover":
            i, self._hover_index = self._hover_index, None
            self._on_hover_index(i, self._hover_cursor)
            return
        self._keys.pop(name, None)
        self.update()

    def redraw(self) -> None:
        """Draw every layer again (a new browser view, or the benchmark)."""
        self._keys.clear()
        self.update()

    # ------------------------------------------------------------------ events
    def on_click(self, callback, remove: bool = False) -> None:
        """``callback(cell)`` when a field cell is clicked (axial tuple)."""
        (self._click_handlers.remove if remove else self._click_handlers.append)(callback)

    def on_miss(self, callback, remove: bool = False) -> None:
        """``callback(x, y)`` when a click lands off every cell."""
        (self._miss_handlers.remove if remove else self._miss_handlers.append)(callback)

    def cell_at(self, x: float, y: float):
        return self.geom.cell_at(x, y)

    def hint(self, text: str) -> None:
        self.last_hint = text
        self.info.value = f'<span style="color:#555">{escape(text)}</span>'
        self._say()

    def _on_mouse_down(self, x, y):
        if self.whatis is not None and self.whatis.take_click(x, y):
            return  # "What is this?" is pressed: a question, not a move
        cell = self.geom.cell_at(x, y)
        if cell is None:
            self.hint("That point is outside the field: click on a cell.")
            for cb in list(self._miss_handlers):
                cb(x, y)
            return
        for cb in list(self._click_handlers):
            cb(cell)

    def _on_mouse_move(self, x, y):
        if self.hover_enabled:
            self._on_hover_index(self.geom.index_at(x, y))

    def _on_mouse_out(self, x=None, y=None):
        if self.hover_enabled:
            self._on_hover_index(None)

    def _on_hover_index(self, i, cursor: bool = False):
        if i == self._hover_index:
            return
        self._hover_index, self._hover_cursor = i, cursor
        self._prims["hover"] = hover_layer(self.geom, i, cursor)
        with held():
            draw_primitives(self.layer("hover"), self._prims["hover"])
        self.draw_counts["hover"] += 1
        if i is None:
            self.info.value = "&nbsp;"
        else:
            self.info.value = escape(shown_text(cell_facts(self.state, i)))

    # ------------------------------------------------------------------ keyboard and live region
    def _home_cell(self):
        s = self.state
        p = s.current_player()
        if p is None:
            p = self.viewer
        return s.field.cells[s.sensor[p]] if p is not None and p < len(s.sensor) else s.field.cells[0]

    def _say(self) -> None:
        """Put the cursor cell's facts and the last event in the live region."""
        if self.keypad is None:
            return
        s = self.state
        parts = []
        if self.cursor is not None:
            parts.append(f"Cursor on {cell_facts(s, s.field.cell_index(self.cursor))}.")
        # compared as shown (cells as the board writes them): the message line may already say it
        last = shown_text(VISIBILITY.event(s.log[-1], self.viewer).text) if s.log and self.last_event else ""
        if last and last not in shown_text(self._message):
            parts.append(f"Last event: {last}")
        text = " ".join(parts) or "The field. Press an arrow key to move the cell cursor."
        for extra in (self.last_hint, self._message):
            if extra:
                text += f" {extra}"
        text = shown_text(text)  # cells as the board writes them, as every message line
        if self.keypad.text != text:
            self.keypad.text = text

    def announce(self, text: str) -> None:
        """Add ``text`` (e.g. a play view's message: the engine's answer) to the live region;
        it replaces any earlier hint (the region never keeps an old message beside a new one)."""
        self._message = text
        self.last_hint = ""
        self._say()

    def move_cursor(self, cell) -> None:
        """Put the keyboard cursor on ``cell`` (a ring inside the cell, :func:`~haunted_kit.haunted.draw.scene.cursor_ring`),
        pan the board to it where it pans (a phone) and say its facts."""
        i = self.state.field.cell_index(cell)
        self.cursor = self.state.field.cells[i]
        self._hover_index = None
        self._on_hover_index(i, cursor=True)
        self._show_cursor()
        self.last_hint = ""
        self._say()

    def _show_cursor(self) -> None:
        """Bring the cursor's cell into the pan box's view (the box pans to it if it is out of view)."""
        xs = [x for x, _y in self.geom.polygon(self.cursor)]
        self.pan.show_part(min(xs) / self.geom.width, max(xs) / self.geom.width)

    def press(self, key: str) -> None:
        """Act on one key as the keyboard element would (arrows, Enter/Space, Home)."""
        if self.cursor is None or key == HOME_KEY:
            self.move_cursor(self._home_cell())
            if key not in ARROWS:
                return
        if key in ARROWS:
            self.move_cursor(cursor_step(self.geom, self.state.field.cells, self.cursor, key))
        elif key in ACT_KEYS:
            self.last_hint = ""
            for cb in list(self._click_handlers):
                cb(self.cursor)
            self._say()

    def _on_key_msg(self, _widget, content, _buffers) -> None:
        if content.get("event") == "key":
            self.press(str(content.get("key", "")))
        elif content.get("event") == "focus":
            self.move_cursor(self._home_cell() if self.cursor is None else self.cursor)  # in view, ringed

    # ------------------------------------------------------------------ driving from Python
    def send_mouse(self, event: str, x: float, y: float) -> None:
        """Deliver a browser mouse event (``"mouse_down"``, ``"mouse_move"``,
        ``"mouse_out"``) through the widget's own message path, as the frontend would."""
        self.canvas._handle_custom_msg({"event": event, "x": x, "y": y}, [])

    def click(self, x: float, y: float) -> None:
        self.send_mouse("mouse_down", x, y)

    def click_cell(self, cell) -> None:
        """Click at the pixel centre of ``cell``."""
        self.click(*self.geom.centre(cell))

    def hover(self, x: float, y: float) -> None:
        self.send_mouse("mouse_move", x, y)
