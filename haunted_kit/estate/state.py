"""The estate module's game state: plain data, copied cheaply, saved as versioned JSON.

:class:`EstateConfig` holds a game's parameters (players, seed, the ruling switches);
:class:`EstateData` the data of one position (its subclass
:class:`haunted_kit.estate.engine.EstateState` implements
:class:`haunted_kit.protocol.GameState`).

A *position* is the JSON-ready dict of everything that can change (:func:`position_of`);
:func:`check_position` refuses a position the rules could not hold, naming the field.
A save holds the config, the start position, the action record and the final position;
loading (:func:`haunted_kit.estate.engine.load_save`) replays the record from the start
and refuses a save whose stored position differs from the replayed one, naming the
first field that differs (:func:`first_difference`).
"""

from __future__ import annotations

import re
import json
from dataclasses import dataclass, field, replace

from ..fileio import atomic_write
from ..protocol import Record, check_seed, is_integer
from ..saves import SaveReader, StateField, compile_copy, copy_tree, json_value
from ..visibility import CHANCE, DROP, EVERYONE, NOBODY, Seen, Visibility
from .box import EstateBox, default_estate_box
from .actions import action_to_dict
from .board import estate_connected  # the one connection rule

SAVE_FORMAT = "haunted-kit-save"
SAVE_VERSION = 1
GAME_NAME = "estate"

CONNECTION_RULES = ("group", "line")
MARBLE_FIELD_RULES = ("shared", "single")
IMPROVEMENT_RULES = ("join", "adjacent")

PHASES = ("setup", "turns", "inn", "over")


def _known(name, names) -> bool:
    """Whether ``name`` (any JSON value from a save or a config) is one of ``names``' keys:
    a string first, so a list or an object is refused instead of failing to hash."""
    return isinstance(name, str) and name in names


class EstateConfigError(ValueError):
    """Bad game parameters (the message names the parameter)."""


class EstateSaveError(ValueError):
    """A save that cannot be loaded; the message names the field and what is wrong."""


@dataclass(frozen=True)
class EstateConfig:
    """Parameters of one estate game.

    Attributes:
        players: 2-4 (from the box).
        seed: seed of every chance outcome (the tile stack draws).
        connection: ``"group"`` (the kit's reading of "continuous line": your marked
            slots form one connected group) or ``"line"`` (they can be ordered so each
            touches the next). Ruling E6.
        marble_field: ``"shared"`` (its two spaces serve two players) or ``"single"``
            (the placer takes both raises at once). Ruling E8.
        improvement: ``"join"`` (a player who joins a land gets its income raise) or
            ``"adjacent"`` (also a player whose new tile touches it, once). Ruling E7.
        third_marked: the Market action taken as the third marked action, or ``None``
            (the text does not say which; ruling E11).
        auto_chance: resolve stack draws with the seeded generator (else wait at the
            chance node for :meth:`EstateState.apply_chance`).
        box: the :class:`EstateBox` (default: the reference box).
    """

    players: int = 3
    seed: int = 0
    connection: str = "group"
    marble_field: str = "shared"
    improvement: str = "join"
    third_marked: str | None = None
    auto_chance: bool = True
    box: EstateBox = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if self.box is None:
            object.__setattr__(self, "box", default_estate_box())
        b = self.box
        if not is_integer(self.players) or not b.min_players <= self.players <= b.max_players:
            raise EstateConfigError(f"players must be {b.min_players}-{b.max_players}, got {self.players!r}")
        object.__setattr__(self, "players", int(self.players))  # a numpy integer is accepted, kept plain
        object.__setattr__(self, "seed", check_seed(self.seed, error=EstateConfigError))
        for name, allowed in (("connection", CONNECTION_RULES), ("marble_field", MARBLE_FIELD_RULES),
                              ("improvement", IMPROVEMENT_RULES)):
            if getattr(self, name) not in allowed:
                raise EstateConfigError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        if self.third_marked is not None and not _known(self.third_marked, b.market):
            raise EstateConfigError(f"third_marked must name a Market action ({', '.join(b.market)}), got {self.third_marked!r}")

    def marked(self, action: str) -> bool:
        """Whether Market action ``action`` is paid with the marked price."""
        return self.box.market[action].marked or action == self.third_marked

    def to_dict(self) -> dict:
        return {"players": self.players, "seed": self.seed, "connection": self.connection,
                "marble_field": self.marble_field, "improvement": self.improvement,
                "third_marked": self.third_marked, "auto_chance": self.auto_chance}


class EstateData:
    """The data of one estate position (see the module doc); players are 0-based.
    :class:`haunted_kit.estate.engine.EstateState` adds the rules-driven protocol
    methods (legal actions, applying, chance, loading saves).

    Plain fields (read them, never write them; the engine changes them):
        season (1-based), phase (``setup``, ``turns``, ``inn``, ``over``), turn (the
        seat whose turn it is), hand[p] (resource -> amount, gold included),
        income[p] (resource -> income), taken[p] (taken this season), first_taker
        (material -> player or None this season), workers[p] (``supply``,
        ``factory``, ``inn``), tokens[p] (Market-condition tokens), passed[p],
        visited[p] (Market visit this season), visitors (visits begun this season),
        visit (``None`` or dict player/limit/used), uses (Market action -> uses this
        season), lands (slot -> dict tile/owner/markers/raised), display (face-up
        tiles), stack (tile -> count left), removed (tiles out of the game),
        adjacent (``[player, slot]`` raises given by the ``adjacent`` switch),
        pending (``None`` or ``["remove", player]``), chance (``None`` or ``"draw"``),
        inn_queue (players still to choose at the Inn), rng_count, decisions.
    """

    def __init__(self, config: EstateConfig):
        self.config = config
        self.record = Record()
        self.log: list | None = []
        self.forced: list = []
        self.start: dict | None = None
        self.legal_cache = None
        self.slot_cache = None

    # ------------------------------------------------------------------ protocol
    @property
    def players(self) -> int:
        return self.config.players

    @property
    def box(self) -> EstateBox:
        return self.config.box

    def is_chance_node(self) -> bool:
        return self.chance is not None

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        """Each player's gold value once terminal (a kit measure: gold + marble 3 +
        glass 2 + wood 1 + limestone 1, from ``data/estate/game.toml`` [value]); zeros
        while the game runs."""
        if not self.is_terminal():
            return [0.0] * self.players
        return [float(self.gold_value(p)) for p in range(self.players)]

    def gold_value(self, p: int) -> int:
        """Player ``p``'s holdings valued in gold (a kit measure, not a rule)."""
        v = self.box.value
        return sum(v[r] * n for r, n in self.hand[p].items())

    def observation(self, player=None) -> dict:
        """The position as JSON-ready data; nothing is hidden in this module except the
        seed and the generator's position (they would tell the next draws; :data:`VISIBILITY`)."""
        d = position_of(self)
        d["config"] = self.config.to_dict()
        if player is not None:
            VISIBILITY.observation(d, player)
            d["viewer"] = player
        return d

    def events(self, viewer=None):
        """The event log as a pandas DataFrame as ``viewer`` may see it (:data:`VISIBILITY`)."""
        return VISIBILITY.frame(self.log or [], viewer)

    def history(self) -> list:
        return self.record.entries()

    def copy(self, keep_log: bool = True):
        """An independent copy, compiled from :data:`STATE_FIELDS` (the lands' "tree" copy
        written out for their one shape; the log is left out, None, with ``keep_log=False``)."""
        return _copy(self, keep_log)

    # ------------------------------------------------------------------ saves
    def to_dict(self) -> dict:
        hist = []
        for e in self.record.entries():
            hist.append({"chance": e.action} if e.chance else {"player": e.player, "action": action_to_dict(e.action)})
        return {"format": SAVE_FORMAT, "game": GAME_NAME, "version": SAVE_VERSION, "box": self.box.fingerprint,
                "config": self.config.to_dict(), "start": copy_tree(self.start), "history": hist, "state": position_of(self)}

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    def save(self, path) -> None:
        """Write the save to ``path`` atomically (:func:`haunted_kit.fileio.atomic_write`),
        so a failed write never leaves half a save."""
        atomic_write(path, self.to_json(indent=1))

# ============================================================================ positions

_F = StateField

#: Every field of an estate position (:class:`haunted_kit.saves.StateField`: name, copy
#: kind, save codec, save key), in save order. Saved fields (codec ``"json"``, or
#: ``"lands"`` whose slots become ``"q,r"`` keys) make the position of
#: :func:`position_of`, checked on load by :func:`check_position`; the others are the
#: action record, the log, forced outcomes, the start position and the legal-action cache.
STATE_FIELDS: tuple[StateField, ...] = tuple(
    [_F(name, kind, "lands" if name == "lands" else "json", name) for name, kind in (
        ("season", "value"), ("phase", "value"), ("turn", "value"), ("hand", "rows"), ("income", "rows"),
        ("taken", "rows"), ("first_taker", "dict"), ("workers", "rows"), ("tokens", "list"), ("passed", "list"),
        ("visited", "list"), ("visitors", "value"), ("visit", "tree"), ("uses", "dict"), ("lands", "tree"),
        ("display", "list"), ("stack", "dict"), ("removed", "list"), ("adjacent", "rows"), ("pending", "optional_list"),
        ("chance", "value"), ("inn_queue", "list"), ("rng_count", "value"), ("decisions", "value"))]
    + [_F("record", "value", None), _F("log", "log", None), _F("forced", "list", None), _F("start", "value", None),
       _F("legal_cache", "value", None), _F("slot_cache", "value", None)])

_FIELDS = tuple(f.name for f in STATE_FIELDS if f.save)

#: Every kind of event the estate emits (each with what it means).
EVENT_KINDS = {
    "setup": "a setup step was carried out", "season_started": "a season began",
    "season_ended": "a season ended", "game_over": "the game ended",
    "tile_drawn": "a tile was drawn from the stack into the display", "tile_bought": "a tile was bought",
    "tile_placed": "a tile was placed on a land slot", "tile_removed": "a tile left the game",
    "condition_token": "a condition token was placed", "joined": "a tile joined an owner's land",
    "income_raised": "an income rose", "no_raise": "an income could not rise",
    "taken": "resources were taken", "gold_taken": "gold was taken", "exchanged": "resources were exchanged",
    "sold": "resources were sold", "hired": "workers were hired", "hire_capped": "hiring stopped at a cap",
    "worker_placed": "a worker was placed", "workers_back": "workers came back",
    "fee_paid": "a fee was paid", "fee_received": "a fee was received", "inn_paid": "the inn was paid",
    "inn_declined": "a player declined the inn", "inn_unpaid": "the inn could not be paid",
    "market_visit": "a player visited the Market", "market_paid": "a Market price was paid",
    "market_left": "a player left the Market", "prices_reset": "the marked prices were reset",
    "passed": "a player passed",
}

#: Who may see what (:mod:`haunted_kit.visibility`, the one declaration every tool redacts
#: from; the fields are :data:`STATE_FIELDS`'): the estate hides nothing of the table but the
#: seed and the generator's position, which would tell the next draws; a tile drawn is
#: what a search guesses in a determinisation, so the hints and the review never state it.
VISIBILITY = Visibility(
    events={**{kind: Seen() for kind in EVENT_KINDS},
            "tile_drawn": Seen(EVERYONE, "A tile is drawn from the stack into the display.", guess=CHANCE)},
    fields={"config.seed": Seen(NOBODY, DROP), "rng_count": Seen(NOBODY, DROP)})
# every field but the lands compiled from the table; the lands (slot -> {tile, owner, markers, raised})
# copied by copy_lands below, the "tree" copy written out for their one shape (a search copies a
# position once per playout)
_copy_rest = compile_copy(tuple(f for f in STATE_FIELDS if f.name != "lands"), shared=("config",))


def copy_lands(lands: dict) -> dict:
    """A copy of ``lands`` (slot -> land) as ``copy_tree`` makes it: new dicts, new marker and
    raise lists. The state's copy and the observation encoder's kept lands use it."""
    return {slot: {**land, "markers": land["markers"][:], "raised": land["raised"][:]} for slot, land in lands.items()}


def _copy(s, keep_log: bool):
    new = _copy_rest(s, keep_log)
    new.lands = copy_lands(s.lands)
    return new


def position_of(s: EstateData) -> dict:
    """Everything that can change in a game, as JSON-ready data (slots as ``"q,r"`` keys)."""
    d = {}
    for f in STATE_FIELDS:
        if f.save == "lands":
            d[f.key] = {f"{q},{r}": {"tile": x["tile"], "owner": x["owner"], "markers": list(x["markers"]),
                                     "raised": list(x["raised"])} for (q, r), x in sorted(s.lands.items())}
        elif f.save:
            d[f.key] = json_value(getattr(s, f.name))
    return d


def slot_key(text: str):
    q, r = text.split(",")
    return int(q), int(r)


#: the kit's typed reader (:class:`haunted_kit.saves.SaveReader`) raising :class:`EstateSaveError`
READ = SaveReader(EstateSaveError)


def fail(where, problem):
    """Raise :class:`EstateSaveError` for the save field at path ``where``."""
    READ.fail(where, problem)


def _nonneg(v, w):
    """Refuse ``v`` at save path ``w`` unless it is a whole number 0 or more."""
    if not is_integer(v) or v < 0:
        fail(w, f"must be a non-negative integer, got {v!r}")


def _player(v, w, n, none=False):
    """Refuse ``v`` at save path ``w`` unless it is a player index ``0..n-1`` (or None when ``none``)."""
    if v is None and none:
        return
    if not is_integer(v) or not 0 <= v < n:
        fail(w, f"must be a player index 0..{n - 1}, got {v!r}")


def check_position(box: EstateBox, config: EstateConfig, d, where: str = "state") -> None:
    """Refuse a position the rules cannot hold; the error names the field.

    Checks types, non-negative counts, the worker limit, tiles on board slots with
    known kinds, markers of real players (one each per tile), connected estates,
    stack counts within the box, the phase, the pending decision and the visit.
    """
    n = config.players
    if not isinstance(d, dict):
        fail(where, "must be a JSON object")
    for k in _FIELDS:
        if k not in d:
            fail(f"{where}.{k}", "missing")
    _check_players(box, n, d, where)
    _check_market(box, n, d, where)
    placed = _check_lands(box, config, n, d, where)
    _check_tiles(box, placed, d, where)
    _check_waiting(n, d, where)


def _check_players(box: EstateBox, n: int, d: dict, where: str) -> None:
    """The season, phase and turn, then each player's hand, income, workers, tokens and flags."""
    if not is_integer(d["season"]) or not 1 <= d["season"] <= box.seasons:
        fail(f"{where}.season", f"must be 1..{box.seasons}, got {d['season']!r}")
    if d["phase"] not in PHASES:
        fail(f"{where}.phase", f"must be one of {', '.join(PHASES)}, got {d['phase']!r}")
    _player(d["turn"], f"{where}.turn", n)
    for key, names in (("hand", box.resources), ("income", box.income_resources), ("taken", box.income_resources),
                       ("workers", ("supply", "factory", "inn"))):
        v = d[key]
        if not isinstance(v, list) or len(v) != n:
            fail(f"{where}.{key}", f"must list one entry per player ({n})")
        for p, x in enumerate(v):
            if not isinstance(x, dict) or set(x) != set(names):
                fail(f"{where}.{key}[{p}]", f"must have exactly the keys {', '.join(names)}")
            for r in names:
                _nonneg(x[r], f"{where}.{key}[{p}].{r}")
    for p, w in enumerate(d["workers"]):
        if sum(w.values()) > box.worker_limit:
            fail(f"{where}.workers[{p}]", f"{sum(w.values())} workers, above the limit of {box.worker_limit}")
    for key in ("tokens",):
        if not isinstance(d[key], list) or len(d[key]) != n:
            fail(f"{where}.{key}", f"must list one entry per player ({n})")
        for p, x in enumerate(d[key]):
            _nonneg(x, f"{where}.{key}[{p}]")
    for key in ("passed", "visited"):
        if not isinstance(d[key], list) or len(d[key]) != n or not all(isinstance(x, bool) for x in d[key]):
            fail(f"{where}.{key}", f"must list true/false for each of the {n} players")


def _check_market(box: EstateBox, n: int, d: dict, where: str) -> None:
    """The factory's first takers, the Market's visitors, the visit under way and the actions' uses."""
    if not isinstance(d["first_taker"], dict) or set(d["first_taker"]) != set(box.factory_resources):
        fail(f"{where}.first_taker", f"must have exactly the keys {', '.join(box.factory_resources)}")
    for r, p in d["first_taker"].items():
        _player(p, f"{where}.first_taker.{r}", n, none=True)
    _nonneg(d["visitors"], f"{where}.visitors")
    if d["visitors"] > sum(d["visited"]):
        fail(f"{where}.visitors", f"{d['visitors']} visits begun but only {sum(d['visited'])} players visited")
    v = d["visit"]
    if v is not None:
        if not isinstance(v, dict) or set(v) != {"player", "limit", "used"}:
            fail(f"{where}.visit", "must be null or an object with player, limit, used")
        _player(v["player"], f"{where}.visit.player", n)
        if v["limit"] not in (box.first_visitor_actions, box.later_visitor_actions):
            fail(f"{where}.visit.limit", f"must be {box.first_visitor_actions} or {box.later_visitor_actions}, got {v['limit']!r}")
        if not isinstance(v["used"], list) or any(not _known(a, box.market) for a in v["used"]) or len(set(v["used"])) != len(v["used"]) \
                or len(v["used"]) >= v["limit"]:
            fail(f"{where}.visit.used", "must list fewer different Market actions than the visit's limit")
    if not isinstance(d["uses"], dict) or set(d["uses"]) != set(box.market):
        fail(f"{where}.uses", f"must have exactly the keys {', '.join(box.market)}")
    for a, k in d["uses"].items():
        _nonneg(k, f"{where}.uses.{a}")


def _check_lands(box: EstateBox, config: EstateConfig, n: int, d: dict, where: str) -> dict:
    """Each land on the board (slot, tile, owner, markers, raised), then each player's
    estate (reaching the lower area, connected). Returns tile name -> tiles on the board."""
    lands = d["lands"]
    if not isinstance(lands, dict):
        fail(f"{where}.lands", "must be an object of slot -> land")
    placed = {t: 0 for t in box.tiles}
    for key, x in lands.items():
        w = f"{where}.lands[{key}]"
        try:
            slot = slot_key(key)
        except ValueError:
            fail(w, "the key must be a slot \"q,r\"")
        if slot not in box.slots:
            fail(w, "is not a slot of the land board")
        if not isinstance(x, dict) or set(x) != {"tile", "owner", "markers", "raised"}:
            fail(w, "must have exactly tile, owner, markers, raised")
        if not _known(x["tile"], box.tiles):
            fail(f"{w}.tile", f"unknown tile {x['tile']!r}")
        placed[x["tile"]] += 1
        _player(x["owner"], f"{w}.owner", n)
        m = x["markers"]
        if not isinstance(m, list) or not m:
            fail(f"{w}.markers", "must list the players' markers, the owner's first")
        for p in m:
            _player(p, f"{w}.markers", n)
        if m[0] != x["owner"] or len(set(m)) != len(m):
            fail(f"{w}.markers", "must start with the owner's marker and hold at most one marker per player")
        r = x["raised"]
        if not isinstance(r, list) or any(p not in m for p in r):
            fail(f"{w}.raised", "may only list players with a marker on the tile")
    tiles_of = {p: [slot_key(k) for k, x in lands.items() if p in x["markers"]] for p in range(n)}

    for p, mine in tiles_of.items():
        if mine and not any(s in box.lower_area for s in mine):
            fail(f"{where}.lands", f"P{p + 1}'s estate does not reach the shared lower area")
        if mine and not estate_connected(box, mine, config.connection):
            fail(f"{where}.lands", f"P{p + 1}'s markers are not connected ({config.connection} reading)")
    return placed


def _check_tiles(box: EstateBox, placed: dict, d: dict, where: str) -> None:
    """The display, the tiles out of the game and the stack: every tile of the box accounted for once."""
    for key in ("display", "removed"):
        if not isinstance(d[key], list) or any(not _known(t, box.tiles) for t in d[key]):
            fail(f"{where}.{key}", "must list known tile names")
    if len(d["display"]) > box.display_size:
        fail(f"{where}.display", f"holds {len(d['display'])} tiles, more than {box.display_size}")
    if not isinstance(d["stack"], dict) or set(d["stack"]) != set(box.tiles):
        fail(f"{where}.stack", f"must have exactly the keys {', '.join(box.tiles)}")
    for t, k in d["stack"].items():
        _nonneg(k, f"{where}.stack.{t}")
        total = k + placed[t] + d["display"].count(t) + d["removed"].count(t)
        if total != box.tiles[t].count:
            fail(f"{where}.stack.{t}", f"{t} tiles in stack, display, board and out of the game add up to {total}, "
                                        f"but the box has {box.tiles[t].count}")


def _check_waiting(n: int, d: dict, where: str) -> None:
    """What waits to be resolved (adjacency, a pending removal, a chance draw, the inn's
    queue) and the counters."""
    if not isinstance(d["adjacent"], list):
        fail(f"{where}.adjacent", "must be a list of [player, \"q,r\"] pairs")
    pend = d["pending"]
    if pend is not None and not (isinstance(pend, list) and len(pend) == 2 and pend[0] == "remove"):
        fail(f"{where}.pending", f"must be null or [\"remove\", player], got {pend!r}")
    if pend is not None:
        _player(pend[1], f"{where}.pending[1]", n)
    if d["chance"] not in (None, "draw"):
        fail(f"{where}.chance", f"must be null or \"draw\", got {d['chance']!r}")
    if not isinstance(d["inn_queue"], list):
        fail(f"{where}.inn_queue", "must be a list of players")
    for p in d["inn_queue"]:
        _player(p, f"{where}.inn_queue", n)
    _nonneg(d["rng_count"], f"{where}.rng_count")
    _nonneg(d["decisions"], f"{where}.decisions")


def set_position(s: EstateData, d: dict) -> None:
    """Load position ``d`` (checked by :func:`check_position`) into ``s``."""
    check_position(s.box, s.config, d)
    for k in _FIELDS:
        v = json.loads(json.dumps(d[k]))
        if k == "lands":
            v = {slot_key(key): x for key, x in v.items()}
        setattr(s, k, v)
    s.legal_cache = None
    s.slot_cache = None


def first_difference(a, b, where: str):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{where}.{k}"
            w = first_difference(a[k], b[k], f"{where}.{k}")
            if w:
                return w
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return where
        for i, (x, y) in enumerate(zip(a, b)):
            w = first_difference(x, y, f"{where}[{i}]")
            if w:
                return w
        return None
    return None if (a == b and type(a) is type(b)) else where


def value_at(d, path: str):

    cur = d
    for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        key, idx = part
        try:
            cur = cur[int(idx)] if idx else cur[key]
        except (KeyError, IndexError, TypeError):
            return "(missing)"
    return cur


__all__ = ["EstateConfig", "EstateConfigError", "EstateData", "EstateSaveError", "check_position", "copy_lands", "first_difference", "position_of",
           "set_position", "value_at"]
