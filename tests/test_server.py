"""The classroom server's logic without a browser: what each viewer is sent, decisions
from pages, the shared (hot-seat) screen, teacher actions, Host names, CLI misuse.
(The served pages are tested in Chromium in tests/browser/test_class_server.py.)"""

from __future__ import annotations

import json

import pytest

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.cli import main
from haunted_kit.haunted.draw import html as H
from haunted_kit.server import Classroom, Connection, host_name, view_message
from haunted_kit.store import GameStore
from fresh_loop import run_in_fresh_loop  # noqa: E402  (a browser test may leave a loop running)


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
            assert [a["label"] for a in v["actions"]] == [a.describe() for a in s.legal_actions()]
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
                                                                  f"P{other + 1}'s (kit: whose turn it is)"}
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


def test_teacher_actions_and_their_errors():
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)

    def op(**msg):
        return run(lambda: c.teacher_op(msg))

    assert op(op="create", players=3, options={"mode": "citizen"}, seed=2, bots=[2, 3]) == {"ok": "Table 1 created."}
    assert [s.agent for s in store.table(1).seats] == [None, "greedy", "greedy"]
    assert op(op="create", players=7)["error"] == "Players (players) must be a whole number from 2 to 4, got 7."
    assert op(op="create", players=2, box="/no/such/box")["error"].startswith("/no/such/box, entry -: no such folder")
    assert op(op="seat", table=1, seat=0, agent="random") == {"ok": "P1 of table 1 is now a random bot."}
    assert op(op="seat", table=1, seat=0, agent="genius")["error"].startswith("unknown agent 'genius'")
    assert op(op="rollback", table=1, to=99)["error"].startswith("a rollback goes back to a decision from 0 to")
    assert op(op="dance")["error"] == "unknown teacher action 'dance'"
    assert store.table_ids() == [1]


@pytest.mark.parametrize("header, name", [("127.0.0.1:8870", "127.0.0.1"), ("LocalHost:80", "localhost"),
                                          ("[::1]:8870", "[::1]"), ("class.school.test", "class.school.test"),
                                          ("evil.example:8870", "evil.example")])
def test_host_name_of_a_host_header(header, name):
    assert host_name(header) == name


@pytest.mark.parametrize("argv, needle", [
    (["server", "--players", "3", "--bots", "4"], "bot seats must be between 1 and 3"),
    (["server", "--port", "70000"], "--port must be between 0 and 65535"),
    (["server", "--size", "5"], "--size must be between 12 and 80 pixels"),
    (["server", "--bot-delay", "-1"], "--bot-delay must be between 0 and 60 seconds"),
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
