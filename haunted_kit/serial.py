"""Versioned JSON form of a :class:`~haunted_kit.state.State` (saves and observations).

Cells appear as axial ``[q, r]`` pairs and resources, tracks and buildings by name, so
a save is readable by people. :func:`from_dict` checks the format name, the version
and every field; a problem raises :class:`~haunted_kit.state.SaveError` naming it.
"""

from __future__ import annotations

from .board import build_field
from .components import Box, default_box
from .events import Event
from .state import COVERED, FREE, SAVE_FORMAT, SAVE_VERSION, SEED_BOUND, ConfigError, GameConfig, SaveError, State


def _cells(s: State, flags) -> list:
    return [list(s.field.cells[i]) for i, v in enumerate(flags) if v]


def to_dict(s: State, viewer: int | None = None, observation: bool = False) -> dict:
    """JSON-ready dict of ``s``. With ``observation`` the view of ``viewer`` (other
    players' quests appear as counts, the log is redacted, no generator position)."""
    box = s.config.box
    R = len(box.resources)
    names_b = list(box.buildings)
    tracks = list(box.tracks)
    players = []
    for p in range(s.config.players):
        hidden = observation and viewer is not None and viewer != p
        players.append({
            "sensor": list(s.field.cells[s.sensor[p]]) if s.field else None,
            "resources": {r: s.res[p * R + i] for i, r in enumerate(box.resources)},
            "pecunias": s.pec[p],
            "tokens": {t: s.tok[p * 4 + i] for i, t in enumerate(tracks)},
            "active": {t: s.act[p * 4 + i] for i, t in enumerate(tracks)},
            "valor": s.valor[p],
            "arrival": s.arrival[p],
            "skills": [k for k in sorted(box.skills) if s.learned[p] >> k & 1],
            "quests_in_hand": None if hidden else [q for q in sorted(box.quests) if s.hand[p] >> q & 1],
            "quests": None if hidden else list(s.quests[p]),
            "quest_count": len(s.quests[p]),
            "markers_used": s.markers[p],
        })
    S = len(box.skill_slot_valor)
    d = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "config": s.config.to_dict(),
        "box": {"fingerprint": box.fingerprint, "path": box.path},
        "layout": list(s.layout),
        "skills": list(s.skills),
        "market": s.market,
        "season": s.season,
        "round": s.round,
        "phase": s.phase,
        "turn_order": list(s.turn_order),
        "turn_pos": s.turn_pos,
        "pending": [list(x) for x in s.pending],
        "chance": list(s.chance) if s.chance is not None else None,
        "forced": list(s.forced),
        "cells": None if s.field is None else {
            "ghosts": _cells(s, s.ghosts),
            "depleted": _cells(s, s.depleted),
            "buildings": [{"cell": list(s.field.cells[i]), "building": names_b[b], "owner": s.owner[i]}
                          for i, b in enumerate(s.building) if b >= 0],
        },
        "marker_slots": {str(k): ["covered" if v == COVERED else (None if v == FREE else v) for v in s.slots[i * S:(i + 1) * S]]
                         for i, k in enumerate(s.skills)} if s.slots else {},
        "players": players,
        "arrivals": s.arrivals,
        "supply": {
            "ghosts": s.sup_ghosts,
            "buildings": dict(zip(names_b, s.sup_build)),
            "resources": dict(zip(box.resources, s.sup_res)),
            "depletion": s.sup_depl,
            "tokens": dict(zip(tracks, s.sup_tok)),
        },
        "winner": s.winner,
        "lost": s.lost,
        "over_reason": s.over_reason,
        "decisions": s.decisions,
        "auto_chance": s.auto_chance,
        "rng_count": s.rng_count,
    }
    if observation:
        d["format"] = "haunted-kit-observation"
        d["viewer"] = viewer
        # the seed and the generator's position would let a player foresee the dice
        d.pop("rng_count")
        d.pop("forced")
        d["config"]["seed"] = None
        d["log"] = [e.seen_by(viewer).to_dict() for e in (s.log or [])]
    else:
        d["log"] = None if s.log is None else [e.to_dict() for e in s.log]
    return d


#: Bound on any count of a save that the box does not bound more tightly (the
#: engine's "unlimited supply" is 10**9).
MAX_COUNT = 10**9
#: Longest list a save may hold in one field (the event log of a long game has a few
#: thousand events).
MAX_ITEMS = 200_000


def _fail(where: str, problem: str):
    raise SaveError(f"save field '{where}': {problem}")


def _int(v, where: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    """A strict integer within ``lo..hi``: a JSON integer, never a bool, a float (even
    1.0), a string or null."""
    if not isinstance(v, int) or isinstance(v, bool):
        _fail(where, f"must be an integer, got {_short(v)}")
    if not lo <= v <= hi:
        _fail(where, f"{_short(v)} is outside {lo}..{hi}")
    return v


def _bool(v, where: str) -> bool:
    if not isinstance(v, bool):
        _fail(where, f"must be true or false, got {_short(v)}")
    return v


def _str(v, where: str, choices=None) -> str:
    if not isinstance(v, str):
        _fail(where, f"must be a string, got {_short(v)}")
    if choices is not None and v not in choices:
        _fail(where, f"{_short(v)} is not one of {', '.join(map(str, choices))}")
    return v


def _list(v, where: str, most: int = MAX_ITEMS) -> list:
    if not isinstance(v, list):
        _fail(where, f"must be a list, got {_short(v)}")
    if len(v) > most:
        _fail(where, f"lists {len(v)} items, more than {most}")
    return v


def _dict(v, where: str, keys=None) -> dict:
    """A JSON object; with ``keys``, exactly those keys."""
    if not isinstance(v, dict):
        _fail(where, f"must be an object, got {_short(v)}")
    if keys is not None and set(v) != set(keys):
        missing, extra = [k for k in keys if k not in v], [k for k in v if k not in keys]
        _fail(where, ("missing " + ", ".join(map(repr, missing)) if missing else "")
              + ("; " if missing and extra else "") + ("unknown " + ", ".join(map(repr, extra)) if extra else ""))
    return v


def _short(v) -> str:
    import reprlib

    r = reprlib.Repr()
    r.maxstring = r.maxother = 40
    return r.repr(v)


def from_dict(d, box: Box | None = None) -> State:
    """Rebuild a :class:`State` from :func:`to_dict` output.

    Every field is read strictly before it is used: numbers must be JSON integers
    (never booleans, floats, NaN or Infinity) within bounds set by the box and the
    player count, names must be the box's, cells the field's; then
    :func:`check_state` refuses states the rules could never produce, including a
    finished game whose winner or collective loss disagrees with the valor stack and
    Kalena.

    Raises:
        SaveError: not a haunted-kit save, another version, or a missing/invalid field
            (the message names it, e.g. ``save field 'players[1].pecunias': ...``).
    """
    if not isinstance(d, dict):
        raise SaveError("a save must be a JSON object")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a haunted-kit save (format is {_short(d.get('format'))}, expected {SAVE_FORMAT!r})")
    if d.get("version") != SAVE_VERSION or isinstance(d.get("version"), bool):
        raise SaveError(f"save version {_short(d.get('version'))} is not supported (this kit reads version {SAVE_VERSION})")
    box = box or default_box()
    made_with = d.get("box") or {}
    if not isinstance(made_with, dict) or not isinstance(made_with.get("fingerprint", ""), str):
        _fail("box", f"must be an object naming the box's fingerprint, got {_short(made_with)}")
    if made_with.get("fingerprint") and made_with["fingerprint"] != box.fingerprint:
        raise SaveError(f"this save was made with another box (data in {_short(made_with.get('path'))}, fingerprint "
                        f"{made_with['fingerprint'][:12]}); load it with that box: "
                        f"State.load(path, box=load_box(...)) or `haunted-kit replay --box DIR`")
    where = "config"
    try:
        cfg = _dict(d["config"], "config")
        if "seed" in cfg and cfg["seed"] is None:
            raise SaveError("save field 'config': the seed is hidden; this is an observation, not a save")
        _dict(cfg, "config", ("players", "mode", "extra_ghost_cards", "seed", "limited_supplies", "terrain_die"))
        try:
            config = GameConfig(players=_int(cfg["players"], "config.players", box.min_players, box.max_players),
                                mode=_str(cfg["mode"], "config.mode", tuple(box.modes)),
                                extra_ghost_cards=tuple(_int(g, "config.extra_ghost_cards", 0, MAX_COUNT)
                                                        for g in _list(cfg["extra_ghost_cards"], "config.extra_ghost_cards", 99)),
                                seed=_int(cfg["seed"], "config.seed", -SEED_BOUND + 1, SEED_BOUND - 1),
                                limited_supplies=_bool(cfg["limited_supplies"], "config.limited_supplies"),
                                terrain_die=_str(cfg["terrain_die"], "config.terrain_die"), box=box)
        except ConfigError as exc:
            raise SaveError(f"save field 'config': {exc}") from None
        n = config.players
        big = MAX_COUNT if not config.limited_supplies else None
        tracks = list(box.tracks)
        s = State(config)
        where = "layout"
        s.layout = [_str(t, "layout", tuple(box.tiles)) for t in _list(d["layout"], "layout", len(box.region_centres))]
        if len(set(s.layout)) != len(s.layout):
            _fail("layout", f"a region tile is placed twice: {s.layout}")
        s.field = build_field(tuple(s.layout), box) if len(s.layout) == len(box.region_centres) else None
        ncells = 7 * (1 + len(box.region_centres))
        index = s.field.index if s.field else {}

        def cell(v, what):
            if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                i = index.get(tuple(v))
                if i is not None:
                    return i
            raise SaveError(f"save field '{what}': {_short(v)} is not a cell of the field")

        where = "skills"
        decks = list(box.skill_decks.values())
        s.skills = [_int(k, "skills", 0, MAX_COUNT) for k in _list(d["skills"], "skills", len(decks))]
        if any(k not in decks[i] for i, k in enumerate(s.skills)):
            raise SaveError(f"save field 'skills': {s.skills} is not one skill card per deck in deck order "
                            f"({'; '.join(', '.join(map(str, d)) for d in decks)})")
        where = "market"
        s.market = _int(d["market"], "market")
        for key, hi in (("season", box.seasons), ("round", box.rounds_per_season), ("turn_pos", n),
                        ("arrivals", MAX_COUNT), ("decisions", MAX_COUNT), ("rng_count", MAX_COUNT)):
            where = key
            setattr(s, key, _int(d[key], key, 0, hi))
        where = "phase"
        s.phase = _str(d["phase"], "phase", ("setup", "spread", "turns", "season_end", "over"))
        where = "turn_order"
        s.turn_order = [_int(p, "turn_order", 0, n - 1) for p in _list(d["turn_order"], "turn_order", n)]
        if len(set(s.turn_order)) != len(s.turn_order) or (s.phase != "setup" and len(s.turn_order) != n):
            raise SaveError(f"save field 'turn_order' must list each of the {n} players once, got {s.turn_order}")
        where = "pending"
        s.pending = [_pending(x, f"pending[{i}]", box, n) for i, x in enumerate(_list(d["pending"], "pending", 64))]
        where = "chance"
        s.chance = None if d["chance"] is None else _chance(d["chance"], box, n)
        where = "forced"
        s.forced = [v if isinstance(v, str) else _int(v, "forced") for v in _list(d.get("forced", []), "forced", 10_000)]
        if any(not isinstance(v, (str, int)) for v in s.forced):
            _fail("forced", "outcomes are strings or integers")
        where = "cells"
        s.ghosts = [0] * ncells
        s.depleted = [0] * ncells
        s.building = [-1] * ncells
        s.owner = [-1] * ncells
        if d["cells"] is None:
            if s.field is not None:
                _fail("cells", "is missing")
        else:
            if s.field is None:
                _fail("cells", "a field is listed before its region tiles are drawn")
            cells = _dict(d["cells"], "cells", ("ghosts", "depleted", "buildings"))
            for key, flags in (("ghosts", s.ghosts), ("depleted", s.depleted)):
                for v in _list(cells[key], f"cells.{key}", ncells):
                    i = cell(v, f"cells.{key}")
                    if flags[i]:
                        _fail(f"cells.{key}", f"{v} is listed twice")
                    flags[i] = 1
            names_b = list(box.buildings)
            for b in _list(cells["buildings"], "cells.buildings", ncells):
                _dict(b, "cells.buildings", ("cell", "building", "owner"))
                i = cell(b["cell"], "cells.buildings")
                if s.building[i] >= 0:
                    _fail("cells.buildings", f"two buildings on {b['cell']}")
                s.building[i] = names_b.index(_str(b["building"], "cells.buildings", names_b))
                s.owner[i] = _int(b["owner"], "cells.buildings.owner", 0, n - 1)
        where = "marker_slots"
        S = len(box.skill_slot_valor)
        slots = _dict(d["marker_slots"], "marker_slots")
        s.slots = []
        if slots:
            _dict(slots, "marker_slots", [str(k) for k in s.skills])
            if len(s.skills) != len(decks):
                _fail("marker_slots", "marker slots are set up only once every skill card is drawn")
        for k in s.skills if slots else []:
            row = _list(slots[str(k)], f"marker_slots.{k}", S)
            if len(row) != S:
                raise SaveError(f"save field 'marker_slots': skill {k} needs {S} slots")
            s.slots += [COVERED if v == "covered" else (FREE if v is None else _int(v, f"marker_slots.{k}", 0, n - 1))
                        for v in row]
        where = "players"
        pl = _list(d["players"], "players", 99)
        if len(pl) != n:
            raise SaveError(f"save field 'players' lists {len(pl)} players, the config says {n}")
        s.sensor, s.res, s.pec, s.tok, s.act, s.valor, s.arrival = [], [], [], [], [], [], []
        s.learned, s.hand, s.quests, s.markers = [], [], [], []
        player_keys = ("sensor", "resources", "pecunias", "tokens", "active", "valor", "arrival", "skills",
                       "quests_in_hand", "quests", "quest_count", "markers_used")
        for p, x in enumerate(pl):
            w = where = f"players[{p}]"
            x = _dict(x, w)
            if x.get("quests_in_hand", 0) is None or x.get("quests", 0) is None:
                raise SaveError(f"save field 'players[{p}]': quests are hidden; this is an observation, not a save")
            _dict(x, w, player_keys)
            if x["sensor"] is None and s.field is not None:
                raise SaveError(f"save field 'players[{p}].sensor' is missing")
            s.sensor.append(cell(x["sensor"], f"{w}.sensor") if x["sensor"] is not None else 0)
            res = _dict(x["resources"], f"{w}.resources", box.resources)
            s.res += [_int(res[r], f"{w}.resources.{r}", 0, big or box.supply_resources[r]) for r in box.resources]
            s.pec.append(_int(x["pecunias"], f"{w}.pecunias"))
            for key, arr in (("tokens", s.tok), ("active", s.act)):
                row = _dict(x[key], f"{w}.{key}", tracks)
                arr += [_int(row[t], f"{w}.{key}.{t}", 0, box.tracks[t].slots) for t in tracks]
            s.valor.append(_int(x["valor"], f"{w}.valor"))
            s.arrival.append(_int(x["arrival"], f"{w}.arrival"))
            mask = 0
            for k in _list(x["skills"], f"{w}.skills", len(box.skills)):
                mask |= 1 << _pick(k, f"{w}.skills", box.skills)
            s.learned.append(mask)
            hand = 0
            for q in _list(x["quests_in_hand"], f"{w}.quests_in_hand", len(box.quests)):
                hand |= 1 << _pick(q, f"{w}.quests_in_hand", box.quests)
            s.hand.append(hand)
            s.quests.append(tuple(_pick(q, f"{w}.quests", box.quests) for q in _list(x["quests"], f"{w}.quests", len(box.quests))))
            _int(x["quest_count"], f"{w}.quest_count", 0, len(box.quests))  # derived from quests: rewritten on save
            s.markers.append(_int(x["markers_used"], f"{w}.markers_used", 0, box.player_markers))
        if any(a > t for a, t in zip(s.act, s.tok)):
            raise SaveError("save field 'players': more active tokens than tokens")
        where = "supply"
        sup = _dict(d["supply"], "supply", ("ghosts", "buildings", "resources", "depletion", "tokens"))
        s.sup_ghosts = _int(sup["ghosts"], "supply.ghosts", 0, big or box.supply_ghosts)
        bsup = _dict(sup["buildings"], "supply.buildings", list(box.buildings))
        s.sup_build = [_int(bsup[b], f"supply.buildings.{b}", 0, big or box.supply_buildings[b]) for b in box.buildings]
        rsup = _dict(sup["resources"], "supply.resources", box.resources)
        s.sup_res = [_int(rsup[r], f"supply.resources.{r}", 0, big or box.supply_resources[r]) for r in box.resources]
        s.sup_depl = _int(sup["depletion"], "supply.depletion", 0, big or box.supply_depletion)
        tsup = _dict(sup["tokens"], "supply.tokens", tracks)
        s.sup_tok = [_int(tsup[t], f"supply.tokens.{t}", 0, big or box.supply_tokens[t]) for t in tracks]
        where = "outcome"
        s.winner = None if d["winner"] is None else _int(d["winner"], "winner", 0, n - 1)
        s.lost = _bool(d["lost"], "lost")
        s.over_reason = _str(d.get("over_reason", ""), "over_reason")
        s.auto_chance = _bool(d.get("auto_chance", True), "auto_chance")
        where = "log"
        log = d.get("log")
        s.log = None if log is None else [_event(e, f"log[{i}]", n) for i, e in enumerate(_list(log, "log"))]
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError(f"save field '{where}' is missing or malformed ({type(exc).__name__}: {exc})") from None
    s._legal = None
    check_state(s)
    return s


def _pick(v, where: str, known) -> int:
    """A card number that ``known`` (a box's dict of cards) holds."""
    if not isinstance(v, int) or isinstance(v, bool) or v not in known:
        _fail(where, f"{_short(v)} is not one of {', '.join(map(str, known))}")
    return v


def _pending(x, where: str, box: Box, n: int) -> tuple:
    """A pending decision: ``[kind, player, ...]`` with every part typed and bounded."""
    from .board import KALENA

    x = _list(x, where, 4)
    kind = _str(x[0] if x else None, where, tuple(_PENDING_SHAPES))
    if len(x) != _PENDING_SHAPES[kind]:
        _fail(where, f"a {kind!r} decision has {_PENDING_SHAPES[kind]} parts, got {len(x)}")
    p = _int(x[1], f"{where} player", 0, n - 1)
    if kind == "ghosts":
        return (kind, p, _str(x[2], f"{where} terrain", tuple(box.terrains) + (KALENA,)),
                _int(x[3], f"{where} ghosts left", 1, box.ghosts_per_spread))
    if kind == "resource":
        return (kind, p, _int(x[2], f"{where} count", 1, MAX_COUNT), _str(x[3], f"{where} reason"))
    if kind == "quests":
        return (kind, p, _int(x[2], f"{where} count", 1, len(box.quests)))
    return (kind, p)


def _chance(x, box: Box, n: int) -> tuple:
    """A chance node: ``[kind, ...]`` typed (its place in the game is checked later)."""
    x = _list(x, "chance", 2)
    kind = _str(x[0] if x else None, "chance", tuple(sorted(_CHANCE_KINDS)))
    rest = tuple(_int(v, "chance", 0, n - 1 if kind in ("bonus_die", "stack") else MAX_COUNT) for v in x[1:])
    return (kind,) + rest


_EVENT_KEYS = ("seq", "season", "round", "phase", "kind", "player", "text", "cell", "data", "private")


def _event(e, where: str, n: int) -> Event:
    """A log event with typed fields (its sentence is not re-checked: it is text)."""
    e = _dict(e, where, _EVENT_KEYS)
    cell = e["cell"]
    if cell is not None and not (isinstance(cell, list) and len(cell) == 2
                                 and all(isinstance(c, int) and not isinstance(c, bool) for c in cell)):
        _fail(f"{where}.cell", f"must be null or an axial pair, got {_short(cell)}")
    return Event(_int(e["seq"], f"{where}.seq"), _int(e["season"], f"{where}.season"),
                 _int(e["round"], f"{where}.round"), _str(e["phase"], f"{where}.phase"), _str(e["kind"], f"{where}.kind"),
                 None if e["player"] is None else _int(e["player"], f"{where}.player", 0, n - 1),
                 _str(e["text"], f"{where}.text"), None if cell is None else tuple(cell),
                 dict(_dict(e["data"], f"{where}.data")), _bool(e["private"], f"{where}.private"))


_PENDING_SHAPES = {"ghosts": 4, "resource": 4, "bonus": 2, "restore": 2, "quests": 3}
_CHANCE_KINDS = {"tile", "skill", "market", "stack", "terrain_die", "bonus_die"}


def check_state(s: State) -> None:
    """Refuse a loaded state that the rules could never produce (each message names
    the save field). Raises SaveError."""
    from . import rules as R

    box = s.config.box
    n = s.config.players
    if s.season > box.seasons or s.round > box.rounds_per_season:
        raise SaveError(f"save field 'season'/'round': season {s.season} round {s.round} is beyond "
                        f"{box.seasons} seasons of {box.rounds_per_season} rounds")
    if s.turn_pos > n or (s.phase == "turns" and s.turn_pos >= n):
        raise SaveError(f"save field 'turn_pos': {s.turn_pos} is not a turn of {n} players")
    if s.phase != "setup" and s.market not in box.market_cards:
        raise SaveError(f"save field 'market': {s.market} is not a market card ({', '.join(map(str, box.market_cards))})")
    for entry in s.pending:
        kind = entry[0] if entry else None
        if kind not in _PENDING_SHAPES or len(entry) != _PENDING_SHAPES[kind]:
            raise SaveError(f"save field 'pending': {list(entry)!r} is not a pending decision")
        if not (isinstance(entry[1], int) and 0 <= entry[1] < n):
            raise SaveError(f"save field 'pending': player {entry[1]!r} does not exist in a {n}-player game")
    if s.chance is not None:
        if not s.chance or s.chance[0] not in _CHANCE_KINDS:
            raise SaveError(f"save field 'chance': {list(s.chance)!r} is not a chance node")
        if s.chance[0] == "bonus_die" and not (len(s.chance) == 2 and isinstance(s.chance[1], int) and 0 <= s.chance[1] < n):
            raise SaveError(f"save field 'chance': {list(s.chance)!r} names no player")
    sup = {"ghosts": [s.sup_ghosts], "buildings": s.sup_build, "resources": s.sup_res, "depletion": [s.sup_depl], "tokens": s.sup_tok}
    for name, vals in sup.items():
        if any(v < 0 for v in vals):
            raise SaveError(f"save field 'supply.{name}': a supply cannot be negative ({vals})")
    allowed = [q for q in box.quests if q not in box.removed_quests.get(n, ())]
    S = len(box.skill_slot_valor)
    covered = box.covered_slots.get(n, ())
    for p in range(n):
        for q in s.quests[p]:
            if q not in box.quests:
                raise SaveError(f"save field 'players[{p}].quests': there is no quest card {q}")
            if q not in allowed:
                raise SaveError(f"save field 'players[{p}].quests': quest {q} is out of a {n}-player game")
        held = [q for q in box.quests if s.hand[p] >> q & 1]
        if len(set(s.quests[p])) != len(s.quests[p]) or set(held) & set(s.quests[p]) or \
                sorted(held + list(s.quests[p])) != sorted(allowed):
            raise SaveError(f"save field 'players[{p}].quests': chosen {list(s.quests[p])} and in hand {held} "
                            f"must split the quest cards {allowed} between them")
        learned = [k for k in range(s.learned[p].bit_length()) if s.learned[p] >> k & 1]
        marked = [k for i, k in enumerate(s.skills) if p in s.slots[i * S:(i + 1) * S]]
        if sorted(learned) != sorted(marked):
            raise SaveError(f"save field 'players[{p}].skills': learned {learned} but markers sit on skills {marked}")
    if s.slots:
        for i, k in enumerate(s.skills):
            row = s.slots[i * S:(i + 1) * S]
            for j, v in enumerate(row):
                if (v == COVERED) != (j in covered) or not (v in (FREE, COVERED) or 0 <= v < n):
                    raise SaveError(f"save field 'marker_slots': skill {k} slot {j + 1} holds {v!r}, impossible "
                                    f"with {n} players")
            owners = [v for v in row if v >= 0]
            if len(set(owners)) != len(owners):
                raise SaveError(f"save field 'marker_slots': a player marks skill {k} twice")
    phases_of = {"ghosts": ("spread",), "resource": ("turns",), "bonus": ("turns",), "restore": ("turns",),
                 "quests": ("season_end",)}
    for entry in s.pending:
        if s.phase not in phases_of[entry[0]]:
            raise SaveError(f"save field 'pending': a {entry[0]!r} decision cannot wait during the {s.phase} phase")
    if s.chance is not None:
        setup_kinds = {"tile": 2, "skill": 2, "market": 1, "stack": 2}
        kind = s.chance[0]
        if (kind in setup_kinds) != (s.phase == "setup") or (kind in setup_kinds and len(s.chance) != setup_kinds[kind]):
            raise SaveError(f"save field 'chance': {list(s.chance)!r} cannot wait during the {s.phase} phase")
        if kind == "tile" and s.chance[1] != len(s.layout) or kind == "skill" and s.chance[1] != len(s.skills) \
                or kind == "stack" and s.chance[1] != len(s.turn_order):
            raise SaveError(f"save field 'chance': {list(s.chance)!r} does not follow the draws made so far")
    _check_calendar(s)
    _check_supplies(s)
    if s.field is None:
        return
    ctx = R.ctx_of(s)
    _check_outcome(s, ctx)
    for p in range(n):
        used = sum(1 for o in s.owner if o == p) + bin(s.learned[p]).count("1")
        if s.markers[p] != used:
            raise SaveError(f"save field 'players[{p}].markers_used': {s.markers[p]}, but the player's buildings and "
                            f"skills hold {used} markers (one each, ruling 16)")
    for p in range(n):
        c = s.sensor[p]
        if not ctx.explorable[c]:
            raise SaveError(f"save field 'players[{p}].sensor': a sensor cannot stand on {s.field.describe(c)}")
        cap = R.resource_cap(s, ctx, p)
        for r, name in enumerate(box.resources):
            if s.res[p * ctx.R + r] > cap:
                raise SaveError(f"save field 'players[{p}].resources': {s.res[p * ctx.R + r]} {name} is over the cap of {cap}")
        for t, track in enumerate(ctx.tracks):
            if s.tok[p * 4 + t] > track.slots or s.tok[p * 4 + t] < 1:
                raise SaveError(f"save field 'players[{p}].tokens': {s.tok[p * 4 + t]} {track.name} tokens do not fit a track of {track.slots} slots")
    for c in range(len(s.ghosts)):
        if s.ghosts[c] and (not ctx.holds_ghosts[c] or s.building[c] >= 0):
            raise SaveError(f"save field 'cells.ghosts': a ghost cannot be on {s.field.describe(c)}")
        if s.building[c] >= 0 and ctx.buildings[s.building[c]] and s.building[c] not in ctx.build_here[c]:
            raise SaveError(f"save field 'cells.buildings': a {ctx.buildings[s.building[c]].name} cannot stand on {s.field.describe(c)}")


def _check_supplies(s: State) -> None:
    """With limited supplies, every piece is in the supply, on the field or with a
    player, exactly as many as the box holds (ruling 1)."""
    box = s.config.box
    n = s.config.players
    R_ = len(box.resources)
    if s.config.limited_supplies:
        problems = []
        if sum(s.ghosts) + s.sup_ghosts != box.supply_ghosts:
            problems.append("ghosts")
        if sum(s.depleted) + s.sup_depl != box.supply_depletion:
            problems.append("depletion tokens")
        for b, name in enumerate(box.buildings):
            if sum(1 for x in s.building if x == b) + s.sup_build[b] != box.supply_buildings[name]:
                problems.append(name + "s")
        for r, name in enumerate(box.resources):
            if sum(s.res[p * R_ + r] for p in range(n)) + s.sup_res[r] != box.supply_resources[name]:
                problems.append(name)
        for t, name in enumerate(box.tracks):
            if sum(s.tok[p * 4 + t] for p in range(n)) + s.sup_tok[t] != box.supply_tokens[name]:
                problems.append(name + " tokens")
        if problems:
            raise SaveError(f"save field 'supply': pieces do not add up to the box for {', '.join(problems)} "
                            "(supply + field + players must equal the box counts)")


def _check_calendar(s: State) -> None:
    """The phase agrees with the season, the draws, the turn order and the valor stack."""
    box = s.config.box
    n = s.config.players
    if s.phase == "setup":
        if s.season or s.round or s.chance is None or s.pending or s.winner is not None or s.lost:
            raise SaveError("save field 'phase': during setup the game waits at a setup draw, before season 1, "
                            "with no decision and no outcome")
        return
    if s.field is None or len(s.skills) != len(box.skill_decks) or not s.slots or len(s.turn_order) != n:
        raise SaveError(f"save field 'phase': {s.phase!r} comes after setup, but the setup draws are incomplete")
    if not (1 <= s.season and 1 <= s.round):
        raise SaveError(f"save field 'season'/'round': season {s.season} round {s.round} is not a round of the game")
    arrivals = sorted(s.arrival)
    if len(set(arrivals)) != n or arrivals[0] < 1 or arrivals[-1] > s.arrivals:
        raise SaveError(f"save field 'players[].arrival': {s.arrival} must be distinct, from 1 to arrivals "
                        f"({s.arrivals}): each valor token arrived at its place once")


def _check_outcome(s: State, ctx) -> None:
    """Winner and collective loss agree with the phase, the valor stack and Kalena."""
    from . import rules as R

    box = s.config.box
    if s.phase != "over":
        if s.winner is not None or s.lost:
            raise SaveError(f"save field 'winner'/'lost': a game in the {s.phase} phase has no winner and is not lost")
        if s.phase != "setup" and R.kalena_fallen(s, ctx):
            raise SaveError("save field 'cells.ghosts': every Kalena cell holds a ghost, so the game would be over")
        return
    if s.pending or s.chance is not None:
        raise SaveError("save field 'pending'/'chance': a finished game waits for nothing")
    if s.lost:
        if s.winner is not None:
            raise SaveError(f"save field 'winner': {s.winner} is set, but the game was lost by everyone")
        if R.kalena_targets(s, ctx):
            raise SaveError("save field 'lost': Kalena has a free cell, so it has not fallen")
        return
    if s.winner is None:
        raise SaveError("save field 'winner': a finished game that was not lost has a winner")
    if (s.season, s.round) != (box.seasons, box.rounds_per_season):
        raise SaveError(f"save field 'season'/'round': final scoring comes after round {box.rounds_per_season} "
                        f"of season {box.seasons}, not season {s.season} round {s.round}")
    top = R.stack_order(s)[0]
    if s.winner != top:
        raise SaveError(f"save field 'winner': P{s.winner + 1} is set, but P{top + 1} leads the valor track "
                        f"(valor {s.valor}, top of the stack first)")
