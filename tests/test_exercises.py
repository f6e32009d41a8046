"""Exercises (haunted_kit.haunted.exercises) and their widget: every answer checked against the
engine independently (apply the action on a copy, or recount from the log)."""

from __future__ import annotations

import json

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted import pathfinding as pf
from haunted_kit.haunted.exercises import EXERCISES, TEACHER_DIR, ExerciseError, for_notebook, make
from haunted_kit.haunted.widgets.exercise import HINT_AFTER, exercise

SEEDS = range(5)


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
    assert a.regenerate().seed == 4 and a.regenerate(9).seed == 9
    assert a.check(a.answer).correct and a.hint and a.mistake and a.section


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
    for b in ex.options:
        assert (b in ex.answer) == applies(ex.state, A.Build(b))
    ex = make("04-learnable", seed)
    for label in ex.options:
        assert (label in ex.answer) == applies(ex.state, A.Learn(int(label.split()[1])))
    ex = make("03-legal-actions", seed)
    by_label = {a.describe(): a for a in ex.state.legal_actions()}
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
    fb = ex.check(set(ex.answer) | {far})
    refusal = ex.state.why_not(A.Explore(far))
    assert not fb.correct and refusal.text in fb.text and fb.section == "Basic Actions: Exploration"


def test_bad_answers_and_keys_are_clear_errors():
    with pytest.raises(ExerciseError, match="unknown exercise 'nope'"):
        make("nope")
    with pytest.raises(ExerciseError, match="seed must be"):
        make("03-sale", -1)
    with pytest.raises(ExerciseError, match="whole number"):
        make("03-sale", 0).check("many")
    with pytest.raises(ExerciseError, match="choose one of"):
        make("02-next-first", 0).check("P9")


def test_widget_hint_after_two_tries_answer_after_an_attempt_then_right():
    w = exercise("03-sale", seed=2)
    assert w.b_answer.disabled
    w.reveal()
    assert "Have a try first" in w.feedback.value
    w.number.value = w.ex.answer + 1
    w.b_check.click()
    assert "Not quite" in w.feedback.value and "Additional Actions: Selling" in w.feedback.value and w.hint_box.value == ""
    assert "sells" in w.feedback.value                         # the event sentence of the real sale
    w.b_check.click()
    assert w.tries == HINT_AFTER and "Hint:" in w.hint_box.value
    w.b_answer.click()
    assert f"The answer: {w.ex.answer}" in w.feedback.value
    w.number.value = w.ex.answer
    w.b_check.click()
    assert w.solved and "Right!" in w.feedback.value
    w.b_new.click()
    assert w.ex.seed == 3 and w.tries == 0 and w.feedback.value == ""


def test_widget_cells_are_selected_by_clicking_the_board():
    w = exercise("03-explore-cells", seed=0)
    for cell in w.ex.answer:
        w.field.click_cell(cell)
    assert w.selected == set(w.ex.answer)
    w.b_check.click()
    assert w.solved
    w.field.click_cell(next(iter(w.ex.answer)))       # unselect one: now wrong
    w.b_check.click()
    assert "Also legal" in w.feedback.value


def test_teacher_copies_are_current_and_answer_every_exercise(tmp_path):
    from pathlib import Path

    from haunted_kit.cli import main

    root = Path(__file__).resolve().parent.parent / "notebooks"
    assert main(["teacher", "--notebooks", str(root), "--out", str(tmp_path)]) == 0
    fresh = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert fresh == ["01_components_and_setup.ipynb", "02_a_round_step_by_step.ipynb", "03_actions.ipynb",
                     "04_skills_quests_scoring.ipynb", "05_pathfinding.ipynb"]
    def notes(path):
        nb = json.loads(path.read_text(encoding="utf-8"))
        return ["".join(c["source"]) for c in nb["cells"] if c.get("id", "").startswith("teacher-")]

    for name in fresh:
        committed = notes(root / TEACHER_DIR / name)
        assert committed == notes(tmp_path / name), f"run `haunted-kit teacher`: the notes of {name} are stale"
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
