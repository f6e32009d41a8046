"""The land board as a networkx graph and the one connection rule of the estate
(the markers' "continuous line", ruling E6). No game flow here: the
rules, the save checks and the analysis all ask these functions."""

from __future__ import annotations

from functools import lru_cache

import networkx as nx

from .. import hexgrid


@lru_cache(maxsize=16)
def slot_name(slot) -> str:
    """A land slot in words as the land board writes it: ``(0, 2)`` -> ``"slot 0,2"``."""
    return f"slot {hexgrid.cell_name(slot)}"


def slots_named(slots) -> str:
    """Several slots as the board writes them: ``[(-2, 2), (0, 2)]`` -> ``"slots -2,2; 0,2"``
    (one: ``"slot 0,2"``; none: ``"no slot"``)."""
    slots = list(slots)
    if not slots:
        return "no slot"
    return f"slot{'s' if len(slots) != 1 else ''} " + "; ".join(hexgrid.cell_name(x) for x in slots)


def _land_graph(slots: tuple) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(slots)
    for s in slots:
        for n in hexgrid.neighbours(s):
            if n in g:
                g.add_edge(s, n)
    return nx.freeze(g)


def land_graph(box) -> nx.Graph:
    """The land board as a networkx graph: a node per slot (axial), an edge between
    touching slots. Frozen; shared by every game with this box."""
    return _land_graph(box.slots)


@lru_cache(maxsize=16)
def _touching(slots: tuple) -> dict:
    g = _land_graph(slots)
    return {s: frozenset(g.neighbors(s)) for s in slots}


_BY_BOX: dict = {}  # id(box) -> BoardTables; the box is kept, so its id is never reused meanwhile
_LISTS_KEPT = 4096  # slot lists kept per box (BoardTables.lists), then started afresh


class BoardTables:
    """The land board's tables of one box, made once per box (read only).

    Attributes:
        box: the box (kept, so the key ``id(box)`` is not reused).
        touching: ``{slot: frozenset of the slots it touches}``.
        order: ``{slot: its index in box.slots}`` (board order).
        bit: ``{slot: 1 << its index}``: a set of slots is an int, bit *i* for ``box.slots[i]``.
        near: ``{slot: the bits of the slots it touches}``.
        lower: the bits of the lower area's slots (where a first marker goes).
        lists: ``{bits: [the slots, in board order]}``, filled by :func:`slots_of` (read-only lists).
    """

    __slots__ = ("box", "touching", "order", "bit", "near", "lower", "lists")

    def __init__(self, box):
        self.box = box
        self.touching = _touching(box.slots)
        self.order = {s: i for i, s in enumerate(box.slots)}
        self.bit = {s: 1 << i for i, s in enumerate(box.slots)}
        self.near = {s: sum(self.bit[n] for n in self.touching[s]) for s in box.slots}
        self.lower = sum(self.bit[s] for s in set(box.lower_area) if s in self.bit)
        self.lists = {}


def board_tables(box) -> BoardTables:
    """The :class:`BoardTables` of ``box``, looked up by the box (no hashing of its slot tuple per call)."""
    hit = _BY_BOX.get(id(box))
    if hit is None or hit.box is not box:
        if len(_BY_BOX) >= 64:  # many boxes loaded (house rules, fuzzing): started afresh, memory stays flat
            _BY_BOX.clear()
        hit = _BY_BOX[id(box)] = BoardTables(box)
    return hit


def touching(box) -> dict:
    """``{slot: frozenset of the slots it touches}`` over the land board (the edges of
    :func:`land_graph` as plain sets, for the hot path of the legal actions; looked up
    by the box, made once per box)."""
    return board_tables(box).touching


def slot_order(box) -> dict:
    """``{slot: its index in box.slots}`` (board order), made once per box."""
    return board_tables(box).order


def slots_of(tables: BoardTables, bits: int) -> list:
    """The slots of ``bits`` (bit *i* = ``box.slots[i]``, see :class:`BoardTables`) in board
    order: a shared list, read only (kept per box; the same bits give the same list)."""
    found = tables.lists.get(bits)
    if found is None:
        lists = tables.lists
        if len(lists) >= _LISTS_KEPT:
            lists.clear()
        found = lists[bits] = [s for s, b in tables.bit.items() if bits & b]
    return found


def _has_line(g: nx.Graph, nodes: list) -> bool:
    """Whether ``nodes`` can be ordered so each touches the next (a Hamiltonian path)."""
    nodes = list(nodes)
    if len(nodes) <= 2:
        return len(nodes) < 2 or g.has_edge(nodes[0], nodes[1])
    sub = g.subgraph(nodes)
    if not nx.is_connected(sub):
        return False
    target = len(nodes)

    def extend(path, seen):
        if len(path) == target:
            return True
        for n in sub.neighbors(path[-1]):
            if n not in seen:
                seen.add(n)
                path.append(n)
                if extend(path, seen):
                    return True
                path.pop()
                seen.discard(n)
        return False

    ends = [n for n in nodes if sub.degree(n) == 1]
    if len(ends) > 2:
        return False
    starts = ends or nodes
    return any(extend([s], {s}) for s in starts)


def estate_connected(box, slots, connection: str = "group") -> bool:
    """Whether a player's marked ``slots`` make the "continuous line" the estate rule asks
    of land markers: ``"group"`` = one connected group (networkx ``is_connected``),
    ``"line"`` = orderable so each touches the next. Empty counts as connected."""
    slots = list(slots)
    if not slots:
        return True
    g = land_graph(box)
    if connection == "line":
        return _has_line(g, slots)
    return nx.is_connected(g.subgraph(slots))
