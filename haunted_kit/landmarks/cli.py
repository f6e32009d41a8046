"""What ``haunted-kit replay`` of a Landmarks & Architects save and the end of
``haunted-kit play --game landmarks`` need from the module: :func:`summary` (the play
loop, :func:`haunted_kit.play.play_game`, the usage checks, the box, saves and logs are
shared by every game, in the kit), and :func:`handout`, the ``haunted-kit handout --game
landmarks`` hook.

Agents: any spec of :func:`haunted_kit.bots.make_bot` (``random``, ``greedy`` from
:mod:`haunted_kit.landmarks.agents`, ``search[...]``).
"""

from __future__ import annotations

from ..handout import handout_command
from . import rules as R
from .handout import handout_html

__all__ = ["handout", "summary"]


def handout(parser, args, box) -> int:
    """``haunted-kit handout --game landmarks``: the rules summary and player aid of ``box``
    (HTML, and a PDF when Chromium is installed; ``--players`` is the count highlighted in
    the player-count table; ``--seed`` and ``--mode`` do not apply). Misuse is ``parser.error`` (exit 2); a failed write exit 1."""
    return handout_command(parser, args, lambda: handout_html(box, paper=args.paper, players=args.players))


def summary(s, names=None) -> str:
    """Each player's module points by source, the decisions, and the deck's label."""
    table = R.score_summary(s)
    lines = [f"Landmarks & Architects, {s.players} players, {s.rounds} {R.ROUND_WORD}{'s' if s.rounds != 1 else ''} "
             f"(building cards: {s.box.deck_label})", table.to_string()]
    decisions = sum(1 for e in s.history() if not e.chance)
    lines.append(f"Decisions: {decisions}" + (f"; agents: {', '.join(f'P{i + 1} {a}' for i, a in enumerate(names))}"
                                               if names else ""))
    return "\n".join(lines)
