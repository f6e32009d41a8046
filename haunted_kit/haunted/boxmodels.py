"""The schema of the Haunted Lands box: one pydantic model per file of ``data/``, read
through :mod:`haunted_kit.boxschema` (strict types, bounds, unknown keys refused,
provenance per value, cross-field checks as model validators raising
:class:`~haunted_kit.boxschema.Invalid`; every error a
:class:`~haunted_kit.boxfile.BoxError` naming the file, key path, problem and rule section).

Files checked later see the files checked before them through the validation context
(:func:`~haunted_kit.boxschema.earlier`): ``player_board.toml`` (the resources) comes
first, the cards before the modes that name them. ``tiles.csv`` is read by
:func:`parse_tiles` into one table per tile. Entries that name an effect (skills, quests,
ghost cards, market options, bonus rewards, buildings) are checked against the effect
registry (:data:`haunted_kit.haunted.effects.EFFECTS`): an unknown effect, or a field the
effect does not read, is refused. :data:`SCHEMA` lists every file in the order it is
checked (the Game's ``box_schema``); :func:`haunted_kit.haunted.box.load_box` builds the
:class:`~haunted_kit.haunted.box.Box` records from it and makes the few checks that tie a
file to one checked after it.
"""

from __future__ import annotations

import csv
import json
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo, model_validator

from ..boxfile import MAX_NUMBER, BoxError
from ..boxschema import (BoxEntries, BoxModel, BoxSchema, BoxTable, Invalid, Name, Names, Whole, box_field, earlier,
                         require_known)
from .effects import EFFECTS, effect_problem, unused_fields, used_fields

#: Bounds of the numbers that size the game itself (any other number is at most
#: :data:`~haunted_kit.boxfile.MAX_NUMBER`).
MAX_SEASONS, MAX_ROUNDS, MAX_SLOTS, MAX_CARD_NUMBER, MAX_COORDINATE = 12, 12, 24, 99, 99
TRACKS = ("exploration", "contact", "extraction", "construction")
NEEDED_TERRAINS = ("city", "suburb", "plain", "forest", "mountain", "lake")
_FIELD, _SETUP = "Haunted Lands: Game Field, Tiles and Terrain Types", "Haunted Lands: Game Setup"


def _resources(info: ValidationInfo) -> list[str] | None:
    board = earlier(info, "player_board.toml")
    return None if board is None else list(board.resources.names)


# --------------------------------------------------------------------------- effects and card numbers

def _effect_of(family: str):
    """The check of an ``effect`` (or a market option's ``kind``) field: a name registered in
    ``family`` of the effect registry."""
    def check(name: str) -> str:
        problem = effect_problem(family, name)
        if problem:
            raise ValueError(f"names {problem}")
        return name
    return check


def unused_problem(family: str, effects: list[str], table: dict) -> str | None:
    """The sentence refusing the fields of ``table`` that an entry of ``family`` with
    ``effects`` does not read (:func:`~haunted_kit.haunted.effects.unused_fields`), or None."""
    extra = unused_fields(family, effects, table)
    if not extra:
        return None
    said = " and ".join(f"{e!r}" for e in effects) if effects else f"a {family}"
    many = len(extra) > 1
    return (f"field{'s' if many else ''} {', '.join(map(repr, extra))} {'are' if many else 'is'} not used by {said} "
            f"(it reads {', '.join(sorted(used_fields(family, effects) - {'provenance'}))})")


class _Effected(BoxModel):
    """An entry whose effect says which fields it reads: as soon as the effect is known, a
    field none of its effects reads is refused (a value that would change nothing), and so is
    a field it reads left out."""

    family: ClassVar[str] = ""
    effect_key: ClassVar[str] = "effect"

    @classmethod
    def effects_of(cls, data: dict) -> list[str] | None:
        """The registered effects ``data`` names, or None when it names none (yet)."""
        name = data.get(cls.effect_key)
        return [name] if isinstance(name, str) and effect_problem(cls.family, name) is None else None

    @model_validator(mode="before")
    @classmethod
    def _fields_read(cls, data: Any) -> Any:
        effects = cls.effects_of(data) if isinstance(data, dict) else None
        problem = None if effects is None else unused_problem(cls.family, effects, data)
        if problem:
            raise Invalid(problem)
        for name in effects or ():
            for param in EFFECTS[cls.family][name].params:
                if param in cls.model_fields and param not in data:
                    raise Invalid(f"missing field '{param}' (effect {name!r} reads it)")
        return data


def _card_numbers(data: Any, table: str) -> Any:
    """Refuse, before anything else, a key of ``data[table]`` that is not a card number
    1..:data:`MAX_CARD_NUMBER`, or that numbers a card twice (``1`` and ``01``)."""
    cards = data.get(table) if isinstance(data, dict) else None
    seen: dict[int, str] = {}
    for key in cards if isinstance(cards, dict) else ():
        if not (key.isascii() and key.isdigit()) or not 0 < int(key) <= MAX_CARD_NUMBER:
            raise Invalid(f"card keys must be numbers 1..{MAX_CARD_NUMBER}, got {key!r}", entry=f"{table}.{key}")
        if int(key) in seen:
            raise Invalid(f"card {int(key)} is listed twice (as {seen[int(key)]!r} and {key!r})", entry=f"{table}.{key}")
        seen[int(key)] = key
    return data


def card_numbers(cards: dict) -> list[int]:
    """The card numbers of a checked table of cards (its keys), in file order."""
    return [int(k) for k in cards]


# --------------------------------------------------------------------------- player_board.toml

class Resources(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Resources"
    names: Names = box_field(min_items=1, doc="the resource types, in board order")
    cap: Whole = box_field(low=1, doc="most resources of one type a player may hold")

    @model_validator(mode="after")
    def _water(self):
        if "water" not in self.names:
            raise Invalid("the resource 'water' is required (lakes give it)")
        return self


class TrackTable(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Player Board"
    slots: Whole = box_field(low=1, high=MAX_SLOTS, doc="slots of the action track")
    start_tokens: Whole = box_field(low=1, high=MAX_SLOTS, doc="tokens on the track at setup")
    training_costs: list[Whole] = box_field(section="Haunted Lands: Training",
                                            doc="pecunias to train slot i (0 for a starting slot)")
    last_slot_valor: Whole = box_field(section="Haunted Lands: Training", doc="valor for filling the last slot")

    @model_validator(mode="after")
    def _slots(self):
        if self.start_tokens > self.slots:
            raise Invalid(f"start_tokens ({self.start_tokens}) must be between 1 and slots ({self.slots})")
        if len(self.training_costs) != self.slots:
            raise Invalid(f"training_costs lists {len(self.training_costs)} slots but the track has {self.slots}")
        if any(c <= 0 for c in self.training_costs[self.start_tokens:]):
            raise Invalid("every slot after the starting tokens needs a positive training cost")
        return self


class ActionCosts(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Extraction"
    extraction_tokens: Whole = box_field(low=1, doc="extraction tokens one extraction costs")


class PlayerBoardFile(BoxModel):
    section: ClassVar[str] = "Haunted Lands: Player Board"
    resources: Resources
    tracks: dict[str, TrackTable]
    action_costs: ActionCosts

    @model_validator(mode="after")
    def _tracks(self):
        if tuple(self.tracks) != TRACKS:
            raise Invalid(f"tracks must be exactly {', '.join(TRACKS)} in that order, got {', '.join(self.tracks)}",
                          entry="tracks")
        return self


# --------------------------------------------------------------------------- terrain.toml

#: a terrain no sensor enters: these keys must hold their "off" value (no rule reads them there)
_OFF = (("explore_cost", 0), ("water_near_lake", False), ("build", ""), ("noria_near_lake", False),
        ("sell", False), ("train_and_learn", False))


class TerrainTable(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Game Field, Tiles and Terrain Types"
    letter: Name = box_field(doc="the letter tiles.csv writes for it")
    explore_cost: Whole = box_field(section="Haunted Lands: Exploration", doc="exploration tokens to enter")
    extract: str = box_field(section="Haunted Lands: Extraction", doc="resource extracted here ('' for none)")
    water_near_lake: bool = box_field(section="Haunted Lands: Extraction", doc="water extracted here beside a lake")
    build: str = box_field(section="Haunted Lands: Construction", doc="building built here ('' for none)")
    noria_near_lake: bool = box_field(section="Haunted Lands: Construction", doc="a noria may be built here beside a lake")
    sell: bool = box_field(section="Haunted Lands: Selling", doc="selling allowed here")
    train_and_learn: bool = box_field(section="Haunted Lands: Training", doc="training and learning allowed here")
    explorable: bool = box_field(doc="a sensor may enter")
    holds_ghosts: bool = box_field(doc="ghosts may be placed here")

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo):
        resources = _resources(info)
        if self.extract and resources is not None and self.extract not in resources:
            raise Invalid(f"field 'extract' names unknown resource {self.extract!r}")
        if self.explorable and self.explore_cost < 1:
            raise Invalid("an explorable terrain needs explore_cost of at least 1")
        if not self.explorable:
            for key, off in _OFF:
                if getattr(self, key) != off:
                    raise Invalid(f"field '{key}' must be {json.dumps(off)} on a terrain no sensor can enter "
                                  f"(explorable = false): no rule reads it there")
        return self


class TerrainFile(BoxEntries):
    section: ClassVar[str] = "Haunted Lands: Game Field, Tiles and Terrain Types"
    root: dict[str, TerrainTable]

    @model_validator(mode="after")
    def _complete(self):
        for needed in NEEDED_TERRAINS:
            if needed not in self.root:
                raise Invalid("terrain missing", entry=needed)
        letters = [t.letter for t in self.root.values()]
        if len(set(letters)) != len(letters):
            raise Invalid("terrain letters must be distinct", entry="-")
        return self


# --------------------------------------------------------------------------- buildings.toml

NEAR_LAKE = "near lake"


class BuildingTable(_Effected, BoxTable):
    section: ClassVar[str] = "Haunted Lands: Buildings"
    family: ClassVar[str] = "building"
    terrain: str = box_field(doc="the terrain it is built on, or \"near lake\" (the noria)")
    cost_tokens: Whole = box_field(section="Haunted Lands: Construction", doc="construction tokens to build it")
    cost: list[Name] = box_field(section="Haunted Lands: Construction", doc="resources paid, one name per resource")
    valor: Whole = box_field(doc="valor for building it")
    income: str = box_field(section="Haunted Lands: Game Flow", doc="the resource it produces at production")
    production: Whole = box_field(section="Haunted Lands: Game Flow", doc="how many of its income it produces")

    @classmethod
    def effects_of(cls, data: dict) -> list[str] | None:
        return ["production"] if isinstance(data.get("terrain"), str) else None

    @model_validator(mode="after")
    def _names(self, info: ValidationInfo):
        terrains, resources = earlier(info, "terrain.toml"), _resources(info)
        if terrains is not None and self.terrain != NEAR_LAKE and self.terrain not in terrains.root:
            raise Invalid(f"field 'terrain' names unknown terrain {self.terrain!r}")
        if resources is not None:
            if self.income not in resources:
                raise Invalid(f"field 'income' names unknown resource {self.income!r}")
            require_known("cost", self.cost, resources)
        return self


class BuildingsFile(BoxEntries):
    section: ClassVar[str] = "Haunted Lands: Buildings"
    root: dict[str, BuildingTable]

    @model_validator(mode="after")
    def _agree(self, info: ValidationInfo):
        if "noria" not in self.root or self.root["noria"].terrain != NEAR_LAKE:
            raise Invalid("the noria must exist with terrain = \"near lake\"", entry="noria")
        terrains = earlier(info, "terrain.toml")
        for name, t in terrains.root.items() if terrains is not None else ():
            if t.build and t.build not in self.root:
                raise Invalid(f"field 'build' names unknown building {t.build!r}", entry=name, file="terrain.toml",
                              section="Haunted Lands: Construction")
        for name, b in self.root.items() if terrains is not None else ():
            builds = terrains.root[b.terrain].build if b.terrain != NEAR_LAKE else name
            if builds != name:
                raise Invalid(f"terrain = {b.terrain!r}, but terrain.toml says a {b.terrain} builds "
                              f"{builds or 'nothing'!r}; the two files must agree", entry=name)
        return self


# --------------------------------------------------------------------------- field.toml

def _pair(value: list) -> list:
    if len(value) != 2 or any(abs(i) > MAX_COORDINATE for i in value):
        raise ValueError(f"must be an axial pair [q, r] of integers within ±{MAX_COORDINATE}, got {value!r}")
    return value


#: A cell of the field: an axial pair ``[q, r]`` within ±:data:`MAX_COORDINATE`.
Cell = Annotated[list[int], AfterValidator(_pair)]
UNIT_DIRECTIONS = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


class Geometry(BoxTable):
    section: ClassVar[str] = _FIELD
    orientation: str = box_field(doc="hex orientation: must be \"pointy\"")
    direction_names: Names = box_field(doc="names of the six neighbour directions (the columns of tiles.csv)")
    directions: list[list[int]] = box_field(doc="the six axial unit steps [dq, dr], in the order of direction_names")

    @model_validator(mode="after")
    def _six(self):
        if len(self.directions) != 6 or any(len(x) != 2 for x in self.directions):
            raise Invalid("field 'directions' must list 6 [dq, dr] pairs")
        if {tuple(x) for x in self.directions} != UNIT_DIRECTIONS:
            raise Invalid("field 'directions' must be the six axial unit directions")
        if len(self.direction_names) != 6:
            raise Invalid("field 'direction_names' must list 6 names")
        if self.orientation != "pointy":
            raise Invalid("only orientation = \"pointy\" is supported")
        return self


class Layout(BoxTable):
    section: ClassVar[str] = _SETUP
    kalena_centre: Cell = box_field(doc="the centre cell of the Kalena tile")
    region_centres: list[Cell] = box_field(doc="centre cells of the region tiles, in draw order")
    rotation: str = box_field(doc="tile rotation: must be \"none\"")

    @model_validator(mode="after")
    def _unrotated(self):
        if self.rotation != "none":  # the engine lays every tile facing the same way
            raise Invalid(f"only rotation = \"none\" is supported (the rules lay all tiles facing the same way), "
                          f"got {self.rotation!r}")
        return self


class Kalena(BoxTable):
    section: ClassVar[str] = _SETUP
    centre: str = box_field(doc="terrain of Kalena's centre cell (where the sensors start)")
    ring: str = box_field(doc="terrain of the six cells around it")

    @model_validator(mode="after")
    def _terrains(self, info: ValidationInfo):
        terrains = earlier(info, "terrain.toml")
        if terrains is None:
            return self
        for key in ("centre", "ring"):
            if getattr(self, key) not in terrains.root:
                raise Invalid(f"field '{key}' names unknown terrain {getattr(self, key)!r}")
        if not terrains.root[self.centre].explorable:
            raise Invalid(f"the sensors start on Kalena's centre, but its terrain {self.centre!r} cannot be entered "
                          "(explorable = false in terrain.toml)")
        return self


class Draw(BoxTable):
    section: ClassVar[str] = _SETUP
    region_tiles: Whole = box_field(high=MAX_SLOTS, doc="region tiles drawn for a game (one per region centre)")


class FieldFile(BoxModel):
    geometry: Geometry
    layout: Layout
    kalena: Kalena
    draw: Draw

    @model_validator(mode="after")
    def _tiles_fit(self):
        centres = self.layout.region_centres
        if self.draw.region_tiles != len(centres):
            raise Invalid(f"region_tiles ({self.draw.region_tiles}) must equal the number of region_centres "
                          f"({len(centres)})", entry="draw")
        cells = set()  # every tile's 7 cells must be distinct across the whole field
        for centre in [self.layout.kalena_centre, *centres]:
            for dq, dr in [(0, 0), *self.geometry.directions]:
                cell = (centre[0] + dq, centre[1] + dr)
                if cell in cells:
                    raise Invalid(f"tiles overlap at cell {cell}", entry="layout")
                cells.add(cell)
        return self


# --------------------------------------------------------------------------- tiles.csv

class TileRow(BoxTable):
    """One region tile: a terrain letter per cell (the centre, then a column per direction
    of field.toml) and its provenance."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, str] = Field(init=False)
    section: ClassVar[str] = _FIELD
    extra_doc: ClassVar[str] = "terrain letter of the cell in that direction (one column per direction of field.toml)"
    centre: str = box_field(doc="terrain letter of the centre cell")

    @model_validator(mode="after")
    def _cells(self, info: ValidationInfo):
        field, terrains = earlier(info, "field.toml"), earlier(info, "terrain.toml")
        cells = ["centre", *self.__pydantic_extra__]
        if field is not None:
            columns = ["tile", "centre", *field.geometry.direction_names, "provenance"]
            if ["tile", *cells, "provenance"] != columns:
                raise Invalid(f"columns must be {', '.join(columns)}, got {', '.join(['tile', *cells, 'provenance'])}",
                              entry="header")
        if terrains is not None:
            by_letter = {t.letter: name for name, t in terrains.root.items()}
            for col in cells:
                letter = self.centre if col == "centre" else self.__pydantic_extra__[col]
                if letter not in by_letter:
                    raise Invalid(f"cell {col!r} has unknown terrain letter {letter!r} (known: {', '.join(by_letter)})")
        return self


class TilesFile(BoxEntries):
    section: ClassVar[str] = _FIELD
    root: dict[str, TileRow]

    @model_validator(mode="after")
    def _enough(self, info: ValidationInfo):
        field = earlier(info, "field.toml")
        if field is not None and len(self.root) < field.draw.region_tiles:
            raise Invalid(f"{len(self.root)} tiles listed but {field.draw.region_tiles} are drawn per game", entry="-")
        return self


def parse_tiles(text: str, label: str) -> dict:
    """``tiles.csv`` as tile id -> {column: value} (the columns after the id, ``provenance``
    last), values stripped; ``#`` lines are comments. The file's lines are counted as they
    stand, comments included.

    Raises:
        BoxError: bad CSV (entry ``line N``), a header without ``tile, centre`` first and
            ``provenance`` last or naming a column twice (entry ``header``), a row with
            another number of columns or without a tile id (``line N``), a tile id given
            twice (the id).
    """
    lines = ["" if line.startswith("#") else line for line in text.splitlines()]
    reader = csv.reader(lines)
    header, tiles = None, {}
    try:
        for row in reader:
            if not row:
                continue
            if header is None:
                header = _tiles_header(row, label)
                continue
            tid, cells = _tile_row(row, header, label, f"line {reader.line_num}")
            if tid in tiles:
                raise BoxError(label, tid, "duplicate tile id")
            tiles[tid] = cells
    except csv.Error as exc:
        raise BoxError(label, f"line {reader.line_num}", f"not valid CSV ({exc})") from None
    if header is None:
        raise BoxError(label, "header", "missing: the first line that is not a comment names the columns "
                                        "(tile, centre, one per direction of field.toml, provenance)")
    return tiles


def _tiles_header(row: list[str], label: str) -> list[str]:
    header = [c.strip() for c in row]
    if header[:2] != ["tile", "centre"] or header[-1] != "provenance" or len(set(header)) != len(header):
        raise BoxError(label, "header", f"columns must be tile, centre, one per direction of field.toml (each once), "
                                        f"provenance; got {', '.join(header)}")
    return header


def _tile_row(row: list[str], header: list[str], label: str, line: str) -> tuple[str, dict]:
    if len(row) != len(header):
        raise BoxError(label, line, f"a row must have exactly the {len(header)} columns {', '.join(header)}")
    tid = row[0].strip()
    if not tid:
        raise BoxError(label, line, "missing tile id")
    return tid, {col: value.strip() for col, value in zip(header[1:], row[1:])}


# --------------------------------------------------------------------------- dice.toml

class _Die(BoxTable):
    @model_validator(mode="after")
    def _some_face(self):
        if not self.faces:
            raise Invalid("a die needs at least one face")
        return self


class TerrainDie(_Die):
    section: ClassVar[str] = "Haunted Lands: Game Setup"
    faces: list[Name] = box_field(doc="the terrain each face shows (at least one)")


class BonusDie(_Die):
    section: ClassVar[str] = "Haunted Lands: Bonus Cards"
    faces: list[Whole] = box_field(doc="the number each face shows (at least one)")


class DiceFile(BoxModel):
    terrain_die: TerrainDie
    terrain_die_with_lakes: TerrainDie
    bonus_die: BonusDie

    @model_validator(mode="after")
    def _placeable(self, info: ValidationInfo):
        terrains = earlier(info, "terrain.toml")
        placed = earlier(info, "field.toml")
        if terrains is None:
            return self
        kalena = (placed.kalena.centre, placed.kalena.ring) if placed is not None else ()
        allowed = [t for t in terrains.root if t not in kalena]
        for key in ("terrain_die", "terrain_die_with_lakes"):
            require_known("faces", getattr(self, key).faces, allowed, entry=key)
        return self


# --------------------------------------------------------------------------- skills.toml

_SKILLS, _QUESTS = "Haunted Lands: Skill Cards", "Haunted Lands: Quest Cards"


class MarkerSlots(BoxTable):
    section: ClassVar[str] = _SKILLS
    valor: list[Whole] = box_field(section="Haunted Lands: Learning", doc="valor of each marker slot of a skill card, left to right")
    covered_3_players: list[Whole] = box_field(section=_SETUP, doc="slots covered by counter markers with 3 players (0 = leftmost)")
    covered_2_players: list[Whole] = box_field(section=_SETUP, doc="slots covered by counter markers with 2 players")

    def covered(self) -> dict[int, tuple[int, ...]]:
        """Player count -> covered slots (4 players: none)."""
        return {3: tuple(self.covered_3_players), 2: tuple(self.covered_2_players), 4: ()}

    @model_validator(mode="after")
    def _open_slots(self):
        slots = len(self.valor)
        for n, cov in self.covered().items():
            if len(set(cov)) != len(cov):
                raise Invalid(f"covered slots repeat for {n} players: {list(cov)}")
            if any(c >= slots for c in cov):
                raise Invalid(f"covered slot out of range for {n} players (slots 0..{slots - 1})")
            if slots - len(cov) < n:
                raise Invalid(f"{n} players need {n} open marker slots, only {slots - len(cov)} are open")
        return self


class SkillTable(_Effected, BoxTable):
    section: ClassVar[str] = _SKILLS
    family: ClassVar[str] = "skill"
    deck: Name = box_field(doc="the skill deck it belongs to")
    cost: list[Name] = box_field(section="Haunted Lands: Learning", doc="resources paid to learn it")
    effect: Annotated[str, AfterValidator(_effect_of("skill"))] = box_field(
        section="Haunted Lands: Card Reference", doc="the rule it applies (haunted_kit.haunted.effects)")
    amount: Whole = box_field(0, section="Haunted Lands: Card Reference", doc="the effect's number, for an effect that reads one")
    text: str = box_field(doc="the card's text, in the kit's words")

    @model_validator(mode="after")
    def _cost(self, info: ValidationInfo):
        resources = _resources(info)
        if resources is not None:
            require_known("cost", self.cost, resources)
        return self


class SkillsFile(BoxModel):
    marker_slots: MarkerSlots
    skills: dict[str, SkillTable] = box_field(section=_SKILLS, doc="the skill cards, by number")

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        return _card_numbers(data, "skills")

    @model_validator(mode="after")
    def _some(self):
        if not self.skills:
            raise Invalid("no skills listed", entry="skills")
        return self


# --------------------------------------------------------------------------- quests.toml

class QuestTable(_Effected, BoxTable):
    section: ClassVar[str] = _QUESTS
    family: ClassVar[str] = "quest"
    effect: Annotated[str, AfterValidator(_effect_of("quest"))] = box_field(
        section="Haunted Lands: Card Reference", doc="the scoring rule it applies (haunted_kit.haunted.effects)")
    building: str = box_field("", doc="the building it counts (effect \"buildings\")")
    per: Whole = box_field(low=1, doc="the unit it counts per fulfilment")
    valor: Whole = box_field(section="Haunted Lands: Final Scoring", doc="valor per fulfilment")
    text: str = box_field(doc="the card's text, in the kit's words")

    @model_validator(mode="after")
    def _building(self, info: ValidationInfo):
        buildings = earlier(info, "buildings.toml")
        if self.effect == "buildings" and buildings is not None and self.building not in buildings.root:
            raise Invalid(f"field 'building' must name a building, got {self.building!r}")
        return self


class Removed(BoxTable):
    section: ClassVar[str] = _SETUP
    players_2: list[Whole] = box_field(doc="quest cards each player returns to the box in a 2-player game")


class QuestsFile(BoxModel):
    quests: dict[str, QuestTable] = box_field(section=_QUESTS, doc="the quest cards, by number")
    removed: Removed

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        return _card_numbers(data, "quests")

    @model_validator(mode="after")
    def _cards(self):
        if not self.quests:
            raise Invalid("no quest cards listed", entry="quests")
        numbers = card_numbers(self.quests)
        for q in self.removed.players_2:
            if q not in numbers:
                raise Invalid(f"quest {q} does not exist", entry="removed")
        return self

    def hand(self, players: int) -> int:
        """Quest cards each player holds with ``players`` players."""
        gone = self.removed.players_2 if players == 2 else ()
        return len([q for q in card_numbers(self.quests) if q not in gone])


# --------------------------------------------------------------------------- ghost_cards.toml

class GhostTable(_Effected, BoxTable):
    section: ClassVar[str] = "Haunted Lands: Ghost Cards"
    family: ClassVar[str] = "ghost card"
    effect: Annotated[str, AfterValidator(_effect_of("ghost card"))] = box_field(
        section="Haunted Lands: Card Reference", doc="the ghost property it applies (haunted_kit.haunted.effects)")
    amount: Whole = box_field(0, section="Haunted Lands: Card Reference", doc="the effect's number, for an effect that reads one")
    text: str = box_field(doc="the card's text, in the kit's words")


class GhostsFile(BoxModel):
    ghost_cards: dict[str, GhostTable] = box_field(section="Haunted Lands: Ghost Cards", doc="the ghost cards, by number")

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        return _card_numbers(data, "ghost_cards")


# --------------------------------------------------------------------------- market_cards.toml

_MARKET = "Haunted Lands: Market Cards"


class MarketOptionTable(_Effected, BoxTable):
    section: ClassVar[str] = _MARKET
    family: ClassVar[str] = "market option"
    effect_key: ClassVar[str] = "kind"
    count: Whole = box_field(low=1, doc="resources paid")
    kind: Annotated[str, AfterValidator(_effect_of("market option"))] = box_field(
        doc="\"any\" (one resource of any type), \"same\" (all of one type) or \"different\" (all of different types)")
    pecunias: Whole = box_field(section="Haunted Lands: Selling", doc="pecunias received")

    @model_validator(mode="after")
    def _fits(self, info: ValidationInfo):
        board = earlier(info, "player_board.toml")
        types = len(board.resources.names) if board is not None else MAX_NUMBER
        if (self.kind == "any" and self.count != 1) or (self.kind == "different" and self.count > types):
            raise Invalid(f"count {self.count} does not fit kind {self.kind!r}")
        if board is not None and self.kind == "same" and self.count > board.resources.cap:
            raise Invalid(f"count {self.count} of the same type exceeds the resource cap {board.resources.cap}")
        return self


class MarketCard(BoxModel):
    section: ClassVar[str] = _MARKET
    options: list[MarketOptionTable] = box_field(min_items=1, doc="the exchanges the card offers ([[options]] tables)")


class MarketsFile(BoxModel):
    market_cards: dict[str, MarketCard] = box_field(section=_MARKET, doc="the market cards, by number")

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        return _card_numbers(data, "market_cards")

    @model_validator(mode="after")
    def _some(self):
        if not self.market_cards:
            raise Invalid("no market cards listed (setup draws one)", entry="market_cards")
        return self


# --------------------------------------------------------------------------- bonus_cards.toml

_BONUS = "Haunted Lands: Bonus Cards"


class Reward(_Effected):
    section: ClassVar[str] = _BONUS
    family: ClassVar[str] = "bonus reward"
    face: Whole = box_field(doc="the bonus die face")
    pecunias: Whole = box_field(doc="pecunias it gives")
    resources: Whole = box_field(doc="resources of the receiver's choice it gives")
    valor: Whole = box_field(doc="valor it gives")

    @classmethod
    def effects_of(cls, data: dict) -> list[str] | None:
        return list(EFFECTS["bonus reward"])


class BonusCardTable(BoxTable):
    section: ClassVar[str] = _BONUS
    contact_cost: Whole = box_field(low=1, section="Haunted Lands: Contact", doc="contact tokens a contact costs this season")
    rewards: list[Reward] = box_field(doc="the reward of each bonus die face, in face order")

    @model_validator(mode="after")
    def _faces(self, info: ValidationInfo):
        dice = earlier(info, "dice.toml")
        faces = [r.face for r in self.rewards]
        if dice is not None and faces != list(dice.bonus_die.faces):
            raise Invalid(f"rewards must cover the bonus die faces {list(dice.bonus_die.faces)} in order, got {faces}")
        return self


class BonusFile(BoxModel):
    bonus_cards: dict[str, BonusCardTable] = box_field(section=_BONUS, doc="the bonus cards, by season")

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        return _card_numbers(data, "bonus_cards")


# --------------------------------------------------------------------------- supplies.toml

class Supply(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Game Components"
    ghosts: Whole = box_field(doc="ghost figures in the box")
    depletion: Whole = box_field(doc="depletion markers")
    player_markers: Whole = box_field(doc="markers of each player colour")
    buildings: dict[str, Whole] = box_field(doc="building figures of each type")
    resources: dict[str, Whole] = box_field(doc="resource cubes of each type")
    action_tokens: dict[str, Whole] = box_field(doc="action tokens of each track")

    @model_validator(mode="after")
    def _every_name(self, info: ValidationInfo):
        buildings = earlier(info, "buildings.toml")
        names = {"buildings": None if buildings is None else list(buildings.root), "resources": _resources(info),
                 "action_tokens": TRACKS}
        for key, known in names.items():
            if known is not None and set(getattr(self, key)) != set(known):
                raise Invalid(f"field '{key}' must give a count for exactly {', '.join(known)}")
        return self


class SuppliesFile(BoxModel):
    supply: Supply


# --------------------------------------------------------------------------- game.toml

class Structure(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Game Flow"
    seasons: Whole = box_field(low=1, high=MAX_SEASONS, doc="seasons in a game")
    rounds_per_season: Whole = box_field(low=1, high=MAX_ROUNDS, doc="rounds in a season")
    ghosts_per_spread: Whole = box_field(section="Haunted Lands: Ghost Cards", doc="ghosts placed per spread")
    min_players: Whole = box_field(low=2, high=4, section="Haunted Lands: Game Components", doc="fewest players")
    max_players: Whole = box_field(low=2, high=4, section="Haunted Lands: Game Components", doc="most players")
    valor_track_marks: Whole = box_field(low=1, doc="marks of the valor track")

    @model_validator(mode="after")
    def _order(self):
        if self.max_players < self.min_players:
            raise Invalid("player counts must lie within 2..4")
        return self


class SeasonEndTable(BoxModel):
    section: ClassVar[str] = "Haunted Lands: Game Modes"
    season: Whole = box_field(doc="the season it ends")
    clear_depletion: bool = box_field(doc="depletion markers are cleared")
    choosers: Literal["non_leaders", "everyone", "nobody"] = box_field(doc="who chooses quest cards")
    quests: Whole = box_field(doc="quest cards each chooser takes")
    trailing_two_player: Whole | None = box_field(None, doc="quest cards in a 2-player game, when different")


class ModeTable(BoxTable):
    section: ClassVar[str] = "Haunted Lands: Game Modes"
    ghost_card: Whole = box_field(doc="the ghost card of the mode")
    season_ends: list[SeasonEndTable] = box_field(doc="what happens at the end of each season but the last")

    @model_validator(mode="after")
    def _ends(self, info: ValidationInfo):
        ghosts = earlier(info, "ghost_cards.toml")
        if ghosts is not None and self.ghost_card not in card_numbers(ghosts.ghost_cards):
            raise Invalid(f"ghost card {self.ghost_card} does not exist")
        seasons = [e.season for e in self.season_ends]
        if len(set(seasons)) != len(seasons):
            raise Invalid("a season end is listed twice")
        return self


class GameFile(BoxModel):
    structure: Structure
    modes: dict[str, ModeTable] = box_field(section="Haunted Lands: Game Modes", doc="the game modes")

    @model_validator(mode="after")
    def _season_ends(self):
        if not self.modes:
            raise Invalid("no game modes listed (a game is played in one)", entry="modes")
        for name, mode in self.modes.items():
            for e in mode.season_ends:
                if not 1 <= e.season < self.structure.seasons:
                    raise Invalid(f"season end {e.season} is not a season before the last", entry=f"modes.{name}")
        return self

    @model_validator(mode="after")
    def _quests_fit_a_hand(self, info: ValidationInfo):
        """Quest choices must fit in a hand (else a season end would wait for ever)."""
        quests = earlier(info, "quests.toml")
        for name, mode in self.modes.items() if quests is not None else ():
            for n in range(self.structure.min_players, self.structure.max_players + 1):
                total = sum(e.trailing_two_player if n == 2 and e.trailing_two_player is not None else e.quests
                            for e in mode.season_ends if e.choosers != "nobody")
                if total > quests.hand(n):
                    raise Invalid(f"players may be asked for {total} quest cards in a {n}-player game but hold only "
                                  f"{quests.hand(n)}", entry=f"modes.{name}")
        return self


#: Every file of the box, in the order it is checked (a file's checks read the files
#: before it): the Game's ``box_schema``.
SCHEMA = BoxSchema({"player_board.toml": PlayerBoardFile, "terrain.toml": TerrainFile, "buildings.toml": BuildingsFile,
                    "field.toml": FieldFile, "tiles.csv": TilesFile, "dice.toml": DiceFile, "skills.toml": SkillsFile,
                    "quests.toml": QuestsFile, "ghost_cards.toml": GhostsFile, "market_cards.toml": MarketsFile,
                    "bonus_cards.toml": BonusFile, "supplies.toml": SuppliesFile, "game.toml": GameFile},
                   parsers={"tiles.csv": parse_tiles})

__all__ = ["SCHEMA", "MAX_NUMBER", "MAX_SEASONS", "MAX_ROUNDS", "MAX_SLOTS", "MAX_CARD_NUMBER", "MAX_COORDINATE",
           "NEAR_LAKE", "card_numbers", "parse_tiles", "unused_problem"]
