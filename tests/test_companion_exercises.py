"""The companion games' exercises on the kit's machinery (haunted_kit.exercises): every answer
recomputed from the engine over 30 seeds, never a finished game, the stepped feedback (a
nudge with the section, then the rule applied, the answer on request) and the widget."""

from __future__ import annotations

import re

import pytest

from haunted_kit.estate import actions as EA
from haunted_kit.estate.exercises import EXERCISES as ESTATE
from haunted_kit.estate.widgets import exercise as estate_exercise
from haunted_kit.exercises import NONE_OF_THEM, Exercise, ExerciseError
from haunted_kit.landmarks import Acquire
from haunted_kit.landmarks import rules as LR
from haunted_kit.landmarks.exercises import EXERCISES as LANDMARKS
from haunted_kit.landmarks.widgets import exercise as landmarks_exercise
from haunted_kit.widgets import capture_errors

SEEDS = range(30)


def _take_limit(ex):
    s, p, m = ex.state, ex.player, ex.about
    assert s.current_player() == p
    ok = [n for n in range(1, 20) if s.why_not(EA.TakeMaterial(m, n)) is None]
    assert ok == list(range(1, len(ok) + 1))  # the legal amounts are 1..limit
    return len(ok)


def _slots(ex):
    s, p, tile = ex.state, ex.player, ex.about
    slots = [tuple(int(x) for x in re.findall(r"-?\d+", o)) for o in ex.options]
    assert len(set(slots)) == len(slots) and all(slot not in s.lands for slot in slots)
    legal = {tuple(a.slot) for a in s.legal_actions() if isinstance(a, EA.PlaceTile) and a.tile == tile}
    return frozenset(o for o, slot in zip(ex.options, slots) if slot in legal)


def _estate_gold(ex):
    c = ex.state.copy()
    assert ex.about in ex.state.legal_actions()
    c.apply_action(ex.about)
    return c.hand[ex.player]["gold"]


def _acquire(ex):
    s, p = ex.state, ex.player
    assert s.phase == "follow" and s.current_player() == p
    names = {s.box.landmarks[a.landmark].name for a in s.legal_actions() if isinstance(a, Acquire)}
    assert names == {lt.name for k, lt in s.box.landmarks.items() if LR.refuse_acquire(s, p, k) is None}
    return frozenset(names)


def _points(ex):
    return sum(r["points"] for r in LR.score_rows(ex.state) if r["player"] == f"P{ex.player + 1}")


def _landmarks_gold(ex):
    c = ex.state.copy()
    assert ex.about in ex.state.legal_actions()
    c.apply_action(ex.about)
    return c.gold[ex.player]


RECOMPUTE = {(ESTATE, "08-take-limit"): _take_limit, (ESTATE, "08-slots"): _slots, (ESTATE, "08-gold-after"): _estate_gold,
             (LANDMARKS, "09-acquire"): _acquire, (LANDMARKS, "09-points"): _points,
             (LANDMARKS, "09-gold-after"): _landmarks_gold}
CASES = [pytest.param(sets, key, id=key) for sets, key in RECOMPUTE]


def test_every_exercise_is_recomputed_here():
    assert {k for (_s, k) in RECOMPUTE} == set(ESTATE) | set(LANDMARKS)
    assert ESTATE.for_notebook("08") == ["08-take-limit", "08-slots", "08-gold-after"]
    assert LANDMARKS.for_notebook("09") == ["09-acquire", "09-points", "09-gold-after"]


@pytest.mark.parametrize("sets, key", CASES)
def test_answers_come_from_the_engine_on_games_in_progress(sets, key):
    answers = set()
    for seed in SEEDS:
        ex = sets.make(key, seed)
        assert (ex.key, ex.seed) == (key, seed)
        assert not ex.state.is_terminal(), f"{key} seed {seed} is about a finished game"
        assert ex.answer == RECOMPUTE[(sets, key)](ex), f"{key} seed {seed}"
        assert ex.facts and all(f.strip() for f in ex.facts)
        answers.add(ex.answer)
    assert len(answers) >= 3, f"{key}: the seeds ask different questions ({answers})"


@pytest.mark.parametrize("sets, key", CASES)
def test_a_wrong_answer_gets_a_nudge_then_the_rule_then_the_answer(sets, key):
    ex = sets.make(key, 4)
    wrong = (frozenset(ex.options[:-1]) - ex.answer or {NONE_OF_THEM}) if ex.kind == "pick" else ex.answer + 7
    first = ex.check(wrong)
    assert (first.correct, first.stage) == (False, "nudge")
    assert ex.nudge in first.text and first.text.count(ex.section) == 1   # the section named once
    second = ex.check(wrong, tries=1)
    assert (second.correct, second.stage) == (False, "rule") and ex.rule in second.text
    assert len(second.text) > len(ex.rule)  # and what the engine says about that answer
    right = ex.check(ex.right_response(), tries=2)
    assert (right.correct, right.stage) == (True, "right") and right.text == ex.answer_text()


def test_the_rule_names_the_engines_reason_for_a_wrong_slot():
    ex = ESTATE.make("08-slots", 1)
    wrong = frozenset(ex.options[:-1]) - ex.answer
    said = ex.check(wrong, tries=1).text
    for o in wrong:
        slot = tuple(int(x) for x in re.findall(r"-?\d+", o))
        assert f"{o}: refused, {ex.state.why_not(EA.PlaceTile(ex.about, slot))}." in said


def test_new_exercise_moves_to_another_seed_and_bad_input_is_refused():
    ex = LANDMARKS.make("09-points", 3)
    nxt = ex.regenerate()
    assert (nxt.key, nxt.seed) == ("09-points", 4)
    with pytest.raises(ExerciseError, match=r"^answer with a whole number, got 'many'$"):
        ex.check("many")
    assert ex.check(" %d " % ex.answer).correct
    with pytest.raises(ExerciseError, match=r"^unknown exercise 'nope'; known: 08-take-limit, 08-slots, 08-gold-after$"):
        ESTATE.make("nope")
    with pytest.raises(ExerciseError):
        ESTATE.make("08-slots", seed=-1.5)
    with pytest.raises(ExerciseError, match=r"^unknown option\(s\) \['slot \(9, 9\)'\]"):
        ESTATE.make("08-slots", 1).check({"slot (9, 9)"})


def test_an_exercise_refuses_a_finished_game():
    ex = LANDMARKS.make("09-points", 1)
    done = ex.state.copy()
    while not done.is_terminal():
        done.apply_action(done.legal_actions()[-1])
    with pytest.raises(ValueError, match=r"is about a finished game"):
        Exercise("k", 1, "t", ("f",), "q?", "number", 0, "s", "n", "r", state=done)


@pytest.mark.parametrize("make", [estate_exercise, landmarks_exercise], ids=["estate", "landmarks"])
def test_the_widget_steps_through_nudge_rule_answer_and_new_exercise(make):
    key = "08-gold-after" if make is estate_exercise else "09-gold-after"
    with capture_errors() as caught:
        w = make(key, 2)
        text = w._repr_mimebundle_()["text/plain"]
        assert text.startswith(f"ExerciseWidget: Exercise: Gold after ") and f"({key}, seed 2)" in text
        assert all(f in text for f in w.ex.facts)
        w.b_answer.click()
        assert "Have a try first" in w.feedback.value and w.tries == 0
        w.number.value = str(w.ex.answer + 5)
        w.b_check.click()
        assert w.tries == 1 and w.last.stage == "nudge" and "Not quite: a hint" in w.feedback.value
        w.b_check.click()
        assert w.tries == 2 and w.last.stage == "rule" and "Not quite: the rule on this position" in w.feedback.value
        w.b_answer.click()
        assert "Answer." in w.feedback.value and str(w.ex.answer) in w.feedback.value
        w.number.value = str(w.ex.answer)
        w.b_check.click()
        assert w.solved and "Right!" in w.feedback.value
        w.b_new.click()
        assert (w.ex.seed, w.tries, w.solved, w.feedback.value) == (3, 0, False, "")
    assert not caught, caught
