"""Provenance and fingerprints of box values, shared by every rule module's box loader.

Each table of a box file carries ``provenance``: one word for all its fields, or a
table field -> word; the words are ``rulebook`` (printed in the rule text) and
``kit default`` (a gap filled by the kit). A box loaded from another folder than the
one the kit ships is compared with it value by value: a value that differs (or that the
shipped box lacks) shows a third provenance, ``house rule`` (:func:`mark_house_rules`).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping

PROVENANCES = ("rulebook", "kit default")
#: The provenance of a value that differs from the shipped box (never written in a file).
HOUSE_RULE = "house rule"
_MISSING = object()


def mark_house_rules(rows, shipped: dict | None) -> tuple:
    """``(file, entry, field, provenance)`` rows from ``(file, entry, field, provenance,
    value)`` rows: the provenance becomes :data:`HOUSE_RULE` where ``value`` differs
    from ``shipped[(file, entry, field)]`` (``shipped`` None: the shipped box itself)."""
    return tuple((f, e, k, HOUSE_RULE if shipped is not None and shipped.get((f, e, k), _MISSING) != v else p)
                 for f, e, k, p, v in rows)


def read_provenance(table: dict, fields: list[str]) -> list[tuple[str, str]]:
    """``[(field, provenance), ...]`` for ``fields`` of ``table``.

    Raises:
        ValueError: the problem in words (missing, wrong type, a field without
            provenance, an unknown word or field); the loader adds file and entry.
    """
    prov = table.get("provenance")
    if prov is None:
        raise ValueError("missing field 'provenance' (\"rulebook\" or \"kit default\")")
    if isinstance(prov, str):
        prov = {f: prov for f in fields}
    elif not isinstance(prov, dict):
        raise ValueError("field 'provenance' must be a string or a table")
    for f in fields:
        if f not in prov:
            raise ValueError(f"no provenance given for field '{f}'")
    out = []
    for f, p in prov.items():
        if p not in PROVENANCES:
            raise ValueError(f"provenance of '{f}' must be \"rulebook\" or \"kit default\", got {p!r}")
        if f not in fields:
            raise ValueError(f"provenance names unknown field '{f}'")
        out.append((f, p))
    return out


# --------------------------------------------------------------------------- fingerprints

#: Fields of a box that are not rule values: where it was read from, how each value is
#: labelled, the values as written, and the fingerprints themselves.
NOT_VALUES = frozenset({"path", "provenance", "values", "fingerprint", "file_fingerprint"})
#: Changes when the canonical form below changes, so two forms never share a fingerprint.
FINGERPRINT_FORM = "haunted-kit box values 1"


def canonical(value):
    """``value`` (a loaded box's field: dataclasses, dicts, tuples, sets, numbers, strings,
    bools, None, enums) as plain JSON data with its types kept apart: a dataclass becomes
    ``{field: value}``, a dict the list of its ``[key, value]`` pairs in order (the order of
    a box's entries numbers them: it is a value), a set its sorted members.

    Raises:
        TypeError: a value of another type (a new kind of box field must be added here).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@" + type(value).__name__: {f.name: canonical(getattr(value, f.name))
                                             for f in dataclasses.fields(value)}}
    if isinstance(value, Mapping):
        return {"@dict": [[canonical(k), canonical(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {"@set": sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, enum.Enum):
        return {"@" + type(value).__name__: value.value}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return {"@int": str(value)}  # apart from a float of the same value and from a bool
    if isinstance(value, float):
        return {"@float": repr(value)}
    raise TypeError(f"a box value of type {type(value).__name__} has no canonical form")


def value_fingerprint(fields: dict) -> str:
    """SHA-256 (hex, 64 characters) of a box's loaded values: ``fields`` maps the box's
    field names to their values; :data:`NOT_VALUES` are left out. Comments, blank lines,
    spacing, quoting and the way a number is written (``1`` or ``0x1``) change nothing;
    any value that the rules read does (entry order included: it numbers the entries)."""
    data = {k: canonical(v) for k, v in sorted(fields.items()) if k not in NOT_VALUES}
    text = json.dumps([FINGERPRINT_FORM, data], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class Fingerprinted:
    """What a box class of any game shares about fingerprints (a mixin; the box has
    ``fingerprint``, the :func:`value_fingerprint` that saves record, and
    ``file_fingerprint``, the hash of its files' bytes that earlier kits recorded)."""

    __slots__ = ()

    #: fingerprints of earlier data that give the same rules (the reference boxes list theirs)
    earlier_fingerprints: frozenset = frozenset()

    def accepts_fingerprint(self, fingerprint) -> bool:
        """Whether a save, table or dataset that recorded ``fingerprint`` was made with
        this box: its value fingerprint, the byte fingerprint of these same files that
        earlier kits recorded, or one of :attr:`earlier_fingerprints`."""
        return isinstance(fingerprint, str) and (
            fingerprint in (self.fingerprint, self.file_fingerprint) or fingerprint in self.earlier_fingerprints)
