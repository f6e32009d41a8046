"""Simulate a grid of games into a Parquet dataset, in parallel processes or on Dask.

A :class:`Grid` is every combination of player counts, game options (for Haunted Lands
``mode`` and ``extra_ghost_cards``) and agent lineups, each played ``games`` times with
seeds ``first_seed, first_seed + 1, ...``. Every game has a fixed place in the grid, its
``game_id``; its seed and its agents' seeds depend only on that place, so one worker,
many workers and a Dask cluster produce the same rows.

:func:`simulate` plays the grid and writes a dataset directory::

    OUT/dataset.json               what was played: kit version, game, box fingerprint,
                                   the grid, each agent's settings, the schema
    OUT/part-00000000-00000049.parquet   one file per finished chunk of games
    OUT/events/part-....parquet    the event logs (only with events=True)

Each chunk is committed in one step once its games are finished: its event log first,
then its rows file (each written to a temporary name and renamed). A part is finished
when its rows file exists; an event file without one (a run stopped between the two) is
an orphan, ignored by :func:`load_events` and deleted when the run resumes. So an
interrupted run keeps what it finished and running the same grid again resumes it,
with no game's events twice. :func:`load_dataset` reads the rows back, sorted by game
and seat.

Worker processes (``workers`` > 1) end with the process that started them: each ignores
Ctrl-C (the main process stops them and keeps the finished parts), and each watches its
parent (on Linux the kernel kills it when the parent dies, ``PR_SET_PDEATHSIG``;
everywhere a watchdog thread notices within half a second that its parent is gone), so
killing the main process, even with SIGKILL, leaves no worker behind.

A grid holds each value once: a repeated player count, option value or lineup would
replay the same games under another ``game_id``, so :class:`Grid` refuses it.

Schema: one row per game and player (see :data:`COLUMNS` for each column's meaning, in
Haunted Lands words). Works for every game registered in :mod:`haunted_kit.games`: results
come from the Game's optional ``seat_results(state)`` (else from ``returns()``), and the
Game's ``result_meanings`` say what ``score``, ``won``... mean for it (the estate: gold
value, winner by gold value; Landmarks: module points). A companion game keeps every
column, so datasets of different games stack: ``collective_loss`` is always false and the
quest columns empty (``dataset.json``'s ``schema`` gives each column's meaning for the
dataset's game; :func:`schema` builds it).

The box is recorded by ``fingerprint`` and ``name`` (its folder's name; ``kit_data`` when
it is the kit's own data), never by an absolute path; datasets that stored a ``path`` load
as before (the path is shown as its folder's name).
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
import multiprocessing
import itertools
import json
import math
import os
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .bots import bot_settings, default_agent, make_bot, parse_lineup
from .fileio import atomic_temp_glob, atomic_write, read_json
from .limits import CONNECT_TIMEOUT_RANGE, GAMES_RANGE, WORKERS_RANGE, finite, whole
from .play import play_out
from .progress import Bar
from .workers import worker_pool
from .games import DEFAULT_GAME, DecisionCapReached, cap_setting, decision_cap, default_players, get_game, start_game
from .protocol import SCORE_ONLY_MEANINGS, check_seed, is_integer, results_by_score

__all__ = ["COLUMNS", "DatasetError", "Grid", "ProcessPool", "SimulationReport", "load_dataset", "load_events", "schema", "simulate"]

DATASET_FORMAT = "haunted-kit-simulation"
DATASET_VERSION = 3  # 2: the game_turns and score_parts columns; 3: the capped column
#: the names of the parts simulate writes (rows, and events under ``events/``)
PART_GLOB = "part-*.parquet"

#: Every column of a dataset row, in order: (name, Arrow type name, meaning).
COLUMNS = (
    ("game_id", "int64", "the game's place in the grid (0-based); sorts the dataset"),
    ("game", "string", "rule module's short name (haunted, ...)"),
    ("players", "int8", "number of players"),
    ("options", "string", "the game's options as JSON (Haunted Lands: mode, extra_ghost_cards)"),
    ("mode", "string", "the option 'mode', or '' when the grid has none"),
    ("extra_ghost_cards", "string", "the option 'extra_ghost_cards' as '2,3' ('' for none)"),
    ("lineup", "string", "the agent lineup, one spec per player, comma-separated"),
    ("seed", "int64", "the game's seed (first_seed + repetition)"),
    ("player", "int8", "player index, 0-based (P1 is 0)"),
    ("seat", "int8", "turn position at the start, 1 = first to take a turn"),
    ("agent", "string", "this player's agent spec (e.g. greedy, search[playouts=100])"),
    ("score", "float64", "final score, as the game's seat_results give it"),
    ("rank", "int8", "final rank, 1 = best"),
    ("won", "bool", "this player won"),
    ("collective_loss", "bool", "the game ended in a collective loss: every player lost"),
    ("returns", "float64", "the game's returns() for this player"),
    ("quests", "list<int16>", "this player's quests at the end, in a game that has quests"),
    ("quest_points", "list<int16>", "points each of those quests scored, same order"),
    ("quest_total", "int16", "sum of quest_points"),
    ("decisions", "int32", "decisions this player made"),
    ("game_decisions", "int32", "decisions made in the whole game"),
    ("game_turns", "int32", "the game's length in its own unit (Game.game_length; Haunted Lands: rounds played, "
                            "fewer after a collective loss), 0 when the game gives none"),
    ("score_parts", "string", "this player's score by source as a JSON object, source -> points (Game.score_parts; "
                              "Haunted Lands: valor by source: buildings, skills, tracks, contact, quests, other), "
                              "'{}' when the game gives none"),
    ("capped", "bool", "the game did not end within the decision cap (haunted_kit.games.decision_cap) and was "
                       "stopped there: it has no result (score and returns NaN, rank 0, nobody won)"),
)

#: Every column of an event-log row (``events=True``), in order: (name, Arrow type name,
#: meaning). One schema for every part and every game, fixed before the first part is
#: written: whole numbers are ``int64``; ``cell`` and ``data`` are JSON text whatever
#: their shape in a game (a pair of axial coordinates, a number, a name), null when
#: the event has none.
EVENT_COLUMNS = (
    ("game_id", "int64", "the game's place in the grid, as in the rows"),
    ("seq", "int64", "the event's place in its game's log, 0-based"),
    ("season", "int64", "the season it happened in (0 = setup)"),
    ("round", "int64", "the round it happened in"),
    ("phase", "string", "the phase it happened in"),
    ("kind", "string", "what happened (the game's event kinds, e.g. haunted_kit.events.EVENT_KINDS)"),
    ("player", "string", "the player concerned as 'P1'.., null for none"),
    ("cell", "string", "the cell concerned as JSON (Haunted Lands: [q, r] axial), null for none"),
    ("text", "string", "one sentence for people, with the rule section"),
    ("data", "string", "the event's details as a JSON object"),
)


#: Most games one :class:`Grid` may hold (cells x games): ``simulate`` lists every task
#: of a run, so a bigger grid would use memory without limit before playing anything.
MAX_GRID_GAMES = GAMES_RANGE[1]


class DatasetError(ValueError):
    """A dataset directory that cannot be read or resumed (the message says why)."""


class SchedulerError(ConnectionError):
    """The Dask scheduler given to :func:`simulate` cannot be reached in time, or was lost
    during the run (the message names its address and, when lost, the games finished);
    finished parts stay, a later run resumes. A lost scheduler also sets ``address``,
    ``done`` (games in the dataset) and ``total`` (games in the grid); else they are None."""

    address = done = total = None


class _SchedulerLost(Exception):
    """Raised inside :func:`_run_dask` when the connection to the scheduler is gone;
    :func:`simulate` turns it into a :class:`SchedulerError` counting the games kept."""

    def __init__(self, address: str, cause: BaseException):
        super().__init__(address)
        self.address, self.cause = address, cause


def _refuse_duplicates(what: str, values) -> None:
    """ValueError naming the first value of ``values`` given twice (compared as JSON, so
    ``[2, 3]`` twice is a duplicate; ``1`` and ``True`` are not)."""
    seen = set()
    for v in values:
        key = json.dumps(v, sort_keys=True, default=str)
        if key in seen:
            raise ValueError(f"{what} lists {v!r} more than once; give each value once "
                             "(a repeated value would replay the same games under another game_id)")
        seen.add(key)


@dataclass(frozen=True)
class Grid:
    """The games to play: the product of ``players`` x ``options`` x ``lineups``, each
    cell played ``games`` times with seeds ``first_seed + k``.

    Args:
        game: a registered game's short name (default :data:`~haunted_kit.games.DEFAULT_GAME`).
        players: player counts; by default the game's own default count
            (:func:`~haunted_kit.games.default_players`).
        options: option name -> values to try (each a game option, e.g.
            ``{"mode": ["wanderer", "builder"], "extra_ghost_cards": [[], [2], [2, 3]]}``).
        lineups: agent lineups (see :mod:`haunted_kit.bots`), e.g. ``["greedy", "search[playouts=100],greedy"]``;
            by default one lineup of the game's default agent (:func:`~haunted_kit.bots.default_agent`).
        games: repetitions (seeds) per cell.
        first_seed: seed of the first repetition; it and the last one,
            ``first_seed + games - 1``, must be seeds of the kit
            (:func:`~haunted_kit.protocol.check_seed`, signed 64 bits, the Parquet
            ``int64`` seed column). The agents' seeds ``seed * 100 + i``
            (:func:`~haunted_kit.protocol.seat_seed`, as every entry point) only seed
            their own ``random.Random`` (any integer) and are not stored, so they
            are not bounded.

    Raises:
        ValueError: an unknown game or agent, a bad count, more than
        :data:`MAX_GRID_GAMES` games, a seed out of range, a value given twice (a
        player count, an option value or a lineup, named in the message: it would
        replay the same games), all checked at construction.
    """

    game: str = DEFAULT_GAME
    players: tuple | None = None
    options: dict = field(default_factory=dict)
    lineups: tuple | None = None
    games: int = 10
    first_seed: int = 0

    def __post_init__(self):
        game = get_game(self.game)
        players = (default_players(game),) if self.players is None else self.players
        object.__setattr__(self, "players", tuple(int(n) for n in players))
        lineups = (default_agent(game),) if self.lineups is None else self.lineups
        object.__setattr__(self, "lineups", tuple(",".join(parse_lineup(x)) for x in lineups))
        for lineup in self.lineups:
            for spec in parse_lineup(lineup):
                make_bot(spec, 0, game=game)  # an unknown agent or a bad setting fails here
        opts = {}
        for k, vals in dict(self.options).items():
            vals = [list(v) if isinstance(v, (list, tuple)) else v for v in vals]
            if not vals:
                raise ValueError(f"option {k!r} has no values to try")
            opts[str(k)] = vals
        object.__setattr__(self, "options", opts)
        _refuse_duplicates("players", self.players)
        _refuse_duplicates("lineups", self.lineups)
        for k, vals in opts.items():
            _refuse_duplicates(f"option {k!r}", vals)
        if not self.players or not self.lineups:
            raise ValueError("a grid needs at least one player count and one lineup")
        object.__setattr__(self, "games", whole(self.games, "games", *GAMES_RANGE))
        cells = len(self.players) * len(self.lineups) * math.prod(len(v) for v in opts.values())
        if self.games * cells > MAX_GRID_GAMES:  # checked before any list of the grid is built
            raise ValueError(f"a grid of {self.games:,} games x {cells:,} cells is more than the limit of "
                             f"{MAX_GRID_GAMES:,} games per run; ask for fewer games (at most "
                             f"{max(1, MAX_GRID_GAMES // cells):,} per cell here)")
        object.__setattr__(self, "first_seed", check_seed(self.first_seed, "first_seed"))
        check_seed(self.first_seed + self.games - 1, "the last seed (first_seed + games - 1)")

    def cells(self) -> list[tuple[int, dict, str]]:
        """(players, options, lineup) for each cell, in grid order."""
        keys = list(self.options)
        combos = list(itertools.product(*(self.options[k] for k in keys))) or [()]
        return [(n, dict(zip(keys, combo)), lineup)
                for n in self.players for combo in combos for lineup in self.lineups]

    def __len__(self) -> int:
        return len(self.cells()) * self.games

    def tasks(self) -> list[tuple]:
        """One task per game: (game_id, players, options, lineup, seed), in grid order."""
        out = []
        for c, (n, opts, lineup) in enumerate(self.cells()):
            for k in range(self.games):
                out.append((c * self.games + k, n, opts, lineup, self.first_seed + k))
        return out

    def check(self, box=None) -> None:
        """Start one game of every (players, options) cell, so that a bad combination is
        refused before any work. Raises ValueError naming the cell and the problem."""
        game = get_game(self.game)
        seen = set()
        for n, opts, _ in self.cells():
            key = (n, json.dumps(opts, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            try:
                _new_state(game, n, self.first_seed, opts, box, False)
            except (ValueError, TypeError) as exc:
                where = ", ".join([f"players={n}"] + [f"{k}={v}" for k, v in opts.items()])
                raise ValueError(f"grid cell {where}: {exc}") from None

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


@dataclass
class SimulationReport:
    """What :func:`simulate` did: games in the grid, games played now, games found
    already finished (resumed), whether it was interrupted, the dataset path, and the
    partial parts a killed run had left (``removed``, see :func:`_remove_partial_parts`)."""

    path: Path
    total: int
    played: int
    resumed: int
    interrupted: bool = False
    removed: list = field(default_factory=list)  # partial parts of a killed run, removed on resume (Paths)
    capped: int = 0  #: games played now that were stopped at the decision cap (rows with ``capped``)


# ============================================================================ playing (in workers)


def _seat_results(game, state) -> list[dict]:
    hook = getattr(game, "seat_results", None)
    if hook is not None:
        return hook(state)
    return results_by_score(state.returns())  # won: the unique best


def _new_state(game, n: int, seed: int, options: dict, box, log: bool):
    kw = dict(options)
    if box is not None:
        kw["box"] = box
    return start_game(game, players=n, seed=seed, log=log, **kw)


def play_one(game_name: str, task: tuple, box=None, events: bool = False, cap: int | None = None):
    """Play one task of a grid; returns (rows, event rows). Pure: the same task gives
    the same rows in any process. ``cap``: the decision cap (None: the game's own,
    :func:`haunted_kit.games.decision_cap`); a game stopped there gives rows with ``capped``.
    Imports no pandas: a worker process starts without it (about 0.3 s of CPU less per worker)."""
    game_id, n, options, lineup, seed = task
    game = get_game(game_name)
    specs = lineup.split(",") if "[" not in lineup else parse_lineup(lineup)
    parts_hook = getattr(game, "score_parts", None)
    state = _new_state(game, n, seed, options, box, events or (parts_hook is not None and getattr(game, "score_parts_need_log", False)))
    order_hook = getattr(game, "turn_order", None)
    order = list(order_hook(state)) if order_hook is not None else list(range(n))
    capped = False
    try:
        play_out(state, specs, seed=seed, game=game, cap=cap, what="simulate")  # the kit's one play loop and seat-seeding rule
    except DecisionCapReached:  # an endless game: recorded as capped, with no result
        capped = True
    made = [0] * n
    for e in state.history():
        if not e.chance:
            made[e.player] += 1
    nan = float("nan")
    seats = _seat_results(game, state) if not capped else [
        {"score": nan, "rank": 0, "won": False, "collective_loss": False, "quests": (), "quest_points": ()}] * n
    parts = (parts_hook(state) if parts_hook is not None and not capped else None) or [{} for _ in range(n)]
    length_hook = getattr(game, "game_length", None)
    turns = int(length_hook(state)) if length_hook is not None and not capped else 0
    ret = state.returns() if not capped else [nan] * n
    opts_json = json.dumps(options, sort_keys=True)
    ghost = options.get("extra_ghost_cards")
    rows = []
    for p in range(n):
        r = seats[p]
        rows.append({
            "game_id": game_id, "game": game_name, "players": n, "options": opts_json,
            "mode": str(options.get("mode", "")),
            "extra_ghost_cards": ",".join(map(str, ghost)) if isinstance(ghost, (list, tuple)) else ("" if ghost is None else str(ghost)),
            "lineup": lineup, "seed": seed, "player": p, "seat": order.index(p) + 1,
            "agent": specs[p % len(specs)], "score": float(r["score"]), "rank": int(r["rank"]), "won": bool(r["won"]),
            "collective_loss": bool(r["collective_loss"]), "returns": float(ret[p]),
            "quests": [int(q) for q in r["quests"]], "quest_points": [int(x) for x in r["quest_points"]],
            "quest_total": int(sum(r["quest_points"])), "decisions": made[p], "game_decisions": sum(made),
            "game_turns": turns, "score_parts": json.dumps(parts[p]), "capped": capped,
        })
    ev = _event_rows(game_id, state.events()) if events else []
    return rows, ev


def _event_rows(game_id: int, frame) -> list[dict]:
    """One game's event log as rows of :data:`EVENT_COLUMNS` (whole numbers as int, text
    as str, ``cell`` and ``data`` as JSON text, missing values as None).

    Raises:
        ValueError: the log has a column :data:`EVENT_COLUMNS` does not declare (named),
            or a whole-number column holds something else.
    """
    extra = [c for c in frame.columns if c not in _EVENT_TYPES]
    if extra:
        raise ValueError(f"the event log has columns the dataset does not declare: {', '.join(map(str, extra))}")
    rows = []
    for i, rec in enumerate(frame.to_dict("records")):
        row = {"game_id": game_id, "seq": i}
        for name, kind in _EVENT_TYPES.items():
            if name in ("game_id", "seq"):
                continue
            v = rec.get(name)
            if v is None or (isinstance(v, float) and v != v):
                row[name] = None
            elif kind == "int64":
                if not is_integer(v):
                    raise ValueError(f"event {i} field {name!r} must be a whole number, got {v!r}")
                row[name] = int(v)
            elif kind == "string" and name in _JSON_EVENT_COLUMNS:
                row[name] = json.dumps(_plain(v), sort_keys=True, default=str)
            else:
                row[name] = str(v)
        rows.append(row)
    return rows


def _plain(v):
    """``v`` with numpy scalars and tuples made JSON's own types."""
    if hasattr(v, "item") and not isinstance(v, (list, dict)):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


_EVENT_TYPES = {n: t for n, t, _ in EVENT_COLUMNS}
_JSON_EVENT_COLUMNS = ("cell", "data")


def run_chunk(payload: dict):
    """Play a chunk of tasks (the unit of work a process or a Dask worker receives)."""
    rows, ev = [], []
    for task in payload["tasks"]:
        r, e = play_one(payload["game"], task, payload.get("box"), payload.get("events", False), payload.get("cap"))
        rows.extend(r)
        ev.extend(e)
    return payload["tasks"][0][0], payload["tasks"][-1][0], rows, ev


# ============================================================================ the dataset on disk


def _schema(meta: dict | None = None, columns=COLUMNS):
    """The Arrow schema of ``columns`` (:data:`COLUMNS` or :data:`EVENT_COLUMNS`)."""
    import pyarrow as pa  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    types = {"int64": pa.int64(), "int32": pa.int32(), "int16": pa.int16(), "int8": pa.int8(), "string": pa.string(),
             "float64": pa.float64(), "bool": pa.bool_(), "list<int16>": pa.list_(pa.int16())}
    out = pa.schema([pa.field(n, types[t]) for n, t, _ in columns])
    if meta is not None:
        out = out.with_metadata({b"haunted_kit": json.dumps(meta).encode()})
    return out


def _atomic_write_table(table, path: Path) -> None:
    import pyarrow.parquet as pq  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    atomic_write(path, lambda fh: pq.write_table(table, fh.buffer))


def schema(game: str = DEFAULT_GAME) -> list[dict]:
    """Each column of a dataset of ``game``: ``name``, Arrow ``type`` and ``meaning`` (the
    Game's ``result_meanings`` where it gives one, else :data:`COLUMNS`' neutral meaning;
    a game without ``seat_results`` is scored by its returns, so
    :data:`~haunted_kit.protocol.SCORE_ONLY_MEANINGS` and a ``score`` that is the return).
    Raises UnknownGame."""
    g = get_game(game)
    own = getattr(g, "result_meanings", None)
    if own is None:
        own = {} if getattr(g, "seat_results", None) is not None else {
            **SCORE_ONLY_MEANINGS, "score": "the game's returns() for this player (the game has no seat_results)"}
    return [{"name": n, "type": t, "meaning": own.get(n, m)} for n, t, m in COLUMNS]


#: where the kit's own data lives (packed in the wheel, or the checkout's data/)
_KIT_DATA = (Path(__file__).resolve().parent / "_box", Path(__file__).resolve().parents[1] / "data")


def _box_record(box) -> dict:
    """The box as a dataset records it: fingerprint, folder name and whether it is the
    kit's own data (no absolute path: datasets travel between machines)."""
    where = Path(box.path).resolve()
    kit = any(where == root or root in where.parents for root in _KIT_DATA)
    return {"fingerprint": box.fingerprint, "name": where.name, "kit_data": kit}


def _metadata(grid: Grid, box, events: bool, cap: int | None = None) -> dict:
    specs = sorted({s for lineup in grid.lineups for s in parse_lineup(lineup)})
    return {
        "format": DATASET_FORMAT, "version": DATASET_VERSION, "kit_version": __version__, "game": grid.game,
        "box": None if box is None else _box_record(box),
        "grid": grid.to_dict(), "agents": {s: bot_settings(s) for s in specs}, "events": events,
        "decision_cap": cap,  # None: each game's own (haunted_kit.games.decision_cap)
        "seeds": "game seed = first_seed + repetition; agent of player i: seed * 100 + i; game_id = cell * games + repetition",
        "schema": schema(grid.game),
    }


def _upgrade(meta: dict) -> dict:
    """dataset.json of an earlier kit as this one writes it: a box recorded by its
    absolute ``path`` is shown by its folder's name."""
    box = meta.get("box")
    if isinstance(box, dict) and "path" in box:
        box = {k: v for k, v in box.items() if k != "path"}
        box.setdefault("name", Path(str(meta["box"]["path"])).name)
        meta = {**meta, "box": box}
    return meta


def _same_run(old: dict, new: dict, box=None) -> str | None:
    for key in ("format", "version", "kit_version", "game", "box", "grid", "agents", "events", "decision_cap"):
        a, b = old.get(key), new.get(key)
        if key == "box":  # the same box is the same data, wherever its folder is
            a, b = (x.get("fingerprint") if isinstance(x, dict) else x for x in (a, b))
            if box is not None and box.accepts_fingerprint(a):  # recorded by an earlier kit's fingerprint
                a = b
        if json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True):  # typed: true is not 1, 1.0 is not 1
            return key
    return None


def _finished_ids(out: Path) -> set[int]:
    import pyarrow.parquet as pq  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    done: set[int] = set()
    for part in sorted(out.glob(PART_GLOB)):
        try:
            done.update(pq.read_table(part, columns=["game_id"]).column(0).to_pylist())
        except Exception as exc:  # a damaged part: name it
            raise DatasetError(f"{part} cannot be read ({exc}); delete it and run again to replay its games") from None
    return done


def load_dataset(path) -> "pd.DataFrame":  # noqa: F821
    """The rows of a dataset directory as a pandas DataFrame sorted by game and seat;
    ``frame.attrs["metadata"]`` holds dataset.json.

    Raises:
        DatasetError: no dataset there, or a damaged file (named).
    """
    import pyarrow as pa  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)
    import pyarrow.parquet as pq  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    out = Path(path)
    meta_path = out / "dataset.json"
    if not meta_path.is_file():
        raise DatasetError(f"{out} holds no simulation dataset (no dataset.json)")
    meta = read_json(meta_path, what="dataset description", error=DatasetError)
    tables = []
    for part in sorted(out.glob(PART_GLOB)):
        try:
            tables.append(pq.read_table(part))
        except Exception as exc:
            raise DatasetError(f"{part} cannot be read: {exc}") from None
    table = pa.concat_tables(tables) if tables else _schema().empty_table()
    frame = table.to_pandas().sort_values(["game_id", "seat"], kind="stable").reset_index(drop=True)
    frame.attrs["metadata"] = _upgrade(meta)
    return frame


def load_events(path) -> "pd.DataFrame":  # noqa: F821
    """The event logs of a dataset made with ``events=True``: one row per event, columns
    :data:`EVENT_COLUMNS`, sorted by ``game_id`` and ``seq``. Event files of parts that
    were never finished (no rows file) are left out.

    Raises:
        DatasetError: the dataset has no event logs, or a file is damaged (named).
    """
    import pyarrow as pa  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)
    import pyarrow.parquet as pq  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    out = Path(path)
    orphans = set(_orphan_events(out))
    parts = [p for p in sorted((out / "events").glob(PART_GLOB)) if p not in orphans]
    if not parts:
        raise DatasetError(f"{path} holds no event logs (simulate with events=True / --events)")
    tables = []
    for part in parts:
        try:
            tables.append(pq.read_table(part))
        except Exception as exc:
            raise DatasetError(f"{part} cannot be read: {exc}") from None
    try:
        table = pa.concat_tables(tables)
    except pa.ArrowInvalid as exc:  # parts of an earlier kit, whose types were inferred per part
        raise DatasetError(f"the event files of {path} have different columns or types ({exc}); "
                           "simulate the grid again into a new directory") from None
    return table.to_pandas().sort_values(["game_id", "seq"], kind="stable").reset_index(drop=True)


def _write_chunk(out: Path, first: int, last: int, rows: list, ev: list, meta: dict, events: bool) -> None:
    """Commit one part: its event log (``events``), then its rows file, each written to a
    temporary name and renamed; the rows file last, so a part whose rows file exists is
    whole (see :func:`_remove_orphan_events`)."""
    import pyarrow as pa  # lazy: pyarrow is an optional heavy dependency (parquet datasets only)

    name = f"part-{first:08d}-{last:08d}.parquet"
    if events:
        (out / "events").mkdir(exist_ok=True)
        _atomic_write_table(pa.Table.from_pylist(ev, schema=_schema(columns=EVENT_COLUMNS)), out / "events" / name)
    _atomic_write_table(pa.Table.from_pylist(rows, schema=_schema(meta)), out / name)


def _remove_partial_parts(out: Path) -> list[Path]:
    """Delete the temporary files of parts being written when a run was killed (SIGKILL,
    a power cut: :func:`~haunted_kit.fileio.atomic_write` removes its temporary file
    on any error it lives through, not then), and return them. Only files matching the
    kit's own temporary names for parts (:func:`~haunted_kit.fileio.atomic_temp_glob` of
    :data:`PART_GLOB`) are touched; their games were never committed and play again."""
    found = sorted([*out.glob(atomic_temp_glob(PART_GLOB)), *(out / "events").glob(atomic_temp_glob(PART_GLOB))])
    for tmp in found:
        tmp.unlink(missing_ok=True)
    return found


def _remove_orphan_events(out: Path) -> None:
    """Delete event files whose part has no rows file: a run stopped between the two
    writes of :func:`_write_chunk`; their games are played again."""
    for part in _orphan_events(out):
        part.unlink(missing_ok=True)


def _orphan_events(out: Path) -> list[Path]:
    return [p for p in sorted((out / "events").glob(PART_GLOB)) if not (out / p.name).is_file()]


# ============================================================================ running a grid


def simulate(grid: Grid, out, *, box=None, workers: int | None = None, dask: bool = False, scheduler: str | None = None,
             events: bool = False, chunk: int | None = None, progress: "bool | Bar" = True,
             connect_timeout: float = 30, pool: "ProcessPool | None" = None,
             cap: int | None = None) -> SimulationReport:
    """Play every game of ``grid`` into the dataset directory ``out`` (created), resuming
    what an earlier run of the same grid finished.

    Args:
        grid: the games.
        out: dataset directory.
        box: a house-rule box of the grid's game (sent to every worker); ``None`` plays
            the game's own (the Game's optional ``default_box()``, recorded by fingerprint).
        workers: processes on this machine (default: CPU count); 1 plays in this process.
            With Dask, the LocalCluster's worker count.
        dask: run on Dask distributed: an embedded ``LocalCluster`` on 127.0.0.1, or the
            cluster at ``scheduler``.
        scheduler: address of an existing Dask scheduler (implies ``dask``).
        events: also store every game's event log (slower; much bigger).
        chunk: games per written part (default: spreads the work over the workers,
            at most 50).
        progress: show a progress bar (:class:`haunted_kit.progress.Bar`); or a ``Bar``
            of the caller's to count the games on (left open: a caller running
            several grids shows one bar), counting games already finished too.
        connect_timeout: seconds to wait for the ``scheduler`` to answer.
        pool: an open :class:`ProcessPool` to play on (its worker processes already
            started: a caller running several grids, like :func:`haunted_kit.compare.compare`,
            starts them once); ``workers`` is then its size. Not with ``dask``.
        cap: the decision cap of every game (default ``$HAUNTED_KIT_DECISION_CAP``, else each
            game's own: :func:`haunted_kit.games.decision_cap`), sent to every worker and
            recorded in ``dataset.json`` (``decision_cap``). A game still running there is
            kept as rows with ``capped`` true and no result; ``report.capped`` counts them.

    Returns:
        a :class:`SimulationReport`; ``interrupted`` is True after Ctrl-C (finished parts
        are kept; run again to resume).

    Raises:
        DatasetError: ``out`` holds a dataset of another grid, box, kit version or cap
            with at least one game (a description with no game yet, left by a run that
            never started, is replaced).
        ValueError: bad workers, chunk, connect_timeout or cap.
        SchedulerError: ``scheduler`` cannot be reached within ``connect_timeout`` seconds,
            or the connection to the scheduler was lost during the run (``"lost the Dask
            scheduler at ADDRESS after N of M games; ... rerun the same command to
            resume"``); the finished parts are kept.
    """
    out = Path(out)
    workers, chunk, connect_timeout = _run_settings(workers, chunk, connect_timeout, pool)
    box, cap = _box_and_cap(grid, box, cap)
    meta = _metadata(grid, box, events, cap)
    _open_dataset(out, meta, box)
    report, tasks = _resume(out, grid, progress)
    if not tasks:
        return report
    size = chunk or max(1, min(50, len(tasks) // (workers * 4) or 1))
    payloads = [{"game": grid.game, "tasks": tasks[i:i + size], "box": box, "events": events, "cap": cap}
                for i in range(0, len(tasks), size)]
    own_bar = progress is True
    bar = Bar(report.total, f"simulate {grid.game}", initial=report.resumed) if own_bar else (progress or None)
    finished = _chunk_writer(out, meta, events, report, bar)
    try:
        _play_chunks(payloads, finished, report, workers=workers, pool=pool, dask=dask, scheduler=scheduler,
                     connect_timeout=connect_timeout)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if own_bar:
            bar.close()
    return report


def _run_settings(workers, chunk, connect_timeout, pool) -> tuple:
    """:func:`simulate`'s ``(workers, chunk, connect_timeout)`` checked, ``workers``
    defaulting to the ``pool``'s size, else the CPU count. Raises ValueError."""
    if pool is not None:
        workers = pool.workers
    if workers is None:
        workers = os.cpu_count() or 1
    workers = whole(workers, "workers", *WORKERS_RANGE)
    if chunk is not None:
        chunk = whole(chunk, "chunk", *GAMES_RANGE)
    connect_timeout = finite(connect_timeout, "connect_timeout (seconds)", *CONNECT_TIMEOUT_RANGE, above=True)
    return workers, chunk, connect_timeout


def _box_and_cap(grid: Grid, box, cap: int | None) -> tuple:
    """The box the grid plays (``None``: the game's own, when it names one), checked
    against the grid, and the decision cap of its games."""
    if box is None:  # record the game's own box (its fingerprint) when it names one
        hook = getattr(get_game(grid.game), "default_box", None)
        box = hook() if hook is not None else None
    grid.check(box)
    cap = cap_setting() if cap is None else decision_cap(get_game(grid.game), None, cap)
    return box, cap


def _open_dataset(out: Path, meta: dict, box) -> None:
    """Create ``out`` and write its ``dataset.json``, or keep the one there when it
    describes the same run; one of another run with no game yet is replaced.
    Raises DatasetError for an unreadable description or another run's dataset."""
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / "dataset.json"
    if meta_path.exists():
        try:
            old = read_json(meta_path, what="dataset description", error=DatasetError)
        except DatasetError as exc:
            raise DatasetError(f"{exc}; use another output directory") from None
        differs = _same_run(old, meta, box)
        if differs and not _finished_ids(out):  # no game yet (a run that never started): the new run's
            atomic_write(meta_path, json.dumps(meta, indent=1))  # description replaces it
        elif differs:
            raise DatasetError(f"{out} holds a dataset made with another {differs.replace('_', ' ')}; "
                               "use another output directory to keep both")
    else:
        atomic_write(meta_path, json.dumps(meta, indent=1))


def _resume(out: Path, grid: Grid, progress) -> tuple:
    """Clear what a killed run left half-written and return ``(report, tasks)``: the
    run's :class:`SimulationReport` counting the games already finished, and the grid's
    tasks still to play. A caller's bar (``progress``) counts the finished games too."""
    removed = _remove_partial_parts(out)
    _remove_orphan_events(out)
    done = _finished_ids(out)
    tasks = [t for t in grid.tasks() if t[0] not in done]
    total = len(grid)
    report = SimulationReport(out, total, 0, total - len(tasks), removed=removed)
    if progress not in (True, False, None) and report.resumed:  # a caller's bar counts the finished games too
        progress.update(report.resumed)
    return report, tasks


def _chunk_writer(out: Path, meta: dict, events: bool, report: SimulationReport, bar):
    """The callback of a finished chunk: write its part, count its games (and those
    stopped at the cap) on ``report`` and move ``bar`` (or None) on."""
    def finished(result):
        first, last, rows, ev = result
        _write_chunk(out, first, last, rows, ev, meta, events)
        k = len({r["game_id"] for r in rows})
        report.played += k
        report.capped += len({r["game_id"] for r in rows if r["capped"]})
        if bar is not None:
            bar.update(k)
    return finished


def _play_chunks(payloads: list, finished, report: SimulationReport, *, workers: int, pool, dask: bool,
                 scheduler: str | None, connect_timeout: float) -> None:
    """Play ``payloads`` on Dask, in this process (one worker, no pool), on the given
    ``pool`` or on a pool of ``workers`` processes, handing each result to ``finished``.
    Raises SchedulerError when the Dask scheduler is lost."""
    if dask or scheduler:
        try:
            _run_dask(payloads, finished, workers, scheduler, connect_timeout)
        except _SchedulerLost as lost:
            done, total, out = report.resumed + report.played, report.total, report.path
            error = SchedulerError(f"lost the Dask scheduler at {lost.address} after {done} of {total} games "
                                   f"({type(lost.cause).__name__}); the finished games are kept in {out}: "
                                   "rerun the same command to resume")
            error.address, error.done, error.total = lost.address, done, total
            raise error from None
    elif workers == 1 and pool is None:
        for pl in payloads:
            finished(run_chunk(pl))
    elif pool is not None:
        pool.run(payloads, finished)
    else:
        with ProcessPool(workers) as own:
            own.run(payloads, finished)


class ProcessPool:
    """``workers`` worker processes (started with ``spawn``, so each is a direct child
    of this process and :func:`haunted_kit.workers.init_worker` watches this process) that
    play chunks of games for one or several :func:`simulate` runs. Use it as a context
    manager: the processes end when it closes; on any exception while it plays (Ctrl-C
    included) they are stopped at once, their unfinished chunks dropped."""

    def __init__(self, workers: int):
        if not is_integer(workers) or workers < 1:
            raise ValueError(f"workers must be a positive whole number, got {workers!r}")
        self.workers = int(workers)
        self._stop = multiprocessing.get_context("spawn").Event()
        self._stopped = False  # whether _stop was set (asked here, not of the Event: see _halt)
        self._pool = worker_pool(self.workers, self._stop)

    def _halt(self) -> None:
        """Set the stop event once: each worker's watchdog then ends it within
        WATCH_INTERVAL. Never a second time: workers leave at once, and a worker that
        leaves inside the event's shared lock would hold it for good (a second ``set``
        after a Ctrl-C hung the main process once in about six)."""
        if not self._stopped:
            self._stopped = True
            self._stop.set()

    def __enter__(self) -> "ProcessPool":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if kind is not None:
            self._halt()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def run(self, payloads: list, finished) -> None:
        """Play ``payloads`` (chunks for :func:`run_chunk`, at most two per worker in
        flight), handing each result to ``finished`` here, in the order they finish."""
        pool = self._pool
        todo = iter(payloads)
        running = set()
        ok = False
        try:
            for pl in itertools.islice(todo, 2 * self.workers):
                running.add(pool.submit(run_chunk, pl))
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for f in done:
                    finished(f.result())
                    nxt = next(todo, None)
                    if nxt is not None:
                        running.add(pool.submit(run_chunk, nxt))
            ok = True
        finally:
            if not ok:
                self._halt()
                for f in running:
                    f.cancel()


def _run_dask(payloads: list, finished, workers: int, scheduler: str | None, connect_timeout: float = 30) -> None:
    from distributed import Client, LocalCluster, as_completed  # lazy: dask.distributed is optional (only the cluster backend)

    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout=connect_timeout)
        except (OSError, TimeoutError) as exc:  # refused, unreachable, timed out (dask raises OSError)
            raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler} within {connect_timeout:g} s "
                                 f"({exc})") from None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster)
    address = scheduler or cluster.scheduler_address

    def ask(call, *args, **kw):
        """A call to the cluster; the connection to the scheduler lost (futures cancelled
        for it, a closed comm, a client no longer running) raises _SchedulerLost. A game's
        own error, raised by a worker, passes as it is."""
        try:
            return call(*args, **kw)
        except (CancelledError, OSError, TimeoutError) as exc:  # FutureCancelledError, CommClosedError...
            if isinstance(exc, CancelledError) or client.status != "running":
                raise _SchedulerLost(address, exc) from None
            raise

    try:
        todo = iter(payloads)
        first = [ask(client.submit, run_chunk, pl, pure=False) for pl in itertools.islice(todo, 2 * workers)]
        ac = as_completed(first)
        for fut in ac:
            result = ask(fut.result)
            finished(result)  # writing the part: its OSError is the folder's, not the scheduler's
            fut.release()
            nxt = next(todo, None)
            if nxt is not None:
                ac.add(ask(client.submit, run_chunk, nxt, pure=False))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
