"""The kit's one check per kind of number a user gives, and the ranges it allows.

Every number that comes from a user (a bot spec's settings, every numeric command-line
option, a search budget given in Python) is checked here, by kind:

* :func:`whole`: a whole number (an ``int`` or numpy integer, never a bool or a float)
  within ``low..high``;
* :func:`finite`: a real number that is finite (never NaN or infinite) within
  ``low..high``, or above ``low`` when ``low`` itself is meaningless (``above=True``: a
  time budget of 0 s);

and, for text (a bot spec, an option), :func:`read_whole` / :func:`read_finite`, which
read the text first. :func:`arg_whole` / :func:`arg_finite` make argparse types of
them (a refusal is a usage error: usage and exit 2), which keep their range on the
function (``.kind``, ``.low``, ``.high``, ``.above``) so tests can fuzz every option.

The ranges (the ``*_RANGE`` constants, ``(low, high)``) are what the kit can run in a
reasonable time and memory; a value outside is a typing slip, not a wish (a search of
``seconds=inf`` would never return; ``exploration=nan`` makes every move's score NaN, so
the search would pick moves by position and write NaN into a dataset's settings).
"""

from __future__ import annotations

import argparse
import math
import numbers

from .protocol import is_integer

__all__ = ["BOT_DELAY_RANGE", "CONNECT_TIMEOUT_RANGE", "COUNT_RANGE", "EXPLORATION_RANGE", "GAMES_RANGE",
           "HEX_SIZE_RANGE", "HINT_PLAYOUTS_RANGE", "KERNEL_IDLE_RANGE", "KERNELS_RANGE", "MAX_BYTES_RANGE",
           "PLAYERS_RANGE", "PLAYOUTS_RANGE", "PORT_RANGE", "ROLLOUT_DEPTH_RANGE", "SEARCH_SECONDS_RANGE",
           "WORKERS_RANGE", "arg_finite", "arg_whole", "finite", "read_finite", "read_whole", "whole"]

#: search playouts per decision (a bot spec's ``playouts``, ``review --playouts``)
PLAYOUTS_RANGE = (1, 1_000_000)
#: a search's time budget per decision, in seconds (more than 0; ``seconds``)
SEARCH_SECONDS_RANGE = (0.0, 3600.0)
#: the search's PUCT exploration constant (0: follow values and prior only)
EXPLORATION_RANGE = (0.0, 100.0)
#: decisions per rollout before the position is scored (0: score at once)
ROLLOUT_DEPTH_RANGE = (0, 100_000)
#: games per grid cell or per box (``--games``; a simulate run holds at most the top of it)
GAMES_RANGE = (1, 1_000_000)
#: a count given on the command line that has no range of its own (``--seat``, ``--max-steps``)
COUNT_RANGE = (1, 10_000_000)
#: players typed on the command line (the box then says which it plays)
PLAYERS_RANGE = (1, 99)
#: worker processes of this machine (``--workers``)
WORKERS_RANGE = (1, 1024)
#: a size limit of a file read, in bytes (``--max-bytes``: 1 byte .. 1 TiB)
MAX_BYTES_RANGE = (1, 2 ** 40)
#: a TCP port (0: any free port)
PORT_RANGE = (0, 65535)
#: a hex's size in pixels, centre to corner (classroom and server pages)
HEX_SIZE_RANGE = (12.0, 80.0)
#: playouts of the classroom's "Suggest a move"
HINT_PLAYOUTS_RANGE = (10, 100_000)
#: seconds before the classroom shuts down a closed page's game
KERNEL_IDLE_RANGE = (5, 3600)
#: games the classroom keeps open at once
KERNELS_RANGE = (1, 1000)
#: seconds between the server's bot decisions
BOT_DELAY_RANGE = (0.0, 60.0)
#: seconds to wait for a Dask scheduler (more than 0)
CONNECT_TIMEOUT_RANGE = (0.0, 86_400.0)


def _num(x) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _refusal(kind: str, what: str, low, high, above: bool, shown) -> str:
    span = f"{'more than' if above else 'from'} {_num(low)} {'and at most' if above else 'to'} {_num(high)}"
    return f"{what} must be a {kind} {span}, got {_show(shown)}"


def whole(value, what: str, low: int, high: int, error: type[Exception] = ValueError) -> int:
    """``value`` as a plain ``int`` when it is a whole number (``int`` or numpy integer,
    never a bool or a float) with ``low <= value <= high``.

    Raises:
        error (default ValueError): ``"{what} must be a whole number from LOW to HIGH, got ..."``.
    """
    if not is_integer(value) or not low <= value <= high:
        raise error(_refusal("whole number", what, low, high, False, value))
    return int(value)


def finite(value, what: str, low: float, high: float, *, above: bool = False,
           error: type[Exception] = ValueError) -> float:
    """``value`` as a ``float`` when it is a real, finite number (never NaN, infinite or a
    bool) with ``low <= value <= high`` (``above``: ``low < value``).

    Raises:
        error (default ValueError): ``"{what} must be a finite number from LOW to HIGH, got ..."``.
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and type(value).__name__ != "bool_"
    if ok:
        v = float(value)
        ok = math.isfinite(v) and (low < v if above else low <= v) and v <= high
    if not ok:
        raise error(_refusal("finite number", what, low, high, above, value))
    return v


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + "..."


def read_whole(text: str, what: str, low: int, high: int, error: type[Exception] = ValueError) -> int:
    """The whole number written in ``text`` (e.g. ``"100"``), checked by :func:`whole`.

    Raises:
        error: text that is not a whole number (``"1.5"``, ``"1e3"``, ``"x"``) or out of range.
    """
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):  # not digits, or over Python's 4,300-digit limit: refused below
        value = None
    try:
        return whole(value, what, low, high)
    except ValueError:  # the message shows the text as typed
        raise error(_refusal("whole number", what, low, high, False, text)) from None


def read_finite(text: str, what: str, low: float, high: float, *, above: bool = False,
                error: type[Exception] = ValueError) -> float:
    """The number written in ``text`` (e.g. ``"0.5"``), checked by :func:`finite`
    (``"nan"``, ``"inf"`` and ``"1e999"`` are refused).

    Raises:
        error: text that is not a number, or a number :func:`finite` refuses.
    """
    try:
        value = float(text.strip())
    except (ValueError, AttributeError):
        value = None
    try:
        return finite(value, what, low, high, above=above)
    except ValueError:  # the message shows the text as typed
        raise error(_refusal("finite number", what, low, high, above, text)) from None


def arg_whole(low: int, high: int, why: str = ""):
    """An argparse ``type``: :func:`read_whole` within ``low..high`` (a refusal is a usage
    error; ``why``, e.g. ``"an interval needs two games"``, is said after the range)."""
    def parse(text: str) -> int:
        try:
            return read_whole(text, "the value", low, high, argparse.ArgumentTypeError)
        except argparse.ArgumentTypeError as exc:
            if not why:
                raise
            head, _, tail = str(exc).rpartition(", got ")
            raise argparse.ArgumentTypeError(f"{head} ({why}), got {tail}") from None
    parse.kind, parse.low, parse.high, parse.above = "whole", low, high, False
    parse.__name__ = "whole number"  # argparse's fallback message names the type
    return parse


def arg_finite(low: float, high: float, *, above: bool = False):
    """An argparse ``type``: :func:`read_finite` within ``low..high`` (``above``: more than
    ``low``); a refusal is a usage error."""
    def parse(text: str) -> float:
        return read_finite(text, "the value", low, high, above=above, error=argparse.ArgumentTypeError)
    parse.kind, parse.low, parse.high, parse.above = "finite", low, high, above
    parse.__name__ = "number"
    return parse
