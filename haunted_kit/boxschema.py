"""Boxes described once, by schema: the models a game's box files are checked against,
the one translation of a schema error into the kit's :class:`~haunted_kit.boxfile.BoxError`,
the provenance rows of a checked file, and the box reference generated from the schema.

A game describes each file of its box as a pydantic v2 model (:class:`BoxModel` for a
plain table, :class:`BoxTable` for a table that carries ``provenance``,
:class:`BoxEntries` for a file whose top-level tables are its entries; a key holding a
table of named entries is ``dict[str, Entry]``), declares each key with
:func:`box_field` (rule section, range, what it means) and gathers the files in a
:class:`BoxSchema`::

    class Players(BoxTable):
        section: ClassVar[str] = "Landmarks: Game Setup"
        min: Whole = box_field(low=2, high=8, doc="fewest players")
        max: Whole = box_field(low=2, high=8, doc="most players")

        @model_validator(mode="after")
        def _order(self):
            if self.max < self.min:
                raise Invalid(f"field 'max' ({self.max}) must be at least 'min' ({self.min})")
            return self

    SCHEMA = BoxSchema({"game.toml": GameFile}, label="landmarks/")
    files = SCHEMA.read(folder)   # {"game.toml": GameFile(...)}, or BoxError

Models are strict: an unknown key is refused (naming the known ones), an integer field
takes a whole number only (not ``true``, not ``2.0``, not ``"2"``), a string field a
string. Every problem raises one :class:`~haunted_kit.boxfile.BoxError` naming the file,
the entry (the key path of the table, ``cards.vardo``; ``-`` for the file itself), the
problem (``field 'discard' must be int, got 'one'``) and, when declared, the rule
section. Cross-field checks are model validators raising :class:`Invalid`.

A table whose keys are names chosen by the box (a value per resource) sets
``model_config = ConfigDict(extra="allow")`` and types those keys with
``__pydantic_extra__: dict[str, Whole] = Field(init=False)`` (its validator checks the
names; ``extra_doc``, a class variable, is the reference's meaning of its keys).

A game declares its schema as the optional ``box_schema`` attribute of its Game object
(docs/NEW_GAME.md); :func:`reference_markdown` turns it into the box reference of
docs/BOXES.md.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import annotated_types
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator

from .boxfile import MAX_BOX_FILE_BYTES, MAX_NUMBER, BoxError, parse_box_toml, read_box_text
from .provenance import mark_house_rules, read_provenance, value_fingerprint

__all__ = ["BoxModel", "BoxTable", "BoxEntries", "BoxSchema", "Invalid", "Name", "Names", "Whole", "box_field",
           "require_known", "earlier", "validate",
           "read_file", "provenance_rows", "box_reference", "reference_markdown", "game_schema", "key_matches"]


class Invalid(ValueError):
    """Raised by a model validator for a problem the schema's types cannot state (a
    cross-field or cross-file check). ``problem`` is the sentence the user reads;
    ``entry`` the key path it concerns (default: the table the validator belongs to,
    ``-`` for a whole file), or ``within`` a key path inside that table
    (``"give[1]"``: the error's entry is ``actions.sell_marble.give[1]``). A check of one
    file that finds the fault in a file checked before it (one that names what this file
    lacks) gives that file's name as ``file`` (as errors name it) and its rule ``section``."""

    def __init__(self, problem: str, *, entry: str | None = None, within: str | None = None,
                 file: str | None = None, section: str | None = None):
        super().__init__(problem)
        self.problem, self.entry, self.within, self.file, self.section = problem, entry, within, file, section


class _Unknown(Invalid):
    """A key outside a model's fields (worded as a table at the top of a file)."""

    def __init__(self, key: str, known: tuple[str, ...]):
        super().__init__(f"unknown field {key!r} (known: {', '.join(known)})")
        self.key, self.known = key, known


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or blank")
    return value


#: A name or text: a string, not empty or blank.
Name = Annotated[str, AfterValidator(_not_blank)]
def _whole(value: int) -> int:
    if value < 0:
        raise ValueError(f"must not be negative, got {value}")
    if value > MAX_NUMBER:
        raise ValueError(f"must be at most {MAX_NUMBER}, got {value}")
    return value


#: A whole number (not a bool, not a float) 0..:data:`~haunted_kit.boxfile.MAX_NUMBER`;
#: tighten with :func:`box_field`'s ``low``/``high``.
Whole = Annotated[int, AfterValidator(_whole)]


def _distinct(values: list) -> list:
    if len(set(values)) != len(values):
        raise ValueError("lists a name twice")
    return values


#: A list of distinct names (``box_field(min_items=1)`` for at least one).
Names = Annotated[list[Name], AfterValidator(_distinct)]


def require_known(field: str, values, allowed, what: str = "value", *, entry: str | None = None, also: str = "") -> None:
    """Refuse the first of ``values`` (one value or a list) outside ``allowed`` (a value
    another file or table names), from a model validator.

    Raises:
        Invalid: ``"field 'icon' has unknown resource 'grain' (known: food, wood)"``;
            ``also`` is added inside the brackets (``', or "" for any card'``).
    """
    for value in (values if isinstance(values, (list, tuple)) else [values]):
        if value not in allowed:
            raise Invalid(f"field '{field}' has unknown {what} {value!r} (known: {', '.join(map(str, allowed))}{also})",
                          entry=entry)


def earlier(info, name: str):
    """From a model validator's ``info`` (``pydantic.ValidationInfo``): the checked file
    ``name`` of the same box (:meth:`BoxSchema.read` passes the files checked before), or
    None when the model is checked on its own."""
    context = getattr(info, "context", None)
    return context.get(name) if isinstance(context, dict) else None


def box_field(default: Any = ..., *, section: str = "", low: int | None = None, high: int | None = None,
              min_items: int | None = None, max_items: int | None = None, doc: str = "") -> Any:
    """Declare one key of a box table (use as the default of a model field).

    Args:
        default: the value when the key is left out; omitted (``...``): the key is required.
        section: the rule section the key applies (``"Landmarks: Game Setup"``); default:
            the model's ``section`` class variable.
        low, high: the range of a number (inclusive; ``None``: the type's own bound).
        min_items, max_items: how many items a list (or table) may hold.
        doc: what the key means, in a few words (the reference's "meaning" column).

    Returns:
        a ``pydantic.Field`` carrying ``section`` in its ``json_schema_extra``.
    """
    extra = {"section": section} if section else None
    return Field(default, ge=low, le=high, min_length=min_items, max_length=max_items, description=doc or None,
                 json_schema_extra=extra)


class BoxModel(BaseModel):
    """A table of a box file: unknown keys refused (naming the known ones), strict
    types, frozen. ``section`` (class variable) is the rule section of its keys unless
    a key declares its own."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    section: ClassVar[str] = ""

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and cls.model_config.get("extra") != "allow":
            known = tuple(k for k in cls.model_fields if k != "provenance")
            extra = next((k for k in data if k not in cls.model_fields), None)
            if extra is not None:
                raise _Unknown(extra, known)
        return data


class BoxTable(BoxModel):
    """A :class:`BoxModel` whose table carries ``provenance``: one word for all its
    keys or a table key -> word (``"rulebook"`` or ``"kit default"``,
    :func:`~haunted_kit.provenance.read_provenance`). After checking, ``provenance``
    holds key -> word for every key written in the file, in the file's order."""

    provenance: dict[str, str] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _read_provenance(cls, data: Any) -> Any:
        if isinstance(data, dict):
            cls._known_keys(data)
            given = [k for k in data if k != "provenance"]
            prov = data.get("provenance")
            # a required key left out but named in the provenance: reported as missing, not as unknown;
            # an optional key left out and named there is refused: its provenance would describe nothing
            absent = [k for k in prov if k in cls.model_fields and k not in data] if isinstance(prov, dict) else []
            for k in absent:
                if not cls.model_fields[k].is_required():
                    raise Invalid(f"provenance names field '{k}', which the table does not give")
            try:
                pairs = read_provenance(data, given + absent)
            except (TypeError, ValueError) as exc:
                raise Invalid(str(exc)) from None
            data = {**data, "provenance": {k: p for k, p in pairs if k in data}}
        return data


class BoxEntries(RootModel):
    """Base of a file (or table) whose keys are entries of one kind: subclass as
    ``class Resources(BoxEntries): root: dict[str, Resource]``."""

    model_config = ConfigDict(strict=True, frozen=True)
    section: ClassVar[str] = ""


# --------------------------------------------------------------------------- errors

_KINDS = {"int_type": "int", "int_from_float": "int", "int_parsing": "int", "bool_type": "true or false",
          "string_type": "str", "list_type": "a list", "tuple_type": "a list", "float_type": "a number"}
_TABLE_ERRORS = ("dict_type", "model_type", "model_attributes_type")


def _bare(tp):
    """``tp`` without ``Annotated`` and ``X | None``."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _is_model(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _step(tp, key):
    """The type at ``key`` inside ``tp`` and its FieldInfo (None for dict/list items)."""
    tp = _bare(tp)
    if _is_model(tp) and issubclass(tp, RootModel):
        return _step(tp.model_fields["root"].annotation, key)
    if _is_model(tp):
        info = tp.model_fields.get(key) if isinstance(key, str) else None
        return (info.annotation, info) if info is not None else (None, None)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is dict and len(args) == 2:
        return args[1], None
    if origin in (list, tuple) and args:
        return args[0], None
    return None, None


def _path(loc) -> str:
    """The key path of a pydantic ``loc``; a list's items are counted from 1, as
    :func:`~haunted_kit.boxfile.parse_box_toml`, the provenance rows and a file's
    ``[[table]]`` headers count them (``options[3]``: the third ``[[...options]]``)."""
    out = ""
    for k in loc:
        out += f"[{k + 1}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def _section_at(model, loc) -> str:
    """The rule section of the key at ``loc``: its own, else its nearest table's."""
    tp, section = model, getattr(model, "section", "")
    for k in loc:
        tp, info = _step(tp, k)
        if info is not None and (info.json_schema_extra or {}).get("section"):
            section = info.json_schema_extra["section"]
        elif _is_model(_bare(tp)) and getattr(_bare(tp), "section", ""):
            section = _bare(tp).section
        if tp is None:
            break
    return section


def _describe(err: dict, is_table: bool) -> str:
    """What is wrong with the value at an error's loc (without the key)."""
    kind, got, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    if kind in _KINDS:
        return f"must be {_KINDS[kind]}, got {got!r}"
    if kind in _TABLE_ERRORS:
        return "must be a table" if is_table else f"must be a table, got {got!r}"
    if kind == "greater_than_equal":
        return f"must not be negative, got {got!r}" if ctx.get("ge") == 0 else f"must be at least {ctx.get('ge')}, got {got!r}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, got {got!r}"
    if kind == "literal_error":
        return f"has unknown value {got!r} (known: {ctx.get('expected')})"
    if kind == "too_short":
        n = ctx.get("min_length", 1)
        return "must not be empty" if n == 1 else f"must list at least {n} items, got {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"must list at most {ctx.get('max_length')} items, got {ctx.get('actual_length')}"
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", err["msg"]))
    return f"{err['msg'][:1].lower()}{err['msg'][1:]}, got {got!r}"


def _table_like(tp) -> bool:
    """A model, or a table of models (a TOML table the user sees as a table of entries)."""
    bare = _bare(tp)
    args = typing.get_args(bare)
    return _is_model(bare) or (typing.get_origin(bare) is dict and len(args) == 2 and _is_model(_bare(args[1])))


def _error(model, err: dict, label: str) -> BoxError:
    """The :class:`BoxError` for one pydantic error ``err`` of ``model`` in file ``label``:
    the entry is the key path of the innermost table (model) holding the failing key, the
    field the rest of the path (``income.gold``, ``colours[1]``)."""
    loc = tuple(err["loc"])
    exc = (err.get("ctx") or {}).get("error")
    section = _section_at(model, loc)
    if isinstance(exc, _Unknown):
        if not loc:
            return BoxError(label, exc.key, f"unknown table (known: {', '.join(exc.known)})", section=section)
        return BoxError(label, _path(loc), exc.problem, section=section)
    if isinstance(exc, Invalid):
        entry = exc.entry or _path(loc) or "-"
        if exc.entry and exc.entry != "-":  # the section of the entry named, where the validator's table has none
            section = section or _section_at(model, tuple(exc.entry.split(".")))
        if exc.within:
            entry = f"{_path(loc)}.{exc.within}" if loc else exc.within
        if exc.file:
            return BoxError(exc.file, entry, exc.problem, section=exc.section or "")
        return BoxError(label, entry, exc.problem, section=section)
    steps, tp = [model], model
    for k in loc:
        tp, _info = _step(tp, k)
        steps.append(tp)
    if not loc or _table_like(tp):
        problem = "missing table" if err["type"] == "missing" else _describe(err, True)
        return BoxError(label, _path(loc) or "-", problem, section=section)
    table = max(i for i in range(len(loc)) if _is_model(_bare(steps[i])))
    field = _path(loc[table:])
    problem = f"missing field '{field}'" if err["type"] == "missing" else f"field '{field}' {_describe(err, False)}"
    return BoxError(label, _path(loc[:table]) or "-", problem, section=section)


def validate(model: type[BaseModel], data: Any, label: str, *, context: dict | None = None) -> BaseModel:
    """``data`` (a parsed box file) checked against ``model``.

    Args:
        model: the file's model (a :class:`BoxModel`, :class:`BoxEntries`, ...).
        data: the file's parsed TOML (:func:`~haunted_kit.boxfile.parse_box_toml`).
        label: how the error names the file (``"landmarks/deck.toml"``).
        context: passed to the model's validators (``info.context``); :meth:`BoxSchema.read`
            gives the files checked before this one, by name.

    Returns:
        the model instance.

    Raises:
        BoxError: the first problem, naming ``label``, the entry (key path), the problem
            (what was expected, what was found) and the rule section (``section``).
    """
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise _error(model, exc.errors(include_url=False)[0], label) from None


def read_file(root: Path, name: str, model: type[BaseModel], *, label: str | None = None, context: dict | None = None,
              max_bytes: int = MAX_BOX_FILE_BYTES, parse: Callable[[str, str], Any] = parse_box_toml) -> BaseModel:
    """The box file ``root / name`` read (:func:`~haunted_kit.boxfile.read_box_text`: size
    limit, UTF-8), parsed by ``parse(text, label)`` (default
    :func:`~haunted_kit.boxfile.parse_box_toml`: TOML, depth, blank keys; a CSV file
    gives its own, which raises BoxError) and checked against ``model``
    (:func:`validate`). Raises BoxError."""
    label = label or name
    return validate(model, parse(read_box_text(root, name, label=label, max_bytes=max_bytes), label), label,
                    context=context)


@dataclass(frozen=True)
class BoxSchema:
    """A game's box: its files, in the order they are checked, each with its model.

    ``files`` maps a file name in the box folder to its model; ``label`` is prefixed to
    the names errors and provenance rows give (``"landmarks/"``); ``parsers`` maps a file
    name to the function ``(text, label) -> data`` that parses it when it is not TOML
    (e.g. a CSV file; it raises BoxError for a bad file).
    """

    files: dict[str, type[BaseModel]]
    label: str = ""
    parsers: dict[str, Callable[[str, str], Any]] = dataclass_field(default_factory=dict)

    def label_of(self, name: str) -> str:
        """How errors and rows name the file ``name`` (``"landmarks/deck.toml"``)."""
        return self.label + name

    def read(self, root: Path) -> dict[str, BaseModel]:
        """Every file of the box in ``root`` read and checked, in order: file name ->
        model instance. Each file's validators get the files checked before it as
        ``info.context`` (file name -> instance). Raises BoxError for the first problem."""
        out: dict[str, BaseModel] = {}
        for name, model in self.files.items():
            out[name] = read_file(Path(root), name, model, label=self.label_of(name), context=dict(out),
                                  parse=self.parsers.get(name, parse_box_toml))
        return out

    def rows(self, files: dict[str, BaseModel]) -> list[tuple]:
        """``(file, entry, field, provenance, value)`` rows of every checked file
        (:func:`provenance_rows`), in file order. (A box's ``provenance`` keeps four of
        them, without the value: :meth:`box_parts` makes it.)"""
        return [row for name, inst in files.items() for row in provenance_rows(inst, self.label_of(name))]

    def box_parts(self, files: dict[str, BaseModel], fields: dict, shipped: dict | None = None) -> dict:
        """The parts of a box that the kit reads, made from files this schema read, so a
        game's ``load_box`` need not assemble them (docs/NEW_GAME.md, "What a box holds")::

            files = SCHEMA.read(path)
            fields = {"min_players": files["game.toml"].players.min, ...}   # the box's own fields
            shipped = None if same_folder else default_box().values
            return MyBox(path=str(path), **fields, **SCHEMA.box_parts(files, fields, shipped))

        Args:
            files: :meth:`read`'s result (file name -> checked model).
            fields: the box's rule values, field name -> value (what the fingerprint hashes;
                the names in :data:`~haunted_kit.provenance.NOT_VALUES` are left out).
            shipped: the shipped box's ``values`` to mark house rules against, or ``None``
                when this is the shipped box itself.

        Returns:
            ``{"provenance", "values", "fingerprint"}``: ``provenance`` the rows
            ``(file, entry, key, provenance)`` with ``"house rule"`` where a value differs
            from ``shipped`` (:func:`~haunted_kit.provenance.mark_house_rules`); ``values``
            ``{(file, entry, key): value}`` holding exactly the rows' values (as written;
            tables as dicts); ``fingerprint`` :func:`~haunted_kit.provenance.value_fingerprint`
            of ``fields`` (64 hex characters).
        """
        rows = self.rows(files)
        return {"provenance": mark_house_rules(rows, shipped), "values": {(f, e, k): v for f, e, k, _p, v in rows},
                "fingerprint": value_fingerprint(fields)}


def _dump(value):
    """A checked value as the file wrote it: a table as the dict of its written keys, a
    list item by item."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_unset=True)
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value


def _value(instance: BaseModel, key: str):
    """The checked value of ``key`` (a field, or a key of a table that allows extra keys)."""
    extra = instance.__pydantic_extra__ or {}
    return extra[key] if key in extra else getattr(instance, key)


def provenance_rows(instance: BaseModel, label: str, prefix: str = "") -> list[tuple]:
    """``(file, entry, field, provenance, value)`` for every key of every
    :class:`BoxTable` in ``instance`` (a checked file named ``label``): ``entry`` is the
    table's key path (a table in a list by its place counted from 1:
    ``market_cards.1.options[3]``), ``value`` the key's value as written (tables as dicts of
    their written keys). Keys left out of the file (their default used) have no row."""
    rows: list[tuple] = []
    if isinstance(instance, RootModel):
        items = instance.root.items() if isinstance(instance.root, dict) else ()
        for k, v in items:
            if isinstance(v, BaseModel):
                rows += provenance_rows(v, label, f"{prefix}.{k}" if prefix else k)
        return rows
    if isinstance(instance, BoxTable):
        rows += [(label, prefix or "-", f, p, _dump(_value(instance, f))) for f, p in instance.provenance.items()]
    for name in type(instance).model_fields:
        v = getattr(instance, name)
        entry = f"{prefix}.{name}" if prefix else name
        if isinstance(v, BaseModel):
            rows += provenance_rows(v, label, entry)
        elif isinstance(v, dict):
            rows += [r for k, item in v.items() if isinstance(item, BaseModel)
                     for r in provenance_rows(item, label, f"{entry}.{k}")]
        elif isinstance(v, list):
            rows += [r for i, item in enumerate(v, start=1) if isinstance(item, BaseModel)
                     for r in provenance_rows(item, label, f"{entry}[{i}]")]
    return rows


# --------------------------------------------------------------------------- the reference

def _type_name(tp) -> str:
    tp = _bare(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin in (list, tuple):
        if args and _is_model(_bare(args[0])):
            return "list of tables" + _type_name(args[0])[len("table"):]
        return f"list of {_type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"table of name -> {_type_name(args[1])}"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args)
    if _is_model(tp):
        return f"table ({', '.join(k for k in tp.model_fields if k != 'provenance')})"
    return {int: "whole number", bool: "true or false", str: "text"}.get(tp, getattr(tp, "__name__", str(tp)))


def _bounds(info, tp) -> tuple:
    """``(low, high, items_low, items_high)`` of a key (None where the type sets none)."""
    low = high = items_low = items_high = None
    metas = list(info.metadata) if info is not None else []
    if typing.get_origin(tp) is Annotated:
        metas = [m for a in typing.get_args(tp)[1:] for m in (getattr(a, "metadata", None) or [a])] + metas
    for m in metas:
        if getattr(m, "func", None) is _whole:
            low, high = 0 if low is None else low, MAX_NUMBER if high is None else high
        elif isinstance(m, annotated_types.Ge):
            low = m.ge
        elif isinstance(m, annotated_types.Le):
            high = m.le
        elif isinstance(m, annotated_types.MinLen):
            items_low = m.min_length
        elif isinstance(m, annotated_types.MaxLen):
            items_high = m.max_length
    return low, high, items_low, items_high


def _range(info, tp) -> str:
    low, high, items_low, items_high = _bounds(info, tp)
    parts = []
    if low is not None or high is not None:
        parts.append(f"{'' if low is None else low}..{'' if high is None else high}")
    if items_low is not None or items_high is not None:
        parts.append(f"{items_low or 0}..{'' if items_high is None else items_high} items")
    return ", ".join(parts)


def _key_rows(model, prefix: str, section: str) -> list[dict]:
    """The reference rows of ``model``'s keys under the key path ``prefix``."""
    model = _bare(model)
    section = getattr(model, "section", "") or section
    if issubclass(model, RootModel):
        return _nested(model.model_fields["root"].annotation, None, prefix, section) or []
    rows = []
    for name, info in model.model_fields.items():
        if name == "provenance" and issubclass(model, BoxTable):
            continue
        key = f"{prefix}.{name}" if prefix else name
        own = (info.json_schema_extra or {}).get("section") or section
        nested = _nested(info.annotation, info, key, own)
        if nested is not None:
            rows += nested
            continue
        default = "required" if info.is_required() else f"optional, else {info.get_default(call_default_factory=True)!r}"
        rows.append({"key": key, "type": _type_name(info.annotation), "range": _range(info, info.annotation),
                     "default": default, "section": own, "meaning": info.description or ""})
        item = _list_item_model(info.annotation)
        if item is not None:  # a list of tables: its tables' keys too, as key[<n>].field
            rows += _key_rows(item, f"{key}[<n>]", own)
    extra = (typing.get_type_hints(model, include_extras=True).get("__pydantic_extra__")
             if model.model_config.get("extra") == "allow" else None)
    if extra is not None:  # a table whose keys are names (a table of amounts by resource)
        tp = typing.get_args(_bare(extra))[1] if typing.get_origin(_bare(extra)) is dict else extra
        rows.append({"key": f"{prefix}.<name>" if prefix else "<name>", "type": _type_name(tp), "range": _range(None, tp),
                     "default": "required", "section": section, "meaning": getattr(model, "extra_doc", "")})
    return rows


def _list_item_model(tp):
    """The model of a list of tables (``list[Model]``), else None."""
    bare = _bare(tp)
    args = typing.get_args(bare)
    return _bare(args[0]) if typing.get_origin(bare) is list and args and _is_model(_bare(args[0])) else None


def _nested(tp, info, key: str, section: str) -> list[dict] | None:
    """Rows of a table-valued key (a model, or a table of models), else None."""
    bare = _bare(tp)
    if _is_model(bare):
        return _key_rows(bare, key, section)
    args = typing.get_args(bare)
    if typing.get_origin(bare) is dict and len(args) == 2 and _is_model(_bare(args[1])):
        return _key_rows(args[1], f"{key}.<name>" if key else "<name>", section)
    return None


def _pattern(entry: str, field: str) -> str:
    """The key path of a provenance row's field (``cards.vardo.copies``)."""
    return f"{entry}.{field}" if entry and entry != "-" else field


def box_reference(model: type[BaseModel], *, file: str = "", shipped: BaseModel | None = None) -> list[dict]:
    """One row per key of ``model`` (a box file's model), nested tables flattened into
    key paths (``players.min``; a table of entries as ``cards.<name>.copies``).

    A list of tables also gives its tables' keys, as ``key[<n>].field``.

    Each row: ``file``, ``key``, ``type`` (``"whole number"``, ``"list of text"``, ...),
    ``range`` (``"1..8"``, ``"0..8 items"``, ``""``), ``default`` (the value the kit's
    own box gives, from ``shipped``: one value, or ``"per entry"`` for a table of
    entries; without ``shipped``: ``"required"`` or the value when left out),
    ``provenance`` (the words the kit's own box gives the key, ``"rulebook"``,
    ``"kit default"`` or both), ``section`` (the rule section) and ``meaning``.
    """
    rows = _key_rows(model, "", "")
    found: dict[str, list] = {}
    if shipped is not None:
        for _f, entry, field, prov, value in provenance_rows(shipped, file):
            found.setdefault(_generic(rows, _pattern(entry, field)), []).append((prov, value))
    for row in rows:
        row["file"] = file
        got = found.get(row["key"], [])
        row["provenance"] = " / ".join(sorted({p for p, _v in got}))
        if got and "<name>" not in row["key"]:
            row["default"] = _show(got[0][1])
        elif got and row["default"] == "required":
            shown = {_show(v) for _p, v in got}
            row["default"] = (f"{shown.pop()} in each of {len(got)}" if len(shown) == 1
                              else f"per entry ({len(got)} entries)")
    return [{k: r[k] for k in ("file", "key", "type", "range", "default", "provenance", "section", "meaning")}
            for r in rows]


def key_matches(pattern: str, concrete: str) -> bool:
    """Whether the concrete key path (``market_cards.1.options[3].count``) is an instance of
    the reference key ``pattern`` (``market_cards.<name>.options[<n>].count``): ``<name>``
    stands for any one key, ``[<n>]`` for any place in a list."""
    want, parts = pattern.split("."), concrete.split(".")
    return len(want) == len(parts) and all(
        re.fullmatch(re.escape(w).replace(re.escape("<name>"), r"[^.\[\]]+").replace(re.escape("[<n>]"), r"\[\d+\]"), p)
        for w, p in zip(want, parts))


def _generic(rows: list[dict], concrete: str) -> str:
    """The reference key (with ``<name>`` and ``[<n>]``) that the concrete key path matches."""
    return next((row["key"] for row in rows if key_matches(row["key"], concrete)), concrete)


def _show(value) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).replace("'", '"')


def game_schema(game) -> BoxSchema | None:
    """The :class:`BoxSchema` a game declares (its Game's optional ``box_schema``), or None."""
    schema = getattr(game, "box_schema", None)
    return schema if isinstance(schema, BoxSchema) else None


def reference_markdown(schema: BoxSchema, title: str, shipped_root: Path | None = None) -> str:
    """The box reference of one game as a markdown section: a heading ``title``, then per
    file a table of :func:`box_reference` rows (defaults and provenance from the box in
    ``shipped_root``, the kit's own, when given)."""
    shipped = schema.read(shipped_root) if shipped_root is not None else {}
    out = [f"## {title}", ""]
    for name, model in schema.files.items():
        label = schema.label_of(name)
        out += [f"### `{label}`", "", "| key | type | range | default | provenance | rule section | meaning |",
                "|---|---|---|---|---|---|---|"]
        for r in box_reference(model, file=label, shipped=shipped.get(name)):
            cells = [f"`{r['key']}`", r["type"], r["range"], r["default"], r["provenance"], r["section"], r["meaning"]]
            out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- keys one by one (the box editor)

__all__ += ["BoxKey", "box_keys"]


@dataclass(frozen=True)
class BoxKey:
    """One key written in a box file, as a form edits it (:func:`box_keys`).

    Attributes:
        path: the keys leading to it in the parsed file (a list item by its index from 0):
            ``("cards", "vardo", "copies")``.
        entry, field: the key as a provenance row names it (``entry`` the key path of its
            table, ``-`` for the top of the file; a list item counted from 1).
        group, name: for a key of a named entry (a table of a ``dict[str, Model]`` or of a
            :class:`BoxEntries` file) the key path of the table of entries (``"cards"``;
            ``""`` for a file of entries) and the entry's name; else None.
        kind: how it is edited: ``"whole"`` (a whole number), ``"bool"``, ``"choice"``
            (one of ``choices``), ``"text"``, or ``"value"`` (a list or table, written as
            an inline TOML value).
        low, high: a whole number's range (inclusive; None: unbounded on that side).
        type, range: the reference's words (``"whole number"``, ``"1..9"``).
        section: the rule section; doc: what it means.
    """

    path: tuple
    entry: str
    field: str
    kind: str
    type: str
    range: str
    section: str
    doc: str
    low: int | None = None
    high: int | None = None
    choices: tuple = ()
    group: str | None = None
    name: str | None = None


def _key(tp, info, path, entry, field, section, doc, group) -> BoxKey:
    bare = _bare(tp)
    low, high, _il, _ih = _bounds(info, tp)
    choices: tuple = ()
    if typing.get_origin(bare) is Literal:
        kind, choices = "choice", typing.get_args(bare)
    elif bare is bool:
        kind = "bool"
    elif bare is int:
        kind = "whole"
    elif bare is str:
        kind = "text"
    else:
        kind = "value"
    return BoxKey(path, entry, field, kind, _type_name(tp), _range(info, tp), section, doc, low, high, choices,
                  *(group or (None, None)))


def box_keys(model: type[BaseModel], data: Any, section: str = "") -> list[BoxKey]:
    """Every key written in ``data`` (a parsed box file) that ``model`` (the file's model)
    declares, in the file's order, as :class:`BoxKey` rows: nested tables, tables of
    named entries and lists of tables are walked into, so every key is a plain value, a
    list or a table of values (e.g. amounts by resource). ``provenance`` is not a key;
    a key the model does not know, or data of the wrong shape, gives no row (the
    schema's check refuses it)."""
    out: list[BoxKey] = []
    _walk_model(model, data, (), "", section, None, out)
    return out


def _walk_model(model, data, path: tuple, prefix: str, section: str, group, out: list) -> None:
    model = _bare(model)
    section = getattr(model, "section", "") or section
    if not isinstance(data, dict):
        return
    if issubclass(model, RootModel):
        _walk_nested(model.model_fields["root"].annotation, data, path, prefix, section, out)
        return
    extra = (typing.get_type_hints(model, include_extras=True).get("__pydantic_extra__")
             if model.model_config.get("extra") == "allow" else None)
    extra_tp = (typing.get_args(_bare(extra))[1] if extra is not None and typing.get_origin(_bare(extra)) is dict
                else extra)
    for name, value in data.items():
        if name == "provenance" and issubclass(model, BoxTable):
            continue
        info = model.model_fields.get(name)
        if info is None:
            if extra_tp is not None:
                out.append(_key(extra_tp, None, path + (name,), prefix or "-", name, section,
                                getattr(model, "extra_doc", ""), group))
            continue
        own = (info.json_schema_extra or {}).get("section") or section
        entry = f"{prefix}.{name}" if prefix else name
        if not _walk_nested(info.annotation, value, path + (name,), entry, own, out):
            out.append(_key(info.annotation, info, path + (name,), prefix or "-", name, own, info.description or "",
                            group))


def _walk_nested(tp, value, path: tuple, entry: str, section: str, out: list) -> bool:
    """Walk a table-valued key (a model, a table of models, a list of models); False if it is none."""
    bare = _bare(tp)
    if _is_model(bare):
        _walk_model(bare, value, path, entry, section, None, out)
        return True
    origin, args = typing.get_origin(bare), typing.get_args(bare)
    if origin is dict and len(args) == 2 and _is_model(_bare(args[1])):
        for k, v in (value.items() if isinstance(value, dict) else ()):
            _walk_model(args[1], v, path + (k,), f"{entry}.{k}" if entry else k, section, (entry, k), out)
        return True
    if origin is list and args and _is_model(_bare(args[0])):
        for i, v in enumerate(value if isinstance(value, list) else ()):
            _walk_model(args[0], v, path + (i,), f"{entry}[{i + 1}]", section, None, out)
        return True
    return False
