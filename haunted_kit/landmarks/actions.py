"""The decisions of the Landmarks & Architects modules, as frozen dataclasses.

* :class:`Lead` - the leader leads one of the base game's actions (Landmarks: Take One Action).
* :class:`Follow` - a follower follows a lead other than Build (recorded; the base game's
  effect is outside the module).
* :class:`ChooseBuilding` - the leader, or a follower of a Build, chooses which building of
  their hand to build (the first of a Build's two decisions; Architects: How To Play, Build).
* :class:`Build` - then builds that card paying with :class:`Use` parts: castle, developed
  resources, Castle Grounds (Architects: Build). A Build is two decisions, so a player's
  list of choices holds one entry per payable building, then that card's ways to pay.
* :class:`Acquire` - a follower acquires a landmark token instead of following, naming the
  discarded cards (Landmarks: Acquiring a Landmark).
* :class:`Decline` - a follower does nothing.

Every action has ``describe()`` (a sentence in the game's words, card keys turned into
names when a box is given) and a JSON form (:func:`action_to_dict`, :func:`action_from_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..protocol import is_integer, strict_equality

__all__ = ["Acquire", "Build", "ChooseBuilding", "Decline", "Follow", "Lead", "Use", "action_from_dict", "action_to_dict",
           "card_words"]

SOURCES = ("castle", "developed", "grounds")


def _name(box, key: str) -> str:
    card = box.cards.get(key) if box is not None else None
    return card.name if card is not None else key


def card_words(box, key: str) -> str:
    """A card as a choice names it, with what a player weighs before building or discarding
    it: its building type (what an architect scores, Architects: Scoring), its cost
    (Architects: How To Play, Build) and its victory points, e.g. ``"Chapel (holy building;
    costs stone + magic; 2 victory points)"``; an adventurer has no cost. The key itself
    without a box (or a key the box lacks)."""
    c = box.cards.get(key) if box is not None else None
    if c is None:
        return key
    cost = f"; costs {' + '.join(c.cost)}" if c.cost else ""
    points = f"; {c.victory_points} victory point{'s' if c.victory_points != 1 else ''}"
    return f"{c.name} ({c.type} {c.kind}{cost}{points})"


@dataclass(frozen=True, slots=True)
class Use:
    """One part of a Build payment: one gold on one source gives one resource.

    Attributes:
        source: ``"castle"`` (a wild resource), ``"developed"`` (a developed resource card,
            ``slot`` its index in the owner's developed row) or ``"grounds"`` (a Castle
            Grounds: a wild resource for a gold and ``discard``, a card from the builder's hand).
        owner: whose card it is (0-based); castle and developed are the builder's own.
        resource: the resource it gives (``"food"``, ``"wood"``, ``"stone"``, ``"magic"``).
    """

    source: str
    owner: int
    resource: str
    slot: int = 0
    discard: str = ""
    card: str = ""  #: the developed card at ``slot`` (named for descriptions; checked against the slot)

    def describe(self, box=None) -> str:
        """E.g. ``"P1's castle -> wood"``, ``"P2's Castle Grounds + discard Tannery (worker building;
        costs food; 1 victory point) -> food"`` (a discard named with what it is worth, :func:`card_words`)."""
        whose = f"P{self.owner + 1}'s"
        if self.source == "castle":
            return f"{whose} castle -> {self.resource}"
        if self.source == "developed":
            card = _name(box, self.card) if self.card else f"developed resource {self.slot + 1}"
            return f"{whose} {card} -> {self.resource}"
        return f"{whose} Castle Grounds + discard {card_words(box, self.discard)} -> {self.resource}"


@dataclass(frozen=True, slots=True)
class Lead:
    """The leader leads ``action`` (one of the box's ``lead_actions``)."""

    action: str

    def describe(self, box=None) -> str:
        return f"lead {self.action}"


@dataclass(frozen=True, slots=True)
class Follow:
    """Follow the lead action (any lead but Build; a Build is followed by :class:`Build`)."""

    def describe(self, box=None) -> str:
        return "follow the lead action"


@dataclass(frozen=True, slots=True)
class ChooseBuilding:
    """Choose to build ``card`` (a key of the deck, a building of the mover's hand that some
    payment can pay for): the first of a Build's two decisions. It cannot be taken back (every
    card listed has a payment); the mover's next decision is a :class:`Build` of that card."""

    card: str

    def describe(self, box=None) -> str:
        return f"choose to build the {card_words(box, self.card)}"


@dataclass(frozen=True, slots=True)
class Build:
    """Build ``card`` (a key of the deck, from the builder's hand, chosen by the
    :class:`ChooseBuilding` before it) paying with ``payment``."""

    card: str
    payment: tuple[Use, ...] = ()
    #: the hash, worked out on first use (a search looks a Build up many times); not compared
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:  # the dataclass hash of (card, payment), kept once made
        h = self._hash
        if h is None:
            h = hash((self.card, self.payment))
            object.__setattr__(self, "_hash", h)
        return h

    def describe(self, box=None) -> str:
        parts = "; ".join(u.describe(box) for u in self.payment)
        return f"build the {_name(box, self.card)}" + (f" ({parts})" if parts else "")


@dataclass(frozen=True, slots=True)
class Acquire:
    """Acquire one ``landmark`` token (a key: ``"gate"``, ``"silo"``...) discarding ``discards``."""

    landmark: str
    discards: tuple[str, ...] = ()

    def describe(self, box=None) -> str:
        lt = box.landmarks.get(self.landmark) if box is not None else None
        what = lt.name if lt is not None else self.landmark
        cards = " and ".join(card_words(box, k) for k in self.discards) or "nothing"
        return f"acquire a {what} token, discarding {cards}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Neither follow nor acquire."""

    def describe(self, box=None) -> str:
        return "decline to act"


ACTION_TYPES = {c.__name__: c for c in (Lead, Follow, ChooseBuilding, Build, Acquire, Decline)}
#: the fields of each action's JSON form besides ``"type"``
FIELDS = {"Lead": ("action",), "Follow": (), "ChooseBuilding": ("card",), "Build": ("card", "payment"), "Acquire": ("landmark", "discards"),
          "Decline": ()}
for _action_type in (*ACTION_TYPES.values(), Use):  # Use(1.0) != Use(1): membership agrees with legality
    strict_equality(_action_type)


def action_to_dict(a) -> dict:
    """The JSON form of an action, e.g. ``{"type": "Acquire", "landmark": "statue", "discards": ["village_square"]}``,
    ``{"type": "ChooseBuilding", "card": "vardo"}``."""
    if isinstance(a, Lead):
        return {"type": "Lead", "action": a.action}
    if isinstance(a, ChooseBuilding):
        return {"type": "ChooseBuilding", "card": a.card}
    if isinstance(a, Acquire):
        return {"type": "Acquire", "landmark": a.landmark, "discards": list(a.discards)}
    if isinstance(a, Build):
        return {"type": "Build", "card": a.card, "payment": [
            {"source": u.source, "owner": u.owner, "resource": u.resource, "slot": u.slot, "discard": u.discard,
             "card": u.card}
            for u in a.payment]}
    if isinstance(a, (Follow, Decline)):
        return {"type": type(a).__name__}
    raise TypeError(f"not a Landmarks & Architects action: {a!r}")


#: the fields of each action's JSON form besides "type" (a Use's within Build.payment)
_USE_FIELDS = ("source", "owner", "resource", "slot", "discard", "card")


def _known_keys(d: dict, known: tuple, what: str) -> None:
    extra = sorted(str(k) for k in d if k not in known)
    if extra:
        raise ValueError(f"{what} has no field {extra[0]!r} (its fields: {', '.join(known)})")


def _int(v, where: str) -> int:
    if not is_integer(v):
        raise ValueError(f"{where} must be an integer, got {v!r}")
    return v


def _str(v, where: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{where} must be a string, got {v!r}")
    return v


def action_from_dict(d) -> object:
    """An action from its JSON form. Raises ``ValueError`` naming the problem."""
    if not isinstance(d, dict):
        raise ValueError(f"an action must be a JSON object, got {type(d).__name__}")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise ValueError(f"action 'type' must be one of {', '.join(ACTION_TYPES)}, got {kind!r}")
    _known_keys(d, ("type",) + FIELDS[kind], kind)
    if kind == "Lead":
        return Lead(_str(d.get("action"), "Lead 'action'"))
    if kind == "ChooseBuilding":
        return ChooseBuilding(_str(d.get("card"), "ChooseBuilding 'card'"))
    if kind == "Acquire":
        ds = d.get("discards", [])
        if not isinstance(ds, list):
            raise ValueError(f"Acquire 'discards' must be a list, got {ds!r}")
        return Acquire(_str(d.get("landmark"), "Acquire 'landmark'"), tuple(_str(x, "Acquire 'discards'") for x in ds))
    if kind == "Build":
        pay = d.get("payment", [])
        if not isinstance(pay, list):
            raise ValueError(f"Build 'payment' must be a list, got {pay!r}")
        uses = []
        for i, u in enumerate(pay):
            if not isinstance(u, dict):
                raise ValueError(f"Build 'payment[{i}]' must be an object")
            _known_keys(u, _USE_FIELDS, f"Build 'payment[{i}]'")
            uses.append(Use(_str(u.get("source"), f"payment[{i}].source"), _int(u.get("owner"), f"payment[{i}].owner"),
                            _str(u.get("resource"), f"payment[{i}].resource"), _int(u.get("slot", 0), f"payment[{i}].slot"),
                            _str(u.get("discard", ""), f"payment[{i}].discard"), _str(u.get("card", ""), f"payment[{i}].card")))
        return Build(_str(d.get("card"), "Build 'card'"), tuple(uses))
    return ACTION_TYPES[kind]()
