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
from operator import ne

import numpy as np

from ..protocol import vector_bounds
from ..saves import compile_reader
from .board import build_field
from .box import default_box

__all__ = ["HauntedObservation"]

_FLOAT32 = np.dtype(np.float32)
_FIELDS_KEPT = 64  # fields' templates kept by HauntedObservation._template before it starts afresh
_UNSET = object()  # from_state: no value of a field written yet
#: the state's fields that from_state reads (each has a writer HauntedObservation._put_NAME)
_SOURCES = ("season", "round", "phase", "market", "skills", "sup_ghosts", "sup_depl", "ghosts", "depleted",
            "building", "res", "pec", "tok", "act", "valor", "arrival", "markers", "quests", "hand", "learned")
_COUNTS = ("res", "pec", "tok", "act", "valor", "arrival", "markers")  # per-player lists of plain counts
_NONE = -1  # a cell's building index when it has none (state.building)
_ROWS_KEPT = 100_000  # own quests' entries (and skill flags) kept by HauntedObservation.from_state before it starts afresh


def _changed(now, was):
    """The indices of the sequence ``now`` whose values differ from ``was`` (every index when
    ``was`` is ``_UNSET``: nothing written yet), found in C."""
    return range(len(now)) if was is _UNSET else compress(range(len(now)), map(ne, now, was))


def _capped(table: dict, key, make):
    """``table[key]``, made by ``make()`` when missing; the table starts afresh past :data:`_ROWS_KEPT`."""
    hit = table.get(key)
    if hit is None:
        if len(table) > _ROWS_KEPT:
            table.clear()
        hit = table[key] = make()
    return hit


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
        # from_state's kept vector (see from_state): what every player sees alike, the field it was made for,
        # the values of the state's fields last written into it (_SOURCES order; _UNSET: none yet) and, per
        # field, the function that writes a change of it (_put_NAME)
        self._view = None
        self._view_field = _UNSET
        self._offsets = None  # the field's cell offsets (_template) while the board is shown, else None
        self._built: list = []  # (entry offset, cell) of each built cell: the owner flags' places
        self._kept: list = [_UNSET] * len(_SOURCES)
        self._own: list = [None] * players  # each player's own quest entries (_own_quests)
        self._read = compile_reader(_SOURCES)
        # how a change of each field is written: an int, the entry that holds the value (season, round,
        # supplies); a list, where entry i of a per-player list of counts goes (_at); a 1-tuple, the entry of
        # a per-cell flag from the cell's start (ghosts, depleted); else the function _put_NAME (a plain
        # function: no reference cycle)
        self._writers = []
        self._owner_flag = len(self.terrains) + 2 + len(self.buildings)  # a cell's owner=player+0, from its start
        # per observer me, per player p: p's sensor flag from its cell's start (sensor=player+(p - me))
        self._sensor_at = [[self._owner_flag + players + (p - me) % players for p in range(players)]
                           for me in range(players)]
        # where entry i of a per-player list of the state goes in the kept vector (players in player order)
        R, K, PP = len(box.resources), len(box.tracks), self._per_player
        col = {"res": [(i // R, i % R) for i in range(R * players)], "pec": [(p, R) for p in range(players)],
               "tok": [(i // K, R + 1 + i % K) for i in range(K * players)],
               "act": [(i // K, R + 1 + K + i % K) for i in range(K * players)]}
        col.update({name: [(p, R + 1 + 2 * K + j) for p in range(players)]
                    for name, j in (("valor", 0), ("arrival", 1), ("quests", 2), ("markers", 3), ("learned", 4))})
        self._at = {name: [self._players_at + p * PP + c for p, c in where] for name, where in col.items()}
        fixed = {"season": 0, "round": 1, "sup_ghosts": self._to_move_at - 2, "sup_depl": self._to_move_at - 1}
        cell_flags = {"ghosts": (len(self.terrains),), "depleted": (len(self.terrains) + 1,)}  # from a cell's start
        for name in _SOURCES:
            self._writers.append(fixed[name] if name in fixed else self._at[name] if name in _COUNTS
                                 else cell_flags[name] if name in cell_flags
                                 else getattr(HauntedObservation, f"_put_{name}"))
        self._skill_flags: dict = {}  # a learned-skills bitmask -> its skill=k flags as a C float array
        self._quest_flags: dict = {}  # (own quests, hand bitmask) -> their entries (_my_quests)
        self._blank = array.array("f", bytes(4 * len(names)))
        self._slots = len(box.region_centres)

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
        if len(self._templates) >= _FIELDS_KEPT:
            self._templates.clear()
        hit = self._templates[id(field)] = (field, v, offsets)
        return hit

    # ---------------------------------------------------------- from_state's kept vector
    # Each _put_NAME(v, s, now, was) writes state field NAME's change from ``was`` (_UNSET: nothing written
    # since the vector was made) to ``now`` into the kept vector ``v`` (players in player order, nothing
    # that depends on the observer), as the plain encoder reads it.

    def _put_phase(self, v, s, now, was):
        self._move_flag(v, self._phase_at, now, was)

    def _put_market(self, v, s, now, was):
        self._move_flag(v, self._market_at, now, was)

    @staticmethod
    def _move_flag(v, at_of: dict, now, was):
        """A one-hot header flag (phase, market card) moves from ``was``'s entry to ``now``'s."""
        if was is not _UNSET:
            old = at_of.get(was)
            if old is not None:
                v[old] = 0
        new = at_of.get(now)  # a StrEnum hashes and compares as its word
        if new is not None:
            v[new] = 1

    def _put_skills(self, v, s, now, was):
        at = self._skill_in_play_at
        for k in () if was is _UNSET else was:
            v[at[k]] = 0
        for k in now:
            v[at[k]] = 1

    def _put_building(self, v, s, now, was):
        """A cell's building flag; the built cells' list (``(entry offset, cell)``) for the
        owner flags, which depend on the observer (written by :meth:`from_state`)."""
        off = self._offsets
        if off is None:
            return
        at = len(self.terrains) + 2
        old = [_NONE] * len(now) if was is _UNSET else was
        for c in compress(range(len(now)), map(ne, now, old)):
            if old[c] != _NONE:
                v[off[c] + at + old[c]] = 0
            if now[c] != _NONE:
                v[off[c] + at + now[c]] = 1
        self._built = [(off[c], c) for c in compress(range(len(now)), map(_NONE.__ne__, now))]

    def _put_counts(self, v, s, now, was, name):
        """A per-player list of plain counts: entry i at ``_at[name][i]``."""
        at = self._at[name]
        for i in _changed(now, was):
            v[at[i]] = now[i]

    def _put_quests(self, v, s, now, was):
        """Everyone sees how many face-down quests a player holds; which ones only the
        player (:meth:`_own_quests`)."""
        self._put_counts(v, s, list(map(len, now)), _UNSET if was is _UNSET else list(map(len, was)), "quests")
        self._own_quests(s, now, was)

    def _put_hand(self, v, s, now, was):
        self._own_quests(s, now, was)

    def _own_quests(self, s, now, was):
        """Each player's own ``my_quest``/``my_hand`` entries (:meth:`_my_quests`, kept by
        their values), made again for the players whose quests or hand (``now``) changed;
        only the observer's go into a vector (:meth:`from_state`)."""
        quests, hand, own = s.quests, s.hand, self._own
        for p in _changed(now, was):
            chosen = quests[p]  # a tuple (state.FIELDS); any other sequence is keyed as one
            key = (chosen if type(chosen) is tuple else tuple(chosen or ()), hand[p])
            own[p] = _capped(self._quest_flags, key, lambda: self._my_quests(*key))

    def _put_learned(self, v, s, now, was):
        S, at = len(self.skills), self._at["learned"]
        for p in _changed(now, was):
            mask = now[p]
            v[at[p]:at[p] + S] = _capped(self._skill_flags, mask,
                                         lambda: array.array("f", [float(mask >> k & 1) for k in self.skills]))

    def _new_view(self, field) -> None:
        """A fresh kept vector for ``field`` (``None``: no board shown): the field's
        template (terrains) or zeros, nothing of the state written yet."""
        if field is None:
            base, self._offsets = self._blank, None
        else:
            _, base, self._offsets = self._template(field)
        self._view, self._view_field, self._built = base[:], field, []
        self._kept = [_UNSET] * len(_SOURCES)
        self._own = [None] * self.n  # each player's own quest entries (_own_quests)

    def _my_quests(self, chosen, hand: int) -> array.array:
        """The ``my_quest=q`` then ``my_hand=q`` entries, the vector's last, as a C float array."""
        flags = [float(q in (chosen or ())) for q in self.quests] + [float(hand >> q & 1) for q in self.quests]
        return array.array("f", flags)

    def from_state(self, s, me: int, to_move: int | None) -> np.ndarray:
        """The vector of ``s.observation(me)`` (:meth:`__call__`'s, entry for entry), read
        straight from the state's fields: only those the observation shows ``me`` (no
        other player's quests or hand, no seed, generator position or forced outcomes).

        The environment's fast path. The encoder keeps one vector of what every player
        sees alike (the header, the board's flags, the players' entries in player order)
        and the values of the state's fields (:data:`_SOURCES`) it last wrote into it; a
        call compares those fields with the kept values in C and writes only what changed
        (a move changes a field or two, an entry or two each), then copies the vector and
        writes what depends on the observer: the players' entries rotated so the observer
        comes first, the owner and sensor flags, the to-move flag and the observer's own
        quests. Kept by value, not by the state object: any sequence of states (other
        games, other observers, copies) gets its own vector. A new field object (a new
        game) starts the kept vector afresh from its template (:meth:`_template`).

        Returns a C float array's memory as float32 numpy (writable, the caller's own).
        """
        layout, field = s.layout, s.field
        if not (layout and len(layout) == self._slots and field is not None):
            field = None  # the board is not shown before the whole layout is drawn
        if field is not self._view_field:
            self._new_view(field)
        kept, now, view = self._kept, self._read(s), self._view
        writers = self._writers
        for k in compress(range(len(now)), map(ne, now, kept)):  # the fields that changed, found in C
            x, was, put = now[k], kept[k], writers[k]
            if put.__class__ is int:  # a value at a fixed entry
                view[put] = x
                kept[k] = x
                continue
            if put.__class__ is list:  # per-player counts: the entries that changed
                for i in _changed(x, was):
                    view[put[i]] = x[i]
            elif put.__class__ is tuple:  # a flag per cell (ghost, depletion token): the cells that changed
                off, at = self._offsets, put[0]
                if off is not None:  # the board is shown (the template's flags are 0)
                    for c in compress(range(len(x)), x if was is _UNSET else map(ne, x, was)):
                        view[off[c] + at] = 1 if x[c] else 0
            else:
                put(self, view, s, x, was)
            kept[k] = list(x) if x.__class__ is list else x  # lists change in place: keep a copy
        v = view[:]  # a memcpy
        n = self.n
        if me:  # the players' entries, observer first
            at, cut, end = self._players_at, me * self._per_player, self._quests_at
            v[at:end - cut] = view[at + cut:end]
            v[end - cut:end] = view[at:at + cut]
        if to_move is not None:
            v[self._to_move_at + (to_move - me) % n] = 1
        off = self._offsets
        if off is not None:
            owners, owner = self._owner_flag, s.owner
            for o, c in self._built:
                v[o + owners + (owner[c] - me) % n] = 1
            for c, at in zip(s.sensor, self._sensor_at[me]):  # player p's flag: sensor=player+(p - me)
                if c is not None:
                    v[off[c] + at] = 1
        v[self._quests_at:] = self._own[me]
        return np.frombuffer(v, _FLOAT32)  # the array's own memory, no copy (dtype positional: faster)

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
