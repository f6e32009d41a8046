"""The Landmarks & Architects panel (SVG and canvas) and the step-through over the record."""

import random
from html import escape

import pytest

from haunted_kit import landmarks as lm
from haunted_kit.landmarks.draw import panel_scene, panel_svg
from haunted_kit.render.primitives import Rect, Text
from haunted_kit.render.primitives import Circle
from haunted_kit.render.svg import boxes_overlap, fitted_text, text_box, text_width
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.canvas import CommandCounter
from haunted_kit.landmarks.widgets import LandmarksPanel, RecordStepView


def _one_turn(seed=1):
    """A game of one turn (P1 leads build), played to its end at random."""
    s = lm.new_game(3, seed=seed, rounds=1)
    s.apply_action(lm.Lead("build"))
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_panel_svg_is_deterministic_and_labels_the_kit_example_deck():
    s = _one_turn()
    a, b = str(panel_svg(s)), str(panel_svg(_one_turn()))
    assert a == b and a.startswith("<svg") and 'class="hk-landmarks-panel"' in a
    assert 'style="max-width:100%;height:auto"' in a   # fits a notebook's output area, never scrolls sideways
    assert "Building cards: kit example deck (not the published cards)." in a
    texts = [p.text for p in panel_scene(s)[0] if isinstance(p, Text)]
    assert "Statue" in texts and "discard 1 card showing a stone icon" in " ".join(texts)  # wrapped on 2 lines


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
    s = _one_turn(4)
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


def test_no_label_of_the_panel_is_cut():
    """Every name is drawn whole (the token row read "Windmi", villages "Wandering Kni.")
    and every text inside a box fits its box (widths by ``render.svg.text_width``)."""
    box = lm.load_box()
    longest = sorted(box.cards, key=lambda k: (-len(box.cards[k].name), k))
    icons = [k for k in longest[11:] if box.cards[k].icons][:4]  # only cards with a resource icon develop
    t = lm.position(hands=[longest[:5], ["granary"]], villages=[longest[5:11], longest[:2]], gold=[3, 3],
                    developed=[icons, []], tokens=[{k: 1 for k in box.landmarks}, {}], lead="harvest")
    prims = panel_scene(t)[0]
    texts = [p for p in prims if isinstance(p, Text)]
    drawn = " ".join(p.text for p in texts)
    for k in longest[:11] + icons:
        assert box.cards[k].name in drawn, box.cards[k].name
    for lt in box.landmarks.values():
        whole = sum(p.text == lt.name for p in texts)
        wrapped = sum(f"{a.text} {b.text}" == lt.name and a.x == b.x for a, b in zip(texts, texts[1:]))  # "Ward / Tower"
        assert whole + wrapped >= 1 + t.players, lt.name  # the card and each band's token
    rects = [p for p in prims if isinstance(p, Rect)]
    checked = 0
    for p in texts:
        inside = [r for r in rects if r.x <= p.x <= r.x + r.w and r.y <= p.y <= r.y + r.h]
        if not inside:
            continue
        r = min(inside, key=lambda r: r.w * r.h)  # the box the text sits in
        if r.w > 300:
            continue  # a player's band: its free texts are checked below
        assert text_width(p.text, p.size) <= r.w, (p.text, p.size, r.w)
        checked += 1
    assert checked > 30
    # the token names under the circles (in the bands, below the card row): neighbours never overlap
    tokens = sorted((p for p in texts if p.y > 100 and any(p.text in lt.name.split(" ") + [lt.name]
                                                          for lt in box.landmarks.values())),
                    key=lambda p: (p.y, p.x))
    assert len(tokens) >= 2 * len(box.landmarks)
    for a, b in zip(tokens, tokens[1:]):
        if a.y == b.y:
            assert text_box(a)[2] < text_box(b)[0], (a.text, b.text)
    # the hand, under the village, fits the band's width
    hand = [p for p in texts if p.text.startswith("hand:")]
    assert hand and all(text_box(p)[2] <= 900 - 16 for p in hand)


def test_fitted_text_shrinks_then_wraps_and_never_cuts():
    assert fitted_text(0, 0, "Windmill", 60, 10) == [Text(0, 0, "Windmill", 10)]     # 48 px: as it is
    (one,) = fitted_text(0, 0, "Ward Tower", 38, 8, max_lines=1, min_size=6)           # 48 px at 8: shrunk
    assert one.text == "Ward Tower" and one.size == pytest.approx(38 / 6) and text_width(one.text, one.size) <= 38
    (big,) = fitted_text(0, 0, "Castle Grounds", 80, 12, max_lines=1)                  # 100.8 px at 12: down to 80
    assert big.size == pytest.approx(80 / 8.4)
    assert [p.size for p in fitted_text(0, 0, "Ward Tower", 38, 8, max_lines=1)] == [9.0]  # never below 9 (too wide)
    two = fitted_text(10, 20, "hand: Wandering Knight, Alchemist's Hut", 80, 9)         # wrapped on a space
    assert [p.text for p in two] == ["hand: Wandering Knight,", "Alchemist's Hut"]
    assert two[0].y < 20 < two[1].y and all(p.size == 9.0 for p in two)              # floor MIN_TEXT_PX = 9
    assert " ".join(p.text for p in two) == "hand: Wandering Knight, Alchemist's Hut"


def test_a_new_browser_view_gets_the_panel_drawn_again():
    """Commands sent before a browser view of the canvas exists never reach it (a Voila page,
    a reload): when the view's canvas says it is ready, the panel is drawn again."""
    from haunted_kit import landmarks as lm
    from haunted_kit.landmarks.widgets import LandmarksPanel
    from haunted_kit.widgets import CommandCounter

    panel = LandmarksPanel(lm.new_game(players=3, seed=1))
    before = panel.draws
    with CommandCounter() as cc:
        panel.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert panel.draws == before + 1 and cc.messages >= 1


def _seeded_positions():
    """Positions of random play (2-5 players, several seeds, stopped at different points) and one
    with gold on every castle, Castle Grounds and developed resource, 12 village cards and a long hand."""
    for players in (2, 3, 4, 5):
        for seed in (1, 2, 3):
            s, rng = lm.new_game(players, seed=seed), random.Random(seed)
            stop = rng.randrange(10, 200)
            for _ in range(stop):
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
            yield s
    box = lm.load_box()
    longest = sorted(box.cards, key=lambda k: (-len(box.cards[k].name), k))
    icons = [k for k in longest[21:] if box.cards[k].icons][:4]
    rest = [k for k in longest[21:] if k not in icons]
    yield lm.position(hands=[longest[12:21], ["granary"]], villages=[longest[:12], rest[:2]], gold=[3, 3],
                      developed=[icons, []], grounds=[[1], [0]],
                      spent=[["castle", "developed:0", "developed:3"], []], tokens=[{k: 1 for k in box.landmarks}, {}],
                      lead="harvest")


def test_every_panel_text_is_at_least_9_px_and_no_circle_covers_a_text():
    """Issue 22: texts of 5-8 px (fitted into narrow boxes) and a gold badge over the "s" of
    "Castle Grounds". At the panel's own size every text is >= 9 px, and no circle (gold
    badges, token discs, player discs) overlaps any text's box but its own number's."""
    checked = badges = 0
    for s in _seeded_positions():
        prims, width, height = panel_scene(s)
        texts = [p for p in prims if isinstance(p, Text)]
        assert min(p.size for p in texts) >= 9.0, [(p.text, p.size) for p in texts if p.size < 9]
        for c in (p for p in prims if isinstance(p, Circle)):
            disc = (c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r)
            for t in texts:
                if (t.x, t.y) != (c.x, c.y):  # the circle's own number
                    assert not boxes_overlap(disc, text_box(t)), (t.text, c)
                    checked += 1
            badges += c.r == 7
        for t in texts:  # inside the picture
            x0, y0, x1, y1 = text_box(t)
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, t
    assert badges >= 5 and checked > 1000


def test_a_full_village_and_long_hand_wrap_instead_of_shrinking():
    s = list(_seeded_positions())[-1]
    texts = [p for p in panel_scene(s)[0] if isinstance(p, Text)]
    drawn = " ".join(p.text for p in texts)
    for k in (s.villages[0] + s.hands[0]):
        assert s.box.cards[k].name in drawn
    p2 = next(p.y for p in texts if p.text.startswith("P2 "))
    village_rows = {p.y for p in texts if p.text.endswith("VP") and p.y < p2}  # P1's band
    assert len(village_rows) == 2  # 12 cards: 8 on the first row, 4 on the second
    # "Wandering Knight" keeps padding in its box: 86.4 px of text in 96 px
    knight = [p for p in texts if p.text == "Wandering Knight"]
    assert knight and all(p.size == 9.0 and text_width(p.text, p.size) <= 96 - 8 for p in knight)


def test_the_step_views_panel_keys_only_what_p1_sees_at_each_step():
    """The record stepper's panel (seen by P1) keys exactly the cards P1 sees at the step
    shown: every village's and developed row's cards and P1's own hand, never a card only
    another hand holds."""
    s = _one_turn(4)
    view = RecordStepView(s, viewer=0)
    w = view.panel.whatis
    cards = {c.name for c in s.box.cards.values()}
    hid = 0
    for k in (0, len(view) // 2, len(view) - 1):
        view.show(k)
        at = view.steps[k][1]
        public = [c for v in at.villages for c in v] + [c for d in at.developed for c in d]
        sees = {at.box.cards[c].name for c in public + list(at.hands[0])}
        keyed = {c for e in w.shown for c in e.codes if c in cards}
        assert keyed == sees, k
        others = {at.box.cards[c].name for p in (1, 2) for c in at.hands[p]} - sees
        hid += len(others)
        assert not any(f"<b>{escape(card)}</b>" in w.key.value for card in others)
    assert hid, "no other hand held a card P1 sees nowhere: nothing was hidden"
    text = next(p for p, _c in w._texts if p.text.startswith("hand: "))
    assert w.answer_at(text.x, text.y).startswith('What is this? "hand: ')
