"""The kinds of fault a student met in the exercises of every game (01-05, 08, 09), each
checked over every game's exercises: an empty Check is never an answer nor a try, the
rule step never gives the answer away, the two wrong-answer steps are headed apart, the
kit's rulings are cited as the kit's, the boards name the cells the questions name, the
"?" mark leaves the cell's letter readable, out-of-range numbers are refused, New
exercise shows every part of the new exercise at once, and every game's play view cites
the kit's rulings as the kit's."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from haunted_kit import hexgrid
from haunted_kit.estate import actions as EA
from haunted_kit.estate.draw import NAME_SCALE, board_primitives, land_geometry
from haunted_kit.estate.scenario import position as estate_position
from haunted_kit.estate.widgets import EstatePlayView
from haunted_kit.estate.exercises import EXERCISES as ESTATE
from haunted_kit.estate.widgets import exercise as estate_exercise
from haunted_kit.games import game_module
from haunted_kit.exercises import COMMON_KEEP, NONE_OF_THEM, ExerciseError, ExerciseSet, cite_rulings
from haunted_kit.haunted import pathfinding as pf
from haunted_kit.haunted.draw.scene import highlight_layer, terrain_layer
from haunted_kit.haunted.exercises import EXERCISES as HAUNTED
from haunted_kit.haunted.widgets.exercise import ExerciseWidget as HauntedWidget
from haunted_kit.haunted.widgets.exercise import exercise as haunted_exercise
from haunted_kit.haunted.widgets.play import PlayView as HauntedPlayView
from haunted_kit.landmarks.exercises import EXERCISES as LANDMARKS
from haunted_kit.landmarks.widgets import LandmarksPlayView
from haunted_kit.landmarks.widgets import exercise as landmarks_exercise
from haunted_kit.render import style as S
from haunted_kit.render.primitives import Circle, Text
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.exercise import ExerciseWidget
from ruletools import games_with_module

GAMES = [pytest.param(HAUNTED, haunted_exercise, id="haunted"), pytest.param(ESTATE, estate_exercise, id="estate"),
         pytest.param(LANDMARKS, landmarks_exercise, id="landmarks")]
ALL = [pytest.param(sets, key, id=key) for sets in (HAUNTED, ESTATE, LANDMARKS) for key in sets]
BARE_RULING = re.compile(r"(?<!kit )\brulings? E?\d")


def _wrong(ex):
    """A wrong answer of the exercise's kind that the exercise can read."""
    if ex.kind == "number":
        return ex.answer + 1
    if ex.kind == "choose":
        return next(o for o in ex.options if o != ex.answer)
    if ex.kind == "pick":
        return (frozenset(ex.options[:-1]) - ex.answer) or frozenset({NONE_OF_THEM})
    far = next(c for c in ex.state.field.cells if c not in ex.answer)
    return set(ex.answer) | {far}


@pytest.mark.parametrize("sets, widget", GAMES)
def test_an_empty_check_is_never_an_answer_nor_a_try(sets, widget):
    with capture_errors() as caught:
        for key in sets:
            w = widget(key, 1)
            if w.ex.kind == "number":
                assert w.number.value == ""                    # an empty box, not a "0" that reads as an answer
            if w.ex.kind == "pick":
                assert w.ex.options[-1] == NONE_OF_THEM and NONE_OF_THEM in w.boxes
            w.b_check.click()
            assert (w.tries, w.solved, w.last) == (0, False, None), key
            assert w.b_answer.disabled and "Right!" not in w.feedback.value and "missing" not in w.feedback.value, key
    assert not caught, caught


def test_none_of_them_is_the_explicit_answer_when_nothing_applies():
    ex = HAUNTED.make("04-learnable", 2)
    assert ex.answer == frozenset()                              # nothing is learnable on this position
    with pytest.raises(ExerciseError, match="none of them"):
        ex.check(set())
    assert ex.check({NONE_OF_THEM}).correct and ex.right_response() == {NONE_OF_THEM}
    with pytest.raises(ExerciseError, match="cannot go with another choice"):
        ex.check({NONE_OF_THEM, ex.options[0]})
    wrong = ex.check({ex.options[0]})
    assert not wrong.correct and wrong.text.startswith("That is not the right set of choices. Look at: where P1 stands")
    assert ex.check({ex.options[0]}, tries=1).text == (
        "skill 3: not legal. Skill 3 costs food and food; it needs 2 food but P1 has 0 food (rulebook: Additional "
        "Actions: Learning). Check each option you did not tick against the place, the tokens and the cost.")
    some = HAUNTED.make("01-which-building", 1)          # answer: mill and noria; "none of them" gets no count
    assert some.answer == {"mill", "noria"} and some.check({NONE_OF_THEM}).text == (
        "That is not the right set of choices. Look at: the terrain each building needs (a noria needs a lake next "
        "to the cell), and whether a ghost stands on the cell (rulebook: \"Buildings\").")


@pytest.mark.parametrize("sets, key", ALL)
def test_the_rule_step_never_gives_the_answer(sets, key):
    for seed in (1, 2, 3):
        ex = sets.make(key, seed)
        got = _wrong(ex)
        text = ex.check(got, tries=1).text
        assert ex.check(got, tries=1).stage == "rule"
        if ex.kind == "number":
            assert f"not {got}" not in text and f"at most {ex.answer} " not in text, (key, seed, text)
            assert not re.search(rf"\b(?:holds|scores) {ex.answer}\b", text), (key, seed, text)
        if ex.kind == "pick":
            said = text.replace(ex.rule if isinstance(ex.rule, str) else "", "")   # what is said of this answer
            for label in ex.answer - got:                      # an allowed option not given is never named
                assert not re.search(r"(?<!\w)" + re.escape(label) + r"(?!\w)", said), (key, seed, label, said)


@pytest.mark.parametrize("sets, widget", GAMES)
def test_the_two_wrong_steps_are_headed_apart_and_name_the_section_once(sets, widget):
    with capture_errors() as caught:
        for key in sets:
            w = widget(key, 1)
            got = _wrong(w.ex)
            w.submit(got)
            nudge = w.feedback.value
            w.submit(got)
            rule = w.feedback.value
            heads = type(w).HEADS
            assert heads["nudge"][0] != heads["rule"][0]
            assert f"<b>{heads['nudge'][0]}</b> (try 1)" in nudge and f"<b>{heads['rule'][0]}</b> (try 2)" in rule
            section = w.ex.section.replace('"', "&quot;")
            assert nudge.count(section) == 1, (key, nudge)
    assert not caught, caught
    assert ExerciseWidget.HEADS["nudge"][0] == HauntedWidget.HEADS["nudge"][0] == "Not quite: a hint"


@pytest.mark.parametrize("sets, key", ALL)
def test_kit_rulings_are_cited_as_the_kits(sets, key):
    for seed in (1, 2, 3):
        ex = sets.make(key, seed)
        got = _wrong(ex)
        said = [ex.check(got).text, ex.check(got, tries=1).text, ex.answer_text(), sets.teacher_note(key, seed)]
        said += [cite_rulings(f) for f in ex.fact_lines()]           # as the widget shows them
        for text in said:
            assert not BARE_RULING.search(text), (key, seed, text)
    assert cite_rulings("they add up (ruling 32).") == "they add up (kit ruling 32)."
    assert cite_rulings("rulings 1 and 8") == "kit rulings 1 and 8"
    # a citation written with the repository's path loses it: no page can open the file (its words open in place)
    assert cite_rulings("(kit ruling E3, docs/RULINGS.md); kit ruling 32 (docs/RULINGS.md) says") == "(kit ruling E3); kit ruling 32 says"


def test_every_slot_a_question_names_is_written_on_its_board():
    for seed in range(1, 8):
        ex = ESTATE.make("08-slots", seed)
        written = {p.text for p in board_primitives(ex.state, land_geometry(ex.state.box)) if isinstance(p, Text)}
        for label in ex.options[:-1]:
            q, r = (int(x) for x in re.findall(r"-?\d+", label))
            assert S.cell_name((q, r)) in written, (seed, label)
        assert {S.cell_name(slot) for slot in ex.state.box.slots} <= written
    assert S.cell_name((-2, 1)) == "-2,1" and ESTATE.make("08-slots", 1).options[0] == "slot -2,1"


def test_the_question_mark_leaves_the_cells_letter_readable():
    ex = HAUNTED.make("01-entry-cost", 1)
    (cell, mark), = ex.highlight.items()
    field = ex.state.field
    geom = HauntedWidget(ex).field.geom
    i = field.cells.index(cell)
    label = next(p for p in terrain_layer(field, geom, True, True)
                 if isinstance(p, Text) and p.text.endswith(S.cell_name(cell)) and
                 abs(p.x - geom.centres[i][0]) < 1e-6)
    ring = next(p for p in highlight_layer(field, geom, ex.highlight) if isinstance(p, Circle))
    half_w = 0.6 * label.size * len(label.text) / 2          # a generous text width
    apart_x = abs(ring.x - label.x) >= half_w + ring.r
    apart_y = abs(ring.y - label.y) >= label.size / 2 + ring.r
    assert apart_x or apart_y, (ring, label)


@pytest.mark.parametrize("sets, key", [p for p in ALL if p.values[0].make(p.values[1], 1).kind == "number"])
def test_numbers_out_of_range_are_refused_not_counted(sets, key):
    ex = sets.make(key, 1)
    with pytest.raises(ExerciseError, match="cannot be the answer here"):
        ex.check(-1)
    assert ex.check(ex.answer).correct


def test_production_counts_are_bounded_by_the_buildings_that_stand():
    ex = HAUNTED.make("02-production", 1)
    built = sum(1 for b in ex.state.building if b >= 0)
    with pytest.raises(ExerciseError, match=rf"from 0 to {built}"):
        ex.check(built + 1)
    assert set(ex.facts["resources"]) == set(range(ex.state.config.players))   # the holdings are shown


def test_gold_after_a_take_shows_the_materials_income():
    seen = 0
    for seed in range(1, 15):
        ex = ESTATE.make("08-gold-after", seed)
        m = getattr(ex.about, "material", None)
        if m is not None and type(ex.about).__name__ == "TakeMaterial":
            seen += 1
            assert any(f"{m} income: {ex.state.income[ex.player][m]}" in f for f in ex.fact_lines()), (seed, ex.facts)
    assert seen


def test_wording_agrees_with_the_position():
    for seed in range(1, 10):
        ch = HAUNTED.make("05-cheapest", seed)
        p, here = ch.player, ch.state.field.cells[ch.state.sensor[ch.player]]
        (target,) = ch.highlight
        route = pf.cheapest_path(ch.state, p, target)
        text = ch.check(ch.answer + 1, tries=1).text
        assert ("detour is cheaper" in text) == (len(route.cells) - 1 > hexgrid.distance(here, target)), (seed, text)
        assert "(1 tokens)" not in HAUNTED.make("05-turns", seed).check(0, tries=1).text
        qs = HAUNTED.make("04-quest-score", seed)
        assert "per 1," not in qs.check(qs.answer + 1, tries=1).text
    assert "panel" not in HAUNTED.make("01-first-player", 1).question


@pytest.mark.parametrize("sets, widget", GAMES)
def test_new_exercise_shows_every_part_at_once(sets, widget):
    key = next(iter(sets))
    with capture_errors() as caught:
        w = widget(key, 1)
        seen = []

        def on_children(change):
            title, question = w.title, w.question
            seen.append((title in change["new"], question in change["new"], f"seed {w.ex.seed}" in title.value,
                         w.ex.question.split()[0] in question.value))

        w.body.observe(on_children, "children")  # the parts shown; the buttons' row is kept
        shown = [(part, part.value) for part in (w.title, w.facts, w.question)]
        w.b_new.click()
        assert seen == [(True, True, True, True)]         # one change of the view, every part already new
        # the parts on view were never changed in place (a view never shows a new title by an old question)
        assert all(part.value == value for part, value in shown)
    assert not caught, caught


PLAY_VIEWS = {"haunted": HauntedPlayView, "estate": EstatePlayView, "landmarks": LandmarksPlayView}


@pytest.mark.parametrize("name", [n for n in games_with_module("widgets") if n in PLAY_VIEWS])
def test_play_views_cite_kit_rulings_as_the_kits(name):
    with capture_errors() as caught:
        view = PLAY_VIEWS[name](seed=1, bots=[], hints=False)
        view.say("P1 already visited the Market this season (one visit a season: ruling E10)", "refusal")
        assert view.message == "P1 already visited the Market this season (one visit a season: kit ruling E10)"
        view.say("they add up (rulings 1 and 8); ruling 32 says so")
        assert view.message == "they add up (kit rulings 1 and 8); kit ruling 32 says so"
    assert not caught, caught


def test_the_estates_second_market_visit_is_refused_citing_the_kits_ruling():
    with capture_errors() as caught:
        view = EstatePlayView(estate_position(2, visited={0: True}), bots=[], hints=False)
        assert not view.attempt(EA.VisitMarket())
        assert view.message == ("Not allowed: visit the Market: P1 already visited the Market this season (one visit "
                                "a season: kit ruling E10) (estate rules: Market actions)")
        assert "kit ruling E10)" in view.message_label.value and "RULINGS" not in view.message_label.value
    assert not caught, caught


@pytest.mark.parametrize("size", [34, 26, 20])
def test_slot_names_on_the_estate_board_are_readable(size):
    ex = ESTATE.make("08-slots", 1)
    prims = board_primitives(ex.state, land_geometry(ex.state.box, size))
    names = [p for p in prims if isinstance(p, Text) and p.text in {S.cell_name(slot) for slot in ex.state.box.slots}]
    assert len(names) == len(ex.state.box.slots)
    assert min(p.size for p in names) >= 9                 # was 0.2 * size: 6.8 px at the default 34, 5.2 at 26
    assert min(p.size for p in names) == max(9, NAME_SCALE * size) and NAME_SCALE >= 0.3


@pytest.mark.parametrize("key", list(ESTATE))
def test_the_estate_exercise_board_is_drawn_with_12_px_text(key):
    """The estate's exercise board is drawn as its play view's (every text at least 12 px at its own
    size: readable on a laptop, where it may not scale up, and on a phone), so its canvas says so."""
    from haunted_kit.estate.widgets import exercise
    from haunted_kit.widgets.canvas import PHONE_TEXT_PX, READABLE_CLASS

    w = exercise(key, 1)
    least = min(p.size for p in board_primitives(w.ex.state, w.board.geom) if isinstance(p, Text))
    assert least >= PHONE_TEXT_PX and READABLE_CLASS in w.board.canvas._dom_classes, (key, least)


def _set_wrongs(ex) -> list:
    """Several different wrong answers to a set exercise (pick or cells) that it can read."""
    if ex.kind == "pick":
        opts = [o for o in ex.options if o != NONE_OF_THEM]
        tries = [frozenset(opts), frozenset(opts[:1]), frozenset(opts[1:2]), frozenset(opts[-1:]), frozenset({NONE_OF_THEM})]
    else:
        ans = sorted(ex.answer)
        far = [c for c in ex.state.field.cells if c not in ex.answer][:2]
        tries = [frozenset(ans[1:]) or frozenset(far[:1]), frozenset(ans) | {far[0]}, frozenset(far)]
    return [t for t in tries if ex.normalise(t) != ex.answer]


SETS = [pytest.param(sets, key, id=key) for sets in (HAUNTED, ESTATE, LANDMARKS) for key in sets
        if sets.make(key, 1).kind in ("pick", "cells")]


def test_every_game_has_set_exercises_to_check():
    assert {s.values[0] for s in SETS} == {HAUNTED, ESTATE, LANDMARKS}


@pytest.mark.parametrize("sets, key", SETS)
def test_a_set_answers_first_nudge_tells_nothing_of_the_answer(sets, key):
    # issue 22: "1 choice you selected does not belong; 4 are missing" among five landmarks gave the
    # answer away. The nudge is the same whatever wrong set was given: what to check and the section.
    for seed in (1, 2, 3, 4):
        ex = sets.make(key, seed)
        nudges = {ex.check(w).text for w in _set_wrongs(ex)}
        assert len(nudges) == 1, (key, seed, nudges)
        nudge = nudges.pop()
        assert ex.section in nudge and not re.search(r"\d+ (?:are|is) missing|does not belong|do not belong|left out",
                                                     nudge), nudge
        for w in _set_wrongs(ex):                     # the rule step names only what was given, never counts
            said = ex.check(w, tries=1).text
            assert not re.search(r"\bleft out \d|\d+ (?:are|is) missing|\d+ (?:cells?|choices?) you", said), said
            if ex.kind == "pick":
                for label in ex.answer - ex.normalise(w):
                    assert not re.search(r"(?<!\w)" + re.escape(label) + r":", said), (key, seed, label, said)


TUPLE = re.compile(r"\(-?\d+,")


@pytest.mark.parametrize("sets, key", ALL)
def test_exercise_texts_write_cells_the_kits_way(sets, key):
    # issue 22: feedback showed Python tuples "((0, 2))" and "(-2, 1)"; the kit writes a cell "0,2"
    for seed in range(5):
        ex = sets.make(key, seed)
        wrongs = _set_wrongs(ex)[:2] if ex.kind in ("pick", "cells") else [_wrong(ex)]
        texts = [ex.question, *ex.fact_lines(), *map(str, ex.options), ex.answer_text(), ex.why_text(),
                 sets.teacher_note(key, seed)]
        texts += [ex.check(w, tries=t).text for w in wrongs for t in (0, 1)]
        for text in texts:
            assert not TUPLE.search(text), (key, seed, text)


@pytest.mark.parametrize("game", games_with_module("exercises"))
def test_no_answer_is_a_safe_guess_over_200_seeds(game):
    # issue 22: 08-take-limit's answer was 0 in 3 of the 4 seeds a student saw. Over 200 seeds no
    # single answer is given by more than 60% of an exercise's positions, in every game.
    sets = game_module(game, "exercises").EXERCISES
    for key in sets:
        answers = Counter(sets.make(key, seed).answer for seed in range(200))
        answer, count = answers.most_common(1)[0]
        assert count <= 120, (key, answer, count)
    if sets.common:                                   # the common answer is still asked, on fewer seeds
        key, common = next(iter(sets.common.items()))
        assert any(sets.make(key, seed).answer == common for seed in range(0, 30, COMMON_KEEP))


def test_a_common_answer_is_kept_on_one_seed_in_three():
    # 08-take-limit: 0 is the answer of seed 1's position; seed 1 is not kept (1 % 3), seed 3's is
    plain = ExerciseSet({k: ESTATE[k] for k in ESTATE}, rebuild=ESTATE.rebuild)
    assert plain.make("08-take-limit", 1).answer == 0 and plain.make("08-take-limit", 1).seed == 1
    ex = ESTATE.make("08-take-limit", 1)
    assert ex.seed > 1 and (ex.answer != 0 or ex.seed % COMMON_KEEP == 0)
    with pytest.raises(ValueError, match=r"common answers for unknown exercises \['nope'\]"):
        ExerciseSet({}, common={"nope": 0})


@pytest.mark.parametrize("size", [34, 26])
def test_every_text_on_the_estate_board_is_readable(size):
    # issue 22: "lower", the tile codes and the marker digits were 5-8 px on notebook 08's boards
    seen = 0
    for seed in range(1, 6):
        s = ESTATE.make("08-gold-after", seed).state
        texts = [p for p in board_primitives(s, land_geometry(s.box, size)) if isinstance(p, Text)]
        assert texts and min(p.size for p in texts) >= 9, sorted({(p.text, p.size) for p in texts if p.size < 9})
        markers = [p for p in board_primitives(s, land_geometry(s.box, size)) if isinstance(p, Circle) and p.fill in
                   {S.player_colour(q) for q in range(s.players)}]
        assert all(c.r >= 6.5 for c in markers)   # a marker holds its 9 px digit
        seen += len(markers)
    assert seen, "no marker drawn: the check above checked nothing"


def test_the_estate_players_table_keeps_its_columns_apart():
    from haunted_kit.estate.widgets import players_html
    html = players_html(estate_position(players=2))
    cells = re.findall(r"<t[dh] style=\"([^\"]*)\">", html)
    assert cells and all("padding:2px 6px" in c for c in cells)
    assert len(cells) == 7 * 3                              # a head row and two players, seven columns each
    assert all(re.match(r"flex:[01] [01] [\d.]+em", c) for c in cells)  # and each keeps its column's width


DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)


@pytest.mark.parametrize("sets, key", ALL)
def test_no_exercise_says_a_word_twice_in_a_row_nor_writes_a_cell_as_python_does(sets, key):
    """'the cell cell 3,-3' (a text that names a cell, then the kit's cell name) was the
    example; the kind is any word doubled, in any part an exercise shows."""
    for seed in range(12):
        ex = sets.make(key, seed)
        got = _wrong(ex)
        parts = [ex.question, ex.check(got).text, ex.check(got, tries=1).text, ex.answer_text(), ex.why_text(),
                 *ex.fact_lines()]
        for text in parts:
            assert not DOUBLED.search(text), (key, seed, DOUBLED.search(text).group(0), text)
            assert not re.search(r"\(-?\d+, -?\d+\)", text), (key, seed, text)
