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
