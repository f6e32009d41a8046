"""The house-rule editor: a form for a game's box, generated from its box schema.

:class:`BoxEditor` (``hk.box_editor("landmarks")`` in a notebook) reads the game's
declared schema (its Game's ``box_schema``, :mod:`haunted_kit.boxschema`) and the box to
start from (the reference box by default), and shows one section per file, one labelled
control per key written in the file (:func:`~haunted_kit.boxschema.box_keys`):

* a whole number: an ``IntText`` with its range beside it; true/false: a ``Checkbox``;
  one of a few words: a ``Dropdown``; a text: a ``Text``; a list or a table of values
  (resource amounts, names): a ``Text`` holding it as one inline TOML value
  (``["stone", "food"]``, ``{ gold = 3, wood = 2 }``);
* beside each key: the reference box's value, type and range, what it means and its rule
  section; a key whose value differs from the reference box is marked **house rule**
  (in words, not by colour only);
* a table of named entries (cards, buildings, resources...) whose entries hold plain
  values is a grid, one row per entry and one column per key; the "Find" box keeps the
  rows whose key path or meaning holds the words typed.

Every change is checked at once, by the schema (every file, in order, as the loader
does) and then by the game's own ``load_box`` on the whole box in a temporary folder (its
checks between files). A refused value shows the loader's sentence under the field
(file, entry, problem, rule section) and changes nothing: the form's box keeps its last
good values (:meth:`BoxEditor.values`), and nothing is saved while a field shows a
problem.

"Check by playing" runs :func:`haunted_kit.testing.check_box` on the form's box in a
worker thread (seeded random games over every setting, then the bots' games under the
decision cap) with a progress bar, and says the verdict in words. "Save" writes the box
to a folder the teacher names (:meth:`BoxEditor.save`): every file of the box, TOML
files as the reference text with the changed values put in and a comment at each house
rule naming the reference value (``provenance`` keeps its words: a box file may only say
``rulebook`` or ``kit default``; the loader itself marks a value that differs from the
reference box as ``house rule``), other files (a CSV the schema parses with its own
parser) copied unchanged, as the form cannot edit them. The folder is built next to the
target, loaded with the game's ``load_box``, and only then renamed into place; the
reference box and a non-empty folder that is not a box of the game are refused.

This module sits a layer above the other widget pieces (tests/test_layers.py): it plays
games with :mod:`haunted_kit.testing`.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as W
import tomlkit

from ..boxfile import BoxError, parse_box_toml, read_box_text, shipped_dir
from ..boxschema import BoxKey, box_keys, game_schema, validate
from ..games import get_game
from ..testing import check_box
from .errors import ErrorReporting

__all__ = ["BoxEditor", "BoxSaveError", "KeyField", "box_editor", "inline_value", "key_path", "parse_inline"]

_ABSENT = object()
#: the comment put after a house-rule value in a saved file
HOUSE_RULE_COMMENT = "house rule (the reference box has {reference})"
#: the folder name the box checked by playing has (the verdict names the box by it)
PLAYED_FOLDER = "this_form"
#: first words of the comment lines a save puts at the top of a file that holds house rules
HEADER_MARK = "# House rules, saved by haunted_kit's box editor:"

_STYLE = """<style>
.hk-house-rule input, .hk-house-rule select, .hk-house-rule .widget-checkbox { outline: 3px solid #8a5a00; }
.hk-box-problem input, .hk-box-problem select { outline: 3px solid #b00020; }
.hk-box-status { font-size: 0.9em; }
.hk-box-about { color: #333; font-size: 0.9em; }
</style>"""


class BoxSaveError(ValueError):
    """A folder the editor will not write a box to; the message says why and what to do."""


# --------------------------------------------------------------------------- values as inline TOML

def _toml_item(value):
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        for k, v in value.items():
            table[k] = _toml_item(v)
        return table
    if isinstance(value, list):
        array = tomlkit.array()
        for v in value:
            array.append(_toml_item(v))
        return array
    return tomlkit.item(value)


def inline_value(value) -> str:
    """``value`` (a parsed box value: number, bool, text, list, table) as one inline TOML
    value: ``3``, ``true``, ``"stone"``, ``["stone", "food"]``, ``{gold = 3, wood = 2}``."""
    return _toml_item(value).as_string()


def parse_inline(text: str):
    """The value of one inline TOML value ``text`` (what :func:`inline_value` writes).

    Raises:
        ValueError: more than one line, not a TOML value, or more than one value.
    """
    if "\n" in text or "\r" in text:
        raise ValueError("must be written on one line")
    try:
        data = tomllib.loads(f"value = {text}")
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"is not one TOML value ({exc}), got {text!r}") from None
    if list(data) != ["value"]:
        raise ValueError(f"is not one TOML value, got {text!r}")
    return data["value"]


def _get(data, path: tuple):
    for k in path:
        try:
            data = data[k]
        except (KeyError, IndexError, TypeError):
            return _ABSENT
    return data


def _set(data, path: tuple, value) -> None:
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


# --------------------------------------------------------------------------- one key of the form

def key_path(key: BoxKey) -> str:
    """The key path of ``key`` in its file (``cards.vardo.copies``; ``players.max``)."""
    return key.field if key.entry == "-" else f"{key.entry}.{key.field}"


@dataclass(eq=False)
class KeyField:
    """One key of the form: its schema row, its file, the reference box's value and its
    widgets (``control``, the ``status`` line under it)."""

    file: str  #: the file name in the box folder
    label: str  #: how errors name the file (``"landmarks/deck.toml"``)
    key: BoxKey
    reference: Any
    control: W.Widget
    status: W.HTML
    inline: bool = False  #: the control holds the value as inline TOML text (a list or table)
    problem: str = ""  #: the sentence of the last refused value ("" when none)
    row: Any = None  #: the widget the find box shows or hides with it
    in_grid: bool = False  #: a cell of a grid of named entries (its reference value under it)

    @property
    def name(self) -> str:
        """The key path in its file (``cards.vardo.copies``)."""
        return key_path(self.key)

    def words(self) -> str:
        """What the find box searches: file, key path, meaning."""
        return f"{self.label} {self.name} {self.key.doc}".lower()


def _control(key: BoxKey, value, description: str) -> tuple[W.Widget, bool]:
    """The control of ``key`` holding ``value``, and whether it holds inline TOML text."""
    style = {"description_width": "initial"}
    if key.kind == "whole" and isinstance(value, int) and not isinstance(value, bool):
        return W.IntText(value=value, description=description, style=style, layout=W.Layout(width="12em")), False
    if key.kind == "bool" and isinstance(value, bool):
        return W.Checkbox(value=value, indent=False, description=description, style=style), False
    if key.kind == "choice" and value in key.choices:
        return W.Dropdown(options=list(key.choices), value=value, description=description, style=style,
                          layout=W.Layout(width="14em")), False
    if key.kind == "text" and isinstance(value, str):
        return W.Text(value=value, continuous_update=False, description=description, style=style,
                      layout=W.Layout(width="18em")), False
    return W.Text(value=inline_value(value), continuous_update=False, description=description, style=style,
                  layout=W.Layout(width="24em")), True


# --------------------------------------------------------------------------- the editor

class BoxEditor(ErrorReporting, W.VBox):
    """A form for the box of ``game``, generated from its declared box schema.

    Args:
        game: a registered game's short name or its Game object; it must declare a box
            schema (``box_schema``) and have a reference box (``default_box()``) and a
            loader (``load_box(folder)``).
        box: the box to start from: a folder, a loaded box (its ``path``), or None for the
            game's reference box.
        games, bot_games, seed, cap: what "Check by playing" plays
            (:func:`~haunted_kit.testing.check_box`: random games and bot games per
            setting from ``seed``, the bots' decision cap; None: the game's own cap).

    Raises:
        ValueError: the game declares no box schema, or lacks ``default_box``/``load_box``.
        BoxError: the box to start from does not load (the loader's sentence).

    Attributes:
        form_keys: file name -> its :class:`~haunted_kit.boxschema.BoxKey` rows.
        report: the last "Check by playing" report (:class:`~haunted_kit.testing.BoxReport`) or None.
        verdict_text: the last verdict in words ("" before the first check).
        saved: the folder last saved to, or None.
    """

    def __init__(self, game, box=None, *, games: int = 1, bot_games: int = 2, seed: int = 0, cap: int | None = None):
        self.game = get_game(game) if isinstance(game, str) else game
        title = getattr(self.game, "title", self.game.name)
        schema = game_schema(self.game)
        if schema is None:
            raise ValueError(f"{title} declares no box schema (its Game's box_schema): there is no form to build")
        for hook in ("default_box", "load_box"):
            if getattr(self.game, hook, None) is None:
                raise ValueError(f"{title} has no {hook}(): the editor needs its reference box and its loader")
        self.schema, self.title = schema, title
        self.reference_root = Path(self.game.default_box().path)
        if box is None:
            start = self.reference_root
        else:
            start = Path(box.path) if hasattr(box, "path") else Path(box)
            self.game.load_box(start)  # a box that does not load: the loader's BoxError
        self.start_root = start
        self.check_options = {"games": games, "bot_games": bot_games, "seed": seed, "cap": cap}
        self.report = None
        self.verdict_text = ""
        self.saved: Path | None = None
        self.check_thread: threading.Thread | None = None
        self._on_checked: list[Callable] = []
        self._texts: dict[str, str] = {}
        self._data: dict[str, Any] = {}
        self._reference: dict[str, Any] = {}
        for name in schema.files:
            label = schema.label_of(name)
            parse = schema.parsers.get(name, parse_box_toml)
            self._texts[name] = read_box_text(start, name, label=label)
            self._data[name] = parse(self._texts[name], label)
            self._reference[name] = parse(read_box_text(self.reference_root, name, label=label), label)
        #: every key of each file (the form's controls are built when its section is first opened)
        self.form_keys = {name: box_keys(model, self._data[name]) for name, model in schema.files.items()}
        self._fields: dict[str, list[KeyField]] = {}
        self._sections = {name: W.VBox() for name in schema.files}

        self.summary = W.HTML()
        self.find = W.Text(description="Find keys", placeholder="e.g. copies, players, gold",
                           continuous_update=True, style={"description_width": "initial"})
        self.find.observe(self.guard(lambda _c: self._filter(), "finding keys"), names="value")
        self.files = W.Accordion(children=list(self._sections.values()), selected_index=None,
                                 titles=[f"{schema.label_of(n)} ({len(self.form_keys[n])} keys)" for n in schema.files])
        self.files.observe(self.guard(self._opened, "opening a file's section"), names="selected_index")
        self.check_button = W.Button(description="Check by playing", icon="play",
                                     tooltip="play seeded games under this box and say what goes wrong")
        self.check_button.on_click(self.guard(lambda _b: self.check(), "starting the check by playing"))
        self.progress = W.IntProgress(value=0, min=0, max=1, description="Games played",
                                      style={"description_width": "initial"})
        self.progress.layout.display = "none"
        self.verdict = W.HTML()
        self.folder = W.Text(description="Save to folder", placeholder="e.g. my_rules",
                             style={"description_width": "initial"}, layout=W.Layout(width="28em"))
        self.save_button = W.Button(description="Save box", icon="save", tooltip="write the box folder")
        self.save_button.on_click(self.guard(lambda _b: self._save_clicked(), "saving the box"))
        self.save_message = W.HTML()
        super().__init__([W.HTML(_STYLE), self._init_errors(), self.summary, self.find, self.files,
                          W.HBox([self.check_button, self.progress], layout=W.Layout(flex_flow="row wrap")),
                          self.verdict,
                          W.HBox([self.folder, self.save_button], layout=W.Layout(flex_flow="row wrap")),
                          self.save_message])
        self._summarise()

    # ---- building the form

    @property
    def fields(self) -> list[KeyField]:
        """Every :class:`KeyField` of the form, in file order (building every section)."""
        return [f for name in self.schema.files for f in self.section_fields(name)]

    def section_fields(self, name: str) -> list[KeyField]:
        """The fields of file ``name``, its section built on first use (a closed section
        holds no widget: a box of hundreds of keys opens at once, and a notebook stores only
        the widgets shown)."""
        if name not in self._fields:
            self._fields[name] = []
            self._sections[name].children = [self._section(name)]
        return self._fields[name]

    def _opened(self, change) -> None:
        if change["new"] is not None:
            self.section_fields(list(self.schema.files)[change["new"]])

    def _section(self, name: str) -> W.Widget:
        """The widget of file ``name``'s section (its fields go to ``self._fields[name]``)."""
        label = self.schema.label_of(name)
        editable = name not in self.schema.parsers  # a file with its own parser is copied, not edited
        made = []
        for key in self.form_keys[name]:
            value = _get(self._data[name], key.path)
            flat_cell = key.group is not None  # a key of a named entry: a cell of its row
            control, inline = _control(key, value, key.field)  # in a grid too: each control names its key
            control.disabled = not editable
            f = KeyField(name, label, key, _get(self._reference[name], key.path), control,
                         W.HTML(layout=W.Layout(margin="0 0 0.3em 0")), inline, in_grid=flat_cell)
            control.tooltip = f.name
            control.observe(self.guard(lambda change, f=f: self._changed(f, change["new"]), f"checking {f.name}"),
                            names="value")
            self._fields[name].append(f)
            made.append((f, flat_cell))
            self._show_status(f)
        blocks: dict[tuple, list] = {}
        for f, flat_cell in made:
            blocks.setdefault(("grid", f.key.group) if flat_cell else ("rows", f.key.entry), []).append(f)
        parts: list[W.Widget] = []
        if not editable:
            parts.append(W.HTML(f"<p>{escape(label)} is read by its own parser: the form shows it and a save copies "
                                "it unchanged (edit the file itself for a house rule in it).</p>"))
        for (kind, where), fs in blocks.items():
            parts.append(self._grid(where, fs) if kind == "grid" else self._rows(where, fs))
        return W.VBox(parts)

    def _about(self, f: KeyField) -> str:
        k = f.key
        ref = "none (not in the reference box)" if f.reference is _ABSENT else inline_value(f.reference)
        bits = [f"reference: <code>{escape(ref)}</code>", escape(k.type) + (f", {escape(k.range)}" if k.range else "")]
        if k.doc:
            bits.append(escape(k.doc))
        if k.section:
            bits.append(f"rule section: {escape(k.section)}")
        return " · ".join(bits)

    def _rows(self, entry: str, fs: list[KeyField]) -> W.Widget:
        head = "the top of the file" if entry == "-" else f"[{entry}]"
        rows = [W.HTML(f"<h4 style='margin:0.6em 0 0.2em 0'>{escape(head)}</h4>")]
        for f in fs:
            row = W.VBox([W.HBox([f.control, W.HTML(f"<span class='hk-box-about'>{self._about(f)}</span>")],
                                 layout=W.Layout(flex_flow="row wrap", align_items="center")), f.status])
            f.row = row
            rows.append(row)
        return W.VBox(rows)

    def _grid(self, group: str, fs: list[KeyField]) -> W.Widget:
        columns = list(dict.fromkeys(f.key.field for f in fs))
        first = {}
        for f in fs:
            first.setdefault(f.key.field, f)
        head = [W.HTML("<b>entry</b>")]
        for c in columns:
            k = first[c].key
            words = ", ".join(x for x in (k.type, k.range) if x)
            head.append(W.HTML(f"<b>{escape(c)}</b><br><span class='hk-box-about'>{escape(words)}"
                               f"{'<br>' + escape(k.doc) if k.doc else ''}"
                               f"{'<br>rule section: ' + escape(k.section) if k.section else ''}</span>"))
        cells = list(head)
        by_entry: dict[str, dict[str, KeyField]] = {}
        for f in fs:
            by_entry.setdefault(f.key.name, {})[f.key.field] = f
        for name, row in by_entry.items():
            line = [W.HTML(f"<code>{escape(name)}</code>")]
            for c in columns:
                f = row.get(c)
                if f is None:
                    line.append(W.HTML("-"))
                    continue
                ref = "none" if f.reference is _ABSENT else inline_value(f.reference)
                cell = W.VBox([f.control, f.status])
                f.control.tooltip = f"{f.name} (reference: {ref})"
                f.row = cell
                line.append(cell)
            for w in line:
                w.entry_words = " ".join([name, group] + [f.words() for f in row.values()]).lower()
            cells += line
        title = "entries of the file" if group == "" else f"[{group}]: one row per entry"
        grid = W.GridBox(cells, layout=W.Layout(grid_template_columns=f"minmax(7em, auto) repeat({len(columns)}, "
                                                                     "minmax(9em, auto))", grid_gap="0.2em 0.8em"))
        self._grids = getattr(self, "_grids", []) + [grid]
        return W.VBox([W.HTML(f"<h4 style='margin:0.6em 0 0.2em 0'>{escape(title)}</h4>"),
                       W.Box([grid], layout=W.Layout(overflow="auto"))])

    # ---- checking a change

    def field(self, file: str, entry: str, key: str) -> KeyField:
        """The form's field of ``key`` in ``entry`` (``"-"`` for the top of the file) of
        ``file`` (the file name, ``"game.toml"``). Raises KeyError naming it."""
        for f in self.section_fields(file) if file in self.schema.files else ():
            if f.key.entry == entry and f.key.field == key:
                return f
        raise KeyError(f"the form has no key {key!r} in entry {entry!r} of {file!r}")

    def _changed(self, f: KeyField, raw) -> None:
        if f.inline:
            try:
                value = parse_inline(raw)
            except ValueError as exc:
                entry = f.key.entry
                f.problem = str(BoxError(f.label, entry, f"field '{f.key.field}' {exc}", section=f.key.section))
                self._show_status(f)
                self._summarise()
                return
        else:
            value = raw
        candidate = copy.deepcopy(self._data[f.file])
        _set(candidate, f.key.path, value)
        problem = self.problem_of({**self._data, f.file: candidate})
        f.problem = problem or ""
        if problem is None:
            self._data[f.file] = candidate
        self._show_status(f)
        self._summarise()

    def problem_of(self, data: dict) -> str | None:
        """The first problem of the box whose parsed files are ``data`` (file name ->
        data), as the loader words it (file, entry, problem, rule section), or None: every
        file checked by the schema in order, then the whole box loaded by the game's
        ``load_box`` from a temporary folder (its checks between files)."""
        prior: dict = {}
        for name, model in self.schema.files.items():
            try:
                prior[name] = validate(model, data[name], self.schema.label_of(name), context=dict(prior))
            except BoxError as exc:
                return str(exc)
        with tempfile.TemporaryDirectory(prefix="hk-box-check-") as tmp:
            self._write_files(Path(tmp), data)
            try:
                self.game.load_box(tmp)
            except ValueError as exc:  # BoxError, or a game's own subclass of ValueError
                return str(exc)
        return None

    def _show_status(self, f: KeyField) -> None:
        value = _get(self._data[f.file], f.key.path)
        changed = f.reference is _ABSENT or value != f.reference
        for cls, on in (("hk-house-rule", changed and not f.problem), ("hk-box-problem", bool(f.problem))):
            (f.control.add_class if on else f.control.remove_class)(cls)
        if f.problem:
            f.status.value = (f"<span class='hk-box-status' role='alert'>Refused, nothing changed: "
                              f"{escape(f.problem)}</span>")
        elif changed:
            ref = "none" if f.reference is _ABSENT else inline_value(f.reference)
            f.status.value = f"<span class='hk-box-status'>✱ house rule (reference: <code>{escape(ref)}</code>)</span>"
        elif f.in_grid:  # the reference value under the cell (a grid has no column for it)
            ref = "none" if f.reference is _ABSENT else inline_value(f.reference)
            f.status.value = f"<span class='hk-box-about'>reference: <code>{escape(ref)}</code></span>"
        else:
            f.status.value = ""

    # ---- what the form holds

    def values(self) -> dict[str, Any]:
        """The form's box: file name -> its parsed data (the last good values; a copy)."""
        return copy.deepcopy(self._data)

    def house_rules(self) -> list[tuple]:
        """``(file, key path, reference value, value)`` for every key whose value differs
        from the reference box, in file order."""
        out = []
        for name, keys in self.form_keys.items():
            for k in keys:
                value, ref = _get(self._data[name], k.path), _get(self._reference[name], k.path)
                if ref is _ABSENT or value != ref:
                    out.append((self.schema.label_of(name), key_path(k), None if ref is _ABSENT else ref, value))
        return out

    def problems(self) -> list[str]:
        """The sentences the form shows now (a refused value each)."""
        return [f.problem for fs in self._fields.values() for f in fs if f.problem]

    def _summarise(self) -> None:
        rules, problems = self.house_rules(), self.problems()
        start = "the reference box" if self.start_root.resolve() == self.reference_root.resolve() else str(self.start_root)
        ruled = ", ".join(f"{file} {key} = {inline_value(v)}" for file, key, _r, v in rules[:6])
        more = f" and {len(rules) - 6} more" if len(rules) > 6 else ""
        self.summary.value = (
            f"<p><b>{escape(self.title)}: house-rule editor.</b> Starting from {escape(start)}; "
            f"{sum(map(len, self.form_keys.values()))} keys in {len(self.schema.files)} files. "
            + (f"{len(rules)} house rule{'s' if len(rules) != 1 else ''}: {escape(ruled)}{escape(more)}. " if rules
               else "No house rule yet: every value is the reference box's. ")
            + (f"<span role='alert'>{len(problems)} field{'s' if len(problems) != 1 else ''} refused a value "
               "(see the sentence under it).</span>" if problems else "")
            + "</p>")

    def _filter(self) -> None:
        words = self.find.value.strip().lower()
        for f in self.fields if words else [f for fs in self._fields.values() for f in fs]:
            if f.row is not None and not hasattr(f.row, "entry_words"):  # a grid's cells: below, a row at a time
                f.row.layout.display = None if not words or words in f.words() else "none"
        for grid in getattr(self, "_grids", []):
            for cell in grid.children:
                if hasattr(cell, "entry_words"):
                    cell.layout.display = None if not words or words in cell.entry_words else "none"

    # ---- writing a box

    def file_text(self, name: str, data: dict | None = None) -> str:
        """The text of file ``name`` of the form's box (or of ``data``, file name -> parsed
        data): a TOML file is its starting text with every changed value put in (comments
        and layout kept), a comment after each house rule naming the reference value, and
        the house rules listed at its top; another file (read by its own parser) its
        starting text."""
        data = self._data if data is None else data
        text = self._texts[name]
        if name in self.schema.parsers:
            return text
        start = parse_box_toml(text, self.schema.label_of(name))
        doc = tomlkit.parse(text)
        rules = []
        for key in self.form_keys[name]:
            value, reference = _get(data[name], key.path), _get(self._reference[name], key.path)
            if value != _get(start, key.path):
                node = doc
                for k in key.path[:-1]:
                    node = node[k]
                node[key.path[-1]] = _toml_item(value)
            if reference is _ABSENT or value != reference:
                ref = "no such key" if reference is _ABSENT else inline_value(reference)
                rules.append(f"{key_path(key)} = {inline_value(value)} (reference: {ref})")
                parent, last = _get(doc, key.path[:-1]), key.path[-1]
                if isinstance(last, str) and hasattr(parent, "item") and not isinstance(parent, tomlkit.items.InlineTable):
                    parent.item(last).comment(HOUSE_RULE_COMMENT.format(reference=ref))
        lines = tomlkit.dumps(doc).splitlines(keepends=True)
        if lines and lines[0].startswith(HEADER_MARK):  # an earlier save's list of house rules
            lines.pop(0)
            while lines and lines[0].startswith("#   "):
                lines.pop(0)
        head = "".join(f"#   {r}\n" for r in rules)
        return (f"{HEADER_MARK}\n{head}" if rules else "") + "".join(lines)

    def _write_files(self, folder: Path, data: dict) -> None:
        for name in self.schema.files:
            (folder / name).write_text(self.file_text(name, data), encoding="utf-8", newline="")
        for extra in sorted(self.start_root.iterdir()):  # other files of the starting box, unchanged
            if extra.is_file() and not extra.name.startswith(".") and extra.name not in self.schema.files:
                shutil.copyfile(extra, folder / extra.name)

    def save(self, folder) -> Path:
        """Write the form's box to ``folder``, atomically: built in a temporary folder next
        to it, loaded with the game's ``load_box``, then renamed into place (a box folder
        already there is replaced as a whole). Returns the folder.

        Raises:
            BoxSaveError: a field shows a refused value; ``folder`` is the game's reference
                box, inside it, or inside the kit's own data folder; ``folder`` is a file, or a
                non-empty folder that is not a box of the game (it lacks one of its files).
            OSError: the folder cannot be written (nothing is left behind).
        """
        if self.problems():
            bad = next(f for fs in self._fields.values() for f in fs if f.problem)
            raise BoxSaveError(f"{bad.label} {bad.name} shows a refused value: fix it or set it back, then save")
        target = Path(folder).expanduser()
        where = target.resolve()
        kit = shipped_dir()
        if where == self.reference_root.resolve():
            raise BoxSaveError(f"{target} is the reference box of {self.title}: house rules go to a folder of your own "
                               "(e.g. my_rules), so the reference stays as the rule text has it")
        if kit is not None and (where == kit.resolve() or kit.resolve() in where.parents):
            raise BoxSaveError(f"{target} is inside the kit's own data folder ({kit}): save house rules to a folder "
                               "of your own")
        if self.reference_root.resolve() in where.parents:  # a game registered from outside the kit keeps its own
            raise BoxSaveError(f"{target} is inside the reference box of {self.title} ({self.reference_root}): save "
                               "house rules to a folder of your own")
        if target.exists() and not target.is_dir():
            raise BoxSaveError(f"{target} is a file, not a folder: name a new folder, or a box folder to replace")
        is_box = target.is_dir() and any(target.iterdir())
        if is_box:
            missing = [n for n in self.schema.files if not (target / n).is_file()]
            if missing:
                raise BoxSaveError(f"{target} is not empty and is not a {self.title} box (it has no "
                                   f"{', '.join(missing)}): name a new or empty folder, or a box folder to replace")
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
        try:
            self._write_files(tmp, self._data)
            try:
                self.game.load_box(tmp)
            except ValueError as exc:
                raise BoxSaveError(f"the box does not load, nothing was written: {exc}") from None
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o777 & ~umask)  # a folder as any other the user makes (mkdtemp's is private)
            if is_box:
                old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".old"))
                os.replace(target, old)  # onto the empty folder just made
                try:
                    os.replace(tmp, target)
                except BaseException:
                    os.replace(old, target)
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                if target.is_dir():
                    target.rmdir()
                os.replace(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self.saved = target
        return target

    def _save_clicked(self) -> None:
        name = self.folder.value.strip()
        if not name:
            self.save_message.value = "<p role='alert'>Name a folder to save to first (e.g. my_rules).</p>"
            return
        try:
            path = self.save(name)
        except BoxSaveError as exc:
            self.save_message.value = f"<p role='alert'>Not saved: {escape(str(exc))}</p>"
        except OSError as exc:
            self.save_message.value = (f"<p role='alert'>Not saved: {escape(name)} could not be written "
                                       f"({escape(exc.strerror or str(exc))}); nothing was left behind.</p>")
        else:
            n = len(self.house_rules())
            self.save_message.value = (f"<p role='status'>Saved the box with {n} house rule{'s' if n != 1 else ''} "
                                       f"to {escape(str(path))}: load it with the game's load_box, or "
                                       f"<code>--box {escape(str(path))}</code> on the command line.</p>")

    # ---- checking by playing

    def on_checked(self, callback: Callable) -> None:
        """Call ``callback(editor)`` each time a check by playing ends (in its thread)."""
        self._on_checked.append(callback)

    def check(self) -> threading.Thread | None:
        """Start "Check by playing": :func:`~haunted_kit.testing.check_box` on the form's box
        in a worker thread (returned; join it to wait), the progress bar counting the
        games. The verdict (``verdict_text``, shown under the button) names the games, or
        the problems and the seeds and house-rule values of games that did not end.
        Returns None, with the reason as the verdict, while a field shows a refused value
        or a check is still running."""
        if self.check_thread is not None and self.check_thread.is_alive():
            return None
        if self.problems():
            self._say("Fix the refused values first (the sentences under the fields): the check plays the box as "
                      "the form holds it.", alert=True)
            return None
        holder = Path(tempfile.mkdtemp(prefix="hk-box-play-"))
        tmp = holder / PLAYED_FOLDER  # the name the report's words give the box
        tmp.mkdir()
        self._write_files(tmp, self._data)
        try:
            box = self.game.load_box(tmp)
        except BaseException:
            shutil.rmtree(holder, ignore_errors=True)
            raise
        self.check_button.disabled = True
        self.progress.value, self.progress.layout.display = 0, None
        self._say("Playing seeded games under this box...")
        self.check_thread = threading.Thread(target=self._run_check, args=(box, holder), name="hk box check",
                                             daemon=True)
        self.check_thread.start()
        return self.check_thread

    def _progress(self, done: int, total: int) -> None:
        self.progress.max = max(total, 1)
        self.progress.value = done

    def _run_check(self, box, holder: Path) -> None:
        o = self.check_options
        try:
            report = check_box(box, game=self.game, games=o["games"], bot_games=o["bot_games"], seed=o["seed"],
                               cap=o["cap"], progress=self._progress)
            self.report = report
            self._say(self.verdict_words(report).replace(f"the reference box ({PLAYED_FOLDER})", "the reference box"),
                      alert=not report.ok)
        except Exception as exc:  # a check that cannot run is said in words, not raised in a thread
            self.report = None
            self._say(f"The check could not run: {type(exc).__name__}: {exc}", alert=True)
        finally:
            shutil.rmtree(holder, ignore_errors=True)
            self.check_button.disabled = False
            for callback in list(self._on_checked):
                callback(self)

    def verdict_words(self, report) -> str:
        """The verdict of a :class:`~haunted_kit.testing.BoxReport` in words."""
        o = self.check_options
        n = report.games + report.bot_games
        rules = len(self.house_rules())
        what = f"with {rules} house rule{'s' if rules != 1 else ''}" if rules else "with the reference values"
        if report.ok:
            return (f"No problem found in {n} games {what} ({report.games} random, {report.bot_games} by the bots, "
                    f"seeds from {o['seed']}; every setting kept the rules' invariants and ended).")
        lines = [f"Problems found in {n} games {what}:"]
        lines += [f"- {f}" for f in report.failures]
        if report.capped:
            text = str(report).splitlines()
            start = next(i for i, line in enumerate(text) if line.lstrip().startswith("WARNING"))
            lines += [f"- {line.strip()}" for line in text[start:] if not line.startswith("Rebuild")]
        return "\n".join(lines)

    def _say(self, text: str, alert: bool = False) -> None:
        self.verdict_text = text
        body = "<br>".join(escape(line) for line in text.splitlines())
        self.verdict.value = f"<p role='{'alert' if alert else 'status'}'>{body}</p>"


def box_editor(game: str, box=None, **check) -> BoxEditor:
    """The house-rule editor of the registered game ``game`` (:class:`BoxEditor`), starting
    from ``box`` (a folder; None: the reference box). ``check``: ``games``, ``bot_games``,
    ``seed``, ``cap`` of "Check by playing". Raises ValueError for a game without a box
    schema, BoxError for a box that does not load."""
    return BoxEditor(game, box, **check)
