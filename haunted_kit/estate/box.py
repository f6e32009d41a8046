"""The Estate and Market box as data: load and check ``data/estate/``.

Every value in the TOML files carries its provenance, ``rulebook`` (printed in the
estate rules text) or ``kit default`` (a gap filled by the kit; see ``docs/RULINGS.md``,
section "Estate and Market"). :func:`load_estate_box` reads the four files
(``game.toml``, ``resources.toml``, ``lands.toml``, ``market.toml``), checks every
entry against the box's schema (:data:`SCHEMA`, one pydantic model per file, read by
:mod:`haunted_kit.boxschema`: size limit, UTF-8, nesting depth, strict types, bounds,
unknown keys, cross-field checks as model validators) and returns an immutable
:class:`EstateBox`. A malformed edit raises the kit's :class:`~haunted_kit.boxfile.BoxError`
(also named ``EstateBoxError`` here) naming the file, the entry (key path), the problem
and the rule section.

The folder is found from an argument, ``HAUNTED_KIT_ESTATE_DATA``, the copy packed in
the wheel (``haunted_kit/_box/estate``) or the checkout's ``data/estate``.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo, model_validator

from .. import hexgrid
from ..boxfile import MAX_NUMBER, BoxError
from ..boxschema import BoxEntries, BoxModel, BoxSchema, BoxTable, Invalid, Name, Whole, box_field, earlier, require_known
from ..provenance import Fingerprinted, mark_house_rules, value_fingerprint
from ..protocol import is_integer
FILES = ("game.toml", "resources.toml", "lands.toml", "market.toml")
# Upper bounds on every number of the box: generous for house rules, small enough that a
# typo (seasons = 100000, radius = 10**6) is refused at load instead of hanging a game.
MAX_SEASONS = 12  #: seasons in a game (the Haunted Lands box allows the same)
MAX_RADIUS = 6  #: board radius in slots (127 slots)
Slot = tuple[int, int]


#: The estate's name for the kit's :class:`~haunted_kit.boxfile.BoxError` (the same
#: class: ``except BoxError`` catches every game's box errors).
EstateBoxError = BoxError


@dataclass(frozen=True)
class LandTile:
    """A kind of land tile: it raises ``raises`` income by ``amount`` for each marker on
    it, up to ``spaces`` markers (0 = every marker); ``count`` tiles in the stack."""

    name: str
    raises: str
    amount: int
    spaces: int
    count: int

    @property
    def word(self) -> str:
        return self.name.replace("_", " ")

    @property
    def gives(self) -> str:
        """What it raises, in words: ``"+1 wood income"``."""
        return f"+{self.amount} {self.raises} income"


@dataclass(frozen=True)
class MarketAction:
    """One row of the Market table. ``options`` lists every (give, take) pair the row
    allows, each a tuple of ``(resource, amount)``; ``workers`` in take means hired."""

    name: str
    text: str
    options: tuple[tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]], ...]
    marked: bool


@dataclass(frozen=True, eq=False)
class EstateBox(Fingerprinted):
    """The whole box, read-only. Amounts are in units of a resource; gold in gold."""

    path: str
    fingerprint: str
    min_players: int
    max_players: int
    seasons: int
    start_income: dict
    start_hand: dict
    start_workers: int
    worker_limit: int
    workers_per_take: int
    first_taker_extra: int
    inn_price: int
    inn_returns: int
    value: dict
    resources: tuple[str, ...]  #: every resource, gold first
    income_resources: tuple[str, ...]
    factory_resources: tuple[str, ...]
    tile_price: int
    join_fee_per_marker: int
    join_fee_cap: int
    markers_per_tile: int
    marble_quarry_min_tiles: int
    display_size: int
    tiles: dict  #: name -> LandTile
    slots: tuple[Slot, ...]  #: every land slot, in board order
    lower_area: tuple[Slot, ...]
    white_dotted: tuple[Slot, ...]
    first_visitor_actions: int
    later_visitor_actions: int
    market_workers: int
    price_first: int
    price_later: int
    condition_discount: int
    price_minimum: int
    market: dict  #: name -> MarketAction, in table order
    provenance: tuple  #: (file, entry, field, provenance) rows; "house rule" where it differs from the shipped box
    values: dict = field(default_factory=dict, repr=False, compare=False)  #: (file, entry, field) -> value as written
    #: hash of the files' bytes, which kits before the value ``fingerprint`` recorded in saves:
    #: such saves load while the files are unchanged (``accepts_fingerprint``)
    file_fingerprint: str = field(default="", repr=False, compare=False)

    @property
    def earlier_fingerprints(self) -> frozenset:
        """For the kit's own estate data, :data:`EARLIER_REFERENCE_FINGERPRINTS`; else none."""
        root = _shipped_root()
        same = root is not None and Path(self.path).resolve() == root.resolve()
        return frozenset(EARLIER_REFERENCE_FINGERPRINTS) if same else frozenset()

    @property
    def outer(self) -> tuple[Slot, ...]:
        """The outer lands: the slots on the board's rim."""
        r = max(hexgrid.distance(s, (0, 0)) for s in self.slots)
        return tuple(s for s in self.slots if hexgrid.distance(s, (0, 0)) == r)

    def join_fee(self, markers: int) -> int:
        """Gold a player pays a tile's owner to join it, with ``markers`` markers already on it:
        ``join_fee_per_marker`` each, at most ``join_fee_cap`` (ruling E16)."""
        return min(self.join_fee_cap, self.join_fee_per_marker * markers)

    def provenance_frame(self):
        """Every value's provenance as a pandas DataFrame (file, entry, field, provenance)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame(list(self.provenance), columns=["file", "entry", "field", "provenance"])

    def __repr__(self) -> str:
        return f"<EstateBox {self.path} ({len(self.slots)} slots, {sum(t.count for t in self.tiles.values())} tiles)>"


# --------------------------------------------------------------------------- the schema

_INCOME, _LANDS, _MARKET = "Resource income", "Expand the lands", "Market actions"
_KIT = "none, a kit default (docs/RULINGS.md, Estate and Market)"


def _amount(value: int) -> int:
    if not 0 <= value <= MAX_NUMBER:
        raise ValueError(f"must be a whole number from 0 to {MAX_NUMBER}, got {value}")
    return value


#: An amount of a resource (or gold): a whole number 0..MAX_NUMBER.
Amount = Annotated[int, AfterValidator(_amount)]
#: resource -> amount (the resources are checked against ``resources.toml``)
Amounts = dict[str, Amount]


def _slots(value: list) -> list:
    out = []
    for x in value:
        if not (isinstance(x, list) and len(x) == 2 and all(is_integer(i) and abs(i) <= MAX_RADIUS for i in x)):
            raise ValueError(f"must list [q, r] integer pairs within {MAX_RADIUS} of the centre, got {x!r}")
        out.append(tuple(x))
    if len(set(out)) != len(out):
        raise ValueError("lists a slot twice")
    return value


#: Board slots: a list of distinct ``[q, r]`` axial pairs within :data:`MAX_RADIUS` of the centre.
Slots = Annotated[list[list[int]], AfterValidator(_slots)]


def _resources(info: ValidationInfo):
    """(every resource gold first, the income resources) from the checked resources.toml, or None."""
    res = earlier(info, "resources.toml")
    if res is None:
        return None
    names = sorted(res.root, key=lambda r: r != "gold")
    return tuple(names), tuple(r for r in names if res.root[r].income)


def _only_resources(field: str, amounts: dict, allowed, within: str | None = None) -> None:
    for k in amounts:
        if k not in allowed:
            raise Invalid(f"field '{field}' names unknown resource {k!r} (known: {', '.join(allowed)})", within=within)


class Resource(BoxTable):
    section: ClassVar[str] = _INCOME
    income: bool = box_field(doc="has an income marker")
    factory: bool = box_field(doc="taken with workers in the Raw Materials Factory")
    market_only: bool = box_field(section=_MARKET, doc="obtained only through the Market")

    @model_validator(mode="after")
    def _consistent(self):
        if self.market_only and (self.income or self.factory):
            raise Invalid("a market_only resource can have no income and no Factory take")
        if self.factory and not self.income:
            raise Invalid("a Factory resource needs an income marker")
        return self


class ResourcesFile(BoxEntries):
    section: ClassVar[str] = _INCOME
    root: dict[str, Resource]

    @model_validator(mode="after")
    def _gold(self):
        if "gold" not in self.root:
            raise Invalid("missing table (gold is the currency of the module)", entry="gold")
        if self.root["gold"].factory:
            raise Invalid("gold takes no workers: factory must be false", entry="gold")
        return self


class Players(BoxTable):
    section: ClassVar[str] = _KIT
    min: Whole = box_field(low=1, doc="fewest players")
    max: Whole = box_field(low=1, high=4, doc="most players (at most 4: the kit has 4 player colours)")

    @model_validator(mode="after")
    def _order(self):
        if self.max < self.min:
            raise Invalid(f"max ({self.max}) is below min ({self.min})")
        return self


class Seasons(BoxTable):
    section: ClassVar[str] = _KIT
    count: Whole = box_field(low=1, high=MAX_SEASONS, doc="seasons in a game")


class Start(BoxTable):
    section: ClassVar[str] = _INCOME
    income: Amounts = box_field(doc="income markers at the start, by resource (every income resource)")
    hand: Amounts = box_field(doc="resources in hand at the start (missing: 0)")
    workers: Whole = box_field(doc="workers each player starts with")

    @model_validator(mode="after")
    def _known(self, info: ValidationInfo):
        known = _resources(info)
        if known is not None:
            holdable, income = known
            _only_resources("income", self.income, income)
            for r in income:
                if r not in self.income:
                    raise Invalid(f"field 'income' gives no starting income for {r!r}")
            _only_resources("hand", self.hand, holdable)
        return self


class Workers(BoxTable):
    section: ClassVar[str] = _INCOME
    limit: Whole = box_field(low=1, doc="workers a player may own in all")
    per_take: Whole = box_field(low=1, doc="workers placed in the Factory per take")


class Factory(BoxTable):
    section: ClassVar[str] = _INCOME
    first_taker_extra: Whole = box_field(doc="extra units for a season's first taker of a material")


class Inn(BoxTable):
    section: ClassVar[str] = _INCOME
    return_price: Whole = box_field(doc="gold to bring one worker back from the Inn")
    returns_per_season: Whole = box_field(doc="workers brought back per season")


class Value(BoxTable):
    """The kit's gold value of each holding at the end (every resource, a kit measure)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Whole] = Field(init=False)
    section: ClassVar[str] = _KIT
    extra_doc: ClassVar[str] = "gold value of one unit of the resource at the end (every resource)"

    @model_validator(mode="after")
    def _every_resource(self, info: ValidationInfo):
        known = _resources(info)
        if known is not None:
            for r in known[0]:
                if r not in self.__pydantic_extra__:
                    raise Invalid(f"missing field {r!r}")
            for k in self.__pydantic_extra__:
                if k not in known[0]:
                    raise Invalid(f"unknown resource {k!r} (known: {', '.join(known[0])})")
        return self


class GameFile(BoxModel):
    players: Players
    seasons: Seasons
    start: Start
    workers: Workers
    factory: Factory
    inn: Inn
    value: Value

    @model_validator(mode="after")
    def _workers(self):
        if self.start.workers > self.workers.limit:
            raise Invalid(f"field 'workers' ({self.start.workers}) is above the worker limit ({self.workers.limit})",
                          entry="start")
        return self


class LandRules(BoxTable):
    section: ClassVar[str] = _LANDS
    tile_price: Whole = box_field(doc="gold paid for a land tile")
    join_fee_per_marker: Whole = box_field(doc="gold to the owner per marker already on a joined tile")
    join_fee_cap: Whole = box_field(doc="most gold one join pays")
    markers_per_player_per_tile: Whole = box_field(low=1, doc="markers a player may have on one tile (must be 1)")
    marble_quarry_min_tiles: Whole = box_field(doc="tiles needed before a marble quarry")
    display: Whole = box_field(low=1, section=_KIT, doc="face-up tiles to choose from")

    @model_validator(mode="after")
    def _one_marker(self):
        if self.markers_per_player_per_tile != 1:
            raise Invalid("markers_per_player_per_tile must be 1 (the rules text allows one marker per player per tile)")
        return self


class Tile(BoxTable):
    section: ClassVar[str] = _LANDS
    raises: str = box_field(doc="the income resource it raises")
    amount: Whole = box_field(doc="income raised per marker")
    spaces: Whole = box_field(doc="markers that raise income (0 = every marker)")
    count: Whole = box_field(doc="tiles of the kind in the stack")

    @model_validator(mode="after")
    def _raises(self, info: ValidationInfo):
        known = _resources(info)
        if known is not None:
            require_known("raises", self.raises, known[1])
        return self


class Board(BoxTable):
    section: ClassVar[str] = _LANDS
    radius: Whole = box_field(low=1, high=MAX_RADIUS, section=_KIT, doc="hex slots around the centre")
    lower_area: Slots = box_field(section=_KIT, doc="[q, r] slots over the shared lower area")
    white_dotted: Slots = box_field(section=_KIT, doc="[q, r] outer slots that give a Market-condition token")

    @model_validator(mode="after")
    def _on_board(self):
        centre = (0, 0)
        for key in ("lower_area", "white_dotted"):
            for s in getattr(self, key):
                if hexgrid.distance(tuple(s), centre) > self.radius:
                    raise Invalid(f"field '{key}' names slot {list(s)}, which is not on a board of radius {self.radius}")
        if not self.lower_area:
            raise Invalid("field 'lower_area' must name at least one slot")
        for s in self.white_dotted:
            if hexgrid.distance(tuple(s), centre) != self.radius:
                raise Invalid(f"white-dotted slot {list(s)} is not an outer land (on the rim)")
        return self


class LandsFile(BoxModel):
    rules: LandRules
    tiles: dict[str, Tile]
    board: Board

    @model_validator(mode="after")
    def _stack(self):
        if not self.tiles:
            raise Invalid("no land tiles", entry="tiles")
        if "marble_quarry" not in self.tiles:
            raise Invalid("missing tile 'marble_quarry' (the rules text's two-tile condition needs it)", entry="tiles")
        if sum(t.count for t in self.tiles.values()) < self.rules.display:
            raise Invalid(f"the stack holds fewer tiles than the display ({self.rules.display})", entry="tiles")
        return self


class Visit(BoxTable):
    section: ClassVar[str] = _MARKET
    first_visitor_actions: Whole = box_field(low=1, doc="actions of a season's first visitor")
    later_visitor_actions: Whole = box_field(low=1, doc="actions of later visitors")
    workers: Whole = box_field(doc="workers a visit takes")


class MarkedPrice(BoxTable):
    section: ClassVar[str] = _MARKET
    first_use: Whole = box_field(doc="gold for a marked action's first use in a season")
    later_use: Whole = box_field(doc="gold for each later use")
    condition_discount: Whole = box_field(section=_KIT, doc="gold off per Market-condition token")
    minimum: Whole = box_field(section=_KIT, doc="lowest marked price")


class MarketRow(BoxTable):
    section: ClassVar[str] = _MARKET
    text: Name = box_field(doc="the row as a player reads it")
    give: list[Amounts] = box_field(min_items=1, doc="what may be given: alternatives of resource -> amount")
    take: list[Amounts] = box_field(min_items=1, doc="what is taken (workers: hired): alternatives")
    pairs: Literal["any", "matched"] = box_field("any", doc="any give with any take, or the n-th with the n-th")
    marked: bool = box_field(doc="paid at the marked price")

    @model_validator(mode="after")
    def _alternatives(self, info: ValidationInfo):
        known = _resources(info)
        if known is not None:
            for key, allowed in (("give", known[0]), ("take", known[0] + ("workers",))):
                for i, alt in enumerate(getattr(self, key), start=1):
                    _only_resources(key, alt, allowed, within=f"{key}[{i}]")
        if self.pairs == "matched" and len(self.give) != len(self.take):
            raise Invalid("with pairs = \"matched\", give and take must list as many alternatives")
        return self


class MarketFile(BoxModel):
    visit: Visit
    marked_price: MarkedPrice
    actions: dict[str, MarketRow]

    @model_validator(mode="after")
    def _some(self):
        if not self.actions:
            raise Invalid("no Market actions", entry="actions")
        return self


#: The box's files, in the order they are checked (resources first: the others name
#: resources), each with its schema (the Game's ``box_schema``).
SCHEMA = BoxSchema({"resources.toml": ResourcesFile, "game.toml": GameFile, "lands.toml": LandsFile,
                    "market.toml": MarketFile})


def _values(files: dict) -> dict:
    """The :class:`EstateBox` fields of the checked files (but path, provenance and fingerprints)."""
    res, g, lands, m = (files[n] for n in ("resources.toml", "game.toml", "lands.toml", "market.toml"))
    resources, income = sorted(res.root, key=lambda r: r != "gold"), sorted((r for r in res.root if res.root[r].income),
                                                                             key=lambda r: r != "gold")
    radius, r = lands.board.radius, lands.rules
    market = {}
    for name, a in m.actions.items():
        gives, takes = ([tuple(sorted(alt.items())) for alt in getattr(a, k)] for k in ("give", "take"))
        opts = tuple(zip(gives, takes)) if a.pairs == "matched" else tuple((x, y) for x in gives for y in takes)
        market[name] = MarketAction(name, a.text, opts, a.marked)
    return dict(
        resources=tuple(resources), income_resources=tuple(income),
        factory_resources=tuple(n for n in res.root if res.root[n].factory),
        min_players=g.players.min, max_players=g.players.max, seasons=g.seasons.count,
        start_income=dict(g.start.income), start_hand={x: g.start.hand.get(x, 0) for x in resources},
        start_workers=g.start.workers, worker_limit=g.workers.limit, workers_per_take=g.workers.per_take,
        first_taker_extra=g.factory.first_taker_extra, inn_price=g.inn.return_price, inn_returns=g.inn.returns_per_season,
        value={x: g.value.__pydantic_extra__[x] for x in resources},
        tile_price=r.tile_price, join_fee_per_marker=r.join_fee_per_marker, join_fee_cap=r.join_fee_cap,
        markers_per_tile=r.markers_per_player_per_tile, marble_quarry_min_tiles=r.marble_quarry_min_tiles,
        display_size=r.display,
        tiles={k: LandTile(k, t.raises, t.amount, t.spaces, t.count) for k, t in lands.tiles.items()},
        slots=tuple((q, s) for s in range(-radius, radius + 1) for q in range(-radius, radius + 1)
                    if hexgrid.distance((q, s), (0, 0)) <= radius),
        lower_area=tuple(tuple(x) for x in lands.board.lower_area),
        white_dotted=tuple(tuple(x) for x in lands.board.white_dotted),
        first_visitor_actions=m.visit.first_visitor_actions, later_visitor_actions=m.visit.later_visitor_actions,
        market_workers=m.visit.workers, price_first=m.marked_price.first_use, price_later=m.marked_price.later_use,
        condition_discount=m.marked_price.condition_discount, price_minimum=m.marked_price.minimum, market=market)


def data_dir(path=None) -> Path:
    """The estate data folder (see the module doc). Raises :class:`EstateBoxError`."""
    if path is not None:
        cands = [Path(path)]
    elif os.environ.get("HAUNTED_KIT_ESTATE_DATA"):
        cands = [Path(os.environ["HAUNTED_KIT_ESTATE_DATA"])]
    else:
        here = Path(__file__).resolve().parent.parent
        cands = [here / "_box" / "estate", here.parent / "data" / "estate"]
    for c in cands:
        if c.is_dir():
            return c
    raise EstateBoxError("data/estate/", "-", f"no estate data folder found (looked in {', '.join(map(str, cands))})")


def load_estate_box(path=None) -> EstateBox:
    """Load and check the estate box.

    Args:
        path: a folder holding ``game.toml``, ``resources.toml``, ``lands.toml`` and
            ``market.toml``; ``None`` finds the reference box.

    Returns:
        an immutable :class:`EstateBox`.

    Raises:
        BoxError (``EstateBoxError``): naming file, entry (key path), problem and rule
            section, from the box's :data:`SCHEMA` (a missing,
            oversized, non-UTF-8 or too deeply nested file, bad TOML, a blank key or
            name, a missing field, a wrong type, a number out of bounds, an unknown
            resource or tile, a slot off the board, missing or unknown provenance).
    """
    root = data_dir(path)
    files = SCHEMA.read(root)
    rows = SCHEMA.rows(files)
    out = {"path": str(root), **_values(files)}
    digest = hashlib.blake2b(digest_size=8)  # of the files read above, each within the size limit
    for name in FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    out["file_fingerprint"] = digest.hexdigest()
    out["values"] = {(f, e, k): v for f, e, k, _p, v in rows}
    shipped = _shipped_root()
    same = shipped is None or shipped.resolve() == root.resolve()
    out["provenance"] = mark_house_rules(rows, None if same else _shipped_values())
    out["fingerprint"] = value_fingerprint(out)
    return EstateBox(**out)


#: Fingerprints of earlier texts of the kit's own ``data/estate/`` that give today's values:
#: saves that recorded them load with the kit's estate box.
EARLIER_REFERENCE_FINGERPRINTS: dict[str, str] = {
    "8f3db16cbaab640e": "the files' bytes when saves recorded a hash of the bytes, not of the loaded values",
    "e7adcf3b5a68add03082464a844dca96ada21f8857a65d1dbc2285cd87ec03bc":
        "the values before three Market rows' texts were put in the kit's own words (the same rules)",
}


def _shipped_root() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    for c in (here / "_box" / "estate", here.parent / "data" / "estate"):
        if c.is_dir():
            return c
    return None


@lru_cache(maxsize=1)
def _shipped_values() -> dict:
    """The shipped estate box's values, to tell house rules apart."""
    return load_estate_box(_shipped_root()).values


@lru_cache(maxsize=1)
def _default() -> EstateBox:
    return load_estate_box()


def default_estate_box() -> EstateBox:
    """The reference estate box (loaded once)."""
    return _default()
