"""The estate module's action vocabulary: every choice a player makes.

Actions are frozen dataclasses with a ``describe()`` sentence and a JSON form
(:func:`action_to_dict` / :func:`action_from_dict`). Amounts are in units of a
resource (gold in gold). A Market trade names its row of the Market table and the
exact resources given and taken, as sorted ``(resource, amount)`` pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..protocol import is_integer, strict_equality
from ..hexgrid import cell_name

Slot = tuple[int, int]
Amounts = tuple[tuple[str, int], ...]


def amounts_text(amounts: Amounts) -> str:
    """``(("wood", 1), ("limestone", 2))`` -> ``"1 wood and 2 limestone"`` (``"nothing"`` when empty)."""
    parts = []
    for r, n in amounts:
        word = r if r != "workers" or n != 1 else "worker"
        parts.append(f"{n} {word}")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True, slots=True)
class TakeMaterial:
    """Place a worker in the Raw Materials Factory and take ``amount`` of ``material``."""

    material: str
    amount: int

    def describe(self) -> str:
        return f"take {self.amount} {self.material} at the Raw Materials Factory"


@dataclass(frozen=True, slots=True)
class TakeGold:
    """Advance the gold marker: take ``amount`` gold of this season's gold income (no worker)."""

    amount: int

    def describe(self) -> str:
        return f"take {self.amount} gold of your gold income"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Pay the tile price, take a ``tile`` of the display and place it on ``slot`` with your marker."""

    tile: str
    slot: Slot

    def describe(self) -> str:
        return f"place a {self.tile.replace('_', ' ')} on land slot {cell_name(self.slot)}"

    def describe_at(self, state) -> str:
        """In words at ``state``, with what the tile gives and costs (Expand the lands): ``"place
        a forest (+1 wood income) on land slot 0,2 for 3 gold"``, and a white-dotted slot's
        Market-condition token (ruling E13)."""
        try:
            box = state.box
            tile = box.tiles[self.tile]
        except (AttributeError, KeyError, TypeError):
            return self.describe()
        dotted = (", a white-dotted land: a Market-condition token" if tuple(self.slot) in box.white_dotted else "")
        return f"place a {tile.word} ({tile.gives}) on land slot {cell_name(self.slot)} for {box.tile_price} gold{dotted}"


@dataclass(frozen=True, slots=True)
class Join:
    """Put your marker on another player's tile at ``slot`` (paying its owner the join fee)."""

    slot: Slot

    def describe(self) -> str:
        return f"join the land on slot {cell_name(self.slot)}"

    def describe_at(self, state) -> str:
        """In words at ``state``: whose tile, what it gives the joiner and the fee to its owner
        (Expand the lands; rulings E8, E16): ``"join P2's forest on land slot 0,2 (+1 wood
        income; 1 gold to P2)"``."""
        try:
            box, land = state.box, state.lands[tuple(self.slot)]
            tile = box.tiles[land["tile"]]
        except (AttributeError, KeyError, TypeError):
            return self.describe()
        owner = f"P{land['owner'] + 1}"
        full = tile.spaces and len(land["raised"]) >= tile.spaces
        gives = f"no income: its {tile.spaces} spaces are taken" if full else tile.gives
        return (f"join {owner}'s {tile.word} on land slot {cell_name(self.slot)} ({gives}; "
                f"{box.join_fee(len(land['markers']))} gold to {owner})")


@dataclass(frozen=True, slots=True)
class RemoveTile:
    """After taking a white-dotted slot: remove a ``tile`` of the display from the game."""

    tile: str

    def describe(self) -> str:
        return f"remove a {self.tile.replace('_', ' ')} of the display from the game"

    def describe_at(self, state) -> str:
        """In words at ``state``, with what that tile would give whoever took it: ``"remove a
        forest (+1 wood income) of the display from the game"`` (ruling E13)."""
        try:
            tile = state.box.tiles[self.tile]
        except (AttributeError, KeyError, TypeError):
            return self.describe()
        return f"remove a {tile.word} ({tile.gives}) of the display from the game"


@dataclass(frozen=True, slots=True)
class VisitMarket:
    """Go to the Market (once a season) to take its actions."""

    def describe(self) -> str:
        return "visit the Market"


@dataclass(frozen=True, slots=True)
class Trade:
    """Take the Market action ``action`` (a row of the table) giving ``give`` and getting ``take``."""

    action: str
    give: Amounts = ()
    take: Amounts = ()

    def describe(self) -> str:
        what = self.action.replace("_", " ")
        if not self.give:
            return f"Market, {what}: pay the marked price and get {amounts_text(self.take)}"
        return f"Market, {what}: give {amounts_text(self.give)} and get {amounts_text(self.take)}"


@dataclass(frozen=True, slots=True)
class EndVisit:
    """Leave the Market before using every action the visit allows."""

    def describe(self) -> str:
        return "leave the Market"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: take no more actions this season."""

    def describe(self) -> str:
        return "pass for the rest of the season"


@dataclass(frozen=True, slots=True)
class InnReturn:
    """After the season: pay the Inn price to bring one worker back from the Inn."""

    def describe(self) -> str:
        return "pay to bring one worker back from the Inn"


@dataclass(frozen=True, slots=True)
class InnDecline:
    """After the season: leave the workers in the Inn."""

    def describe(self) -> str:
        return "leave your workers in the Inn"


ACTION_TYPES = {c.__name__: c for c in (TakeMaterial, TakeGold, PlaceTile, Join, RemoveTile, VisitMarket, Trade,
                                        EndVisit, Pass, InnReturn, InnDecline)}
for _action_type in ACTION_TYPES.values():  # Learn(1.0) != Learn(1): membership agrees with legality
    strict_equality(_action_type)


def action_to_dict(action) -> dict:
    """JSON form: ``{"type": name, field: value...}`` (slots and amounts as lists)."""
    d = {"type": type(action).__name__}
    for f in fields(action):
        v = getattr(action, f.name)
        if isinstance(v, tuple):
            v = [list(x) if isinstance(x, tuple) else x for x in v]
        d[f.name] = v
    return d


def _int(v, what):
    if not is_integer(v):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return v


def _amounts(v, what) -> Amounts:
    if not isinstance(v, (list, tuple)):
        raise ValueError(f"{what} must be a list of [resource, amount] pairs, got {v!r}")
    out = []
    for x in v:
        if not (isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[0], str)):
            raise ValueError(f"{what} must list [resource, amount] pairs, got {x!r}")
        out.append((x[0], _int(x[1], what)))
    return tuple(sorted(out))


def action_from_dict(d) -> object:
    """An action from its JSON form. Raises ValueError naming the problem."""
    if not isinstance(d, dict):
        raise ValueError(f"an action must be a JSON object, got {d!r}")
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action type {d.get('type')!r} (known: {', '.join(ACTION_TYPES)})")
    names = [f.name for f in fields(cls)]
    extra = set(d) - set(names) - {"type"}
    if extra:
        raise ValueError(f"{cls.__name__} has no field {sorted(extra)[0]!r}")
    kw = {}
    for n in names:
        if n not in d and cls is Trade and n in ("give", "take"):
            continue
        if n not in d:
            raise ValueError(f"{cls.__name__} needs field {n!r}")
        v = d[n]
        if n in ("material", "tile", "action"):
            if not isinstance(v, str):
                raise ValueError(f"{cls.__name__}.{n} must be a string, got {v!r}")
        elif n == "amount":
            v = _int(v, f"{cls.__name__}.amount")
        elif n == "slot":
            if not (isinstance(v, (list, tuple)) and len(v) == 2):
                raise ValueError(f"{cls.__name__}.slot must be a [q, r] pair, got {v!r}")
            v = (_int(v[0], "slot q"), _int(v[1], "slot r"))
        elif n in ("give", "take"):
            v = _amounts(v, f"Trade.{n}")
        kw[n] = v
    return cls(**kw)


class ActionTable:
    """The one object of each action a game with ``box`` can offer (interned), so that
    :func:`~haunted_kit.estate.engine.legal_actions`, the integer encoding and the
    search's trees hand the same objects around: a dict lookup or a membership test then
    matches by identity and never runs the strict ``__eq__``. Built once per box
    (:func:`action_table`); its actions hold plain ints and ``(q, r)`` tuples, as ``apply_action``
    records them.

    Attributes: ``PASS``, ``VISIT``, ``END_VISIT``, ``INN_RETURN``, ``INN_DECLINE``;
    ``take[material]`` and ``gold`` (lists, index ``k`` is the take of ``k + 1`` units,
    grown on demand by :meth:`takes` and :meth:`golds`); ``place[tile][slot]``,
    ``join[slot]``, ``remove[tile]``; ``trades[row]`` (one per option of the Market row,
    in the row's order; the box gives its pairs sorted, as the record holds them);
    ``trade_memo`` (the engine's legal trades by what they depend on).
    """

    def __init__(self, box):
        self.PASS, self.VISIT, self.END_VISIT = Pass(), VisitMarket(), EndVisit()
        self.INN_RETURN, self.INN_DECLINE = InnReturn(), InnDecline()
        self.take = {m: [] for m in box.factory_resources}
        self.gold: list = []
        self.place = {t: {slot: PlaceTile(t, slot) for slot in box.slots} for t in box.tiles}
        self.join = {slot: Join(slot) for slot in box.slots}
        self.remove = {t: RemoveTile(t) for t in box.tiles}
        self.trades = {a: [Trade(a, give, take) for give, take in row.options] for a, row in box.market.items()}
        #: the legal trades found so far (:func:`~haunted_kit.estate.engine.legal_actions`), by what they depend on
        self.trade_memo: dict = {}
        #: per resource of ``box.resources``, the most of it any Market option gives (0: none): a hand's
        #: holding of a resource matters to a trade only up to it (:meth:`wanted`)
        self.give_caps = tuple(max((n for row in self.trades.values() for x in row for r, n in x.give if r == res), default=0)
                               for res in box.resources)
        self._resources = box.resources

    def wanted(self, hand: dict) -> tuple:
        """``hand``'s holdings (``box.resources`` order) each capped at :attr:`give_caps`: what
        a memo of the Market's trades may key on for the gives, since whether a hand holds an
        option's gives depends on nothing more."""
        return tuple(map(min, map(hand.__getitem__, self._resources), self.give_caps))

    def takes(self, material: str, most: int) -> list:
        """``[TakeMaterial(material, 1), ..., TakeMaterial(material, most)]`` (interned)."""
        row = self.take[material]
        while len(row) < most:
            row.append(TakeMaterial(material, len(row) + 1))
        return row[:most]

    def golds(self, most: int) -> list:
        """``[TakeGold(1), ..., TakeGold(most)]`` (interned)."""
        row = self.gold
        while len(row) < most:
            row.append(TakeGold(len(row) + 1))
        return row[:most]


_TABLES: dict = {}  # id(box) -> (box, its table); the box is kept, so its id is never reused meanwhile


def action_table(box) -> ActionTable:
    """The :class:`ActionTable` of ``box`` (made on first use, shared by every game with that box)."""
    hit = _TABLES.get(id(box))
    if hit is None or hit[0] is not box:
        hit = _TABLES[id(box)] = (box, ActionTable(box))
    return hit[1]
