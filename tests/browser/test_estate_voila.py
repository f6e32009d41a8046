"""Notebook 08 (Estate and Market) served by Voila, in Chromium: the land board is drawn
on its canvas, a click on a slot reaches Python through the canvas (the rules' reason
comes back in the message line), a choice button plays a decision and the bots answer."""

from __future__ import annotations

import pytest
from browser_harness import canvas_pixel, explained, page_errors, save_screenshot, wait_canvas_pixel
from playwright.sync_api import expect

from haunted_kit.estate.draw import EMPTY, land_geometry
from haunted_kit.estate.engine import new_game
from haunted_kit.render.style import rgb

pytestmark = pytest.mark.browser

BOARD = ".hk-estate-play canvas.hk-estate-board"  # the play view's board (the exercises below have boards too)


def test_estate_play_view_in_voila(page, voila_server):
    srv = voila_server("notebooks/08_estate_and_market.ipynb", timeout=120.0)
    geom = land_geometry(new_game(3, seed=1).box, 34)
    with explained("opening notebook 08 in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(BOARD)).to_be_visible(timeout=120_000)
        expect(page.locator(".hk-estate-play .hk-status")).to_contain_text("Season 1 of 3, turns: P1 to decide")
    canvas = page.locator(BOARD)
    assert canvas.evaluate("c => [c.width, c.height]") == [geom.width, geom.height]
    inside = canvas.evaluate("""c => { c.scrollIntoView({block: 'center', inline: 'center'});
                                      const r = c.getBoundingClientRect();
                                      return r.top >= 0 && r.bottom <= innerHeight; }""")
    assert inside, "the land board does not fit in the viewport"
    x, y = geom.centre((0, 0))
    box = canvas.bounding_box()
    assert abs(box["width"] - geom.width) < 1, f"the board is drawn {box['width']} px wide, not {geom.width}: squeezed"
    with explained("waiting for the land board to be drawn", srv, page):
        wait_canvas_pixel(page, BOARD, x, y, want=rgb(EMPTY), what="the empty centre slot")
    with explained("clicking slot (0, 0), which is not over the lower area", srv, page):
        page.locator(BOARD).click(position={"x": x, "y": y})
        expect(page.locator(".hk-estate-play .hk-message")).to_contain_text(
            "Not on slot 0,0: P1's first tile must lie over the shared lower area", timeout=30_000)
    with explained("taking 3 wood with a choice button; the bots answer", srv, page):
        page.locator(".hk-estate-play .hk-choice", has_text="take 3 wood at the Raw Materials Factory").click()
        expect(page.locator(".hk-estate-play .hk-status")).to_contain_text("P1 to decide", timeout=30_000)
        expect(page.locator(".hk-estate-play")).to_contain_text("3 wood", timeout=30_000)
    assert canvas_pixel(page, BOARD, x, y)[:3] == rgb(EMPTY)
    save_screenshot(page, "estate-voila", full_page=False)
    assert page_errors(page) == "<none>"


def test_what_is_this_on_the_land_board_in_voila(page, voila_server):
    """The key and "What is this?" under the play view's land board: with the toggle pressed a
    click on a slot is a question (answered in the live line, nothing played), the "What is
    at" list answers from the keyboard, and a click that is no move is answered too."""
    srv = voila_server("notebooks/08_estate_and_market.ipynb", timeout=120.0)
    geom = land_geometry(new_game(3, seed=1).box, 34)
    play = page.locator(".hk-estate-play")
    answer = play.locator(".hk-whatis-answer [role=status]")
    with explained("opening notebook 08 in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(BOARD)).to_be_visible(timeout=120_000)
        wait_canvas_pixel(page, BOARD, *geom.centre((0, 0)), want=rgb(EMPTY), what="the empty centre slot")
    expect(play.locator("details.hk-key summary")).to_have_text("Key: what the board's codes mean")
    with explained("pressing What is this? and clicking slot -2,2 (a legal first tile there)", srv, page):
        play.locator(".hk-whatis-toggle").click()
        x, y = geom.centre((-2, 2))
        page.locator(BOARD).click(position={"x": x, "y": y})
        expect(answer).to_contain_text("What is this? Slot -2,2: an empty slot; over the shared lower area", timeout=30_000)
        expect(answer).to_contain_text("lower: an empty slot over the shared lower area")
        expect(answer).to_contain_text("(rule: Expand the lands)")
    expect(play.locator(".hk-status")).to_contain_text("Season 1 of 3, turns: P1 to decide")  # nothing was played
    assert "Which tile" not in play.locator(".hk-message").inner_text()
    with explained("choosing slot 0,-2 in the What is at list by keyboard", srv, page):
        pick = page.get_by_label("What is at").first
        pick.focus()
        pick.select_option(label="slot 0,-2")
        expect(answer).to_contain_text("Slot 0,-2: an empty slot; a white-dotted outer land (white dot). white dot:",
                                       timeout=30_000)
    with explained("key opens by keyboard", srv, page):
        summary = play.locator("details.hk-key summary")
        summary.focus()
        page.keyboard.press("Enter")
        expect(play.locator("details.hk-key dl")).to_contain_text("Lq")
    with explained("toggle up: a click on slot 0,0 is no move, and is answered", srv, page):
        play.locator(".hk-whatis-toggle").click()
        page.locator(BOARD).click(position=dict(zip("xy", geom.centre((0, 0)))))
        expect(play.locator(".hk-message")).to_contain_text("Not on slot 0,0", timeout=30_000)
        expect(answer).to_contain_text("What is this? Slot 0,0: an empty slot.")
    save_screenshot(page, "estate-voila-whatis", full_page=False)
    assert page_errors(page) == "<none>"
