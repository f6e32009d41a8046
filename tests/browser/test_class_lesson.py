"""The classroom server's pages through the rest of a lesson, in Chromium: a restart with
the teacher page open (every page reconnects by itself, the teacher's token kept in the
store, and the teacher page still hands a seat to a bot); the hot seat's "Show my
hidden cards" for Haunted Lands quests (shown for the mover who asked only, covered again
at the next mover without asking, a quest chosen from the hot seat after showing); pages
that gave up reconnecting; the help panel of estate and Landmarks seat pages.
The reconnect limits are the page's ``PARAMS`` (``retries``, ``retry_ms``), set small here
so no test waits in real time. The game is mirrored in Python (same seed, same decisions)."""

from __future__ import annotations

import re

import pytest
from browser_harness import explained, free_port
from playwright.sync_api import expect
from test_class_server import Seat, own_quests_line, play_one

import haunted_kit as hk
from haunted_kit.games import game_module, get_game
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.store import GameStore

pytestmark = pytest.mark.browser

QUICK_RECONNECT = "() => { PARAMS.retries = 300; PARAMS.retry_ms = 200; }"   # a try every 0.2 s, for a minute


def test_a_restart_with_the_teacher_page_open_every_page_reconnects_and_the_teacher_still_works(
        chromium_browser, class_server, tmp_path):
    store, port = tmp_path / "class.db", free_port()
    args = ("--store", str(store), "--port", str(port), "--players", "2", "--seed", "4", "--bot-delay", "0")
    srv = class_server(*args)
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    expect(teacher.locator("tr.hk-seat")).to_have_count(2)
    expect(teacher.locator(".hk-help")).to_contain_text(   # what the teacher reads about it beforehand
        "After a restart of the server every page reconnects by itself; the links stay the same.")
    seats = [Seat(chromium_browser, srv.seats[(1, p + 1)]) for p in range(2)]
    s, bots = hk.new_game(players=2, seed=4), [GreedyAgent(7), GreedyAgent(8)]
    for seat in seats:
        seat.wait_seq(0)
    seq = 0
    for _ in range(3):
        seq = play_one(seats, s, bots, seq)
    pages = [teacher, *(seat.page for seat in seats)]
    for page in pages:   # marks a reload would lose
        page.evaluate(QUICK_RECONNECT)
        page.evaluate("() => { window.__same_page = true; }")

    class_server.kill(srv)   # SIGKILL: no clean shutdown
    for page in pages:
        expect(page.locator(".hk-conn")).to_have_text("Connection lost: reconnecting...", timeout=15_000)
    srv2 = class_server(*args)   # the same store and port; the token is the one kept in the store
    assert srv2.token == srv.token and srv2.teacher == srv.teacher
    with explained("pages reconnecting to the restarted server", srv2, teacher):
        for page in pages:
            expect(page.locator(".hk-conn")).to_have_text("", timeout=30_000)
            assert page.evaluate("() => window.__same_page === true"), page.url   # reconnected, not reloaded
        for seat in seats:
            seat.wait_seq(seq)
        rows = teacher.locator("tr.hk-seat")
        for p in range(2):   # the server counts the reconnected seat pages
            expect(rows.nth(p).locator(".hk-connected")).to_have_text("1")
    # play continues, and the teacher page follows it
    seq = play_one(seats, s, bots, seq)
    expect(teacher.locator(".hk-table-status")).to_contain_text(f"({seq} decisions)")
    # the teacher page still works: the mover's seat handed to a bot, which plays it
    mover = s.current_player()
    rows.nth(mover).locator("button.hk-hand").click()
    expect(teacher.locator(".hk-message")).not_to_have_text("")
    expect(rows.nth(mover).locator(".hk-agent")).to_have_text("greedy bot")
    expect(rows.nth(mover).locator("button.hk-hand")).to_have_text("give to a human")
    page = seats[mover].page
    expect(page.locator(".hk-bot")).to_have_text("A bot plays this seat now; ask the teacher to give it back to you.")
    expect(page.locator(".hk-actions")).to_have_count(0)
    expect(page.locator(f'#app[data-seq="{seq}"]')).to_have_count(0, timeout=30_000)   # the bot moved
    expect(teacher.locator(".hk-table-status")).not_to_contain_text(f"({seq} decisions)")
    for seat in seats:
        assert seat.errors == []
        seat.close()
    teacher.close()


def stored_table(path, decisions: int):
    """A store whose table 1 (2 players, seed 4) holds the first ``decisions`` greedy
    decisions (the server resumes it as it would after a restart); returns the mirror."""
    s, bots = hk.new_game(players=2, seed=4), [GreedyAgent(7), GreedyAgent(8)]
    with GameStore(path) as store:
        table = store.create_table(players=2, seed=4)
        for _ in range(decisions):
            action = bots[s.current_player()].act(s.copy())
            table.decide(s.current_player(), action)
            s.apply_action(action)
    return s, bots


def shown_boards(screen) -> str:
    return screen.page.locator("#app").inner_text()


def test_the_hot_seats_quests_show_for_the_mover_who_asked_and_cover_again_at_the_next(chromium_browser, class_server,
                                                                                       tmp_path):
    store = tmp_path / "class.db"
    s, bots = stored_table(store, 51)   # decision 52 is P1's quest choice at the end of season 1
    assert s.pending and isinstance(s.legal_actions()[0], hk.ChooseQuest) and s.current_player() == 0
    with GameStore(store) as kept:
        kept.set_name(1, 0, "Ada")   # P1 has a name; P2 has none yet
    srv = class_server("--store", str(store), "--port", str(free_port()), "--bot-delay", "0")
    hot, other = (Seat(chromium_browser, srv.hotseat[1]) for _ in range(2))
    seq = 51
    for screen in (hot, other):
        screen.wait_seq(seq)
        # the choice names P1's cards: the screen asks P1 to show them first
        expect(screen.page.locator(".hk-actions")).to_have_text("Show your hidden cards to choose.")
        expect(screen.page.locator(".hk-action")).to_have_count(0)
        expect(screen.page.locator("button.hk-reveal")).to_have_text("Show my hidden cards (the player to move only)")
    expect(hot.page.locator(".hk-help")).to_contain_text("Show my hidden cards shows that player's hidden cards")
    hot.page.locator("button.hk-reveal").click()
    # a shared screen calls the mover by the lesson's name for the seat, in its banner and its tab
    expect(hot.page.locator(".hk-turn")).to_have_text(re.compile(r"^P1 Ada: your turn\. "))
    assert hot.page.title() == "P1 Ada's turn · Haunted Lands · Table 1 · hot seat"
    choices = hot.page.locator(".hk-action")
    quests = [a.quest for a in s.legal_actions()]
    expect(choices).to_have_count(len(quests))
    for q, button in zip(quests, choices.all()):   # each quest with its text
        expect(button).to_have_text(f"choose quest {q}: {s.config.box.quests[q].text}")
    expect(hot.page.locator("button.hk-cover")).to_have_text("Cover my hidden cards")
    expect(other.page.locator(".hk-action")).to_have_count(0)   # the other screen stays covered
    # the quest chosen from the hot seat
    action = bots[0].act(s.copy())
    hot.perform(s, action, s.legal_actions().index(action))
    s.apply_action(action)
    seq += 1
    for screen in (hot, other):
        screen.wait_seq(seq)
    assert s.quests[0] == (action.quest,)
    assert own_quests_line(s, 0) in shown_boards(hot)   # still P1 to move (the spread): still shown
    assert "quests: " not in shown_boards(other) and "face down" in shown_boards(other)
    while s.current_player() == 0:   # P1 places the season's ghosts from the hot seat
        seq = play_one([hot, other], s, bots, seq)
    # P2 to move: covered again without anyone asking
    assert seq == 56 and s.current_player() == 1
    expect(hot.page.locator("button.hk-reveal")).to_be_visible()
    expect(hot.page.locator("button.hk-cover")).to_have_count(0)
    for screen in (hot, other):
        text = shown_boards(screen)
        assert "quests: " not in text and own_quests_line(s, 0) not in text, text
        assert screen.page.title() == "P2's turn · Haunted Lands · Table 1 · hot seat"
    # P2 asks: P2's board shows its own (none yet), P1's stay face down
    hot.page.locator("button.hk-reveal").click()
    expect(hot.page.locator("button.hk-cover")).to_be_visible()
    assert own_quests_line(s, 0) not in shown_boards(hot)
    for screen in (hot, other):
        assert screen.errors == []
        screen.close()


def test_pages_that_gave_up_reconnecting_say_so_and_the_same_links_work_after_a_restart(chromium_browser, class_server,
                                                                                      tmp_path):
    args = ("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "2", "--seed", "4")
    srv = class_server(*args)
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    expect(teacher.locator("tr.hk-seat")).to_have_count(2)
    seat = Seat(chromium_browser, srv.seats[(1, 1)])
    seat.wait_seq(0)
    for page in (teacher, seat.page):
        page.evaluate("() => { PARAMS.retries = 2; PARAMS.retry_ms = 200; }")
    class_server.kill(srv)
    for page in (teacher, seat.page):   # the teacher page too, in the same words
        expect(page.locator(".hk-conn.hk-gave-up")).to_have_text(
            "Could not reconnect to the class server. Check with the teacher that it is running, then reload this "
            "page (the same link still works).", timeout=15_000)
    class_server(*args)
    for page in (teacher, seat.page):   # as the sentence says: a reload of the same link
        page.reload()
        expect(page.locator(".hk-conn")).to_have_text("", timeout=30_000)
    seat.wait_seq(0)
    expect(teacher.locator("tr.hk-seat .hk-connected").first).to_have_text("1")
    assert seat.errors == []
    seat.close()
    teacher.close()


def test_estate_and_landmarks_seat_pages_explain_the_phase_in_their_help_panel(chromium_browser, class_server, tmp_path):
    store = tmp_path / "class.db"
    with GameStore(store) as games:
        for name in ("estate", "landmarks"):
            games.create_table(game=name, players=3, seed=2)
    srv = class_server("--store", str(store), "--port", str(free_port()))
    for table, name in ((1, "estate"), (2, "landmarks")):
        s = get_game(name).new_game(players=3, seed=2)
        mover = s.current_player()
        seat = Seat(chromium_browser, srv.seats[(table, mover + 1)])
        seat.wait_seq(0)
        help_panel = seat.page.locator(".hk-help")
        summary = help_panel.locator(":scope > summary")  # its own; a cited ruling's words open under a summary inside
        expect(summary).to_have_text("Help: this phase and this page")
        summary.click()
        expect(help_panel).to_contain_text("Now: " + game_module(name, "classroom").phase_sentence(s))
        expect(help_panel).to_contain_text("It is your decision: ")
        expect(help_panel).to_contain_text("Take back undoes your last decision")   # the seat page's own help
        assert seat.errors == []
        seat.close()
