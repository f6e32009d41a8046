"""Every JSON text a user can hand the kit (saves of every game, a dataset's description,
classroom server messages) fails the same way: one error of the reader's kind naming the
problem, never a RecursionError or a traceback (fileio.parse_json / read_json)."""

from __future__ import annotations

import pytest

from haunted_kit.cli import main
from haunted_kit.haunted.engine import HauntedLandsState
from haunted_kit.estate.engine import EstateState
from haunted_kit.estate.state import EstateSaveError
from haunted_kit.fileio import parse_json, read_json
from haunted_kit.landmarks.engine import LandmarksState
from haunted_kit.landmarks.state import SaveError as LandmarksSaveError
from haunted_kit.haunted.serial import SaveError

DEEP = "[" * 100_000
HUGE_INT = '{"version": ' + "1" * 5000 + "}"
HOSTILE = {"deep": (DEEP, "nested too deeply"), "huge int": (HUGE_INT, "4300 digits"),
           "bad syntax": ('{"version": 2,', "Expecting"), "latin-1": (b'{"a": "\xe9"}', "not a UTF-8 text file")}


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("cls, error", [(HauntedLandsState, SaveError), (EstateState, EstateSaveError),
                                        (LandmarksState, LandmarksSaveError)])
def test_every_games_save_loader_names_the_json_problem(tmp_path, cls, error, kind):
    text, words = HOSTILE[kind]
    path = tmp_path / "save.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(error) as exc:
        cls.load(path)
    assert words in str(exc.value) and str(path) in str(exc.value)


@pytest.mark.parametrize("kind", HOSTILE)
def test_replay_of_a_hostile_file_is_one_line_and_exit_1(tmp_path, capsys, kind):
    text, words = HOSTILE[kind]
    path = tmp_path / "save.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_parse_json_uses_the_callers_error_and_read_json_names_the_file(tmp_path):
    class Mine(ValueError):
        pass

    with pytest.raises(Mine, match="^the message is not valid JSON: it is nested too deeply$"):
        parse_json(DEEP, "the message", Mine)
    assert parse_json('{"a": [1, 2]}') == {"a": [1, 2]}
    with pytest.raises(Mine, match="^cannot read dataset description .*missing.json: No such file"):
        read_json(tmp_path / "missing.json", what="dataset description", error=Mine)
    big = tmp_path / "big.json"
    big.write_text("[" + "0," * 100 + "0]")
    with pytest.raises(Mine, match="over the limit of 50 bytes"):
        read_json(big, 50, error=Mine)


def test_a_dataset_description_nested_too_deeply_is_a_dataset_error(tmp_path):
    from haunted_kit.simulate import DatasetError, load_dataset

    (tmp_path / "dataset.json").write_text(DEEP)
    with pytest.raises(DatasetError, match="dataset description .* is not valid JSON: it is nested too deeply"):
        load_dataset(tmp_path)
