"""haunted_kit: learn, play and analyse the board game Haunted Lands in Jupyter.

Quick start::

    import haunted_kit as hk
    s = hk.new_game(players=3, mode="wanderer", seed=7)
    s.legal_actions()          # what the player to move may do
    s.apply_action(s.legal_actions()[0])
    s.events().tail()          # what happened, explained

See docs/ARCHITECTURE.md for the modules and how a decision flows through them.
"""

from .actions import (Build, ChooseBonus, ChooseQuest, ChooseResource, Contact, EndTurn, Explore, Extract, Learn,
                      PlaceGhost, RestoreToken, RollBonus, Sell, Train, action_from_dict, action_to_dict)
from .board import Field, FieldError, build_field
from .components import Box, BoxError, default_box, load_box
from .engine import HauntedLandsState as State
from .engine import new_game
from .protocol import ChanceError, HistoryEntry, IllegalAction, Record, Refusal
from .rules import entry_cost, explore_cost
from .state import ConfigError, GameConfig, SaveError

__version__ = "0.1.0"

__all__ = [
    "Box", "BoxError", "Build", "ChanceError", "ChooseBonus", "ChooseQuest", "ChooseResource", "ConfigError",
    "Contact", "EndTurn", "Explore", "Extract", "Field", "FieldError", "GameConfig", "HistoryEntry", "IllegalAction",
    "Learn", "PlaceGhost", "Record", "Refusal", "RestoreToken", "RollBonus", "SaveError", "Sell", "State", "Train",
    "action_from_dict", "action_to_dict", "build_field", "default_box", "entry_cost", "explore_cost", "load_box",
    "new_game",
]
