"""The estate module's commands behind ``haunted-kit play --game estate`` and
``haunted-kit replay`` (the shared parser lives in :mod:`haunted_kit.cli`)."""

from __future__ import annotations

import sys


def _box(parser, path):
    from .box import EstateBoxError, default_estate_box, load_estate_box

    if path is None:
        return default_estate_box()
    try:
        return load_estate_box(path)
    except EstateBoxError as exc:
        parser.error(f"--box {path}: {exc}")


def play(args, parser, write_log) -> int:
    """Play with bots, print the summary, write ``--save`` / ``--log``. Misuse -> usage, exit 2."""
    from .agents import AGENTS
    from .sim import play_game, summary
    from .state import EstateConfigError

    if args.mode is not None or args.ghost_cards:
        parser.error("--mode and --ghost-cards belong to Haunted Lands, not to --game estate")
    for a in args.agents:
        if a not in AGENTS:
            parser.error(f"unknown agent {a!r} for the estate game (known: {', '.join(AGENTS)})")
    if len(args.agents) > args.players:
        parser.error(f"{len(args.agents)} agents given for {args.players} players")
    box = _box(parser, args.box)
    try:
        s, names = play_game(args.players, args.seed, args.agents, log=args.log is not None, box=box)
    except EstateConfigError as exc:
        parser.error(str(exc))
    print(summary(s, names))
    status = 0
    for path, write, what in ((args.save, s.save, "Final state saved"),
                              (args.log, lambda p: write_log(s, p), "Event log written")):
        if path is None:
            continue
        try:
            write(path)
            print(f"{what} to {path}")
        except OSError as exc:
            print(f"haunted-kit: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
    return status


def replay(data, args, parser) -> int:
    """Rebuild a save (already read as JSON ``data``) and print its summary."""
    from .sim import summary
    from .state import EstateSaveError, load_save

    try:
        s = load_save(data, _box(parser, args.box))
    except EstateSaveError as exc:
        print(f"haunted-kit: {args.save}: {exc}", file=sys.stderr)
        return 1
    print(summary(s))
    return 0
