"""The house-rule editor (haunted_kit.widgets.box_editor), for every registered game that
declares a box schema: the form has a control for every key of the game's own box, of
the key's kind; a refused value shows the schema's own sentence and changes nothing; an
accepted one is marked as a house rule; a save writes a box folder the game loads with the
form's values (and refuses the reference box and folders that are not boxes); "Check by
playing" gives the verdict of testing.check_box in words (the thread is joined, never
waited for by the clock)."""

from __future__ import annotations

import copy
import importlib.util
import sys
from html import escape
from pathlib import Path
from typing import ClassVar, Literal

import ipywidgets as W
import pytest
from pydantic import ConfigDict, Field

import haunted_kit as hk
from haunted_kit.boxfile import BoxError, parse_box_toml
from haunted_kit.boxschema import BoxEntries, BoxModel, BoxTable, Whole, box_field, box_keys, game_schema, validate
from haunted_kit.games import game_names, get_game
from haunted_kit.protocol import agent_table
from haunted_kit.testing import game_settings
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.box_editor import BoxEditor, BoxSaveError, HEADER_MARK, inline_value, parse_inline

SCHEMA_GAMES = [n for n in game_names() if game_schema(get_game(n)) is not None]
CONTROL = {"whole": W.IntText, "bool": W.Checkbox, "choice": W.Dropdown, "text": W.Text, "value": W.Text}


def editor(name: str) -> BoxEditor:
    """A fresh editor of game ``name`` from its reference box (the form holds state: each test builds its own)."""
    return BoxEditor(name, games=1, bot_games=1)


def read_data(e: BoxEditor, folder: Path, name: str):
    """File ``name`` of the box in ``folder`` parsed as the schema reads it (TOML, or the file's own parser)."""
    parse = e.schema.parsers.get(name, parse_box_toml)
    return parse((folder / name).read_text(encoding="utf-8"), e.schema.label_of(name))


def at(data, path):
    for k in path:
        data = data[k]
    return data


def a_good_change(e: BoxEditor):
    """The first whole-number key (in file order) whose reference value moved by one within
    its range is a box the game loads: ``(field, new value)``."""
    for f in e.fields:
        if f.key.kind != "whole" or f.control.disabled:
            continue
        for new in (f.reference + 1, f.reference - 1):
            if (f.key.low is None or new >= f.key.low) and (f.key.high is None or new <= f.key.high):
                f.control.value = new
                if not f.problem:
                    return f, new
                f.control.value = f.reference  # set back: the form holds the reference value again
    raise AssertionError(f"{e.title}: no whole number of the box can move by one")


def test_some_game_declares_a_schema():
    assert SCHEMA_GAMES


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_the_form_has_every_key_of_the_box(name):
    e = editor(name)
    schema = e.schema
    shown = {(f.label, f.key.entry, f.key.field) for f in e.fields}
    for label, entry, key, _prov, _value in schema.rows(schema.read(e.reference_root)):
        whole = key if entry == "-" else f"{entry}.{key}"
        assert (label, entry, key) in shown or any(  # a list of tables: a control per key of each table
            f.label == label and (f.key.entry.startswith(whole + "[") or f.key.entry.startswith(whole + "."))
            for f in e.fields), (label, entry, key)
    for f in e.fields:
        value = at(read_data(e, e.reference_root, f.file), f.key.path)
        assert isinstance(f.control, CONTROL[f.key.kind]), (f.name, f.key.kind, type(f.control))
        assert f.control.value == (inline_value(value) if f.inline else value), f.name
        assert f.inline == (f.key.kind == "value"), f.name
        if f.key.kind == "choice":
            assert list(f.control.options) == list(f.key.choices)
        assert "house rule" not in f.status.value and not f.problem, f.name  # the reference box: nothing marked
        assert f.status.value == (f"<span class='hk-box-about'>reference: <code>{escape(inline_value(value))}</code></span>"
                                  if f.key.group is not None else ""), f.name  # a grid cell: its reference under it
    assert e.house_rules() == [] and e.problems() == []
    assert len(e.files.children) == len(schema.files)
    assert e.files.titles == tuple(f"{schema.label_of(n)} ({sum(f.file == n for f in e.fields)} keys)"
                                   for n in schema.files)


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_a_value_out_of_range_shows_the_schema_sentence_and_changes_nothing(name, tmp_path):
    e = editor(name)
    f = next(f for f in e.fields if f.key.kind == "whole" and f.key.high is not None and not f.control.disabled)
    before = e.values()
    f.control.value = f.key.high + 1
    data = copy.deepcopy(before[f.file])
    path = f.key.path
    at(data, path[:-1])[path[-1]] = f.key.high + 1
    with pytest.raises(BoxError) as exc:
        prior = {}
        for n, model in e.schema.files.items():  # the files before it give its cross-file context
            prior[n] = validate(model, data if n == f.file else before[n], e.schema.label_of(n), context=dict(prior))
    assert f.problem == str(exc.value)
    assert f"must be at most {f.key.high}, got {f.key.high + 1}" in f.problem
    assert f.problem.startswith(f"{f.label}, entry {f.key.entry}: ")
    assert "Refused, nothing changed" in f.status.value and "hk-box-problem" in f.control._dom_classes
    assert e.values() == before and e.house_rules() == []
    assert e.problems() == [f.problem]
    with pytest.raises(BoxSaveError, match="shows a refused value"):
        e.save(tmp_path / "rules")
    assert not (tmp_path / "rules").exists()
    assert e.check() is None and "Fix the refused values first" in e.verdict_text
    f.control.value = f.reference  # set back: accepted, nothing marked
    assert not f.problem and "house rule" not in f.status.value and e.problems() == []


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_a_bad_inline_value_is_refused_in_words(name):
    e = editor(name)
    f = next((f for f in e.fields if f.inline and not f.control.disabled), None)
    if f is None:
        pytest.skip(f"{name}'s box has no list or table value")
    before = e.values()
    f.control.value = "[1, "
    assert f.problem.startswith(f"{f.label}, entry {f.key.entry}: field '{f.key.field}' is not one TOML value")
    assert e.values() == before
    with pytest.raises(ValueError, match="one line"):
        parse_inline("1\nx = 2")
    assert parse_inline(inline_value({"gold": 3, "names": ["a", "b"]})) == {"gold": 3, "names": ["a", "b"]}


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_a_good_value_is_marked_a_house_rule_and_saved_round_trip(name, tmp_path):
    e = editor(name)
    with capture_errors() as caught:  # every callback ran without an exception
        f, new = a_good_change(e)
    assert not caught and not e.errors, caught
    assert not f.problem and "house rule" in f.status.value and "hk-house-rule" in f.control._dom_classes
    assert e.house_rules() == [(f.label, f.name, f.reference, new)]
    assert at(e.values()[f.file], f.key.path) == new
    assert "1 house rule" in e.summary.value

    out = e.save(tmp_path / "rules")
    assert out == tmp_path / "rules" and sorted(p.name for p in out.iterdir()) == sorted(
        p.name for p in e.start_root.iterdir() if p.is_file() and not p.name.startswith("."))
    game = get_game(name)
    box = game.load_box(out)  # the game's own loader reads it
    saved = e.schema.read(out)
    prior = {}
    for n, model in e.schema.files.items():  # the same checked values as the form's
        prior[n] = validate(model, e.values()[n], e.schema.label_of(n), context=dict(prior))
        assert saved[n] == prior[n], n
    for g in e.fields:  # every key as the form holds it
        assert at(read_data(e, out, g.file), g.key.path) == at(e.values()[g.file], g.key.path), g.name
    text = (out / f.file).read_text(encoding="utf-8")
    assert text.startswith(f"{HEADER_MARK}\n#   {f.name} = {new} (reference: {f.reference})\n")
    assert f"# house rule (the reference box has {f.reference})" in text
    if hasattr(box, "provenance"):  # the loader marks the changed value
        marked = [row for row in box.provenance if row[3] == "house rule"]
        assert len(marked) == 1 and marked[0][0] == f.label
    for n in e.schema.files:  # the other files: the reference's text
        if n != f.file:
            assert (out / n).read_bytes() == (e.reference_root / n).read_bytes(), n

    f.control.value = f.reference  # set back and save over the saved box: the reference values again
    assert e.house_rules() == []
    e.save(out)
    assert (out / f.file).read_text(encoding="utf-8").find("house rule") == -1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules"]  # no temporary folder left behind
    again = BoxEditor(name, out)  # a saved box opens in the editor
    assert again.house_rules() == [] and again.start_root == out


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_save_refuses_the_reference_box_and_folders_that_are_not_boxes(name, tmp_path):
    e = editor(name)
    a_good_change(e)
    ref = e.reference_root
    before = {p.name: p.read_bytes() for p in ref.iterdir() if p.is_file()}
    with pytest.raises(BoxSaveError, match="is the reference box of .*: house rules go to a folder of your own"):
        e.save(ref)
    with pytest.raises(BoxSaveError, match="inside the kit's own data folder|inside the reference box of"):
        e.save(ref / "my_rules")
    assert {p.name: p.read_bytes() for p in ref.iterdir() if p.is_file()} == before
    assert not (ref / "my_rules").exists()
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("mine")
    with pytest.raises(BoxSaveError, match=r"is not empty and is not a .* box \(it has no "):
        e.save(notes)
    assert [p.name for p in notes.iterdir()] == ["todo.txt"]
    (tmp_path / "a_file").write_text("x")
    with pytest.raises(BoxSaveError, match="is a file, not a folder"):
        e.save(tmp_path / "a_file")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert e.save(empty) == empty and get_game(name).load_box(empty) is not None
    e.folder.value = str(ref)  # the button says it in words
    e.save_button.click()
    assert "Not saved:" in e.save_message.value and "reference box" in e.save_message.value
    e.folder.value = ""
    e.save_button.click()
    assert "Name a folder" in e.save_message.value


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_check_by_playing_gives_check_box_verdict_in_words(name, tmp_path):
    e = editor(name)
    f, new = a_good_change(e)
    finished = []
    e.on_checked(finished.append)
    thread = e.check()
    thread.join()  # the thread's end, not a clock
    assert finished == [e] and not e.check_button.disabled
    report = e.report
    assert report.ok, e.verdict_text
    n = report.games + report.bot_games
    assert e.progress.value == e.progress.max == n
    assert e.verdict_text == (f"No problem found in {n} games with 1 house rule ({report.games} random, "
                              f"{report.bot_games} by the bots, seeds from 0; every setting kept the rules' "
                              "invariants and ended).")
    box = get_game(name).load_box(e.save(tmp_path / "rules"))
    assert report.games == len(game_settings(get_game(name), box))  # one random game per setting of the form's box
    assert report.bot_games == report.games * len([a for a in ("greedy",) if a in agent_table(get_game(name))])


@pytest.mark.parametrize("name", SCHEMA_GAMES)
def test_check_by_playing_names_the_seeds_of_games_that_do_not_end(name):
    e = BoxEditor(name, games=1, bot_games=2, cap=2)  # a decision cap no game ends within
    e.check().join()
    report = e.report
    assert not report.ok and len(report.capped) == report.bot_games > 0
    assert e.verdict_text.startswith(f"Problems found in {report.games + report.bot_games} games with the reference "
                                     "values:")
    assert f"WARNING {report.bot_games} of {report.bot_games} bot games did not end within the decision cap" in \
        e.verdict_text
    assert "(cap 2): seeds 0, 1" in e.verdict_text and "hk-box-play-" not in e.verdict_text
    assert "box: the reference box\n" in e.verdict_text
    assert "role='alert'" in e.verdict.value
    f, new = a_good_change(e)  # with a house rule, the warning names its value and the reference's
    e.check().join()
    assert e.verdict_text.startswith(f"Problems found in {e.report.games + e.report.bot_games} games with 1 house rule:")
    assert f"box: box 'this_form' (house rules: {f.label} {f.key.entry}.{f.key.field} = {new!r}, reference " \
           f"{f.reference!r})" in e.verdict_text


def test_hk_box_editor_and_its_text_form():
    name = SCHEMA_GAMES[0]
    e = hk.box_editor(name)
    assert isinstance(e, BoxEditor) and e.game is get_game(name)
    text = e._repr_mimebundle_()["text/plain"]
    assert text.startswith(f"BoxEditor: {e.title}: house-rule editor. Starting from the reference box; "
                           f"{sum(map(len, e.form_keys.values()))} keys in {len(e.schema.files)} files. No house rule yet")
    assert " / ".join(e.files.titles) in text
    # the sections are closed and hold no widget until opened (a notebook stores only what is shown)
    assert all(section.children == () for section in e.files.children)
    e.files.selected_index = 0
    assert len(e.files.children[0].children) == 1 and all(s.children == () for s in e.files.children[1:])
    first = e.section_fields(next(iter(e.schema.files)))[0]
    opened = e._repr_mimebundle_()["text/plain"]
    assert f"{first.key.field} {first.control.value}" in opened and "reference: " + inline_value(first.reference) in opened
    assert all(f.control.description == f.key.field for f in e.section_fields(first.file))  # each control names its key


def test_the_find_box_keeps_the_matching_keys():
    e = editor(SCHEMA_GAMES[0])
    target = e.fields[-1]
    e.find.value = target.key.field
    rows = [f for f in e.fields if f.row is not None]
    shown = [f for f in rows if f.row.layout.display != "none"]
    assert target in shown and all(target.key.field in f.words() or
                                   target.key.field in getattr(f.row, "entry_words", "") for f in shown)
    assert len(shown) < len(rows)
    e.find.value = ""
    assert all(f.row.layout.display != "none" for f in rows)


def test_a_game_without_a_schema_is_told_so():
    spec = importlib.util.spec_from_file_location(
        "nim_engine_for_editor", Path(__file__).parent / "fourth_game" / "nim" / "engine.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    with pytest.raises(ValueError, match="declares no box schema"):
        BoxEditor(module.GAME)


def test_box_keys_walks_tables_entries_and_lists_of_tables():
    """boxschema.box_keys on a schema made here: nested tables, a table of named entries,
    a list of tables (counted from 1, as provenance rows count them), a table whose keys
    are names; each key's kind, range and section from its declaration, in file order."""
    class Option(BoxTable):
        section: ClassVar[str] = "Trading"
        count: Whole = box_field(low=1, high=3, doc="how many")

    class Card(BoxTable):
        section: ClassVar[str] = "Cards"
        kind: Literal["a", "b"] = box_field(doc="its kind")
        cost: list[str] = box_field(section="Building", doc="what it costs")
        options: list[Option] = box_field(doc="its options")

    class Prices(BoxTable):
        model_config = ConfigDict(extra="allow")
        __pydantic_extra__: dict[str, Whole] = Field(init=False)
        extra_doc: ClassVar[str] = "price of one"

    class File(BoxModel):
        prices: Prices
        cards: dict[str, Card]

    class Entries(BoxEntries):
        root: dict[str, Option]

    data = {"prices": {"gold": 2, "provenance": "rulebook"},
            "cards": {"x": {"kind": "a", "cost": ["gold"], "options": [{"count": 1}, {"count": 2}],
                            "provenance": "kit default"}}}
    rows = [(k.path, k.entry, k.field, k.kind, k.low, k.high, k.section, k.doc, k.group, k.name)
            for k in box_keys(File, data)]
    assert rows == [
        (("prices", "gold"), "prices", "gold", "whole", 0, 999, "", "price of one", None, None),
        (("cards", "x", "kind"), "cards.x", "kind", "choice", None, None, "Cards", "its kind", "cards", "x"),
        (("cards", "x", "cost"), "cards.x", "cost", "value", None, None, "Building", "what it costs", "cards", "x"),
        (("cards", "x", "options", 0, "count"), "cards.x.options[1]", "count", "whole", 1, 3, "Trading", "how many",
         None, None),
        (("cards", "x", "options", 1, "count"), "cards.x.options[2]", "count", "whole", 1, 3, "Trading", "how many",
         None, None),
    ]
    assert box_keys(File, data)[1].choices == ("a", "b")
    entries = box_keys(Entries, {"one": {"count": 3}, "two": {"count": 1}})
    assert [(k.entry, k.field, k.group, k.name) for k in entries] == [("one", "count", "", "one"),
                                                                      ("two", "count", "", "two")]
    assert box_keys(File, {"prices": 3, "cards": {"x": "not a table"}, "unknown": {}}) == []  # the check refuses these
