"""The lesson around the game on the classroom server, for every registered game: names
(roster, the teacher's, a student's own), archive and removal, rematch with the same
seats, whom a table waits for and since when (an injected clock), the whole log, the
results screen and the class's CSV, the replay's steps and turning points, an older store,
a fresh start on the new-table form. Served in-process by tornado on 127.0.0.1: every
wait is bounded and ends on a message, never on a clock."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timezone
import sqlite3

import pytest
import tornado.httpclient
import tornado.websocket

from haunted_kit import lesson, server
from haunted_kit.bots import default_agent, make_bot
from haunted_kit.cli import main
from haunted_kit.games import game_names, get_game
from haunted_kit.protocol import results_by_score
from haunted_kit.server import PUBLIC, Classroom, Connection, open_classroom
from haunted_kit.store import MAX_NAME, MAX_ROSTER, SCHEMA_VERSION, GameStore, StoreError, clean_name
from haunted_kit.visibility import seen_events
from fresh_loop import run_in_fresh_loop
from test_server_links import Served, serve, snapshot
from test_server_store_faults import longest


def run(fn):
    """``fn()`` inside a running event loop (the classroom schedules bots on it)."""
    async def go():
        return fn()

    return run_in_fresh_loop(go)


class Page:
    def __init__(self):
        self.sent = []

    def write_message(self, text):
        self.sent.append(json.loads(text))

    def close(self, code=None, reason=None):
        self.sent.append({"closed": code})


def play_to_end(t, limit: int = 3000):
    """Greedy decisions (seeded per seat) on table ``t`` until its game is over."""
    bots = {p: make_bot(default_agent(t.game), 70 + p, t.game) for p in range(len(t.seats))}
    for _ in range(limit):
        if t.state.is_terminal():
            return
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    raise AssertionError("the game did not end")


def classroom(**kw) -> Classroom:
    return Classroom(GameStore(":memory:"), bot_delay=0, **kw)


# ============================================================================ names
def test_a_name_is_cleaned_and_limited():
    assert clean_name("  Ana \t  Lee\x00\x07 ") == "Ana Lee"
    assert clean_name("   ") is None and clean_name(None) is None
    assert clean_name("x" * MAX_NAME) == "x" * MAX_NAME
    with pytest.raises(ValueError, match=f"at most {MAX_NAME} characters"):
        clean_name("x" * (MAX_NAME + 1))
    with pytest.raises(ValueError, match="a name is text, got int"):
        clean_name(5)


def test_the_roster_keeps_names_one_per_line_and_refuses_too_long_ones_changing_nothing():
    c = classroom()
    assert c.teacher_op({"op": "roster", "names": "Ana\r\n\nBen\n  Ana \nCléo <b>"}) == {"ok": "The roster has 3 names."}
    assert c.store.roster() == ["Ana", "Ben", "Cléo <b>"]
    before = snapshot(c.store)
    reply = c.teacher_op({"op": "roster", "names": "Dan\n" + "y" * 41})
    assert reply == {"error": f"roster line 2: a name has at most {MAX_NAME} characters; {'y' * 20!r}... has 41"}
    reply = c.teacher_op({"op": "roster", "names": "\n".join(f"n{i}" for i in range(MAX_ROSTER + 1))})
    assert reply == {"error": f"a roster has at most {MAX_ROSTER} names, got {MAX_ROSTER + 1}"}
    assert snapshot(c.store) == before and c.store.roster() == ["Ana", "Ben", "Cléo <b>"]


@pytest.mark.parametrize("game", game_names())
def test_names_show_on_seats_teacher_rows_and_results_escaped(game):
    c = classroom()
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=2)
    evil = '<img src=x onerror="alert(1)">'
    assert c.teacher_op({"op": "name", "table": t.id, "seat": 0, "name": evil})["ok"] == f"{t.name}: P1 is {evil}."
    assert c.teacher_op({"op": "name", "table": t.id, "seat": 9, "name": "Ben"})["error"].startswith("seat must be")
    seat = Connection(Page(), t.id, 0, "seat")
    c.connections.add(seat)
    c.refresh(seat)
    view = seat.socket.sent[-1]
    assert view["names"][0] == f"P1 {evil}" and view["title"].endswith(f" · P1 {evil}")
    assert view["name_wanted"] is False
    row = c.teacher_message()["tables"][0]["seats"][0]
    assert row["name"] == evil
    play_to_end(t)
    c.broadcast(t.id)
    html = seat.socket.sent[-1]["changed"]["results"]
    assert evil not in html and "P1 &lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_a_student_names_an_unnamed_seat_once_and_a_bad_name_is_refused():
    c = classroom()
    t = c.store.create_table(players=2, seed=1)
    page = Connection(Page(), t.id, 1, "seat")
    c.connections.add(page)
    c.refresh(page)
    assert page.socket.sent[-1]["name_wanted"] is True
    bot_seat = c.store.create_table(players=2, seed=1, bots={0: "random"})
    assert c.build_view(bot_seat, 0, "seat")["name_wanted"] is False  # a bot's seat: nobody to ask a name
    assert c.build_view(bot_seat, 1, "seat")["name_wanted"] is True
    c.student_name(page, "z" * 41)
    assert page.socket.sent[-1] == {"type": "refused", "text": f"Not kept: a name has at most {MAX_NAME} characters; "
                                                               f"{'z' * 20!r}... has 41."}
    c.student_name(page, "  Zoé ")
    assert page.socket.sent[-1]["changed"]["names"] == ["P1", "P2 Zoé"] and c.table(t.id).seats[1].name == "Zoé"
    c.student_name(page, "Someone else")
    assert page.socket.sent[-1]["text"] == "This seat has a name already; ask the teacher to change it."
    assert c.table(t.id).seats[1].name == "Zoé"


# ============================================================================ archive, remove, rematch
def test_an_archived_table_is_not_served_to_seats_and_only_an_archived_one_is_removed():
    c = classroom()
    t = c.store.create_table(players=2, seed=1)
    code = t.seats[0].code
    assert c.teacher_op({"op": "remove", "table": t.id}) == {"error": "table 1 is in play: archive it first, then remove it"}
    page = Connection(Page(), t.id, 0, "seat")
    c.connections.add(page)
    assert c.teacher_op({"op": "archive", "table": t.id})["ok"].startswith("Table 1 archived")
    assert page.socket.sent[-1] == {"type": "moved", "url": None,
                                    "text": "The teacher closed this table: ask the teacher where to play next. This "
                                            "page opens the table by itself if the teacher brings it back or starts a "
                                            "rematch."}
    assert c.parked == {t.id: {page}} and page not in c.connections  # kept open, out of the table's updates
    msg = c.teacher_message()
    assert msg["tables"] == [] and [a["id"] for a in msg["archived"]] == [t.id]

    async def go(s: Served):
        seat_page = await s.get(f"/s/{code}")
        ws = await s.socket("seat", "", None)  # no code: refused
        try:
            await tornado.websocket.websocket_connect(f"ws://127.0.0.1:{s.port}/ws?code={code}")
            code_socket = 101
        except tornado.httpclient.HTTPClientError as exc:
            code_socket = exc.code
        return seat_page, ws, code_socket

    (status, text), ws, code_socket = serve(c, go)
    assert status == 409 and "archived by the teacher" in text and code_socket == 403 and ws == 403
    assert c.teacher_op({"op": "remove", "table": t.id}) == {"ok": "Table 1 removed with its record."}
    assert page.socket.sent[-2:] == [{"type": "moved", "url": None, "text": "The teacher removed this table: ask the "
                                      "teacher where to play next."}, {"closed": 4410}] and c.parked == {}
    assert c.store.table_ids() == [] and c.store.seat_by_code(code) is None
    assert c.store.db.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'link:%'").fetchone() == (0,)


@pytest.mark.parametrize("game", game_names())
def test_a_rematch_keeps_the_seats_codes_names_and_bots_and_sends_the_pages_to_it(game):
    c = classroom()
    n = get_game(game).min_players
    t = c.store.create_table(game=game, players=n, seed=4, bots={n - 1: default_agent(get_game(game))})
    c.store.set_name(t.id, 0, "Ana")
    codes = [s.code for s in t.seats]
    page = Connection(Page(), t.id, 0, "seat")
    screen = Connection(Page(), t.id, PUBLIC, "projector")
    c.connections |= {page, screen}
    reply = run(lambda: c.teacher_op({"op": "rematch", "table": t.id}))
    new = c.table(2)
    assert reply == {"ok": f"Table 2 is a rematch of Table 1 with the same seats (seed 5); Table 1 is archived."}
    assert [s.code for s in new.seats] == codes and [s.name for s in new.seats] == ["Ana"] + [None] * (n - 1)
    assert [s.agent for s in new.seats] == [s.agent for s in t.seats]
    assert new.game.name == game and new.config["seed"] == 5 and new.seq == 0
    assert {k: v for k, v in new.config.items() if k != "seed"} == {k: v for k, v in t.config.items() if k != "seed"}
    assert c.store.seat_by_code(codes[0]).table_id == new.id and not set(codes) & {s.code for s in t.seats}
    assert t.archived and c.store.archived_ids() == {t.id}
    assert page.socket.sent[-2]["url"] == "" and page.socket.sent[-1] == {"closed": 4410}
    assert screen.socket.sent[-2]["url"] == f"/projector/2?token={c.store.link_token(2, 'watch')}"
    rows = c.store.db.execute("SELECT table_id, seat, code FROM seats ORDER BY table_id, seat").fetchall()
    assert [r[2] for r in rows if r[0] == 2] == codes  # as the store keeps them, not only in memory


@pytest.mark.parametrize("game", game_names())
def test_pages_of_an_archived_table_follow_it_back_into_play_or_into_its_rematch(game):
    """Archived: its pages stay connected (told so); back in play: sent to the same address
    and closed (the page reloads onto the live table); archived again then rematched: sent to
    the rematch; the old table's watch link (page and socket) follows the rematch."""
    c = classroom()
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=4)
    pages = [Connection(Page(), t.id, 0, "seat"), Connection(Page(), t.id, PUBLIC, "projector")]
    c.connections.update(pages)
    run(lambda: c.teacher_op({"op": "archive", "table": t.id}))
    assert [p.socket.sent[-1]["url"] for p in pages] == [None, None] and c.parked[t.id] == set(pages)
    assert run(lambda: c.teacher_op({"op": "unarchive", "table": t.id})) == {"ok": "Table 1 is back in play."}
    back = {"type": "moved", "url": "", "text": "The teacher brought this table back into play: this page opens it again."}
    assert pages[0].socket.sent[-2:] == [back, {"closed": 4410}]
    assert pages[1].socket.sent[-2]["url"] == f"/projector/1?token={c.store.link_token(1, 'watch')}"
    assert c.parked == {} and c.store.rematched_as(t.id) is None
    again = [Connection(Page(), t.id, 0, "seat"), Connection(Page(), t.id, PUBLIC, "projector")]
    c.connections.update(again)
    run(lambda: c.teacher_op({"op": "archive", "table": t.id}))
    run(lambda: c.teacher_op({"op": "rematch", "table": t.id}))
    watch = c.store.link_token(2, "watch")
    assert again[0].socket.sent[-2]["url"] == "" and again[1].socket.sent[-2]["url"] == f"/projector/2?token={watch}"
    assert c.store.rematched_as(1) == 2 and c.parked == {}
    old_watch = c.store.link_token(1, "watch")

    async def go(s: Served):
        r = await s.client.fetch(f"{s.base}/projector/1?token={old_watch}", follow_redirects=False, raise_error=False)
        ws = await tornado.websocket.websocket_connect(
            f"ws://127.0.0.1:{s.port}/ws?role=projector&table=1&token={old_watch}")
        first = json.loads(await ws.read_message())
        ws.close()
        return r.code, r.headers.get("Location"), first

    status, where, first = serve(c, go)
    assert (status, where) == (302, f"/projector/2?token={watch}")
    assert first["type"] == "moved" and first["url"] == f"/projector/2?token={watch}"


# ============================================================================ during: waiting, idle, the log
@pytest.mark.parametrize("game", game_names())
def test_a_rollback_notice_is_gone_from_every_page_once_the_game_is_over(game, tmp_path):
    """The kind: a notice belongs to the position it is about. A rollback's notice stays while
    bots decide again (what it said would happen), but a finished game's pages show the
    results, not the notice, also after a restart (the store keeps the notice)."""
    path = tmp_path / "class.db"
    c = Classroom(GameStore(path), bot_delay=0)
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=3)
    p = t.state.current_player()
    t.decide(p, t.state.legal_actions()[0])
    run(lambda: c.teacher_op({"op": "rollback", "table": t.id, "to": 0}))
    said = c.announcements[t.id]["text"]
    assert said.startswith("The teacher took the game back to decision 0")
    assert c.build_view(t, 0, "seat")["announce"]["text"] == said   # while the game goes on: shown
    agent = default_agent(t.game)
    for s in t.seats:   # every seat a bot's now (set in the store: no bot task is started)
        c.store.set_agent(t.id, s.seat, agent)
    for _ in range(3000):   # decided as the bots do (no page's act, which clears it for a human's decision)
        if t.state.is_terminal():
            break
        q = t.state.current_player()
        assert c.apply_bot_decision(t.id, q, agent, t.seq, t.game.action_to_dict(t.state.legal_actions()[0]))
    assert t.state.is_terminal()
    assert all(c.build_view(t, v, m)["announce"] is None for v, m in ((0, "seat"), (PUBLIC, "projector"), (PUBLIC, "hotseat")))
    c.close()
    c.store.close()
    again = Classroom(GameStore(path), bot_delay=0)   # a restart: the finished game still says no notice
    assert again.build_view(again.table(t.id), 0, "seat")["announce"] is None
    again.close()
    again.store.close()


def test_waiting_and_idle_times_follow_the_injected_clock():
    now = [0.0]
    c = classroom(clock=lambda: now[0])
    t = c.store.create_table(players=2, seed=1)
    made = c.store.created(t.id)
    now[0] = made + 65
    assert c.idle_times(t) == {"waiting": 65.0, "seats": [65.0, 65.0]}
    p = t.state.current_player()
    t.decide(p, t.state.legal_actions()[0])
    at = c.store.record(t.id)[-1]["at"]
    now[0] = at + 125
    idle = c.idle_times(t)
    assert idle["waiting"] == 125.0 and idle["seats"][p] == 125.0 and idle["seats"][1 - p] == at + 125 - made
    wait = c.teacher_message()["tables"][0]["waiting"]
    q = t.state.current_player()
    assert wait == {"seat": q, "label": f"P{q + 1}", "bot": False, "since": at}
    assert lesson.duration_words(125) == "2 min 05 s" and lesson.duration_words(45.9) == "45 s"
    assert lesson.duration_words(3 * 3600 + 7 * 60 + 5) == "3 h 07 min"
    play_to_end(t)  # a finished game: nobody waits, nobody is idle, however long the clock runs
    now[0] += 3600
    assert c.idle_times(t) == {"waiting": None, "seats": [None, None]}
    assert [s["idle_since"] for s in c.teacher_message()["tables"][0]["seats"]] == [None, None]


@pytest.mark.parametrize("game", game_names())
def test_the_whole_log_is_sent_on_request_as_the_viewer_may_see_it(game):
    c = classroom()
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=6, names={0: "<Ana>"})
    bots = {p: make_bot(default_agent(t.game), 5 + p, t.game) for p in range(len(t.seats))}
    while min(len(seen_events(t.game, t.state.log, v)) for v in (0, -1)) < 20 and not t.state.is_terminal():
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    for viewer in (0, None):
        events = seen_events(t.game, t.state.log, viewer if viewer is not None else -1)
        html = lesson.full_log_html(t, viewer)
        assert html.count('<div style="padding:1px 2px">') == len(events)  # every event, not the last 12
        assert len(events) > 12 or t.state.is_terminal()
        assert html.startswith('<div class="hk-log-names"><b>Players:</b> P1 &lt;Ana&gt; · P2')
        assert html.index(events[0].text.split()[0]) < html.index(events[-1].text.split()[-1].rstrip("."))


# ============================================================================ after: results, CSV, replay
@pytest.mark.parametrize("game", game_names())
def test_results_are_the_games_own_final_scores_with_decisions_and_take_backs(game):
    c = classroom()
    g = get_game(game)
    t = c.store.create_table(game=game, players=g.min_players, seed=8)
    assert lesson.results(c.store, t)["over"] is False and lesson.results_html(lesson.results(c.store, t)) == ""
    # P1 takes back its first decision once, through the page, then the game is played out
    page = Connection(Page(), t.id, t.state.current_player(), "seat")
    c.connections.add(page)
    first = page.viewer
    t.decide(first, t.state.legal_actions()[0])
    if c.can_undo(t, first):
        run(lambda: c.undo(page, {"type": "undo", "seq": t.seq}))
        took_back = 1
    else:
        took_back = 0
    play_to_end(t)
    res = lesson.results(c.store, t)
    own = g.seat_results(t.state) if hasattr(g, "seat_results") else results_by_score(t.state.returns())
    assert res["over"] and [r["score"] for r in res["rows"]] == [x["score"] for x in own]
    assert [r["rank"] for r in res["rows"]] == [x["rank"] for x in own]
    assert [r["decisions"] for r in res["rows"]] == [sum(1 for _, p, _ in t.applied if p == s) for s in range(len(t.seats))]
    assert sum(r["decisions"] for r in res["rows"]) == len(t.applied)
    assert [r["takebacks"] for r in res["rows"]] == [took_back if s == first else 0 for s in range(len(t.seats))]
    parts = getattr(g, "score_parts", None)
    if parts is not None:
        assert [r["parts"] for r in res["rows"]] == parts(t.state)
        for r in res["rows"]:
            assert sum(r["parts"].values()) == pytest.approx(r["score"])
    # the columns are every player's sources (a game's sources may differ by player), and each
    # row's cells under them add up to its score: a source a player lacks reads 0, never blank
    assert res["sources"] == list(dict.fromkeys(k for r in res["rows"] for k in r["parts"]))
    labelled = lesson.results_html(res)
    # each cell names its column (a phone stacks a row's cells under these names): the headers, in order
    heads = re.findall(r'<th scope="col"(?: class="hk-part")?>(.*?)</th>', labelled)
    for row in re.findall(r"<tr>(<td .*?)</tr>", labelled):
        assert re.findall(r'<td(?: class="hk-part")? data-label="(.*?)">', row) == heads
    html = re.sub(r'<td( class="hk-part")? data-label="[^"]*">', r"<td\1>", labelled)
    for k in res["sources"]:  # a source's header says what it counts (the game's score name)
        assert f'<th scope="col" class="hk-part">{k} ({res["score_name"]})</th>' in html  # a part of the score
    if res["sources"]:
        for row in re.findall(r"<tr><td>(.*?)</td></tr>", html.split("<tbody>")[1]):
            cells = re.split(r'</td><td(?: class="hk-part")?>', row)
            assert len(cells) == 6 + len(res["sources"])
            assert sum(float(x) for x in cells[3:3 + len(res["sources"])]) == pytest.approx(float(cells[2]))
    lost = all(x.get("collective_loss") for x in own)
    assert res["collective_loss"] == lost and ("<caption>Results: a collective loss" in html) == lost
    best = min(res["rows"], key=lambda r: (r["rank"], r["seat"]))
    assert html.index("<tbody><tr><td>1") < html.index(best["label"])


def test_the_class_csv_has_a_row_per_seat_per_game_with_names_for_the_teacher_only():
    c = classroom()
    tables = [c.store.create_table(game=g, players=get_game(g).min_players, seed=3) for g in game_names()]
    c.store.set_name(tables[0].id, 0, "=HYPERLINK(\"x\")")
    c.store.set_name(tables[-1].id, 1, "Ben, \"the\" second")
    c.store.set_name(tables[-1].id, 0, "Chloé Nuñez")  # Excel on Windows reads it as written only after a BOM
    play_to_end(tables[0])
    c.store.archive(tables[-1].id)  # archived tables stay in the class's results

    async def go(s: Served):
        return (await s.get("/results.csv", token=c.teacher_token), await s.get("/results.csv"),
                await s.get("/results.csv", token=c.store.link_token(tables[0].id, "watch")))

    (status, text), (no, _), (watch, _) = serve(c, go)
    assert status == 200 and no == 403 and watch == 403
    # UTF-8 with a byte-order mark: the bytes read back with utf-8-sig give the names as written
    raw = text.encode("utf-8")
    assert raw.startswith(b"\xef\xbb\xbf") and not raw[3:].startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    # each row says what its score counts: the game's declared score name (one class's CSV mixes games)
    assert [r["score_unit"] for r in rows] == [str(getattr(t.game, "score_name", "score")) for t in tables for _ in t.seats]
    assert len({r["score_unit"] for r in rows}) == len({str(getattr(get_game(g), "score_name", "score"))
                                                        for g in game_names()})
    assert list(rows[0])[:len(lesson.CSV_COLUMNS)] == list(lesson.CSV_COLUMNS)
    res = lesson.results(c.store, tables[0])
    # a column per score source (the finished game's: its players' points add up to the score), no JSON
    sources = [k[len("points: "):] for k in list(rows[0])[len(lesson.CSV_COLUMNS):]]
    assert all(k.startswith("points: ") for k in list(rows[0])[len(lesson.CSV_COLUMNS):])
    assert set(res["sources"]) <= set(sources)
    for r, got in zip(res["rows"], [r for r in rows if int(r["table"]) == tables[0].id]):
        assert sum(float(got[f"points: {k}"]) for k in res["sources"]) == pytest.approx(float(r["score"] or 0))
    days = {t.id: datetime.fromtimestamp(lesson.last_activity(c.store, t), timezone.utc).date().isoformat()
            for t in tables}  # the day of each table's last change, from the store's own times
    assert [r["date"] for r in rows] == [days[int(r["table"])] for r in rows] and all(len(d) == 10 for d in days.values())
    assert len(rows) == sum(len(t.seats) for t in tables)
    assert [(int(r["table"]), int(r["seat"])) for r in rows] == [(t.id, s.seat + 1) for t in tables for s in t.seats]
    first = [r for r in rows if int(r["table"]) == tables[0].id]
    assert first[0]["name"] == "'=HYPERLINK(\"x\")" and all(r["finished"] == "yes" for r in first)
    res = lesson.results(c.store, tables[0])
    assert [r["rank"] for r in first] == [str(x["rank"]) for x in res["rows"]]
    assert [r["player"] for r in first] == [f"P{i + 1}" for i in range(len(first))]
    last = [r for r in rows if int(r["table"]) == tables[-1].id]
    assert last[1]["name"] == "Ben, \"the\" second" and last[1]["finished"] == "no" and last[1]["rank"] == ""
    assert last[0]["name"] == "Chloé Nuñez"


def test_the_replay_steps_through_a_finished_table_by_its_watch_link_only():
    game = game_names()[0]
    c = classroom()
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=3)
    play_to_end(t)
    watch = c.store.link_token(t.id, "watch")

    async def go(s: Served):
        page = await s.get(f"/replay/{t.id}", token=watch)
        teacher = await s.get(f"/replay/{t.id}", token=c.teacher_token)
        start = await s.get(f"/replay/{t.id}/step/0", token=watch)
        end = await s.get(f"/replay/{t.id}/step/{len(t.applied) + 5}", token=watch)
        refused = await s.get(f"/replay/{t.id}/step/1", token=c.store.link_token(t.id, "hotseat"))
        return page, teacher, start, end, refused

    page, teacher, start, end, refused = serve(c, go)
    assert page[0] == 200 and '"steps": %d' % len(t.applied) in page[1] and c.teacher_token not in page[1]
    assert teacher[0] == 403 and "teacher&#x27;s key" in teacher[1] and refused[0] == 403
    first, last = json.loads(start[1]), json.loads(end[1])
    assert first["step"] == 0 and first["actions"] == [] and first["results"] == ""
    assert last["step"] == len(t.applied) and last["results"] == lesson.results_html(lesson.results(c.store, t))
    # the replay's public view of the last step is the projector's view of the table
    assert last["board"] == server.view_message(t, PUBLIC, c.size)["board"]


def test_the_turning_points_come_from_the_game_review_with_names():
    game = game_names()[0]
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=get_game(game).min_players, seed=3)
    play_to_end(t)
    record = [t.game.action_to_dict(a) for _, _, a in t.applied]
    points = lesson.turning_points(t.game, t.config, None, record, ["Ana", ""])
    assert isinstance(points, list)
    assert [p["number"] for p in points] == sorted(p["number"] for p in points)  # in game order
    for p in points:
        assert 1 <= p["number"] <= len(t.applied) and p["text"].startswith(f"Decision {p['number']}: P{p['player'] + 1}")
        assert t.applied[p["number"] - 1][1] == p["player"]  # the replay's step numbers are the review's
        if p["player"] == 0:
            assert "P1 (Ana)" in p["text"]
        # in words first (a chance of winning, or for win/loss returns an outlook in 100), the measure second
        assert re.search(r"(chance of winning (rose|fell) from about -?\d+% to -?\d+%|outlook (rose|fell) from about "
                         r"-?\d+ to -?\d+ in 100)", p["text"]) and "value" not in p["text"]
        assert re.fullmatch(r"Change [+-]\d\.\d{3} \(95% interval [+-]?\d\.\d{3} to [+-]?\d\.\d{3}\), from [\d,]+ "
                            r"paired playouts\.", p["detail"])


@pytest.mark.parametrize("game", game_names())
def test_a_suggested_move_is_for_the_player_to_move_only_and_counted_in_the_results(game):
    from concurrent.futures import ThreadPoolExecutor

    c = classroom()
    c._pool = ThreadPoolExecutor(1)  # noqa: SLF001 - the worker pool, in this process for the test
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=4)
    mover = t.state.current_player()
    pages = {p: Connection(Page(), t.id, p, "seat") for p in range(len(t.seats))}
    c.connections |= set(pages.values())
    other = next(p for p in pages if p != mover)

    async def go():
        hot = Connection(Page(), t.id, PUBLIC, "hotseat")  # a shared screen: never (hidden cards)
        c.connections.add(hot)
        assert c.ask_hint(hot, {"type": "hint", "seq": t.seq}) is None
        refused = c.ask_hint(pages[other], {"type": "hint", "seq": t.seq})
        stale = c.ask_hint(pages[mover], {"type": "hint", "seq": t.seq + 1})
        task = c.ask_hint(pages[mover], {"type": "hint", "seq": t.seq})
        await task
        return refused, stale

    try:
        refused, stale = run_in_fresh_loop(go)
    finally:
        c._pool.shutdown()  # noqa: SLF001
    assert refused is None and stale is None
    assert pages[other].socket.sent[-1]["text"].startswith("A move is suggested only to the player to move")
    reply = pages[mover].socket.sent[-1]
    assert reply["type"] == "hint" and reply["seq"] == t.seq and 1 <= len(set(reply["texts"])) <= 3
    assert all(isinstance(x, str) and x for x in reply["texts"])
    assert c.store.hints_asked(t.id) == {mover: 1}
    assert [r["hints"] for r in lesson.results(c.store, t)["rows"]] == [int(p == mover) for p in range(len(t.seats))]
    row = lesson.csv_rows(c.store, [t])[mover]
    assert row["hints"] == 1


# ============================================================================ before: older stores, a fresh start
def test_a_store_written_before_names_and_archives_loads_and_is_migrated(tmp_path):
    path = tmp_path / "old.db"
    with GameStore(path) as store:
        t = store.create_table(players=2, seed=5)
        t.decide(t.state.current_player(), t.state.legal_actions()[0])
        played = t.state.to_json()
    db = sqlite3.connect(path)
    for sql in ("ALTER TABLE seats DROP COLUMN name", "ALTER TABLE game_tables DROP COLUMN archived",
                "ALTER TABLE game_tables DROP COLUMN game",  # the schema of the kit before these columns
                "UPDATE meta SET value = '1' WHERE key = 'schema'"):
        db.execute(sql)
    db.commit()
    db.close()
    for names in ([None, None], ["Ana", None]):  # migrated once, then opened as it is now (columns in the order it got them)
        with GameStore(path) as store:
            again = store.table(1)
            assert again.state.to_json() == played and again.archived is None
            assert [s.name for s in again.seats] == names
            store.set_name(1, 0, "Ana")
            store.archive(1)
            store.archive(1, False)
    db = sqlite3.connect(path)
    cols = [r[1] for r in db.execute("PRAGMA table_info(game_tables)")]
    assert cols[-2:] == ["game", "archived"]
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(SCHEMA_VERSION),)
    # a store of this schema missing one of its columns is not migrated: it was edited, and is refused
    db.execute("ALTER TABLE seats DROP COLUMN name")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="its table 'seats' was changed"):
        GameStore(path)


def test_a_fresh_start_on_an_empty_store_makes_no_table_unless_asked(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr(server, "serve", lambda store, **kw: seen.update(kw) or 0)
    assert main(["server", "--store", str(tmp_path / "a.db"), "--game", "estate"]) == 0
    assert seen["first_table"] is None and seen["game"] == "estate"
    assert main(["server", "--store", str(tmp_path / "a.db"), "--players", "2"]) == 0
    assert seen["first_table"]["players"] == 2 and seen["first_table"]["seed"] == 1
    c = open_classroom(tmp_path / "b.db")
    try:
        assert c.store.table_ids() == [] and c.teacher_message()["tables"] == []
    finally:
        c.close()


# ============================================================================ rollbacks said to every page
@pytest.mark.parametrize("game", game_names())
def test_a_rollback_to_a_bots_turn_stays_on_every_page_until_a_human_decides_and_sits_in_the_log(game):
    """The teacher rolls back to a bot's turn: every page of the table (each seat, the
    projector) shows the notice, in words saying bots decide again; the bot's decision
    keeps it, a human seat's decision ends it; the whole log writes it at its place."""
    c = Classroom(GameStore(":memory:"), bot_delay=60)  # the bots' own task waits longer than the test: nothing races
    g = get_game(game)
    t = c.store.create_table(game=game, players=g.min_players, seed=4, **longest(g))
    bots = {p: make_bot(default_agent(t.game), 30 + p, t.game) for p in range(len(t.seats))}
    for _ in range(6):
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    k = next(k for k in range(5, 0, -1) if t.position(k).current_player() != t.position(6).current_player())
    bot = t.position(k).current_player()
    c.store.set_agent(t.id, bot, "random")
    t = c.table(t.id)
    pages = [Connection(Page(), t.id, s, "seat") for s in range(len(t.seats))]
    pages.append(Connection(Page(), t.id, PUBLIC, "projector"))
    c.connections.update(pages)
    out = run(lambda: c.teacher_op({"op": "rollback", "table": t.id, "to": k}))
    said = c.announcements[t.id]["text"]
    assert said == (f"The teacher took the game back to decision {k}: decisions {k + 1} to 6 are set aside. "
                    f"P{bot + 1} is a bot and decides again from here (so do the other bots), perhaps otherwise "
                    "than before.")
    assert out["ok"].startswith(f"Table {t.id}: {said} If it decides otherwise")  # the teacher's tip, not the pages'
    t = c.table(t.id)
    for _ in range(40):  # the bots decide (as their task would) until a human seat is to move
        p = t.state.current_player()
        if p is None or p != bot:
            break
        action = make_bot("random", 9, t.game).act(t.state.copy())
        assert run(lambda: c.apply_bot_decision(t.id, p, "random", t.seq, t.game.action_to_dict(action)))
        for conn in pages:  # a bot's decision keeps the notice on every page
            assert c.message_for(conn)["announce"]["text"] == said
        assert c.store.notice(t.id) == said
    html = lesson.full_log_html(t, None, c.store.record(t.id))
    note = f"The teacher took the game back to decision {k}: decisions {k + 1} to 6 were set aside"
    assert html.count(note) == 1
    assert html[:html.index(note)].count('<div style="padding:1px 2px">') == lesson.log_ends(t)[k]
    p = t.state.current_player()
    if p is not None and not t.state.is_terminal():
        human = pages[p]
        run(lambda: c.act(human, {"type": "act", "seq": t.seq, "i": 0}))
        assert [c.message_for(conn)["announce"] for conn in pages] == [None] * len(pages)
        assert c.store.notice(t.id) is None


@pytest.mark.parametrize("game", game_names())
def test_a_take_back_is_written_in_the_whole_log_at_its_place(game):
    c = classroom()
    g = get_game(game)
    t = c.store.create_table(game=game, players=g.min_players, seed=8, **longest(g))
    for n in range(40):
        seat = t.state.current_player()
        page = Connection(Page(), t.id, seat, "seat")
        c.connections.add(page)
        t.decide(seat, t.state.legal_actions()[0])
        if c.can_undo(t, seat):
            break
    else:
        pytest.skip(f"{game}: no take-back allowed in the first 40 decisions of this seed")
    n = len(t.applied)
    run(lambda: c.undo(page, {"type": "undo", "seq": t.seq}))
    t.decide(seat, t.state.legal_actions()[-1])
    html = lesson.full_log_html(t, seat, c.store.record(t.id))
    note = f"P{seat + 1} took back decision {n}; the game went back to decision {n - 1}."
    assert html.count(note) == 1
    assert html[:html.index(note)].count('<div style="padding:1px 2px">') == lesson.log_ends(t)[n - 1]


# ============================================================================ joining by a typed code
def test_the_join_page_opens_a_seat_by_its_code_typed_in_any_case_and_says_why_not():
    c = classroom()
    t = c.store.create_table(players=2, seed=1)
    code = t.seats[1].code
    assert code == code.upper() and not set(code) & set("0O1I")  # codes read aloud and typed without doubt

    async def go(s: Served):
        out = {}
        for path in ("/", f"/join?code={code.lower()}", f"/join?code=+{code[:3]}-{code[3:].lower()}+",
                     "/join?code=ZZZZZZ", f"/s/{code.lower()}", f"/s/{code}"):
            r = await s.client.fetch(s.base + path, follow_redirects=False, raise_error=False)
            out[path] = (r.code, r.headers.get("Location"), r.body.decode())
        return out

    out = serve(c, go)
    status, _, form = out["/"]
    assert status == 200 and '<form method="get" action="/join">' in form and '<label for="hk-code">' in form
    assert out[f"/join?code={code.lower()}"][:2] == (302, f"/s/{code}")
    assert out[f"/join?code=+{code[:3]}-{code[3:].lower()}+"][:2] == (302, f"/s/{code}")  # spaces, a dash
    status, _, again = out["/join?code=ZZZZZZ"]
    assert status == 404 and "No seat has the code &#x27;ZZZZZZ&#x27;" in again and 'value="ZZZZZZ"' in again
    assert out[f"/s/{code.lower()}"][:2] == (302, f"/s/{code}")
    assert out[f"/s/{code}"][0] == 200
    # a store of an older kit with a code in mixed case: any case finds it while it is the only one so spelt
    c.store.db.execute("UPDATE seats SET code = 'Gssngy' WHERE table_id = 1 AND seat = 0")
    assert c.store.seat_by_code("gssngy").seat == 0 and c.store.seat_by_code("GSSNGY").code == "Gssngy"
    c.store.db.execute("UPDATE seats SET code = 'gssngy' WHERE table_id = 1 AND seat = 1")
    assert c.store.seat_by_code("GSSNGY") is None and c.store.seat_by_code("gssngy").seat == 1  # two spellings: exact only


# ============================================================================ seats handed to bots
@pytest.mark.parametrize("game", game_names())
def test_a_seat_handed_to_a_bot_midway_counts_its_decisions_apart_and_is_the_students_in_the_rematch(game):
    c = Classroom(GameStore(":memory:"), bot_delay=60)  # the bots' task never runs here: decisions are made by hand
    g = get_game(game)
    n = g.min_players
    t = c.store.create_table(game=game, players=n, seed=4, bots={n - 1: "random"}, **longest(g))
    made = {p: [0, 0] for p in range(n)}  # seat -> [by a person, by a bot]

    def decide(count):
        for _ in range(count):
            if t.state.is_terminal():
                return
            p = t.state.current_player()
            made[p][t.seats[p].agent is not None] += 1
            t.decide(p, make_bot("random", 3, t.game).act(t.state.copy()))

    decide(4)
    run(lambda: c.teacher_op({"op": "seat", "table": t.id, "seat": 0, "agent": "random"}))
    decide(4)
    run(lambda: c.teacher_op({"op": "seat", "table": t.id, "seat": 0, "agent": None}))
    decide(3)
    assert c.store.agent_history(t.id, 0) == [(0, None), (4, "random"), (8, None)]
    assert c.store.agent_history(t.id, n - 1) == [(0, "random")]
    res = lesson.results(c.store, t)
    assert [(r["human_decisions"], r["bot_decisions"]) for r in res["rows"]] == [tuple(made[p]) for p in range(n)]
    assert res["rows"][0]["bot"] is None and res["rows"][0]["bots_played"] == (["random"] if made[0][1] else [])
    assert res["rows"][n - 1]["bot"] == "random" and res["rows"][n - 1]["human_decisions"] == 0
    row = lesson.csv_rows(c.store, [t])[0]
    assert (row["bot"], row["human_decisions"], row["bot_decisions"]) == ("", made[0][0], made[0][1])
    run(lambda: c.teacher_op({"op": "seat", "table": t.id, "seat": 0, "agent": "random"}))  # a bot at the end
    run(lambda: c.teacher_op({"op": "rematch", "table": t.id}))
    assert [s.agent for s in c.table(2).seats] == [None] * (n - 1) + ["random"]  # the student's seat is theirs again


# ============================================================================ stopping
def test_sigterm_stops_the_server_cleanly_with_its_bots_workers(tmp_path):
    """SIGTERM (a service manager's stop) ends the server as Ctrl-C does: exit 0, a line
    saying it stopped, its bots' worker processes ended (no leaked semaphore warning)."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen([sys.executable, "-m", "haunted_kit", "server", "--port", "0", "--store", "class.db",
                             "--players", "2", "--bots", "1,2", "--bot-delay", "0", "--log", "teacher.log"],
                            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        lines = []
        for line in proc.stdout:  # bounded by the server's own start-up; the event is its Ready line
            lines.append(line.decode())
            if line.startswith(b"Ready:"):
                break
        assert any(x.startswith("Students without a link: open http://127.0.0.1:") for x in lines), lines
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = err.decode("utf-8", "replace")
    assert proc.returncode == 0, text
    assert out.decode().strip().splitlines()[-1] == "Server stopped; the tables stay in the store."
    assert "leaked" not in text and "Traceback" not in text, text


@pytest.mark.parametrize("game", game_names())
def test_every_page_saying_who_is_to_move_or_won_names_the_student(game):
    """The heading (``status``) and the phase line name the seat's student after its mark, on
    the projector, the hot seat and the seats' pages, in play and at the end; an unnamed seat
    keeps its mark alone."""
    c = classroom()
    t = c.store.create_table(game=game, players=get_game(game).min_players, seed=2)
    mover = t.state.current_player()
    assert c.teacher_op({"op": "name", "table": t.id, "seat": mover, "name": "Chloé"})["ok"]
    for viewer, mode in ((PUBLIC, "projector"), (PUBLIC, "hotseat"), (mover, "seat")):
        view = c.build_view(t, viewer, mode)
        assert f"P{mover + 1} Chloé" in view["status"], (mode, view["status"])
        unnamed = [p for p in range(len(t.seats)) if p != mover]
        assert all(f"P{p + 1} " not in view["status"] or not view["status"].split(f"P{p + 1} ")[1].startswith("Chloé")
                   for p in unnamed)
    play_to_end(t)
    end = c.build_view(t, PUBLIC, "projector")
    bare = server.view_message(t, PUBLIC, c.size)["status"]  # the game's own words
    assert end["status"] == lesson.with_names(bare, [s.name for s in t.seats])
    if f"P{mover + 1}" in bare:
        assert f"P{mover + 1} Chloé" in end["status"]


def test_with_names_names_each_mark_once_and_leaves_unnamed_and_unknown_marks():
    names = ["Ana", None, "P1 Ben", ""]
    assert lesson.with_names("P3 to move; P1 and P2 wait; P10 and P4 watch.", names) == \
        "P3 P1 Ben to move; P1 Ana and P2 wait; P10 and P4 watch."
    assert lesson.with_names("P1's value", names, "{p} ({name})") == "P1 (Ana)'s value"
    assert lesson.with_names("TP1 and P1x stay", names) == "TP1 and P1x stay"


def test_the_projector_can_leave_the_results_score_parts_to_the_ranking():
    """The results table marks the score's parts (class ``hk-part``): the projector hides them
    beside the board, the game's ranking beside it gives them in words."""
    res = {"over": True, "score_name": "valor", "sources": ["quests", "tracks"], "collective_loss": False,
           "rows": [{"seat": 0, "label": "P1 Ana", "bot": None, "rank": 1, "won": True, "score": 9,
                     "parts": {"quests": 6, "tracks": 3}, "decisions": 40, "human_decisions": 40, "bot_decisions": 0,
                     "bots_played": [], "takebacks": 1, "hints": 2}]}
    html = lesson.results_html(res)
    assert re.findall(r'<th scope="col"( class="hk-part")?>([^<]*)</th>', html) == [
        ("", "rank"), ("", "player"), ("", "valor"), (' class="hk-part"', "quests (valor)"),
        (' class="hk-part"', "tracks (valor)"), ("", "decisions"), ("", "take-backs"), ("", "hints asked")]
    assert re.findall(r"<td( class=\"hk-part\")? data-label=\"[^\"]*\">([^<]*)</td>", html) == [
        ("", "1 (won)"), ("", "P1 Ana"), ("", "9"), (' class="hk-part"', "6"), (' class="hk-part"', "3"), ("", "40"),
        ("", "1"), ("", "2")]
