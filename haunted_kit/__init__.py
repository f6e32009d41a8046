"""haunted_kit: learn, play and analyse the board game Haunted Lands and two companion
rule systems in Jupyter.

Quick start::

    import haunted_kit as hk
    s = hk.new_game(players=3, mode="wanderer", seed=7)
    s.legal_actions()          # what the player to move may do
    s.apply_action(s.legal_actions()[0])
    s.events().tail()          # what happened, explained

    hk.get_game("estate").new_game(players=3, seed=7)    # any registered game, same protocol
    hk.tutorial("estate")      # a first game that teaches itself (in a notebook)
    hk.box_editor("landmarks") # house rules: a form from the game's box schema, checked, saved as a box

The top level is the kit (the protocol, the registry, the tools); each game is a package
of the same shape (:mod:`haunted_kit.haunted`, :mod:`haunted_kit.estate`,
:mod:`haunted_kit.landmarks`). The short names below are loaded on first use, so
importing a companion game loads nothing of Haunted Lands. See docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: public short name -> module that defines it (loaded on first use)
_LAZY = {
    **{name: "haunted_kit.haunted" for name in (
        "Box", "BoxError", "Build", "ChooseBonus", "ChooseQuest", "ChooseResource", "ConfigError", "Contact",
        "EndTurn", "Explore", "Extract", "Field", "FieldError", "GameConfig", "Learn", "PlaceGhost", "RestoreToken",
        "RollBonus", "SaveError", "Sell", "State", "Train", "action_from_dict", "action_to_dict", "build_field",
        "default_box", "entry_cost", "explore_cost", "load_box", "new_game")},
    **{name: "haunted_kit.protocol" for name in ("ChanceError", "HistoryEntry", "IllegalAction", "Record", "Refusal")},
    **{name: "haunted_kit.games" for name in ("get_game", "game_names")},
    "tutorial": "haunted_kit.widgets.tutorial",
    "box_editor": "haunted_kit.widgets.box_editor",
}



def _subpackages() -> tuple[str, ...]:
    """The registered games' packages inside the kit (``haunted``, ``estate``,
    ``landmarks``), from the registry (:data:`haunted_kit.games.REGISTRY`); a game
    registered from outside the kit is not an attribute of it."""
    from .games import REGISTRY  # lazy: the registry imports the protocol; `import haunted_kit` stays light

    return tuple(dict.fromkeys(module.split(".")[1] for module, _ in REGISTRY.values()
                               if module.startswith("haunted_kit.") and module.count(".") >= 2))

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in _subpackages():
        return importlib.import_module(f"haunted_kit.{name}")
    raise AttributeError(f"module 'haunted_kit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_subpackages()))
