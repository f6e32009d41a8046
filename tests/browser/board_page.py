"""The play view's board in a browser page: cell pixels from the shared geometry,
expected colours from the shared style, clicks on cells (used by the browser tests
and by benchmarks/bench_browser.py).

The engine game in Python mirrors the one in the page (same seed and settings), so the
test knows which cells are legal targets and what each should look like.
"""

from __future__ import annotations

import haunted_kit as hk
from haunted_kit.haunted.draw import board_geometry
from haunted_kit.render import style as S
from haunted_kit.hexgrid import name_cells

FIELD = "canvas.hk-field"
SIZE = 34  # PlayView's default hex size (notebook 07 uses the default)


def blend(under, over, alpha: float) -> tuple[int, int, int]:
    return tuple(round(u * (1 - alpha) + o * alpha) for u, o in zip(under, over))


class Board:
    """Pixel facts of the field for a mirrored ``state`` at hex ``size``."""

    def __init__(self, page, state, size: float = SIZE):
        self.page, self.state = page, state
        self.geom = board_geometry(state, size)
        self.size = size

    # ---------------------------------------------------------------- geometry
    def check_canvas_size(self) -> None:
        """The page's canvas has the extent of this geometry (else clicks would miss)."""
        w, h = self.page.locator(FIELD).evaluate("c => [c.width, c.height]")
        if (w, h) != (self.geom.width, self.geom.height):
            raise AssertionError(
                f"{FIELD} is {w}x{h} canvas pixels, expected {self.geom.width}x{self.geom.height} for hex size "
                f"{self.size}: did the notebook change PlayView's size?")

    def css_point(self, x: float, y: float) -> dict:
        """Canvas pixel -> position relative to the canvas element, in CSS pixels."""
        box = self.page.locator(FIELD).bounding_box()
        scale = box["width"] / self.geom.width
        return {"x": x * scale, "y": y * scale}

    def page_point(self, cell) -> tuple[float, float]:
        """Centre of ``cell`` in page (viewport) coordinates, for page.mouse."""
        box = self.page.locator(FIELD).bounding_box()
        p = self.css_point(*self.geom.centre(cell))
        return box["x"] + p["x"], box["y"] + p["y"]

    def click(self, cell) -> None:
        self.page.locator(FIELD).click(position=self.css_point(*self.geom.centre(cell)))

    def click_to_place_ghost(self, target, server) -> None:
        """P1 clicks the legal spread cell ``target``: the message line and the event log
        name the move, the ghost is drawn there and its highlight cleared; then the
        mirrored state takes the same move."""
        from browser_harness import explained, wait_canvas_pixel
        from playwright.sync_api import expect

        s, page = self.state, self.page
        with explained(f"clicking the legal cell {target}", server, page):
            self.click(target)
            expect(page.locator(".hk-message")).to_contain_text(f"P1: place a ghost on {name_cells(str(target))}.")
            expect(page.locator(".hk-event-log")).to_contain_text(f"P1 puts a ghost on {name_cells(s.field.describe(target))}")
            wait_canvas_pixel(page, FIELD, *self.ghost_spot(target), want=S.rgb(S.GHOST_FILL),
                              what=f"the ghost drawn on {target}")
            wait_canvas_pixel(page, FIELD, *self.plain_spot(target), want=self.terrain_rgb(target),
                              what=f"the highlight of {target} cleared")
        s.apply_action(hk.PlaceGhost(target))

    def terrain_rgb(self, cell) -> tuple[int, int, int]:
        s = self.state
        return S.rgb(S.terrain_style(s.field.terrain[s.field.index[tuple(cell)]]).fill)

    def highlighted_rgb(self, cell) -> tuple[int, int, int]:
        """Terrain under the translucent highlight of a legal target."""
        return blend(self.terrain_rgb(cell), S.rgb(S.HIGHLIGHT), 0.22)

    def plain_spot(self, cell) -> tuple[int, int]:
        """A point of ``cell`` clear of its label, pieces and highlight text (terrain only)."""
        x, y = self.geom.centre(cell)
        return int(x + 0.18 * self.size), int(y + 0.06 * self.size)

    def ghost_spot(self, cell) -> tuple[int, int]:
        """A point inside a ghost's disc on ``cell``, below its "G"."""
        x, y = self.geom.centre(cell)
        return int(x + S.GHOST_DX * self.size), int(y + (S.PIECE_DY + 0.16) * self.size)

    def quiet_cell(self):
        """A cell without pieces, not a legal target, not the city: shows its plain terrain."""
        s = self.state
        legal = {getattr(a, "cell", None) for a in s.legal_actions()}
        for i, c in enumerate(s.field.cells):
            if (not s.ghosts[i] and i not in s.sensor and s.building[i] < 0 and c not in legal
                    and s.field.terrain[i] != "city"):
                return c
        raise AssertionError("no quiet cell on this field")

    def illegal_cell(self):
        """The city cell (0, 0): never a target of the first decisions."""
        legal = {getattr(a, "cell", None) for a in self.state.legal_actions()}
        assert (0, 0) not in legal
        return (0, 0)


    # ---------------------------------------------------------------- page flow
    def show(self) -> None:
        """Scroll the whole board into view. ipycanvas 0.14 calls ``canvas.focus()`` on
        mousedown, which scrolls a partly visible canvas *before* it reads the click's
        position, so a click on a partly visible board lands on another cell."""
        inside = self.page.locator(FIELD).evaluate(
            """c => { c.scrollIntoView({block: 'center', inline: 'center'});
                      const r = c.getBoundingClientRect();
                      return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }""")
        if not inside:
            raise AssertionError(f"{FIELD} does not fit in the {self.page.viewport_size} viewport")

    def wait_drawn(self, timeout_ms: int = 30_000) -> None:
        """The board is drawn for the human to move: a quiet cell shows its terrain and
        the first legal target its highlight (a canvas can exist and stay blank)."""
        from browser_harness import wait_canvas_pixel

        self.check_canvas_size()
        quiet = self.quiet_cell()
        wait_canvas_pixel(self.page, FIELD, *self.plain_spot(quiet), want=self.terrain_rgb(quiet), timeout_ms=timeout_ms,
                          what=f"terrain of the quiet cell {quiet}")
        target = self.state.legal_actions()[0].cell
        wait_canvas_pixel(self.page, FIELD, *self.plain_spot(target), want=self.highlighted_rgb(target),
                          timeout_ms=timeout_ms, what=f"highlight of the legal target {target}")


def mirror_game(players: int, mode: str, seed: int):
    return hk.new_game(players=players, mode=mode, seed=seed)
