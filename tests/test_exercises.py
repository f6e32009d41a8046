"""Exercises (haunted_kit.haunted.exercises) and their widget: every answer checked against the
engine independently (apply the action on a copy, or recount from the log)."""

from __future__ import annotations

import json
import re

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted import pathfinding as pf
from haunted_kit.haunted.exercises import EXERCISES, FACTS, TEACHER_DIR, ExerciseError, for_notebook, make, rebuild
from haunted_kit.haunted.widgets.exercise import exercise
from haunted_kit.render.style import cell_name, name_cells
from haunted_kit.exercises import sentence_case

SEEDS = range(5)
#: seeds per exercise for the fairness property in the fast run (the slow test runs 500)
FAIR_SEEDS = range(30)


def applies(s, action) -> bool:
    c = s.copy()
    try:
        c.apply_action(action)
        return True
    except hk.IllegalAction:
        return False


def test_three_exercises_per_notebook_01_to_05():
    assert [len(for_notebook(f"0{n}")) for n in range(1, 6)] == [3, 3, 3, 3, 3]
    assert len(EXERCISES) == 15


@pytest.mark.parametrize("key", list(EXERCISES))
def test_seeded_and_regenerable(key):
    a, b = make(key, 3), make(key, 3)
    assert (a.question, a.answer, a.options) == (b.question, b.answer, b.options)
    assert a.regenerate().seed >= 4 and a.regenerate(9).seed >= 9 and a.regenerate().seed != a.seed
    assert a.check(a.right_response()).correct and a.hint and a.mistake and a.section


@pytest.mark.parametrize("seed", SEEDS)
def test_cell_answers_are_exactly_the_cells_the_engine_accepts(seed):
    for key, action in (("02-spread-cells", A.PlaceGhost), ("03-explore-cells", A.Explore)):
        ex = make(key, seed)
        s = ex.state
        for cell in s.field.cells:
            assert (cell in ex.answer) == applies(s, action(cell)), (key, seed, cell)


@pytest.mark.parametrize("seed", SEEDS)
def test_pick_answers_agree_with_applying_on_a_copy(seed):
    ex = make("01-which-building", seed)
    for b in ex.options[:-1]:                     # the last is "none of them"
        assert (b in ex.answer) == applies(ex.state, A.Build(b))
    ex = make("04-learnable", seed)
    for label in ex.options[:-1]:
        assert (label in ex.answer) == applies(ex.state, A.Learn(int(label.split()[1])))
    ex = make("03-legal-actions", seed)
    by_label = {name_cells(a.describe()): a for a in ex.state.legal_actions()}
    for label in ex.answer:
        assert label in by_label


@pytest.mark.parametrize("seed", SEEDS)
def test_number_answers_against_an_independent_count(seed):
    ex = make("03-sale", seed)
    sale = next(a for a in ex.state.legal_actions() if isinstance(a, A.Sell) and a.describe() in ex.question)
    c = ex.state.copy()
    c.apply_action(sale)
    assert ex.answer == c.pecunias(0) - ex.state.pecunias(0)
    ex = make("02-production", seed)
    s = ex.state
    start = max(i for i, e in enumerate(s.log) if e.kind == "round_started")
    # recount by the rule (ghost card 1): a building produces unless a neighbour holds a ghost
    ghosts_then = s.ghosts  # production ran right after this round's spread; turns have not started
    assert s.turn_pos == 0
    standing = [i for i, b in enumerate(s.building) if b >= 0]
    assert ex.answer == sum(1 for i in standing if not any(ghosts_then[n] for n in s.field.neighbours[i]))
    assert ex.answer == sum(1 for e in s.log[start:] if e.kind == "production")
    ex = make("05-cheapest", seed)
    target = next(c for c, v in ex.highlight.items())
    import networkx as nx
    m = pf.cost_map(ex.state, ex.player)
    assert ex.answer == nx.dijkstra_path_length(m.digraph, ex.state.field.cells[ex.state.sensor[ex.player]], target)


def test_a_wrong_answer_gets_the_engines_reason_and_section():
    ex = make("03-explore-cells", 1)
    here = ex.state.field.cells[ex.state.sensor[ex.player]]
    far = next(c for c in ex.state.field.cells if c not in ex.answer and c != here)
    fb = ex.check(set(ex.answer) | {far}, attempt=2)
    refusal = ex.state.why_not(A.Explore(far))
    assert not fb.correct and sentence_case(". " + name_cells(refusal.text))[2:] in fb.text and fb.section == "Basic Actions: Exploration"


def test_bad_answers_and_keys_are_clear_errors():
    with pytest.raises(ExerciseError, match="unknown exercise 'nope'"):
        make("nope")
    with pytest.raises(ExerciseError, match="seed must be"):
        make("03-sale", -1)
    with pytest.raises(ExerciseError, match="whole number"):
        make("03-sale", 0).check("many")
    with pytest.raises(ExerciseError, match="choose one of"):
        make("02-next-first", 0).check("P9")


def test_widget_steps_nudge_then_rule_then_answer_on_request():
    w = exercise("03-sale", seed=2)
    assert w.b_answer.disabled and w.number.value == ""          # the number box starts empty
    w.reveal()
    assert "Have a try first" in w.feedback.value
    w.b_check.click()                                              # nothing entered: not an answer, not a try
    assert "Enter a whole number first" in w.feedback.value and w.tries == 0 and w.b_answer.disabled
    w.number.value = str(w.ex.answer + 1)
    w.b_check.click()
    assert "Not quite: a hint</b> (try 1)" in w.feedback.value
    assert w.feedback.value.count("Additional Actions: Selling") == 1      # the section named once
    assert f"{w.ex.answer + 1} is too high" in w.feedback.value and w.ex.answer_text() not in w.feedback.value
    first = w.feedback.value
    w.b_check.click()
    assert w.tries == 2 and "the rule on this position</b> (try 2)" in w.feedback.value and w.feedback.value != first
    assert "market card" in w.feedback.value and w.ex.answer_text() not in w.feedback.value
    w.b_answer.click()
    assert f"The answer: {w.ex.answer}" in w.feedback.value
    w.number.value = str(w.ex.answer)
    w.b_check.click()
    assert w.solved and "Right!" in w.feedback.value
    seed = w.ex.seed
    w.b_new.click()
    assert w.ex.seed > seed and w.tries == 0 and w.feedback.value == "" and w.number.value == ""


def test_widget_cells_are_selected_by_clicking_the_board():
    w = exercise("03-explore-cells", seed=0)
    assert w.field.show_coords                                     # the cells' names are written on the board
    for cell in w.ex.answer:
        w.field.click_cell(cell)
    assert w.selected == set(w.ex.answer)
    w.b_check.click()
    assert w.solved
    w.field.click_cell(next(iter(w.ex.answer)))       # unselect one: now wrong
    w.b_check.click()
    # the nudge neither counts nor names what is missing
    assert "Those are not the right cells. Look at: the six neighbouring cells only" in w.feedback.value
    assert "missing" not in w.feedback.value and "left out" not in w.feedback.value


def test_widget_shows_the_facts_the_board_does_not_draw():
    ex = next(make("05-cheapest", s) for s in range(10) if make("05-cheapest", s).state.config.mode == "citizen")
    w = exercise("05-cheapest", seed=ex.seed)
    assert "What you know" in w.facts.value and "Citizen mode: ghost card 3 in play." in w.facts.value
    assert f"exploration {ex.facts['tokens'][ex.player]['exploration'][1]} active of" in w.facts.value


def test_teacher_copies_are_current_and_answer_every_exercise(tmp_path):
    from pathlib import Path

    from haunted_kit.cli import main

    root = Path(__file__).resolve().parent.parent / "notebooks"
    assert main(["teacher", "--notebooks", str(root), "--out", str(tmp_path)]) == 0
    fresh = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert fresh == ["01_components_and_setup.ipynb", "02_a_round_step_by_step.ipynb", "03_actions.ipynb",
                     "04_skills_quests_scoring.ipynb", "05_pathfinding.ipynb",
                     "08_estate_and_market.ipynb", "09_landmarks_and_architects.ipynb"]   # every game's exercises
    def notes(path):
        nb = json.loads(path.read_text(encoding="utf-8"))
        return ["".join(c["source"]) for c in nb["cells"] if c.get("id", "").startswith("teacher-")]

    for name in fresh:
        committed = notes(root / TEACHER_DIR / name)
        assert committed == notes(tmp_path / name), f"run `haunted-kit teacher`: the notes of {name} are stale"
        assert all("The answer:" in n and "First wrong try" in n for n in committed if "Teacher's note" in n)
        assert sum("Teacher's note" in n for n in committed) == 3 and sum("Common mistake" in n for n in committed) == 3
        nb = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


def test_teacher_copies_go_to_a_folder_the_file_browser_hides(tmp_path, capsys):
    """By default the copies land in NOTEBOOKS/.teacher: JupyterLab's file browser hides
    dot-folders, so the answers are not one click from the students' notebooks."""
    import shutil
    from pathlib import Path

    from haunted_kit.cli import main

    assert TEACHER_DIR == ".teacher"
    root = Path(__file__).resolve().parent.parent / "notebooks"
    shutil.copy(root / "03_actions.ipynb", tmp_path / "03_actions.ipynb")
    shutil.copy(root / "00_start_here.ipynb", tmp_path / "00_start_here.ipynb")   # no exercise: no copy
    assert main(["teacher", "--notebooks", str(tmp_path)]) == 0
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.ipynb")) == [
        ".teacher/03_actions.ipynb", "00_start_here.ipynb", "03_actions.ipynb"]
    assert capsys.readouterr().out == f"wrote {tmp_path / '.teacher' / '03_actions.ipynb'}\n"
    # and nothing stored outside the hidden folder holds a teacher's note
    stored = [p for p in root.rglob("*.ipynb") if "Teacher's note" in p.read_text(encoding="utf-8")]
    assert stored and all(p.parent.name == ".teacher" for p in stored)


def test_teacher_command_misuse(tmp_path, capsys):
    from haunted_kit.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["teacher", "--notebooks", str(tmp_path / "none")])
    assert exc.value.code == 2 and "no such folder" in capsys.readouterr().err
    assert main(["teacher", "--notebooks", str(tmp_path)]) == 0
    assert "nothing written" in capsys.readouterr().out


# ----------------------------------------------------------------------------- fairness

def fair(key, seed):
    """The exercise's answer, recomputed by the engine on a position rebuilt from the
    facts it declares (and shows) alone, equals its answer."""
    ex = make(key, seed)
    assert set(ex.facts) <= set(FACTS) and ex.facts.get("players")
    return ex.solve(rebuild(ex.facts)) == ex.answer


@pytest.mark.parametrize("key", list(EXERCISES))
def test_every_answer_follows_from_the_facts_shown(key):
    bad = [seed for seed in FAIR_SEEDS if not fair(key, seed)]
    assert bad == [], f"{key}: the answer depends on something not shown at seeds {bad}"


@pytest.mark.slow
@pytest.mark.parametrize("key", list(EXERCISES))
def test_every_answer_follows_from_the_facts_shown_500_seeds(key):
    bad = [seed for seed in range(500) if not fair(key, seed)]
    assert bad == [], f"{key}: the answer depends on something not shown at seeds {bad[:20]}"


@pytest.mark.parametrize("key, hidden, seeds, wrong", [
    ("05-cheapest", "mode", range(20), 7),             # ghost card 3 (Citizen mode) changes the cheapest cost
    ("05-turns", "mode", range(20), 4),
    ("02-next-first", "stack", range(20), 16),         # the valor stack decides ties
    ("01-which-building", "ghosts", range(200), 14),   # a ghost on the sensor's cell forbids building
])
def test_the_fairness_check_catches_a_hidden_fact(key, hidden, seeds, wrong):
    """Hiding one fact changes the recomputed answer on exactly these many seeds: the
    property above can fail, and these facts must be shown."""
    def differs(seed):
        ex = make(key, seed)
        return ex.solve(rebuild({k: v for k, v in ex.facts.items() if k != hidden})) != ex.answer
    assert sum(map(differs, seeds)) == wrong


def test_shown_facts_are_written_out_and_unknown_facts_refused():
    ex = make("03-legal-actions", 1)
    lines = ex.fact_lines()
    p = ex.player
    held = ex.facts["resources"][p]
    assert f"P{p + 1} holds " + ", ".join(f"{k} {r}" for r, k in held.items()) + "." in lines
    assert "P3 has 4 pecunias." in lines and "Season 2, round 2." in lines
    assert "P3's tokens: exploration 4 active of 4, contact 1 active of 1, extraction 1 active of 1, construction 1 active of 1." in lines
    nf = make("02-next-first", 1)          # everyone on 0 valor: the stack decides
    assert "Valor track: 0: P1 under P4 under P2 under P3 (P3 arrived last, on top)." in nf.fact_lines()
    learn = make("04-learnable", 1)        # a known skill is said to be known
    assert "P1 already knows skill 2." in learn.question and "P1 has learned skill 2." in learn.fact_lines()
    with pytest.raises(ExerciseError, match=r"unknown fact\(s\) \['hand'\]"):
        rebuild({"players": 2, "hand": 1})


def test_questions_name_cells_as_the_board_writes_them():
    from haunted_kit.haunted.draw.scene import terrain_layer
    from haunted_kit.haunted.draw.geometry import board_geometry

    ex = make("05-cheapest", 0)
    f = ex.state.field
    texts = [p.text for p in terrain_layer(f, board_geometry(ex.state.config.box, 20), True, True) if hasattr(p, "text")]
    assert len(texts) == len(f.cells) and all(t.endswith(f" {c[0]},{c[1]}") for t, c in zip(texts, f.cells))
    for key in EXERCISES:
        for seed in SEEDS:
            ex = make(key, seed)
            assert "ringed" not in ex.question
            if ex.highlight:
                assert "(tinted, marked ?)" in ex.question


# ----------------------------------------------------------------------------- finished games

def test_no_exercise_on_a_finished_game():
    # the games of seeds 5 and 17 end before 03-legal-actions' position: the next seed is used
    assert make("03-legal-actions", 5).seed == 6 and make("03-legal-actions", 17).seed == 18
    for key in EXERCISES:
        for seed in SEEDS:
            s = make(key, seed).state
            assert s.phase != "over" and not s.lost, (key, seed)
    w = exercise("03-legal-actions", seed=4)
    w.b_new.click()
    assert w.ex.seed == 6                   # 5 is skipped
    w.b_new.click()
    assert w.ex.seed == 7


def test_production_explains_with_the_buildings_that_stand():
    ex = make("02-production", 12)       # 0 is 02-production's common answer: asked on seeds divisible by 3
    built = sum(1 for b in ex.state.building if b >= 0)
    assert ex.seed == 12
    assert built == 3 and ex.answer == 0
    why = ex.why_text()
    assert why.count("is next to a ghost and produces nothing") == 3 and "No building" not in why


# ----------------------------------------------------------------------------- feedback in steps

def test_number_feedback_nudges_then_applies_the_rule_and_never_states_the_answer():
    ex = make("01-entry-cost", 1)           # plain with a ghost, Citizen mode: 1 + 1
    assert ex.answer == 2
    fb = ex.check(3)
    assert (fb.correct, fb.step) == (False, "nudge")
    assert fb.text == ("3 is too high. Look at: the terrain table for the cell you enter, then what "
                       "changes its cost here (rulebook: \"Game Field, Tiles and Terrain Types\").")
    assert ex.check(1).text.startswith("1 is too low.")
    fb = ex.check(3, attempt=2)
    assert fb.step == "rule" and fb.text == (
        "You said 3, which is too high. Plain cell 3,-3 on region tile R03: look up plain in the terrain table; ghost "
        "card 3 in play, and the cell holds a ghost. Add these up for the cell entered, not the cell left.")
    assert ex.check(0, attempt=2).text.startswith("You said 0, which is too low.")
    assert "charges" not in fb.text and ex.answer_text() == "The answer: 2."


def test_cell_feedback_names_the_wrong_cell_only_at_the_second_try():
    ex = make("03-explore-cells", 1)
    here = ex.state.field.cells[ex.state.sensor[ex.player]]
    far = [c for c in ex.state.field.cells if c not in ex.answer and c != here][:2]
    nudge = ex.check(set(ex.answer) | {far[0]})
    assert nudge.text == ("Those are not the right cells. Look at: the six neighbouring cells only: not a lake, and "
                          "not dearer than the active tokens (rulebook: \"Basic Actions: Exploration\").")
    assert ex.check(set(sorted(ex.answer)[1:])).text == nudge.text      # one missing: the same nudge, no count
    a = ex.check(set(ex.answer) | {far[0]}, attempt=2)
    b = ex.check(set(ex.answer) | {far[1]}, attempt=2)
    assert a.text != b.text
    for cell, fb in zip(far, (a, b)):
        refusal = ex.state.why_not(A.Explore(cell))
        assert fb.text == (f"cell {cell_name(cell)}: not allowed. {sentence_case('. ' + name_cells(refusal.text))[2:]} (rulebook: "
                           f"{refusal.section}). Check every cell you did not select: is it one where a neighbour of "
                           "cell 0,-1 costs no more than 4?")
    assert a.text.startswith("cell 1,0: not allowed. Suburb cell 1,0 on Kalena is not adjacent to P2's sensor at "
                             "suburb cell 0,-1 on Kalena; a sensor moves one cell at a time")
    missing = ex.check(set(sorted(ex.answer)[1:]), attempt=2)   # nothing wrong selected, one left out: no count
    assert missing.text == "Check every cell you did not select: is it one where a neighbour of cell 0,-1 costs no more than 4?"
    assert here == (0, -1)


def test_pick_and_choose_feedback_follow_the_answer_given():
    ex = make("04-learnable", 1)            # answer: skill 5
    assert ex.answer == frozenset({"skill 5"})
    nudge = ("That is not the right set of choices. Look at: where P1 stands (learning happens in the suburb), the two "
             "resources on each card, and the skills P1 already knows (rulebook: \"Additional Actions: Learning\").")
    assert ex.check({"skill 2"}).text == nudge
    assert ex.check({"skill 5", "skill 2"}).text == nudge      # the nudge does not tell which way it is off
    assert ex.check({"skill 2"}, attempt=2).text == (
        "skill 2: not legal. P1 has already learned skill 2; a skill is learned only once (rulebook: Skill Cards; "
        "Additional Actions: Learning). Check each option you did not tick against the place, the tokens and the cost.")
    assert ex.check({"skill 9"}, attempt=2).text.startswith("skill 9: not legal. Skill 9 costs food and wood")
    nf = make("02-next-first", 1)
    assert nf.answer == "P3"
    assert nf.check("P1").text.startswith("Not P1. Look at: the valor track")
    assert nf.check("P1", attempt=2).text != nf.check("P2", attempt=2).text


def test_empty_answers_are_not_answers():
    with pytest.raises(ExerciseError, match="Enter a whole number first"):
        make("03-sale", 0).check("")
    with pytest.raises(ExerciseError, match="Enter a whole number first"):
        make("03-sale", 0).check(None)
    with pytest.raises(ExerciseError, match="Choose an answer first: P1, P2, P3, P4."):
        make("02-next-first", 0).check(None)


# ----------------------------------------------------------------------------- only what is in play

def _hint_texts(ex):
    """The nudge and the rule applied for a few wrong answers, and the answer's words."""
    if ex.kind == "number":
        wrongs = [g for g in (ex.answer + 1, ex.answer - 1) if g >= (ex.bounds[0] or 0)]
    elif ex.kind == "choose":
        wrongs = [o for o in ex.options if o != ex.answer][:2]
    elif ex.kind == "pick":
        wrongs = [frozenset(ex.options[:1])] if frozenset(ex.options[:1]) != ex.right_response() else []
    else:
        wrongs = [set(ex.answer) | {c} for c in ex.state.field.cells if c not in ex.answer][:1]
    return [ex.check(w, t).text for w in wrongs for t in (0, 1)] + [ex.answer_text(), ex.why_text()]


@pytest.mark.parametrize("key", list(EXERCISES))
def test_hints_name_only_the_cards_and_skills_in_play(key):
    """A hint speaks of what is in play in that position: every ghost card it names is one in
    play, every skill it names one of the skill cards in play (the seeds cover both modes)."""
    for seed in range(8):
        ex = make(key, seed)
        s = ex.state
        if s is None:
            continue
        cards, skills = set(s.config.ghost_cards), set(s.skills)
        for text in _hint_texts(ex):
            for n in re.findall(r"ghost card (\d+)", text):
                assert int(n) in cards, (ex.seed, n, sorted(cards), text)
            for n in re.findall(r"\bskills? (\d+)", text):
                assert int(n) in skills, (ex.seed, n, sorted(skills), text)


@pytest.mark.parametrize("key", list(EXERCISES))
def test_the_facts_say_what_each_card_in_play_does(key):
    """Every fact an answer needs is on the page in words: a ghost card in play with what it does,
    a market card with what each of its options takes and pays."""
    box = EXERCISES.make(key, 0).state.config.box if EXERCISES.make(key, 0).state is not None else None
    for seed in range(6):
        ex = make(key, seed)
        lines = " ".join(ex.fact_lines())
        if "mode" in ex.facts and box is not None:
            for k in ex.state.config.ghost_cards:
                assert f"Ghost card {k}: {box.ghost_cards[k].text}" in lines, (ex.seed, k, lines)
        if "market" in ex.facts:
            options = box.market_cards[ex.facts["market"]]
            for i, o in enumerate(options, 1):
                assert re.search(rf"option {i} takes {o.count} resources? .*?pays {o.pecunias} pecunias?", lines), (ex.seed, i, lines)
