"""Agents by specification, for any game of the kit: the CLI's ``--agents``, simulation
grids and the environment's opponents.

A spec is an agent name with optional settings in brackets::

    random
    greedy
    search[playouts=100,rollout=greedy]
    search[seconds=0.5]

A lineup is specs separated by commas (``"search[playouts=100],greedy"``); a lineup
shorter than the number of players repeats. :func:`make_bot` builds the agent (the kit's
one bot factory: each Game declares its agents as data, ``Game.agents``, see
:func:`haunted_kit.protocol.agent_table`); :func:`seat_bots` and :func:`seat_bot` seat
them with the one seat-seeding rule (:func:`haunted_kit.protocol.seat_seed`);
:func:`bot_settings` gives the settings a dataset records.
"""

from __future__ import annotations

import re

from .games import MissingHook, get_game, hook
from .protocol import agent_table, seat_agents, seat_seed
from .search import SearchAgent, check_settings

__all__ = ["BotSpecError", "bot_settings", "default_agent", "known_agents", "make_bot", "parse_lineup", "parse_spec", "seat_bot",
           "seat_bots"]

_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\[(.*)\])?\s*$")
_SEARCH_KEYS = {"playouts": int, "seconds": float, "rollout": str, "rollout_depth": "depth", "exploration": float,
                "prior": str}


class BotSpecError(ValueError):
    """An agent spec that cannot be read (the message names the part)."""


def _value(key: str, kind, text: str):
    if kind == "depth":
        if text.lower() in ("none", "full"):
            return None
        kind = int
    try:
        return kind(text)
    except ValueError:
        raise BotSpecError(f"setting {key}={text!r} is not a {'whole number' if kind is int else 'number'}") from None


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"search[playouts=100]"`` -> ``("search", {"playouts": 100})``.

    Raises:
        BotSpecError: malformed text, an unknown setting or one given twice, a number out
            of its range or an unknown rollout or prior (:func:`haunted_kit.search.check_settings`:
            ``seconds=inf``, ``exploration=nan``, ``playouts=0``...), or settings on an agent that takes none.
    """
    m = _SPEC.match(spec) if isinstance(spec, str) else None
    if not m:
        raise BotSpecError(f"cannot read agent spec {spec!r} (expected e.g. greedy or search[playouts=100])")
    name, body = m.group(1), m.group(2)
    settings: dict = {}
    if body is not None and body.strip():
        if name != "search":
            raise BotSpecError(f"agent {name!r} takes no settings (got [{body}])")
        for part in body.split(","):
            key, eq, text = part.partition("=")
            key = key.strip()
            if not eq or key not in _SEARCH_KEYS:
                raise BotSpecError(f"unknown search setting {part.strip()!r} (known: {', '.join(_SEARCH_KEYS)})")
            if key in settings:
                raise BotSpecError(f"search setting {key} is given twice")
            settings[key] = _value(key, _SEARCH_KEYS[key], text.strip())
        try:  # the ranges live with the search (haunted_kit.limits): NaN, infinities, 0 or huge budgets...
            check_settings(**settings)
        except ValueError as exc:
            raise BotSpecError(f"search setting: {exc}") from None
    return name, settings


def parse_lineup(text: str) -> list[str]:
    """Split ``"search[playouts=100,rollout=greedy],greedy"`` into specs (commas inside
    brackets stay), checking each one. Raises :class:`BotSpecError`."""
    specs, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            specs.append(cur.strip())
            cur = ""
        else:
            cur += ch
    specs.append(cur.strip())
    specs = [s for s in specs if s]
    if not specs:
        raise BotSpecError("give at least one agent")
    for s in specs:
        parse_spec(s)
    return specs


def _game(game):
    """``game`` as a Game: a registered short name is looked up (UnknownGame, a
    ValueError, for another); a Game object is taken as it is."""
    return get_game(game) if isinstance(game, str) else game


def known_agents(game) -> list[str]:
    """The agent names a spec may use for ``game`` (a Game or its short name): its
    agents (:func:`haunted_kit.protocol.agent_table`: ``random``, then the Game's own),
    then ``search`` (plays every game)."""
    return [*agent_table(_game(game)), "search"]


def default_agent(game) -> str:
    """The agent a tool seats when none is named (``play``, ``simulate`` and ``compare``'s
    ``--agents``): ``"greedy"`` when ``game`` (a Game or its short name) declares one in its
    ``agents``, else ``"random"`` (which plays every game)."""
    return "greedy" if "greedy" in agent_table(_game(game)) else "random"


def make_bot(spec: str, seed: int, game):
    """The agent a spec names, seeded with ``seed``, for ``game`` (a Game or its short
    name). The kit's one bot factory: every place that takes agent names (``play`` and
    ``simulate``'s ``--agents``, the environment's opponents, the play widgets, the
    classroom's bot seats, each game's ``play_game``) builds its agents here, through
    :func:`seat_bots` / :func:`seat_bot` when the bot takes a seat.

    Raises:
        BotSpecError (a ValueError): a bad spec, an unknown agent (the message lists
            :func:`known_agents`), a bad setting, or ``search`` for a game without the
            ``determinise(state, player, rng)`` hook the search needs (the message names it).
        UnknownGame (a ValueError): ``game`` names no registered game.
    """
    name, settings = parse_spec(spec)
    game = _game(game)
    if name == "search":
        try:
            hook(game, "determinise", "the search agent")
        except MissingHook as exc:
            raise BotSpecError(str(exc)) from None
        return SearchAgent(seed, game=game, **settings)
    table = agent_table(game)
    if name not in table:
        raise BotSpecError(f"unknown agent {name!r} for {game.name!r} (known: {', '.join(known_agents(game))})")
    return table[name](seed)


def seat_bot(spec: str, game, seed: int, seat: int):
    """The bot for ``seat`` (0-based player index) of game ``seed``: :func:`make_bot` seeded
    with :func:`~haunted_kit.protocol.seat_seed` (``seed * 100 + seat``), as every entry
    point seats its bots. Raises as :func:`make_bot`."""
    return make_bot(spec, seat_seed(seed, seat), game)


def seat_bots(game, agents, players: int, seed: int) -> tuple[list, list[str]]:
    """One agent per seat for a game of ``game`` (a Game or its short name) with
    ``players`` seats and seed ``seed``: ``agents`` are specs or agent objects, one per
    seat (a shorter sequence repeats); seat ``i``'s spec becomes :func:`seat_bot`
    ``(spec, game, seed, i)``. Returns ``(agents, names)``
    (:func:`~haunted_kit.protocol.seat_agents`). Raises as :func:`make_bot`."""
    game = _game(game)
    return seat_agents(agents, players, seed, lambda spec, k: make_bot(spec, k, game))


def bot_settings(spec: str) -> dict:
    """Every setting of the agent a spec names, defaults included (JSON-ready)."""
    name, settings = parse_spec(spec)
    if name == "search":
        return SearchAgent(0, **settings).settings()
    return {"agent": name}
