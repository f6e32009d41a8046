"""Every box loader refuses what it would otherwise ignore: an unknown top-level table,
an unknown field in a table, in every file of the three games' boxes."""
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from haunted_kit.cli import main
from haunted_kit.haunted.box import load_box as load_haunted
from haunted_kit.estate.box import load_estate_box
from haunted_kit.landmarks.box import load_box as load_landmarks

DATA = Path(__file__).resolve().parents[1] / "data"
BOXES = {"haunted": (DATA, load_haunted, ""), "estate": (DATA / "estate", load_estate_box, ""),
         "landmarks": (DATA / "landmarks", load_landmarks, "landmarks/")}
#: files whose top-level tables are the entries themselves (a new table is a new entry)
ENTRY_FILES = {("haunted", "terrain.toml"), ("haunted", "buildings.toml"), ("estate", "resources.toml"),
               ("landmarks", "architects.toml")}
FILES = [(g, p.name) for g, (src, _l, _p) in BOXES.items() for p in sorted(src.glob("*.toml"))]


def test_every_file_of_every_box_is_covered():
    assert len(FILES) == 12 + 4 + 6


def edited(tmp_path, game, name, text):
    src, load, _ = BOXES[game]
    dst = tmp_path / game
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("estate", "landmarks"))
    (dst / name).write_text(text, encoding="utf-8")
    return lambda: load(dst)


@pytest.mark.parametrize("extra", ["\n[garbage]\nx = 1\n", "\n[[garbage]]\nx = 1\n"])
@pytest.mark.parametrize("game,name", FILES)
def test_an_unknown_table_is_refused(tmp_path, game, name, extra):
    src, _load, prefix = BOXES[game]
    reference = (src / name).read_text(encoding="utf-8")
    load = edited(tmp_path, game, name, reference + extra)
    with pytest.raises(ValueError) as exc:
        load()
    err = exc.value
    assert (err.file, err.entry) == (prefix + name, "garbage")
    if (game, name) in ENTRY_FILES:  # a new entry: refused for what it lacks or holds
        assert err.problem in ("missing field 'terrain'", "must be a table") or "unknown field 'x'" in err.problem
    else:
        known = ", ".join(tomllib.loads(reference))
        assert err.problem == f"unknown table (known: {known})"


def test_the_testers_examples(tmp_path, capsys):
    load = edited(tmp_path, "haunted", "dice.toml", (DATA / "dice.toml").read_text() + "[terrain_dei]\nfaces=[1]\n")
    with pytest.raises(ValueError) as exc:
        load()
    assert str(exc.value) == ("dice.toml, entry terrain_dei: unknown table "
                              "(known: terrain_die, terrain_die_with_lakes, bonus_die)")
    assert main(["check-box", str(tmp_path / "haunted"), "--games", "1", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "the box does not load: dice.toml, entry terrain_dei: unknown table" in err
    load = edited(tmp_path / "q", "haunted", "quests.toml", (DATA / "quests.toml").read_text() + "[[x]]\n")
    with pytest.raises(ValueError, match=r"^quests.toml, entry x: unknown table \(known: quests, removed\)$"):
        load()


def test_a_misspelled_estate_field_is_an_unknown_field(tmp_path):
    text = (DATA / "estate" / "game.toml").read_text()
    assert "\nworkers = " in text
    load = edited(tmp_path, "estate", "game.toml", text.replace("\nworkers = ", "\nworkrs = ", 1))
    with pytest.raises(ValueError) as exc:
        load()
    assert str(exc.value) == ("game.toml, entry start: unknown field 'workrs' (known: income, hand, workers) "
                              "(rule section: Resource income)")


def _headers(game, name):
    """(line number, entry) of every ``[table]`` and ``[[array.of.tables]]`` header of a
    file; the entry of the k-th ``[[a.b]]`` is ``a.b[k]``, as the loaders name it."""
    src = BOXES[game][0]
    lines = (src / name).read_text(encoding="utf-8").splitlines(keepends=True)
    out, seen = [], {}
    for i, line in enumerate(lines):
        if m := re.match(r"^\[([^\[\]]+)\]\s*(#.*)?$", line):
            out.append((i, m.group(1)))
        elif m := re.match(r"^\[\[([^\[\]]+)\]\]\s*(#.*)?$", line):
            seen[m.group(1)] = seen.get(m.group(1), 0) + 1
            out.append((i, f"{m.group(1)}[{seen[m.group(1)]}]"))
    return out


HEADERS = [(g, n, i, path) for g, n in FILES for i, path in _headers(g, n)]


def test_the_field_table_covers_every_file_with_tables():
    assert {(g, n) for g, n, _i, _p in HEADERS} == set(FILES)


@pytest.mark.parametrize("game,name,line,table", HEADERS)
def test_an_unknown_field_is_refused(tmp_path, game, name, line, table):
    src = BOXES[game][0]
    lines = (src / name).read_text(encoding="utf-8").splitlines(keepends=True)
    load = edited(tmp_path, game, name, "".join(lines[:line + 1] + ["zzz_unknown = 1\n"] + lines[line + 1:]))
    with pytest.raises(ValueError) as exc:
        load()
    err = exc.value
    assert err.entry == table
    if (game, name, table) == ("estate", "game.toml", "value"):  # its fields are the resources
        assert err.problem == "unknown resource 'zzz_unknown' (known: gold, wood, limestone, marble, glass)"
    else:
        assert re.match(r"unknown fields? 'zzz_unknown'.* \(known: |field 'zzz_unknown' is not used by ", err.problem), err.problem


def test_field_layout_rotation_is_read(tmp_path):
    text = (DATA / "field.toml").read_text()
    assert 'rotation = "none"' in text
    load = edited(tmp_path, "haunted", "field.toml", text.replace('rotation = "none"', 'rotation = "random"'))
    with pytest.raises(ValueError) as exc:
        load()
    assert str(exc.value) == ('field.toml, entry layout: only rotation = "none" is supported '
                              "(the rules lay all tiles facing the same way), got 'random' "
                              "(rule section: Haunted Lands: Game Setup)")


def test_an_unknown_field_of_a_market_card_is_refused(tmp_path):
    text = (DATA / "market_cards.toml").read_text()
    load = edited(tmp_path, "haunted", "market_cards.toml", text + "\n[market_cards.2]\nzzz_unknown = 1\n")
    with pytest.raises(ValueError) as exc:
        load()
    assert str(exc.value) == ("market_cards.toml, entry market_cards.2: unknown field 'zzz_unknown' (known: options) "
                              "(rule section: Haunted Lands: Market Cards)")
