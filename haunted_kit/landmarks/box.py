"""The Landmarks & Architects box as data: load and check ``data/landmarks/``.

Every value comes from a TOML file of ``data/landmarks/`` and carries its provenance:
``"rulebook"`` when the Landmarks & Architects text prints it, ``"kit default"`` when the
kit chose it (see ``docs/RULINGS.md``, section "Landmarks & Architects"). The building
deck is a **kit example deck, not the published cards** (the text does not list them).

:func:`load_box` checks every entry against the box's schema (:data:`SCHEMA`, one
pydantic model per file, read by :mod:`haunted_kit.boxschema`: size limit, UTF-8, nesting
depth, blank keys and names, strict types, bounds, unknown keys, cross-field checks as
model validators) and returns an immutable :class:`LandmarksBox`. A problem raises the
kit's :class:`~haunted_kit.boxfile.BoxError` naming file, entry (key path), problem and
rule section::

    BoxError: landmarks/landmarks.toml, entry types.silo: field 'discard' must be int, got 'one'
    (rule section: Landmarks: How To Play, Acquiring a Landmark)
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from typing import ClassVar, Literal

from pydantic import ValidationInfo, model_validator

from ..boxfile import BoxError, data_dir
from ..boxschema import (BoxEntries, BoxModel, BoxSchema, BoxTable, Invalid, Name, Names, Whole, box_field, earlier,
                         require_known)
from ..provenance import Fingerprinted, mark_house_rules, value_fingerprint

__all__ = ["SCHEMA", "Architect", "Card", "LandmarkType", "LandmarksBox", "default_box", "load_box"]

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


# --------------------------------------------------------------------------- the schema

_SETUP, _ICONS, _LM_CARDS = "Landmarks: Game Setup", "Landmarks: Concepts, Landmark Tokens and Icons", "Landmarks: Landmark Cards"
_ACQUIRE, _LM_SCORING, _AR_SCORING = "Landmarks: How To Play, Acquiring a Landmark", "Landmarks: Scoring", "Architects: Scoring"
_GROUNDS, _BUILD = "Architects: Concepts, Castle Grounds Cards", "Architects: How To Play, Build"


class Players(BoxTable):
    section: ClassVar[str] = _SETUP
    min: Whole = box_field(low=2, high=8, doc="fewest players")
    max: Whole = box_field(low=2, high=8, doc="most players (one Castle Grounds each)")

    @model_validator(mode="after")
    def _order(self):
        if self.max < self.min:
            raise Invalid(f"field 'max' ({self.max}) must be at least 'min' ({self.min})")
        return self


class NameList(BoxTable):
    section: ClassVar[str] = _ICONS
    names: Names = box_field(min_items=1, doc="the names, each once")


class LeadActions(BoxTable):
    section: ClassVar[str] = "Landmarks: How To Play, Take One Action"
    names: Names = box_field(min_items=1, doc="the base game's actions a leader may lead")

    @model_validator(mode="after")
    def _build(self):
        if "build" not in self.names:
            raise Invalid("field 'names' must include 'build' (Castle Grounds are used on a Build)")
        return self


class Modules(BoxTable):
    section: ClassVar[str] = "Architects: Components (the note on separate modules)"
    landmarks: bool = box_field(doc="play the Landmarks module")
    architects: bool = box_field(doc="play the Architects module")
    castle_grounds: bool = box_field(doc="play the Castle Grounds cards")


class ExampleRound(BoxTable):
    section: ClassVar[str] = "none, a kit example position (docs/RULINGS.md L1)"
    hand: Whole = box_field(high=40, doc="cards in each hand")
    village: Whole = box_field(high=40, doc="cards already in each village")
    developed: Whole = box_field(high=40, doc="developed resource cards per player")
    gold: Whole = box_field(high=40, doc="gold in each supply")
    rounds: Whole = box_field(low=1, high=40, doc="turns before the game is over (one player leads each)")


class EndTrigger(BoxTable):
    section: ClassVar[str] = "none, the base game's end (docs/RULINGS.md L12)"
    village_cards: Whole = box_field(low=1, high=99, doc="village cards that end the base game")


class GameFile(BoxModel):
    players: Players
    resources: NameList
    building_types: NameList
    modules: Modules
    lead_actions: LeadActions
    example_round: ExampleRound
    end_trigger: EndTrigger


class Supply(BoxTable):
    section: ClassVar[str] = _SETUP
    tokens: Whole = box_field(low=1, high=99, doc="tokens of each type in the box")
    two_player_removed: Whole = box_field(high=98, doc="tokens of each type back to the box with 2 players")

    @model_validator(mode="after")
    def _fewer(self):
        if self.two_player_removed >= self.tokens:
            raise Invalid(f"field 'two_player_removed' must be at most {self.tokens - 1}, got {self.two_player_removed}")
        return self


class LandmarkEntry(BoxTable):
    section: ClassVar[str] = _LM_CARDS
    name: Name = box_field(doc="name on the card")
    discard: Whole = box_field(low=1, high=10, section=_ACQUIRE, doc="cards discarded for one token")
    icon: str = box_field(section=_ACQUIRE, doc='icon every discarded card shows ("" = any card)')
    victory_points: Whole = box_field(high=99, section=_LM_SCORING, doc="points per token at the end")

    @model_validator(mode="after")
    def _icon(self, info: ValidationInfo):
        game = earlier(info, "game.toml")
        if self.icon and game is not None:
            require_known("icon", self.icon, game.resources.names, "resource", also=', or "" for any card')
        return self


class LandmarksFile(BoxModel):
    supply: Supply
    types: dict[str, LandmarkEntry]

    @model_validator(mode="after")
    def _some(self):
        if not self.types:
            raise Invalid("must list at least one landmark type", entry="types")
        return self


class Most(BoxTable):
    section: ClassVar[str] = _LM_SCORING
    points: Whole = box_field(high=99, doc="points for the most tokens of a type")
    minimum: Whole = box_field(low=1, high=99, doc="tokens needed to have the most")


class Sets(BoxTable):
    section: ClassVar[str] = _LM_SCORING
    points: Whole = box_field(high=99, doc="points per set of one token of every type")


class ArchitectScoring(BoxTable):
    section: ClassVar[str] = _AR_SCORING
    points_per_building: Whole = box_field(high=99, doc="points per village building of the architect's types")


class ScoringFile(BoxModel):
    most: Most
    sets: Sets
    architect: ArchitectScoring


class ArchitectEntry(BoxTable):
    section: ClassVar[str] = "Architects: Concepts, Architect Cards"
    name: Name = box_field(doc="name on the card")
    types: Names = box_field(min_items=1, doc="the two building types it scores")

    @model_validator(mode="after")
    def _types(self, info: ValidationInfo):
        game = earlier(info, "game.toml")
        if game is not None:
            require_known("types", self.types, game.building_types.names)
        if len(self.types) != 2:
            raise Invalid(f"field 'types' must name exactly 2 building types, got {len(self.types)}")
        return self


class ArchitectsFile(BoxEntries):
    root: dict[str, ArchitectEntry]

    @model_validator(mode="after")
    def _some(self):
        if not self.root:
            raise Invalid("must list at least one architect", entry="-")
        return self


class GroundsUse(BoxTable):
    section: ClassVar[str] = _GROUNDS
    gold: Whole = box_field(low=1, high=9, doc="gold placed per use")
    discard: Whole = box_field(high=1, doc="cards discarded per use")
    wild: Whole = box_field(low=1, high=1, doc="wild resources per use")
    uses_per_card: Whole = box_field(low=1, high=1, doc="gold a card holds at once")
    any_player: bool = box_field(doc="other players' Castle Grounds may be used")


class Castle(BoxTable):
    section: ClassVar[str] = _BUILD
    gold: Whole = box_field(low=1, high=9, doc="gold placed on the castle")
    wild: Whole = box_field(low=1, high=1, doc="wild resources it gives")


class Developed(BoxTable):
    section: ClassVar[str] = _BUILD
    gold: Whole = box_field(low=1, high=9, doc="gold placed on a developed resource")


class GroundsFile(BoxModel):
    use: GroundsUse
    castle: Castle
    developed: Developed


class DeckLabel(BoxTable):
    section: ClassVar[str] = "none, the kit example deck (docs/RULINGS.md L1, L7)"
    label: str = box_field(doc="says the deck is a kit example")

    @model_validator(mode="after")
    def _example(self):
        if "kit example" not in self.label:
            raise Invalid("field 'label' must say the deck is a kit example (e.g. \"kit example deck (not the published cards)\")")
        return self


class CardEntry(BoxTable):
    section: ClassVar[str] = "none, the kit example deck (docs/RULINGS.md L1, L7)"
    name: Name = box_field(doc="card name")
    kind: Literal["building", "adventurer"] = box_field(doc="built or recruited")
    icons: Names = box_field(doc="icons of its Resource section")
    type: str = box_field(doc="building type icon")
    cost: list[Name] = box_field(section=_BUILD, doc="resources to build it (none for an adventurer)")
    victory_points: Whole = box_field(high=99, doc="points in a village")
    copies: Whole = box_field(low=1, high=9, doc="copies in the deck")

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo):
        game = earlier(info, "game.toml")
        if game is not None:
            require_known("type", self.type, game.building_types.names, "building type")
            require_known("cost", self.cost, game.resources.names)
            require_known("icons", self.icons, game.resources.names)
        if self.kind == "building" and not self.cost:
            raise Invalid("a building must cost at least one resource")
        if self.kind == "adventurer" and self.cost:
            raise Invalid("an adventurer is recruited, not built: its 'cost' must be empty")
        if len(self.cost) > 8:
            raise Invalid(f"field 'cost' lists {len(self.cost)} resources; at most 8")
        return self


class DeckFile(BoxModel):
    deck: DeckLabel
    cards: dict[str, CardEntry]

    @model_validator(mode="after")
    def _some(self):
        if not self.cards:
            raise Invalid("must list at least one card", entry="cards")
        return self


#: The box's files, in the order they are checked, each with its schema (the Game's ``box_schema``).
SCHEMA = BoxSchema({"game.toml": GameFile, "landmarks.toml": LandmarksFile, "scoring.toml": ScoringFile,
                    "architects.toml": ArchitectsFile, "castle_grounds.toml": GroundsFile, "deck.toml": DeckFile},
                   label="landmarks/")


#: Fingerprints of earlier texts of the kit's own ``data/landmarks/`` that give today's
#: values for every save: saves that recorded them load with the kit's Landmarks box.
EARLIER_REFERENCE_FINGERPRINTS: dict[str, str] = {
    "673bede12c54eab657fe88d53e597409db7f405b2c49438c2a990865f1f54dbd":
        "the files' bytes when saves recorded a hash of the bytes, not of the loaded values",
    "8f96d3013973d00b3b24dd0ea5ecf1dab58ffb0edcc5f799d48ffbf6a03528ed":
        "the values while example_round.rounds was 1: that value only sets a new game's turns, and a save "
        "keeps its own, so the save plays on the same",
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
        BoxError: naming the file, the entry (key path), the problem and the rule
            section, from the box's :data:`SCHEMA` (a missing, oversized,
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
    files = SCHEMA.read(root)
    g, lmf, sc, ar, cg, dk = (files[name] for name in FILES)
    er = g.example_round.model_dump()
    out: dict = {"path": str(root), "min_players": g.players.min, "max_players": g.players.max,
                 "resources": tuple(g.resources.names), "building_types": tuple(g.building_types.names),
                 "modules": g.modules.model_dump(), "lead_actions": tuple(g.lead_actions.names), "example_round": er,
                 "end_trigger_cards": g.end_trigger.village_cards, "tokens_per_type": lmf.supply.tokens,
                 "two_player_removed": lmf.supply.two_player_removed,
                 "landmarks": {k: LandmarkType(k, t.name, t.discard, t.icon, t.victory_points) for k, t in lmf.types.items()},
                 "most_points": sc.most.points, "most_minimum": sc.most.minimum, "set_points": sc.sets.points,
                 "architect_points": sc.architect.points_per_building,
                 "architects": {k: Architect(k, a.name, tuple(a.types)) for k, a in ar.root.items()},
                 "grounds_gold": cg.use.gold, "grounds_discard": cg.use.discard, "grounds_wild": cg.use.wild,
                 "grounds_uses": cg.use.uses_per_card, "grounds_any_player": cg.use.any_player,
                 "castle_gold": cg.castle.gold, "castle_wild": cg.castle.wild, "developed_gold": cg.developed.gold,
                 "cards": {k: Card(k, c.name, c.kind, tuple(c.icons), c.type, tuple(c.cost), c.victory_points, c.copies)
                           for k, c in dk.cards.items()},
                 "deck_label": dk.deck.label}
    n = out["max_players"]
    if len(ar.root) < n:
        raise BoxError(SCHEMA.label_of("architects.toml"), "-", f"{len(ar.root)} architects cannot deal one to each of "
                       f"{n} players (game.toml players.max)", section="Architects: Game Setup")
    need = n * (er["hand"] + er["village"] + er["developed"])
    size = sum(c.copies for c in dk.cards.values())
    if need > size:
        raise BoxError(SCHEMA.label_of("deck.toml"), "cards", f"the example round deals {need} cards to {n} players "
                       f"(game.toml example_round) but the deck has {size}", section=ExampleRound.section)
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return out, SCHEMA.rows(files), digest.hexdigest()


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
