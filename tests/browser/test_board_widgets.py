"""The play view in a real browser (Voila + Debian chromium): the field is drawn on
``canvas.hk-field``, a click on a cell reaches the engine, bots play on, and the
message line ``.hk-message`` explains."""

from __future__ import annotations

import json

import nbformat
import pytest
from browser_harness import canvas_pixel, save_screenshot
from playwright.sync_api import expect

import haunted_kit as hk
from haunted_kit.render import board_geometry
from haunted_kit.render import style as S

pytestmark = pytest.mark.browser

SIZE = 34
CODE = f"""
from haunted_kit.widgets import PlayView
view = PlayView(seed=1, players=4, bots=[1, 2, 3], size={SIZE}, bot_delay=0.05)
view
"""


def test_play_view_draws_and_plays_in_voila(page, voila_server, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CODE)]
    path = tmp_path / "play.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    page.goto(srv.url)
    canvas = page.locator("canvas.hk-field")
    expect(canvas).to_be_visible(timeout=90_000)
    s = hk.new_game(seed=1, players=4)
    g = board_geometry(s, SIZE)
    # a cell without pieces or highlight shows its terrain colour
    target = s.legal_actions()[0].cell
    quiet = next(c for i, c in enumerate(s.field.cells)
                 if not s.ghosts[i] and i not in s.sensor and s.building[i] < 0
                 and c not in {a.cell for a in s.legal_actions()} and s.field.terrain[i] != "city")
    x, y = g.centre(quiet)
    page.wait_for_timeout(500)
    rgba = canvas_pixel(page, "canvas.hk-field", int(x) + 6, int(y) + 2)
    want = S.rgb(S.terrain_style(s.field.terrain[s.field.index[quiet]]).fill)
    assert all(abs(a - b) <= 3 for a, b in zip(rgba[:3], want)), (rgba, want, quiet)
    box = canvas.bounding_box()
    scale = box["width"] / g.width  # CSS pixels per canvas pixel

    def click_cell(cell):
        cx, cy = g.centre(cell)
        canvas.click(position={"x": cx * scale, "y": cy * scale})

    # P1 is the human and places the spread ghosts by clicking highlighted cells;
    # the same decisions are mirrored here to know the next targets
    click_cell(target)
    expect(page.locator(".hk-message")).to_contain_text(f"P1: place a ghost on {target}", timeout=30_000)
    s.apply_action(hk.PlaceGhost(target))
    # a click off the field only hints
    canvas.click(position={"x": 2, "y": 2})
    expect(page.locator(".hk-message")).to_contain_text("outside the field", timeout=30_000)
    while s.pending:
        cell = s.legal_actions()[0].cell
        click_cell(cell)
        s.apply_action(hk.PlaceGhost(cell))
        if s.pending:  # after the last placement the bots take over the message line at once
            expect(page.locator(".hk-message")).to_contain_text(f"place a ghost on {cell}", timeout=30_000)
    # P3, P2 and P4 are bots: they play on by themselves until P1, last in turn order, is to move
    expect(page.locator(".hk-status")).to_contain_text("turns: P1 (you) to move", timeout=60_000)
    save_screenshot(page, "play-view-voila")
    assert not [m for m in page.console_messages if "pageerror" in m], json.dumps(page.console_messages)
