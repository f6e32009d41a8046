"""The classroom's persistent game store: tables, seats and every accepted decision in
SQLite (the embedded default), opened in WAL mode.

    from haunted_kit.store import GameStore
    store = GameStore("classroom.db")                          # created if missing
    table = store.create_table(players=4, mode="wanderer", seed=3, bots={1: "greedy", 2: "greedy", 3: "greedy"})
    table.decide(seat=3, action=table.state.legal_actions()[0])   # committed before it returns
    store.close()

    store = GameStore("classroom.db")                          # after a restart or a crash
    table = store.table(table.id)                              # the same decision, the same log
    table.rollback(to=5)                                       # the teacher's undo: itself recorded
    table.export("game.json")                                  # a normal save (haunted-kit replay)

A table's game is never stored as a position: it is its game's name, its configuration
(the game's ``new_game`` keywords as JSON: for Haunted Lands players, mode, seed, ghost
cards...), its house-rule box, plus the decisions in order (each action's JSON form), each a row written in
one transaction before anybody is shown its result. Chance is decided by the game's
seeded generator, so replaying the decisions rebuilds the position exactly, log
included. The record is append-only: a rollback is a row of its own that takes the
table back to an earlier decision; the decisions after it stay in the record. A table
is rebuilt through the registry (:func:`haunted_kit.games.get_game`); a table of a store
written before tables named their game is the default game's (Haunted Lands).

Two seats acting at once: decisions on a table are serialised (a lock in this process,
an immediate SQLite transaction across processes); the later one is checked against the
position the earlier one made and gets the engine's reason (or "not your decision").
A decision made on a position the table has left (``seen``, as pages and bots send it) is
refused, so two processes on one store never apply one bot's decision twice.

What it opens is checked first, reading only: an SQLite file of another program, a store
of another schema version (or none), a missing or edited table of the schema, a trigger
or view of its own, are each a :class:`StoreError` naming the file and the problem, and
the file is left byte for byte as it was (never switched to WAL). A row that does not fit
(an unknown action, a rollback past the decisions in effect, a gap in the numbering) is a
StoreError when its table is rebuilt. The store also keeps the teacher's token
(:meth:`GameStore.teacher_token`) and each table's watch-only and hot-seat link tokens
(:meth:`GameStore.link_token`), so pages reconnect after a restart with the same links;
a new store file is made readable by its owner only (0600).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .protocol import IllegalAction, Refusal, is_integer
from .bots import default_agent, make_bot, parse_spec
from .fileio import atomic_write, parse_json
from .visibility import seen_events, seen_observation
from .games import DEFAULT_GAME, get_game, hook

#: the store's schema: 2 added the seats' names and the tables' archive (:data:`_ADDED_COLUMNS`);
#: a store of an older schema (:data:`OLDER_SCHEMAS`) is migrated when it opens, and an older kit
#: then refuses it by its number ("written by a newer haunted-kit") instead of by its columns
SCHEMA_VERSION = 2
OLDER_SCHEMAS = (1,)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed by students
CODE_LENGTH = 6
#: the links of a table that may be shown (projected, handed round), each with its own token
#: in ``meta`` (:meth:`GameStore.link_token`): never the teacher's
LINK_KINDS = ("watch", "hotseat")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS game_tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    config TEXT NOT NULL,            -- the game's new_game keywords as JSON (Haunted Lands: GameConfig.to_dict())
    box_path TEXT,                   -- a house-rule copy of data/, or NULL for the reference box
    box_fingerprint TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES game_tables(id),
    seat INTEGER NOT NULL,           -- player index, 0-based
    code TEXT NOT NULL UNIQUE,       -- the seat's join code
    agent TEXT,                      -- bot agent name, or NULL for a human seat
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS decisions (
    table_id INTEGER NOT NULL REFERENCES game_tables(id),
    seq INTEGER NOT NULL,            -- 1, 2, ... per table, in the order applied
    kind TEXT NOT NULL CHECK (kind IN ('action', 'rollback')),
    player INTEGER,                  -- who decided (action), or NULL (rollback: the teacher)
    action TEXT,                     -- the game's action_to_dict() as JSON (action)
    target INTEGER,                  -- decisions kept (rollback)
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
#: added to ``game_tables`` when missing: the table's game (NULL: a table of a store
#: written before tables named their game, which is :data:`~haunted_kit.games.DEFAULT_GAME`'s)
_GAME_COLUMN = "ALTER TABLE game_tables ADD COLUMN game TEXT"
#: columns later versions added at the end of a table, in order, each added when missing (a
#: store written before them loads and is migrated): the table's game, when the teacher
#: archived it (NULL: in play), a seat's name (NULL: none given)
_ADDED_COLUMNS = {"game_tables": [("game", _GAME_COLUMN), ("archived", "ALTER TABLE game_tables ADD COLUMN archived TEXT")],
                  "seats": [("name", "ALTER TABLE seats ADD COLUMN name TEXT")]}
#: the longest name of a student (characters) and the most names of a roster
MAX_NAME = 40
MAX_ROSTER = 200
#: each table of the schema: its columns as ``PRAGMA table_info`` gives (name, type, not null, primary key)
_COLUMNS = {
    "meta": [("key", "TEXT", 0, 1), ("value", "TEXT", 1, 0)],
    "game_tables": [("id", "INTEGER", 0, 1), ("name", "TEXT", 1, 0), ("config", "TEXT", 1, 0),
                    ("box_path", "TEXT", 0, 0), ("box_fingerprint", "TEXT", 1, 0), ("created", "TEXT", 1, 0),
                    ("game", "TEXT", 0, 0), ("archived", "TEXT", 0, 0)],
    "seats": [("table_id", "INTEGER", 1, 1), ("seat", "INTEGER", 1, 2), ("code", "TEXT", 1, 0),
              ("agent", "TEXT", 0, 0), ("name", "TEXT", 0, 0)],
    "decisions": [("table_id", "INTEGER", 1, 1), ("seq", "INTEGER", 1, 2), ("kind", "TEXT", 1, 0),
                  ("player", "INTEGER", 0, 0), ("action", "TEXT", 0, 0), ("target", "INTEGER", 0, 0),
                  ("at", "TEXT", 1, 0)],
}
SQLITE_HEADER = b"SQLite format 3\x00"
#: a bot seat's search budget per decision: more would keep its table (and a worker) busy for minutes
MAX_BOT_PLAYOUTS = 2000
MAX_BOT_SECONDS = 10.0


class StoreError(Exception):
    """The store cannot be opened or a table cannot be rebuilt (names what is wrong)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _epoch(text) -> float | None:
    """An ISO time the store wrote (:func:`_now`) as seconds since the epoch, None if unreadable."""
    try:
        return datetime.fromisoformat(str(text)).timestamp()
    except ValueError:
        return None


def check_agent(agent, game: str) -> str:
    """A bot seat's agent spec (:func:`haunted_kit.bots.make_bot`: ``"greedy"``,
    ``"search[playouts=50]"``...), built once as the server will; returns it.

    Raises:
        ValueError: not a string, longer than 200 characters, a search budget over
            :data:`MAX_BOT_PLAYOUTS` playouts or :data:`MAX_BOT_SECONDS` seconds per
            decision, or what :func:`~haunted_kit.bots.make_bot` refuses (the same
            message as every other place that takes agent specs: the known agents).
    """
    if not isinstance(agent, str) or len(agent) > 200:
        raise ValueError(f"a bot's agent must be an agent spec such as greedy or search[playouts=500], got {agent!r:.60}")
    _name, settings = parse_spec(agent)
    if settings.get("playouts", 0) > MAX_BOT_PLAYOUTS:
        raise ValueError(f"a bot searches at most {MAX_BOT_PLAYOUTS:,} playouts per decision in the classroom "
                         f"(got {settings['playouts']:,}); more would keep its table waiting")
    if settings.get("seconds", 0) > MAX_BOT_SECONDS:
        raise ValueError(f"a bot thinks at most {MAX_BOT_SECONDS:g} seconds per decision in the classroom "
                         f"(got {settings['seconds']:g})")
    make_bot(agent, 0, game)
    return agent


def clean_name(text) -> str | None:
    """A student's name as typed or pasted: surrounding and repeated spaces and control
    characters dropped; ``None`` for an empty one.

    Raises:
        ValueError: not a string, or longer than :data:`MAX_NAME` characters (named)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"a name is text, got {type(text).__name__}")
    name = " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters; {name[:20]!r}... has {len(name)}")
    return name or None


def new_code(taken=()) -> str:
    """A fresh join code (6 letters and digits, none easily confused), not in ``taken``."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


@dataclass
class Seat:
    """One seat of a table: ``seat`` (player index), join ``code``, ``agent`` (a bot
    agent name, ``None`` for a human)."""

    table_id: int
    seat: int
    code: str
    agent: str | None
    name: str | None = None   #: the student's name (the teacher's roster or given when joining), or None

    @property
    def label(self) -> str:
        """``"P2 Ana"``, or ``"P2"`` for a seat without a name."""
        return f"P{self.seat + 1}" + (f" {self.name}" if self.name else "")

    @property
    def is_bot(self) -> bool:
        return self.agent is not None


@dataclass
class Table:
    """A table of the store: its game (:attr:`state`, rebuilt from the record), its
    seats and the record's length. Change it only through :meth:`decide` and
    :meth:`rollback`, which write to the store first."""

    store: "GameStore"
    id: int
    name: str
    config: dict              #: the game's ``new_game`` keywords (JSON), the box aside
    box_path: str | None
    seats: list[Seat]
    state: object = None
    seq: int = 0              #: rows in the record (decisions and rollbacks)
    applied: list = field(default_factory=list)  #: the (seq, player, action) in effect, oldest first
    #: the table's line, each ``(player, action)``: the decisions in effect, then those the last
    #: rollback set aside, while play has not gone another way (rebuilt from the record, so a
    #: restart keeps what a rollback set aside; :meth:`GameStore.notice`)
    line: list = field(default_factory=list)
    game: object = None       #: the :class:`~haunted_kit.protocol.Game` of the table
    box: object = None        #: the box the game is replayed with
    archived: str | None = None  #: when the teacher archived the table (ISO time), None while it is in play

    def decide(self, seat: int, action, seen: int | None = None):
        """Apply ``action`` for ``seat`` and commit it before returning.

        Args:
            seat: the player index deciding.
            action: an action object or its dict form.
            seen: the record length the deciding page was showing (optional): a
                decision made on an older position is refused when the position moved on.

        Returns:
            the new state.

        Raises:
            IllegalAction: with the engine's reason (``refusal``): not this seat's
                decision, an illegal or malformed action, a stale page. Nothing is
                stored and the state is unchanged.
        """
        return self.store._decide(self, seat, action, seen)

    def rollback(self, to: int, by: int | None = None):
        """The teacher's undo: take the game back to the position after the first ``to``
        decisions in effect (0 = the start); recorded as a row of its own (``by``: the
        seat taking back its own decision, kept in the row's ``player``; None: the
        teacher). Returns the new state. Raises ValueError for a ``to`` out of range."""
        return self.store._rollback(self, to, by)

    def position(self, n: int):
        """The game after the first ``n`` decisions in effect (0 = the start), a new
        state replayed from the seed; the table is unchanged."""
        s = self.store._start(self)
        for _seq, _player, action in self.applied[:n]:
            s.apply_action(action)
        return s

    def export(self, path, viewer: int | None = None) -> Path:
        """Write the game to ``path`` (atomically): with ``viewer`` None a normal save (the
        state's ``save``; ``haunted-kit replay`` reads it, the teacher's export); with a seat
        (or ``-1``, a watcher) what that viewer may see, from the game's visibility
        (:mod:`haunted_kit.visibility`): ``{"format": "haunted-kit-seat-view", "game", "table",
        "viewer", "observation", "events"}``, ``observation`` being ``state.observation(viewer)``
        (a watcher's: what everyone sees, :func:`~haunted_kit.visibility.seen_observation`)
        and ``events`` the log's events as the viewer may see them.
        Raises OSError, ValueError for a viewer that is no seat of the table."""
        if viewer is None:
            self.state.save(path)
            return Path(path)
        if not is_integer(viewer) or not -1 <= viewer < self.state.players:
            raise ValueError(f"viewer must be a seat 0..{self.state.players - 1} or -1 (a watcher), got {viewer!r}")
        log = getattr(self.state, "log", None) or []
        data = {"format": "haunted-kit-seat-view", "game": self.game.name, "table": self.id, "viewer": viewer,
                "observation": seen_observation(self.game, self.state, viewer),
                "events": [e.to_dict() for e in seen_events(self.game, log, viewer)]}
        atomic_write(path, json.dumps(data))
        return Path(path)

    def seat_for_code(self, code: str) -> Seat | None:
        return next((s for s in self.seats if secrets.compare_digest(s.code, str(code))), None)


def follow_line(line: list, applied: list, player: int, action) -> list:
    """A table's line (``(player, action)`` pairs) after ``player`` decides ``action`` with
    ``applied`` in effect: the same line when the decision is the line's next one (a
    rollback's set-aside decisions brought forward), else the decisions in effect and this one."""
    n = len(applied)
    if n < len(line) and line[n] == (player, action):
        return line
    return [(p, a) for _seq, p, a in applied] + [(player, action)]


def _box_keyword(box) -> dict:
    """``new_game``'s ``box`` keyword for ``box``: none for a game without a box (``None``)."""
    return {} if box is None else {"box": box}


def _fingerprint(box) -> str:
    """What a table stores of its box: its fingerprint, ``""`` for a game without a box."""
    return "" if box is None else box.fingerprint


def table_box(game, box):
    """A table's box: ``(box, its folder or None)`` for ``box``: None (the game's reference box, its
    optional ``default_box()``; ``(None, None)`` for a game without one), a loaded box
    or a folder path (loaded with the game's ``load_box``).

    Raises:
        MissingHook (a ValueError): a folder for a game without ``load_box``."""
    default = getattr(game, "default_box", None)
    if box is None:
        return (default() if default is not None else None), None
    if not isinstance(box, (str, Path)):
        own = default is not None and box.fingerprint == default().fingerprint
        return box, (None if own else str(Path(box.path).resolve()))
    return hook(game, "load_box", "a table's house-rule box")(box), str(Path(box).resolve())


def start_position(game, config: dict, box):
    """A table's game at its start: ``game.new_game`` with the stored keywords ``config`` and ``box``."""
    return game.new_game(**config, **_box_keyword(box))


class GameStore:
    """Tables, seats and decisions in an SQLite file (WAL mode, synchronous=FULL: a
    decision is on disk when :meth:`Table.decide` returns).

    Args:
        path: the database file (created with its folder when missing) or
            ``":memory:"`` for tests.

    Raises:
        StoreError: the file is not a haunted-kit store, or was written by a newer kit.
    """

    def __init__(self, path):
        self.path = str(path)
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._check_header()
            try:  # a new store file: its owner's only (it keeps the teacher's token)
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                pass
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create the store: {exc.strerror or exc}") from None
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the store: {exc}") from None
        try:
            fresh = self._check_schema()  # reads only: a refused file is left as it was
            self.db.execute("PRAGMA foreign_keys = ON")
            mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self.db.execute("PRAGMA synchronous = FULL")
            if fresh:
                self.db.executescript(_SCHEMA)
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            for table, added in _ADDED_COLUMNS.items():  # a new store, or the migration of an older one
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                for column, sql in added:
                    if column not in have:
                        self.db.execute(sql)
            if self._older:  # migrated: this kit's schema from now on
                self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StoreError(f"{self.path} is damaged or not a haunted-kit game store ({exc}); left untouched, and "
                             "nothing of it is served") from None
        except StoreError:
            self.db.close()
            raise
        self.journal_mode = mode
        self._lock = threading.RLock()
        self._tables: dict[int, Table] = {}
        self._links: dict[str, str] = {}  #: meta key -> a link's token (:meth:`link_token`)
        #: table id -> why the table cannot be rebuilt (:meth:`serving`); the store serves the others
        self.set_aside: dict[int, str] = {}

    def _check_header(self) -> None:
        """A file that exists must begin as an SQLite database does (an empty file is a new store)."""
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read the store: {exc.strerror or exc}") from None
        if not head:  # a store emptied (truncated, a failed copy): never served as a new one
            raise StoreError(f"{self.path} is empty (0 bytes): a store that lost its contents, not a new store; "
                             "left untouched (restore it from a copy, or delete it to start an empty store)")
        if head != SQLITE_HEADER:
            raise StoreError(f"{self.path} is not a haunted-kit game store: it is not an SQLite database "
                             "(left untouched)")

    def _check_schema(self) -> bool:
        """Whether the file is a new (empty) database; else check that it is a store of
        this kit's schema, reading only.

        Raises:
            StoreError: another program's database (its tables named), a schema version
                that is missing, not a number or not this kit's, a missing or edited table,
                a trigger or view added to it."""
        objects = self.db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
        self._older = False
        if not objects:
            return True
        problems = [" ".join(str(r[0]).split()) for r in self.db.execute("PRAGMA quick_check(3)")]  # every page read once: damage shows now
        if problems != ["ok"]:
            raise StoreError(f"{self.path} is damaged (SQLite finds: {'; '.join(problems)}); left untouched, and "
                             "nothing of it is served")
        names = {n for t, n in objects if t == "table"}
        where = f"{self.path} is not a usable haunted-kit game store (left untouched)"
        if "meta" not in names:
            raise StoreError(f"{self.path} is an SQLite database of another program (tables: "
                             f"{', '.join(sorted(names)) or 'none'}), not a haunted-kit game store; left untouched")
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            raise StoreError(f"{where}: it records no schema version")
        version = str(row[0])
        if not (version.isascii() and version.isdigit()):
            raise StoreError(f"{where}: its schema version {version!r:.40} is not a number")
        if int(version) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer haunted-kit (store schema {int(version)}, "
                             f"this kit reads {SCHEMA_VERSION}); left untouched")
        if int(version) != SCHEMA_VERSION and int(version) not in OLDER_SCHEMAS:
            raise StoreError(f"{where}: store schema {int(version)} is no schema this kit knows "
                             f"(it reads {', '.join(map(str, (*OLDER_SCHEMAS, SCHEMA_VERSION)))})")
        self._older = int(version) != SCHEMA_VERSION  # migrated below: its missing columns added
        extra = sorted(f"{t} {n}" for t, n in objects if t in ("trigger", "view") or (t == "table" and n not in _COLUMNS))
        if extra:
            raise StoreError(f"{where}: it holds what the kit never writes: {', '.join(extra)}")
        for table, want in _COLUMNS.items():
            if table not in names:
                raise StoreError(f"{where}: its table {table!r} is missing")
            have = [(r[1], r[2].upper(), r[3], r[5]) for r in self.db.execute(f"PRAGMA table_info({table})")]
            added = {c for c, _ in _ADDED_COLUMNS.get(table, ())}
            base = [c for c in want if c[0] not in added]
            rest = have[len(base):]  # columns later versions added, in the order this store got them: each at most once
            if have != want and not (self._older and have[:len(base)] == base and len({c[0] for c in rest}) == len(rest)
                                     and set(rest) <= set(want)):
                raise StoreError(f"{where}: its table {table!r} was changed (columns "
                                 f"{', '.join(c[0] for c in have)}; the schema has {', '.join(c[0] for c in want)})")
        return False

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ tables
    def create_table(self, *, game: str = DEFAULT_GAME, players: int = 4, seed: int = 1, bots=None, box=None,
                     name: str | None = None, names=None, **options) -> Table:
        """A new table with its seats, join codes and link tokens, stored before it is returned.

        Args:
            game: the registered game's name (:func:`haunted_kit.games.game_names`).
            players, seed, options: the game's ``new_game`` keywords (Haunted Lands:
                ``mode``, ``extra_ghost_cards`` and the other :class:`~haunted_kit.GameConfig` fields).
            bots: seat -> agent spec (``"greedy"``, ``"random"``...), or a list of seats
                (each the game's default agent, :func:`haunted_kit.bots.default_agent`:
                greedy, or random for a game without a greedy agent); the other seats are human.
            box: a house-rule folder (path) or loaded box; ``None`` for the game's reference box.
            name: shown on the teacher page; default "Table N".
            names: seat -> the student's name (:func:`clean_name`), for the seats given.

        Raises:
            UnknownGame: no such game; ConfigError (a ValueError): bad game parameters;
            ValueError: a bad bot seat or agent name.
        """
        g = get_game(game)
        box_obj, box_path = table_box(g, box)
        state = g.new_game(players=players, seed=seed, **_box_keyword(box_obj), **options)
        config_of = getattr(g, "config_of", None)  # the full configuration, defaults filled in
        config = config_of(state) if config_of is not None else {"players": players, "seed": seed, **options}
        bots = ({b: default_agent(g) for b in bots} if isinstance(bots, (list, tuple, set))
                else dict(bots or {}))
        for seat, agent in bots.items():
            if not (is_integer(seat) and 0 <= seat < players):
                raise ValueError(f"bot seat {seat!r} is not a player index (0..{players - 1})")
            check_agent(agent, game)
        names = {seat: clean_name(n) for seat, n in dict(names or {}).items()}
        with self._lock, self._transaction():
            cur = self.db.execute(
                "INSERT INTO game_tables (name, game, config, box_path, box_fingerprint, created) "
                "VALUES (?, ?, ?, ?, ?, ?)", (name or "", game, json.dumps(config), box_path, _fingerprint(box_obj), _now()))
            tid = cur.lastrowid
            if not name:
                self.db.execute("UPDATE game_tables SET name = ? WHERE id = ?", (f"Table {tid}", tid))
            taken = {r[0] for r in self.db.execute("SELECT code FROM seats")}
            for seat in range(players):
                code = new_code(taken)
                taken.add(code)
                self.db.execute("INSERT INTO seats (table_id, seat, code, agent, name) VALUES (?, ?, ?, ?, ?)",
                                (tid, seat, code, bots.get(seat), names.get(seat)))
            for kind in LINK_KINDS:  # the table's shown links, each with a token of its own (:meth:`link_token`)
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                (f"link:{kind}:{tid}", secrets.token_urlsafe(18)))
        with self._lock:
            self._tables.pop(tid, None)
            return self.table(tid)

    def table_ids(self) -> list[int]:
        """Every table's id, set-aside tables included (:meth:`serving_ids`: those that serve)."""
        return [r[0] for r in self.db.execute("SELECT id FROM game_tables ORDER BY id")]

    def tables(self) -> list[Table]:
        """Every table, each rebuilt at its last decision."""
        return [self.table(t) for t in self.table_ids()]

    def table(self, table_id: int) -> Table:
        """Table ``table_id`` at its last decision (rebuilt from the record once, then
        kept up to date). Raises KeyError for an unknown table, StoreError when it
        cannot be rebuilt (the table is then set aside: :attr:`set_aside`)."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None:
                if table_id in self.set_aside:
                    raise StoreError(self.set_aside[table_id])
                try:
                    t = self._load(table_id)
                except StoreError as exc:
                    self.set_aside[table_id] = str(exc)
                    raise
                self._tables[table_id] = t
            return t

    def serving(self) -> list[Table]:
        """Every table that can be rebuilt, each at its last decision; a table that cannot
        (a damaged or foreign record, seats that do not match its players, a bot that
        cannot play) is set aside with its reason in :attr:`set_aside` (table id -> the
        StoreError's sentence), so one bad table never stops the others."""
        out = []
        for tid in self.table_ids():
            try:
                out.append(self.table(tid))
            except StoreError:
                pass
        return out

    def serving_ids(self) -> list[int]:
        """The ids of :meth:`serving`'s tables."""
        return [t.id for t in self.serving()]

    def seat_by_code(self, code: str) -> Seat | None:
        """The seat a join code opens, or ``None``: the code as typed (spaces and dashes
        dropped) in any case (codes are :data:`CODE_ALPHABET` capitals; a store's code in
        another case, written by an older kit, is found by any case while it is the only one
        so spelt)."""
        code = "".join(str(code).split()).replace("-", "")
        row = self.db.execute("SELECT table_id, seat, code, agent, name FROM seats WHERE code = ?", (code,)).fetchone()
        if row is None:
            rows = self.db.execute("SELECT table_id, seat, code, agent, name FROM seats WHERE code = ? COLLATE NOCASE",
                                   (code,)).fetchall()
            row = rows[0] if len(rows) == 1 else None
        return Seat(*row) if row else None

    def set_agent(self, table_id: int, seat: int, agent: str | None) -> None:
        """Hand ``seat`` to a bot (an agent name) or back to a human (``None``)."""
        t = self.table(table_id)
        if agent is not None:
            check_agent(agent, t.game.name)
        if not 0 <= seat < len(t.seats):
            raise ValueError(f"seat {seat} is not a player index (0..{len(t.seats) - 1})")
        with self._lock:
            hands = self.agent_history(table_id, seat) + [(t.seq, agent)]
            with self._transaction():
                self.db.execute("UPDATE seats SET agent = ? WHERE table_id = ? AND seat = ?", (agent, table_id, seat))
                if agent != t.seats[seat].agent:
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                    (f"hands:{int(table_id)}:{int(seat)}", json.dumps(hands)))
            t.seats[seat].agent = agent

    def agent_history(self, table_id: int, seat: int) -> list[tuple[int, str | None]]:
        """Who played ``seat`` of table ``table_id`` when: ``[(after, agent or None), ...]``,
        oldest first, each from the record's row ``after`` on (the first ``(0, ...)``: the
        seat as the table was made; None: a human); kept by :meth:`set_agent` in ``meta``
        (``hands:ID:SEAT``, no schema change). A seat never handed over: its agent now."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"hands:{int(table_id)}:{int(seat)}",)).fetchone()
        try:
            kept = parse_json(row[0], "a seat's hand-overs") if row else None
        except ValueError:
            kept = None
        if isinstance(kept, list) and kept and all(isinstance(h, list) and len(h) == 2 and isinstance(h[0], int)
                                                   and (h[1] is None or isinstance(h[1], str)) for h in kept):
            return [(h[0], h[1]) for h in kept]
        agent = self.db.execute("SELECT agent FROM seats WHERE table_id = ? AND seat = ?",
                                (int(table_id), int(seat))).fetchone()
        return [(0, agent[0] if agent else None)]

    def link_token(self, table_id: int, kind: str, new: bool = False) -> str:
        """The token of table ``table_id``'s shown link of ``kind`` (:data:`LINK_KINDS`:
        ``"watch"``, the projector and spectators' link, or ``"hotseat"``), kept in ``meta``
        under ``link:KIND:ID`` (a store written before links had tokens gets them on first
        use; no schema change). ``new``: replace it, so the old link stops working.

        Raises:
            ValueError: ``kind`` is no link kind; KeyError: there is no such table."""
        if kind not in LINK_KINDS:
            raise ValueError(f"a link is one of {', '.join(LINK_KINDS)}, not {kind!r:.40}")
        key = f"link:{kind}:{int(table_id)}"
        with self._lock:
            token = self._links.get(key)
            if token is not None and not new:
                return token
            if int(table_id) not in self.table_ids():
                raise KeyError(f"there is no table {table_id}")
            with self._transaction():
                row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
                token = None if row is None or new else row[0]
                if not token:
                    token = secrets.token_urlsafe(18)
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, token))
            self._links[key] = token
            return token

    def set_notice(self, table_id: int, text: str) -> None:
        """Keep ``text`` as table ``table_id``'s notice (a rollback or take-back said to every
        page) until a human seat's next decision (:meth:`Table.decide` clears it; a bot's
        decision never does, so a rollback to a bot's turn stays said): stored in ``meta`` under
        ``notice:ID`` with the table's record length, so a restart shows it again (no
        schema change)."""
        t = self.table(table_id)
        with self._lock, self._transaction():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                            (f"notice:{int(table_id)}", json.dumps({"seq": t.seq, "text": str(text)})))

    def notice(self, table_id: int) -> str | None:
        """Table ``table_id``'s notice (:meth:`set_notice`) until a human seat's next
        decision, else None; a notice kept for a longer record than the
        table's (a store edited under the kit) is None."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"notice:{int(table_id)}",)).fetchone()
        if row is None:
            return None
        try:
            kept = parse_json(row[0], "a notice")
        except ValueError:
            return None
        t = self.table(table_id)
        ok = (isinstance(kept, dict) and isinstance(kept.get("seq"), int) and kept["seq"] <= t.seq
              and isinstance(kept.get("text"), str))
        return kept["text"] if ok else None

    # ------------------------------------------------------------------ the lesson: names, archive, rematch
    def set_name(self, table_id: int, seat: int, name) -> str | None:
        """Give ``seat`` of table ``table_id`` the student's ``name`` (:func:`clean_name`;
        None or blank: no name). Returns the name kept. Raises ValueError (a bad name or
        seat), KeyError (no such table)."""
        t = self.table(table_id)
        if not is_integer(seat) or not 0 <= seat < len(t.seats):
            raise ValueError(f"seat {seat!r:.20} is not a player index (0..{len(t.seats) - 1})")
        name = clean_name(name)
        with self._lock:
            with self._transaction():
                self.db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = ?", (name, t.id, seat))
            t.seats[seat].name = name
        return name

    def roster(self) -> list[str]:
        """The class's names as the teacher typed or pasted them (:meth:`set_roster`), in order."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'roster'").fetchone()
        try:
            names = parse_json(row[0], "the roster") if row else []
        except ValueError:
            return []
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []

    def set_roster(self, names) -> list[str]:
        """Keep the class's roster: ``names`` one per line (text) or a list, each cleaned
        (:func:`clean_name`), blank lines and repeats dropped; kept in ``meta`` (no schema
        change). Returns it. Raises ValueError: a name over :data:`MAX_NAME` characters
        (named with its line), more than :data:`MAX_ROSTER` names."""
        lines = names.splitlines() if isinstance(names, str) else names
        if not isinstance(lines, (list, tuple)):
            raise ValueError("a roster is the names one per line")
        out: list[str] = []
        for n, line in enumerate(lines, 1):
            try:
                name = clean_name(line)
            except ValueError as exc:
                raise ValueError(f"roster line {n}: {exc}") from None
            if name and name not in out:
                out.append(name)
        if len(out) > MAX_ROSTER:
            raise ValueError(f"a roster has at most {MAX_ROSTER} names, got {len(out)}")
        with self._lock, self._transaction():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('roster', ?)", (json.dumps(out),))
        return out

    def archive(self, table_id: int, archived: bool = True) -> None:
        """Archive table ``table_id`` (its seats no longer open it; its record, results and
        replay stay), or with ``archived=False`` bring it back into play. KeyError: no table."""
        if int(table_id) not in self.table_ids():
            raise KeyError(f"there is no table {table_id}")
        when = _now() if archived else None
        with self._lock:
            with self._transaction():
                self.db.execute("UPDATE game_tables SET archived = ? WHERE id = ?", (when, int(table_id)))
                if not archived:  # back in play: its links show it again, not its rematch
                    self.db.execute("DELETE FROM meta WHERE key = ?", (f"rematch:{int(table_id)}",))
            if int(table_id) in self._tables:
                self._tables[int(table_id)].archived = when

    def rematched_as(self, table_id: int) -> int | None:
        """The table that replays archived table ``table_id`` (:meth:`rematch`), following
        rematches of rematches to the last one, or None (never rematched, or brought back
        into play since)."""
        tid, seen = int(table_id), set()
        while tid not in seen and len(seen) < 1000:
            seen.add(tid)
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"rematch:{tid}",)).fetchone()
            if row is None or not str(row[0]).isdigit() or int(row[0]) not in self.table_ids():
                break
            tid = int(row[0])
        return tid if tid != int(table_id) else None

    def archived_ids(self) -> set[int]:
        """The ids of the archived tables (set-aside ones included)."""
        return {r[0] for r in self.db.execute("SELECT id FROM game_tables WHERE archived IS NOT NULL")}

    def remove_table(self, table_id: int) -> None:
        """Delete table ``table_id`` for good: its seats, record, link tokens and notice.
        Only an archived table is removed (ValueError else: archive it first); KeyError: no table."""
        tid = int(table_id)
        if tid not in self.table_ids():
            raise KeyError(f"there is no table {table_id}")
        if tid not in self.archived_ids():
            raise ValueError(f"table {tid} is in play: archive it first, then remove it")
        with self._lock:
            with self._transaction():
                self.db.execute("DELETE FROM decisions WHERE table_id = ?", (tid,))
                self.db.execute("DELETE FROM seats WHERE table_id = ?", (tid,))
                self.db.execute("DELETE FROM game_tables WHERE id = ?", (tid,))
                self.db.execute("DELETE FROM meta WHERE key IN (?, ?, ?)",
                                (*(f"link:{k}:{tid}" for k in LINK_KINDS), f"notice:{tid}"))
                self.db.execute("DELETE FROM meta WHERE key LIKE ? OR key LIKE ? OR key LIKE ? OR key LIKE ?",
                                (f"hints:{tid}:%", f"hands:{tid}:%", f"tutor:{tid}:%", f"tutor-aside:{tid}:%"))
                self.db.execute("DELETE FROM meta WHERE key = ? OR (key LIKE 'rematch:%' AND value = ?)",
                                (f"rematch:{tid}", str(tid)))
            self._tables.pop(tid, None)
            self.set_aside.pop(tid, None)
            for k in [k for k in self._links if k.endswith(f":{tid}")]:
                del self._links[k]

    def rematch(self, table_id: int, seed: int | None = None) -> Table:
        """A new table of table ``table_id``'s game, settings, box, bots (each seat as the
        table was made: a student's seat handed to a bot midway is the student's again,
        :meth:`agent_history`) and names with the same seats: each seat's join code moves to the new table (the old table's seats get
        new codes), so a student's link opens the rematch; the old table is archived and
        remembers its rematch (:meth:`rematched_as`, ``meta`` row ``rematch:OLD``); each seat's
        tutorial progress (:meth:`set_tutor_progress`) is copied to the new table, the same student's.
        ``seed``: the new game's (default: the old one's plus 1, another deal). Returns the
        new table. Raises StoreError (the old table does not rebuild), ValueError."""
        old = self.table(table_id)
        config = dict(old.config)
        players = config.pop("players", len(old.seats))
        config["seed"] = int(config.get("seed", 0)) + 1 if seed is None else seed
        new = self.create_table(game=old.game.name, players=players, box=old.box_path or None,
                                bots={s.seat: a for s in old.seats if (a := self.agent_history(old.id, s.seat)[0][1])},
                                names={s.seat: s.name for s in old.seats}, **config)
        with self._lock:
            with self._transaction():
                for a, b in zip(old.seats, new.seats):  # swap the codes (each unique at every statement)
                    self.db.execute("UPDATE seats SET code = ? WHERE table_id = ? AND seat = ?", (f"~{a.seat}", old.id, a.seat))
                    self.db.execute("UPDATE seats SET code = ? WHERE table_id = ? AND seat = ?", (a.code, new.id, b.seat))
                    self.db.execute("UPDATE seats SET code = ? WHERE table_id = ? AND seat = ?", (b.code, old.id, a.seat))
                when = _now()
                self.db.execute("UPDATE game_tables SET archived = ? WHERE id = ?", (when, old.id))
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"rematch:{old.id}", str(new.id)))
                # the same students: each seat's tutorial progress goes on at the rematch (a tutorial class)
                self.db.execute("INSERT OR REPLACE INTO meta SELECT ? || substr(key, ?), value FROM meta WHERE key LIKE ?",
                                (f"tutor:{new.id}:", len(f"tutor:{old.id}:") + 1, f"tutor:{old.id}:%"))
            for a, b in zip(old.seats, new.seats):
                a.code, b.code = b.code, a.code
            old.archived = when
        return new

    def record(self, table_id: int) -> list[dict]:
        """Table ``table_id``'s record in order: ``{"seq", "kind", "player", "target", "at"}``
        (``at``: seconds since the epoch, UTC; a rollback's ``player``: the seat that took back
        its own decision, None for the teacher's)."""
        rows = self.db.execute("SELECT seq, kind, player, target, at FROM decisions WHERE table_id = ? ORDER BY seq",
                               (int(table_id),)).fetchall()
        return [{"seq": q, "kind": k, "player": p, "target": g, "at": _epoch(at)} for q, k, p, g, at in rows]

    def add_hint(self, table_id: int, seat: int) -> int:
        """Count one move suggestion asked by ``seat`` of table ``table_id`` (``meta`` row
        ``hints:ID:SEAT``, no schema change). Returns the seat's count."""
        key = f"hints:{int(table_id)}:{int(seat)}"
        with self._lock, self._transaction():
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            n = (int(row[0]) if row and str(row[0]).isdigit() else 0) + 1
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(n)))
        return n

    def hints_asked(self, table_id: int) -> dict[int, int]:
        """Seat -> how many move suggestions it asked at table ``table_id`` (:meth:`add_hint`)."""
        out = {}
        for key, value in self.db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (f"hints:{int(table_id)}:%",)):
            seat = key.rsplit(":", 1)[1]
            if seat.isdigit() and str(value).isdigit():
                out[int(seat)] = int(value)
        return out

    def last_times(self, table_id: int) -> tuple[float | None, dict[int, float | None]]:
        """When table ``table_id``'s record last changed (its last row; None: no row yet) and
        each player's last decision (player -> seconds since the epoch), two indexed reads."""
        tid = int(table_id)
        row = self.db.execute("SELECT at FROM decisions WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (tid,)).fetchone()
        seats = self.db.execute("SELECT player, MAX(seq) FROM decisions WHERE table_id = ? AND kind = 'action' "
                                "GROUP BY player", (tid,)).fetchall()
        at = {q: a for q, a in self.db.execute(
            f"SELECT seq, at FROM decisions WHERE table_id = ? AND seq IN ({','.join('?' * len(seats))})",
            (tid, *(q for _, q in seats)))} if seats else {}
        return (_epoch(row[0]) if row else None), {p: _epoch(at.get(q)) for p, q in seats}

    # ------------------------------------------------------------------ a tutorial table's seats
    def tutor_progress(self, table_id: int, seat: int):
        """Seat ``seat`` of table ``table_id``'s tutorial progress (``meta`` row
        ``tutor:ID:SEAT``, no schema change) parsed from its JSON, or None when none is kept.

        Raises:
            ValueError: a record that is not JSON (the message says where it breaks)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"tutor:{int(table_id)}:{int(seat)}",)).fetchone()
        return None if row is None else parse_json(row[0], "the tutorial progress", finite=True)

    def set_tutor_progress(self, table_id: int, seat: int, progress: dict) -> None:
        """Keep ``progress`` (plain JSON) as the seat's tutorial progress, in one transaction."""
        text = json.dumps(progress)
        with self._lock, self._transaction():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"tutor:{int(table_id)}:{int(seat)}", text))

    def set_tutor_aside(self, table_id: int, seat: int, reason: str) -> str:
        """Move the seat's damaged tutorial progress aside (``meta`` row
        ``tutor-aside:ID:SEAT:N``, the first free ``N``, holding ``{"reason", "record"}``: the
        record kept as it was), so the seat starts afresh and nothing is lost. Returns the
        row's key."""
        tid, seat = int(table_id), int(seat)
        with self._lock, self._transaction():
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"tutor:{tid}:{seat}",)).fetchone()
            n = 1 + self.db.execute("SELECT COUNT(*) FROM meta WHERE key LIKE ?", (f"tutor-aside:{tid}:{seat}:%",)).fetchone()[0]
            key = f"tutor-aside:{tid}:{seat}:{n}"
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                            (key, json.dumps({"reason": str(reason), "record": row[0] if row else None})))
            self.db.execute("DELETE FROM meta WHERE key = ?", (f"tutor:{tid}:{seat}",))
        return key

    def tutor_asides(self, table_id: int) -> dict[int, list[str]]:
        """Seat -> the reasons its tutorial progress records were set aside (:meth:`set_tutor_aside`), oldest first."""
        out: dict = {}
        rows = self.db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (f"tutor-aside:{int(table_id)}:%",))
        for key, value in sorted(rows, key=lambda r: [int(x) if x.isdigit() else x for x in r[0].split(":")]):
            seat = key.split(":")[2]
            try:
                reason = str(json.loads(value)["reason"])
            except (ValueError, KeyError, TypeError):
                reason = "a set-aside record that cannot be read"
            if seat.isdigit():
                out.setdefault(int(seat), []).append(reason)
        return out

    def created(self, table_id: int) -> float | None:
        """When table ``table_id`` was created, seconds since the epoch (None: unknown)."""
        row = self.db.execute("SELECT created FROM game_tables WHERE id = ?", (int(table_id),)).fetchone()
        return _epoch(row[0]) if row else None

    def teacher_token(self, new: bool = False) -> str:
        """The teacher's token kept in the store (made on first use; ``new``: replace it,
        so the old teacher, projector and hot-seat links stop working). Pages keep their
        links across restarts of the server on this store."""
        with self._lock, self._transaction():
            row = self.db.execute("SELECT value FROM meta WHERE key = 'teacher_token'").fetchone()
            if row is None or new or not row[0]:
                token = secrets.token_urlsafe(18)
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('teacher_token', ?)", (token,))
                return token
            return row[0]

    @contextmanager
    def _transaction(self):
        """An immediate write transaction (serialises writers across processes),
        committed at the end, rolled back on any error; an SQLite error (a store edited
        under the kit, a full disk) is a StoreError naming the file."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: the store cannot be written: {exc}") from None
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as exc:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled back already
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"{self.path}: the store refused a write ({exc}); nothing was stored") from None
            raise

    # ------------------------------------------------------------------ internals
    # ------------------------------------------------------------------ internals
    def _load(self, table_id: int) -> Table:
        row = self.db.execute("SELECT id, name, game, config, box_path, box_fingerprint, archived FROM game_tables "
                              "WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no table {table_id} in {self.path}")
        tid, name, game_name, config_text, box_path, fingerprint, archived = row
        try:
            game = get_game(game_name or DEFAULT_GAME)  # a table of an older store: the default game
        except ValueError as exc:  # UnknownGame
            raise StoreError(f"table {tid}: {exc}") from None
        try:
            box, _ = table_box(game, box_path)
        except (ValueError, OSError) as exc:  # the game's BoxError
            raise StoreError(f"table {tid}: its house-rule box {box_path} does not load: {exc}") from None
        if (fingerprint != "") if box is None else not box.accepts_fingerprint(fingerprint):
            raise StoreError(f"table {tid}: the box at {box_path or 'the reference data/'} changed since the table "
                             "was created; its decisions cannot be replayed with other rules")
        config = parse_json(config_text, f"table {tid}: its configuration", StoreError)
        seats = [Seat(*r) for r in self.db.execute(
            "SELECT table_id, seat, code, agent, name FROM seats WHERE table_id = ? ORDER BY seat", (tid,))]
        t = Table(self, tid, name, config, box_path, seats, game=game, box=box, archived=archived)
        if not isinstance(config, dict):
            raise StoreError(f"table {tid}: its configuration is not an object of settings")
        try:
            start = self._start(t)
        except (ValueError, TypeError) as exc:  # the game's ConfigError, a setting new_game does not take
            raise StoreError(f"table {tid}: its configuration makes no game: {exc}") from None
        numbers = [x.seat for x in seats]
        if numbers != list(range(start.players)):
            raise StoreError(f"table {tid}: its seats are {', '.join(f'P{n + 1}' for n in numbers) or 'none'}, but its "
                             f"game has {start.players} players (P1 to P{start.players}); a seat was deleted, added "
                             "or renumbered")
        for x in seats:
            if x.agent is not None:
                try:
                    check_agent(x.agent, game.name)
                except ValueError as exc:
                    raise StoreError(f"table {tid}: P{x.seat + 1}'s bot {x.agent!r:.60} cannot play: {exc}") from None
        rows = self.db.execute("SELECT seq, kind, player, action, target, at FROM decisions WHERE table_id = ? "
                               "ORDER BY seq", (tid,)).fetchall()
        try:
            return self._replay(t, start, rows)
        except StoreError as exc:
            migrated = self._migrated(t, rows)
            if migrated is None:
                raise
            try:
                self._replay(t, self._start(t), migrated)
            except StoreError:
                raise exc from None
        self._write_rows(tid, migrated)  # the rows as this version reads them (one transaction)
        return t

    def _replay(self, t: Table, s, rows) -> Table:
        """Table ``t`` at the end of its record ``rows`` (``(seq, kind, player, action, target,
        at)``), replayed from its start ``s``; StoreError naming the first row that does not fit."""
        tid, game, seats = t.id, t.game, t.seats
        applied, line = [], []
        for n, (seq, kind, player, action, target, _at) in enumerate(rows, 1):
            if seq != n:
                raise StoreError(f"table {tid}: its record skips from decision {n - 1} to {seq}; a decision is missing")
            if kind == "rollback":
                if not (is_integer(target) and 0 <= target <= len(applied)):
                    raise StoreError(f"table {tid}: decision {seq} rolls back to {target!r}, but only 0 to "
                                     f"{len(applied)} decisions are in effect there")
                applied = applied[:target]
            elif not (is_integer(player) and 0 <= player < len(seats)):
                raise StoreError(f"table {tid}: decision {seq} names player {player!r}, not a seat of the table")
            else:
                try:
                    decided = game.action_from_dict(parse_json(action, f"table {tid}: decision {seq}", StoreError))
                except ValueError as exc:  # the game's ActionFormatError, or JSON that is not
                    raise StoreError(f"table {tid}: decision {seq} is not a {game.name} action: {exc}") from None
                line = follow_line(line, applied, player, decided)
                applied.append((seq, player, decided))
        for seq, player, action in applied:
            if s.current_player() != player:
                raise StoreError(f"table {tid}: decision {seq} was recorded for P{player + 1} but the replay "
                                 f"has {s.current_player()} to move; the record does not fit this game")
            try:
                s.apply_action(action)
            except IllegalAction as exc:
                raise StoreError(f"table {tid}: decision {seq} does not replay: {exc.refusal}") from None
        t.state, t.seq, t.applied, t.line = s, (rows[-1][0] if rows else 0), applied, line
        return t

    @staticmethod
    def _migrated(t: Table, rows) -> list | None:
        """Table ``t``'s ``rows`` as this version reads them, when its game reads records
        of its previous version (the game's ``migrate_record``, the reader its saves
        use) and they change: the decisions migrated, the rows numbered afresh, each rollback
        keeping the same decisions; else None."""
        migrate = getattr(t.game, "migrate_record", None)
        if migrate is None or any(kind == "action" and not isinstance(action, str) for _, kind, _, action, _, _ in rows):
            return None
        try:
            actions = [r for r in rows if r[1] == "action"]
            record = [{"player": r[2], "chance": False, "action": parse_json(r[3], "a decision", ValueError)}
                      for r in actions]
            new, origin = migrate(record)
        except ValueError:
            return None
        if len(new) == len(record):
            return None
        parts: dict[int, list] = {}
        for entry, k in zip(new, origin):
            parts.setdefault(k, []).append(entry)
        out, kept, k = [], [], 0
        for _seq, kind, _player, _action, target, at in rows:
            if kind == "rollback":
                if not (is_integer(target) and 0 <= target <= len(kept)):
                    return None
                kept = kept[:target]
                out.append(["rollback", None, None, sum(len(parts[j]) for j in kept), at])
            else:
                kept.append(k)
                out.extend(["action", e["player"], json.dumps(e["action"]), None, at] for e in parts[k])
                k += 1
        return [(n, *r) for n, r in enumerate(out, 1)]

    def _write_rows(self, tid: int, rows) -> None:
        """Replace table ``tid``'s record with ``rows`` in one transaction (or the one open)."""
        def write():
            self.db.execute("DELETE FROM decisions WHERE table_id = ?", (tid,))
            self.db.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)", [(tid, *r) for r in rows])
        if self.db.in_transaction:
            write()
        else:
            with self._transaction():
                write()

    @staticmethod
    def _start(t: Table):
        """Table ``t``'s game at its start."""
        return start_position(t.game, t.config, t.box)

    def _decide(self, t: Table, seat: int, action, seen):
        with self._lock:
            if isinstance(action, dict):
                try:
                    action = t.game.action_from_dict(action)
                except ValueError as exc:  # the game's ActionFormatError
                    raise IllegalAction(action, Refusal(str(exc), "action format", "kit")) from None
            with self._transaction():
                self._catch_up(t)
                s = t.state
                mover = s.current_player()
                if mover != seat:  # first: the reason a player understands
                    who = "nobody's" if mover is None else f"P{mover + 1}'s"
                    raise IllegalAction(action, Refusal(f"it is {who} decision, not P{seat + 1}'s", "whose turn it is", "kit"))
                if seen is not None and seen != t.seq:
                    raise IllegalAction(action, Refusal(
                        f"the table moved on since your page showed it (decision {t.seq} now, you saw {seen}); "
                        "look at the board again", "classroom", "kit"))
                why = s.why_not(action)
                if why is not None:
                    raise IllegalAction(action, why)
                after = s.copy()
                after.apply_action(action)
                seq = t.seq + 1
                self.db.execute("INSERT INTO decisions VALUES (?, ?, 'action', ?, ?, NULL, ?)",
                                (t.id, seq, seat, json.dumps(t.game.action_to_dict(action)), _now()))
                if t.seats[seat].agent is None:  # a human's decision ends the notice; a bot's never does
                    self.db.execute("DELETE FROM meta WHERE key = ?", (f"notice:{int(t.id)}",))
            t.state, t.seq = after, seq
            t.line = follow_line(t.line, t.applied, seat, action)
            t.applied.append((seq, seat, action))
            return after

    def _catch_up(self, t: Table) -> None:
        """Inside a write transaction: when another process added to this table's
        record, rebuild the table from the store."""
        last = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM decisions WHERE table_id = ?", (t.id,)).fetchone()[0]
        if last != t.seq:
            fresh = self._load(t.id)
            t.state, t.seq, t.applied, t.seats, t.line = fresh.state, fresh.seq, fresh.applied, fresh.seats, fresh.line

    def _rollback(self, t: Table, to: int, by: int | None = None):
        with self._lock:
            with self._transaction():
                self._catch_up(t)
                if not is_integer(to) or not 0 <= to <= len(t.applied):
                    raise ValueError(f"a rollback goes back to a decision from 0 to {len(t.applied)}, got {to!r}")
                s = t.position(to)
                seq = t.seq + 1
                self.db.execute("INSERT INTO decisions VALUES (?, ?, 'rollback', ?, NULL, ?, ?)",
                                (t.id, seq, by if is_integer(by) else None, to, _now()))
            t.state, t.seq, t.applied = s, seq, t.applied[:to]
            return s
