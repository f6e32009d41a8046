"""The registry of rule modules that implement :mod:`haunted_kit.protocol`.

Tools that serve any game (the CLI's ``--game``, simulation, widgets) look a module
up here by its short name. Entries name the module and its ``GAME`` object; the module
is imported on first use (importlib), so that the registry sits below every game
module in the import graph and the CLI loads only the game it is asked for.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys

from .protocol import Game, GameState
from .saves import BoxMismatch, check_save_box

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


class MissingHook(ValueError):
    """A tool asked a game for an optional hook its Game does not have; the message names
    the game, the hook and the tool that needs it."""


def hook(game: Game, name: str, tool: str):
    """The optional member ``name`` of ``game`` (a :class:`~haunted_kit.protocol.Game`),
    which ``tool`` (e.g. ``"check-box"``) needs.

    Raises:
        MissingHook (a ValueError): ``game`` has no ``name``: ``"check-box needs the
        game's load_box hook; Nim (--game nim) has none"``.
    """
    found = getattr(game, name, None)
    if found is None:
        raise MissingHook(f"{tool} needs the game's {name} hook; {getattr(game, 'title', game)} "
                          f"(--game {getattr(game, 'name', '?')}) has none")
    return found


def start_game(game: Game, *, players: int, seed: int = 0, log: bool = False, **options):
    """``game.new_game(players=..., seed=..., **options)``, with ``log=log`` when the
    Game's ``new_game`` names a ``log`` keyword in its signature (the optional switch
    that keeps or drops the event log; a game without it keeps its log as it does).
    Every tool that starts a game with or without a log (play, simulate, the
    environment) starts it here. Raises what ``new_game`` raises (ValueError)."""
    if _takes_log(game.new_game):
        options["log"] = log
    return game.new_game(players=players, seed=seed, **options)


@functools.lru_cache(maxsize=64)
def _takes_log(new_game) -> bool:
    """Whether a ``new_game`` names a ``log`` keyword (read once per function: a
    signature costs about 100 us, a reset of a learning environment a few)."""
    return "log" in inspect.signature(new_game).parameters


def load_state(game: Game, data, box=None, error: type[Exception] = BoxMismatch) -> GameState:
    """The state saved as ``data`` (a save's JSON object), read by ``game.from_dict``
    after the kit's one box check: every tool that loads a save (``replay``, ``review``,
    the conformance round trips, each game's ``load``) comes through here, so a game's
    ``from_dict`` never checks the box fingerprint itself.

    ``box`` is the box to read the save with (``None``: the Game's ``default_box()`` when
    it has that hook, else no box). The save's recorded fingerprint must be one ``box``
    accepts (:func:`haunted_kit.saves.check_save_box`); otherwise ``error`` (default
    :class:`~haunted_kit.saves.BoxMismatch`, a ValueError) is raised naming the box the
    save was made with, before ``from_dict`` reads anything.

    Raises:
        BoxMismatch (or ``error``): a save of another box; whatever ``from_dict`` raises
        (the game's SaveError, a ValueError) for a malformed save.
    """
    if box is None and getattr(game, "default_box", None) is not None:
        box = game.default_box()
    check_save_box(data, box, getattr(game, "title", "this game"), error)
    return game.from_dict(data, box)


def package_of(name: str) -> str:
    """The dotted package of registered game ``name`` (its engine module's package, e.g.
    ``"haunted_kit.haunted"``). Raises UnknownGame."""
    get_game(name)  # an unknown name: UnknownGame listing the known ones
    return REGISTRY[name][0].rsplit(".", 1)[0]


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
      ``handout``; see :mod:`haunted_kit.cli`);
    * ``exercises``: ``EXERCISES`` (the keys) and ``exercise_note(key, seed)`` (the
      teacher's note; see :func:`haunted_kit.exercises.write_teacher_copies`);
    * ``classroom``: the table server's view of a table (``table_view``, ``status``; see
      :mod:`haunted_kit.server`).

    Raises:
        UnknownGame: ``name`` is not registered.
    """
    package = package_of(name)
    if importlib.util.find_spec(f"{package}.{part}") is None:
        return None
    return importlib.import_module(f"{package}.{part}")


def game_of(state) -> Game:
    """The registered :class:`~haunted_kit.protocol.Game` whose states ``state`` is:
    the first whose optional ``state_type`` ``state`` is an instance of, else the first
    whose package (:func:`package_of`) holds the module of ``state``'s class, so a game
    needs no ``state_type``. Only games already imported are looked at, since a state's
    module is imported by the time one exists.

    Raises:
        UnknownGame: no registered game declares ``state``'s type or holds its class.
    """
    found = []
    for name, (module, attr) in REGISTRY.items():
        mod = sys.modules.get(module)
        game = getattr(mod, attr, None) if mod is not None else None
        if game is None:
            continue
        st = getattr(game, "state_type", None)
        if st is not None and isinstance(state, st):
            return game
        found.append((module.rsplit(".", 1)[0] + ".", game))
    home = type(state).__module__ + "."
    for package, game in found:
        if home.startswith(package):
            return game
    raise UnknownGame(f"no registered game declares states of type {type(state).__name__}; pass the game explicitly")
