"""The first round is played straight through: a question named by a step read during the
learner's first round is held (``Tutorial.held``), not asked, and the held questions are asked
after the round, once the steps telling how it ended are read, one after another in the order
their steps were read (haunted_kit.tutorial,
``StepBook.ask_held``). Over every registered game that names a question; the held questions
are kept in the progress and resumed; a progress from before questions were held (no
``held``) resumes with none; a damaged ``held`` is refused by name and left as it is. The
classroom seat's tutorial never holds a question (its table never waits for one)."""

from __future__ import annotations

import json

import pytest

from haunted_kit.games import game_names
from haunted_kit.tutorial import SeatTutorial, Step, Tutorial, TutorialError, teach_points


def with_questions() -> list:
    return [g for g in game_names() if any(p.question for p in teach_points(g).values())]


def first_round(t: Tutorial) -> list:
    """Play ``t``'s first round, reading every step and taking the first legal action; returns
    the questions of the steps read, in order, while the round lasted."""
    read = []
    for _ in range(300):
        while t.current is not None and not t.round_done:
            q = t.next().question
            if q and q not in read:
                read.append(q)
            assert not t.asking, f"{t.asking} asked during the first round"
        if t.round_done:
            return read
        assert t.attempt(t.state.legal_actions()[0]) is None
    raise AssertionError("the first round never ended")


@pytest.mark.parametrize("game", with_questions())
def test_the_first_rounds_questions_wait_until_it_is_over(game, tmp_path):
    path = tmp_path / "p.json"
    t = Tutorial(game, seed=1, progress=path)
    read = first_round(t)
    # the round is over; its end is told first: questions wait while a step about what happened is queued
    while not t.asking and t.current is not None:
        key = t.current.key
        q = t.next().question
        if q and q not in read:
            read.append(q)
        if t.asking:   # asked once the last step about what happened is read
            assert not any(k.startswith(("phase:", "event:")) for k in t.queue), (key, t.queue)
    if not read:                     # a first round too short to meet a step with a question (one decision)
        assert not t.asking and t.held == []
        return
    # the first held question is asked now, the rest wait behind it
    assert t.asking == read[0] and t.held == read[1:]
    kept = json.loads(path.read_text())
    assert kept["asking"] == read[0] and kept["held"] == read[1:]
    r = Tutorial.resume(game, path)
    assert (r.asking, r.held) == (t.asking, t.held)
    asked = []
    while t.asking:
        asked.append(t.asking)
        t.leave()                    # "Back to the game" without a try: skipped, and the next one is asked
    assert asked == read and t.held == [] and all(t.answers[q] == "skipped" for q in read)
    assert t.summary()["asked"] == len(read) and t.summary()["held"] == 0


@pytest.mark.parametrize("game", with_questions())
def test_a_question_of_a_later_round_is_asked_at_once(game):
    t = Tutorial(game, seed=1, progress=False)
    first_round(t)
    for _ in range(100):             # the round's end told, its questions answered: nothing queued
        while t.asking:
            t.leave()
        if t.current is None:
            break
        t.next()
    assert not t.queue and not t.held
    key = next(p.question for p in teach_points(game).values() if p.question)
    t.answers.pop(key, None)         # a step read after the first round, naming a question not answered yet
    t.steps["later"] = Step("later", "Later", "A step of a later round.", "", (), key)
    t.queue.insert(0, "later")
    t.next()
    assert t.asking == key and t.held == []


@pytest.mark.parametrize("game", with_questions())
def test_a_progress_without_held_questions_resumes_and_a_damaged_one_is_refused(game, tmp_path):
    path = tmp_path / "p.json"
    Tutorial(game, seed=1, progress=path).save()
    data = json.loads(path.read_text())
    old = dict(data)
    del old["held"]                  # written before questions were held
    path.write_text(json.dumps(old))
    assert Tutorial.resume(game, path).held == []
    for bad in ("one", [1], {"a": 1}):
        text = json.dumps({**data, "held": bad})
        path.write_text(text)
        with pytest.raises(TutorialError, match="held must be a list of question keys"):
            Tutorial.resume(game, path)
        assert path.read_text() == text      # left as it is


@pytest.mark.parametrize("game", with_questions())
def test_a_classroom_seat_is_asked_at_once(game):
    key = next(p.question for p in teach_points(game).values() if p.question)
    seat = SeatTutorial(game, 0, seed=1)
    seat.meet([Step("s", "S", "A step.", "", (), key)])
    seat.next()
    assert seat.asking == key and seat.held == []


# ---------------------------------------------------------------- a phase taught within its decision's step
def test_only_a_phase_is_taught_within_a_decision_kinds_step():
    from haunted_kit.tutorial import TeachPoint
    with pytest.raises(ValueError, match="only a phase is taught within a decision kind's step"):
        TeachPoint("kind:a", "A", "a", "S", within="kind:b")
    with pytest.raises(ValueError, match="only a phase is taught within a decision kind's step"):
        TeachPoint("phase:a", "A", "a", "S", within="event:b")


@pytest.mark.parametrize("game", [g for g in game_names() if any(p.within for p in teach_points(g).values())])
def test_a_phase_taught_within_its_decision_is_no_step_of_its_own(game):
    """Played past the first round: a phase whose point names the decision kind teaching it
    (``within``) is never a step met at or after that kind's step, and the kind's step is met
    at the learner's first decision in that phase."""
    from haunted_kit.widgets.tutorial import TutorialView  # the play view's path: its bots move one by one
    points = teach_points(game)
    v = TutorialView(game, seed=1, progress=False, resume=False)
    t = v.tutorial
    for _ in range(300):
        while t.current is not None:
            v.b_next.click()
        while t.asking:
            v.b_resume.click()
        if t.state.is_terminal() or t.decisions >= 40:
            break
        assert v.view.attempt(t.state.legal_actions()[0])
    merged = [p for p in points.values() if p.within and p.within in t.steps]
    assert merged, "the first decisions meet a decision kind that teaches its phase"
    for p in merged:
        assert p.key not in t.steps or t.introduced[p.key] < t.introduced[p.within], p.key
