"""Updates that scale (issue 20, item 7): a page is sent its full view once, then
``patch`` messages with only the keys that changed; pages of one viewer share one built
view; the teacher pages' message is built once per change and status lines once per
table position; a page that reconnects gets a full view; websocket messages are deflated.
Every game with a ``classroom`` module is covered."""

from __future__ import annotations

import asyncio
import json

import pytest
import tornado.httpserver
import tornado.websocket
from fresh_loop import run_in_fresh_loop
from tornado.netutil import bind_sockets

from haunted_kit import server
from haunted_kit.bots import seat_bot
from haunted_kit.games import game_module, game_names, get_game
from haunted_kit.server import PUBLIC, Classroom, Connection, make_app, view_message, view_patch
from haunted_kit.store import GameStore

SERVED_GAMES = [name for name in game_names() if game_module(name, "classroom") is not None]


class Page:
    """A fake page: what the server wrote to its socket, and the view the page holds
    after merging each patch into its last view (as server_page.html's onmessage does)."""

    def __init__(self):
        self.messages = []
        self.view = None

    def write_message(self, text):
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "patch":
            assert self.view is not None and self.view["table"] == msg["table"], "a patch before any view"
            self.view = {**self.view, **msg["changed"]}
            assert self.view["seq"] == msg["seq"]


def run(fn):
    async def go():
        return fn()

    return run_in_fresh_loop(go)


def full_view(c: Classroom, t, conn: Connection) -> dict:
    """The view built afresh (no cache) for ``conn``, as JSON would carry it."""
    msg = c.build_view(t, conn.viewer, c.view_key(conn)[3])
    return json.loads(json.dumps(msg))


def open_pages(c: Classroom, t, players: int) -> list[Connection]:
    """Two pages of seat 1 (a phone and a laptop), one of every other seat, a projector,
    a hot-seat screen and a teacher page, each sent its first message."""
    conns = [Connection(Page(), t.id, 0, "seat")] + [Connection(Page(), t.id, p, "seat") for p in range(players)]
    conns += [Connection(Page(), t.id, PUBLIC, "projector"), Connection(Page(), t.id, PUBLIC, "hotseat"),
              Connection(Page(), None, None, "teacher")]
    for conn in conns:
        c.connections.add(conn)
        run(lambda conn=conn: c.refresh(conn))
    return conns


@pytest.mark.parametrize("name", SERVED_GAMES)
def test_a_patch_merged_into_the_last_view_equals_the_full_view(name):
    game = get_game(name)
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    players = game.min_players
    t = store.create_table(game=name, players=players, seed=5)
    conns = open_pages(c, t, players)
    views = [conn for conn in conns if conn.role != "teacher"]
    assert all(conn.socket.messages[0]["type"] == "view" for conn in views)  # a new page: the full view
    bots = [seat_bot("random", game, 5, p) for p in range(players)]
    patches = 0
    for step in range(40):
        if t.state.is_terminal():
            break
        p = t.state.current_player()
        if step == 3:  # the hot-seat player uncovers their hidden cards: a patch on that screen only
            hot = conns[-2]
            hot.revealed_for = p
            run(lambda: c.update(hot))
        action = bots[p].act(t.state.copy())
        mover = next(conn for conn in views if conn.role == "seat" and conn.viewer == p)
        run(lambda: c.act(mover, {"type": "act", "seq": t.seq, "i": t.state.legal_actions().index(action)}))
        assert t.applied[-1][2] == action
        for conn in views:
            last = conn.socket.messages[-1]
            assert last["type"] in ("view", "patch") and last["seq"] == t.seq
            if last["type"] == "patch":
                patches += 1
                assert "title" not in last["changed"] and "type" not in last["changed"]  # unchanged keys stay home
            assert conn.socket.view == full_view(c, t, conn), (step, conn.role, conn.viewer)
    assert t.seq >= 2 and patches >= len(views) * (t.seq - 1)  # after its first view, every page got patches only


def test_view_patch_lists_only_changed_keys():
    last = {"type": "view", "table": 1, "seq": 4, "status": "a", "board": "<svg/>", "actions": [1]}
    new = {**last, "seq": 5, "actions": []}
    assert view_patch(last, new) == {"type": "patch", "table": 1, "seq": 5, "changed": {"seq": 5, "actions": []}}
    assert view_patch(last, dict(last)) is None


def test_pages_of_one_viewer_share_one_built_view(monkeypatch):
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    t = store.create_table(players=4, seed=11)
    builds = []
    real = server.view_message
    monkeypatch.setattr(server, "view_message", lambda *a, **k: builds.append(a[1]) or real(*a, **k))
    conns = open_pages(c, t, 4)
    for _ in range(3):  # three more pages of seat 2, opened later
        conns.append(Connection(Page(), t.id, 1, "seat"))
        c.connections.add(conns[-1])
        run(lambda: c.refresh(conns[-1]))
    # 4 seats + projector + hot seat: six views for nine view pages
    assert sorted(builds) == [PUBLIC, PUBLIC, 0, 1, 2, 3]
    builds.clear()
    p = t.state.current_player()
    mover = next(conn for conn in conns if conn.role == "seat" and conn.viewer == p)
    run(lambda: c.act(mover, {"type": "act", "seq": 0, "i": 0}))
    assert sorted(builds) == [PUBLIC, PUBLIC, 0, 1, 2, 3]
    seat2 = [conn for conn in conns if conn.role == "seat" and conn.viewer == 1]
    assert len(seat2) == 4 and len({conn.socket.messages[-1]["seq"] for conn in seat2}) == 1
    assert len(c._views) == 6  # the views of position 0 were dropped  # noqa: SLF001 - the cache's size


def test_the_teacher_message_is_built_once_per_change(monkeypatch):
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    tables = [store.create_table(players=2, seed=s) for s in (1, 2, 3)]
    statuses = []
    real = server.status_of
    monkeypatch.setattr(server, "status_of", lambda t: statuses.append((t.id, t.seq)) or real(t))
    teachers = [Connection(Page(), None, None, "teacher") for _ in range(3)]
    for conn in teachers:
        c.connections.add(conn)
        run(lambda conn=conn: c.refresh(conn))
    assert sorted(statuses) == [(1, 0), (2, 0), (3, 0)]  # three teacher pages: each status line once
    seat = Connection(Page(), 2, tables[1].state.current_player(), "seat")
    c.connections.add(seat)
    run(lambda: c.refresh(seat))
    run(lambda: c.act(seat, {"type": "act", "seq": 0, "i": 0}))
    assert sorted(statuses) == [(1, 0), (2, 0), (2, 1), (3, 0)]  # only the table that moved: once more
    for conn in teachers:
        msgs = conn.socket.messages
        assert len(msgs) == 2 and msgs[-1]["tables"][1]["seq"] == 1 and msgs[-1]["tables"][1]["seats"][seat.viewer][
            "connected"] == 1
    run(lambda: c.broadcast(-1))  # nothing changed: the teacher pages are not sent the same message again
    assert [len(conn.socket.messages) for conn in teachers] == [2, 2, 2]


def test_a_page_that_reconnects_gets_a_full_view_over_a_real_socket():
    """Through tornado: the first message is the full view, a decision brings a patch,
    the page closes and opens again and gets the full view (deflated both times)."""
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    t = store.create_table(players=2, seed=4)
    mover = t.state.current_player()
    code = t.seats[mover].code

    async def go():
        sockets = bind_sockets(0, address="127.0.0.1")
        port = sockets[0].getsockname()[1]
        http = tornado.httpserver.HTTPServer(make_app(c, {"127.0.0.1"}, f"http://127.0.0.1:{port}"))
        http.add_sockets(sockets)
        url = f"ws://127.0.0.1:{port}/ws?code={code}"
        try:
            ws = await tornado.websocket.websocket_connect(url, compression_options={})
            assert "permessage-deflate" in ws.headers.get("Sec-WebSocket-Extensions", "")
            first = json.loads(await ws.read_message())
            await ws.write_message(json.dumps({"type": "act", "seq": 0, "i": 0}))
            second = json.loads(await asyncio.wait_for(ws.read_message(), 10))
            ws.close()
            await asyncio.sleep(0.1)
            again = await tornado.websocket.websocket_connect(url, compression_options={})
            third = json.loads(await asyncio.wait_for(again.read_message(), 10))
            again.close()
            return first, second, third
        finally:
            http.stop()

    first, second, third = run_in_fresh_loop(go)
    assert first["type"] == "view" and first["seq"] == 0
    assert second["type"] == "patch" and second["seq"] == 1 and "board" in second["changed"]
    assert third == json.loads(json.dumps(c.build_view(t, mover, "seat")))  # the full view at decision 1


def test_teacher_pages_get_at_most_one_message_per_interval_carrying_every_change():
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0, teacher_interval=0.2)
    t = store.create_table(players=2, seed=4)
    teacher = Connection(Page(), None, None, "teacher")
    seats = {p: Connection(Page(), t.id, p, "seat") for p in range(2)}

    async def go():
        for conn in (teacher, *seats.values()):
            c.connections.add(conn)
            c.refresh(conn)
        for _ in range(3):  # three decisions within a few milliseconds
            c.act(seats[t.state.current_player()], {"type": "act", "seq": t.seq, "i": 0})
        sent_at_once = [m["tables"][0]["seq"] for m in teacher.socket.messages]
        await asyncio.sleep(0.5)
        return sent_at_once, [m["tables"][0]["seq"] for m in teacher.socket.messages]

    at_once, after = run_in_fresh_loop(go)
    assert at_once == [0, 1]           # the page's first message, then the first change at once
    assert after == [0, 1, 3]          # the next two changes in one message, after the interval
