"""Bots for the Landmarks & Architects modules: the kit's protocol :class:`RandomAgent` and a
one-step greedy bot.

:class:`LandmarksGreedyAgent` tries every legal action on a copy and keeps those that raise
the player's own module points (:func:`.rules.totals`: majorities, Gates, sets, architect)
the most right away; among equals it picks with its own seeded generator. It knows nothing of
the base game, so a follow and a decline are worth the same to it.
"""

from __future__ import annotations


from ..protocol import OneStepGreedyAgent, RandomAgent
from . import rules as R

__all__ = ["AGENTS", "LandmarksGreedyAgent", "RandomAgent"]


class LandmarksGreedyAgent(OneStepGreedyAgent):
    """The one-step greedy bot described in the module doc."""

    def score(self, state, action) -> float:
        """The mover's module points after ``action`` (played on a copy)."""
        t = state.copy()
        t.apply_action(action)
        return R.totals(t)[state.current_player()]


#: Bots by name, for ``haunted-kit play --game landmarks --agents ...`` and simulation.
AGENTS = {"random": RandomAgent, "greedy": LandmarksGreedyAgent}
