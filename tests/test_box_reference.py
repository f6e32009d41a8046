"""docs/BOXES.md is what the box schemas say: for every registered game that declares a
box schema (its Game's ``box_schema``), the committed reference equals the one generated
from the schema and the game's own box, every key of its files has a row with a type and
a rule section, and the schema reads the game's own box into the same rows the box
records. A mutated box is refused with a BoxError or read (no other exception)."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haunted_kit.boxfile import BoxError, parse_box_toml
from haunted_kit.boxschema import box_reference, game_schema, key_matches, reference_markdown, validate
from haunted_kit.games import REGISTRY, game_names, get_game
from haunted_kit.testing import mutate_json, mutate_text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import box_reference as script  # noqa: E402

SCHEMA_GAMES = [n for n in game_names() if game_schema(get_game(n)) is not None]


def own_root(name: str) -> Path:
    return Path(get_game(name).default_box().path)


def test_some_game_declares_a_schema():
    assert SCHEMA_GAMES, "no registered game declares a box_schema"


def test_every_game_of_the_kit_with_a_box_declares_its_schema():
    """The kit's own games read their boxes by schema, so docs/BOXES.md covers each (a game
    registered from outside the kit may read its box its own way)."""
    own = [n for n, (module, _) in REGISTRY.items() if module.startswith("haunted_kit.")]
    with_box = [n for n in own if getattr(get_game(n), "default_box", None) is not None]
    assert with_box == ["haunted", "estate", "landmarks"] and set(with_box) <= set(SCHEMA_GAMES)
    text = (ROOT / "docs" / "BOXES.md").read_text(encoding="utf-8")
    assert all(f"(`--game {n}`)" in text for n in with_box)


def test_the_committed_reference_is_the_generated_one():
    assert (ROOT / "docs" / "BOXES.md").read_text(encoding="utf-8") == script.reference(), \
        "docs/BOXES.md is out of date: run python scripts/box_reference.py"


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_each_game_has_its_section_in_the_reference(name):
    """The kit's own games' sections are committed in docs/BOXES.md; a game registered from
    outside the kit gets its reference generated (``--game NAME``), not required in the kit's docs."""
    game = get_game(name)
    section = reference_markdown(game_schema(game), f"{game.title} (`--game {name}`)", own_root(name))
    assert script.section(name) == section
    committed = (ROOT / "docs" / "BOXES.md").read_text(encoding="utf-8")
    if name in script.kit_games():
        assert section in committed
    else:  # generated on demand (the committed file holds the kit's games only)
        assert section.startswith(f"## {game.title} (`--game {name}`)") and section not in committed


def test_the_script_prints_help_and_one_games_reference_without_writing(capsys):
    before = (ROOT / "docs" / "BOXES.md").stat().st_mtime_ns
    with pytest.raises(SystemExit) as done:
        script.main(["--help"])
    assert done.value.code == 0 and "--check" in capsys.readouterr().out
    name = SCHEMA_GAMES[0]
    assert script.main(["--game", name]) == 0
    assert capsys.readouterr().out == script.section(name) + "\n"
    with pytest.raises(SystemExit) as done:
        script.main(["--game", "no-such-game"])
    assert done.value.code == 2 and "unknown game 'no-such-game'" in capsys.readouterr().err
    assert (ROOT / "docs" / "BOXES.md").stat().st_mtime_ns == before  # nothing written


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_every_key_of_the_own_box_has_a_row_with_type_and_section(name):
    schema, root = game_schema(get_game(name)), own_root(name)
    files = schema.read(root)
    for file, model in schema.files.items():
        rows = box_reference(model, file=schema.label_of(file), shipped=files[file])
        assert rows and all(r["type"] and r["section"] for r in rows), file
        keys = {r["key"] for r in rows}
        for _f, entry, field, _p, _v in schema.rows({file: files[file]}):
            concrete = f"{entry}.{field}" if entry != "-" else field
            assert any(key_matches(k, concrete) for k in keys), (file, concrete)


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_the_schema_gives_the_rows_the_box_records(name):
    game = get_game(name)
    box, schema = game.default_box(), game_schema(game)
    rows = schema.rows(schema.read(own_root(name)))
    assert tuple((f, e, k, p) for f, e, k, p, _v in rows) == tuple(box.provenance)
    assert {(f, e, k): v for f, e, k, _p, v in rows} == box.values


def parse(schema, file, root):
    """The file as its schema parses it (TOML, or the game's own parser: a CSV file)."""
    return schema.parsers.get(file, parse_box_toml)((root / file).read_text(encoding="utf-8"), file)


def _files(name):
    schema = game_schema(get_game(name))
    return [(name, f) for f in schema.files]


CASES = [c for n in SCHEMA_GAMES for c in _files(n)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), rng=st.randoms(use_true_random=False), edits=st.integers(1, 3))
def test_a_mutated_file_is_refused_with_a_box_error_or_read(case, rng, edits):
    """Structural edits (a value of another type, a key deleted or added, a list changed)
    of one parsed file: the schema gives a BoxError naming the file (or an earlier file that
    names what this one lacks: a terrain's building) or reads it."""
    name, file = case
    schema, root = game_schema(get_game(name)), own_root(name)
    context = {}
    for f, model in schema.files.items():  # the files checked before this one
        if f == file:
            break
        context[f] = validate(model, parse(schema, f, root), f, context=dict(context))
    data = parse(schema, file, root)
    mutated, _paths = mutate_json(data, random.Random(rng.random()), edits)
    try:
        validate(schema.files[file], mutated, schema.label_of(file), context=context)
    except BoxError as exc:  # this file, or one checked before it that names what this one lacks
        assert exc.file in [schema.label_of(f) for f in [*context, file]] and exc.entry and exc.problem


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), rng=st.randoms(use_true_random=False))
def test_a_mutated_box_folder_is_refused_with_a_box_error_or_loads(tmp_path_factory, case, rng):
    name, file = case
    game = get_game(name)
    d = tmp_path_factory.mktemp("box") / "box"
    shutil.copytree(own_root(name), d)
    new = mutate_text((d / file).read_text(encoding="utf-8"), rng)
    (d / file).write_bytes(new if isinstance(new, bytes) else new.encode("utf-8"))
    try:
        box = game.load_box(d)
    except BoxError as exc:
        assert exc.file.endswith(tuple(game_schema(game).files)) and exc.entry and exc.problem
    else:
        assert box.fingerprint


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_every_file_schema_exports_json_schema_refusing_unknown_keys(name):
    """pydantic's JSON Schema export of each file: a plain file's schema refuses keys it
    does not declare and requires the ones the model requires; a file of entries
    describes every entry by one schema."""
    schema = game_schema(get_game(name))
    for file, model in schema.files.items():
        exported = model.model_json_schema()
        assert exported["type"] == "object", file
        if isinstance(exported.get("additionalProperties"), dict):  # a file of named entries
            assert "$ref" in exported["additionalProperties"], file
        else:
            assert exported["additionalProperties"] is False, file
            assert set(exported["required"]) == {k for k, f in model.model_fields.items() if f.is_required()}, file
