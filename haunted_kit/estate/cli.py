"""The estate module's commands behind ``haunted-kit play --game estate`` and
``haunted-kit replay`` of an estate save (the shared parser, output checks and file
writing live in :mod:`haunted_kit.cli`)."""

from __future__ import annotations

import sys

from .agents import AGENTS
from .box import EstateBoxError, default_estate_box, load_estate_box
from .engine import EstateState
from .sim import play_game, summary
from .state import EstateConfigError, EstateSaveError


def _box(parser, path):
    try:
        return default_estate_box() if path is None else load_estate_box(path)
    except EstateBoxError as exc:
        parser.error(f"--box {path}: {exc}" if path is not None else f"the estate box does not load: {exc}")


def play(parser, args):
    """Play with bots and print the summary; returns the final state. Misuse -> usage, exit 2."""
    if args.mode is not None or args.ghost_cards:
        parser.error("--mode and --ghost-cards belong to Haunted Lands, not to --game estate")
    for a in args.agents:
        if a not in AGENTS:
            parser.error(f"unknown agent {a!r} for the estate game (known: {', '.join(AGENTS)})")
    box = _box(parser, args.box)
    if not box.min_players <= args.players <= box.max_players:
        parser.error(f"argument --players: invalid choice: {args.players} (this box plays {box.min_players}..{box.max_players})")
    if len(args.agents) > args.players:
        parser.error(f"{len(args.agents)} agents given for {args.players} players")
    try:
        s, names = play_game(args.players, args.seed, args.agents, log=args.log is not None, box=box)
    except EstateConfigError as exc:
        parser.error(str(exc))
    print(summary(s, names))
    return s


def replay(parser, args) -> int:
    """Rebuild an estate save and print its summary; a corrupt save exits 1 with one line."""
    try:
        s = EstateState.load(args.save, _box(parser, args.box), max_bytes=args.max_bytes)
    except EstateSaveError as exc:
        print(f"haunted-kit: {exc}", file=sys.stderr)
        return 1
    print(summary(s))
    return 0
