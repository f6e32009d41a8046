"""Landmarks & Architects exercises (notebook 09), on the kit's machinery (:mod:`haunted_kit.exercises`).

    from haunted_kit.landmarks.exercises import EXERCISES, rebuild
    ex = EXERCISES.make("09-acquire", seed=1)
    ex.facts, ex.fact_lines()              # the named facts it shows, and the sentences made from them
    ex.solve(rebuild(ex.facts)) == ex.answer   # the answer follows from the facts shown alone
    from haunted_kit.landmarks.widgets import exercise
    exercise("09-acquire", seed=1)          # the widget, with the village and landmark panel

Each is about a seeded game in progress (greedy bots play a seeded number of decisions of a
2-4 turn game: the rulebook's turn, one lead and its followers), and its answer comes from the engine: the legal acquisitions and the
``why_not`` of the others, the module points (:func:`~haunted_kit.landmarks.rules.score_rows`),
the events of a build applied to a copy.

**Fair questions.** Each exercise declares the facts it shows by name (:data:`FACTS`: the
lead and who is to move, hands, the landmark supply, tokens, architects and villages, gold,
the sources holding gold...); :func:`fact_lines` writes the text shown from those same
facts, :func:`rebuild` makes a position from them alone (through
:func:`.engine.position`; whatever is not shown is empty, none or 0) and the exercise's
``solve`` recomputes the answer on it (``tests/test_companion_exercises.py``, over 500 seeds).
"""

from __future__ import annotations

import random

from ..exercises import Exercise, ExerciseSet, check_facts, events_after, game_in_progress, one_part, refused_picks
from . import rules as R
from .actions import Acquire, ChooseBuilding
from .box import default_box
from .engine import GAME, position


def _position(seed: int, ok):
    """A seeded game in progress where ``ok(state)`` holds and no building is chosen and
    waiting for its payment (the facts shown never name one; the next seeds' games are tried
    until one does), with its generator."""
    want = ok

    def ok(s):
        return s.chosen_building is None and want(s)

    for k in range(60):
        rng = random.Random(seed * 7919 + k)
        s = game_in_progress(GAME, 3 + rng.randrange(2), seed + 1000 * k, rng.randrange(0, 12),
                             rounds=2 + rng.randrange(3), stop=ok)
        if not s.is_terminal() and s.current_player() is not None and ok(s):
            return s, rng
    raise RuntimeError(f"no Landmarks position for seed {seed}")  # pragma: no cover - 60 tries


# ============================================================================ facts

#: the facts a Landmarks exercise may declare (:attr:`Exercise.facts`), and what :func:`rebuild` does with each
FACTS = {
    "players": "number of players",
    "round": "(turn, turns) (shown; the rebuilt position is the first turn of a game of the box's turns)",
    "leader": "the player who led this turn",
    "lead": "the action led (None: the leader is to lead)",
    "turn": "the player to move: a follower, or the leader building after a Build lead",
    "hands": "player -> card keys in hand",
    "supply": "landmark -> tokens left in the supply (the others lie with a player not to move)",
    "tokens": "player -> landmark -> tokens held (every player's)",
    "architect": "player -> architect key (the others get other architects)",
    "village": "player -> card keys in the village",
    "gold": "player -> gold in supply",
    "developed": "player -> developed resource cards, in slot order",
    "spent": "player -> own sources holding gold ('castle', 'developed:N')",
    "grounds": "player -> the players whose gold lies on that player's Castle Grounds",
    "decision": "the build a question names (not part of the position)",
}


def rebuild(facts: dict):
    """A Landmarks position made by :func:`haunted_kit.landmarks.engine.position` from
    ``facts`` alone (names of :data:`FACTS`); anything not given is empty, none or 0 (no
    architects unless one is shown; the tokens not in the shown supply lie with a player
    other than the one to move). Raises :class:`~haunted_kit.exercises.ExerciseError` for an
    unknown fact name and :class:`~haunted_kit.landmarks.state.ConfigError` for facts no
    position can hold."""
    check_facts(facts, FACTS)
    box = default_box()
    n = facts["players"]
    turn = facts.get("turn")

    def rows(name, empty):
        return [list(facts.get(name, {}).get(q, empty)) for q in range(n)]

    tokens = [dict(facts.get("tokens", {}).get(q, {})) for q in range(n)]
    if "supply" in facts:                    # the tokens taken lie with a player not to move
        holder = ((turn or 0) + 1) % n
        for k, left in facts["supply"].items():
            tokens[holder][k] = box.supply(n) - left
    architects = None
    if "architect" in facts:
        shown = facts["architect"]
        others = iter(k for k in box.architects if k not in shown.values())
        architects = [shown[q] if q in shown else next(others) for q in range(n)]
    return position(hands=rows("hands", ()), villages=rows("village", ()), gold=[facts.get("gold", {}).get(q, 0)
                    for q in range(n)], developed=rows("developed", ()), tokens=tokens, architects=architects,
                    leader=facts.get("leader", 0), lead=facts.get("lead"), spent=rows("spent", ()),
                    grounds=rows("grounds", ()), to_move=turn if facts.get("lead") is not None else None)


def _cards(box, keys) -> str:
    return "; ".join(f"{box.cards[k].name} ({', '.join(box.cards[k].icons) or 'no icon'})" for k in keys)


def fact_lines(facts: dict) -> list[str]:
    """The sentences that show ``facts`` (names of :data:`FACTS`), in a fixed order: what the
    exercise widget shows above the question, made from the facts :func:`rebuild` uses."""
    box = default_box()
    out = []
    if "lead" in facts:
        rnd, rounds = facts["round"]
        p, leader = facts["turn"], facts["leader"]
        doing = "to build" if p == leader else "to follow, acquire or decline" if facts["lead"] != "build" \
            else "to build (following the lead), acquire or decline"
        out.append(f"{R.ROUND_WORD.capitalize()} {rnd} of {rounds}; {facts['players']} players: P{leader + 1} led {facts['lead']}; "
                   f"P{p + 1} is {doing}.")
    for p, keys in sorted(facts.get("hands", {}).items()):
        out.append(f"P{p + 1}'s hand (card: icons in its Resource section): {_cards(box, keys) or 'an empty hand'}.")
    if "supply" in facts:
        out.append("Landmarks (cost; tokens left in the supply): " + "; ".join(
            f"{box.landmarks[k].name} ({box.landmarks[k].cost_text()}; {left} left)" for k, left in facts["supply"].items())
            + ".")
    if "tokens" in facts:
        out.append(f"{facts['players']} players. Landmark tokens: " + "; ".join(
            f"P{q + 1}: " + (", ".join(f"{m} {box.landmarks[k].name}" for k, m in t.items() if m) or "none")
            for q, t in sorted(facts["tokens"].items())) + ".")
        out.append(f"Scoring: the most tokens of a type +{box.most_points} (a tie: nobody); each token +its victory "
                   "points (" + ", ".join(f"{lt.name} {lt.victory_points}" for lt in box.landmarks.values()
                                          if lt.victory_points)
                   + f"); each full set of the {len(box.landmarks)} types +{box.set_points}.")
    for p, arch in sorted(facts.get("architect", {}).items()):
        a = box.architects[arch]
        village = ", ".join(f"{box.cards[k].name} ({box.cards[k].type}, {box.cards[k].kind})"
                            for k in facts.get("village", {}).get(p, ()))
        out.append(f"P{p + 1}'s architect: {a.name}, +{box.architect_points} per building of type "
                   f"{' and '.join(a.types)}. P{p + 1}'s village: {village or 'empty'}.")
    for p, g in sorted(facts.get("gold", {}).items()):
        out.append(f"P{p + 1} has {g} gold in supply.")
    for p, keys in sorted(facts.get("developed", {}).items()):
        out.append(f"P{p + 1}'s developed resources, in order: "
                   + ("; ".join(f"{i + 1}. {box.cards[k].name} ({', '.join(box.cards[k].icons)})" for i, k in
                                enumerate(keys)) or "none") + ".")
    for p, keys in sorted(facts.get("spent", {}).items()):
        named = [("castle" if k == "castle" else f"developed resource {int(k.split(':')[1]) + 1}") for k in sorted(keys)]
        out.append(f"P{p + 1}'s own sources holding gold (not free until P{p + 1} leads): {', '.join(named) or 'none'}.")
    for p, payers in sorted(facts.get("grounds", {}).items()):
        out.append(f"P{p + 1}'s Castle Grounds holds gold of: {', '.join(f'P{q + 1}' for q in payers) or 'nobody'} "
                   f"(room for {box.grounds_uses}).")
    return out


def _landmarks_exercise(s, p: int, facts: dict, solve, question: str, kind: str, section: str, nudge: str, rule: str,
                        mistake: str, answer=None, **more) -> Exercise:
    """A Landmarks :class:`Exercise` on position ``s`` whose named ``facts`` are shown by
    :func:`fact_lines`; its answer is ``solve(s)`` unless given."""
    answer = solve(s) if answer is None else answer
    return Exercise("", 0, "", facts, question, kind, answer, section, nudge, rule, mistake,
                    state=s, player=p, solve=solve, describe=fact_lines, **more)


def _turn_facts(s) -> dict:
    return {"players": s.players, "round": (s.round, s.rounds), "leader": s.leader, "lead": s.lead,
            "turn": s.current_player()}


def _acquire(seed: int) -> Exercise:
    s, rng = _position(seed, lambda s: s.phase == "follow" and s.modules["landmarks"])
    p = s.current_player()
    box = s.box
    options = tuple(lt.name for lt in box.landmarks.values())

    def solve(st):
        return frozenset(box.landmarks[a.landmark].name for a in st.legal_actions() if isinstance(a, Acquire))

    answer = solve(s)
    facts = {**_turn_facts(s), "hands": {p: tuple(s.hands[p])}, "supply": dict(s.supply)}
    key_of = {lt.name: k for k, lt in box.landmarks.items()}

    def refusal(name):
        why = R.refuse_acquire(s, p, key_of[name])
        return None if why is None else str(why)

    def explain(got):
        # the refused landmarks among those given, with the engine's reason; never the allowed ones
        return refused_picks(got, answer, refusal)

    def note():
        out = []
        for k, lt in box.landmarks.items():
            if lt.name in answer:
                how = next(a for a in s.legal_actions() if isinstance(a, Acquire) and a.landmark == k).describe(box)
                out.append(f"{lt.name}: allowed, e.g. {how}.")
            else:
                out.append(f"{lt.name}: {refusal(lt.name)}.")
        return " ".join(out)

    return _landmarks_exercise(
        s, p, facts, solve,
        f"Which landmarks may P{p + 1} acquire now instead of following? Pick all that apply.",
        "pick", R.SEC_ACQUIRE,
        "Read each landmark's cost: how many cards, and which icon they must show; then look at the supply.",
        "Acquiring a Landmark: instead of following, discard the landmark's cost from your hand (cards showing "
        "its icon, or any cards for a Gate) and take a token from the supply.",
        "Counting a card without the needed icon, or forgetting that the Gate takes any two cards.",
        answer=answer, options=options, explain=explain, answer_note=note())


def _points(seed: int) -> Exercise:
    s, rng = _position(seed, lambda s: any(any(t.values()) for t in s.tokens))
    p = rng.randrange(s.players)
    rows = [r for r in R.score_rows(s) if r["player"] == R.who(p)]
    facts = {"players": s.players, "tokens": {q: dict(s.tokens[q]) for q in range(s.players)}}
    arch = s.box.architects.get(s.architects[p]) if s.modules["architects"] and s.architects[p] else None
    if arch is not None:
        facts.update(architect={p: s.architects[p]}, village={p: tuple(s.villages[p])})

    def solve(st):
        return R.totals(st)[p]

    why = " ".join(f"{r['source']}: {r['points']} ({r['explanation']})." for r in rows)
    # the second hint names one part, never all of them: their sum would be the answer
    parts = [(f"{r['source']}: {r['explanation']}", r["points"]) for r in rows]
    return _landmarks_exercise(
        s, p, facts, solve,
        f"If the game ended now, how many module points would P{p + 1} score?",
        "number", R.SEC_LANDMARK_SCORING + (" and " + R.SEC_ARCHITECT_SCORING if arch else ""),
        "Go through the scoring section in order, one part at a time"
        + (", the architect's part last." if arch else "."),
        f"Scoring for P{p + 1} on this position: add the points of each part, in that order.",
        "Scoring the most of a type on a tie, or counting an adventurer as a building for the architect.",
        answer_note=why, explain=lambda got: one_part(parts, got, solve(s)))


def _gold_after(seed: int) -> Exercise:
    def builds(s):  # every Build of every building the mover may choose (a Build is two decisions)
        if not any(isinstance(a, ChooseBuilding) for a in s.legal_actions()):
            return []
        return R.build_options(s, s.current_player())

    s, rng = _position(seed, lambda s: bool(builds(s)))
    p = s.current_player()
    action = rng.choice(builds(s))
    chosen = s.copy()
    chosen.apply_action(ChooseBuilding(action.card))
    after, said = events_after(chosen, action)
    owners = sorted({p} | {u.owner for u in action.payment})
    facts = {**_turn_facts(s), "hands": {p: tuple(s.hands[p])}, "gold": {q: s.gold[q] for q in range(s.players)},
             "developed": {p: tuple(s.developed[p])}, "spent": {p: tuple(sorted(s.spent[p]))},
             "grounds": {q: tuple(s.grounds[q]) for q in owners}, "decision": action}

    def solve(st):
        c = st.copy()
        c.apply_action(ChooseBuilding(action.card))
        c.apply_action(action)
        return c.gold[st.current_player()]

    return _landmarks_exercise(
        s, p, facts, solve,
        f"How much gold will P{p + 1} hold after this build: {action.describe(s.box)}?",
        "number", R.SEC_BUILD,
        "Each resource of the cost is paid with gold placed on a source: count the sources in the payment.",
        "What happens (Build): " + " ".join(said),
        "Forgetting that the gold stays on the sources (it comes back only when that player leads).",
        answer=after.gold[p], answer_note=" ".join(said), about=action)


#: Landmarks & Architects exercises: key -> (notebook, title, builder)
EXERCISES = ExerciseSet({
    "09-acquire": ("09", "Which landmarks can you acquire?", _acquire),
    "09-points": ("09", "Module points if the game ended now", _points),
    "09-gold-after": ("09", "Gold after a build", _gold_after),
}, rebuild=rebuild, common={"09-gold-after": 1})


#: the teacher's note of an exercise (``haunted-kit teacher``'s hook; :func:`haunted_kit.exercises.teacher_note`)
exercise_note = EXERCISES.teacher_note
