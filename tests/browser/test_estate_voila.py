"""Notebook 08 (Estate and Market) served by Voila, in Chromium: the land board is drawn
on its canvas, a click on a slot reaches Python through the canvas (the rules' reason
comes back in the message line), a choice button plays a decision and the bots answer."""

from __future__ import annotations

import pytest
from browser_harness import canvas_pixel, explained, page_errors, save_screenshot, wait_canvas_pixel
from playwright.sync_api import expect

from haunted_kit.estate.draw import BOARD_SIZE, EMPTY, board_primitives, land_geometry
from haunted_kit.estate.engine import new_game
from haunted_kit.render.primitives import Text
from haunted_kit.render.style import rgb

pytestmark = pytest.mark.browser

BOARD = ".hk-estate-play canvas.hk-estate-board"  # the play view's board (the exercises below have boards too)


def test_estate_play_view_in_voila(page, voila_server):
    srv = voila_server("notebooks/08_estate_and_market.ipynb", timeout=120.0)
    geom = land_geometry(new_game(3, seed=1).box, BOARD_SIZE)
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
    with explained("clicking slot (0, 0), which is not over the lower area, with no gold", srv, page):
        page.locator(BOARD).click(position={"x": x, "y": y})
        # both reasons, the price first (estate rules: Expand the lands), as one sentence
        expect(page.locator(".hk-estate-play .hk-message")).to_contain_text(
            "Not on slot 0,0: a land tile costs 3 gold and P1 has 0; and P1's first tile must lie over the shared "
            "lower area (slots -2,2; -1,2; 0,2), not on slot 0,0 (estate rules: Expand the lands).", timeout=30_000)
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
    geom = land_geometry(new_game(3, seed=1).box, BOARD_SIZE)
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


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_the_land_board_is_drawn_with_text_of_12_px_and_the_message_shows_its_end(page, voila_server, size):
    """The board was 239x221 px with labels of 8-9 px: now, on a phone and at 1280x800,
    its least text (its own least size times its drawn scale) is at least 12 CSS px and
    the page does not scroll sideways. The message line, three lines high, shows the end
    of longer words (the last event whole) with the earlier ones scrolled up."""
    s = new_game(3, seed=1)
    geom = land_geometry(s.box, BOARD_SIZE)
    least = min(p.size for p in board_primitives(s, geom) if isinstance(p, Text))
    page.set_viewport_size(size)
    srv = voila_server("notebooks/08_estate_and_market.ipynb", timeout=120.0)
    with explained(f"opening notebook 08 in Voila at {size}", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(BOARD)).to_be_visible(timeout=120_000)
    scale = page.locator(BOARD).evaluate("c => c.getBoundingClientRect().width / c.width")
    assert least * scale >= 12, f"the board's least text is {least * scale:.1f} CSS px at {size}"
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    left, right = page.locator(BOARD).evaluate("c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; }")
    assert 0 <= left and right <= size["width"], (left, right)   # whole on screen, no panning
    with explained("clicking slot (0, 0) for a refusal on the message line", srv, page):
        x, y = geom.centre((0, 0))
        page.locator(BOARD).click(position={"x": x * scale, "y": y * scale})
        message = page.locator(".hk-estate-play .hk-message [role=region]")
        expect(message).to_contain_text("Not on slot", timeout=30_000)
    # the words end inside the box's visible part (a long message scrolls up, never cut at its end)
    ends = message.evaluate("""b => { const w = b.firstElementChild.getBoundingClientRect(), r = b.getBoundingClientRect();
                                      return [w.bottom <= r.bottom + 1, b.scrollHeight, b.clientHeight]; }""")
    assert ends[0], ends
    save_screenshot(page, f"estate-voila-{size['width']}", full_page=False)
    assert page_errors(page) == "<none>"
