"""The classroom server's pages as a teacher and students use them, in Chromium: the
teacher typing while the class plays (nothing emptied, QR images fetched once and
shown), a rollback chosen from the list with a confirmation, announced to every seat in
the same words and brought forward again; a double-click and a slow double-click make
one decision; the your-turn signal, the message line cleared by a new position, taking
back one's own move; a seat handed to a bot and back; a page that cannot reconnect
says so; one's own board in view at 1024x768 and on a phone; the projector at 1920 px.
The game is mirrored in Python (same seed, same decisions) to know what each page shows."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from browser_harness import free_port
from playwright.sync_api import expect
from test_class_server import Seat, play_one

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.draw import board_geometry
from haunted_kit.haunted.widgets.play import action_cell

pytestmark = pytest.mark.browser


def two_seats(chromium_browser, class_server, tmp_path, *args):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "2",
                       "--seed", "4", *args)
    seats = [Seat(chromium_browser, srv.seats[(1, p + 1)]) for p in range(2)]
    for seat in seats:
        seat.wait_seq(0)
    return srv, seats, hk.new_game(players=2, seed=4), [GreedyAgent(7), GreedyAgent(8)]


def wait_for_log(srv, text: str, timeout: float = 30.0) -> None:
    """Wait (bounded) until the server's log holds ``text``: an event, not a guess at time."""
    deadline = time.monotonic() + timeout
    while text not in srv.log_path.read_text(errors="replace"):
        if time.monotonic() > deadline:
            pytest.fail(f"the server's log never said {text!r}; its tail:\n{srv.log()}")
        time.sleep(0.05)


def teacher_post(srv, body: dict) -> dict:
    req = urllib.request.Request(srv.teacher, data=json.dumps(body).encode(), method="POST")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=20) as resp:
        return json.loads(resp.read())


def cell_point(page, state, action) -> tuple[float, float]:
    """Where on the page the cell of ``action`` is drawn."""
    svg = page.locator(".hk-board svg")
    box = svg.bounding_box()
    scale = box["width"] / float(svg.get_attribute("viewBox").split()[2])
    x, y = board_geometry(state.config.box, 30.0).centre(action_cell(state, action))
    return box["x"] + x * scale, box["y"] + y * scale


def sent_acts(seat) -> int:
    return seat.page.evaluate("() => window.__acts || 0")


def count_acts(seat) -> None:
    """Count the decisions the page sends from now on (wraps its socket's send)."""
    seat.page.evaluate("""() => { window.__acts = 0; if (window.__counting === sock) return; window.__counting = sock;
        const send = sock.send.bind(sock);
        sock.send = m => { if (JSON.parse(m).type === 'act') window.__acts++; send(m); }; }""")


def test_the_teacher_types_while_the_class_plays_and_loses_nothing(chromium_browser, class_server, tmp_path):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "2",
                       "--seed", "4", "--bots", "1,2", "--bot-delay", "0.3")
    teacher = chromium_browser.new_page()
    qr_fetches = []
    teacher.on("request", lambda r: qr_fetches.append(r.url) if "/qr/" in r.url else None)
    teacher.goto(srv.teacher)
    expect(teacher.locator("img.hk-qr")).to_have_count(2)
    teacher.evaluate("() => document.querySelectorAll('img.hk-qr').forEach(i => i.__kept = true)")
    seed = teacher.locator('form.hk-new input[name="seed"]')
    seed.click()
    seed.fill("")
    seed.type("12")                      # typing while the bots play
    teacher.locator('form.hk-new select[name="opt-mode"]').select_option("citizen")
    seed.click()
    first = int(re.search(r"\((\d+) decisions\)", teacher.locator(".hk-table-status").inner_text()).group(1))
    expect(teacher.locator(".hk-table-status")).not_to_contain_text(f"({first} decisions)", timeout=20_000)
    expect(teacher.locator(".hk-table-status")).not_to_contain_text(f"({first + 1} decisions)", timeout=20_000)
    seed.type("3")
    assert seed.input_value() == "123"
    assert teacher.evaluate("() => document.activeElement.name") == "seed"
    assert teacher.locator('form.hk-new select[name="opt-mode"]').input_value() == "citizen"
    # the QR images: the same elements, fetched once each, and shown (a namespaced SVG)
    assert teacher.evaluate("() => [...document.querySelectorAll('img.hk-qr')].every(i => i.__kept)")
    assert len(qr_fetches) == 2, qr_fetches
    widths = teacher.evaluate("() => [...document.querySelectorAll('img.hk-qr')].map(i => i.naturalWidth)")
    assert len(widths) == 2 and min(widths) > 60, widths   # 0 when the browser cannot show the SVG
    # an empty choice never rolls back
    teacher.locator("button.hk-rollback").click()
    expect(teacher.locator(".hk-message")).to_have_text("Choose a decision from the list first.")
    assert "took the game back" not in teacher.locator(".hk-message").inner_text()
    expect(teacher.locator(".hk-help summary")).to_have_text("Help: the teacher page")
    teacher.close()


def test_a_rollback_from_the_list_is_confirmed_announced_to_every_seat_and_brought_back(chromium_browser, class_server,
                                                                                       tmp_path):
    srv, seats, s, bots = two_seats(chromium_browser, class_server, tmp_path, "--bot-delay", "0")
    seq = 0
    for _ in range(4):
        seq = play_one(seats, s, bots, seq)
    status_at_4 = seats[0].page.locator(".hk-status").inner_text()
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    select = teacher.locator("select.hk-to")
    expect(select.locator("option")).to_have_count(2 + 4)   # "choose...", the start, decisions 1-4
    expect(select.locator('option[value="4"]')).to_contain_text("decision 4: P")
    expect(select.locator('option[value="4"]')).to_contain_text("(now)")
    select.select_option("2")
    dialogs = []

    def answer(dialog, accept):
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    teacher.once("dialog", lambda d: answer(d, False))    # the teacher thinks again: nothing happens
    teacher.locator("button.hk-rollback").click()
    expect(teacher.locator(".hk-table-status")).to_contain_text("(4 decisions)")
    assert dialogs == ["Table 1: roll back to decision 2: " + select.locator('option[value="2"]').inner_text()[12:]
                       + "? Every seat is told; you can bring the game forward again."]
    teacher.once("dialog", lambda d: answer(d, True))
    teacher.locator("button.hk-rollback").click()
    text = "The teacher took the game back to decision 2: decisions 3 to 4 are set aside (the teacher can bring them back)."
    expect(teacher.locator(".hk-message")).to_have_text(f"Table 1: {text}")
    for seat in seats:   # the same words, the same numbering, on every seat
        seat.wait_seq(seq + 1)
        expect(seat.page.locator(".hk-announce")).to_have_text(text)
    expect(teacher.locator(".hk-table-status")).to_contain_text("(2 decisions)")
    expect(select.locator('option[value="4"]')).to_contain_text("(set aside)")
    # the rollback itself undone: forward to decision 4 again
    select.select_option("4")
    teacher.once("dialog", lambda d: answer(d, True))
    teacher.locator("button.hk-rollback").click()
    forward = "The teacher brought the game forward again to decision 4 (decisions 3 to 4 are back)."
    for seat in seats:
        seat.wait_seq(seq + 3)   # a rollback row and two decisions again: the record only grows
        expect(seat.page.locator(".hk-announce")).to_have_text(forward)
    assert seats[0].page.locator(".hk-status").inner_text() == status_at_4
    # the next decision ends the announcement
    play_one(seats, s, bots, seq + 3)
    for seat in seats:
        expect(seat.page.locator(".hk-announce")).to_have_count(0)
        assert seat.errors == []
        seat.close()
    teacher.close()


def test_one_decision_per_click_turn_signal_message_line_and_taking_back(chromium_browser, class_server, tmp_path):
    srv, seats, s, bots = two_seats(chromium_browser, class_server, tmp_path, "--bot-delay", "0")
    seq = 0
    mover = s.current_player()
    other = 1 - mover
    assert seats[mover].page.title().startswith("Your turn · Haunted Lands · Table 1")
    expect(seats[mover].page.locator(".hk-turn")).to_be_visible()
    assert not seats[other].page.title().startswith("Your turn")
    expect(seats[other].page.locator(".hk-turn")).to_have_count(0)
    seats[other].page.locator(".hk-board svg").click(position={"x": 200, "y": 200})   # not this seat's turn: why
    expect(seats[other].page.locator(".hk-message")).to_contain_text("It is not your decision now.")
    # a refusal on the message line, gone with the next position
    seats[mover].page.locator(".hk-board svg").click(position={"x": 2, "y": 2})
    expect(seats[mover].page.locator(".hk-message")).to_have_text("Nothing you can do there now: click a highlighted cell.")
    # a double-click and a slow double-click on a cell: one decision each
    for slow in (False, True):
        mover = s.current_player()
        page = seats[mover].page
        count_acts(seats[mover])
        action = bots[mover].act(s.copy())
        assert action_cell(s, action) is not None   # the spread: ghosts go on cells
        x, y = cell_point(page, s, action)
        if slow:
            page.mouse.click(x, y)
            page.wait_for_timeout(300)
            page.mouse.click(x, y)
        else:
            page.mouse.dblclick(x, y)
        s.apply_action(action)
        seq += 1
        for seat in seats:
            seat.wait_seq(seq)
        assert sent_acts(seats[mover]) == 1, slow
        # the second click of a slow double-click is not taken, and the page says so (a student who meant a
        # second decision on the same spot clicks again); a double-click is one decision, nothing to say
        expect(page.locator(".hk-message")).to_have_text(
            "That click came right after your last decision, so it was not taken: click again to do it." if slow else "")
    # taking back one's own decision when the policy allows it
    for _ in range(60):
        mover = s.current_player()
        seq = play_one(seats, s, bots, seq)
        undo = seats[mover].page.locator(".hk-undo")
        if undo.count():
            break
    else:
        pytest.fail("no decision could be taken back in 60")
    undo.click()
    n = seq   # no rollback so far: decision numbers are record rows
    for seat in seats:   # the same words on both pages
        seat.wait_seq(seq + 1)
        expect(seat.page.locator(".hk-announce")).to_have_text(
            f"P{mover + 1} took back decision {n}; the game is back at decision {n - 1}.")
    assert seats[mover].page.title().startswith("Your turn")
    for seat in seats:
        assert seat.errors == []
        seat.close()


def test_a_seat_handed_to_a_bot_shows_no_choices_and_given_back_in_time_keeps_its_move(chromium_browser, class_server,
                                                                                       tmp_path):
    # the bot waits a minute (the longest --bot-delay), far longer than these steps take;
    # that the bot then never moves is the server's cancelling its pending decision, which its log says
    srv, seats, s, _bots = two_seats(chromium_browser, class_server, tmp_path, "--bot-delay", "60")
    mover = s.current_player()
    page = seats[mover].page
    expect(page.locator(".hk-actions")).to_be_visible()
    assert teacher_post(srv, {"op": "seat", "table": 1, "seat": mover, "agent": "greedy"})["ok"]
    expect(page.locator(".hk-bot")).to_have_text("A bot plays this seat now; ask the teacher to give it back to you.")
    expect(page.locator(".hk-actions")).to_have_count(0)
    expect(page.locator(".hk-turn")).to_have_count(0)
    assert not page.title().startswith("Your turn")
    page.locator(".hk-board svg").click(position={"x": 200, "y": 200})   # a click on the board: no move, the reason
    expect(page.locator(".hk-message")).to_have_text("A bot plays this seat now; ask the teacher to give it back.")
    assert page.evaluate("() => view.seq") == 0
    # a click sent anyway (an old page) is refused by the server
    page.evaluate("() => sock.send(JSON.stringify({type: 'act', seq: view.seq, i: 0}))")
    expect(page.locator(".hk-message")).to_have_text("A bot plays this seat now; ask the teacher to give it back.")
    assert teacher_post(srv, {"op": "seat", "table": 1, "seat": mover, "agent": None})["ok"]   # within the bot's wait
    expect(page.locator(".hk-actions")).to_be_visible()
    wait_for_log(srv, f"the bots' pending decision was cancelled: P{mover + 1} is human again")
    assert page.evaluate("() => view.seq") == 0   # the bot never moves: its decision is cancelled, not outwaited
    assert page.title().startswith("Your turn")
    for seat in seats:
        seat.close()


def test_a_page_that_cannot_reconnect_says_so_and_how_to_recover(chromium_browser, class_server, tmp_path):
    srv, seats, _s, _bots = two_seats(chromium_browser, class_server, tmp_path)
    page = seats[0].page
    page.evaluate("() => { PARAMS.retries = 2; PARAMS.retry_ms = 200; }")   # the limits, short for the test
    class_server.kill(srv)
    expect(page.locator(".hk-conn.hk-gave-up")).to_have_text(
        "Could not reconnect to the class server. Check with the teacher that it is running, then reload this page "
        "(the same link still works).", timeout=15_000)
    for seat in seats:
        seat.close()


@pytest.mark.parametrize("width, height", [(1024, 768), (390, 844)])
def test_ones_own_board_is_in_view_on_a_laptop_and_a_phone(chromium_browser, class_server, tmp_path, width, height):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "4", "--seed", "11")
    context = chromium_browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(srv.seats[(1, 3)])
    expect(page.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    own = page.locator(".hk-own")
    expect(own).to_contain_text("P3")
    box = own.bounding_box()
    assert box["y"] < height, box   # starts on the first screen
    field = page.locator(".hk-board svg").bounding_box()
    assert field["y"] < height, field   # the field starts on the first screen too (the log comes after it)
    assert page.locator(".hk-players > div").count() == 3   # the others below
    context.close()


def test_the_projector_draws_the_board_as_tall_as_a_1920x1080_screen(chromium_browser, class_server, tmp_path):
    """The projector's board fills the screen's height on the left (the scores and the log on
    the right), its key below it, all on one screen without scrolling."""
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "2")
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(srv.projector[1])
    expect(page.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    box = page.locator(".hk-board svg").bounding_box()
    assert box["height"] >= 800 and box["y"] + box["height"] <= 1080, box
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    context.close()
