"""Bots for the Landmarks & Architects modules: the kit's protocol :class:`RandomAgent` and a
one-step greedy bot.

:class:`LandmarksGreedyAgent` scores every legal action by the player's own module points
right after it (:func:`.rules.player_points`: majorities, Gates, sets, architect) and keeps
those that raise them the most; among equals it picks with its own seeded generator. It knows nothing of
the base game, so a follow and a decline are worth the same to it. A Build is two decisions: a
ChooseBuilding is scored by its card as the Build will be, and at the payment step every payment
of that card scores alike (its generator picks one).
"""

from __future__ import annotations

from ..protocol import OneStepGreedyAgent, RandomAgent
from . import rules as R
from .actions import Acquire, Build, ChooseBuilding

__all__ = ["AGENTS", "LandmarksGreedyAgent", "RandomAgent"]


class LandmarksGreedyAgent(OneStepGreedyAgent):
    """The one-step greedy bot described in the module doc."""

    def score(self, state, action) -> float:
        """The mover's module points after ``action`` (legal for the player to move),
        worked out without playing it (:func:`.rules.player_points`): an Acquire adds its
        landmark token, a Build or a ChooseBuilding its card to the village; nothing else a
        decision does changes the mover's points (a lead moves gold, a follow or decline
        nothing)."""
        p = state.current_player()
        if isinstance(action, Acquire):
            return R.player_points(state, p, plus_token=action.landmark)
        if isinstance(action, (Build, ChooseBuilding)):
            return R.player_points(state, p, plus_card=action.card)
        return R.player_points(state, p)

    def scores(self, state, actions) -> list[float]:
        """:meth:`score` of each action, each distinct outcome worked out once (the points
        now; after each landmark's token, all in one pass, :func:`.rules.token_points`, when
        an acquisition is among them; after each card's building)."""
        p = state.current_player()
        now = R.player_points(state, p)
        by_token = None
        by_card: dict = {}
        out = []
        append = out.append
        for a in actions:
            cls = type(a)
            if cls is Build or cls is ChooseBuilding:
                v = by_card.get(a.card)
                if v is None:
                    v = by_card[a.card] = now + R.architect_bonus(state, p, a.card)
            elif cls is Acquire:
                if by_token is None:
                    by_token = R.token_points(state, p)[1]
                v = by_token.get(a.landmark, now)  # a landmark not of the box adds nothing
            else:
                v = now
            append(v)
        return out


#: Bots by name, for ``haunted-kit play --game landmarks --agents ...`` and simulation.
AGENTS = {"random": RandomAgent, "greedy": LandmarksGreedyAgent}
