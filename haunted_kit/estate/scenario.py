"""Exact estate positions for tests and teaching notebooks.

    s = position(players=2, hand={0: {"gold": 5}}, lands={(0, 2): ("forest", [0])},
                 display=["tax_land", "marble_quarry", "forest", "forest"])

starts from a fresh game's position (setup done) and changes only what is named;
the tile stack is recounted so that every tile of the box is somewhere. The result is
checked like a save (:func:`haunted_kit.estate.state.check_position`) and becomes the
game's start position (kept in its save).
"""

from __future__ import annotations

from ..protocol import is_integer, plain_integers
from .engine import new_state
from .state import EstateConfig, fail, position_of


def position(players: int = 2, seed: int = 0, *, hand=None, income=None, taken=None, workers=None, tokens=None,
             lands=None, display=None, removed=None, turn=None, season=None, first_taker=None, passed=None,
             visited=None, visitors=None, uses=None, log: bool = True, **options):
    """A game at an exact position.

    Args:
        players, seed, options: the :class:`EstateConfig`.
        hand, income, taken, workers: ``{player: {key: value}}`` changes (resources in
            units, gold in gold; workers by place ``supply``/``factory``/``inn``).
        tokens, passed, visited: ``{player: value}``.
        lands: ``{slot: (tile, [players with a marker, owner first])}``; the income
            raises of the tiles are NOT added (set ``income`` for that).
        display, removed: lists of tile names; the stack holds the rest.
        turn, season, visitors, uses, first_taker: set as given.

    Raises:
        EstateSaveError: the position breaks a rule (named field).
    """
    # numpy integers are accepted as the actions accept them, made plain ints for the save
    (players, seed, hand, income, taken, workers, tokens, lands, display, removed, turn, season, first_taker, passed,
     visited, visitors, uses, options) = plain_integers((players, seed, hand, income, taken, workers, tokens, lands, display,
                                                         removed, turn, season, first_taker, passed, visited, visitors,
                                                         uses, options))
    cfg = EstateConfig(players=players, seed=seed, **options)
    base = position_of(new_state(cfg, log=False))
    for key, val in (("hand", hand), ("income", income), ("taken", taken), ("workers", workers), ("tokens", tokens),
                     ("passed", passed), ("visited", visited)):
        if val is not None and not isinstance(val, dict):
            fail(key, f"must be a {{player: value}} object, got {val!r}")
        for p in val or {}:
            if not is_integer(p) or not 0 <= p < players:
                fail(f"{key}[{p!r}]", f"is not a player index 0..{players - 1}")
    for key, val in (("hand", hand), ("income", income), ("taken", taken), ("workers", workers)):
        for p, changes in (val or {}).items():
            if not isinstance(changes, dict):
                fail(f"{key}[{p}]", f"must be a {{key: value}} object of changes, got {changes!r}")
            base[key][p].update(changes)
    for key, val in (("tokens", tokens), ("passed", passed), ("visited", visited)):
        for p, v in (val or {}).items():
            base[key][p] = v
    if lands is not None:
        base["lands"] = {f"{q},{r}": {"tile": t, "owner": ps[0], "markers": list(ps), "raised": list(ps)}
                         for (q, r), (t, ps) in lands.items()}
    if display is not None:
        base["display"] = list(display)
    if removed is not None:
        base["removed"] = list(removed)
    for key, val in (("turn", turn), ("season", season), ("visitors", visitors), ("uses", uses),
                     ("first_taker", first_taker)):
        if val is not None:
            base[key] = {**base[key], **val} if isinstance(val, dict) else val
    box = cfg.box
    for t, x in box.tiles.items():
        used = sum(1 for v in base["lands"].values() if v["tile"] == t) + base["display"].count(t) + base["removed"].count(t)
        base["stack"][t] = x.count - used  # a negative count is refused by the check
    base["rng_count"] = 0
    base["decisions"] = 0
    return new_state(cfg, start=base, log=log)
