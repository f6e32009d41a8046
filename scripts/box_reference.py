"""Write docs/BOXES.md, the box reference of every registered game that declares a box
schema (its Game's ``box_schema``, a :class:`haunted_kit.boxschema.BoxSchema`): one row
per key with its type, range, the value and provenance of the game's own box, and the
rule section. tests/test_box_reference.py checks that the committed file is what this
writes.

    python scripts/box_reference.py          # rewrite docs/BOXES.md
    python scripts/box_reference.py --check  # exit 1 if it is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "BOXES.md"

HEADER = """# Box reference

What every file of each game's box may hold, generated from the game's box schema
(`haunted_kit.boxschema`; the Game's `box_schema`) by `python scripts/box_reference.py`:
do not edit by hand. One row per key: a table of named entries shows its entries' keys as
`<name>` (`cards.<name>.copies`). **type** and **range** are what the box check accepts
(inclusive; a whole number is never `true` or `2.0`); **default** is the value of the
kit's own box (per entry: how many entries it has; "optional, else X": a key that may be
left out); **provenance** is what the kit's own box says of it (`rulebook`: printed in
the rule text; `kit default`: a gap the kit filled, see docs/RULINGS.md); **rule
section** is where the rule text applies it. A value that differs from the kit's own box
is a `house rule` in the provenance tables. Every problem with a box is refused naming
the file, the entry, what was expected, what was found and the rule section. In a
notebook, `hk.box_editor(name)` is the same reference as a form that checks each change,
plays the box and saves it as a box folder of house rules.
"""


def reference() -> str:
    """The text of docs/BOXES.md for the games registered now."""
    from haunted_kit.boxschema import game_schema, reference_markdown
    from haunted_kit.games import game_names, get_game

    parts = [HEADER]
    for name in game_names():
        game = get_game(name)
        schema = game_schema(game)
        if schema is None:
            continue
        shipped = getattr(game, "default_box", None)
        root = Path(shipped().path) if shipped is not None else None
        parts.append(reference_markdown(schema, f"{getattr(game, 'title', name)} (`--game {name}`)", root))
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = reference()
    if "--check" in argv:
        ok = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        print("docs/BOXES.md is up to date" if ok else "docs/BOXES.md is out of date: run python scripts/box_reference.py")
        return 0 if ok else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
