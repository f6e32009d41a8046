"""The one box reader (:mod:`haunted_kit.boxfile`) and every game's loader through it:
each kind of bad data file gives a :class:`BoxError` naming the file, the entry and the
problem, in Haunted Lands, the estate and Landmarks alike: a file nested thousands of
levels deep, a file over the size limit, a file that is not UTF-8, any field of any
file given a value of the wrong kind (table, list, number, string, bool), and a blank
key or name."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

from haunted_kit.boxfile import MAX_BOX_FILE_BYTES, MAX_DEPTH, BoxError, parse_box_toml
from haunted_kit.estate.box import EstateBoxError
from haunted_kit.games import REGISTRY, game_names, get_game

#: the registered games that have a box (a game without ``default_box`` has no files to read)
GAMES = [g for g in game_names() if getattr(get_game(g), "default_box", None) is not None]
#: how each game's loader names its files in errors (another game's: the file's name)
PREFIX = defaultdict(str, {"haunted": "", "estate": "", "landmarks": "landmarks/"})


def source(game: str) -> Path:
    return Path(get_game(game).default_box().path)


def copy_box(game: str, tmp_path: Path) -> Path:
    dst = tmp_path / game
    shutil.copytree(source(game), dst, ignore=shutil.ignore_patterns("estate", "landmarks"))
    return dst


def toml_files(game: str) -> list[str]:
    return sorted(p.name for p in source(game).glob("*.toml"))


def load(game: str, folder: Path):
    return get_game(game).load_box(folder)


def test_the_three_games_are_swept():
    """The kit's three games are among the registered ones swept (a game registered beside them is swept too)."""
    assert GAMES[:3] == ["haunted", "estate", "landmarks"]
    assert [len(toml_files(g)) for g in GAMES[:3]] == [12, 4, 6]


def test_estate_box_error_is_the_kits():
    assert EstateBoxError is BoxError


# --------------------------------------------------------------------------- whole-file faults


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("shape", ["arrays", "inline tables", "dotted keys"])
def test_a_file_nested_thousands_deep_is_a_box_error(tmp_path, game, shape):
    folder = copy_box(game, tmp_path)
    name = toml_files(game)[0]
    n = 5000
    deep = {"arrays": "deep = " + "[" * n + "]" * n,
            "inline tables": "deep = " + "{a = " * n + "1" + "}" * n,
            "dotted keys": "deep" + ".a" * n + " = 1"}[shape]
    (folder / name).write_text(deep + "\n" + (folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert exc.value.file == PREFIX[game] + name
    assert "nested too deeply" in exc.value.problem or f"nested more than {MAX_DEPTH} levels deep" in exc.value.problem


@pytest.mark.parametrize("game", GAMES)
def test_a_file_nested_just_past_the_limit_names_the_entry(tmp_path, game):
    folder = copy_box(game, tmp_path)
    name = toml_files(game)[0]
    text = "deep = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"
    (folder / name).write_text(text + (folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert (exc.value.file, exc.value.entry) == (PREFIX[game] + name, "deep" + "[1]" * MAX_DEPTH)
    assert exc.value.problem == f"nested more than {MAX_DEPTH} levels deep (a data file needs at most {MAX_DEPTH})"


@pytest.mark.parametrize("game", GAMES)
def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, game):
    folder = copy_box(game, tmp_path)
    name = toml_files(game)[-1]
    path = folder / name
    text = path.read_text(encoding="utf-8")
    filler = "#" + "x" * (MAX_BOX_FILE_BYTES - len(text.encode()) + 10) + "\n"
    path.write_text(text + filler, encoding="utf-8")
    size = path.stat().st_size
    assert size > MAX_BOX_FILE_BYTES
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert (exc.value.file, exc.value.entry) == (PREFIX[game] + name, "-")
    assert exc.value.problem == f"{size:,} bytes is over the limit of {MAX_BOX_FILE_BYTES:,} bytes for a data file"


@pytest.mark.parametrize("game", GAMES)
def test_a_file_that_is_not_utf8_names_the_line(tmp_path, game):
    folder = copy_box(game, tmp_path)
    name = toml_files(game)[0]
    path = folder / name
    path.write_bytes(b"# one\n# two\n# caf\xe9\n" + path.read_bytes())
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert (exc.value.file, exc.value.entry) == (PREFIX[game] + name, "line 3")
    assert exc.value.problem == "byte 0xe9 is not UTF-8 text (save the file as UTF-8)"


@pytest.mark.parametrize("game", GAMES)
def test_an_integer_of_thousands_of_digits_is_a_box_error(tmp_path, game):
    folder = copy_box(game, tmp_path)
    name = toml_files(game)[0]
    (folder / name).write_text("big = " + "9" * 5000 + "\n" + (folder / name).read_text(encoding="utf-8"))
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert exc.value.entry == "-" and exc.value.problem.startswith("not valid TOML (")


# --------------------------------------------------------------------------- a field of the wrong kind


def toml_value(v) -> str:
    """``v`` written as a TOML value (inline tables and arrays)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


def toml_text(data: dict) -> str:
    """A whole file, every top-level key as ``"key" = value`` (same values, other layout)."""
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in data.items())


def kind(v) -> str:
    return {bool: "bool", int: "number", float: "number", str: "string", list: "list", dict: "table"}[type(v)]


#: a value of each kind; an integer field gets 1.5 as its wrong "number"
WRONG = {"table": {"x": 1}, "list": [1], "number": 7, "string": "x", "bool": True}


def is_collection(d: dict) -> bool:
    """A table whose entries are all tables (cards, terrains, modes...): its keys are names."""
    return len(d) >= 2 and all(isinstance(v, dict) for v in d.values())


def field_paths(data: dict) -> list[tuple]:
    """The path (keys and list indexes) to the first occurrence of every field pattern of
    a file: entries of a collection and items of a list count as one pattern."""
    out, seen = [], set()

    def walk(value, path, pattern):
        if path and pattern not in seen:
            seen.add(pattern)
            out.append(path)
        if isinstance(value, dict):
            coll = is_collection(value) and bool(path)
            for k, v in value.items():
                walk(v, path + (k,), pattern + ("*" if coll else k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,), pattern + ("[]",))

    walk(data, (), ())
    return out


def replaced(data, path, new):
    data = json.loads(json.dumps(data))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return data


def at(data, path):
    for key in path:
        data = data[key]
    return data


def sweep_cases():
    """Every field pattern of every file x every wrong kind. The fast suite takes one
    wrong kind per field, in turn (the i-th field of a file its i-th wrong kind); the
    others are marked slow."""
    cases = []
    for game in GAMES:
        for name in toml_files(game):
            data = tomllib.loads((source(game) / name).read_text(encoding="utf-8"))
            for i, path in enumerate(field_paths(data)):
                old = at(data, path)
                wrongs = [w for w in WRONG if w != kind(old) or (w == "number" and type(old) is int)]
                for j, wrong in enumerate(wrongs):
                    marks = () if j == i % len(wrongs) else (pytest.mark.slow,)
                    cases.append(pytest.param(game, name, path, wrong, marks=marks,
                                              id=f"{game}-{name}-{'.'.join(map(str, path))}-{wrong}"))
    return cases


SWEEP = sweep_cases()


def test_the_sweep_covers_every_file_of_every_box():
    assert {(g, n) for g, n, *_ in (c.values for c in SWEEP)} == {(g, n) for g in GAMES for n in toml_files(g)}
    assert len(SWEEP) > 500


@pytest.mark.parametrize("game,name,path,wrong", SWEEP)
def test_a_field_of_the_wrong_kind_is_a_box_error(tmp_path, game, name, path, wrong):
    folder = copy_box(game, tmp_path)
    data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    new = 1.5 if wrong == "number" and kind(at(data, path)) == "number" else WRONG[wrong]
    (folder / name).write_text(toml_text(replaced(data, path, new)), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert exc.value.file.endswith(".toml") and exc.value.problem


@pytest.mark.parametrize("game", GAMES)
def test_the_rewritten_files_load_unchanged(tmp_path, game):
    """The sweep's writer keeps the values: the box loads with the same fingerprint."""
    folder = copy_box(game, tmp_path)
    for name in toml_files(game):
        data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        (folder / name).write_text(toml_text(data), encoding="utf-8")
    assert load(game, folder).fingerprint == get_game(game).default_box().fingerprint


def test_the_testers_examples_of_wrong_kinds(tmp_path):
    folder = copy_box("haunted", tmp_path)
    path = folder / "quests.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count('building = "mill"') == 1
    path.write_text(text.replace('building = "mill"', "building = { name = \"mill\" }"), encoding="utf-8")
    with pytest.raises(BoxError, match=r"^quests.toml, entry quests\.\d+: field 'building' must be str, "
                                       r"got \{'name': 'mill'\} \(rule section: Haunted Lands: Quest Cards\)$"):
        load("haunted", folder)
    folder = copy_box("haunted", tmp_path / "m")
    data = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
    mode = next(iter(data["modes"]))
    (folder / "game.toml").write_text(toml_text(replaced(data, ("modes", mode), 3)), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load("haunted", folder)
    assert str(exc.value) == f"game.toml, entry modes.{mode}: must be a table (rule section: Haunted Lands: Game Modes)"


# --------------------------------------------------------------------------- blank keys and names


def key_cases():
    cases = []
    for game in GAMES:
        for name in toml_files(game):
            data = tomllib.loads((source(game) / name).read_text(encoding="utf-8"))
            parents = set()
            for path in field_paths(data):  # the first key of every table, to depth 3
                if not isinstance(path[-1], int) and len(path) <= 3 and path[:-1] not in parents:
                    parents.add(path[:-1])
                    blank = ("", "  ")[len(parents) % 2]
                    cases.append(pytest.param(game, name, path, blank, id=f"{game}-{name}-{'.'.join(map(str, path))}-{blank!r}"))
    return cases


@pytest.mark.parametrize("game,name,path,blank", key_cases())
def test_a_blank_key_is_refused(tmp_path, game, name, path, blank):
    folder = copy_box(game, tmp_path)
    data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    parent = at(data, path[:-1])
    parent_copy = {(blank if k == path[-1] else k): v for k, v in parent.items()}
    data = replaced(data, path[:-1], parent_copy) if path[:-1] else parent_copy
    (folder / name).write_text(toml_text(data), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    where = ".".join(str(k) if isinstance(k, str) else f"[{k + 1}]" for k in path[:-1]).replace(".[", "[")
    assert (exc.value.file, exc.value.entry) == (PREFIX[game] + name, where or "-")
    assert exc.value.problem == f"key {blank!r} is not a name (empty, or spaces around it)"


def test_a_landmarks_card_keyed_empty_is_refused(tmp_path):
    folder = copy_box("landmarks", tmp_path)
    path = folder / "deck.toml"
    text = path.read_text(encoding="utf-8")
    head = next(line for line in text.splitlines() if line.startswith("[cards."))
    path.write_text(text.replace(head, '[cards.""]', 1), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load("landmarks", folder)
    assert str(exc.value) == "landmarks/deck.toml, entry cards: key '' is not a name (empty, or spaces around it)"


def name_cases():
    """Every list of strings (names) of every box, and the name fields read as names."""
    cases = []
    for game in GAMES:
        for name in toml_files(game):
            data = tomllib.loads((source(game) / name).read_text(encoding="utf-8"))
            for path in field_paths(data):
                value = at(data, path)
                named = path[-1] in ("name", "deck", "letter", "text") and game != "haunted" or path[-1] in ("deck", "letter")
                if "provenance" in path or not isinstance(value, str):
                    continue
                if isinstance(path[-1], int) or named:
                    cases += [pytest.param(game, name, path, blank, id=f"{game}-{name}-{'.'.join(map(str, path))}-{blank!r}")
                              for blank in ("", "   ")]
    return cases


NAMES = name_cases()


def test_the_name_sweep_covers_every_game():
    """Every game of the kit (and a game registered from outside it that has a box)."""
    assert {n for n, (module, _) in REGISTRY.items() if module.startswith("haunted_kit.")} <= {c.values[0] for c in NAMES}


@pytest.mark.parametrize("game,name,path,blank", NAMES)
def test_a_blank_name_is_refused(tmp_path, game, name, path, blank):
    folder = copy_box(game, tmp_path)
    data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    (folder / name).write_text(toml_text(replaced(data, path, blank)), encoding="utf-8")
    with pytest.raises(BoxError) as exc:
        load(game, folder)
    assert exc.value.file == PREFIX[game] + name
    assert "blank" in exc.value.problem or "unknown value" in exc.value.problem, str(exc.value)


# --------------------------------------------------------------------------- the reader itself


def test_parse_box_toml_depth_is_checked_without_recursion():
    text = "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(BoxError, match=r"nested more than 10 levels deep"):
        parse_box_toml(text, "f.toml")
    depth_ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_box_toml("x = " + depth_ok, "f.toml")["x"] == json.loads(depth_ok)
