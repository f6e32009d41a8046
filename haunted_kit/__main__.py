"""The ``haunted-kit`` command (and ``python -m haunted_kit``): :func:`haunted_kit.cli.main`,
imported inside a guard, so Ctrl-C while the command's modules load (its first moments)
is one line and exit 130 as it is later, never a ``KeyboardInterrupt`` traceback."""

from __future__ import annotations

import sys

INTERRUPTED = "haunted-kit: interrupted"  #: the one line a Ctrl-C prints (exit 130)


def run(argv=None, guarded=None) -> int:
    """Run the command line (:func:`haunted_kit.cli.main`); returns its exit status.
    ``guarded``: called once the guard is in place, before the command's modules load
    (tests send their Ctrl-C then)."""
    try:
        if guarded is not None:
            guarded()
        from .cli import main  # lazy: inside the Ctrl-C guard, the command's modules load here
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130
    return main(argv)


if __name__ == "__main__":
    sys.exit(run())
