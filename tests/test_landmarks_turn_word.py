"""Landmarks counts its game in the rulebook's unit, a leader's turn ("your turn is complete.
Pass the Active Player Token ... to the player to your left", Landmarks: How To Play, Take One
Action): every line a player reads says turn, never round, and a game from any door (new_game,
the tools, the tutorial, the table server) plays the box's 3 turns, one lead each."""

from __future__ import annotations

import random
import re

import pytest

from haunted_kit import landmarks as lm
from haunted_kit.explain import settings_sentence
from haunted_kit.games import get_game, option_defaults
from haunted_kit.landmarks import classroom, exercises
from haunted_kit.landmarks.actions import Acquire, Build, ChooseBuilding, Decline, Follow, Lead
from haunted_kit.landmarks.cli import summary
from haunted_kit.landmarks.draw import panel_scene
from haunted_kit.landmarks.widgets import LandmarksPlayView
from haunted_kit.render.primitives import Text
from haunted_kit.tutorial import Tutorial, round_word

ROUND = re.compile(r"\bround", re.IGNORECASE)   # round, rounds, Round (Castle Grounds is no match)
PROBES = [Lead("harvest"), Lead("build"), Follow(), Decline(), Acquire("gate", ("vardo", "tannery")),
          ChooseBuilding("tannery"), Build("tannery", ())]


def said_at(s) -> list[str]:
    """Every line a player may read about position ``s``: the seat and board lines, the panel's
    texts, the refusals of the usual actions, the events so far."""
    out = [classroom.status(s), classroom.status(s, 0), classroom.game_board_html(s)]
    out += [p.text for p in panel_scene(s, 0)[0] if isinstance(p, Text)]
    if not s.is_terminal() and not s.is_chance_node():
        out += [str(r) for r in (s.why_not(a) for a in PROBES) if r is not None]
    return out + list(s.events().text)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_line_of_a_whole_game_says_round(players):
    s = lm.new_game(players, seed=players)
    rng, lines = random.Random(players), []
    while not s.is_terminal():
        lines += said_at(s)
        s.apply_action(rng.choice(s.legal_actions()))
    lines += said_at(s) + [summary(s)]
    # the leader's token passes left after each turn: P1, P2, P3 (P1 again with 2 players)
    assert s.rounds == 3 and [e.player for e in s.history() if isinstance(e.action, Lead)] == [0, 1, 2 % players]
    assert not [x for x in lines if ROUND.search(x)], [x for x in lines if ROUND.search(x)][:5]
    assert any(x.startswith("Turn 3 of 3") for x in lines) and "Landmarks & Architects, " in summary(s)
    assert f"{players} players, 3 turns (" in summary(s)


def test_the_declarations_the_kit_reads_say_turn():
    game = get_game("landmarks")
    assert round_word(game) == "turn" and game.length_name == "turns"
    (option,) = game.options
    assert (option.keyword, option.flag, option.aliases, option.default) == ("rounds", "turns", ("rounds",), 3)
    assert option_defaults(game) == {"rounds": 3} == {"rounds": game.default_box().example_round["rounds"]}
    rounds_field = next(f for f in classroom.FORM if f["name"] == "rounds")
    assert rounds_field["label"] == "Turns" and rounds_field["default"] == 3
    words = [option.help, rounds_field["help"], settings_sentence(game, {"rounds": 2}, classroom.FORM)]
    assert settings_sentence(game, {"rounds": 2}, classroom.FORM).startswith("Turns: 2.")
    assert not [w for w in words if ROUND.search(w)], words


def test_the_tutorial_play_view_and_exercises_say_turn():
    t = Tutorial("landmarks", seed=2, progress=False)
    assert t.state.rounds == 3 and "ends after 3 turns" in t.steps["goal"].text
    while not t.state.is_terminal():
        t.attempt(t.state.legal_actions()[0])
    texts = [st.text for st in t.steps.values()] + [st.title for st in t.steps.values()]
    assert t.round_done and not [x for x in texts if ROUND.search(x)]
    view = LandmarksPlayView(players=3, seed=2, bots=[1, 2], hints=False)
    assert view.status_text().startswith("Turn 1 of 3, lead")
    for key in exercises.EXERCISES:
        for seed in (1, 2, 3):
            lines = exercises.EXERCISES.make(key, seed).fact_lines()
            assert not [x for x in lines if ROUND.search(x)], (key, seed, lines)
