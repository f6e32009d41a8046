"""Reading and writing the kit's files safely.

Every file the kit writes (saves, event logs, SVG pictures, check reports) goes
through :func:`atomic_write`: the data goes to a temporary file in the same folder,
is flushed to disk, and only then replaces the target with :func:`os.replace`. A
write that fails half-way (a full disk, Ctrl-C, a crash) leaves the old file as it
was and no temporary file behind.

Every file the kit reads from a user (saves, replays) goes through
:func:`read_text`, which refuses files over a size limit before reading them, and
every JSON text from a user (saves, datasets' ``dataset.json``, messages of the
classroom server) through :func:`parse_json` / :func:`read_json`, which turn every way
JSON can fail (bad syntax, a key repeated in one object, integers of over 4,300 digits,
nesting too deep for Python's recursion limit) into one error of the caller's kind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Callable, TextIO

__all__ = ["MAX_INPUT_BYTES", "DuplicateKey", "InputTooLarge", "atomic_temp_glob", "atomic_write", "check_writable", "output_clash", "parse_json",
           "read_json", "read_text"]

#: Default size limit for files read from users (16 MiB): a save of a full 4-player
#: game with its event log is about 1 MiB.
MAX_INPUT_BYTES = 16 * 1024 * 1024


class InputTooLarge(ValueError):
    """A file bigger than the size limit given to :func:`read_text`."""


def atomic_write(path, data: str | bytes | Callable[[TextIO], None], *, encoding: str = "utf-8") -> None:
    """Write ``data`` to ``path`` atomically.

    Args:
        path: the file to (re)place.
        data: text, bytes, or a function that writes text to the open file it is given.

    Raises:
        OSError: the folder is missing or not writable, the disk is full...; the old
            file (if any) is unchanged and no temporary file is left. Any other
            exception raised by ``data`` (and KeyboardInterrupt) leaves files the
            same way and propagates.
    """
    path = Path(path)
    binary = isinstance(data, bytes)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=_TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": encoding, "newline": ""})) as fh:
            if callable(data):
                data(fh)
            else:
                fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:  # keep the permissions of a file being replaced; new files get the usual ones
            mode = path.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_TEMP_SUFFIX = ".tmp"


def atomic_temp_glob(name_glob: str) -> str:
    """The glob of the temporary files :func:`atomic_write` makes for targets named like
    ``name_glob`` (``".{name}.XXXXXXXX.tmp"`` in the target's folder). Only a process
    killed mid-write (SIGKILL, a power cut) leaves one behind; a caller that owns the
    folder removes them (``simulate`` does on resume)."""
    return f".{name_glob}.*{_TEMP_SUFFIX}"


def check_writable(path, what: str = "file") -> str | None:
    """``None`` if ``path`` can be written by :func:`atomic_write`, else the problem in
    words (a missing folder, a folder in the way, no write permission). Nothing is
    created."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{what} {path} is a folder"
    if not parent.exists():
        return f"folder {parent} for {what} {path} does not exist"
    if not parent.is_dir():
        return f"{parent} (folder of {what} {path}) is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"folder {parent} for {what} {path} is not writable"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{what} {path} is not writable"
    return None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of symbolic links: compared as written (writing there fails anyway)
        return path.absolute()


def _inside(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def _clash(out_label, out: Path, out_folder: bool, in_label, inp: Path, in_folder: bool, in_verb: str) -> str | None:
    """How writing ``out`` (a file, or a folder written into when ``out_folder``) would
    touch ``inp`` (a file, or a folder when ``in_folder``), or None."""
    ro, ri = _resolved(out), _resolved(inp)  # symbolic links followed
    both = f"{out_label} {out} and {in_label} {inp}"
    if ro == ri or _same_file(out, inp):  # the same path, a link, or a hard link
        return f"{both} are the same {'folder' if in_folder else 'file'}: this command {in_verb} {in_label} and would write {'into' if in_folder else 'over'} it"
    if in_folder and _inside(ro, ri):
        return f"{out_label} {out} is inside {in_label} {inp}, which this command {in_verb}: it would write into it"
    if out_folder and _inside(ri, ro):
        return f"{in_label} {inp} is inside {out_label} {out}, which this command writes into"
    if not out_folder and in_folder and out.is_file():  # a hard link to a file under the folder
        for f in ri.rglob("*"):
            if _same_file(out, f):
                return f"{out_label} {out} is the same file as {f} in {in_label} {inp}: this command {in_verb} it and would write over it"
    return None


def output_clash(outputs, inputs) -> str | None:
    """The first way a command's outputs would write over what it reads, or over each
    other, in words naming both paths; ``None`` when they are apart. Nothing is created.

    Args:
        outputs: ``(label, path, folder)`` triples: each file the command writes
            (``folder`` False) or folder it writes into (True); ``path`` None is skipped.
        inputs: ``(label, path)`` pairs: each file or folder the command reads (a folder:
            every file under it); ``path`` None is skipped.

    Paths are compared resolved (symbolic links followed) and as files
    (:func:`os.path.samefile`: hard links), so an output clashes with an input when it
    is the same file, lies inside an input folder, or (an output folder) holds an input;
    two outputs clash in the same ways.
    """
    outs = [(label, Path(p), bool(folder)) for label, p, folder in outputs if p is not None]
    ins = [(label, Path(p)) for label, p in inputs if p is not None]
    for k, (ol, o, of) in enumerate(outs):
        for il, i in ins:
            problem = _clash(ol, o, of, il, i, i.is_dir(), "reads")
            if problem:
                return problem
        for ol2, o2, of2 in outs[k + 1:]:
            problem = _clash(ol2, o2, of2, ol, o, of or o.is_dir(), "writes")
            if problem:
                return problem
    return None


def read_text(path, max_bytes: int | None = MAX_INPUT_BYTES, *, what: str = "file") -> str:
    """The UTF-8 text of ``path``, refusing files over ``max_bytes`` (``None``: no limit).

    Raises:
        OSError: the file cannot be read.
        InputTooLarge: the file is bigger than ``max_bytes`` (nothing is read).
        UnicodeDecodeError: the file is not UTF-8.
    """
    path = Path(path)
    if max_bytes is not None:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputTooLarge(f"{what} {path} is {size:,} bytes, over the limit of {max_bytes:,} bytes")
        with path.open("rb") as fh:  # the file may grow between stat and read
            raw = fh.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise InputTooLarge(f"{what} {path} is over the limit of {max_bytes:,} bytes")
        return raw.decode("utf-8")
    return path.read_text(encoding="utf-8")


class DuplicateKey(ValueError):
    """A JSON object that names one key twice (``{"gold": 1, "gold": 9}``): Python's
    reader would silently keep the last value, so the kit refuses it."""


def _refuse_duplicates(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


#: the most digits an integer may have in a request read with ``finite=True`` (a seed has at most 19)
MAX_REQUEST_DIGITS = 20


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:24]} is too large")
    return value


def _short_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_REQUEST_DIGITS:
        raise ValueError(f"the number {text[:12]}... has more than {MAX_REQUEST_DIGITS} digits")
    return int(text)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def parse_json(text: str | bytes, what: str = "input", error: type[Exception] = ValueError, *, finite: bool = False):
    """The value of the JSON ``text``.

    ``finite``: also refuse ``NaN``, ``Infinity``, a number beyond a float's range (``1e309``)
    and an integer of more than :data:`MAX_REQUEST_DIGITS` digits (what a server request may
    hold; Python's reader takes them all).

    Raises:
        ``error`` (a ValueError subclass such as SaveError): ``"{what} is not valid
        JSON: ..."`` for bad syntax, a key repeated in one object (naming the key), bytes
        that are not UTF-8, an integer of over 4,300 digits, or nesting deeper than
        Python's recursion limit allows.
    """
    numbers = {"parse_float": _finite_float, "parse_int": _short_int, "parse_constant": _no_constant} if finite else {}
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicates, **numbers)
    except RecursionError:
        raise error(f"{what} is not valid JSON: it is nested too deeply") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, UnicodeDecodeError, too many digits
        raise error(f"{what} is not valid JSON: {exc}") from None


def read_json(path, max_bytes: int | None = MAX_INPUT_BYTES, *, what: str = "file",
              error: type[Exception] = ValueError):
    """The JSON value in the file ``path`` (at most ``max_bytes``; ``None``: no limit).

    Raises:
        ``error``: naming ``what`` and the path when the file cannot be read, is over the
        limit, is not UTF-8 text or is not valid JSON (see :func:`parse_json`).
    """
    try:
        text = read_text(path, max_bytes, what=what)
    except InputTooLarge as exc:
        raise error(str(exc)) from None
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"{what} {path} is not a UTF-8 text file") from None
    return parse_json(text, f"{what} {path}", error)
