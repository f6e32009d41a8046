"""What the table server keeps between pages and decisions never changes what a page
reads (issue 32, item 7). The server reads each position's board key once
(:class:`haunted_kit.explain.BoardKeys`), titles each distinct board text once, shares
the texts read between positions with the same key, and builds each table's teacher
row (settings, decision list) once per position; over seeded games of every registered
game, every page (seat pages, a projector, a hot-seat screen, the teacher page) must
hold exactly the message a classroom with no kept state builds for it then, with the
explainers shared by nothing."""

from __future__ import annotations

import json
import random

import pytest
from fresh_loop import run_in_fresh_loop

from haunted_kit import explain
from haunted_kit.games import game_names, get_game
from haunted_kit.server import PUBLIC, Classroom, Connection
from haunted_kit.store import GameStore

NOW = 1_767_225_600.0  #: the classroom's clock, driven: the teacher message counts idle times on it


class Page:
    """A fake page: the last full view merged with every later patch, and the last teacher message."""

    def __init__(self):
        self.view = None
        self.teacher = None

    def write_message(self, text):
        msg = json.loads(text)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "patch":
            self.view = {**self.view, **msg["changed"]}
        elif msg["type"] == "teacher":
            self.teacher = msg


class Unkept(Classroom):
    """A classroom that keeps nothing from one view to the next: every board key read
    afresh for each view, every teacher row, undo check (the position before replayed,
    every observation built), waiting seat, idle time and status line worked out anew."""

    def board_keys(self, t):
        return explain.BoardKeys(t.game, t.state)

    def teacher_row(self, t):
        self._teacher_rows.clear()
        return super().teacher_row(t)

    def can_undo(self, t, seat):
        self._undo.clear()
        self._positions.clear()  # the position before the last decision replayed from the store
        return super().can_undo(t, seat)

    def waiting(self, t):
        self._waiting.clear()
        return super().waiting(t)

    def seat_idle(self, t):
        self._idle.clear()
        return super().seat_idle(t)

    def status_line(self, table):
        self._status.clear()
        return super().status_line(table)

    def view_for_key(self, key):
        self._views.clear()
        return super().view_for_key(key)


def fresh_messages(store, conns, monkeypatch) -> list:
    """Each page's message as a classroom with nothing kept builds it, explainers unshared."""
    with monkeypatch.context() as m:
        m.setattr(explain, "_explainer_of", explain._Explainer)  # noqa: SLF001 - no text read shared
        c = Unkept(store, bot_delay=0, clock=lambda: NOW)
        c.connections.update(conns)  # the teacher message counts the pages open
        return [json.loads(json.dumps(c.message_for(conn))) for conn in conns]


def seen_messages(conns) -> list:
    return [conn.socket.teacher if conn.role == "teacher" else conn.socket.view for conn in conns]


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", [3, 8])
def test_every_page_reads_what_a_classroom_without_kept_views_builds(name, seed, monkeypatch):
    game = get_game(name)
    players = min(game.max_players, max(game.min_players, 3))
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0, clock=lambda: NOW)
    t = store.create_table(game=name, players=players, seed=seed)
    # a second table, of another player count where the game allows one: its key (the players' marks) stays its own
    other = store.create_table(game=name, players=game.max_players if players != game.max_players else game.min_players,
                               seed=seed + 1)
    conns = ([Connection(Page(), t.id, 0, "seat")] + [Connection(Page(), t.id, p, "seat") for p in range(players)]
             + [Connection(Page(), t.id, PUBLIC, "projector"), Connection(Page(), t.id, PUBLIC, "hotseat"),
                Connection(Page(), other.id, 0, "seat"), Connection(Page(), None, None, "teacher")])

    async def play():
        for conn in conns:
            c.connections.add(conn)
            c.refresh(conn)
        rng, checked, undone = random.Random(seed), 0, 0
        for _ in range(30):
            if t.state.is_terminal() or t.state.current_player() is None:
                break
            p = t.state.current_player()
            mover = conns[p + 1]
            if t.applied and undone < 2 and rng.random() < 0.3 and c.can_undo(t, t.applied[-1][1]):
                c.undo(conns[t.applied[-1][1] + 1], {"type": "undo", "seq": t.seq})  # back a position: keys made again
                undone += 1
            else:
                c.act(mover, {"type": "act", "seq": t.seq, "i": rng.randrange(len(t.state.legal_actions()))})
            assert seen_messages(conns) == fresh_messages(store, conns, monkeypatch), (name, seed, t.seq)
            checked += 1
        return checked

    checked = run_in_fresh_loop(play)
    assert checked >= 3 and t.seq >= 3
