"""Versioned JSON form of a :class:`~haunted_kit.state.State` (saves and observations).

The save is written and read field by field from the state's field table
(:data:`haunted_kit.state.FIELDS`): each field names a codec here, and its key says
where it sits in the save (``"season"``, ``"players.resources"``, ``"supply.tokens"``).
Cells appear as axial ``[q, r]`` pairs and resources, tracks and buildings by name, so
a save is readable by people. :func:`from_dict` checks the format name, the version
and every field's shape; a problem raises :class:`~haunted_kit.state.SaveError` naming
the field. Whether the values could occur in a game is checked by the rules
(:func:`haunted_kit.rules.check_position`), one layer up.

Versions: 2 (current) adds ``"history"``, the action record, and writes pending decisions and
chance nodes as ``{"kind": ..., field: value}`` (:mod:`haunted_kit.flow`). A version 1 save loads
with the same fields; the engine rebuilds its record from the event log
(:func:`needs_record`).
"""

from __future__ import annotations

from .actions import action_from_dict, action_to_dict
from .board import build_field
from .components import Box, default_box
from .events import Event
from .flow import CHANCE, PENDING, Phase, chance_from_json, pending_from_json
from .protocol import Record
from .state import (COVERED, FIELDS, FREE, SAVE_FORMAT, SAVE_VERSION, TRACKS, ConfigError, GameConfig, SaveError,
                    State, player_row)

#: Save versions this kit reads; older ones are migrated on load.
READABLE_VERSIONS = (1, SAVE_VERSION)


# ============================================================================ codecs
#
# A codec turns one field's value into its JSON form and back. Per-player codecs
# (``players.*`` keys) handle one player's part: encode(s, p, name) and
# decode(s, x, p) -> that player's part; flat ones (resources, tokens) give a list that
# is concatenated over the players.


def _cell_name(s: State, i: int) -> list:
    return list(s.field.cells[i])


def _cell_index(s: State, v, what: str) -> int:
    try:
        return s.field.index[tuple(v)]
    except (KeyError, TypeError, AttributeError):
        raise SaveError(f"save field '{what}': {v!r} is not a cell of the field") from None


def _dec_sensor(s, x, p, key):
    if x is None:
        if s.field is not None:
            raise SaveError(f"save field '{key}' is missing")
        return 0
    return _cell_index(s, x, key)


def _count(x, key):
    if not isinstance(x, int) or isinstance(x, bool) or x < 0:
        raise SaveError(f"save field '{key}' must be a non-negative integer, got {x!r}")
    return x


def _enc_record(s: State, steps) -> list:
    return [{"chance": e.action} if e.chance else {"player": e.player, "action": action_to_dict(e.action)}
            for e in Record(steps).entries()]


def _dec_record(s: State, x, key):
    rec = Record()
    for i, e in enumerate(x):
        if not isinstance(e, dict) or not (("chance" in e) != ("action" in e)):
            raise SaveError(f"save field '{key}[{i}]': {e!r} is neither a decision nor a chance outcome")
        if "chance" in e:
            rec = rec.step(None, e["chance"], True)
        else:
            p = e.get("player")
            if not (isinstance(p, int) and 0 <= p < s.config.players):
                raise SaveError(f"save field '{key}[{i}]': player {p!r} does not exist")
            try:
                rec = rec.step(p, action_from_dict(e["action"]))
            except (ValueError, TypeError, KeyError) as exc:
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
    for b in x:
        i = _cell_index(s, b["cell"], key)
        if b["building"] not in names:
            raise SaveError(f"save field '{key}': unknown building {b['building']!r}")
        if not (isinstance(b["owner"], int) and 0 <= b["owner"] < s.config.players):
            raise SaveError(f"save field '{key}': owner {b['owner']!r} is not a player")
        building[i] = names.index(b["building"])
        s.owner[i] = b["owner"]
    return building


def _enc_slots(s: State, slots: list) -> dict:
    if not slots:
        return {}
    return {str(k): ["covered" if v == COVERED else (None if v == FREE else v) for v in s.marker_slots(k)]
            for k in s.skills}


def _dec_slots(s: State, x, key) -> list:
    S = len(s.config.box.skill_slot_valor)
    out = []
    for k in s.skills if x else []:
        row = x[str(k)]
        if len(row) != S:
            raise SaveError(f"save field '{key}': skill {k} needs {S} slots")
        out += [COVERED if v == "covered" else (FREE if v is None else int(v)) for v in row]
    return out


def _dec_skill_cards(s, x, key):
    box = s.config.box
    skills = [int(k) for k in x]
    for k in skills:
        if k not in box.skills:
            raise SaveError(f"save field '{key}': unknown skill {k}")
    decks = list(box.skill_decks.values())
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
    :mod:`haunted_kit.flow`: the phase it belongs to first, then its shape."""
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
    if x is not None and not (isinstance(x, int) and 0 <= x < s.config.players):
        raise SaveError(f"save field '{key}': {x!r} is not a player")
    return x


def _enc_cells(s, flags):
    return [_cell_name(s, i) for i, v in enumerate(flags) if v]


def _dec_cells(s, x, key):
    flags = [0] * len(s.ghosts)
    for v in x:
        flags[_cell_index(s, v, key)] = 1
    return flags


def _names(names):
    def enc(s, values):
        return dict(zip(names(s), values))

    def dec(s, x, key):
        return [int(x[n]) for n in names(s)]
    return enc, dec


def _box_resources(s):
    return s.config.box.resources


def _box_tracks(s):
    return list(s.config.box.tracks)


def _box_buildings(s):
    return list(s.config.box.buildings)


#: codec name -> (encode(s, value), decode(s, json, key)) for whole fields
CODECS = {
    "list": (lambda s, v: list(v), lambda s, x, key: list(x)),
    "int": (lambda s, v: v, lambda s, x, key: int(x)),
    "count": (lambda s, v: v, lambda s, x, key: _count(x, key)),
    "str": (lambda s, v: v, lambda s, x, key: str(x)),
    "bool": (lambda s, v: v, lambda s, x, key: bool(x)),
    "phase": (lambda s, v: v, _dec_phase),
    "skill_cards": (lambda s, v: list(v), _dec_skill_cards),
    "winner": (lambda s, v: v, _dec_winner),
    "chance": (lambda s, v: None if v is None else v.to_json(), lambda s, x, key: None if x is None else _dec_chance(s, x, key)),
    "pending": (lambda s, v: [e.to_json() for e in v], lambda s, x, key: [_dec_one_pending(s, e, key) for e in x]),
    "cells": (_enc_cells, _dec_cells),
    "buildings": (_enc_buildings, _dec_buildings),
    "marker_slots": (_enc_slots, _dec_slots),
    "supply_int": (lambda s, v: v, lambda s, x, key: int(x)),
    "supply_resources": _names(_box_resources),
    "supply_tracks": _names(_box_tracks),
    "supply_buildings": _names(_box_buildings),
    "record": (_enc_record, _dec_record),
    "log": (lambda s, v: None if v is None else [e.to_dict() for e in v],
            lambda s, x, key: None if x is None else [Event.from_dict(e) for e in x]),
}


def _dec_mask(s, x, p, key):
    mask = 0
    for k in x:
        mask |= 1 << int(k)
    return mask


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
    "player_int": (lambda s, p, name: getattr(s, name)[p], lambda s, x, p, key: int(x), False),
    "player_resources": (lambda s, p, name: dict(zip(s.config.box.resources, player_row(getattr(s, name), len(s.config.box.resources), p))),
                         lambda s, x, p, key: [int(x[r]) for r in s.config.box.resources], True),
    "player_tracks": (lambda s, p, name: dict(zip(s.config.box.tracks, player_row(getattr(s, name), TRACKS, p))),
                      lambda s, x, p, key: [int(x[t]) for t in s.config.box.tracks], True),
    "player_skills": (lambda s, p, name: [k for k in sorted(s.config.box.skills) if s.knows_skill(p, k)], _dec_mask, False),
    "player_hand": (lambda s, p, name: [q for q in sorted(s.config.box.quests) if s.holds_quest(p, q)],
                    _dec_hidden(_dec_mask), False),
    "player_quests": (lambda s, p, name: list(s.quests_chosen(p)),
                      _dec_hidden(lambda s, x, p, key: tuple(int(q) for q in x)), False),
}

#: per-player fields hidden from the other players in an observation
_PRIVATE = {"player_hand", "player_quests"}


# ============================================================================ writing


def to_dict(s: State, viewer: int | None = None, observation: bool = False) -> dict:
    """JSON-ready dict of ``s``, field by field from :data:`~haunted_kit.state.FIELDS`.
    With ``observation`` the view of ``viewer``: other players' quests appear as
    counts, the log is redacted, and secret fields (seed, generator position, forced
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
                hidden = observation and viewer is not None and viewer != p and f.save in _PRIVATE
                players[p][sub] = None if hidden else enc(s, p, f.name)
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
        d["log"] = [e.seen_by(viewer).to_dict() for e in (s.log or [])]
    return d


# ============================================================================ reading


def needs_record(d: dict) -> bool:
    """Whether a save (already read by :func:`from_dict`) lacks the action record: a
    version 1 save, whose record the engine rebuilds from the event log."""
    return d.get("version") == 1


def from_dict(d, box: Box | None = None, cls: type = State) -> State:
    """Rebuild a ``cls`` (a :class:`State` subclass) from :func:`to_dict` output, field
    by field. Checks shapes only; the engine then has the rules check the values.

    Raises:
        SaveError: not a haunted-kit save, an unreadable version, or a missing/invalid
            field (the message names it).
    """
    if not isinstance(d, dict):
        raise SaveError("a save must be a JSON object")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a haunted-kit save (format is {d.get('format')!r}, expected {SAVE_FORMAT!r})")
    version = d.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise SaveError(f"save version {version!r} is not supported (this kit reads versions "
                        f"{', '.join(map(str, READABLE_VERSIONS))})")
    box = box or default_box()
    made_with = d.get("box") or {}
    if made_with.get("fingerprint") and made_with["fingerprint"] != box.fingerprint:
        raise SaveError(f"this save was made with another box (data in {made_with.get('path')!r}, fingerprint "
                        f"{made_with['fingerprint'][:12]}); load it with that box: "
                        f"State.load(path, box=load_box(...)) or `haunted-kit replay --box DIR`")
    where = "config"
    try:
        cfg = d["config"]
        if isinstance(cfg, dict) and "seed" in cfg and cfg["seed"] is None:
            raise SaveError("save field 'config': the seed is hidden; this is an observation, not a save")
        try:
            config = GameConfig(players=cfg["players"], mode=cfg["mode"], extra_ghost_cards=tuple(cfg["extra_ghost_cards"]),
                                seed=cfg["seed"], limited_supplies=cfg["limited_supplies"], terrain_die=cfg["terrain_die"], box=box)
        except ConfigError as exc:
            raise SaveError(f"save field 'config': {exc}") from None
        n = config.players
        s = cls(config)
        ncells = 7 * (1 + len(box.region_centres))
        s.ghosts = [0] * ncells
        where = "players"
        pl = d["players"]
        if not isinstance(pl, list) or len(pl) != n:
            raise SaveError(f"save field 'players' lists {len(pl) if isinstance(pl, list) else pl!r} players, the config says {n}")
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
                if top == "cells" and d["cells"] is None:
                    setattr(s, f.name, [0 if f.name != "building" else -1] * ncells)
                    if f.name == "building":
                        s.owner = [-1] * ncells
                    continue
                x = d[top][sub]
            else:
                x = d[top]
            setattr(s, f.name, CODECS[f.save][1](s, x, f.key))
            if f.name == "layout":
                s.layout = [str(t) for t in s.layout]
                s.field = build_field(tuple(s.layout), box) if len(s.layout) == len(box.region_centres) else None
        where = "outcome"
        _check_shapes(s)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError(f"save field '{where}' is missing or malformed ({type(exc).__name__}: {exc})") from None
    s._legal = None
    return s


def _check_shapes(s: State) -> None:
    """Shape checks that need several fields (each message names the save field)."""
    box = s.config.box
    n = s.config.players
    s.turn_order = [int(p) for p in s.turn_order]
    if s.phase != "setup" and sorted(s.turn_order) != list(range(n)):
        raise SaveError(f"save field 'turn_order' must list each of the {n} players once, got {s.turn_order}")
    for name, arr in (("resources", s.res), ("pecunias", s.pec), ("tokens", s.tok), ("active", s.act), ("valor", s.valor)):
        if any(v < 0 for v in arr):
            raise SaveError(f"save field 'players': negative {name}")
    if any(a > t for a, t in zip(s.act, s.tok)):
        raise SaveError("save field 'players': more active tokens than tokens")
