"""The box as data: load and validate every component and number from ``data/``.

Every value in the box comes from a human-editable file in ``data/`` (TOML or CSV) and
carries its provenance: ``"rulebook"`` when the rulebook prints it, ``"kit default"``
when the kit chose it (see ``docs/RULINGS.md``). Code holds rules, not numbers. A box
loaded from another folder (a house-rule copy) is compared with the box the kit ships:
every value that differs from it, or that the shipped box does not have, gets a third
provenance, ``"house rule"``, whatever its file says.

:func:`load_box` reads a directory, checks every entry and returns an immutable
:class:`Box`. The files are read with the kit's :class:`~haunted_kit.boxfile.BoxFile`
and :func:`~haunted_kit.boxfile.read_box_text` (size limit, UTF-8, nesting depth, blank
keys, typed fields), as every game's are. A malformed or inconsistent file raises
:class:`BoxError`, whose message names the file, the entry and the problem, e.g.::

    BoxError: tiles.csv, entry R03: cell 'NE' has unknown terrain letter 'X' (known: P, F, M, L)

The data directory is found in this order: the ``path`` argument, the environment
variable ``HAUNTED_KIT_DATA``, the copy packed inside an installed wheel
(``haunted_kit/_box``), the ``data/`` folder of a source checkout.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..boxfile import MAX_NUMBER, REFERENCE_DIRS, BoxError, BoxFile, data_dir, read_box_text, shipped_dir
from ..boxschema import provenance_rows, read_file
from .boxmodels import SCHEMA
from .effects import EFFECTS, effect_problem, unused_fields, used_fields
from ..provenance import PROVENANCES, Fingerprinted, mark_house_rules, value_fingerprint
from ..protocol import is_integer

__all__ = [
    "Box",
    "BoxError",
    "Building",
    "BonusReward",
    "Mode",
    "SeasonEnd",
    "MarketOption",
    "Skill",
    "Quest",
    "GhostCard",
    "Terrain",
    "Track",
    "data_dir",
    "default_box",
    "load_box",
]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Terrain:
    """One terrain type (rulebook: "Game Field, Tiles and Terrain Types")."""

    name: str
    letter: str
    explore_cost: int  #: exploration tokens to enter; meaningless when not explorable
    extract: str  #: resource extracted on this terrain ("" for none)
    water_near_lake: bool  #: water may be extracted here when adjacent to a lake
    build: str  #: building of this terrain ("" for none)
    noria_near_lake: bool  #: a noria may be built here when adjacent to a lake
    sell: bool  #: selling is allowed here
    train_and_learn: bool  #: training and learning are allowed here
    explorable: bool
    holds_ghosts: bool


@dataclass(frozen=True, slots=True)
class Building:
    """One building type (rulebook: "Buildings")."""

    name: str
    terrain: str  #: terrain it stands on, or "near lake" for the noria
    cost_tokens: int  #: construction tokens
    cost: tuple[str, ...]  #: resources paid, one name per token
    valor: int
    income: str  #: resource produced at production
    production: int = 1  #: how many of ``income`` it produces each production (kit default 1)


@dataclass(frozen=True, slots=True)
class Track:
    """One action track of the player board."""

    name: str
    slots: int
    start_tokens: int
    training_costs: tuple[int, ...]  #: pecunias for slot i (0-based); 0 for starting slots
    last_slot_valor: int


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill card (rulebook: "Card Reference / Skill Cards")."""

    number: int
    deck: str
    cost: tuple[str, ...]
    effect: str
    amount: int  #: the effect's number (0 for an effect that reads none; see haunted_kit.haunted.effects)
    text: str


@dataclass(frozen=True, slots=True)
class Quest:
    """A quest card (rulebook: "Card Reference / Quest Cards")."""

    number: int
    effect: str
    per: int
    valor: int
    text: str
    building: str = ""


@dataclass(frozen=True, slots=True)
class GhostCard:
    number: int
    effect: str
    text: str
    amount: int = 0


@dataclass(frozen=True, slots=True)
class MarketOption:
    """One exchange option of a market card: pay ``count`` resources, get ``pecunias``."""

    count: int
    kind: str  #: "any", "same" or "different"
    pecunias: int

    def describe(self) -> str:
        if self.kind == "any":
            what = "1 resource" if self.count == 1 else f"{self.count} resources"
        else:
            what = f"{self.count} resources of {'the same type' if self.kind == 'same' else 'different types'}"
        return f"{what} -> {self.pecunias} pecunias"


@dataclass(frozen=True, slots=True)
class BonusReward:
    """What one bonus-die face gives on a season's bonus card."""

    face: int
    pecunias: int
    resources: int  #: resources of the receiver's choice
    valor: int

    def describe(self) -> str:
        parts = []
        if self.valor:
            parts.append(f"{self.valor} valor")
        if self.resources:
            parts.append("1 resource" if self.resources == 1 else f"{self.resources} resources")
        if self.pecunias:
            parts.append("1 pecunia" if self.pecunias == 1 else f"{self.pecunias} pecunias")
        return " + ".join(parts) or "nothing"


@dataclass(frozen=True, slots=True)
class BonusCard:
    season: int
    contact_cost: int
    rewards: tuple[BonusReward, ...]  #: indexed by face - 1


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """What happens at the end of a season in a mode (rulebook: "Game Flow", step 3)."""

    season: int
    clear_depletion: bool
    choosers: str  #: "non_leaders", "everyone" or "nobody"
    quests: int
    trailing_two_player: int | None = None


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    ghost_card: int
    season_ends: tuple[SeasonEnd, ...]

    def season_end(self, season: int) -> SeasonEnd | None:
        for end in self.season_ends:
            if end.season == season:
                return end
        return None


@dataclass(frozen=True, eq=False)
class Box(Fingerprinted):
    """Every component and number of the game, as loaded from ``data/``.

    All collections are tuples or read-only mappings; a Box is shared by every game
    that uses it and never changes after loading.
    """

    path: str
    directions: tuple[tuple[int, int], ...]
    direction_names: tuple[str, ...]
    kalena_centre: tuple[int, int]
    region_centres: tuple[tuple[int, int], ...]
    kalena_centre_terrain: str
    kalena_ring_terrain: str
    region_tiles_drawn: int
    tiles: dict[str, tuple[str, ...]]  #: tile id -> 7 terrain names (centre, E, NE, NW, W, SW, SE)
    terrains: dict[str, Terrain]
    terrain_die: tuple[str, ...]
    terrain_die_with_lakes: tuple[str, ...]
    bonus_die: tuple[int, ...]
    buildings: dict[str, Building]
    resources: tuple[str, ...]
    resource_cap: int
    tracks: dict[str, Track]
    extraction_tokens: int
    skill_slot_valor: tuple[int, ...]
    covered_slots: dict[int, tuple[int, ...]]  #: players -> covered marker slot indexes
    skills: dict[int, Skill]
    quests: dict[int, Quest]
    removed_quests: dict[int, tuple[int, ...]]  #: players -> quests returned to the box
    ghost_cards: dict[int, GhostCard]
    market_cards: dict[int, tuple[MarketOption, ...]]
    bonus_cards: dict[int, BonusCard]
    supply_ghosts: int
    supply_buildings: dict[str, int]
    supply_resources: dict[str, int]
    supply_depletion: int
    supply_tokens: dict[str, int]
    player_markers: int
    seasons: int
    rounds_per_season: int
    ghosts_per_spread: int
    min_players: int
    max_players: int
    valor_track_marks: int
    modes: dict[str, Mode]
    provenance: tuple[tuple[str, str, str, str], ...] = field(repr=False)
    fingerprint: str = field(default="", repr=False)
    """SHA-256 of the loaded values (:func:`haunted_kit.provenance.value_fingerprint`):
    saves record it, so a game is never continued or scored with another box by mistake;
    a comment or layout edit of the files keeps it."""
    file_fingerprint: str = field(default="", repr=False)
    """SHA-256 of the data files' bytes, which kits before the value fingerprint recorded:
    their saves load while the files are unchanged (:meth:`accepts_fingerprint`)."""
    values: dict = field(default_factory=dict, repr=False, compare=False)
    """(file, entry, field) -> the value as written in the file (TOML value or tile letter)."""

    @property
    def skill_decks(self) -> dict[str, tuple[int, ...]]:
        """Deck name -> skill numbers in that deck, in deck order of first appearance."""
        decks: dict[str, list[int]] = {}
        for number in sorted(self.skills):
            decks.setdefault(self.skills[number].deck, []).append(number)
        return {k: tuple(v) for k, v in decks.items()}

    @property
    def earlier_fingerprints(self) -> frozenset:
        """For the kit's reference data, :data:`EARLIER_REFERENCE_FINGERPRINTS` (earlier
        texts of the same rules); for any other box, none. Used by
        :meth:`~haunted_kit.provenance.Fingerprinted.accepts_fingerprint`."""
        return frozenset(EARLIER_REFERENCE_FINGERPRINTS) if Path(self.path).resolve() in _REFERENCE_DIRS else frozenset()

    def provenance_frame(self):
        """Every value's provenance as a :class:`pandas.DataFrame`.

        Columns: ``file``, ``entry``, ``field``, ``provenance`` (``"rulebook"``,
        ``"kit default"`` or ``"house rule"``); one row per value.
        """
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame(list(self.provenance), columns=["file", "entry", "field", "provenance"])


#: Fingerprints of earlier texts of the kit's own ``data/`` that give the same rules as
#: today's: saves made with them load with the reference box (``Box.accepts_fingerprint``).
EARLIER_REFERENCE_FINGERPRINTS: dict[str, str] = {
    "62a769e088d69019dbdd415debd0a85e9bee9a6b2a8101c72b9d97ea51c1218a":
        "before building production became a data value (1, as the code had it) and unused skill amounts were dropped",
    "98e179004a4c821642572a51008b5099259b18c1257039671a0065571141765c":
        "the files' bytes when saves recorded a hash of the bytes, not of the loaded values (the same values as today)",
}
#: where the kit's own data lives: packaged (``_box``) or in a checkout (``data``)
_REFERENCE_DIRS = REFERENCE_DIRS

# --------------------------------------------------------------------------- loading helpers


#: Tighter bounds for the numbers that size the game itself (any other number is at most
#: :data:`haunted_kit.boxfile.MAX_NUMBER`).
MAX_SEASONS, MAX_ROUNDS, MAX_SLOTS, MAX_CARD_NUMBER, MAX_COORDINATE = 12, 12, 24, 99, 99


def _number_key(file: "_File", key: str, entry: str) -> int:
    """A table key naming a card number ("1".."99")."""
    if not (key.isascii() and key.isdigit()) or not 0 < int(key) <= MAX_CARD_NUMBER:
        file.fail(entry, f"card keys must be numbers 1..{MAX_CARD_NUMBER}, got {key!r}")
    return int(key)


class _File(BoxFile):
    """A data file of the Haunted Lands box: :class:`~haunted_kit.boxfile.BoxFile` and
    the checks of fields against the effects registry."""

    def effect(self, table: dict, key: str, family: str, entry: str) -> str:
        """The effect named by ``table[key]``, refused unless registered in ``family``
        of :data:`haunted_kit.haunted.effects.EFFECTS`."""
        name = self.get(table, key, str, entry)
        problem = effect_problem(family, name)
        if problem:
            self.fail(entry, f"field '{key}': {problem}")
        return name

    def only_used(self, table: dict, entry: str, family: str, effects) -> None:
        """Refuse a field of ``table`` that neither ``family`` nor ``effects`` read
        (:func:`haunted_kit.haunted.effects.unused_fields`): a value that would change nothing."""
        extra = unused_fields(family, effects, table)
        if extra:
            said = " and ".join(f"{e!r}" for e in effects) if effects else f"a {family}"
            self.fail(entry, f"field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))} "
                             f"{'are' if len(extra) > 1 else 'is'} not used by {said} (it reads "
                             f"{', '.join(sorted(used_fields(family, effects) - {'provenance'}))})")


def _fields(table: dict) -> list[str]:
    return [k for k in table if k != "provenance"]


#: skill effect -> the terrain whose exploration it makes cheaper (:func:`haunted_kit.haunted.rules.entry_cost`)
CHEAPER_TERRAIN = {"cheaper_forest": "forest", "cheaper_mountain": "mountain"}


def _refuse_free_exploration(terrains: dict, skills: dict) -> None:
    """Refuse a box where a skill's discount (skills 4 and 5) brings an explorable terrain's
    exploration cost below 1 token (kit ruling 41): exploring there would be free for a player
    with that skill, who could then move back and forth for ever, since a turn ends only when
    its player can do nothing or chooses to stop (rulebook "Game Flow", turn step; "Basic
    Actions": an action needs its cost paid). Ghost card 3 only adds to a cost.

    Raises:
        BoxError: on ``terrain.toml``'s terrain entry, naming the skill, its discount and the cost left.
    """
    for sk in skills.values():
        name = CHEAPER_TERRAIN.get(sk.effect)
        t = terrains.get(name)
        if t is None or not t.explorable or t.explore_cost - sk.amount >= 1:
            continue
        raise BoxError("terrain.toml", name, f"explore_cost {t.explore_cost} less skill {sk.number}'s discount of "
                                             f"{sk.amount} (skills.toml, skills.{sk.number} amount) leaves "
                                             f"{t.explore_cost - sk.amount}: exploring a {name} would be free with "
                                             f"that skill, so a turn need never end; every explorable terrain must "
                                             f"cost at least 1 token after each skill's discount (kit ruling 41; "
                                             f"rulebook \"Basic Actions: Exploration\")")


# --------------------------------------------------------------------------- the loader


def load_box(path: str | os.PathLike | None = None) -> Box:
    """Load and validate the box from a data directory.

    The files ``player_board.toml``, ``terrain.toml``, ``dice.toml``, ``supplies.toml`` and
    ``game.toml`` are checked against their schema (:data:`haunted_kit.haunted.boxmodels.SCHEMA`,
    :mod:`haunted_kit.boxschema`); the others by the readers below. Files are read in the
    order the checks need (resources first, cards before the modes that name them).

    Args:
        path: a directory holding the files of ``data/``; ``None`` finds the default one.

    Returns:
        a validated, immutable :class:`Box`.

    Raises:
        BoxError: naming the file, the entry (key path), the problem and, for the schema
            files, the rule section, for a missing, oversized, non-UTF-8 or too deeply
            nested file, bad syntax, a blank key or name, a missing field or provenance,
            an unknown field, a wrong type, a number out of bounds, an unknown name or an
            inconsistency between files.
    """
    root = data_dir(path)
    rows: list[tuple[str, str, str, str, Any]] = []
    out: dict[str, Any] = {"path": str(root)}
    ctx: dict[str, Any] = {}
    _board_records(_schema_file(root, "player_board.toml", rows, ctx), out)
    _terrain_records(_schema_file(root, "terrain.toml", rows, ctx), out)
    _read_buildings(root, rows, out)
    _read_field(root, rows, out)
    _read_tiles(root, rows, out)
    ctx["field.toml"] = {"centre_terrain": out["kalena_centre_terrain"], "ring_terrain": out["kalena_ring_terrain"]}
    dice = _schema_file(root, "dice.toml", rows, ctx)
    for key in ("terrain_die", "terrain_die_with_lakes", "bonus_die"):
        out[key] = tuple(getattr(dice, key).faces)
    _read_skills(root, rows, out)
    _read_quests(root, rows, out)
    _read_ghosts(root, rows, out)
    _read_markets(root, rows, out)
    _read_bonus(root, rows, out)
    ctx["buildings.toml"] = tuple(out["buildings"])
    _supply_records(_schema_file(root, "supplies.toml", rows, ctx), out)
    ctx["ghost_cards.toml"] = out["ghost_cards"]
    _game_records(_schema_file(root, "game.toml", rows, ctx), out)
    _check_across_files(out)
    return _finish(root, rows, out)


def _plain(value):
    """A checked value as the file wrote it (a table of a list as a dict of its written keys)."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_unset=True)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _schema_file(root: Path, name: str, rows: list, ctx: dict) -> BaseModel:
    """The file ``name`` read and checked against its model in :data:`SCHEMA`, with the
    files checked before it as context; its provenance rows appended to ``rows``. Raises BoxError."""
    inst = read_file(root, name, SCHEMA.files[name], label=SCHEMA.label_of(name), context=dict(ctx))
    rows.extend((f, e, k, p, _plain(v)) for f, e, k, p, v in provenance_rows(inst, SCHEMA.label_of(name)))
    ctx[name] = inst
    return inst


def _board_records(board, out: dict) -> None:
    out["resources"] = tuple(board.resources.names)
    out["resource_cap"] = board.resources.cap
    out["tracks"] = {name: Track(name, t.slots, t.start_tokens, tuple(t.training_costs), t.last_slot_valor)
                     for name, t in board.tracks.items()}
    out["extraction_tokens"] = board.action_costs.extraction_tokens


def _terrain_records(terrain, out: dict) -> None:
    out["terrains"] = {name: Terrain(name=name, **t.model_dump()) for name, t in terrain.root.items()}


def _supply_records(supplies, out: dict) -> None:
    s = supplies.supply
    out["supply_ghosts"], out["supply_depletion"], out["player_markers"] = s.ghosts, s.depletion, s.player_markers
    out["supply_buildings"] = {n: s.buildings[n] for n in out["buildings"]}
    out["supply_resources"] = {n: s.resources[n] for n in out["resources"]}
    out["supply_tokens"] = {n: s.action_tokens[n] for n in out["tracks"]}


def _game_records(game, out: dict) -> None:
    st = game.structure
    for key in ("seasons", "rounds_per_season", "ghosts_per_spread", "min_players", "max_players", "valor_track_marks"):
        out[key] = getattr(st, key)
    out["modes"] = {name: Mode(name, m.ghost_card, tuple(
        SeasonEnd(e.season, e.clear_depletion, e.choosers, e.quests, e.trailing_two_player) for e in m.season_ends))
        for name, m in game.modes.items()}


def _check_across_files(out: dict) -> None:
    """The checks that tie files together: setup's action tokens, a bonus card per season,
    a skill deck, no free exploration (kit ruling 41) and quest choices that fit a hand.
    Raises BoxError naming the file whose value falls short."""
    tracks, bonus = out["tracks"], out["bonus_cards"]
    for n in range(out["min_players"], out["max_players"] + 1):
        for tr in tracks.values():
            if out["supply_tokens"][tr.name] < n * tr.start_tokens:
                raise BoxError("supplies.toml", "supply", f"{n} players need {n * tr.start_tokens} {tr.name} tokens at "
                                                          f"setup, the supply has {out['supply_tokens'][tr.name]}",
                               section="Haunted Lands: Game Setup")
    for season in range(1, out["seasons"] + 1):
        if season not in bonus:
            raise BoxError("bonus_cards.toml", f"bonus_cards.{season}", "missing: every season needs a bonus card")
    if not out["skills"]:
        raise BoxError("skills.toml", "skills", "no skills listed")
    _refuse_free_exploration(out["terrains"], out["skills"])
    # quest choices must fit in a hand (otherwise a season end would wait forever)
    quests = out["quests"]
    for mode in out["modes"].values():
        for n in range(out["min_players"], out["max_players"] + 1):
            hand = len([q for q in quests if q not in out["removed_quests"].get(n, ())])
            total = 0
            for end in mode.season_ends:
                if end.choosers != "nobody":
                    total += end.trailing_two_player if (n == 2 and end.trailing_two_player is not None) else end.quests
            if total > hand:
                raise BoxError("game.toml", f"modes.{mode.name}", f"players may be asked for {total} quest cards in a "
                                                                  f"{n}-player game but hold only {hand}",
                               section="Haunted Lands: Game Modes")


def _finish(root: Path, rows: list, out: dict) -> Box:
    """The Box: values as written, provenance (house rules marked against the shipped box), fingerprints."""
    values = {(f, e, k): v for f, e, k, _p, v in rows}
    shipped = None if _same_dir(root, shipped_dir()) else _shipped_values()
    out["values"] = values
    out["provenance"] = mark_house_rules(rows, shipped)
    digest = hashlib.sha256()
    for name in sorted(p.name for p in root.iterdir() if p.is_file()):
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    out["file_fingerprint"] = digest.hexdigest()
    out["fingerprint"] = value_fingerprint(out)
    return Box(**out)


def _read_buildings(root: Path, rows: list, out: dict) -> None:
    """buildings.toml (read by hand): out['buildings']. Raises BoxError."""
    resources = out["resources"]
    terrains = out["terrains"]
    f = _File(root, "buildings.toml", rows)
    d = f.data
    buildings = {}
    for name, _entry, t in f.entries(d):
        terrain = f.get(t, "terrain", str, name)
        if terrain != "near lake" and terrain not in terrains:
            f.fail(name, f"field 'terrain' names unknown terrain {terrain!r}")
        f.only_used(t, name, "building", ["production"])
        income = f.get(t, "income", str, name)
        if income not in resources:
            f.fail(name, f"field 'income' names unknown resource {income!r}")
        buildings[name] = Building(
            name,
            terrain,
            f.get(t, "cost_tokens", int, name),
            f.str_list(t, "cost", name, resources),
            f.get(t, "valor", int, name),
            income,
            f.get(t, "production", int, name),
        )
        f.provenance(t, name, _fields(t))
    if "noria" not in buildings or buildings["noria"].terrain != "near lake":
        f.fail("noria", "the noria must exist with terrain = \"near lake\"")
    for t in terrains.values():
        if t.build and t.build not in buildings:
            raise BoxError("terrain.toml", t.name, f"field 'build' names unknown building {t.build!r}")
    for b in buildings.values():
        if b.terrain == "near lake":
            continue
        if terrains[b.terrain].build != b.name:
            f.fail(b.name, f"terrain = {b.terrain!r}, but terrain.toml says a {b.terrain} builds "
                           f"{terrains[b.terrain].build or 'nothing'!r}; the two files must agree")
    out["buildings"] = buildings



def _read_field(root: Path, rows: list, out: dict) -> None:
    """field.toml (read by hand): the field's geometry and layout into ``out``. Raises BoxError."""
    terrains = out["terrains"]
    f = _File(root, "field.toml", rows, tables=("geometry", "layout", "kalena", "draw"))
    d = f.data
    g = f.table(d, "geometry", fields=("orientation", "direction_names", "directions"))
    dirs = f.get(g, "directions", list, "geometry")
    if len(dirs) != 6 or not all(isinstance(x, list) and len(x) == 2 and all(is_integer(i) for i in x) for x in dirs):
        f.fail("geometry", "field 'directions' must list 6 [dq, dr] pairs")
    out["directions"] = tuple(tuple(x) for x in dirs)
    if set(out["directions"]) != {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}:
        f.fail("geometry", "field 'directions' must be the six axial unit directions")
    out["direction_names"] = f.str_list(g, "direction_names", "geometry")
    if len(out["direction_names"]) != 6:
        f.fail("geometry", "field 'direction_names' must list 6 names")
    if f.get(g, "orientation", str, "geometry") != "pointy":
        f.fail("geometry", "only orientation = \"pointy\" is supported")
    f.provenance(g, "geometry", _fields(g))
    lay = f.table(d, "layout", fields=("kalena_centre", "region_centres", "rotation"))
    kc = f.get(lay, "kalena_centre", list, "layout")
    rc = f.get(lay, "region_centres", list, "layout")

    def is_pair(x):
        return isinstance(x, list) and len(x) == 2 and all(is_integer(i) and abs(i) <= MAX_COORDINATE for i in x)

    if not is_pair(kc):
        f.fail("layout", f"field 'kalena_centre' must be an axial pair [q, r] of integers within ±{MAX_COORDINATE}, got {kc!r}")
    for x in rc:
        if not is_pair(x):
            f.fail("layout", f"field 'region_centres' must list axial pairs [q, r] of integers within ±{MAX_COORDINATE}, got {x!r}")
    out["kalena_centre"] = tuple(kc)
    out["region_centres"] = tuple(tuple(x) for x in rc)
    if f.get(lay, "rotation", str, "layout") != "none":  # the engine lays every tile facing the same way
        f.fail("layout", f"only rotation = \"none\" is supported (the rules lay all tiles facing the same way), "
                         f"got {lay['rotation']!r}")
    f.provenance(lay, "layout", _fields(lay))
    k = f.table(d, "kalena", fields=("centre", "ring"))
    out["kalena_centre_terrain"] = f.get(k, "centre", str, "kalena")
    out["kalena_ring_terrain"] = f.get(k, "ring", str, "kalena")
    for key in ("centre", "ring"):
        if k[key] not in terrains:
            f.fail("kalena", f"field '{key}' names unknown terrain {k[key]!r}")
    if not terrains[k["centre"]].explorable:
        f.fail("kalena", f"the sensors start on Kalena's centre, but its terrain {k['centre']!r} cannot be entered "
                         "(explorable = false in terrain.toml)")
    f.provenance(k, "kalena", _fields(k))
    dr = f.table(d, "draw", fields=("region_tiles",))
    out["region_tiles_drawn"] = f.get(dr, "region_tiles", int, "draw", high=MAX_SLOTS)
    if out["region_tiles_drawn"] != len(out["region_centres"]):
        f.fail("draw", f"region_tiles ({out['region_tiles_drawn']}) must equal the number of region_centres ({len(out['region_centres'])})")
    f.provenance(dr, "draw", _fields(dr))
    # every tile's 7 cells must be distinct across the whole field
    cells = set()
    for centre in (out["kalena_centre"],) + out["region_centres"]:
        for dq, dr_ in ((0, 0),) + out["directions"]:
            cell = (centre[0] + dq, centre[1] + dr_)
            if cell in cells:
                f.fail("layout", f"tiles overlap at cell {cell}")
            cells.add(cell)



def _read_tiles(root: Path, rows: list, out: dict) -> None:
    """tiles.csv (read by hand): out['tiles'], tile id -> 7 terrain names. Raises BoxError."""
    terrains = out["terrains"]
    name = "tiles.csv"
    text = "\n".join(line for line in read_box_text(root, name).splitlines() if not line.startswith("#"))
    reader = csv.DictReader(io.StringIO(text))
    by_letter = {t.letter: t.name for t in terrains.values()}
    columns = ["tile", "centre", *out["direction_names"], "provenance"]
    try:
        rows_t = list(reader)
    except csv.Error as exc:
        raise BoxError(name, f"line {reader.line_num}", f"not valid CSV ({exc})") from None
    if reader.fieldnames != columns:
        raise BoxError(name, "header", f"columns must be {', '.join(columns)}, got {', '.join(reader.fieldnames or [])}")
    tiles = {}
    for i, row in enumerate(rows_t, start=2):
        if None in row or None in row.values():
            raise BoxError(name, f"line {i}", f"a row must have exactly the {len(columns)} columns {', '.join(columns)}")
        tid = (row.get("tile") or "").strip()
        if not tid:
            raise BoxError(name, f"line {i}", "missing tile id")
        if tid in tiles:
            raise BoxError(name, tid, "duplicate tile id")
        cells_t = []
        for col in columns[1:-1]:
            letter = (row.get(col) or "").strip()
            if letter not in by_letter:
                raise BoxError(name, tid, f"cell {col!r} has unknown terrain letter {letter!r} (known: {', '.join(by_letter)})")
            cells_t.append(by_letter[letter])
        prov = (row.get("provenance") or "").strip()
        if prov not in PROVENANCES:
            raise BoxError(name, tid, f"provenance must be \"rulebook\" or \"kit default\", got {prov!r}")
        tiles[tid] = tuple(cells_t)
        rows.extend((name, tid, col, prov, (row.get(col) or "").strip()) for col in columns[1:-1])
    if len(tiles) < out["region_tiles_drawn"]:
        raise BoxError(name, "-", f"{len(tiles)} tiles listed but {out['region_tiles_drawn']} are drawn per game")
    out["tiles"] = tiles



def _read_skills(root: Path, rows: list, out: dict) -> None:
    """skills.toml (read by hand): marker slots and skill cards into ``out``. Raises BoxError."""
    resources = out["resources"]
    f = _File(root, "skills.toml", rows, tables=("marker_slots", "skills"))
    d = f.data
    ms = f.table(d, "marker_slots", fields=("valor", "covered_3_players", "covered_2_players"))
    out["skill_slot_valor"] = f.int_list(ms, "valor", "marker_slots")
    nslots = len(out["skill_slot_valor"])
    covered = {3: f.int_list(ms, "covered_3_players", "marker_slots"), 2: f.int_list(ms, "covered_2_players", "marker_slots"), 4: ()}
    for n, cov in covered.items():
        if len(set(cov)) != len(cov):
            f.fail("marker_slots", f"covered slots repeat for {n} players: {list(cov)}")
        if any(c >= nslots for c in cov):
            f.fail("marker_slots", f"covered slot out of range for {n} players (slots 0..{nslots - 1})")
        if nslots - len(cov) < n:
            f.fail("marker_slots", f"{n} players need {n} open marker slots, only {nslots - len(cov)} are open")
    out["covered_slots"] = covered
    f.provenance(ms, "marker_slots", _fields(ms))
    skills = {}
    for key, entry, t in f.entries(d, "skills"):
        _number_key(f, key, entry)
        effect = f.effect(t, "effect", "skill", entry)
        f.only_used(t, entry, "skill", [effect])
        amount = f.get(t, "amount", int, entry) if "amount" in EFFECTS["skill"][effect].params else 0
        skills[int(key)] = Skill(int(key), f.get(t, "deck", str, entry, empty=False),
                                 f.str_list(t, "cost", entry, resources), effect,
                                 amount, f.get(t, "text", str, entry))
        f.provenance(t, entry, _fields(t))
    out["skills"] = skills



def _read_quests(root: Path, rows: list, out: dict) -> None:
    """quests.toml (read by hand): quest cards and the quests removed per player count. Raises BoxError."""
    buildings = out["buildings"]
    f = _File(root, "quests.toml", rows, tables=("quests", "removed"))
    d = f.data
    quests = {}
    for key, entry, t in f.entries(d, "quests"):
        _number_key(f, key, entry)
        effect = f.effect(t, "effect", "quest", entry)
        f.only_used(t, entry, "quest", [effect])
        building = f.get(t, "building", str, entry, default="")
        if effect == "buildings" and building not in buildings:
            f.fail(entry, f"field 'building' must name a building, got {building!r}")
        per = f.get(t, "per", int, entry)
        if per < 1:
            f.fail(entry, "field 'per' must be at least 1")
        quests[int(key)] = Quest(int(key), effect, per, f.get(t, "valor", int, entry), f.get(t, "text", str, entry), building)
        f.provenance(t, entry, _fields(t))
    if not quests:
        f.fail("quests", "no quest cards listed")
    out["quests"] = quests
    rm = f.table(d, "removed", fields=("players_2",))
    out["removed_quests"] = {2: f.int_list(rm, "players_2", "removed"), 3: (), 4: ()}
    for q in out["removed_quests"][2]:
        if q not in quests:
            f.fail("removed", f"quest {q} does not exist")
    f.provenance(rm, "removed", _fields(rm))



def _read_ghosts(root: Path, rows: list, out: dict) -> None:
    """ghost_cards.toml (read by hand): out['ghost_cards']. Raises BoxError."""
    f = _File(root, "ghost_cards.toml", rows, tables=("ghost_cards",))
    d = f.data
    ghosts = {}
    for key, entry, t in f.entries(d, "ghost_cards"):
        _number_key(f, key, entry)
        effect = f.effect(t, "effect", "ghost card", entry)
        f.only_used(t, entry, "ghost card", [effect])
        amount = f.get(t, "amount", int, entry) if "amount" in EFFECTS["ghost card"][effect].params else 0
        ghosts[int(key)] = GhostCard(int(key), effect, f.get(t, "text", str, entry), amount)
        f.provenance(t, entry, _fields(t))
    out["ghost_cards"] = ghosts



def _read_markets(root: Path, rows: list, out: dict) -> None:
    """market_cards.toml (read by hand): out['market_cards']. Raises BoxError."""
    resources = out["resources"]
    f = _File(root, "market_cards.toml", rows, tables=("market_cards",))
    d = f.data
    markets = {}
    for key, card in f.table(d, "market_cards").items():
        _number_key(f, key, f"market_cards.{key}")
        opts = card.get("options") if isinstance(card, dict) else None
        if not isinstance(opts, list) or not opts:
            f.fail(f"market_cards.{key}", "needs a list of [[options]]")
        f.only_fields(card, f"market_cards.{key}", ("options",))
        options = []
        for i, o in enumerate(opts, start=1):
            entry = f"market_cards.{key}.options[{i}]"
            count = f.get(o, "count", int, entry)
            kind = f.effect(o, "kind", "market option", entry)
            f.only_used(o, entry, "market option", [kind])
            if count < 1 or (kind == "any" and count != 1) or (kind == "different" and count > len(resources)):
                f.fail(entry, f"count {count} does not fit kind {kind!r}")
            if kind == "same" and count > out["resource_cap"]:
                f.fail(entry, f"count {count} of the same type exceeds the resource cap {out['resource_cap']}")
            options.append(MarketOption(count, kind, f.get(o, "pecunias", int, entry)))
            f.provenance(o, entry, _fields(o))
        markets[int(key)] = tuple(options)
    if not markets:
        f.fail("market_cards", "no market cards listed (setup draws one)")
    out["market_cards"] = markets



def _read_bonus(root: Path, rows: list, out: dict) -> None:
    """bonus_cards.toml (read by hand): out['bonus_cards']. Raises BoxError."""
    f = _File(root, "bonus_cards.toml", rows, tables=("bonus_cards",))
    d = f.data
    bonus = {}
    for key, entry, card in f.entries(d, "bonus_cards"):
        _number_key(f, key, entry)
        rewards = f.get(card, "rewards", list, entry)
        f.only_fields(card, entry, ("contact_cost", "rewards"))
        rs = []
        for r in rewards:
            if isinstance(r, dict):
                f.only_used(r, entry, "bonus reward", list(EFFECTS["bonus reward"]))
            rs.append(BonusReward(f.get(r, "face", int, entry), f.get(r, "pecunias", int, entry),
                                  f.get(r, "resources", int, entry), f.get(r, "valor", int, entry)))
        faces = tuple(r.face for r in rs)
        if faces != tuple(out["bonus_die"]):
            f.fail(entry, f"rewards must cover the bonus die faces {list(out['bonus_die'])} in order, got {list(faces)}")
        bonus[int(key)] = BonusCard(int(key), f.get(card, "contact_cost", int, entry), tuple(rs))
        if bonus[int(key)].contact_cost < 1:
            f.fail(entry, "contact_cost must be at least 1")
        f.provenance(card, entry, _fields(card))
    out["bonus_cards"] = bonus


def _same_dir(a: Path, b: Path | None) -> bool:
    return b is not None and a.resolve() == b.resolve()


@lru_cache(maxsize=1)
def _shipped_values() -> dict | None:
    """The shipped box's values, to tell house rules apart; ``None`` if not found."""
    root = shipped_dir()
    return None if root is None else load_box(root).values


@lru_cache(maxsize=1)
def default_box() -> Box:
    """The reference box, loaded once from the default data directory."""
    return load_box()
