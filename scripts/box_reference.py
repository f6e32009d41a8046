"""Write docs/BOXES.md, the box reference of every game of the kit that declares a box
schema (its Game's ``box_schema``, a :class:`haunted_kit.boxschema.BoxSchema`): one row
per key with its type, range, the value and provenance of the game's own box, and the
rule section. tests/test_box_reference.py checks that the committed file is what this
writes.

    python scripts/box_reference.py              # rewrite docs/BOXES.md (the kit's own games)
    python scripts/box_reference.py --check      # exit 1 if it is out of date
    python scripts/box_reference.py --game NAME  # print one game's reference (a game kept outside the kit)
"""

from __future__ import annotations

import argparse
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


def kit_games() -> list[str]:
    """The registered games that are the kit's own (their engine inside ``haunted_kit``):
    docs/BOXES.md covers these. A game registered from outside (``HAUNTED_KIT_GAMES``)
    gets its reference from ``--game NAME``, never in the kit's docs."""
    from haunted_kit.games import REGISTRY, game_names

    return [n for n in game_names() if REGISTRY[n][0].startswith("haunted_kit.")]


def section(name: str) -> str | None:
    """The reference of game ``name``'s box (Markdown), or None for a game without a schema."""
    from haunted_kit.boxschema import game_schema, reference_markdown
    from haunted_kit.games import get_game

    game = get_game(name)
    schema = game_schema(game)
    if schema is None:
        return None
    shipped = getattr(game, "default_box", None)
    root = Path(shipped().path) if shipped is not None else None
    return reference_markdown(schema, f"{getattr(game, 'title', name)} (`--game {name}`)", root)


def reference() -> str:
    """The text of docs/BOXES.md: the kit's own games' sections (:func:`kit_games`)."""
    return "\n".join([HEADER] + [part for part in map(section, kit_games()) if part is not None])


def parser() -> argparse.ArgumentParser:
    """The command line: no argument rewrites docs/BOXES.md; ``--check`` only compares."""
    ap = argparse.ArgumentParser(prog="box_reference.py", description=(
        "Write docs/BOXES.md, the box reference of every registered game that declares a box schema "
        "(the kit's games and any game registered with HAUNTED_KIT_GAMES)."))
    ap.add_argument("--check", action="store_true",
                    help="write nothing: exit 1 when docs/BOXES.md differs from what would be written")
    ap.add_argument("--game", metavar="NAME",
                    help="print the reference of one registered game's box instead (a game registered from "
                         "outside the kit with HAUNTED_KIT_GAMES: its reference is not part of docs/BOXES.md)")
    return ap


def main(argv: list[str]) -> int:
    ap = parser()
    args = ap.parse_args(argv)  # --help prints the usage and exits 0; an unknown argument exits 2
    if args.game is not None:
        from haunted_kit.games import game_names

        if args.game not in game_names():
            ap.error(f"--game: unknown game {args.game!r} (registered: {', '.join(game_names())})")
        part = section(args.game)
        if part is None:
            ap.error(f"--game {args.game}: the game declares no box_schema, so it has no box reference")
        print(part)
        return 0
    text = reference()
    if args.check:
        ok = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        print("docs/BOXES.md is up to date" if ok else "docs/BOXES.md is out of date: run python scripts/box_reference.py")
        return 0 if ok else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
