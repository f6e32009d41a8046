"""The estate's exercises (notebook 08), on the kit's machinery (:mod:`haunted_kit.exercises`).

    from haunted_kit.estate.exercises import EXERCISES, rebuild
    ex = EXERCISES.make("08-take-limit", seed=1)
    ex.facts, ex.fact_lines()              # the named facts it shows, and the sentences made from them
    ex.solve(rebuild(ex.facts)) == ex.answer   # the answer follows from the facts shown alone
    from haunted_kit.estate.widgets import exercise
    exercise("08-take-limit", seed=1)      # the widget

Each is about a seeded game in progress (greedy bots play a seeded number of decisions),
in its turns phase with no Market visit or tile removal under way, and its answer comes
from the engine: ``why_not`` of the takes and tile placements, the events of an action
applied to a copy.

**Fair questions.** Each exercise declares the facts it shows by name (:data:`FACTS`:
the tiles on the board, the display, holdings, income, what was taken, the first takers,
workers...); :func:`fact_lines` writes the text shown from those same facts,
:func:`rebuild` makes a position from them alone (through :func:`.scenario.position`;
whatever is not shown keeps a fresh seed-0 game's value) and the exercise's ``solve``
recomputes the answer on it (``tests/test_companion_exercises.py``, over 500 seeds).
"""

from __future__ import annotations

import random

from ..exercises import Exercise, ExerciseSet, check_facts, events_after, game_in_progress, one_part, refused_picks
from ..render.style import cell_name
from . import actions as A
from . import rules as R
from .box import default_estate_box
from .engine import GAME
from .scenario import position


def _turn_position(seed: int, ok=lambda s: True):
    """A game of 2-3 players in its ``turns`` phase (no Market visit or tile removal under
    way) after a seeded number of decisions, where ``ok(state)`` holds (the next seeds' games
    are tried until one does)."""
    for k in range(50):
        rng = random.Random(seed * 7919 + k)
        s = game_in_progress(GAME, 2 + rng.randrange(2), seed + 1000 * k, rng.randrange(4, 40),
                             stop=None)
        if s.phase == "turns" and s.visit is None and s.pending is None and s.current_player() is not None and ok(s):
            return s, rng
    raise RuntimeError(f"no estate position in its turns phase for seed {seed}")  # pragma: no cover - 50 tries


def _p(p: int) -> str:
    return f"P{p + 1}"


# ============================================================================ facts

#: the facts an estate exercise may declare (:attr:`Exercise.facts`), and what :func:`rebuild` does with each
FACTS = {
    "players": "number of players",
    "season": "the season (1-based)",
    "turn": "the player to decide (0-based)",
    "gold": "player -> gold held",
    "income": "player -> resource -> income",
    "taken": "player -> resource -> taken this season",
    "first_taker": "material -> the season's first taker (or None)",
    "workers": "player -> workers in the supply (none in the Factory or the Inn)",
    "tokens": "player -> Market-condition tokens",
    "display": "the face-up tiles of the display",
    "lands": "slot -> (tile, players with a marker, owner first): every tile on the board",
    "material": "the material a question names (not part of the position)",
    "tile": "the tile a question names (not part of the position)",
    "slots": "the slots a question offers (not part of the position)",
    "decision": "the decision a question names (not part of the position)",
}


def rebuild(facts: dict):
    """An estate position made by :func:`haunted_kit.estate.scenario.position` from
    ``facts`` alone (names of :data:`FACTS`): the player ``turn`` to decide in the turns
    phase; everything not given keeps a fresh seed-0 game's value. Raises
    :class:`~haunted_kit.exercises.ExerciseError` for an unknown fact name and
    :class:`~haunted_kit.estate.state.EstateSaveError` for facts no position can hold."""
    check_facts(facts, FACTS)
    workers = {p: {"supply": n, "factory": 0, "inn": 0} for p, n in facts.get("workers", {}).items()}
    return position(facts["players"], 0, turn=facts.get("turn"), season=facts.get("season"),
                    hand={p: {"gold": g} for p, g in facts.get("gold", {}).items()},
                    income=facts.get("income"), taken=facts.get("taken"), first_taker=facts.get("first_taker"),
                    workers=workers, tokens=facts.get("tokens"), display=facts.get("display"),
                    lands=facts.get("lands"), log=False)


def _lands(lands: dict) -> str:
    return "; ".join(f"{cell_name(slot)}: {tile.replace('_', ' ')} of {_p(ps[0])} (markers "
                     f"{', '.join(_p(q) for q in ps)})" for slot, (tile, ps) in sorted(lands.items())) or "none"


def fact_lines(facts: dict) -> list[str]:
    """The sentences that show ``facts`` (names of :data:`FACTS`), in a fixed order: what the
    exercise widget shows above the question, made from the facts :func:`rebuild` uses."""
    box = default_estate_box()
    out = []
    if "turn" in facts:
        out.append(f"Season {facts['season']} of {box.seasons}; {facts['players']} players; {_p(facts['turn'])} is to decide.")
    for p, g in sorted(facts.get("gold", {}).items()):
        out.append(f"{_p(p)} holds {g} gold.")
    for p, rows in sorted(facts.get("income", {}).items()):
        for r, n in rows.items():
            out.append(f"{_p(p)}'s {r} income: {n}; {r} taken by {_p(p)} this season: {facts['taken'][p][r]}.")
    for m, first in facts.get("first_taker", {}).items():
        out.append(f"First to take {m} this season: {'nobody yet' if first is None else _p(first)}; the first "
                   f"taker may take {box.first_taker_extra} extra unit, with an income of at least 1 "
                   f"(kit ruling E3, docs/RULINGS.md).")
    for p, n in sorted(facts.get("workers", {}).items()):
        out.append(f"Workers in {_p(p)}'s supply: {n}; a Factory take needs {box.workers_per_take}.")
    for p, n in sorted(facts.get("tokens", {}).items()):
        out.append(f"{_p(p)}'s Market-condition tokens: {n}.")
    if "display" in facts:
        out.append(f"Display (face up): {', '.join(t.replace('_', ' ') for t in facts['display']) or 'empty'}; "
                   f"a land tile costs {box.tile_price} gold.")
    if "lands" in facts:
        lands = facts["lands"]
        out.append(f"Tiles on the board: {_lands(lands)}.")
        if "turn" in facts:
            p = facts["turn"]
            mine = [slot for slot in box.slots if slot in lands and p in lands[slot][1]]
            out.append(f"{_p(p)}'s estate (slots with a marker of theirs): "
                       f"{'; '.join(cell_name(x) for x in mine) or 'none yet'}.")
        out.append(f"The shared lower area: {'; '.join(cell_name(x) for x in box.lower_area)}.")
        out.append(f"Marble quarry: only with at least {box.marble_quarry_min_tiles} land tiles "
                   f"(kit ruling E9, docs/RULINGS.md).")
        if isinstance(facts.get("decision"), A.Join):
            out.append(f"Joining a tile costs {box.join_fee_per_marker} gold per marker already on it, paid to its "
                       f"owner, at most {box.join_fee_cap}.")
    return out


def _facts_of(s, p: int, **more) -> dict:
    """The facts every estate exercise shows: players, season, the player to decide."""
    return {"players": s.players, "season": s.season, "turn": p, **more}


def _land_facts(s) -> dict:
    return {"display": list(s.display),
            "lands": {slot: (land["tile"], tuple(land["markers"])) for slot, land in sorted(s.lands.items())}}


def _take_facts(s, p: int, m: str) -> dict:
    return {"income": {p: {m: s.income[p][m]}}, "taken": {p: {m: s.taken[p][m]}},
            "first_taker": {m: s.first_taker[m]}, "workers": {p: s.workers[p]["supply"]}}


def _estate_exercise(s, p: int, facts: dict, solve, question: str, kind: str, section: str, nudge: str, rule: str,
                     mistake: str, answer=None, **more) -> Exercise:
    """An estate :class:`Exercise` on position ``s`` whose named ``facts`` are shown by
    :func:`fact_lines`; its answer is ``solve(s)`` unless given (the title and seed come
    from :data:`EXERCISES` when it is made)."""
    answer = solve(s) if answer is None else answer
    return Exercise("", 0, "", facts, question, kind, answer, section, nudge, rule, mistake,
                    state=s, player=p, solve=solve, describe=fact_lines, **more)


def _take_limit(seed: int) -> Exercise:
    s, rng = _turn_position(seed)
    p = s.current_player()
    box = s.box
    earning = [m for m in box.factory_resources if s.income[p][m] > 0]
    m = rng.choice(earning if earning and rng.random() < 0.85 else list(box.factory_resources))
    first = s.first_taker[m]

    def solve(st):
        return max((n for n in range(1, 20) if st.why_not(A.TakeMaterial(m, n)) is None), default=0)

    def explain(got):
        # one part of the limit on this position, never all of them nor the limit itself (the
        # parts together, or the engine's refusal of too many, "at most N", give the answer)
        extra = R.take_limit(s, p, m) - s.income[p][m]
        taken, income, free = s.taken[p][m], s.income[p][m], s.workers[p]["supply"]
        who = "nobody has taken it yet" if first is None else f"{_p(first)} took it first"
        parts = [(f"{_p(p)}'s {m} income is {income}", income),
                 (f"{taken} {'was' if taken == 1 else 'were'} taken this season", -taken),
                 (f"{who}, so the first taker's extra unit {'is' if extra else 'is not'} {_p(p)}'s", extra),
                 (f"{free} worker{'s' if free != 1 else ''} in {_p(p)}'s supply, a take needs {box.workers_per_take}",
                  0 if free >= box.workers_per_take else -(income + extra))]
        return one_part(parts, got, answer)

    answer = solve(s)
    return _estate_exercise(
        s, p, _facts_of(s, p, material=m, **_take_facts(s, p, m)), solve,
        f"How much {m} may {_p(p)} take at the Raw Materials Factory now, at most (0 if none)?",
        "number", R.INCOME,
        "Start from the income, then ask what may limit it this season.",
        "Resource income: a worker in the Factory takes up to your income of one material, less what you took "
        "this season; the season's first taker of a material may take one unit more.",
        "Forgetting the first taker's extra unit, or what was already taken this season.",
        explain=explain, answer_note=_take_note(s, m, answer), about=m)


def _take_note(s, m, answer) -> str:
    if answer:
        _c, said = events_after(s, A.TakeMaterial(m, answer))
        return " ".join(said)
    return f"Taking 1: {s.why_not(A.TakeMaterial(m, 1))}."


def _slot_label(slot) -> str:
    """An option of 08-slots: the slot as every board of the kit writes it (``slot 0,2``)."""
    return f"slot {cell_name(slot)}"


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
    chosen = tuple(sorted(chosen))
    options = tuple(_slot_label(slot) for slot in chosen)
    slot_of = dict(zip(options, chosen))

    def solve(st):
        return frozenset(_slot_label(slot) for slot in chosen if st.why_not(A.PlaceTile(tile, slot)) is None)

    answer = solve(s)

    def refusal(lab):
        why = s.why_not(A.PlaceTile(tile, slot_of[lab]))
        return None if why is None else str(why)

    def explain(got):
        # the refused slots among those given, with the engine's reason; never the allowed ones
        return refused_picks(got, answer, refusal)

    note = " ".join(f"{lab}: allowed." if lab in answer else f"{lab}: {refusal(lab)}." for lab in options)
    facts = _facts_of(s, p, gold={p: s.hand[p]["gold"]}, **_land_facts(s), tile=tile, slots=chosen)
    return _estate_exercise(
        s, p, facts, solve,
        f"On which of these slots may {_p(p)} buy the {tile.replace('_', ' ')} and place it now? Pick all that apply.",
        "pick", R.LANDS,
        "Check the price first; then where a first tile goes, and that a later one touches your estate.",
        "Expand the lands: a tile costs its price in gold; your first tile must lie over the shared lower area, every "
        "later one must connect to a tile of your estate.",
        "Placing a later tile that does not touch the estate, or a first one outside the lower area.",
        options=options, explain=explain, answer_note=note, about=tile)


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
    section = R.MARKET if isinstance(action, (A.VisitMarket, A.Trade, A.EndVisit)) else \
        R.LANDS if isinstance(action, (A.PlaceTile, A.Join, A.RemoveTile)) else R.INCOME
    facts = _facts_of(s, p, gold={p: s.hand[p]["gold"]}, decision=action)
    if isinstance(action, A.TakeGold):
        facts.update(income={p: {"gold": s.income[p]["gold"]}}, taken={p: {"gold": s.taken[p]["gold"]}})
    if isinstance(action, A.TakeMaterial):
        facts.update(_take_facts(s, p, action.material))
    if isinstance(action, (A.PlaceTile, A.Join)):
        facts.update(_land_facts(s))

    def solve(st):
        c = st.copy(keep_log=False)
        c.apply_action(action)
        return c.hand[st.current_player()]["gold"]

    return _estate_exercise(
        s, p, facts, solve,
        f"How much gold will {_p(p)} hold after this decision: {action.describe()}?",
        "number", section,
        "Follow the gold: what does this decision pay, and what does it bring in?",
        f"What happens ({section}): " + " ".join(said),
        "Forgetting a price or a fee, or counting gold income as gold in hand.",
        answer=after.hand[p]["gold"], answer_note=" ".join(said), about=action)


#: the estate's exercises: key -> (notebook, title, builder)
EXERCISES = ExerciseSet({
    "08-take-limit": ("08", "How much may you take at the Factory?", _take_limit),
    "08-slots": ("08", "Where may the tile go?", _slots),
    "08-gold-after": ("08", "Gold after a decision", _gold_after),
}, rebuild=rebuild, common={"08-take-limit": 0})


#: the teacher's note of an exercise (``haunted-kit teacher``'s hook; :func:`haunted_kit.exercises.teacher_note`)
exercise_note = EXERCISES.teacher_note
