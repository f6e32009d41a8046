"""What ``haunted-kit play --game landmarks`` and ``haunted-kit replay`` of a Landmarks &
Architects save need from the module: :func:`play_game` and :func:`summary` (the usage
checks, the box, saves and logs are shared by every game, in :mod:`haunted_kit.cli`).

Agents: any spec of :func:`haunted_kit.bots.make_bot` (``random``, ``greedy`` from
:mod:`haunted_kit.landmarks.agents`, ``search[...]``).
"""

from __future__ import annotations

from . import rules as R
from ..bots import make_bot
from .engine import new_game

__all__ = ["play_game", "summary"]


def play_game(players: int, seed: int, agents, *, box=None, rounds: int | None = None, log: bool = True):
    """Play a seeded game with bots from the agent specs in ``agents`` (one per seat, repeating).

    Returns ``(state, agent names)``; the state is terminal. ``log`` is accepted for the
    shared ``play`` command: the module always keeps its short event log."""
    s = new_game(players, seed, box=box, rounds=rounds)
    names = [agents[i % len(agents)] for i in range(players)]
    bots = [make_bot(name, seed * 101 + i, game="landmarks") for i, name in enumerate(names)]
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
