"""The notebooks on a phone (390x844) and at 1280x800, in JupyterLab and Voila, for every game.

* Play views (Haunted Lands' in notebook 07, Estate and Market's in 08, Landmarks &
  Architects' in 09) and step-throughs (notebook 00's, notebook 09's): run from the Run
  menu at 1280x800 with the Lab's file browser open, then on a 390x844 phone with it
  closed. Nothing of a view reaches past the window or scrolls sideways (a board drawn
  larger than its box pans in it on purpose: a static drawing's ``.hk-pan``, a canvas
  board's ``.hk-pan-box``; the valor track scrolls on purpose), the page itself never
  scrolls sideways, "Do it" is on screen and clickable without any sideways scroll, no
  blank line sits above a board at the start, and the notebook's static drawings read at
  least 12 CSS px as drawn; on the phone every text of the view, its canvases' drawn words
  included, does too (a laptop's canvas board may scale down beside the file browser).
* Tables (notebooks 00-10 as stored, untrusted: the Lab drops their ``<style>``): on the
  phone no table reaches past its output area or scrolls sideways, and a sentence column
  is at least a readable width, never a column of a few letters per line.
* Voila (notebooks 07, 08, 09) on the phone: the play view and the static drawings fit (a
  drawing may pan in its box), read at least 12 CSS px, and "Do it" is reachable.

One JupyterLab serves every Lab test of this file (each test opens its own workspace).
"""

from __future__ import annotations

import re
import secrets

import pytest
from browser_harness import (TEXT_SIZES, clipped_elements, copy_repo, explained, page_errors, save_screenshot, start_jupyter_lab,
                             terminate_tree)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MIN_PX = 12
#: a sentence column narrower than this (CSS px) reads a few words a line at most
SENTENCE_MIN_PX = 150

#: the notebooks with a play view or a step-through, the views they show, and their game
VIEW_NOTEBOOKS = {
    "notebooks/00_start_here.ipynb": (".hk-step", "haunted"),
    "notebooks/07_classroom_play.ipynb": (".hk-play", "haunted"),
    "notebooks/08_estate_and_market.ipynb": (".hk-estate-play", "estate"),
    "notebooks/09_landmarks_and_architects.ipynb": (".hk-landmarks-play, .hk-record-step", "landmarks"),
}
TABLE_NOTEBOOKS = ["00_start_here", "01_components_and_setup", "02_a_round_step_by_step", "03_actions",
                   "04_skills_quests_scoring", "05_pathfinding", "06_strategy_lab", "08_estate_and_market",
                   "09_landmarks_and_architects", "10_strategy_lab_at_scale"]

# the page and the notebook's scroller: how far each scrolls sideways (0 when it does not)
SIDEWAYS = """() => [document.documentElement, ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook')]
    .filter(e => e.getBoundingClientRect().width > 0).map(e => e.scrollWidth - e.clientWidth)"""


@pytest.fixture(scope="module")
def shared_lab(tmp_path_factory):
    """One JupyterLab on a copy of the repo for every Lab test of this module."""
    root = tmp_path_factory.mktemp("phone-lab")
    try:
        srv = start_jupyter_lab(copy_repo(root / "repo"), root / "jupyter-state")
    except RuntimeError as exc:
        pytest.fail(f"JupyterLab failed to start:\n{exc}", pytrace=False)
    try:
        yield srv
    finally:
        terminate_tree(srv.process)


def open_notebook(browser, srv, notebook, viewport):
    """A new page on ``notebook`` in a workspace of its own (no tab left by another test)."""
    ctx = browser.new_context(viewport=viewport)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    url = srv.with_token(f"lab/workspaces/w{secrets.token_hex(4)}/tree/{notebook}") + "&reset"
    with explained(f"opening {notebook} in JupyterLab at {viewport}", srv, page):
        page.goto(url, timeout=90_000)
        expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")).to_be_visible(timeout=60_000)
        expect(page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\| Idle"))).to_be_visible(timeout=60_000)
    return ctx, page


def close_file_browser(page) -> None:
    """Close the left sidebar (a phone's user does: it covers the notebook)."""
    current = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if current.count():
        current.first.click()
        expect(current).to_have_count(0)


def run_all(page, srv, wait_for: str) -> None:
    with explained("running all cells with Run > Run All Cells", srv, page):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        run_all_item = page.locator('.lm-Menu-item[data-command="runmenu:run-all"]')
        expect(run_all_item).not_to_have_class(re.compile("lm-mod-disabled"))
        run_all_item.click()
        for sel in wait_for.split(", "):
            expect(page.locator(sel).first).to_be_attached(timeout=120_000)
        expect(page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\| Idle"))).to_be_visible(timeout=120_000)


def unfit(page, root: str) -> list[str]:
    """What of every ``root`` reaches past the window or scrolls sideways (a pan box may)."""
    return clipped_elements(page, root, scroll=True)


def small_texts(page, root: str) -> list:
    small = []
    for match in page.locator(root).all():
        match.scroll_into_view_if_needed()
        small += [t for t in match.evaluate(TEXT_SIZES) if t[0] < MIN_PX - 0.05]
    return small


def drawings(page) -> str:
    """The output areas holding a static drawing (an SVG or an image of one)."""
    return ".jp-OutputArea-output:has(svg), .jp-OutputArea-output:has(img[src^='data:image/svg+xml'])"


def laid_out(page) -> None:
    """Wait for the browser to lay the page out after a resize (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check_views(page, views: str, size: str, phone: bool) -> None:
    """Every view and static drawing fits and nothing scrolls sideways; the drawings (and on
    a ``phone`` the views too) read at least 12 CSS px."""
    laid_out(page)
    bad = unfit(page, views) + unfit(page, drawings(page))
    assert not bad, f"at {size}, these do not fit:\n" + "\n".join(bad)
    small = (small_texts(page, views) if phone else []) + small_texts(page, drawings(page))
    assert not small, f"at {size}, text under {MIN_PX} CSS px as drawn: {small[:10]}"
    assert max(page.evaluate(SIDEWAYS)) <= 1, f"at {size} the page scrolls sideways: {page.evaluate(SIDEWAYS)}"


def check_do_it(page, views: str, size: str) -> None:
    """Every "Do it" of the views is reached by scrolling down alone and takes a click there."""
    for do in page.locator(f":is({views}) .hk-do").all():
        do.scroll_into_view_if_needed()
        box = do.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], \
            f"at {size}, Do it is not whole on screen: {box}"
        do.click(trial=True)  # visible, enabled, not covered: a click would land on it
    assert max(page.evaluate(SIDEWAYS)) <= 1


@pytest.mark.parametrize("notebook", list(VIEW_NOTEBOOKS), ids=lambda n: n.split("/")[1][:2])
def test_play_views_fit_and_read_on_a_phone_and_a_laptop(notebook, chromium_browser, shared_lab):
    views, _game = VIEW_NOTEBOOKS[notebook]
    ctx, page = open_notebook(chromium_browser, shared_lab, notebook, LAPTOP)
    try:
        run_all(page, shared_lab, views)
        # no blank line above a board at the start: a play view's message line says something
        for message in page.locator(f":is({views}) .hk-message").all():
            expect(message).not_to_have_text(re.compile(r"^\s*$"))
        check_views(page, views, "1280x800 with the file browser open", phone=False)
        check_do_it(page, views, "1280x800")
        page.set_viewport_size(PHONE)
        close_file_browser(page)
        check_views(page, views, "390x844", phone=True)
        check_do_it(page, views, "390x844")
        save_screenshot(page, f"phone-fit-{notebook.split('/')[1][:2]}", full_page=False)
        assert page_errors(page) == "<none>"
    finally:
        ctx.close()


def _sentence_columns(page, output) -> list:
    """Per table of ``output``: the width of its widest-text cell (a sentence) and the text."""
    return output.evaluate("""o => [...o.querySelectorAll('table')].map(t => {
        let best = null;
        for (const c of t.querySelectorAll('td')) {
            const n = c.textContent.trim().length;
            if (n >= 60 && (!best || n > best[1])) best = [Math.round(c.getBoundingClientRect().width), n, c.textContent.trim().slice(0, 50)];
        }
        return best; }).filter(Boolean)""")


@pytest.mark.parametrize("name", TABLE_NOTEBOOKS, ids=lambda n: n[:2])
def test_the_tables_fit_a_phone(name, chromium_browser, shared_lab):
    ctx, page = open_notebook(chromium_browser, shared_lab, f"notebooks/{name}.ipynb", PHONE)
    try:
        close_file_browser(page)
        tables = ".jp-OutputArea-output:has(table)"
        expect(page.locator(tables).first).to_be_attached(timeout=30_000)
        bad = unfit(page, tables)
        assert not bad, f"{name} at 390x844: these tables do not fit:\n" + "\n".join(bad)
        narrow = []
        for output in page.locator(tables).all():
            output.scroll_into_view_if_needed()
            narrow += [s for s in _sentence_columns(page, output) if s[0] < SENTENCE_MIN_PX]
        assert not narrow, f"{name} at 390x844: sentence columns too narrow to read: {narrow[:5]}"
        assert max(page.evaluate(SIDEWAYS)) <= 1
    finally:
        ctx.close()


@pytest.mark.parametrize("notebook", ["notebooks/07_classroom_play.ipynb", "notebooks/08_estate_and_market.ipynb",
                                      "notebooks/09_landmarks_and_architects.ipynb"], ids=lambda n: n.split("/")[1][:2])
def test_play_views_fit_a_phone_in_voila(notebook, page, voila_server):
    views, _game = VIEW_NOTEBOOKS[notebook]
    page.set_viewport_size(PHONE)
    srv = voila_server(notebook, timeout=120.0)
    with explained(f"opening {notebook} in Voila at 390x844", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(f":is({views}) .hk-do").first).to_be_visible(timeout=120_000)
    laid_out(page)
    bad = unfit(page, views) + unfit(page, drawings(page))
    assert not bad, "in Voila at 390x844, these do not fit:\n" + "\n".join(bad)
    small = small_texts(page, views) + small_texts(page, drawings(page))
    assert not small, f"in Voila at 390x844, text under {MIN_PX} CSS px as drawn: {small[:10]}"
    check_do_it(page, views, "390x844 in Voila")
    assert page_errors(page) == "<none>"
