"""Versioned JSON form of a :class:`~haunted_kit.state.State` (saves and observations).

Cells appear as axial ``[q, r]`` pairs and resources, tracks and buildings by name, so
a save is readable by people. :func:`from_dict` checks the format name, the version
and every field; a problem raises :class:`~haunted_kit.state.SaveError` naming it.
"""

from __future__ import annotations

from .board import build_field
from .components import Box, default_box
from .events import Event
from .state import COVERED, FREE, SAVE_FORMAT, SAVE_VERSION, ConfigError, GameConfig, SaveError, State


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


def from_dict(d, box: Box | None = None) -> State:
    """Rebuild a :class:`State` from :func:`to_dict` output.

    Raises:
        SaveError: not a haunted-kit save, another version, or a missing/invalid field
            (the message names it).
    """
    if not isinstance(d, dict):
        raise SaveError("a save must be a JSON object")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a haunted-kit save (format is {d.get('format')!r}, expected {SAVE_FORMAT!r})")
    if d.get("version") != SAVE_VERSION:
        raise SaveError(f"save version {d.get('version')!r} is not supported (this kit reads version {SAVE_VERSION})")
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
        tracks = list(box.tracks)
        s = State(config)
        where = "layout"
        s.layout = [str(t) for t in d["layout"]]
        s.field = build_field(tuple(s.layout), box) if len(s.layout) == len(box.region_centres) else None
        ncells = 7 * (1 + len(box.region_centres))
        index = s.field.index if s.field else {}

        def cell(v, what):
            try:
                return index[tuple(v)]
            except (KeyError, TypeError):
                raise SaveError(f"save field '{what}': {v!r} is not a cell of the field") from None

        where = "skills"
        s.skills = [int(k) for k in d["skills"]]
        for k in s.skills:
            if k not in box.skills:
                raise SaveError(f"save field 'skills': unknown skill {k}")
        decks = list(box.skill_decks.values())
        if s.skills and (len(s.skills) > len(decks) or any(k not in decks[i] for i, k in enumerate(s.skills))):
            raise SaveError(f"save field 'skills': {s.skills} is not one skill card per deck in deck order "
                            f"({'; '.join(', '.join(map(str, d)) for d in decks)})")
        where = "market"
        s.market = int(d["market"])
        for key in ("season", "round", "turn_pos", "arrivals", "decisions", "rng_count"):
            where = key
            v = d[key]
            if not isinstance(v, int) or v < 0:
                raise SaveError(f"save field '{key}' must be a non-negative integer, got {v!r}")
            setattr(s, key, v)
        where = "phase"
        if d["phase"] not in ("setup", "spread", "turns", "season_end", "over"):
            raise SaveError(f"save field 'phase': unknown phase {d['phase']!r}")
        s.phase = d["phase"]
        where = "turn_order"
        s.turn_order = [int(p) for p in d["turn_order"]]
        if s.phase != "setup" and sorted(s.turn_order) != list(range(n)):
            raise SaveError(f"save field 'turn_order' must list each of the {n} players once, got {s.turn_order}")
        where = "pending"
        s.pending = [tuple(x) for x in d["pending"]]
        s.chance = tuple(d["chance"]) if d["chance"] is not None else None
        s.forced = list(d.get("forced", []))
        where = "cells"
        s.ghosts = [0] * ncells
        s.depleted = [0] * ncells
        s.building = [-1] * ncells
        s.owner = [-1] * ncells
        if d["cells"] is not None:
            for v in d["cells"]["ghosts"]:
                s.ghosts[cell(v, "cells.ghosts")] = 1
            for v in d["cells"]["depleted"]:
                s.depleted[cell(v, "cells.depleted")] = 1
            names_b = list(box.buildings)
            for b in d["cells"]["buildings"]:
                i = cell(b["cell"], "cells.buildings")
                if b["building"] not in names_b:
                    raise SaveError(f"save field 'cells.buildings': unknown building {b['building']!r}")
                if not (isinstance(b["owner"], int) and 0 <= b["owner"] < n):
                    raise SaveError(f"save field 'cells.buildings': owner {b['owner']!r} is not a player")
                s.building[i] = names_b.index(b["building"])
                s.owner[i] = b["owner"]
        where = "marker_slots"
        S = len(box.skill_slot_valor)
        s.slots = []
        for k in s.skills if d["marker_slots"] else []:
            row = d["marker_slots"][str(k)]
            if len(row) != S:
                raise SaveError(f"save field 'marker_slots': skill {k} needs {S} slots")
            s.slots += [COVERED if v == "covered" else (FREE if v is None else int(v)) for v in row]
        where = "players"
        pl = d["players"]
        if len(pl) != n:
            raise SaveError(f"save field 'players' lists {len(pl)} players, the config says {n}")
        s.sensor, s.res, s.pec, s.tok, s.act, s.valor, s.arrival = [], [], [], [], [], [], []
        s.learned, s.hand, s.quests, s.markers = [], [], [], []
        for p, x in enumerate(pl):
            where = f"players[{p}]"
            if x["sensor"] is None and s.field is not None:
                raise SaveError(f"save field 'players[{p}].sensor' is missing")
            s.sensor.append(cell(x["sensor"], f"players[{p}].sensor") if x["sensor"] is not None else 0)
            s.res += [int(x["resources"][r]) for r in box.resources]
            s.pec.append(int(x["pecunias"]))
            s.tok += [int(x["tokens"][t]) for t in tracks]
            s.act += [int(x["active"][t]) for t in tracks]
            s.valor.append(int(x["valor"]))
            s.arrival.append(int(x["arrival"]))
            mask = 0
            for k in x["skills"]:
                mask |= 1 << int(k)
            s.learned.append(mask)
            if x["quests_in_hand"] is None or x["quests"] is None:
                raise SaveError(f"save field 'players[{p}]': quests are hidden; this is an observation, not a save")
            hand = 0
            for q in x["quests_in_hand"]:
                hand |= 1 << int(q)
            s.hand.append(hand)
            s.quests.append(tuple(int(q) for q in x["quests"]))
            s.markers.append(int(x["markers_used"]))
        for name, arr in (("resources", s.res), ("pecunias", s.pec), ("tokens", s.tok), ("active", s.act), ("valor", s.valor)):
            if any(v < 0 for v in arr):
                raise SaveError(f"save field 'players': negative {name}")
        if any(a > t for a, t in zip(s.act, s.tok)):
            raise SaveError("save field 'players': more active tokens than tokens")
        where = "supply"
        sup = d["supply"]
        s.sup_ghosts = int(sup["ghosts"])
        s.sup_build = [int(sup["buildings"][b]) for b in box.buildings]
        s.sup_res = [int(sup["resources"][r]) for r in box.resources]
        s.sup_depl = int(sup["depletion"])
        s.sup_tok = [int(sup["tokens"][t]) for t in tracks]
        where = "outcome"
        s.winner = d["winner"]
        s.lost = bool(d["lost"])
        s.over_reason = str(d.get("over_reason", ""))
        s.auto_chance = bool(d.get("auto_chance", True))
        where = "log"
        s.log = None if d.get("log") is None else [Event.from_dict(e) for e in d["log"]]
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError(f"save field '{where}' is missing or malformed ({type(exc).__name__}: {exc})") from None
    s._legal = None
    check_state(s)
    return s


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
        if s.winner is not None and not (isinstance(s.winner, int) and 0 <= s.winner < n):
            raise SaveError(f"save field 'winner': {s.winner!r} is not a player")
    if s.field is None:
        return
    ctx = R.ctx_of(s)
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
            if sum(s.res[p * ctx.R + r] for p in range(n)) + s.sup_res[r] != box.supply_resources[name]:
                problems.append(name)
        for t, name in enumerate(box.tracks):
            if sum(s.tok[p * 4 + t] for p in range(n)) + s.sup_tok[t] != box.supply_tokens[name]:
                problems.append(name + " tokens")
        if problems:
            raise SaveError(f"save field 'supply': pieces do not add up to the box for {', '.join(problems)} "
                            "(supply + field + players must equal the box counts)")
