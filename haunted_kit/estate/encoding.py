"""The estate module for learning agents: a fixed integer encoding of its actions and a
fixed-length observation vector (used by :mod:`haunted_kit.env` through the Game's
``action_catalogue`` and ``observation_encoder``).

**Actions** (fixed for a box), in this order: pass, visit the Market, leave the Market,
bring a worker back from the Inn, leave the workers in the Inn; take ``k`` of each Factory
material (material by material, ``k`` = 1 up to :func:`income_bound` plus the first
taker's extra unit); take ``k`` gold (``k`` = 1 up to the gold income bound); place each
land tile on each slot (tile by tile, slots in board order); join the land on each slot;
remove each tile of the display; then every Market trade (row by row in table order, each
row's options in their order).

**Observations** are built only from ``state.observation(me)`` (the estate hides only the
seed and the generator's position, i.e. the order of the tile stack): players are listed
starting with the observer ("player+0" is me). :attr:`EstateObservation.names` names each
entry.
"""

from __future__ import annotations

import array
import math
import operator
import struct
from itertools import compress
from operator import ne

import numpy as np

from ..protocol import ActionCatalogue, ObservationEncoder
from ..saves import compile_reader, copy_tree
from . import actions as A
from .box import default_estate_box
from .rules import income_bound  # noqa: F401  (this module's interface too; the rule lives in rules)
from .state import STATE_FIELDS, copy_lands

__all__ = ["EstateObservation", "catalogue", "income_bound"]

PHASES = ("setup", "turns", "inn", "over")
_FLOAT32 = np.dtype(np.float32)
_UNSET = object()  # from_state: no value of a field written yet
_SECTIONS_KEPT = 10_000  # lands' slot entries kept by EstateObservation._slot_flags before it starts afresh
#: the state's fields that from_state reads, in the order it compares them
_SOURCES = ("season", "phase", "visit", "visitors", "pending", "uses", "display", "removed", "stack", "lands",
            "hand", "income", "taken", "workers", "tokens", "passed", "visited", "first_taker")
#: how from_state keeps a field's value: a copy by the field's copy kind in STATE_FIELDS (so that a field
#: changed in place still compares unequal; None: the value itself), or (False) changed in place by its writer
_KEEP = {"value": None, "list": list, "optional_list": lambda x: None if x is None else x[:], "dict": dict,
         "rows": lambda x: [r.copy() for r in x], "tree": copy_tree, "writer": False,
         "visit": lambda x: None if x is None else {**x, "used": x["used"][:]}}  # the "tree" copy for its one shape


def _tuple_getter(keys):
    """``d -> tuple(d[k] for k in keys)``, in C (``itemgetter`` gives a bare value for one key)."""
    get = operator.itemgetter(*keys)
    return get if len(keys) > 1 else (lambda d: (get(d),))


def catalogue(box=None) -> ActionCatalogue:
    """The estate's actions in a fixed order (see the module doc)."""
    box = box or default_estate_box()
    table = A.action_table(box)  # the engine's own objects: the mask's lookups match by identity
    out = [table.PASS, table.VISIT, table.END_VISIT, table.INN_RETURN, table.INN_DECLINE]
    for m in box.factory_resources:
        out += table.takes(m, income_bound(box, m) + box.first_taker_extra)
    out += table.golds(income_bound(box, "gold"))
    out += [table.place[t][slot] for t in box.tiles for slot in box.slots]
    out += [table.join[slot] for slot in box.slots]
    out += [table.remove[t] for t in box.tiles]
    out += [x for a in box.market for x in table.trades[a]]
    return ActionCatalogue(out)


class EstateObservation(ObservationEncoder):
    """Fixed-length float32 vector of one player's estate observation (the observer first).

    Args:
        box: the estate box (default: the module's own); players: the number of players.
    """

    def __init__(self, box, players: int):
        box = box or default_estate_box()
        self.tiles, self.market = list(box.tiles), list(box.market)
        self.slots = [f"{q},{r}" for q, r in box.slots]
        self._view = None  # from_state's kept vector (see from_state), made by its first call
        self._sections: dict = {}  # a land's values -> its slot entries per observer (_slot_flags)
        super().__init__(box, players)

    def entry_names(self) -> list[str]:
        box = self.box
        names = ["season"] + [f"phase={p}" for p in PHASES]
        names += ["at_market", "market_actions_left", "market_visitors", "must_remove_tile"]
        names += [f"market_used={a}" for a in self.market] + [f"market_uses={a}" for a in self.market]
        names += [f"{where}.{t}" for where in ("display", "stack", "removed") for t in self.tiles]
        for s in self.slots:
            names += [f"slot{s}.tile={t}" for t in self.tiles] + [f"slot{s}.owner=player+{k}" for k in range(self.n)]
            names += [f"slot{s}.marker=player+{k}" for k in range(self.n)]
        for k in range(self.n):
            who = f"player+{k}"
            names += [f"{who}.hand.{r}" for r in box.resources] + [f"{who}.income.{r}" for r in box.income_resources]
            names += [f"{who}.taken.{r}" for r in box.income_resources]
            names += [f"{who}.workers.{w}" for w in ("supply", "factory", "inn")]
            names += [f"{who}.condition_tokens", f"{who}.passed", f"{who}.visited"]
            names += [f"{who}.first_taker.{m}" for m in box.factory_resources]
        return names

    def entry_high(self, name: str) -> float:
        """The highest value of entry ``name``: 1 for a flag (a phase, a market action
        used this visit, a slot's tile, owner or marker, who moves, first taker, at the
        market, a tile to remove, passed, visited); the box's seasons for ``season``;
        ``math.inf`` for the other counts (resources, workers, tiles, market uses)."""
        flag_parts = ("phase=", "market_used=", ".tile=", ".owner=", ".marker=", "to_move=", ".first_taker.")
        if any(flag in name for flag in flag_parts) or name.split(".")[-1] in ("at_market", "must_remove_tile", "passed", "visited"):
            return 1.0
        if name == "season":
            return float(self.box.seasons)
        return math.inf

    def _tables(self):
        """Index tables of :meth:`fill` (entry positions by key, per seat), made once."""
        at, n, box = self.at, self.n, self.box
        seats = [[f"player+{k}" for k in range(n)]]
        T = {"phase": {p: at[f"phase={p}"] for p in PHASES},
             "used": {a: at[f"market_used={a}"] for a in self.market},
             "uses": {a: at[f"market_uses={a}"] for a in self.market}}
        for where in ("display", "stack", "removed"):
            T[where] = {t: at[f"{where}.{t}"] for t in self.tiles}
        T["slot"] = {s: ({t: at[f"slot{s}.tile={t}"] for t in self.tiles},
                         [at[f"slot{s}.owner={w}"] for w in seats[0]], [at[f"slot{s}.marker={w}"] for w in seats[0]])
                     for s in self.slots}
        T["seat"] = [{**{part: {key: at[f"{w}.{part}.{key}"] for key in keys} for part, keys in
                         (("hand", box.resources), ("income", box.income_resources), ("taken", box.income_resources),
                          ("workers", ("supply", "factory", "inn")))},
                      "tokens": at[f"{w}.condition_tokens"], "passed": at[f"{w}.passed"], "visited": at[f"{w}.visited"],
                      "first": {m: at[f"{w}.first_taker.{m}"] for m in box.factory_resources}} for w in seats[0]]
        T["seat_start"] = [at[f"player+{k}.hand.{box.resources[0]}"] for k in range(n)]
        T["seat_width"] = at["player+0.visited"] - T["seat_start"][0] + 1
        T["season_at"], T["visit_at"] = at["season"], at["at_market"]
        T["get_res"], T["get_inc"], T["get_workers"] = map(_tuple_getter, (box.resources, box.income_resources,
                                                                          ("supply", "factory", "inn")))
        assert [at[k] for k in ("market_actions_left", "market_visitors", "must_remove_tile")] == [T["visit_at"] + d for d in (1, 2, 3)]
        self._T = T
        return T

    def _seat_rows(self, v, me: int, hands, incomes, takens, workers, tokens, passed, visited) -> None:
        """Write every seat's consecutive entries (hand, income, taken, workers, condition
        tokens, passed, visited: :meth:`entry_names`' order) into ``v``, one slice per seat."""
        T, n = self._T, self.n
        res, inc, work, starts, width = T["get_res"], T["get_inc"], T["get_workers"], T["seat_start"], T["seat_width"]
        for p in range(n):
            row = res(hands[p]) + inc(incomes[p]) + inc(takens[p]) + work(workers[p]) + (tokens[p], passed[p], visited[p])
            at = starts[(p - me) % n]
            v[at:at + width] = array.array("f", row)

    def values(self, obs: dict, me: int, v: list) -> list:
        """Write the entries of ``obs`` (player ``me``'s observation) into the list of zeros ``v``
        (an ``array.array("f")`` of the vector's length; the ``to_move`` flags left alone)
        and return it: :meth:`fill`'s work without numpy, whose item writes are slow."""
        at, n = self.at, self.n
        T = getattr(self, "_T", None) or self._tables()
        v[at["season"]] = obs["season"]
        if obs["phase"] in PHASES:
            v[T["phase"][obs["phase"]]] = 1
        visit = obs["visit"]
        if visit is not None:
            v[at["at_market"]] = 1
            v[at["market_actions_left"]] = visit["limit"] - len(visit["used"])
            for a in visit["used"]:
                v[T["used"][a]] = 1
        v[at["market_visitors"]] = obs["visitors"]
        v[at["must_remove_tile"]] = obs["pending"] is not None
        uses = T["uses"]
        for a, k in obs["uses"].items():
            v[uses[a]] = k
        for where in ("display", "removed"):
            idx = T[where]
            for t in obs[where]:
                v[idx[t]] += 1
        stack = T["stack"]
        for t, k in obs["stack"].items():
            v[stack[t]] = k
        slots = T["slot"]
        for s, land in obs["lands"].items():
            tile, owner, marker = slots[s]
            v[tile[land["tile"]]] = 1
            v[owner[(land["owner"] - me) % n]] = 1
            for p in land["markers"]:
                v[marker[(p - me) % n]] = 1
        self._seat_rows(v, me, obs["hand"], obs["income"], obs["taken"], obs["workers"], obs["tokens"], obs["passed"],
                        obs["visited"])
        for m, p in obs["first_taker"].items():
            if p is not None:
                v[T["seat"][(p - me) % n]["first"][m]] = 1
        return v

    def _direct_tables(self):
        """Index tables of :meth:`from_state`, made once: flat entry positions, slots keyed
        by the state's ``(q, r)``, the blocks of slot flags and of seats, and per field of
        :data:`_SOURCES` how a change of it is written and how its value is kept."""
        T, at = getattr(self, "_T", None) or self._tables(), self.at
        tile_of = {t: i for i, t in enumerate(self.tiles)}
        D = {"tile_of": tile_of,
             "display": at[f"display.{self.tiles[0]}"], "stack": at[f"stack.{self.tiles[0]}"],
             "removed": at[f"removed.{self.tiles[0]}"],
             "uses": [(a, at[f"market_uses={a}"]) for a in self.market],
             "slot": {(q, r): (at[f"slot{q},{r}.tile={self.tiles[0]}"], T["slot"][f"{q},{r}"][1], T["slot"][f"{q},{r}"][2])
                      for q, r in self.box.slots}}
        assert all(at[f"{w}.{t}"] == D[w] + i for w in ("display", "stack", "removed") for t, i in tile_of.items())
        # from_state's blocks: every slot's flags, then every seat's entries (first_taker included), to the end
        n, box, R = self.n, self.box, len(self.tiles)
        first, last = self.slots[0], self.slots[-1]
        D["slots_span"] = (at[f"slot{first}.tile={self.tiles[0]}"], at[f"slot{last}.marker=player+{n - 1}"] + 1)
        D["slot_width"] = R + 2 * n
        D["slot_at"] = {slot: tile for slot, (tile, _, _) in D["slot"].items()}
        assert all(owner == list(range(t + R, t + R + n)) and marker == list(range(t + R + n, t + R + 2 * n))
                   for t, owner, marker in D["slot"].values())
        self._seats_at, self._slots_span = T["seat_start"][0], D["slots_span"]
        self._per_seat = (len(self.names) - self._seats_at) // n
        assert D["slots_span"][1] - D["slots_span"][0] == len(self.slots) * D["slot_width"]
        assert D["slots_span"][1] == self._seats_at and T["seat_start"][-1] == self._seats_at + (n - 1) * self._per_seat
        used = [T["used"][a] for a in self.market]
        D["used"], D["phases"] = (used[0], len(used)), (T["phase"][PHASES[0]], len(PHASES))
        D["first"] = [T["seat"][p]["first"][box.factory_resources[0]] for p in range(n)]
        D["get_uses"], D["get_stack"] = _tuple_getter(self.market), _tuple_getter(self.tiles)
        D["pack_uses"], D["pack_tiles"] = (struct.Struct(f"{len(keys)}f").pack_into for keys in (self.market, self.tiles))
        assert used == list(range(used[0], used[0] + len(used))) and [i for _, i in D["uses"]] == \
            list(range(D["uses"][0][1], D["uses"][0][1] + len(self.market)))
        assert [T["phase"][ph] for ph in PHASES] == list(range(D["phases"][0], D["phases"][0] + len(PHASES)))
        assert all(list(T["seat"][p]["first"].values()) == list(range(D["first"][p], D["first"][p] + len(box.factory_resources)))
                   for p in range(n))
        kind = {f.name: f.copy for f in STATE_FIELDS}
        kind["lands"] = "writer"
        kind["visit"] = "visit"
        parts = {"hand": (T["get_res"], at[f"player+0.hand.{box.resources[0]}"], len(box.resources)),
                 "income": (T["get_inc"], at[f"player+0.income.{box.income_resources[0]}"], len(box.income_resources)),
                 "taken": (T["get_inc"], at[f"player+0.taken.{box.income_resources[0]}"], len(box.income_resources)),
                 "workers": (T["get_workers"], at["player+0.workers.supply"], 3)}
        parts.update({name: (None, at[f"player+0.{key}"], 1)
                      for name, key in (("tokens", "condition_tokens"), ("passed", "passed"), ("visited", "visited"))})
        self._read = compile_reader(_SOURCES)
        # how a change of each field is written: for the seats' per-player fields a tuple (a struct's
        # pack_into for a player's values, their getter, each player's first entry in bytes; pack_into None:
        # one value, its entry), else the function _put_NAME; then how the field's value is kept (_KEEP)
        self._writers = []
        for name in _SOURCES:
            if name in parts:
                get, off, width = parts[name]
                starts = [off + p * self._per_seat for p in range(n)]
                put = (None, None, starts) if get is None else (struct.Struct(f"{width}f").pack_into, get,
                                                                [4 * i for i in starts])
            else:
                put = getattr(EstateObservation, f"_put_{name}")
            self._writers.append((put, _KEEP[kind[name]]))
        self._D = D
        return D

    def _new_view(self) -> None:
        """:meth:`from_state`'s kept vector afresh: zeros, nothing of a state written yet,
        every observer's slots block zeros."""
        D = getattr(self, "_D", None) or self._direct_tables()
        self._blank = array.array("f", bytes(4 * len(self.names)))
        self._view = self._blank[:]
        self._kept = [_UNSET] * len(_SOURCES)
        self._kept[_SOURCES.index("lands")] = {}  # no land yet: every slots block is zeros
        lo, hi = D["slots_span"]
        self._slot_blocks = [self._blank[lo:hi] for _ in range(self.n)]  # per observer

    # Each _put_NAME(v, now, was) writes state field NAME's value ``now`` (``was``: the value last written,
    # _UNSET for none) into the kept vector ``v`` (players in player order; the slots apart, per observer).

    def _put_season(self, v, now, was):
        v[self._T["season_at"]] = now

    def _put_phase(self, v, now, was):
        at, k = self._D["phases"]
        v[at:at + k] = self._blank[:k]
        i = self._T["phase"].get(now)
        if i is not None:
            v[i] = 1

    def _put_visit(self, v, now, was):
        T = self._T
        at, k = self._D["used"]
        v[at:at + k] = self._blank[:k]
        if now is None:
            v[T["visit_at"]] = v[T["visit_at"] + 1] = 0
            return
        v[T["visit_at"]] = 1
        v[T["visit_at"] + 1] = now["limit"] - len(now["used"])
        used = T["used"]
        for a in now["used"]:
            v[used[a]] = 1

    def _put_visitors(self, v, now, was):
        v[self._T["visit_at"] + 2] = now

    def _put_pending(self, v, now, was):
        v[self._T["visit_at"] + 3] = now is not None

    def _put_uses(self, v, now, was):
        D = self._D
        D["pack_uses"](v, 4 * D["uses"][0][1], *D["get_uses"](now))

    def _put_display(self, v, now, was):
        D = self._D
        D["pack_tiles"](v, 4 * D["display"], *map(now.count, self.tiles))

    def _put_removed(self, v, now, was):
        D = self._D
        D["pack_tiles"](v, 4 * D["removed"], *map(now.count, self.tiles))

    def _put_stack(self, v, now, was):
        D = self._D
        D["pack_tiles"](v, 4 * D["stack"], *D["get_stack"](now))

    def _slot_flags(self, land) -> list:
        """A land's slot entries (its tile's flag, then owner and marker flags listing the
        players from the observer) for each observer, as C float arrays (kept by value)."""
        key = (land["tile"], land["owner"], tuple(land["markers"]))
        hit = self._sections.get(key)
        if hit is None:
            if len(self._sections) > _SECTIONS_KEPT:
                self._sections.clear()
            n, T = self.n, len(self.tiles)
            hit = []
            for me in range(n):
                b = array.array("f", bytes(4 * (T + 2 * n)))
                b[self._D["tile_of"][land["tile"]]] = 1
                b[T + (land["owner"] - me) % n] = 1
                for p in land["markers"]:
                    b[T + n + (p - me) % n] = 1
                hit.append(b)
            self._sections[key] = hit
        return hit

    def _put_lands(self, v, now, was):
        """The slots whose land changed (placed, joined, gone) in each observer's slots
        block (:meth:`_slot_flags`) and in the kept lands ``was`` (the encoder's own dict,
        changed in place)."""
        D = self._D
        lo, width, at = D["slots_span"][0], D["slot_width"], D["slot_at"]
        changed = [slot for slot, land in now.items() if land != was.get(slot)]
        changed += [slot for slot in was if slot not in now]
        for slot in changed:
            i = at[slot] - lo
            land = now.get(slot)
            if land is None:
                blank = self._blank[:width]
                for b in self._slot_blocks:
                    b[i:i + width] = blank
                del was[slot]
                continue
            for b, flags in zip(self._slot_blocks, self._slot_flags(land)):
                b[i:i + width] = flags
        was.update(copy_lands({slot: now[slot] for slot in changed if slot in now}))

    def _put_first_taker(self, v, now, was):
        """The first-taker flags of the materials whose first taker changed."""
        seats = self._T["seat"]
        for m, p in now.items():
            q = None if was is _UNSET else was.get(m)
            if p != q:
                if q is not None:
                    v[seats[q]["first"][m]] = 0
                if p is not None:
                    v[seats[p]["first"][m]] = 1

    def from_state(self, state, me: int, to_move: int | None) -> np.ndarray:
        """The vector of ``state.observation(me)`` with ``to_move``'s flag (``None``:
        nobody's): :meth:`__call__`'s, entry for entry, read straight from the state's
        fields (:data:`_SOURCES`: only what the observation shows; the estate hides only
        the seed and the generator's position, which it does not read). The environment's
        fast path.

        The encoder keeps one vector of what every player sees alike (the players' entries
        in player order), a copy of the value of each field it last wrote into it, and each
        observer's block of slot flags (owners and markers are listed from the observer).
        A call compares the state's fields with the kept values in C and rewrites only the
        entries of those that changed (a decision changes about three fields, often one
        player's entries of each), then copies the vector, rotates the players' entries so
        the observer comes first, pastes the observer's slots block and sets the to-move
        flag. Kept by value, not by the state object: any sequence of states (other games,
        copies, other observers) gets the vector of its own values; the kept data is one
        vector, one copy of each field and one slots block per player (bounded).

        Returns a C float array's memory as float32 numpy (writable, the caller's own).
        """
        view = self._view
        if view is None:
            self._new_view()
            view = self._view
        kept, now, writers = self._kept, self._read(state), self._writers
        for k in compress(range(len(now)), map(ne, now, kept)):  # the fields that changed, found in C
            put, keep = writers[k]
            x, was = now[k], kept[k]
            if put.__class__ is not tuple:
                put(self, view, x, was)
                if keep is not False:
                    kept[k] = x if keep is None else keep(x)
                continue
            # a per-player field of the seats: the players whose value changed
            pack, get, starts = put
            if was is _UNSET:
                was = kept[k] = keep(x)
                changed = range(len(x))
            else:
                changed = compress(range(len(x)), map(ne, x, was))
            for p in changed:
                y = x[p]
                if pack is None:  # one value
                    view[starts[p]] = was[p] = y
                else:
                    pack(view, starts[p], *get(y))
                    was[p] = y.copy()  # (the kept list is the encoder's own: changed in place)
        v = view[:]  # a memcpy
        n = self.n
        if me:  # the players' entries, observer first
            at, end, cut = self._seats_at, len(v), me * self._per_seat
            v[at:end - cut] = view[at + cut:end]
            v[end - cut:end] = view[at:at + cut]
        lo, hi = self._slots_span
        v[lo:hi] = self._slot_blocks[me]
        if to_move is not None:
            v[(to_move - me) % n] = 1  # "to_move=me", then "to_move=player+k", come first
        return np.frombuffer(v, _FLOAT32)  # the array's own memory (writable), no copy (dtype positional: faster)

    def fill(self, out, obs: dict, me: int) -> None:
        out[:] = np.frombuffer(self.values(obs, me, array.array("f", out.tolist())), dtype=np.float32)

    def __call__(self, obs: dict, me: int, to_move: int | None):
        """The float32 vector of ``obs`` (player ``me``'s observation) with ``to_move``'s
        flag (``None``: nobody's): the base's vector, filled in a C float array and handed over."""
        zeros = getattr(self, "_zeros", None)
        if zeros is None:
            zeros = self._zeros = array.array("f", bytes(4 * len(self.names)))
        v = self.values(obs, me, array.array("f", zeros))  # a C float array: Python writes, no numpy per entry
        if to_move is not None:
            v[(to_move - me) % self.n] = 1  # "to_move=me", then "to_move=player+k", come first
        return np.frombuffer(v, dtype=np.float32)  # the array's own memory (writable), no copy
