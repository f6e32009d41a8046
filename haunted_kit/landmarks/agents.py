"""Bots for the Landmarks & Architects modules: the kit's protocol :class:`RandomAgent` and a
one-step greedy bot.

:class:`LandmarksGreedyAgent` tries every legal action on a copy and keeps those that raise
the player's own module points (:func:`.rules.totals`: majorities, Gates, sets, architect)
the most right away; among equals it picks with its own seeded generator. It knows nothing of
the base game, so a follow and a decline are worth the same to it.
"""

from __future__ import annotations

import random

from ..protocol import RandomAgent
from . import rules as R

__all__ = ["AGENTS", "LandmarksGreedyAgent", "RandomAgent"]


class LandmarksGreedyAgent:
    """The one-step greedy bot described in the module doc."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        best, top = [], None
        for a in legal:
            t = state.copy()
            t.apply_action(a)
            v = R.totals(t)[p]
            if top is None or v > top:
                best, top = [a], v
            elif v == top:
                best.append(a)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


#: Bots by name, for ``haunted-kit play --game landmarks --agents ...`` and simulation.
AGENTS = {"random": RandomAgent, "greedy": LandmarksGreedyAgent}
