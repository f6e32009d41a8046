"""Notebook 09 (Landmarks & Architects) served by Voila, in Chromium: every Landmarks panel
is painted (a panel's drawing commands sent before its browser view exists are drawn again
when the view says it is ready; a student once saw every panel blank)."""

from __future__ import annotations

import time

import pytest
from browser_harness import explained, page_errors, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PANELS = ".hk-landmarks-panel canvas.hk-panel-wide"  # the layout a 1280 px window shows

#: how many pixels of a canvas are painted (alpha > 0), read in the page
PAINTED = """c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                    let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; }"""


def test_every_landmarks_panel_is_painted_in_voila(page, voila_server):
    srv = voila_server("notebooks/09_landmarks_and_architects.ipynb", timeout=120.0)
    with explained("opening notebook 09 in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(PANELS).first).to_be_visible(timeout=120_000)
    panels = page.locator(PANELS)
    n = panels.count()
    assert n >= 2, f"notebook 09 shows {n} Landmarks panels"
    deadline = time.monotonic() + 30  # bounded: each panel is drawn once its view is ready
    painted = [0] * n
    while time.monotonic() < deadline:
        painted = [panels.nth(k).evaluate(PAINTED) for k in range(n)]
        if all(painted):
            break
        time.sleep(0.5)
    save_screenshot(page, "landmarks-voila", full_page=False)
    assert all(painted), f"painted pixels per panel: {painted} (a blank panel was never drawn in its view)"
    assert page_errors(page) == "<none>"


def test_a_tap_on_the_play_views_panel_says_what_is_there(page, voila_server):
    """The Landmarks panel is a picture: a tap on a word of it is a question, answered under
    it with the key's words, rule section and box value (no toggle needed, none shown)."""
    from haunted_kit.landmarks.draw import WIDE_SCALE, WIDE_WIDTH, panel_scene
    from haunted_kit.landmarks.engine import new_game
    from haunted_kit.render.primitives import Text

    state = new_game(3, 2, rounds=3)                      # notebook 09's play view, seen by P1
    prims, _w, _h = panel_scene(state, 0, WIDE_WIDTH, WIDE_SCALE)
    left = next(p for p in prims if isinstance(p, Text) and " left - " in p.text and "VP" in p.text)
    box = state.box
    srv = voila_server("notebooks/09_landmarks_and_architects.ipynb", timeout=120.0)
    play = page.locator(".hk-landmarks-play")
    canvas = play.locator(PANELS)
    with explained("opening notebook 09 in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(canvas).to_be_visible(timeout=120_000)
    expect(play.locator(".hk-whatis-toggle")).to_be_hidden()
    with explained(f"tapping the words {left.text!r} on the panel", srv, page):
        scale = canvas.evaluate("c => c.getBoundingClientRect().width / c.width")
        canvas.click(position={"x": left.x * scale, "y": left.y * scale})
        answer = play.locator(".hk-whatis-answer [role=status]")
        expect(answer).to_contain_text(f'What is this? "{left.text}".', timeout=30_000)
        expect(answer).to_contain_text(f"left: landmark tokens of that kind still in the supply; "
                                       f"{box.tokens_per_type} of each kind at the start")
        expect(answer).to_contain_text(f"VP: victory points; +{box.most_points} to the one player with the most tokens "
                                       "of a type (at least 1; a tie: nobody)")
    assert page_errors(page) == "<none>"


# every visible text of the page with its size in CSS px on screen (an SVG text's font size
# times the SVG's scale), every visible canvas with its drawn width over its own width and
# its classes, and the page's width
PHONE_TEXTS = """() => {
  const texts = [], canvases = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.tagName === 'CANVAS') { canvases.push([r.width / e.width, e.getAttribute('class') || '', r.right]); continue; }
    let own = '';
    for (const n of e.childNodes) if (n.nodeType === 3) own += n.textContent;
    if (!own.trim() || e.closest('details:not([open])') && !e.closest('summary')) continue;
    if (e.closest('.jp-InputArea, .jp-InputPrompt, .jp-OutputPrompt, script, style')) continue;
    let px = parseFloat(getComputedStyle(e).fontSize);
    if (e.closest('svg')) { const m = e.getScreenCTM(); px *= Math.hypot(m.a, m.b); }
    texts.push([Math.round(px * 100) / 100, e.tagName, own.trim().slice(0, 40)]);
  }
  texts.sort((a, b) => a[0] - b[0]);
  return {texts, canvases, width: document.documentElement.scrollWidth};
}"""


def test_landmarks_panels_fit_a_phone_with_text_of_12_px(page, voila_server):
    """On a 390x844 phone every Landmarks panel (the play view's canvas and the notebook's
    SVG) shows its phone layout: the page never scrolls sideways, and its smallest text is
    at least 12 CSS px (a canvas' text is the narrow layout's least size, 12 px, times its
    drawn scale)."""
    from haunted_kit.landmarks.draw import NARROW_SCALE, NARROW_WIDTH, panel_scene
    from haunted_kit.landmarks.engine import new_game
    from haunted_kit.render.primitives import Text

    least = min(p.size for p in panel_scene(new_game(3, 2, rounds=3), 0, NARROW_WIDTH, NARROW_SCALE)[0]
                if isinstance(p, Text))
    assert least >= 12
    page.set_viewport_size({"width": 390, "height": 844})
    srv = voila_server("notebooks/09_landmarks_and_architects.ipynb", timeout=120.0)
    with explained("opening notebook 09 in Voila at 390x844", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(".hk-landmarks-play canvas.hk-panel-narrow")).to_be_visible(timeout=120_000)
    play = page.locator(".hk-landmarks-play")
    with explained("leading build, choosing the Hidden Sanctum and listing more ways to pay", srv, page):
        play.locator(".hk-choice", has_text="lead build").click()
        card = play.locator(".hk-build-card", has_text="Hidden Sanctum (shadow building; costs")
        card.click()
        plans = play.locator(".hk-build-plans input[type=radio]")
        expect(plans).to_have_count(5, timeout=30_000)                 # the cheapest 5, as a list
        play.locator(".hk-build-more").click()
        expect(plans).to_have_count(15, timeout=30_000)                # 10 more
        expect(play.locator(".hk-keys .hk-live")).to_contain_text(
            "choose to build the Hidden Sanctum", timeout=30_000)      # the keyboard's line names the chosen card
    plans.nth(0).focus()                                               # a radio list: Tab reaches it, arrows move
    page.keyboard.press("ArrowDown")
    expect(play.locator(".hk-build-plan-chosen")).to_contain_text("Chosen:")
    labels = play.locator(".hk-build-plans label").evaluate_all("ls => ls.map(l => l.getBoundingClientRect().right)")
    assert labels and max(labels) <= 390, labels                       # every plan's words wrap inside the screen
    got = page.evaluate(PHONE_TEXTS)
    save_screenshot(page, "landmarks-voila-phone", full_page=False)
    assert got["width"] <= 390, f"the page is {got['width']} px wide at 390x844 (it scrolls sideways)"
    panels = [c for c in got["canvases"] if "hk-panel" in c[1]]
    assert panels and all("hk-panel-narrow" in c[1] for c in panels), panels   # the phone's layout only
    assert all(scale * least >= 12 for scale, _c, _r in panels), panels
    assert all(right <= 390 for _s, _c, right in panels), panels
    assert got["texts"][0][0] >= 12, got["texts"][:8]
    assert page_errors(page) == "<none>"


def test_landmarks_panels_are_drawn_with_text_of_12_px_at_1280x800(page, voila_server):
    """At 1280x800 every Landmarks panel shows its wide layout, drawn with its least text
    (12 px at its own size) at no less than 12 CSS px, and the page does not scroll sideways."""
    from haunted_kit.landmarks.draw import WIDE_SCALE, WIDE_WIDTH, panel_scene
    from haunted_kit.landmarks.engine import new_game
    from haunted_kit.render.primitives import Text

    least = min(p.size for p in panel_scene(new_game(3, 2, rounds=3), 0, WIDE_WIDTH, WIDE_SCALE)[0]
                if isinstance(p, Text))
    assert least >= 12
    page.set_viewport_size({"width": 1280, "height": 800})
    srv = voila_server("notebooks/09_landmarks_and_architects.ipynb", timeout=120.0)
    with explained("opening notebook 09 in Voila at 1280x800", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(".hk-landmarks-play canvas.hk-panel-wide")).to_be_visible(timeout=120_000)
    got = page.evaluate(PHONE_TEXTS)
    assert got["width"] <= 1280, got["width"]
    panels = [c for c in got["canvases"] if "hk-panel" in c[1]]
    assert panels and all("hk-panel-wide" in c[1] for c in panels), panels
    assert all(scale * least >= 12 for scale, _c, _r in panels), panels
    # the notebook's static panel: an image of the wide layout's SVG (least text 12 px at its own size) drawn whole
    drawn = page.locator(".hk-landmarks-layouts .hk-panel-wide img").evaluate_all(
        "ims => ims.map(i => i.getBoundingClientRect().width / i.naturalWidth)")
    assert drawn and min(drawn) * least >= 12, drawn
    save_screenshot(page, "landmarks-voila-1280", full_page=False)
