"""The tutorial's player aid in the notebook (Voila, Chromium), at a laptop (1280x800) and a
phone (390x844): the game whose aid is the longest of the registered games is opened; after
the goal, "Got it" shows the aid, its list under a "More" opened by keyboard, in the fixed-height lesson panel, and the status
line above the board shows its words whole (its lines fit its fixed height); the panel is
reached by Tab and scrolled by keyboard to the aid's last line; the page never scrolls
sideways; while the words run on below the box its scrollbar shows and a "more below" cue
is seen at its foot (not once scrolled to the end, nor under a step that fits); on a phone at
least five lines of the aid's list are in view; "Player aid and goal", pressed by keyboard after everything is read, shows the aid again, then the goal."""

from __future__ import annotations

import pytest
from browser_harness import explained, page_errors, save_screenshot
from playwright.sync_api import expect

from haunted_kit.cli import TUTORIAL_APP
from haunted_kit.games import game_names
from haunted_kit.tutorial import Tutorial, teach_points, write_notebook
from haunted_kit.widgets.playview import LINE_PX

pytestmark = pytest.mark.browser


def cue_seen(region) -> bool:
    """Whether the lesson box's cue is what the eye sees at its place (not its cover); its words
    are drawn by CSS (``::after``), never in the page's text."""
    return region.evaluate("el => { const c = el.querySelector('.hk-more'), r = c.getBoundingClientRect(); "
                           "const top = document.elementFromPoint(r.left + r.width - 8, r.top + r.height / 2); "
                           "return !!top && c.contains(top) && getComputedStyle(c, '::after').content.includes('more below'); }")


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
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    goal = teach_points(game)["goal"].title
    with explained(f"opening the {game} tutorial and reading the goal", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_contain_text(goal, timeout=120_000)
        page.locator(".hk-lesson-next").click()
        expect(lesson.locator("ul.hk-aid li")).to_have_count(len(aid.lines), timeout=30_000)
    region = lesson.locator("[role=region]")
    height = region.evaluate("el => el.clientHeight")
    with explained("opening the aid's list under 'More' by keyboard", srv, page):
        more = lesson.locator("details.hk-step-more")     # the aid's list is folded: Tab reaches More, Enter opens it
        expect(more).not_to_have_attribute("open", "")
        region.focus()
        page.keyboard.press("Tab")
        expect(more.locator("summary")).to_be_focused()
        page.keyboard.press("Enter")
        expect(more).to_have_attribute("open", "")
    last = lesson.locator("ul.hk-aid li").last
    # the words overflow: the scrollbar is always there and the cue "more below" is seen at the foot
    assert region.evaluate("el => el.scrollHeight > el.clientHeight + 1"), "the aid fits: nothing to cue"
    assert region.evaluate("el => getComputedStyle(el).overflowY") == "scroll"
    assert cue_seen(region), "the words run on below the box but no 'more below' cue is seen"
    # on a phone too, at least five lines of the aid's list are in view
    shown = lesson.locator("ul.hk-aid").evaluate(
        "(ul) => { const r = ul.getBoundingClientRect(), b = ul.closest('[role=region]').getBoundingClientRect(); "
        "return Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top); }")
    assert shown >= 5 * LINE_PX, f"only {shown} px of the aid's list are in view ({size[0]}x{size[1]})"
    with explained("scrolling the lesson panel to the aid's last line by keyboard", srv, page):
        region.focus()
        expect(region).to_be_focused()
        page.keyboard.press("End")
        page.wait_for_function("el => el.scrollTop + el.clientHeight >= el.scrollHeight - 1", arg=region.element_handle())
        inside = last.evaluate("(li) => { const r = li.getBoundingClientRect(), "
                               "b = li.closest('[role=region]').getBoundingClientRect(); "
                               "return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }")
        assert inside, "the aid's last line cannot be scrolled into the panel"
        assert not cue_seen(region), "scrolled to the end, the cue still says there is more below"
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
        assert region.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
        assert not cue_seen(region), "a step that fits the box is cued as running on"
        button = page.locator(".hk-lesson-aid")
        button.focus()
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(lesson.locator("ul.hk-aid li")).to_have_count(len(aid.lines), timeout=30_000)   # the aid first
        page.locator(".hk-lesson-next").click()
        expect(lesson).to_contain_text(goal, timeout=30_000)
    assert page_errors(page) == "<none>"
