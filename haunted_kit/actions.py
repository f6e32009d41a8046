"""The action vocabulary: every choice a player makes is one of these values.

Actions are small frozen dataclasses (hashable, comparable, readable in a repr). The
player is never part of an action: an action is always made by the player to move
(:meth:`State.current_player`). Cells are axial ``(q, r)`` tuples; resources, tracks
and buildings are their rulebook names (``"food"``, ``"exploration"``, ``"mill"``).

Turn actions (rulebook "Basic Actions" and "Additional Actions"):
    :class:`Explore`, :class:`Extract`, :class:`Build`, :class:`Contact`,
    :class:`Sell`, :class:`Train`, :class:`Learn`, :class:`EndTurn`.
Sub-decisions (pushed on the pending-decision stack by the rules):
    :class:`PlaceGhost` (spread), :class:`ChooseResource` ("resource of your choice"),
    :class:`ChooseBonus` / :class:`RollBonus` (skill 2), :class:`RestoreToken` (skill 9),
    :class:`ChooseQuest` (end of season).

:func:`action_to_dict` and :func:`action_from_dict` give a JSON form
(``{"type": "explore", "cell": [1, 0]}``) used by saves, logs and the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Union

Axial = tuple[int, int]


def with_article(word: str) -> str:
    """``word`` with its indefinite article ("a mill", "an extraction token")."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


@dataclass(frozen=True, slots=True)
class Explore:
    """Move the sensor to the adjacent ``cell``, paying its exploration cost."""

    cell: Axial

    def describe(self) -> str:
        return f"explore to {self.cell}"


@dataclass(frozen=True, slots=True)
class Extract:
    """Extract ``resource`` on ``cell`` (the sensor's cell or an adjacent lake)."""

    cell: Axial
    resource: str

    def describe(self) -> str:
        return f"extract {self.resource} at {self.cell}"


@dataclass(frozen=True, slots=True)
class Build:
    """Build ``building`` on the sensor's cell."""

    building: str

    def describe(self) -> str:
        return f"build {with_article(self.building)}"


@dataclass(frozen=True, slots=True)
class Contact:
    """Contact the ghost on the sensor's cell."""

    def describe(self) -> str:
        return "contact the ghost"


@dataclass(frozen=True, slots=True)
class Sell:
    """Sell with market option ``option`` (1-based, as printed top to bottom), paying
    ``payment``: resource names, one per token, in the box's resource order."""

    option: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"sell {' + '.join(self.payment)} (market option {self.option})"


@dataclass(frozen=True, slots=True)
class Train:
    """Train a new token for ``track`` (exploration, contact, extraction, construction)."""

    track: str

    def describe(self) -> str:
        return f"train {with_article(self.track)} token"


@dataclass(frozen=True, slots=True)
class Learn:
    """Learn skill card number ``skill``."""

    skill: int

    def describe(self) -> str:
        return f"learn skill {self.skill}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn."""

    def describe(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class PlaceGhost:
    """Spread: put a ghost on ``cell`` (made by the last player)."""

    cell: Axial

    def describe(self) -> str:
        return f"place a ghost on {self.cell}"


@dataclass(frozen=True, slots=True)
class ChooseResource:
    """Take one ``resource`` where a rule gives "a resource of your choice"."""

    resource: str

    def describe(self) -> str:
        return f"take {self.resource}"


@dataclass(frozen=True, slots=True)
class ChooseBonus:
    """Skill 2: take the reward of bonus-die ``face`` instead of rolling."""

    face: int

    def describe(self) -> str:
        return f"take bonus reward {self.face}"


@dataclass(frozen=True, slots=True)
class RollBonus:
    """Skill 2 holder: roll the bonus die after all."""

    def describe(self) -> str:
        return "roll the bonus die"


@dataclass(frozen=True, slots=True)
class RestoreToken:
    """Skill 9: restore one inactive token of ``track``."""

    track: str

    def describe(self) -> str:
        return f"restore {with_article(self.track)} token"


@dataclass(frozen=True, slots=True)
class ChooseQuest:
    """End of season: take quest card ``quest`` face down."""

    quest: int

    def describe(self) -> str:
        return f"choose quest {self.quest}"


Action = Union[Explore, Extract, Build, Contact, Sell, Train, Learn, EndTurn,
               PlaceGhost, ChooseResource, ChooseBonus, RollBonus, RestoreToken, ChooseQuest]

ACTION_TYPES: dict[str, type] = {
    "explore": Explore,
    "extract": Extract,
    "build": Build,
    "contact": Contact,
    "sell": Sell,
    "train": Train,
    "learn": Learn,
    "end_turn": EndTurn,
    "place_ghost": PlaceGhost,
    "choose_resource": ChooseResource,
    "choose_bonus": ChooseBonus,
    "roll_bonus": RollBonus,
    "restore_token": RestoreToken,
    "choose_quest": ChooseQuest,
}
TYPE_NAMES: dict[type, str] = {v: k for k, v in ACTION_TYPES.items()}
TURN_ACTIONS = (Explore, Extract, Build, Contact, Sell, Train, Learn, EndTurn)


class ActionFormatError(ValueError):
    """A serialised action that does not describe an action."""


def action_to_dict(action) -> dict:
    """JSON-ready form: ``{"type": name, field: value, ...}`` (tuples become lists)."""
    out = {"type": TYPE_NAMES[type(action)]}
    for f in fields(action):
        v = getattr(action, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def action_from_dict(data: dict):
    """Inverse of :func:`action_to_dict`. Raises ActionFormatError naming the problem."""
    if not isinstance(data, dict) or "type" not in data:
        raise ActionFormatError(f"an action must be an object with a 'type', got {data!r}")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ActionFormatError(f"unknown action type {data['type']!r} (known: {', '.join(ACTION_TYPES)})")
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            raise ActionFormatError(f"action {data['type']!r} needs field {f.name!r}")
        v = data[f.name]
        kwargs[f.name] = tuple(v) if isinstance(v, list) else v
    extra = set(data) - {"type"} - set(kwargs)
    if extra:
        raise ActionFormatError(f"action {data['type']!r} has unknown fields {sorted(extra)}")
    return cls(**kwargs)
