"""The projector and the replay on one 1920x1080 screen, for every registered game (the kit
names none), through a lesson: a student named on the teacher page is named in the
projector's heading while it waits for them; handed to a bot, the table plays to its end;
at the end the projector still fits the screen without scrolling, its board drawn as large
as in play (board text 14 CSS px at least), the results beside it (not above it), every text
14 CSS px at least, the last events in view; the replay fits the screen too, its board,
step controls and the review's turning points (in plain words, the measure on a second line,
in a box of their own the keyboard scrolls) beside each other, and a turning point's button
shows its position with the board in view at once. Every box of lines with a bounded height
shows whole lines (the projector's, the replay's, a seat page's log and its whole game log,
also on a 1280x800 laptop). Every wait ends on what the page shows (bounded), never on a clock."""

from __future__ import annotations

import re

import pytest
from browser_harness import explained, free_port, save_screenshot, text_sizes
from playwright.sync_api import expect

from haunted_kit.games import default_players, game_names, get_game

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
LEAST_PX = 14  # the projector's least text, board text included (as during play)
NAME = "Chloé"

# the page's extent and the board's and the results' boxes (its texts' sizes: the harness' TEXT_SIZES)
MEASURE = """() => {
  const box = s => { const e = document.querySelector(s); if (!e) return null;
                     const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
  const d = document.documentElement;
  return {height: d.scrollHeight, width: d.scrollWidth, board: box('.hk-board svg'), results: box('table.hk-results')};
}"""


def measure(pg) -> dict:
    """MEASURE, with the least HTML and SVG text (CSS px on screen) of the page's app."""
    texts = text_sizes(pg)
    least = {kind: min((px for px, k, _ in texts if k == kind), default=float("inf")) for kind in ("html", "svg")}
    return {**pg.evaluate(MEASURE), **least}


# every box of lines whose height is bounded (it scrolls): the lines cut by its top or bottom edge
# (a line must be wholly in the box's padding box or wholly out of it, to a CSS px: the box's height is
# rounded), and how many are wholly in
CUT_LINES = """() => [...document.querySelectorAll('.hk-event-log, .hk-points-scroll, .hk-full-log-box')]
  .filter(b => b.getClientRects().length && b.scrollHeight > b.clientHeight + 1).map(b => {
    const r = b.getBoundingClientRect(), k = r.height / b.offsetHeight;  // page px per the box's own (CSS zoom)
    const top = r.top + b.clientTop * k, bottom = top + b.clientHeight * k;
    const lines = [];
    for (const c of b.children) {
      if (c.classList.contains('hk-event-log') || c.tagName === 'OL') lines.push(...c.children); else lines.push(c);
    }
    const cut = [], whole = [];
    for (const l of lines) {
      const q = l.getBoundingClientRect();
      if (!q.height) continue;
      if (q.top >= top - 1 && q.bottom <= bottom + 1) whole.push(l.textContent.slice(0, 30));
      else if (q.bottom > top + 1 && q.top < bottom - 1) cut.push(l.textContent.slice(0, 40));
    }
    return {box: b.className, cut, whole: whole.length};
  })"""


def assert_one_screen(pg, what):
    got = measure(pg)
    save_screenshot(pg, what.replace(" ", "-"), full_page=False)  # the screen itself (a full page would resize it)
    print(f"{what}: page {got['width']}x{got['height']}, least text {got['html']:.2f} px, board text {got['svg']:.2f} px")
    assert got["height"] <= SCREEN["height"] and got["width"] <= SCREEN["width"], f"{what}: the page is {got}"
    assert got["svg"] >= LEAST_PX, f"{what}: the board's text is drawn at {got['svg']:.2f} CSS px"
    assert got["html"] >= LEAST_PX, f"{what}: a text is drawn at {got['html']:.2f} CSS px"
    board = got["board"]
    assert board and board["y"] >= 0 and board["bottom"] <= SCREEN["height"], f"{what}: the board is at {board}"
    return got


def assert_whole_lines(pg, what):
    boxes = pg.evaluate(CUT_LINES)
    assert all(not b["cut"] for b in boxes), f"{what}: lines cut by a box's edge: {boxes}"
    return boxes


@pytest.mark.parametrize("game", game_names())
def test_the_projector_and_the_replay_fit_one_screen_through_a_lesson(game, chromium_browser, class_server, tmp_path):
    n = default_players(get_game(game))
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--bot-delay", "0",
                       "--game", game, "--players", str(n), "--seed", "5",
                       "--bots", ",".join(str(p) for p in range(2, n + 1)))
    teacher = chromium_browser.new_page()
    screen = chromium_browser.new_page(viewport=SCREEN)
    with explained(f"{game}: the projector through a lesson", srv, screen):
        teacher.goto(srv.teacher)
        screen.goto(srv.projector[1])
        expect(screen.locator("#app[data-seq]")).to_have_count(1)
        first = screen.evaluate("() => view.waiting && view.waiting.seat")
        row = teacher.locator("tr.hk-seat").nth(first)
        row.locator(".hk-name-input").fill(NAME)
        row.locator(".hk-name-form button").click()
        # the heading says who is to move, by name, on every page saying it (the projector's here)
        expect(screen.locator(".hk-status")).to_contain_text(f"P{first + 1} {NAME}")
        # the last events in view beside the board, not only in the closed whole log
        log = screen.locator(".hk-proj-side .hk-event-log")
        expect(log).to_be_visible()
        assert_one_screen(screen, f"{game} projector in play")
        assert_whole_lines(screen, f"{game} projector in play")

        row.locator(".hk-hand").click()  # the named seat to a bot too: the bots play to the end
        screen.wait_for_function("() => view && view.ranking", timeout=240_000)
        expect(screen.locator("table.hk-results")).to_be_visible()
        expect(screen.locator("table.hk-results")).to_contain_text(f"P{first + 1} {NAME}")
        got = assert_one_screen(screen, f"{game} projector at the end")
        res, board = got["results"], got["board"]
        assert res["x"] >= board["right"] and res["bottom"] <= SCREEN["height"], \
            f"{game}: the results {res} are not beside the board {board}"
        boxes = assert_whole_lines(screen, f"{game} projector at the end")
        expect(log).to_be_visible()
        events = log.locator(":scope > div:not(.hk-when):not(.hk-log-note)")
        inside = [b for b in boxes if "hk-event-log" in b["box"]]
        assert not inside or inside[0]["whole"] >= 3, f"{game}: fewer than 3 whole lines of events in view: {inside}"
        assert events.count() >= 3

        # a seat's page (a laptop): its log and, opened, the whole game log show whole lines too
        seat = chromium_browser.new_page(viewport={"width": 1280, "height": 800})
        seat.goto(srv.seats[(1, 1)])
        expect(seat.locator("#app[data-seq]")).to_have_count(1)
        assert_whole_lines(seat, f"{game} seat page at the end")  # its log, when it is longer than its box
        seat.locator(".hk-full-log summary").click()
        expect(seat.locator(".hk-full-log-box .hk-event-log")).to_have_count(1)
        assert any("hk-full-log-box" in b["box"] for b in assert_whole_lines(seat, f"{game} seat's whole log"))

        # the replay: one screen, the board in view after every step and turning point
        replay = chromium_browser.new_page(viewport=SCREEN)
        replay.goto(srv.projector[1].replace("/projector/", "/replay/"))
        expect(replay.locator(".hk-step")).to_contain_text(" of ")
        steps = int(replay.locator(".hk-step").inner_text().split()[-1])
        expect(replay.locator(".hk-points-box[data-ready]")).to_have_count(1, timeout=240_000)
        assert_one_screen(replay, f"{game} replay at the end")
        assert_whole_lines(replay, f"{game} replay at the end")
        scale = replay.locator(".hk-points-note").inner_text()
        assert "1 = a win" in scale and "0 = a loss" in scale and "what the player could expect to score" not in scale
        items = replay.locator(".hk-points li")
        for i in range(items.count()):
            text = items.nth(i).locator(".hk-point-text").inner_text()
            number = int(re.match(r"Decision (\d+): P\d", text).group(1))
            assert re.search(r"(chance of winning (rose|fell) from about -?\d+% to -?\d+%|outlook (rose|fell) from "
                             r"about -?\d+ to -?\d+ in 100)", text), text
            assert re.fullmatch(r"Change [+-]\d\.\d{3} \(95% interval [+-]?\d\.\d{3} to [+-]?\d\.\d{3}\), from [\d,]+ "
                                r"paired playouts\.", items.nth(i).locator(".hk-point-detail").inner_text())
            if i < 2:  # a turning point's button: its position at once, the board in view
                items.nth(i).locator("button").click()
                expect(replay.locator(".hk-step")).to_have_text(f" decision {number - 1} of {steps} ")
                expect(replay.locator("#app")).to_have_attribute("data-seq", str(number - 1))
                assert_one_screen(replay, f"{game} replay before decision {number}")
        # the turning points' box: reached by Tab, scrolled by the keyboard when its list is longer
        box = replay.locator(".hk-points-scroll")
        assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
        if box.evaluate("b => b.scrollHeight > b.clientHeight"):
            box.focus()
            replay.keyboard.press("End")
            replay.wait_for_function("b => b.scrollTop > 0", arg=box.element_handle())
        replay.locator("[data-go=first]").click()
        expect(replay.locator(".hk-step")).to_have_text(f" decision 0 of {steps} ")
        expect(replay.locator("#app")).to_have_attribute("data-seq", "0")
        assert_one_screen(replay, f"{game} replay at the start")
        # a laptop's screen: laid out again on resize, its line boxes still show whole lines
        replay.locator("[data-go=last]").click()
        expect(replay.locator("#app")).to_have_attribute("data-seq", str(steps))
        for page in (replay, screen):
            page.set_viewport_size({"width": 1280, "height": 800})
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # refitted
            assert page.evaluate("document.documentElement.scrollHeight") <= 800
            assert_whole_lines(page, f"{game} {page.url.split('/')[3]} at 1280x800")
