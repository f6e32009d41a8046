"""The teacher's path through a lesson, in Chromium, for a registered game (the kit names
none): a fresh start on an empty store opens on the new-table form (no Table 1 asked for);
the roster pasted; a table made from the form with bot seats that play it to the end; a
name from the roster given to a seat, shown on the seat page; the results and the class's
CSV; a rematch with the same seats; the finished table's replay on the projector by its
watch link (never the teacher's token), stepped and with the review's turning points.
Every wait ends on what the page shows (bounded), never on a clock."""

from __future__ import annotations

import csv
import io

import pytest
from browser_harness import explained, free_port
from playwright.sync_api import expect

from haunted_kit.games import game_names, get_game

pytestmark = pytest.mark.browser


def test_a_teacher_runs_a_lesson_from_an_empty_store_to_the_replay(chromium_browser, class_server, tmp_path):
    game = game_names()[-1]
    g = get_game(game)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--bot-delay", "0",
                       "--game", game)
    assert srv.seats == {}   # nothing asked for: no table
    teacher = chromium_browser.new_page()
    teacher.on("dialog", lambda d: d.accept())
    teacher.goto(srv.teacher)
    with explained("the teacher's lesson", srv, teacher):
        expect(teacher.locator(".hk-no-table")).to_have_text(
            "No table yet: make the first one with the New table form below.")
        expect(teacher.locator(".hk-table-box")).to_have_count(0)
        teacher.locator(".hk-roster textarea").fill("Ana\nBen <b>\n\nAna")
        teacher.locator(".hk-roster button").click()
        expect(teacher.locator(".hk-roster .hk-reply")).to_have_text("The roster has 2 names.")

        form = teacher.locator("form.hk-new")
        expect(form.locator(".hk-game")).to_have_value(game)
        n = g.min_players
        form.locator('[name="players"]').fill(str(n))
        form.locator('[name="bots"]').fill(",".join(str(p) for p in range(2, n + 1)))   # P1 human, for the name
        form.locator("button", has_text="create").click()
        expect(teacher.locator(".hk-table-box")).to_have_count(1)
        expect(teacher.locator(".hk-no-table")).to_have_text("")

        row = teacher.locator("tr.hk-seat").first
        row.locator(".hk-name-input").fill("Ben <b>")
        row.locator(".hk-name-form button").click()
        expect(teacher.locator(".hk-table-row .hk-reply")).to_have_text("Table 1: P1 is Ben <b>.")
        expect(row.locator(".hk-idle")).not_to_have_text("")

        code = teacher.locator("tr.hk-seat").first.locator("b").first.inner_text()
        seat = chromium_browser.new_page()
        seat.goto(f"{srv.url}/s/{code}")
        expect(seat.locator(".hk-names")).to_contain_text("P1 Ben <b>")
        expect(seat).to_have_title(__import__("re").compile(r"P1 Ben <b>"))
        expect(seat.locator(".hk-waiting")).to_contain_text("Waiting for")
        # the turn signal a student switches on: kept on the device, and it vibrates (and beeps) at once to show it works
        seat.evaluate("() => { window.__buzz = []; navigator.vibrate = p => (window.__buzz.push(p), true); }")
        seat.locator(".hk-signal input").check()
        assert seat.evaluate("() => [localStorage.getItem('hk-signal'), window.__buzz]") == ["1", [[200, 100, 200]]]
        expect(seat.locator(".hk-signal input")).to_be_checked()

        # P1 to a bot too: the bots play the game to its end
        row.locator(".hk-hand").click()
        expect(teacher.locator(".hk-waiting-t")).to_have_text("game over", timeout=120_000)
        expect(seat.locator("table.hk-results")).to_be_visible()
        expect(seat.locator("table.hk-results")).to_contain_text("P1 Ben <b>")

        with teacher.expect_download() as dl:
            teacher.locator("a.hk-csv").click()
        rows = list(csv.DictReader(io.StringIO(open(dl.value.path(), encoding="utf-8-sig").read())))  # Excel's BOM
        assert [(r["table"], r["player"], r["name"], r["finished"]) for r in rows] == \
            [("1", f"P{p + 1}", "Ben <b>" if p == 0 else "", "yes") for p in range(n)]

        teacher.locator(".hk-rematch").click()
        expect(teacher.locator(".hk-table-box")).to_have_count(1)
        expect(teacher.locator(".hk-table-box h3")).to_contain_text("Table 2")
        expect(teacher.locator(".hk-archived li")).to_have_count(1)
        expect(seat.locator(".hk-names")).to_contain_text("P1 Ben <b>", timeout=30_000)   # the same link: the rematch
        expect(seat).to_have_title(__import__("re").compile(r"Table 2"))

        replay_link = teacher.locator(".hk-archived a")
        href = replay_link.get_attribute("href")
        assert srv.token not in href and href.startswith("/replay/1?token=")
        screen = chromium_browser.new_page(viewport={"width": 1920, "height": 1080})
        screen.goto(srv.url + href)
        expect(screen.locator(".hk-step")).to_contain_text(" of ")
        steps = int(screen.locator(".hk-step").inner_text().split()[-1])
        expect(screen.locator("table.hk-results")).to_be_visible()
        screen.locator("[data-go=first]").click()
        expect(screen.locator(".hk-step")).to_have_text(f" decision 0 of {steps} ")
        expect(screen.locator("table.hk-results")).to_have_count(0)
        # the replay's board as large as the projector allows: over half its width, or 85% of its height
        board = screen.locator(".hk-replay-view .hk-board svg").bounding_box()
        assert board["width"] >= 960 or board["height"] >= 0.84 * 1080, f"the replay's board is {board}"
        screen.locator("[data-go=next]").click()
        expect(screen.locator(".hk-step")).to_have_text(f" decision 1 of {steps} ")
        screen.keyboard.press("ArrowRight")
        expect(screen.locator(".hk-step")).to_have_text(f" decision 2 of {steps} ")
        expect(screen.locator(".hk-points-wait")).not_to_have_text("Working them out...", timeout=120_000)
        for b in screen.locator(".hk-points button").all()[:1]:
            number = int(b.inner_text().split()[-1])
            b.click()
            expect(screen.locator(".hk-step")).to_have_text(f" decision {number - 1} of {steps} ")
