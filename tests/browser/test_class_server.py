"""The classroom server (``haunted-kit server``) in Chromium: four students' browsers
play one table to the end, each seeing only its own quests; a killed server resumes
every table; two screens acting at once; codes, tokens and Host headers; page loads
cost no kernel. The game is mirrored in Python (same seed: the same decisions give the
same position) to know what each page should offer and show."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from browser_harness import assert_fits, descendants, explained, free_port, save_screenshot
from playwright.sync_api import expect

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.draw import board_geometry

pytestmark = pytest.mark.browser

SIZE = 30.0  # the server's default hex size
VIEW_KEYS = {"type", "table", "seq", "you", "acting", "hot_seat", "needs_reveal", "revealed", "title", "status", "phase",
             "board", "log", "game_board", "players", "ranking", "actions"}
PAGE_KEYS = {"turn", "help", "undo", "undo_seat", "announce", "bot"}   # the page's signals: your turn, help, take back (whose), announcements
PAGE_KEYS |= {"names", "name_wanted", "waiting", "results"}   # the lesson: seat labels, whom the table waits for, results
PAGE_KEYS |= {"key"}   # the board's key: only codes the page's own board draws (explain.keyed_board)
PAGE_KEYS |= {"secrets"}   # whether the game hides anything at all (the hot seat's reveal button), the same for every page
PAGE_KEYS |= {"rulings"}   # the words of a kit ruling the status or phase line cites (server.explain_rulings)


class Seat:
    """One student's browser on one seat: its page and every websocket frame it got."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(viewport={"width": 1024, "height": 800})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []   # script errors in the page
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(str(data))))
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.goto(url)

    def wait_seq(self, seq: int, timeout_ms: int = 30_000) -> None:
        try:
            expect(self.page.locator(f'#app[data-seq="{seq}"]')).to_have_count(1, timeout=timeout_ms)
        except AssertionError as exc:
            shown = self.page.evaluate("() => [document.getElementById('app').dataset.seq, "
                                       "(document.querySelector('.hk-message') || {}).textContent]")
            raise AssertionError(f"{self.page.url}: waited for decision {seq}; the page shows decision {shown[0]}, "
                                 f"message {shown[1]!r}") from exc

    def perform(self, state, action, index: int) -> None:
        """Do ``action`` (index ``index`` among the legal actions) the way a student would:
        its button, or a click on its cell (then the button of the choice, if several)."""
        from haunted_kit.haunted.widgets.play import action_cell

        button = self.page.locator(f'.hk-action[data-i="{index}"]')
        if button.count():
            button.first.scroll_into_view_if_needed()
            box = button.first.bounding_box()
            self.click_at(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            return
        cell = action_cell(state, action)
        assert cell is not None, f"no button and no cell for {action!r}"
        svg = self.page.locator(".hk-board svg")
        box = svg.bounding_box()
        vb_w = float(svg.get_attribute("viewBox").split()[2])
        x, y = board_geometry(state.config.box, SIZE).centre(cell)
        scale = box["width"] / vb_w
        self.click_at(box["x"] + x * scale, box["y"] + y * scale)
        if sum(1 for a in state.legal_actions() if action_cell(state, a) == cell) > 1:
            button.first.click()   # several things can be done on that cell: the page offers them

    def click_at(self, x: float, y: float) -> None:
        """A click there, as a student who looked at the new position first: the page takes
        a click on the spot of its last decision within ``PARAMS.settle_ms`` for the rest
        of a slow double-click."""
        self.page.wait_for_function("([x, y]) => !echo({clientX: x, clientY: y})", arg=[x, y])
        self.page.mouse.click(x, y)

    def close(self) -> None:
        self.context.close()


def play_one(seats, s, bots, seq):
    """The mover's page makes the greedy decision; every page then shows the new position."""
    p = s.current_player()
    action = bots[p].act(s.copy())
    seats[p].perform(s, action, s.legal_actions().index(action))
    s.apply_action(action)
    for seat in seats:
        seat.wait_seq(seq + 1)
    return seq + 1


def own_quests_line(s, p) -> str:
    """How player ``p``'s board lists its own quests (each player has a deck of the same
    quest cards, so a card's text alone is no secret: which cards a player took is)."""
    return "quests: " + "; ".join(f"{q}: {s.config.box.quests[q].text}" for q in s.quests[p])


def assert_private(boards: list[str], log: str, p: int, s=None) -> None:
    """Seat ``p`` sees its own quests and every other seat's only face down."""
    for q, board in enumerate(boards):
        if q == p:
            if s is not None and s.quests[p]:
                assert own_quests_line(s, p) in board, (p, board)
        else:
            assert "quests: " not in board and "face down" in board, (p, q, board)
            assert f"P{q + 1} takes quest card" not in log, (p, q)


def test_four_browsers_play_a_whole_game_each_seeing_only_its_own_quests(chromium_browser, class_server, tmp_path):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "4",
                       "--seed", "11", "--bot-delay", "0")
    seats = [Seat(chromium_browser, srv.seats[(1, p + 1)]) for p in range(4)]
    s = hk.new_game(players=4, seed=11)
    bots = [GreedyAgent(50 + p) for p in range(4)]
    seq = 0
    checked_mid_game = False
    with explained("four seats playing table 1", srv, seats[0].page):
        for seat in seats:
            seat.wait_seq(0, timeout_ms=30_000)
        for p, seat in enumerate(seats):   # the tab title says whose turn it is
            turn = "Your turn · " if p == s.current_player() else ""
            assert seat.page.title() == f"{turn}Haunted Lands · Table 1 · P{p + 1}"
        for _ in range(2000):  # bounded: a 4-player game has a few hundred decisions
            if s.is_terminal():
                break
            seq = play_one(seats, s, bots, seq)
            if not checked_mid_game and s.phase == "turns" and sum(bool(s.quests[p]) for p in range(4)) >= 2:
                checked_mid_game = True  # seats hold quests (face down): each page shows its own, never another's
                for p, seat in enumerate(seats):
                    own = seat.page.locator(".hk-own .hk-player-board").inner_text()   # beside the field
                    others = seat.page.locator(".hk-players .hk-player-board").all_inner_texts()
                    boards = [b.replace("\n", " ") for b in others[:p] + [own] + others[p:]]
                    assert_private(boards, seat.page.locator(".hk-event-log").inner_text(), p, s)
                save_screenshot(seats[0].page, "class-server-seat", full_page=True)
    assert s.is_terminal() and checked_mid_game
    final = seq
    for seat in seats:
        expect(seat.page.locator(".hk-ranking")).to_contain_text(f"P{s.winner + 1} wins.")
        expect(seat.page.locator(".hk-message")).to_have_text("")   # no sentence of an earlier turn on the ranking
        expect(seat.page.locator(".hk-turn")).to_have_count(0)
    # every frame a seat got before the end: no other seat's quest (they are revealed only at final scoring)
    for p, seat in enumerate(seats):
        views, cur = [], None   # each view the page drew: a full view, or the last one with a patch merged in
        for m in (json.loads(f) for f in seat.frames if f.startswith("{")):
            if m.get("type") == "view":
                cur = m
            elif m.get("type") == "patch" and cur is not None:
                cur = {**cur, **m["changed"], "seq": m["seq"]}
            else:
                continue
            if cur["seq"] < final:
                views.append(cur)
        assert len(views) >= final // 2
        for v in views:
            assert_private(v["players"], v["log"], p)
            assert set(v) - PAGE_KEYS == VIEW_KEYS, set(v) ^ VIEW_KEYS   # nothing else (no observation of another seat)
        assert seat.errors == []
    for seat in seats:
        seat.close()


def start_two_player_table(class_server, store, port):
    return class_server("--store", str(store), "--port", str(port), "--players", "2", "--seed", "4", "--bot-delay", "0")


def test_a_killed_server_resumes_every_table_and_play_continues(chromium_browser, class_server, tmp_path):
    store, port = tmp_path / "class.db", free_port()
    srv = start_two_player_table(class_server, store, port)
    # a second table from the teacher page, all bots: it plays to the end at once
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    form = teacher.locator("form.hk-new")
    form.locator('input[name="players"]').fill("3")
    form.locator('input[name="seed"]').fill("8")
    form.locator('input[name="bots"]').fill("1,2,3")
    form.locator("button").click()
    expect(teacher.locator(".hk-message")).to_have_text("Table 2 created.")
    expect(teacher.locator("h3.hk-table")).to_have_count(2)
    seats = [Seat(chromium_browser, srv.seats[(1, p + 1)]) for p in range(2)]
    s = hk.new_game(players=2, seed=4)
    bots = [GreedyAgent(7), GreedyAgent(8)]
    seq = 0
    for seat in seats:
        seat.wait_seq(0, timeout_ms=30_000)
    for _ in range(25):
        seq = play_one(seats, s, bots, seq)
    log_before = seats[0].page.locator(".hk-event-log").inner_text()
    table2 = hk.new_game(players=3, seed=8)
    greedy = {p: GreedyAgent(8 * 100 + p + 1) for p in range(3)}   # the server's bots: seed * 100 + seat + 1
    while not table2.is_terminal():
        table2.apply_action(greedy[table2.current_player()].act(table2.copy()))
    rows = teacher.locator("h3.hk-table + div")
    expect(rows.nth(1)).to_contain_text(f"({table2.decisions} decisions)")

    class_server.kill(srv)  # SIGKILL: no clean shutdown
    expect(seats[0].page.locator(".hk-conn")).to_contain_text("reconnecting", timeout=15_000)
    srv2 = start_two_player_table(class_server, store, port)   # same store, same port
    assert [srv2.codes[(1, p)] for p in (1, 2)] == [srv.codes[(1, p)] for p in (1, 2)]
    with explained("pages reconnecting to the restarted server", srv2, seats[0].page):
        for seat in seats:   # the pages reconnect by themselves and show the same position
            seat.wait_seq(seq, timeout_ms=30_000)
            expect(seat.page.locator(".hk-conn")).to_have_text("")
        assert seats[0].page.locator(".hk-event-log").inner_text() == log_before
    teacher.goto(srv2.teacher)
    expect(teacher.locator("h3.hk-table")).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(f"({seq} decisions)")
    expect(rows.nth(1)).to_contain_text(f"({table2.decisions} decisions)")
    seq = play_one(seats, s, bots, seq)   # play continues
    assert seq == 26
    for seat in seats:
        seat.close()
    teacher.close()


def test_two_screens_click_at_once_one_decision_applies_the_other_gets_the_reason(chromium_browser, class_server,
                                                                                    tmp_path):
    srv = start_two_player_table(class_server, tmp_path / "class.db", free_port())
    s = hk.new_game(players=2, seed=4)
    seats = [Seat(chromium_browser, srv.seats[(1, p + 1)]) for p in range(2)]
    bots = [GreedyAgent(1), GreedyAgent(2)]
    seq = 0
    for seat in seats:
        seat.wait_seq(0, timeout_ms=30_000)
    while s.pending or s.phase != "turns":   # the spread
        seq = play_one(seats, s, bots, seq)
    mover = s.current_player()
    hot = Seat(chromium_browser, srv.hotseat[1])   # the same table on a shared screen
    hot.wait_seq(seq, timeout_ms=30_000)
    assert hot.page.title() == f"P{mover + 1}'s turn · Haunted Lands · Table 1 · hot seat"
    end_turn = s.legal_actions().index(hk.EndTurn())
    # the mover's own page and the shared screen press "End turn" at the same moment: both
    # decisions are made on the position both pages show (frozen first, then sent)
    for screen in (seats[mover], hot):
        assert screen.page.evaluate("() => { window.__shown = {seq: view.seq, seat: view.acting}; return view.seq; }") == seq
    for screen in (seats[mover], hot):
        screen.page.evaluate("i => sock.send(JSON.stringify({type: 'act', seq: __shown.seq, i: i, seat: __shown.seat}))",
                             end_turn)
    s.apply_action(hk.EndTurn())
    for screen in (*seats, hot):
        screen.wait_seq(seq + 1)
    # the refusal comes to the later screen after the new position may have: wait for it (bounded)
    for _ in range(300):
        messages = [screen.page.locator(".hk-message").inner_text() for screen in (seats[mover], hot)]
        if any(messages):
            break
        hot.page.wait_for_timeout(100)
    expect_text = f"Not allowed: it is P{s.current_player() + 1}'s decision, not P{mover + 1}'s."
    assert sorted(messages) == sorted(["", expect_text]), messages
    assert s.current_player() != mover
    for screen in (*seats, hot):
        assert screen.errors == []
        screen.close()


def fetch(url: str, host: str | None = None):
    """(status, body) of a GET; never follows a proxy."""
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(req, timeout=20) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_on_the_network_every_page_needs_a_code_or_the_token_and_a_known_host(chromium_browser, class_server, tmp_path):
    port = free_port()
    # 127.0.0.2 is loopback too: "the network" for this test without leaving the machine
    srv = class_server("--store", str(tmp_path / "class.db"), "--ip", "127.0.0.2", "--port", str(port),
                       "--players", "2", "--allow-host", "haunted.school.test")
    base = f"http://127.0.0.2:{port}"
    code = srv.codes[(1, 1)]
    assert srv.url == base and "Open to the network" in srv.log()
    assert fetch(f"{base}/s/{code}")[0] == 200
    assert fetch(f"{base}/s/{code}", host="haunted.school.test")[0] == 200       # a name given with --allow-host
    status, body = fetch(f"{base}/s/{code}", host="evil.example")               # DNS rebinding, a foreign name
    assert status == 403 and "Traceback" not in body
    assert fetch(f"{base}/s/NOSUCH")[0] == 404
    assert fetch(f"{base}/teacher")[0] == 403
    assert fetch(f"{base}/teacher?token=wrong")[0] == 403
    assert fetch(f"{base}/projector/1")[0] == 403
    assert fetch(f"{base}/export/1?token=wrong")[0] == 403
    assert fetch(f"{base}/ws")[0] in (400, 403)                                    # no code, no token
    assert fetch(srv.teacher)[0] == 200 and fetch(srv.projector[1])[0] == 200 and fetch(srv.hotseat[1])[0] == 200
    assert srv.token not in srv.projector[1] + srv.hotseat[1] and srv.projector[1].startswith(f"{base}/projector/1?token=")
    for role in ("projector", "hotseat"):  # the teacher's key opens no shared screen: a plain page names the right link
        status, body = fetch(f"{base}/{role}/1?token={srv.token}")
        assert status == 403 and "carries the teacher&#x27;s key" in body and "from the teacher page" in body
    status, save = fetch(f"{base}/export/1?token={srv.token}")
    assert status == 200 and hk.State.from_json(save).config.players == 2
    # a socket without a code, with a wrong code, with a wrong token: refused
    page = chromium_browser.new_page()
    page.goto(srv.seats[(1, 1)])
    expect(page.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    opened = page.evaluate("""async base => {
        const tryOpen = url => new Promise(ok => { const w = new WebSocket(url); w.onopen = () => ok(true); w.onerror = () => ok(false); });
        return [await tryOpen(base.replace('http', 'ws') + '/ws'), await tryOpen(base.replace('http', 'ws') + '/ws?code=WRONG1'),
                await tryOpen(base.replace('http', 'ws') + '/ws?token=wrong&role=teacher')];
    }""", base)
    assert opened == [False, False, False]
    # twenty page loads: no kernel, no process, one connection left
    for _ in range(20):
        page.reload()
        expect(page.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    assert descendants(srv.process.pid) == []
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    expect(teacher.locator("tr.hk-seat").first.locator("td").nth(3)).to_have_text("1")
    expect(teacher.locator("img.hk-qr")).to_have_count(2)
    # the projector screen: the public side, fitting a 1024 px wide window
    projector = chromium_browser.new_page(viewport={"width": 1024, "height": 768})
    projector.goto(srv.projector[1])
    expect(projector.locator("#app[data-seq]")).to_have_count(1, timeout=30_000)
    assert projector.title() == "Haunted Lands · Table 1 · projector"
    expect(projector.locator(".hk-phase")).to_contain_text("Spread: ghosts arrive")
    assert projector.locator(".hk-action").count() == 0
    assert_fits(projector, 1024, "#app")
    # the teacher page links the table's own screen links, never with the teacher token
    watch, hot = teacher.locator("a.hk-link-watch"), teacher.locator("a.hk-link-hotseat")
    assert (base + watch.get_attribute("href"), base + hot.get_attribute("href")) == (srv.projector[1], srv.hotseat[1])
    assert not [h for h in teacher.eval_on_selector_all("a[href^='/projector'], a[href^='/hotseat']",
                                                        "as => as.map(a => a.href)") if srv.token in h]
    # a new projector link: the open projector says so in words and stops; the old link is refused
    teacher.once("dialog", lambda d: d.accept())
    teacher.locator(".hk-new-link[data-link='watch']").click()
    expect(projector.locator(".hk-withdrawn")).to_have_text(
        "The teacher withdrew this projector (watch-only) link: this page no longer shows the table. "
        "Ask the teacher for the new link.", timeout=30_000)
    expect(projector.locator(".hk-board")).to_have_count(0)
    expect(watch).not_to_have_attribute("href", srv.projector[1][len(base):])
    assert fetch(srv.projector[1])[0] == 403 and fetch(base + watch.get_attribute("href"))[0] == 200
    assert base + hot.get_attribute("href") == srv.hotseat[1]     # the hot-seat link is another link: unchanged
    projector.close()
    assert "Traceback" not in srv.log(200)
    page.close()
    teacher.close()
