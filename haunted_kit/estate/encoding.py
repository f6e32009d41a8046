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

import numpy as np

from ..protocol import ActionCatalogue, ObservationEncoder
from . import actions as A
from .box import default_estate_box
from .rules import income_bound  # noqa: F401  (this module's interface too; the rule lives in rules)

__all__ = ["EstateObservation", "catalogue", "income_bound"]

PHASES = ("setup", "turns", "inn", "over")


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
        self._last_rows = [((), b"")] * players  # per seat: its values and their float32 bytes last written
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
        tokens, passed, visited: :meth:`entry_names`' order) into ``v``, one float32 bytes
        write per seat (the bytes last written for that seat while its values are the same)."""
        T, n = self._T, self.n
        res, inc, work, starts, width = T["get_res"], T["get_inc"], T["get_workers"], T["seat_start"], T["seat_width"]
        last, out = self._last_rows, memoryview(v).cast("B")
        for p in range(n):
            row = res(hands[p]) + inc(incomes[p]) + inc(takens[p]) + work(workers[p]) + (tokens[p], passed[p], visited[p])
            kept = last[p]
            if kept[0] == row:
                b = kept[1]
            else:
                b = array.array("f", row).tobytes()
                last[p] = (row, b)  # the same values next time: the same bytes
            at0 = 4 * starts[(p - me) % n]
            out[at0:at0 + 4 * width] = b

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
        by the state's ``(q, r)`` and seats by their place from the observer."""
        T, at = getattr(self, "_T", None) or self._tables(), self.at
        tile_of = {t: i for i, t in enumerate(self.tiles)}
        D = {"tile_of": tile_of,
             "display": at[f"display.{self.tiles[0]}"], "stack": at[f"stack.{self.tiles[0]}"],
             "removed": at[f"removed.{self.tiles[0]}"],
             "uses": [(a, at[f"market_uses={a}"]) for a in self.market],
             "slot": {(q, r): (at[f"slot{q},{r}.tile={self.tiles[0]}"], T["slot"][f"{q},{r}"][1], T["slot"][f"{q},{r}"][2])
                      for q, r in self.box.slots}}
        assert all(at[f"{w}.{t}"] == D[w] + i for w in ("display", "stack", "removed") for t, i in tile_of.items())
        self._D = D
        return D

    def from_state(self, state, me: int, to_move: int | None) -> np.ndarray:
        """The vector of ``state.observation(me)`` with ``to_move``'s flag (``None``:
        nobody's): :meth:`__call__`'s, entry for entry, read straight from the state's fields
        through index tables made once (:meth:`_direct_tables`) into a C float array handed
        to numpy without copying. It reads only what the observation shows (the estate hides
        only the seed and the generator's position). The environment's fast path."""
        D = getattr(self, "_D", None) or self._direct_tables()
        T, n = self._T, self.n
        zeros = getattr(self, "_zeros", None)
        if zeros is None:
            zeros = self._zeros = array.array("f", bytes(4 * len(self.names)))
        v = zeros[:]
        if to_move is not None:
            v[(to_move - me) % n] = 1  # "to_move=me", then "to_move=player+k", come first
        v[T["season_at"]] = state.season
        i = T["phase"].get(state.phase)
        if i is not None:
            v[i] = 1
        visit = state.visit
        if visit is not None:
            v[T["visit_at"]] = 1
            v[T["visit_at"] + 1] = visit["limit"] - len(visit["used"])
            used = T["used"]
            for a in visit["used"]:
                v[used[a]] = 1
        v[T["visit_at"] + 2] = state.visitors
        v[T["visit_at"] + 3] = state.pending is not None
        uses = state.uses
        for a, i in D["uses"]:
            v[i] = uses[a]
        tile_of = D["tile_of"]
        i = D["display"]
        for t in state.display:
            v[i + tile_of[t]] += 1
        i = D["removed"]
        for t in state.removed:
            v[i + tile_of[t]] += 1
        i = D["stack"]
        for t, k in state.stack.items():
            v[i + tile_of[t]] = k
        slots = D["slot"]
        for slot, land in state.lands.items():
            tile, owner, marker = slots[slot]
            v[tile + tile_of[land["tile"]]] = 1
            v[owner[(land["owner"] - me) % n]] = 1
            for p in land["markers"]:
                v[marker[(p - me) % n]] = 1
        self._seat_rows(v, me, state.hand, state.income, state.taken, state.workers, state.tokens, state.passed,
                        state.visited)
        for m, p in state.first_taker.items():
            if p is not None:
                v[T["seat"][(p - me) % n]["first"][m]] = 1
        return np.frombuffer(v, dtype=np.float32)  # the array's own memory (writable), no copy

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
