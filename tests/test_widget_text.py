"""A kit view's plain-text form is the text it shows (haunted_kit.widgets.text): what the
notebook tests compare for a displayed view, in every game."""

from __future__ import annotations

import ipywidgets as W
import pytest

from haunted_kit.estate.widgets import EstatePlayView
from haunted_kit.haunted.widgets.exercise import exercise
from haunted_kit.haunted.widgets.play import PlayView
from haunted_kit.landmarks.widgets import LandmarksPlayView
from haunted_kit.games import game_of
from haunted_kit.tutorial import round_word
from haunted_kit.widgets.text import html_text, visible_text

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_shown_words_in_display_order_without_markup_or_hidden_parts():
    hidden = W.HTML("<b>secret</b>")
    hidden.layout.display = "none"
    box = W.VBox([W.HTML('<div style="font:14px"><b>Season 1</b>, round 3 &amp; <style>b{color:red}</style>P1</div>'),
                  W.HBox([W.Button(description="Check"), hidden]), W.IntSlider(value=3, description="seed"),
                  W.Label("valor 25"), W.HTML("  ")])
    assert visible_text(box) == "Season 1 , round 3 & P1 | Check | seed 3 | valor 25"
    assert html_text("<script>alert(1)</script><p>a<br>b</p>") == "a b"


def test_an_exercise_shows_its_question_as_its_text():
    bundle = exercise("03-sale", seed=1)._repr_mimebundle_()
    assert WIDGET_VIEW in bundle                                          # still displayed as the widget
    text = bundle["text/plain"]
    assert text.startswith(
        "Interactive exercise: run this cell (Shift+Enter), or Run > Run All Cells, to answer it here.\n"  # before it is run
        "Exercise: What does this sale pay? (03-sale, seed 1) | P1 is in the city with market card 2 "
        "in play. How many pecunias does this sale pay: sell water (market option 1)? | What you know: "), text
    assert "P1 holds 1 food, 3 water, 1 wood, 2 ore." in text                 # the facts the answer needs
    assert text.endswith(" | answer | Check | Show answer | New exercise"), text  # the number box starts empty
    assert exercise("03-sale", seed=2)._repr_mimebundle_()["text/plain"] != bundle["text/plain"]


@pytest.mark.parametrize("make", [lambda seed: PlayView(players=3, seed=seed, bots=[1, 2]),
                                  lambda seed: EstatePlayView(players=3, seed=seed, bots=[1, 2]),
                                  lambda seed: LandmarksPlayView(players=3, seed=seed, bots=[1, 2])],
                         ids=["haunted", "estate", "landmarks"])
def test_a_play_view_text_names_the_position_it_shows(make):
    one, other = make(1), make(2)
    text = one._repr_mimebundle_()["text/plain"]
    word = round_word(game_of(one.state)).capitalize()
    # where the game stands, in its own words: Haunted Lands' season, the estate's season, Landmarks' turn
    assert text.startswith(f"{type(one).__name__}: ") and ("Season 1" in text or f"{word} 1 of" in text) and "<div" not in text
    assert text == make(1)._repr_mimebundle_()["text/plain"]              # the same seed: the same text
    assert other._repr_mimebundle_()["text/plain"] != text                # another deal shows other words


def test_a_closed_details_shows_its_summary_only_and_a_toggle_says_when_pressed():
    key = '<details class="hk-key"><summary>Key: what the board&#x27;s codes mean</summary><dl><dt>G</dt></dl></details>'
    assert html_text(key + "<p>after</p>") == "Key: what the board's codes mean after"
    assert html_text(key.replace("<details ", "<details open ")) == "Key: what the board's codes mean G"
    box = W.VBox([W.ToggleButton(description="What is this?"), W.ToggleButton(description="Sound", value=True)])
    assert visible_text(box) == "What is this? | Sound (pressed)"
