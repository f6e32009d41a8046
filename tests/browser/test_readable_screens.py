"""Every registered game's classroom pages are readable on every screen (issue 32 item 2):
on a 390x844 phone every text of a seat page, the board's SVG text included (its font
size times the SVG's scale on screen), is at least 12 CSS px, with no horizontal
overflow of the page (a board drawn larger sits in a pannable box reachable by the
keyboard, under the kit's cue saying in words that it scrolls sideways, with buttons that pan it); on a 1920x1080 projector the table's page fits the screen without scrolling,
its smallest text still 12 CSS px. One Chromium for all (the session's)."""

from __future__ import annotations

import pytest
from browser_harness import PAGE_EXTENT, explained, free_port, save_screenshot, text_sizes
from playwright.sync_api import expect

from haunted_kit import games
from haunted_kit.render.pancue import PAN_WORDS

pytestmark = pytest.mark.browser

MIN_PX = 12
PROJECTOR_MIN_PX = 14
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}

# per pannable board: whether the middle of the page's highlighted choices (the middle of their
# extent, where they are drawn on screen) lies in the box's visible part, so the choices are
# reached from where the board starts (true for a board without cell choices)
CHOICES_IN_VIEW = """() => [...document.querySelectorAll('.hk-pan')].map(pan => {
  const svg = pan.querySelector('svg'), vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
  const p = pan.getBoundingClientRect(), k = r.width / vb.width;
  const pts = view.actions.filter(a => a.xy).map(a => [r.left + (a.xy[0] - vb.x) * k, r.top + (a.xy[1] - vb.y) * k]);
  if (!pts.length) return true;
  const xs = pts.map(q => q[0]), ys = pts.map(q => q[1]);
  const x = (Math.min(...xs) + Math.max(...xs)) / 2, y = (Math.min(...ys) + Math.max(...ys)) / 2;
  return x >= p.left && x <= p.right && y >= p.top && y <= p.bottom;
})"""


def open_page(browser, url, viewport, server):
    ctx = browser.new_context(viewport=viewport)
    pg = ctx.new_page()
    with explained(f"opening {url} at {viewport}", server, pg):
        pg.goto(url)
        expect(pg.locator("#app .hk-board")).to_have_count(1)
        pg.wait_for_function("document.querySelector('#app').dataset.seq !== undefined")
    return ctx, pg


@pytest.mark.parametrize("game", games.game_names())
def test_phone_seat_and_projector_are_readable(game, chromium_browser, class_server):
    srv = class_server("--store", "class.db", "--port", str(free_port()), "--game", game, "--seed", "1", "--bot-delay", "0")

    ctx, pg = open_page(chromium_browser, srv.seats[(1, 1)], PHONE, srv)
    try:
        got = {"texts": text_sizes(pg), **pg.evaluate(PAGE_EXTENT)}
        save_screenshot(pg, f"readable-{game}-phone", full_page=True)
        small = [t for t in got["texts"] if t[0] < MIN_PX]
        assert got["texts"] and not small, f"{game} seat at 390x844: text under {MIN_PX} CSS px: {small[:5]}"
        assert got["width"] <= PHONE["width"], f"{game} seat at 390x844 overflows sideways: {got['width']} px wide"
        # a board drawn larger than the phone is reachable: its box takes focus and the arrow keys pan it;
        # over it the kit's cue says in words that it scrolls sideways, and its buttons pan it
        for i in range(pg.locator(".hk-pan").count()):
            box = pg.locator(".hk-pan").nth(i)
            if box.evaluate("b => b.scrollWidth > b.clientWidth"):
                cue = box.evaluate("""b => { const c = b.previousElementSibling, r = c && c.getBoundingClientRect();
                                             return c && c.classList.contains('hk-pan-cue') ?
                                               [c.querySelector('.hk-pan-words').textContent, r.left, r.right,
                                                [...c.querySelectorAll('button')].filter(x => !x.hidden).length] : null; }""")
                assert cue is not None and cue[0] == PAN_WORDS and cue[1] >= 0 and cue[2] <= PHONE["width"] and cue[3] == 2, \
                    f"{game} seat at 390x844: pannable board {i} without the pan cue in view over it: {cue}"
                box.evaluate("b => { b.scrollLeft = 0; b.previousElementSibling.querySelector('.hk-pan-right').click(); }")
                pg.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle())
                box.evaluate("b => { b.scrollLeft = 0; }")
                box.focus()
                pg.keyboard.press("ArrowRight")
                pg.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle())
    finally:
        ctx.close()

    ctx, pg = open_page(chromium_browser, srv.hotseat[1], PHONE, srv)  # the player to move's choices, on a phone
    try:
        seen = pg.evaluate(CHOICES_IN_VIEW)
        assert all(seen), f"{game} hot seat at 390x844: no highlighted choice in view on a pannable board: {seen}"
    finally:
        ctx.close()

    ctx, pg = open_page(chromium_browser, srv.projector[1], PROJECTOR, srv)
    try:
        got = {"texts": text_sizes(pg), **pg.evaluate(PAGE_EXTENT)}
        save_screenshot(pg, f"readable-{game}-projector", full_page=True)
        assert got["height"] <= PROJECTOR["height"], f"{game} projector is {got['height']} px tall, over 1080"
        assert got["width"] <= PROJECTOR["width"], f"{game} projector is {got['width']} px wide, over 1920"
        print(f"PROJECTOR {game}: least text {got['texts'][0][0]} CSS px, page {got['width']}x{got['height']}")
        small = [t for t in got["texts"] if t[0] < PROJECTOR_MIN_PX]
        assert not small, f"{game} projector at 1920x1080: text under {PROJECTOR_MIN_PX} CSS px: {small[:8]}"
        assert pg.locator(".hk-board svg, .hk-board table").first.is_visible()
    finally:
        ctx.close()


LAPTOPS = [{"width": 1280, "height": 800}, {"width": 1024, "height": 768}]


@pytest.mark.parametrize("viewport", LAPTOPS, ids=lambda v: f"{v['width']}x{v['height']}")
@pytest.mark.parametrize("game", games.game_names())
def test_laptop_seat_is_readable_with_its_choices_in_reach(game, viewport, chromium_browser, class_server):
    """A seat page on a laptop screen (1280x800, 1024x768): every text, the boards' SVG text
    included, at least 12 CSS px (a board that would draw smaller sits in a pannable box,
    as on a phone), no sideways overflow of the page, and the choices on the first screen,
    beside the board or below it."""
    srv = class_server("--store", "class.db", "--port", str(free_port()), "--game", game, "--seed", "1", "--bot-delay", "0")
    ctx, pg = open_page(chromium_browser, srv.seats[(1, 1)], viewport, srv)
    try:
        expect(pg.locator(".hk-actions")).to_be_visible()
        got = {"texts": text_sizes(pg), **pg.evaluate(PAGE_EXTENT)}
        size = f"{viewport['width']}x{viewport['height']}"
        save_screenshot(pg, f"readable-{game}-laptop-{size}", full_page=False)
        small = [t for t in got["texts"] if t[0] < MIN_PX]
        print(f"LAPTOP {game} {size}: least text {got['texts'][0][0]} CSS px, page {got['width']}x{got['height']}")
        assert got["texts"] and not small, f"{game} seat at {size}: text under {MIN_PX} CSS px: {small[:5]}"
        assert got["width"] <= viewport["width"], f"{game} seat at {size} overflows sideways: {got['width']} px wide"
        board = pg.locator(".hk-board").bounding_box()
        choices = pg.locator(".hk-actions").bounding_box()
        assert choices["y"] < viewport["height"], f"{game} at {size}: the choices start below the first screen: {choices}"
        beside = choices["x"] >= board["x"] + board["width"] - 1
        below = choices["y"] >= board["y"] + board["height"] - 1
        assert beside or below, f"{game} at {size}: the choices overlap the board: {choices} vs {board}"
        # a board drawn larger than its box is reachable by the keyboard: the box takes focus, the arrow keys pan it
        for i in range(pg.locator(".hk-board .hk-pan").count()):
            box = pg.locator(".hk-board .hk-pan").nth(i)
            if box.evaluate("b => b.scrollWidth > b.clientWidth"):
                box.focus()
                before = box.evaluate("b => b.scrollLeft")
                pg.keyboard.press("ArrowRight" if before == 0 else "ArrowLeft")
                pg.wait_for_function(f"b => b.scrollLeft !== {before}", arg=box.element_handle())
    finally:
        ctx.close()
