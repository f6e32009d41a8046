"""Exploration analysis: costs, cheapest paths, reach, turns and cost tables.

Everything here is measured in **exploration tokens** and is derived from the one
exploration-cost rule, :func:`haunted_kit.haunted.rules.entry_cost` (principle 7): the same
function the engine calls to decide whether an ``Explore`` is legal and what it costs.
This module never re-encodes a terrain cost, a skill or a ghost card; it asks
``entry_cost`` for the cost of entering each cell and builds a weighted directed graph
from the answers. Rulebook: "Game Field, Tiles and Terrain Types" (terrain costs,
lakes), "Basic Actions: Exploration", skill cards 4 and 5, ghost card 3.

The model
---------
A sensor moves one cell at a time and pays the cost of the cell it **enters**, so the
cost of a step depends on its end only. :class:`CostMap` holds, for one player in one
state, that entry cost per cell and a :class:`networkx.DiGraph` over the field's axial
cells with an edge ``u -> v`` of weight ``entry(v)`` for every pair of adjacent cells
(adjacency read off :attr:`haunted_kit.haunted.board.Field.graph`). A cell that cannot be
explored (a lake: ``entry`` is ``None``) has no edge in or out: a sensor never enters
one, so none ever starts from one either.

A cost map is a pure function of the field and the 49 entry costs, so the maps are
cached by exactly that key: a state whose costs are unchanged reuses the graph, and a
changed ghost, skill or ghost card gives a new key (nothing can go stale).

Deterministic tie-break
-----------------------
Among paths of equal cost, :meth:`CostMap.route` returns the one with the **fewest
steps**; among those, the one whose sequence of cell indexes (source first) is
**lexicographically smallest**. Distances come from networkx's Dijkstra; the path is
then chosen by a breadth-first pass over the "tight" edges (``dist[u] + entry[v] ==
dist[v]``) that visits cells in index order, which yields exactly that path. Same
inputs, same path, every run.

Unreachable targets
-------------------
A lake target, a target cut off by lakes, or one beyond a token budget gives a
:class:`Route` with ``found == False``, ``cost == math.inf`` and a plain-words
``reason``; in DataFrames an unreachable cost is ``<NA>``. Only bad input raises:
an unknown cell (:class:`~haunted_kit.haunted.board.FieldError`, naming the value) or a player
who does not exist (:class:`PathError`, naming the value).

Quick start::

    import haunted_kit as hk
    from haunted_kit.haunted import pathfinding as pf
    s = hk.new_game(players=4, seed=1)
    pf.cheapest_path(s, 0, (3, 1))       # Route: cells, cost in tokens, steps
    pf.reach(s, 0)                       # cells P1 can reach with the active tokens
    pf.cost_table(s, 0)                  # DataFrame: cost from P1's sensor to every cell
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import random
from collections import OrderedDict, deque
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping, Sequence

import networkx as nx

from .. import hexgrid
from . import rules
from .actions import Explore
from .state import EXPLORATION, State
from .board import Field, build_field, resolve_cell
from .engine import new_game
from ..progress import progress as bar
from .state import GameConfig
from ..protocol import is_integer

Axial = tuple[int, int]
INF = math.inf

__all__ = [
    "CostMap", "PathError", "PlayResult", "Route", "SearchStep", "TurnPlan",
    "all_pairs_table", "astar_trace", "cheapest_path", "clear_cache", "compare_rules", "cost_map", "cost_table",
    "dijkstra_trace", "entry_cost_of", "field_cost_map", "first_turn_state", "path_to_actions", "play_path", "reach",
    "seeded_maps", "terrain_table", "turn_plan", "turns_needed", "what_if",
]


class PathError(ValueError):
    """Bad input to the analysis (a player who does not exist, a state without a field,
    a route that does not fit the state it is played in). The message names the value."""


# ============================================================================ results


@dataclass(frozen=True)
class Route:
    """A cheapest route, or the documented "no route" result.

    Attributes:
        cells: axial cells from the source to the target, both included; ``()`` when
            there is no route.
        cost: exploration tokens the route costs (sum of ``step_costs``);
            ``math.inf`` when there is no route.
        step_costs: tokens paid on entering each cell after the source.
        player: the player the costs were computed for (``None`` for a bare field).
        reason: why there is no route (plain words), ``""`` when found.
        source, target: the cells asked about (axial), set even when not found.
    """

    source: Axial
    target: Axial
    cells: tuple[Axial, ...]
    cost: float
    step_costs: tuple[int, ...] = ()
    player: int | None = None
    reason: str = ""

    @property
    def found(self) -> bool:
        return bool(self.cells)

    @property
    def steps(self) -> int | None:
        """Number of explore actions, ``None`` when there is no route."""
        return len(self.cells) - 1 if self.cells else None

    def actions(self) -> list[Explore]:
        """The explore actions that walk this route (see :func:`path_to_actions`)."""
        return path_to_actions(self)

    def __str__(self) -> str:
        if not self.found:
            return f"no route from {self.source} to {self.target}: {self.reason}"
        return f"{' -> '.join(map(str, self.cells))}: {self.cost} token{'s' if self.cost != 1 else ''} in {self.steps} step{'s' if self.steps != 1 else ''}"


@dataclass(frozen=True)
class TurnPlan:
    """How many turns a sensor needs to reach a cell when its tokens come back at rest.

    Attributes:
        turns: turns needed, counting the current turn as turn 1 (``0`` when the sensor
            is already there; ``math.inf`` when the target can never be reached).
        legs: per turn, the cells entered in that turn (``legs[0]`` is the current
            turn; a leg may be empty when the turn's tokens cannot pay the next step).
        leg_costs: tokens spent in each turn.
        cells: the whole route, source first (``()`` when unreachable).
        first_budget, budget: tokens available in the current turn and in each later
            turn (after rest: every owned token).
    """

    source: Axial
    target: Axial
    turns: float
    cells: tuple[Axial, ...]
    legs: tuple[tuple[Axial, ...], ...]
    leg_costs: tuple[int, ...]
    first_budget: int
    budget: int
    reason: str = ""


@dataclass(frozen=True)
class SearchStep:
    """One step of a teaching trace (:func:`dijkstra_trace`, :func:`astar_trace`).

    Attributes:
        algorithm: ``"dijkstra"`` or ``"astar"``.
        number: 0 for the starting picture, then 1, 2, ... one per settled cell.
        current: the cell settled at this step (``None`` at step 0).
        frontier: cells discovered but not settled, as ``(cell, priority)`` sorted by
            priority then cell index; the priority is the best known cost (Dijkstra)
            or cost + heuristic (A*).
        settled: cells whose cheapest cost is final, in the order they were settled.
        best: best known cost (tokens) of every discovered cell.
        parent: the previous cell on the best known route of every discovered cell.
        done: True on the last step (target settled, or nothing left to explore).
        cost: the target's cost on the last step (``math.inf`` if unreachable),
            ``None`` before.
    """

    algorithm: str
    number: int
    current: Axial | None
    frontier: tuple[tuple[Axial, int], ...]
    settled: tuple[Axial, ...]
    best: Mapping[Axial, int]
    parent: Mapping[Axial, Axial]
    done: bool = False
    cost: float | None = None

    def route_to(self, cell) -> tuple[Axial, ...]:
        """The best known route to ``cell`` at this step (``()`` if not discovered)."""
        cell = tuple(cell)
        if cell not in self.best:
            return ()
        out = [cell]
        while out[-1] in self.parent:
            out.append(self.parent[out[-1]])
        return tuple(reversed(out))


@dataclass(frozen=True)
class PlayResult:
    """What happened when a route was played in the engine (:func:`play_path`).

    Attributes:
        state: the state after the explore actions.
        predicted: tokens the analysis predicted.
        spent: tokens the engine charged (from its ``explored`` events).
        sensor: where the player's sensor ended (axial).
        actions: the explore actions applied.
    """

    state: State
    predicted: int
    spent: int
    sensor: Axial
    actions: tuple[Explore, ...]


# ============================================================================ the cost map


class CostMap:
    """Entry costs and the weighted directed exploration graph of one field for one
    player in one state, with the searches built on them.

    Build one with :func:`cost_map` (a game state) or :func:`field_cost_map` (a field
    without a game); both take the costs from :func:`haunted_kit.haunted.rules.entry_cost`.
    The constructor itself takes any undirected graph with axial nodes and a cost per
    node, so that small hand-built fields can be studied (tests, teaching).

    Args:
        graph: undirected :class:`networkx.Graph`; nodes are axial ``(q, r)`` cells;
            node attribute ``terrain`` is used for labels when present.
        entry: cost in tokens of entering each cell, ``None`` for a cell that cannot be
            entered; a mapping ``cell -> cost`` or a sequence in ``cells`` order.
        cells: the order of the cells; a cell's position is its **index**, used by the
            tie-break. Default: by the node attribute ``index`` when every node has
            one, else sorted axial order.
        field: the :class:`~haunted_kit.haunted.board.Field`, when the graph is a game field.
    """

    def __init__(self, graph: nx.Graph, entry, cells: Sequence[Axial] | None = None, field=None):
        if cells is None:
            if all("index" in d for _, d in graph.nodes(data=True)):
                cells = sorted(graph.nodes, key=lambda c: graph.nodes[c]["index"])
            else:
                cells = sorted(graph.nodes)
        self.cells: tuple[Axial, ...] = tuple(tuple(c) for c in cells)
        self.index: dict = {c: i for i, c in enumerate(self.cells)}
        if len(self.index) != graph.number_of_nodes() or any(c not in graph for c in self.cells):
            raise PathError("cells must list every node of the graph exactly once")
        if isinstance(entry, Mapping):
            entry = [entry.get(c) for c in self.cells]
        self.entry: tuple[int | None, ...] = tuple(entry)
        if len(self.entry) != len(self.cells):
            raise PathError(f"entry costs: expected {len(self.cells)} values, got {len(self.entry)}")
        self.field = field
        self.graph = graph
        self.terrain = tuple(graph.nodes[c].get("terrain", "") for c in self.cells)
        n = len(self.cells)
        succ: list[list[int]] = [[] for _ in range(n)]
        dg = nx.DiGraph()
        for i, c in enumerate(self.cells):
            dg.add_node(c, index=i, terrain=self.terrain[i], entry=self.entry[i])
        idx, ent = self.index, self.entry
        for u, v in graph.edges():
            i, j = idx[u], idx[v]
            if ent[i] is None or ent[j] is None:
                continue  # a lake is never entered, so never left
            dg.add_edge(u, v, weight=ent[j])
            dg.add_edge(v, u, weight=ent[i])
            succ[i].append(j)
            succ[j].append(i)
        #: the weighted directed graph: edge u -> v weighs entry(v) tokens
        self.digraph: nx.DiGraph = dg
        self._succ = tuple(tuple(sorted(s)) for s in succ)
        known = [c for c in self.entry if c is not None]
        #: the cheapest entry cost of any explorable cell (used by the A* heuristic)
        self.min_entry: int = min(known) if known else 0
        #: whether every edge joins two hex neighbours; when it does not (a hand-built
        #: graph), hex distance is no lower bound on the steps left, and A* counts
        #: steps in the graph instead (see :meth:`astar_trace`)
        self.hex_edges: bool = all(hexgrid.distance(u, v) == 1 for u, v in graph.edges())
        self._trees: dict[int, tuple] = {}
        self._turns: dict[tuple, tuple] = {}

    # ------------------------------------------------------------------ basics
    def __repr__(self) -> str:
        return f"<CostMap {len(self.cells)} cells, {self.digraph.number_of_edges()} directed edges>"

    def cell_index(self, cell) -> int:
        """Index of ``cell`` (axial tuple, or an index). Raises FieldError naming it."""
        return resolve_cell(self.cells, self.index, cell)

    def cell(self, cell) -> Axial:
        """The axial name of ``cell`` (axial or index)."""
        return self.cells[self.cell_index(cell)]

    def entry_cost(self, cell) -> int | None:
        """Tokens to enter ``cell``, ``None`` if it cannot be entered."""
        return self.entry[self.cell_index(cell)]

    def _describe(self, i: int) -> str:
        t = self.terrain[i]
        return f"{t} {self.cells[i]}" if t else str(self.cells[i])

    # ------------------------------------------------------------------ single source
    def _tree(self, s: int) -> tuple:
        """(dist, steps, parent) per index from source index ``s``; cached.

        Distances from :func:`networkx.single_source_dijkstra_path_length`; parents by
        the documented tie-break (fewest steps, then smallest index sequence)."""
        t = self._trees.get(s)
        if t is not None:
            return t
        n = len(self.cells)
        dist: list = [INF] * n
        idx = self.index
        for c, d in nx.single_source_dijkstra_path_length(self.digraph, self.cells[s], weight="weight").items():
            dist[idx[c]] = d
        steps: list = [None] * n
        parent = [-1] * n
        steps[s] = 0
        queue = deque((s,))
        succ, ent = self._succ, self.entry
        while queue:
            u = queue.popleft()
            du, su = dist[u], steps[u] + 1
            for v in succ[u]:
                if steps[v] is None and du + ent[v] == dist[v]:
                    steps[v] = su
                    parent[v] = u
                    queue.append(v)
        t = self._trees[s] = (tuple(dist), tuple(steps), tuple(parent))
        return t

    def costs_from(self, source) -> dict[Axial, float]:
        """Cheapest cost (tokens) from ``source`` to every cell, ``math.inf`` when
        unreachable; keys in cell-index order."""
        dist = self._tree(self.cell_index(source))[0]
        return dict(zip(self.cells, dist))

    def route(self, source, target, budget: int | None = None, player: int | None = None) -> Route:
        """The cheapest route from ``source`` to ``target`` (tie-break in the module
        docstring). With ``budget`` (tokens), a route costing more is "no route".
        Raises PathError for a budget that is not a whole number of tokens >= 0."""
        if budget is not None and (not is_integer(budget) or budget < 0):
            raise PathError(f"budget must be a whole number of tokens >= 0, got {budget!r}")
        s, t = self.cell_index(source), self.cell_index(target)
        src, dst = self.cells[s], self.cells[t]
        if s == t:
            return Route(src, dst, (src,), 0, (), player)
        if self.entry[t] is None:
            return Route(src, dst, (), INF, (), player,
                         f"{self._describe(t)} cannot be explored (rulebook: Game Field, Lake)")
        if self.entry[s] is None:
            return Route(src, dst, (), INF, (), player,
                         f"{self._describe(s)} cannot be explored, so no sensor starts there")
        dist, _, parent = self._tree(s)
        if dist[t] == INF:
            return Route(src, dst, (), INF, (), player,
                         f"lakes cut {self._describe(t)} off from {self._describe(s)}")
        if budget is not None and dist[t] > budget:
            return Route(src, dst, (), INF, (), player,
                         f"the cheapest route costs {dist[t]} tokens, more than the budget of {budget}")
        path = [t]
        while path[-1] != s:
            path.append(parent[path[-1]])
        path.reverse()
        return Route(src, dst, tuple(self.cells[i] for i in path), dist[t],
                     tuple(self.entry[i] for i in path[1:]), player)

    def reach(self, source, budget: int) -> dict[Axial, int]:
        """Cells reachable from ``source`` spending at most ``budget`` tokens, with
        their cost, in order of cost then cell index (the source itself costs 0)."""
        if not is_integer(budget) or budget < 0:
            raise PathError(f"budget must be a whole number of tokens >= 0, got {budget!r}")
        dist = self._tree(self.cell_index(source))[0]
        out = sorted((d, i) for i, d in enumerate(dist) if d <= budget)
        return {self.cells[i]: d for d, i in out}

    # ------------------------------------------------------------------ turns
    def _turn_search(self, s: int, first: int, per: int) -> tuple:
        """Label-setting search over (turn, tokens spent in that turn), lexicographic.

        Turn 0 has ``first`` tokens, every later turn ``per``. A step that does not fit
        in the current turn's remaining tokens starts the next turn (the sensor waits;
        rest restores every token). Cells costing more than ``per`` are never entered.
        Ties: fewest turns, then fewest tokens spent in the arrival turn, then the
        order in which cells leave the heap (lowest index first)."""
        key = (s, first, per)
        hit = self._turns.get(key)
        if hit is not None:
            return hit
        n = len(self.cells)
        label: list = [None] * n
        parent = [-1] * n
        label[s] = (0, 0)
        heap = [(0, 0, s)]
        done = [False] * n
        succ, ent = self._succ, self.entry
        while heap:
            t, u_spent, u = heapq.heappop(heap)
            if done[u]:
                continue
            done[u] = True
            cap = first if t == 0 else per
            for v in succ[u]:
                w = ent[v]
                if u_spent + w <= cap:
                    lab = (t, u_spent + w)
                elif w <= per:
                    lab = (t + 1, w)
                else:
                    continue
                if label[v] is None or lab < label[v]:
                    label[v] = lab
                    parent[v] = u
                    heapq.heappush(heap, (lab[0], lab[1], v))
        out = self._turns[key] = (tuple(label), tuple(parent))
        return out

    def turn_plan(self, source, target, first_budget: int, budget: int) -> TurnPlan:
        """Fewest turns from ``source`` to ``target`` with ``first_budget`` tokens this
        turn and ``budget`` tokens in every later turn (see :class:`TurnPlan`)."""
        for name, v in (("first_budget", first_budget), ("budget", budget)):
            if not is_integer(v) or v < 0:
                raise PathError(f"{name} must be a whole number of tokens >= 0, got {v!r}")
        s, t = self.cell_index(source), self.cell_index(target)
        src, dst = self.cells[s], self.cells[t]
        if s == t:
            return TurnPlan(src, dst, 0, (src,), (), (), first_budget, budget)
        label, parent = self._turn_search(s, first_budget, budget)
        if label[t] is None:
            why = (f"{self._describe(t)} cannot be explored" if self.entry[t] is None else
                   f"no route to {self._describe(t)} avoids lakes and cells costing more than {budget} tokens")
            return TurnPlan(src, dst, INF, (), (), (), first_budget, budget, why)
        path = [t]
        while path[-1] != s:
            path.append(parent[path[-1]])
        path.reverse()
        turns = label[t][0] + 1
        legs: list[list[Axial]] = [[] for _ in range(turns)]
        costs = [0] * turns
        for i in path[1:]:
            legs[label[i][0]].append(self.cells[i])
            costs[label[i][0]] += self.entry[i]
        return TurnPlan(src, dst, turns, tuple(self.cells[i] for i in path), tuple(map(tuple, legs)),
                        tuple(costs), first_budget, budget)

    def turns_from(self, source, first_budget: int, budget: int) -> dict[Axial, float]:
        """Turns needed to reach every cell (0 for the source, ``math.inf`` never)."""
        s = self.cell_index(source)
        label, _ = self._turn_search(s, first_budget, budget)
        return {c: (0 if i == s else (INF if label[i] is None else label[i][0] + 1)) for i, c in enumerate(self.cells)}

    # ------------------------------------------------------------------ tables
    def _labels(self):
        """The axial (q, r) MultiIndex of the cells (immutable, shared between maps)."""
        lab = _LABELS.get(self.cells)
        if lab is None:
            import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

            lab = _LABELS[self.cells] = pd.MultiIndex.from_tuples(self.cells, names=["q", "r"])
        return lab

    def table(self, source, first_budget: int | None = None, budget: int | None = None):
        """Cost from ``source`` to every cell as a DataFrame indexed by axial ``(q, r)``.

        Columns: ``index``, ``terrain``, ``entry`` (tokens to enter the cell), ``cost``
        (cheapest route from the source; ``<NA>`` unreachable), ``steps`` (explore
        actions on that route), ``previous`` (the cell before it on the route), and
        with budgets given, ``turns`` (see :meth:`turns_from`).
        """
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        s = self.cell_index(source)
        dist, steps, parent = self._tree(s)
        data = {
            "index": range(len(self.cells)),
            "terrain": self.terrain,
            "entry": _int_array(self.entry),
            "cost": _int_array(dist),
            "steps": _int_array(steps),
            "previous": [self.cells[p] if p >= 0 else None for p in parent],
        }
        if first_budget is not None and budget is not None:
            data["turns"] = _int_array(self.turns_from(s, first_budget, budget).values())
        df = pd.DataFrame(data, index=self._labels(), copy=False)
        df.attrs.update(source=self.cells[s], unit="exploration tokens")
        return df

    def matrix(self):
        """All-pairs cheapest costs: rows = from, columns = to, both labelled by axial
        ``(q, r)``; ``<NA>`` where unreachable (every row and column of a lake, except
        its own diagonal 0)."""
        import numpy as np  # lazy: numpy is heavy to import; only the table outputs need it
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        a = np.array([self._tree(s)[0] for s in range(len(self.cells))], dtype=float)
        mask = np.isinf(a)
        v = np.where(mask, 0, a).astype("int64")
        # one nullable-integer column per target cell (much faster than astype per column)
        df = pd.DataFrame(dict(enumerate(pd.arrays.IntegerArray(v[:, j].copy(), mask[:, j].copy())
                                         for j in range(len(self.cells)))), copy=False)
        df.index = df.columns = self._labels()
        df.attrs.update(unit="exploration tokens")
        return df

    # ------------------------------------------------------------------ teaching traces
    def dijkstra_trace(self, source, target=None) -> Iterator[SearchStep]:
        """Dijkstra's search as a generator of :class:`SearchStep` (see
        :func:`dijkstra_trace`)."""
        return self._trace("dijkstra", source, target, None)

    def astar_trace(self, source, target) -> Iterator[SearchStep]:
        """A* search to ``target`` with an admissible, consistent heuristic: the
        fewest steps left x the cheapest entry cost on this map (see
        :func:`astar_trace`). The fewest steps left is the hex distance when every edge
        joins hex neighbours (a game field), else the number of edges on the shortest
        walk to ``target`` in the graph (so a hand-built graph with long edges still
        gets the cheapest cost)."""
        t = self.cells[self.cell_index(target)]
        m = self.min_entry
        if self.hex_edges:
            return self._trace("astar", source, target, lambda c: hexgrid.distance(c, t) * m)
        hops = nx.single_source_shortest_path_length(self.digraph.reverse(copy=False), t)
        return self._trace("astar", source, target, lambda c: hops.get(c, 0) * m)

    def _trace(self, algorithm, source, target, h) -> Iterator[SearchStep]:
        s = self.cell_index(source)
        t = None if target is None else self.cell_index(target)
        return self._trace_gen(algorithm, s, t, h)

    def _trace_gen(self, algorithm, s, t, h) -> Iterator[SearchStep]:
        cells, succ, ent = self.cells, self._succ, self.entry
        hh = (lambda i: 0) if h is None else (lambda i: h(cells[i]))
        g: dict[int, int] = {s: 0}
        parent: dict[int, int] = {}
        settled: list[int] = []
        closed = set()
        heap = [(hh(s), s)]
        number = 0

        def snapshot(current, done, cost=None):
            front = sorted(((g[i] + hh(i), i) for i in g if i not in closed))
            return SearchStep(
                algorithm, number, None if current is None else cells[current],
                tuple((cells[i], f) for f, i in front), tuple(cells[i] for i in settled),
                MappingProxyType({cells[i]: d for i, d in g.items()}),
                MappingProxyType({cells[i]: cells[p] for i, p in parent.items()}), done, cost)

        if self.entry[s] is None:
            # a sensor never stands on a lake: nothing to explore from here
            yield snapshot(None, True, 0 if t == s else INF if t is not None else None)
            return
        yield snapshot(None, False)
        while heap:
            f, u = heapq.heappop(heap)
            if u in closed or f != g[u] + hh(u):
                continue  # a stale heap entry
            closed.add(u)
            settled.append(u)
            number += 1
            if u == t:
                yield snapshot(u, True, g[u])
                return
            for v in succ[u]:
                if v in closed:
                    continue
                nd = g[u] + ent[v]
                if v not in g or nd < g[v]:
                    g[v] = nd
                    parent[v] = u
                    heapq.heappush(heap, (nd + hh(v), v))
            if not heap or all(i in closed for _, i in heap):
                yield snapshot(u, True, INF if t is not None else None)
                return
            yield snapshot(u, False)


def _int_array(values):
    """A pandas nullable-integer array; ``None`` and ``math.inf`` become ``<NA>``."""
    import numpy as np  # lazy: numpy is heavy to import; only the table outputs need it
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    vals = [0 if (v is None or v == INF) else v for v in values]
    mask = [v is None or v == INF for v in values]
    return pd.arrays.IntegerArray(np.array(vals, dtype="int64"), np.array(mask, dtype=bool))


# ============================================================================ building maps from the rules

_MAPS: OrderedDict = OrderedDict()
_LABELS: dict = {}
_MAX_MAPS = 256


def _map_for(field, entry: tuple) -> CostMap:
    """The cost map of ``field`` with these entry costs, cached by (field, entry)."""
    key = (field, entry)
    m = _MAPS.get(key)
    if m is not None:
        _MAPS.move_to_end(key)
        return m
    m = CostMap(field.graph, entry, field.cells, field=field)
    _MAPS[key] = m
    if len(_MAPS) > _MAX_MAPS:
        _MAPS.popitem(last=False)
    return m


def clear_cache() -> None:
    """Forget every cached cost map (for benchmarks measuring cold figures)."""
    _MAPS.clear()


def _check_state(state) -> None:
    if not isinstance(state, State):
        raise PathError(f"expected a game State, got {type(state).__name__}")
    if state.field is None:
        raise PathError("the field is not drawn yet (the state is still in setup)")


def _player(state: State, player) -> int:
    if player is None:
        p = state.current_player()
        if p is None:
            raise PathError("no player is to move in this state; name the player (0-based index)")
        return p
    n = state.config.players
    if not is_integer(player) or not 0 <= player < n:
        raise PathError(f"player {player!r} does not exist: this game has players 0..{n - 1} (P1..P{n})")
    return player


def _entries(ctx, n: int, learned: int, ghosts) -> tuple:
    # the one cost rule, asked once per cell (principle 7)
    cost = rules.entry_cost
    return tuple(cost(ctx, i, learned, bool(ghosts[i])) for i in range(n))


def cost_map(state: State, player: int | None = None) -> CostMap:
    """The :class:`CostMap` of ``player`` (0-based; default the player to move) in
    ``state``: every cell's entry cost from :func:`haunted_kit.haunted.rules.entry_cost` with the
    player's learned skills, the ghosts on the field and the ghost cards in play.

    Raises:
        PathError: no such player, or the field is not drawn yet.
    """
    _check_state(state)
    p = _player(state, player)
    f = state.field
    return _map_for(f, _entries(rules.ctx_of(state), len(f.cells), state.learned[p], state.ghosts))


def field_cost_map(field, config=None, *, skills: Iterable[int] = (), ghosts: Iterable = ()) -> CostMap:
    """The cost map of a field without a game (e.g. from :func:`haunted_kit.build_field`).

    Args:
        field: a :class:`~haunted_kit.haunted.board.Field`, or a layout (6 tile ids).
        config: a :class:`~haunted_kit.haunted.state.GameConfig` (ghost cards in play); default
            wanderer mode.
        skills: skill numbers learned (e.g. ``(4, 5)``).
        ghosts: cells holding a ghost (axial or index).
    """
    if not isinstance(field, Field):
        field = build_field(tuple(field), config.box if config is not None else None)
    config = config or GameConfig(box=field.box)
    mask = 0
    for k in skills:
        if k not in config.box.skills:
            raise PathError(f"skill {k!r} does not exist (skills: {', '.join(map(str, config.box.skills))})")
        mask |= 1 << k
    g = [0] * len(field.cells)
    for c in ghosts:
        g[field.cell_index(c)] = 1
    return _map_for(field, _entries(rules.Ctx.get(config, field), len(field.cells), mask, g))


# ============================================================================ state-level functions


def entry_cost_of(state: State, player: int, cell) -> int | None:
    """Tokens ``player`` pays now to enter ``cell`` (axial or index), ``None`` if it
    cannot be explored. This is :func:`haunted_kit.haunted.rules.explore_cost`, with the cell and
    player checked. Rulebook: "Game Field" (costs), skills 4-5, ghost card 3."""
    _check_state(state)
    p = _player(state, player)
    return rules.explore_cost(state, p, state.field.cell_index(cell))


def _source(state: State, p: int, source) -> int:
    return state.sensor[p] if source is None else state.field.cell_index(source)


def cheapest_path(state: State, player: int | None, target, source=None, budget: int | None = None) -> Route:
    """Cheapest route for ``player`` from ``source`` (default: the player's sensor) to
    ``target``. Ties: fewest steps, then the smallest sequence of cell indexes.

    Returns:
        :class:`Route`; ``found`` is False (cost ``math.inf``) for a lake, a target cut
        off by lakes, or a cost above ``budget``.

    Raises:
        FieldError: unknown cell (named). PathError: unknown player (named).
    """
    m = cost_map(state, player)
    p = _player(state, player)
    return m.route(_source(state, p, source), target, budget, player=p)


def reach(state: State, player: int | None = None, tokens: int | None = None, source=None) -> dict[Axial, int]:
    """Cells ``player``'s sensor can reach with ``tokens`` (default: the active
    exploration tokens now, i.e. this turn), with their cost, cheapest first."""
    m = cost_map(state, player)
    p = _player(state, player)
    if tokens is None:
        tokens = state.tokens(p, EXPLORATION, active=True)
    return m.reach(_source(state, p, source), tokens)


def _budgets(state, p, first_budget, budget):
    if first_budget is None:
        first_budget = state.tokens(p, EXPLORATION, active=True)
    if budget is None:
        budget = state.tokens(p, EXPLORATION)
    return first_budget, budget


def turn_plan(state: State, player: int | None, target, source=None, first_budget: int | None = None,
              budget: int | None = None) -> TurnPlan:
    """Fewest turns for ``player`` to reach ``target``: this turn with the active
    exploration tokens (``first_budget``), every later turn with all owned tokens
    (``budget``; rest restores them: rulebook "Game Flow", rest). Assumes the ghosts
    stay where they are and the player trains no new token meanwhile."""
    m = cost_map(state, player)
    p = _player(state, player)
    fb, b = _budgets(state, p, first_budget, budget)
    return m.turn_plan(_source(state, p, source), target, fb, b)


def turns_needed(state: State, player: int | None, target, source=None, first_budget: int | None = None,
                 budget: int | None = None) -> float:
    """Number of turns (see :func:`turn_plan`): 0 if already there, ``math.inf`` never."""
    return turn_plan(state, player, target, source, first_budget, budget).turns


def cost_table(state: State, player: int | None = None, source=None):
    """DataFrame: cost from ``source`` (default the player's sensor) to every cell,
    with the turns needed (see :meth:`CostMap.table`)."""
    m = cost_map(state, player)
    p = _player(state, player)
    fb, b = _budgets(state, p, None, None)
    return m.table(_source(state, p, source), fb, b)


def all_pairs_table(state: State, player: int | None = None):
    """DataFrame: 49 x 49 cheapest costs for ``player`` (see :meth:`CostMap.matrix`)."""
    return cost_map(state, player).matrix()


def _city(m: CostMap) -> int:
    return m.field.kalena[0] if m.field is not None else 0


def _nearest(m: CostMap, s: int) -> dict[str, tuple]:
    """terrain -> (cost, cell index) of the cheapest cell of that terrain from ``s``
    (ties: lowest index)."""
    dist = m._tree(s)[0]
    best: dict[str, tuple] = {}
    for i, t in enumerate(m.terrain):
        cand = (dist[i], i)
        if t not in best or cand < best[t]:
            best[t] = cand
    return best


def terrain_table(state: State, player: int | None = None, source=None):
    """Tokens needed from ``source`` (default: the city) to the nearest cell of each
    terrain type: DataFrame indexed by terrain with ``tokens`` (``<NA>`` for lakes,
    which are never entered), ``cell`` (the nearest one; ties to the lowest index),
    ``steps`` and ``route``."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    m = cost_map(state, player)
    p = _player(state, player)
    s = _city(m) if source is None else state.field.cell_index(source)
    rows = []
    for t, (d, i) in _nearest(m, s).items():
        r = m.route(s, i, player=p)
        rows.append({"terrain": t, "tokens": None if d == INF else d, "cell": m.cells[i] if r.found else None,
                     "steps": r.steps, "route": " -> ".join(map(str, r.cells)) if r.found else r.reason})
    order = list(state.config.box.terrains)
    rows.sort(key=lambda row: order.index(row["terrain"]) if row["terrain"] in order else len(order))
    df = pd.DataFrame(rows).set_index("terrain")
    df["tokens"] = df["tokens"].astype("Int64")
    df["steps"] = df["steps"].astype("Int64")
    df.attrs.update(source=m.cells[s], unit="exploration tokens")
    return df


# ============================================================================ what if


def what_if(state: State, player: int | None = None, *, skills: Iterable[int] | None = None,
            ghost_card_3: bool | None = None) -> State:
    """A copy of ``state`` that differs only in what the exploration rule reads.

    Args:
        skills: if given, ``player`` has learned exactly these of the cost skills
            (the skills whose property changes exploration: 4 and 5 in the reference
            box) and keeps every other skill as it is.
        ghost_card_3: if given, ghost card 3 is (True) or is not (False) in play. When
            removing it would leave no ghost card (Citizen mode alone), the copy plays
            with ghost card 1 instead, which does not touch exploration.

    The copy goes through the same :func:`haunted_kit.haunted.rules.entry_cost` as any state;
    it is for analysis, not for playing on.
    """
    _check_state(state)
    p = _player(state, player)
    s2 = state.copy(keep_log=False)
    box = state.config.box
    cost_skills = _cost_skills(box)
    if skills is not None:
        want = set(skills)
        for k in want:
            if k not in box.skills:
                raise PathError(f"skill {k!r} does not exist (skills: {', '.join(map(str, box.skills))})")
        known = (set(s2.skills_known(p)) - set(cost_skills)) | want
        s2.set_skills_known(p, known)
    if ghost_card_3 is not None:
        card3 = next(n for n, g in box.ghost_cards.items() if g.effect == "costly_ghost_cells")
        cards = [c for c in state.config.ghost_cards if c != card3]
        if ghost_card_3:
            cards.append(card3)
        if not cards:
            cards = [next(iter(box.ghost_cards))]
        s2.config = _config_with_cards(state.config, cards)
        if getattr(s2, "_ctx", None) is not None:
            s2._ctx = None  # the state's cached rule tables belong to the old config
    s2._legal = None
    return s2


def _config_with_cards(config, cards):
    """A config whose ghost cards in play are exactly ``cards`` (mode chosen to match)."""
    box = config.box
    modes = [config.mode] + [m for m in box.modes if m != config.mode]
    mode = next(m for m in modes if box.modes[m].ghost_card in cards) if any(
        box.modes[m].ghost_card in cards for m in modes) else config.mode
    extra = tuple(c for c in cards if c != box.modes[mode].ghost_card)
    return dataclasses.replace(config, mode=mode, extra_ghost_cards=extra)


# ============================================================================ comparison and distribution

#: terrain types reported by the comparison figures (from the reference box's names)
_FIGURE_TERRAINS = ("plain", "forest", "mountain")


def _figures(m: CostMap, s: int, tokens: int) -> dict:
    """The comparison figures of one map from source index ``s`` (tokens)."""
    dist = m._tree(s)[0]
    near = _nearest(m, s)
    row = {}
    for t in _FIGURE_TERRAINS:
        d = near.get(t, (INF,))[0]
        row[f"to {t}"] = None if d == INF else d
    explorable = [d for i, d in enumerate(dist) if m.entry[i] is not None and i != s]
    finite = [d for d in explorable if d != INF]
    row["mean cost"] = round(sum(finite) / len(finite), 3) if finite else None
    row["max cost"] = max(finite) if finite else None
    row[f"cells within {tokens}"] = len(m.reach(m.cells[s], tokens))  # as reach counts: the source included
    return row


#: skill properties that change what exploring costs (data/skills.toml effect names)
_COST_EFFECTS = ("cheaper_forest", "cheaper_mountain")


def _cost_skills(box) -> list[int]:
    """Numbers of the skills whose property changes exploration costs (4 and 5)."""
    return sorted(n for n, sk in box.skills.items() if sk.effect in _COST_EFFECTS)


def _skill_sets(box) -> list[tuple[str, tuple[int, ...]]]:
    """("none", ()), ("4", (4,)), ("5", (5,)), ("4+5", (4, 5)) for the reference box."""
    ks = _cost_skills(box)
    out = [("none", ())]
    for r in range(1, len(ks) + 1):
        for combo in combinations(ks, r):
            out.append(("+".join(map(str, combo)), combo))
    return out


def compare_rules(state: State, player: int | None = None, source=None, tokens: int | None = None):
    """The same map with and without skills 4/5 and ghost card 3.

    One row per combination (skills none / 4 / 5 / 4+5) x (ghost card 3 off / on), with
    the ghosts where they are in ``state``. Columns: tokens from ``source`` (default the
    city) to the nearest plain, forest and mountain; mean and max cost over every
    explorable cell; how many cells are within ``tokens`` (default the player's owned
    exploration tokens), counted by :func:`reach` (the source included). All through
    :func:`what_if` and the one cost rule.
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    _check_state(state)
    p = _player(state, player)
    s = state.field.kalena[0] if source is None else state.field.cell_index(source)
    if tokens is None:
        tokens = state.tokens(p, EXPLORATION)
    rows, keys = [], []
    for name, sk in _skill_sets(state.config.box):
        for card in (False, True):
            m = cost_map(what_if(state, p, skills=sk, ghost_card_3=card), p)
            rows.append(_figures(m, s, tokens))
            keys.append((name, card))
    df = pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(keys, names=["skills", "ghost card 3"]))
    for c in df.columns:
        if c != "mean cost":
            df[c] = df[c].astype("Int64")
    df.attrs.update(source=state.field.cells[s], ghosts=sum(state.ghosts), unit="exploration tokens")
    return df


def first_turn_state(seed: int, players: int = 4, mode: str = "wanderer") -> State:
    """A new game at its first turn: the first spread's ghost placements are chosen by
    a random player seeded with ``seed`` (so card 3 has ghosts to act on)."""
    s = new_game(players=players, mode=mode, seed=seed, log=False)
    rng = random.Random(seed)
    while s.phase != "turns" and s.phase != "over":
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def seeded_maps(n: int = 100, start: int = 0, players: int = 4, progress: bool = False):
    """The comparison figures over ``n`` seeded maps (seeds ``start .. start+n-1``).

    Each seed draws its own layout (``new_game(seed=k)``) and plays the first spread
    (:func:`first_turn_state`); the figures are those of :func:`compare_rules` from the
    city with the starting exploration tokens (4), for the first player to move. One row
    per (seed, skills, ghost card 3) with the seed's ``layout``. ``progress`` shows a
    progress bar (:func:`haunted_kit.progress.progress`).
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    if not is_integer(n) or n < 1:
        raise PathError(f"n must be a positive number of maps, got {n!r}")
    seeds = range(start, start + n)
    if progress:
        seeds = bar(seeds, desc="maps")
    frames = []
    names: list[str] = []
    for k in seeds:
        s = first_turn_state(k, players)
        p = s.current_player()
        df = compare_rules(s, p).reset_index()  # tokens: the exploration tokens owned at the start
        names = names or list(dict.fromkeys(df["skills"]))
        df.insert(0, "layout", " ".join(s.layout))
        df.insert(0, "seed", k)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    out["skills"] = pd.Categorical(out["skills"], categories=names, ordered=True)
    return out


# ============================================================================ teaching traces


def dijkstra_trace(state: State, player: int | None = None, source=None, target=None) -> Iterator[SearchStep]:
    """Dijkstra's algorithm, one :class:`SearchStep` per settled cell.

    Starts at ``source`` (default: the player's sensor); stops when ``target`` is
    settled (its ``cost`` then equals :func:`cheapest_path`'s), or after settling every
    reachable cell when ``target`` is None. Frontier ties: lowest cell index first.
    """
    m = cost_map(state, player)
    p = _player(state, player)
    if target is not None:
        m.cell_index(target)
    return m.dijkstra_trace(_source(state, p, source), target)


def astar_trace(state: State, player: int | None, target, source=None) -> Iterator[SearchStep]:
    """A* towards ``target``: priority = cost so far + hex distance x the cheapest entry
    cost on the map. That heuristic never overestimates (every step enters a cell that
    costs at least that much) and is consistent, so A* settles the target at the same
    cost as Dijkstra while usually settling fewer cells. (On a hand-built
    :class:`CostMap` whose edges join cells that are not hex neighbours, the steps left
    are counted in the graph instead; see :meth:`CostMap.astar_trace`.)"""
    m = cost_map(state, player)
    p = _player(state, player)
    m.cell_index(target)
    return m.astar_trace(_source(state, p, source), target)


# ============================================================================ from plan to play


def path_to_actions(path) -> list[Explore]:
    """The explore actions that walk ``path`` (a :class:`Route` or a sequence of axial
    cells, source first): one ``Explore(cell)`` per cell after the source."""
    cells = path.cells if isinstance(path, Route) else tuple(path)
    if isinstance(path, Route) and not path.found:
        raise PathError(f"there is no route to play: {path}")
    return [Explore(tuple(c)) for c in cells[1:]]


def play_path(state: State, path, *, inplace: bool = False) -> PlayResult:
    """Play ``path`` (a :class:`Route` or cells, source first) in the engine for the
    player to move, and check that the engine charged exactly the predicted tokens
    and left the sensor on the target.

    The prediction is the route's cost for that player in ``state`` (computed by
    :func:`cost_map`, i.e. by the same rule the engine charges with). Works on a copy
    unless ``inplace``.

    Raises:
        PathError: not a turn, the route does not start at the sensor, it needs more
            tokens than are active, or (never expected) the engine disagreed.
        IllegalAction: an explore the engine refuses (its reason is attached).
    """
    _check_state(state)
    if state.phase != "turns" or state.current_player() is None or state.pending:
        raise PathError(f"a route is played during a player's turn; the game is in phase {state.phase!r}")
    p = state.current_player()
    if isinstance(path, Route) and path.player is not None and path.player != p:
        raise PathError(f"the route was planned for P{path.player + 1} but P{p + 1} is to move")
    actions = path_to_actions(path)
    cells = path.cells if isinstance(path, Route) else tuple(tuple(c) for c in path)
    f = state.field
    idx = [f.cell_index(c) for c in cells]
    if idx and idx[0] != state.sensor[p]:
        raise PathError(f"the route starts at {f.cells[idx[0]]} but P{p + 1}'s sensor is at {f.cells[state.sensor[p]]}")
    m = cost_map(state, p)
    predicted = 0
    for a, b in zip(idx, idx[1:]):
        if b not in m._succ[a]:
            raise PathError(f"{f.cells[b]} cannot be entered from {f.cells[a]} (not adjacent, or a lake)")
        predicted += m.entry[b]
    have = state.tokens(p, EXPLORATION, active=True)
    if predicted > have:
        raise PathError(f"the route costs {predicted} tokens but P{p + 1} has {have} active")
    s = state if inplace else state.copy()
    had_log = s.log is not None
    if not had_log:
        s.log = []  # the engine's own account of what it charged
    start = len(s.log)
    when = (s.season, s.round, s.turn_pos)
    act_before = s.tokens(p, EXPLORATION, active=True)
    for a in actions:
        s.apply_action(a)
    spent = sum(e.data.get("cost", 0) for e in s.log[start:] if e.kind == "explored" and e.player == p)
    still_turn = (s.season, s.round, s.turn_pos) == when
    if not had_log:
        s.log = None
    if spent != predicted or s.sensor[p] != idx[-1] or (still_turn and act_before - s.tokens(p, EXPLORATION, active=True) != predicted):
        raise PathError(f"the engine charged {spent} tokens and left the sensor at {f.cells[s.sensor[p]]}; "
                        f"the analysis predicted {predicted} tokens ending at {f.cells[idx[-1]]}")
    return PlayResult(s, predicted, spent, f.cells[s.sensor[p]], tuple(actions))
