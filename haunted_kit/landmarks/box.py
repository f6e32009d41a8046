"""The Landmarks & Architects box as data: load and check ``data/landmarks/``.

Every value comes from a TOML file of ``data/landmarks/`` and carries its provenance:
``"rulebook"`` when the Landmarks & Architects text prints it, ``"kit default"`` when the
kit chose it (see ``docs/RULINGS.md``, section "Landmarks & Architects"). The building
deck is a **kit example deck, not the published cards** (the text does not list them).

:func:`load_box` checks every entry and returns an immutable :class:`LandmarksBox`. A
problem raises the kit's :class:`~haunted_kit.boxfile.BoxError` naming file, entry and
problem (the files are read with :class:`~haunted_kit.boxfile.BoxFile`: size limit, UTF-8,
nesting depth, blank keys and names, typed fields)::

    BoxError: landmarks.toml, entry types.silo: field 'discard' must be int, got 'one'
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..boxfile import BoxError, BoxFile, data_dir
from ..provenance import Fingerprinted, mark_house_rules, value_fingerprint

__all__ = ["Architect", "Card", "LandmarkType", "LandmarksBox", "default_box", "load_box"]

FILES = ("game.toml", "landmarks.toml", "scoring.toml", "architects.toml", "castle_grounds.toml", "deck.toml")
DECK_LABEL = "kit example deck (not the published cards)"


@dataclass(frozen=True, slots=True)
class LandmarkType:
    """One landmark type (Landmarks: Landmark Cards, Acquiring a Landmark)."""

    key: str  #: "gate", "silo", ...
    name: str  #: "Gate", "Silo", ...
    discard: int  #: cards discarded from hand to acquire one token
    icon: str  #: resource icon every discarded card must show ("" = any card)
    victory_points: int  #: points per token at the end

    def cost_text(self) -> str:
        """The acquisition cost in words, e.g. ``"discard 1 card showing a stone icon"``."""
        cards = f"{self.discard} card{'s' if self.discard != 1 else ''}"
        return f"discard {cards} showing a {self.icon} icon" if self.icon else f"discard any {cards}"


@dataclass(frozen=True, slots=True)
class Architect:
    """An architect card: a secret goal naming two building types (Architects: Architect Cards)."""

    key: str
    name: str
    types: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the kit example deck (kit default, not the published cards)."""

    key: str
    name: str
    kind: str  #: "building" or "adventurer"
    icons: tuple[str, ...]  #: resource icons of its Resource section
    type: str  #: building type icon
    cost: tuple[str, ...]  #: resources to build it (empty for adventurers)
    victory_points: int
    copies: int  #: copies of the card in the deck


@dataclass(frozen=True, eq=False)
class LandmarksBox(Fingerprinted):
    """Every number and component of the Landmarks & Architects modules, from data."""

    path: str
    min_players: int
    max_players: int
    resources: tuple[str, ...]
    building_types: tuple[str, ...]
    modules: dict[str, bool]
    lead_actions: tuple[str, ...]
    example_round: dict[str, int]
    end_trigger_cards: int
    tokens_per_type: int
    two_player_removed: int
    landmarks: dict[str, LandmarkType]
    most_points: int
    most_minimum: int
    set_points: int
    architect_points: int
    architects: dict[str, Architect]
    grounds_gold: int
    grounds_discard: int
    grounds_wild: int
    grounds_uses: int
    grounds_any_player: bool
    castle_gold: int
    castle_wild: int
    developed_gold: int
    cards: dict[str, Card]
    deck_label: str
    provenance: tuple[tuple[str, str, str, str], ...] = field(repr=False)
    fingerprint: str = field(default="", repr=False)
    #: hash of the files' bytes, which kits before the value ``fingerprint`` recorded in saves:
    #: such saves load while the files are unchanged (``accepts_fingerprint``)
    file_fingerprint: str = field(default="", repr=False)
    #: (file, entry, field) -> the value as written in the file (as the other games' boxes have it)
    values: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def earlier_fingerprints(self) -> frozenset:
        """For the kit's own Landmarks data, :data:`EARLIER_REFERENCE_FINGERPRINTS`; else none."""
        same = Path(self.path).resolve() == landmarks_dir().resolve()
        return frozenset(EARLIER_REFERENCE_FINGERPRINTS) if same else frozenset()

    def supply(self, players: int) -> int:
        """Tokens of each landmark type in play with ``players`` players (Landmarks: Game Setup)."""
        return self.tokens_per_type - (self.two_player_removed if players == 2 else 0)

    def provenance_frame(self):
        """Every value's provenance as a DataFrame (file, entry, field, provenance)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame(list(self.provenance), columns=["file", "entry", "field", "provenance"])

    def deck_frame(self):
        """The kit example deck as a DataFrame (one row per card), labelled as a kit example."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        df = pd.DataFrame([{"card": c.key, "name": c.name, "kind": c.kind, "icons": ", ".join(c.icons) or "-",
                            "type": c.type, "cost": ", ".join(c.cost) or "-", "victory points": c.victory_points,
                            "copies": c.copies}
                           for c in self.cards.values()])
        df.attrs["label"] = self.deck_label
        df.columns.name = self.deck_label  # shown in the table's corner wherever it is displayed
        return df


class _File(BoxFile):
    """A file of ``data/landmarks/``: :class:`~haunted_kit.boxfile.BoxFile`, naming
    itself ``landmarks/<name>`` in errors and provenance rows."""

    def __init__(self, root: Path, name: str, rows: list, tables: tuple[str, ...] | None = None):
        super().__init__(root, name, rows, label=f"landmarks/{name}", tables=tables)

    def section(self, entry: str, spec: dict) -> dict:
        """Read the table ``entry`` whose fields are exactly ``spec`` (field -> ``(kind, low,
        high)``, or ``"names"`` for a list of distinct names), with its provenance."""
        t = self.table(self.data, entry, fields=tuple(spec))
        out = {k: self.str_list(t, k, entry, distinct=True, nonempty=True) if how == "names"
               else self.get(t, k, how[0], entry, low=how[1], high=how[2])
               for k, how in spec.items()}
        self.provenance(t, entry)
        return out


#: Fingerprints of earlier texts of the kit's own ``data/landmarks/`` that give today's
#: values: saves that recorded them load with the kit's Landmarks box.
EARLIER_REFERENCE_FINGERPRINTS: dict[str, str] = {
    "673bede12c54eab657fe88d53e597409db7f405b2c49438c2a990865f1f54dbd":
        "the files' bytes when saves recorded a hash of the bytes, not of the loaded values",
}


def landmarks_dir(path: str | os.PathLike | None = None) -> Path:
    """The folder to load: ``path`` itself, or ``landmarks/`` under the kit's data folder."""
    if path is not None:
        p = Path(path)
        if not p.is_dir():
            raise BoxError("landmarks/", "-", f"no such folder: {p}")
        return p
    return data_dir() / "landmarks"


def load_box(path: str | os.PathLike | None = None) -> LandmarksBox:
    """Load and check the Landmarks & Architects box.

    Args:
        path: a folder holding the files of ``data/landmarks/``; ``None`` for the kit's own.

    Raises:
        BoxError: naming the file, the entry and the problem (a missing, oversized,
            non-UTF-8 or too deeply nested file, bad TOML, a blank key or name, a
            missing field or provenance, a wrong type, a number out of range, an unknown
            resource, building type or card, an inconsistency between files).
    """
    root = landmarks_dir(path)
    out, rows, file_fingerprint = _read(root)
    shipped = landmarks_dir(None)
    same = not shipped.is_dir() or shipped.resolve() == root.resolve()
    provenance = mark_house_rules(rows, None if same else _shipped_values())  # a changed value: "house rule"
    return LandmarksBox(**out, provenance=provenance, fingerprint=value_fingerprint(out), file_fingerprint=file_fingerprint,
                        values={(f, e, k): v for f, e, k, _p, v in rows})


def _read(root: Path) -> tuple[dict, list, str]:
    """The loaded values of the box in ``root``, its ``(file, entry, field, provenance,
    value)`` rows and the hash of its files' bytes (raises as :func:`load_box`)."""
    rows: list = []
    out: dict = {"path": str(root)}

    g = _File(root, "game.toml", rows, ("players", "resources", "building_types", "modules", "lead_actions",
                                            "example_round", "end_trigger"))
    v = g.section("players", {"min": (int, 2, 8), "max": (int, 2, 8)})
    if v["max"] < v["min"]:
        g.fail("players", f"field 'max' ({v['max']}) must be at least 'min' ({v['min']})")
    out["min_players"], out["max_players"] = v["min"], v["max"]
    out["resources"] = resources = g.section("resources", {"names": "names"})["names"]
    out["building_types"] = types = g.section("building_types", {"names": "names"})["names"]
    out["modules"] = g.section("modules", dict.fromkeys(("landmarks", "architects", "castle_grounds"), (bool, 0, None)))
    out["lead_actions"] = g.section("lead_actions", {"names": "names"})["names"]
    if "build" not in out["lead_actions"]:
        g.fail("lead_actions", "field 'names' must include 'build' (Castle Grounds are used on a Build)")
    out["example_round"] = g.section("example_round", {"hand": (int, 0, 40), "village": (int, 0, 40),
                                                       "developed": (int, 0, 40), "gold": (int, 0, 40),
                                                       "rounds": (int, 1, 40)})
    out["end_trigger_cards"] = g.section("end_trigger", {"village_cards": (int, 1, 99)})["village_cards"]

    f = _File(root, "landmarks.toml", rows, ("supply", "types"))
    v = f.section("supply", {"tokens": (int, 1, 99), "two_player_removed": (int, 0, 98)})
    out["tokens_per_type"], out["two_player_removed"] = v["tokens"], v["two_player_removed"]
    if v["two_player_removed"] >= v["tokens"]:
        f.fail("supply", f"field 'two_player_removed' must be at most {v['tokens'] - 1}, got {v['two_player_removed']}")
    lm = {}
    for key, e, lt in f.entries(f.data, "types"):
        f.only_fields(lt, e, ("name", "discard", "icon", "victory_points"))
        icon = f.get(lt, "icon", str, e)
        if icon and icon not in resources:
            f.fail(e, f"field 'icon' has unknown resource {icon!r} (known: {', '.join(resources)}, or \"\" for any card)")
        lm[key] = LandmarkType(key, f.get(lt, "name", str, e, empty=False), f.get(lt, "discard", int, e, low=1, high=10), icon,
                               f.get(lt, "victory_points", int, e, high=99))
        f.provenance(lt, e)
    if not lm:
        f.fail("types", "must list at least one landmark type")
    out["landmarks"] = lm

    s = _File(root, "scoring.toml", rows, ("most", "sets", "architect"))
    v = s.section("most", {"points": (int, 0, 99), "minimum": (int, 1, 99)})
    out["most_points"], out["most_minimum"] = v["points"], v["minimum"]
    out["set_points"] = s.section("sets", {"points": (int, 0, 99)})["points"]
    out["architect_points"] = s.section("architect", {"points_per_building": (int, 0, 99)})["points_per_building"]

    a = _File(root, "architects.toml", rows)
    arch = {}
    for key, _entry, at in a.entries(a.data):
        a.only_fields(at, key, ("name", "types"))
        pair = a.str_list(at, "types", key, types, distinct=True, nonempty=True)
        if len(pair) != 2:
            a.fail(key, f"field 'types' must name exactly 2 building types, got {len(pair)}")
        arch[key] = Architect(key, a.get(at, "name", str, key, empty=False), pair)
        a.provenance(at, key)
    if not arch:
        a.fail("-", "must list at least one architect")
    out["architects"] = arch

    c = _File(root, "castle_grounds.toml", rows, ("use", "castle", "developed"))
    v = c.section("use", {"gold": (int, 1, 9), "discard": (int, 0, 1), "wild": (int, 1, 1), "uses_per_card": (int, 1, 1),
                          "any_player": (bool, 0, None)})
    out.update(grounds_gold=v["gold"], grounds_discard=v["discard"], grounds_wild=v["wild"], grounds_uses=v["uses_per_card"],
               grounds_any_player=v["any_player"])
    v = c.section("castle", {"gold": (int, 1, 9), "wild": (int, 1, 1)})
    out["castle_gold"], out["castle_wild"] = v["gold"], v["wild"]
    out["developed_gold"] = c.section("developed", {"gold": (int, 1, 9)})["gold"]

    d = _File(root, "deck.toml", rows, ("deck", "cards"))
    t = d.table(d.data, "deck", fields=("label",))
    out["deck_label"] = d.get(t, "label", str, "deck")
    if "kit example" not in out["deck_label"]:
        d.fail("deck", "field 'label' must say the deck is a kit example (e.g. \"kit example deck (not the published cards)\")")
    d.provenance(t, "deck")
    cards = {}
    for key, e, ct in d.entries(d.data, "cards"):
        d.only_fields(ct, e, ("name", "kind", "icons", "type", "cost", "victory_points", "copies"))
        kind = d.get(ct, "kind", str, e)
        if kind not in ("building", "adventurer"):
            d.fail(e, f"field 'kind' must be \"building\" or \"adventurer\", got {kind!r}")
        typ = d.get(ct, "type", str, e)
        if typ not in types:
            d.fail(e, f"field 'type' has unknown building type {typ!r} (known: {', '.join(types)})")
        cost = d.str_list(ct, "cost", e, resources)
        if kind == "building" and not cost:
            d.fail(e, "a building must cost at least one resource")
        if kind == "adventurer" and cost:
            d.fail(e, "an adventurer is recruited, not built: its 'cost' must be empty")
        if len(cost) > 8:
            d.fail(e, f"field 'cost' lists {len(cost)} resources; at most 8")
        cards[key] = Card(key, d.get(ct, "name", str, e, empty=False), kind, d.str_list(ct, "icons", e, resources, distinct=True), typ,
                          cost, d.get(ct, "victory_points", int, e, high=99), d.get(ct, "copies", int, e, low=1, high=9))
        d.provenance(ct, e)
    if not cards:
        d.fail("cards", "must list at least one card")
    out["cards"] = cards

    n = out["max_players"]
    if len(arch) < n:
        a.fail("-", f"{len(arch)} architects cannot deal one to each of {n} players (game.toml players.max)")
    er = out["example_round"]
    need = n * (er["hand"] + er["village"] + er["developed"])
    size = sum(c.copies for c in cards.values())
    if need > size:
        d.fail("cards", f"the example round deals {need} cards to {n} players (game.toml example_round) "
                        f"but the deck has {size}")
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return out, rows, digest.hexdigest()


@lru_cache(maxsize=1)
def _shipped_values() -> dict:
    """The kit's own box's values by (file, entry, field), to tell house rules apart."""
    return {(f, e, k): v for f, e, k, _p, v in _read(landmarks_dir(None))[1]}


@lru_cache(maxsize=1)
def _default() -> LandmarksBox:
    return load_box()


def default_box() -> LandmarksBox:
    """The kit's own box (loaded once)."""
    return _default()
