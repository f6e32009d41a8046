"""haunted-kit teacher: a teacher copy of every notebook holding exercises of any game
(Haunted Lands' 01-05, the estate's 08, Landmarks & Architects' 09), each exercise
followed by its answer and its common mistake; the machinery is the kit's
(:func:`haunted_kit.exercises.write_teacher_copies`), the notes each game's."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from haunted_kit.cli import main
from haunted_kit.estate.exercises import EXERCISES as ESTATE
from haunted_kit.exercises import EXERCISE_CELL, TEACHER_DIR, teacher_notebook
from haunted_kit.landmarks.exercises import EXERCISES as LANDMARKS

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NB08, NB09 = "08_estate_and_market.ipynb", "09_landmarks_and_architects.ipynb"


def exercise_cells(path: Path) -> list[tuple[str, int]]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(m.group("key"), int(m.group("seed") or 0)) for c in nb["cells"] if c["cell_type"] == "code"
            for m in re.finditer(EXERCISE_CELL, "".join(c["source"]))]


def notes(path: Path) -> dict[str, str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return {c["id"]: "".join(c["source"]) for c in nb["cells"] if c.get("id", "").startswith("teacher-0")}


@pytest.mark.parametrize("name, exercises", [(NB08, ESTATE), (NB09, LANDMARKS)])
def test_the_companion_copies_answer_every_exercise_with_its_common_mistake(tmp_path, capsys, name, exercises):
    shutil.copy(NOTEBOOKS / name, tmp_path / name)
    assert main(["teacher", "--notebooks", str(tmp_path)]) == 0
    copy = tmp_path / TEACHER_DIR / name
    assert capsys.readouterr().out == f"wrote {copy}\n"
    cells = exercise_cells(NOTEBOOKS / name)
    assert [k for k, _s in cells] == exercises.for_notebook(name[:2]) and len(cells) == 3
    said = notes(copy)
    assert sorted(said) == sorted(f"teacher-{k}-0" for k, _s in cells)
    for key, seed in cells:
        ex = exercises.make(key, seed)
        note = said[f"teacher-{key}-0"]
        assert ex.mistake and f"> *Common mistake:* {ex.mistake}" in note
        assert f"> **{ex.answer_text()}**" in note and f"(`{key}`, seed {ex.seed})" in note
        assert f"> *Rules:* \"{ex.section}\"." in note and ex.title in note
    nb = json.loads(copy.read_text(encoding="utf-8"))
    assert nb["cells"][0]["id"] == "teacher-banner" and all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    assert json.loads((NOTEBOOKS / name).read_text(encoding="utf-8")) == json.loads((tmp_path / name).read_text(encoding="utf-8"))


def test_game_chooses_whose_notebooks_get_copies(tmp_path, capsys):
    for name in ("03_actions.ipynb", NB08, NB09, "00_start_here.ipynb"):
        shutil.copy(NOTEBOOKS / name, tmp_path / name)
    assert main(["teacher", "--notebooks", str(tmp_path), "--game", "landmarks", "--out", str(tmp_path / "t")]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 't' / NB09}\n"
    assert main(["teacher", "--notebooks", str(tmp_path)]) == 0
    assert sorted(p.name for p in (tmp_path / TEACHER_DIR).iterdir()) == ["03_actions.ipynb", NB08, NB09]


def test_a_notebook_with_only_another_games_exercises_gets_no_copy():
    nb = json.loads((NOTEBOOKS / NB08).read_text(encoding="utf-8"))
    assert teacher_notebook(nb, NB08, lambda key, seed: None) is None
    assert teacher_notebook(nb, NB08, lambda key, seed: f"note {key} {seed}\n") is not None


def test_the_committed_companion_copies_are_current(tmp_path):
    assert main(["teacher", "--notebooks", str(NOTEBOOKS), "--out", str(tmp_path), "--game", "estate"]) == 0
    assert main(["teacher", "--notebooks", str(NOTEBOOKS), "--out", str(tmp_path), "--game", "landmarks"]) == 0
    for name in (NB08, NB09):
        assert notes(NOTEBOOKS / TEACHER_DIR / name) == notes(tmp_path / name), f"run `haunted-kit teacher`: {name} is stale"
