"""The estate tutorial at 1280x800 as a newcomer met it: once every step before the first
move is read, the lesson panel and the choices are in view (after a question, "Back to the
game" is checked for every game in test_tutorial_voila.py); the news line starts with a whole
sentence after the bots' replies; and once a tile can be bought, "Your choices" says how many
choices are on the board and lists them as buttons, and the pass button says what it leaves; axe-core
finds no violation on the page."""

from __future__ import annotations

import json
import time

import pytest
from browser_harness import explained, page_errors, save_screenshot
from playwright.sync_api import expect

from haunted_kit.cli import TUTORIAL_APP
from haunted_kit.tutorial import PROGRESS_DIR, write_notebook

pytestmark = pytest.mark.browser

#: the rectangle of the first shown element of a selector (top, bottom), in viewport px
RECT = """s => { const e = [...document.querySelectorAll(s)].find(x => x.getBoundingClientRect().height > 0);
  const r = e.getBoundingClientRect(); return [r.top, r.bottom]; }"""


READ_OR_DONE = """() => {
    const lesson = document.querySelector('.hk-tutorial .hk-lesson');
    const next = document.querySelector('.hk-tutorial .hk-lesson-next');
    return !!lesson && (lesson.innerText.includes('Nothing new right now') || (!!next && !next.disabled));
}"""
CLICK_IF_ENABLED = """() => {
    const next = document.querySelector('.hk-tutorial .hk-lesson-next');
    if (!next || next.disabled) return false;
    next.click();
    return true;
}"""


def test_the_estate_tutorial_keeps_the_choices_in_view_and_says_them(page, voila_server, tmp_path):
    page.set_viewport_size({"width": 1280, "height": 800})
    nb = write_notebook("estate", tmp_path / "nb" / "tutorial-estate.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    progress = tmp_path / "nb" / PROGRESS_DIR / "estate.json"
    with explained("opening the estate tutorial at 1280x800", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_contain_text("Rule:", timeout=120_000)
    with explained("reading every step before the first move", srv, page):
        for _ in range(30):
            # the kernel's answer to a click may come in parts: wait for the end of the steps
            # or an enabled Got it, and click only a button the page holds enabled now
            page.wait_for_function(READ_OR_DONE, timeout=30_000)
            if "Nothing new right now" in lesson.inner_text():
                break
            before = lesson.inner_text()
            if page.evaluate(CLICK_IF_ENABLED):
                expect(lesson).not_to_have_text(before, timeout=30_000)
        expect(lesson).to_contain_text("Nothing new right now", timeout=30_000)
    for sel in (".hk-tutorial .hk-lesson", ".hk-tutorial .hk-choices"):
        top, bottom = page.evaluate(RECT, sel)
        assert 0 <= top and bottom <= 800, (sel, top, bottom)

    def decide(text):
        done = json.loads(progress.read_text())["decisions"]
        page.locator(".hk-tutorial .hk-choice", has_text=text).first.click()
        deadline = time.monotonic() + 60
        while json.loads(progress.read_text())["decisions"] == done:
            assert time.monotonic() < deadline, f"'{text}' never reached the tutorial"
            page.wait_for_timeout(200)
        expect(page.locator(".hk-tutorial .hk-do")).to_be_enabled(timeout=60_000)

    with explained("taking 3 wood and 3 gold; the bots answer", srv, page):
        decide("take 3 wood")
        decide("take 3 gold")
    news = page.locator(".hk-tutorial .hk-message [aria-label='message']")
    assert news.evaluate("b => b.scrollTop") == 0
    first = news.inner_text().split("\n")[0]
    assert first.startswith(("P", "Show the ")), first   # a decision's own sentence, or the fold of earlier ones
    line = page.locator(".hk-tutorial .hk-board-choices")
    expect(line).to_contain_text("Place a land tile: click a lit slot on the board (", timeout=30_000)
    count = int(line.inner_text().split("(")[1].split(" ")[0])
    with explained("listing the board's choices as buttons", srv, page):
        page.locator(".hk-tutorial .hk-board-list").click()
        expect(page.locator(".hk-tutorial .hk-choice", has_text="on land slot")).to_have_count(count, timeout=30_000)
    expect(page.locator(".hk-tutorial .hk-choice", has_text="pass for the rest of the season")) \
        .to_contain_text("other choices still open")
    save_screenshot(page, "tutorial-estate-board-choices", full_page=False)
    from axe_playwright_python.sync_playwright import Axe  # lazy: as test_exercise_widget (optional package)
    from test_axe_pages import violations_text
    found = Axe().run(page).response["violations"]
    assert not found, violations_text(found)   # the message line's fold and the board's line included
    assert page_errors(page) == "<none>"
