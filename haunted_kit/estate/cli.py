"""What ``haunted-kit play --game estate`` and ``haunted-kit replay`` of an estate save
need from the module (found through :func:`haunted_kit.games.game_module`):
:func:`play_game` and :func:`summary`; the estate has no ``handout`` or ``teacher``. The usage checks, the box,
saves and logs are shared by every game, in :mod:`haunted_kit.cli`."""

from __future__ import annotations

from . import sim
from .sim import summary

__all__ = ["play_game", "summary"]


def play_game(players: int, seed: int, agents, *, box, log: bool = False):
    """Play a seeded game with bots named in ``agents`` (one per seat, repeating).

    Returns ``(state, agent names)``; the state is terminal. Raises
    :class:`~haunted_kit.estate.state.EstateConfigError` (a ValueError) for settings the
    box cannot play."""
    return sim.play_game(players, seed, agents, log=log, box=box)
