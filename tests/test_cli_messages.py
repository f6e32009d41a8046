"""CLI messages say what is wrong: an unreachable Dask scheduler, a save whose ``game``
field is wrong, a ``--box`` of another game (play, replay, simulate suggest the game)."""
import json
import socket
from pathlib import Path

import pytest

from haunted_kit.cli import main
from haunted_kit.games import game_names

DATA = Path(__file__).resolve().parents[1] / "data"
BOX = {"haunted": DATA, "estate": DATA / "estate", "landmarks": DATA / "landmarks"}
KNOWN = f"(known games: {', '.join(game_names())})"


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_not_a_write_error(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{closed_port()}"
    rc = main(["simulate", "--out", str(tmp_path / "d"), "--games", "1", "--scheduler", address,
               "--connect-timeout", "1", "--no-progress"])
    assert rc == 1
    err = capsys.readouterr().err
    assert err.startswith(f"haunted-kit: cannot reach the Dask scheduler at {address} within 1 s (")
    assert "cannot write" not in err and "Traceback" not in err


def test_connect_timeout_must_be_positive(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", "x", "--connect-timeout", "0"])
    assert exc.value.code == 2
    assert "argument --connect-timeout: the value must be a finite number more than 0 and at most 86,400, got '0'" in capsys.readouterr().err


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    d = tmp_path_factory.mktemp("saves")
    for game in BOX:
        assert main(["play", "--game", game, "--players", "3", "--seed", "1", "--save", str(d / f"{game}.json")]) == 0
    return d


def replay_edited(saves, tmp_path, capsys, game, field, value):
    """Replay ``game``'s save with ``field`` set to ``value``; it must fail (exit 1).
    Returns the edited save's path."""
    data = json.loads((saves / f"{game}.json").read_text())
    data[field] = value
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    return path


@pytest.mark.parametrize("game,label", [
    ("haunted", "estate"), ("haunted", "landmarks"), ("estate", "landmarks"), ("estate", "haunted"),
    ("landmarks", "haunted"), ("landmarks", "estate"),
])
def test_a_save_relabelled_as_another_game(saves, tmp_path, capsys, game, label):
    path = replay_edited(saves, tmp_path, capsys, game, "game", label)
    assert capsys.readouterr().err == (f"haunted-kit: {path}: save field 'game': names {label!r}, whose loader refuses "
                                       f"this save {KNOWN}; it reads as the {game!r} game's save: set \"game\": \"{game}\"\n")


@pytest.mark.parametrize("value", [["x"], "chess", 3, None])
def test_a_save_naming_an_unknown_game(saves, tmp_path, capsys, value):
    path = replay_edited(saves, tmp_path, capsys, "estate", "game", value)
    assert capsys.readouterr().err == (f"haunted-kit: {path}: save field 'game': unknown game {value!r} {KNOWN}; "
                                       "it reads as the 'estate' game's save: set \"game\": \"estate\"\n")


def test_a_landmarks_save_without_its_game_field(saves, tmp_path, capsys):
    data = json.loads((saves / "landmarks.json").read_text())
    del data["game"]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    assert "it reads as the 'landmarks' game's save: set \"game\": \"landmarks\"" in capsys.readouterr().err


def test_a_corrupt_save_keeps_its_loaders_message(saves, tmp_path, capsys):
    replay_edited(saves, tmp_path, capsys, "estate", "version", 99)
    assert capsys.readouterr().err == "haunted-kit: version: unsupported version 99 (this kit reads version 1)\n"


@pytest.mark.parametrize("argv,game,other,suggest", [
    (["play"], "haunted", "estate", True),
    (["play", "--game", "landmarks", "--players", "3"], "landmarks", "haunted", True),
    (["play", "--game", "estate"], "estate", "landmarks", True),
    (["simulate", "--out", "{tmp}/d", "--no-progress"], "haunted", "landmarks", True),
    (["simulate", "--game", "estate", "--players", "3", "--out", "{tmp}/d", "--no-progress"], "estate", "haunted", True),
    (["replay", "{saves}/haunted.json"], "haunted", "estate", False),
    (["replay", "{saves}/landmarks.json"], "landmarks", "estate", False),
    (["handout", "--out", "{tmp}/h.html"], "haunted", "landmarks", False),
])
def test_a_box_of_another_game_names_it(saves, tmp_path, capsys, argv, game, other, suggest):
    box = BOX[other]
    with pytest.raises(SystemExit) as exc:
        main([a.format(tmp=tmp_path, saves=saves) for a in argv] + ["--box", str(box)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    tail = f": try --game {other}" if suggest else f", not the {game!r} game's"
    assert err.rstrip("\n").endswith(f"; {box} is the {other!r} game's box{tail}"), err
    assert "Traceback" not in err and not (tmp_path / "d").exists()
