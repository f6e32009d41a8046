"""Toy Secret Bid for tests/test_visibility.py: a second hidden-information game, written
against the protocol only and registered by one registry line.

Each of ``ROUNDS`` rounds a prize card is drawn face up from the deck (cards 1..9; a
seeded chance node); then every player in seat order bids 0..their coins face down; when
all have bid the bids are turned up, the highest single bid pays its coins and scores
the prize, a tie scores nothing. The highest score wins (``returns``: the scores).

What is hidden is declared once, in ``VISIBILITY``: a bid is its bidder's until turned up,
the seed nobody's. The toy writes no view of its own; in a position a search guessed, a
bid turned up and the prize's winner are guesses (the issue's "sampled hidden bid stated
as what happened")."""
from __future__ import annotations

import json
from dataclasses import dataclass

from haunted_kit.events import Event
from haunted_kit.fileio import atomic_write
from haunted_kit.protocol import (ChanceError, IllegalAction, Record, Refusal, chance_index, check_seed, is_integer,
                                  strict_equality)
from haunted_kit.visibility import ACTOR, CHANCE, DROP, EVERYONE, HELD, NOBODY, OWNER, Seen, Visibility

ROUNDS, COINS, DECK = 3, 5, tuple(range(1, 10))

VISIBILITY = Visibility(
    events={"prize_drawn": Seen(EVERYONE, "A prize card is drawn.", guess=CHANCE),
            "bid": Seen(ACTOR, "{who} bids face down."),
            "bid_revealed": Seen(EVERYONE, "{who}'s bid is turned up.", guess=HELD),
            "prize_settled": Seen(EVERYONE, "The bids are compared and the prize is settled.", guess=CHANCE),
            "game_over": Seen(EVERYONE, "The game ends.", guess=CHANCE)},
    fields={"bids.*": Seen(OWNER, lambda b: None if b is None else "hidden"), "seed": Seen(NOBODY, DROP)},
    log="log")


@strict_equality
@dataclass(frozen=True)
class Bid:
    amount: int

    def describe(self) -> str:
        return f"bid {self.amount}"


def action_to_dict(a) -> dict:
    return {"type": "bid", "amount": a.amount}


def action_from_dict(d):
    if not isinstance(d, dict) or set(d) != {"type", "amount"} or d["type"] != "bid" or not is_integer(d["amount"]):
        raise ValueError(f"a Secret Bid action is {{'type': 'bid', 'amount': whole number}}, got {d!r}")
    return Bid(int(d["amount"]))


class BidState:
    def __init__(self, players: int, seed: int, auto_chance: bool = True):
        self.players, self.seed, self.auto_chance = players, seed, auto_chance
        self.round, self.prize, self.turn, self.draws = 0, None, 0, 0
        self.deck = list(DECK)
        self.coins, self.won = [COINS] * players, [0] * players
        self.bids: list = [None] * players
        self.log: list = []
        self.record = Record()

    def copy(self) -> "BidState":
        new = BidState(self.players, self.seed, self.auto_chance)
        new.round, new.prize, new.turn, new.draws = self.round, self.prize, self.turn, self.draws
        new.deck, new.coins, new.won, new.bids = list(self.deck), list(self.coins), list(self.won), list(self.bids)
        new.log, new.record = None if self.log is None else list(self.log), self.record
        return new

    def _emit(self, kind, player, text, **data):
        if self.log is None:  # a determinisation keeps no log: a playout composes no sentence
            return
        private = VISIBILITY.private(kind)
        self.log.append(Event(len(self.log), 0, self.round, "bids", kind, player, text, None, data, private))

    def is_chance_node(self) -> bool:
        return self.prize is None and self.round < ROUNDS

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def current_player(self):
        return None if self.is_chance_node() or self.is_terminal() else self.turn

    def why_not(self, a):
        if self.current_player() is None:
            return Refusal("nobody is to bid (a draw or the end)", "Bidding", "secret bid rules")
        if not isinstance(a, Bid) or not is_integer(a.amount):
            return Refusal(f"{a!r} is not a bid", "Bidding", "secret bid rules")
        if not 0 <= a.amount <= self.coins[self.turn]:
            return Refusal(f"a bid is 0 to your {self.coins[self.turn]} coins, not {a.amount}", "Bidding", "secret bid rules")
        return None

    def legal_actions(self) -> list:
        return [] if self.current_player() is None else [Bid(n) for n in range(self.coins[self.turn] + 1)]

    def apply_action(self, a) -> None:
        why = self.why_not(a)
        if why is not None:
            raise IllegalAction(a, why)
        p = self.turn
        self.record = self.record.step(p, a)
        self.bids[p] = a.amount
        self._emit("bid", p, f"P{p + 1} bids {a.amount}.", amount=a.amount)
        self.turn = p + 1
        if self.turn == self.players:
            self._settle()

    def _settle(self) -> None:
        for q, b in enumerate(self.bids):
            self._emit("bid_revealed", q, f"P{q + 1}'s bid was {b}.", amount=b)
        top = max(self.bids)
        best = [q for q, b in enumerate(self.bids) if b == top]
        if len(best) == 1:
            w = best[0]
            self.coins[w] -= top
            self.won[w] += self.prize
            self._emit("prize_settled", w, f"P{w + 1} pays {top} and scores the prize of {self.prize}.")
        else:
            self._emit("prize_settled", None, f"The top bid of {top} is tied: the prize of {self.prize} is discarded.")
        self.bids, self.turn, self.prize = [None] * self.players, 0, None
        self.round += 1
        if self.is_terminal():
            self._emit("game_over", None, "Scores: " + ", ".join(f"P{q + 1} {w}" for q, w in enumerate(self.won)) + ".")
        while self.auto_chance and self.is_chance_node():
            self.apply_chance(self.sample_chance())

    def chance_outcomes(self):
        return [(c, 1 / len(self.deck)) for c in self.deck] if self.is_chance_node() else []

    def apply_chance(self, outcome) -> None:
        if not self.is_chance_node() or not is_integer(outcome) or outcome not in self.deck:
            raise ChanceError(f"{outcome!r} is not an outcome here: {self.chance_outcomes()}")
        self.deck.remove(outcome)
        self.prize, self.draws = int(outcome), self.draws + 1
        self.record = self.record.step(None, int(outcome), True)
        self._emit("prize_drawn", None, f"Round {self.round + 1}: the prize is the {outcome}.", prize=int(outcome))

    def sample_chance(self):
        outs = self.chance_outcomes()
        if not outs:
            raise ChanceError("no chance node is waiting")
        return outs[chance_index(self.seed, self.draws, [1] * len(outs))][0]

    def returns(self) -> list:
        return [float(w) for w in self.won] if self.is_terminal() else [0.0] * self.players

    def observation(self, player=None) -> dict:
        full = {"round": self.round, "prize": self.prize, "turn": self.turn, "deck": list(self.deck),
                "coins": list(self.coins), "won": list(self.won), "bids": list(self.bids), "seed": self.seed,
                "log": [e.to_dict() for e in self.log or []]}
        return VISIBILITY.observation(full, player)

    def events(self, viewer=None):
        return VISIBILITY.frame(self.log or [], viewer)

    def history(self):
        return self.record.entries()

    def to_dict(self) -> dict:
        return {"game": "bid", "players": self.players, "seed": self.seed,
                "record": [[e.player, e.action if e.chance else action_to_dict(e.action)] for e in self.history()]}

    def save(self, path) -> None:
        atomic_write(path, json.dumps(self.to_dict()))


def new_game(players: int, seed: int = 0, auto_chance: bool = True) -> BidState:
    if not is_integer(players) or not 2 <= players <= 3:
        raise ValueError(f"players must be 2..3, got {players!r}")
    s = BidState(int(players), check_seed(seed), auto_chance)
    while auto_chance and s.is_chance_node():
        s.apply_chance(s.sample_chance())
    return s


def from_dict(data, box=None) -> BidState:
    if not isinstance(data, dict) or data.get("game") != "bid" or set(data) != {"game", "players", "seed", "record"}:
        raise ValueError("not a Secret Bid save")
    s = new_game(data["players"], data["seed"], auto_chance=False)
    if not isinstance(data["record"], list):
        raise ValueError("record: must be a list")
    for i, e in enumerate(data["record"]):
        try:
            if not isinstance(e, list) or len(e) != 2:
                raise ValueError("must be [player, action]")
            s.apply_chance(e[1]) if e[0] is None else s.apply_action(action_from_dict(e[1]))
        except (ValueError, IllegalAction) as exc:
            raise ValueError(f"record[{i}]: {exc}") from None
    s.auto_chance = True
    return s


class BidGame:
    name, title = "bid", "Toy Secret Bid"
    min_players, max_players = 2, 3
    visibility = VISIBILITY

    def new_game(self, *, players: int, seed: int = 0, **options) -> BidState:
        return new_game(players, seed, **options)

    def from_dict(self, data, box=None) -> BidState:
        return from_dict(data, box)

    def action_to_dict(self, action) -> dict:
        return action_to_dict(action)

    def action_from_dict(self, data):
        return action_from_dict(data)

    def determinise(self, state, player, rng) -> BidState:
        """Another seat's bid drawn from 0..its coins (public), a new seed, no record and no
        event log (a playout composes no sentence): a function of what ``player`` sees and ``rng``."""
        d = state.copy()
        d.log = None
        d.bids = [b if q == player or b is None else rng.randint(0, state.coins[q]) for q, b in enumerate(state.bids)]
        d.seed, d.draws, d.record = rng.getrandbits(62), 0, Record()
        return d

    def start_of(self, state) -> BidState:
        return BidState(state.players, state.seed, auto_chance=False)


GAME = BidGame()
