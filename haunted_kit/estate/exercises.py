"""The estate's exercises (notebook 08), on the kit's machinery (:mod:`haunted_kit.exercises`).

    from haunted_kit.estate.exercises import EXERCISES
    ex = EXERCISES.make("08-take-limit", seed=1)
    from haunted_kit.estate.widgets import exercise
    exercise("08-take-limit", seed=1)      # the widget

Each is about a seeded game in progress (greedy bots play a seeded number of decisions),
and its answer comes from the engine: ``why_not`` of the takes and tile placements, the
events of an action applied to a copy.
"""

from __future__ import annotations

import random

from ..exercises import Exercise, ExerciseSet, events_after, game_in_progress, refused_picks
from . import actions as A
from . import rules as R
from .engine import GAME


def _turn_position(seed: int, ok=lambda s: True):
    """A game of 2-3 players in its ``turns`` phase (no Market visit under way) after a seeded
    number of decisions, where ``ok(state)`` holds (the next seeds' games are tried until one does)."""
    for k in range(50):
        rng = random.Random(seed * 7919 + k)
        s = game_in_progress(GAME, 2 + rng.randrange(2), seed + 1000 * k, rng.randrange(4, 40),
                             stop=None)
        if s.phase == "turns" and s.visit is None and s.current_player() is not None and ok(s):
            return s, rng
    raise RuntimeError(f"no estate position in its turns phase for seed {seed}")  # pragma: no cover - 50 tries


def _p(p: int) -> str:
    return f"P{p + 1}"


def _take_limit(seed: int) -> Exercise:
    s, rng = _turn_position(seed)
    p = s.current_player()
    box = s.box
    earning = [m for m in box.factory_resources if s.income[p][m] > 0]
    m = rng.choice(earning if earning and rng.random() < 0.85 else list(box.factory_resources))
    answer = 0
    for n in range(1, 20):
        if s.why_not(A.TakeMaterial(m, n)) is None:
            answer = n
    first = s.first_taker[m]
    facts = (f"Season {s.season}; {_p(p)} is to decide.",
             f"{_p(p)}'s {m} income: {s.income[p][m]}; {m} taken by {_p(p)} this season: {s.taken[p][m]}.",
             f"First to take {m} this season: {'nobody yet' if first is None else _p(first)}; the first taker may "
             f"take {box.first_taker_extra} extra unit.",
             f"Workers in {_p(p)}'s supply: {s.workers[p]['supply']}; a Factory take needs {box.workers_per_take}.")

    def explain(got):
        # the parts of the limit on this position, never the limit itself (the engine's
        # refusal of too many says "at most N": that is the answer)
        extra = R.take_limit(s, p, m) - s.income[p][m]
        who = "nobody has taken it yet" if first is None else f"{_p(first)} took it first"
        return (f"The parts here: {_p(p)}'s {m} income is {s.income[p][m]} and {s.taken[p][m]} "
                f"{'was' if s.taken[p][m] == 1 else 'were'} taken this season; {who}, so the first taker's extra unit "
                f"{'is' if extra else 'is not'} {_p(p)}'s; {s.workers[p]['supply']} worker"
                f"{'s' if s.workers[p]['supply'] != 1 else ''} in {_p(p)}'s supply, a take needs {box.workers_per_take}.")

    return Exercise(
        "", seed, "", facts,
        f"How many {m} may {_p(p)} take at the Raw Materials Factory now, at most (0 if none)?",
        "number", answer, R.INCOME,
        "Start from the income; then ask who took it first this season, and whether a worker is free.",
        "Resource income: a worker in the Factory takes up to your income of one material, less what you took "
        "this season; the season's first taker of a material may take one unit more.",
        "Forgetting the first taker's extra unit, or what was already taken this season.",
        explain=explain, answer_note=_take_note(s, m, answer), state=s, player=p, about=m)


def _take_note(s, m, answer) -> str:
    if answer:
        _c, said = events_after(s, A.TakeMaterial(m, answer))
        return " ".join(said)
    return f"Taking 1: {s.why_not(A.TakeMaterial(m, 1))}."


def _slots(seed: int) -> Exercise:
    def placeable(s):
        return sorted({a.tile for a in s.legal_actions() if isinstance(a, A.PlaceTile)})

    s, rng = _turn_position(seed, lambda s: bool(placeable(s)))
    p = s.current_player()
    box = s.box
    tile = rng.choice(placeable(s))
    empty = [slot for slot in box.slots if slot not in s.lands]
    legal = [slot for slot in empty if s.why_not(A.PlaceTile(tile, slot)) is None]
    refused = [slot for slot in empty if slot not in legal]
    chosen = rng.sample(legal, min(len(legal), rng.randint(1, 2))) if legal else []
    chosen += rng.sample(refused, min(len(refused), 5 - len(chosen)))
    chosen = sorted(chosen)
    label = {slot: f"slot {slot}" for slot in chosen}
    options = tuple(label[slot] for slot in chosen)
    answer = frozenset(label[slot] for slot in chosen if slot in legal)
    mine = R.estate_of(s, p)
    lands = "; ".join(f"{slot}: {land['tile'].replace('_', ' ')} of {_p(land['owner'])} (markers "
                      f"{', '.join(_p(q) for q in land['markers'])})" for slot, land in sorted(s.lands.items()))
    facts = (f"{_p(p)} is to decide and holds {s.hand[p]['gold']} gold; a land tile costs {box.tile_price} gold.",
             f"Display (face up): {', '.join(t.replace('_', ' ') for t in s.display)}.",
             f"{_p(p)}'s estate (slots with a marker of theirs): {', '.join(str(x) for x in mine) or 'none yet'}.",
             f"Tiles on the board: {lands or 'none'}.",
             f"The shared lower area: {', '.join(str(x) for x in box.lower_area)}.",
             f"Marble quarry: only with at least two land tiles (kit ruling E9, docs/RULINGS.md); {_p(p)} has {len(mine)}.")
    slot_of = {label[slot]: slot for slot in chosen}

    def refusal(lab):
        why = s.why_not(A.PlaceTile(tile, slot_of[lab]))
        return None if why is None else str(why)

    def explain(got):
        # the refused slots among those given, with the engine's reason; never the allowed ones
        return refused_picks(got, answer, refusal)

    note = " ".join(f"{label[slot]}: allowed." if slot in legal else f"{label[slot]}: {refusal(label[slot])}."
                    for slot in chosen)

    return Exercise(
        "", seed, "", facts,
        f"On which of these slots may {_p(p)} buy the {tile.replace('_', ' ')} and place it now? Pick all that apply.",
        "pick", answer, R.LANDS,
        "Check the price first; then where a first tile goes, and that a later one touches your estate.",
        "Expand the lands: a tile costs its price in gold; your first tile goes over the shared lower area, every "
        "later one must connect to a tile of your estate.",
        "Placing a later tile that does not touch the estate, or a first one outside the lower area.",
        options=options, explain=explain, answer_note=note, state=s, player=p, about=tile)


def _gold_after(seed: int) -> Exercise:
    def ok(s):
        return any(not isinstance(a, A.Pass) for a in s.legal_actions())

    s, rng = _turn_position(seed, ok)
    p = s.current_player()
    choices = [a for a in s.legal_actions() if not isinstance(a, A.Pass)]
    outcome = {a: events_after(s, a) for a in choices}  # each choice played once, on a copy
    paying = [a for a in choices if outcome[a][0].hand[p]["gold"] != s.hand[p]["gold"]]
    action = rng.choice(paying if paying and rng.random() < 0.75 else choices)
    after, said = outcome[action]
    answer = after.hand[p]["gold"]
    section = R.MARKET if isinstance(action, (A.VisitMarket, A.Trade, A.EndVisit)) else \
        R.LANDS if isinstance(action, (A.PlaceTile, A.Join, A.RemoveTile)) else R.INCOME
    facts = [f"{_p(p)} is to decide and holds {s.hand[p]['gold']} gold "
             f"(gold income {s.income[p]['gold']}, {s.taken[p]['gold']} taken this season)."]
    if isinstance(action, A.Join):
        land = s.lands[tuple(action.slot)]
        facts.append(f"The tile at {tuple(action.slot)} is {_p(land['owner'])}'s and holds {len(land['markers'])} "
                     f"marker(s); the join fee is {R.join_fee(s, tuple(action.slot))} gold.")
    if isinstance(action, A.TakeMaterial):
        m, first = action.material, s.first_taker[action.material]
        facts.append(f"{_p(p)}'s {m} income: {s.income[p][m]}; {m} taken by {_p(p)} this season: {s.taken[p][m]}; "
                     f"first to take {m} this season: {'nobody yet' if first is None else _p(first)}.")
    if isinstance(action, A.PlaceTile):
        facts.append(f"A land tile costs {s.box.tile_price} gold.")
    if isinstance(action, A.Trade):
        facts.append(f"Uses of this Market row this season: {s.uses[action.action]}; {_p(p)}'s condition tokens: "
                     f"{s.tokens[p]}.")
    return Exercise(
        "", seed, "", tuple(facts),
        f"How much gold will {_p(p)} hold after this decision: {action.describe()}?",
        "number", answer, section,
        "Follow the gold: what does this decision pay, and what does it bring in?",
        f"What happens ({section}): " + " ".join(said),
        "Forgetting a price or a fee, or counting gold income as gold in hand.",
        answer_note=" ".join(said),
        state=s, player=p, about=action)


#: the estate's exercises: key -> (notebook, title, builder)
EXERCISES = ExerciseSet({
    "08-take-limit": ("08", "How much may you take at the Factory?", _take_limit),
    "08-slots": ("08", "Where may the tile go?", _slots),
    "08-gold-after": ("08", "Gold after a decision", _gold_after),
})


#: the teacher's note of an exercise (``haunted-kit teacher``'s hook; :func:`haunted_kit.exercises.teacher_note`)
exercise_note = EXERCISES.teacher_note
