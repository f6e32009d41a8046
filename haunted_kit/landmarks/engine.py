"""The flow of a Landmarks & Architects game, turn by turn, implementing :class:`haunted_kit.protocol.GameState`.

The base game (harvesting, recruiting, trading...) is not given, so the module plays the
decisions its modules add on explicit positions:

1. **deal** (a chance node): the architects are dealt face down, one per player
   (Architects: Game Setup); outcomes are the ordered deals, all equally likely.
2. **lead**: the leader leads one of the box's actions (:class:`~.actions.Lead`); the gold on
   the leader's own sources comes back and the gold on the leader's Castle Grounds becomes
   the leader's (Architects: Build).
3. **build** (a Build lead only): the leader builds in two decisions: which building of the
   hand (:class:`~.actions.ChooseBuilding`, one per building some payment can pay for; not
   taken back), then how to pay for it (:class:`~.actions.Build` of that card: every minimal
   payment with every choice of discards).
4. **follow**: each other player, clockwise from the leader's left, follows (a Build is
   followed by building, in the same two decisions), acquires a landmark instead, or
   declines (Landmarks: Take One Action).

After the last follower the turn ends (the rulebook's turn; ``round`` in the code); after
``rounds`` turns the game is terminal and
:meth:`LandmarksState.returns` gives each player's module points (:func:`.rules.totals`).

    s = new_game(players=3, seed=1)        # a seeded game of the box's 3 turns from the kit example deck
    s = position(hands=[...], villages=[...], gold=[...], lead="build", cannot_follow=[1])
"""

from __future__ import annotations

import json
import math
from itertools import permutations

from ..events import Event
from ..fileio import MAX_INPUT_BYTES, atomic_write, read_json
from ..games import load_state
from ..protocol import (ChanceError, GameOption, HistoryEntry, IllegalAction, Record, Refusal, SCORE_ONLY_MEANINGS, chance_index, check_seed,
                        is_integer, is_the_integer, plain_integers, results_by_score, seeded_random, states_along)
from ..saves import compile_copy, copy_tree
from . import encoding
from . import rules as R
from .actions import ACTION_TYPES, Acquire, Build, ChooseBuilding, Decline, Follow, Lead, action_from_dict, action_to_dict
from .agents import AGENTS
from .box import SCHEMA as BOX_SCHEMA, LandmarksBox, default_box, load_box
from .state import (EVENT_KINDS, SAVE_FORMAT, SAVE_VERSION, STATE_FIELDS, VISIBILITY, ConfigError, Position, SaveError,
                    read_fields)
from ..frames import nullable

__all__ = ["EVENT_KINDS", "GAME", "VISIBILITY", "LandmarksGame", "LandmarksState", "new_game", "position"]


def _canonical(a):
    """An action up to the order of its parts: an acquisition's discards, a payment's parts
    and which Castle Grounds each discard went to (the discards all go to the discard pile)."""
    if isinstance(a, Acquire):
        return ("Acquire", a.landmark, tuple(sorted(a.discards)))
    if isinstance(a, Build):
        parts = sorted((u.source, u.owner, u.resource, u.slot) for u in a.payment)
        return ("Build", a.card, tuple(parts), tuple(sorted(u.discard for u in a.payment if u.discard)))
    return a


#: the one Follow and the one Decline that legal actions list (they have no fields)
FOLLOW, DECLINE = Follow(), Decline()
_ONE: dict = {}  # (action class, its one field's value) -> the one such object legal actions list (see _one)


def _one(cls, value):
    """The one ``cls(value)`` that legal actions list (a :class:`Lead` per lead action of a
    box, a :class:`ChooseBuilding` per building card of the deck: the table stays small)."""
    a = _ONE.get((cls, value))
    if a is None:
        a = _ONE[(cls, value)] = cls(value)
    return a


def _lead(action: str) -> Lead:
    """The one :class:`Lead` of ``action`` that legal actions list."""
    return _one(Lead, action)


def _choose(card: str) -> ChooseBuilding:
    """The one :class:`ChooseBuilding` of ``card`` that legal actions list."""
    return _one(ChooseBuilding, card)


class LegalSet:
    """The legal actions of one position (shared by equal positions through the memo):
    ``actions`` in the legal order, ``ids`` the identities of those objects as a dict's keys
    (an action that is one of them is legal as it is: the set holds them, so no other live
    object has their id; a dict of ints, unlike a frozenset, is not tracked by the cycle
    collector, which walks every memo entry), and :meth:`canonical`, the listed form of each
    action up to the order of its parts."""

    __slots__ = ("actions", "ids", "_canonical")

    def __init__(self, actions: tuple):
        self.actions = actions
        self.ids = dict.fromkeys(map(id, actions))
        self._canonical = None

    def canonical(self) -> dict:
        if self._canonical is None:
            self._canonical = {_canonical(a): a for a in self.actions}
        return self._canonical


class LandmarksState(Position):
    """A position of the Landmarks & Architects modules (see the module docstring)."""

    def __init__(self, box: LandmarksBox, players: int, auto_chance: bool = True):
        super().__init__(box, players)
        self.auto_chance = auto_chance
        self._legal: LegalSet | None = None

    # ------------------------------------------------------------------ protocol: whose move
    def current_player(self) -> int | None:
        """The leader (lead, build), the follower to choose (follow), or ``None`` (deal, over)."""
        if self.phase in ("lead", "build"):
            return self.leader
        if self.phase == "follow":
            return (self.leader + 1 + self.follower_pos) % self.players  # followers()[follower_pos]
        return None

    def is_chance_node(self) -> bool:
        return self.phase == "deal"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    # ------------------------------------------------------------------ turn checks
    def refuse_follower(self, p) -> Refusal | None:
        """Why ``p`` is not the player following now, or ``None`` (Landmarks: Take One Action)."""
        if self.phase == "over":
            return R.refusal("the game is over", R.SEC_TAKE)
        if self.phase == "deal":
            return R.refusal("the architects are being dealt (a chance node) before anyone acts", R.SEC_ARCHITECT_SETUP)
        if p == self.leader:
            return R.refusal(f"{R.who(p)} leads this turn; only the other players may follow or acquire a landmark",
                             R.SEC_TAKE)
        if self.phase in ("lead", "build"):
            return R.refusal(f"{R.who(self.leader)} must {'lead' if self.phase == 'lead' else 'build'} first; the others "
                             f"choose after the lead", R.SEC_TAKE)
        cur = self.current_player()
        if p != cur:
            return R.refusal(f"{R.who(cur)} is the one to answer the lead now (clockwise from the leader's left)", R.SEC_TAKE)
        return None

    def _actor(self) -> int | None:
        return self.current_player()

    # ------------------------------------------------------------------ legality
    def why_not(self, action) -> Refusal | None:
        """``None`` if ``action`` is legal for the player to move, else the reason with the
        section of the Landmarks & Architects text (source ``"landmarks rules"``)."""
        p = self._actor()
        if isinstance(action, Acquire):
            if self.chosen_building is not None:
                return self._refuse_after_choice(p)
            if not isinstance(action.landmark, str):
                return R.refusal(f"the landmark must be named by a key, got {action.landmark!r}", R.SEC_ACQUIRE)
            if action.discards is None:  # None asks refuse_acquire to judge the landmark alone: not an action's discards
                return (R.refuse_acquire(self, p if p is not None else -1, action.landmark)
                        or R.refusal("the discards must be a tuple of card keys, got None", R.SEC_ACQUIRE))
            return R.refuse_acquire(self, p if p is not None else -1, action.landmark, action.discards)
        if isinstance(action, Lead):
            if self.phase != "lead":
                return R.refusal(f"only the leader leads, at the start of their turn (now: {self.phase})", R.SEC_TAKE)
            if action.action not in self.box.lead_actions:
                return R.refusal(f"{action.action!r} is not an action to lead (actions: {', '.join(self.box.lead_actions)})",
                                 R.SEC_TAKE)
            if action.action == "build" and not R.can_build(self.after_lead(), p):
                return R.refusal(f"{R.who(p)} cannot lead build: no building in hand can be paid, even with the gold "
                                 f"that comes back at this lead", R.SEC_LEAD_BUILD)
            return None
        if isinstance(action, (Build, ChooseBuilding)):
            return self._refuse_building(p, action)
        if isinstance(action, Follow):
            turn = self.refuse_follower(p if p is not None else -1)
            if turn is not None:
                return turn
            if self.lead == "build":
                return R.refusal("a Build lead is followed by building: choose a building, then how to pay for it",
                                 R.SEC_BUILD)
            if p in self.cannot_follow:
                return R.refusal(f"{R.who(p)} cannot follow {self.lead} in this position (the base game decides who "
                                 f"can; the position says {R.who(p)} cannot)", R.SEC_TAKE)
            return None
        if isinstance(action, Decline):
            if self.chosen_building is not None:
                return self._refuse_after_choice(p)
            return self.refuse_follower(p if p is not None else -1)
        return R.refusal(f"{action!r} is not an action of the Landmarks & Architects modules", R.SEC_TAKE)

    def _refuse_building(self, p, action) -> Refusal | None:
        """Why the player to move ``p`` may not make ``action`` (a :class:`ChooseBuilding` or
        a :class:`Build`) now, or ``None``: building is due (the leader after a Build lead, or
        a follower of it who may follow); a ChooseBuilding needs no building chosen yet and a
        payable building (:func:`.rules.refuse_choose`); a Build needs its card chosen first
        (a choice is not taken back) and a legal payment (:func:`.rules.refuse_build`)."""
        if self.phase != "build":
            turn = self.refuse_follower(p if p is not None else -1)
            if turn is not None:
                return turn
            if self.lead != "build":
                return R.refusal(f"the lead action is {self.lead}; building follows only a Build lead", R.SEC_TAKE)
            if p in self.cannot_follow:
                return R.refusal(f"{R.who(p)} cannot follow the build in this position (the base game decides)", R.SEC_TAKE)
        chosen = self.chosen_building
        if isinstance(action, ChooseBuilding):
            if chosen is not None:
                return self._refuse_after_choice(p, again=True)
            return R.refuse_choose(self, p, action.card)
        if chosen is None:
            return R.refuse_choose(self, p, action.card) or R.refusal(
                f"{R.who(p)} builds in two decisions: first choose the building (ChooseBuilding), then how to pay",
                R.SEC_TWO_STEP)
        if action.card != chosen:
            name = R.card_name(self, action.card) if isinstance(action.card, str) and action.card in self.box.cards \
                else repr(action.card)
            return R.refusal(f"{R.who(p)} chose to build the {R.card_name(self, chosen)}, not the {name}", R.SEC_TWO_STEP)
        return R.refuse_build(self, p, action)

    def _refuse_after_choice(self, p, again: bool = False) -> Refusal:
        """The refusal of anything but a Build of the chosen building once it is chosen
        (``again``: a second choice of a building)."""
        return R.refusal(f"{R.who(p)} has {'already ' if again else ''}chosen to build the "
                         f"{R.card_name(self, self.chosen_building)} (a choice is not taken back); now choose how to "
                         f"pay for it", R.SEC_TWO_STEP)

    def after_lead(self) -> "LandmarksState":
        """A copy of this position (the leader to lead) with the lead's automatic effects
        carried out: the leader's own gold back and the gold on the leader's Castle Grounds
        theirs (:func:`.rules.collect_at_lead`). Leading build is judged on this position,
        since the leader builds with that gold (Architects: Build; RULINGS: Landmarks)."""
        after = self.copy()
        R.collect_at_lead(after, self.leader)
        return after

    def legal_actions(self) -> list:
        """The legal actions of the player to move (empty at the deal and at the end)."""
        return list(self._legal_set().actions)

    def _legal_set(self) -> "LegalSet":
        """The legal actions as a :class:`LegalSet`, kept on this position until it
        changes and memoised (:func:`.rules.memo_table` ``"legal"``) by every field legality
        reads (:meth:`_legal_key`), so equal positions share the same action objects; an
        action is the same object wherever it is legal (Builds and Acquires through the rules'
        memo tables, Leads through :func:`_lead`, ChooseBuildings through :func:`_choose`,
        :data:`FOLLOW`, :data:`DECLINE`)."""
        if self._legal is None:
            key = self._legal_key()
            memo = R.memo_table(self.box, "legal")
            hit = memo.get(key) if key is not None else None
            if hit is None:
                # one object per distinct action, so the search's tables find them by identity: Builds come
                # so from rules.card_builds, Acquires from rules.acquire_options, the others are FOLLOW, DECLINE,
                # _lead's and _choose's
                hit = LegalSet(tuple(self._compute_legal()))
                if key is not None:
                    memo[key] = hit
            self._legal = hit
        return self._legal

    def _legal_key(self):
        """What the legal actions of the player to move depend on, or ``None`` when nobody is
        to move: the phase, the mover, the modules, the mover's sorted hand and the building
        chosen; to judge a Build (leading one, building, following one) the mover's developed
        cards, spent sources and gold and how full each Castle Grounds is; to follow, the lead,
        whether the mover may follow it and which landmarks are left in the supply."""
        phase = self.phase
        if phase == "lead" or phase == "build":
            p = self.leader
        elif phase == "follow":
            p = (self.leader + 1 + self.follower_pos) % self.players
        else:
            return None
        key = (phase, p, tuple(self.modules.items()), tuple(sorted(self.hands[p])), self.chosen_building)
        if phase != "follow" or self.lead == "build":
            key += (tuple(self.developed[p]), tuple(sorted(self.spent[p])), tuple(map(len, self.grounds)), self.gold[p])
        if phase == "follow":
            supply = self.supply
            key += (self.lead, p in self.cannot_follow, tuple([k for k in supply if supply[k] > 0]))
        return key

    def _compute_legal(self) -> list:
        p = self.current_player()
        if p is None:
            return []
        if self.phase == "lead":  # why_not(Lead(a)): every lead action, build only if a Build can be paid after it
            # (nothing to collect at the lead, no gold on p's sources or Castle Grounds: after it is this position)
            after = self if not self.spent[p] and not self.grounds[p] else self.after_lead()
            return [_lead(a) for a in self.box.lead_actions if a != "build" or R.can_build(after, p)]
        chosen = self.chosen_building
        if chosen is not None:  # the second decision of a Build: that card's payments only
            return R.card_builds(self, p, chosen)
        if self.phase == "build":
            return [_choose(k) for k in R.buildable_cards(self, p)]
        out = []
        if p not in self.cannot_follow:
            out += [_choose(k) for k in R.buildable_cards(self, p)] if self.lead == "build" else [FOLLOW]
        out += R.acquire_options(self, p) if self.modules["landmarks"] else []
        out.append(DECLINE)
        return out

    def options(self, p: int | None = None):
        """The follower's choices as a table: each kind of option (follow, each landmark type,
        decline) with ``legal`` and the reason when refused; ``ways`` counts the ways to take
        it (discard choices; for building, every Build of every payable building, over both
        of a Build's decisions)."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        p = self.current_player() if p is None else p
        legal = self.legal_actions() if p == self.current_player() else []
        rows = []

        def add(option, refusal, kind, key=None):
            if kind is Build:  # the cards listed, or the chosen one: every payment of each
                cards = [self.chosen_building] if self.chosen_building else [a.card for a in legal
                                                                             if isinstance(a, ChooseBuilding)]
                ways = sum(len(R.card_builds(self, p, k)) for k in cards) if legal else 0
            else:
                ways = sum(1 for a in legal if isinstance(a, kind) and (key is None or getattr(a, "landmark", None) == key))
            rows.append({"option": option, "legal": refusal is None and ways > 0, "ways": ways,
                         "reason": "" if refusal is None else str(refusal)})

        if self.lead == "build":
            ref = self.refuse_follower(p)
            if ref is None and p in self.cannot_follow:
                ref = R.refusal(f"{R.who(p)} cannot follow the build in this position", R.SEC_TAKE)
            if ref is None and not R.can_build(self, p):
                why = [f"{R.card_name(self, k)}: {R.plan_payments(self, p, k).why_none}" for k in sorted(set(self.hands[p]))
                       if self.box.cards[k].kind == "building"]
                ref = R.refusal("no building in hand can be paid (" + "; ".join(why or ["no building in hand"]) + ")",
                                R.SEC_BUILD)
            add("follow: build", ref, Build)
        else:
            add(f"follow: {self.lead}", self.why_not(Follow()) if p == self.current_player() else self.refuse_follower(p),
                Follow)
        for key, lt in self.box.landmarks.items():
            add(f"acquire {lt.name} ({lt.cost_text()})", R.refuse_acquire(self, p, key), Acquire, key)
        add("decline", self.refuse_follower(p), Decline)

        return nullable(pd.DataFrame(rows, columns=["option", "legal", "ways", "reason"]))

    # ------------------------------------------------------------------ applying
    def apply_action(self, action) -> None:
        """Apply a legal action and run on to the next decision.

        Raises:
            IllegalAction: with the refusal; the state is unchanged.
        """
        legal = self._legal_set()
        if id(action) not in legal.ids:  # not one of the listed objects themselves: judge it
            ref = self.why_not(action)
            if ref is None:
                # the listed action equal to this choice, written in another order or with numpy integers:
                # the record and the save hold the listed form (plain ints, the legal order)
                listed = legal.canonical()
                if _canonical(action) in listed:
                    action = listed[_canonical(action)]
                else:
                    ref = R.refusal(f"{action!r} is not among the legal actions", R.SEC_TAKE)
            if ref is not None:
                raise IllegalAction(action, ref)
        p = self.current_player()
        self.record = self.record.step(p, action)
        self._legal = None
        if isinstance(action, Lead):
            R.collect_at_lead(self, p)
            self.lead = action.action
            if self.log is not None:
                self.emit("lead", p, f"{R.who(p)} leads {action.action} ({R.SEC_TAKE}).", action=action.action)
            self.phase = "build" if action.action == "build" else "follow"
            self.follower_pos = 0
            return
        if type(action) is ChooseBuilding:
            self.chosen_building = action.card
            if self.log is not None:
                self.emit("building_chosen", p, f"{R.who(p)} chooses to build the {R.card_name(self, action.card)} "
                                                f"({R.SEC_BUILD}).", card=action.card)
            return
        if isinstance(action, Build):
            self.chosen_building = None
            R.do_build(self, p, action)
            if self.phase == "build":
                self.phase = "follow"
                self.follower_pos = 0
                return
        elif isinstance(action, Acquire):
            R.do_acquire(self, p, action)
        elif self.log is None:
            pass  # a follow or a decline changes nothing the modules keep but the log
        elif isinstance(action, Follow):
            self.emit("followed", p, f"{R.who(p)} follows {self.lead} (the base game's effect is outside the module; "
                                     f"{R.SEC_TAKE}).", action=self.lead)
        else:
            self.emit("declined", p, f"{R.who(p)} declines to follow or acquire ({R.SEC_TAKE}).")
        self._next_follower()

    def _next_follower(self) -> None:
        self.follower_pos += 1
        if self.follower_pos < self.players - 1:
            return
        if self.log is not None:
            self.emit("round_ended", None, f"Every follower has chosen: {R.who(self.leader)}'s turn is complete and the "
                                           f"leader's token passes left ({R.SEC_TAKE}).")
        self.follower_pos = 0
        if self.round < self.rounds:
            self.round += 1
            self.leader = (self.leader + 1) % self.players
            self.lead = None
            self.cannot_follow = set()
            self.phase = "lead"
            return
        self._finish()

    def _finish(self) -> None:
        self.phase = "over"
        if self.log is None:
            return  # the reveals and the points are only logged: returns() scores the position
        if self.modules["architects"]:
            for p in range(self.players):
                a = self.box.architects[self.architects[p]]
                self.emit("architect_revealed", p, f"{R.who(p)} reveals {a.name} ({' and '.join(a.types)} buildings; "
                                                   f"{R.SEC_ARCHITECT_SCORING}).", architect=a.key)
        t = R.totals(self)
        self.emit("game_over", None, R.game_over_sentence(t), points=t)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[tuple[str, ...], float]]:
        """At the deal: every ordered deal of architects (one per player, P1 first), all
        equally likely; else ``[]``."""
        if self.phase != "deal":
            return []
        deals = list(permutations(sorted(self.box.architects), self.players))
        return [(d, 1.0 / len(deals)) for d in deals]

    def apply_chance(self, outcome) -> None:
        """Deal ``outcome`` (a tuple of architect keys, P1 first). Raises :class:`ChanceError`."""
        if self.phase != "deal":
            raise ChanceError("no chance node is waiting (the architects are already dealt)")
        if isinstance(outcome, list):
            outcome = tuple(outcome)
        if (not isinstance(outcome, tuple) or len(outcome) != self.players or len(set(outcome)) != self.players
                or not all(isinstance(a, str) and a in self.box.architects for a in outcome)):
            raise ChanceError(f"{outcome!r} is not a deal of {self.players} different architects "
                              f"(architects: {', '.join(self.box.architects)})")
        self.record = self.record.append(HistoryEntry(None, outcome, chance=True))
        self.rng_count += 1
        self._legal = None
        self.architects = list(outcome)
        for p, key in enumerate(outcome):
            a = self.box.architects[key]
            self.emit("architect_dealt", p, f"{R.who(p)} is dealt {a.name} face down: {R.architect_words(self.box, a)} "
                                            f"({R.SEC_ARCHITECT_SETUP}).",
                      architect=key)
        self.phase = "lead"

    def sample_chance(self):
        """The seeded outcome of the waiting chance node (same seed, same deal)."""
        outs = self.chance_outcomes()
        if not outs:
            raise ChanceError("no chance node is waiting")
        return outs[chance_index(self.seed, self.rng_count, [1] * len(outs))][0]

    # ------------------------------------------------------------------ results and views
    def returns(self) -> list[float]:
        """Each player's module points once terminal (:func:`.rules.totals`), else zeros."""
        if not self.is_terminal():
            return [0.0] * self.players
        return [float(x) for x in R.totals(self)]

    def score_table(self):
        """Every point of the modules as a DataFrame (player, source, points, explanation, section)."""
        return R.score_table(self)

    def score_summary(self):
        """Points per player and source with totals."""
        return R.score_summary(self)

    def plan_payments(self, card: str, p: int | None = None):
        """Every minimal way for ``p`` (default: the player to move) to pay ``card``."""
        return R.plan_payments(self, self.current_player() if p is None else p, card)

    def village_cards(self, p: int) -> int:
        """Cards counted toward the end trigger (landmark tokens excluded)."""
        return R.village_cards(self, p)

    def events(self, viewer: int | None = None):
        """The event log as a DataFrame as ``viewer`` may see it (:data:`VISIBILITY`: other
        players' architects redacted)."""
        self._check_viewer(viewer)
        return VISIBILITY.frame(self.log, viewer)

    def _check_viewer(self, viewer) -> None:
        if viewer is not None and (not is_integer(viewer)
                                   or not 0 <= viewer < self.players):
            raise ValueError(f"viewer must be None or a player 0..{self.players - 1}, got {viewer!r}")

    def observation(self, player: int | None = None) -> dict:
        """What ``player`` may see: everything public, their own hand and architect; other
        hands as counts, other architects hidden until the end; never the draw pile's order
        or the seed. ``None`` is the omniscient view."""
        self._check_viewer(player)
        d = self.fields()
        if player is None:
            return d
        VISIBILITY.observation(d, player)  # the game's one declaration of what is hidden
        d["viewer"] = player
        return d

    def history(self) -> list[HistoryEntry]:
        return self.record.entries()

    copy = compile_copy(STATE_FIELDS, shared=("box", "auto_chance", "_legal"), doc="""An independent copy
        (compiled from :data:`~haunted_kit.landmarks.state.STATE_FIELDS`; ``keep_log`` is accepted
        for the protocol, the log is always copied). The box, the action record and the start
        position are shared: they never change in place.""")

    def start_position(self) -> "LandmarksState":
        """The position before the first entry of the action record (the start position,
        its events, the deal's chance nodes left waiting)."""
        s = _from_fields(self.box, self.start, auto_chance=False)
        s.log = self.log[:self.start_log]
        s.start_log = self.start_log
        return s

    def replay(self) -> list[tuple[HistoryEntry | None, "LandmarksState"]]:
        """The states along the action record: ``[(None, start), (entry, state after), ...]``."""
        return states_along(self.start_position(), self.history())

    def __repr__(self) -> str:
        who = self.current_player()
        return (f"<Landmarks & Architects: {self.players} players, {R.ROUND_WORD} {self.round}/{self.rounds}, {self.phase}"
                + (f", {R.who(who)} to move" if who is not None else "") + ">")

    # ------------------------------------------------------------------ saves
    def to_dict(self) -> dict:
        """The full save: format, version, game, box fingerprint, the position, the start
        position, the action record and the event log (``null`` for a position that keeps none,
        a search's determinisation: such a save does not load)."""
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "game": "landmarks",
            "box": {"fingerprint": self.box.fingerprint, "path": self.box.path},
            "auto_chance": self.auto_chance,
            "state": self.fields(),
            "start": copy_tree(self.start),
            "start_log": self.start_log,
            "record": [{"player": e.player, "chance": e.chance,
                        "action": list(e.action) if e.chance else action_to_dict(e.action)} for e in self.history()],
            "log": None if self.log is None else [e.to_dict() for e in self.log],
        }

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    def save(self, path) -> None:
        """Write the save to ``path`` atomically (a temporary file, then a replace)."""
        atomic_write(path, self.to_json(indent=1))

    @staticmethod
    def from_dict(data, box: LandmarksBox | None = None) -> "LandmarksState":
        """Rebuild a saved game after the kit's box check (:func:`haunted_kit.games.load_state`,
        then :func:`from_dict`). Raises :class:`SaveError` naming what is wrong."""
        return load_state(GAME, data, box, SaveError)

    @staticmethod
    def load(path, box: LandmarksBox | None = None, max_bytes: int | None = MAX_INPUT_BYTES) -> "LandmarksState":
        """Read a save (at most ``max_bytes``). Raises :class:`SaveError` (unreadable, too
        big, not JSON, or naming the bad field)."""
        return load_state(GAME, read_json(path, max_bytes, what="save", error=SaveError), box, SaveError)


# ============================================================================ starting positions


def _check_players(box: LandmarksBox, players) -> int:
    if not is_integer(players) or not box.min_players <= players <= box.max_players:
        raise ConfigError(f"players must be an integer from {box.min_players} to {box.max_players}, got {players!r}")
    return int(players)


def _modules(box: LandmarksBox, modules) -> dict:
    if modules is None:
        return dict(box.modules)
    if not isinstance(modules, dict) or any(k not in box.modules or not isinstance(v, bool) for k, v in modules.items()):
        raise ConfigError(f"modules must map some of {', '.join(box.modules)} to true/false, got {modules!r}")
    return {**box.modules, **modules}


def _setup_events(s: LandmarksState) -> None:
    box = s.box
    n = s.players
    if s.modules["landmarks"]:
        removed = box.tokens_per_type - box.supply(n)
        extra = (f"; with 2 players {removed} of each type go back to the box, leaving {box.supply(n)}" if removed else "")
        s.emit("setup", None, f"The {len(box.landmarks)} Landmark cards are laid out with {box.tokens_per_type} tokens of "
                              f"each type{extra} ({R.SEC_SETUP}).", supply=dict(s.supply))


#: the most turns a game may be set to last (``new_game(rounds=...)``)
MAX_ROUNDS = 1000


def new_game(players: int = 3, seed: int = 0, *, rounds: int | None = None, modules: dict | None = None,
             box: LandmarksBox | None = None, auto_chance: bool = True, log: bool = True) -> LandmarksState:
    """A seeded game dealt from the **kit example deck** (not the published cards).

    Each player gets ``example_round`` cards of the box (hand, village, developed resources,
    gold); the architect deal is a chance node, resolved from ``seed`` when ``auto_chance``.
    P1 leads first. Terminal after ``rounds`` turns (the rulebook's leader's turn; default:
    the box's ``example_round.rounds``, 3, so that with 3 players every seat leads once).
    ``log`` is accepted for the kit's simulation tools; the log is always kept (a turn logs
    a few dozen events, and saves are checked against it).

    Raises:
        ConfigError: bad players, rounds or modules.
    """
    box = box or default_box()
    players = _check_players(box, players)
    seed = check_seed(seed, error=ConfigError)
    er = box.example_round
    rounds = er["rounds"] if rounds is None else rounds
    if not is_integer(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise ConfigError(f"rounds (the turns to play) must be an integer from 1 to {MAX_ROUNDS}, got {rounds!r}")
    seed, rounds = int(seed), int(rounds)  # a numpy integer is accepted, kept plain
    s = LandmarksState(box, players, auto_chance)
    s.modules = _modules(box, modules)
    s.seed, s.rounds = seed, rounds
    deck = sorted(k for k, c in box.cards.items() for _ in range(c.copies))
    seeded_random(seed).shuffle(deck)  # the kit's seeded generator: seeds k and -k deal differently
    for p in range(players):
        dev = [k for k in deck if box.cards[k].icons][:er["developed"]]
        for k in dev:
            deck.remove(k)
        s.developed[p] = dev
        s.villages[p], deck = deck[:er["village"]], deck[er["village"]:]
        s.hands[p], deck = deck[:er["hand"]], deck[er["hand"]:]
        s.gold[p] = er["gold"]
    s.draw_pile = deck
    _setup_events(s)
    s.emit("deal", None, f"An example position is dealt from the {box.deck_label} (seed {seed}): "
                         f"{er['hand']} cards in hand, {er['village']} in the village, {er['developed']} developed "
                         f"resources and {er['gold']} gold each.")
    s.phase = "deal" if s.modules["architects"] else "lead"
    s.start, s.start_log = s.fields(), len(s.log)
    if s.phase == "deal" and auto_chance:
        s.apply_chance(s.sample_chance())
    return s


def position(*, hands, villages, gold, developed=None, tokens=None, architects=None, leader: int = 0,
             lead: str | None = "build", cannot_follow=(), spent=None, grounds=None, modules: dict | None = None,
             rounds: int | None = None, to_move: int | None = None, chosen_building: str | None = None,
             box: LandmarksBox | None = None) -> LandmarksState:
    """An explicit position, e.g. the text's examples.

    Args:
        hands, villages, developed: per player, lists of card keys of the deck.
        gold: per player, gold in supply. tokens: per player, ``{landmark: count}`` (missing = 0).
        architects: per player, an architect key (default: none dealt; architect scoring off).
        leader: who leads. lead: the action already led (then the first follower is to move;
            the leader's own action is done), or ``None`` (the leader is to lead).
        cannot_follow: players who cannot follow the lead (the base game decides; with a
            Build lead, a player whose buildings cannot be paid cannot follow anyway).
        spent: per player, own sources holding gold (``"castle"``, ``"developed:N"``).
        grounds: per player, the players whose gold lies on that player's Castle Grounds.
        to_move: with a lead given, who is to move after it: a follower (default: the first,
            on the leader's left), or the leader to build after a Build lead (phase ``build``).
        chosen_building: after a Build lead, the building the player to move has already
            chosen to build (the first of a Build's two decisions; default none).
        rounds: the turns of the game the position is the first turn of (default: the box's,
            as :func:`new_game`'s, so an example is a turn of a real game, not its end).

    Raises:
        ConfigError: a malformed or impossible position (the message names the field).
    """
    box = box or default_box()
    rounds = box.example_round["rounds"] if rounds is None else rounds
    # numpy integers are accepted as the actions accept them, made plain ints for the save
    hands, villages, gold, developed, tokens, architects, leader, cannot_follow, spent, grounds, rounds = plain_integers(
        (hands, villages, gold, developed, tokens, architects, leader, cannot_follow, spent, grounds, rounds))
    if not isinstance(hands, (list, tuple)):
        raise ConfigError("hands must be a list with one list of card keys per player")
    n = _check_players(box, len(hands))
    _check_position_lists(hands=hands, villages=villages, developed=developed, spent=spent, grounds=grounds, gold=gold,
                          cannot_follow=cannot_follow, architects=architects, tokens=tokens)
    s = LandmarksState(box, n, auto_chance=False)
    mods = _modules(box, modules)
    if architects is None:
        mods["architects"] = False
    toks = _position_tokens(box, n, tokens)
    phase, follower_pos = _position_turn(n, leader, lead, to_move)
    fields = {
        "players": n, "modules": mods, "seed": 0, "rng_count": 0, "rounds": rounds, "round": 1,
        "phase": phase, "leader": leader, "lead": lead,
        "cannot_follow": list(cannot_follow), "follower_pos": follower_pos,
        "hands": [list(h) for h in hands], "villages": [list(v) for v in villages],
        "developed": [list(d) for d in (developed or [[]] * n)], "gold": list(gold), "tokens": toks,
        "supply": {k: box.supply(n) - sum(t[k] for t in toks) for k in box.landmarks},
        "architects": list(architects) if architects is not None else [None] * n,
        "spent": [list(x) for x in (spent or [[]] * n)], "grounds": [list(g) for g in (grounds or [[]] * n)],
        "discard_pile": [], "draw_pile": [], "end_triggered": False, "chosen_building": chosen_building,
    }
    try:
        read_fields(s, fields, "position")
    except SaveError as exc:
        raise ConfigError(str(exc)) from None
    if lead is not None:
        s.emit("lead", leader, f"{R.who(leader)} has led {lead}" + (
            f"; {', '.join(R.who(p) for p in sorted(s.cannot_follow))} cannot follow it" if s.cannot_follow else "")
            + f" ({R.SEC_TAKE}).", action=lead, cannot_follow=sorted(s.cannot_follow))
    s.start, s.start_log = s.fields(), len(s.log)
    return s


def _check_position_lists(*, hands, villages, developed, spent, grounds, gold, cannot_follow, architects,
                          tokens) -> None:
    """:func:`position`'s arguments have the shapes it reads: lists per player (of card
    keys, sources, payers), lists, ``{landmark: count}`` objects. Raises ConfigError."""
    for name, v, optional in (("hands", hands, False), ("villages", villages, False), ("developed", developed, True),
                              ("spent", spent, True), ("grounds", grounds, True)):
        if v is None and optional:
            continue
        if not isinstance(v, (list, tuple)) or not all(isinstance(x, (list, tuple)) for x in v):
            raise ConfigError(f"{name} must be a list with one list per player, got {v!r}")
    for name, v, optional in (("gold", gold, False), ("cannot_follow", cannot_follow, False),
                              ("architects", architects, True)):
        if not (v is None and optional) and not isinstance(v, (list, tuple)):
            raise ConfigError(f"{name} must be a list, got {v!r}")
    if tokens is not None and not (isinstance(tokens, (list, tuple))
                                   and all(t is None or isinstance(t, dict) for t in tokens)):
        raise ConfigError(f"tokens must be a list with one {{landmark: count}} object per player, got {tokens!r}")


def _position_tokens(box: LandmarksBox, n: int, tokens) -> list:
    """Each player's ``{landmark: count}`` for every landmark of the box (missing = 0).
    Raises ConfigError for an unknown landmark."""
    toks = [{k: (t or {}).get(k, 0) for k in box.landmarks} for t in (tokens or [{}] * n)]
    if tokens is not None:
        for p, t in enumerate(tokens):
            bad = [k for k in (t or {}) if k not in box.landmarks]
            if bad:
                raise ConfigError(f"tokens[{p}]: unknown landmark {bad[0]!r} (landmarks: {', '.join(box.landmarks)})")
    return toks


def _position_turn(n: int, leader, lead, to_move) -> tuple:
    """The ``(phase, follower_pos)`` of a position with ``lead`` led by ``leader`` and
    ``to_move`` to move (see :func:`position`). Raises ConfigError."""
    phase, follower_pos = ("lead" if lead is None else "follow"), 0
    if to_move is not None:
        if lead is None or not is_integer(to_move) or not 0 <= to_move < n:
            raise ConfigError(f"to_move must be a player 0..{n - 1} after a lead, got {to_move!r}"
                              + ("" if lead is not None else " with no lead given"))
        if to_move == leader and lead != "build":
            raise ConfigError(f"to_move: the leader moves again only to build after a Build lead, not after {lead}")
        if is_integer(leader) and to_move == leader:
            phase = "build"
        elif is_integer(leader):
            follower_pos = (to_move - leader - 1) % n
    return phase, follower_pos


def _from_fields(box: LandmarksBox, fields: dict, auto_chance: bool) -> LandmarksState:
    players = fields.get("players") if isinstance(fields, dict) else None
    if not is_integer(players) or not box.min_players <= players <= box.max_players:
        raise SaveError(f"start.players: must be an integer from {box.min_players} to {box.max_players}, got {players!r}")
    s = LandmarksState(box, players, auto_chance)
    read_fields(s, fields, "start")
    s.start = s.fields()
    return s


def _start_events(s: LandmarksState, saved: list) -> list:
    """The start position's events of a save: when the start is a seeded example round
    (:func:`new_game` with the start's players, seed, rounds and modules deals it again),
    the saved events must be the ones that deal logs, compared as JSON text (``true`` is
    not ``1``); an explicit position keeps its saved events. Raises :class:`SaveError`."""
    try:
        dealt = new_game(s.players, s.seed, rounds=s.rounds, modules=dict(s.modules), box=s.box, auto_chance=False)
    except ConfigError:
        return saved
    if json.dumps(dealt.start, sort_keys=True) != json.dumps(s.start, sort_keys=True):
        return saved
    want = [json.dumps(e.to_dict(), sort_keys=True) for e in dealt.log[:dealt.start_log]]
    got = [json.dumps(e.to_dict(), sort_keys=True) for e in saved]
    if got != want:
        i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise SaveError(f"log[{i}]: the start position's events differ from what its deal logs")
    return saved


def from_dict(data, box: LandmarksBox | None = None) -> LandmarksState:
    """Rebuild a save: checks format, version, game and the box entry's shape (which box: the
    kit's check, :func:`haunted_kit.games.load_state`), reads the start position, replays
    the action record through the rules, and checks that the result is the saved position and
    log. Older saves are migrated: a version 1 save (before a Build was two decisions,
    :func:`_from_v1`) has each recorded Build replayed as its ChooseBuilding then the Build,
    and its log must be the replayed one without the new ``building_chosen`` events; a
    version 1 or 2 save (before the game-over sentence was written in words, :func:`_from_v2`)
    has its game-over sentence read in the new words; a version 1 to 3 save (before the kit's
    rulings were cited by code, :func:`_from_v3`) has its two sentences that cited them read
    in the new words. Raises :class:`SaveError` naming the field."""
    box = box or default_box()
    version = _check_save_entries(data)
    legacy = version == 1
    where_of = None  # a version 1 save: each migrated entry's place in the file's own record
    if legacy:
        data, where_of = _from_v1(data)
    if version < 3:
        data = _from_v2(data)
    if version < 4:
        data = _from_v3(data)
    start = data["start"]
    s = _from_fields(box, start, auto_chance=False)
    # the saved start may carry events of its own (setup, deal, lead): take them from the log
    log = data["log"]
    if not isinstance(log, list):
        raise SaveError("log: must be a list")
    try:
        events = [Event.from_dict(e) for e in log]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(f"log: malformed event ({exc})") from None
    record = data["record"]
    if not isinstance(record, list):
        raise SaveError("record: must be a list")
    first = data["start_log"]
    if not is_integer(first) or not 0 <= first <= len(events):
        raise SaveError(f"start_log: must count the events of the start position (0..{len(events)}), got {first!r}")
    s.log = _start_events(s, events[:first])
    s.start_log = first
    _replay_record(s, record, where_of)
    _check_replayed(s, box, data["state"], events, legacy)
    s.auto_chance = data["auto_chance"]
    return s


def _check_save_entries(data) -> int:
    """A Landmarks save's format, version, game, box entry and fields checked; returns
    its version (1 to :data:`SAVE_VERSION`). Raises SaveError."""
    if not isinstance(data, dict):
        raise SaveError(f"a save must be a JSON object, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(f"format: must be {SAVE_FORMAT!r}, got {data.get('format')!r}")
    version = next((v for v in range(1, SAVE_VERSION + 1) if is_the_integer(data.get("version"), v)), None)
    if version is None:
        raise SaveError(f"version: this kit reads version {SAVE_VERSION} (and migrates versions 1 to "
                        f"{SAVE_VERSION - 1}), got {data.get('version')!r}")
    if data.get("game") != "landmarks":
        raise SaveError(f"game: must be 'landmarks', got {data.get('game')!r}")
    if not isinstance(data.get("box"), dict) or not isinstance(data["box"].get("fingerprint"), str):
        # which box: the kit's to check (games.load_state); here only the entry's shape
        raise SaveError(f"box: must be an object naming the box's fingerprint, got {data.get('box')!r}")
    for key in ("state", "start", "start_log", "record", "log", "auto_chance"):
        if key not in data:
            raise SaveError(f"{key}: missing")
    unknown = [k for k in data if k not in SAVE_KEYS]
    if unknown:  # e.g. forced chance outcomes: these modules' saves never hold any
        raise SaveError(f"{unknown[0]}: unknown field of a Landmarks save (its fields: {', '.join(SAVE_KEYS)})")
    if not isinstance(data["auto_chance"], bool):
        raise SaveError(f"auto_chance: must be true or false, got {data['auto_chance']!r}")
    return version


def _replay_record(s: LandmarksState, record: list, where_of: list | None) -> None:
    """Apply the saved action record to ``s`` through the rules (``where_of``: each entry's
    place in a version 1 save's own record). Raises SaveError naming the entry."""
    for i, e in enumerate(record):
        where = f"record[{i}]" if where_of is None else where_of[i]
        if not isinstance(e, dict) or not isinstance(e.get("chance"), bool):
            raise SaveError(f"{where}: must be an object with 'player', 'chance' and 'action'")
        try:
            if e["chance"]:
                s.apply_chance(tuple(e.get("action") or ()))
            else:
                a = action_from_dict(e.get("action"))
                if not is_the_integer(e.get("player"), s.current_player()):
                    raise SaveError(f"{where}.player: P{s.current_player() + 1 if s.current_player() is not None else '?'} "
                                    f"is to move, the save says {e.get('player')!r}")
                s.apply_action(a)
        except IllegalAction as exc:
            raise SaveError(f"{where}: the rules refuse it: {exc.refusal}") from None
        except (ChanceError, ValueError, TypeError) as exc:
            if isinstance(exc, SaveError):
                raise
            raise SaveError(f"{where}: {exc}") from None


def _check_replayed(s: LandmarksState, box: LandmarksBox, state, events: list, legacy: bool) -> None:
    """The replayed ``s`` must be the saved ``state`` and log ``events`` (a version 1 log
    without its building_chosen events). Raises SaveError naming the field."""
    want = _from_fields_check(box, state, s.players)
    got = s.fields()
    for k in Position.FIELDS:
        if json.dumps(got[k], sort_keys=True) != json.dumps(want[k], sort_keys=True):
            raise SaveError(f"state.{k}: the record replays to {got[k]!r} but the save says {want[k]!r}")
    got = [json.dumps(e.to_dict()) for e in events]  # JSON text, so true is not 1
    want = [json.dumps(e.to_dict()) for e in s.log]
    if legacy:  # the version 1 log has no building_chosen events: compared without them and their numbers
        got = [json.dumps({**e.to_dict(), "seq": None}) for e in events]
        want = [json.dumps({**e.to_dict(), "seq": None}) for e in s.log if e.kind != "building_chosen"]
    if got != want:
        i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise SaveError(f"log[{i}]: the saved event log differs from what the record replays to")


def v1_record(record: list) -> tuple[list, list[int]]:
    """A version 1 action record (save entries ``{"player", "chance", "action"}``, a Build
    one decision) as version 2 reads it: each Build preceded by the ChooseBuilding of its
    card, by the same player (Architects: How To Play, Build). The one reader of version 1
    records: a save's (:func:`from_dict`) and a classroom store's rows
    (:meth:`LandmarksGame.migrate_record`). Returns the new record and, per new entry, the
    index of the entry of ``record`` it comes from (a Build's two entries share it).

    Raises:
        SaveError: an entry version 1 never wrote (a ChooseBuilding), named by its index."""
    out, origin = [], []
    for i, e in enumerate(record):
        a = e.get("action") if isinstance(e, dict) and e.get("chance") is False else None
        kind = a.get("type") if isinstance(a, dict) else None
        if kind == "ChooseBuilding":
            raise SaveError(f"record[{i}]: a version 1 save has no ChooseBuilding (its Builds are one decision)")
        if kind == "Build":
            out.append({"player": e.get("player"), "chance": False,
                        "action": {"type": "ChooseBuilding", "card": a.get("card")}})
            origin.append(i)
        out.append(e)
        origin.append(i)
    return out, origin


def _from_v1(data: dict) -> tuple[dict, list[str]]:
    """A version 1 save as version 2 (a new dict; ``data`` is not changed): ``state`` and
    ``start`` gain ``chosen_building: null`` (a version 1 position never holds a chosen
    building) and each recorded Build is preceded by the ChooseBuilding of its card, by the
    same player (Architects: How To Play, Build; a Build is two decisions since version 2).
    Also returns, per entry of the new record, where it stands in the file's record, for
    error messages (``"record[2]"``, ``"record[2] (the choice of its card)"``).
    Raises :class:`SaveError` for a version 1 save naming what version 1 never had."""
    out = dict(data, version=SAVE_VERSION)
    where_of: list[str] = []
    for key in ("state", "start"):
        if isinstance(data[key], dict):
            if "chosen_building" in data[key]:
                raise SaveError(f"{key}.chosen_building: a version 1 save has no such field")
            out[key] = {**data[key], "chosen_building": None}
    if isinstance(data["record"], list):
        out["record"], origin = v1_record(data["record"])
        where_of = [f"record[{i}] (the choice of its card)" if j + 1 < len(origin) and origin[j + 1] == i
                    else f"record[{i}]" for j, i in enumerate(origin)]
    return out, where_of


def v2_game_over_sentence(points: list) -> str:
    """The game-over sentence as saves of versions 1 and 2 wrote it (it pointed at a
    function of the kit instead of saying who won); since version 3 the event reads
    :func:`.rules.game_over_sentence`."""
    return ("The modules' points: " + ", ".join(f"{R.who(p)} {n}" for p, n in enumerate(points))
            + " (see score_table for each point).")


def _from_v2(data: dict) -> dict:
    """A version 2 save (or a version 1 save as :func:`_from_v1` leaves it) as version 3
    (a new dict; ``data`` is not changed): each ``game_over`` event of its log whose text is
    the one version 2 wrote for its points (:func:`v2_game_over_sentence`) reads the new
    sentence (:func:`.rules.game_over_sentence`). Any other text is left as it is, so the
    log check refuses a saved sentence the kit never wrote."""
    log = data["log"]
    if not isinstance(log, list):
        return dict(data, version=SAVE_VERSION)  # refused by the log check, naming the field
    out = []
    for e in log:
        if isinstance(e, dict) and e.get("kind") == "game_over" and isinstance(e.get("data"), dict):
            points = e["data"].get("points")
            if (isinstance(points, list) and points and all(is_integer(n) for n in points)
                    and e.get("text") == v2_game_over_sentence(points)):
                e = {**e, "text": R.game_over_sentence(points)}
        out.append(e)
    return dict(data, version=SAVE_VERSION, log=out)


#: how saves of versions 1 to 3 cited the kit's rulings in an event, and the citation each kind of
#: event has since version 4 (:func:`_from_v3`)
V3_CITATION = "kit default, see RULINGS: Landmarks & Architects"
V4_CITATIONS = {"gold_returned": R.SEC_SOURCES, "game_over": R.SEC_WINNER}


def _from_v3(data: dict) -> dict:
    """A version 3 save (or an older one as :func:`_from_v2` leaves it) as version 4 (a new
    dict; ``data`` is not changed): in each ``gold_returned`` and ``game_over`` event, the
    citation versions 1 to 3 wrote (:data:`V3_CITATION`) reads the ruling's code
    (:data:`V4_CITATIONS`). Any other text is left as it is, so the log check refuses a
    sentence the kit never wrote."""
    log = data["log"]
    if not isinstance(log, list):
        return dict(data, version=SAVE_VERSION)  # refused by the log check, naming the field
    out = []
    for e in log:
        if isinstance(e, dict) and e.get("kind") in V4_CITATIONS and isinstance(e.get("text"), str):
            e = {**e, "text": e["text"].replace(f"({V3_CITATION})", f"({V4_CITATIONS[e['kind']]})")
                 .replace(f"(who wins: {V3_CITATION})", f"(who wins: {V4_CITATIONS[e['kind']]})")}
        out.append(e)
    return dict(data, version=SAVE_VERSION, log=out)


#: the fields of a Landmarks save (:meth:`LandmarksState.to_dict`); a save with any other is refused
SAVE_KEYS = ("format", "version", "game", "box", "auto_chance", "state", "start", "start_log", "record", "log")


def _from_fields_check(box, state, players) -> dict:
    pos = Position(box, players)
    read_fields(pos, state, "state")
    return pos.fields()


class LandmarksGame:
    """The :class:`~haunted_kit.protocol.Game` of the Landmarks & Architects modules."""

    name = "landmarks"
    title = "Landmarks & Architects"
    visibility = VISIBILITY  #: who may see what (:data:`VISIBILITY`)
    #: the decision kinds (JSON type name -> action class) the conformance suite reaches
    action_types = ACTION_TYPES
    default_players = 3  #: the tools' player count when none is given
    compare_games = 250  #: ``compare``'s games per box when none are asked for (about 5-15 CPU s of games)
    @property
    def options(self) -> tuple:
        """What a player may set beyond players and seed: the turns a game plays (the
        command line's ``--turns``, ``--rounds`` as before; the ``new_game`` keyword
        ``rounds``), by default the box's (``example_round.rounds``, 3: with the default 3
        players every seat leads once, the leader's token passing left after each turn,
        Landmarks: How To Play, Take One Action; ruling L1), the same as ``new_game``'s."""
        return (GameOption("rounds", "turns to play, each one lead and its followers; the leader's token passes "
                                     "left after each (Landmarks: How To Play, Take One Action; kit default, ruling L1)",
                           kind="int", default=default_box().example_round["rounds"], flag="turns", low=1,
                           high=MAX_ROUNDS, aliases=("rounds",)),)

    @property
    def min_players(self) -> int:
        return default_box().min_players

    @property
    def max_players(self) -> int:
        return default_box().max_players

    @staticmethod
    def phase_of(state: LandmarksState) -> str:
        """The phase ``state`` is in (``deal``, ``lead``, ``build``, ``follow``, ``over``), as
        its events name it: the lead phase begins after the architect deal with no event."""
        return state.phase

    def new_game(self, *, players: int, seed: int = 0, log: bool = True, **options) -> LandmarksState:
        return new_game(players, seed, log=log, **options)

    def from_dict(self, data: dict, box=None) -> LandmarksState:
        return from_dict(data, box)

    #: decisions a player may take in one round before a tool takes the game to be endless
    #: (:meth:`max_decisions`); the longest 5-player round measured takes 9 in all
    DECISIONS_PER_PLAYER_ROUND = 10

    def max_decisions(self, state: LandmarksState) -> int:
        """The decision cap of ``state``'s game (:func:`haunted_kit.games.decision_cap`),
        from its length: :attr:`DECISIONS_PER_PLAYER_ROUND` per player per round."""
        return self.DECISIONS_PER_PLAYER_ROUND * state.players * state.rounds

    def box_of(self, state: LandmarksState) -> LandmarksBox:
        """The box ``state`` is played with (named in the decision cap's message)."""
        return state.box

    def seed_of(self, state: LandmarksState) -> int:
        """``state``'s game seed."""
        return state.seed

    def start_of(self, state: LandmarksState) -> LandmarksState:
        """The position before the first entry of ``state.history()``
        (:meth:`LandmarksState.start_position`), from which
        :func:`haunted_kit.protocol.states_along` re-plays the record (used by
        :mod:`haunted_kit.review`)."""
        return state.start_position()

    def action_to_dict(self, action) -> dict:
        return action_to_dict(action)

    def action_from_dict(self, data: dict):
        return action_from_dict(data)

    def migrate_record(self, record: list) -> tuple[list, list[int]]:
        """A record written by the previous version (:func:`v1_record`: a Build was one
        decision) as this version reads it, for a classroom store whose rows no longer
        replay; the same reader as a version 1 save's. Raises SaveError (a ValueError)
        for a record that is not version 1's."""
        return v1_record(record)

    @property
    def agents(self) -> dict:
        """Bots by name (``random``, ``greedy``; each a class taking a seed) for
        :func:`haunted_kit.bots.make_bot`."""
        return AGENTS

    #: the box's schema (``haunted_kit.boxschema.BoxSchema``): its files and every key, for docs/BOXES.md
    box_schema = BOX_SCHEMA

    def load_box(self, path) -> LandmarksBox:
        """A house-rule copy of ``data/landmarks/`` (for ``haunted-kit check-box --game landmarks``)."""
        return load_box(path)

    def settings(self, box: LandmarksBox | None = None) -> list[dict]:
        """The ``new_game`` settings a box check covers: every player count over 3 rounds,
        and each module switched off once."""
        box = box or default_box()
        out = [{"players": n, "rounds": 3} for n in range(box.min_players, box.max_players + 1)]
        return out + [{"players": 3, "rounds": 2, "modules": {m: False}} for m in box.modules]

    def invariants(self, s: LandmarksState, before: LandmarksState | None = None) -> list[str]:
        """Problems in words: the position's own consistency (the save loader's checks:
        tokens adding up to the supply, card copies, gold on sources), and, since the
        previous step, no landmark token lost and no village card gone."""
        problems = []
        try:
            read_fields(Position(s.box, s.players), s.fields(), "state")
        except SaveError as exc:
            problems.append(str(exc))
        if before is not None:
            for p in range(s.players):
                if any(s.tokens[p][k] < before.tokens[p][k] for k in s.box.landmarks):
                    problems.append(f"P{p + 1} lost a landmark token")
                if len(s.villages[p]) < len(before.villages[p]):
                    problems.append(f"P{p + 1}'s village lost a card")
        return problems

    # ---- optional members used by simulation, search and the environment (see protocol.Game)
    state_type = LandmarksState

    def default_box(self):
        """The module's own box (``data/landmarks/``)."""
        return default_box()

    score_name = "module points"  #: what ``seat_results``' score is, in words (hint sentences)

    #: what the simulation dataset's columns mean for these modules (see haunted_kit.simulate)
    result_meanings = {
        **SCORE_ONLY_MEANINGS,
        "score": "the modules' points at the end (majorities, Gates, sets, architect; rules.totals); "
                 "the base game's points are not played",
        "won": "the sole most module points (a tie at the top: nobody; a kit measure, the base game decides "
               "the real winner)",
        "score_parts": "the module points by source as JSON (rules.score_table's sources), source -> points",
        "game_turns": "turns begun (one lead and its followers each: the rulebook's turn; all of them once the game is over)",
    }

    #: :meth:`evaluate`'s softmax width, in module points (a majority is worth 2)
    eval_width = 2.0
    #: the share of the architect points in hand that :meth:`evaluate` expects to be built
    eval_build_share = 0.5

    def evaluate(self, state: LandmarksState) -> list[float]:
        """A cheap estimate of each player's chance to end with the most module points, for
        truncated search playouts (a kit heuristic, not a rule; guesses, not fitted): a
        softmax, :attr:`eval_width` points wide, over :func:`points_estimate` (the points now
        plus :attr:`eval_build_share` of the architect points the buildings in hand would
        add, at most one building per round left). One value per player, each in 0..1,
        summing to 1, like a finished playout's values (``search.playout_values``: the top
        score shares 1); equal estimates give equal values. Reads every hand: the search calls
        it on a determinisation, never on the true position."""
        est = points_estimate(state, self.eval_build_share)
        top = max(est)
        w = [math.exp((v - top) / self.eval_width) for v in est]
        total = sum(w)
        return [x / total for x in w]

    def seat_results(self, state: LandmarksState) -> list[dict]:
        """Per player the figures a simulation records (:func:`~haunted_kit.protocol.results_by_score`
        of the module points; see :attr:`result_meanings`)."""
        return results_by_score(R.totals(state))

    def score_parts(self, state: LandmarksState) -> list[dict]:
        """Each player's module points by source (index order): source -> points, the
        sources of :func:`haunted_kit.landmarks.rules.score_rows` in their order (zeros
        included; a switched-off module has none), adding up to :func:`~haunted_kit.landmarks.rules.totals`."""
        out = [{} for _ in range(state.players)]
        for r in R.score_rows(state):
            part = out[int(r["player"][1:]) - 1]
            part[r["source"]] = part.get(r["source"], 0) + int(r["points"])
        return out

    length_name = f"{R.ROUND_WORD}s"  #: what :meth:`game_length` counts, in words: the leaders' turns

    def game_length(self, state: LandmarksState) -> int:
        """Turns begun (the rulebook's turn, kept as ``round`` in the code: one lead and its
        followers); the game's ``rounds`` once it is over."""
        return int(state.round)

    def determinise(self, state: LandmarksState, player: int, rng) -> LandmarksState:
        """A copy of ``state`` built from what ``player`` sees, the hidden parts redrawn
        from ``rng`` (a :class:`random.Random`): the cards ``player`` cannot see (the other
        hands and the draw pile) are shuffled and dealt back, each hand keeping its size (a
        building another player has chosen to build is public and stays in that hand);
        the other players' architects (hidden until the end, Architects: Game Setup) are
        drawn from the architects ``player`` does not hold; the seed is redrawn and the
        generator starts at position 0; the action record (it holds the architects' deal),
        the start position and the event log are left out (``log`` is ``None``: a playout
        composes no sentences; :func:`haunted_kit.search.move_events` gives the copy a log
        of its own). Reads nothing hidden from ``player``: two positions that look the same
        to ``player`` give the same copy for the same ``rng``. When ``player`` is to move, the
        copy keeps the position's legal actions (they read only the mover's own hand and
        public fields, none of which is redrawn)."""
        d = state.copy(keep_log=False)
        if state.current_player() != player:
            d._legal = None
        d.seed = rng.getrandbits(62)
        d.rng_count = 0
        d.record = Record()
        d.start = None
        others = [p for p in range(state.players) if p != player]
        unseen = sorted([k for p in others for k in state.hands[p]] + list(state.draw_pile))
        chosen, mover = state.chosen_building, state.current_player()
        if chosen is not None and mover != player:  # announced: it stays in the mover's hand
            unseen.remove(chosen)
        rng.shuffle(unseen)
        for p in others:
            k = len(state.hands[p])
            if chosen is not None and p == mover:
                d.hands[p], unseen = sorted(unseen[:k - 1] + [chosen]), unseen[k - 1:]
            else:
                d.hands[p], unseen = sorted(unseen[:k]), unseen[k:]
        d.draw_pile = unseen
        if state.phase != "over" and any(a is not None for a in state.architects):
            pool = sorted(a for a in state.box.architects if a != state.architects[player])
            drawn = rng.sample(pool, len(others))
            for p, a in zip(others, drawn):
                d.architects[p] = a if state.architects[p] is not None else None
        return d

    def action_catalogue(self, box: LandmarksBox | None = None):
        """The integer encoding of the modules' actions (:func:`haunted_kit.landmarks.encoding.catalogue`)."""
        return encoding.catalogue(box)

    def observation_encoder(self, box: LandmarksBox | None, players: int):
        """The observation vector (:class:`haunted_kit.landmarks.encoding.LandmarksObservation`)."""
        return encoding.LandmarksObservation(box, players)


def points_estimate(s: LandmarksState, build_share: float = 0.5) -> list[float]:
    """Each player's module points now (:func:`.rules.totals`) plus ``build_share`` of the
    points still to come from building: the largest architect bonuses
    (:func:`.rules.architect_bonus`) of the buildings in the player's hand, one per round
    not yet over (the current one included; none once the game is over)."""
    left = 0 if s.phase == "over" else s.rounds - s.round + 1
    out = []
    for p, pts in enumerate(R.totals(s)):
        bonus = sorted((R.architect_bonus(s, p, k) for k in s.hands[p] if s.box.cards[k].kind == "building"),
                       reverse=True)[:left]
        out.append(pts + build_share * sum(bonus))
    return out


GAME = LandmarksGame()
