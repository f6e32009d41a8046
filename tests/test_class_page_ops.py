"""The table server's operations behind the play pages, for every game of the kit:
a seat handed to a bot (no choices, clicks refused, a seat given back during the
bot's wait keeps its move), own-move undo under Board Game Arena's policy (a test per
case), the teacher's rollback list (numbered as the seats count decisions), rollback
and roll forward on the append-only record, each announced to every seat in the same
words; the QR image; what Haunted Lands' pages name and say (cells as on the board,
quest texts, a log in sentences). The pages themselves: tests/browser/test_class_page.py."""

from __future__ import annotations

import asyncio
import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from fresh_loop import run_in_fresh_loop
from haunted_kit import games
from haunted_kit.bots import default_agent, seat_bot
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.classroom import table_view
from haunted_kit.landmarks.actions import Acquire
from haunted_kit.render.style import cell_name, name_cells
from haunted_kit.server import PUBLIC, Classroom, Connection, decision_text, qr_svg, undo_allowed
from haunted_kit.store import GameStore

GAMES = games.game_names()
REFUSED_UNDO = ("You can take back your last decision only until another player moves, a hidden card is shown or "
                "chance decides.")


class FakeSocket:
    def __init__(self):
        self.sent = []

    def write_message(self, text):
        self.sent.append(json.loads(text))


def run(fn):
    async def go():
        return fn()

    return run_in_fresh_loop(go)


def classroom(game: str, players: int = 3, seed: int = 5):
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=players, seed=seed)
    return Classroom(store, bot_delay=0), t


def page(c: Classroom, t, seat: int, role: str = "seat") -> Connection:
    conn = Connection(FakeSocket(), t.id, seat, role)
    c.connections.add(conn)
    return conn


class GameOver(AssertionError):
    """The seeded game ended before the decision :func:`play` looks for."""


def undoable(t):
    """Play to the first decision its seat may take back (:func:`undo_allowed`); a game in
    which none may be (e.g. every decision plays a hidden card, so a determinisation cannot
    replay it) has nothing to take back and is skipped, naming why."""
    try:
        return play(t, lambda t, p, a, chance: undo_allowed(t, p))
    except GameOver:
        pytest.skip(f"no decision of {t.game} seed 5 may be taken back (undo_allowed is false for each)")


def play(t, until, seed: int = 5, limit: int = 400):
    """Greedy decisions until ``until(t, seat, action, chance)`` (after each) is true; returns that decision."""
    bots = [seat_bot(default_agent(t.game), t.game, seed, p) for p in range(len(t.seats))]
    for _ in range(limit):
        if t.state.is_terminal():
            raise GameOver("the game ended with no such decision")
        p = t.state.current_player()
        a = bots[p].act(t.state.copy())
        before = len(t.state.history())
        t.decide(p, a)
        chance = any(e.chance for e in t.state.history()[before:])
        if until(t, p, a, chance):
            return p, a
    raise AssertionError("no such decision in the game")


# ------------------------------------------------------------------ a seat handed to a bot
@pytest.mark.parametrize("game", GAMES)
def test_a_seat_handed_to_a_bot_gets_no_choices_and_its_clicks_are_refused(game):
    c, t = classroom(game)
    mover = t.state.current_player()
    c.store.set_agent(t.id, mover, default_agent(t.game))
    conn = page(c, t, mover)
    run(lambda: c.act(conn, {"type": "act", "seq": t.seq, "i": 0}))
    assert conn.socket.sent[-1] == {"type": "refused",
                                    "text": "A bot plays this seat now; ask the teacher to give it back."}
    assert t.seq == 0 and t.applied == []
    if games.game_module(game, "classroom") is not None:
        v = c.message_for(conn)
        assert v["actions"] == [] and v["bot"] is True and v["turn"] is False and v["undo"] is False


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_given_back_during_the_bots_wait_keeps_its_move(game):
    c, t = classroom(game)
    c.bot_delay = 0.3
    mover = t.state.current_player()
    c.store.set_agent(t.id, mover, default_agent(t.game))

    async def go():
        c.schedule_bots(t.id)
        await asyncio.sleep(0.05)            # the bot waits its delay...
        c.store.set_agent(t.id, mover, None)  # ...and the teacher gives the seat back
        await asyncio.sleep(0.6)

    run_in_fresh_loop(go)
    assert t.seq == 0 and t.state.current_player() == mover


# ------------------------------------------------------------------ own-move undo (BGA's policy)
@pytest.mark.parametrize("game", GAMES)
def test_own_move_undo_is_allowed_before_anyone_else_moves_and_announced_to_every_seat(game):
    c, t = classroom(game)
    pages = [page(c, t, p) for p in range(3)]
    seat, _ = undoable(t)
    n = len(t.applied)
    before = t.position(n - 1)
    seq = t.seq
    assert [undo_allowed(t, q) for q in range(3)] == [q == seat for q in range(3)]
    if games.game_module(game, "classroom") is not None:   # the seat's page offers it, the others' do not
        assert [c.message_for(pages[q])["undo"] for q in range(3)] == [q == seat for q in range(3)]
    run(lambda: c.undo(pages[seat], {"type": "undo", "seq": seq}))
    assert len(t.applied) == n - 1 and t.seq == seq + 1        # a rollback row: the record only grows
    assert t.state.observation(None) == before.observation(None)
    text = f"P{seat + 1} took back decision {n}; the game is back at decision {n - 1}."   # not what: it may be hidden
    for q in range(3):   # the same words to every seat
        assert pages[q].socket.sent[-1].get("announce", {"text": text})["text"] == text
        assert c.announcements[t.id] == {"id": f"{t.id}-{t.seq}", "text": text}
    # a stale page's undo (it showed an older position) is refused
    run(lambda: c.undo(pages[seat], {"type": "undo", "seq": seq}))
    assert pages[seat].socket.sent[-1]["text"].startswith("The table moved on since your page showed it")


@pytest.mark.parametrize("game", GAMES)
def test_own_move_undo_is_refused_once_another_player_moved(game):
    c, t = classroom(game)
    pages = [page(c, t, p) for p in range(3)]
    could_undo = {}   # decision number -> its seat could take it back right after it

    def until(t, p, a, chance):
        n = len(t.applied)
        could_undo[n] = undo_allowed(t, p)
        return n >= 2 and t.applied[-2][1] != p and could_undo[n - 1]

    try:
        play(t, until)
    except GameOver:
        assert not any(could_undo.values())  # only a game in which no decision may be taken back ends here
        pytest.skip(f"no decision of {game} seed 5 may be taken back (undo_allowed is false for each)")
    earlier = t.applied[-2][1]   # could take back its decision, until the next player moved
    assert not undo_allowed(t, earlier)
    n = len(t.applied)
    run(lambda: c.undo(pages[earlier], {"type": "undo", "seq": t.seq}))
    assert pages[earlier].socket.sent[-1] == {"type": "refused", "text": REFUSED_UNDO}
    assert len(t.applied) == n


@pytest.mark.parametrize("game", ["haunted", "estate"])
def test_own_move_undo_is_refused_after_a_chance_outcome(game):
    c, t = classroom(game)
    seat, _ = play(t, lambda t, p, a, chance: chance)   # the decision drew a chance outcome
    conn = page(c, t, seat)
    assert not undo_allowed(t, seat)
    n = len(t.applied)
    run(lambda: c.undo(conn, {"type": "undo", "seq": t.seq}))
    assert conn.socket.sent[-1] == {"type": "refused", "text": REFUSED_UNDO} and len(t.applied) == n


def test_own_move_undo_is_refused_when_the_move_showed_hidden_cards():
    """Landmarks: acquiring a landmark discards named cards from the hidden hand (Landmarks
    rule text, "Acquiring a Landmark"): the others learn them, no chance involved."""
    c, t = classroom("landmarks")
    seat, action = play(t, lambda t, p, a, chance: isinstance(a, Acquire) and a.discards and not chance)
    conn = page(c, t, seat)
    assert not undo_allowed(t, seat)
    run(lambda: c.undo(conn, {"type": "undo", "seq": t.seq}))
    assert conn.socket.sent[-1] == {"type": "refused", "text": REFUSED_UNDO}


# ------------------------------------------------------------------ the teacher's rollback
@pytest.mark.parametrize("game", GAMES)
def test_rollback_from_the_list_is_announced_and_rolled_forward_again(game):
    c, t = classroom(game)
    pages = [page(c, t, p) for p in range(3)]
    play(t, lambda t, p, a, chance: len(t.applied) == 3)   # Landmarks' shortest games have three decisions
    at3 = t.state.observation(None)
    listed = c.teacher_message()["tables"][0]["decisions_list"]
    assert [d["n"] for d in listed] == [1, 2, 3]
    assert [(d["seat"], d["text"]) for d in listed] == [(p, decision_text(t, p, a)) for _s, p, a in t.applied]
    assert not any(d["undone"] for d in listed)

    def op(**msg):
        return run(lambda: c.teacher_op({"op": "rollback", "table": t.id, **msg}))

    for bad in ({}, {"to": ""}, {"to": None}, {"to": 4}, {"to": -1}, {"to": 2.5}):   # an empty box never rolls back
        assert op(**bad)["error"].startswith(f"choose a decision from the list (0 to 3) to roll table {t.id} back to, got ")
    assert op(to=3) == {"error": f"table {t.id} is at decision 3 already"}
    assert t.seq == 3
    text = "The teacher took the game back to decision 1: decisions 2 to 3 are set aside (the teacher can bring them back)."
    assert op(to=1) == {"ok": f"Table {t.id}: {text}"}
    assert len(t.applied) == 1 and t.seq == 4
    assert c.announcements[t.id] == {"id": f"{t.id}-4", "text": text}
    if games.game_module(game, "classroom") is not None:   # every seat's page got it in the same words
        assert [pages[q].socket.sent[-1]["announce"]["text"] for q in range(3)] == [text] * 3
    listed = c.teacher_message()["tables"][0]["decisions_list"]
    assert [(d["n"], d["undone"]) for d in listed] == [(1, False), (2, True), (3, True)]
    forward = "The teacher brought the game forward again to decision 3 (decisions 2 to 3 are back)."
    assert op(to=3) == {"ok": f"Table {t.id}: {forward}"}
    assert len(t.applied) == 3 and t.seq == 6     # 3 decisions, a rollback row, 2 decisions again
    assert t.state.observation(None) == at3
    assert c.announcements[t.id]["text"] == forward
    # reopened from the store: the same position (the record holds every row)
    assert c.store.table(t.id).state.observation(None) == at3


# ------------------------------------------------------------------ QR
def test_the_qr_image_is_a_standalone_svg_document():
    svg = qr_svg("http://127.0.0.1:8870/s/ABC123")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"      # its namespace: an <img> shows it
    assert int(root.get("width")) > 50


# ------------------------------------------------------------------ what Haunted Lands' pages say
def haunted_midgame():
    c, t = classroom("haunted", players=3, seed=2)
    play(t, lambda t, p, a, chance: len(t.applied) >= 60 and t.state.phase == "turns"
         and any(isinstance(x, A.Explore) for x in t.state.legal_actions()))
    return c, t


def test_buttons_and_log_name_cells_as_the_board_writes_them():
    _c, t = haunted_midgame()
    v = table_view(t.state, t.state.current_player(), 30.0)
    explores = [a for a in v["actions"] if a["label"].startswith("explore to")]
    assert explores
    for a in explores:
        name = cell_name(a["cell"])
        assert a["label"] == f"explore to cell {name}"
        assert re.search(rf">[A-Z]+ {re.escape(name)}<", v["board"]), name   # written in that cell
    assert "(" not in "".join(a["label"] for a in explores)
    text = html.unescape(re.sub("<[^>]+>", " ", v["log"]))
    assert "#" not in text and "_" not in text and "(kit:" not in text
    assert re.search(r"Season \d, round \d, \w+", text)
    assert name_cells("P1 explores to suburb (1, -1) on Kalena") == "P1 explores to suburb cell 1,-1 on Kalena"


def test_quest_choices_name_the_quest_texts():
    c, t = classroom("haunted", players=3, seed=2)
    play(t, lambda t, p, a, chance: any(isinstance(x, A.ChooseQuest) for x in t.state.legal_actions()))
    s = t.state
    v = table_view(s, s.current_player(), 30.0)
    quests = s.config.box.quests
    assert [a["label"] for a in v["actions"]] == [f"choose quest {x.quest}: {quests[x.quest].text}"
                                                  for x in s.legal_actions()]


def test_show_my_quests_holds_for_one_mover_only():
    c, t = classroom("haunted", players=3, seed=2)
    hot = page(c, t, PUBLIC, role="hotseat")
    mover = t.state.current_player()
    hot.revealed_for = mover
    assert c.message_for(hot)["revealed"] is True
    play(t, lambda t, p, a, chance: t.state.current_player() != mover)
    assert c.message_for(hot)["revealed"] is False and hot.revealed_for is None
    play(t, lambda t, p, a, chance: t.state.current_player() == mover)   # the same player's next turn: asked again
    assert c.message_for(hot)["revealed"] is False


def test_the_rollback_list_reaches_every_part_of_a_long_game():
    """The teacher's list: the last 30 decisions, and every tenth before them (decision
    10, 20, ...), each numbered as the seats count decisions and named in words."""
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=60)
    t = store.create_table(players=4, seed=3)
    bots = {p: seat_bot("random", t.game, 3, p) for p in range(4)}
    while len(t.applied) < 45:
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    listed = c.decisions_list(t)
    assert [d["n"] for d in listed] == [10] + list(range(16, 46))
    tenth = t.applied[9]
    assert listed[0] == {"n": 10, "seat": tenth[1], "text": decision_text(t, tenth[1], tenth[2]), "undone": False}
    run(lambda: c.teacher_op({"op": "rollback", "table": t.id, "to": 10}))  # back to decision 10: the rest set aside
    listed = c.decisions_list(t)
    assert [d["n"] for d in listed] == [10] + list(range(16, 46))   # the line still runs to 45, to come back to
    assert [d["undone"] for d in listed] == [False] + [True] * 30
