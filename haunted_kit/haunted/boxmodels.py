"""The schema of the Haunted Lands box: one pydantic model per file of ``data/`` read
through :mod:`haunted_kit.boxschema` (strict types, bounds, unknown keys refused,
provenance per value, cross-field checks as model validators raising
:class:`~haunted_kit.boxschema.Invalid`; every error a
:class:`~haunted_kit.boxfile.BoxError` naming the file, key path, problem and rule section).

Files checked later see the files checked before them through the validation context
(:func:`~haunted_kit.boxschema.earlier`): ``player_board.toml`` (the resources) comes
first. :data:`SCHEMA` lists the files read by schema, in order; :func:`haunted_kit.haunted.box.load_box`
builds the :class:`~haunted_kit.haunted.box.Box` records from them.
"""

from __future__ import annotations

import json
from typing import ClassVar, Literal

from pydantic import ValidationInfo, model_validator

from ..boxfile import MAX_NUMBER
from ..boxschema import BoxEntries, BoxModel, BoxSchema, BoxTable, Invalid, Name, Names, Whole, box_field, earlier, require_known

MAX_SEASONS, MAX_ROUNDS, MAX_SLOTS = 12, 12, 24
TRACKS = ("exploration", "contact", "extraction", "construction")
NEEDED_TERRAINS = ("city", "suburb", "plain", "forest", "mountain", "lake")


def _resources(info: ValidationInfo) -> list[str] | None:
    board = earlier(info, "player_board.toml")
    return None if board is None else list(board.resources.names)


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
        centre = placed.get("centre_terrain") if isinstance(placed, dict) else None
        ring = placed.get("ring_terrain") if isinstance(placed, dict) else None
        allowed = [t for t in terrains.root if t not in (centre, ring)]
        for key in ("terrain_die", "terrain_die_with_lakes"):
            require_known("faces", getattr(self, key).faces, allowed, entry=key)
        return self


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
        names = {"buildings": earlier(info, "buildings.toml"), "resources": _resources(info), "action_tokens": TRACKS}
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
        if ghosts is not None and self.ghost_card not in ghosts:
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


#: The files of the box read by schema, in the order they are checked (the Game's
#: ``box_schema``). The others (buildings, field, tiles, cards) are read by hand in box.py.
SCHEMA = BoxSchema({"player_board.toml": PlayerBoardFile, "terrain.toml": TerrainFile, "dice.toml": DiceFile,
                    "supplies.toml": SuppliesFile, "game.toml": GameFile})

__all__ = ["SCHEMA", "MAX_NUMBER"]
