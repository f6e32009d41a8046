"""Which token opens what, for every page role and every table of every registered game:
the teacher token (teacher page and its operations only), each table's watch-only link
(the projector and spectators: watch that table, nothing else), each table's hot-seat
link (play that table, nothing else), a seat's code; renewing a link cuts the pages open
on it, in words; the teacher token is in no link the teacher page or the command shows
for a shared screen; a store written before links had tokens gets them on first start.

Served in-process by tornado on 127.0.0.1; every wait is bounded and waits for a
message, never for a clock."""

from __future__ import annotations

import asyncio
import html
import json
import sqlite3
import threading
import urllib.parse

import pytest
import tornado.httpclient
import tornado.httpserver
import tornado.websocket
from hypothesis import given, settings
from hypothesis import strategies as st
from tornado.netutil import bind_sockets

from fresh_loop import run_in_fresh_loop
from haunted_kit import server
from haunted_kit.cli import main
from haunted_kit.games import game_names, get_game
from haunted_kit.server import SCREEN_LINKS, Classroom, make_app, open_classroom, screen_refusal
from haunted_kit.store import LINK_KINDS, SCHEMA_VERSION, GameStore

WAIT = 30.0  #: seconds: the most any message is waited for (a bound, never a race: each wait ends on the message)
ROLES = ("projector", "hotseat", "teacher")


def class_of_every_game(store_path=":memory:") -> Classroom:
    """A classroom with one all-human table per registered game, at its fewest players."""
    store = GameStore(store_path)
    for name in game_names():
        store.create_table(game=name, players=get_game(name).min_players, seed=3)
    return Classroom(store, bot_delay=0)


def tokens_for(c: Classroom, tid: int) -> dict:
    """Every token a page of table ``tid`` might carry: the teacher's, the table's own
    links, the next table's links (another table), a seat's code, none."""
    ids = c.store.table_ids()
    other = ids[(ids.index(tid) + 1) % len(ids)]
    return {"teacher": c.teacher_token,
            "watch": c.store.link_token(tid, "watch"), "hotseat": c.store.link_token(tid, "hotseat"),
            "other watch": c.store.link_token(other, "watch"), "other hotseat": c.store.link_token(other, "hotseat"),
            "seat code": c.table(tid).seats[0].code, "none": ""}


def snapshot(store: GameStore) -> tuple:
    """Everything the store holds (decisions, seats, tokens), to show a refusal changed nothing."""
    return tuple(store.db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("decisions", "seats", "meta"))


class Served:
    """The classroom's app on 127.0.0.1 (a free port) with an HTTP client, inside a running loop."""

    def __init__(self, c: Classroom):
        self.c = c
        sockets = bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.http = tornado.httpserver.HTTPServer(make_app(c, {"127.0.0.1"}, self.base))
        self.http.add_sockets(sockets)
        self.client = tornado.httpclient.AsyncHTTPClient(force_instance=True)

    async def get(self, path: str, **params) -> tuple[int, str]:
        url = f"{self.base}{path}" + ("?" + urllib.parse.urlencode(params) if params else "")
        r = await self.client.fetch(url, raise_error=False, request_timeout=WAIT)
        return r.code, r.body.decode("utf-8", "replace")

    async def teacher(self, token: str, **msg) -> tuple[int, str]:
        r = await self.client.fetch(f"{self.base}/teacher?token={urllib.parse.quote(token)}", method="POST",
                                    body=json.dumps(msg), raise_error=False, request_timeout=WAIT)
        return r.code, r.body.decode("utf-8", "replace")

    async def socket(self, role: str, token: str, table: int | None = None):
        """A websocket as the page of ``role`` opens it, or the handshake's HTTP status (an int)."""
        query = urllib.parse.urlencode({"token": token, "role": role, "table": "" if table is None else table})
        try:
            return await asyncio.wait_for(tornado.websocket.websocket_connect(
                f"ws://127.0.0.1:{self.port}/ws?{query}"), WAIT)
        except tornado.httpclient.HTTPClientError as exc:
            return exc.code

    def close(self):
        self.http.stop()
        self.client.close()


async def read(ws) -> dict | None:
    """The socket's next message (None once it is closed), waited for at most WAIT seconds."""
    text = await asyncio.wait_for(ws.read_message(), WAIT)
    return None if text is None else json.loads(text)


def serve(c: Classroom, fn):
    """``await fn(Served)`` in a fresh loop (the session may run one), the server stopped after."""
    async def go():
        s = Served(c)
        try:
            return await fn(s)
        finally:
            s.close()

    return run_in_fresh_loop(go)


# ============================================================================ pages (HTTP)
def test_each_token_opens_only_its_own_pages_of_its_own_table():
    """GET of every page for every table with every token: the teacher's opens the teacher
    page, save files and QR codes and no shared screen (a plain page names the table's
    link instead); a watch link opens its table's projector only; a hot-seat link its
    table's hot seat only."""
    c = class_of_every_game()

    async def go(s: Served):
        out = {}
        for tid in c.store.table_ids():
            code = c.table(tid).seats[0].code
            for who, token in tokens_for(c, tid).items():
                for path in ("/teacher", f"/projector/{tid}", f"/hotseat/{tid}", f"/export/{tid}", f"/qr/{code}"):
                    out[(tid, who, path)] = await s.get(path, token=token)
        return out

    out = serve(c, go)
    for (tid, who, path), (status, body) in out.items():
        role = path.split("/")[1]
        opens = {"teacher": who == "teacher", "export": who == "teacher", "qr": who == "teacher",
                 "projector": who == "watch", "hotseat": who == "hotseat"}[role]
        assert status == (200 if opens else 403), (tid, who, path, status)
        if role in SCREEN_LINKS and not opens and who != "none":
            assert html.escape(screen_refusal(role, teacher_key=who == "teacher")) in body, (tid, who, path)
        if opens and role in SCREEN_LINKS:
            assert c.teacher_token not in body  # the screen's page carries its own link's token only
    refusal = html.escape(screen_refusal("projector", teacher_key=True))
    assert "the table&#x27;s projector (watch-only) link from the teacher page" in refusal


def test_teacher_operations_need_the_teacher_token_and_a_refusal_changes_nothing():
    """Roll back, hand a seat to a bot, create a table, renew a link: refused (403) with
    each table's watch or hot-seat link, another table's, a seat code or none; done with
    the teacher's."""
    c = class_of_every_game()

    async def go(s: Served):
        for tid in c.store.table_ids():  # one decision on every table, so a rollback would change something
            t = c.table(tid)
            t.decide(t.state.current_player(), t.state.legal_actions()[0])
        before = snapshot(c.store)
        refused = []
        for tid in c.store.table_ids():
            ops = [{"op": "rollback", "table": tid, "to": 0}, {"op": "seat", "table": tid, "seat": 0, "agent": "random"},
                   {"op": "new_link", "table": tid, "link": "watch"}, {"op": "new_link", "table": tid, "link": "hotseat"},
                   {"op": "create", "players": 2}]
            for who, token in tokens_for(c, tid).items():
                if who != "teacher":
                    refused += [(who, op["op"], (await s.teacher(token, **op))[0]) for op in ops]
        after = snapshot(c.store)
        done = await s.teacher(c.teacher_token, op="rollback", table=1, to=0)
        return refused, before, after, done, c.table(1).seq

    refused, before, after, done, seq = serve(c, go)
    assert refused and {status for _, _, status in refused} == {403}
    assert after == before
    assert done[0] == 200 and json.loads(done[1])["ok"].startswith("Table 1: The teacher took the game back to decision 0")
    assert seq == 2 and len(c.table(1).applied) == 0  # the decision, then the rollback row


@settings(max_examples=60, deadline=None)
@given(given_token=st.text(max_size=40), kind=st.sampled_from(LINK_KINDS))
def test_no_other_text_opens_a_screen(given_token, kind):
    """Whatever a page sends as a token, only the link's own opens its screen."""
    c = class_of_every_game()
    role = next(r for r, k in SCREEN_LINKS.items() if k == kind)
    for tid in c.store.table_ids():
        assert c.screen_token_ok(role, tid, given_token) is (given_token == c.store.link_token(tid, kind))
        assert c.screen_token_ok(role, tid, c.store.link_token(tid, kind)) is True


# ============================================================================ sockets
def test_each_token_opens_only_its_own_socket_role_of_its_own_table():
    """The websocket, as each page role opens it, for every table and token: a view of the
    table for its own link, the teacher message for the teacher token, otherwise the
    handshake is refused (no token) or the page is told in words and closed."""
    c = class_of_every_game()

    async def go(s: Served):
        out = {}
        for tid in c.store.table_ids():
            for role in ROLES:
                for who, token in tokens_for(c, tid).items():
                    ws = await s.socket(role, token, None if role == "teacher" else tid)
                    if isinstance(ws, int):
                        out[(tid, role, who)] = ws
                        continue
                    msg = await read(ws)
                    closed = await read(ws) if msg["type"] == "withdrawn" else "open"
                    out[(tid, role, who)] = (msg["type"], msg.get("table"), msg.get("text"), closed, ws.close_code)
                    ws.close()
        out["no such table"] = await s.socket("projector", c.store.link_token(1, "watch"), 99)
        return out

    out = serve(c, go)
    assert out.pop("no such table") == 404
    for (tid, role, who), got in out.items():
        if role == "teacher":
            assert got == (("teacher", None, None, "open", None) if who == "teacher" else 403), (tid, who)
        elif who == {"projector": "watch", "hotseat": "hotseat"}[role]:
            assert got == ("view", tid, None, "open", None), (tid, role, who)
        elif who == "none":
            assert got == 403, (tid, role, who)
        else:
            assert got == ("withdrawn", None, screen_refusal(role, teacher_key=who == "teacher"), None, 4403), \
                (tid, role, who)


def test_a_watch_link_only_watches_and_a_hot_seat_link_only_plays_its_table():
    """On every table: the projector's socket is refused every decision, take-back,
    reveal and rollback and the table stays as it was; the hot-seat socket decides for
    the seat to move at its own table (every other table stays as it was) and cannot
    roll back or hand a seat over (no such request on a socket; the teacher's POST
    refuses its token)."""
    c = class_of_every_game()

    async def go(s: Served):
        out = {}
        for tid in c.store.table_ids():
            t = c.table(tid)
            watch = await s.socket("projector", c.store.link_token(tid, "watch"), tid)
            view = await read(watch)
            seq, mover = t.seq, t.state.current_player()
            replies = []
            for msg in ({"type": "act", "seq": seq, "i": 0}, {"type": "act", "seq": seq, "i": 0, "seat": mover},
                        {"type": "undo", "seq": seq}, {"type": "reveal"}, {"type": "cover"},
                        {"type": "rollback", "table": tid, "to": 0}, {"op": "rollback", "table": tid, "to": 0}):
                await watch.write_message(json.dumps(msg))
                replies.append((await read(watch))["text"])
            watched = (view["actions"], replies, t.seq)

            hot = await s.socket("hotseat", c.store.link_token(tid, "hotseat"), tid)
            await read(hot)
            others = {u: c.table(u).seq for u in c.store.table_ids() if u != tid}
            await hot.write_message(json.dumps({"type": "rollback", "table": tid, "to": 0}))
            hot_rollback = (await read(hot))["text"]
            await hot.write_message(json.dumps({"type": "act", "seq": seq, "i": 0, "seat": mover, "table": min(others)}))
            moved = await read(hot)
            seen = await read(watch)  # the projector follows the hot seat's decision
            post = [(await s.teacher(c.store.link_token(tid, "hotseat"), **op))[0]
                    for op in ({"op": "rollback", "table": tid, "to": 0},
                               {"op": "seat", "table": tid, "seat": mover, "agent": "random"})]
            teacher_page = (await s.get("/teacher", token=c.store.link_token(tid, "hotseat")))[0]
            out[tid] = (watched, hot_rollback, moved["seq"], seen["seq"], t.seq, t.applied[-1][1], mover,
                        {u: c.table(u).seq for u in others} == others, post, teacher_page,
                        [s.agent for s in t.seats])
            watch.close()
            hot.close()
        return out

    out = serve(c, go)
    assert set(out) == set(c.store.table_ids())
    for tid, (watched, hot_rollback, moved, seen, seq, decider, mover, others_same, post, page, agents) in out.items():
        actions, replies, seq_after_watch = watched
        assert actions == [] and seq_after_watch == 0, tid
        assert replies == ["This screen only shows the game."] * 2 + [
            "Unknown request 'undo'.", "Unknown request 'reveal'.", "Unknown request 'cover'.",
            "Unknown request 'rollback'.", "Unknown request None."], tid
        assert hot_rollback == "Unknown request 'rollback'."
        assert (moved, seen, seq, decider) == (1, 1, 1, mover), tid
        assert others_same, tid
        assert post == [403, 403] and page == 403, tid
        assert agents == [None] * len(agents), tid


def test_a_new_link_cuts_the_pages_open_on_the_old_one_in_words():
    """For every table and both links: the teacher renews it; the page open on it is told
    in words and closed, the other link's page of the table keeps its view, the old token
    opens neither the page nor a socket any more, the new one opens both."""
    c = class_of_every_game()

    async def go(s: Served):
        out = []
        for tid in c.store.table_ids():
            for kind in LINK_KINDS:
                role = next(r for r, k in SCREEN_LINKS.items() if k == kind)
                other_role = next(r for r in SCREEN_LINKS if r != role)
                old = c.store.link_token(tid, kind)
                page = await s.socket(role, old, tid)
                other = await s.socket(other_role, c.store.link_token(tid, SCREEN_LINKS[other_role]), tid)
                teacher = await s.socket("teacher", c.teacher_token)
                await read(page), await read(other), await read(teacher)
                status, reply = await s.teacher(c.teacher_token, op="new_link", table=tid, link=kind)
                reply = {**json.loads(reply), "seq_then": c.table(tid).seq}  # the reply names the position it is about
                told, end = await read(page), await read(page)
                new = c.store.link_token(tid, kind)
                listed = await read(teacher)  # the teacher page is sent the new link
                t = c.table(tid)
                t.decide(t.state.current_player(), t.state.legal_actions()[0])
                c.broadcast(tid)
                still = await read(other)
                out.append((tid, kind, status, reply, told, end, page.close_code, old != new,
                            [x["links"][kind] for x in listed["tables"] if x["id"] == tid] == [new],
                            still["seq"] == t.seq,
                            (await s.get(f"/{role}/{tid}", token=old))[0], (await s.get(f"/{role}/{tid}", token=new))[0],
                            (await read(await s.socket(role, old, tid)))["type"],
                            (await read(await s.socket(role, new, tid)))["type"]))
                other.close()
                teacher.close()
        return out

    out = serve(c, go)
    assert len(out) == len(game_names()) * len(LINK_KINDS)
    for tid, kind, status, reply, told, end, code, renewed, listed, still, old_page, new_page, old_ws, new_ws in out:
        name = "projector (watch-only)" if kind == "watch" else "hot-seat"
        assert status == 200 and reply == {"ok": f"Table {tid} has a new {name} link; the old one no longer works "
                                                 "(1 page on it closed).", "seq": reply["seq_then"],
                                           "seq_then": reply["seq_then"]}, reply
        assert told == {"type": "withdrawn", "text": f"The teacher withdrew this {name} link: this page no longer "
                                                     "shows the table. Ask the teacher for the new link."}
        assert (end, code, renewed, listed, still) == (None, 4403, True, True, True), (tid, kind)
        assert (old_page, new_page, old_ws, new_ws) == (403, 200, "withdrawn", "view"), (tid, kind)


def test_a_bad_new_link_request_is_a_sentence_and_changes_nothing():
    c = class_of_every_game()
    before = snapshot(c.store)
    assert c.teacher_op({"op": "new_link", "table": 1, "link": "teacher"}) == {
        "error": "link must be one of watch, hotseat, got 'teacher'"}
    assert c.teacher_op({"op": "new_link", "table": 99, "link": "watch"}) == {"error": "there is no table 99"}
    assert snapshot(c.store) == before


# ============================================================================ the links shown
def test_the_teacher_page_lists_each_tables_own_links_and_never_the_teacher_token():
    c = class_of_every_game()
    tables = c.teacher_message()["tables"]
    tokens = [x["links"][k] for x in tables for k in LINK_KINDS]
    assert [x["id"] for x in tables] == c.store.table_ids()
    assert c.teacher_token not in tokens and len(set(tokens)) == len(tokens) == len(LINK_KINDS) * len(tables)
    assert all(x["links"] == {k: c.store.link_token(x["id"], k) for k in LINK_KINDS} for x in tables)
    page = (server._PAGE).read_text(encoding="utf-8")
    assert "/projector/${t.id}?token=${tok}" not in page and "/hotseat/${t.id}?token=${tok}" not in page
    assert "t.links[kind]" in page


def test_no_page_tells_the_page_opened_from_it_the_teacher_address():
    """A projector, hot-seat or seat page opened by a click on the teacher page would hold
    the teacher's address, token included, in ``document.referrer`` (the browser's default
    policy sends the whole address within one site): every page the server serves, the
    refusals too, says ``Referrer-Policy: no-referrer``."""
    c = class_of_every_game()

    async def go(s: Served):
        out = {}
        for tid in c.store.table_ids():
            toks = tokens_for(c, tid)
            for path, token in (("/teacher", toks["teacher"]), (f"/projector/{tid}", toks["watch"]),
                                (f"/hotseat/{tid}", toks["hotseat"]), (f"/projector/{tid}", toks["teacher"]),
                                (f"/s/{toks['seat code']}", ""), (f"/export/{tid}", toks["teacher"]),
                                ("/teacher", "")):
                r = await s.client.fetch(f"{s.base}{path}?token={urllib.parse.quote(token)}", raise_error=False,
                                         request_timeout=WAIT)
                out[(path, token == toks["teacher"])] = (r.code, r.headers.get("Referrer-Policy"))
        return out

    out = serve(c, go)
    assert {code for code, _ in out.values()} == {200, 403}  # pages that open and pages that refuse
    assert {policy for _, policy in out.values()} == {"no-referrer"}, out


def test_the_command_prints_each_tables_own_links_and_the_teacher_token_only_on_the_teacher_line(
        tmp_path, capsys, monkeypatch):
    db = tmp_path / "class.db"
    c = class_of_every_game(db)
    c.store.close()
    seen = {}

    class Stop(Exception):
        pass

    real = server.serve

    def stop(info):
        seen.update(info)
        raise Stop  # served, links printed: stop here

    monkeypatch.setattr(server, "serve", lambda *a, **kw: real(*a, **{**kw, "ip": "127.0.0.1", "port": 0, "ready": stop}))
    done = {}
    thread = threading.Thread(target=lambda: done.update(error=_raises(Stop, main, ["server", "--store", str(db)])),
                              daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive() and done["error"] is True
    out = capsys.readouterr().out
    store = GameStore(db)
    teacher = store.teacher_token()
    lines = out.splitlines()
    assert [line for line in lines if teacher in line] == [f"Teacher page: {seen['base']}/teacher?token={teacher}"]
    for tid in store.table_ids():
        name = store.table(tid).name
        watch, hot = (f"{seen['base']}/{role}/{tid}?token={store.link_token(tid, k)}" for role, k in SCREEN_LINKS.items())
        assert f"  {name} projector (watch only, may be shown): {watch}" in lines
        assert f"  {name} hot seat (plays this table only): {hot}" in lines
        assert (seen["projector"][tid], seen["hotseat"][tid]) == (watch, hot)
    store.close()


def _raises(kind, fn, *args) -> bool:
    try:
        fn(*args)
    except kind:
        return True
    return False


# ============================================================================ the store
def test_a_store_of_the_previous_version_gets_link_tokens_on_first_start_and_keeps_them(tmp_path):
    """A store written before links had tokens (its meta holds the schema and the teacher
    token only) opens, every table gets a watch and a hot-seat token at the first start,
    and the next start serves the same ones (``--new-token`` too: it renews the teacher's
    only); the schema version is unchanged."""
    db = tmp_path / "old.db"
    c = class_of_every_game(db)
    c.store.teacher_token()
    c.store.close()
    with sqlite3.connect(db) as raw:  # what the previous version left: no link:... rows
        raw.execute("DELETE FROM meta WHERE key LIKE 'link:%'")
    with sqlite3.connect(db) as raw:
        assert sorted(k for (k,) in raw.execute("SELECT key FROM meta")) == ["schema", "teacher_token"]
    first = open_classroom(db)
    made = {(tid, k): first.store.link_token(tid, k) for tid in first.store.table_ids() for k in LINK_KINDS}
    teacher = first.teacher_token
    first.close()
    with sqlite3.connect(db) as raw:
        rows = dict(raw.execute("SELECT key, value FROM meta"))
    assert rows == {"schema": str(SCHEMA_VERSION), "teacher_token": teacher,
                    **{f"link:{k}:{tid}": v for (tid, k), v in made.items()}}
    assert len(set(made.values())) == len(made) == len(game_names()) * len(LINK_KINDS) and teacher not in made.values()
    again = open_classroom(db, new_token=True)  # a new teacher token leaves the shown links as they were
    assert {(tid, k): again.store.link_token(tid, k) for tid in again.store.table_ids() for k in LINK_KINDS} == made
    assert again.teacher_token != teacher
    again.close()


def test_link_tokens_are_per_table_and_kind_renewed_on_request_and_refuse_bad_names(tmp_path):
    db = tmp_path / "class.db"
    with GameStore(db) as store:
        a, b = (store.create_table(players=2, seed=s).id for s in (1, 2))
        watch = store.link_token(a, "watch")
        assert store.link_token(a, "watch") == watch and len(watch) == 24
        assert len({watch, store.link_token(a, "hotseat"), store.link_token(b, "watch"), store.teacher_token()}) == 4
        fresh = store.link_token(a, "watch", new=True)
        assert fresh != watch and store.link_token(a, "watch") == fresh
        with pytest.raises(ValueError, match="a link is one of watch, hotseat, not 'teacher'"):
            store.link_token(a, "teacher")
        with pytest.raises(KeyError, match="there is no table 9"):
            store.link_token(9, "watch")
    with GameStore(db) as store:
        assert store.link_token(a, "watch") == fresh  # kept across a restart
