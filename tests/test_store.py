"""The classroom's game store: tables, seats and decisions in SQLite (WAL); restarts and
crashes resume every table exactly; concurrent decisions are applied once; the
teacher's rollback is recorded; a finished game exports as a normal save."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import haunted_kit as hk
from haunted_kit.bots import seat_bot
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.protocol import IllegalAction
from haunted_kit.store import CODE_ALPHABET, GameStore, StoreError

REPO = Path(__file__).resolve().parents[1]


def rows(path, table_id=1):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT seq, kind, player, target FROM decisions WHERE table_id = ? ORDER BY seq",
                          (table_id,)).fetchall()


def play(table, n=None):
    """Greedy decisions through the store, ``n`` of them or to the end."""
    bots = {}
    k = 0
    while not table.state.is_terminal() and (n is None or k < n):
        p = table.state.current_player()
        bot = bots.setdefault(p, GreedyAgent(100 + p))
        table.decide(p, bot.act(table.state.copy()))
        k += 1


def test_a_new_store_is_sqlite_in_wal_mode_with_a_code_per_seat(tmp_path):
    db = tmp_path / "class" / "store.db"
    with GameStore(db) as store:
        assert store.journal_mode == "wal"
        t = store.create_table(players=4, mode="citizen", seed=3, bots={1: "greedy", 3: "random"})
        u = store.create_table(players=2, seed=4)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert (t.id, t.name, u.name) == (1, "Table 1", "Table 2")
    codes = [s.code for s in t.seats + u.seats]
    assert len(set(codes)) == 6 and all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert [s.agent for s in t.seats] == [None, "greedy", None, "random"]
    with GameStore(db) as again:
        assert again.seat_by_code(t.seats[2].code).seat == 2 and again.seat_by_code("NOSUCH") is None
        assert again.table(1).config["mode"] == "citizen" and again.table(1).state.to_json() == t.state.to_json()


def test_bad_tables_are_refused_before_anything_is_stored(tmp_path):
    with GameStore(tmp_path / "s.db") as store:
        with pytest.raises(hk.ConfigError, match="players must be between 2 and 4"):
            store.create_table(players=5)
        with pytest.raises(ValueError, match="bot seat 4 is not a player index"):
            store.create_table(players=4, bots=[4])
        with pytest.raises(ValueError, match="unknown agent 'clever'"):
            store.create_table(players=2, bots={1: "clever"})
        assert store.table_ids() == []


def test_every_decision_is_stored_and_a_restart_resumes_exactly(tmp_path):
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        t = store.create_table(players=3, mode="wanderer", seed=9)
        play(t, 40)
        before = t.state.to_json()
    assert len(rows(db)) == 40
    with GameStore(db) as store:   # a restart: rebuilt from the record
        t = store.table(1)
        assert t.state.to_json() == before     # same position, same log, same generator
        assert t.seq == 40
        play(t)                                 # and play continues to the end
        assert t.state.is_terminal()
        final = t.state.to_json()
        save = t.export(tmp_path / "game.json")
    assert hk.State.load(save).to_json() == final
    from haunted_kit.cli import main

    assert main(["replay", str(save)]) == 0


def test_two_seats_at_once_one_is_applied_the_other_gets_the_reason(tmp_path):
    db = tmp_path / "s.db"
    first, second = GameStore(db), GameStore(db)   # two server processes on one file
    t1 = first.create_table(players=2, seed=4)
    t2 = second.table(1)
    while t1.state.phase != "turns":               # the spread, by the seats to move
        p = t1.state.current_player()
        t1.decide(p, t1.state.legal_actions()[0])
    mover = t1.state.current_player()
    n = len(rows(db))
    # both pages show the mover's turn; both send "end turn" for that seat
    assert t1.decide(mover, A.EndTurn()).current_player() != mover
    with pytest.raises(IllegalAction) as refused:
        t2.decide(mover, A.EndTurn())               # the other process catches up, then checks
    other = 1 - mover
    assert str(refused.value.refusal.text) == f"it is P{other + 1}'s decision, not P{mover + 1}'s"
    assert len(rows(db)) == n + 1 and t2.state.to_json() == t1.state.to_json()
    # a page that shows an older position is refused even when the action would be legal now
    with pytest.raises(IllegalAction, match=rf"the table moved on since your page showed it \(decision {n + 1} now, "
                                            rf"you saw {n}\)"):
        t2.decide(other, A.EndTurn(), seen=n)
    # a seat that is not to move, a malformed action: refused, nothing stored
    with pytest.raises(IllegalAction, match=f"not P{mover + 1}'s"):
        t2.decide(mover, A.EndTurn())
    with pytest.raises(IllegalAction, match="unknown action type 'fly'"):
        t2.decide(other, {"type": "fly"})
    illegal = A.Explore((-3, 3))
    why = t2.state.why_not(illegal)
    with pytest.raises(IllegalAction) as refused:
        t2.decide(other, illegal)
    assert refused.value.refusal == why
    assert len(rows(db)) == n + 1
    first.close()
    second.close()


def test_the_teachers_rollback_is_recorded_and_never_rewrites_the_record(tmp_path):
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        t = store.create_table(players=2, seed=6)
        play(t, 12)
        at_five = hk.new_game(players=2, seed=6)
        for _, _, a in t.applied[:5]:
            at_five.apply_action(a)
        assert t.rollback(5).to_json() == at_five.to_json()
        assert [r[1] for r in rows(db)] == ["action"] * 12 + ["rollback"]
        assert rows(db)[-1] == (13, "rollback", None, 5)
        play(t, 3)                                  # play goes on from decision 5
        after = t.state.to_json()
        with pytest.raises(ValueError, match="from 0 to 8, got 9"):
            t.rollback(9)
    assert len(rows(db)) == 16
    with GameStore(db) as store:
        assert store.table(1).state.to_json() == after and len(store.table(1).applied) == 8


def test_a_file_that_is_no_store_and_a_record_that_does_not_replay_are_named(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="junk.db is not a haunted-kit game store"):
        GameStore(junk)
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        t = store.create_table(players=2, seed=4)
        play(t, 3)
    with sqlite3.connect(db) as raw:   # a decision edited by hand: an illegal exploration
        raw.execute("UPDATE decisions SET action = ? WHERE seq = 2",
                    (json.dumps(A.action_to_dict(A.Explore((-3, 3)))),))
    with GameStore(db) as store:
        with pytest.raises(StoreError, match="table 1: decision 2 does not replay"):
            store.table(1)


CRASHER = textwrap.dedent("""
    import sys
    from haunted_kit.haunted.agents import GreedyAgent
    from haunted_kit.store import GameStore
    store = GameStore(sys.argv[1])
    t = store.create_table(players=4, seed=2)
    bot = GreedyAgent(1)
    while not t.state.is_terminal():
        t.decide(t.state.current_player(), bot.act(t.state.copy()))
        print(t.seq, flush=True)     # shown only after the decision is committed
""")


def test_a_killed_process_loses_no_decision_it_showed(tmp_path):
    db = tmp_path / "s.db"
    proc = subprocess.Popen([sys.executable, "-c", CRASHER, str(db)], stdout=subprocess.PIPE, text=True,
                            cwd=REPO, env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    shown = 0
    try:
        for line in proc.stdout:                  # bounded: the game ends after a few hundred decisions
            shown = int(line)
            if shown >= 60:
                proc.send_signal(signal.SIGKILL)  # mid-game, no clean shutdown
                break
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stdout.close()
    assert shown >= 60
    with GameStore(db) as store:
        t = store.table(1)
        assert t.seq >= shown                     # every decision a page could have shown is there
        replay = hk.new_game(players=4, seed=2)
        for _, _, a in t.applied:
            replay.apply_action(a)
        assert t.state.to_json() == replay.to_json()
        play(t, 5)                                # and the table plays on
        assert t.seq >= shown + 5


@pytest.mark.parametrize("column, text, problem", [
    ("config", '{"players": 2, "players": 3, "seed": 4}', "table 1: its configuration is not valid JSON: "
                                                             "the key 'players' appears twice in one object"),
    ("action", '{"type": "EndTurn", "type": "EndTurn"}', "table 1: decision 1 is not valid JSON: "
                                                         "the key 'type' appears twice in one object"),
])
def test_a_store_row_with_a_repeated_json_key_is_a_store_error(tmp_path, column, text, problem):
    """A row read back from the store goes through the kit's one JSON reader: a key given
    twice (which json.loads would silently resolve) is named, and the file is left as it was."""
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        t = store.create_table(players=2, seed=4)
        play(t, 2)
    table, where = ("game_tables", "id = 1") if column == "config" else ("decisions", "seq = 1")
    with sqlite3.connect(db) as raw:
        raw.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (text,))
    before = db.read_bytes()
    with GameStore(db) as store, pytest.raises(StoreError) as err:
        store.table(1)
    assert str(err.value).startswith(problem), str(err.value)
    assert db.read_bytes() == before


# ============================================================================ what the store opens
def stored_game(db, game="haunted", decisions=4):
    """A store at ``db`` with one 2-player table of ``game`` and ``decisions`` decisions
    (a random bot's), checkpointed so the file alone holds it."""
    with GameStore(db) as store:
        t = store.create_table(game=game, players=2, seed=4)
        for _ in range(decisions):
            p = t.state.current_player()
            t.decide(p, seat_bot("random", game, 4, p).act(t.state.copy()))
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def damage(db, *sql):
    raw = sqlite3.connect(db)
    for statement in sql:
        raw.execute(statement)
    raw.commit()
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()


@pytest.mark.parametrize("sql, problem", [
    (["UPDATE meta SET value = 'abc' WHERE key = 'schema'"], "its schema version 'abc' is not a number"),
    (["UPDATE meta SET value = '7' WHERE key = 'schema'"],
     "written by a newer haunted-kit (store schema 7, this kit reads 2); left untouched"),
    (["UPDATE meta SET value = '0' WHERE key = 'schema'"], "store schema 0 is no schema this kit knows (it reads 1, 2)"),
    (["DELETE FROM meta WHERE key = 'schema'"], "it records no schema version"),
    (["DROP TABLE decisions"], "its table 'decisions' is missing"),
    (["ALTER TABLE decisions RENAME COLUMN at TO moment"],
     "its table 'decisions' was changed (columns table_id, seq, kind, player, action, target, moment; "
     "the schema has table_id, seq, kind, player, action, target, at)"),
    (["ALTER TABLE seats ADD COLUMN colour TEXT"], "its table 'seats' was changed"),
    (["CREATE TRIGGER no_more BEFORE INSERT ON decisions BEGIN SELECT RAISE(ABORT, 'no'); END"],
     "it holds what the kit never writes: trigger no_more"),
])
def test_a_damaged_store_is_refused_by_name_and_left_byte_for_byte(tmp_path, sql, problem):
    db = tmp_path / "s.db"
    stored_game(db)
    damage(db, *sql)
    before = db.read_bytes()
    with pytest.raises(StoreError) as err:
        GameStore(db)
    assert str(db) in str(err.value) and problem in str(err.value), str(err.value)
    assert db.read_bytes() == before


def test_another_programs_sqlite_file_is_refused_untouched_and_never_switched_to_wal(tmp_path):
    notes = tmp_path / "notes.db"
    with sqlite3.connect(notes) as raw:
        raw.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        raw.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    raw.close()
    before = notes.read_bytes()
    with pytest.raises(StoreError, match=r"notes.db is an SQLite database of another program \(tables: notes\), "
                                         r"not a haunted-kit game store; left untouched"):
        GameStore(notes)
    assert notes.read_bytes() == before
    with sqlite3.connect(notes) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert [r[0] for r in raw.execute("SELECT name FROM sqlite_master")] == ["notes"]
    raw.close()
    text = tmp_path / "text.db"
    text.write_text("SQLite is nice\n" * 40)
    with pytest.raises(StoreError, match="text.db is not a haunted-kit game store: it is not an SQLite database"):
        GameStore(text)
    assert text.read_text() == "SQLite is nice\n" * 40


@pytest.mark.parametrize("game", hk.games.game_names())
@pytest.mark.parametrize("sql, problem", [
    ("UPDATE decisions SET action = '{\"type\": \"Fly\"}' WHERE seq = 2", "table 1: decision 2 is not a {game} action"),
    ("INSERT INTO decisions VALUES (1, 3, 'rollback', NULL, NULL, -1, 'now')",
     "table 1: decision 3 rolls back to -1, but only 0 to 2 decisions are in effect there"),
    ("INSERT INTO decisions VALUES (1, 3, 'rollback', NULL, NULL, 9, 'now')",
     "table 1: decision 3 rolls back to 9, but only 0 to 2 decisions are in effect there"),
    ("DELETE FROM decisions WHERE seq = 1", "table 1: its record skips from decision 0 to 2; a decision is missing"),
    ("UPDATE decisions SET player = 7 WHERE seq = 2", "table 1: decision 2 names player 7, not a seat of the table"),
])
def test_a_row_that_does_not_fit_is_a_store_error_in_every_game(tmp_path, game, sql, problem):
    """Bad rows of every game's record: named (table, decision, what), never silently
    dropped decisions; the file is left as it was."""
    db = tmp_path / "s.db"
    stored_game(db, game, decisions=2)
    damage(db, sql)
    before = db.read_bytes()
    with GameStore(db) as store, pytest.raises(StoreError) as err:
        store.table(1)
    assert str(err.value).startswith(problem.format(game=game)), str(err.value)
    assert db.read_bytes() == before


def test_a_schema_edited_under_an_open_store_gives_a_store_error_and_stores_nothing(tmp_path):
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        t = store.create_table(players=2, seed=4)
        t.decide(t.state.current_player(), t.state.legal_actions()[0])
        damage(db, "ALTER TABLE decisions DROP COLUMN at")
        before = t.state.to_json()
        with pytest.raises(StoreError, match=r"s.db: the store refused a write \(.*\); nothing was stored"):
            t.decide(t.state.current_player(), t.state.legal_actions()[0])
        assert (t.seq, t.state.to_json()) == (1, before)


def test_two_processes_on_one_store_commit_a_bots_decision_once(tmp_path):
    """Two servers on one file both compute the bot's decision on the position they saw
    (``seen``): the first is committed, the second refused; a decision never applies twice."""
    db = tmp_path / "s.db"
    with GameStore(db) as one, GameStore(db) as two:
        t = one.create_table(players=2, seed=4, bots={0: "greedy", 1: "greedy"})
        u = two.table(t.id)
        seen, mover = u.seq, u.state.current_player()
        action = GreedyAgent(1).act(u.state.copy())
        t.decide(mover, action, seen=seen)
        with pytest.raises(IllegalAction, match="the table moved on since your page showed it "
                                                r"\(decision 1 now, you saw 0\)"):
            u.decide(mover, action, seen=seen)
        assert u.seq == t.seq == 1 and u.state.to_json() == t.state.to_json()
    assert rows(db) == [(1, "action", mover, None)]


def test_the_teacher_token_is_kept_in_the_store_and_renewed_on_request(tmp_path):
    db = tmp_path / "s.db"
    with GameStore(db) as store:
        token = store.teacher_token()
    assert oct(db.stat().st_mode & 0o777) == "0o600"   # the store keeps the token: its owner's only
    with GameStore(db) as store:
        assert store.teacher_token() == token and len(token) == 24
        fresh = store.teacher_token(new=True)
    with GameStore(db) as store:
        assert store.teacher_token() == fresh != token


def test_a_bots_search_budget_is_capped(tmp_path):
    with GameStore(tmp_path / "s.db") as store:
        with pytest.raises(ValueError, match="a bot searches at most 2,000 playouts per decision in the classroom "
                                             r"\(got 5,000\); more would keep its table waiting"):
            store.create_table(players=2, bots={1: "search[playouts=5000]"})
        with pytest.raises(ValueError, match=r"a bot thinks at most 10 seconds per decision in the classroom \(got 60\)"):
            store.create_table(players=2, bots={1: "search[seconds=60]"})
        with pytest.raises(ValueError, match=r"search setting: seconds must be a finite number more than 0 and at most 3,600, got inf"):
            store.create_table(players=2, bots={1: "search[seconds=inf]"})
        t = store.create_table(players=2, bots={1: "search[playouts=2000]"})
        with pytest.raises(ValueError, match="at most 2,000 playouts"):
            store.set_agent(t.id, 0, "search[playouts=2001]")
        assert [s.agent for s in store.table(t.id).seats] == [None, "search[playouts=2000]"]
