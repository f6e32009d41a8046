"""Haunted Lands for learning agents: a fixed-length observation vector (used by
:mod:`haunted_kit.env` through the Game's ``observation_encoder``; the action encoding is
the Game's ``action_catalogue``).

The vector is built only from ``state.observation(me)`` (other players' face-down quests,
the seed and the generator's position are not in it). Players are listed starting with the
observer ("player+0" is me, "player+1" the next player); :attr:`HauntedObservation.names`
names each entry.
"""

from __future__ import annotations

import array
import functools
import math
from itertools import compress

import numpy as np

from ..protocol import vector_bounds
from .board import build_field
from .box import default_box

__all__ = ["HauntedObservation"]

_NONE = -1  # a cell's building index when it has none (state.building)
_ROWS_KEPT = 100_000  # own quests' entries kept by HauntedObservation.from_state before it starts afresh


class HauntedObservation:
    """Fixed-length vector from a Haunted Lands observation dict (the player's own view)."""

    def __init__(self, box, players: int):
        box = box or default_box()
        self.box, self.n = box, players
        self._field = functools.lru_cache(maxsize=64)(lambda layout: build_field(layout, box))
        f = self._field(tuple(list(box.tiles)[:len(box.region_centres)]))
        self.cells = [tuple(c) for c in f.cells]
        self.cell_index = {c: i for i, c in enumerate(self.cells)}
        self.terrains = list(box.terrains)
        self.buildings = list(box.buildings)
        self.skills = sorted(box.skills)
        self.quests = sorted(box.quests)
        self.phases = ["setup", "spread", "production", "turns", "rest", "reorder", "season_end", "over"]
        names = ["season", "round"] + [f"phase={p}" for p in self.phases] + [f"market={m}" for m in box.market_cards]
        names += [f"skill_in_play={k}" for k in self.skills] + ["supply_ghosts", "supply_depletion", "to_move=me"]
        names += [f"to_move=player+{k}" for k in range(1, self.n)]
        for c in range(len(self.cells)):
            names += [f"cell{c}.terrain={t}" for t in self.terrains] + [f"cell{c}.ghost", f"cell{c}.depleted"]
            names += [f"cell{c}.building={b}" for b in self.buildings] + [f"cell{c}.owner=player+{k}" for k in range(self.n)]
            names += [f"cell{c}.sensor=player+{k}" for k in range(self.n)]
        for k in range(self.n):
            who = f"player+{k}"
            names += [f"{who}.{r}" for r in box.resources] + [f"{who}.pecunias"]
            names += [f"{who}.tokens.{t}" for t in box.tracks] + [f"{who}.active.{t}" for t in box.tracks]
            names += [f"{who}.valor", f"{who}.arrival", f"{who}.quest_count", f"{who}.markers_used"]
            names += [f"{who}.skill={s}" for s in self.skills]
        names += [f"my_quest={q}" for q in self.quests] + [f"my_hand={q}" for q in self.quests]
        self.names = names
        self._templates: dict = {}  # id(field) -> (field, template vector, cell offsets): see _template
        at = {name: i for i, name in enumerate(names)}
        self._phase_at = {p: at[f"phase={p}"] for p in self.phases}
        self._market_at = {m: at[f"market={m}"] for m in box.market_cards}
        self._skill_in_play_at = {k: at[f"skill_in_play={k}"] for k in self.skills}
        self._to_move_at = at["to_move=me"]
        self._cells_at = at["to_move=me"] + self.n
        self._per_cell = len(self.terrains) + 2 + len(self.buildings) + 2 * self.n
        self._players_at = self._cells_at + self._per_cell * len(self.cells)
        self._per_player = len(box.resources) + 1 + 2 * len(box.tracks) + 4 + len(self.skills)
        self._quests_at = self._players_at + self._per_player * self.n
        self._board = None  # from_state's board part while the board is unchanged: see _board_base
        # per player, the values (learned skills as the bitmask) and entries' float32 bytes last written
        self._last_rows = [((), b"")] * players
        self._skill_bytes: dict = {}  # a learned-skills bitmask -> its skill=k flags' float32 bytes
        self._quest_bytes: dict = {}  # (own quests, hand bitmask) -> their entries' float32 bytes
        self._blank = array.array("f", bytes(4 * len(names)))

    def entry_high(self, name: str) -> float:
        """The highest value of entry ``name``: 1 for a flag (every ``key=value`` entry, a
        skill or quest held, a cell's ghost or depletion token); the box's seasons, rounds
        per season, ghost and depletion supplies and resource cap (per type, §Resources)
        for those counts; ``math.inf`` for the counts the rules do not cap (pecunias,
        valor, tokens...)."""
        box, key = self.box, name.split(".")[-1]
        if "=" in name or key in ("ghost", "depleted"):
            return 1.0
        caps = {"season": box.seasons, "round": box.rounds_per_season, "supply_ghosts": box.supply_ghosts,
                "supply_depletion": box.supply_depletion}
        if name in caps:
            return float(caps[name])
        if name.startswith("player+") and key in box.resources:
            return float(box.resource_cap)
        return math.inf

    def bounds(self):
        """(low, high) float32 arrays: every entry is >= 0 and <= :meth:`entry_high`."""
        return vector_bounds(self.names, self.entry_high)

    def _template(self, field):
        """The vector's part fixed by ``field`` (a state's :class:`~haunted_kit.haunted.board.Field`):
        a C float array with every cell's terrain flag set, and the start of each field
        cell's entries (by the field's cell index). Made once per field."""
        hit = self._templates.get(id(field))
        if hit is not None and hit[0] is field:
            return hit
        T, per = len(self.terrains), self._per_cell
        v = array.array("f", self._blank)
        ref = self._field(tuple(field.layout))  # terrains as the plain encoder reads them: from the layout
        for c, cell in enumerate(ref.cells):
            v[self._cells_at + self.cell_index[tuple(cell)] * per + self.terrains.index(ref.terrain[c])] = 1
        offsets = [self._cells_at + self.cell_index[tuple(cell)] * per for cell in field.cells]
        hit = self._templates[id(field)] = (field, v, offsets)
        return hit

    def _board_base(self, s, field) -> tuple:
        """The vector's part fixed by the board as everyone sees it: ``field``'s template
        (:meth:`_template`) with each cell's ghost, depletion and building flags set, as
        ``(field, ghosts, depleted, building, base vector, built)``: copies of the three
        lists it was made from, and ``(entry offset, cell)`` of each built cell (whose owner
        flag depends on the observer). Nothing in it is hidden from any player."""
        _, template, off = self._template(field)
        v = template[:]
        T = len(self.terrains)
        ghosts, depleted, building = list(s.ghosts), list(s.depleted), list(s.building)
        for o in compress(off, ghosts):
            v[o + T] = 1
        for o in compress(off, depleted):
            v[o + T + 1] = 1
        built = []
        for c in compress(range(len(building)), map(_NONE.__ne__, building)):  # the built cells, found in C
            v[off[c] + T + 2 + building[c]] = 1
            built.append((off[c], c))
        return field, ghosts, depleted, building, v, built

    def _row_bytes(self, row: tuple) -> bytes:
        """A player's entries as float32 bytes, from ``row``: the values of :meth:`names`'
        order up to ``markers_used``, then the learned skills' bitmask (each ``skill=k``
        flag; the flags' bytes kept by the bitmask)."""
        mask = row[-1]
        flags = self._skill_bytes.get(mask)
        if flags is None:
            flags = self._skill_bytes[mask] = array.array("f", [float(mask >> k & 1) for k in self.skills]).tobytes()
        return array.array("f", row[:-1]).tobytes() + flags

    def _my_quests(self, chosen, hand: int) -> bytes:
        """The ``my_quest=q`` then ``my_hand=q`` entries as float32 bytes."""
        flags = [float(q in (chosen or ())) for q in self.quests] + [float(hand >> q & 1) for q in self.quests]
        return array.array("f", flags).tobytes()

    def from_state(self, s, me: int, to_move: int | None) -> np.ndarray:
        """The vector of ``s.observation(me)`` (:meth:`__call__`'s, entry for entry), read
        straight from the state's fields: only those the observation shows ``me`` (no
        other player's quests or hand, no seed, generator position or forced outcomes).
        The environment's fast path: a copy of the board's part (:meth:`_board_base`, kept
        while the field object and the ghost, depletion and building lists are the same:
        it depends on nothing else), the observer-relative owner and sensor flags and the
        header written into it, each player's entries as the bytes last written for that
        player while their values are the same, the own quests' entries from bytes kept by
        their values; a C float array handed to numpy without copying."""
        box, n = self.box, self.n
        layout, field = s.layout, s.field
        full = bool(layout) and len(layout) == len(box.region_centres) and field is not None
        if full:
            base = self._board
            if (base is None or base[0] is not field or base[1] != s.ghosts or base[2] != s.depleted
                    or base[3] != s.building):
                base = self._board = self._board_base(s, field)
            v = base[4][:]  # a memcpy of the board's part
        else:
            v = self._blank[:]
        v[0], v[1] = s.season, s.round
        at = self._phase_at.get(s.phase)  # a StrEnum: hashes and compares as its word
        if at is not None:
            v[at] = 1
        at = self._market_at.get(s.market)
        if at is not None:
            v[at] = 1
        skill_at = self._skill_in_play_at
        for k in s.skills:
            v[skill_at[k]] = 1
        at = self._to_move_at
        v[at - 2], v[at - 1] = s.sup_ghosts, s.sup_depl
        if to_move is not None:
            v[at + (to_move - me) % n] = 1
        if full:
            off = self._template(field)[2]
            owners = len(self.terrains) + 2 + len(self.buildings)
            owner = s.owner
            for o, c in base[5]:
                v[o + owners + (owner[c] - me) % n] = 1
            sensors = owners + n
            for p, c in enumerate(s.sensor):
                v[off[c] + sensors + (p - me) % n] = 1
        R, K = len(box.resources), len(box.tracks)
        res, pec, tok, act, valor, arrival, quests, markers, learned = (
            s.res, s.pec, s.tok, s.act, s.valor, s.arrival, s.quests, s.markers, s.learned)
        last = self._last_rows  # per player: (values, their entries' bytes) last written
        out, at = memoryview(v).cast("B"), 4 * self._players_at
        for p in (*range(me, n), *range(me)):  # a player's entries are consecutive (names), observer first
            row = (*res[p * R:p * R + R], pec[p], *tok[p * K:p * K + K], *act[p * K:p * K + K],
                   valor[p], arrival[p], len(quests[p]), markers[p], learned[p])
            kept = last[p]
            if kept[0] == row:
                b = kept[1]
            else:
                b = self._row_bytes(row)
                last[p] = (row, b)
            out[at:at + len(b)] = b
            at += len(b)
        chosen = quests[me]  # a tuple (state.FIELDS); any other sequence is keyed as one
        key = (chosen if type(chosen) is tuple else tuple(chosen or ()), s.hand[me])
        b = self._quest_bytes.get(key)
        if b is None:
            if len(self._quest_bytes) > _ROWS_KEPT:
                self._quest_bytes.clear()
            b = self._quest_bytes[key] = self._my_quests(*key)
        at = 4 * self._quests_at
        out[at:at + len(b)] = b
        return np.frombuffer(v, dtype=np.float32)  # the array's own memory (writable), no copy

    def __call__(self, obs: dict, me: int, to_move: int | None) -> np.ndarray:
        """The vector of ``obs`` (player ``me``'s observation dict, :meth:`names` order)
        with ``to_move``'s flag (``None``: nobody's): the definition :meth:`from_state` follows."""
        v = np.zeros(len(self.names), dtype=np.float32)
        n = self.n
        rel = lambda p: (p - me) % n  # noqa: E731
        i = 0

        def put(k, x=1.0):
            v[i + k] = x

        put(0, obs["season"]), put(1, obs["round"])
        i = 2
        if obs["phase"] in self.phases:
            put(self.phases.index(obs["phase"]))
        i += len(self.phases)
        markets = list(self.box.market_cards)
        if obs["market"] in markets:
            put(markets.index(obs["market"]))
        i += len(markets)
        for k in obs["skills"]:
            put(self.skills.index(k))
        i += len(self.skills)
        put(0, obs["supply"]["ghosts"]), put(1, obs["supply"]["depletion"])
        i += 2
        if to_move is not None:
            put(rel(to_move))
        i += n
        per_cell = len(self.terrains) + 2 + len(self.buildings) + 2 * n
        cells = obs.get("cells")
        if obs["layout"] and len(obs["layout"]) == len(self.box.region_centres) and cells is not None:
            field = self._field(tuple(obs["layout"]))
            for c, cell in enumerate(field.cells):
                v[i + self.cell_index[tuple(cell)] * per_cell + self.terrains.index(field.terrain[c])] = 1
            for c in cells["ghosts"]:
                v[i + self.cell_index[tuple(c)] * per_cell + len(self.terrains)] = 1
            for c in cells["depleted"]:
                v[i + self.cell_index[tuple(c)] * per_cell + len(self.terrains) + 1] = 1
            for b in cells["buildings"]:
                base = i + self.cell_index[tuple(b["cell"])] * per_cell + len(self.terrains) + 2
                v[base + self.buildings.index(b["building"])] = 1
                v[base + len(self.buildings) + rel(b["owner"])] = 1
            for p, pl in enumerate(obs["players"]):
                if pl["sensor"] is not None:
                    v[i + self.cell_index[tuple(pl["sensor"])] * per_cell + len(self.terrains) + 2 + len(self.buildings) + n + rel(p)] = 1
        i += per_cell * len(self.cells)
        per_player = len(self.box.resources) + 1 + 2 * len(self.box.tracks) + 4 + len(self.skills)
        for p, pl in enumerate(obs["players"]):
            j = i + rel(p) * per_player
            vals = [pl["resources"][r] for r in self.box.resources] + [pl["pecunias"]]
            vals += [pl["tokens"][t] for t in self.box.tracks] + [pl["active"][t] for t in self.box.tracks]
            vals += [pl["valor"], pl["arrival"], pl["quest_count"], pl["markers_used"]]
            v[j:j + len(vals)] = vals
            for s in pl["skills"]:
                v[j + len(vals) + self.skills.index(s)] = 1
        i += per_player * n
        mine = obs["players"][me]
        for q in mine["quests"] or []:
            v[i + self.quests.index(q)] = 1
        i += len(self.quests)
        for q in mine["quests_in_hand"] or []:
            v[i + self.quests.index(q)] = 1
        return v
