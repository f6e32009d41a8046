"""The play notebook in JupyterLab, in Chromium: open notebook 07 with the token, run all
cells from the Run menu, wait for the board to be drawn (pixel colours of known cells),
click a legal cell and check that the Python side answered (message line, event log)
and that the board was redrawn. The game settings reach the kernel through the
server's environment (HAUNTED_KIT_*), as the classroom command passes them to Voila.
"""

from __future__ import annotations

import re

import pytest
from board_page import FIELD, Board, mirror_game
from browser_harness import assert_fits, explained, page_errors, save_screenshot, wait_canvas_pixel
from playwright.sync_api import expect


pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/07_classroom_play.ipynb"
PLAYERS, MODE, SEED = 3, "citizen", 1  # P1 human and first: places 4 spread ghosts; P2, P3 bots
SETTINGS = {"HAUNTED_KIT_PLAYERS": str(PLAYERS), "HAUNTED_KIT_MODE": MODE, "HAUNTED_KIT_SEED": str(SEED),
            "HAUNTED_KIT_BOTS": "2,3"}
GAME_LINE = f"{PLAYERS} players, {MODE} mode, seed {SEED}."


def test_play_notebook_in_jupyterlab(page, jupyter_lab):
    srv = jupyter_lab(env=SETTINGS)
    with explained(f"opening {NOTEBOOK} in JupyterLab", srv, page):
        page.goto(srv.lab(NOTEBOOK))
        expect(page.locator(".jp-NotebookPanel")).to_be_visible(timeout=60_000)
        expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=30_000)
        # Run All is enabled once the notebook's kernel session is up
        expect(page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\| Idle"))).to_be_visible(timeout=60_000)
    canvas = page.locator(FIELD)
    game_line = page.locator(".jp-OutputArea-output", has_text=GAME_LINE)
    expect(game_line).to_have_count(0)  # else the check below would pass on stored outputs

    with explained("running all cells with Run > Run All Cells", srv, page):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        run_all = page.locator('.lm-Menu-item[data-command="runmenu:run-all"]')
        expect(run_all).not_to_have_class(re.compile("lm-mod-disabled"))
        run_all.click()
        # the kernel read the server's HAUNTED_KIT_* settings (the stored outputs show another game)
        expect(game_line).to_be_visible(timeout=60_000)
        expect(canvas).to_be_visible(timeout=60_000)

    s = mirror_game(PLAYERS, MODE, SEED)
    board = Board(page, s)
    with explained("waiting for the board to be drawn", srv, page):
        board.wait_drawn()
        expect(page.locator(".hk-status")).to_contain_text("spread: P1 (you) to move")
    board.show()

    target = s.legal_actions()[0].cell
    board.click_to_place_ghost(target, srv)
    next_target = s.legal_actions()[0].cell
    wait_canvas_pixel(page, FIELD, *board.plain_spot(next_target), want=board.highlighted_rgb(next_target),
                      what=f"the next legal target {next_target} highlighted")
    save_screenshot(page, "lab-play", full_page=False)
    # a 1024 px window with the left sidebar (file browser) closed: every panel fits
    open_tabs = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if open_tabs.count():
        open_tabs.first.click()  # a click on the open sidebar's tab closes the sidebar
        expect(open_tabs).to_have_count(0)
    assert_fits(page, 1024)
    assert page_errors(page) == "<none>"
