"""Faults of a classroom store, each a kind, for every registered game: a damaged or foreign
table (a bot that cannot play, seats that do not match its players, a row that does not
replay) is set aside with its reason on the teacher page while every other table serves;
rows written by a game's previous version are read by the same reader as its saves.

Served in-process by tornado on 127.0.0.1; every wait is bounded and ends on a message."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
import tornado.websocket

from fresh_loop import run_in_fresh_loop
from haunted_kit.bots import default_agent, seat_bot
from haunted_kit.games import game_names, get_game
from haunted_kit.server import open_classroom
from haunted_kit.store import GameStore, StoreError
from test_server_links import read, serve

#: a damage done to table 2 of three, and the start of the reason the teacher is shown
DAMAGES = {
    "a bot that cannot play": ("UPDATE seats SET agent = 'grumpy' WHERE table_id = 2 AND seat = 0",
                               "table 2: P1's bot 'grumpy' cannot play: "),
    "a seat deleted": ("DELETE FROM seats WHERE table_id = 2 AND seat = 1",
                       "table 2: its seats are P1{rest}, but its game has {n} players (P1 to P{n}); a seat was "
                       "deleted, added or renumbered"),
    "a seat renumbered": ("UPDATE seats SET seat = 7 WHERE table_id = 2 AND seat = 0",
                          "table 2: its seats are {renumbered}, P8, but its game has {n} players"),
    "a row that does not replay": ("UPDATE decisions SET action = '{\"type\": \"Fly\"}' WHERE table_id = 2 AND seq = 1",
                                   "table 2: decision 1 is not a {game} action"),
}


def longest(g) -> dict:
    """The ``new_game`` keywords of ``g``'s longest game its declared options give (each
    whole-number option at its highest; Landmarks: the most rounds)."""
    return {o.keyword: o.high for o in getattr(g, "options", ()) if o.kind == "int" and o.high is not None}


def three_tables(db, game: str) -> int:
    """A store at ``db`` with three tables of ``game`` at its fewest players, two random
    decisions on each; returns the player count."""
    n = get_game(game).min_players
    with GameStore(db) as store:
        for _ in range(3):
            t = store.create_table(game=game, players=n, seed=5)
            for _ in range(2):
                p = t.state.current_player()
                t.decide(p, seat_bot("random", game, 5, p).act(t.state.copy()))
    return n


def damage(db, sql: str) -> None:
    raw = sqlite3.connect(db)
    raw.execute(sql)
    raw.commit()
    raw.close()


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("kind", list(DAMAGES))
def test_a_damaged_table_is_set_aside_by_name_and_every_other_table_serves(tmp_path, game, kind, caplog):
    db = tmp_path / "class.db"
    n = three_tables(db, game)
    sql, reason = DAMAGES[kind]
    damage(db, sql)
    reason = reason.format(game=game, n=n, rest="".join(f", P{k + 1}" for k in range(2, n)),
                           renumbered=", ".join(f"P{k + 1}" for k in range(1, n)))
    c = open_classroom(db)  # serves: no StoreError, no traceback in the log
    try:
        assert list(c.store.set_aside) == [2] and c.store.set_aside[2].startswith(reason), c.store.set_aside
        assert c.store.serving_ids() == [1, 3]
        assert not [r for r in caplog.records if r.exc_info]
        assert [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()] == [
            f"table 2 is set aside (the other tables serve): {c.store.set_aside[2]}"]
        msg = c.teacher_message()
        assert [t["id"] for t in msg["tables"]] == [1, 3]
        assert msg["set_aside"] == [{"id": 2, "name": "Table 2", "reason": c.store.set_aside[2]}]
        assert c.teacher_op({"op": "rollback", "table": 2, "to": 0}) == {
            "error": f"table 2 is set aside: {c.store.set_aside[2]}"}
        codes = [r[0] for r in c.store.db.execute("SELECT code FROM seats WHERE table_id = 2 ORDER BY seat")]
        human = next(s for s in c.table(3).seats if not s.is_bot)

        async def pages(s):
            code, text = await s.get(f"/s/{codes[-1]}")
            assert code == 409 and "This seat&#x27;s table (2) is set aside" in text, text
            assert (await s.get("/projector/2", token=c.store.link_token(2, "watch")))[0] == 404
            # the teacher page serves and names the set-aside table; table 3's seat plays on
            assert (await s.get("/teacher", token=c.teacher_token))[0] == 200
            ws = await s.socket("teacher", c.teacher_token)
            first = await read(ws)
            assert first["set_aside"][0]["reason"] == c.store.set_aside[2]
            ws.close()
            seat = await tornado.websocket.websocket_connect(f"ws://127.0.0.1:{s.port}/ws?code={human.code}")
            view = await read(seat)
            assert view["type"] == "view" and view["table"] == 3
            seat.close()

            code, text = await s.teacher(c.teacher_token, op="rollback", table=3, to=1)  # the others take the teacher's work
            assert code == 200 and "ok" in json.loads(text), text

        serve(c, pages)
        assert (c.table(3).seq, len(c.table(3).applied)) == (3, 1)
    finally:
        c.close()


def v1_rows(game: str, db, decisions: int, seed: int) -> tuple[list, object]:
    """A store at ``db`` with one table of ``game`` (its longest game) played up to
    ``decisions`` greedy decisions. Returns its rows and the final state's save."""
    g = get_game(game)
    options = longest(g)
    with GameStore(db) as store:
        t = store.create_table(game=game, players=g.min_players, seed=seed, **options)
        for _ in range(decisions):
            if t.state.is_terminal():
                break
            p = t.state.current_player()
            t.decide(p, seat_bot("greedy", game, seed, p).act(t.state.copy()))
        rows = store.db.execute("SELECT seq, kind, player, action, target, at FROM decisions ORDER BY seq").fetchall()
        final = t.state.to_dict()
    return rows, final


@pytest.mark.parametrize("game", [g for g in game_names() if hasattr(get_game(g), "migrate_record")])
def test_rows_of_the_previous_version_migrate_as_its_saves_do(tmp_path, game):
    """A table whose rows the previous version wrote (for Landmarks: a Build one decision)
    is read by the game's one reader of old records (the one its saves use), its rollbacks
    keeping the same decisions, and is stored migrated; the other tables are untouched."""
    db = tmp_path / "class.db"
    g = get_game(game)
    rows, final = v1_rows(game, db, 80, 7)
    record = [{"player": p, "chance": False, "action": json.loads(a)} for _s, k, p, a, _t, _at in rows if k == "action"]
    # the previous version's record: the entries the migration adds removed
    migrated, origin = g.migrate_record([e for e in record if e["action"]["type"] != "ChooseBuilding"])
    assert migrated == record and len(set(origin)) < len(origin)  # the fixture has at least one migrated decision
    old = [e for e in record if e["action"]["type"] != "ChooseBuilding"]
    keep = 3 + next(i for i, e in enumerate(old) if e["action"]["type"] == "Build")  # a rollback past a Build
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM decisions")
    raw.executemany("INSERT INTO decisions VALUES (1, ?, 'action', ?, ?, NULL, 'then')",
                    [(i, e["player"], json.dumps(e["action"])) for i, e in enumerate(old, 1)])
    raw.execute("INSERT INTO decisions VALUES (1, ?, 'rollback', NULL, NULL, ?, 'then')", (len(old) + 1, keep))
    raw.commit()
    raw.close()
    with GameStore(db) as store:
        t = store.table(1)
        # the same decisions in effect as the old rollback kept: its first `keep` old decisions, migrated
        want = g.migrate_record(old[:keep])[0]
        assert [(p, g.action_to_dict(a)) for _s, p, a in t.applied] == [(e["player"], e["action"]) for e in want]
        assert t.seq == len(record) + 1 and store.set_aside == {}
    with GameStore(db) as store:  # stored migrated: read again as it is, and forward to the old end
        t = store.table(1)
        assert t.seq == len(record) + 1
        for e in record[len(t.applied):]:
            t.decide(e["player"], e["action"])
        assert t.state.to_dict() == final


@pytest.mark.parametrize("game", [g for g in game_names() if hasattr(get_game(g), "migrate_record")])
def test_damaged_rows_are_not_migrated_and_the_file_is_left_as_it_was(tmp_path, game):
    db = tmp_path / "class.db"
    v1_rows(game, db, 30, 7)
    damage(db, "UPDATE decisions SET player = 1 - player WHERE seq = 2")
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    before = db.read_bytes()
    with GameStore(db) as store, pytest.raises(StoreError, match=r"^table 1: decision 2 was recorded for P"):
        store.table(1)
    assert db.read_bytes() == before


# ============================================================================ store files
def page_damaged(db) -> None:
    """The b-tree header of the file's second page overwritten (as a failing disk or a
    copy cut short leaves it)."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page + 8:page + 72] = b"\xff" * 64
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("harm, said", [
    (page_damaged, "class.db is damaged"),
    (lambda db: db.write_bytes(db.read_bytes()[:len(db.read_bytes()) // 2]), "class.db is damaged"),
    (lambda db: db.write_bytes(b""), "class.db is empty (0 bytes): a store that lost its contents, not a new store; "
                                     "left untouched"),
])
def test_a_damaged_or_emptied_store_file_is_named_kept_byte_for_byte_and_never_served(tmp_path, capsys, harm, said):
    from haunted_kit.cli import main

    db = tmp_path / "class.db"
    three_tables(db, game_names()[0])
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA journal_mode = DELETE")  # the file alone holds the store
    raw.close()
    harm(db)
    before = db.read_bytes()
    with pytest.raises(StoreError, match=re.escape(said)):
        open_classroom(db)
    assert main(["server", "--store", str(db), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err
    assert f"{db} is kept as it is; start with another --store FILE (a new file starts an empty store)" in err, err
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["class.db"]


# ============================================================================ rollbacks across a restart
def run(fn):
    async def go():
        return fn()

    return run_in_fresh_loop(go)


def played(db, game: str, decisions: int = 3):
    """A store at ``db`` with one all-human table of ``game`` at its fewest players and
    ``decisions`` random decisions (its longest game); returns the public observation after each."""
    g = get_game(game)
    options = longest(g)
    with GameStore(db) as store:
        t = store.create_table(game=game, players=g.min_players, seed=5, **options)
        seen = [t.state.observation(None)]
        for _ in range(decisions):
            p = t.state.current_player()
            t.decide(p, seat_bot("random", game, 5, p).act(t.state.copy()))
            seen.append(t.state.observation(None))
    return seen


@pytest.mark.parametrize("game", game_names())
def test_a_rollback_survives_a_restart_in_full(tmp_path, game):
    """The decisions a rollback set aside are listed and brought forward after a restart;
    the notice is said again to every page until the next decision."""
    db = tmp_path / "class.db"
    seen = played(db, game)
    c = open_classroom(db, bot_delay=60)  # no bot plays here; a bound, not a wait
    text = "The teacher took the game back to decision 1: decisions 2 to 3 are set aside (the teacher can bring them back)."
    assert run(lambda: c.teacher_op({"op": "rollback", "table": 1, "to": 1})) == {"ok": f"Table 1: {text}"}
    c.close()
    c = open_classroom(db, bot_delay=60)  # a restart
    try:
        listed = c.teacher_message()["tables"][0]["decisions_list"]
        assert [(d["n"], d["undone"]) for d in listed] == [(1, False), (2, True), (3, True)]
        assert c.announcements[1] == {"id": "1-4", "text": text}
        seat = next(s.seat for s in c.table(1).seats)
        assert c.build_view(c.table(1), seat, "seat")["announce"]["text"] == text  # what every page shows
        forward = "The teacher brought the game forward again to decision 3 (decisions 2 to 3 are back)."
        assert run(lambda: c.teacher_op({"op": "rollback", "table": 1, "to": 3})) == {"ok": f"Table 1: {forward}"}
        assert c.table(1).state.observation(None) == seen[3]
    finally:
        c.close()
    c = open_classroom(db, bot_delay=60)
    try:
        assert c.announcements[1]["text"] == forward
        t = c.table(1)
        p = t.state.current_player()
        if p is not None:  # the next decision ends the notice, for good
            t.decide(p, seat_bot("random", game, 5, p).act(t.state.copy()))
            assert c.store.notice(1) is None
    finally:
        c.close()
    if p is not None:
        c = open_classroom(db, bot_delay=60)
        assert 1 not in c.announcements
        c.close()


@pytest.mark.parametrize("game", game_names())
def test_a_rollback_to_a_bots_turn_says_the_bot_may_decide_otherwise(tmp_path, game):
    db = tmp_path / "class.db"
    played(db, game, 2)
    with GameStore(db) as store:
        bot = store.table(1).position(1).current_player()  # to move after decision 1
        store.set_agent(1, bot, default_agent(game))
    c = open_classroom(db, bot_delay=60)  # the bot waits longer than the test runs: nothing races
    try:
        out = run(lambda: c.teacher_op({"op": "rollback", "table": 1, "to": 1}))
        text = (f"The teacher took the game back to decision 1: decisions 2 to 2 are set aside. P{bot + 1} is a bot "
                "and decides again from here (so do the other bots), perhaps otherwise than before.")
        tip = (" If it decides otherwise, the set-aside decisions are gone; hand its seat to a human before a "
               "rollback to keep them.")
        assert out == {"ok": f"Table 1: {text}{tip}"} and "can bring them back" not in text
        assert c.announcements[1]["text"] == text  # every page's words: what happened, and that bots decide again
    finally:
        c.close()


# ============================================================================ the hot seat's take-back
def hot_seat_table(game: str, want):
    """A classroom with one all-human table of ``game`` (its longest game, fewest players)
    played by random choices until ``want(t)``; (classroom, table), or (classroom, None)
    when no position in 300 decisions is one."""
    from haunted_kit.server import Classroom

    g = get_game(game)
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=g.min_players, seed=5,
                           **longest(g))
    c = Classroom(store, bot_delay=60)
    for _ in range(300):
        if t.state.is_terminal():
            break
        p = t.state.current_player()
        t.decide(p, seat_bot("random", game, 5, p).act(t.state.copy()))
        if want(t):
            return c, t
    return c, None


def hot_seat(c, t):
    from haunted_kit.server import PUBLIC, Connection

    class Socket:
        sent: list

        def __init__(self):
            self.sent = []

        def write_message(self, text):
            self.sent.append(json.loads(text))

    conn = Connection(Socket(), t.id, PUBLIC, "hotseat")
    c.connections.add(conn)
    return conn


@pytest.mark.parametrize("game", game_names())
def test_the_hot_seat_takes_back_only_the_decision_of_the_human_at_it(game):
    from haunted_kit.server import undo_allowed

    # the last decision could be taken back by its player, but another player is at the hot seat now
    c, t = hot_seat_table(game, lambda t: t.state.current_player() not in (None, t.applied[-1][1])
                          and undo_allowed(t, t.applied[-1][1]))
    assert t is not None
    conn = hot_seat(c, t)
    before, seq = t.state.observation(None), t.seq
    view = c.build_view(t, -1, "hotseat")
    assert (view["undo"], view["undo_seat"]) == (False, None)
    run(lambda: c.undo(conn, {"type": "undo", "seq": t.seq}))
    assert conn.socket.sent[-1] == {"type": "refused", "text": (
        "You can take back your last decision only until another player moves, a hidden card is shown or chance "
        "decides.")}
    assert (t.seq, t.state.observation(None)) == (seq, before)
    run(lambda: c.undo(conn, {"type": "undo", "seq": t.seq, "seat": t.applied[-1][1]}))  # naming the other player
    assert conn.socket.sent[-1]["type"] == "refused" and (t.seq, t.state.observation(None)) == (seq, before)


@pytest.mark.parametrize("game", game_names())
def test_the_human_at_the_hot_seat_takes_back_their_own_last_decision(game):
    from haunted_kit.server import undo_allowed

    c, t = hot_seat_table(game, lambda t: t.state.current_player() == t.applied[-1][1]
                          and undo_allowed(t, t.applied[-1][1]))
    if t is None:
        pytest.skip(f"{game}: no decision a player can take back while still at the hot seat in 300 random decisions")
    conn = hot_seat(c, t)
    me, n = t.state.current_player(), len(t.applied)
    earlier = t.position(n - 1).observation(None)
    view = c.build_view(t, -1, "hotseat")
    assert (view["undo"], view["undo_seat"]) == (True, me)
    run(lambda: c.undo(conn, {"type": "undo", "seq": t.seq, "seat": me}))
    assert len(t.applied) == n - 1 and t.state.observation(None) == earlier
    assert c.announcements[t.id]["text"] == f"P{me + 1} took back decision {n}; the game is back at decision {n - 1}."
