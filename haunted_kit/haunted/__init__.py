"""Haunted Lands: the kit's core game, every rule, mode, card and player count.

The package has the shape every game of the kit has: the box loader (:mod:`.box`, with
the effect registry :mod:`.effects`), the field graph (:mod:`.board`), the action and
flow vocabularies (:mod:`.actions`, :mod:`.flow`), the state and its saves
(:mod:`.state`, :mod:`.serial`), the rules (:mod:`.rules`), the engine and its Game
object (:mod:`.engine`), bots (:mod:`.agents`), position builders (:mod:`.scenario`),
the environment encoding (:mod:`.encoding`), analysis (:mod:`.pathfinding`,
:mod:`.analysis`, :mod:`.history`), teaching (:mod:`.exercises`, :mod:`.handout`),
drawing (:mod:`.draw`) and widgets (:mod:`.widgets`).

    from haunted_kit.haunted import new_game
    s = new_game(players=3, mode="citizen", seed=7)
"""

from .actions import (Build, ChooseBonus, ChooseQuest, ChooseResource, Contact, EndTurn, Explore, Extract, Learn,
                      PlaceGhost, RestoreToken, RollBonus, Sell, Train, action_from_dict, action_to_dict)
from .board import Field, FieldError, build_field
from .box import Box, BoxError, default_box, load_box
from .engine import GAME, HauntedLandsState, new_game
from .rules import entry_cost, explore_cost
from .state import ConfigError, GameConfig, SaveError

State = HauntedLandsState

__all__ = [
    "Box", "BoxError", "Build", "ChooseBonus", "ChooseQuest", "ChooseResource", "ConfigError", "Contact", "EndTurn",
    "Explore", "Extract", "Field", "FieldError", "GAME", "GameConfig", "HauntedLandsState", "Learn", "PlaceGhost",
    "RestoreToken", "RollBonus", "SaveError", "Sell", "State", "Train", "action_from_dict", "action_to_dict",
    "build_field", "default_box", "entry_cost", "explore_cost", "load_box", "new_game",
]
