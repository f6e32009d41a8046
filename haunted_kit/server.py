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

Security: localhost by default. Every seat page and socket needs that seat's code;
the teacher page (and its operations, save files and QR codes) needs the teacher token
(printed at start). Links meant to be shown carry tokens of their own, one per table
and kind (:data:`~haunted_kit.store.LINK_KINDS`): the projector's watch-only link
(also for spectators) can only watch that table, and the hot-seat link can only play
that table (decide, take back, show and cover the mover's hidden cards); neither opens
the teacher page, another table, a rollback or a seat change. The teacher page renews
either (``new_link``): every page open on the old link is told in words and closed. The
teacher token opens no projector or hot-seat page (a plain page says to use the table's
link), and no page names its address to the page opened from it (``Referrer-Policy:
no-referrer``: a screen opened from the teacher page never holds the teacher's address).
Every token is kept in the store, so every link works again after a restart. The
Host header must be a localhost name, the address served on, or a name given with
``allow_hosts``; anything else gets 403. Errors are written to the teacher's log
(``log_path``) with their traceback; a page only gets a sentence.

Nothing a page sends can stall the class: bots think in worker processes (their search
budget capped by the store), so the event loop keeps serving every other table; every
teacher request is checked field by field (whole numbers in range, no ``NaN`` or
``Infinity``) and refused with a sentence; a page that closes while it is sent an update
is one line in the log.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import io
import json
import logging
import random
import secrets
import signal
import socket
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from urllib.parse import urlencode

import tornado.httpserver
import tornado.web
import tornado.websocket
from tornado.netutil import bind_sockets

try:
    import fcntl  # one server per store file (an advisory lock; POSIX only)
except ImportError:  # pragma: no cover - Windows: no lock, the store's decision numbers still keep decisions single
    fcntl = None

from . import lesson
from .bots import seat_bot
from .events import cited_rulings, rulings_html, rulings_words
from .explain import BoardKeys, option_label, settings_sentence, settings_words
from .fileio import parse_json
from .games import DEFAULT_GAME, cap_reached, decision_cap, game_module, game_names, game_options, get_game
from .protocol import SEED_MAX, SEED_MIN, IllegalAction, describe_action, is_integer
from .render.pancue import PAN_CUE_JS
from .render.style import name_cells
from .review import game_value_words
from .search import determinise
from .store import GameStore, StoreError, Table, check_agent, start_position, table_box
from .tableview import generic_table_view, read_form
from .visibility import seat_secrets
from .workers import worker_pool

log = logging.getLogger("haunted_kit.server")

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
PUBLIC = -1  #: the viewer of a shared screen (projector, hot seat): no player, every hidden card face down
DEFAULT_SIZE = 30.0
MAX_REQUEST_BYTES = 64 * 1024  #: a teacher request (POST body) or a page's message
DECISIONS_LISTED = 30          #: the teacher page lists a table's last 30 decisions to roll back to,
DECISIONS_EVERY = 10           #: and every tenth decision before them
TEACHER_INTERVAL = 0.3         #: seconds: the served teacher page is sent at most about three messages a second
#: the teacher's lesson actions (:meth:`Classroom.lesson_op`)
LESSON_OPS = ("roster", "name", "archive", "unarchive", "remove", "rematch")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


#: a shared screen's role -> the kind of link (:meth:`GameStore.link_token`) that opens it
SCREEN_LINKS = {"projector": "watch", "hotseat": "hotseat"}
SCREEN_NAMES = {"projector": "projector (watch-only)", "hotseat": "hot-seat"}


def screen_refusal(role: str, teacher_key: bool) -> str:
    """The sentence a ``role`` screen (projector, hotseat) gets for a token that does not
    open it: the teacher's token (it no longer opens a shown screen), or another."""
    name = SCREEN_NAMES[role]
    if teacher_key:
        return (f"This link carries the teacher's key, which does not open a {name} screen (an address bar on a "
                f"shared screen would show it): open the table's {name} link from the teacher page.")
    return (f"This {name} link is not this table's or was withdrawn by the teacher: open the table's {name} link "
            "from the teacher page.")


def token_matches(given: str, token: str) -> bool:
    """Whether a page's ``given`` token is the teacher's (compared in constant time; any text)."""
    return bool(given) and secrets.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


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


def option_fields(game) -> list[dict]:
    """The new-table form fields (:func:`haunted_kit.tableview.read_form`) of a game
    without a ``classroom`` module: its declared whole-number options
    (:class:`~haunted_kit.protocol.GameOption` of kind ``"int"`` or ``"ints"``) and its word
    options that declare their ``choices`` (a dropdown, each choice with its words as
    ``labels``); a word option without choices needs a ``classroom.FORM`` choice list, so it
    keeps its default. Labels are the options' words (:func:`haunted_kit.explain.option_label`)."""
    out = []
    for o in game_options(game):
        if o.default is None or not (o.kind in ("int", "ints") or o.choices):
            continue
        field = {"name": o.keyword, "label": option_label(o).capitalize(), "kind": o.kind, "help": o.help,
                 "default": list(o.default) if isinstance(o.default, (list, tuple)) else o.default,
                 **({"min": o.low} if o.low is not None else {}), **({"max": o.high} if o.high is not None else {})}
        if o.choices:
            field.update(kind="choice", choices=[v for v, _ in o.choices], labels=dict(o.choices))
        out.append(field)
    return out


def with_rulings(fields: list[dict]) -> list[dict]:
    """A form's fields as the teacher page gets them: each field whose help cites a kit
    ruling carries ``rulings``, the ruling's own words to open in place
    (:func:`haunted_kit.events.rulings_html`), so the form never shows a bare ruling code."""
    return [{**f, "rulings": rulings_html(f.get("help", ""))} if cited_rulings(f.get("help", "")) else f
            for f in fields]


def classroom_games(first: str | None = None) -> list[dict]:
    """Every registered game, as the teacher page's new-table form needs it: ``name``,
    ``title``, ``players`` ([fewest, most]) and ``fields`` (the game's own settings: its
    ``classroom.FORM``, or for a game without a ``classroom`` module the fields of its
    declared options, :func:`option_fields`, and the generic page; a field citing a kit
    ruling with its words, :func:`with_rulings`). ``first``: the game listed first (the
    form's choice when the page opens: ``server --game``)."""
    out = []
    for name in sorted(game_names(), key=lambda n: n != first):
        views, game = game_module(name, "classroom"), get_game(name)
        if views is not None:
            out.append({"name": name, "title": game.title, "players": list(views.PLAYERS),
                        "fields": with_rulings(views.FORM)})
        else:
            out.append({"name": name, "title": game.title, "players": [game.min_players, game.max_players],
                        "fields": with_rulings(option_fields(game))})
    return out


def common_fields(players: tuple[int, int]) -> list[dict]:
    """The new-table fields every game shares, for :func:`haunted_kit.tableview.read_form`:
    players (the game's range), seed, the house-rule box's folder, bot seats (1-based)."""
    lo, hi = players
    return [{"name": "players", "label": "Players", "kind": "int", "min": lo, "max": hi, "default": lo},
            {"name": "seed", "label": "Seed", "kind": "int", "min": SEED_MIN, "max": SEED_MAX, "default": 1},
            {"name": "bots", "label": "Bot seats", "kind": "ints", "min": 1, "max": hi, "default": []}]


CREATE_FIELDS = ("op", "game", "players", "seed", "box", "bots", "options")  #: the keys of a create request


def create_request(msg: dict) -> dict:
    """The :meth:`GameStore.create_table` keywords of a teacher's create request
    ``{"op": "create", "game", "players", "seed", "box", "bots": [1-based seats],
    "options": {the game's FORM values}}`` (a missing game is Haunted Lands).

    Raises:
        ValueError: a sentence naming the field: an unknown or unserved game, players
        outside the game's range, a seed of more than 64 bits, a bot seat that is no
        player, a box that is no folder name, or a game setting its ``options_from_form``
        refuses."""
    for key in msg:
        if key not in CREATE_FIELDS:
            raise ValueError(f"A new table has no field {str(key)[:40]!r} (its fields: {', '.join(CREATE_FIELDS[1:])}; "
                             "a game's own settings go in options).")
    name = msg.get("game", DEFAULT_GAME)
    served = {g["name"]: g for g in classroom_games()}
    if not isinstance(name, str) or name not in served:
        raise ValueError(f"Game (game) must be one of {', '.join(served)}, got {str(name)[:40]!r}.")
    views = game_module(name, "classroom")
    common = {k: msg[k] for k in ("players", "seed") if k in msg}
    fields = common_fields(tuple(served[name]["players"]))
    values = read_form(common, fields[:2], "A new table")
    players = values["players"]  # first: the bot seats are read against the table's own players
    bots = read_form({k: msg[k] for k in ("bots",) if k in msg}, [{**fields[2], "max": players}], "A new table")["bots"]
    if any(b > players for b in bots) or len(set(bots)) != len(bots):
        raise ValueError(f"Bot seats (bots) must be different seats from 1 to {players}, got {bots}.")
    box = msg.get("box") or None
    if box is not None and (not isinstance(box, str) or len(box) > 4096 or "\0" in box):
        raise ValueError("House-rule box (box) must be the name of a folder on the server, or empty.")
    if box is not None and not Path(box).is_dir():  # said in the form's words, before the box loader's file terms
        raise ValueError(f"House-rule box (box): the server has no folder {box[:200]!r}"
                         + (" (that is a file)" if Path(box).exists() else "") + "; give a copy of data/ or leave it empty.")
    if views is not None:
        options = views.options_from_form(msg.get("options", {}))
    else:  # a game without a classroom module: its declared options
        options = read_form(msg.get("options", {}), served[name]["fields"], served[name]["title"])
    return {"game": name, "players": players, "seed": values["seed"], "box": box,
            "bots": [b - 1 for b in bots], **options}


def view_message(table: Table, viewer: int, size: float, *, hot_seat: bool = False, revealed: bool = False,
                 bots=(), board_keys: BoardKeys | None = None) -> dict:
    """The message a page receives: everything built for ``viewer`` only.

    ``viewer``: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen). On a
    hot-seat screen the human to move may act; their hidden cards show only when
    ``revealed``. The game's part (board, player boards, log, choices) comes from its
    ``classroom.table_view``; a game without one gets the generic view
    (:func:`haunted_kit.tableview.generic_table_view`: its observation as tables, its
    legal actions as buttons). ``bots`` (seat -> agent): a seat played by a bot
    gets no choices and ``"bot": True``. Also ``"secrets"`` (the game hides a seat's
    cards from the others: the hot seat's "Show my hidden cards" is offered,
    :func:`haunted_kit.visibility.seat_secrets`), ``"turn"`` (the page has choices now) and
    ``"help"`` (HTML: the phase explained; the game's own when its view gives one).
    ``board_keys``: the :class:`~haunted_kit.explain.BoardKeys` of the table's position,
    shared by its pages (the same message; the board's key is read once per position)."""
    views = table_views(table)
    title_who = (f" · P{viewer + 1}" if viewer is not None and viewer >= 0 and not hot_seat else
                 " · hot seat" if hot_seat else " · projector")
    msg = {
        "type": "view", "table": table.id, "seq": table.seq, "you": viewer if viewer >= 0 else None,
        "hot_seat": hot_seat, "revealed": bool(revealed and hot_seat), "secrets": seat_secrets(table.game),
        "title": f"{table.game.title} · {table.name}{title_who}",
        **(views.table_view(table.state, viewer, size, hot_seat=hot_seat, revealed=revealed, bots=bots) if views is not None
           else generic_table_view(table.game, table.state, viewer, hot_seat=hot_seat, revealed=revealed, bots=bots)),
    }
    # the key of every code the board draws, and a title on each drawn code (haunted_kit.explain)
    keyed = board_keys if board_keys is not None else BoardKeys(table.game, table.state)
    msg["board"], msg["key"] = keyed(msg.get("board", ""))
    if not hot_seat and viewer is not None and viewer in bots:  # a seat handed to a bot: nothing to click
        msg["actions"], msg["acting"], msg["bot"] = [], None, True
    msg["turn"] = bool(msg["actions"])
    msg.setdefault("help", f"<p><b>Now:</b> {escape(msg.get('phase', ''))}</p>")
    explain_rulings(msg)
    return msg


def named(msg: dict, table: Table) -> None:
    """A view's ``status`` and ``phase`` (who is to move, who won) with each seat's name after
    its mark: ``"P3 to move."`` -> ``"P3 Chloé to move."`` (:func:`haunted_kit.lesson.with_names`)."""
    names = [s.name for s in table.seats]
    for key in ("status", "phase"):
        if isinstance(msg.get(key), str):
            msg[key] = lesson.with_names(msg[key], names)


#: the HTML parts of a view that may cite a kit ruling in the game's words
RULING_PARTS = ("help", "ranking", "game_board", "key")


def explain_rulings(msg: dict) -> None:
    """Every kit ruling a view's words cite made readable where it is cited (never a bare
    code): each HTML part (:data:`RULING_PARTS`, each player board) gets the cited rulings'
    own words to open in place after it (:func:`haunted_kit.events.rulings_html`), and
    ``rulings`` holds those of the plain ``status`` and ``phase`` lines, which the page
    shows under them (``""`` when they cite none). The log's sentences get theirs from
    :func:`haunted_kit.tableview.sentence_log_html`."""
    for key in RULING_PARTS:
        if msg.get(key):
            msg[key] += rulings_html(msg[key])
    msg["players"] = [p + rulings_html(p) for p in msg.get("players", [])]
    msg["rulings"] = rulings_html(f"{msg.get('status', '')} {msg.get('phase', '')}")


def decision_text(table: Table, seat: int, action) -> str:
    """A decision in the teacher's list: the seat and the action's words, cells named
    as on the board (``"P2: explore to cell 1,-2"``)."""
    return f"P{seat + 1}: {name_cells(describe_action(action, table.state))}"


class Observed:
    """A position and its observations, each built once: ``Observed(state)[q]`` is
    ``state.observation(q)`` (the same dict each time: read it, never change it)."""

    def __init__(self, state):
        self.state = state
        self._seen: dict = {}

    def __getitem__(self, q):
        got = self._seen.get(q)
        if got is None:
            got = self._seen[q] = self.state.observation(q)
        return got


def undo_allowed(table: Table, seat: int, *, before: Observed | None = None, after: Observed | None = None) -> bool:
    """Board Game Arena's policy for taking back one's own move: ``seat`` made the last
    decision in effect, and that decision neither produced a chance outcome (the
    action record gained a chance entry) nor revealed hidden information (some player's
    view after it differs from the same decision applied to a determinisation of the
    position before it, :func:`haunted_kit.search.determinise`). Other players have
    not moved since, because the last decision is the seat's own.

    ``before`` / ``after``: the position before the last decision and the table's position
    now with their observations, when the caller kept them (:class:`Observed`); else the
    position before is replayed (:meth:`Table.position`) and the observations built here."""
    if not table.applied or table.applied[-1][1] != seat or table.state.is_terminal():
        return False
    before = before if before is not None else Observed(table.position(len(table.applied) - 1))
    after = after if after is not None else Observed(table.state)
    action = table.applied[-1][2]
    if any(e.chance for e in after.state.history()[len(before.state.history()):]):
        return False
    rng = random.Random(table.seq)
    for q in range(len(table.seats)):
        guess = determinise(table.game, before.state, q, rng)
        guess_before = guess.observation(q)
        try:
            guess.apply_action(action)
        except (IllegalAction, ValueError):
            return False  # the decision was possible only because of something ``q`` cannot see
        if not _same_news(before[q], after[q], guess_before, guess.observation(q)):
            return False  # what the decision showed ``q`` depended on something ``q`` could not see
    return True


def _same_news(real_before: dict, real_after: dict, guess_before: dict, guess_after: dict) -> bool:
    """Whether a decision shows an observer the same on the real position as on a
    determinisation of it: every part of the observation is equal after the decision,
    except a part the determinisation does not keep (a log it leaves empty before and
    after, while the real one has entries)."""
    for key in real_after.keys() | guess_after.keys():
        ra, ga = real_after.get(key), guess_after.get(key)
        untracked = ga == guess_before.get(key) and not ga and real_before.get(key)
        if ra != ga and not untracked:
            return False
    return True


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
    last_tutor: str | None = None  # the last tutorial message sent (a tutorial table's seat pages)


def bot_decision(game, config: dict, box_path, record: list, bot) -> tuple[dict, object]:
    """A bot's decision, computed in a worker process: the table's game (its
    :class:`~haunted_kit.protocol.Game`, pickled by reference to its class, so a game
    registered at run time works too) rebuilt from its configuration, box folder
    (``None``: the reference box) and ``record`` (the action dicts in effect, oldest
    first), then ``bot`` (the seat's agent object, sent over with its random generator)
    decides. Returns the action's dict form and the bot after it decided (its generator
    moved on exactly as if it had decided in the server)."""
    state = start_position(game, config, table_box(game, box_path)[0])
    for action in record:
        state.apply_action(game.action_from_dict(action))
    return game.action_to_dict(bot.act(state.copy())), bot


@dataclass
class Classroom:
    """The games and the pages open on them (the server's state, no tornado inside).

    Bots decide in ``bot_workers`` worker processes (started on the first bot decision,
    a fresh interpreter each: ``spawn``); :meth:`close` stops them."""

    store: GameStore
    size: float = DEFAULT_SIZE
    bot_delay: float = 0.3
    teacher_token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    bot_workers: int = 2
    teacher_interval: float = 0.0  #: seconds between two teacher messages at most (0: every change at once)
    connections: set = field(default_factory=set)
    #: table id -> the pages open on it when it was archived: kept connected (no updates) until it is
    #: back in play or rematched, so they are sent on by themselves (:meth:`move_pages`)
    parked: dict = field(default_factory=dict)
    announcements: dict = field(default_factory=dict)  #: table id -> {"id", "text"}: the last rollback or undo
    _bots: dict = field(default_factory=dict)
    _undo: dict = field(default_factory=dict)  #: table id -> (seq, seat, allowed): one check per decision
    _waiting: dict = field(default_factory=dict)  #: table id -> (seq, state, seats' names and agents, lesson.waiting)
    _idle: dict = field(default_factory=dict)     #: table id -> (seq, state, lesson.seat_idle)
    _positions: dict = field(default_factory=dict)  #: table id -> {(decisions, last row): Observed}: now and one back
    _views: dict = field(default_factory=dict)     # view_key -> [message, JSON text or None until needed]
    _patches: dict = field(default_factory=dict)   # (id(last), id(new)) -> (last, new, JSON text)
    _status: dict = field(default_factory=dict)    # (table, seq) -> status line
    _keys: dict = field(default_factory=dict)      # table id -> (seq, BoardKeys of that position)
    _teacher_rows: dict = field(default_factory=dict)  # table id -> (seq, state, the row's parts fixed by the record)
    _teacher_due: object = None                    # the scheduled teacher message (asyncio TimerHandle)
    _teacher_sent: float = float("-inf")           # time.monotonic() of the last teacher message
    _bot_tasks: dict = field(default_factory=dict)
    _pool: object = None
    _server_lock: object = None   #: the store file held open and locked by :func:`open_classroom`
    game: str = DEFAULT_GAME      #: the game the teacher page's new-table form offers first (``server --game``)
    #: seconds since the epoch, now (``time.time``): how long a table waits and seats idle; a test drives it
    clock: object = time.time
    _reviews: dict = field(default_factory=dict)  #: (table, seq) -> the replay's turning points (a Future or a list)
    tutorial: bool = False        #: tutorial tables (``server --tutorial``): each seat's page teaches it (:meth:`tutor_message`)
    _tutors: dict = field(default_factory=dict)    #: (table, seat) -> its SeatTutorial (loaded from the store once)
    _tutor_notices: dict = field(default_factory=dict)  #: (table, seat) -> why its progress was set aside, said once
    _question_boards: dict = field(default_factory=dict)  #: (game, exercise key, seed) -> the question's board SVG
    _question_jobs: dict = field(default_factory=dict)    #: (table, seat, exercise key) -> the task settling its seed
    loop: object = None  #: the event loop serving the class (set by :func:`serve`): questions are settled in its worker pool

    def table(self, table_id: int) -> Table:
        return self.store.table(table_id)

    def bots_of(self, table: Table) -> dict:
        """seat -> agent object for the table's bot seats (made once per seat and agent by
        :func:`~haunted_kit.bots.seat_bot`; each decision is computed on a copy in a worker
        process, and the copy that decided replaces it)."""
        out = {}
        for seat in table.seats:
            if seat.agent is None:
                continue
            key = (table.id, seat.seat, seat.agent)
            if key not in self._bots:
                self._bots[key] = seat_bot(seat.agent, table.game, table.config["seed"], seat.seat)
            out[seat.seat] = self._bots[key]
        return out

    def close(self, wait: bool = False) -> None:
        """Stop the bots' worker processes (a decision being computed is dropped; ``wait``:
        until they have ended, as a server stopping does, so nothing of theirs is left
        behind); a classroom of :func:`open_classroom` also closes its store and lets
        another server open it."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
        if self._server_lock is not None:
            self.store.close()
            self._server_lock.close()  # after the store: closing a file SQLite has open drops its locks
            self._server_lock = None

    def view_key(self, conn: Connection) -> tuple:
        """What a page's view depends on: ``(table, seq, viewer, mode, bot seats)``; pages
        with one key share one built view (:meth:`cached_view`). ``mode`` is ``"seat"``,
        ``"projector"``, or ``"hotseat"`` / ``"hotseat-revealed"`` (the mover's quests shown)."""
        t = self.table(conn.table_id)
        mode = conn.role
        if conn.role == "hotseat":
            if conn.revealed_for is not None and conn.revealed_for != t.state.current_player():
                conn.revealed_for = None  # "Show my quests" holds for one mover only: the next one asks again
            if conn.revealed_for is not None:
                mode = "hotseat-revealed"
        bot_seats = tuple(s.seat for s in t.seats if s.agent is not None)
        return (t.id, t.seq, conn.viewer, mode, bot_seats, tuple(s.name for s in t.seats))

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
        table_id, seq, viewer, mode, *_ = key
        stale = [k for k in self._views if k[0] == table_id and k[1] != seq]
        for k in stale:
            del self._views[k]
        msg = self.build_view(self.table(table_id), viewer, mode)
        self._views[key] = [msg, None]
        return msg

    def build_view(self, t: Table, viewer: int, mode: str) -> dict:
        """The view message of table ``t`` for ``viewer`` in ``mode`` (see :meth:`view_key`),
        built afresh: :func:`view_message` plus ``undo`` (own-move undo allowed now,
        :meth:`can_undo`) and ``announce`` (the table's last rollback or undo sentence, or
        None)."""
        bots, keys = self.bots_of(t), self.board_keys(t)
        if mode == "seat":
            msg = view_message(t, viewer, self.size, bots=bots, board_keys=keys)
        else:
            msg = view_message(t, PUBLIC, self.size, hot_seat=mode != "projector", revealed=mode == "hotseat-revealed",
                               bots=bots, board_keys=keys)
        # own-move undo: a seat page for its seat; the hot-seat screen for the human at it (the one to move)
        seat = viewer if mode == "seat" else None if mode == "projector" else t.state.current_player()
        msg["undo"] = bool(msg["type"] == "view" and seat is not None and seat >= 0 and seat not in bots
                           and self.can_undo(t, seat))
        msg["undo_seat"] = seat if msg["undo"] else None  # whose decision "Take back" takes back
        # always a key (None: nothing to say), so a patch can clear it; a finished game's pages show its
        # results, not a rollback's notice about a position that is no more
        msg["announce"] = None if t.state.is_terminal() else self.announcements.get(t.id)
        self.lesson_view(t, viewer, mode, msg)
        return msg

    def board_keys(self, t: Table) -> BoardKeys:
        """The :class:`~haunted_kit.explain.BoardKeys` of table ``t``'s position (one per
        table, made afresh when the table's record moves on: ``seq`` counts every row)."""
        kept = self._keys.get(t.id)
        if kept is None or kept[0] != t.seq or kept[1].state is not t.state:
            kept = self._keys[t.id] = (t.seq, BoardKeys(t.game, t.state))
        return kept[1]

    # ------------------------------------------------------------------ a tutorial table's seats
    def tutor_of(self, t: Table, seat: int):
        """Seat ``seat`` of table ``t``'s tutorial (:class:`haunted_kit.tutorial.SeatTutorial`),
        loaded from the store the first time (its progress kept there after every change, so a
        restart resumes it), having met what the table's position brings it. A record that
        cannot be read is set aside in the store with its reason (:meth:`GameStore.set_tutor_aside`),
        logged and said once on the seat's page; the seat starts afresh and the table plays on."""
        from .tutorial import SeatTutorial, TutorialError  # lazy: only a tutorial class needs it

        key = (t.id, seat)
        book = self._tutors.get(key)
        if book is None:
            seed = t.config.get("seed", 0)
            taken = [x.config.get("seed", 0) for x in self.store.serving() if x.game.name == t.game.name]

            def made():
                return SeatTutorial(t.game, seat, seed, taken,
                                    save=lambda data: self.store.set_tutor_progress(t.id, seat, data))
            book = made()
            try:
                data = self.store.tutor_progress(t.id, seat)
                if data is not None:
                    book.load(data)
            except (ValueError, TutorialError) as exc:
                reason = str(exc)
                self.store.set_tutor_aside(t.id, seat, reason)
                log.warning("table %s: P%d's tutorial progress set aside: %s", t.id, seat + 1, reason)
                self._tutor_notices[key] = (f"Your tutorial progress could not be read ({reason}); it was kept aside "
                                            "for the teacher, and your tutorial starts again from here.")
                book = made()
            self._tutors[key] = book
        book.follow(t.state)
        return book

    def question_board(self, game, ex) -> str:
        """The board of a question's position (its own prepared game, never the table's) as
        the question's player may see it (the game's ``classroom.table_view`` for that
        seat, :func:`haunted_kit.visibility`), made once per exercise and seed; ``""``
        without a position or a board."""
        if ex.state is None:
            return ""
        key = (game.name, ex.key, ex.seed)
        if key not in self._question_boards:
            viewer = ex.player if ex.player is not None else PUBLIC
            views = game_module(game.name, "classroom")
            part = views.table_view(ex.state, viewer, self.size) if views is not None else {}
            self._question_boards[key] = part.get("board", "")
        return self._question_boards[key]

    def tutor_message(self, t: Table, seat: int) -> dict:
        """A tutorial seat page's panel, ``{"type": "tutor", "table", "on"}`` (``on``: False for a
        seat a bot plays) and ``current`` (the step to read as it reads now: ``key``, ``title``,
        ``text``, ``section``, ``choices``, ``lines``: the player aid's; ``lead``, ``more`` and
        ``folded``: the text as the panel shows it, :func:`~haunted_kit.tutorial.step_parts`; or None), ``waiting`` (titles queued behind it),
        ``met`` (every step met: ``key``, ``title``, ``read``, ``skipped``), ``question`` (the
        question asked now: ``key``, ``seed``, ``title``, ``facts``, ``question``, ``kind``, ``options``,
        ``tries``, ``board``; or None), ``preparing`` (a question is being made: it comes in a
        further message, :meth:`question_ready`), ``feedback`` (the last verdict, or None), ``summary``
        (:meth:`~haunted_kit.tutorial.StepBook.summary`) and ``notice`` (a set-aside record, said once)."""
        from .events import cite_rulings  # lazy: only a tutorial class asks questions
        from .tutorial import step_parts  # lazy: as above

        if seat in self.bots_of(t):
            return {"type": "tutor", "table": t.id, "on": False}
        book = self.tutor_of(t, seat)
        st = book.shown(t.state)
        question = None
        preparing = bool(book.asking) and not self.question_ready(t, seat, book)
        if book.asking and not preparing:
            try:
                ex = book.question()
            except Exception:  # noqa: BLE001 - a question that cannot be made is left, never a broken page
                log.exception("table %s: P%d's question %r could not be made", t.id, seat + 1, book.asking)
                book.answered("skipped")
                ex = None
            if ex is not None:
                question = {"key": ex.key, "seed": ex.seed, "title": ex.title, "facts": [cite_rulings(f) for f in ex.fact_lines()],
                            "question": ex.question, "kind": ex.kind, "options": list(ex.options), "tries": book.tries,
                            "board": self.question_board(t.game, ex)}
        return {"type": "tutor", "table": t.id, "on": True,
                "current": None if st is None else {"key": st.key, "title": st.title, "text": st.text,
                                                    "section": st.section, "choices": list(st.choices),
                                                    "lines": [list(x) for x in st.lines],
                                                    **dict(zip(("lead", "more", "folded"), step_parts(st)))},
                "waiting": [w.title for w in book.waiting()],
                "met": [{"key": k, "title": x.title, "read": k in book.read, "skipped": k in book.skipped}
                        for k, x in book.steps.items()],
                "question": question, "preparing": preparing, "feedback": book.feedback, "summary": book.summary(),
                "notice": self._tutor_notices.get((t.id, seat), "")}

    def question_ready(self, t: Table, seat: int, book) -> bool:
        """Whether the question ``book`` asks now can be made at once: its seed is settled
        (kept in its progress). Else the exercise machinery's search for a position (up to
        about a second for some seeds) runs in the worker pool (:func:`haunted_kit.tutorial.settled_seed`),
        never in the event loop the whole class shares, and the seat's pages get the question
        when it is done; outside the loop serving the class (``Classroom.loop``, a script) it is made here."""
        key = book.asking
        if not key or key in book.seeds:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return True
        if loop is not self.loop:  # not the loop serving this class (a script, a test's own loop): made here
            return True
        job = (t.id, seat, key)
        if job not in self._question_jobs:
            self._question_jobs[job] = loop.create_task(self._settle_question(job, t.game, book.question_seed,
                                                                              tuple(sorted(book.taken))))
        return False

    async def _settle_question(self, job: tuple, game, seed: int, taken: tuple) -> None:
        from .tutorial import settled_seed  # lazy: only a tutorial class asks questions

        tid, seat, key = job
        try:
            settled = await asyncio.get_running_loop().run_in_executor(self._bot_pool(), settled_seed, game, key, seed,
                                                                       taken)
        except Exception:  # noqa: BLE001 - to the teacher's log; the question is left, the seat reads on
            log.exception("table %s: P%d's question %r could not be made", tid, seat + 1, key)
            settled = None
        finally:
            self._question_jobs.pop(job, None)
        book = self._tutors.get((tid, seat))
        if book is None or book.asking != key or tid not in self.store.serving_ids():
            return
        if settled is None:
            book.answered("skipped")
        else:
            book.seeds[key] = settled
            book.save()
        for c in list(self.connections):
            if c.role == "seat" and c.table_id == tid and c.viewer == seat:
                self.send_tutor(c)
        self.teacher_changed()

    def send_tutor(self, conn: Connection) -> None:
        """Send a tutorial table's seat page its panel (:meth:`tutor_message`) when it changed."""
        text = json.dumps(self.tutor_message(self.table(conn.table_id), conn.viewer))
        if text != conn.last_tutor:
            conn.last_tutor = text
            self.send_text(conn, text)

    def tutor_op(self, conn: Connection, msg: dict) -> None:
        """A tutorial seat page's request ``{"type": "tutor", "op"}``: ``next`` (the step is
        read; its question, if any, is asked now), ``skip``, ``replay`` (``key``: a step met),
        ``recall`` (the goal and the player aid shown again),
        ``answer`` (``answer``: the answer as the question's kind takes it,
        :func:`haunted_kit.tutorial.read_response`), ``reveal`` (the answer, after a try) or
        ``leave`` (the question left). Kept in the store; every page of the seat and the
        teacher page are sent what changed. The table never waits for it. A request that
        cannot be done is refused with a sentence; an answer that cannot be read is said in
        the question's feedback and counts no try."""
        from .exercises import ExerciseError  # lazy: only a tutorial class answers questions
        from .tutorial import TutorialError, read_response  # lazy: as above

        t = self.table(conn.table_id)
        seat = conn.viewer
        if not self.tutorial or seat in self.bots_of(t):
            self.send(conn, {"type": "refused", "text": "This seat has no tutorial now."})
            return
        book = self.tutor_of(t, seat)
        op = msg.get("op")
        self._tutor_notices.pop((t.id, seat), None)
        try:
            if op in ("next", "skip", "replay", "recall") and not book.asking:
                book.feedback = None  # the last question's verdict was read: the panel moves on
            if op == "next":
                book.next()
            elif op == "skip":
                book.skip()
            elif op == "recall":
                book.recall()
            elif op == "replay":
                key = msg.get("key")
                if not isinstance(key, str):
                    raise TutorialError("choose a step from the list of steps met")
                book.replay(key)
            elif op in ("answer", "reveal") and not self.question_ready(t, seat, book):
                raise TutorialError("The question is still being prepared; it shows in a moment.")
            elif op == "answer":
                ex = book.question()
                if ex is None:
                    raise TutorialError("No question is asked now.")
                book.check(read_response(ex, msg.get("answer")))
            elif op == "reveal":
                book.reveal()
            elif op == "leave":
                book.leave()
                book.feedback = None
                book.save()
            else:
                raise TutorialError(f"unknown tutorial request {short(op)}")
        except ExerciseError as exc:  # an answer that cannot be read: said where the verdict goes, no try counted
            book.feedback = {"question": book.asking, "stage": "unread", "text": str(exc)}
        except TutorialError as exc:
            self.send(conn, {"type": "refused", "text": str(exc)})
            return
        for c in list(self.connections):
            if c.role == "seat" and c.table_id == t.id and c.viewer == seat:
                self.send_tutor(c)
        self.teacher_changed()

    def tutor_summaries(self, t: Table) -> dict:
        """Seat -> the teacher page's line on a tutorial seat: how far it is
        (:meth:`~haunted_kit.tutorial.StepBook.summary`) and any progress record set aside."""
        asides = self.store.tutor_asides(t.id)
        out = {}
        for s in t.seats:
            if s.agent is not None:
                continue
            n = self.tutor_of(t, s.seat).summary()
            text = (f"{n['read']} of {n['met']} steps read" + (f", {n['skipped']} skipped" if n["skipped"] else "")
                    + f"; questions {n['right']} right of {n['asked']} asked")
            if s.seat in asides:
                text += f" (progress set aside: {asides[s.seat][-1]})"
            out[s.seat] = text
        return out

    def lesson_view(self, t: Table, viewer: int, mode: str, msg: dict) -> None:
        """What a table's page shows of the lesson, added to ``msg``: ``names`` (each seat's
        label, ``"P2 Ana"``), ``name_wanted`` (a seat page whose seat has no name yet and
        is a student's, not a bot's: the student may give one), ``waiting`` (:func:`haunted_kit.lesson.waiting`: whom the
        table waits for and since when, the page counts the time) and ``results`` (the
        results screen's HTML once the game is over, else ""); the ``status`` and ``phase`` lines
        name the students (``"P3 Chloé to move."``, :func:`haunted_kit.lesson.with_names`)."""
        msg["names"] = [s.label for s in t.seats]
        named(msg, t)
        seat = t.seats[viewer] if mode == "seat" and 0 <= viewer < len(t.seats) else None
        msg["name_wanted"] = bool(seat is not None and not seat.name and seat.agent is None)  # a bot's seat: nobody to name
        if seat is not None and seat.name:
            msg["title"] += f" {seat.name}"
        msg["waiting"] = self.waiting(t)
        msg["results"] = lesson.results_html(lesson.results(self.store, t)) if t.state.is_terminal() else ""

    def message_for(self, conn: Connection) -> dict:
        """The full message for ``conn``'s page: the teacher message or its view."""
        if conn.role == "teacher":
            return self.teacher_message()
        return self.view_for_key(self.view_key(conn))


    def can_undo(self, t: Table, seat: int) -> bool:
        """:func:`undo_allowed`, checked once per position of the table (every page of
        the seat, and the shared screen, ask after each decision)."""
        if not t.applied or t.applied[-1][1] != seat:
            return False
        key = (t.seq, seat)
        cached = self._undo.get(t.id)
        if cached is None or cached[0] != key:
            cached = self._undo[t.id] = (key, undo_allowed(t, seat, before=self.kept_position(t, 1),
                                                           after=self.kept_position(t, 0)))
        return cached[1]

    def kept_position(self, t: Table, back: int) -> Observed | None:
        """Table ``t``'s position ``back`` decisions in effect ago (0: now, 1: before the last
        decision) with its observations (:class:`Observed`), when this classroom kept it;
        else None. The store never changes a state once it has moved on from it (a decision
        is applied to a copy), so the position now is kept as it is, under the record row
        of its last decision in effect: one position back is the one kept under the row of
        the decision before the last. Two per table are kept."""
        n = len(t.applied) - back
        if n < 0:
            return None
        key = (n, t.applied[n - 1][0] if n else None)  # a row's seq is never reused: the line up to it is fixed
        kept = self._positions.setdefault(t.id, {})
        found = kept.get(key)
        if back == 0:
            if found is None or found.state is not t.state:
                for k in [k for k in kept if k[0] < n - 1 or k[0] >= n]:  # keep the one before and this one
                    del kept[k]
                found = kept[key] = Observed(t.state)
            return found
        return found if found is not None and found.state is not t.state else None

    def line_of(self, t: Table) -> list:
        """The table's line of decisions: those in effect, then those the last rollback
        set aside (while play has not gone another way), each ``(seat, action)``; kept
        by the store from its record (:attr:`Table.line`), so it survives a restart."""
        return t.line

    def decisions_list(self, t: Table) -> list:
        """The teacher's list: every decision of the line's last :data:`DECISIONS_LISTED`,
        and every :data:`DECISIONS_EVERY`-th before them (so any part of a long game can be
        reached), ``{"n", "seat", "text", "undone"}``, numbered 1, 2, ... as the seats count
        them (decision n: the n-th decision in effect); ``undone``: set aside by a rollback,
        brought back by rolling forward to it."""
        line = self.line_of(t)
        start = max(0, len(line) - DECISIONS_LISTED)
        shown = [*range(DECISIONS_EVERY - 1, start, DECISIONS_EVERY), *range(start, len(line))]
        return [{"n": n + 1, "seat": line[n][0], "text": decision_text(t, *line[n]), "undone": n >= len(t.applied)}
                for n in shown]

    def announce(self, t: Table, text: str) -> None:
        """Every page of ``t`` shows ``text`` once (with its next view); kept in the store
        until the table's next decision, so a restart shows it again (:meth:`GameStore.notice`)."""
        self.announcements[t.id] = {"id": f"{t.id}-{t.seq}", "text": text}
        self.store.set_notice(t.id, text)

    def __post_init__(self):
        for t in self.store.serving():  # the notices kept in the store: said again after a restart
            text = self.store.notice(t.id)
            if text is not None:
                self.announcements[t.id] = {"id": f"{t.id}-{t.seq}", "text": text}

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
        if self.tutorial and conn.role == "seat":  # the seat's tutorial panel, beside its view
            self.send_tutor(conn)

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
        tables, archived = [], []
        for t in self.store.serving():
            if t.archived:  # the archive: results and replay, no seats
                archived.append({"id": t.id, "name": t.name, "game": t.game.name, "status": self.status_line(t),
                                 "over": t.state.is_terminal(), "names": [s.label for s in t.seats],
                                 "watch": self.store.link_token(t.id, "watch")})
                continue
            over = t.state.is_terminal()
            idle = [None] * len(t.seats) if over else self.seat_idle(t)  # a finished game waits for nobody
            taught = self.tutor_summaries(t) if self.tutorial else {}
            seats = [{"seat": seat.seat, "code": seat.code, "agent": seat.agent, "name": seat.name,
                      "idle_since": idle[seat.seat], "connected": online.get((t.id, seat.seat), 0),
                      "tutorial": taught.get(seat.seat, "") if self.tutorial else None} for seat in t.seats]
            settings, settings_help, decisions = self.teacher_row(t)
            tables.append({"id": t.id, "name": t.name, "seq": t.seq, "decisions": len(t.applied),
                           "status": self.status_line(t), "game": t.game.name, "config": t.config, "seats": seats,
                           "settings": settings, "settings_help": settings_help,
                           "over": t.state.is_terminal(), "decisions_list": decisions})
            tables[-1]["links"] = {kind: self.store.link_token(t.id, kind) for kind in SCREEN_LINKS.values()}
            tables[-1]["waiting"] = self.waiting(t)  # times as epochs: the page counts on (no message a second)
        return {"type": "teacher", "tables": tables, "games": classroom_games(self.game), "set_aside": self.set_aside(),
                "archived": archived, "roster": self.store.roster()}

    def teacher_row(self, t: Table) -> tuple[str, str, list]:
        """``(settings, settings_help, decisions_list)`` of table ``t``'s row of the teacher
        message, worked out once per position of the table (its record's ``seq``: the
        settings, the line of decisions and the position they are written on stay until
        the next row); the rest of the row (seats, names, times) is read afresh."""
        kept = self._teacher_rows.get(t.id)
        if kept is None or kept[0] != t.seq or kept[1] is not t.state:
            fields = self.form_fields(t.game)
            help_ = rulings_words(" ".join(f"{r['label']}: {r['help']}"  # a ruling the help cites, in its words
                                           for r in settings_words(t.game, t.config, fields) if r["help"]))
            kept = self._teacher_rows[t.id] = (t.seq, t.state, (settings_sentence(t.game, t.config, fields), help_,
                                                                self.decisions_list(t)))
        return kept[2]

    def waiting(self, t: Table) -> dict | None:
        """:func:`haunted_kit.lesson.waiting` of table ``t``, read from the store once per
        position of the table and its seats' names and agents (its time is the record's
        last row, which moves ``seq``): every page of the table and the teacher message
        share it."""
        key = (t.seq, t.state, tuple((s.label, s.agent) for s in t.seats))
        kept = self._waiting.get(t.id)
        if kept is None or kept[0] != key[0] or kept[1] is not key[1] or kept[2] != key[2]:
            kept = self._waiting[t.id] = (*key, lesson.waiting(self.store, t))
        return kept[3]

    def seat_idle(self, t: Table) -> list:
        """:func:`haunted_kit.lesson.seat_idle` of table ``t``, read from the store once per
        position of the table (each seat's last decision and the table's creation)."""
        kept = self._idle.get(t.id)
        if kept is None or kept[0] != t.seq or kept[1] is not t.state:
            kept = self._idle[t.id] = (t.seq, t.state, lesson.seat_idle(self.store, t))
        return kept[2]

    def idle_times(self, t: Table) -> dict:
        """How long, in seconds by :attr:`clock`, table ``t`` has waited for its player to
        move (``"waiting"``, None when nobody is to move) and each seat has gone without a
        decision (``"seats"``: since its last one, else since the table was made; None
        each once the game is over: nobody is idle at a finished table), as the teacher
        page counts them."""
        now, wait = self.clock(), lesson.waiting(self.store, t)
        return {"waiting": None if wait is None or wait["since"] is None else max(0.0, now - wait["since"]),
                "seats": [None if x is None or t.state.is_terminal() else max(0.0, now - x)
                          for x in lesson.seat_idle(self.store, t)]}

    @staticmethod
    def form_fields(game) -> list[dict]:
        """``game``'s new-table form fields (its ``classroom.FORM``, else its options'
        fields): the labels and help the teacher page writes its settings with."""
        views = game_module(game.name, "classroom")
        return views.FORM if views is not None else option_fields(game)

    def set_aside(self) -> list[dict]:
        """The store's tables that cannot be served, as the teacher page lists them:
        ``{"id", "name", "reason"}`` (the reason names the table and what is wrong)."""
        names = dict(self.store.db.execute("SELECT id, name FROM game_tables"))
        return [{"id": tid, "name": names.get(tid, f"Table {tid}"), "reason": why}
                for tid, why in sorted(self.store.set_aside.items())]

    def screen_token_ok(self, role: str, table_id: int, given: str) -> bool:
        """Whether ``given`` is table ``table_id``'s token for a ``role`` screen (projector:
        the watch link's, hotseat: the hot-seat link's), compared in constant time."""
        return token_matches(given, self.store.link_token(table_id, SCREEN_LINKS[role]))

    def new_link(self, table_id: int, kind: str) -> str:
        """Replace table ``table_id``'s ``kind`` link token (watch or hotseat): the old link
        stops working at once; every page open on it is told so in words and closed.
        Returns the teacher's sentence."""
        self.store.link_token(table_id, kind, new=True)
        role = next(r for r, k in SCREEN_LINKS.items() if k == kind)
        name = SCREEN_NAMES[role]
        closed = 0
        for conn in [c for c in self.connections if c.role == role and c.table_id == table_id]:
            self.connections.discard(conn)
            self.send(conn, {"type": "withdrawn", "text": f"The teacher withdrew this {name} link: this page no "
                                                          "longer shows the table. Ask the teacher for the new link."})
            close = getattr(conn.socket, "close", None)
            if close is not None:
                close(4403, "link withdrawn")
            closed += 1
        log.info("table %s: a new %s link; %d page(s) on the old one closed", table_id, name, closed)
        return (f"Table {table_id} has a new {name} link; the old one no longer works"
                + (f" ({closed} page{'s' if closed != 1 else ''} on it closed)." if closed else "."))

    def send(self, conn: Connection, msg: dict) -> None:
        """Send ``msg`` to one page (:meth:`send_text`)."""
        self.send_text(conn, json.dumps(msg))

    def send_text(self, conn: Connection, text: str) -> None:
        """Send a message's JSON text to one page; a page that closed (before or while it
        is sent) is dropped with one line in the log."""
        try:
            sent = conn.socket.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            self._closed(conn)
            return
        if isinstance(sent, asyncio.Future):
            sent.add_done_callback(lambda f: None if f.cancelled() or f.exception() is None else self._closed(conn))

    def _closed(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.discard(conn)
            where = "the teacher page" if conn.table_id is None else f"a {conn.role} page of table {conn.table_id}"
            log.info("%s closed while it was sent an update", where)

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
            if seat in bots:  # handed to a bot by the teacher: the bot decides for it
                self.send(conn, {"type": "refused", "text": "A bot plays this seat now; ask the teacher to give it back."})
                return
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
            self.send(conn, {"type": "refused", "text": f"Not allowed: {exc.refusal.text}."})
            return
        except StoreError as exc:
            log.error("table %s: %s", t.id, exc)
            self.send(conn, {"type": "error", "text": "The game store refused the decision; the teacher's log "
                                                      "has the details."})
            return
        self.announcements.pop(t.id, None)  # an announcement stays until a human seat's next decision
        self.broadcast(t.id)
        self.schedule_bots(t.id)

    def undo(self, conn: Connection, msg: dict) -> None:
        """A page takes back its seat's last decision: ``{"type": "undo", "seq": seen}``;
        on the hot-seat screen the seat is the human to move there (``"seat"``, when sent,
        must be that one), so one player never takes back another's decision.
        Allowed under :func:`undo_allowed` (Board Game Arena's policy) on the position the
        page shows; recorded as a rollback row and announced to every page of the table."""
        t = self.table(conn.table_id)
        bots = self.bots_of(t)
        if conn.role == "hotseat":  # only the decision the human at the screen (the one to move) made last
            seat = t.state.current_player()
            if "seat" in msg and msg["seat"] != seat:
                self.send(conn, {"type": "refused", "text": "The table moved on since your page showed it: "
                                                            "look at the board again."})
                return
        else:
            seat = conn.viewer if conn.role == "seat" else None
        if msg.get("seq") != t.seq or not is_integer(msg.get("seq")):
            self.send(conn, {"type": "refused", "text": "The table moved on since your page showed it: "
                                                        "look at the board again."})
            return
        if seat is None or seat < 0 or seat in bots or not self.can_undo(t, seat):
            self.send(conn, {"type": "refused", "text": "You can take back your last decision only until another "
                                                        "player moves, a hidden card is shown or chance decides."})
            return
        n = len(t.applied)
        t.rollback(n - 1, by=seat)  # the seat kept in the row: the results count its take-backs
        # no words of the decision itself: the game's visibility may hide it from the others (a card taken face down)
        self.announce(t, f"P{seat + 1} took back decision {n}; the game is back at decision {n - 1}.")
        self.broadcast(t.id)
        self.schedule_bots(t.id)

    def roll(self, tid: int, to) -> str:
        """The teacher's rollback to decision ``to`` of the table's line (``0``: the
        start): back (a rollback row), or forward to a decision a rollback set aside
        (its decisions decided again, each a new row: the record stays append-only).
        Announced to every page of the table (kept until a human seat's next decision,
        so a bot deciding again at once does not hide it). Returns the teacher's
        sentence: the pages' words, and for a bot to move, how to keep what was set aside."""
        t = self.table(tid)
        line = self.line_of(t)
        if not is_integer(to) or not 0 <= to <= len(line):
            raise ValueError(f"choose a decision from the list (0 to {len(line)}) to roll table {tid} back to, got {short(to)}")
        now = len(t.applied)
        if to == now:
            raise ValueError(f"table {tid} is at decision {to} already")
        tip = ""
        if to < now:
            t.rollback(to)
            p = t.state.current_player()
            text = f"The teacher took the game back to decision {to}: decisions {to + 1} to {now} are set aside"
            if p is not None and t.seats[p].agent is not None:
                text += (f". P{p + 1} is a bot and decides again from here (so do the other bots), perhaps otherwise "
                         "than before.")
                tip = (" If it decides otherwise, the set-aside decisions are gone; hand its seat to a human before a "
                       "rollback to keep them.")
            else:
                text += " (the teacher can bring them back)."
        else:
            for p, a in line[now:to]:
                t.decide(p, a)
            text = f"The teacher brought the game forward again to decision {to} (decisions {now + 1} to {to} are back)."
        self.announce(t, text)
        return text + tip

    def schedule_bots(self, table_id: int) -> None:
        """Bots of ``table_id`` decide one by one, every :attr:`bot_delay` seconds, each
        decision computed in a worker process while the server serves every other page."""
        task = self._bot_tasks.get(table_id)
        if task is not None and not task.done():
            return
        self._bot_tasks[table_id] = asyncio.get_running_loop().create_task(self._run_bots(table_id))

    def cancel_bots(self, table_id: int, seat: int) -> bool:
        """Cancel the pending decision of ``table_id``'s bots (waiting out :attr:`bot_delay`
        or computing) once ``seat`` is human again, so the seat's move is the student's
        whatever the clock says; one line in the log says so (tests wait for it).
        Returns whether a pending decision was cancelled."""
        task = self._bot_tasks.pop(table_id, None)
        if task is None or task.done():
            return False
        task.cancel()
        log.info("table %s: the bots' pending decision was cancelled: P%d is human again", table_id, seat + 1)
        return True

    def _bot_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.bot_workers)  # bots end with the server, even after a SIGKILL
        return self._pool

    def bots_capped(self, t: Table) -> str | None:
        """When table ``t`` has reached its decision cap (:func:`haunted_kit.games.decision_cap`,
        decisions in effect) without ending: the bots stop there, and this says why in a
        sentence naming the seed and the box (logged and announced to the table's pages);
        else ``None``."""
        cap = decision_cap(t.game, t.state)
        if len(t.applied) < cap or t.state.is_terminal():
            return None
        text = f"The bots stopped: {cap_reached(t.game, t.state, cap=cap, what='classroom bots')}"
        if self.announcements.get(t.id, {}).get("text") != text:
            log.warning("table %s: %s", t.id, text)
            self.announce(t, text)
            self.broadcast(t.id)
        return text

    async def _run_bots(self, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        try:
            t = self.table(table_id)
            for _ in range(decision_cap(t.game, t.state) + 1000):  # bounded: the cap stops them first
                t = self.table(table_id)
                p = t.state.current_player()
                if t.state.is_terminal() or p is None or t.seats[p].agent is None or self.bots_capped(t):
                    return
                await asyncio.sleep(self.bot_delay)
                t = self.table(table_id)  # the teacher may have given the seat back meanwhile
                seq, agent = t.seq, t.seats[p].agent
                if t.state.current_player() != p or agent is None:
                    continue
                try:  # a seat of a store written before budgets were capped
                    check_agent(agent, t.game.name)
                except ValueError as exc:
                    log.warning("table %s: P%d's bot does not play: %s", table_id, p + 1, exc)
                    return
                job = (t.game, t.config, t.box_path, [t.game.action_to_dict(a) for _, _, a in t.applied],
                       self.bots_of(t)[p])
                try:
                    action, bot = await loop.run_in_executor(self._bot_pool(), bot_decision, *job)
                except BrokenProcessPool:
                    self._pool = None
                    log.error("table %s: the bots' worker process stopped; P%d's bot tries again", table_id, p + 1)
                    continue
                self.apply_bot_decision(table_id, p, agent, seq, action, bot)
        except Exception:  # noqa: BLE001 - to the teacher's log, never to a page
            log.exception("bots of table %s stopped", table_id)

    def apply_bot_decision(self, table_id: int, seat: int, agent: str, seq: int, action: dict, bot=None) -> bool:
        """Apply a bot's ``action`` (dict form), computed for ``seat`` with ``agent`` on the
        position after decision ``seq``, and send every page its new view; ``bot``: the
        agent object after it decided (kept for the seat's next decision). Not applied (one
        line in the log, False) when the table moved on meanwhile (a page, a rollback,
        another server on the store) or the seat changed hands."""
        t = self.table(table_id)
        if t.seq != seq or t.seats[seat].agent != agent:
            log.info("table %s: P%d's bot decided on decision %d, but the table is at %d%s; not applied", table_id,
                     seat + 1, seq, t.seq, "" if t.seats[seat].agent == agent else " and the seat changed hands")
            return False
        try:
            t.decide(seat, action, seen=seq)
        except (IllegalAction, StoreError) as exc:
            log.info("table %s: P%d's bot decision was not applied: %s", table_id, seat + 1,
                     getattr(exc, "refusal", exc))
            return False
        if bot is not None:
            self._bots[(table_id, seat, agent)] = bot
        # the announcement stays: a bot deciding again after a rollback is what it said would happen
        self.broadcast(table_id)
        return True

    # ------------------------------------------------------------------ teacher actions
    def teacher_op(self, msg: dict) -> dict:
        """Teacher actions: ``create`` (:func:`create_request`: game, players, seed, box,
        bots: seat numbers 1-based, and the game's own settings in ``options``),
        ``seat`` (table, seat: 0-based, agent or null: hand a seat to a bot or back),
        ``rollback`` (table, to), ``new_link`` (table, link: ``"watch"`` or
        ``"hotseat"``: that link renewed, :meth:`new_link`). Returns ``{"ok": text}`` or ``{"error": text}``: every
        field is checked (whole numbers in range, strings where strings belong) and a
        refused request changes nothing."""
        if not isinstance(msg, dict):
            return {"error": "A teacher request is a JSON object such as {\"op\": \"rollback\", ...}."}
        op = msg.get("op")
        try:
            if op == "create":
                t = self.store.create_table(**create_request(msg))
                self.broadcast(None)
                self.schedule_bots(t.id)
                return {"ok": f"{t.name} created."}
            if op == "seat":
                t = self._table_of(msg)
                seat = whole(msg.get("seat"), "seat", 0, len(t.seats) - 1)
                agent = msg.get("agent")
                self.store.set_agent(t.id, seat, agent)  # checks the agent spec and its search budget
                if agent is None:
                    self.cancel_bots(t.id, seat)
                self.broadcast(t.id)
                self.schedule_bots(t.id)
                return {"ok": f"P{seat + 1} of table {t.id} is now {'a ' + agent + ' bot' if agent else 'human'}."}
            if op == "rollback":
                t = self._table_of(msg)
                text = self.roll(t.id, msg.get("to"))
                self.broadcast(t.id)
                self.schedule_bots(t.id)
                return {"ok": f"Table {t.id}: {text}"}
            if op in LESSON_OPS:
                return self.lesson_op(op, msg)
            if op == "new_link":
                t = self._table_of(msg)
                kind = msg.get("link")
                if kind not in SCREEN_LINKS.values():
                    raise ValueError(f"link must be one of {', '.join(SCREEN_LINKS.values())}, got {short(kind)}")
                text = self.new_link(t.id, kind)
                self.teacher_changed()
                return {"ok": text}
        except (ValueError, TypeError, OverflowError, StoreError) as exc:  # OverflowError: int(1e400) of a game setting
            return {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a ConfigError, a BoxError...: a sentence to the teacher
            log.exception("teacher action %r failed", op)
            return {"error": f"{type(exc).__name__}: {exc}"}
        return {"error": f"unknown teacher action {short(op)}"}

    def ask_hint(self, conn: Connection, msg: dict):
        """A seat page asks for a move suggestion (``{"type": "hint", "seq"}``) for its seat
        when it is to move (never a shared screen: the search reads the mover's hidden
        cards, and its sentences may name them); counted for
        that seat (the results' hints asked), worked out in the worker pool
        (:func:`haunted_kit.lesson.hint_texts`) and sent back as ``{"type": "hint", "seq",
        "texts"}`` while the table is still there. Returns the task (tests await it), or None
        when refused (a sentence to the page)."""
        t = self.table(conn.table_id)
        seat = t.state.current_player()
        mine = conn.viewer if conn.role == "seat" else None
        if msg.get("seq") != t.seq or seat is None or seat != mine or t.seats[seat].agent is not None:
            self.send(conn, {"type": "refused", "text": "A move is suggested only to the player to move, on the "
                                                        "position the page shows."})
            return None
        self.store.add_hint(t.id, seat)
        job = (t.game, t.config, t.box_path, [t.game.action_to_dict(a) for _, _, a in t.applied], seat)
        seq = t.seq

        async def work():
            try:
                texts = await asyncio.get_running_loop().run_in_executor(self._bot_pool(), lesson.hint_texts, *job)
            except Exception:  # noqa: BLE001 - to the teacher's log; the page gets a sentence
                log.exception("table %s: a move suggestion failed", t.id)
                self.send(conn, {"type": "error", "text": "No suggestion now; the teacher's log has the details."})
                return
            if conn in self.connections and self.table(t.id).seq == seq:
                self.send(conn, {"type": "hint", "seq": seq, "texts": texts or ["This game gives no suggestions."]})

        return asyncio.get_running_loop().create_task(work())

    def student_name(self, conn: Connection, name) -> None:
        """A student gives their name on joining a seat (``{"type": "name", "name"}``): kept
        while the seat has none (the teacher's roster name, or one given before, stays;
        the teacher changes names); a bad one is refused with the reason."""
        t = self.table(conn.table_id)
        if t.seats[conn.viewer].name:
            self.send(conn, {"type": "refused", "text": "This seat has a name already; ask the teacher to change it."})
            return
        try:
            kept = self.store.set_name(t.id, conn.viewer, name)
        except ValueError as exc:
            self.send(conn, {"type": "refused", "text": f"Not kept: {exc}."})
            return
        if kept is None:
            self.send(conn, {"type": "refused", "text": "Type your name first."})
            return
        self.broadcast(t.id)

    def lesson_op(self, op: str, msg: dict) -> dict:
        """The lesson's teacher actions (:data:`LESSON_OPS`): ``roster`` (``names``: text, one
        per line), ``name`` (table, seat 0-based, ``name``: text or null), ``archive`` /
        ``unarchive`` (table), ``remove`` (table: an archived one, deleted for good),
        ``rematch`` (table, optional ``seed``: a new table with the same seats, names and bots;
        the old one archived and its pages sent to the new one). Raises ValueError with the
        teacher's sentence; a refused request changes nothing."""
        if op == "roster":
            names = msg.get("names")
            if not isinstance(names, (str, list)):
                raise ValueError("names must be the roster's text, one name per line")
            kept = self.store.set_roster(names)
            self.teacher_changed()
            return {"ok": f"The roster has {len(kept)} name{'s' if len(kept) != 1 else ''}."}
        t = self._table_of(msg)
        if op == "name":
            seat = whole(msg.get("seat"), "seat", 0, len(t.seats) - 1)
            name = self.store.set_name(t.id, seat, msg.get("name"))
            self.broadcast(t.id)
            return {"ok": f"{t.name}: P{seat + 1} is {name}." if name else f"{t.name}: P{seat + 1} has no name now."}
        if op in ("archive", "unarchive"):
            self.store.archive(t.id, op == "archive")
            self.move_pages(t.id, None if op == "archive" else t.id, park=op == "archive")
            self.broadcast(None)
            return {"ok": f"{t.name} archived: its seats are closed; its results and replay stay." if op == "archive"
                    else f"{t.name} is back in play."}
        if op == "remove":
            self.store.remove_table(t.id)  # ValueError for a table in play
            self.move_pages(t.id, None)
            self._views = {k: v for k, v in self._views.items() if k[0] != t.id}
            self.announcements.pop(t.id, None)
            self.broadcast(None)
            return {"ok": f"{t.name} removed with its record."}
        if op == "rematch":
            seed = msg.get("seed")
            if seed is not None:
                seed = whole(seed, "seed", SEED_MIN, SEED_MAX)
            new = self.store.rematch(t.id, seed)
            self.move_pages(t.id, new.id)
            self.broadcast(None)
            self.schedule_bots(new.id)
            return {"ok": f"{new.name} is a rematch of {t.name} with the same seats (seed {new.config.get('seed')}); "
                          f"{t.name} is archived."}
        raise ValueError(f"unknown teacher action {short(op)}")

    def move_pages(self, old: int, new: int | None, *, park: bool = False) -> None:
        """The pages open on table ``old`` (archived, removed, replaced by a rematch or back
        in play: ``new == old``): each is told ``{"type": "moved", "text", "url"}``; ``url``:
        the page's address on table ``new`` (a seat's code moved with it, or the table is
        back: ``""``, the same address; a screen gets the new table's link of its kind), or
        None: the table is out of play. ``park`` (an archive): the pages stay connected,
        out of the table's updates (:attr:`parked`), so bringing the table back into play
        or a rematch sends them on; else they are closed."""
        pages = [c for c in self.connections if c.table_id == old and c.role != "teacher"]
        pages += self.parked.pop(old, set())
        for conn in pages:
            self.connections.discard(conn)
            url = None
            if new is not None and conn.role in SCREEN_LINKS:
                url = f"/{conn.role}/{new}?token={self.store.link_token(new, SCREEN_LINKS[conn.role])}"
            elif new is not None and conn.role == "seat":
                url = ""  # the same address: the seat's code opens the rematch
            text = ("The teacher brought this table back into play: this page opens it again." if new == old else
                    "The teacher started a rematch with the same seats: this page opens it." if new is not None else
                    "The teacher closed this table: ask the teacher where to play next. This page opens the table "
                    "by itself if the teacher brings it back or starts a rematch." if park else
                    "The teacher removed this table: ask the teacher where to play next.")
            self.send(conn, {"type": "moved", "text": text, "url": url})
            if park:
                self.parked.setdefault(old, set()).add(conn)
                continue
            close = getattr(conn.socket, "close", None)
            if close is not None:
                close(4410, "table moved")

    def _table_of(self, msg: dict) -> Table:
        """The table a teacher request names (``"table"``: its number); ValueError else."""
        tid = msg.get("table")
        if is_integer(tid) and tid in self.store.set_aside:
            raise ValueError(f"table {tid} is set aside: {self.store.set_aside[tid]}")
        if not is_integer(tid) or tid not in self.store.serving_ids():
            raise ValueError(f"there is no table {short(tid)}")
        return self.table(int(tid))


def whole(value, name: str, lo: int, hi: int) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``, else ValueError naming ``name``."""
    if not is_integer(value) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {short(value)}")
    return int(value)


def short(value) -> str:
    """``repr(value)`` cut to 40 characters, for a sentence on the page."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
        return token_matches(token, self.classroom.teacher_token)

    def write_error(self, status_code, **kwargs):
        if "exc_info" in kwargs and status_code >= 500:
            log.error("error serving %s", self.request.uri, exc_info=kwargs["exc_info"])
        text = {403: "This page needs a seat code or the teacher's link.", 404: "There is no such page or seat.",
                }.get(status_code, "Something went wrong; the teacher's log has the details.")
        self.plain_page(text, join=status_code == 404)

    def plain_page(self, text: str, status: int | None = None, *, join: bool = False) -> None:
        """Finish with a page of one sentence (``status``: set first, e.g. 403); ``join``:
        with a link to the join page, where a student types a seat code."""
        if status is not None:
            self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        more = '<p><a href="/">Type your seat code</a></p>' if join else ""
        self.finish(f"<!doctype html><html lang=\"en\"><title>Classroom</title><main><p>{escape(text)}</p>{more}"
                    "</main></html>")

    def set_default_headers(self):
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Cache-Control", "no-store")
        # no page tells the next one where it came from: a projector, hot-seat or seat page opened
        # from the teacher page would otherwise hold the teacher's address (and token) in document.referrer
        self.set_header("Referrer-Policy", "no-referrer")


class NoIcon(_Base):
    def get(self):
        self.set_status(204)
        self.finish()


def join_html(typed: str = "", problem: str = "") -> str:
    """The join page (``/``): a form where a student types their seat code (any case);
    ``problem``: why the code typed (``typed``, kept in the box) opened nothing."""
    said = (f'<p id="hk-join-problem" role="alert" style="color:#8a1c00">{escape(problem)}</p>' if problem else "")
    described = ' aria-describedby="hk-join-problem" aria-invalid="true"' if problem else ""
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Join a table</title>'
            '<style>body{font-family:sans-serif;margin:12px;font-size:18px;color:#111}'
            'input,button{font-size:24px;padding:6px 10px;margin:4px 0;max-width:100%;box-sizing:border-box}'
            'input{letter-spacing:.15em;text-transform:uppercase;width:9em}</style></head>'
            '<body><main><h1>Join a table</h1>'
            '<form method="get" action="/join"><p><label for="hk-code">Your seat code (on the card or the board, '
            'in any case)</label><br><input id="hk-code" name="code" autocomplete="off" autocapitalize="characters" '
            f'spellcheck="false" required maxlength="24" value="{escape(typed)}"{described}> '
            f'<button type="submit">Join</button></p></form>{said}</main></body></html>')


class JoinPage(_Base):
    def get(self):
        """``/``: the join form; ``/join?code=``: the seat's page for that code, else the form
        again saying why."""
        typed = self.get_argument("code", None)
        if typed is None:
            self.finish(join_html())
            return
        seat = self.classroom.store.seat_by_code(typed[:24])
        if seat is None:
            self.set_status(404)
            self.finish(join_html(typed[:24], f"No seat has the code {typed[:24]!r}: check it with the teacher "
                                              "and type it again."))
            return
        self.redirect(f"/s/{seat.code}")


class SeatPage(_Base):
    def get(self, code):
        seat = self.classroom.store.seat_by_code(code)
        if seat is None:
            raise tornado.web.HTTPError(404)
        if seat.code != code:  # typed in another case: the seat's own address
            self.redirect(f"/s/{seat.code}")
            return
        if seat.table_id not in self.classroom.store.serving_ids():
            self.plain_page(f"This seat's table ({seat.table_id}) is set aside: the server cannot play it (the teacher "
                            "page says why). Ask the teacher for a seat at another table.", 409)
            return
        if seat.table_id in self.classroom.store.archived_ids():
            self.plain_page(f"This seat's table ({seat.table_id}) was archived by the teacher: it is no longer played. "
                            "Ask the teacher for a seat at another table.", 409)
            return
        self.finish(page_html("seat", {"code": code}, self.classroom.table(seat.table_id).game.title))


class ViewPage(_Base):
    def get(self, role, table_id):
        """A projector or hot-seat screen: opened by that table's link of that kind only."""
        c, token = self.classroom, self.get_argument("token", "")
        if int(table_id) not in c.store.serving_ids():
            raise tornado.web.HTTPError(403 if not token else 404)
        if not c.screen_token_ok(role, int(table_id), token):
            self.plain_page(screen_refusal(role, token_matches(token, c.teacher_token)), 403)
            return
        later = c.store.rematched_as(int(table_id))
        if later is not None and later in c.store.serving_ids():  # the link follows the table's rematch
            query = {"token": c.store.link_token(later, SCREEN_LINKS[role])}
            if self.get_argument("zoom", ""):
                query["zoom"] = self.get_argument("zoom")
            self.redirect(f"/{role}/{later}?{urlencode(query)}")
            return
        if role == "hotseat" and int(table_id) in c.store.archived_ids():
            self.plain_page(f"Table {table_id} was archived by the teacher: it is no longer played.", 409)
            return
        try:  # ?zoom=1.5 scales the whole projector page (0.5 to 3)
            zoom = min(3.0, max(0.5, float(self.get_argument("zoom", "1"))))
        except ValueError:
            zoom = 1.0
        self.finish(page_html(role, {"token": self.get_argument("token"), "table": int(table_id), "zoom": zoom},
                              self.classroom.table(int(table_id)).game.title))


class TeacherPage(_Base):
    def get(self):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        self.finish(page_html("teacher", {"token": self.get_argument("token"), "base": self.app_state["base_url"]}))

    def post(self):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        body = self.request.body or b"{}"
        if len(body) > MAX_REQUEST_BYTES:
            self.finish({"error": f"The request is over {MAX_REQUEST_BYTES // 1024} KB; nothing was changed."})
            return
        try:
            msg = parse_json(body, "the teacher's request", finite=True)
        except ValueError as exc:
            self.finish({"error": f"{exc}; nothing was changed."})
            return
        out = self.classroom.teacher_op(msg)
        # a done request about a table that still serves: also its record length after it (``seq``), so
        # the page's reply belongs to that position and goes when the table moves on (a decision, its end)
        tid = msg.get("table") if isinstance(msg, dict) else None
        if "ok" in out and is_integer(tid) and tid in self.classroom.store.serving_ids():
            out = {**out, "seq": self.classroom.table(int(tid)).seq}
        self.finish(out)


class QrCode(_Base):
    def get(self, code):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        if self.classroom.store.seat_by_code(code) is None:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "image/svg+xml")
        self.set_header("Cache-Control", "private, max-age=86400")  # a seat's code never changes: fetched once
        self.finish(qr_svg(f"{self.app_state['base_url']}/s/{code}"))


class ExportSave(_Base):
    def get(self, table_id):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        if int(table_id) not in self.classroom.store.serving_ids():
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "application/json")
        self.set_header("Content-Disposition", f'attachment; filename="table-{table_id}.json"')
        self.finish(json.dumps(self.classroom.table(int(table_id)).state.to_dict()))  # the protocol's save


class ResultsCsv(_Base):
    """``/results.csv?token=TEACHER``: the class's results, one row per seat per table
    (:func:`haunted_kit.lesson.csv_rows`, archived tables included), with names and each score's
    unit; UTF-8 with a byte-order mark (:data:`haunted_kit.lesson.CSV_ENCODING`, so Excel reads
    the names); the teacher's only."""

    def get(self):
        if not self.teacher_ok():
            raise tornado.web.HTTPError(403)
        store = self.classroom.store
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-results.csv"')
        self.finish(lesson.csv_text(lesson.csv_rows(store, store.serving())).encode(lesson.CSV_ENCODING))


class _Replay(_Base):
    """A finished (or any) table's replay for the projector: opened by the table's watch
    link's token only (the projector's; never the teacher's, which is never projected)."""

    def table_or_refuse(self, table_id: str) -> Table | None:
        c, token = self.classroom, self.get_argument("token", "")
        tid = int(table_id)
        if tid not in c.store.serving_ids():
            raise tornado.web.HTTPError(404)
        if not c.screen_token_ok("projector", tid, token):
            self.plain_page(screen_refusal("projector", token_matches(token, c.teacher_token)).replace(
                "projector", "replay"), 403)
            return None
        return c.table(tid)


class ReplayPage(_Replay):
    def get(self, table_id):
        t = self.table_or_refuse(table_id)
        if t is not None:
            self.finish(page_html("replay", {"token": self.get_argument("token"), "table": t.id,
                                             "steps": len(t.applied)}, t.game.title))


class ReplayStep(_Replay):
    """``/replay/N/step/K``: the public view of table N after its first K decisions in effect."""

    def get(self, table_id, step):
        t = self.table_or_refuse(table_id)
        if t is None:
            return
        k = min(int(step), len(t.applied))
        at = copy.copy(t)
        at.state, at.seq = t.position(k), k
        msg = view_message(at, PUBLIC, self.classroom.size, bots={s.seat: s.agent for s in t.seats if s.agent})
        msg.update(actions=[], turn=False, step=k, results="", steps=len(t.applied), names=[s.label for s in t.seats],
                   title=f"{t.game.title} · {t.name} · replay")
        named(msg, t)
        if k == len(t.applied) and t.state.is_terminal():
            msg["results"] = lesson.results_html(lesson.results(self.classroom.store, t))
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(msg))


class ReplayReview(_Replay):
    """``/replay/N/review``: the game review's turning points of table N (a worker process
    works them out once per position of the table), ``{"points": [...], "scale": ...}`` (``scale``: what a
    value is, :func:`haunted_kit.review.game_value_words`)."""

    async def get(self, table_id):
        t = self.table_or_refuse(table_id)
        if t is None:
            return
        c = self.classroom
        key = (t.id, t.seq)
        points = c._reviews.get(key)
        if points is None:
            job = (t.game, t.config, t.box_path, [t.game.action_to_dict(a) for _, _, a in t.applied],
                   [s.name or "" for s in t.seats])
            points = c._reviews[key] = asyncio.get_running_loop().run_in_executor(c._bot_pool(), lesson.turning_points, *job)
        if isinstance(points, asyncio.Future):
            try:
                done = await points
            except Exception:  # noqa: BLE001 - to the teacher's log; the page says so
                log.exception("table %s: the review's turning points failed", t.id)
                c._reviews.pop(key, None)
                self.finish({"error": "The turning points could not be worked out; the teacher's log has the details."})
                return
            c._reviews[key] = done
            points = done
        self.finish({"points": points, "scale": game_value_words(t.game)})  # what a value is: the CLI review's words


class Socket(_Shared, tornado.websocket.WebSocketHandler):
    def get_compression_options(self):
        """permessage-deflate (a ~60 KB view travels as ~7 KB) unless the app was made with
        ``compress=False``; level 1: most of the saving for a third of level 6's CPU."""
        return {"compression_level": 1, "mem_level": 8} if self.app_state["compress"] else None

    refusal: str | None = None  #: a screen's token that does not open it: told in words, then closed

    def prepare(self):
        """Who the socket is: a seat (its code), the teacher (the teacher token), or a
        table's projector or hot-seat screen (that table's link token of that kind). A
        screen whose token no longer opens it (withdrawn, or the teacher's) is let in
        only to be told so (:attr:`refusal`) and closed: an open page says why, in words."""
        self.check_host()
        c = self.classroom
        code, token = self.get_argument("code", ""), self.get_argument("token", "")
        role = self.get_argument("role", "seat")
        if code:
            seat = c.store.seat_by_code(code)
            if seat is None or seat.table_id not in c.store.serving_ids() or seat.table_id in c.store.archived_ids():
                raise tornado.web.HTTPError(403)
            self.conn = Connection(self, seat.table_id, seat.seat, "seat")
        elif role == "teacher" and token_matches(token, c.teacher_token):
            self.conn = Connection(self, None, None, role)
        elif role in SCREEN_LINKS and token:
            try:
                tid = int(self.get_argument("table"))
            except (ValueError, tornado.web.MissingArgumentError):
                raise tornado.web.HTTPError(404) from None
            if tid not in c.store.serving_ids():
                raise tornado.web.HTTPError(404)
            if role == "hotseat" and tid in c.store.archived_ids():
                raise tornado.web.HTTPError(403)
            if c.screen_token_ok(role, tid, token):
                self.conn = Connection(self, tid, PUBLIC, role)
            else:
                self.refusal = screen_refusal(role, token_matches(token, c.teacher_token))
        else:
            raise tornado.web.HTTPError(403)

    def open(self):
        c = self.classroom
        if self.conn is None:  # a screen's link that no longer opens it
            self.write_message(json.dumps({"type": "withdrawn", "text": self.refusal}))
            self.close(4403, "link withdrawn")
            return
        c.connections.add(self.conn)
        later = c.store.rematched_as(self.conn.table_id) if self.conn.role in SCREEN_LINKS else None
        if later is not None and later in c.store.serving_ids():  # a screen of a rematched table follows it
            c.move_pages(self.conn.table_id, later)
            return
        try:
            c.refresh(self.conn)
        except Exception:  # noqa: BLE001 - the traceback to the teacher's log, a sentence to the page (never a blank page)
            log.exception("error drawing table %s for a %s page", self.conn.table_id, self.conn.role)
            c.send(self.conn, {"type": "error", "text": "The server could not draw this page; the teacher's log has "
                                                        "the details."})
        c.broadcast(-1)  # teacher pages: who is connected
        if self.conn.table_id is not None:
            c.schedule_bots(self.conn.table_id)

    def on_message(self, message):
        c = self.classroom
        if self.conn is None or self.conn not in c.connections:
            return  # a refused or withdrawn screen: it is closing
        try:
            msg = parse_json(message, "the message", finite=True)
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError:
            c.send(self.conn, {"type": "refused", "text": "The page sent something that is not a decision."})
            return
        try:
            kind = msg.get("type")
            if kind == "act":
                c.act(self.conn, msg)
            elif kind == "undo" and self.conn.role in ("seat", "hotseat"):
                c.undo(self.conn, msg)
            elif kind == "reveal" and self.conn.role == "hotseat":
                t = c.table(self.conn.table_id)
                self.conn.revealed_for = t.state.current_player()
                c.update(self.conn)
            elif kind == "cover" and self.conn.role == "hotseat":
                self.conn.revealed_for = None
                c.update(self.conn)
            elif kind == "hint" and self.conn.role == "seat":  # not on a shared screen: a hint may use hidden cards
                c.ask_hint(self.conn, msg)
            elif kind == "tutor" and self.conn.role == "seat":
                c.tutor_op(self.conn, msg)
            elif kind == "name" and self.conn.role == "seat":
                c.student_name(self.conn, msg.get("name"))
            elif kind == "log":
                t = c.table(self.conn.table_id)
                c.send(self.conn, {"type": "log", "seq": t.seq,
                                   "html": lesson.full_log_html(t, self.conn.viewer if self.conn.role == "seat" else None,
                                                               self.classroom.store.record(t.id))})
            else:
                c.send(self.conn, {"type": "refused", "text": f"Unknown request {kind!r}."})
        except Exception:  # noqa: BLE001 - the traceback to the teacher's log, a sentence to the page
            log.exception("error handling %r from table %s", msg, self.conn.table_id)
            c.send(self.conn, {"type": "error", "text": "Something went wrong; the teacher's log has the details."})

    def on_close(self):
        if self.conn is None:
            return
        self.classroom.connections.discard(self.conn)
        self.classroom.parked.get(self.conn.table_id, set()).discard(self.conn)
        self.classroom.broadcast(-1)


def make_app(classroom: Classroom, hosts: set[str], base_url: str, *, compress: bool = True) -> tornado.web.Application:
    """The tornado application; ``compress``: websocket messages deflated (permessage-deflate)."""
    state = {"classroom": classroom, "hosts": {h.lower() for h in hosts}, "base_url": base_url, "compress": compress}
    args = {"app_state": state}
    return tornado.web.Application([
        (r"/", JoinPage, args),
        (r"/join", JoinPage, args),
        (r"/s/([A-Za-z0-9]{1,16})", SeatPage, args),
        (r"/(projector|hotseat)/([0-9]{1,9})", ViewPage, args),
        (r"/teacher", TeacherPage, args),
        (r"/export/([0-9]{1,9})", ExportSave, args),
        (r"/qr/([A-Za-z0-9]{1,16})", QrCode, args),
        (r"/ws", Socket, args),
        (r"/favicon.ico", NoIcon, args),
        (r"/results.csv", ResultsCsv, args),
        (r"/replay/([0-9]{1,9})", ReplayPage, args),
        (r"/replay/([0-9]{1,9})/step/([0-9]{1,9})", ReplayStep, args),
        (r"/replay/([0-9]{1,9})/review", ReplayReview, args),
    ], serve_traceback=False, websocket_max_message_size=MAX_REQUEST_BYTES)


# ============================================================================ pages
_PAGE = (Path(__file__).parent / "server_page.html")


def page_html(role: str, params: dict, title: str = "Classroom") -> str:
    """The page for ``role`` (seat, projector, hotseat, teacher): one HTML file whose
    script opens the socket with ``params``; ``title`` heads it until the first view
    (the table's game title on a table's page)."""
    params = {**params, "now": time.time()}  # the server's clock: the page counts waiting times on it
    return _PAGE.read_text(encoding="utf-8").replace("/*__PAN_CUE__*/", PAN_CUE_JS).replace("__TITLE__", escape(title)).replace(
        "__ROLE__", json.dumps(role)).replace("__PARAMS__", json.dumps(params).replace("</", "<\\/"))


# ============================================================================ running
@functools.lru_cache(maxsize=1024)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG document (segno; ``xmlns`` set, so a browser shows
    it as an image), or an empty string without segno; made once per link (the teacher
    page shows the same codes at every redraw)."""
    try:
        import segno  # lazy: only the teacher page's QR code needs segno (about 60 ms to import)
    except ImportError:  # pragma: no cover - segno is a dependency
        return ""
    out = io.BytesIO()  # a standalone SVG document: with its namespace, so an <img> shows it
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=3)
    return out.getvalue().decode("ascii")


def screen_link(base: str, role: str, table_id: int, token: str) -> str:
    """The address of table ``table_id``'s ``role`` screen (projector, hotseat) with its link's ``token``."""
    return f"{base}/{role}/{table_id}?token={token}"


def open_classroom(store_path, *, first_table: dict | None = None, token: str | None = None, new_token: bool = False,
                   size: float = DEFAULT_SIZE, bot_delay: float = 0.3) -> Classroom:
    """The classroom of the store at ``store_path``: the store opened (and checked), a first
    table made when it has none (``first_table``: :meth:`GameStore.create_table` keywords),
    every table rebuilt (a broken record shows now, not mid-lesson: a table that cannot be
    rebuilt is set aside with its reason, :attr:`GameStore.set_aside`, in the log and on
    the teacher page, and every other table serves), and the teacher token:
    ``token`` when given, else the one kept in the store (``new_token``: a new one, so the
    old teacher link stops working); every table's watch and hot-seat link tokens are
    made when missing (a store of an earlier version).

    One server per store: the store file is locked while the classroom is open (released
    by :meth:`Classroom.close`), so a second server on it is refused before it serves.

    Raises:
        StoreError: the store cannot be opened, or another server has it open."""
    store = GameStore(store_path)
    lock = None
    try:
        if fcntl is not None and store.path != ":memory:":
            lock = open(store.path, "rb")  # noqa: SIM115 - held open until Classroom.close
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise StoreError(f"{store.path} is open in another haunted-kit server; one server serves a store "
                                 "(stop the other one, or give this one another --store)") from None
        if first_table is not None and not store.table_ids():
            store.create_table(**first_table)
        store.serving()  # every table rebuilt now; one that cannot be is set aside, named in the log
        for tid, why in sorted(store.set_aside.items()):
            log.warning("table %s is set aside (the other tables serve): %s", tid, why)
        token = token or store.teacher_token(new=new_token)
        for tid in store.serving_ids():  # a store written before shown links had tokens of their own gets them now
            for kind in SCREEN_LINKS.values():
                store.link_token(tid, kind)
    except BaseException:
        store.close()
        if lock is not None:
            lock.close()
        raise
    return Classroom(store, size=size, bot_delay=bot_delay, teacher_token=token, _server_lock=lock,
                     game=(first_table or {}).get("game", DEFAULT_GAME))


def serve(store_path, *, ip: str = "127.0.0.1", port: int = 8870, allow_hosts=(), size: float = DEFAULT_SIZE,
          bot_delay: float = 0.3, first_table: dict | None = None, log_path=None, token: str | None = None,
          new_token: bool = False, ready=None, compress: bool = True, game: str | None = None,
          tutorial: bool = False) -> int:
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
        token: the teacher token (default: the one kept in the store, made on first start).
        new_token: make a new teacher token and keep it in the store.
        ready: ``ready(info)`` once listening (``info``: ``base``, ``port``, ``token``,
            ``teacher``, ``seats`` {table: {seat: url}}, ``projector`` and ``hotseat``
            {table: url}: each table's links with their own tokens, never the teacher's).
        compress: deflate websocket messages (permessage-deflate, when the browser offers it).
        game: the game the new-table form offers first (default: the first table's, else the default game).
        tutorial: run every table as a tutorial table: a seat's page has a lesson panel above its
            board: the goal, then each decision kind the seat meets for the first time (in the
            game's words with the rule's section), read with Next, Skip and Show again, and the
            questions the game's teach points name, answered on the page with stepped feedback;
            each seat's progress is kept in the store (:meth:`Classroom.tutor_message`).

    Raises:
        StoreError: the store cannot be opened or a table not rebuilt (nothing is served).
    """
    _log_to(log_path)
    classroom = open_classroom(store_path, first_table=first_table, token=token, new_token=new_token, size=size,
                               bot_delay=bot_delay)
    classroom.teacher_interval = TEACHER_INTERVAL
    if game is not None:
        classroom.game = game
    classroom.tutorial = tutorial
    public = ip not in ("127.0.0.1", "localhost", "::1")
    address = lan_address() if ip in ("0.0.0.0", "::") else ip
    hosts = set(LOCAL_HOSTS) | {address, ip} | set(allow_hosts)
    try:
        asyncio.run(_serve_until_stopped(classroom, ip, port, host=address if public else "127.0.0.1", hosts=hosts,
                                         public=public, compress=compress, ready=ready))
    except KeyboardInterrupt:
        pass
    finally:
        classroom.close(wait=True)  # the bots' workers (ended, nothing left behind), the store and its lock
    print("Server stopped; the tables stay in the store.", flush=True)
    return 0


def _log_to(log_path) -> None:
    """The teacher's log: the server's and tornado's messages (INFO and up), with their
    time, level and source, appended to ``log_path`` (a path), else written to stderr."""
    handler = logging.FileHandler(log_path) if log_path else logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("haunted_kit.server", "tornado.application", "tornado.general"):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(logging.INFO)


def server_links(classroom: Classroom, base: str, port: int) -> dict:
    """The links of a server listening at ``base`` (``"http://host:port"``) on ``port``, as
    :func:`serve` hands them to ``ready``: ``base``, ``port``, ``token`` and ``teacher``
    (the teacher's), ``seats`` ({table: {seat: url}}), ``projector`` and ``hotseat``
    ({table: url}, each with the table's own link token, never the teacher's)."""
    store = classroom.store
    return {"base": base, "port": port, "token": classroom.teacher_token,
            "teacher": f"{base}/teacher?token={classroom.teacher_token}",
            "seats": {t.id: {s.seat: f"{base}/s/{s.code}" for s in t.seats} for t in store.serving()},
            **{role: {tid: screen_link(base, role, tid, store.link_token(tid, kind)) for tid in store.serving_ids()}
               for role, kind in SCREEN_LINKS.items()}}


def print_links(store: GameStore, info: dict, public: bool) -> None:
    """What the teacher reads once the server listens: the teacher page's link (kept
    private), the tables set aside and why, each table's seat, projector and hot-seat
    links (``info``: :func:`server_links`), and whether the school network can reach it."""
    base = info["base"]
    print(f"Teacher page: {info['teacher']}", flush=True)
    print("  (kept private: the same link works after a restart; --new-token makes a new one)", flush=True)
    for tid, why in sorted(store.set_aside.items()):
        print(f"  Table {tid} is set aside, the others serve: {why}", flush=True)
    if not store.table_ids():
        print("  No table yet: the teacher page opens on the new-table form.", flush=True)
    for t in store.serving():
        if t.archived:
            continue
        for s in t.seats:
            kind = f"bot ({s.agent})" if s.agent else "human"
            print(f"  {t.name} P{s.seat + 1} [{kind}]: {base}/s/{s.code}", flush=True)
        print(f"  {t.name} projector (watch only, may be shown): {info['projector'][t.id]}", flush=True)
        print(f"  {t.name} hot seat (plays this table only): {info['hotseat'][t.id]}", flush=True)
    if public:
        print(f"Open to the network at {base}: every page needs a seat code or the teacher's link.", flush=True)
    else:
        print("Serving on this computer only; use --ip 0.0.0.0 to open it to the school network.", flush=True)


async def _serve_until_stopped(classroom: Classroom, ip: str, port: int, *, host: str, hosts: set, public: bool,
                               compress: bool, ready) -> None:
    """Listen on ``ip``:``port`` (links name ``host``), start the tables' bots, print the
    links (:func:`print_links`), call ``ready(info)`` and serve until SIGTERM (or the
    caller's Ctrl-C)."""
    sockets = bind_sockets(port, address=ip)
    classroom.loop = asyncio.get_running_loop()
    bound = sockets[0].getsockname()[1]
    base = f"http://{host}:{bound}"
    server = tornado.httpserver.HTTPServer(make_app(classroom, hosts, base, compress=compress), xheaders=False)
    server.add_sockets(sockets)
    for tid in classroom.store.serving_ids():
        classroom.schedule_bots(tid)
    info = server_links(classroom, base, bound)
    print_links(classroom.store, info, public)
    stop = asyncio.Event()
    try:  # SIGTERM (a service manager, kill) stops the server as Ctrl-C does; set before "Ready"
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    except (NotImplementedError, AttributeError, ValueError, RuntimeError):  # Windows, or not the main thread
        pass
    print(f"Students without a link: open {base}/ and type the seat code.", flush=True)
    print("Ready: Ctrl+C stops the server; the tables stay in the store.", flush=True)
    if ready is not None:
        ready(info)
    await stop.wait()
