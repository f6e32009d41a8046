"""Exercises that answer back, built from the engine (so they follow house rules too).

    from haunted_kit.haunted.exercises import make, EXERCISES
    ex = make("03-explore-cells", seed=1)      # a seeded position and its question
    ex.question, ex.kind, ex.options          # what to ask, how to answer
    fb = ex.check({(2, 0), (1, 1)})           # Feedback(correct, text, section)
    ex.answer_text()                          # the answer, in words
    make("03-explore-cells", seed=2)          # the same exercise on another position

Every answer is worked out by the engine at the moment the exercise is made: legal
actions (``legal_actions``), refusals (``why_not``: the reason and the rulebook
section) and the event sentences of what really happens (an action applied to a copy).
A wrong answer is explained with those same words, never with a second copy of a rule.

Kinds of answer (:attr:`Exercise.kind`):

``"cells"``   a set of axial cells (click them on the board)
``"choose"``  one of :attr:`Exercise.options`
``"pick"``    a set of :attr:`Exercise.options` (all that apply)
``"number"``  an integer (tokens, pecunias, valor, resources, turns)

:data:`EXERCISES` lists every exercise by key, three per notebook 01-05. The widget is
:class:`haunted_kit.haunted.widgets.exercise.ExerciseWidget` (``exercise(key, seed)`` builds one);
``haunted-kit teacher`` writes the teacher copies of the notebooks with every answer.
"""

from __future__ import annotations

from pathlib import Path
import copy
import json
import re
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from . import actions as A
from . import rules as R
from .agents import GreedyAgent
from . import engine
from . import pathfinding as pf
from . import scenario as sc
from .analysis import play_until
from .box import default_box
from ..fileio import atomic_write
from ..protocol import check_seed, is_integer


class ExerciseError(ValueError):
    """An unknown exercise key, a bad seed or a malformed answer (the message says which)."""


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``text`` is the engine's explanation (refusal reasons
    or event sentences), ``section`` the rulebook section it comes from."""

    correct: bool
    text: str
    section: str


@dataclass
class Exercise:
    """One seeded question with its answer, hint and explanations.

    Attributes:
        key: the exercise's name in :data:`EXERCISES` (``"03-sale"``).
        seed: the seed of the position; :meth:`regenerate` makes another.
        question: the question, in words.
        kind: ``"cells"``, ``"choose"``, ``"pick"`` or ``"number"`` (see module doc).
        options: the labels to choose from (``choose``/``pick``), else ``()``.
        answer: the right answer (a frozenset of cells or labels, a label, an int).
        hint: a nudge shown after two wrong tries.
        section: the rulebook section the question is about.
        mistake: the common mistake (for the teacher copy).
        state: the position the question is about (shown as a board), or ``None``.
        player: the player the question is about (0-based), or ``None``.
    """

    key: str
    seed: int
    question: str
    kind: str
    answer: Any
    hint: str
    section: str
    mistake: str
    state: Any = None
    player: int | None = None
    options: tuple[str, ...] = ()
    highlight: dict = field(default_factory=dict)
    explain: Callable[[Any], str] | None = field(default=None, repr=False)
    answer_note: str = ""

    # ------------------------------------------------------------------ answers
    def normalise(self, response):
        """``response`` in the answer's form; raises :class:`ExerciseError` if it cannot be."""
        if self.kind == "cells":
            try:
                return frozenset((int(c[0]), int(c[1])) for c in response)
            except (TypeError, ValueError, IndexError):
                raise ExerciseError(f"answer with a set of cells such as {{(1, 0), (2, -1)}}, got {response!r}") from None
        if self.kind == "pick":
            out = frozenset(response)
            bad = [x for x in out if x not in self.options]
            if bad:
                raise ExerciseError(f"unknown option(s) {bad}; choose among {list(self.options)}")
            return out
        if self.kind == "choose":
            if response not in self.options:
                raise ExerciseError(f"choose one of {list(self.options)}, got {response!r}")
            return response
        if not is_integer(response):
            try:
                return int(str(response).strip())
            except ValueError:
                raise ExerciseError(f"answer with a whole number, got {response!r}") from None
        return response

    def check(self, response) -> Feedback:
        """Judge ``response``. A wrong answer gets the engine's explanation of what is
        really so (refusal reasons, event sentences) and the rulebook section."""
        got = self.normalise(response)
        if got == self.answer:
            return Feedback(True, self.answer_text(), self.section)
        why = self.explain(got) if self.explain is not None else ""
        return Feedback(False, why or "Not quite.", self.section)

    def answer_text(self) -> str:
        """The right answer in words (with a note on why, where there is one)."""
        a = self.answer
        if self.kind == "cells":
            shown = ", ".join(str(c) for c in sorted(a)) or "no cell"
        elif self.kind == "pick":
            shown = "; ".join(o for o in self.options if o in a) or "none of them"
        else:
            shown = str(a)
        return f"The answer: {shown}." + (f" {self.answer_note}" if self.answer_note else "")

    def regenerate(self, seed: int | None = None) -> "Exercise":
        """The same exercise on another seeded position (default: the next seed)."""
        return make(self.key, self.seed + 1 if seed is None else seed)


# ============================================================================ helpers

def _bots(players: int, seed: int) -> list:
    return [GreedyAgent(seed * 100 + p) for p in range(players)]


def _play_to(s, stop, seed: int, limit: int = 5000):
    """Play ``s`` on with greedy bots until ``stop(s)`` (or the game ends)."""
    play_until(s, _bots(s.config.players, seed), stop, max_steps=limit)
    return s


def _turn_start(players: int, seed: int, season: int, round_: int, mode: str = "wanderer"):
    """A seeded game played by bots to the first turn of ``round_`` of ``season``."""
    s = engine.new_game(players=players, seed=seed, mode=mode)
    return _play_to(s, lambda st: (st.season, st.round) >= (season, round_) and st.phase == "turns"
                    and not st.pending and st.chance is None, seed)


def _p(p: int) -> str:
    return f"P{p + 1}"


def _tokens(s, p: int, track: str) -> int:
    """Active tokens of player ``p`` on ``track`` (a track name)."""
    return s.tokens(p, track, active=True)


def _refusal_lines(s, pairs) -> str:
    """One line per (label, action): the engine's refusal, or that it is legal."""
    out = []
    for label, action in pairs:
        r = s.why_not(action)
        out.append(f"{label}: legal, so it belongs in the answer." if r is None
                   else f"{label}: not legal. {r.text} (rulebook: {r.section}).")
    return " ".join(out)


def _events_after(s, action) -> list:
    """The event sentences ``action`` logs when applied to a copy of ``s``."""
    c = s.copy()
    mark = len(c.log or [])
    c.apply_action(action)
    return c, list(c.log[mark:])


def _path_state(seed: int):
    """A 2-player position at a turn start (Wanderer or Citizen by seed), and the player to move."""
    s = _turn_start(2, seed, 1 + seed % 2, 1 + seed % 3, mode=("wanderer", "citizen")[seed % 2])
    return s, s.current_player()


# ============================================================================ 01 components and setup

def _first_player(seed: int) -> Exercise:
    players = 3 + seed % 2
    s = engine.new_game(players=players, seed=seed)
    first = s.turn_order[0]
    stack = [e.text for e in s.log if e.kind == "stack_placed"]
    options = tuple(_p(p) for p in range(players))
    return Exercise(
        "01-first-player", seed,
        f"This {players}-player game has just been set up (seed {seed}). The valor tokens were stacked at "
        "random and the log shows the stack. Who takes the first turn of round 1?",
        "choose", _p(first),
        "Setup steps 12-13: the turn order is the order of the valor stack, top first.",
        "Game Setup", "Thinking P1 always starts: the seats come from the random valor stack, not the player numbers.",
        state=s, options=options,
        explain=lambda got: " ".join(stack) + f" So the token on top, {_p(first)}'s, plays first.",
    )


def _entry_cost(seed: int) -> Exercise:
    s = _turn_start(2, seed, 1, 1 + seed % 3, mode=("wanderer", "citizen")[seed % 2])
    p = s.current_player()
    rng = random.Random(seed)
    cells = [i for i in range(len(s.field.cells)) if R.explore_cost(s, p, i) is not None and s.sensor[p] != i]
    # prefer a cell with a ghost when ghost card 3 is in play: the surcharge is what is missed
    ghosty = [i for i in cells if s.ghosts[i]] if 3 in s.config.ghost_cards else []
    c = rng.choice(ghosty or cells)
    cost = R.explore_cost(s, p, c)
    cell = s.field.cells[c]
    cards = ", ".join(map(str, s.config.ghost_cards))

    def explain(got):
        return (f"{s.field.describe(c)}{' holds a ghost' if s.ghosts[c] else ''}; "
                f"ghost card{'s' if len(s.config.ghost_cards) > 1 else ''} {cards} in play. The engine charges "
                f"{_p(p)} {cost} exploration token{'s' if cost != 1 else ''} to enter it (you said {got}).")

    return Exercise(
        "01-entry-cost", seed,
        f"How many exploration tokens does {_p(p)} pay to enter the cell {cell} (ringed)? "
        f"Ghost card{'s' if len(s.config.ghost_cards) > 1 else ''} in play: {cards}.",
        "number", cost,
        "You pay for the cell you enter: look at its terrain in the terrain table, then at the ghost cards.",
        "Game Field, Tiles and Terrain Types",
        "Paying for the cell you leave, or forgetting ghost card 3's extra token on a cell with a ghost.",
        state=s, player=p, highlight={cell: "?"}, explain=explain,
    )


def _which_building(seed: int) -> Exercise:
    s = _turn_start(2, seed, 1, 1)
    p = s.current_player()
    rng = random.Random(seed)
    land = [i for i in range(len(s.field.cells)) if s.field.terrain[i] in ("plain", "forest", "mountain")
            and s.building[i] < 0 and not any(q == i for q in s.sensor)]
    near = [i for i in land if s.field.near_lake[i]]
    c = rng.choice(near if seed % 2 == 0 and near else land)
    sc.place(s, p, s.field.cells[c])
    for r in s.config.box.resources:
        sc.set_resources(s, p, **{r: 2})
    buildings = list(s.config.box.buildings)
    legal = frozenset(b for b in buildings if s.why_not(A.Build(b)) is None)
    cell = s.field.cells[c]

    def explain(got):
        wrong = sorted((got - legal) | (legal - got))
        return _refusal_lines(s, [(b, A.Build(b)) for b in wrong])

    return Exercise(
        "01-which-building", seed,
        f"{_p(p)}'s sensor stands on {cell}, {s.field.describe(c)}{', next to a lake' if s.field.near_lake[c] else ''}. "
        f"{_p(p)} has 2 of every resource and a construction token. Which buildings could {_p(p)} build here now? "
        "Pick all that apply.",
        "pick", legal,
        "Each land terrain takes one kind of building; a noria needs a lake next to the cell.",
        "Buildings", "Forgetting the noria on a cell next to a lake, or putting a mill in a forest.",
        state=s, player=p, options=tuple(buildings), highlight={cell: "?"}, explain=explain,
    )


# ============================================================================ 02 a round step by step

def _spread_cells(seed: int) -> Exercise:
    s = engine.new_game(players=3, seed=seed)
    s = _play_to(s, lambda st: st.pending and st.legal_actions() and isinstance(st.legal_actions()[0], A.PlaceGhost)
                 and (st.season, st.round) >= (1, 1 + seed % 3), seed)
    p = s.current_player()
    legal = frozenset(a.cell for a in s.legal_actions() if isinstance(a, A.PlaceGhost))
    terrain = s.log[[e.kind for e in s.log].index("terrain_die", max(0, len(s.log) - 60))].text if any(
        e.kind == "terrain_die" for e in s.log) else ""
    last_die = next((e.text for e in reversed(s.log) if e.kind == "terrain_die"), terrain)

    def explain(got):
        lines = _refusal_lines(s, [(str(c), A.PlaceGhost(c)) for c in sorted(got - legal)])
        missed = sorted(legal - got)
        if missed:
            lines += f" Allowed but not clicked: {', '.join(map(str, missed))}."
        return f"{last_die} {lines}".strip()

    return Exercise(
        "02-spread-cells", seed,
        f"Spread: {last_die} {_p(p)} must place the next ghost. Click every cell where it may go.",
        "cells", legal,
        "Only cells of the rolled terrain, and never a cell with a building or a ghost already (a sensor does not stop it).",
        "Ghosts", "Leaving out cells with a sensor or a depletion token on them (they may take a ghost, ruling 3), "
                  "or choosing cells with a building.",
        state=s, player=p, explain=explain,
    )


def _next_first(seed: int) -> Exercise:
    s = engine.new_game(players=4, seed=seed)
    target_round = 1 + seed % 3
    s = _play_to(s, lambda st: st.phase == "turns" and not st.pending and st.chance is None
                 and st.round == target_round and st.turn_pos == len(st.turn_order) - 1, seed)
    p = s.current_player()
    c = s.copy()
    mark = len(c.log)
    c.apply_action(A.EndTurn())
    # rest and reorder run by themselves after the last turn
    reorder = next(e for e in c.log[mark:] if e.kind == "reorder")
    first = reorder.data["order"][0]
    valor = ", ".join(f"{_p(q)} {s.valor[q]}" for q in range(4))
    return Exercise(
        "02-next-first", seed,
        f"{_p(p)} is about to end the last turn of round {s.round} (season {s.season}). Valor now: {valor}. "
        "After the rest and the reorder, who plays first?",
        "choose", _p(first),
        "The reorder reads the valor track: most valor first; on the same mark, the token that arrived last is on top.",
        "Game Flow", "Keeping the old turn order, or breaking a tie by player number instead of the stack (last to arrive plays first).",
        state=s, player=p, options=tuple(_p(q) for q in range(4)),
        explain=lambda got: reorder.text,
    )


def _production(seed: int) -> Exercise:
    s = _turn_start(4, seed, 2, 1 + seed % 3)
    start = max(i for i, e in enumerate(s.log) if e.kind == "round_started")
    events = [e for e in s.log[start:] if e.kind in ("production", "production_blocked")]
    produced = sum(1 for e in events if e.kind == "production")
    built = sum(1 for b in s.building if b >= 0)
    return Exercise(
        "02-production", seed,
        f"Round {s.round} of season {s.season}: the spread is over and the board shows where the ghosts stand. "
        f"{built} buildings stand on the field; ghost card 1 is in play. How many of them produced this round?",
        "number", produced,
        "Ghost card 1: a building with a ghost on one of its six neighbouring cells produces nothing.",
        "Game Flow", "Counting a ghost two cells away, or a ghost on a lake-side cell that does not touch the building.",
        state=s, explain=lambda got: " ".join(e.text for e in events) or "No building stood on the field.",
    )


# ============================================================================ 03 actions

def _explore_cells(seed: int) -> Exercise:
    s, p = _path_state(seed)
    legal = frozenset(a.cell for a in s.legal_actions() if isinstance(a, A.Explore))
    here = s.field.cells[s.sensor[p]]
    tokens = _tokens(s, p, "exploration")

    def explain(got):
        lines = _refusal_lines(s, [(str(c), A.Explore(c)) for c in sorted(got - legal)])
        missed = sorted(legal - got)
        if missed:
            lines += " Also legal: " + "; ".join(
                f"{c} costs {R.explore_cost(s, p, s.field.index[c])}" for c in missed) + "."
        return lines.strip()

    return Exercise(
        "03-explore-cells", seed,
        f"{_p(p)} stands on {here} with {tokens} active exploration token{'s' if tokens != 1 else ''}. "
        "Click every cell this sensor may explore to with its next action.",
        "cells", legal,
        "One step only: a neighbouring cell that is not a lake and does not cost more tokens than are active.",
        "Basic Actions: Exploration",
        "Clicking cells two steps away (that is two actions), or a neighbour that costs more tokens than are left.",
        state=s, player=p, explain=explain,
    )


def _legal_actions(seed: int) -> Exercise:
    s = _turn_start(3, seed, 1 + seed % 3, 2)
    p = s.current_player()
    rng = random.Random(seed)
    box = s.config.box
    pool = [A.Build(b) for b in box.buildings] + [A.Contact(), A.Train(rng.choice(list(box.tracks))),
                                                   A.Learn(rng.choice(list(s.skills))), A.Sell(1, (box.resources[0],))]
    pool += [A.Extract(s.field.cells[s.sensor[p]], r) for r in box.resources]
    legal_now = [a for a in s.legal_actions() if not isinstance(a, (A.EndTurn,))]
    rng.shuffle(pool)
    picks = [a for a in pool if s.why_not(a) is not None][:4] + rng.sample(legal_now, min(2, len(legal_now)))
    picks = sorted({a.describe(): a for a in picks}.items())
    options = tuple(label for label, _ in picks)
    legal = frozenset(label for label, a in picks if s.why_not(a) is None)

    def explain(got):
        wrong = [(label, a) for label, a in picks if (label in got) != (label in legal)]
        return _refusal_lines(s, wrong)

    return Exercise(
        "03-legal-actions", seed,
        f"It is {_p(p)}'s turn (season {s.season}, round {s.round}); the sensor stands on "
        f"{s.field.cells[s.sensor[p]]}, {s.field.describe(s.sensor[p])}. Which of these actions are legal now? Pick all that apply.",
        "pick", legal,
        "Check three things for each: the place (city, suburb, this cell), the tokens it needs, and the resources or pecunias it costs.",
        "Basic Actions",
        "Judging by what the player holds and forgetting the place: selling only in the city, training and learning only in the suburb.",
        state=s, player=p, options=options, explain=explain,
    )


def _sale(seed: int) -> Exercise:
    rng = random.Random(seed)
    market = 1 + seed % len(_default_box().market_cards)
    learned = seed % 3 == 0
    s = sc.scenario(players=2, market=market, skills=(1, 4, 8, 10) if learned else (1, 4, 7, 10), seed=seed)
    if learned:
        sc.learn(s, 0, 8)
    box = s.config.box
    sc.give(s, 0, **{r: rng.randint(1, 3) for r in box.resources})
    sales = [a for a in s.legal_actions() if isinstance(a, A.Sell)]
    sale = rng.choice(sales)
    c, events = _events_after(s, sale)
    paid = c.pecunias(0) - s.pecunias(0)
    note = " P1 has learned skill 8." if learned else ""
    return Exercise(
        "03-sale", seed,
        f"P1 is in the city with market card {market} in play.{note} How many pecunias does this sale pay: "
        f"{sale.describe()}?",
        "number", paid,
        "Find the option on the market card; then check the skills P1 has learned.",
        "Additional Actions: Selling",
        "Reading the wrong option of the market card, or forgetting skill 8's extra pecunia.",
        state=s, player=0, explain=lambda got: " ".join(e.text for e in events if e.kind in ("sold", "valor", "tokens_restored")),
        answer_note=" ".join(e.text for e in events if e.kind == "sold"),
    )


# ============================================================================ 04 skills, quests, scoring

def _quest_score(seed: int) -> Exercise:
    s = _turn_start(3, seed, 3, 1 + seed % 3)
    rng = random.Random(seed)
    p = rng.randrange(3)
    box = s.config.box
    q = rng.choice(sorted(box.quests))
    ctx = R.ctx_of(s)
    value, times = R.quest_score(s, ctx, p, q)
    text = box.quests[q].text
    return Exercise(
        "04-quest-score", seed,
        f"If the game ended now, how much valor would quest card {q} give {_p(p)}? Quest {q}: {text}",
        "number", value,
        "Count what the card counts for this player only, then multiply by the valor per fulfilment.",
        "Quest Cards",
        "Counting other players' buildings or resources, or counting a part-set (quest 1 needs full sets of 3 of one type).",
        state=s, player=p,
        explain=lambda got: (f"Quest {q} ({text}) is fulfilled {times} time{'s' if times != 1 else ''} by {_p(p)}: "
                             f"{value} valor (the same function scores it at the end of the game)."),
    )


def _skill_cost(seed: int) -> Exercise:
    skill = 4 + seed % 2                          # 4: forests, 5: mountains
    terrain = "forest" if skill == 4 else "mountain"
    mode = ("wanderer", "citizen")[(seed // 2) % 2]
    s = sc.scenario(players=2, mode=mode, skills=(1, skill, 7, 10), seed=seed)
    learned = seed % 3 != 2
    if learned:
        sc.learn(s, 0, skill)
    rng = random.Random(seed)
    cells = [i for i in range(len(s.field.cells)) if s.field.terrain[i] == terrain]
    c = rng.choice(cells)
    if mode == "citizen" and rng.random() < 0.6:
        sc.put_ghost(s, s.field.cells[c])
    cost = R.explore_cost(s, 0, c)
    cell = s.field.cells[c]
    bits = [f"P1 {'has' if learned else 'has not'} learned skill {skill}"]
    if mode == "citizen":
        bits.append("ghost card 3 is in play" + (" and a ghost stands there" if s.ghosts[c] else ""))
    return Exercise(
        "04-skill-cost", seed,
        f"{'; '.join(bits)}. How many exploration tokens does P1 pay to enter the {terrain} {cell}?",
        "number", cost,
        f"Start from the {terrain}'s cost in the terrain table, then apply skill {skill} (one less) and ghost card 3 (one more on a ghost).",
        "Basic Actions: Exploration",
        "Applying a skill the player has not learned, or letting the skill and ghost card 3 cancel wrongly: they add up (ruling 32).",
        state=s, player=0, highlight={cell: "?"},
        explain=lambda got: (f"{s.field.describe(c)}: base cost {s.config.box.terrains[terrain].explore_cost}, "
                             f"{'1 less with skill ' + str(skill) + ', ' if learned else ''}"
                             f"{'1 more for the ghost (ghost card 3), ' if s.ghosts[c] and mode == 'citizen' else ''}"
                             f"so the engine charges {cost}."),
    )


def _learnable(seed: int) -> Exercise:
    rng = random.Random(seed)
    s = sc.scenario(players=2, seed=seed, skills=(1 + seed % 3, 4 + seed % 3, 7 + (seed + 1) % 3, 10 + (seed + 2) % 3))
    box = s.config.box
    sc.place(s, 0, (1, 0) if seed % 4 else (0, 0))          # a suburb; now and then the city
    sc.give(s, 0, **{r: rng.randint(0, 2) for r in box.resources})
    if seed % 5 == 1:
        sc.learn(s, 0, s.skills[0])
    options = tuple(f"skill {k}" for k in s.skills)
    legal = frozenset(f"skill {k}" for k in s.skills if s.why_not(A.Learn(k)) is None)
    held = ", ".join(f"{k} {name}" for name, k in s.resources(0).items())
    costs = ", ".join(f"{k} ({' + '.join(box.skills[k].cost)})" for k in s.skills)

    def explain(got):
        return _refusal_lines(s, [(f"skill {k}", A.Learn(k)) for k in s.skills
                                  if (f"skill {k}" in got) != (f"skill {k}" in legal)])

    return Exercise(
        "04-learnable", seed,
        f"P1 stands on {s.field.cells[s.sensor[0]]}, {s.field.describe(s.sensor[0])}, holding {held}. "
        f"Skills in play: {costs}. "
        "Which can P1 learn now? Pick all that apply.",
        "pick", legal,
        "Learning happens in the suburb, costs the two resources on the card, and each skill only once.",
        "Additional Actions: Learning",
        "Forgetting that learning needs the suburb, or that a cost of two of one resource needs two tokens of it.",
        state=s, player=0, options=options, explain=explain,
    )


# ============================================================================ 05 pathfinding

def _reach(seed: int) -> Exercise:
    s, p = _path_state(seed)
    here = s.field.cells[s.sensor[p]]
    cells = pf.reach(s, p)
    legal = frozenset(c for c in cells if c != here)
    tokens = _tokens(s, p, "exploration")

    def explain(got):
        out = []
        for c in sorted(got - legal):
            if c == here:
                out.append(f"{c} is where the sensor already stands")
                continue
            route = pf.cheapest_path(s, p, c)
            out.append(f"{c}: cheapest route {route}, more than {tokens}" if route.found else str(route))
        for c in sorted(legal - got):
            out.append(f"{c} is reachable: {pf.cheapest_path(s, p, c)}")
        return "; ".join(out) + "."

    return Exercise(
        "05-reach", seed,
        f"{_p(p)} stands on {here} with {tokens} active exploration token{'s' if tokens != 1 else ''}. Click every cell "
        "the sensor can reach this turn (one or more steps).",
        "cells", legal,
        "Add up the cost of every cell entered on the way; a route may go round a mountain or a lake.",
        "Basic Actions: Exploration",
        "Counting steps instead of tokens, or paying for the cell left instead of the cell entered.",
        state=s, player=p, explain=explain,
    )


def _cheapest(seed: int) -> Exercise:
    s, p = _path_state(seed)
    rng = random.Random(seed)
    here = s.field.cells[s.sensor[p]]
    far = [c for c in s.field.cells if pf.cheapest_path(s, p, c).found and 3 <= len(pf.cheapest_path(s, p, c).cells) <= 5]
    target = rng.choice(far)
    route = pf.cheapest_path(s, p, target)
    steps = ", ".join(f"{c} {k}" for c, k in zip(route.cells[1:], route.step_costs))
    return Exercise(
        "05-cheapest", seed,
        f"What is the cheapest cost, in exploration tokens, for {_p(p)} to go from {here} to {target} (ringed)?",
        "number", int(route.cost),
        "Try the straight line and one detour round the dearest cell; compare their sums.",
        "Basic Actions: Exploration",
        "Taking the route with the fewest steps: a detour over plains often costs less than crossing a mountain.",
        state=s, player=p, highlight={target: "?"},
        explain=lambda got: f"The cheapest route is {route} (entering {steps}).",
    )


def _turns(seed: int) -> Exercise:
    s, p = _path_state(seed)
    rng = random.Random(seed + 7)
    here = s.field.cells[s.sensor[p]]
    plans = {c: pf.turn_plan(s, p, c) for c in s.field.cells}
    far = [c for c, plan in plans.items() if plan.turns not in (0, float("inf")) and plan.turns >= 2]
    target = rng.choice(far or [c for c, plan in plans.items() if plan.turns not in (0, float("inf"))])
    plan = plans[target]
    legs = "; ".join(f"turn {k}: enter {', '.join(map(str, leg)) or 'nothing'} ({cost} tokens)"
                     for k, (leg, cost) in enumerate(zip(plan.legs, plan.leg_costs), start=1))
    return Exercise(
        "05-turns", seed,
        f"{_p(p)} stands on {here} with {plan.first_budget} active exploration tokens now and {plan.budget} after each "
        f"rest. How many turns, this one included, does the sensor need to reach {target} (ringed)?",
        "number", int(plan.turns),
        "Tokens come back only at the rest: a step that costs more than what is left waits for the next turn.",
        "Game Flow",
        "Dividing the total cost by the tokens per turn: a leftover token cannot pay part of a dearer step.",
        state=s, player=p, highlight={target: "?"},
        explain=lambda got: f"{legs}.",
    )


# ============================================================================ the registry

def _default_box():
    return default_box()


#: key -> (notebook, title, generator(seed) -> Exercise), three per notebook 01-05.
EXERCISES: dict[str, tuple[str, str, Callable[[int], Exercise]]] = {
    "01-first-player": ("01", "Who plays first?", _first_player),
    "01-entry-cost": ("01", "What does entering this cell cost?", _entry_cost),
    "01-which-building": ("01", "Which buildings fit this cell?", _which_building),
    "02-spread-cells": ("02", "Where may the spread ghost go?", _spread_cells),
    "02-next-first": ("02", "Who plays first next round?", _next_first),
    "02-production": ("02", "How many buildings produce?", _production),
    "03-explore-cells": ("03", "Where can the sensor explore?", _explore_cells),
    "03-legal-actions": ("03", "Which actions are legal now?", _legal_actions),
    "03-sale": ("03", "What does this sale pay?", _sale),
    "04-quest-score": ("04", "What does this quest score?", _quest_score),
    "04-skill-cost": ("04", "What does a skill change?", _skill_cost),
    "04-learnable": ("04", "Which skills can be learned?", _learnable),
    "05-reach": ("05", "What does one turn reach?", _reach),
    "05-cheapest": ("05", "The cheapest cost", _cheapest),
    "05-turns": ("05", "How many turns?", _turns),
}


def make(key: str, seed: int = 0) -> Exercise:
    """The exercise ``key`` (see :data:`EXERCISES`) on the position of ``seed``.

    Raises:
        ExerciseError: an unknown key or a seed that is not a non-negative integer
        below 2**63 (the kit's seed range, :func:`~haunted_kit.protocol.check_seed`).
    """
    if key not in EXERCISES:
        raise ExerciseError(f"unknown exercise {key!r} (known: {', '.join(EXERCISES)})")
    seed = check_seed(seed, error=ExerciseError)
    if seed < 0:
        raise ExerciseError(f"seed must be a non-negative integer, got {seed!r}")
    return EXERCISES[key][2](seed)


def for_notebook(notebook: str) -> list[str]:
    """The exercise keys of a notebook (``"03"``), in order."""
    return [k for k, (nb, _t, _g) in EXERCISES.items() if nb == notebook]


# ============================================================================ teacher copies

#: where ``haunted-kit teacher`` writes the teacher copies, under the notebooks folder: a
#: dot-folder, which JupyterLab's file browser hides, so the answers are not one click away
#: from the students (a teacher opens them by path, or with hidden files shown).
TEACHER_DIR = ".teacher"

#: an exercise cell in a notebook: ``exercise("03-sale", seed=1)``
_CELL = r'exercise\("(?P<key>[\w-]+)"(?:,\s*seed=(?P<seed>\d+))?'


def teacher_note(ex: Exercise) -> str:
    """The Markdown note the teacher copy puts under an exercise: the answer, why, the
    common mistake and the hint."""
    why = ex.explain(ex.answer) if ex.explain is not None else ""
    lines = [f"> **Teacher's note: {EXERCISES[ex.key][1]}** (`{ex.key}`, seed {ex.seed})",
             ">",
             f"> {ex.question}",
             ">",
             f"> **{ex.answer_text()}**"]
    if why and why not in ex.answer_text():
        lines += [">", f"> *The engine's explanation:* {why}"]
    lines += [">", f"> *Common mistake:* {ex.mistake}", ">", f"> *Hint shown after two wrong tries:* {ex.hint}",
              ">", f"> *Rulebook:* \"{ex.section}\"."]
    return "\n".join(lines) + "\n"


def teacher_notebook(nb: dict, name: str) -> dict:
    """A copy of notebook ``nb`` (nbformat JSON as a dict), outputs cleared, with a
    teacher's note after every exercise cell and a banner saying how it was made."""

    out = copy.deepcopy(nb)
    out.get("metadata", {}).pop("widgets", None)              # the widget state of the student run
    cells = []
    banner = {"cell_type": "markdown", "id": "teacher-banner", "metadata": {},
              "source": [f"**Teacher copy of `{name}`**, generated by `haunted-kit teacher` from the exercises' "
                         "seeds: every exercise is followed by its answer, the engine's explanation and the common "
                         "mistake. Outputs are cleared: run it to see the boards. Do not edit: run `haunted-kit teacher` again "
                         "after changing the notebook or the box.\n"]}
    cells.append(banner)
    for cell in out["cells"]:
        cells.append(cell)
        if cell["cell_type"] != "code":
            continue
        cell["outputs"], cell["execution_count"] = [], None   # run the copy to see the boards
        for k, m in enumerate(re.finditer(_CELL, "".join(cell["source"]))):
            ex = make(m.group("key"), int(m.group("seed") or 0))
            cells.append({"cell_type": "markdown", "id": f"teacher-{ex.key}-{k}", "metadata": {},
                          "source": teacher_note(ex).splitlines(keepends=True)})
    out["cells"] = cells
    return out


def write_teacher_copies(notebooks, out_dir) -> list:
    """Write the teacher copy of every notebook in ``notebooks`` (paths) that holds
    exercises into ``out_dir`` (created); files are written atomically. Returns the
    paths written."""

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(Path(p) for p in notebooks):
        nb = json.loads(path.read_text(encoding="utf-8"))
        if not any(c["cell_type"] == "code" and "exercise(" in "".join(c["source"]) for c in nb["cells"]):
            continue
        target = out_dir / path.name
        atomic_write(target, json.dumps(teacher_notebook(nb, path.name), indent=1, ensure_ascii=False) + "\n")
        written.append(target)
    return written
