"""The registry of rule modules that implement :mod:`haunted_kit.protocol`.

Tools that serve any game (the CLI's ``--game``, simulation, widgets) look a module
up here by its short name. Entries name the module and its ``GAME`` object; the module
is imported on first use (importlib), so that the registry sits below every game
module in the import graph and the CLI loads only the game it is asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

from .protocol import Game

#: short name -> (module, attribute of its Game object)
REGISTRY: dict[str, tuple[str, str]] = {
    "haunted": ("haunted_kit.haunted.engine", "GAME"),
    "estate": ("haunted_kit.estate.engine", "GAME"),
    "landmarks": ("haunted_kit.landmarks.engine", "GAME"),
}


#: the game a tool serves when none is named: ``--game``'s default, and the game of a
#: classroom store's table written before tables named their game
DEFAULT_GAME = "haunted"


class UnknownGame(ValueError):
    """A game name that no registered rule module has."""


def game_names() -> list[str]:
    """The registered games' short names, in registry order."""
    return list(REGISTRY)


def get_game(name: str) -> Game:
    """The :class:`~haunted_kit.protocol.Game` registered as ``name``.

    Raises:
        UnknownGame: ``name`` is not registered (the message lists the known names).
    """
    try:
        module, attr = REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(REGISTRY)})") from None
    return getattr(importlib.import_module(module), attr)


def game_module(name: str, part: str):
    """The module ``part`` of game ``name``'s package (beside its engine), e.g.
    ``game_module("haunted", "cli")`` is :mod:`haunted_kit.haunted.cli`, or ``None`` when
    the game has no such module. The tools find a game's optional pieces this way:

    * ``cli``: what ``haunted-kit`` needs beyond the :class:`~haunted_kit.protocol.Game`
      (``play_game``, ``summary``; optionally ``OPTIONS``, ``check_settings``,
      ``handout``, ``teacher``; see :mod:`haunted_kit.cli`);
    * ``classroom``: the table server's view of a table (``table_view``, ``status``; see
      :mod:`haunted_kit.server`).

    Raises:
        UnknownGame: ``name`` is not registered.
    """
    get_game(name)  # an unknown name: UnknownGame listing the known ones
    package = REGISTRY[name][0].rsplit(".", 1)[0]
    if importlib.util.find_spec(f"{package}.{part}") is None:
        return None
    return importlib.import_module(f"{package}.{part}")


def game_of(state) -> Game:
    """The registered :class:`~haunted_kit.protocol.Game` whose states ``state`` is
    (matched on the Game's optional ``state_type``; only modules already imported are
    looked at, since a state's module is imported by the time one exists).

    Raises:
        UnknownGame: no registered module declares ``state``'s type.
    """
    for name, (module, attr) in REGISTRY.items():
        mod = sys.modules.get(module)
        game = getattr(mod, attr, None) if mod is not None else None
        st = getattr(game, "state_type", None)
        if st is not None and isinstance(state, st):
            return game
    raise UnknownGame(f"no registered game declares states of type {type(state).__name__}; pass the game explicitly")
