"""The flow of a game as data: phases, the round's steps, pending decisions, chance nodes.

Everything here is vocabulary, read by the engine (which interprets it), the saves
(which check a loaded position against it), the widgets and the scenario builder:

* :class:`Phase` - where in the game a position is; the event log's ``phase`` column;
* :data:`ROUND` - the five steps of a round in order (rulebook "Game Flow", steps
  1-5), then :data:`SEASON_END`, whose content each mode takes from ``data/game.toml``;
* the **pending decisions** (:class:`GhostPlacement`, :class:`ResourceChoice`,
  :class:`BonusChoice`, :class:`RestoreChoice`, :class:`QuestChoice`): a sub-decision a
  player must take before play goes on, one small frozen type per kind, each with the
  phase it belongs to, the actions it accepts and a status sentence; :data:`PENDING`
  is their registry;
* the **chance nodes** (:class:`TileDraw`, :class:`SkillDraw`, :class:`MarketDraw`,
  :class:`StackDraw`, :class:`TerrainDie`, :class:`BonusDie`), registered in
  :data:`CHANCE`.

Both registries read and check the JSON form of saves (:func:`pending_from_json`,
:func:`chance_from_json`), including the list form of version 1 saves
(``["resource", 0, 1, "skill 12"]``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from . import actions as A
from .box import default_box

__all__ = [
    "AUTOMATIC", "CHANCE", "MARKET_DRAW", "PENDING", "ROUND", "SEASON_END", "TERRAIN_DIE", "BonusChoice", "BonusDie", "ChanceNode", "FlowStep", "GhostPlacement",
    "MarketDraw", "Pending", "Phase", "QuestChoice", "ResourceChoice", "RestoreChoice", "SkillDraw", "StackDraw",
    "TerrainDie", "TileDraw", "chance_from_json", "next_step", "pending_from_json",
]


class Phase(StrEnum):
    """Where a game is. The values are the words saves and the event log use."""

    SETUP = "setup"
    SPREAD = "spread"
    PRODUCTION = "production"
    TURNS = "turns"
    REST = "rest"
    REORDER = "reorder"
    SEASON_END = "season_end"
    #: final scoring after the last season (rulebook "Final Scoring"): quests revealed,
    #: valor added, the winner picked; its events carry this phase, and the game is
    #: ``over`` when it is done (no state ever waits in it)
    SCORING = "scoring"
    OVER = "over"


@dataclass(frozen=True)
class FlowStep:
    """One step of the flow: its phase, the rule section, what happens in it."""

    phase: Phase
    section: str
    does: str


#: The steps of every round, in order (rulebook "Game Flow"). The engine runs the
#: handler of each phase, and a step that is done hands over to the next; after the
#: last, the next round, or the season end after a season's last round.
ROUND: tuple[FlowStep, ...] = (
    FlowStep(Phase.SPREAD, "Game Flow: 1. Spread", "the last player rolls the terrain die; ghosts spread there"),
    FlowStep(Phase.PRODUCTION, "Game Flow: 2. Production", "every building produces its income for its owner"),
    FlowStep(Phase.TURNS, "Game Flow: 3. Turns", "each player takes a turn, in turn order"),
    FlowStep(Phase.REST, "Game Flow: 4. Rest", "every player restores all action tokens"),
    FlowStep(Phase.REORDER, "Game Flow: 5. Reorder", "turn order follows the valor track"),
)

#: After a season's last round: the mode's season end (``data/game.toml``: depletion
#: cleared, quest cards chosen by everyone or by all but the leaders), then the next
#: season; after the last season, final scoring.
SEASON_END = FlowStep(Phase.SEASON_END, "Game Modes", "the mode's season end, as data/game.toml gives it")

#: Phases a game never stops in: their steps run by themselves.
AUTOMATIC = frozenset({Phase.PRODUCTION, Phase.REST, Phase.REORDER})

#: round step -> the step after it (None after the last): :func:`next_step`'s table
_NEXT = {step.phase: (ROUND[i + 1].phase if i + 1 < len(ROUND) else None) for i, step in enumerate(ROUND)}


def next_step(phase: Phase) -> Phase | None:
    """The round step after ``phase``, or ``None`` after the last (reorder). Raises
    KeyError for a phase that is not a round step."""
    return _NEXT[phase]


def _skill_card(box, effect: str) -> str:
    """``"skill N"``: the number the box gives the (first) skill card with ``effect``
    (``box`` None: the reference box); ``"the skill"`` if no card has it."""
    box = box if box is not None else default_box()
    numbers = [n for n, sk in sorted(box.skills.items()) if sk.effect == effect]
    return f"skill {numbers[0]}" if numbers else "the skill"


def _who(p: int) -> str:
    return f"P{p + 1}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# ============================================================================ pending decisions


class Pending:
    """A sub-decision waiting for ``player`` (the top of ``state.pending`` decides).

    Class attributes of each kind: ``kind`` (its name in saves), ``phase`` (the only
    phase it can wait in), ``accepts`` (the action types that answer it).
    """

    __slots__ = ()
    kind: ClassVar[str]
    phase: ClassVar[Phase]
    accepts: ClassVar[tuple[type, ...]]
    player: int

    def status(self, box=None) -> str:
        """What the game waits for, as a sentence fragment (``"P2 must ..."``). Card
        numbers come from ``box`` (the game's :class:`~haunted_kit.haunted.box.Box`;
        None: the reference box)."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """``{"kind": ..., field: value, ...}``."""
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True, slots=True)
class GhostPlacement(Pending):
    """Spread: ``player`` (the last in turn order) places ``remaining`` more ghosts on
    free ``terrain`` cells (``"Kalena"`` once that terrain is full). Rulebook "Game
    Flow: 1. Spread", "Ghosts"."""

    player: int
    terrain: str
    remaining: int
    kind: ClassVar[str] = "ghosts"
    phase: ClassVar[Phase] = Phase.SPREAD
    accepts: ClassVar[tuple[type, ...]] = (A.PlaceGhost,)

    def status(self, box=None) -> str:
        where = "Kalena" if self.terrain == "Kalena" else f"{self.terrain} cells"
        return f"{_who(self.player)} must place {_plural(self.remaining, 'more ghost')} on {where} (spread)"


@dataclass(frozen=True, slots=True)
class ResourceChoice(Pending):
    """``player`` takes ``count`` resources of their choice, one at a time; ``why``
    names the source (skill 12, a bonus reward)."""

    player: int
    count: int
    why: str
    kind: ClassVar[str] = "resource"
    phase: ClassVar[Phase] = Phase.TURNS
    accepts: ClassVar[tuple[type, ...]] = (A.ChooseResource,)

    def status(self, box=None) -> str:
        return f"{_who(self.player)} must choose {_plural(self.count, 'resource')} ({self.why})"


@dataclass(frozen=True, slots=True)
class BonusChoice(Pending):
    """The ``choose_bonus`` skill (skill 2 in the reference box): after a contact
    ``player`` takes a reward of the bonus card or rolls."""

    player: int
    kind: ClassVar[str] = "bonus"
    phase: ClassVar[Phase] = Phase.TURNS
    accepts: ClassVar[tuple[type, ...]] = (A.ChooseBonus, A.RollBonus)

    def status(self, box=None) -> str:
        return f"{_who(self.player)} must take a bonus reward or roll the bonus die ({_skill_card(box, 'choose_bonus')})"


@dataclass(frozen=True, slots=True)
class RestoreChoice(Pending):
    """The ``sell_restore`` skill (skill 9 in the reference box): after a sale of
    enough resources ``player`` restores one token."""

    player: int
    kind: ClassVar[str] = "restore"
    phase: ClassVar[Phase] = Phase.TURNS
    accepts: ClassVar[tuple[type, ...]] = (A.RestoreToken,)

    def status(self, box=None) -> str:
        return f"{_who(self.player)} must choose a token to restore ({_skill_card(box, 'sell_restore')})"


@dataclass(frozen=True, slots=True)
class QuestChoice(Pending):
    """Season end: ``player`` takes ``count`` more quest cards face down."""

    player: int
    count: int
    kind: ClassVar[str] = "quests"
    phase: ClassVar[Phase] = Phase.SEASON_END
    accepts: ClassVar[tuple[type, ...]] = (A.ChooseQuest,)

    def status(self, box=None) -> str:
        return f"{_who(self.player)} must choose {_plural(self.count, 'more quest card')} (end of season)"


#: kind -> pending-decision type
PENDING: dict[str, type[Pending]] = {c.kind: c for c in (GhostPlacement, ResourceChoice, BonusChoice, RestoreChoice,
                                                           QuestChoice)}


# ============================================================================ chance nodes


class ChanceNode:
    """A chance event waiting for its outcome (``state.chance``). Class attributes:
    ``kind`` (its name in saves), ``phase`` (the only phase it can wait in)."""

    __slots__ = ()
    kind: ClassVar[str]
    phase: ClassVar[Phase]

    def name(self) -> str:
        """What is drawn or rolled, e.g. ``"terrain die roll"``."""
        raise NotImplementedError

    def to_json(self) -> dict:
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True, slots=True)
class TileDraw(ChanceNode):
    """Setup step 1: the region tile for ``slot`` (0-based) is drawn."""

    slot: int
    kind: ClassVar[str] = "tile"
    phase: ClassVar[Phase] = Phase.SETUP

    def name(self) -> str:
        return f"draw of the region tile for slot {self.slot + 1}"


@dataclass(frozen=True, slots=True)
class SkillDraw(ChanceNode):
    """Setup step 6: the skill card of deck ``deck`` (0-based, deck order) is drawn."""

    deck: int
    kind: ClassVar[str] = "skill"
    phase: ClassVar[Phase] = Phase.SETUP

    def name(self) -> str:
        return "draw of a skill card"


@dataclass(frozen=True, slots=True)
class MarketDraw(ChanceNode):
    """Setup step 7: the market card is drawn."""

    kind: ClassVar[str] = "market"
    phase: ClassVar[Phase] = Phase.SETUP

    def name(self) -> str:
        return "draw of the market card"


@dataclass(frozen=True, slots=True)
class StackDraw(ChanceNode):
    """Setup step 12: the valor token at ``position`` (0 = top) of the starting stack."""

    position: int
    kind: ClassVar[str] = "stack"
    phase: ClassVar[Phase] = Phase.SETUP

    def name(self) -> str:
        return "random stacking of the valor tokens"


@dataclass(frozen=True, slots=True)
class TerrainDie(ChanceNode):
    """Spread: the terrain die, rolled by the last player."""

    kind: ClassVar[str] = "terrain_die"
    phase: ClassVar[Phase] = Phase.SPREAD

    def name(self) -> str:
        return "terrain die roll"


@dataclass(frozen=True, slots=True)
class BonusDie(ChanceNode):
    """After a contact ``player`` rolls the bonus die."""

    player: int
    kind: ClassVar[str] = "bonus_die"
    phase: ClassVar[Phase] = Phase.TURNS

    def name(self) -> str:
        return "bonus die roll"


#: The chance nodes without fields, made once (the engine sets them every round).
TERRAIN_DIE, MARKET_DRAW = TerrainDie(), MarketDraw()

#: kind -> chance-node type
CHANCE: dict[str, type[ChanceNode]] = {c.kind: c for c in (TileDraw, SkillDraw, MarketDraw, StackDraw, TerrainDie,
                                                            BonusDie)}


# ============================================================================ JSON forms, checked


def _from_json(registry: dict, x: Any, what: str, players: int):
    """One entry of ``registry`` from ``{"kind": k, field: value...}`` or the version 1
    list ``[k, value...]``; ValueError naming what is wrong."""
    if isinstance(x, dict):
        kind, values = x.get("kind"), dict(x)
        values.pop("kind", None)
    elif isinstance(x, (list, tuple)) and x:
        kind, values = x[0], list(x[1:])
    else:
        raise ValueError(f"{x!r} is not a {what}")
    cls = registry.get(kind)
    if cls is None:
        raise ValueError(f"{x!r} is not a {what} (kinds: {', '.join(registry)})")
    names = [f.name for f in fields(cls)]
    if isinstance(values, list):
        if len(values) != len(names):
            raise ValueError(f"{x!r} is not a {what}: a {kind!r} has {', '.join(names) or 'no fields'}")
        values = dict(zip(names, values))
    if set(values) != set(names):
        raise ValueError(f"{x!r} is not a {what}: a {kind!r} has {', '.join(names) or 'no fields'}")
    for f in fields(cls):
        v = values[f.name]
        want = str if f.type in ("str", str) else int
        if not isinstance(v, want) or isinstance(v, bool):
            raise ValueError(f"{x!r} is not a {what}: {f.name} must be {'text' if want is str else 'an integer'}")
        if f.name == "player" and not 0 <= v < players:
            raise ValueError(f"{x!r}: player {v} does not exist in a {players}-player game")
        if want is int and v < 0:
            raise ValueError(f"{x!r} is not a {what}: {f.name} cannot be negative")
    return cls(**values)


def pending_from_json(x: Any, players: int) -> Pending:
    """A pending decision from its JSON form (or a version 1 list); ValueError if malformed."""
    return _from_json(PENDING, x, "pending decision", players)


def chance_from_json(x: Any, players: int) -> ChanceNode:
    """A chance node from its JSON form (or a version 1 list); ValueError if malformed."""
    return _from_json(CHANCE, x, "chance node", players)
