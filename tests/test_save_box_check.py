"""The box check of a save lives once, in the kit (``games.load_state``, through
``saves.check_box``): a save made with a house-rule box and loaded without that box is
refused by every loading path (``load_state``, ``replay``, ``review``) with a message
naming the box it was made with, for every registered game and for the toy Nim, whose
``from_dict`` does not look at the box at all. Loaded with its own box, it loads.

The house-rule box is made the way a teacher makes one: the game's own box folder copied,
one whole number of one of its TOML files raised by one (the first edit the game's
``load_box`` accepts as a box of other values that still plays the game's smallest player
count)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from haunted_kit import games
from haunted_kit.cli import main
from haunted_kit.games import game_names, get_game, load_state
from haunted_kit.saves import BoxMismatch, check_save_box, saved_box

FIXTURE = Path(__file__).resolve().parent / "fourth_game"
NUMBER = re.compile(r"^(\s*[A-Za-z_][\w-]*\s*=\s*)(\d+)(\s*(#.*)?)$", re.M)


def house_box(game, tmp_path: Path):
    """A copy of ``game``'s box folder with one whole number raised by one, loaded, whose
    values differ from the reference box's and which still plays the smallest player count;
    returns ``(folder, box)``."""
    ref = game.default_box()
    src = Path(ref.path)
    for toml in sorted(src.glob("*.toml")):
        text = toml.read_text(encoding="utf-8")
        for m in NUMBER.finditer(text):
            dst = tmp_path / f"house-{toml.stem}-{m.start()}"
            shutil.copytree(src, dst, ignore=lambda d, names: [n for n in names if (Path(d) / n).is_dir()])
            edited = text[:m.start(2)] + str(int(m.group(2)) + 1) + text[m.end(2):]
            (dst / toml.name).write_text(edited, encoding="utf-8")
            try:
                box = game.load_box(dst)
                game.new_game(players=game.min_players, seed=3, box=box)
            except ValueError:  # this edit breaks the box or the game: try the next number
                shutil.rmtree(dst)
                continue
            if box.fingerprint != ref.fingerprint:
                return dst, box
            shutil.rmtree(dst)
    raise AssertionError(f"no one-number edit of {src} gives another box {game.name} can play")


def boxed_games() -> list[str]:
    return [n for n in game_names() if getattr(get_game(n), "load_box", None) is not None]


def refuses_naming_the_box(message: str, game, house, folder: Path) -> None:
    """The refusal names the box the save was made with: its fingerprint's first 12 digits
    and, when the save records its folder, the folder's name; and it says how to load it."""
    assert f"fingerprint {house.fingerprint[:12]}" in message, message
    assert f"another box ({game.title}" in message, message
    assert "load it with that box" in message, message
    fingerprint, path = saved_box(json.loads(json.dumps(game.new_game(players=game.min_players, seed=3,
                                                                        box=house).to_dict())))
    assert fingerprint == house.fingerprint  # every game records its box's value fingerprint
    if path is not None:
        assert f"folder {folder.name!r}" in message, message


def check_every_path(game, tmp_path: Path, capsys) -> None:
    folder, house = house_box(game, tmp_path)
    s = game.new_game(players=game.min_players, seed=3, box=house)
    data = s.to_dict()
    save = tmp_path / "house.json"
    save.write_text(json.dumps(data), encoding="utf-8")
    before = save.read_bytes()
    # the kit's loader, without the box and with the reference box named
    for box in (None, game.default_box()):
        with pytest.raises(BoxMismatch) as err:
            load_state(game, data, box)
        refuses_naming_the_box(str(err.value), game, house, folder)
    # with its own box it loads, the same position
    assert load_state(game, data, house).to_dict() == data
    # the command line's replay and review, without --box: one line, exit 1
    for argv in (["replay", str(save)], ["review", str(save), "--playouts", "1"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        refuses_naming_the_box(err, game, house, folder)
    assert main(["replay", str(save), "--box", str(folder)]) == 0
    capsys.readouterr()
    assert save.read_bytes() == before  # the refused file is left as it was


@pytest.mark.parametrize("name", boxed_games())
def test_a_house_rule_save_is_refused_without_its_box(name, tmp_path, capsys):
    check_every_path(get_game(name), tmp_path, capsys)


def test_the_toy_game_whose_from_dict_does_not_check_is_covered(monkeypatch, tmp_path, capsys):
    """Nim's ``from_dict`` reads the save with whatever box it is given, never comparing
    fingerprints: the kit's check alone refuses the house-rule save."""
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", "GAME"))
    nim = get_game("nim")
    folder, house = house_box(nim, tmp_path)
    data = nim.new_game(players=2, seed=3, box=house).to_dict()
    assert nim.from_dict(data).box.fingerprint != house.fingerprint  # its reader takes it with the reference box...
    (tmp_path / "kit").mkdir()
    check_every_path(nim, tmp_path / "kit", capsys)  # ...the kit refuses it on every path


def test_the_check_itself():
    """``saved_box`` reads both forms games write; ``check_save_box`` leaves a save with no
    ``box`` entry (or no box to check against) to the game's reader, and refuses a ``box``
    entry that names no fingerprint, saying what it got."""

    class Box:
        fingerprint, path = "a" * 64, "/x/data/house/"

        def accepts_fingerprint(self, fp):
            return fp == self.fingerprint

    assert saved_box({"box": "f" * 64}) == ("f" * 64, None)
    assert saved_box({"box": {"fingerprint": "f", "path": "d/h"}}) == ("f", "d/h")
    assert saved_box({"box": {"fingerprint": 3}}) == (None, None) and saved_box([1]) == (None, None)
    check_save_box({"box": "a" * 64}, Box())
    check_save_box({"no box": 1}, Box())  # the reader's to judge (an old save naming no box)
    check_save_box({"box": "b" * 64}, None)  # a game without boxes
    with pytest.raises(BoxMismatch, match=r"another box \(Toy, fingerprint bbbbbbbbbbbb\), not the box in 'house' "
                                          r"\(fingerprint aaaaaaaaaaaa\)"):
        check_save_box({"box": "b" * 64}, Box(), "Toy")
    with pytest.raises(KeyError, match="does not say which Toy box.*got 7"):
        check_save_box({"box": 7}, Box(), "Toy", KeyError)
