"""Hints for learners in the classroom app (Voila in Chromium): "Suggest a move" shows the
search agent's three best moves with their shares and sentences, searched off the kernel's
event loop so the page keeps answering clicks meanwhile; a teacher's ``--no-hints`` takes
the button away and the page says why. The search budget comes from ``--hint-playouts``.
"""

from __future__ import annotations

import re

import pytest
from board_page import FIELD, mirror_game
from browser_harness import explained, page_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PLAYERS, MODE, SEED, BOTS = 3, "citizen", 1, "2,3"  # P1 human and first: places a spread ghost
PLAYOUTS = 3000  # long enough (about a second or more) to click while it searches, short enough for a test


def test_suggest_a_move_shows_three_hints_without_freezing_the_page(page, classroom_server):
    srv = classroom_server("--players", str(PLAYERS), "--mode", MODE, "--seed", str(SEED), "--bots", BOTS,
                           "--hint-playouts", str(PLAYOUTS), "--port", "0")
    suggest = page.locator(".hk-suggest")
    hint_list = page.locator(".hk-hint-list")
    message = page.locator(".hk-message")
    with explained("loading the classroom app", srv, page):
        page.goto(srv.url + "/")
        expect(page.locator(FIELD)).to_be_visible(timeout=60_000)
        expect(page.locator(".hk-status")).to_contain_text("spread: P1 (you) to move", timeout=60_000)
        expect(suggest).to_be_enabled()
    s = mirror_game(PLAYERS, MODE, SEED)
    legal = {a.describe() for a in s.legal_actions()}

    with explained("asking for a move and clicking the page while the search runs", srv, page):
        suggest.click()
        expect(hint_list).to_contain_text(f"Thinking for P1 ({PLAYOUTS:,} playouts)")
        expect(suggest).to_be_disabled()  # one search at a time
        page.locator(FIELD).click(position={"x": 2, "y": 2})  # off the field: the kernel answers at once
        expect(message).to_contain_text("outside the field", timeout=10_000)
        still = hint_list.inner_text()
    assert f"Thinking for P1 ({PLAYOUTS:,} playouts)" in still, (
        "the click was answered only after the search: the page froze while thinking", still)

    with explained("waiting for the three hints", srv, page):
        items = hint_list.locator("li")
        expect(items).to_have_count(3, timeout=60_000)
        expect(suggest).to_be_enabled()
    shares = []
    for i in range(3):
        text = items.nth(i).inner_text()
        move = items.nth(i).locator("b").inner_text()
        assert move in legal, (move, legal)  # a legal move of P1's, as the engine words it
        m = re.search(r"\((\d+)%\): P1 puts a ghost on .+\. Chosen in (\d+)% of ([\d,]+) playouts; wins about \d+% of them\.",
                      text)
        assert m, text
        assert m.group(1) == m.group(2) and m.group(3) == f"{PLAYOUTS:,}"
        shares.append(int(m.group(1)))
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 101  # most visited first, shares of one search
    assert page_errors(page) == "<none>"


def test_a_teacher_switches_hints_off_for_a_table(page, classroom_server):
    srv = classroom_server("--players", "2", "--seed", "4", "--bots", "2", "--no-hints", "--port", "0")
    with explained("loading the classroom app without hints", srv, page):
        page.goto(srv.url + "/")
        expect(page.locator(FIELD)).to_be_visible(timeout=60_000)
        expect(page.locator(".hk-hints-off")).to_contain_text("Hints are switched off for this table")
    assert page.locator(".hk-suggest").count() == 0 and page.locator(".hk-hint-list").count() == 0
    assert page_errors(page) == "<none>"
