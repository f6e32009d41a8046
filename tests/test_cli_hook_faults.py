"""A fault of a game's hook is the game's, said as such: where the command line runs a
game's hook, an error the hook raises, or a box it returns that the kit cannot read, is
reported naming the game and the hook (``games.HookFailed``, as ``MissingHook`` names a
missing one), exit 1 (not 2: the command was used rightly), no traceback. Over the
commands that run hooks: play, replay, review, check-box, compare."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from haunted_kit import cli, games

FOURTH = Path(__file__).resolve().parent / "fourth_game"
BOX_SAYS = ("the game's load_box hook returned a box the kit cannot read: provenance row 1 has 5 values, "
            "not (file, entry, key, provenance)")


@pytest.fixture
def faulty(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(FOURTH))
    monkeypatch.setitem(games.REGISTRY, "brokenbox", ("faulty.engine", "GAME_BOX"))
    monkeypatch.setitem(games.REGISTRY, "brokenhooks", ("faulty.engine", "GAME_HOOKS"))
    box = tmp_path / "box"
    shutil.copytree(FOURTH / "nim" / "box", box)
    return box


def run(capsys, *argv) -> tuple[int, str]:
    code = cli.main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, " ".join(err.split())


@pytest.mark.parametrize("argv", [
    ["compare", "--game", "brokenbox", "--box", "{box}", "--games", "2", "--no-progress"],
    ["check-box", "{box}", "--game", "brokenbox"],
    ["play", "--game", "brokenbox", "--box", "{box}"],
])
def test_a_box_the_kit_cannot_read_names_the_game_and_its_box_hook(faulty, capsys, argv):
    code, err = run(capsys, *[a.format(box=faulty) for a in argv])
    assert code == 1
    assert err.startswith(f"haunted-kit {argv[0]}: Broken-box Nim (--game brokenbox): {BOX_SAYS}")
    assert "usage:" not in err


def _save(tmp_path) -> Path:
    from nim.engine import GAME as NIM
    s = NIM.new_game(players=2, seed=0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**s.to_dict(), "game": "brokenhooks"}))
    return path


@pytest.mark.parametrize("command, hook, said", [
    (["play", "--game", "brokenhooks", "--players", "2"], "seat_results",
     "ZeroDivisionError: integer division or modulo by zero"),
    (["replay", "{save}"], "seat_results", "ZeroDivisionError: integer division or modulo by zero"),
    (["review", "{save}"], "start_of", "AttributeError: 'NimState' object has no attribute 'no_such_member'"),
])
def test_an_error_a_hook_raises_names_the_game_and_the_hook(faulty, capsys, tmp_path, command, hook, said):
    save = _save(tmp_path)
    code, err = run(capsys, *[a.format(save=save) for a in command])
    assert (code, err) == (1, f"haunted-kit {command[0]}: Broken-hooks Nim (--game brokenhooks): "
                              f"the game's {hook} hook failed: {said}")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_hook_that_fails_in_a_worker_process_is_named_too(faulty, capsys, monkeypatch, workers):
    """The outside maintainer's compare: a score_parts hook unpacking rows of the wrong
    length, run in this process or in the simulation's worker processes."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FOURTH), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv(games.GAMES_VARIABLE, "brokenparts=faulty.engine:GAME_PARTS")
    monkeypatch.setitem(games.REGISTRY, "brokenparts", ("faulty.engine", "GAME_PARTS"))
    code, err = run(capsys, "compare", "--game", "brokenparts", "--box", faulty, "--games", "2", "--no-progress",
                    "--workers", workers)
    assert (code, err) == (1, "haunted-kit compare: Broken-parts Nim (--game brokenparts): the game's score_parts "
                              "hook failed: ValueError: too many values to unpack (expected 4)")


def test_simulate_names_the_failing_hook_but_a_refused_setting_stays_usage(faulty, capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(games.REGISTRY, "brokenparts", ("faulty.engine", "GAME_PARTS"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FOURTH), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv(games.GAMES_VARIABLE, "brokenparts=faulty.engine:GAME_PARTS")
    code, err = run(capsys, "simulate", "--game", "brokenparts", "--games", "2", "--out", tmp_path / "a", "--no-progress")
    assert (code, err) == (1, "haunted-kit simulate: Broken-parts Nim (--game brokenparts): the game's score_parts "
                              "hook failed: ValueError: too many values to unpack (expected 4)")
    with pytest.raises(SystemExit) as done:  # new_game refusing the asked player count: the command's misuse
        cli.main(["simulate", "--game", "brokenparts", "--games", "2", "--players", "9", "--out", str(tmp_path / "b"),
                  "--no-progress"])
    assert done.value.code == 2 and "players must be 2..3, got 9" in capsys.readouterr().err


def test_the_kits_own_error_is_not_put_on_a_game(faulty):
    try:
        {}["missing"]
    except KeyError as exc:
        assert games.hook_failure(exc, "play") is None


def test_box_problems_name_each_part_of_the_box_contract():
    from types import SimpleNamespace as B
    assert games.box_problems(B(provenance=(("f", "e", "k", "rulebook"),), values={("f", "e", "k"): 1},
                                fingerprint="ab", min_players=2, max_players=3)) == []
    assert games.box_problems(B(provenance=(), values={"k": 1}, fingerprint="", min_players=2.0)) == [
        "values key 'k' is not (file, entry, key)",
        "fingerprint '' is not a non-empty string (provenance.value_fingerprint)",
        "min_players 2.0 is not a whole number"]
