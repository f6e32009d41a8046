"""What the benchmark scripts share on their command lines: whole-number options checked by
argparse, so a mistyped count (``--games 0``, ``--rounds -1``, ``--thirds x``) gets argparse's
usage line and exit status 2, never a traceback from deep inside a figure."""

from __future__ import annotations

import argparse


def number_at_least(minimum: int = 1):
    """An argparse ``type`` for a whole number of at least ``minimum`` (games, rounds,
    playouts, workers...); anything else is refused with a sentence naming the value."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {n}")
        return n

    parse.__name__ = f"whole number >= {minimum}"
    return parse
