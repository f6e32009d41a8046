"""What ``haunted-kit replay`` of an estate save and the end of ``haunted-kit play --game
estate`` need from the module (found through :func:`haunted_kit.games.game_module`):
:func:`summary`. The play loop (:func:`haunted_kit.play.play_game`), the usage checks, the
box, saves and logs are shared by every game, in the kit; :func:`handout` is the
``haunted-kit handout --game estate`` hook (teacher copies are the kit's, from ``exercises``)."""

from __future__ import annotations

from ..handout import handout_command
from .handout import handout_html
from .sim import summary

__all__ = ["handout", "summary"]


def handout(parser, args, box) -> int:
    """``haunted-kit handout --game estate``: the rules summary and player aid of ``box``
    (HTML, and a PDF when Chromium is installed; ``--players`` is the count highlighted in
    the player-count table; ``--seed`` and ``--mode`` do not apply). Misuse is ``parser.error`` (exit 2); a failed write exit 1."""
    return handout_command(parser, args, lambda: handout_html(box, paper=args.paper, players=args.players))
