"""The classroom server's logic without a browser: what each viewer is sent, decisions
from pages, the shared (hot-seat) screen, teacher actions, Host names, CLI misuse.
(The served pages are tested in Chromium in tests/browser/test_class_server.py.)"""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time

import pytest
import tornado.httpclient
import tornado.httpserver
import tornado.websocket
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tornado.netutil import bind_sockets

import haunted_kit as hk
from haunted_kit.bots import default_agent
from haunted_kit import server
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.cli import main
from haunted_kit.games import game_names, get_game
from haunted_kit.haunted.classroom import action_label
from haunted_kit.haunted.draw import html as H
from haunted_kit.server import Classroom, Connection, bot_decision, host_name, make_app, open_classroom, view_message
from haunted_kit.store import GameStore, StoreError
from fresh_loop import run_in_fresh_loop  # noqa: E402  (a browser test may leave a loop running)
from processes import cmdline, descendants, outlived_kill


class FakeSocket:
    def __init__(self):
        self.sent = []

    def write_message(self, text):
        self.sent.append(json.loads(text))


def table_with_quests():
    """A 4-player table (all human) played by greedy decisions until two seats hold quests."""
    store = GameStore(":memory:")
    t = store.create_table(players=4, seed=11)
    bots = [GreedyAgent(50 + p) for p in range(4)]
    while not (t.state.phase == "turns" and sum(bool(t.state.quests[p]) for p in range(4)) >= 2):
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    return store, t


def test_each_viewer_gets_its_own_quests_and_the_others_face_down():
    _store, t = table_with_quests()
    s = t.state
    holders = [p for p in range(4) if s.quests[p]]
    for p in range(4):
        v = view_message(t, p, 30)
        assert v["you"] == p and v["title"] == f"Haunted Lands · Table 1 · P{p + 1}"
        for q in range(4):
            if q == p and s.quests[p]:
                assert "quests: " in v["players"][q]
            elif q != p:
                assert "quests: " not in v["players"][q] and "face down" in v["players"][q]
                assert f"P{q + 1} takes quest card" not in v["log"]
        # only the seat to move gets actions, and they are its legal actions
        if s.current_player() == p:
            assert [a["label"] for a in v["actions"]] == [action_label(s, a) for a in s.legal_actions()]
        else:
            assert v["actions"] == []
    public = view_message(t, H.PUBLIC, 30)
    assert public["you"] is None and all("quests: " not in b for b in public["players"])
    assert holders  # the check above had quests to hide


def test_the_shared_screen_covers_quests_until_the_player_to_move_reveals_them():
    _store, t = table_with_quests()
    mover = t.state.current_player()
    covered = view_message(t, H.PUBLIC, 30, hot_seat=True)
    assert covered["acting"] == mover and covered["title"] == "Haunted Lands · Table 1 · hot seat"
    assert all("quests: " not in b for b in covered["players"])
    shown = view_message(t, H.PUBLIC, 30, hot_seat=True, revealed=True)
    assert "face down" in covered["players"][mover]
    assert shown["revealed"] and "quests: " in shown["players"][mover]   # the mover's own list (maybe "none")
    assert all("quests: " not in b for q, b in enumerate(shown["players"]) if q != mover)


def run(fn):
    """``fn()`` inside a fresh event loop (the server schedules its bots on the running
    loop), in its own thread: the test session may already run a loop (Playwright)."""
    async def go():
        return fn()

    return run_in_fresh_loop(go)


def test_decisions_from_pages_are_applied_once_or_refused_with_the_reason():
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    t = store.create_table(players=2, seed=4)
    mover = t.state.current_player()
    other = 1 - mover
    pages = {p: Connection(FakeSocket(), t.id, p, "seat") for p in range(2)}
    c.connections.update(pages.values())

    def act(p, **msg):
        run(lambda: c.act(pages[p], {"type": "act", **msg}))
        return pages[p].socket.sent[-1]

    assert act(other, seq=0, i=0) == {"type": "refused", "text": f"Not allowed: it is P{mover + 1}'s decision, not "
                                                                  f"P{other + 1}'s."}
    assert act(mover, seq=0, i=999)["text"] == "There is no such choice now; look at the board again."
    assert act(mover, seq=0, i="0")["text"] == "There is no such choice now; look at the board again."
    assert act(mover, i=0)["text"] == "A decision must say which position it was made on (seq)."
    assert t.seq == 0
    first = t.state.legal_actions()[0]
    view = act(mover, seq=0, i=0)
    assert view["type"] == "view" and view["seq"] == 1 and t.applied[-1][2] == first
    assert pages[other].socket.sent[-1]["seq"] == 1   # the other seat got the new position too
    assert act(mover, seq=0, i=0)["text"].startswith("Not allowed: the table moved on since your page showed it")
    assert t.seq == 1
    store.set_agent(t.id, other, "greedy")   # the teacher hands the seat to a bot: its page's clicks are refused
    assert act(other, seq=1, i=0)["text"] == "A bot plays this seat now; ask the teacher to give it back."
    assert t.seq == 1


def test_teacher_actions_and_their_errors():
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)

    def op(**msg):
        return run(lambda: c.teacher_op(msg))

    assert op(op="create", players=3, options={"mode": "citizen"}, seed=2, bots=[2, 3]) == {"ok": "Table 1 created."}
    assert [s.agent for s in store.table(1).seats] == [None, "greedy", "greedy"]
    assert op(op="create", players=7)["error"] == "Players (players) must be a whole number from 2 to 4, got 7."
    assert op(op="create", players=2, box="/no/such/box")["error"].startswith(
        "House-rule box (box): the server has no folder '/no/such/box'")
    assert op(op="seat", table=1, seat=0, agent="random") == {"ok": "P1 of table 1 is now a random bot."}
    assert op(op="seat", table=1, seat=0, agent="genius")["error"].startswith("unknown agent 'genius'")
    assert op(op="rollback", table=1, to=99)["error"].startswith("choose a decision from the list (0 to ")
    assert op(op="dance")["error"] == "unknown teacher action 'dance'"
    assert store.table_ids() == [1]


@pytest.mark.parametrize("header, name", [("127.0.0.1:8870", "127.0.0.1"), ("LocalHost:80", "localhost"),
                                          ("[::1]:8870", "[::1]"), ("class.school.test", "class.school.test"),
                                          ("evil.example:8870", "evil.example")])
def test_host_name_of_a_host_header(header, name):
    assert host_name(header) == name


@pytest.mark.parametrize("argv, needle", [
    (["server", "--players", "3", "--bots", "4"], "bot seats must be between 1 and 3"),
    (["server", "--port", "70000"], "argument --port: the value must be a whole number from 0 to 65,535, got '70000'"),
    (["server", "--size", "5"], "argument --size: the value must be a finite number from 12 to 80, got '5'"),
    (["server", "--bot-delay", "-1"], "argument --bot-delay: the value must be a finite number from 0 to 60, got '-1'"),
    (["server", "--bot-delay", "inf"], "argument --bot-delay: the value must be a finite number from 0 to 60, got 'inf'"),
    (["server", "--mode", "nightmare"], "invalid choice"),
    (["server", "--store", "/no/such/folder/x.db"], "does not exist"),
])
def test_cli_server_misuse_exits_2(capsys, argv, needle):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert needle in capsys.readouterr().err


def test_cli_server_names_a_file_that_is_no_store(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 200)
    assert main(["server", "--store", str(junk), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "junk.db is not a haunted-kit game store" in err and "Traceback" not in err


# ============================================================================ bots off the event loop
def test_a_slow_bot_thinks_in_a_worker_while_another_tables_decision_is_applied_and_broadcast():
    """Table 1's bot searches 300 playouts per decision in a worker process; meanwhile
    a student's decision at table 2 is applied and reaches the other seat (the event loop
    is free); then the bot's decision arrives (bounded poll)."""
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0, bot_workers=1)
    slow = store.create_table(players=2, seed=4)            # P2 is to move first
    store.set_agent(slow.id, 1, "search[playouts=300]")
    fast = store.create_table(players=2, seed=5)
    watcher = Connection(FakeSocket(), slow.id, 0, "seat")
    pages = {p: Connection(FakeSocket(), fast.id, p, "seat") for p in range(2)}
    c.connections.update([watcher, *pages.values()])
    mover = fast.state.current_player()

    async def go():
        try:
            c.schedule_bots(slow.id)
            for _ in range(3):
                await asyncio.sleep(0)                          # the bot's task hands its search to the worker
            c.act(pages[mover], {"type": "act", "seq": 0, "i": 0})
            during = (slow.seq, pages[1 - mover].socket.sent[-1]["seq"])
            for _ in range(1200):                               # bounded: at most 2 minutes
                if slow.seq:
                    break
                await asyncio.sleep(0.1)
            return during
        finally:
            c.close()

    assert run_in_fresh_loop(go) == (0, 1)                      # table 2 moved on while the bot still thought
    assert slow.seq == 1 and slow.applied[0][1] == 1 and watcher.socket.sent[-1]["seq"] == 1


def test_a_bots_decision_is_applied_only_on_the_position_it_was_made_for(tmp_path, caplog):
    """A bot's decision is checked against the table when it arrives: a seat handed back to
    a human meanwhile, a table that moved on, or another server on the same store that
    applied it first: not applied, one line in the log, the record unchanged."""
    db = tmp_path / "s.db"
    one, two = GameStore(db), GameStore(db)
    t = one.create_table(players=2, seed=4, bots={1: "greedy"})
    c1, c2 = Classroom(one, bot_delay=0), Classroom(two, bot_delay=0)
    decision, _bot = bot_decision(t.game, t.config, None, [], c1.bots_of(t)[1])
    assert decision == hk.haunted.actions.action_to_dict(GreedyAgent(401).act(t.state.copy()))  # seat_seed(4, 1)
    caplog.set_level("INFO", logger="haunted_kit.server")
    one.set_agent(t.id, 1, None)                                # the teacher hands the seat back meanwhile
    assert not c1.apply_bot_decision(t.id, 1, "greedy", 0, decision) and t.seq == 0
    one.set_agent(t.id, 1, "greedy")
    two.table(t.id).seats[1].agent = "greedy"
    assert c1.apply_bot_decision(t.id, 1, "greedy", 0, decision) and t.seq == 1
    assert not c1.apply_bot_decision(t.id, 1, "greedy", 0, decision)   # computed for decision 0
    assert not c2.apply_bot_decision(t.id, 1, "greedy", 0, decision)   # the other server: refused by the store
    assert [m for m in caplog.messages] == [
        "table 1: P2's bot decided on decision 0, but the table is at 0 and the seat changed hands; not applied",
        "table 1: P2's bot decided on decision 0, but the table is at 1; not applied",
        "table 1: P2's bot decision was not applied: the table moved on since your page showed it (decision 1 now, "
        "you saw 0); look at the board again (kit: classroom)"]
    assert all(r.exc_info is None for r in caplog.records)
    with GameStore(db) as again:
        assert again.table(t.id).seq == 1
    one.close()
    two.close()


# ============================================================================ teacher input
def simple_classroom():
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=60)   # bots would wait a minute: the loop of each call ends first
    t = store.create_table(players=2, seed=4)
    for _ in range(3):
        t.decide(t.state.current_player(), t.state.legal_actions()[0])
    return store, c


def snapshot(store):
    return [store.db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("game_tables", "seats", "decisions")]


@pytest.mark.parametrize("msg, error", [
    ({"op": "rollback", "table": 1, "to": float("inf")}, "choose a decision from the list (0 to 3) to roll table 1 back to, got inf"),
    ({"op": "rollback", "table": 1, "to": -1}, "choose a decision from the list (0 to 3) to roll table 1 back to, got -1"),
    ({"op": "rollback", "table": 1, "to": "2"}, "choose a decision from the list (0 to 3) to roll table 1 back to, got '2'"),
    ({"op": "rollback", "table": 1, "to": True}, "choose a decision from the list (0 to 3) to roll table 1 back to, got True"),
    ({"op": "rollback", "table": 10 ** 400, "to": 0}, "there is no table 1000000000000000000000000000000000000..."),
    ({"op": "rollback", "table": float("nan"), "to": 0}, "there is no table nan"),
    ({"op": "seat", "table": 1, "seat": 2, "agent": "greedy"}, "seat must be a whole number from 0 to 1, got 2"),
    ({"op": "seat", "table": 1, "seat": 0, "agent": "search[playouts=5000]"},
     "a bot searches at most 2,000 playouts per decision in the classroom (got 5,000); "
     "more would keep its table waiting"),
    ({"op": "seat", "table": 1, "seat": 0, "agent": ["greedy"]},
     "a bot's agent must be an agent spec such as greedy or search[playouts=500], got ['greedy']"),
    ({"op": "create", "players": 1e309}, "Players (players) must be a whole number from 2 to 4, got inf."),
    ({"op": "create", "players": 10 ** 12}, "Players (players) must be a whole number from 2 to 4, got 1000000000000."),
    ({"op": "create", "seed": 2 ** 70}, "Seed (seed) must be a whole number from -9223372036854775808 to "
                                        "9223372036854775807, got 1180591620717411303424."),
    ({"op": "create", "bots": [1, 1]}, "Bot seats (bots) must be different seats from 1 to 2, got [1, 1]."),
    ({"op": "create", "bots": "x"}, "Bot seats (bots) must be at most 20 whole numbers from 1 to 2, separated by "
                                    "commas, got 'x'."),
    ({"op": "create", "game": {"name": "haunted"}},
     f"Game (game) must be one of {', '.join(game_names())}, got \"{{'name': 'haunted'}}\"."),
    ({"op": "create", "options": [1]}, "The settings of Haunted Lands must be named values (field: value), got list."),
    ({"op": "create", "box": "/no/such/box"}, "House-rule box (box): the server has no folder '/no/such/box'; give a "
                                              "copy of data/ or leave it empty."),
    ({"op": ["create"]}, "unknown teacher action ['create']"),
])
def test_a_bad_teacher_request_gets_a_sentence_and_changes_nothing(msg, error, caplog):
    store, c = simple_classroom()
    before = snapshot(store)
    assert run(lambda: c.teacher_op(msg)) == {"error": error}
    assert snapshot(store) == before and not caplog.records


JSONISH = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2, 6), st.floats(), st.text(max_size=12),
                    st.lists(st.integers(-2, 6), max_size=4), st.sampled_from([10 ** 30, 2 ** 63, float("inf"), -0.0]),
                    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({"op": st.sampled_from(["create", "seat", "rollback", "dance", None, 3])}, optional={
    "table": JSONISH, "seat": JSONISH, "to": JSONISH, "players": JSONISH, "seed": JSONISH, "bots": JSONISH,
    "agent": st.one_of(JSONISH, st.sampled_from(["greedy", "random", "genius", "search[playouts=1000000000]",
                                                 "search[seconds=inf]", "search[playouts=0]", "search[", ""])),
    "game": st.one_of(JSONISH, st.sampled_from(hk.games.game_names())),
    "box": st.one_of(st.none(), st.sampled_from(["", "/no/such/box", "\x00"]), JSONISH),
    "mode": JSONISH, "ghost_cards": JSONISH}))
def test_fuzzed_teacher_requests_never_raise_log_a_traceback_or_change_the_store_on_refusal(msg):
    store, c = simple_classroom()
    before = snapshot(store)
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("haunted_kit.server")
    logger.addHandler(handler)
    try:
        out = run(lambda: c.teacher_op(msg))
    finally:
        logger.removeHandler(handler)
    assert list(out) in (["ok"], ["error"]) and isinstance(next(iter(out.values())), str)
    assert not any(r.exc_info for r in records), [r.getMessage() for r in records]
    if "error" in out:
        assert snapshot(store) == before, out


def test_teacher_posts_refuse_infinity_nan_huge_numbers_and_junk_with_a_sentence(caplog):
    """Through HTTP: the request body is read with no NaN, Infinity, 1e309 or 21-digit
    numbers; each gets a sentence (status 200 for the page to show), the log stays quiet."""
    store, c = simple_classroom()
    before = snapshot(store)
    bodies = {
        '{"op": "rollback", "table": 1, "to": Infinity}': "the teacher's request is not valid JSON: Infinity is not "
                                                          "a number; nothing was changed.",
        '{"op": "rollback", "table": 1, "to": NaN}': "the teacher's request is not valid JSON: NaN is not a number; "
                                                     "nothing was changed.",
        '{"op": "create", "players": 1e309}': "the teacher's request is not valid JSON: the number 1e309 is too "
                                              "large; nothing was changed.",
        '{"op": "create", "seed": 123456789012345678901234567890}': "the teacher's request is not valid JSON: the "
                                                                    "number 123456789012... has more than 20 digits; "
                                                                    "nothing was changed.",
        '[1, 2]': 'A teacher request is a JSON object such as {"op": "rollback", ...}.',
        "x" * 70_000: "The request is over 64 KB; nothing was changed.",
    }

    async def go():
        sockets = bind_sockets(0, "127.0.0.1")
        server = tornado.httpserver.HTTPServer(make_app(c, {"127.0.0.1"}, "http://127.0.0.1"))
        server.add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        client = tornado.httpclient.AsyncHTTPClient()
        out = {}
        try:
            for body in bodies:
                r = await client.fetch(f"http://127.0.0.1:{port}/teacher?token={c.teacher_token}", method="POST",
                                       body=body)
                out[body] = (r.code, json.loads(r.body))
            r = await client.fetch(f"http://127.0.0.1:{port}/teacher?token=%C3%A9", raise_error=False)
            out["token"] = r.code
        finally:
            server.stop()
            client.close()
        return out

    out = run_in_fresh_loop(go)
    assert out.pop("token") == 403                                 # a non-ASCII token: refused, not a 500
    assert out == {body: (200, {"error": text}) for body, text in bodies.items()}
    assert snapshot(store) == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_page_closed_while_it_is_sent_an_update_is_one_line_in_the_log(caplog):
    store = GameStore(":memory:")
    c = Classroom(store)
    t = store.create_table(players=2, seed=4)
    caplog.set_level("INFO", logger="haunted_kit.server")

    async def go():
        sending = asyncio.get_running_loop().create_future()

        class ClosingSocket:
            def write_message(self, text):
                return sending

        conn = Connection(ClosingSocket(), t.id, 1, "seat")
        c.connections.add(conn)
        c.broadcast(t.id)
        sending.set_exception(tornado.websocket.WebSocketClosedError())   # the tab closes mid-send
        await asyncio.sleep(0)
        c.broadcast(t.id)                                                 # nothing more is sent to it
        return conn in c.connections

    assert run_in_fresh_loop(go) is False
    assert caplog.messages == ["a seat page of table 1 closed while it was sent an update"]
    assert caplog.records[0].exc_info is None


# ============================================================================ the teacher's link
def test_the_teacher_link_survives_a_restart_and_new_token_replaces_it(tmp_path, monkeypatch):
    db = tmp_path / "class.db"
    first = open_classroom(db, first_table={"players": 2, "seed": 3})
    token = first.teacher_token
    first.close()
    again = open_classroom(db)
    assert again.teacher_token == token and again.store.table_ids() == [1]
    again.close()
    renewed = open_classroom(db, new_token=True)
    assert renewed.teacher_token != token
    renewed.close()
    seen = {}
    monkeypatch.setattr(server, "serve", lambda store, **kw: seen.update(kw) or 0)
    assert main(["server", "--store", str(db), "--new-token"]) == 0 and seen["new_token"] is True
    assert main(["server", "--store", str(db)]) == 0 and seen["new_token"] is False


def test_a_second_server_on_one_store_is_refused_with_a_sentence(tmp_path):
    db = tmp_path / "class.db"
    first = open_classroom(db, first_table={"players": 2, "seed": 3})
    before = db.read_bytes()
    with pytest.raises(StoreError, match=r"class.db is open in another haunted-kit server; one server serves a store "
                                         r"\(stop the other one, or give this one another --store\)"):
        open_classroom(db)
    assert db.read_bytes() == before
    t = first.store.table(1)                        # the first server plays on
    t.decide(t.state.current_player(), t.state.legal_actions()[0])
    first.close()
    second = open_classroom(db)                     # and once it stopped, another may serve the store
    assert second.store.table(1).seq == 1
    second.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the bots' worker processes")
def test_the_bots_workers_end_with_a_killed_server(tmp_path):
    """A SIGKILLed server leaves no bot worker behind (workers.worker_pool): a class
    restarting the server after a crash does not pile up processes."""
    proc = subprocess.Popen([sys.executable, "-m", "haunted_kit.cli", "server", "--store", str(tmp_path / "s.db"),
                             "--port", "0", "--players", "2", "--bots", "1,2", "--bot-delay", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and not workers:  # the bots' worker processes have started
            time.sleep(0.2)
            workers = {p for p in descendants(proc.pid) if "spawn_main" in cmdline(p)}
        assert workers, "no bot worker started"
        children = descendants(proc.pid)
    except BaseException:
        proc.kill()
        raise
    left = outlived_kill(proc, children)
    assert not left, f"{len(left)} of {len(children)} child processes outlived the SIGKILLed server"


# ============================================================================ a seat given back before its bot moved
@pytest.mark.parametrize("name", game_names())
def test_a_seat_given_back_cancels_its_bots_pending_decision_whatever_the_clock(name, caplog):
    """The bot waits a minute; the seat is given back at once: the pending decision is
    cancelled (the server says so) rather than outwaited, so no clock decides whose move it is."""
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=60)
    t = store.create_table(game=name, players=get_game(name).min_players, seed=4)
    mover = t.state.current_player()
    assert mover is not None   # a table starts at a decision

    async def scenario():
        assert c.teacher_op({"op": "seat", "table": t.id, "seat": mover, "agent": default_agent(name)})["ok"]
        task = c._bot_tasks[t.id]
        await asyncio.sleep(0)   # the bots' loop starts its wait
        assert not task.done()
        assert c.teacher_op({"op": "seat", "table": t.id, "seat": mover, "agent": None})["ok"]
        await asyncio.sleep(0)   # the cancellation is delivered
        return task

    with caplog.at_level(logging.INFO, logger="haunted_kit.server"):
        task = run_in_fresh_loop(scenario)
    assert task.cancelled()
    assert f"the bots' pending decision was cancelled: P{mover + 1} is human again" in caplog.text
    assert store.table(t.id).seq == 0 and store.table(t.id).seats[mover].agent is None
    c.close()
