"""The Estate and Market box as data: load and check ``data/estate/``.

Every value in the TOML files carries its provenance, ``rulebook`` (printed in the
estate rules text) or ``kit default`` (a gap filled by the kit; see ``docs/RULINGS.md``,
section "Estate and Market"). :func:`load_estate_box` reads the four files
(``game.toml``, ``resources.toml``, ``lands.toml``, ``market.toml``), checks every
entry and returns an immutable :class:`EstateBox`. The files are read with the kit's
:class:`~haunted_kit.boxfile.BoxFile` (size limit, UTF-8, nesting depth, typed fields), so
a malformed edit raises the kit's :class:`~haunted_kit.boxfile.BoxError` (also named
``EstateBoxError`` here) naming the file, the entry and the problem.

The folder is found from an argument, ``HAUNTED_KIT_ESTATE_DATA``, the copy packed in
the wheel (``haunted_kit/_box/estate``) or the checkout's ``data/estate``.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .. import hexgrid
from ..boxfile import MAX_NUMBER, BoxError, BoxFile
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

    def provenance_frame(self):
        """Every value's provenance as a pandas DataFrame (file, entry, field, provenance)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame(list(self.provenance), columns=["file", "entry", "field", "provenance"])

    def __repr__(self) -> str:
        return f"<EstateBox {self.path} ({len(self.slots)} slots, {sum(t.count for t in self.tiles.values())} tiles)>"


class _File(BoxFile):
    """A data file of the estate box: :class:`~haunted_kit.boxfile.BoxFile` and the
    estate's two compound fields, resource amounts and board slots."""

    def amounts(self, t, key: str, entry: str, allowed) -> dict:
        """The field ``t[key]``: a table of resource -> whole number 0..MAX_NUMBER."""
        v = self.get(t, key, dict, entry, default=None)
        if not isinstance(v, dict):
            self.fail(entry, f"field '{key}' must be a table of amounts, got {v!r}")
        for k, n in v.items():
            if k not in allowed:
                self.fail(entry, f"field '{key}' names unknown resource {k!r} (known: {', '.join(allowed)})")
            if not is_integer(n) or not 0 <= n <= MAX_NUMBER:
                self.fail(entry, f"field '{key}.{k}' must be a whole number from 0 to {MAX_NUMBER}, got {n!r}")
        return dict(v)

    def slots(self, t, key: str, entry: str) -> tuple[Slot, ...]:
        """The field ``t[key]``: a list of distinct ``[q, r]`` slots within MAX_RADIUS."""
        v = self.get(t, key, list, entry, default=None)
        if not isinstance(v, list):
            self.fail(entry, f"field '{key}' must be a list of [q, r] pairs")
        out = []
        for x in v:
            if not (isinstance(x, list) and len(x) == 2
                    and all(is_integer(i) and abs(i) <= MAX_RADIUS for i in x)):
                self.fail(entry, f"field '{key}' must list [q, r] integer pairs within {MAX_RADIUS} of the centre, got {x!r}")
            out.append((x[0], x[1]))
        if len(set(out)) != len(out):
            self.fail(entry, f"field '{key}' lists a slot twice")
        return tuple(out)


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
        BoxError (``EstateBoxError``): naming file, entry and problem (a missing,
            oversized, non-UTF-8 or too deeply nested file, bad TOML, a blank key or
            name, a missing field, a wrong type, a number out of bounds, an unknown
            resource or tile, a slot off the board, missing or unknown provenance).
    """
    root = data_dir(path)
    rows: list = []
    out: dict = {"path": str(root)}

    # resources.toml (first: everything else names resources)
    f = _File(root, "resources.toml", rows)
    if "gold" not in f.data:
        f.fail("gold", "missing table (gold is the currency of the module)")
    resources, income, factory = [], [], []
    for name, _entry, t in f.entries(f.data):
        f.only_fields(t, name, ("income", "factory", "market_only"))
        inc, fac, mo = f.get(t, "income", bool, name), f.get(t, "factory", bool, name), f.get(t, "market_only", bool, name)
        if mo and (inc or fac):
            f.fail(name, "a market_only resource can have no income and no Factory take")
        if fac and not inc:
            f.fail(name, "a Factory resource needs an income marker")
        if name == "gold" and fac:
            f.fail(name, "gold takes no workers: factory must be false")
        f.provenance(t, name)
        resources.append(name)
        if inc:
            income.append(name)
        if fac:
            factory.append(name)
    resources.sort(key=lambda r: r != "gold")
    income.sort(key=lambda r: r != "gold")
    out.update(resources=tuple(resources), income_resources=tuple(income), factory_resources=tuple(factory))
    holdable = tuple(resources)

    # game.toml
    f = _File(root, "game.toml", rows, tables=("players", "seasons", "start", "workers", "factory", "inn", "value"))
    t = f.table(f.data, "players", fields=("min", "max"))
    out["min_players"], out["max_players"] = f.get(t, "min", int, "players", low=1), f.get(t, "max", int, "players", low=1)
    if out["max_players"] < out["min_players"]:
        f.fail("players", f"max ({out['max_players']}) is below min ({out['min_players']})")
    if out["max_players"] > 4:
        f.fail("players", "at most 4 players (the kit has 4 player colours)")
    f.provenance(t, "players")
    t = f.table(f.data, "seasons", fields=("count",))
    out["seasons"] = f.get(t, "count", int, "seasons", low=1, high=MAX_SEASONS)
    f.provenance(t, "seasons")
    t = f.table(f.data, "start", fields=("income", "hand", "workers"))
    inc = f.amounts(t, "income", "start", income)
    for r in income:
        if r not in inc:
            f.fail("start", f"field 'income' gives no starting income for {r!r}")
    out["start_income"] = inc
    hand = f.amounts(t, "hand", "start", holdable)
    out["start_hand"] = {r: hand.get(r, 0) for r in holdable}
    out["start_workers"] = f.get(t, "workers", int, "start")
    f.provenance(t, "start")
    t = f.table(f.data, "workers", fields=("limit", "per_take"))
    out["worker_limit"] = f.get(t, "limit", int, "workers", low=1)
    out["workers_per_take"] = f.get(t, "per_take", int, "workers", low=1)
    if out["start_workers"] > out["worker_limit"]:
        f.fail("start", f"field 'workers' ({out['start_workers']}) is above the worker limit ({out['worker_limit']})")
    f.provenance(t, "workers")
    t = f.table(f.data, "factory", fields=("first_taker_extra",))
    out["first_taker_extra"] = f.get(t, "first_taker_extra", int, "factory")
    f.provenance(t, "factory")
    t = f.table(f.data, "inn", fields=("return_price", "returns_per_season"))
    out["inn_price"] = f.get(t, "return_price", int, "inn")
    out["inn_returns"] = f.get(t, "returns_per_season", int, "inn")
    f.provenance(t, "inn")
    t = f.table(f.data, "value")
    val = {}
    for r in holdable:
        val[r] = f.get(t, r, int, "value")
    for k in t:
        if k != "provenance" and k not in holdable:
            f.fail("value", f"unknown resource {k!r} (known: {', '.join(holdable)})")
    out["value"] = val
    f.provenance(t, "value")

    # lands.toml
    f = _File(root, "lands.toml", rows, tables=("rules", "tiles", "board"))
    t = f.table(f.data, "rules", fields=("tile_price", "join_fee_per_marker", "join_fee_cap", "markers_per_player_per_tile",
                                          "marble_quarry_min_tiles", "display"))
    for key, field, mn in (("tile_price", "tile_price", 0), ("join_fee_per_marker", "join_fee_per_marker", 0),
                           ("join_fee_cap", "join_fee_cap", 0), ("markers_per_tile", "markers_per_player_per_tile", 1),
                           ("marble_quarry_min_tiles", "marble_quarry_min_tiles", 0), ("display_size", "display", 1)):
        out[key] = f.get(t, field, int, "rules", low=mn)
    if out["markers_per_tile"] != 1:
        f.fail("rules", "markers_per_player_per_tile must be 1 (the rules text allows one marker per player per tile)")
    f.provenance(t, "rules")
    tiles = {}
    for name, entry, tt in f.entries(f.data, "tiles"):
        f.only_fields(tt, entry, ("raises", "amount", "spaces", "count"))
        raises = f.get(tt, "raises", str, entry, allowed=income)
        tiles[name] = LandTile(name, raises, f.get(tt, "amount", int, entry), f.get(tt, "spaces", int, entry), f.get(tt, "count", int, entry))
        f.provenance(tt, entry)
    if not tiles:
        f.fail("tiles", "no land tiles")
    if "marble_quarry" not in tiles:
        f.fail("tiles", "missing tile 'marble_quarry' (the rules text's two-tile condition needs it)")
    if sum(x.count for x in tiles.values()) < out["display_size"]:
        f.fail("tiles", f"the stack holds fewer tiles than the display ({out['display_size']})")
    out["tiles"] = tiles
    t = f.table(f.data, "board", fields=("radius", "lower_area", "white_dotted"))
    radius = f.get(t, "radius", int, "board", low=1, high=MAX_RADIUS)
    slots = tuple((q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
                  if hexgrid.distance((q, r), (0, 0)) <= radius)
    out["slots"] = slots
    for key in ("lower_area", "white_dotted"):
        got = f.slots(t, key, "board")
        for s in got:
            if s not in slots:
                f.fail("board", f"field '{key}' names slot {list(s)}, which is not on a board of radius {radius}")
        out[key] = got
    if not out["lower_area"]:
        f.fail("board", "field 'lower_area' must name at least one slot")
    for s in out["white_dotted"]:
        if hexgrid.distance(s, (0, 0)) != radius:
            f.fail("board", f"white-dotted slot {list(s)} is not an outer land (on the rim)")
    f.provenance(t, "board")

    # market.toml
    f = _File(root, "market.toml", rows, tables=("visit", "marked_price", "actions"))
    t = f.table(f.data, "visit", fields=("first_visitor_actions", "later_visitor_actions", "workers"))
    out["first_visitor_actions"] = f.get(t, "first_visitor_actions", int, "visit", low=1)
    out["later_visitor_actions"] = f.get(t, "later_visitor_actions", int, "visit", low=1)
    out["market_workers"] = f.get(t, "workers", int, "visit")
    f.provenance(t, "visit")
    t = f.table(f.data, "marked_price", fields=("first_use", "later_use", "condition_discount", "minimum"))
    for key, field in (("price_first", "first_use"), ("price_later", "later_use"),
                       ("condition_discount", "condition_discount"), ("price_minimum", "minimum")):
        out[key] = f.get(t, field, int, "marked_price")
    f.provenance(t, "marked_price")
    market = {}
    takeable = holdable + ("workers",)
    for name, entry, a in f.entries(f.data, "actions"):
        f.only_fields(a, entry, ("text", "give", "take", "pairs", "marked"))
        text = f.get(a, "text", str, entry, empty=False)
        gives, takes = [], []
        for key, allowed, acc in (("give", holdable, gives), ("take", takeable, takes)):
            v = f.get(a, key, list, entry, default=None)
            if not isinstance(v, list) or not v:
                f.fail(entry, f"field '{key}' must be a non-empty list of alternatives")
            for i, alt in enumerate(v):
                acc.append(tuple(sorted(f.amounts({key: alt}, key, f"{entry}.{key}[{i}]", allowed).items())))
        pairs = f.get(a, "pairs", str, entry, default="any")
        if pairs not in ("any", "matched"):
            f.fail(entry, f"field 'pairs' must be \"any\" or \"matched\", got {pairs!r}")
        if pairs == "matched":
            if len(gives) != len(takes):
                f.fail(entry, "with pairs = \"matched\", give and take must list as many alternatives")
            opts = tuple(zip(gives, takes))
        else:
            opts = tuple((g, tk) for g in gives for tk in takes)
        market[name] = MarketAction(name, text, opts, f.get(a, "marked", bool, entry))
        f.provenance(a, entry)
    if not market:
        f.fail("actions", "no Market actions")
    out["market"] = market
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
