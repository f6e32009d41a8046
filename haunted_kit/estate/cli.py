"""What ``haunted-kit replay`` of an estate save and the end of ``haunted-kit play --game
estate`` need from the module (found through :func:`haunted_kit.games.game_module`):
:func:`summary`. The play loop (:func:`haunted_kit.play.play_game`), the usage checks, the
box, saves and logs are shared by every game, in the kit; the estate has no ``handout``
or ``teacher``."""

from __future__ import annotations

from .sim import summary

__all__ = ["summary"]
