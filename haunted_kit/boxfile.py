"""Finding and reading a game's box: the data folder, and the one error every game's
loader raises for a bad box.

Every game of the kit keeps its numbers in a folder of TOML and CSV files (Haunted Lands
in ``data/``, the estate in ``data/estate/``, Landmarks in ``data/landmarks/``). A loader
that finds a file missing, malformed or inconsistent raises :class:`BoxError`, naming the
file, the entry and the problem, so code that catches ``BoxError`` catches every game's.
"""

from __future__ import annotations

import os
from pathlib import Path


class BoxError(ValueError):
    """A data file of a box is missing, malformed or inconsistent.

    The message always names the file, the entry and the problem
    (``file``, ``entry`` and ``problem`` hold them).
    """

    def __init__(self, file: str, entry: str, problem: str):
        self.file, self.entry, self.problem = file, entry, problem
        super().__init__(f"{file}, entry {entry}: {problem}")


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
