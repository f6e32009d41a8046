"""The tutorial's lesson panel and its question (haunted_kit.widgets.tutorial), over every
registered game played through its first round by a newcomer who reads every step:

* no question is asked during the first round: the questions of the steps read in it are held
  and asked after it, one after another, in the order read, each heading saying how many more
  wait and the button under it saying "Next question" until the last, "Back to the game" then;
  the lesson panel holds its steps while a question is asked;
* a question asked is shown in the game's place (the play view hidden, the question's heading,
  the exercise and "Back to the game" shown), never under the game; "Back to the game" brings
  the game back; the panel says where the question is;
* the "Steps met" list follows the step being read and lists only steps shown so far;
* "Next in the lesson" never lists a phase that is over as coming next: those steps are named
  as what happened before, after what is to come;
* the page's text never says "more below" (the cue is drawn, not written).
"""

from __future__ import annotations

from html import escape

import pytest

from haunted_kit.games import game_names
from haunted_kit.tutorial import teach_points
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.text import visible_text
from haunted_kit.widgets.tutorial import MORE_BELOW, QUESTION_NOTE, QuestionHeading, TutorialView, next_html

GAMES = game_names()


def shown(widget) -> bool:
    return widget.layout.display != "none"


@pytest.mark.parametrize("game", GAMES)
def test_a_first_round_read_step_by_step(game, tmp_path):
    with capture_errors() as caught:
        v = TutorialView(game, seed=1, progress=tmp_path / "p.json", resume=False)
        t, asked, followed, nexts, held = v.tutorial, [], 0, [], []
        for _ in range(200):
            while t.current is not None or t.asking:
                if t.asking:  # a question: in the game's place, with its heading, the exercise and the way back
                    assert t.round_done, f"{t.asking} asked during the first round"  # the first round is played through
                    assert t.asking not in asked
                    asked.append(t.asking)
                    assert not shown(v.view) and shown(v.question_box)
                    assert v.question_box in v.children[0].children  # in the game's row, beside or under the panel
                    kids = v.question_box.children
                    assert isinstance(kids[0], QuestionHeading) and kids[1] is v.exercise and kids[-1] is v.b_resume
                    assert (f"{len(t.held)} more after this one: 'Next question'" in kids[0].text) == bool(t.held)
                    assert v.b_resume.description == ("Next question" if t.held else "Back to the game")
                    assert escape(QUESTION_NOTE) in v.lesson.value and "under the game" not in v.lesson.value
                    # the lesson waits for the question: no step in the panel, nothing to read on or skip
                    assert "The lesson goes on when you are back in the game" in v.lesson.value
                    # the question by its title alone: no exercise key or seed for a newcomer to puzzle over
                    ex = v.exercise.ex
                    assert escape(ex.title) in v.exercise.title.value and ex.key not in v.exercise.title.value
                    assert f"seed {ex.seed}" not in v.exercise.title.value + v.exercise.landmark.label
                    assert v.b_next.disabled and v.b_skip.disabled
                    v.b_resume.click()
                    if t.asking:  # the next question of the first round follows at once, in the same place
                        assert t.asking != asked[-1] and not shown(v.view) and v.exercise.ex.key == t.asking
                        continue
                    assert shown(v.view) and not shown(v.question_box) and v.exercise is None
                    assert escape(QUESTION_NOTE) not in v.lesson.value
                    continue
                assert shown(v.view) and not shown(v.question_box)
                assert v.met.value == t.current.key, (v.met.value, t.current.key)  # the list follows the step read
                listed = [k for _, k in v.met.options]   # only steps shown so far, never one still to come
                assert all(k in t.read | t.skipped | t.displayed for k in listed), listed
                assert not any(w.key in listed for w in t.waiting() if w.key not in t.displayed | t.read | t.skipped)
                followed += 1
                line = next_html(t)
                nexts.append(line)
                # in the queue's order, a past phase named as what happened before, never "Earlier:"
                titles = [t.shown(w.key).title for w in t.waiting()]
                assert "Earlier" not in line and line == ("" if not titles else "<div style='color:#555'>" + escape(
                    "Next in the lesson: " + ", ".join(f"{x[9:]} (what happened before)" if x.startswith("Earlier: ")
                                                        else x for x in titles)) + "</div>")
                assert MORE_BELOW not in visible_text(v) and MORE_BELOW in v.lesson.value  # drawn, never in the text
                q = t.current.question
                v.b_next.click()
                if q and not t.round_done and q not in held:
                    held.append(q)
                    assert t.held[-1] == q and not t.asking  # held, not asked, while the first round lasts
            if t.round_done or t.state.is_terminal():
                break
            assert v.view.attempt(t.state.legal_actions()[0])
        assert "Nothing new right now" in visible_text(v) and MORE_BELOW not in visible_text(v)
    assert not caught, caught
    assert t.round_done and followed > 3
    assert asked[:len(held)] == held  # the first round's questions, in the order their steps were read
    assert asked or not any(p.question for p in teach_points(game).values())


def test_the_next_line_names_past_phases_as_what_happened_before():
    class Book:  # a tutorial's queue as next_html reads it
        def __init__(self, titles):
            self.titles = titles

        def waiting(self):
            return [type("W", (), {"key": k})() for k in self.titles[1:]]

        def shown(self, key):
            return type("S", (), {"title": key})()

    assert next_html(Book(["Pass"])) == ""
    # the order the steps will come in (a newcomer was promised Setting up last and read it first)
    assert next_html(Book(["Pass", "Earlier: Setting up", "A season of turns"])) == (
        "<div style='color:#555'>Next in the lesson: Setting up (what happened before), A season of turns</div>")
    assert next_html(Book(["Pass", "A season of turns", "Earlier: The deal"])) == (
        "<div style='color:#555'>Next in the lesson: A season of turns, The deal (what happened before)</div>")
