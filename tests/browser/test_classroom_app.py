"""The classroom app in Chromium: ``haunted-kit classroom`` serves notebook 07 with Voila;
the page shows only widgets, the board is drawn (pixel colours of known cells), a legal
click is answered and redrawn, an illegal one shows the engine's reason, and the bots
play on until the human's turn. A busy port is replaced and the command says so.

The game in the page is mirrored in Python (same seed and settings) to know the legal
targets and the expected colours.
"""

from __future__ import annotations

import re
import socket
import urllib.request

import pytest
from board_page import FIELD, Board, mirror_game
from browser_harness import (assert_fits, canvas_pixel, explained, free_port, page_errors, save_screenshot,
                             wait_canvas_pixel)
from playwright.sync_api import expect

import haunted_kit as hk
from haunted_kit.render import style as S
from haunted_kit.hexgrid import name_cells

pytestmark = pytest.mark.browser

PLAYERS, MODE, SEED, BOTS = 3, "citizen", 1, "2,3"  # P1 human and first: places 4 spread ghosts


def test_classroom_app_plays_in_chromium(page, classroom_server):
    srv = classroom_server("--players", str(PLAYERS), "--mode", MODE, "--seed", str(SEED), "--bots", BOTS,
                           "--port", str(free_port()))
    message = page.locator(".hk-message")
    canvas = page.locator(FIELD)
    with explained("loading the classroom app", srv, page):
        page.goto(srv.url + "/")
        expect(canvas).to_be_visible(timeout=60_000)
        # the command's options reached the notebook
        expect(page.get_by_text(f"{PLAYERS} players, {MODE} mode, seed {SEED}.")).to_be_visible()
        expect(page.get_by_text("You play: P1.")).to_be_visible()

    assert page.title() == "Haunted Lands · Classroom play"  # the game, not the notebook file
    # only widgets and text: no code cell inputs, prompts or editors
    assert page.locator(".jp-CodeCell .jp-InputArea, .jp-InputPrompt, .cm-editor, .CodeMirror").count() == 0
    body = page.locator("body").inner_text()
    assert "app_settings(" not in body and "PlayView(" not in body

    s = mirror_game(PLAYERS, MODE, SEED)
    board = Board(page, s)
    with explained("waiting for the board to be drawn", srv, page):
        board.wait_drawn()
    expect(page.locator(".hk-status")).to_contain_text("spread: P1 (you) to move")
    board.show()

    # a click off the field only hints
    with explained("clicking off the field", srv, page):
        canvas.click(position={"x": 2, "y": 2})
        expect(message).to_contain_text("outside the field")

    # an illegal click: the engine's reason, with its rulebook section, and nothing changes
    target = s.legal_actions()[0].cell
    bad = board.illegal_cell()
    bad_spot_before = canvas_pixel(page, FIELD, *board.ghost_spot(bad))
    with explained(f"clicking the illegal cell {bad}", srv, page):
        board.click(bad)
        expect(message).to_contain_text(f"Nothing you can do on {name_cells(s.field.describe(bad))} now.")
        expect(message).to_contain_text(str(s.why_not(hk.PlaceGhost(bad))))
    assert "rulebook" in message.inner_text()
    assert canvas_pixel(page, FIELD, *board.ghost_spot(bad)) == bad_spot_before
    wait_canvas_pixel(page, FIELD, *board.plain_spot(target), want=board.highlighted_rgb(target),
                      what="the legal target still highlighted after the refusal")

    # a legal click: the message and the event log say what happened, the board redraws
    undo = page.locator(".hk-undo")
    expect(undo).to_be_disabled()  # nothing of P1's to take back yet
    board.click_to_place_ghost(target, srv)
    expect(undo).to_be_enabled()
    save_screenshot(page, "classroom-app", full_page=False)

    # the rest of the spread by clicks, then the bots play on until P1's turn
    with explained("placing the other spread ghosts", srv, page):
        while s.pending:
            cell = s.legal_actions()[0].cell
            board.click(cell)
            s.apply_action(hk.PlaceGhost(cell))
            if s.pending:  # after the last one the bots take over the message line at once
                expect(message).to_contain_text(f"P1: place a ghost on {name_cells(str(cell))}.")
            wait_canvas_pixel(page, FIELD, *board.ghost_spot(cell), want=S.rgb(S.GHOST_FILL),
                              what=f"the ghost drawn on {cell}")
    with explained("waiting for the bots to play until P1's turn", srv, page):
        expect(page.locator(".hk-status")).to_contain_text("turns: P1 (you) to move", timeout=60_000)
    save_screenshot(page, "classroom-app-turns", full_page=False)
    expect(undo).to_be_disabled()  # the bots decided after P1's last decision
    assert_fits(page, 1024)
    assert page_errors(page) == "<none>"
    assert not [m for m in page.console_messages if m.startswith("pageerror")], page.console_messages


def test_classroom_command_replaces_a_busy_port(classroom_server):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        srv = classroom_server("--players", "2", "--seed", "4", "--port", str(port))
        out = srv.log()
        m = re.search(rf"Port {port} is in use; serving on port (\d+) instead\.", out)
        assert m, f"the command did not say that port {port} is busy:\n{out}"
        new = int(m.group(1))
        assert new != port and srv.url == f"http://127.0.0.1:{new}", (srv.url, out)
        # the app is served on the new port (GET / runs the notebook)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with explained(f"fetching the app from the replacement port {new}", srv):
            with opener.open(srv.url + "/", timeout=60) as resp:
                html = resp.read().decode()
                assert resp.status == 200
        assert "Classroom play" in html and "2 players, wanderer mode, seed 4." in html


PARTLY_VISIBLE_JS = """
c => {  // scroll so that the board's bottom 60 px are below the viewport
    c.scrollIntoView({block: 'end'});
    let el = c.parentElement;
    while (el && !(el.scrollHeight > el.clientHeight && /(auto|scroll)/.test(getComputedStyle(el).overflowY))) {
        el = el.parentElement;
    }
    (el || document.scrollingElement).scrollBy(0, -60);
    return c.getBoundingClientRect().bottom - innerHeight;
}
"""


def test_a_click_on_a_partly_visible_board_hits_the_clicked_cell(page, classroom_server):
    """ipycanvas focuses the canvas on mousedown before reading the click position; the
    field widget's negative scroll margin keeps that focus from scrolling the page, so a
    click on a partly visible board still lands on the clicked cell."""
    srv = classroom_server("--players", str(PLAYERS), "--mode", MODE, "--seed", str(SEED), "--bots", BOTS,
                           "--port", "0")
    s = mirror_game(PLAYERS, MODE, SEED)
    board = Board(page, s)
    with explained("loading the classroom app", srv, page):
        page.goto(srv.url + "/")
        board.wait_drawn(timeout_ms=60_000)
    hidden = page.locator(FIELD).evaluate(PARTLY_VISIBLE_JS)
    assert 30 <= hidden <= 90, f"could not hide the board's bottom edge ({hidden} px below the viewport)"
    top = min((a.cell for a in s.legal_actions()), key=lambda c: board.geom.centre(c)[1])  # well in view
    x, y = board.page_point(top)
    page.mouse.click(x, y)
    message = page.locator(".hk-message")
    expect(message).not_to_contain_text("Seats:", timeout=30_000)  # the click was answered
    assert f"P1: place a ghost on {name_cells(str(top))}." in message.inner_text()
