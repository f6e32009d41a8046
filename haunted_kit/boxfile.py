"""Finding and reading a game's box: the data folder, the one reader of its files, and
the one error every game's loader raises for a bad box.

Every game of the kit keeps its numbers in a folder of TOML and CSV files (Haunted Lands
in ``data/``, the estate in ``data/estate/``, Landmarks in ``data/landmarks/``). Every
file is read with :func:`read_box_text` and parsed by :func:`parse_box_toml` (TOML) or
the game's own parser (a CSV file), then checked against the game's box schema
(:mod:`haunted_kit.boxschema`: typed keys, bounds, unknown keys, provenance):

* a file over :data:`MAX_BOX_FILE_BYTES` is refused before it is read;
* a file that is not UTF-8 is refused naming the line of the first bad byte;
* bad TOML (syntax, an integer of over 4,300 digits, nesting deeper than Python's
  recursion limit) is refused, and so is a file nested deeper than :data:`MAX_DEPTH`
  or holding a blank key (``"" = 1``, ``[cards." "]``).

Whatever goes wrong raises :class:`BoxError`, naming the file, the entry and the
problem, so code that catches ``BoxError`` catches every game's; no TypeError,
KeyError or RecursionError reaches the user.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from .fileio import InputTooLarge, read_text


class BoxError(ValueError):
    """A data file of a box is missing, malformed or inconsistent.

    The message always names the file, the entry and the problem (``file``, ``entry``
    and ``problem`` hold them; an ``entry`` of ``"-"``, the file or folder as a whole, is
    said ``"the file"`` or ``"the folder"``, :func:`whole_words`) and, when known, the rule section the entry applies
    (``section``, ``""`` if none), e.g. ``"landmarks/game.toml, entry players: field
    'max' must be at most 8, got 9 (rule section: Landmarks: Game Setup)"``.
    """

    def __init__(self, file: str, entry: str, problem: str, *, section: str = ""):
        self.file, self.entry, self.problem, self.section = file, entry, problem, section
        where = f" (rule section: {section})" if section else ""
        super().__init__(f"{file}, {whole_words(file) if entry in ('', '-') else 'entry ' + entry}: {problem}{where}")


def whole_words(file: str) -> str:
    """How a box error names a problem of no one entry (``entry`` ``"-"``): ``"the file"``
    for a file (``"market.toml, the file: not valid TOML"``), ``"the folder"`` for a
    folder (``"/no/box, the folder: no such folder"``)."""
    name = str(file).rstrip("/").rsplit("/", 1)[-1]
    return "the file" if "." in name and not str(file).endswith("/") and "=" not in str(file) else "the folder"


#: where the kit's own data folder is: inside the wheel (``haunted_kit/_box``), or the checkout's ``data/``
REFERENCE_DIRS = (Path(__file__).resolve().parent / "_box", Path(__file__).resolve().parents[1] / "data")


def data_dir(path: str | os.PathLike | None = None) -> Path:
    """The data folder to load: ``path`` if given, else ``$HAUNTED_KIT_DATA``, else the
    kit's own (:data:`REFERENCE_DIRS`, first that exists). A game's box is this folder
    (Haunted Lands) or a sub-folder of it (``estate/``, ``landmarks/``).

    Raises:
        BoxError: the given folder (or ``$HAUNTED_KIT_DATA``) is not a folder, or no
            data folder is found.
    """
    if path is not None:
        given = Path(path)
        if not given.is_dir():
            problem = "is not a folder" if given.exists() else "no such folder"
            raise BoxError(str(given), "-", f"{problem} (a box is a folder holding the files of data/)")
        return given
    if os.environ.get("HAUNTED_KIT_DATA"):
        env = Path(os.environ["HAUNTED_KIT_DATA"])
        if not env.is_dir():
            raise BoxError(f"HAUNTED_KIT_DATA={env}", "-", "is not a folder" if env.exists() else "no such folder")
        return env
    for c in REFERENCE_DIRS:
        if c.is_dir():
            return c
    raise BoxError("data/", "-", f"no data directory found (looked in {', '.join(map(str, REFERENCE_DIRS))})")


def shipped_dir() -> Path | None:
    """The data folder the kit ships (inside the wheel, or the checkout's ``data/``), or None."""
    for c in REFERENCE_DIRS:
        if c.is_dir():
            return c
    return None


# --------------------------------------------------------------------------- reading one file

#: Data files bigger than this (1 MiB) are refused before they are parsed: the largest
#: shipped file is a few KiB, far below :data:`haunted_kit.fileio.MAX_INPUT_BYTES`.
MAX_BOX_FILE_BYTES = 1024 * 1024
#: Deepest nesting of tables and lists a box file may have (the shipped files nest at
#: most 5 levels, e.g. ``market_cards.1.options[1].count``): a file nested deeper is
#: refused before any code walks it, so no loader can hit Python's recursion limit.
MAX_DEPTH = 10
#: Largest number any entry of a box may hold unless a loader gives a tighter bound:
#: far above every printed number, small enough that no count, cost or reward can blow
#: up a game.
MAX_NUMBER = 999


def read_box_text(root: Path, name: str, *, label: str | None = None, max_bytes: int = MAX_BOX_FILE_BYTES) -> str:
    """The UTF-8 text of the data file ``root / name``, at most ``max_bytes`` bytes.

    ``label`` is how errors name the file (default ``name``; Landmarks says
    ``landmarks/deck.toml``).

    Raises:
        BoxError: the file is missing or unreadable (entry ``-``), over the size limit
            (entry ``-``, nothing is read), or not UTF-8 (entry ``line N``, the line of
            the first bad byte).
    """
    label = label or name
    path = Path(root) / name
    if not path.is_file():
        raise BoxError(label, "-", f"file not found in {root}")
    try:
        return read_text(path, max_bytes, what="data file")
    except InputTooLarge:
        size = path.stat().st_size
        raise BoxError(label, "-", f"{size:,} bytes is over the limit of {max_bytes:,} bytes for a data file") from None
    except OSError as exc:
        raise BoxError(label, "-", f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raw = exc.object
        line = raw[:exc.start].count(b"\n") + 1
        raise BoxError(label, f"line {line}", f"byte 0x{raw[exc.start]:02x} is not UTF-8 text "
                                              "(save the file as UTF-8)") from None


def parse_box_toml(text: str, label: str) -> dict:
    """The TOML ``text`` of the box file ``label`` as a dict, checked for shape.

    Every key of every table must be a name (not empty, no spaces around it) and
    nothing may nest deeper than :data:`MAX_DEPTH` levels (checked without recursion).

    Raises:
        BoxError: not valid TOML (entry ``-``; bad syntax, an integer of over 4,300
            digits, nesting beyond Python's recursion limit), nested too deeply or a
            blank key (entry: the table holding it).
    """
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise BoxError(label, "-", f"not valid TOML (nested too deeply; a data file nests at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # TOMLDecodeError, an integer of too many digits
        raise BoxError(label, "-", f"not valid TOML ({exc})") from None
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            raise BoxError(label, where, f"nested more than {MAX_DEPTH} levels deep (a data file needs at most {MAX_DEPTH})")
        if isinstance(value, dict):
            for key, item in value.items():
                if not key.strip() or key != key.strip():
                    raise BoxError(label, where or "-", f"key {key!r} is not a name (empty, or spaces around it)")
                stack.append((item, depth + 1, f"{where}.{key}" if where else key))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value, start=1))
    return data
