"""What a class meets on the table pages, in Chromium, for every registered game (the kit
names none): the turn's words name cells only when the view has cell choices, and a
refusal's sentence is gone at the next position (the live region too); a finished table's
results fit a 390 px phone (the table scrolls in its own focusable box); pages of an
archived table follow it back into play by themselves; the join page opens a seat by a
code typed in small letters. Every wait ends on what the page shows (bounded)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from browser_harness import explained, free_port
from playwright.sync_api import expect

from haunted_kit import games

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def teacher_post(srv, body: dict) -> dict:
    req = urllib.request.Request(srv.teacher, data=json.dumps(body).encode(), method="POST")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=20) as resp:
        return json.loads(resp.read())


@pytest.mark.parametrize("game", games.game_names())
def test_turn_words_follow_the_choices_and_a_refusal_goes_at_the_next_position(game, chromium_browser, class_server):
    srv = class_server("--store", "class.db", "--port", str(free_port()), "--game", game, "--seed", "2",
                       "--players", str(games.get_game(game).min_players))
    p1, p2 = chromium_browser.new_page(), chromium_browser.new_page()
    with explained(f"{game}: two seats", srv, p1):
        p1.goto(srv.seats[(1, 1)])
        p2.goto(srv.seats[(1, 2)])
        for pg in (p1, p2):
            pg.wait_for_function("document.querySelector('#app').dataset.seq !== undefined")
        mover, other = (p1, p2) if p1.evaluate("() => view.turn") else (p2, p1)
        cells = mover.evaluate("() => view.actions.some(a => a.xy)")
        banner = mover.locator(".hk-turn").inner_text()
        assert ("highlighted cell" in banner) == cells, f"{game}: {banner!r} for choices with cells: {cells}"
        other.locator(".hk-board").click(position={"x": 5, "y": 5})
        expect(other.locator(".hk-message")).to_contain_text("It is not your decision now.")
        expect(other.locator(".hk-live")).to_contain_text("It is not your decision now.")
        seq = other.evaluate("() => view.seq")
        mover.locator(".hk-action, .hk-pick-go").first.click()
        other.wait_for_function(f"() => view.seq !== {seq}")
        expect(other.locator(".hk-message")).to_have_text("")
        expect(other.locator(".hk-live")).not_to_contain_text("It is not your decision now.")


@pytest.mark.parametrize("game", games.game_names())
def test_a_finished_tables_results_fit_a_phone(game, chromium_browser, class_server):
    n = games.get_game(game).min_players
    srv = class_server("--store", "class.db", "--port", str(free_port()), "--game", game, "--players", str(n),
                       "--bots", ",".join(str(p) for p in range(1, n + 1)), "--bot-delay", "0")
    ctx = chromium_browser.new_context(viewport=PHONE)
    pg = ctx.new_page()
    try:
        with explained(f"{game}: the results on a phone", srv, pg):
            pg.goto(srv.seats[(1, 1)])
            expect(pg.locator("table.hk-results")).to_be_visible(timeout=120_000)
            width = pg.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{game}: the results widen the phone's page to {width} px"
            box = pg.locator(".hk-results-scroll")
            assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
            if box.evaluate("b => b.scrollWidth > b.clientWidth"):  # the keyboard scrolls it
                box.focus()
                pg.keyboard.press("ArrowRight")
                pg.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle())
    finally:
        ctx.close()


def test_an_archived_tables_pages_follow_it_back_into_play_and_codes_are_typed_in_any_case(chromium_browser,
                                                                                             class_server):
    srv = class_server("--store", "class.db", "--port", str(free_port()), "--seed", "3")
    code = srv.codes[(1, 1)]
    ctx = chromium_browser.new_context(viewport=PHONE)
    pg, screen = ctx.new_page(), ctx.new_page()
    try:
        with explained("the join page, then an archived table", srv, pg):
            pg.goto(srv.url + "/")
            pg.get_by_label("Your seat code").fill(code.lower())
            pg.get_by_role("button", name="Join").click()
            expect(pg).to_have_url(f"{srv.url}/s/{code}")
            expect(pg.locator("#app .hk-board")).to_have_count(1)
            screen.goto(srv.projector[1])
            expect(screen.locator("#app .hk-board")).to_have_count(1)
            assert teacher_post(srv, {"op": "archive", "table": 1})["ok"].startswith("Table 1 archived")
            for page in (pg, screen):
                expect(page.locator(".hk-withdrawn")).to_contain_text("opens the table by itself")
            assert teacher_post(srv, {"op": "unarchive", "table": 1}) == {"ok": "Table 1 is back in play.", "seq": 0}  # the position it is about
            for page in (pg, screen):  # reloaded by itself onto the live table
                expect(page.locator("#app .hk-board")).to_have_count(1)
                expect(page.locator(".hk-withdrawn")).to_have_count(0)
        teacher = ctx.new_page()
        with explained("the teacher's tables keep their order", srv, teacher):
            assert teacher_post(srv, {"op": "create", "players": 2, "seed": 5}) == {"ok": "Table 2 created."}
            teacher.goto(srv.teacher)
            expect(teacher.locator(".hk-table-box h3")).to_have_count(2)
            teacher_post(srv, {"op": "archive", "table": 1})
            expect(teacher.locator(".hk-table-box h3")).to_have_count(1)
            teacher_post(srv, {"op": "unarchive", "table": 1})
            expect(teacher.locator(".hk-table-box h3")).to_have_count(2)
            heads = teacher.locator(".hk-table-box h3")
            expect(heads.first).to_contain_text("Table 1")
            expect(heads.nth(1)).to_contain_text("Table 2")
            form = teacher.locator("form.hk-new")  # too many players: the server's sentence shows on the page
            form.locator('[name="players"]').fill("99")
            form.locator("button", has_text="create").click()
            expect(form.locator(".hk-reply")).to_contain_text("Players (players) must be a whole number from")
    finally:
        ctx.close()
