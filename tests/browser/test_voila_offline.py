"""A page of the kit's Voila app asks nothing of any other host: a classroom may be offline, and a
request that cannot be answered shows as an error in the browser's console (two newcomers met
"Failed to load resource: net::ERR_NAME_NOT_RESOLVED": Voila's lab page links Font Awesome from a
CDN, which the kit's template leaves out; Voila's own bundle carries it)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from browser_harness import explained
from playwright.sync_api import expect

from haunted_kit.cli import TUTORIAL_APP
from haunted_kit.games import DEFAULT_GAME
from haunted_kit.tutorial import write_notebook

pytestmark = pytest.mark.browser

LOCAL = {"127.0.0.1", "localhost", "::1", "[::1]"}


def test_the_tutorial_page_loads_nothing_from_another_host(page, voila_server, tmp_path):
    nb = write_notebook(DEFAULT_GAME, tmp_path / "nb" / f"tutorial-{DEFAULT_GAME}.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    asked, failed = [], []
    page.on("request", lambda r: asked.append(r.url))
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    with explained("opening the tutorial in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(".hk-tutorial .hk-lesson")).to_contain_text("Rule:", timeout=120_000)
        page.wait_for_load_state("networkidle")
    outside = [u for u in asked if urlsplit(u).scheme in ("http", "https", "ws", "wss") and urlsplit(u).hostname not in LOCAL]
    assert asked and not outside, outside
    assert not failed, failed
    # Font Awesome still draws (Voila's bundle): its font family is defined on the page
    assert page.evaluate("() => [...document.fonts].some(f => /Font Awesome/.test(f.family))")
