"""Provenance of box values, shared by every rule module's box loader.

Each table of a box file carries ``provenance``: one word for all its fields, or a
table field -> word; the words are ``rulebook`` (printed in the rule text) and
``kit default`` (a gap filled by the kit). A box loaded from another folder than the
one the kit ships is compared with it value by value: a value that differs (or that the
shipped box lacks) shows a third provenance, ``house rule`` (:func:`mark_house_rules`).
"""

from __future__ import annotations

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
