"""The tutorial's player aid (haunted_kit.tutorial.aid_step), over every registered game: at the
learner's first decision, right after the goal, one short line per decision kind the game
teaches (legal yet or not), so a newcomer can plan a turn before meeting each kind; the
notebook widget lists it compactly and shows the goal and the aid again on demand."""

from __future__ import annotations

import json
from html import escape

import pytest

from haunted_kit.games import game_names, get_game
from haunted_kit.tutorial import AID_TITLE, Step, Tutorial, aid_step, lines_html, step_parts, teach_points, words
from haunted_kit.widgets.tutorial import TutorialView

GAMES = game_names()


def planned_titles(game) -> list:
    """The titles the aid must list: every ``kind:`` teach point a player plans with (its
    ``aid`` is not ``None``), in the game's order, then each declared kind without a point."""
    points = teach_points(game)
    named = {k[5:] for k in points if k.startswith("kind:")}
    return [p.title for k, p in points.items() if k.startswith("kind:") and p.aid is not None] + \
        [words(k).capitalize() for k in get_game(game).action_types if k not in named]


@pytest.mark.parametrize("game", GAMES)
def test_the_player_aid_comes_right_after_the_goal_and_lists_every_kind(game):
    t = Tutorial(game, seed=1, progress=False)
    assert t.queue[:2] == ["goal", "aid"]
    aid = t.steps["aid"]
    assert aid.title == AID_TITLE
    assert [title for title, _ in aid.lines] == planned_titles(game)
    assert all(line.strip() for _, line in aid.lines)
    legal_now = {f"kind:{k}" for k in t.legal_by_kind()}
    planned = {k for k, p in teach_points(game).items() if k.startswith("kind:") and p.aid is not None}
    assert planned - legal_now, "the aid lists kinds not legal yet (else it would teach nothing new)"
    # read on: the aid comes after the goal, once
    assert t.next().key == "goal" and t.current.key == "aid"
    t.next()
    assert "aid" not in t.queue and t.shown("aid").lines == aid.lines


@pytest.mark.parametrize("game", GAMES)
def test_the_aid_is_kept_and_resumed_with_its_lines(game, tmp_path):
    t = Tutorial(game, seed=1, progress=tmp_path / "p.json")
    t.next()
    kept = json.loads((tmp_path / "p.json").read_text())
    assert [s["key"] for s in kept["steps"]][:2] == ["goal", "aid"]
    back = Tutorial.resume(game, tmp_path / "p.json")
    assert back.steps["aid"].lines == t.steps["aid"].lines and back.current.key == "aid"
    # a step written before the aid existed (no "lines") reads as one without lines
    old = {k: v for k, v in t.steps["goal"].as_dict().items() if k != "lines"}
    assert Step.from_dict(old).lines == ()


@pytest.mark.parametrize("game", GAMES)
def test_the_widget_lists_the_aid_and_recalls_the_aid_and_the_goal(game):
    v = TutorialView(game, progress=False)
    t = v.tutorial
    v.next()                                  # the goal read: the aid is shown as a compact list
    assert t.current.key == "aid"
    html = v.lesson.value
    assert '<ul class="hk-aid"' in html
    assert html.count("<li>") == len(planned_titles(game))
    for title, line in t.current.lines:
        assert f"<li><b>{escape(title)}</b>: {escape(line)}</li>" in html
    assert 'tabindex="0"' in html               # the panel scrolls by keyboard when the list is longer
    while t.current is not None:              # read everything: nothing is queued
        v.next()
    assert "Nothing new right now" in v.lesson.value
    assert not v.b_aid.disabled and v.b_aid.description == "Player aid and goal"
    v.b_aid.click()                           # the aid first, then the goal, from any point of the game
    assert t.queue[:2] == ["aid", "goal"]
    assert '<ul class="hk-aid"' in v.lesson.value
    v.next()
    assert all(escape(part) in v.lesson.value for part in step_parts(t.steps["goal"])[:2])


def test_a_steps_lines_are_listed_escaped():
    st = Step("aid", AID_TITLE, "Plan.", "", (), "", (("Move <fast>", "1 step & more."),))
    html = lines_html(st.lines)
    assert '<li><b>Move &lt;fast&gt;</b>: 1 step &amp; more.</li>' in html


@pytest.mark.parametrize("game", GAMES)
def test_a_game_without_teach_points_gets_an_aid_from_its_declarations(game):
    game = get_game(game)
    st = aid_step(game, Tutorial(game, progress=False).state, {})   # no teach point: the declarations
    assert [title for title, _ in st.lines] == [words(k).capitalize() for k in game.action_types]
    assert all(line == "taught when you first may take it." for _, line in st.lines)
