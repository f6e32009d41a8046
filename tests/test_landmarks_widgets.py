"""The Landmarks & Architects panel (SVG and canvas) and the step-through over the record."""

import random

from haunted_kit import landmarks as lm
from haunted_kit.landmarks.draw import panel_scene, panel_svg
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.canvas import CommandCounter
from haunted_kit.landmarks.widgets import LandmarksPanel, RecordStepView


def _round(seed=1):
    s = lm.new_game(3, seed=seed)
    s.apply_action(lm.Lead("build"))
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_panel_svg_is_deterministic_and_labels_the_kit_example_deck():
    s = _round()
    a, b = str(panel_svg(s)), str(panel_svg(_round()))
    assert a == b and a.startswith("<svg") and 'class="hk-landmarks-panel"' in a
    assert "Building cards: kit example deck (not the published cards)." in a
    assert "Statue" in a and "discard 1 card showing a stone icon" in a


def test_panel_hides_other_hands_and_architects_while_playing():
    s = lm.new_game(3, seed=2)
    texts = [p.text for p in panel_scene(s, viewer=0)[0] if hasattr(p, "text")]
    assert "architect: face down" in texts and "hand: 5 cards" in texts
    mine = s.box.architects[s.architects[0]]
    assert f"architect: {mine.name} ({' + '.join(mine.types)})" in texts
    # the leader's castle grounds gold is marked with the payer's number
    t = lm.position(hands=[["granary"], ["tannery", "granary"]], villages=[[], []], gold=[0, 1], grounds=[[1], []],
                    lead="harvest")
    prims = panel_scene(t)[0]
    assert any(getattr(p, "text", None) == "2" and getattr(p, "size", 0) == 9 for p in prims)


def test_canvas_panel_draws_and_redraws():
    s = lm.new_game(3, seed=3)
    panel = LandmarksPanel(s)
    with CommandCounter() as counter:
        s.apply_action(lm.Lead("harvest"))
        panel.update(s)
    assert counter.messages >= 1
    assert panel.canvas.width == 900


def test_step_view_walks_the_record():
    s = _round(4)
    with capture_errors() as caught:
        view = RecordStepView(s)
        assert len(view) == len(s.history()) + 1 and view.k == len(view) - 1
        view.b_first.click()
        assert view.k == 0 and "the start position" in view.explanation.value
        view.b_next.click()
        assert "chance: (" in view.explanation.value  # the architect deal
        view.b_next.click()
        assert "P1: lead build" in view.explanation.value and "P1 leads build" in view.explanation.value
        view.b_last.click()
        assert "P3:" in view.explanation.value and "choices at this step" in view.choices.value
        assert "decline" in view.choices.value
        view.slider.value = 1
        assert view.k == 1
    assert not caught, caught


def test_step_view_steps_any_protocol_game_from_a_start_copy():
    s = lm.new_game(3, seed=6)
    first = s.copy()
    s.apply_action(lm.Lead("harvest"))
    s.apply_action(lm.Follow())
    s.apply_action(lm.Decline())
    view = RecordStepView(s, start=first, step=1)
    assert len(view) == 4 and view.k == 1 and "P1: lead harvest" in view.explanation.value
    view.b_next.click()
    assert "P2: follow the lead action" in view.explanation.value and "follow: harvest" in view.choices.value
