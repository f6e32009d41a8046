"""Notebook 09 (Landmarks & Architects) served by Voila, in Chromium: every Landmarks panel
is painted (a panel's drawing commands sent before its browser view exists are drawn again
when the view says it is ready; a student once saw every panel blank)."""

from __future__ import annotations

import time

import pytest
from browser_harness import explained, page_errors, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PANELS = ".hk-landmarks-panel canvas"

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
