"""What ``haunted-kit replay`` of a Landmarks & Architects save and the end of
``haunted-kit play --game landmarks`` need from the module: :func:`summary` (the play
loop, :func:`haunted_kit.play.play_game`, the usage checks, the box, saves and logs are
shared by every game, in the kit).

Agents: any spec of :func:`haunted_kit.bots.make_bot` (``random``, ``greedy`` from
:mod:`haunted_kit.landmarks.agents`, ``search[...]``).
"""

from __future__ import annotations

from . import rules as R

__all__ = ["summary"]


def summary(s, names=None) -> str:
    """Each player's module points by source, the decisions, and the deck's label."""
    table = R.score_summary(s)
    lines = [f"Landmarks & Architects, {s.players} players, {s.rounds} round{'s' if s.rounds != 1 else ''} "
             f"(building cards: {s.box.deck_label})", table.to_string()]
    decisions = sum(1 for e in s.history() if not e.chance)
    lines.append(f"Decisions: {decisions}" + (f"; agents: {', '.join(f'P{i + 1} {a}' for i, a in enumerate(names))}"
                                               if names else ""))
    return "\n".join(lines)
