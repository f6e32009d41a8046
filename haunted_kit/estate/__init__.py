"""Estate and Market: the kit's second rule module (resource income, a connected estate
of land tiles and a Market with season prices), built on :mod:`haunted_kit.protocol`.

    from haunted_kit.estate import new_game
    s = new_game(players=3, seed=7)
    s.legal_actions(); s.why_not(a); s.apply_action(a); s.events()

It imports only the shared machinery (protocol, events, hexgrid, render, widgets'
generic parts), never the Haunted Lands rules.
"""

from .actions import (EndVisit, InnDecline, InnReturn, Join, Pass, PlaceTile, RemoveTile, TakeGold, TakeMaterial,
                      Trade, VisitMarket, action_from_dict, action_to_dict)
from .box import EstateBox, EstateBoxError, default_estate_box, load_estate_box
from .engine import GAME, EstateGame, EstateState, new_game, new_state
from .state import EstateConfig, EstateConfigError, EstateSaveError

__all__ = [
    "GAME", "EndVisit", "EstateBox", "EstateBoxError", "EstateConfig", "EstateConfigError", "EstateGame",
    "EstateSaveError", "EstateState", "InnDecline", "InnReturn", "Join", "Pass", "PlaceTile", "RemoveTile", "TakeGold",
    "TakeMaterial", "Trade", "VisitMarket", "action_from_dict", "action_to_dict", "default_estate_box",
    "load_estate_box", "new_game", "new_state",
]
