"""The kit's one strict reader of save fields, and the field tables behind copy and save.

Every game's save loader reads the JSON a user handed it (parsed by
:func:`haunted_kit.fileio.parse_json`, which already refuses a key repeated in one
object) through a :class:`SaveReader`: typed reads that accept exactly one JSON type
(an integer is never a bool or a float, not even ``1.0``), within bounds, and raise
the game's own save error naming the field's path (``state.hands[1][2]``,
``players[0].pecunias``).

A game's state declares its fields once, in a table of :class:`StateField`;
:func:`compile_copy` turns the table into the state's ``copy`` method (straight-line
code, one assignment per field, as fast as a hand-written copy), and the game's save
writer and reader walk the same table.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Callable

from .protocol import is_integer

__all__ = ["BoxMismatch", "COPY_KINDS", "SaveReader", "check_save_box", "saved_box", "StateField", "compile_copy", "compile_reader", "copy_tree", "json_value", "short"]

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


def short(v) -> str:
    """A value of a save as it appears in an error message (at most about 40 characters)."""
    return _SHORT.repr(v)


class BoxMismatch(ValueError):
    """A save recorded the fingerprint of another box than the one it is being loaded
    with (raised by :func:`check_save_box` when the caller gives no error class of its own)."""


def saved_box(data) -> tuple[str | None, str | None]:
    """``(fingerprint, path)`` of the box a save says it was made with, read from its
    ``box`` entry in either of the two forms games write: the fingerprint itself
    (``"box": "3f2a..."``) or an object ``{"fingerprint": "3f2a...", "path": "data/house"}``
    (``path`` optional). ``(None, None)`` when ``data`` is not an object or has no ``box``
    entry; a ``box`` entry of another shape gives its fingerprint as ``None``."""
    made_with = data.get("box") if isinstance(data, dict) else None
    if isinstance(made_with, dict):
        fp, path = made_with.get("fingerprint"), made_with.get("path")
        return (fp if isinstance(fp, str) else None), (path if isinstance(path, str) else None)
    return (made_with if isinstance(made_with, str) else None), None


def check_save_box(data, box, title: str = "this game", error: type[Exception] = BoxMismatch) -> None:
    """The one check that a save is loaded with the box it was made with (every game's;
    :func:`haunted_kit.games.load_state` makes it before the Game's ``from_dict``, so a
    game's reader need not).

    ``box`` is the box the save is about to be read with (a game's loaded box, with
    ``fingerprint`` and ``accepts_fingerprint``, see
    :class:`haunted_kit.provenance.Fingerprinted`), or ``None`` for a game without boxes
    (nothing to check), and ``data`` a save's JSON. A save that records a box (a ``box``
    entry, :func:`saved_box`) must record a fingerprint that ``box.accepts_fingerprint``;
    one with no ``box`` entry at all, or that is not a JSON object, is left to the game's
    reader (which says what is wrong with it, or reads an old save that named no box).
    Raises ``error`` (a ValueError subclass, e.g. the game's
    ``SaveError``) naming the box the save was made with (its folder when the save
    records one, and the fingerprint's first 12 digits), the box it was loaded with, and
    how to load it with its own, e.g. ``box: this save was made with another box
    (Landmarks & Architects, folder 'house', fingerprint 3f2a9c0d1e4b), not the box in
    'landmarks' (fingerprint 8f96d3013973); load it with that box (--box DIR, or
    box=load_box(DIR))``."""
    if box is None or not hasattr(box, "accepts_fingerprint") or not isinstance(data, dict) or "box" not in data:
        return
    fingerprint, path = saved_box(data)
    if fingerprint is not None and box.accepts_fingerprint(fingerprint):
        return
    here = f"the box in {_folder(getattr(box, 'path', None))!r} (fingerprint {box.fingerprint[:12]})"
    if fingerprint is None:
        raise error(f"box: the save does not say which {title} box it was made with (its 'box' entry must be the "
                    f"box's fingerprint, or an object with a 'fingerprint' string; got "
                    f"{short(data['box'])}); it cannot be checked against {here}")
    made = f"folder {_folder(path)!r}, " if path else ""
    raise error(f"box: this save was made with another box ({title}, {made}fingerprint {fingerprint[:12]}), not {here}; "
                "load it with that box (--box DIR, or box=load_box(DIR))")


def _folder(path) -> str:
    """The last part of a box's folder as a message names it (never the whole path)."""
    text = str(path or "?").rstrip("/\\")
    return text.replace("\\", "/").rsplit("/", 1)[-1] or text


class SaveReader:
    """Typed reads of a save's JSON values; each fails with ``error`` naming the field.

    Args:
        error: the game's save error class (a ValueError subclass), e.g. Landmarks'
            ``SaveError``.
        form: how a message is written from the field's path and the problem; the
            default gives ``"state.gold[1]: must be an integer, got true"``.

    Every method returns the value it checked, so a loader reads
    ``gold = r.int(d["gold"], "state.gold", 0, 10**6)``.
    """

    def __init__(self, error: type[Exception], form: str = "{where}: {problem}"):
        self.error = error
        self.form = form

    def fail(self, where: str, problem: str):
        """Raise the game's save error for the field at path ``where``."""
        raise self.error(self.form.format(where=where, problem=problem))

    def int(self, v, where: str, low: int = 0, high: int | None = None) -> int:
        """A JSON integer in ``low..high`` (``high=None``: no upper bound); never a bool,
        a float (even ``1.0``), a string or null."""
        if not is_integer(v):
            self.fail(where, f"must be an integer, got {short(v)}")
        if v < low or (high is not None and v > high):
            self.fail(where, f"must be between {low} and {high}, got {v}" if high is not None
                      else f"must be at least {low}, got {v}")
        return v

    def bool(self, v, where: str) -> bool:
        """``true`` or ``false`` (never 0 or 1)."""
        if not isinstance(v, bool):
            self.fail(where, f"must be true or false, got {short(v)}")
        return v

    def str(self, v, where: str, choices=None) -> str:
        """A string; with ``choices`` (names), one of them."""
        if not isinstance(v, str):
            self.fail(where, f"must be a string, got {short(v)}")
        if choices is not None and v not in choices:
            self.fail(where, f"{short(v)} is not one of {', '.join(map(str, choices))}")
        return v

    def list(self, v, where: str, length: int | None = None, most: int | None = None) -> list:
        """A JSON list, of exactly ``length`` entries or at most ``most``."""
        if not isinstance(v, list):
            self.fail(where, f"must be a list, got {type(v).__name__}")
        if length is not None and len(v) != length:
            self.fail(where, f"must have {length} entries, got {len(v)}")
        if most is not None and len(v) > most:
            self.fail(where, f"lists {len(v)} items, more than {most}")
        return v

    def dict(self, v, where: str, keys=None) -> dict:
        """A JSON object; with ``keys``, exactly those keys (the message names the
        missing and the unknown ones)."""
        if not isinstance(v, dict):
            self.fail(where, f"must be an object, got {type(v).__name__}")
        if keys is not None and set(v) != set(keys):
            missing, extra = [k for k in keys if k not in v], [k for k in v if k not in keys]
            self.fail(where, "; ".join(part for part in (
                "missing " + ", ".join(map(repr, missing)) if missing else "",
                "unknown " + ", ".join(map(repr, extra)) if extra else "") if part))
        return v

    def list_of(self, v, where: str, read: Callable, length: int | None = None, most: int | None = None) -> list:
        """A list whose entry ``i`` is read by ``read(value, f"{where}[{i}]")``."""
        return [read(x, f"{where}[{i}]") for i, x in enumerate(self.list(v, where, length, most))]

    def dict_of(self, v, where: str, keys, read: Callable) -> dict:
        """An object with exactly ``keys``, each value read by ``read(value, f"{where}.{key}")``;
        the result follows the order of ``keys``."""
        self.dict(v, where, keys)
        return {k: read(v[k], f"{where}.{k}") for k in keys}


# ============================================================================ field tables

#: How :func:`compile_copy` copies a field: ``value`` shares it (an int, str, tuple, or
#: anything never changed in place), ``list`` copies a list (``v[:]``), ``dict`` a dict,
#: ``set`` a set, ``rows`` a list of lists, dicts or sets one level deeper
#: (``[x.copy() for x in v]``), ``optional_list`` a list or None, ``log`` the event log
#: (a list or None; left out, None, with ``keep_log=False``), ``tree`` nested lists,
#: dicts and sets copied all the way down (tuples and scalars shared).
COPY_KINDS = {
    "value": "{v}",
    "list": "{v}[:]",
    "dict": "{v}.copy()",
    "set": "{v}.copy()",
    "rows": "[x.copy() for x in {v}]",
    "optional_list": "None if {v} is None else {v}[:]",
    "log": "{v}[:] if (keep_log and {v} is not None) else None",
    "tree": "_tree({v})",
}


@dataclass(frozen=True)
class StateField:
    """One field of a game's state: the one place that says how it is copied and saved.

    Attributes:
        name: the attribute of the state.
        copy: a kind of :data:`COPY_KINDS`.
        save: how the game's save writes and reads it (a codec name of the game's save
            module; ``None``: not saved, e.g. a cache).
        key: where it sits in the save (``"season"``, ``"players.resources"``...).
        secret: left out of observations (it would let a player foresee chance).
    """

    name: str
    copy: str
    save: str | None
    key: str = ""
    secret: bool = False


def compile_copy(fields: tuple[StateField, ...], shared: tuple[str, ...] = (), doc: str = ""):
    """A ``copy(self, keep_log=True)`` method compiled from a field table: a new object of
    ``self``'s class (``__init__`` is not run), the ``shared`` attributes (never changed:
    config, box, board) assigned as they are, then one assignment per field as its
    :data:`COPY_KINDS` entry says.

    Raises:
        ValueError: a field with an unknown copy kind (a typo in the table).
    """
    lines = ["def copy(self, keep_log=True):", "    new = _new(self.__class__)"]
    for name in shared:
        lines.append(f"    new.{name} = self.{name}")
    for f in fields:
        form = COPY_KINDS.get(f.copy)
        if form is None:
            raise ValueError(f"unknown copy kind {f.copy!r} of field {f.name} (known: {', '.join(COPY_KINDS)})")
        lines.append(f"    new.{f.name} = " + form.format(v=f"self.{f.name}"))
    lines.append("    return new")
    namespace = {"_new": object.__new__, "_tree": copy_tree}
    exec("\n".join(lines), namespace)  # noqa: S102 - code generated from a game's constant field table
    copy = namespace["copy"]
    copy.__doc__ = doc or "An independent copy of the state (see the game's field table)."
    return copy


def compile_reader(names: tuple[str, ...]):
    """A function ``read(state)`` returning the tuple of ``state.NAME`` for each of
    ``names``, in order, compiled once: plain attribute loads, which the interpreter
    specialises (for slots too), about a third of the cost of ``operator.attrgetter``
    over the same fields. The observation encoders' ``from_state`` reads the fields it
    compares with it.

    Raises:
        ValueError: a name that is not an identifier, or no names.
    """
    names = tuple(names)
    if not names or not all(isinstance(n, str) and n.isidentifier() for n in names):
        raise ValueError(f"compile_reader needs attribute names, got {names!r}")
    namespace: dict = {}
    exec(f"def read(s):\n    return ({', '.join(f's.{n}' for n in names)},)", namespace)  # noqa: S102 - checked identifiers
    return namespace["read"]


def copy_tree(v):
    """A copy of nested lists, dicts and sets, all the way down; tuples and scalars are
    shared (they never change in place). The ``tree`` copy kind."""
    if isinstance(v, list):
        return [copy_tree(x) for x in v]
    if isinstance(v, dict):
        return {k: copy_tree(x) for k, x in v.items()}
    if isinstance(v, set):
        return {copy_tree(x) for x in v}
    return v


def json_value(v):
    """A JSON-ready copy of a field's value: lists and tuples become new lists, dicts new
    dicts (keys as they are), sets sorted lists; anything else (int, str, bool, None)
    as it is. The save writer of a field whose save codec is ``"json"``."""
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    return v
