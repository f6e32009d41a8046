"""A tutorial class on the table server (``haunted-kit server --tutorial``), below the page:
each seat's lesson steps read, skipped and shown again, the questions its teach points name
answered with the notebook's stepped feedback, its progress kept in the store across a
restart, a damaged record set aside, the teacher's line per seat, and no question made on a
seed a game in play was dealt on. Every game of the registry with a question is played; the
page itself is tests/browser/test_tutorial_seat_page.py's."""

from __future__ import annotations

import json

import pytest

from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.hexgrid import cell_name
from haunted_kit.server import Classroom, Connection
from haunted_kit.store import GameStore
from haunted_kit.exercises import NONE_OF_THEM
from haunted_kit.tutorial import (QUESTION_MARGIN, SeatTutorial, Tutorial, make_question, question_seed,
                                  teach_points)

QUESTIONED = [g for g in game_names() if any(p.question for p in teach_points(g).values())]
#: decisions a table is played for before some seat is asked a question (a loop bound, not a result)
BOUND = 300


class Sock:
    def __init__(self):
        self.sent = []

    def write_message(self, text):
        self.sent.append(json.loads(text))

    def tutor(self) -> dict:
        return [m for m in self.sent if m["type"] == "tutor"][-1]

    def refused(self) -> list:
        return [m["text"] for m in self.sent if m["type"] == "refused"]


def open_class(store, table_id):
    """A tutorial classroom with one page open on each seat of ``table_id``."""
    c = Classroom(store, bot_delay=0, tutorial=True)
    t = c.table(table_id)
    pages = {s.seat: Connection(Sock(), t.id, s.seat, "seat") for s in t.seats}
    for conn in pages.values():
        c.connections.add(conn)
        c.update(conn)
    return c, pages


def play_to_a_question(c, pages, table_id):
    """Every seat reads each step as it comes and plays its first choice, until a seat is
    asked a question; returns that seat."""
    for _ in range(BOUND):
        t = c.table(table_id)
        p = t.state.current_player()
        for seat, conn in pages.items():
            for _ in range(20):  # read on: each step read is one request
                msg = conn.socket.tutor()
                if msg["question"] is not None:
                    return seat
                if msg["current"] is None:
                    break
                c.tutor_op(conn, {"op": "next"})
        t.decide(p, t.state.legal_actions()[0], seen=t.seq)
        c.broadcast(t.id)
    raise AssertionError(f"no question asked in {BOUND} decisions")


def as_page_sends(ex, answer):
    """``answer`` (the exercise's form) as the seat page sends it."""
    if ex.kind == "pick":
        return sorted(answer) or [NONE_OF_THEM]
    if ex.kind == "cells":
        return "; ".join(cell_name(x) for x in sorted(answer))
    return str(answer) if ex.kind == "number" else answer


def a_wrong_answer(ex):
    """A readable answer that is not the exercise's (in the exercise's form)."""
    a = ex.answer
    if ex.kind == "number":
        low, high = ex.bounds
        return a + 1 if high is None or a + 1 <= high else a - 1
    if ex.kind == "choose":
        return next(o for o in ex.options if o != a)
    if ex.kind == "pick":
        return frozenset(sorted(a)[1:]) if len(a) > 1 else frozenset({next(o for o in ex.options if o not in a
                                                                             and o != NONE_OF_THEM)})
    return frozenset(sorted(a)[1:]) if len(a) > 1 else frozenset(a | {(99, 99)})


@pytest.mark.parametrize("game", QUESTIONED)
def test_a_question_answered_wrong_twice_then_right_gets_the_notebooks_stepped_feedback(game, tmp_path):
    g = get_game(game)
    store = GameStore(tmp_path / "class.db")
    t = store.create_table(game=game, players=default_players(g), seed=1)
    c, pages = open_class(store, t.id)
    seat = play_to_a_question(c, pages, t.id)
    page = pages[seat].socket
    q = page.tutor()["question"]
    q_seq = c.table(t.id).seq
    book = c.tutor_of(t, seat)
    ex = make_question(g, q["key"], q["seed"])
    assert (ex.question, ex.kind, list(ex.options)) == (q["question"], q["kind"], q["options"])
    assert q["key"] in {p.question for p in teach_points(game).values()} and q["tries"] == 0
    wrong = a_wrong_answer(ex)
    # the table never waits for the question: the seat plays on, and answers later
    assert t.state.current_player() == seat
    t.decide(seat, t.state.legal_actions()[0], seen=t.seq)
    c.broadcast(t.id)
    assert page.tutor()["question"]["key"] == q["key"] and c.table(t.id).seq == q_seq + 1
    # an answer that cannot be read: said where the verdict goes, no try counted
    c.tutor_op(pages[seat], {"op": "answer", "answer": [] if ex.kind == "pick" else ""})
    assert page.tutor()["feedback"]["stage"] == "unread" and page.tutor()["question"]["tries"] == 0
    c.tutor_op(pages[seat], {"op": "reveal"})  # no answer before a first try
    assert page.refused()[-1] == "Have a try first; then the answer can be shown."
    for tries, stage in ((1, "nudge"), (2, "rule")):
        c.tutor_op(pages[seat], {"op": "answer", "answer": as_page_sends(ex, wrong)})
        fb = ex.check(wrong, tries - 1)
        assert page.tutor()["feedback"] == {"question": ex.key, "stage": stage, "text": fb.text}
        assert fb.stage == stage and page.tutor()["question"]["tries"] == tries
    c.tutor_op(pages[seat], {"op": "answer", "answer": as_page_sends(ex, ex.answer)})
    msg = page.tutor()
    assert msg["question"] is None and msg["feedback"] == {"question": ex.key, "stage": "right", "text": ex.right_text()}
    assert book.answers == {ex.key: "right"} and msg["summary"]["right"] == 1 and msg["summary"]["asked"] == 1
    # the teacher page's line for the seat: steps read, questions right of asked
    line = next(s["tutorial"] for tt in c.teacher_message()["tables"] for s in tt["seats"] if s["seat"] == seat)
    n = msg["summary"]
    assert line == (f"{n['read']} of {n['met']} steps read" + (f", {n['skipped']} skipped" if n["skipped"] else "")
                    + "; questions 1 right of 1 asked")
    store.close()


@pytest.mark.parametrize("game", game_names())
def test_skip_and_show_again_are_kept_across_a_restart(game, tmp_path):
    g = get_game(game)
    path = tmp_path / "class.db"
    store = GameStore(path)
    t = store.create_table(game=game, players=default_players(g), seed=1)
    mover = t.state.current_player()
    c, pages = open_class(store, t.id)
    page, conn = pages[mover].socket, pages[mover]
    met = [m["key"] for m in page.tutor()["met"]]
    assert met[0] == "goal" and len(met) >= 2
    c.tutor_op(conn, {"op": "next"})         # the goal read
    c.tutor_op(conn, {"op": "skip"})         # the first kind skipped
    now = page.tutor()["current"]
    assert (now["key"] if now else None) == (met[2] if len(met) > 2 else None)  # the next one, or nothing left
    c.tutor_op(conn, {"op": "replay", "key": met[1]})   # and shown again: it is the step to read now
    assert page.tutor()["current"]["key"] == met[1]
    c.tutor_op(conn, {"op": "replay", "key": "kind:nothing"})
    assert page.refused()[-1].startswith("no step 'kind:nothing' has been met in this tutorial (met: goal, ")
    before = c.tutor_of(t, mover).book_state()
    assert [(m["key"], m["read"], m["skipped"]) for m in page.tutor()["met"][:2]] == [("goal", True, False),
                                                                                        (met[1], False, True)]
    store.close()
    # a restart: a new classroom on the same store finds the seat where it was
    store = GameStore(path)
    c2, pages2 = open_class(store, t.id)
    assert c2.tutor_of(c2.table(t.id), mover).book_state() == before
    msg = pages2[mover].socket.tutor()
    assert msg["current"]["key"] == met[1] and msg["summary"]["read"] == 1 and msg["summary"]["skipped"] == 1
    store.close()


BAD_RECORDS = {
    "not JSON": ("{steps", "the tutorial progress"),
    "another version": (json.dumps({"seat_tutorial": 9}), "not a seat's tutorial progress (version 1)"),
    "a verdict unknown": (None, "answers must map questions to one of ('right', 'wrong', 'skipped')"),
    "a step never met": (None, "steps ['ghost'] are read, skipped or queued but were never met"),
    "a step of the wrong kind": (None, "key must be text, got int"),
}


@pytest.mark.parametrize("damage", BAD_RECORDS)
def test_a_damaged_progress_record_is_set_aside_with_its_reason_and_the_table_plays_on(damage, tmp_path):
    game = game_names()[0]
    g = get_game(game)
    path = tmp_path / "class.db"
    store = GameStore(path)
    t = store.create_table(game=game, players=default_players(g), seed=1)
    mover = t.state.current_player()
    good = SeatTutorial(g, mover, 1, [1])
    good.follow(t.state)
    record, reason = BAD_RECORDS[damage]
    if record is None:
        data = good.progress()
        if damage == "a verdict unknown":
            data["answers"] = {"x": "maybe"}
        elif damage == "a step never met":
            data["read"] = ["ghost"]
        else:
            data["steps"][0]["key"] = 3
        record = json.dumps(data)
    with store._transaction():
        store.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"tutor:{t.id}:{mover}", record))
    c, pages = open_class(store, t.id)
    msg = pages[mover].socket.tutor()
    assert reason in msg["notice"] and "kept aside for the teacher" in msg["notice"]
    assert msg["current"]["key"] == "goal" and msg["summary"]["read"] == 0   # afresh
    kept = json.loads(store.db.execute("SELECT value FROM meta WHERE key = ?", (f"tutor-aside:{t.id}:{mover}:1",)).fetchone()[0])
    assert kept["record"] == record and reason in kept["reason"]
    line = next(s["tutorial"] for tt in c.teacher_message()["tables"] for s in tt["seats"] if s["seat"] == mover)
    assert "progress set aside: " in line and reason in line
    t.decide(mover, t.state.legal_actions()[0], seen=t.seq)  # the table plays on
    c.broadcast(t.id)
    assert c.table(t.id).seq == 1
    c.tutor_op(pages[mover], {"op": "next"})  # said once: gone at the seat's next request
    assert pages[mover].socket.tutor()["notice"] == ""
    store.close()


@pytest.mark.parametrize("game", QUESTIONED)
def test_no_question_is_made_on_a_seed_a_game_in_play_was_dealt_on(game):
    """An exercise's position is a game of its own seed: made on a table's seed (or one its
    builder derives from it), it could show that table's hidden cards. The class's tables are
    dealt on 1, on the seat's first question seed and just past its margin: the question's
    seed keeps away from all of them, and so does the notebook tutorial's from its game."""
    g = get_game(game)
    first = question_seed(1)
    store = GameStore(":memory:")
    seeds = [1, first, first + QUESTION_MARGIN + 1]
    tables = [store.create_table(game=game, players=default_players(g), seed=s) for s in seeds]
    c = Classroom(store, bot_delay=0, tutorial=True)
    key = next(p.question for p in teach_points(game).values() if p.question)
    book = c.tutor_of(tables[0], 0)
    book.asking = key
    ex = book.question()
    assert all(abs(ex.seed - s) > QUESTION_MARGIN for s in seeds), (ex.seed, seeds)
    assert book.question() is ex and book.seeds == {key: ex.seed}  # the same question each time it is shown
    t = Tutorial(game, seed=1, progress=False)
    assert abs(t.question_seed - 1) > QUESTION_MARGIN
    assert make_question(g, key, t.question_seed, {1}).seed >= t.question_seed
    store.close()


def test_a_seat_a_bot_plays_has_no_tutorial():
    game = game_names()[0]
    g = get_game(game)
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=default_players(g), seed=1, bots={1: "random"})
    c, pages = open_class(store, t.id)
    assert pages[1].socket.tutor() == {"type": "tutor", "table": t.id, "on": False}
    c.tutor_op(pages[1], {"op": "next"})
    assert pages[1].socket.refused() == ["This seat has no tutorial now."]
    line = {s["seat"]: s["tutorial"] for tt in c.teacher_message()["tables"] for s in tt["seats"]}
    assert line[1] == "" and line[0].endswith("; questions 0 right of 0 asked")
    store.close()


def test_a_rematch_goes_on_with_each_seats_tutorial():
    """A rematch has the same students on the same seats: what each seat read, skipped and
    answered goes on at the new table (the old one keeps its own record)."""
    game = game_names()[0]
    g = get_game(game)
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=default_players(g), seed=1)
    mover = t.state.current_player()
    c, pages = open_class(store, t.id)
    c.tutor_op(pages[mover], {"op": "next"})
    c.tutor_op(pages[mover], {"op": "skip"})
    before = c.tutor_of(t, mover).book_state()
    new = store.rematch(t.id)
    assert store.tutor_progress(new.id, mover) == store.tutor_progress(t.id, mover) == c.tutor_of(t, mover).progress()
    c2 = Classroom(store, bot_delay=0, tutorial=True)
    book = c2.tutor_of(new, mover)
    assert (book.read, book.skipped) == (set(before["read"]), set(before["skipped"])) and book.read and book.skipped
    assert [store.tutor_progress(new.id, s.seat) is None for s in new.seats] == [s.seat != mover for s in new.seats]
    store.close()


def test_an_answer_is_read_in_the_form_its_kind_takes():
    """What a seat page sends, as the exercise's check takes it: cells typed as the boards
    write them (with or without brackets), ticked options as a set; a wrong shape refused."""
    from types import SimpleNamespace

    from haunted_kit.exercises import ExerciseError
    from haunted_kit.tutorial import read_response

    cells, pick = SimpleNamespace(kind="cells"), SimpleNamespace(kind="pick")
    assert read_response(cells, "2,-1; 0,3") == {(2, -1), (0, 3)}
    assert read_response(cells, "(2, -1) and (0,3)") == {(2, -1), (0, 3)}
    assert read_response(cells, [[1, -2]]) == {(1, -2)}
    with pytest.raises(ExerciseError, match="write each cell as the board names it, such as 2,-1; 0,3 \\(not 'north'\\)"):
        read_response(cells, "north")
    assert read_response(pick, ["Gate", "Silo"]) == {"Gate", "Silo"}
    with pytest.raises(ExerciseError, match="Tick the options that apply"):
        read_response(pick, "Gate")
    with pytest.raises(ExerciseError, match="enter a whole number"):
        read_response(SimpleNamespace(kind="number"), [3])
    assert read_response(SimpleNamespace(kind="number"), "7") == "7"


def test_a_question_is_made_in_the_worker_pool_while_the_class_is_served():
    """Under the server's event loop a question's position is searched for in the worker pool
    (up to about a second for some seeds, which would stall every table): the panel says it is
    being prepared, answers wait for it, and it comes to the seat's pages when it is made, on
    the seed the worker settled (kept in the seat's progress)."""
    import asyncio
    import concurrent.futures

    game = QUESTIONED[0]
    g = get_game(game)
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=default_players(g), seed=1)
    c, pages = open_class(store, t.id)
    seat = play_to_a_question(c, pages, t.id)  # without a loop: made at once (a script)
    key = c.tutor_of(t, seat).asking
    book = c.tutor_of(t, seat)
    book.asking, book.seeds = "", {}           # the question not asked yet: asked again under the loop
    book.answers.pop(key, None)
    book.queue.insert(0, next(k for k, st in book.steps.items() if st.question == key))

    async def lesson():
        c.loop = asyncio.get_running_loop()  # as serve() marks the loop serving the class
        c.tutor_op(pages[seat], {"op": "next"})
        msg = pages[seat].socket.tutor()
        assert (msg["question"], msg["preparing"]) == (None, True)
        c.tutor_op(pages[seat], {"op": "answer", "answer": "1"})
        assert pages[seat].socket.refused()[-1] == "The question is still being prepared; it shows in a moment."
        await asyncio.gather(*c._question_jobs.values())
        return pages[seat].socket.tutor()

    try:  # the loop in a thread of its own: asyncio.run never meets a loop another test left running here
        with concurrent.futures.ThreadPoolExecutor(1) as one:
            msg = one.submit(asyncio.run, lesson()).result(timeout=300)
    finally:
        c.close(wait=True)
    ex = make_question(g, key, book.question_seed, book.taken)
    assert msg["preparing"] is False and msg["question"]["key"] == key and msg["question"]["seed"] == ex.seed
    assert store.tutor_progress(t.id, seat)["seeds"] == {key: ex.seed}
    store.close()
