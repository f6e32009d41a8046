"""Villages of Valeria's Landmarks & Architects modules (the kit's third rule text).

The base game is not given, so the package plays the decisions the modules add on
explicit positions, through the kit's game protocol (:mod:`haunted_kit.protocol`):
follow, acquire a landmark with a chosen discard, or decline; a Build in two decisions
(which building, then its payment with the castle, developed resources and Castle Grounds); the architect deal as a seeded chance
node; scoring that explains each point; a payment planner on a networkx graph.

    from haunted_kit import landmarks as lm
    s = lm.new_game(players=3, seed=1)           # a seeded game of the box's 3 turns (kit example deck)
    s.legal_actions(); s.options(); s.why_not(lm.Acquire("silo", ("tannery",)))
    lm.score_table(s); s.plan_payments("vardo")

It imports only the protocol and shared machinery, never the Haunted Lands rules.
"""

from .actions import Acquire, Build, ChooseBuilding, Decline, Follow, Lead, Use, action_from_dict, action_to_dict
from .box import Architect, Card, LandmarksBox, LandmarkType, default_box, load_box
from .engine import EVENT_KINDS, GAME, LandmarksGame, LandmarksState, new_game, position
from .rules import (PaymentPlans, Plan, build_options, card_builds, plan_payments, score_summary, score_table, totals,
                    village_cards)
from .state import ConfigError, SaveError

__all__ = [
    "Acquire", "Architect", "Build", "Card", "ChooseBuilding", "ConfigError", "Decline", "EVENT_KINDS", "Follow", "GAME", "LandmarkType",
    "LandmarksBox", "LandmarksGame", "LandmarksState", "Lead", "PaymentPlans", "Plan", "SaveError", "Use",
    "action_from_dict", "action_to_dict", "build_options", "card_builds", "default_box", "load_box", "new_game", "plan_payments",
    "position", "score_summary", "score_table", "totals", "village_cards",
]
