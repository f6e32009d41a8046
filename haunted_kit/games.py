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
import os
import re
import sys

from .protocol import Game, GameOption, GameState, is_integer
from .provenance import HOUSE_RULE
from .saves import BoxMismatch, check_save_box

#: short name -> (module, attribute of its Game object)
REGISTRY: dict[str, tuple[str, str]] = {
    "haunted": ("haunted_kit.haunted.engine", "GAME"),
    "estate": ("haunted_kit.estate.engine", "GAME"),
    "landmarks": ("haunted_kit.landmarks.engine", "GAME"),
}

#: the environment variable that registers more games, for every process of the kit (the
#: simulation's and the table server's worker processes inherit it): entries
#: ``name=module:attribute`` separated by commas, e.g. ``HAUNTED_KIT_GAMES=nim=nim.engine:GAME``
#: with the module importable (on ``PYTHONPATH``). A game of the kit is not replaced.
GAMES_VARIABLE = "HAUNTED_KIT_GAMES"


def register_from_environment(text: str | None = None) -> list[str]:
    """Add the games of ``text`` (default: the :data:`GAMES_VARIABLE` environment variable)
    to :data:`REGISTRY`; returns the names added. Nothing is imported until a game is used.

    Raises:
        ValueError: an entry that is not ``name=module:attribute``, or that names a game
        already registered from another module (the variable is named in the message).
    """
    text = os.environ.get(GAMES_VARIABLE, "") if text is None else text
    added = []
    for entry in filter(None, (e.strip() for e in text.split(","))):
        name, _, target = entry.partition("=")
        module, _, attr = target.partition(":")
        if not (name.strip() and module.strip() and attr.strip()):
            raise ValueError(f"{GAMES_VARIABLE}: {entry!r} is not name=module:attribute (e.g. nim=nim.engine:GAME)")
        name, where = name.strip(), (module.strip(), attr.strip())
        if REGISTRY.get(name, where) != where:
            raise ValueError(f"{GAMES_VARIABLE}: {name!r} is already the registered game of {REGISTRY[name][0]}")
        if name not in REGISTRY:
            REGISTRY[name] = where
            added.append(name)
    return added


register_from_environment()


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


class HookFailed(RuntimeError):
    """A game's hook raised an error of its own, or returned what the kit cannot read: a
    fault of the game, not of the command's use. The message names the tool, the game and
    the hook: ``"compare: Toy Nim (--game nim): the game's load_box hook returned a box the
    kit cannot read: provenance row 1 has 5 values, not (file, entry, key, provenance)"``.
    ``hook`` is the hook's name."""

    def __init__(self, message: str, hook: str = ""):
        super().__init__(message)
        self.hook = hook


def _named(game) -> str:
    return f"{getattr(game, 'title', game)} (--game {getattr(game, 'name', '?')})"


def _hook_codes(game) -> dict:
    """``(file, function name)`` of its code -> the Game member's name, for every callable member of ``game``."""
    codes = {}
    for name in dir(game):
        if name.startswith("__"):
            continue
        try:
            member = getattr(game, name)
        except Exception:  # noqa: BLE001 - a property that fails is no hook to match
            continue
        code = getattr(getattr(member, "__func__", member), "__code__", None)
        if code is not None:
            codes.setdefault((code.co_filename, code.co_name), name)
    return codes


def _package(game_name: str) -> tuple[str, str]:
    """The game's package: its dotted name and its folder (``""`` when not imported)."""
    module = REGISTRY[game_name][0]
    package = module.rsplit(".", 1)[0] if "." in module else module
    file = getattr(sys.modules.get(module), "__file__", None) or ""
    return package, os.path.dirname(file) + os.sep if file and "." in module else file


_REMOTE_FRAME = re.compile(r'File "([^"]+)", line \d+, in (\S+)')


def _frames(exc: BaseException) -> list[tuple[str, str, str]]:
    """``(file, function, module)`` of every frame ``exc`` passed through, outermost
    first; an error from a worker process adds the frames of its remote traceback's text
    (``concurrent.futures``' ``_RemoteTraceback``: module unknown, ``""``)."""
    out, tb = [], exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        out.append((code.co_filename, code.co_name, str(tb.tb_frame.f_globals.get("__name__", ""))))
        tb = tb.tb_next
    remote = getattr(exc.__cause__, "tb", None)
    if isinstance(remote, str):
        out += [(f, name, "") for f, name in _REMOTE_FRAME.findall(remote)]
    return out


def hook_failure(exc: BaseException, tool: str, names=None) -> HookFailed | None:
    """The :class:`HookFailed` for ``exc`` when it passed through a registered game's hook
    (a member of its Game, matched by its code's file and name, else the outermost frame
    in the game's own package, named by its function), in this process or in a worker
    process, else ``None`` (the kit's own error). ``names``: the games to look at
    (default: every registered game already imported)."""
    frames = _frames(exc)
    found = []
    for name in names if names is not None else [n for n in REGISTRY if REGISTRY[n][0] in sys.modules]:
        try:
            found.append((name, get_game(name)))
        except Exception:  # noqa: BLE001 - a game that does not load is not the one that failed
            continue
    named = None
    for _name, game in found:  # a member of a Game, by its code: the surest
        codes = _hook_codes(game)
        hook_name = next((codes[(f, fn)] for f, fn, _m in frames if (f, fn) in codes), None)
        if hook_name is not None:
            named = (game, hook_name)
            break
    for name, game in found if named is None else ():  # else the outermost frame in a game's own package
        package, folder = _package(name)
        hook_name = next((fn for f, fn, m in frames if m == package or m.startswith(package + ".")
                          or (folder and f.startswith(folder))), None)
        if hook_name is not None:
            named = (game, hook_name)
            break
    if named is None:
        return None
    said = " ".join(str(exc).split()) or "(no message)"
    return HookFailed(f"{tool}: {_named(named[0])}: the game's {named[1]} hook failed: {type(exc).__name__}: {said}",
                      named[1])


def box_problems(box) -> list[str]:
    """What a loaded box holds that the kit cannot read (docs/NEW_GAME.md, "What a box
    holds"): ``provenance`` rows that are not ``(file, entry, key, provenance)``, ``values``
    not keyed ``(file, entry, key)``, a ``fingerprint`` that is not a non-empty string,
    player bounds that are not whole numbers. Empty when none."""
    out = []
    for i, row in enumerate(getattr(box, "provenance", ()) or ()):
        if not isinstance(row, (tuple, list)) or len(row) != 4:
            size = f"{len(row)} values" if isinstance(row, (tuple, list)) else f"a {type(row).__name__}"
            out.append(f"provenance row {i + 1} has {size}, not (file, entry, key, provenance) "
                       "(provenance.mark_house_rules makes them from BoxSchema.rows)")
            break
    values = getattr(box, "values", {}) or {}
    if not isinstance(values, dict):
        out.append(f"values is a {type(values).__name__}, not a dict keyed (file, entry, key)")
    else:
        bad = next((k for k in values if not (isinstance(k, tuple) and len(k) == 3)), None)
        if bad is not None:
            out.append(f"values key {bad!r} is not (file, entry, key)")
    fingerprint = getattr(box, "fingerprint", None)
    if not isinstance(fingerprint, str) or not fingerprint:
        out.append(f"fingerprint {fingerprint!r} is not a non-empty string (provenance.value_fingerprint)")
    for bound in ("min_players", "max_players"):
        if hasattr(box, bound) and not is_integer(getattr(box, bound)):
            out.append(f"{bound} {getattr(box, bound)!r} is not a whole number")
    return out


def checked_box(game, box, hook_name: str, tool: str):
    """``box`` as ``game``'s ``hook_name`` hook (``load_box``, ``default_box``) returned it,
    once :func:`box_problems` finds nothing; else :class:`HookFailed` naming the game, the
    hook and the first problem. ``None`` (a game without a box) passes."""
    problems = [] if box is None else box_problems(box)
    if problems:
        raise HookFailed(f"{tool}: {_named(game)}: the game's {hook_name} hook returned a box the kit cannot read: "
                         f"{problems[0]} (docs/NEW_GAME.md, 'What a box holds')", hook_name)
    return box


def default_players(game: Game) -> int:
    """The player count a tool starts ``game`` with when none is given: the Game's
    optional ``default_players``, else its ``min_players``."""
    return getattr(game, "default_players", None) or game.min_players


def game_options(game: Game) -> tuple[GameOption, ...]:
    """The :class:`~haunted_kit.protocol.GameOption` declarations of ``game`` (its
    optional ``options``; none: ``()``)."""
    return tuple(getattr(game, "options", None) or ())


def option_defaults(game: Game) -> dict:
    """The ``new_game`` keywords a tool starts ``game`` with when the player sets none:
    each declared option's default, options without one left out; e.g.
    ``{"mode": "wanderer", "extra_ghost_cards": ()}`` for Haunted Lands, ``{"rounds": 3}``
    for Landmarks."""
    return {o.keyword: o.default for o in game_options(game) if o.default is not None}


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
      (``play_game``, ``summary``; optionally ``check_settings``,
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


# --------------------------------------------------------------------------- the decision cap

#: The kit's decision cap: the decisions (chance outcomes aside) one game may take before a
#: tool that plays it stops, for a game that declares no ``max_decisions`` of its own. The
#: longest greedy or random game of the reference boxes takes 259 decisions (Haunted Lands,
#: 4 players); a game still running at the cap is taken to be endless (a house rule that lets
#: a turn run for ever): ``play``, ``simulate``, ``compare``, ``review``, the environments and
#: the classroom's bots stop there, naming the seed and the box (:class:`DecisionCapReached`).
DECISION_CAP = 10_000


class DecisionCapReached(RuntimeError):
    """A game that did not end within its decision cap (:func:`decision_cap`). The message
    names the game, its seed, the cap and the box with its house-rule values
    (:func:`box_words`); ``seed``, ``decisions`` and ``cap`` are kept as attributes."""

    def __init__(self, message: str, *, seed=None, decisions: int = 0, cap: int = 0):
        super().__init__(message)
        self.seed, self.decisions, self.cap = seed, decisions, cap


#: the environment variable that sets every tool's decision cap (worker processes inherit it)
CAP_VARIABLE = "HAUNTED_KIT_DECISION_CAP"


def cap_setting() -> int | None:
    """The cap ``$HAUNTED_KIT_DECISION_CAP`` sets (:data:`CAP_VARIABLE`), or ``None`` when it
    is unset or blank.

    Raises:
        ValueError: the variable is not a whole number >= 1.
    """
    text = os.environ.get(CAP_VARIABLE, "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1 or len(text) > 18:
        raise ValueError(f"{CAP_VARIABLE} must be a whole number >= 1, got {text!r}")
    return int(text)


def decision_cap(game: Game, state=None, cap: int | None = None) -> int:
    """The decisions a game of ``game`` may take before a tool stops it: ``cap`` when given
    (a whole number >= 1, e.g. a test's own), else ``$HAUNTED_KIT_DECISION_CAP`` when set
    (:data:`CAP_VARIABLE`: the command line's tools and their worker processes read it),
    else the Game's optional ``max_decisions(state)`` (a game whose length is known from its
    settings: Haunted Lands from its box's seasons and rounds, Landmarks from its rounds),
    else :data:`DECISION_CAP`.

    Raises:
        ValueError: ``cap`` or the variable is not a whole number >= 1 (a bool or float included).
    """
    if cap is None:
        cap = cap_setting()
    if cap is not None:
        if not is_integer(cap) or cap < 1:
            raise ValueError(f"the decision cap must be a whole number >= 1, got {cap!r}")
        return int(cap)
    own = getattr(game, "max_decisions", None)
    return DECISION_CAP if own is None or state is None else int(own(state))


def house_rule_values(box, reference) -> list[tuple]:
    """``(file, entry, field, value, reference value)`` for every value of ``box`` that
    its provenance marks ``house rule`` (:mod:`haunted_kit.provenance`), the reference
    value taken from ``reference`` (a box of the same game, or None: then ``None``)."""
    values, ref = getattr(box, "values", {}) or {}, getattr(reference, "values", {}) or {}
    return [(f, e, k, values.get((f, e, k)), ref.get((f, e, k)))
            for f, e, k, p in getattr(box, "provenance", ()) if p == HOUSE_RULE]


def box_words(game: Game, box) -> str:
    """The box as a message names it: ``"the reference box"``, or its folder's name with the
    values that differ from the reference box (``"box 'forest1' (house rules: terrain.toml
    forest.explore_cost = 1, reference 2)"``). ``box`` None: the game's reference box (its
    ``default_box()``), or ``"the game's own box"`` for a game without one."""
    own = getattr(game, "default_box", None)
    reference = own() if own is not None else None
    box = reference if box is None else box
    if box is None:
        return "the game's own box"
    name = os.path.basename(os.path.normpath(str(getattr(box, "path", "") or ""))) or "box"
    if reference is not None and reference.fingerprint == getattr(box, "fingerprint", None):
        return f"the reference box ({name})"
    rows = house_rule_values(box, reference)
    listed = "; ".join(f"{f} {e}.{k} = {v!r}" + ("" if r is None else f", reference {r!r}") for f, e, k, v, r in rows[:8])
    more = f"; and {len(rows) - 8} more" if len(rows) > 8 else ""
    return f"box {name!r} (house rules: {listed}{more})" if rows else f"box {name!r}"


def cap_reached(game: Game, state, *, cap: int, seed=None, what: str = "") -> DecisionCapReached:
    """The :class:`DecisionCapReached` for ``state`` (a game of ``game`` still running
    after ``cap`` decisions): its message names the game, the seed (``seed``, else the
    Game's optional ``seed_of(state)``; left out when neither gives one), the cap and the box (the Game's optional
    ``box_of(state)``, :func:`box_words`). ``what`` names the tool in the message."""
    box_of, seed_of = getattr(game, "box_of", None), getattr(game, "seed_of", None)
    box = box_of(state) if box_of is not None else None
    if seed is None and seed_of is not None:
        seed = seed_of(state)
    title = getattr(game, "title", getattr(game, "name", "the game"))
    tool = f" ({what})" if what else ""
    named = title if seed is None else f"{title} seed {seed}"
    return DecisionCapReached(
        f"{named} did not end within {cap:,} decisions, the decision cap{tool}; box: "
        f"{box_words(game, box)}. A house rule may let the game run for ever: check the box with "
        f"'haunted-kit check-box --game {getattr(game, 'name', '?')} DIR'.", seed=seed, decisions=cap, cap=cap)


def past_cap(game: Game, state, *, what: str = "") -> DecisionCapReached | None:
    """For a tool that plays ``state`` on one decision at a time (the play views' bots):
    the :class:`DecisionCapReached` to show when ``state``'s action record already holds its
    game's cap of decisions (:func:`decision_cap`) and the game is not over, else ``None``."""
    if state.is_terminal():
        return None
    cap = decision_cap(game, state)
    made = sum(not e.chance for e in state.history())
    return cap_reached(game, state, cap=cap, what=what) if made >= cap else None
