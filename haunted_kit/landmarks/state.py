"""A Landmarks & Architects position as plain data, and its versioned JSON save.

:class:`Position` holds everything the modules' decisions depend on: each player's hand,
village (buildings and adventurers), developed resources, gold, landmark tokens and
architect; the landmark supply; which sources hold gold (own castle and developed
resources until the owner's next lead; Castle Grounds with the player who placed the
gold); the leader, the lead action and the players who cannot follow it; the round and
whose turn it is; the building the player to move has chosen to build, until its payment
(``chosen_building``: a Build is two decisions, the card then the payment). Cards are keys
of the box's deck (``"vardo"``); several copies of a key
may appear, up to the deck's ``copies``.

Saves (:func:`position_to_dict` / :func:`position_from_dict`) are JSON objects with
``"format": "haunted-kit-landmarks-save"`` and a ``version``; loading checks every field
and raises :class:`SaveError` naming it (``state.hands[1][2]: unknown card 'dragon'``).
"""

from __future__ import annotations

from collections import Counter

from ..events import Event
from ..protocol import Record, check_seed, is_integer
from ..saves import SaveReader, StateField, json_value
from ..visibility import ACTOR, CHANCE, DROP, EVERYONE, HELD, NOBODY, OWNER, Seen, Visibility
from .box import LandmarksBox

SAVE_FORMAT = "haunted-kit-landmarks-save"
#: 2: a Build is two decisions (``chosen_building``); 3: the game-over sentence in words (the ranking, not a
#: function's name); 4: the kit's rulings cited by code ("kit ruling L9"), not as a document to see. Older
#: saves are migrated on load (``engine.from_dict``).
SAVE_VERSION = 4
PHASES = ("deal", "lead", "build", "follow", "over")


class SaveError(ValueError):
    """A save that is not valid JSON of this module, or names an impossible position."""


class ConfigError(ValueError):
    """Bad parameters for a new game or a position (the message says which)."""


_F = StateField

#: Every field of :class:`Position` (:class:`haunted_kit.saves.StateField`: name, copy
#: kind, save codec, save key), in save order. Saved fields are written by
#: :func:`haunted_kit.saves.json_value` (sets as sorted lists) and read, checked, by
#: :func:`read_fields`; the others are the log, the action record and where it starts.
STATE_FIELDS: tuple[StateField, ...] = tuple(
    [_F(name, kind, "json", name) for name, kind in (
        ("players", "value"), ("modules", "dict"), ("seed", "value"), ("rng_count", "value"), ("rounds", "value"),
        ("round", "value"), ("phase", "value"), ("leader", "value"), ("lead", "value"), ("cannot_follow", "set"),
        ("follower_pos", "value"), ("hands", "rows"), ("villages", "rows"), ("developed", "rows"), ("gold", "list"),
        ("tokens", "rows"), ("supply", "dict"), ("architects", "list"), ("spent", "rows"), ("grounds", "rows"),
        ("discard_pile", "list"), ("draw_pile", "list"), ("end_triggered", "value"),
        ("chosen_building", "value"))]
    + [_F("log", "log", None), _F("record", "value", None), _F("start", "value", None), _F("start_log", "value", None)])


#: Every kind of event this module emits, with what it means.
EVENT_KINDS = {
    "setup": "a setup step was carried out",
    "deal": "the example position was dealt from the kit example deck",
    "architect_dealt": "an architect was dealt face down",
    "lead": "the leader led an action",
    "gold_returned": "gold came back from the leader's own sources",
    "grounds_gold": "gold on the leader's Castle Grounds became the leader's",
    "followed": "a player followed the lead action",
    "building_chosen": "a player chose which building to build (the payment comes next)",
    "paid": "gold was placed on a source for one resource",
    "built": "a building entered a village",
    "landmark_acquired": "a landmark token was acquired instead of following",
    "declined": "a player declined to act",
    "end_trigger": "a village reached the end-trigger card count",
    "round_ended": "every follower has chosen",
    "architect_revealed": "an architect was revealed at the end",
    "game_over": "the game ended and was scored",
}

#: Who may see what (:mod:`haunted_kit.visibility`, the one declaration every tool redacts
#: from; the fields are :data:`STATE_FIELDS`'): a hand is its
#: owner's, the others see how many cards it holds; an architect is its owner's until the
#: end (Architects: Game Setup, Scoring); the draw pile's order and the seed are nobody's
#: (its size is public). The deal is seen by its player only; the architects turned up and
#: the final points are what a search guesses in a determinisation.
VISIBILITY = Visibility(
    events={**{kind: Seen() for kind in EVENT_KINDS},
            "architect_dealt": Seen(ACTOR, "{who} is dealt an architect face down."),
            "architect_revealed": Seen(EVERYONE, "{who} turns up their architect.", guess=HELD),
            "game_over": Seen(EVERYONE, "The game ends and the modules are scored.", guess=CHANCE)},
    fields={"hands.*": Seen(OWNER, len),
            "architects.*": Seen(OWNER, lambda a: None if a is None else "hidden", until=lambda o: o["phase"] == "over"),
            "draw_pile": Seen(NOBODY, len), "seed": Seen(NOBODY, DROP), "rng_count": Seen(NOBODY, DROP)})

class Position:
    """The plain data of a position (see the module docstring). Players are 0-based."""

    FIELDS = tuple(f.name for f in STATE_FIELDS if f.save)  #: the saved fields' names, in save order

    def __init__(self, box: LandmarksBox, players: int):
        self.box = box
        self.players = players
        self.modules = dict(box.modules)
        self.seed = 0
        self.rng_count = 0
        self.rounds = 1
        self.round = 1
        self.phase = "lead"
        self.leader = 0
        self.lead: str | None = None
        self.cannot_follow: set[int] = set()
        self.follower_pos = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.villages: list[list[str]] = [[] for _ in range(players)]
        self.developed: list[list[str]] = [[] for _ in range(players)]
        self.gold = [0] * players
        self.tokens = [dict.fromkeys(box.landmarks, 0) for _ in range(players)]
        self.supply = dict.fromkeys(box.landmarks, box.supply(players))
        self.architects: list[str | None] = [None] * players
        self.spent: list[set[str]] = [set() for _ in range(players)]
        self.grounds: list[list[int]] = [[] for _ in range(players)]
        self.discard_pile: list[str] = []
        self.draw_pile: list[str] = []
        self.end_triggered = False
        #: the building the player to move chose to build (ChooseBuilding), until its Build; else None
        self.chosen_building: str | None = None
        self.log: list[Event] | None = []  #: the event log; None keeps none (see emit)
        self.record = Record()
        self.start: dict | None = None  #: the position the record starts from (shared by copies)
        self.start_log = 0  #: events logged by the start position itself (setup, deal, a given lead)

    # ------------------------------------------------------------------ events
    def emit(self, kind: str, player: int | None, text: str, **data) -> None:
        """Append an event with its one-sentence ``text``, private when :data:`VISIBILITY`
        declares its kind not for everyone; nothing when the position keeps no log (``log``
        is ``None``: a search's determinisation, ``copy(keep_log=False)``). The rules' hot
        paths test ``s.log is not None`` first, so no sentence is composed then."""
        if self.log is None:
            return
        self.log.append(Event(len(self.log), 0, self.round, self.phase, kind, player, text, None, data,
                              VISIBILITY.private(kind)))

    # ------------------------------------------------------------------ helpers in the game's words
    def followers(self) -> list[int]:
        """The players who follow this round's lead, clockwise from the leader's left."""
        return [(self.leader + i) % self.players for i in range(1, self.players)]

    def hand(self, p: int) -> list[str]:
        return list(self.hands[p])

    def landmark_tokens(self, p: int) -> dict[str, int]:
        return dict(self.tokens[p])

    # ------------------------------------------------------------------ copies and data
    def fields(self) -> dict:
        """The position's saved fields as JSON-ready data (no log, record or box)."""
        return {f.key: json_value(getattr(self, f.name)) for f in STATE_FIELDS if f.save}


# ============================================================================ reading fields


class _Reader(SaveReader):
    """The kit's typed reads (:class:`haunted_kit.saves.SaveReader`) raising this
    module's :class:`SaveError`, plus the box's cards."""

    def __init__(self, box: LandmarksBox):
        super().__init__(SaveError)
        self.box = box

    def card(self, v, where: str) -> str:
        if not isinstance(v, str) or v not in self.box.cards:
            self.fail(where, f"unknown card {v!r}")
        return v

    def cards(self, v, where: str) -> list[str]:
        return self.list_of(v, where, self.card)


def read_fields(pos: Position, d, where: str = "state") -> None:
    """Fill ``pos`` from ``fields()`` data, checking every field and the position's
    consistency. Raises :class:`SaveError` naming the field."""
    box = pos.box
    r = _Reader(box)
    d = r.dict(d, where)
    missing = [f for f in Position.FIELDS if f not in d]
    if missing:
        r.fail(f"{where}.{missing[0]}", "missing")
    extra = [f for f in d if f not in Position.FIELDS]
    if extra:
        r.fail(f"{where}.{extra[0]}", "unknown field")
    n = r.int(d["players"], f"{where}.players", box.min_players, box.max_players)
    _read_turn(pos, r, d, where, n)
    _read_holdings(pos, r, d, where, n)
    _read_architects(pos, r, d, where, n)
    _read_spent(pos, r, d, where, n)
    _read_piles(pos, r, d, where, n)
    _read_chosen_building(pos, r, d, where, n)
    _check_developed(pos, r, d, where, n)


def _read_turn(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """The player count, modules, seed and counters, then the round, phase, leader,
    lead action and who follows."""
    box = pos.box
    if n != pos.players:
        r.fail(f"{where}.players", f"must be {pos.players}, got {n}")
    mods = r.dict(d["modules"], f"{where}.modules")
    if set(mods) != set(box.modules):
        r.fail(f"{where}.modules", f"must name exactly {', '.join(box.modules)}")
    pos.modules = {m: r.bool(mods[m], f"{where}.modules.{m}") for m in box.modules}
    try:
        pos.seed = check_seed(d["seed"])
    except ValueError as exc:
        r.fail(f"{where}.seed", str(exc))
    pos.rng_count = r.int(d["rng_count"], f"{where}.rng_count", 0, 10 ** 6)
    pos.rounds = r.int(d["rounds"], f"{where}.rounds", 1, 1000)
    pos.round = r.int(d["round"], f"{where}.round", 1, pos.rounds)
    if d["phase"] not in PHASES:
        r.fail(f"{where}.phase", f"must be one of {', '.join(PHASES)}, got {d['phase']!r}")
    pos.phase = d["phase"]
    pos.leader = r.int(d["leader"], f"{where}.leader", 0, n - 1)
    lead = d["lead"]
    if lead is not None and lead not in box.lead_actions:
        r.fail(f"{where}.lead", f"must be null or one of {', '.join(box.lead_actions)}, got {lead!r}")
    if (lead is None) != (pos.phase in ("deal", "lead")) and pos.phase != "over":
        r.fail(f"{where}.lead", f"{'must be null' if lead is not None else 'must name the lead action'} in phase {pos.phase!r}")
    if pos.phase == "build" and lead != "build":
        r.fail(f"{where}.lead", "the build phase needs a build lead")
    pos.lead = lead
    cf = r.list(d["cannot_follow"], f"{where}.cannot_follow")
    pos.cannot_follow = {r.int(x, f"{where}.cannot_follow[{i}]", 0, n - 1) for i, x in enumerate(cf)}
    if pos.leader in pos.cannot_follow:
        r.fail(f"{where}.cannot_follow", "lists the leader, who does not follow")
    pos.follower_pos = r.int(d["follower_pos"], f"{where}.follower_pos", 0, n - 2)


def _read_holdings(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """Each player's hand, village, developed cards, gold and landmark tokens, and the
    token supply (every token of the game in a village or the supply)."""
    box = pos.box
    for f in ("hands", "villages", "developed"):
        rows = r.list(d[f], f"{where}.{f}", n)
        setattr(pos, f, [r.cards(x, f"{where}.{f}[{p}]") for p, x in enumerate(rows)])
    gold = r.list(d["gold"], f"{where}.gold", n)
    pos.gold = [r.int(x, f"{where}.gold[{p}]", 0, 10 ** 6) for p, x in enumerate(gold)]
    toks = r.list(d["tokens"], f"{where}.tokens", n)
    total = box.supply(n)
    pos.tokens = []
    for p, t in enumerate(toks):
        t = r.dict(t, f"{where}.tokens[{p}]")
        if set(t) != set(box.landmarks):
            r.fail(f"{where}.tokens[{p}]", f"must name exactly the landmarks {', '.join(box.landmarks)}")
        pos.tokens.append({k: r.int(t[k], f"{where}.tokens[{p}].{k}", 0, total) for k in box.landmarks})
    sup = r.dict(d["supply"], f"{where}.supply")
    if set(sup) != set(box.landmarks):
        r.fail(f"{where}.supply", f"must name exactly the landmarks {', '.join(box.landmarks)}")
    pos.supply = {k: r.int(sup[k], f"{where}.supply.{k}", 0, total) for k in box.landmarks}
    for k in box.landmarks:
        held = sum(t[k] for t in pos.tokens)
        if held + pos.supply[k] != total:
            r.fail(f"{where}.supply.{k}", f"{pos.supply[k]} in the supply + {held} in villages must make the {total} "
                                          f"tokens of a {n}-player game")


def _read_architects(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """The architects dealt: none while dealing, else one each (when the module is on), no two alike."""
    box = pos.box
    arch = r.list(d["architects"], f"{where}.architects", n)
    for p, a in enumerate(arch):
        if a is not None and not (isinstance(a, str) and a in box.architects):
            r.fail(f"{where}.architects[{p}]", f"unknown architect {a!r}")
    dealt = [a for a in arch if a is not None]
    if len(set(dealt)) != len(dealt):
        r.fail(f"{where}.architects", "deals one architect to two players")
    if dealt and len(dealt) != n:
        r.fail(f"{where}.architects", "either every player has an architect or none has")
    if pos.phase != "deal" and pos.modules["architects"] and not dealt:
        r.fail(f"{where}.architects", "must deal an architect to every player once the deal is done")
    if pos.phase == "deal" and dealt:
        r.fail(f"{where}.architects", "must be empty while the architects are being dealt")
    pos.architects = list(arch)


def _read_spent(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """What each player has spent this round (castle, developed slots) and the gold on
    each Castle Grounds."""
    box = pos.box
    spent = r.list(d["spent"], f"{where}.spent", n)
    pos.spent = []
    for p, x in enumerate(spent):
        keys = set()
        for i, k in enumerate(r.list(x, f"{where}.spent[{p}]")):
            ok = k == "castle" or (isinstance(k, str) and k.startswith("developed:") and k[10:].isdigit()
                                   and int(k[10:]) < len(pos.developed[p]))
            if not ok:
                r.fail(f"{where}.spent[{p}][{i}]", f"must be 'castle' or 'developed:N' for a developed slot of P{p + 1}, got {k!r}")
            keys.add(k)
        pos.spent.append(keys)
    grounds = r.list(d["grounds"], f"{where}.grounds", n)
    pos.grounds = []
    for p, g in enumerate(grounds):
        payers = [r.int(x, f"{where}.grounds[{p}][{i}]", 0, n - 1) for i, x in enumerate(r.list(g, f"{where}.grounds[{p}]"))]
        if len(payers) > box.grounds_uses:
            r.fail(f"{where}.grounds[{p}]", f"a Castle Grounds holds at most {box.grounds_uses} gold")
        pos.grounds.append(payers)


def _read_piles(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """The discard and draw piles and the end trigger; no card more often than the deck holds it."""
    box = pos.box
    pos.discard_pile = r.cards(d["discard_pile"], f"{where}.discard_pile")
    pos.draw_pile = r.cards(d["draw_pile"], f"{where}.draw_pile")
    pos.end_triggered = r.bool(d["end_triggered"], f"{where}.end_triggered")
    counts = Counter(pos.discard_pile) + Counter(pos.draw_pile)
    for zone in (pos.hands, pos.villages, pos.developed):
        for cards in zone:
            counts.update(cards)
    for k, c in counts.items():
        if c > box.cards[k].copies:
            r.fail(where, f"the card {k!r} appears {c} times but the deck has {box.cards[k].copies}")


def _read_chosen_building(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """The building chosen while building after a Build lead: one in the mover's hand."""
    box = pos.box
    chosen = d["chosen_building"]
    if chosen is not None:
        r.card(chosen, f"{where}.chosen_building")
        if not (pos.phase == "build" or (pos.phase == "follow" and pos.lead == "build")):
            r.fail(f"{where}.chosen_building", f"a building is chosen only while building after a Build lead, not in "
                                               f"phase {pos.phase!r}" + (f" after a {pos.lead} lead" if pos.lead else ""))
        mover = pos.leader if pos.phase == "build" else (pos.leader + 1 + pos.follower_pos) % n
        if box.cards[chosen].kind != "building" or chosen not in pos.hands[mover]:
            r.fail(f"{where}.chosen_building", f"must be a building in the hand of P{mover + 1}, who is to move; "
                                               f"got {chosen!r}")
    pos.chosen_building = chosen


def _check_developed(pos: Position, r: _Reader, d: dict, where: str, n: int) -> None:
    """Every developed card shows a resource icon."""
    box = pos.box
    for p in range(n):
        for k in pos.developed[p]:
            if not box.cards[k].icons:
                r.fail(f"{where}.developed[{p}]", f"the {box.cards[k].name} shows no resource icon and cannot be developed")
