"""What a classroom page says as the lesson moves on, in Chromium, for every registered game
(the kit names none): the results of a finished table fit a 390x844 phone (each row's cells
stacked under their column names, no sideways swiping) and the "your turn" banner stays in
view when the student scrolls; the "What is this?" line names cells as the boards do and is
gone at the next position; a lost connection takes the banner's "Your turn" away and answers
a click instead of dropping it; the teacher's idle column reads "finished" for a finished
table (also after a restart), and a reply belongs to what it is about: gone when its table
moves on or the new-table form changes. Every store is made in Python before the server
starts (a finished table played out, a fresh one); every wait ends on what the page shows."""

from __future__ import annotations

import random
import re

import pytest
from browser_harness import explained, free_port, save_screenshot
from playwright.sync_api import expect

from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.store import GameStore

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PAIR = re.compile(r"\(-?\d+, ?-?\d+\)")
NOT_SENT = "Not sent: reconnecting \u2014 try again when the page is back."
WHAT_START = "Tap a code or a cell on the board to read what it is; the key below lists every code."


def class_store(path, game: str, decided: int = 0) -> dict:
    """A store with table 1 played out (random legal decisions, seeded; P1 named with
    accents and at length) and table 2 fresh, every seat human, after ``decided`` of its
    decisions. Returns who moves on table 2 now and after its first decision (0-based)."""
    g = get_game(game)
    store = GameStore(path)
    rng = random.Random(7)
    done = store.create_table(game=game, players=default_players(g), seed=2,
                              names={0: "Chloé-Éléonore Dubois-Fontainebleau"})
    while not done.state.is_terminal():
        done.decide(done.state.current_player(), rng.choice(done.state.legal_actions()))
    fresh = store.create_table(game=game, players=default_players(g), seed=3)
    movers = [fresh.state.current_player()]
    for _ in range(decided):
        fresh.decide(fresh.state.current_player(), fresh.state.legal_actions()[0])
        movers.append(fresh.state.current_player())
    store.close()
    return {"now": movers[-1], "after_first": movers[1] if len(movers) > 1 else None}


def open_seat(browser, url: str, viewport: dict, srv):
    ctx = browser.new_context(viewport=viewport)
    pg = ctx.new_page()
    with explained(f"opening {url} at {viewport}", srv, pg):
        pg.goto(url)
        expect(pg.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    return ctx, pg


@pytest.mark.parametrize("game", game_names())
def test_a_phone_fits_the_results_and_keeps_the_turn_banner_in_view(game, chromium_browser, class_server, tmp_path):
    movers = class_store(tmp_path / "class.db", game)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--bot-delay", "0")

    ctx, pg = open_seat(chromium_browser, srv.seats[(1, 1)], PHONE, srv)
    try:
        results = pg.locator("table.hk-results")
        expect(results).to_be_visible()
        expect(results).to_contain_text("Chloé-Éléonore Dubois-Fontainebleau")
        save_screenshot(pg, f"results-{game}-phone", full_page=True)
        got = pg.evaluate("""() => { const box = document.querySelector('.hk-results-scroll');
            const r = document.querySelector('table.hk-results').getBoundingClientRect();
            return {page: document.documentElement.scrollWidth, box: [box.scrollWidth, box.clientWidth],
                    right: r.right, labels: [...document.querySelectorAll('table.hk-results tbody tr:first-child td')]
                      .map(td => getComputedStyle(td, '::before').content)}; }""")
        assert got["page"] <= PHONE["width"], f"{game}: the results page is {got['page']} px wide on a 390 px phone"
        assert got["box"][0] <= got["box"][1], f"{game}: the results box scrolls sideways: {got['box']}"
        assert got["right"] <= PHONE["width"], f"{game}: the results table ends at {got['right']} px"
        head = pg.locator("table.hk-results thead th").all_inner_texts()
        assert got["labels"] == [f'"{h}: "' for h in head]   # each stacked cell says its column
    finally:
        ctx.close()

    ctx, pg = open_seat(chromium_browser, srv.seats[(2, movers["now"] + 1)], PHONE, srv)
    try:
        banner = pg.locator(".hk-turn")
        expect(banner).to_be_visible()
        pg.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        pg.wait_for_function("() => window.scrollY > 0")   # the page is longer than the phone: it scrolled
        where = banner.evaluate("b => { const r = b.getBoundingClientRect(); return [r.top, r.bottom]; }")
        save_screenshot(pg, f"turn-banner-{game}-phone-scrolled", full_page=False)
        assert 0 <= where[0] and where[1] <= PHONE["height"], f"{game}: the turn banner left the screen: {where}"
    finally:
        ctx.close()


@pytest.mark.parametrize("game", game_names())
def test_what_is_this_names_cells_as_the_board_and_goes_with_the_position(game, chromium_browser, class_server,
                                                                          tmp_path):
    movers = class_store(tmp_path / "class.db", game)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--bot-delay", "0")
    watcher = (movers["now"] + 1) % default_players(get_game(game))
    ctx, pg = open_seat(chromium_browser, srv.seats[(2, watcher + 1)], LAPTOP, srv)
    ctx2, mover = open_seat(chromium_browser, srv.seats[(2, movers["now"] + 1)], LAPTOP, srv)
    try:
        # a titled mark of the board, one naming a cell where the board has any ("slot 0,-2", "city cell 0,0 ...")
        said = pg.evaluate(r"""() => {
            const marks = [...document.querySelectorAll('.hk-board svg :is(text, polygon, circle, rect, path) > title')];
            const t = marks.find(x => /-?\d+,-?\d+/.test(x.textContent)) || marks[0];
            t.parentElement.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: 0, clientY: 0}));
            return t.textContent; }""")
        expect(pg.locator(".hk-what")).to_have_text(f"What is this? {said}")
        assert not PAIR.search(said), f"{game}: the board's title writes a cell as a pair: {said!r}"
        mover.locator(".hk-action, .hk-pick-go").first.click()   # the table moves on
        expect(pg.locator('#app[data-seq="1"]')).to_have_count(1, timeout=30_000)
        expect(pg.locator(".hk-what")).to_have_text(WHAT_START)
    finally:
        ctx.close()
        ctx2.close()


def test_an_outage_takes_the_turn_banner_away_and_answers_a_click(chromium_browser, class_server, tmp_path):
    game = game_names()[0]
    movers = class_store(tmp_path / "class.db", game)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--bot-delay", "0")
    ctx, pg = open_seat(chromium_browser, srv.seats[(2, movers["now"] + 1)], LAPTOP, srv)
    try:
        expect(pg.locator(".hk-turn")).to_have_text(re.compile(r"^Your turn: "))
        pg.evaluate("""() => { window.__acts = 0; const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (m) { if (JSON.parse(m).type === 'act') window.__acts++; return send.call(this, m); };
            PARAMS.retry_ms = 1e9;   /* no reconnecting by itself: the test says when the page is back */
            sock.close(); }""")
        expect(pg.locator(".hk-conn")).to_have_text("Connection lost: reconnecting...")
        expect(pg.locator(".hk-turn")).to_have_text("Connection lost: wait until the page is back to decide.")
        expect(pg.locator(".hk-turn")).to_have_class(re.compile(r"\bhk-turn-paused\b"))
        assert not pg.title().startswith("Your turn")
        pg.locator(".hk-action, .hk-pick-go").first.click()
        expect(pg.locator(".hk-message")).to_have_text(NOT_SENT)
        assert pg.evaluate("() => window.__acts") == 0   # nothing was sent into the closed socket
        pg.evaluate("() => connect()")   # the connection is back
        expect(pg.locator(".hk-conn")).to_have_text("")
        expect(pg.locator(".hk-turn")).to_have_text(re.compile(r"^Your turn: "))
        expect(pg).to_have_title(re.compile(r"^Your turn"))
        pg.locator(".hk-action, .hk-pick-go").first.click()   # tried again: sent and taken
        expect(pg.locator('#app[data-seq="1"]')).to_have_count(1, timeout=30_000)
        assert pg.evaluate("() => window.__acts") == 1
    finally:
        ctx.close()


def test_the_teacher_page_says_finished_and_drops_replies_about_the_past(chromium_browser, class_server, tmp_path):
    games = game_names()
    game = games[0]
    movers = class_store(tmp_path / "class.db", game, decided=2)
    port = str(free_port())
    args = ("--store", str(tmp_path / "class.db"), "--port", port, "--bot-delay", "0")
    srv = class_server(*args)
    ctx = chromium_browser.new_context(viewport=LAPTOP)
    teacher = ctx.new_page()
    teacher.on("dialog", lambda d: d.accept())
    try:
        teacher.goto(srv.teacher)
        done, fresh = teacher.locator('.hk-table-box[data-id="1"]'), teacher.locator('.hk-table-box[data-id="2"]')
        n = default_players(get_game(game))
        expect(done.locator(".hk-idle")).to_have_text(["finished"] * n)
        teacher.evaluate("() => tickWaiting()")   # the page's clock ticks: a finished seat is never counted
        expect(done.locator(".hk-idle")).to_have_text(["finished"] * n)
        expect(fresh.locator(".hk-idle").first).to_have_text(re.compile(r"^\d+ s$|^\d+ min \d\d s$"))

        # a rollback's reply stays while the table is where it put it, and goes when the table moves on
        fresh.locator(".hk-to").select_option("1")
        fresh.locator(".hk-rollback").click()
        reply = fresh.locator(".hk-table-row .hk-reply")
        expect(reply).to_contain_text("Table 2: The teacher took the game back to decision 1")
        expect(teacher.locator("#app > .hk-message")).to_contain_text("Table 2: The teacher took the game back")
        seat_ctx, seat = open_seat(chromium_browser, srv.seats[(2, movers["after_first"] + 1)], LAPTOP, srv)
        seat.locator(".hk-action, .hk-pick-go").first.click()
        expect(reply).to_have_text("")
        expect(teacher.locator("#app > .hk-message")).to_have_text("")
        seat_ctx.close()

        # the form's reply is about the form as it was: another game picked, it goes
        form = teacher.locator("form.hk-new")
        form.locator("button", has_text="create").click()
        expect(form.locator(".hk-reply")).to_have_text("Table 3 created.")
        form.locator(".hk-game").select_option(games[1])
        expect(form.locator(".hk-reply")).to_have_text("")
        expect(teacher.locator("#app > .hk-message")).to_have_text("")

        class_server.kill(srv)   # a restart on the same store and port: the page reconnects by itself
        expect(teacher.locator(".hk-conn")).to_have_text("Connection lost: reconnecting...")
        srv = class_server(*args)
        expect(teacher.locator(".hk-conn")).to_have_text("", timeout=30_000)
        expect(done.locator(".hk-idle")).to_have_text(["finished"] * n)
        teacher.evaluate("() => tickWaiting()")
        expect(done.locator(".hk-idle")).to_have_text(["finished"] * n)
        save_screenshot(teacher, "teacher-finished-idle", full_page=True)
    finally:
        ctx.close()
