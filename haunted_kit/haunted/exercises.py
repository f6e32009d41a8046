"""Haunted Lands' exercises that answer back, built from the engine (so they follow house rules too).

The record, the checking in steps, the attempt counting, "another seed" and "never a
finished game" are the kit's (:mod:`haunted_kit.exercises`: :class:`Exercise` here
subclasses its record, :data:`EXERCISES` is an :class:`~haunted_kit.exercises.ExerciseSet`);
this module keeps what is Haunted Lands' own: the 15 builders, the named facts
(:data:`FACTS`, :func:`rebuild`, ``solve``) and the words of its feedback.

    from haunted_kit.haunted.exercises import make, EXERCISES
    ex = make("03-explore-cells", seed=1)      # a seeded position and its question
    ex.question, ex.kind, ex.options          # what to ask, how to answer
    ex.fact_lines()                           # what the board does not draw, in sentences
    fb = ex.check({(2, 0), (1, 1)})           # Feedback(correct, stage, text, section)
    fb = ex.check({(2, 0)}, attempt=2)        # a second wrong try: the rule on this position
    ex.answer_text()                          # the answer, in words (only on request)
    make("03-explore-cells", seed=2)          # the same exercise on another position

Every answer is worked out by the engine at the moment the exercise is made: legal
actions (``legal_actions``), refusals (``why_not``: the reason and the rulebook
section) and the event sentences of what really happens (an action applied to a copy).
A wrong answer is explained with those same words, never with a second copy of a rule.

**Fair questions.** Each exercise declares the facts it shows (:attr:`Exercise.facts`,
names in :data:`FACTS`): the drawn board (sensors, ghosts, buildings, depletion
tokens, every cell labelled with its ``(q, r)`` coordinates), and in the question or
the "What you know" panel the mode and its ghost cards, holdings, tokens, skills
learned, the valor stack... :func:`rebuild` makes a position from those facts alone
and ``Exercise.solve`` gives the same answer on it (tests check this over seeds). No
exercise is built on a finished game: :func:`make` moves on to the next seed.

**Feedback in steps** (:meth:`Exercise.check`): a first wrong try gets a nudge about the
answer given (too high or too low, how many cells or options are wrong or missing)
with what to look at and the rulebook section; later wrong tries get the rule
applied to this position (which cell or option is wrong and the engine's reason, the
parts of a count); the answer only with :meth:`Exercise.answer_text`. An empty number
or no choice is not an answer (:class:`ExerciseError` asks for one).

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
from ..exercises import TEACHER_DIR  # noqa: F401  (re-exported: where the teacher copies go)
from ..exercises import Exercise as KitExercise
from ..exercises import ExerciseError, ExerciseSet, Feedback, NoPosition, check_facts, cite_rulings, how_off, plural, shown
from .. import hexgrid
from ..render.style import name_cells

__all__ = ["EXERCISES", "FACTS", "TEACHER_DIR", "Exercise", "ExerciseError", "Feedback", "board_facts",
           "exercise_note", "fact_lines", "for_notebook", "game_facts", "make", "rebuild"]


@dataclass
class Exercise(KitExercise):
    """A Haunted Lands exercise: the kit's record (:class:`haunted_kit.exercises.Exercise`:
    the checking in steps, the answer on request, another seed) with the game's own facts
    and words.

    Attributes (where they differ from the kit's record):
        facts: the facts the exercise shows, by name (see :data:`FACTS`): the board's
            pieces, holdings, tokens, the valor stack, the cards in play...; the answer
            depends on nothing else (:func:`rebuild` makes a position from them and
            ``solve`` recomputes the answer on it). :meth:`fact_lines` writes out those the
            board does not draw.
        nudge: what to look at (the first wrong try's nudge; also :attr:`hint`).
        rule: ``rule(got) -> str``: the rule applied to this position for the wrong answer
            ``got`` (which cell or option is wrong and why, the parts of a count).
        explain: ``explain(answer) -> str``: the engine's explanation of an answer
            (:meth:`why_text` gives it for the right one).
        highlight: ``{cell: "?"}`` for the cell a question names (tinted on the board).
    """

    facts: dict
    rule: Callable[[Any], str] | None = field(default=None, repr=False)

    @property
    def hint(self) -> str:
        """What to look at (the nudge of a first wrong try)."""
        return self.nudge

    def nudge_text(self, got) -> str:
        """Step 1 for the wrong answer ``got``: which way a number is off (a set answer: only
        that it is not the answer, uncounted) and what to look at; not the answer."""
        return f"{how_off(self.kind, got, self.answer, self.bounds)} Look at: {self.nudge} (rulebook: \"{self.section}\")."

    def rule_text(self, got) -> str:
        """Step 2 for the wrong answer ``got``: the rule applied to this position (which
        cell or option is wrong and why, the parts of a count), not the final answer."""
        text = (self.rule(got) if self.rule is not None else "") or self.nudge_text(got)
        if self.kind == "number":
            text = f"You said {got}, which is too {'high' if got > self.answer else 'low'}. {text}"
        return text

    def why_text(self) -> str:
        """The engine's full explanation of the answer (shown with the answer)."""
        return shown(self.explain(self.answer)) if self.explain is not None else ""

    def fact_lines(self) -> list[str]:
        """The shown facts that are not on the board, one sentence each (cells written as
        the board writes them)."""
        return [shown(line) for line in fact_lines(self.facts)]


def _exercise(key: str, seed: int, question: str, kind: str, answer, hint: str, section: str, mistake: str,
              **more) -> Exercise:
    """An :class:`Exercise` (its title comes from :data:`EXERCISES` when :func:`make` makes it)."""
    return Exercise(key=key, seed=seed, title="", question=question, kind=kind, answer=answer, nudge=hint,
                    section=section, mistake=mistake, **more)


# ============================================================================ helpers

def _bots(players: int, seed: int) -> list:
    return [GreedyAgent(seed * 100 + p) for p in range(players)]


def _play_to(s, stop, seed: int, limit: int = 5000):
    """Play ``s`` on with greedy bots until ``stop(s)`` (or the game ends)."""
    play_until(s, _bots(s.config.players, seed), stop, max_steps=limit)
    if s.phase == "over" or not stop(s):
        raise NoPosition(f"the game of seed {seed} ended before the position")
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


# ============================================================================ facts

#: the facts an exercise may declare (:attr:`Exercise.facts`), and what :func:`rebuild` does with each
FACTS = {
    "players": "number of players",
    "mode": "the mode (its ghost cards); with extra_ghost_cards",
    "extra_ghost_cards": "ghost cards beyond the mode's",
    "layout": "the region tiles (the drawn board)",
    "skills": "the skill cards in play",
    "market": "the market card in play",
    "sensors": "every sensor's cell (drawn)",
    "ghosts": "cells with a ghost (drawn)",
    "buildings": "(cell, building, owner) of every building (drawn)",
    "depleted": "cells with a depletion token (drawn)",
    "learned": "skill -> players on its marker slots, left to right",
    "resources": "player -> resource -> count",
    "pecunias": "player -> pecunias",
    "tokens": "player -> track -> (owned, active)",
    "stack": "(player, valor) of every valor token, in the order they arrived (last on top)",
    "order": "the starting stack, top first",
    "calendar": "(season, round)",
    "terrain_die": "the terrain the die rolled (in the question; not part of the position)",
    "turn": "(turn order, player to move)",
}


def board_facts(s) -> dict:
    """The facts a drawn board shows: layout, sensors, ghosts, buildings, depletion."""
    f = s.field
    names = list(s.config.box.buildings)
    return {"layout": tuple(f.layout), "sensors": tuple(f.cells[c] for c in s.sensor),
            "ghosts": tuple(f.cells[i] for i, g in enumerate(s.ghosts) if g),
            "buildings": tuple((f.cells[i], names[b], s.owner[i]) for i, b in enumerate(s.building) if b >= 0),
            "depleted": tuple(f.cells[i] for i, d in enumerate(s.depleted) if d)}


def game_facts(s) -> dict:
    """Players, mode and extra ghost cards of ``s`` (a position's cards in play)."""
    return {"players": s.config.players, "mode": s.config.mode, "extra_ghost_cards": tuple(s.config.extra_ghost_cards)}


def rebuild(facts: dict):
    """A position made with :mod:`haunted_kit.haunted.scenario` from ``facts`` alone
    (names of :data:`FACTS`; anything not given takes the scenario's default). Raises
    :class:`ExerciseError` for an unknown fact name."""
    check_facts(facts, FACTS)
    players = facts["players"]
    s = sc.scenario(players=players, mode=facts.get("mode", "wanderer"),
                    extra_ghost_cards=facts.get("extra_ghost_cards", ()),
                    layout=facts.get("layout", sc.DEFAULT_LAYOUT), skills=facts.get("skills", sc.DEFAULT_SKILLS),
                    market=facts.get("market", 1), order=facts.get("order"), seed=0)
    for p, cell in enumerate(facts.get("sensors", ())):
        sc.place(s, p, cell)
    for cell, name, owner in facts.get("buildings", ()):
        sc.put_building(s, cell, name, owner)
    for cell in facts.get("ghosts", ()):
        sc.put_ghost(s, cell)
    for cell in facts.get("depleted", ()):
        sc.deplete(s, cell)
    for skill, who in facts.get("learned", {}).items():
        for p in who:
            sc.learn(s, p, skill)
    for p, held in facts.get("resources", {}).items():
        sc.set_resources(s, p, **held)
    for p, k in facts.get("pecunias", {}).items():
        sc.set_pecunias(s, p, k)
    for p, tracks in facts.get("tokens", {}).items():
        for track, (owned, active) in tracks.items():
            sc.set_tokens(s, p, track, owned, active)
    for p, v in facts.get("stack", ()):
        sc.set_valor(s, p, v)
    if "calendar" in facts:
        sc.set_calendar(s, *facts["calendar"])
    if "turn" in facts:
        sc.set_turn(s, *facts["turn"])
    return s


#: a market option's kind of resources, in words
_MARKET_KINDS = {"any": "of any type", "same": "all of one type", "different": "each of a different type"}


def market_option_words(option) -> str:
    """What a market option takes, in words: ``"1 resource of any type"``, ``"2 resources
    all of one type"``, ``"4 resources each of a different type"`` (rules "Additional
    Actions: Selling")."""
    kind = _MARKET_KINDS.get(option.kind, f"({option.kind})")
    return f"{plural(option.count, 'resource')} {kind}"


def fact_lines(facts: dict) -> list[str]:
    """The facts of ``facts`` that the board does not draw, one sentence each (the
    exercise widget's "What you know" panel)."""
    box = default_box()
    out = []
    if "mode" in facts:
        cards = sorted({box.modes[facts["mode"]].ghost_card} | set(facts.get("extra_ghost_cards", ())))
        out.append(f"{facts['mode'].capitalize()} mode" + (f": ghost card{'s' if len(cards) != 1 else ''} "
                                                          f"{', '.join(map(str, cards))} in play." if cards else "."))
        out += [f"Ghost card {k}: {box.ghost_cards[k].text}" for k in cards]  # what each card in play does
    if "calendar" in facts:
        out.append(f"Season {facts['calendar'][0]}, round {facts['calendar'][1]}.")
    if "order" in facts:
        out.append("Starting valor stack, top first: " + ", ".join(_p(p) for p in facts["order"]) + ".")
    if "turn" in facts:
        order, to_move = facts["turn"]
        out.append("Turn order: " + ", ".join(_p(p) for p in order) + f"; {_p(to_move)} to move.")
    if "stack" in facts:
        marks: dict = {}
        for p, v in facts["stack"]:
            marks.setdefault(v, []).append(p)
        out.append("Valor track: " + "; ".join(
            f"{v}: " + (", ".join(_p(p) for p in ps) if len(ps) == 1 else
                        " under ".join(_p(p) for p in ps) + f" ({_p(ps[-1])} arrived last, on top)")
            for v, ps in sorted(marks.items(), reverse=True)) + ".")
    if "skills" in facts:
        out.append("Skills in play: " + ", ".join(
            f"{k} (costs {' + '.join(box.skills[k].cost)}: {box.skills[k].text.rstrip('.')})"
            for k in facts["skills"]) + ".")
    if "market" in facts:
        out.append(f"Market card {facts['market']} in play: " + "; ".join(
            f"option {i} takes {market_option_words(o)} and pays {plural(o.pecunias, 'pecunia')}"
            for i, o in enumerate(box.market_cards[facts["market"]], 1)) + ".")
    if "learned" in facts:
        by_player: dict = {}
        for k, who in facts["learned"].items():
            for p in who:
                by_player.setdefault(p, []).append(k)
        for p in range(facts.get("players", 0)):
            ks = sorted(by_player.get(p, ()))
            out.append(f"{_p(p)} has learned " + (f"skill{'s' if len(ks) > 1 else ''} {', '.join(map(str, ks))}."
                                                 if ks else "no skill."))
    for p, held in sorted(facts.get("resources", {}).items()):
        out.append(f"{_p(p)} holds " + ", ".join(f"{k} {r}" for r, k in held.items()) + ".")
    for p, k in sorted(facts.get("pecunias", {}).items()):
        out.append(f"{_p(p)} has {k} pecunia{'s' if k != 1 else ''}.")
    for p, tracks in sorted(facts.get("tokens", {}).items()):
        out.append(f"{_p(p)}'s tokens: " + ", ".join(f"{t} {a} active of {o}" for t, (o, a) in tracks.items()) + ".")
    return out


# ============================================================================ rule texts (step 2)

def _cells_rule(s, got, legal, action_of, where: str) -> str:
    """Which selected cells are wrong and why (the engine's refusal), then where to look for
    the others, always (never how many are missing: that would give the answer away)."""
    out = []
    for c in sorted(got - legal):
        r = s.why_not(action_of(c))
        out.append(f"{c}: not allowed. {r.text} (rulebook: {r.section})." if r is not None else f"{c}: not allowed.")
    out.append(f"Check every cell you did not select: is it one where {where}?")
    return " ".join(out)


def _pick_rule(s, got, legal, pairs) -> str:
    """For each wrongly ticked option the engine's refusal, then the options left unticked
    to check, always (never how many legal ones are missing)."""
    out = []
    for label, action in pairs:
        if label in got and label not in legal:
            r = s.why_not(action)
            out.append(f"{label}: not legal. {r.text} (rulebook: {r.section})." if r is not None else f"{label}: not legal.")
    out.append("Check each option you did not tick against the place, the tokens and the cost.")
    return " ".join(out)


def _cost_parts(s, p: int, c: int) -> str:
    """What the entry cost of cell ``c`` is made of, without the total nor the terrain's
    figure (with no skill and no ghost surcharge that figure is the answer): the terrain to
    look up in the table, the player's skills, ghost card 3."""
    box = s.config.box
    terrain = s.field.terrain[c]
    where = s.field.describe(c)  # "forest cell 1,-2 on region tile R03": the cell named once
    bits = [f"{where[:1].upper()}{where[1:]}: look up {terrain} in the terrain table"]
    known = [k for k in s.skills_known(p) if box.skills[k].effect in _ENTRY_SKILLS]
    if known:
        bits.append(f"{_p(p)} has learned skill{'s' if len(known) > 1 else ''} " + "; ".join(
            f"{k} ({box.skills[k].text.rstrip('.')})" for k in known))
    cards = sorted({box.modes[s.config.mode].ghost_card} | set(s.config.extra_ghost_cards))
    bits.append(f"ghost card{'s' if len(cards) > 1 else ''} {', '.join(map(str, cards))} in play, and the cell "
                f"{'holds a ghost' if s.ghosts[c] else 'holds no ghost'}")
    return "; ".join(bits) + "."


#: the skill effects that change an entry cost (:func:`haunted_kit.haunted.rules.entry_cost`)
_ENTRY_SKILLS = ("cheaper_forest", "cheaper_mountain")


def _terrain_table(s, p: int) -> str:
    """The entry costs of the terrain table, the player's skills and the ghost cards, in a sentence."""
    box = s.config.box
    costs = ", ".join(f"{name} {t.explore_cost}" if t.explore_cost else f"{name}: cannot be entered"
                      for name, t in box.terrains.items())
    known = [k for k in s.skills_known(p) if box.skills[k].effect in _ENTRY_SKILLS]
    skills = (f"; {_p(p)}'s skills: " + "; ".join(f"{k} ({box.skills[k].text.rstrip('.')})" for k in known)) if known else ""
    cards = sorted({box.modes[s.config.mode].ghost_card} | set(s.config.extra_ghost_cards))
    extra = " Ghost card 3 adds 1 token on a cell with a ghost." if 3 in cards else ""
    return f"Entering costs {costs}{skills}.{extra}"


def _player_facts(s, p: int, *, tracks=None, resources=True, pecunias=False) -> dict:
    out = {}
    if resources:
        out["resources"] = {p: dict(s.resources(p))}
    if pecunias:
        out["pecunias"] = {p: s.pecunias(p)}
    if tracks is not None:
        ctx = R.ctx_of(s)
        out["tokens"] = {p: {t: (s.tokens(p, ctx.ti[t]), s.tokens(p, ctx.ti[t], active=True)) for t in tracks}}
    return out


def _skill_facts(s) -> dict:
    """Skills in play and who learned each (marker slots left to right)."""
    learned = {}
    for k in s.skills:
        who = [v for v in s.marker_slots(k) if 0 <= v < s.config.players]
        if who:
            learned[k] = tuple(who)
    return {"skills": tuple(s.skills), "learned": learned}


def _turn_fact(s) -> dict:
    return {"turn": (tuple(s.turn_order), s.current_player())}


# ============================================================================ 01 components and setup

def _first_player(seed: int) -> Exercise:
    players = 3 + seed % 2
    s = engine.new_game(players=players, seed=seed)
    stack = [e.text for e in s.log if e.kind == "stack_placed"]
    options = tuple(_p(p) for p in range(players))
    solve = lambda st: _p(st.turn_order[0])
    first = solve(s)
    order = tuple(s.turn_order)
    return _exercise(
        "01-first-player", seed,
        f"This {players}-player game has just been set up (seed {seed}). The valor tokens were stacked at "
        "random; the starting stack is listed under \"What you know\", top first. Who takes the first turn of round 1?",
        "choose", first,
        "the starting valor stack (setup steps 12-13)",
        "Game Setup", "Thinking P1 always starts: the seats come from the random valor stack, not the player numbers.",
        state=s, options=options,
        explain=lambda got: " ".join(stack) + f" So the token on top, {first}'s, plays first.",
        rule=lambda got: (f"The turn order is the order of the valor stack, top first. {got}'s token is number "
                          f"{order.index(int(got[1:]) - 1) + 1} from the top of the stack shown."),
        facts={"players": players, "order": order}, solve=solve,
    )


def _entry_cost(seed: int) -> Exercise:
    s = _turn_start(2, seed, 1, 1 + seed % 3, mode=("wanderer", "citizen")[seed % 2])
    p = s.current_player()
    rng = random.Random(seed)
    cells = [i for i in range(len(s.field.cells)) if R.explore_cost(s, p, i) is not None and s.sensor[p] != i]
    # prefer a cell with a ghost when ghost card 3 is in play: the surcharge is what is missed
    ghosty = [i for i in cells if s.ghosts[i]] if 3 in s.config.ghost_cards else []
    c = rng.choice(ghosty or cells)
    cell = s.field.cells[c]
    solve = lambda st: R.explore_cost(st, p, st.field.index[cell])
    cost = solve(s)
    cards = ", ".join(map(str, s.config.ghost_cards))

    def explain(got):
        return (f"{s.field.describe(c)}{' holds a ghost' if s.ghosts[c] else ''}; "
                f"ghost card{'s' if len(s.config.ghost_cards) > 1 else ''} {cards} in play. The engine charges "
                f"{_p(p)} {cost} exploration token{'s' if cost != 1 else ''} to enter it.")

    return _exercise(
        "01-entry-cost", seed,
        f"How many exploration tokens does {_p(p)} pay to enter the cell {cell} (tinted, marked ?)? "
        f"Ghost card{'s' if len(s.config.ghost_cards) > 1 else ''} in play: {cards}.",
        "number", cost,
        "the terrain table for the cell you enter, then what changes its cost here",
        "Game Field, Tiles and Terrain Types",
        "Paying for the cell you leave, or forgetting ghost card 3's extra token on a cell with a ghost.",
        state=s, player=p, highlight={cell: "?"}, explain=explain,
        rule=lambda got: _cost_parts(s, p, c) + " Add these up for the cell entered, not the cell left.",
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s)}, solve=solve,
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
    solve = lambda st: frozenset(b for b in buildings if st.why_not(A.Build(b)) is None)
    legal = solve(s)
    cell = s.field.cells[c]
    ctx = R.ctx_of(s)
    tok = s.tokens(p, ctx.ti["construction"], active=True) if "construction" in ctx.ti else 1
    ghost = f" A ghost stands on {cell}." if s.ghosts[c] else " No ghost stands there."

    def explain(got):
        return _refusal_lines(s, [(b, A.Build(b)) for b in buildings])

    return _exercise(
        "01-which-building", seed,
        f"{_p(p)}'s sensor stands on {cell} (tinted, marked ?), {s.field.describe(c)}{', next to a lake' if s.field.near_lake[c] else ''}."
        f"{ghost} {_p(p)} has 2 of every resource and {tok} active construction token{'s' if tok != 1 else ''}. "
        f"Which buildings could {_p(p)} build here now? Pick all that apply.",
        "pick", legal,
        "the terrain each building needs (a noria needs a lake next to the cell), and whether a ghost stands on the cell",
        "Buildings", "Forgetting the noria on a cell next to a lake, putting a mill in a forest, or building under a ghost.",
        state=s, player=p, options=tuple(buildings), highlight={cell: "?"}, explain=explain,
        rule=lambda got: _pick_rule(s, got, legal, [(b, A.Build(b)) for b in buildings]),
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s), **_turn_fact(s),
               **_player_facts(s, p, tracks=("construction",))}, solve=solve,
    )


# ============================================================================ 02 a round step by step

def _spread_cells(seed: int) -> Exercise:
    s = engine.new_game(players=3, seed=seed)
    s = _play_to(s, lambda st: st.pending and st.legal_actions() and isinstance(st.legal_actions()[0], A.PlaceGhost)
                 and (st.season, st.round) >= (1, 1 + seed % 3), seed)
    p = s.current_player()
    legal = frozenset(a.cell for a in s.legal_actions() if isinstance(a, A.PlaceGhost))
    die = next(e for e in reversed(s.log) if e.kind == "terrain_die")
    terrain = die.data.get("terrain") if die.data else None
    terrain = terrain or next(t for t in s.config.box.terrains if t in die.text.lower())

    def solve(st):
        ctx = R.ctx_of(st)
        cells = R.ghost_targets(st, ctx, terrain) or R.kalena_targets(st, ctx)
        return frozenset(st.field.cells[i] for i in cells)

    def explain(got):
        return f"{die.text} Allowed: " + ", ".join(map(str, sorted(legal))) + "."

    return _exercise(
        "02-spread-cells", seed,
        f"Spread: {die.text} {_p(p)} must place the next ghost. Click every cell where it may go "
        "(cells are named (q, r) as written on the board).",
        "cells", legal,
        "the cells of the rolled terrain; which of them already hold a building or a ghost (a sensor does not stop it)",
        "Ghosts", "Leaving out cells with a sensor or a depletion token on them (they may take a ghost, ruling 3), "
                  "or choosing cells with a building.",
        state=s, player=p, explain=explain,
        rule=lambda got: _cells_rule(s, got, legal, A.PlaceGhost, f"the {terrain} is free of buildings and ghosts"),
        facts={**game_facts(s), **board_facts(s), "terrain_die": terrain}, solve=solve,
    )


def _next_first(seed: int) -> Exercise:
    s = engine.new_game(players=4, seed=seed)
    target_round = 1 + seed % 3
    s = _play_to(s, lambda st: st.phase == "turns" and not st.pending and st.chance is None
                 and st.round == target_round and st.turn_pos == len(st.turn_order) - 1, seed)
    p = s.current_player()

    def after(st):
        c = st.copy()
        mark = len(c.log)
        c.apply_action(A.EndTurn())        # rest and reorder run by themselves after the last turn
        return next(e for e in c.log[mark:] if e.kind == "reorder")

    solve = lambda st: _p(after(st).data["order"][0])
    reorder = after(s)
    first = solve(s)
    stack = tuple((q, s.valor[q]) for q in sorted(range(4), key=lambda q: s.arrival[q]))

    def rule(got):
        g = int(got[1:]) - 1
        top = max(s.valor)
        if s.valor[g] < top:
            return f"{got} has {s.valor[g]} valor, but the most valor on the track is {top}: most valor plays first."
        return (f"{got} is on the top mark ({top}) with others; on one mark the token that arrived last is on top "
                "and plays first: read the stack listed under \"What you know\".")

    return _exercise(
        "02-next-first", seed,
        f"{_p(p)} is about to end the last turn of round {s.round} (season {s.season}); the valor "
        "track and its stacks are listed under \"What you know\". After the rest and the reorder, who plays first?",
        "choose", first,
        "the valor track, and what decides between tokens on one mark",
        "Game Flow", "Keeping the old turn order, or breaking a tie by player number instead of the stack (last to arrive plays first).",
        state=s, player=p, options=tuple(_p(q) for q in range(4)),
        explain=lambda got: reorder.text, rule=rule,
        facts={"players": 4, "stack": stack, "calendar": (s.season, s.round), **_turn_fact(s)}, solve=solve,
    )


def _production_events(st):
    c = st.copy()
    if c.log is None:
        c.log = []
    mark = len(c.log)
    R.production(c, R.ctx_of(c))
    return [e for e in c.log[mark:] if e.kind in ("production", "production_blocked")]


def _production(seed: int) -> Exercise:
    s = _turn_start(4, seed, 2, 1 + seed % 3)
    solve = lambda st: sum(1 for e in _production_events(st) if e.kind == "production")
    events = _production_events(s)
    produced = solve(s)
    built = sum(1 for b in s.building if b >= 0)
    if built == 0:  # no question about an empty count ("0 buildings ... from 0 to 0")
        raise NoPosition(f"no building stands on the field of seed {seed}")

    def rule(got):
        blocked = [e for e in events if e.kind == "production_blocked"]
        return (f"{plural(built, 'building')} {'stands' if built == 1 else 'stand'}; a building is stopped only by a "
                f"ghost on one of its six neighbouring cells. Your count means {built - got} stopped. Check each "
                "building's six neighbours on the board for a G (a ghost two cells away does not count)."
                if blocked or got != built else "")

    return _exercise(
        "02-production", seed,
        f"Round {s.round} of season {s.season}: the spread is over and the board shows where the ghosts stand. "
        f"{plural(built, 'building')} {'stands' if built == 1 else 'stand'} on the field; ghost card 1 is in play. "
        f"How many of {'them' if built > 1 else 'it'} produced this round?",
        "number", produced,
        "each building's six neighbouring cells: ghost card 1 stops a building next to a ghost",
        "Game Flow", "Counting a ghost two cells away, or a ghost on a lake-side cell that does not touch the building.",
        state=s, explain=lambda got: " ".join(e.text for e in events) or "No building stands on the field.",
        rule=rule, facts={**game_facts(s), **board_facts(s), "resources": {q: dict(s.resources(q)) for q in range(4)}},
        solve=solve, bounds=(0, built),
    )


# ============================================================================ 03 actions

def _explore_cells(seed: int) -> Exercise:
    s, p = _path_state(seed)
    solve = lambda st: frozenset(a.cell for a in st.legal_actions() if isinstance(a, A.Explore))
    legal = solve(s)
    here = s.field.cells[s.sensor[p]]
    tokens = _tokens(s, p, "exploration")

    def explain(got):
        return "Legal: " + "; ".join(f"{c} costs {R.explore_cost(s, p, s.field.index[c])}" for c in sorted(legal)) + "."

    return _exercise(
        "03-explore-cells", seed,
        f"{_p(p)} stands on {here} with {tokens} active exploration token{'s' if tokens != 1 else ''}. "
        "Click every cell this sensor may explore to with its next action.",
        "cells", legal,
        "the six neighbouring cells only: not a lake, and not dearer than the active tokens",
        "Basic Actions: Exploration",
        "Clicking cells two steps away (that is two actions), or a neighbour that costs more tokens than are left.",
        state=s, player=p, explain=explain,
        rule=lambda got: _cells_rule(s, got, legal, A.Explore, f"a neighbour of {here} costs no more than {tokens}"),
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s), **_turn_fact(s),
               **_player_facts(s, p, tracks=("exploration",), resources=False)}, solve=solve,
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
    picks = sorted({name_cells(a.describe()): a for a in picks}.items())  # cells as the board writes them
    options = tuple(label for label, _ in picks)
    solve = lambda st: frozenset(label for label, a in picks if st.why_not(a) is None)
    legal = solve(s)

    return _exercise(
        "03-legal-actions", seed,
        f"It is {_p(p)}'s turn (season {s.season}, round {s.round}); the sensor stands on "
        f"{s.field.cells[s.sensor[p]]}, {s.field.describe(s.sensor[p])}. What {_p(p)} holds is listed under \"What you know\". "
        "Which of these actions are legal now? Pick all that apply.",
        "pick", legal,
        "for each action: the place (city, suburb, this cell), the tokens it needs, and what it costs",
        "Basic Actions",
        "Judging by what the player holds and forgetting the place: selling only in the city, training and learning only in the suburb.",
        state=s, player=p, options=options,
        explain=lambda got: _refusal_lines(s, picks),
        rule=lambda got: _pick_rule(s, got, legal, picks),
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s), **_turn_fact(s), "market": s.market,
               "calendar": (s.season, s.round),
               **_player_facts(s, p, tracks=tuple(box.tracks), pecunias=True)}, solve=solve,
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

    def solve(st):
        c, _ev = _events_after(st, sale)
        return c.pecunias(0) - st.pecunias(0)

    c, events = _events_after(s, sale)
    paid = solve(s)
    note = " P1 has learned skill 8." if learned else ""
    opt = box.market_cards[market][sale.option - 1] if hasattr(sale, "option") else None
    return _exercise(
        "03-sale", seed,
        f"P1 is in the city with market card {market} in play.{note} How many pecunias does this sale pay: "
        f"{sale.describe()}?",
        "number", paid,
        "the option of the market card this sale uses, then what changes what it pays",
        "Additional Actions: Selling",
        "Reading the wrong option of the market card, or forgetting skill 8's extra pecunia.",
        state=s, player=0, explain=lambda got: " ".join(e.text for e in events if e.kind in ("sold", "valor", "tokens_restored")),
        # the option's number and the skill, never what they pay: with no skill that is the answer
        rule=lambda got: ((f"This sale is option {sale.option} of market card {market}: read what that option pays "
                           "(listed under \"What you know\"). " if opt is not None else "")
                          + ("P1 has learned skill 8: " + box.skills[8].text if learned else
                             "P1 has learned no skill that changes a sale.")),
        answer_note=" ".join(e.text for e in events if e.kind == "sold"),
        facts={"players": 2, "market": market, **_skill_facts(s), **_player_facts(s, 0)}, solve=solve,
    )


# ============================================================================ 04 skills, quests, scoring

def _quest_parts(s, p: int, q: int) -> str:
    """What quest ``q`` counts for player ``p`` in this position, without the total."""
    box = s.config.box
    quest = box.quests[q]
    e = quest.effect
    if e == "resource_sets":
        what = f"{_p(p)} holds " + ", ".join(f"{k} {r}" for r, k in s.resources(p).items())
    elif e == "pecunias":
        what = f"{_p(p)} has {s.pec[p]} pecunias"
    elif e == "buildings":
        what = f"{_p(p)} owns the {quest.building}s marked {_p(p)} on the board"
    elif e == "rightmost_markers":
        what = f"count the skill cards whose rightmost marker slot holds {_p(p)}'s marker"
    else:
        what = f"count the regions where {_p(p)} has more buildings than each other player"
    return (f"Quest {q}: {quest.text} For {_p(p)} only: {what}; one fulfilment per {_per(quest)}, "
            f"{quest.valor} valor each.")


def _per(quest) -> str:
    """What one fulfilment of ``quest`` takes, in words (``"full 3 resources of one type"``,
    ``"3 pecunias"``, ``"building"``...)."""
    unit = {"resource_sets": ("full {n} resources of one type", "resource"),
            "pecunias": ("{n} pecunias", "pecunia"), "buildings": ("{n} buildings", "building"),
            "rightmost_markers": ("{n} such skill cards", "such skill card"),
            "region_majority": ("{n} such regions", "such region")}.get(quest.effect, ("{n}", "one"))
    return unit[0].format(n=quest.per) if quest.per != 1 else unit[1]


def _quest_score(seed: int) -> Exercise:
    s = _turn_start(3, seed, 3, 1 + seed % 3)
    rng = random.Random(seed)
    p = rng.randrange(3)
    box = s.config.box
    q = rng.choice(sorted(box.quests))
    solve = lambda st: R.quest_score(st, R.ctx_of(st), p, q)[0]
    value, times = R.quest_score(s, R.ctx_of(s), p, q)
    text = box.quests[q].text
    return _exercise(
        "04-quest-score", seed,
        f"If the game ended now, how much valor would quest card {q} give {_p(p)}? Quest {q}: {text} "
        f"What {_p(p)} holds is listed under \"What you know\".",
        "number", value,
        "what the card counts, for this player only, and the valor per fulfilment",
        "Quest Cards",
        "Counting other players' buildings or resources, or counting a part-set (quest 1 needs full sets of 3 of one type).",
        state=s, player=p,
        explain=lambda got: (f"Quest {q} ({text.rstrip('.')}) is fulfilled {times} time{'s' if times != 1 else ''} by {_p(p)}: "
                             f"{value} valor (the same function scores it at the end of the game)."),
        rule=lambda got: _quest_parts(s, p, q),
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s), **_player_facts(s, p, pecunias=True)},
        solve=solve,
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
    cell = s.field.cells[c]
    solve = lambda st: R.explore_cost(st, 0, st.field.index[cell])
    cost = solve(s)
    bits = [f"P1 {'has' if learned else 'has not'} learned skill {skill}"]
    if mode == "citizen":
        bits.append("ghost card 3 is in play" + (" and a ghost stands there" if s.ghosts[c] else ", but no ghost stands there"))
    return _exercise(
        "04-skill-cost", seed,
        f"{'; '.join(bits)}. How many exploration tokens does P1 pay to enter the {terrain} {cell} (tinted, marked ?)?",
        "number", cost,
        f"the {terrain}'s cost in the terrain table first, then what changes it for P1 on this cell",
        "Basic Actions: Exploration",
        "Applying a skill the player has not learned, or letting the skill and ghost card 3 cancel wrongly: they add up (ruling 32).",
        state=s, player=0, highlight={cell: "?"},
        explain=lambda got: (f"{s.field.describe(c)}: base cost {s.config.box.terrains[terrain].explore_cost}, "
                             f"{'1 less with skill ' + str(skill) + ', ' if learned else ''}"
                             f"{'1 more for the ghost (ghost card 3), ' if s.ghosts[c] and mode == 'citizen' else ''}"
                             f"so the engine charges {cost}."),
        rule=lambda got: _cost_parts(s, 0, c) + (" The skill and ghost card 3 both apply (ruling 32)."
                                                 if learned and mode == "citizen" and s.ghosts[c] else ""),
        facts={**game_facts(s), **board_facts(s), **_skill_facts(s)}, solve=solve,
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
    pairs = [(f"skill {k}", A.Learn(k)) for k in s.skills]
    solve = lambda st: frozenset(label for label, a in pairs if st.why_not(a) is None)
    legal = solve(s)
    held = ", ".join(f"{k} {name}" for name, k in s.resources(0).items())
    costs = ", ".join(f"{k} ({' + '.join(box.skills[k].cost)})" for k in s.skills)
    known = s.skills_known(0)
    knows = (f"P1 already knows skill{'s' if len(known) > 1 else ''} {', '.join(map(str, known))}. " if known
             else "P1 has learned no skill yet. ")
    tok = s.tokens(0, R.ctx_of(s).ti["learning"], active=True) if "learning" in R.ctx_of(s).ti else None

    return _exercise(
        "04-learnable", seed,
        f"P1 stands on {s.field.cells[s.sensor[0]]}, {s.field.describe(s.sensor[0])}, holding {held}. "
        f"{knows}Skills in play: {costs}. "
        "Which can P1 learn now? Pick all that apply.",
        "pick", legal,
        "where P1 stands (learning happens in the suburb), the two resources on each card, and the skills P1 already knows",
        "Additional Actions: Learning",
        "Forgetting that learning needs the suburb, or that a cost of two of one resource needs two tokens of it.",
        state=s, player=0, options=options, explain=lambda got: _refusal_lines(s, pairs),
        rule=lambda got: _pick_rule(s, got, legal, pairs),
        facts={**game_facts(s), "sensors": board_facts(s)["sensors"], **_skill_facts(s), **_turn_fact(s),
               **_player_facts(s, 0, tracks=tuple(box.tracks))}, solve=solve,
    )


# ============================================================================ 05 pathfinding

def _path_facts(s, p: int) -> dict:
    return {**game_facts(s), **board_facts(s), **_skill_facts(s), **_turn_fact(s),
            **_player_facts(s, p, tracks=("exploration",), resources=False)}


def _reach(seed: int) -> Exercise:
    s, p = _path_state(seed)
    here = s.field.cells[s.sensor[p]]
    solve = lambda st: frozenset(c for c in pf.reach(st, p) if c != here)
    legal = solve(s)
    tokens = _tokens(s, p, "exploration")

    def explain(got):
        return "; ".join(f"{c} is reachable: {pf.cheapest_path(s, p, c)}" for c in sorted(legal)) + "."

    def rule(got):
        out = []
        for c in sorted(got - legal):
            if c == here:
                out.append(f"{c} is where the sensor already stands.")
                continue
            route = pf.cheapest_path(s, p, c)
            out.append(f"{c}: even its cheapest route costs {int(route.cost)}, more than {tokens}." if route.found
                       else f"{c}: {route}.")
        if out:
            out.append(_terrain_table(s, p))
        # always said, never counted: how many are missing would give the answer away
        out.append(f"Check every cell you did not select: does its cheapest route cost at most {tokens}? "
                   "(A route may go round a dear cell.)")
        return " ".join(out)

    return _exercise(
        "05-reach", seed,
        f"{_p(p)} stands on {here} with {tokens} active exploration token{'s' if tokens != 1 else ''}. Click every cell "
        "the sensor can reach this turn (one or more steps).",
        "cells", legal,
        "the cost of every cell entered on the way, added up; a route may go round a mountain or a lake, "
        "and the mode's ghost cards may make a ghost's cell dearer",
        "Basic Actions: Exploration",
        "Counting steps instead of tokens, or paying for the cell left instead of the cell entered.",
        state=s, player=p, explain=explain, rule=rule, facts=_path_facts(s, p), solve=solve,
    )


def _cheapest(seed: int) -> Exercise:
    s, p = _path_state(seed)
    rng = random.Random(seed)
    here = s.field.cells[s.sensor[p]]
    routes = {c: pf.cheapest_path(s, p, c) for c in s.field.cells}
    far = [c for c, r in routes.items() if r.found and 3 <= len(r.cells) <= 5]
    target = rng.choice(far)
    route = routes[target]
    solve = lambda st: int(pf.cheapest_path(st, p, target).cost)
    steps = ", ".join(f"{c} costs {k}" for c, k in zip(route.cells[1:], route.step_costs))

    detour = len(route.cells) - 1 > hexgrid.distance(here, target)   # the cheapest route is not a straight line

    def rule(got):
        if got > route.cost and detour:
            how = "A detour is cheaper than the straight line here: look for one round the dearest cell. "
        elif got > route.cost:
            how = "The straight line is the cheapest here: add up its cells' costs again. "
        else:
            how = "Every cell entered costs its tokens, the target included. "
        return f"The cheapest route enters {len(route.cells) - 1} cells. " + how + _terrain_table(s, p)

    return _exercise(
        "05-cheapest", seed,
        f"What is the cheapest cost, in exploration tokens, for {_p(p)} to go from {here} to {target} (tinted, marked ?)?",
        "number", int(route.cost),
        "the straight line and a detour round the dearest cell; compare their sums (ghost cards may add to a ghost's cell)",
        "Basic Actions: Exploration",
        "Taking the route with the fewest steps: a detour over plains often costs less than crossing a mountain.",
        state=s, player=p, highlight={target: "?"},
        explain=lambda got: f"The cheapest route is {route} (entering {steps}).", rule=rule,
        facts=_path_facts(s, p), solve=solve,
    )


def _turns(seed: int) -> Exercise:
    s, p = _path_state(seed)
    rng = random.Random(seed + 7)
    here = s.field.cells[s.sensor[p]]
    plans = {c: pf.turn_plan(s, p, c) for c in s.field.cells}
    far = [c for c, plan in plans.items() if plan.turns not in (0, float("inf")) and plan.turns >= 2]
    target = rng.choice(far or [c for c, plan in plans.items() if plan.turns not in (0, float("inf"))])
    plan = plans[target]
    solve = lambda st: int(pf.turn_plan(st, p, target).turns)
    legs = "; ".join(f"turn {k}: enter {', '.join(map(str, leg)) or 'nothing'} ({cost} token{'s' if cost != 1 else ''})"
                     for k, (leg, cost) in enumerate(zip(plan.legs, plan.leg_costs), start=1))
    costs = [k for k in pf.cheapest_path(s, p, target).step_costs]

    def rule(got):
        return (f"Along a cheapest route the cells entered cost {', '.join(map(str, costs))} in turn. This turn "
                f"{plan.first_budget} tokens, after each rest {plan.budget}: pay step by step, and a step dearer than "
                "what is left waits for the next turn. "
                + ("You counted too many turns." if got > plan.turns else "You counted too few turns: a leftover token cannot pay part of a step."))

    return _exercise(
        "05-turns", seed,
        f"{_p(p)} stands on {here} with {plan.first_budget} active exploration tokens now and {plan.budget} after each "
        f"rest. How many turns, this one included, does the sensor need to reach {target} (tinted, marked ?)?",
        "number", int(plan.turns),
        "the tokens left before each step: tokens come back only at the rest, so a dearer step waits for the next turn",
        "Game Flow",
        "Dividing the total cost by the tokens per turn: a leftover token cannot pay part of a dearer step.",
        state=s, player=p, highlight={target: "?"},
        explain=lambda got: f"{legs}.", rule=rule, facts=_path_facts(s, p), solve=solve,
    )


# ============================================================================ the registry

def _default_box():
    return default_box()


#: key -> (notebook, title, builder(seed) -> Exercise), three per notebook 01-05 (an
#: :class:`~haunted_kit.exercises.ExerciseSet`).
EXERCISES = ExerciseSet({
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
}, rebuild=rebuild, common={"02-production": 0, "04-quest-score": 0, "05-turns": 2})

#: ``make(key, seed=0)``: the exercise ``key`` on the position of ``seed``, or of the next
#: seed whose game is not over at the question's moment
#: (:meth:`~haunted_kit.exercises.ExerciseSet.make`: :class:`ExerciseError` for an unknown
#: key or a seed that is not a non-negative integer below 2**63).
make = EXERCISES.make
#: ``for_notebook(notebook)``: the exercise keys of a notebook (``"03"``), in order.
for_notebook = EXERCISES.for_notebook


# ============================================================================ teacher copies

def teacher_note(ex: Exercise) -> str:
    """The Markdown note the teacher copy puts under an exercise: the answer, why, the
    common mistake and the hint."""
    why = ex.why_text()
    lines = [f"> **Teacher's note: {EXERCISES[ex.key][1]}** (`{ex.key}`, seed {ex.seed})",
             ">",
             f"> {ex.question}",
             ">",
             f"> **{ex.answer_text()}**"]
    if why and why not in ex.answer_text():
        lines += [">", f"> *The engine's explanation:* {why}"]
    lines += [">", f"> *Common mistake:* {ex.mistake}", ">", f"> *First wrong try is nudged to look at:* {ex.hint}",
              ">", f"> *Rulebook:* \"{ex.section}\"."]
    return cite_rulings("\n".join(lines) + "\n")


def exercise_note(key: str, seed: int = 0) -> str:
    """The teacher's note of exercise ``key`` on ``seed`` (:func:`teacher_note` of
    :func:`make`): the hook ``haunted-kit teacher`` calls
    (:func:`haunted_kit.exercises.write_teacher_copies`). Raises as :func:`make`."""
    return teacher_note(make(key, seed))
