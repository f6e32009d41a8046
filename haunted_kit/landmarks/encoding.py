"""The Landmarks & Architects modules for learning agents: an integer encoding of their
actions and a fixed-length observation vector (used by :mod:`haunted_kit.env` through the
Game's ``action_catalogue`` and ``observation_encoder``).

**Actions** (fixed for a box), in this order: lead each of the box's lead actions; follow;
decline; acquire each landmark (landmark by landmark in box order) with each choice of
discards the deck allows (sorted card keys, e.g. a Gate for any two cards); then, for
each building card of the deck (by key), one number to choose to build it (the first of a
Build's two decisions, :class:`~haunted_kit.landmarks.actions.ChooseBuilding`) and
:data:`BUILD_OPTIONS` numbers meaning "build this card with its k-th way to pay" (the
second), k = 0, 1, ... in the order ``legal_actions()`` lists them once the card is
chosen (:func:`haunted_kit.landmarks.rules.card_builds`: the payments ranked by
gold placed, gold on other players' Castle Grounds, cards discarded, then sources in
seat order, each with its discard choices). A payment names sources, owners and discards,
far too many combinations to number one by one, so a Build is numbered by its rank among
the legal ways to build that card now: exact (each legal Build has one number, each
number at most one Build) but read against the position.

**Observations** are built only from ``state.observation(me)``: my hand card by card, the
other hands as counts, my architect (the others' only once revealed at the end), the
building chosen to build (public, until its payment), never the draw pile's order or the
seed. Players are listed starting with the observer.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement

from ..protocol import ActionCatalogue, ObservationEncoder, RankedEntry
from .actions import Acquire, Build, ChooseBuilding, Decline, Follow, Lead
from .box import default_box

__all__ = ["BUILD_OPTIONS", "LandmarksCatalogue", "LandmarksObservation", "catalogue"]

#: numbers per building card for its ways to pay (the most seen in 600 seeded random
#: example games of 2-5 players is 361; a position offering more is refused by name)
BUILD_OPTIONS = 512

PHASES = ("deal", "lead", "build", "follow", "over")


class LandmarksCatalogue(ActionCatalogue):
    """The catalogue of :func:`catalogue`: Builds are ranked per card (``("build", card)``)."""

    def key_of(self, action):
        return ("build", action.card) if isinstance(action, Build) else None


def catalogue(box=None) -> LandmarksCatalogue:
    """The modules' actions in a fixed order (see the module doc)."""
    box = box or default_box()
    out = [Lead(a) for a in box.lead_actions] + [Follow(), Decline()]
    keys = sorted(box.cards)
    for key, lt in box.landmarks.items():
        eligible = [k for k in keys if not lt.icon or lt.icon in box.cards[k].icons]
        for combo in combinations_with_replacement(eligible, lt.discard):
            if all(box.cards[k].copies >= c for k, c in Counter(combo).items()):
                out.append(Acquire(key, combo))
    for key in keys:
        card = box.cards[key]
        if card.kind != "building":
            continue
        out.append(ChooseBuilding(key))
        out += [RankedEntry(("build", key), k, f"build the {card.name}, way to pay {k + 1} (cheapest first)",
                            {"type": "Build", "card": key, "way": k}) for k in range(BUILD_OPTIONS)]
    return LandmarksCatalogue(out)


class LandmarksObservation(ObservationEncoder):
    """Fixed-length float32 vector of one player's view (the observer first).

    Args:
        box: the Landmarks box (default: the kit's own); players: the number of players.
    """

    def __init__(self, box, players: int):
        box = box or default_box()
        self.cards, self.landmarks, self.architects = sorted(box.cards), list(box.landmarks), sorted(box.architects)
        super().__init__(box, players)
        at, n = self.at, players
        # entry positions by value, for from_state (the names' f-strings looked up once here)
        self._phase_at = {p: at[f"phase={p}"] for p in PHASES}
        self._lead_at = {a: at[f"lead={a}"] for a in box.lead_actions}
        self._leader_at = [at[f"leader=player+{k}"] for k in range(n)]
        self._cannot_at = [at[f"cannot_follow=player+{k}"] for k in range(n)]
        self._supply_at = {t: at[f"supply.{t}"] for t in self.landmarks}
        self._hand_at = {c: at[f"my_hand.{c}"] for c in self.cards}
        self._discard_at = {c: at[f"discard_pile.{c}"] for c in self.cards}
        self._chosen_at = {c: at[f"chosen_building.{c}"] for c in self.cards}
        self._seat_at = [(at[f"player+{k}.hand_size"],
                          {c: at[f"player+{k}.village.{c}"] for c in self.cards},
                          {c: at[f"player+{k}.developed.{c}"] for c in self.cards},
                          {t: at[f"player+{k}.tokens.{t}"] for t in self.landmarks},
                          {a: at[f"player+{k}.architect={a}"] for a in self.architects}) for k in range(n)]

    def entry_names(self) -> list[str]:
        n = self.n
        names = ["round", "rounds", "end_triggered", "draw_pile"] + [f"phase={p}" for p in PHASES]
        names += [f"lead={a}" for a in self.box.lead_actions]
        names += [f"leader=player+{k}" for k in range(n)] + [f"cannot_follow=player+{k}" for k in range(n)]
        names += [f"supply.{k}" for k in self.landmarks] + [f"my_hand.{c}" for c in self.cards]
        names += [f"discard_pile.{c}" for c in self.cards] + [f"chosen_building.{c}" for c in self.cards]
        for k in range(n):
            who = f"player+{k}"
            names += [f"{who}.{x}" for x in ("hand_size", "gold", "castle_spent", "developed_spent", "grounds_gold")]
            names += [f"{who}.{part}.{c}" for part in ("village", "developed") for c in self.cards]
            names += [f"{who}.tokens.{t}" for t in self.landmarks] + [f"{who}.architect={a}" for a in self.architects]
        return names

    def entry_high(self, name: str) -> float:
        """The highest value of entry ``name``: 1 for a flag (end triggered, a phase, the
        lead action, the leader, who cannot follow, who moves, the castle spent, an
        architect); a card's copies in the box for a count of that card (in a hand, the
        discard pile, a village, the developed buildings); the whole deck for the draw
        pile and a hand's size; the box's tokens per type for a landmark's supply and
        a player's tokens; 1 for the chosen building's flag; ``math.inf`` for the other counts (gold, rounds, spent)."""
        box = self.box
        flag_parts = ("phase=", "lead=", "leader=", "cannot_follow=", "to_move=", "architect=")
        key, part = name.split(".")[-1], (name.split(".")[-2] if "." in name else "")
        if any(flag in name for flag in flag_parts) or key in ("end_triggered", "castle_spent") or part == "chosen_building":
            return 1.0
        if key in ("draw_pile", "hand_size"):
            return float(sum(c.copies for c in box.cards.values()))
        if key in box.cards and part in ("my_hand", "discard_pile", "village", "developed"):
            return float(box.cards[key].copies)
        if key in box.landmarks and part in ("supply", "tokens"):
            return float(box.tokens_per_type)
        return math.inf

    def from_state(self, s, me: int, to_move: int | None):
        """The vector of ``s.observation(me)`` (:meth:`fill`'s, entry for entry) read
        straight from the position's fields, without building the observation's JSON-ready
        dict (which cost about ten engine steps): only what that observation shows ``me``
        (the other hands as counts, the other architects only once the game is over, the
        draw pile as its size; never its order or the seed). A float32 array of
        ``len(names)``."""
        import numpy as np  # lazy: as the base's __call__, only the environment needs vectors

        n, at = self.n, self.at
        v = np.zeros(len(self.names), dtype=np.float32)
        if to_move is not None:
            v[(to_move - me) % n] = 1  # "to_move=me", then "to_move=player+k"
        v[at["round"]], v[at["rounds"]] = s.round, s.rounds
        v[at["end_triggered"]] = s.end_triggered
        v[at["draw_pile"]] = len(s.draw_pile)
        k = self._phase_at.get(s.phase)
        if k is not None:
            v[k] = 1
        if s.lead is not None:
            v[self._lead_at[s.lead]] = 1
        v[self._leader_at[(s.leader - me) % n]] = 1
        for p in s.cannot_follow:
            v[self._cannot_at[(p - me) % n]] = 1
        supply_at = self._supply_at
        for t, k in s.supply.items():
            v[supply_at[t]] = k
        hand_at = self._hand_at
        for c in s.hands[me]:
            v[hand_at[c]] += 1
        discard_at = self._discard_at
        for c in s.discard_pile:
            v[discard_at[c]] += 1
        if s.chosen_building is not None:
            v[self._chosen_at[s.chosen_building]] = 1
        shown = s.phase == "over"  # every architect is revealed at the end
        architects = s.architects
        for p in range(n):
            w = (p - me) % n
            size_at, village_at, developed_at, tokens_at, architect_at = self._seat_at[w]
            v[size_at] = len(s.hands[p])
            v[size_at + 1] = s.gold[p]  # gold, castle_spent, developed_spent, grounds_gold follow hand_size
            spent = s.spent[p]
            v[size_at + 2] = "castle" in spent
            v[size_at + 3] = sum(1 for x in spent if x != "castle")
            v[size_at + 4] = len(s.grounds[p])
            for c in s.villages[p]:
                v[village_at[c]] += 1
            for c in s.developed[p]:
                v[developed_at[c]] += 1
            for t, k in s.tokens[p].items():
                v[tokens_at[t]] = k
            if p == me or shown:
                k = architect_at.get(architects[p])
                if k is not None:
                    v[k] = 1
        return v

    def fill(self, v, obs: dict, me: int) -> None:
        at = self.at
        v[at["round"]], v[at["rounds"]] = obs["round"], obs["rounds"]
        v[at["end_triggered"]] = obs["end_triggered"]
        v[at["draw_pile"]] = obs["draw_pile"] if isinstance(obs["draw_pile"], int) else len(obs["draw_pile"])
        if obs["phase"] in PHASES:
            v[at[f"phase={obs['phase']}"]] = 1
        if obs["lead"] is not None:
            v[at[f"lead={obs['lead']}"]] = 1
        v[at[f"leader={self.seat(obs['leader'], me)}"]] = 1
        for p in obs["cannot_follow"]:
            v[at[f"cannot_follow={self.seat(p, me)}"]] = 1
        for t, k in obs["supply"].items():
            v[at[f"supply.{t}"]] = k
        for c in obs["hands"][me]:
            v[at[f"my_hand.{c}"]] += 1
        for c in obs["discard_pile"]:
            v[at[f"discard_pile.{c}"]] += 1
        if obs["chosen_building"] is not None:
            v[at[f"chosen_building.{obs['chosen_building']}"]] = 1
        for p in range(self.n):
            w = self.seat(p, me)
            hand = obs["hands"][p]
            v[at[f"{w}.hand_size"]] = hand if isinstance(hand, int) else len(hand)
            v[at[f"{w}.gold"]] = obs["gold"][p]
            spent = obs["spent"][p]
            v[at[f"{w}.castle_spent"]] = "castle" in spent
            v[at[f"{w}.developed_spent"]] = sum(1 for x in spent if x != "castle")
            v[at[f"{w}.grounds_gold"]] = len(obs["grounds"][p])
            for field, part in (("villages", "village"), ("developed", "developed")):
                for c in obs[field][p]:
                    v[at[f"{w}.{part}.{c}"]] += 1
            for t, k in obs["tokens"][p].items():
                v[at[f"{w}.tokens.{t}"]] = k
            a = obs["architects"][p]
            if a in self.architects:  # own, or everyone's once revealed; "hidden" and None leave zeros
                v[at[f"{w}.architect={a}"]] = 1
