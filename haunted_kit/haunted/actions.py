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

import reprlib
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Union

from ..protocol import is_integer, strict_equality  # the one whole-number test, shared by every game
from ..hexgrid import cell_name

Axial = tuple[int, int]


def with_article(word: str) -> str:
    """``word`` with its indefinite article ("a mill", "an extraction token")."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


@dataclass(frozen=True, slots=True)
class Explore:
    """Move the sensor to the adjacent ``cell``, paying its exploration cost."""

    cell: Axial

    def describe(self) -> str:
        return f"explore to cell {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Extract:
    """Extract ``resource`` on ``cell`` (the sensor's cell or an adjacent lake)."""

    cell: Axial
    resource: str

    def describe(self) -> str:
        return f"extract {self.resource} at cell {cell_name(self.cell)}"

    def describe_at(self, state) -> str:
        """In words at ``state``, saying where the resource comes from: ``"extract water from
        the lake at (1, -2)"`` or ``"extract wood on your forest cell (2, 0)"`` (two choices
        of the same resource read apart; Basic Actions: Extraction)."""
        try:
            terrain = state.field.terrain[state.field.cell_index(self.cell)]
        except (AttributeError, KeyError, IndexError, ValueError):
            return self.describe()
        if terrain == "lake":
            return f"extract {self.resource} from the lake at cell {cell_name(self.cell)}"
        return f"extract {self.resource} on your {terrain} cell {cell_name(self.cell)}"


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

    def describe_at(self, state) -> str:
        """In words at ``state``, with what the sale pays the player to move: ``"sell water +
        water for 5 pecunias (market option 2)"``, a learned skill's extra included (Additional
        Actions: Selling; Market Cards; the skill card whose effect is ``sell_bonus``)."""
        try:
            box, p = state.box, state.current_player()
            gain = box.market_cards[state.market][self.option - 1].pecunias
            gain += sum(box.skills[k].amount for k in state.skills
                        if box.skills[k].effect == "sell_bonus" and p is not None and state.knows_skill(p, k))
        except (AttributeError, KeyError, IndexError, TypeError):
            return self.describe()
        return f"sell {' + '.join(self.payment)} for {gain} pecunia{'s' if gain != 1 else ''} (market option {self.option})"


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

    def describe_at(self, state) -> str:
        """In words at ``state``, with the card's effect and cost from the box in play: ``"learn
        skill 1 (Communication: Each contact with a ghost also gives 1 valor; costs food +
        water)"`` (Skill Cards; Additional Actions: Learning)."""
        words = skill_card_words(state, self.skill)
        return f"learn {words}" if words else self.describe()


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
        return f"place a ghost on cell {cell_name(self.cell)}"


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

    def describe_at(self, state) -> str:
        """In words at ``state``: the face's reward on this season's bonus card, ``"take bonus
        reward 6: 2 valor"`` (Bonus Cards; skill 2)."""
        try:
            card = state.box.bonus_cards[state.season]
            reward = next(r for r in card.rewards if r.face == self.face)
        except (AttributeError, KeyError, TypeError, StopIteration):
            return self.describe()
        return f"take bonus reward {self.face}: {reward.describe()}"


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

    def describe_at(self, state) -> str:
        """In words at ``state``, with the card's text (the player chooses knowing the cards,
        Quest Cards): ``"choose quest 2: 1 valor for every 3 pecunias you hold."``."""
        try:
            return f"choose quest {self.quest}: {state.box.quests[self.quest].text}"
        except (AttributeError, KeyError, TypeError):
            return self.describe()


def skill_card_words(state, skill: int) -> str:
    """Skill card number ``skill`` as a choice names it, from ``state``'s box: ``"skill 1
    (Communication: Each contact with a ghost also gives 1 valor; costs food + water)"``;
    ``""`` when the box has no such card."""
    try:
        k = state.box.skills[skill]
    except (AttributeError, KeyError, TypeError):
        return ""
    return f"skill {skill} ({k.deck}: {k.text.rstrip('.')}; costs {' + '.join(k.cost)})"


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
for _action_type in ACTION_TYPES.values():  # Learn(1.0) != Learn(1): membership agrees with legality
    strict_equality(_action_type)
TURN_ACTIONS = (Explore, Extract, Build, Contact, Sell, Train, Learn, EndTurn)


class ActionFormatError(ValueError):
    """A serialised action (or an action object) that does not describe an action.
    The message names the action type, the field and the problem."""


# ============================================================================ the shape of each action

#: The kind of every field of every action type: ``"cell"`` (an axial pair of
#: integers), ``"number"`` (an integer), ``"resource"`` / ``"track"`` / ``"building"``
#: (a name of the box), ``"payment"`` (resource names, one per token).
FIELD_KINDS: dict[type, dict[str, str]] = {
    Explore: {"cell": "cell"},
    Extract: {"cell": "cell", "resource": "resource"},
    Build: {"building": "building"},
    Contact: {},
    Sell: {"option": "number", "payment": "payment"},
    Train: {"track": "track"},
    Learn: {"skill": "number"},
    EndTurn: {},
    PlaceGhost: {"cell": "cell"},
    ChooseResource: {"resource": "resource"},
    ChooseBonus: {"face": "number"},
    RollBonus: {},
    RestoreToken: {"track": "track"},
    ChooseQuest: {"quest": "number"},
}

_EXAMPLES = {Explore: "Explore((1, 0))", Extract: "Extract((1, 0), 'food')", Build: "Build('mill')",
             Sell: "Sell(1, ('food',))", Train: "Train('contact')", Learn: "Learn(4)", PlaceGhost: "PlaceGhost((2, 1))",
             ChooseResource: "ChooseResource('ore')", ChooseBonus: "ChooseBonus(3)", RestoreToken: "RestoreToken('contact')",
             ChooseQuest: "ChooseQuest(5)"}
_short = reprlib.Repr()
_short.maxstring, _short.maxother, _short.maxlist, _short.maxtuple = 40, 40, 6, 6




@lru_cache(maxsize=16)
def box_names(box) -> dict[str, tuple[str, ...]]:
    """The names an action may use with ``box``: ``{"resource": ..., "track": ...,
    "building": ...}`` in the box's order."""
    return {"resource": tuple(box.resources), "track": tuple(box.tracks), "building": tuple(box.buildings)}


_KIND_WORDS = {"resource": "a resource", "track": "an action track", "building": "a building"}


def _field_value(kind: str, v, names):
    """``(v in its one accepted form,)`` for a field of ``kind``, or the problem (str)."""
    got = f"got {_short.repr(v)}"
    if kind == "number":
        return (int(v),) if is_integer(v) else f"must be a whole number (an int, not a bool or a float), {got}"
    if kind == "cell":
        if isinstance(v, (tuple, list)) and len(v) == 2 and is_integer(v[0]) and is_integer(v[1]):
            return ((int(v[0]), int(v[1])),)
        return f"must be an axial cell, a pair of whole numbers (q, r), {got}"
    if kind == "payment":
        if not isinstance(v, (tuple, list)) or not v:
            return f"must list the resource names paid, one per token, {got}"
        out = []
        for x in v:
            one = _field_value("resource", x, names)
            if isinstance(one, str):
                return f"lists {_short.repr(x)}, which is not a resource" + (
                    f" ({', '.join(names['resource'])})" if names else "")
            out.append(one[0])
        if names:
            order = {r: i for i, r in enumerate(names["resource"])}
            out.sort(key=order.__getitem__)
        return (tuple(out),)
    # a name of the box
    if not isinstance(v, str):
        return f"must name {_KIND_WORDS[kind]} (a string), {got}"
    v = str(v)
    if names is not None and v not in names[kind]:
        return f"{_short.repr(v)} is not {_KIND_WORDS[kind]} of this box ({', '.join(names[kind])})"
    return (v,)


def normalise(action, names: dict | None = None):
    """``action`` with every field in its one accepted form, checked against its
    type's :data:`FIELD_KINDS`.

    Integers of any integral type become ``int``; cells become ``(q, r)`` tuples of
    ``int``; a payment becomes a tuple in the box's resource order. Bools and floats
    (even ``1.0``) are refused, and so are names the box does not know.

    Args:
        action: any object.
        names: :func:`box_names` of the game's box; ``None`` checks names are strings only.

    Returns:
        the action itself when it is already normal, else an equal, normal copy.

    Raises:
        ActionFormatError: naming the action type, the field and the problem.
    """
    cls = type(action)
    kinds = FIELD_KINDS.get(cls)
    if kinds is None:
        raise ActionFormatError(f"{_short.repr(action)} is not an action (see haunted_kit.haunted.actions: "
                                f"{', '.join(c.__name__ for c in FIELD_KINDS)})")
    values, changed = {}, False
    for name, kind in kinds.items():
        v = getattr(action, name)
        got = _field_value(kind, v, names)
        if isinstance(got, str):
            example = f"; e.g. {_EXAMPLES[cls]}" if kind in ("number", "cell", "payment") else ""
            raise ActionFormatError(f"{cls.__name__}.{name} {got}{example}")
        got = got[0]
        values[name] = got
        changed = changed or not _exactly(got, v)
    return cls(**values) if changed else action


def _exactly(normal, v) -> bool:
    """``v`` is already the normal value ``normal`` (same types all the way down)."""
    if type(normal) is not type(v):
        return False
    if isinstance(normal, tuple):
        return len(normal) == len(v) and all(_exactly(a, b) for a, b in zip(normal, v))
    return normal == v


def action_to_dict(action) -> dict:
    """JSON-ready form: ``{"type": name, field: value, ...}`` (tuples become lists).
    Raises ActionFormatError for a malformed action."""
    action = normalise(action)
    out = {"type": TYPE_NAMES[type(action)]}
    for f in fields(action):
        v = getattr(action, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def action_from_dict(data: dict):
    """Inverse of :func:`action_to_dict`. Raises ActionFormatError naming the problem
    (fields are checked by :func:`normalise`; names against a box only when played)."""
    if not isinstance(data, dict) or "type" not in data:
        raise ActionFormatError(f"an action must be an object with a 'type', got {_short.repr(data)}")
    cls = ACTION_TYPES.get(data["type"]) if isinstance(data["type"], str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action type {_short.repr(data['type'])} (known: {', '.join(ACTION_TYPES)})")
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            raise ActionFormatError(f"action {data['type']!r} needs field {f.name!r}")
        kwargs[f.name] = data[f.name]
    extra = set(data) - {"type"} - set(kwargs)
    if extra:
        raise ActionFormatError(f"action {data['type']!r} has unknown fields {sorted(map(str, extra))}")
    return normalise(cls(**kwargs))
