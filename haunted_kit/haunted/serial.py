"""Versioned JSON form of a :class:`~haunted_kit.haunted.state.State` (saves and observations).

The save is written and read field by field from the state's field table
(:data:`haunted_kit.haunted.state.FIELDS`): each field names a codec here, and its key says
where it sits in the save (``"season"``, ``"players.resources"``, ``"supply.tokens"``).
Cells appear as axial ``[q, r]`` pairs and resources, tracks and buildings by name, so
a save is readable by people. :func:`from_dict` checks the format name, the version
and every field's shape strictly before it is used: numbers must be JSON integers
(never booleans, floats, NaN or Infinity) within bounds set by the box and the player
count, names must be the box's, cells the field's, objects must have exactly their
keys. A problem raises :class:`~haunted_kit.haunted.state.SaveError` naming the field
(``save field 'players[1].pecunias': ...``). Whether the values could occur in a game
is checked by the rules (:func:`haunted_kit.haunted.rules.check_position`), one layer up.

Versions: 2 (current) adds ``"history"``, the action record, and writes pending decisions and
chance nodes as ``{"kind": ..., field: value}`` (:mod:`haunted_kit.haunted.flow`). A version 1 save loads
with the same fields; the engine rebuilds its record from the event log
(:func:`needs_record`).
"""

from __future__ import annotations

from .actions import action_from_dict, action_to_dict
from .board import build_field
from .box import Box, default_box
from ..events import Event
from .flow import CHANCE, PENDING, Phase, chance_from_json, pending_from_json
from ..protocol import Record, is_integer, is_the_integer
from ..saves import SaveReader, short
from .state import (COVERED, FIELDS, FREE, SAVE_FORMAT, SAVE_VERSION, TRACKS, ConfigError, GameConfig, SaveError,
                    State, VISIBILITY, player_row)

#: Save versions this kit reads; older ones are migrated on load.
READABLE_VERSIONS = (1, SAVE_VERSION)
# ============================================================================ strict readers


#: Bound on any count of a save that the box does not bound more tightly (the
#: engine's "unlimited supply" is 10**9).
MAX_COUNT = 10**9
#: Longest list a save may hold in one field (the event log of a long game has a few
#: thousand events).
MAX_ITEMS = 200_000


#: the kit's typed reader (:class:`haunted_kit.saves.SaveReader`), writing this game's messages
_READ = SaveReader(SaveError, "save field '{where}': {problem}")
_fail, _bool, _str, _dict, _short = _READ.fail, _READ.bool, _READ.str, _READ.dict, short


def _int(v, where: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    """A strict integer within ``lo..hi`` (:meth:`SaveReader.int`): a JSON integer, never
    a bool, a float (even 1.0), a string or null."""
    return _READ.int(v, where, lo, hi)


def _list(v, where: str, most: int = MAX_ITEMS) -> list:
    return _READ.list(v, where, most=most)


def _pick(v, where: str, known) -> int:
    """A card number that ``known`` (a box's dict of cards) holds."""
    if not is_integer(v) or v not in known:
        _fail(where, f"{_short(v)} is not one of {', '.join(map(str, known))}")
    return v


_EVENT_KEYS = ("seq", "season", "round", "phase", "kind", "player", "text", "cell", "data", "private")


def _event(e, where: str, n: int) -> Event:
    """A log event: its shape checked by :meth:`Event.from_dict` (the one event
    validator), then its player against this game's seats and its privacy (its
    sentence is not re-checked: it is text)."""
    e = _dict(e, where, _EVENT_KEYS)
    try:
        ev = Event.from_dict(e)
    except ValueError as exc:
        _fail(where, str(exc))
    if ev.player is not None and ev.player >= n:
        _fail(f"{where}.player", f"must be a player 0..{n - 1}, got {ev.player}")
    if ev.private and ev.player is None:
        _fail(f"{where}.private", "a private event (a quest choice) belongs to a player")
    if ev.seq > MAX_COUNT or ev.season > MAX_COUNT or ev.round > MAX_COUNT:
        _fail(where, f"event numbers must be at most {MAX_COUNT}")
    return ev


# ============================================================================ codecs
#
# A codec turns one field's value into its JSON form and back. Per-player codecs
# (``players.*`` keys) handle one player's part: encode(s, p, name) and
# decode(s, x, p) -> that player's part; flat ones (resources, tokens) give a list that
# is concatenated over the players.


def _cell_name(s: State, i: int) -> list:
    return list(s.field.cells[i])


def _cell_index(s: State, v, what: str) -> int:
    if s.field is not None and isinstance(v, list) and len(v) == 2 and \
            all(is_integer(x) for x in v):
        i = s.field.index.get(tuple(v))
        if i is not None:
            return i
    raise SaveError(f"save field '{what}': {_short(v)} is not a cell of the field")


def _dec_sensor(s, x, p, key):
    if x is None:
        if s.field is not None:
            raise SaveError(f"save field '{key}' is missing")
        return 0
    return _cell_index(s, x, key)


#: Upper bounds of counts that the box or the player count bounds more tightly than
#: MAX_COUNT, by save key.
_BOUNDS = {
    "season": lambda s: s.config.box.seasons,
    "round": lambda s: s.config.box.rounds_per_season,
    "turn_pos": lambda s: s.config.players,
    "market": lambda s: max(s.config.box.market_cards),
    "players.markers_used": lambda s: s.config.box.player_markers,
    "supply.ghosts": lambda s: s.config.box.supply_ghosts if s.config.limited_supplies else MAX_COUNT,
    "supply.depletion": lambda s: s.config.box.supply_depletion if s.config.limited_supplies else MAX_COUNT,
}


def _count(x, key):
    """A count: a JSON integer from 0 to its bound (:data:`_BOUNDS`, else MAX_COUNT)."""
    return _int(x, key, 0, MAX_COUNT)


def _bounded(s, x, key):
    bound = _BOUNDS.get(key) or _BOUNDS.get("players." + key.partition(".")[2])
    return _int(x, key, 0, bound(s) if bound else MAX_COUNT)


def _enc_record(s: State, steps) -> list:
    return [{"chance": e.action} if e.chance else {"player": e.player, "action": action_to_dict(e.action)}
            for e in Record(steps).entries()]


def _dec_record(s: State, x, key):
    rec = Record()
    for i, e in enumerate(_list(x, key)):
        if not isinstance(e, dict) or not (("chance" in e) != ("action" in e)):
            raise SaveError(f"save field '{key}[{i}]': {_short(e)} is neither a decision nor a chance outcome")
        if "chance" in e:
            o = e["chance"]
            if not isinstance(o, str):
                _int(o, f"{key}[{i}].chance", -MAX_COUNT, MAX_COUNT)
            rec = rec.step(None, o, True)
        else:
            _dict(e, f"{key}[{i}]", ("player", "action"))
            p = _int(e["player"], f"{key}[{i}].player", 0, s.config.players - 1)
            try:
                rec = rec.step(p, action_from_dict(e["action"]))
            except ValueError as exc:  # ActionFormatError
                raise SaveError(f"save field '{key}[{i}]': {exc}") from None
    return rec.head


def _enc_buildings(s: State, building: list) -> list:
    names = list(s.config.box.buildings)
    return [{"cell": _cell_name(s, i), "building": names[b], "owner": s.owner[i]}
            for i, b in enumerate(building) if b >= 0]


def _dec_buildings(s: State, x, key) -> list:
    names = list(s.config.box.buildings)
    building = [-1] * len(s.ghosts)
    s.owner = [-1] * len(s.ghosts)
    for b in _list(x, key, len(s.ghosts)):
        _dict(b, key, ("cell", "building", "owner"))
        i = _cell_index(s, b["cell"], key)
        if building[i] >= 0:
            _fail(key, f"two buildings on {b['cell']}")
        building[i] = names.index(_str(b["building"], f"{key}.building", names))
        s.owner[i] = _int(b["owner"], f"{key}.owner", 0, s.config.players - 1)
    return building


def _enc_slots(s: State, slots: list) -> dict:
    if not slots:
        return {}
    return {str(k): ["covered" if v == COVERED else (None if v == FREE else v) for v in s.marker_slots(k)]
            for k in s.skills}


def _dec_slots(s: State, x, key) -> list:
    S = len(s.config.box.skill_slot_valor)
    out = []
    if _dict(x, key):
        _dict(x, key, [str(k) for k in s.skills])
        if len(s.skills) != len(s.config.box.skill_decks):
            _fail(key, "marker slots are set up only once every skill card is drawn")
    for k in s.skills if x else []:
        row = _list(x[str(k)], f"{key}.{k}", S)
        if len(row) != S:
            raise SaveError(f"save field '{key}': skill {k} needs {S} slots")
        out += [COVERED if v == "covered" else (FREE if v is None else _int(v, f"{key}.{k}", 0, s.config.players - 1))
                for v in row]
    return out


def _dec_skill_cards(s, x, key):
    box = s.config.box
    decks = list(box.skill_decks.values())
    skills = [_pick(k, key, box.skills) for k in _list(x, key, len(decks))]
    if skills and (len(skills) > len(decks) or any(k not in decks[i] for i, k in enumerate(skills))):
        raise SaveError(f"save field '{key}': {skills} is not one skill card per deck in deck order "
                        f"({'; '.join(', '.join(map(str, d)) for d in decks)})")
    return skills


def _dec_phase(s, x, key):
    try:
        return Phase(x)
    except ValueError:
        raise SaveError(f"save field '{key}': unknown phase {x!r} (phases: {', '.join(Phase)})") from None


def _typed(registry, parse, what):
    """A decoder of one pending decision or chance node through its registry in
    :mod:`haunted_kit.haunted.flow`: the phase it belongs to first, then its shape."""
    def dec(s, x, key):
        kind = x.get("kind") if isinstance(x, dict) else (x[0] if isinstance(x, (list, tuple)) and x else None)
        cls = registry.get(kind) if isinstance(kind, str) else None
        if cls is not None and cls.phase != s.phase:
            raise SaveError(f"save field '{key}': {x!r}: a {kind!r} {what} cannot wait during the {s.phase} phase")
        try:
            return parse(x, s.config.players)
        except ValueError as exc:
            raise SaveError(f"save field '{key}': {exc}") from None
    return dec


_dec_one_pending = _typed(PENDING, pending_from_json, "decision")
_dec_chance = _typed(CHANCE, chance_from_json, "chance node")


def _dec_winner(s, x, key):
    return None if x is None else _int(x, key, 0, s.config.players - 1)


def _dec_layout(s, x, key):
    box = s.config.box
    layout = [_str(t, key, tuple(box.tiles)) for t in _list(x, key, len(box.region_centres))]
    if len(set(layout)) != len(layout):
        _fail(key, f"a region tile is placed twice: {layout}")
    return layout


def _dec_turn_order(s, x, key):
    n = s.config.players
    order = [_int(p, key, 0, n - 1) for p in _list(x, key, n)]
    if len(set(order)) != len(order):
        _fail(key, f"must list each of the {n} players once, got {order}")
    return order


def _dec_outcomes(s, x, key):
    return [v if isinstance(v, str) else _int(v, key, -MAX_COUNT, MAX_COUNT) for v in _list(x, key, 10_000)]


def _enc_cells(s, flags):
    return [_cell_name(s, i) for i, v in enumerate(flags) if v]


def _dec_cells(s, x, key):
    flags = [0] * len(s.ghosts)
    for v in _list(x, key, len(s.ghosts)):
        i = _cell_index(s, v, key)
        if flags[i]:
            _fail(key, f"{v} is listed twice")
        flags[i] = 1
    return flags


def _names(names, bound):
    def enc(s, values):
        return dict(zip(names(s), values))

    def dec(s, x, key):
        _dict(x, key, names(s))
        return [_int(x[n], f"{key}.{n}", 0, bound(s, n)) for n in names(s)]
    return enc, dec


def _box_resources(s):
    return s.config.box.resources


def _box_tracks(s):
    return list(s.config.box.tracks)


def _box_buildings(s):
    return list(s.config.box.buildings)


def _supply_bound(counts):
    """The bound of a supply entry: the box's count, or MAX_COUNT for unlimited supplies."""
    return lambda s, name: getattr(s.config.box, counts)[name] if s.config.limited_supplies else MAX_COUNT


#: codec name -> (encode(s, value), decode(s, json, key)) for whole fields
CODECS = {
    "layout": (lambda s, v: list(v), _dec_layout),
    "turn_order": (lambda s, v: list(v), _dec_turn_order),
    "outcomes": (lambda s, v: list(v), _dec_outcomes),
    "int": (lambda s, v: v, _bounded),
    "count": (lambda s, v: v, _bounded),
    "str": (lambda s, v: v, lambda s, x, key: _str(x, key)),
    "bool": (lambda s, v: v, lambda s, x, key: _bool(x, key)),
    "phase": (lambda s, v: v, _dec_phase),
    "skill_cards": (lambda s, v: list(v), _dec_skill_cards),
    "winner": (lambda s, v: v, _dec_winner),
    "chance": (lambda s, v: None if v is None else v.to_json(), lambda s, x, key: None if x is None else _dec_chance(s, x, key)),
    "pending": (lambda s, v: [e.to_json() for e in v], lambda s, x, key: [_dec_one_pending(s, e, key) for e in _list(x, key, 64)]),
    "cells": (_enc_cells, _dec_cells),
    "buildings": (_enc_buildings, _dec_buildings),
    "marker_slots": (_enc_slots, _dec_slots),
    "supply_int": (lambda s, v: v, _bounded),
    "supply_resources": _names(_box_resources, _supply_bound("supply_resources")),
    "supply_tracks": _names(_box_tracks, _supply_bound("supply_tokens")),
    "supply_buildings": _names(_box_buildings, _supply_bound("supply_buildings")),
    "record": (_enc_record, _dec_record),
    "log": (lambda s, v: None if v is None else [e.to_dict() for e in v],
            lambda s, x, key: None if x is None else [_event(e, f"{key}[{i}]", s.config.players)
                                                      for i, e in enumerate(_list(x, key))]),
}


def _dec_mask(known):
    """Decode a list of card numbers (``known(box)`` holds the valid ones) into a bitmask."""
    def dec(s, x, p, key):
        cards = known(s.config.box)
        mask = 0
        for k in _list(x, key, len(cards)):
            mask |= 1 << _pick(k, key, cards)
        return mask
    return dec


def _dec_hidden(dec):
    def inner(s, x, p, key):
        if x is None:
            raise SaveError(f"save field '{key}': quests are hidden; this is an observation, not a save")
        return dec(s, x, p, key)
    return inner


#: codec name -> (encode(s, p, field name), decode(s, json, p, key), flat) for players.* fields
PLAYER_CODECS = {
    "player_cell": (lambda s, p, name: _cell_name(s, s.sensor[p]) if s.field else None,
                    _dec_sensor, False),
    "player_int": (lambda s, p, name: getattr(s, name)[p], lambda s, x, p, key: _bounded(s, x, key), False),
    "player_resources": (lambda s, p, name: dict(zip(s.config.box.resources, player_row(getattr(s, name), len(s.config.box.resources), p))),
                         lambda s, x, p, key: _player_row(s, x, key, s.config.box.resources, _supply_bound("supply_resources")), True),
    "player_tracks": (lambda s, p, name: dict(zip(s.config.box.tracks, player_row(getattr(s, name), TRACKS, p))),
                      lambda s, x, p, key: _player_row(s, x, key, list(s.config.box.tracks),
                                                       lambda s, t: s.config.box.tracks[t].slots), True),
    "player_skills": (lambda s, p, name: [k for k in sorted(s.config.box.skills) if s.knows_skill(p, k)],
                      _dec_mask(lambda box: box.skills), False),
    "player_hand": (lambda s, p, name: [q for q in sorted(s.config.box.quests) if s.holds_quest(p, q)],
                    _dec_hidden(_dec_mask(lambda box: box.quests)), False),
    "player_quests": (lambda s, p, name: list(s.quests_chosen(p)),
                      _dec_hidden(lambda s, x, p, key: tuple(_pick(q, key, s.config.box.quests)
                                                             for q in _list(x, key, len(s.config.box.quests)))), False),
}

def _player_row(s, x, key, names, bound):
    _dict(x, key, names)
    return [_int(x[n], f"{key}.{n}", 0, bound(s, n)) for n in names]


# ============================================================================ writing


def to_dict(s: State, viewer: int | None = None, observation: bool = False) -> dict:
    """JSON-ready dict of ``s``, field by field from :data:`~haunted_kit.haunted.state.FIELDS`.
    With ``observation`` the view of ``viewer``: what :data:`~haunted_kit.haunted.state.VISIBILITY`
    hides from ``viewer`` is hidden (other players' quests appear as counts, their quest
    choices in the log face down), and secret fields (seed, generator position, forced
    outcomes, action record) are left out."""
    box = s.config.box
    n = s.config.players
    d = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "config": s.config.to_dict(),
         "box": {"fingerprint": box.fingerprint, "path": box.path}}
    players = [{} for _ in range(n)]
    for f in FIELDS:
        if f.save is None or (observation and f.secret) or (observation and f.save == "log"):
            continue
        top, _, sub = f.key.partition(".")
        value = getattr(s, f.name)
        if top == "players":
            enc = PLAYER_CODECS[f.save][0]
            for p in range(n):
                players[p][sub] = enc(s, p, f.name)
            continue
        x = CODECS[f.save][0](s, value)
        if sub:
            if top == "cells" and s.field is None:
                d["cells"] = None
                continue
            d.setdefault(top, {})[sub] = x
        else:
            d[top] = x
    for p in range(n):
        players[p]["quest_count"] = len(s.quests_chosen(p))
    d["players"] = players
    if observation:
        d["format"] = "haunted-kit-observation"
        d["viewer"] = viewer
        d["config"]["seed"] = None  # the seed would let a player foresee the dice
        d["log"] = [e.to_dict() for e in (s.log or [])]
        VISIBILITY.observation(d, viewer)  # the game's one declaration of what is hidden
    return d


# ============================================================================ reading


def needs_record(d: dict) -> bool:
    """Whether a save (already read by :func:`from_dict`) lacks the action record: a
    version 1 save, whose record the engine rebuilds from the event log."""
    return is_the_integer(d.get("version"), 1)


def from_dict(d, box: Box | None = None, cls: type = State) -> State:
    """Rebuild a ``cls`` (a :class:`State` subclass) from :func:`to_dict` output, field
    by field. Checks shapes only; the engine then has the rules check the values.

    Raises:
        SaveError: not a haunted-kit save, an unreadable version, or a missing/invalid
            field (the message names it).
    """
    version, box = _read_header(d, box)
    where = "config"
    try:
        config = _read_config(d, box)
        n = config.players
        s = cls(config)
        ncells = 7 * (1 + len(box.region_centres))
        s.ghosts = [0] * ncells
        where = "players"
        pl = _read_players(d, n, box)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _malformed(where, exc) from None
    _read_fields(s, d, pl, box, version, ncells)
    s._legal = None
    return s


def _malformed(where: str, exc: Exception) -> SaveError:
    """The error of a save field the reader trips over (``where``: its save path)."""
    return SaveError(f"save field '{where}' is missing or malformed ({type(exc).__name__}: {exc})")


def _read_header(d, box: Box | None) -> tuple:
    """The save's format, version and box record checked: ``(version, box)``, box
    defaulting to the reference box. Raises SaveError."""
    if not isinstance(d, dict):
        raise SaveError("a save must be a JSON object")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a haunted-kit save (format is {d.get('format')!r}, expected {SAVE_FORMAT!r})")
    version = d.get("version")
    if not any(is_the_integer(version, v) for v in READABLE_VERSIONS):
        raise SaveError(f"save version {version!r} is not supported (this kit reads versions "
                        f"{', '.join(map(str, READABLE_VERSIONS))})")
    box = box or default_box()
    made_with = d.get("box") or {}
    if not isinstance(made_with, dict) or not isinstance(made_with.get("fingerprint", ""), str):
        _fail("box", f"must be an object naming the box's fingerprint, got {_short(made_with)}")
    return version, box


def _read_config(d: dict, box: Box) -> GameConfig:
    """The save's ``config`` as a :class:`GameConfig` of ``box``. Raises SaveError (and
    KeyError... for :func:`from_dict` to name the field)."""
    cfg = _dict(d["config"], "config")
    if "seed" in cfg and cfg["seed"] is None:
        raise SaveError("save field 'config': the seed is hidden; this is an observation, not a save")
    _dict(cfg, "config", ("players", "mode", "extra_ghost_cards", "seed", "limited_supplies", "terrain_die"))
    try:
        config = GameConfig(players=_int(cfg["players"], "config.players", box.min_players, box.max_players),
                            mode=_str(cfg["mode"], "config.mode", tuple(box.modes)),
                            extra_ghost_cards=tuple(_int(g, "config.extra_ghost_cards")
                                                    for g in _list(cfg["extra_ghost_cards"], "config.extra_ghost_cards", 99)),
                            seed=cfg["seed"],  # GameConfig checks it (protocol.check_seed)
                            limited_supplies=_bool(cfg["limited_supplies"], "config.limited_supplies"),
                            terrain_die=_str(cfg["terrain_die"], "config.terrain_die"), box=box)
    except ConfigError as exc:
        raise SaveError(f"save field 'config': {exc}") from None
    return config


def _read_players(d: dict, n: int, box: Box) -> list:
    """The save's ``players``: one object per player with exactly the player fields (quests
    not hidden). Raises SaveError (and KeyError... for :func:`from_dict` to name the field)."""
    pl = _list(d["players"], "players", 99)
    if len(pl) != n:
        raise SaveError(f"save field 'players' lists {len(pl)} players, the config says {n}")
    keys = [f.key.partition(".")[2] for f in FIELDS if f.key.startswith("players.")] + ["quest_count"]
    for p, x in enumerate(pl):
        x = _dict(x, f"players[{p}]")
        if x.get("quests_in_hand", 0) is None or x.get("quests", 0) is None:
            raise SaveError(f"save field 'players[{p}]': quests are hidden; this is an observation, not a save")
        _dict(x, f"players[{p}]", keys)
        _int(x["quest_count"], f"players[{p}].quest_count", 0, len(box.quests))  # derived: rewritten on save
    return pl


def _read_fields(s: State, d: dict, pl: list, box: Box, version: int, ncells: int) -> None:
    """Decode every saved field of :data:`FIELDS` into ``s`` (the players' from ``pl``,
    the cells' absent before the field is drawn), then check their shapes. Raises
    SaveError naming the field."""
    where = "players"
    try:
        for f in FIELDS:
            if f.save is None:
                continue
            top, _, sub = f.key.partition(".")
            where = f.key
            if top == "players":
                dec, flat = PLAYER_CODECS[f.save][1], PLAYER_CODECS[f.save][2]
                values = []
                for p, x in enumerate(pl):
                    where = f"players[{p}].{sub}"
                    v = dec(s, x[sub], p, where)
                    if flat:
                        values += v
                    else:
                        values.append(v)
                setattr(s, f.name, values)
                continue
            if f.name == "forced":
                x = d.get("forced", [])
            elif f.name == "steps" and version == 1:
                continue  # rebuilt from the log by the engine
            elif sub:
                if top == "cells" and (d["cells"] is None) != (s.field is None):
                    _fail("cells", "is missing" if s.field is not None else "a field is listed before its region tiles are drawn")
                if top == "cells" and d["cells"] is None:
                    setattr(s, f.name, [0 if f.name != "building" else -1] * ncells)
                    if f.name == "building":
                        s.owner = [-1] * ncells
                    continue
                x = _dict(d[top], top)[sub]
            else:
                x = d[top]
            setattr(s, f.name, CODECS[f.save][1](s, x, f.key))
            if f.name == "layout":
                s.field = build_field(tuple(s.layout), box) if len(s.layout) == len(box.region_centres) else None
        where = "outcome"
        _check_shapes(s)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _malformed(where, exc) from None


def _check_shapes(s: State) -> None:
    """Shape checks that need several fields (each message names the save field)."""
    n = s.config.players
    s.turn_order = [int(p) for p in s.turn_order]
    if s.phase != "setup" and sorted(s.turn_order) != list(range(n)):
        raise SaveError(f"save field 'turn_order' must list each of the {n} players once, got {s.turn_order}")
    for name, arr in (("resources", s.res), ("pecunias", s.pec), ("tokens", s.tok), ("active", s.act), ("valor", s.valor)):
        if any(v < 0 for v in arr):
            raise SaveError(f"save field 'players': negative {name}")
    if any(a > t for a, t in zip(s.act, s.tok)):
        raise SaveError("save field 'players': more active tokens than tokens")
