"""The tutorial's player aid in the notebook (Voila, Chromium), at a laptop (1280x800) and a
phone (390x844): the game whose aid is the longest of the registered games is opened; after
the goal, "Got it" shows the aid as a list in the fixed-height lesson panel, and the status
line above the board shows its words whole (its lines fit its fixed height); the panel is
reached by Tab and scrolled by keyboard to the aid's last line; the page never scrolls
sideways; "Player aid and goal", pressed by keyboard after everything is read, shows the goal
again and then the aid."""

from __future__ import annotations

import pytest
from browser_harness import explained, page_errors, save_screenshot
from playwright.sync_api import expect

from haunted_kit.games import game_names
from haunted_kit.tutorial import Tutorial, teach_points, write_notebook

pytestmark = pytest.mark.browser


def longest_aid() -> tuple:
    """``(game, aid step)`` of the registered game whose player aid has the most words."""
    aids = {g: Tutorial(g, seed=1, progress=False).steps["aid"] for g in game_names()}
    game = max(aids, key=lambda g: sum(len(t) + len(x) for t, x in aids[g].lines))
    return game, aids[game]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_player_aid_fits_the_lesson_panel_and_comes_back_by_keyboard(size, page, voila_server, tmp_path):
    game, aid = longest_aid()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    srv = voila_server(nb, timeout=120.0)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    goal = teach_points(game)["goal"].title
    with explained(f"opening the {game} tutorial and reading the goal", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_contain_text(goal, timeout=120_000)
        page.locator(".hk-lesson-next").click()
        expect(lesson.locator("ul.hk-aid li")).to_have_count(len(aid.lines), timeout=30_000)
    region = lesson.locator("[role=region]")
    height = region.evaluate("el => el.clientHeight")
    last = lesson.locator("ul.hk-aid li").last
    with explained("scrolling the lesson panel to the aid's last line by keyboard", srv, page):
        region.focus()
        expect(region).to_be_focused()
        page.keyboard.press("End")
        page.wait_for_function("el => el.scrollTop + el.clientHeight >= el.scrollHeight - 1", arg=region.element_handle())
        inside = last.evaluate("(li) => { const r = li.getBoundingClientRect(), "
                               "b = li.closest('[role=region]').getBoundingClientRect(); "
                               "return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }")
        assert inside, "the aid's last line cannot be scrolled into the panel"
    assert region.evaluate("el => el.clientHeight") == height        # the panel keeps its height
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    save_screenshot(page, f"tutorial-aid-{game}-{size[0]}x{size[1]}", full_page=False)
    status = page.locator('[role=region][aria-label="status"]').first  # the status line above the board
    fits = status.evaluate("el => [el.scrollHeight, el.clientHeight]")
    assert fits[0] <= fits[1] + 1, f"the status line is cut: {fits[0]} px of words in a {fits[1]} px box ({status.inner_text()!r})"
    with explained("reading every step, then 'Player aid and goal' by keyboard", srv, page):
        for _ in range(40):
            if "Nothing new right now" in lesson.inner_text():
                break
            if page.locator(".hk-lesson-next").is_enabled():
                page.locator(".hk-lesson-next").click()
            page.wait_for_timeout(300)
        expect(lesson).to_contain_text("Nothing new right now", timeout=30_000)
        button = page.locator(".hk-lesson-aid")
        button.focus()
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(lesson).to_contain_text(goal, timeout=30_000)
        page.locator(".hk-lesson-next").click()
        expect(lesson.locator("ul.hk-aid li")).to_have_count(len(aid.lines), timeout=30_000)
    assert page_errors(page) == "<none>"
