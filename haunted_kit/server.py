"""The classroom server: many tables, one seat per student device, a teacher page and a
projector view per table; games kept in the SQLite store (:mod:`haunted_kit.store`).

    haunted-kit server --players 4 --seed 3 --bots 3,4          # a first table; prints the links
    haunted-kit server --ip 0.0.0.0 --store class.db             # open to the school network

One tornado process owns the store and the games; pages are plain HTML that talk to it
over a websocket, so a page load costs no kernel. Every message a page receives is
built for its viewer only: a seat sees the board, its own quests and the events as that
player may see them (``State.observation``'s rule: other quests only as a count); the
projector and a hot-seat screen see the public side (a hot-seat player's quests only
after that player asks to reveal them, and only while that player is to move).

Security: localhost by default. Every seat page and socket needs that seat's code,
and the teacher page, the projector and the hot-seat screen need the teacher token
(printed at start). The Host header must be a localhost name, the address served on,
or a name given with ``allow_hosts``; anything else gets 403. Errors are written to
the teacher's log (``log_path``) with their traceback; a page only gets a sentence.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import socket
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import tornado.httpserver
import tornado.web
import tornado.websocket
from tornado.netutil import bind_sockets

from .bots import seat_bot
from .fileio import parse_json
from .games import DEFAULT_GAME, game_module
from .protocol import IllegalAction, is_integer
from .store import GameStore, Table

log = logging.getLogger("haunted_kit.server")

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
PUBLIC = -1  #: the viewer of a shared screen (projector, hot seat): no player, every hidden card face down
DEFAULT_SIZE = 30.0
TEACHER_INTERVAL = 0.3  #: seconds: the served teacher page is sent at most about three messages a second


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def host_name(host_header: str) -> str:
    """The name part of a Host header (``"[::1]:8000"`` -> ``"[::1]"``, ``"a.b:80"`` -> ``"a.b"``)."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[:host.index("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


# ============================================================================ views
def table_views(table: Table):
    """The module that draws ``table``'s game for the server (its package's
    ``classroom``: ``table_view`` and ``status``), or None when the game has none."""
    return game_module(table.game.name, "classroom")


def status_of(table: Table) -> str:
    """One line on ``table``'s game for the teacher page (its ``classroom.status``, else
    the decision count and whether the game is over)."""
    views = table_views(table)
    if views is not None:
        return views.status(table.state)
    return f"{table.game.title}: {len(table.applied)} decisions" + (", game over" if table.state.is_terminal() else "")


def view_message(table: Table, viewer: int, size: float, *, hot_seat: bool = False, revealed: bool = False,
                 bots=()) -> dict:
    """The message a page receives: everything built for ``viewer`` only.

    ``viewer``: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen). On a
    hot-seat screen the human to move may act; their hidden cards show only when
    ``revealed``. The game's part (board, player boards, log, choices) comes from its
    ``classroom.table_view``; a game without one gets ``{"type": "error", "text": ...}``
    saying the server cannot show it."""
    views = table_views(table)
    if views is None:
        return {"type": "error", "table": table.id,
                "text": f"The table server cannot show a {table.game.title} table yet (--game {table.game.name} "
                        "has no classroom view)."}
    title_who = (f" · P{viewer + 1}" if viewer is not None and viewer >= 0 and not hot_seat else
                 " · hot seat" if hot_seat else " · projector")
    return {
        "type": "view", "table": table.id, "seq": table.seq, "you": viewer if viewer >= 0 else None,
        "hot_seat": hot_seat, "revealed": bool(revealed and hot_seat),
        "title": f"{table.game.title} · {table.name}{title_who}",
        **views.table_view(table.state, viewer, size, hot_seat=hot_seat, revealed=revealed, bots=bots),
    }


def view_patch(last: dict, new: dict) -> dict | None:
    """The patch message taking a page from view ``last`` to view ``new`` (both view
    messages with the same keys): ``{"type": "patch", "table", "seq", "changed": {key:
    value}}`` with every key whose value differs, or None when none does. The page merges
    ``changed`` into its last view (``Object.assign``), which then equals ``new``."""
    changed = {k: v for k, v in new.items() if last.get(k) != v}
    if not changed:
        return None
    return {"type": "patch", "table": new["table"], "seq": new["seq"], "changed": changed}


# ============================================================================ the classroom
@dataclass(eq=False)  # one per open socket, compared by identity
class Connection:
    """One open page: its socket, table, viewer (a seat or PUBLIC) and mode."""

    socket: object
    table_id: int | None
    viewer: int | None            # a seat, PUBLIC, or None for the teacher page
    role: str                     # "seat", "projector", "hotseat", "teacher"
    revealed_for: int | None = None
    last: dict | None = None      # the last view this page was sent (its own or a cached one): patches diff from it
    last_text: str | None = None  # the last teacher message sent (teacher pages)


@dataclass
class Classroom:
    """The games and the pages open on them (the server's state, no tornado inside)."""

    store: GameStore
    size: float = DEFAULT_SIZE
    bot_delay: float = 0.3
    teacher_token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    teacher_interval: float = 0.0  #: seconds between two teacher messages at most (0: every change at once)
    connections: set = field(default_factory=set)
    _bots: dict = field(default_factory=dict)
    _views: dict = field(default_factory=dict)     # view_key -> [message, JSON text or None until needed]
    _patches: dict = field(default_factory=dict)   # (id(last), id(new)) -> (last, new, JSON text)
    _status: dict = field(default_factory=dict)    # (table, seq) -> status line
    _teacher_due: object = None                    # the scheduled teacher message (asyncio TimerHandle)
    _teacher_sent: float = float("-inf")           # time.monotonic() of the last teacher message
    _bot_tasks: dict = field(default_factory=dict)

    def table(self, table_id: int) -> Table:
        return self.store.table(table_id)

    def bots_of(self, table: Table) -> dict:
        """seat -> agent object for the table's bot seats (made once per seat and agent)."""
        out = {}
        for seat in table.seats:
            if seat.agent is None:
                continue
            key = (table.id, seat.seat, seat.agent)
            if key not in self._bots:
                self._bots[key] = seat_bot(seat.agent, table.game, table.config["seed"], seat.seat)
            out[seat.seat] = self._bots[key]
        return out

    def view_key(self, conn: Connection) -> tuple:
        """What a page's view depends on: ``(table, seq, viewer, mode, bot seats)``; pages
        with one key share one built view (:meth:`cached_view`). ``mode`` is ``"seat"``,
        ``"projector"``, or ``"hotseat"`` / ``"hotseat-revealed"`` (the mover's quests shown)."""
        t = self.table(conn.table_id)
        mode = conn.role
        if conn.role == "hotseat" and conn.revealed_for is not None and conn.revealed_for == t.state.current_player():
            mode = "hotseat-revealed"
        bot_seats = tuple(s.seat for s in t.seats if s.agent is not None)
        return (t.id, t.seq, conn.viewer, mode, bot_seats)

    def cached_view(self, key: tuple) -> tuple[dict, str]:
        """The view message for ``key`` (:meth:`view_key`) and its JSON text, built once per
        key: N pages of one viewer on one position cost one build. Views of a table's
        older positions are dropped when a newer one is built."""
        msg = self.view_for_key(key)
        entry = self._views[key]
        if entry[1] is None:  # the text only when a page needs the full view (most get a patch)
            entry[1] = json.dumps(msg)
        return msg, entry[1]

    def view_for_key(self, key: tuple) -> dict:
        """The view message for ``key`` (see :meth:`cached_view`), without its JSON text."""
        hit = self._views.get(key)
        if hit is not None:
            return hit[0]
        table_id, seq, viewer, mode, _ = key
        stale = [k for k in self._views if k[0] == table_id and k[1] != seq]
        for k in stale:
            del self._views[k]
        t = self.table(table_id)
        if mode == "seat":
            msg = view_message(t, viewer, self.size)
        else:
            msg = view_message(t, PUBLIC, self.size, hot_seat=mode != "projector", revealed=mode == "hotseat-revealed",
                               bots=self.bots_of(t))
        self._views[key] = [msg, None]
        return msg

    def message_for(self, conn: Connection) -> dict:
        """The full message for ``conn``'s page: the teacher message or its view."""
        if conn.role == "teacher":
            return self.teacher_message()
        return self.view_for_key(self.view_key(conn))

    def update(self, conn: Connection) -> None:
        """Send ``conn``'s page its current view: the full view the first time (a page
        that reconnects is a new connection, so it gets a full view), after that a
        ``{"type": "patch", "table", "seq", "changed": {key: value}}`` with only the keys
        whose value differs from the last view sent (the page merges them into that view;
        :func:`view_patch`), nothing when no key differs."""
        key = self.view_key(conn)
        msg = self.view_for_key(key)
        last = conn.last
        if last is not msg:
            if last is None or last.get("type") != "view" or msg.get("type") != "view" or last.keys() != msg.keys():
                self.send_text(conn, self.cached_view(key)[1])
            else:
                patch = view_patch(last, msg)
                if patch is not None:
                    self.send_text(conn, self._patch_text(last, msg, patch))
        conn.last = msg

    def _patch_text(self, last: dict, msg: dict, patch: dict) -> str:
        """The patch's JSON text, built once for every page going from ``last`` to ``msg``."""
        key = (id(last), id(msg))
        hit = self._patches.get(key)
        if hit is None or hit[0] is not last or hit[1] is not msg:
            if len(self._patches) > 4 * max(1, len(self.connections)) + 64:  # bounded: old positions are never asked again
                self._patches.clear()
            hit = self._patches[key] = (last, msg, json.dumps(patch))
        return hit[2]

    def status_line(self, table: Table) -> str:
        """:func:`status_of`, computed once per table position."""
        key = (table.id, table.seq)
        line = self._status.get(key)
        if line is None:
            for k in [k for k in self._status if k[0] == table.id]:
                del self._status[k]
            line = self._status[key] = status_of(table)
        return line

    def teacher_message(self) -> dict:
        """The teacher page's message: every table with its status line (cached per table
        position), its seats, their join codes and how many pages are open on each."""
        online: dict = {}
        for c in self.connections:
            if c.role == "seat":
                online[(c.table_id, c.viewer)] = online.get((c.table_id, c.viewer), 0) + 1
        tables = []
        for t in self.store.tables():
            seats = [{"seat": seat.seat, "code": seat.code, "agent": seat.agent,
                      "connected": online.get((t.id, seat.seat), 0)} for seat in t.seats]
            tables.append({"id": t.id, "name": t.name, "seq": t.seq, "decisions": len(t.applied),
                           "status": self.status_line(t), "game": t.game.name, "config": t.config, "seats": seats,
                           "over": t.state.is_terminal()})
        return {"type": "teacher", "tables": tables}

    def send(self, conn: Connection, msg: dict) -> None:
        self.send_text(conn, json.dumps(msg))

    def send_text(self, conn: Connection, text: str) -> None:
        try:
            conn.socket.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            self.connections.discard(conn)

    def refresh(self, conn: Connection) -> None:
        """Send one page what it should show now: a teacher page the teacher message,
        any other page its view (:meth:`update`)."""
        if conn.role == "teacher":
            conn.last_text = json.dumps(self.teacher_message())
            self.send_text(conn, conn.last_text)
        else:
            self.update(conn)

    def broadcast(self, table_id: int | None = None) -> None:
        """Every page on ``table_id`` gets its new view (:meth:`update`: a patch where it
        has one); the teacher pages are told the class changed (:meth:`teacher_changed`)."""
        for conn in list(self.connections):
            if conn.role != "teacher" and conn.table_id == table_id:
                self.update(conn)
        self.teacher_changed()

    def teacher_changed(self) -> None:
        """Something the teacher page shows changed: send the teacher message now, or,
        when one went out less than :attr:`teacher_interval` seconds ago, once that
        interval is over (one message for every change in between: with ten tables
        playing, the teacher page redraws a few times a second, not at every decision)."""
        if self._teacher_due is not None:
            return  # a send is scheduled and will carry this change
        wait = self._teacher_sent + self.teacher_interval - time.monotonic()
        if wait <= 0:
            self.flush_teacher()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script driving the classroom): at once
            self.flush_teacher()
            return
        self._teacher_due = loop.call_later(wait, self.flush_teacher)

    def flush_teacher(self) -> None:
        """Send every teacher page the teacher message, built once for all of them, unless
        it is the message that page was sent last."""
        self._teacher_due = None
        self._teacher_sent = time.monotonic()
        teacher_text = None
        for conn in list(self.connections):
            if conn.role == "teacher":
                if teacher_text is None:
                    teacher_text = json.dumps(self.teacher_message())
                if conn.last_text != teacher_text:
                    self.send_text(conn, teacher_text)
                    conn.last_text = teacher_text

    # ------------------------------------------------------------------ decisions
    def act(self, conn: Connection, msg: dict) -> None:
        """A page's decision: ``{"type": "act", "seq": seen, "i": index}`` (an index into
        the actions of the view with that seq) or ``"action": {...}``; from the shared
        (hot-seat) screen also ``"seat"``: the seat that was to move on that view. Applied and
        committed, or refused with the engine's reason to that page only."""
        t = self.table(conn.table_id)
        bots = self.bots_of(t)
        if conn.role == "hotseat":  # acts for the human who was to move on the position the page showed
            seat = msg.get("seat")
            if not is_integer(seat) or not 0 <= seat < len(t.seats) or seat in bots:
                self.send(conn, {"type": "refused", "text": "A decision on the shared screen must name a human seat."})
                return
        elif conn.role == "seat":
            seat = conn.viewer
        else:
            self.send(conn, {"type": "refused", "text": "This screen only shows the game."})
            return
        seen = msg.get("seq")
        if not is_integer(seen):
            self.send(conn, {"type": "refused", "text": "A decision must say which position it was made on (seq)."})
            return
        if "action" in msg:
            action = msg["action"]  # the dict form: the store checks its format
        else:
            i = msg.get("i")
            legal = t.state.legal_actions()
            if not is_integer(i) or not 0 <= i < len(legal):
                self.send(conn, {"type": "refused", "text": "There is no such choice now; look at the board again."})
                return
            action = legal[i]  # the store refuses it when the page's position (seq) or seat is not current
        try:
            t.decide(seat, action, seen=seen)
        except IllegalAction as exc:
            self.send(conn, {"type": "refused", "text": f"Not allowed: {exc.refusal}"})
            return
        self.broadcast(t.id)
        self.schedule_bots(t.id)

    def schedule_bots(self, table_id: int) -> None:
        """Bots of ``table_id`` decide one by one, every :attr:`bot_delay` seconds."""
        task = self._bot_tasks.get(table_id)
        if task is not None and not task.done():
            return
        self._bot_tasks[table_id] = asyncio.get_running_loop().create_task(self._run_bots(table_id))

    async def _run_bots(self, table_id: int) -> None:
        try:
            for _ in range(10_000):  # bounded: a game has a few hundred decisions
                t = self.table(table_id)
                bots = self.bots_of(t)
                p = t.state.current_player()
                if t.state.is_terminal() or p is None or p not in bots:
                    return
                await asyncio.sleep(self.bot_delay)
                if t.state.current_player() != p:
                    continue
                t.decide(p, bots[p].act(t.state.copy()))
                self.broadcast(table_id)
        except Exception:  # noqa: BLE001 - to the teacher's log, never to a page
            log.exception("bots of table %s stopped", table_id)

    # ------------------------------------------------------------------ teacher actions
    def teacher_op(self, msg: dict) -> dict:
        """Teacher actions: ``create`` (game, players, seed, box, bots, and the game's
        settings: Haunted Lands' mode and ghost_cards),
        ``seat`` (table, seat, agent or null: hand a seat to a bot or back),
        ``rollback`` (table, to). Returns ``{"ok": text}`` or ``{"error": text}``."""
        op = msg.get("op")
        try:
            if op == "create":
                bots = {int(b) - 1: "greedy" for b in msg.get("bots", [])}
                options = {}  # the game's own settings, passed on when the page sends them
                if "mode" in msg:
                    options["mode"] = str(msg["mode"])
                if "ghost_cards" in msg:
                    options["extra_ghost_cards"] = tuple(int(g) for g in msg["ghost_cards"])
                t = self.store.create_table(game=str(msg.get("game", DEFAULT_GAME)), players=int(msg.get("players", 4)),
                                            seed=int(msg.get("seed", 1)), box=msg.get("box") or None, bots=bots,
                                            **options)
                self.broadcast(None)
                self.schedule_bots(t.id)
                return {"ok": f"{t.name} created."}
            if op == "seat":
                tid, seat, agent = int(msg["table"]), int(msg["seat"]), msg.get("agent")
                self.store.set_agent(tid, seat, agent)
                self.broadcast(tid)
                self.schedule_bots(tid)
                return {"ok": f"P{seat + 1} of table {tid} is now {'a ' + agent + ' bot' if agent else 'human'}."}
            if op == "rollback":
                tid, to = int(msg["table"]), int(msg["to"])
                self.table(tid).rollback(to)
                self.broadcast(tid)
                self.schedule_bots(tid)
                return {"ok": f"Table {tid} is back at decision {to}; the rollback is recorded."}
        except (ValueError, KeyError, TypeError) as exc:
            return {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a ConfigError, a BoxError...: a sentence to the teacher
            log.exception("teacher action %r failed", op)
            return {"error": f"{type(exc).__name__}: {exc}"}
        return {"error": f"unknown teacher action {op!r}"}


# ============================================================================ tornado
class _Shared:
    """What every handler (page or socket) shares: the app state and the Host check."""

    def initialize(self, app_state):
        self.app_state = app_state
        self.conn = None

    @property
    def classroom(self) -> Classroom:
        return self.app_state["classroom"]

    def check_host(self) -> None:
        """403 unless the Host header names localhost, the served address or an allowed name."""
        if host_name(self.request.host) not in self.app_state["hosts"]:
            log.warning("refused Host header %r from %s", self.request.host, self.request.remote_ip)
            raise tornado.web.HTTPError(403, reason="Host not allowed")


class _Base(_Shared, tornado.web.RequestHandler):
    def prepare(self):
        self.check_host()

    def teacher_ok(self) -> bool:
        token = self.get_argument("token", "")
        return bool(token) and secrets.compare_digest(token, self.classroom.teacher_token)

    def write_error(self, status_code, **kwargs):
        if "exc_info" in kwargs and status_code >= 500:
            log.error("error serving %s", self.request.uri, exc_info=kwargs["exc_info"])
        self.set_header("Content-Type", "text/html; charset=utf-8")
        text = {403: "This page needs a seat code or the teacher's link.", 404: "There is no such page or seat.",
                }.get(status_code, "Something went wrong; the teacher's log has the details.")
        self.finish(f"<!doctype html><title>Haunted Lands</title><p>{escape(text)}</p>")

    def set_default_headers(self):
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Cache-Control", "no-store")


class NoIcon(_Base):
    def get(self):
        self.set_status(204)
        self.finish()


class SeatPage(_Base):
    def get(self, code):
        seat = self.classroom.store.seat_by_code(code)
        if seat is None:
            raise tornado.web.HTTPError(404)
        self.finish(page_html("seat", {"code": code}))


class ViewPage(_Base):
    def get(self, role, table_id):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        if int(table_id) not in self.classroom.store.table_ids():
            raise tornado.web.HTTPError(404)
        try:  # ?zoom=1.5 scales the whole projector page (0.5 to 3)
            zoom = min(3.0, max(0.5, float(self.get_argument("zoom", "1"))))
        except ValueError:
            zoom = 1.0
        self.finish(page_html(role, {"token": self.get_argument("token"), "table": int(table_id), "zoom": zoom}))


class TeacherPage(_Base):
    def get(self):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        self.finish(page_html("teacher", {"token": self.get_argument("token"), "base": self.app_state["base_url"]}))

    def post(self):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        try:
            msg = parse_json(self.request.body or b"{}", "the teacher's request")
        except ValueError:
            msg = {}
        self.finish(self.classroom.teacher_op(msg if isinstance(msg, dict) else {}))


class QrCode(_Base):
    def get(self, code):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        if self.classroom.store.seat_by_code(code) is None:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "image/svg+xml")
        self.set_header("Cache-Control", "private, max-age=86400")  # a seat's link does not change: redraws reuse it
        self.finish(qr_svg(f"{self.app_state['base_url']}/s/{code}"))


class ExportSave(_Base):
    def get(self, table_id):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        if int(table_id) not in self.classroom.store.table_ids():
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "application/json")
        self.set_header("Content-Disposition", f'attachment; filename="table-{table_id}.json"')
        self.finish(json.dumps(self.classroom.table(int(table_id)).state.to_dict()))  # the protocol's save


class Socket(_Shared, tornado.websocket.WebSocketHandler):
    def get_compression_options(self):
        """permessage-deflate (a ~60 KB view travels as ~7 KB) unless the app was made with
        ``compress=False``; level 1: most of the saving for a third of level 6's CPU."""
        return {"compression_level": 1, "mem_level": 8} if self.app_state["compress"] else None

    def prepare(self):
        self.check_host()
        c = self.classroom
        code, token = self.get_argument("code", ""), self.get_argument("token", "")
        role = self.get_argument("role", "seat")
        if code:
            seat = c.store.seat_by_code(code)
            if seat is None:
                raise tornado.web.HTTPError(403)
            self.conn = Connection(self, seat.table_id, seat.seat, "seat")
        elif token and secrets.compare_digest(token, c.teacher_token) and role in ("projector", "hotseat", "teacher"):
            tid = None
            if role != "teacher":
                try:
                    tid = int(self.get_argument("table"))
                except (ValueError, tornado.web.MissingArgumentError):
                    raise tornado.web.HTTPError(404) from None
                if tid not in c.store.table_ids():
                    raise tornado.web.HTTPError(404)
            self.conn = Connection(self, tid, PUBLIC if role != "teacher" else None, role)
        else:
            raise tornado.web.HTTPError(403)

    def open(self):
        c = self.classroom
        c.connections.add(self.conn)
        c.refresh(self.conn)
        c.broadcast(-1)  # teacher pages: who is connected
        if self.conn.table_id is not None:
            c.schedule_bots(self.conn.table_id)

    def on_message(self, message):
        c = self.classroom
        try:
            msg = parse_json(message, "the message")
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError:
            c.send(self.conn, {"type": "refused", "text": "The page sent something that is not a decision."})
            return
        try:
            kind = msg.get("type")
            if kind == "act":
                c.act(self.conn, msg)
            elif kind == "reveal" and self.conn.role == "hotseat":
                t = c.table(self.conn.table_id)
                self.conn.revealed_for = t.state.current_player()
                c.update(self.conn)
            elif kind == "cover" and self.conn.role == "hotseat":
                self.conn.revealed_for = None
                c.update(self.conn)
            else:
                c.send(self.conn, {"type": "refused", "text": f"Unknown request {kind!r}."})
        except Exception:  # noqa: BLE001 - the traceback to the teacher's log, a sentence to the page
            log.exception("error handling %r from table %s", msg, self.conn.table_id)
            c.send(self.conn, {"type": "error", "text": "Something went wrong; the teacher's log has the details."})

    def on_close(self):
        self.classroom.connections.discard(self.conn)
        self.classroom.broadcast(-1)


def make_app(classroom: Classroom, hosts: set[str], base_url: str, *, compress: bool = True) -> tornado.web.Application:
    """The tornado application; ``compress``: websocket messages deflated (permessage-deflate)."""
    state = {"classroom": classroom, "hosts": {h.lower() for h in hosts}, "base_url": base_url, "compress": compress}
    args = {"app_state": state}
    return tornado.web.Application([
        (r"/s/([A-Za-z0-9]{1,16})", SeatPage, args),
        (r"/(projector|hotseat)/([0-9]{1,9})", ViewPage, args),
        (r"/teacher", TeacherPage, args),
        (r"/export/([0-9]{1,9})", ExportSave, args),
        (r"/qr/([A-Za-z0-9]{1,16})", QrCode, args),
        (r"/ws", Socket, args),
        (r"/favicon.ico", NoIcon, args),
    ], serve_traceback=False, websocket_max_message_size=64 * 1024)


# ============================================================================ pages
_PAGE = (Path(__file__).parent / "server_page.html")


def page_html(role: str, params: dict) -> str:
    """The page for ``role`` (seat, projector, hotseat, teacher): one HTML file whose
    script opens the socket with ``params``."""
    return _PAGE.read_text(encoding="utf-8").replace("__ROLE__", json.dumps(role)).replace(
        "__PARAMS__", json.dumps(params).replace("</", "<\\/"))


# ============================================================================ running
@functools.lru_cache(maxsize=1024)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno), or an empty string without segno;
    made once per link (the teacher page shows the same codes at every redraw)."""
    try:
        import segno  # lazy: only the teacher page's QR code needs segno (about 60 ms to import)
    except ImportError:  # pragma: no cover - segno is a dependency
        return ""
    return segno.make(url, error="m").svg_inline(scale=3)


def serve(store_path, *, ip: str = "127.0.0.1", port: int = 8870, allow_hosts=(), size: float = DEFAULT_SIZE,
          bot_delay: float = 0.3, first_table: dict | None = None, log_path=None, token: str | None = None,
          ready=None, compress: bool = True) -> int:
    """Run the classroom server until interrupted. Returns 0.

    Args:
        store_path: the SQLite store (created when missing; its tables resume).
        ip: the address to serve on; ``127.0.0.1`` (default) is this machine only,
            ``0.0.0.0`` every network interface.
        port: the port (0: any free one).
        allow_hosts: more names the Host header may carry (e.g. a DNS name).
        first_table: :meth:`GameStore.create_table` keywords for a table made at start
            (when the store has none yet).
        log_path: the teacher's log (errors with tracebacks); default stderr.
        token: the teacher token (default: a new random one).
        ready: ``ready(info)`` once listening (``info``: urls, token, port).
        compress: deflate websocket messages (permessage-deflate, when the browser offers it).
    """
    handler = logging.FileHandler(log_path) if log_path else logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("haunted_kit.server", "tornado.application", "tornado.general"):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(logging.INFO)
    store = GameStore(store_path)
    if first_table is not None and not store.table_ids():
        store.create_table(**first_table)
    store.tables()  # rebuild every table now: a broken record shows at start, not mid-lesson
    classroom = Classroom(store, size=size, bot_delay=bot_delay, teacher_interval=TEACHER_INTERVAL,
                          **({"teacher_token": token} if token else {}))
    public = ip not in ("127.0.0.1", "localhost", "::1")
    address = lan_address() if ip in ("0.0.0.0", "::") else ip
    hosts = set(LOCAL_HOSTS) | {address, ip} | set(allow_hosts)

    async def main():
        sockets = bind_sockets(port, address=ip)
        bound = sockets[0].getsockname()[1]
        base = f"http://{address if public else '127.0.0.1'}:{bound}"
        app = make_app(classroom, hosts, base, compress=compress)
        server = tornado.httpserver.HTTPServer(app, xheaders=False)
        server.add_sockets(sockets)
        for tid in store.table_ids():
            classroom.schedule_bots(tid)
        info = {"base": base, "port": bound, "token": classroom.teacher_token,
                "teacher": f"{base}/teacher?token={classroom.teacher_token}",
                "seats": {t.id: {s.seat: f"{base}/s/{s.code}" for s in t.seats} for t in store.tables()}}
        print(f"Teacher page: {info['teacher']}", flush=True)
        for t in store.tables():
            for s in t.seats:
                kind = f"bot ({s.agent})" if s.agent else "human"
                print(f"  {t.name} P{s.seat + 1} [{kind}]: {base}/s/{s.code}", flush=True)
        if public:
            print(f"Open to the network at {base}: every page needs a seat code or the teacher's link.", flush=True)
        else:
            print("Serving on this computer only; use --ip 0.0.0.0 to open it to the school network.", flush=True)
        print("Ready: Ctrl+C stops the server; the tables stay in the store.", flush=True)
        if ready is not None:
            ready(info)
        await asyncio.Event().wait()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    return 0
