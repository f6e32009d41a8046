"""The commands behind ``haunted-kit play --game landmarks`` and ``haunted-kit replay`` of a
Landmarks & Architects save (the shared parser, output checks and file writing live in
:mod:`haunted_kit.cli`).

Agents: ``random`` and ``greedy`` (:mod:`haunted_kit.landmarks.agents`).
"""

from __future__ import annotations

import sys

from ..components import BoxError
from . import rules as R
from .agents import AGENTS
from .box import default_box, load_box
from .engine import LandmarksState, new_game
from .state import SaveError

def _box(parser, path):
    try:
        return default_box() if path is None else load_box(path)
    except BoxError as exc:
        parser.error(f"--box {path}: {exc}" if path is not None else f"the Landmarks box does not load: {exc}")


def play_game(players: int, seed: int, agents, *, box=None, rounds: int | None = None):
    """Play a seeded game with ``agents`` (one per seat, repeating); returns the final state."""
    s = new_game(players, seed, box=box, rounds=rounds)
    names = [agents[i % len(agents)] for i in range(players)]
    bots = [AGENTS[name](seed * 101 + i) for i, name in enumerate(names)]
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance(s.sample_chance())
            continue
        s.apply_action(bots[s.current_player()].act(s))
    return s, names


def summary(s, names=None) -> str:
    """Each player's module points by source, the decisions, and the deck's label."""
    table = R.score_summary(s)
    lines = [f"Landmarks & Architects, {s.players} players, {s.rounds} round{'s' if s.rounds != 1 else ''} "
             f"(building cards: {s.box.deck_label})", table.to_string()]
    decisions = sum(1 for e in s.history() if not e.chance)
    lines.append(f"Decisions: {decisions}" + (f"; agents: {', '.join(f'P{i + 1} {a}' for i, a in enumerate(names))}"
                                               if names else ""))
    return "\n".join(lines)


def play(parser, args):
    """Play with bots and print the summary; returns the final state. Misuse -> usage, exit 2."""
    if args.mode is not None or args.ghost_cards:
        parser.error("--mode and --ghost-cards belong to Haunted Lands, not to --game landmarks")
    for a in args.agents:
        if a not in AGENTS:
            parser.error(f"unknown agent {a!r} for the landmarks game (known: {', '.join(AGENTS)})")
    box = _box(parser, args.box)
    if not box.min_players <= args.players <= box.max_players:
        parser.error(f"argument --players: invalid choice: {args.players} (this box plays {box.min_players}..{box.max_players})")
    if len(args.agents) > args.players:
        parser.error(f"{len(args.agents)} agents given for {args.players} players")
    s, names = play_game(args.players, args.seed, args.agents, box=box)
    print(summary(s, names))
    return s


def replay(parser, args) -> int:
    """Rebuild a Landmarks save and print its summary; a corrupt save exits 1 with one line."""
    try:
        s = LandmarksState.load(args.save, _box(parser, args.box), max_bytes=args.max_bytes)
    except SaveError as exc:
        print(f"haunted-kit: {exc}", file=sys.stderr)
        return 1
    print(summary(s))
    return 0
