"""Landmarks & Architects exercises (notebook 09), on the kit's machinery (:mod:`haunted_kit.exercises`).

    from haunted_kit.landmarks.exercises import EXERCISES
    EXERCISES.make("09-acquire", seed=1)
    from haunted_kit.landmarks.widgets import exercise
    exercise("09-acquire", seed=1)          # the widget, with the village and landmark panel

Each is about a seeded game in progress (greedy bots play a seeded number of decisions of a
2-4 round game), and its answer comes from the engine: the legal acquisitions and the
``why_not`` of the others, the module points (:func:`~haunted_kit.landmarks.rules.score_rows`),
the events of a build applied to a copy.
"""

from __future__ import annotations

import random

from ..exercises import Exercise, ExerciseSet, events_after, game_in_progress, refused_picks
from . import rules as R
from .actions import Acquire, Build
from .engine import GAME


def _position(seed: int, ok):
    """A seeded game in progress where ``ok(state)`` holds (the next seeds' games are tried
    until one does), with its generator."""
    for k in range(60):
        rng = random.Random(seed * 7919 + k)
        s = game_in_progress(GAME, 3 + rng.randrange(2), seed + 1000 * k, rng.randrange(0, 12),
                             rounds=2 + rng.randrange(3), stop=ok)
        if not s.is_terminal() and s.current_player() is not None and ok(s):
            return s, rng
    raise RuntimeError(f"no Landmarks position for seed {seed}")  # pragma: no cover - 60 tries


def _hand(s, p: int) -> str:
    cards = [s.box.cards[k] for k in s.hands[p]]
    return "; ".join(f"{c.name} ({', '.join(c.icons) or 'no icon'})" for c in cards) or "an empty hand"


def _acquire(seed: int) -> Exercise:
    s, rng = _position(seed, lambda s: s.phase == "follow" and s.modules["landmarks"])
    p = s.current_player()
    box = s.box
    legal = {a.landmark for a in s.legal_actions() if isinstance(a, Acquire)}
    options = tuple(lt.name for lt in box.landmarks.values())
    answer = frozenset(box.landmarks[k].name for k in legal)
    facts = (f"Round {s.round} of {s.rounds}: P{s.leader + 1} led {s.lead}; P{p + 1} is to follow, acquire or decline.",
             f"P{p + 1}'s hand (card: icons in its Resource section): {_hand(s, p)}.",
             "Landmarks (cost; tokens left in the supply): "
             + "; ".join(f"{lt.name} ({lt.cost_text()}; {s.supply[k]} left)" for k, lt in box.landmarks.items()) + ".")

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
            if k in legal:
                how = next(a for a in s.legal_actions() if isinstance(a, Acquire) and a.landmark == k).describe(box)
                out.append(f"{lt.name}: allowed, e.g. {how}.")
            else:
                out.append(f"{lt.name}: {refusal(lt.name)}.")
        return " ".join(out)

    return Exercise(
        "", seed, "", facts,
        f"Which landmarks may P{p + 1} acquire now instead of following? Pick all that apply.",
        "pick", answer, R.SEC_ACQUIRE,
        "Read each landmark's cost: how many cards, and which icon they must show; then look at the supply.",
        "Acquiring a Landmark: instead of following, discard the landmark's cost from your hand (cards showing "
        "its icon, or any cards for a Gate) and take a token from the supply.",
        "Counting a card without the needed icon, or forgetting that the Gate takes any two cards.",
        options=options, explain=explain, answer_note=note(),
        state=s, player=p)


def _points(seed: int) -> Exercise:
    s, rng = _position(seed, lambda s: any(any(t.values()) for t in s.tokens))
    box = s.box
    p = rng.randrange(s.players)
    rows = [r for r in R.score_rows(s) if r["player"] == R.who(p)]
    answer = R.totals(s)[p]
    facts = ["Landmark tokens: " + "; ".join(
        f"P{q + 1}: " + (", ".join(f"{n} {box.landmarks[k].name}" for k, n in s.tokens[q].items() if n) or "none")
        for q in range(s.players)) + ".",
        f"Scoring: the most tokens of a type +{box.most_points} (a tie: nobody); each token +its victory points ("
        + ", ".join(f"{lt.name} {lt.victory_points}" for lt in box.landmarks.values() if lt.victory_points)
        + f"); each full set of the {len(box.landmarks)} types +{box.set_points}."]
    arch = box.architects.get(s.architects[p]) if s.modules["architects"] and s.architects[p] else None
    if arch is not None:
        village = ", ".join(f"{box.cards[k].name} ({box.cards[k].type}, {box.cards[k].kind})" for k in s.villages[p])
        facts.append(f"P{p + 1}'s architect: {arch.name}, +{box.architect_points} per building of type "
                     f"{' and '.join(arch.types)}. P{p + 1}'s village: {village or 'empty'}.")
    why = " ".join(f"{r['source']}: {r['points']} ({r['explanation']})." for r in rows)
    parts = " ".join(f"{r['source']}: {r['explanation']}." for r in rows)  # the rule applied, the points left to add
    return Exercise(
        "", seed, "", tuple(facts),
        f"If the game ended now, how many module points would P{p + 1} score?",
        "number", answer, R.SEC_LANDMARK_SCORING + (" and " + R.SEC_ARCHITECT_SCORING if arch else ""),
        "Go through the scoring in order: most of each type, the tokens' own points, full sets"
        + (", then the architect's two building types." if arch else "."),
        f"Scoring for P{p + 1} on this position (add the parts): {parts}",
        "Scoring the most of a type on a tie, or counting an adventurer as a building for the architect.",
        answer_note=why, state=s, player=p)


def _gold_after(seed: int) -> Exercise:
    def builds(s):
        return [a for a in s.legal_actions() if isinstance(a, Build)]

    s, rng = _position(seed, lambda s: bool(builds(s)))
    p = s.current_player()
    box = s.box
    action = rng.choice(builds(s))
    after, said = events_after(s, action)
    answer = after.gold[p]
    facts = (f"Round {s.round} of {s.rounds}: P{s.leader + 1} led build; P{p + 1} is to build.",
             "Gold now: " + ", ".join(f"P{q + 1} {s.gold[q]}" for q in range(s.players)) + ".",
             f"The build and its payment (each resource: source -> resource): {action.describe(box)}.")
    return Exercise(
        "", seed, "", facts,
        f"How much gold will P{p + 1} hold after this build?",
        "number", answer, R.SEC_BUILD,
        "Each resource of the cost is paid with gold placed on a source: count the sources in the payment.",
        "What happens (Build): " + " ".join(said),
        "Forgetting that the gold stays on the sources (it comes back only when that player leads).",
        answer_note=" ".join(said),
        state=s, player=p, about=action)


#: Landmarks & Architects exercises: key -> (notebook, title, builder)
EXERCISES = ExerciseSet({
    "09-acquire": ("09", "Which landmarks can you acquire?", _acquire),
    "09-points": ("09", "Module points if the game ended now", _points),
    "09-gold-after": ("09", "Gold after a build", _gold_after),
})


#: the teacher's note of an exercise (``haunted-kit teacher``'s hook; :func:`haunted_kit.exercises.teacher_note`)
exercise_note = EXERCISES.teacher_note
