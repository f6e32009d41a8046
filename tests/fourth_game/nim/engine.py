"""Toy Nim for tests/test_fourth_game.py: heaps of stones; a turn takes 1..``take_max``
stones from one heap, or once per game plays the player's face-down bonus card (take
exactly its value from one heap); whoever takes the last stone wins (returns 1, else 0).
At the start each player is dealt a bonus card: one seeded chance node per player; when
the game ends, the bonus cards still unplayed are turned up. What is hidden is declared
once, in ``VISIBILITY`` (:mod:`haunted_kit.visibility`): the toy writes no view of its own.

``MINIMAL`` is the game with only the protocol's required members; ``GAME`` adds the
optional hooks (a box, ``determinise``, agents, the environment's encodings)."""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from haunted_kit.events import Event
from haunted_kit.fileio import atomic_write
from haunted_kit.protocol import (ActionCatalogue, ChanceError, IllegalAction, ObservationEncoder, OneStepGreedyAgent,
                                  Record, Refusal, chance_index, check_seed, is_integer, results_by_score,
                                  strict_equality)
from haunted_kit.provenance import Fingerprinted, value_fingerprint
from haunted_kit.visibility import ACTOR, EVERYONE, HELD, OWNER, Seen, Visibility

BOX_DIR = Path(__file__).resolve().parent / "box"


@dataclass(frozen=True, eq=False)
class NimBox(Fingerprinted):
    path: str
    min_players: int
    max_players: int
    heaps: tuple
    take_max: int
    bonus_values: tuple
    fingerprint: str = field(default="", repr=False)
    file_fingerprint: str = field(default="", repr=False)


def load_box(path=BOX_DIR) -> NimBox:
    """The box in folder ``path`` (its ``nim.toml``). Raises ValueError naming the problem."""
    try:
        d = tomllib.loads((Path(path) / "nim.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"nim.toml: {exc}") from None
    keys = ("min_players", "max_players", "heaps", "take_max", "bonus_values")
    if sorted(d) != sorted(keys):
        raise ValueError(f"nim.toml: needs exactly {', '.join(keys)}")
    values = {k: tuple(d[k]) if isinstance(d[k], list) else d[k] for k in keys}
    if not all(is_integer(v) and v > 0 for k in keys for v in (values[k] if k in ("heaps", "bonus_values") else [values[k]])):
        raise ValueError("nim.toml: every value must be a positive whole number")
    return NimBox(str(path), **values, fingerprint=value_fingerprint(values))


DEFAULT_BOX = load_box()

#: who may see what: a bonus card is its holder's until played (then its value is taken
#: openly) or turned up at the end; the deal is seen by its player only
VISIBILITY = Visibility(
    events={"dealt": Seen(ACTOR, "{who} is dealt a bonus card face down."), "took": Seen(), "won": Seen(),
            "bonus_revealed": Seen(EVERYONE, "{who}'s unplayed bonus card is turned up.", guess=HELD)},
    fields={"bonus.*": Seen(OWNER, lambda v: v if v in (None, 0) else "hidden")},
    log="log")


@strict_equality
@dataclass(frozen=True)
class Take:
    heap: int
    count: int

    def describe(self) -> str:
        return f"take {self.count} from heap {self.heap + 1}"


@strict_equality
@dataclass(frozen=True)
class Bonus:
    heap: int

    def describe(self) -> str:
        return f"play the bonus card on heap {self.heap + 1}"


def action_to_dict(a) -> dict:
    return {"type": "take", "heap": a.heap, "count": a.count} if isinstance(a, Take) else {"type": "bonus", "heap": a.heap}


def action_from_dict(d):
    kinds = {"take": (Take, ("heap", "count")), "bonus": (Bonus, ("heap",))}
    if not isinstance(d, dict) or not isinstance(d.get("type"), str) or d["type"] not in kinds:
        raise ValueError(f"not a Nim action: {d!r}")
    cls, names = kinds[d["type"]]
    if set(d) != {"type", *names} or not all(is_integer(d[n]) for n in names):
        raise ValueError(f"a {d['type']} action has the whole numbers {', '.join(names)} and nothing else: {d!r}")
    return cls(*(int(d[n]) for n in names))


class NimState:
    def __init__(self, box: NimBox, players: int, seed: int, auto_chance: bool = True):
        self.box, self.players, self.seed, self.auto_chance = box, players, seed, auto_chance
        self.heaps = list(box.heaps)
        self.bonus: list = [None] * players  # None: not dealt yet; 0: played
        self.turn, self.winner = 0, None
        self.log: list = []
        self.record = Record()

    def copy(self) -> "NimState":
        new = NimState(self.box, self.players, self.seed, self.auto_chance)
        new.heaps, new.bonus, new.turn, new.winner = list(self.heaps), list(self.bonus), self.turn, self.winner
        new.log, new.record = None if self.log is None else list(self.log), self.record
        return new

    def _emit(self, kind, player, text, **data):
        if self.log is None:  # a determinisation keeps no log: a playout composes no sentence
            return
        private = VISIBILITY.private(kind)
        self.log.append(Event(len(self.log), 0, 0, "play", kind, player, text, None, data, private))

    def is_chance_node(self) -> bool:
        return None in self.bonus

    def is_terminal(self) -> bool:
        return self.winner is not None

    def current_player(self):
        return None if self.is_chance_node() or self.is_terminal() else self.turn

    def why_not(self, a):
        if self.current_player() is None:
            return Refusal("nobody is to move (a deal or the end)", "Turns", "nim rules")
        if isinstance(a, Take) and is_integer(a.heap) and is_integer(a.count):
            if not 0 <= a.heap < len(self.heaps) or not 1 <= a.count <= min(self.box.take_max, self.heaps[a.heap]):
                return Refusal(f"cannot take {a.count} from heap {a.heap + 1}", "Taking", "nim rules")
            return None
        if isinstance(a, Bonus) and is_integer(a.heap):
            v = self.bonus[self.turn]
            if not 0 <= a.heap < len(self.heaps) or not 0 < v <= self.heaps[a.heap]:
                return Refusal("no bonus card to play on that heap", "Bonus card", "nim rules")
            return None
        return Refusal(f"{a!r} is not a Nim action", "Turns", "nim rules")

    def legal_actions(self) -> list:
        if self.current_player() is None:
            return []
        out = [Take(h, c) for h in range(len(self.heaps)) for c in range(1, self.box.take_max + 1)]
        out += [Bonus(h) for h in range(len(self.heaps))]
        return [a for a in out if self.why_not(a) is None]

    def apply_action(self, a) -> None:
        why = self.why_not(a)
        if why is not None:
            raise IllegalAction(a, why)
        p = self.turn
        self.record = self.record.step(p, a)
        count = a.count if isinstance(a, Take) else self.bonus[p]
        if isinstance(a, Bonus):
            self.bonus[p] = 0
        self.heaps[a.heap] -= count
        self._emit("took", p, f"P{p + 1} takes {count} from heap {a.heap + 1}.")
        if not any(self.heaps):
            self.winner = p
            self._emit("won", p, f"P{p + 1} took the last stone and wins.")
            for q, v in enumerate(self.bonus):
                if v:
                    self._emit("bonus_revealed", q, f"P{q + 1}'s unplayed bonus card was {v}.", value=v)
        self.turn = (p + 1) % self.players

    def chance_outcomes(self):
        vals = sorted(set(self.box.bonus_values))
        return [(v, 1 / len(vals)) for v in vals] if self.is_chance_node() else []

    def apply_chance(self, outcome) -> None:
        if outcome not in [o for o, _ in self.chance_outcomes()] or not is_integer(outcome):
            raise ChanceError(f"{outcome!r} is not an outcome here: {self.chance_outcomes()}")
        p = self.bonus.index(None)
        self.bonus[p] = int(outcome)
        self.record = self.record.step(None, int(outcome), True)
        self._emit("dealt", p, f"P{p + 1} is dealt a bonus card of {outcome}.", value=int(outcome))

    def sample_chance(self):
        outs = self.chance_outcomes()
        if not outs:
            raise ChanceError("no chance node is waiting")
        return outs[chance_index(self.seed, len(self.record), [1] * len(outs))][0]

    def returns(self) -> list:
        return [float(p == self.winner) for p in range(self.players)]

    def observation(self, player=None) -> dict:
        return VISIBILITY.observation({"heaps": list(self.heaps), "turn": self.turn, "winner": self.winner,
                                       "bonus": list(self.bonus), "log": [e.to_dict() for e in self.log or []]}, player)

    def events(self, viewer=None):
        return VISIBILITY.frame(self.log or [], viewer)

    def history(self):
        return self.record.entries()

    def to_dict(self) -> dict:
        return {"game": "nim", "box": self.box.fingerprint, "players": self.players, "seed": self.seed,
                "record": [[e.player, e.action if e.chance else action_to_dict(e.action)] for e in self.history()]}

    def save(self, path) -> None:
        atomic_write(path, json.dumps(self.to_dict()))

    def __repr__(self):
        return f"<Nim heaps={self.heaps} bonus={self.bonus} turn={self.turn}>"


def new_game(players: int, seed: int = 0, box: NimBox = DEFAULT_BOX, auto_chance: bool = True) -> NimState:
    if not is_integer(players) or not box.min_players <= players <= box.max_players:
        raise ValueError(f"players must be {box.min_players}..{box.max_players}, got {players!r}")
    s = NimState(box, int(players), check_seed(seed), auto_chance)
    while auto_chance and s.is_chance_node():  # the deal, drawn from the seed
        s.apply_chance(s.sample_chance())
    return s


def from_dict(data, box: NimBox | None = None) -> NimState:
    box = box or DEFAULT_BOX
    if not isinstance(data, dict) or data.get("game") != "nim" or set(data) != {"game", "box", "players", "seed", "record"}:
        raise ValueError("not a Nim save")
    s = new_game(data["players"], data["seed"], box, auto_chance=False)
    if not isinstance(data["record"], list):
        raise ValueError("record: must be a list")
    for i, e in enumerate(data["record"]):
        try:
            if not isinstance(e, list) or len(e) != 2:
                raise ValueError("must be [player, action]")
            if e[0] is None:
                s.apply_chance(e[1])
            else:
                s.apply_action(action_from_dict(e[1]))
        except (ValueError, IllegalAction) as exc:
            raise ValueError(f"record[{i}]: {exc}") from None
    s.auto_chance = True
    return s


class NimCore:
    """Only the protocol's required members."""

    name, title = "nim", "Toy Nim"
    min_players, max_players = DEFAULT_BOX.min_players, DEFAULT_BOX.max_players

    def new_game(self, *, players: int, seed: int = 0, **options) -> NimState:
        return new_game(players, seed, **options)

    def from_dict(self, data, box=None) -> NimState:
        return from_dict(data, box)

    def action_to_dict(self, action) -> dict:
        return action_to_dict(action)

    def action_from_dict(self, data):
        return action_from_dict(data)


class NimGreedy(OneStepGreedyAgent):
    """Takes the last stone when it can, else the move leaving the smallest heap total."""

    def score(self, state, action) -> float:
        t = state.copy()
        t.apply_action(action)
        return 100.0 if t.is_terminal() else -float(sum(t.heaps))


class NimEncoder(ObservationEncoder):
    def entry_names(self):
        return [f"heap{h}" for h in range(len(self.box.heaps))] + ["my_bonus"]

    def entry_high(self, name):
        return float(max(self.box.heaps)) if name.startswith("heap") else (
            float(max(self.box.bonus_values)) if name == "my_bonus" else super().entry_high(name))

    def fill(self, v, obs, me):
        for h, k in enumerate(obs["heaps"]):
            v[self.at[f"heap{h}"]] = k
        v[self.at["my_bonus"]] = obs["bonus"][me] or 0


class NimGame(NimCore):
    """With the optional hooks."""

    agents = {"greedy": NimGreedy}
    visibility = VISIBILITY
    action_types = {"take": Take, "bonus": Bonus}

    def default_box(self) -> NimBox:
        return DEFAULT_BOX

    def load_box(self, path) -> NimBox:
        return load_box(path)

    def start_of(self, state) -> NimState:
        """The position before the record starts: the deal still to come."""
        return NimState(state.box, state.players, state.seed, auto_chance=False)

    def seat_results(self, state) -> list[dict]:
        return results_by_score(state.returns())  # float scores: 1.0 for the winner

    def determinise(self, state, player, rng) -> NimState:
        d = state.copy()
        d.bonus = [v if p == player or v in (None, 0) else rng.choice(state.box.bonus_values) for p, v in enumerate(state.bonus)]
        d.log = None  # no event log: every playout plays on the copy and composes no sentence (docs/NEW_GAME.md)
        return d

    def action_catalogue(self, box=None) -> ActionCatalogue:
        box = box or DEFAULT_BOX
        return ActionCatalogue([Take(h, c) for h in range(len(box.heaps)) for c in range(1, box.take_max + 1)]
                               + [Bonus(h) for h in range(len(box.heaps))])

    def observation_encoder(self, box, players) -> NimEncoder:
        return NimEncoder(box or DEFAULT_BOX, players)


class _UndrawableState(NimState):
    def observation(self, player=None) -> dict:
        raise RuntimeError("a fault of the game's own observation")


class UndrawableNim(NimGame):
    """The toy whose observation fails: a page of its table must still say something went wrong."""

    def new_game(self, *, players: int, seed: int = 0, **options) -> NimState:
        s = new_game(players, seed, **options)
        s.__class__ = _UndrawableState
        return s


MINIMAL = NimCore()
GAME = NimGame()
UNDRAWABLE = UndrawableNim()
