"""Build exact game positions: for tests and for the teaching notebooks.

A *scenario* is a real game (made by :func:`haunted_kit.new_game` with forced setup
draws) brought to the first player's turn of season 1, round 1, and then edited by
hand: move a sensor, hand out resources, put ghosts and buildings on the field,
teach skills, move valor tokens... Every edit

* keeps the components conserved: what a player or the field receives comes out of
  the general supply, and what they lose goes back to it (rulebook: "General
  supply"); an edit the supply cannot pay for raises :class:`ScenarioError`;
* keeps the position sensible: no ghost on a lake or a building, no resource beyond
  the player's cap, no building on the wrong terrain... (same reasons as the rules);
* is recorded in the event log as a ``"setup"`` event whose ``data`` has a
  ``"scenario"`` key, so the log still explains every change of the state;
* invalidates the engine's legal-action cache, so ``s.legal_actions()`` and
  ``s.apply_action(...)`` see the edited position.

Cells are axial ``(q, r)`` tuples, as everywhere in the public API; players are
0-based indexes (shown as P1, P2...).

Example::

    from haunted_kit.haunted.scenario import scenario, place, give, put_ghost

    s = scenario(players=2)             # P1 to move, clean field, everyone in the city
    place(s, 0, (2, 0))                 # P1's sensor on the forest next to R01's lake
    give(s, 0, water=1, ore=1)          # from the general supply
    put_ghost(s, (3, 0))
    s.legal_actions()

Edits do not award valor and do not run the engine's automatic steps: a position in
which the player to move could only end the turn stays at that decision until
``EndTurn`` is applied. Use :func:`end_round` to play on to the next round with a
chosen terrain-die result.
"""

from __future__ import annotations

from typing import Iterable

from . import actions as A
from . import rules as R
from .engine import new_game
from .flow import TerrainDie
from ..protocol import is_integer, plain_integers
from .state import COVERED, FREE, OVER, TURNS, State

__all__ = [
    "DEFAULT_LAYOUT", "DEFAULT_SKILLS", "ScenarioError", "scenario", "cell_index", "place", "give", "take",
    "set_resources", "set_pecunias", "set_tokens", "put_ghost", "remove_ghost", "clear_ghosts", "deplete",
    "undeplete", "put_building", "remove_building", "learn", "set_valor", "set_turn", "set_calendar",
    "give_quests", "end_turn", "end_round", "conservation_problems",
]

#: Region tile of each slot used when no layout is given (slots in box order).
DEFAULT_LAYOUT = ("R01", "R02", "R03", "R04", "R05", "R06")
#: Skill card of each deck used when none are given (Communication, Wandering, Trade, Craft).
DEFAULT_SKILLS = (1, 4, 7, 10)


class ScenarioError(ValueError):
    """An edit that would break the position: a supply that cannot pay, a cap, a rule
    about where a piece may stand, an unknown name."""


# =========================================================================== creating


def scenario(players: int = 2, mode: str = "wanderer", layout=DEFAULT_LAYOUT, skills=DEFAULT_SKILLS,
             market: int = 1, order=None, extra_ghost_cards=(), ghosts: Iterable = (), clear_spread: bool = True,
             log: bool = True, *, seed: int = 0, first_terrain: str = "plain", spread_cells: Iterable = (),
             auto_chance: bool = True, limited_supplies: bool = True, terrain_die: str = "standard",
             box=None) -> State:
    """A game at the first player's turn of season 1, round 1, with forced setup draws.

    Args:
        players, mode, extra_ghost_cards, seed, limited_supplies, terrain_die, box:
            the game's :class:`~haunted_kit.haunted.state.GameConfig`.
        layout: region tile id of each slot (6).
        skills: skill card in play for each deck, in deck order (4).
        market: market card number.
        order: the starting stack from the top (player indexes); the top player takes
            the first turn. Default ``0, 1, 2...`` (P1 first).
        ghosts: cells that hold a ghost at the start (taken from the supply).
        clear_spread: return the first spread's ghosts to the supply, so the field
            holds exactly ``ghosts``.
        log: record events.
        first_terrain: the result of the first terrain-die roll.
        spread_cells: where the last player puts the first spread's ghosts when they
            have a choice (in order); the first legal cells otherwise.
        auto_chance: whether the returned state resolves later dice with its seeded
            generator (forced outcomes, :meth:`State.force_chance`, still come first).

    Returns:
        the :class:`State`, phase ``"turns"``, the top player of ``order`` to move.
    """
    if order is None:
        order = tuple(range(players))
    kwargs = dict(players=players, mode=mode, extra_ghost_cards=tuple(extra_ghost_cards), seed=seed,
                  limited_supplies=limited_supplies, terrain_die=terrain_die)
    if box is not None:
        kwargs["box"] = box
    s = new_game(log=log, auto_chance=False, layout=tuple(layout), skills=tuple(skills), market=market,
                 order=tuple(order), **kwargs)
    if s.chance != TerrainDie():  # pragma: no cover - new_game guarantees it with every draw forced
        raise ScenarioError(f"setup did not reach the first terrain die (waiting at {s.chance!r})")
    s.apply_chance(first_terrain)
    wanted = [tuple(c) for c in spread_cells]
    while s.pending and s.pending[-1].kind == "ghosts":
        legal = s.legal_actions()
        pick = None
        while wanted and pick is None:
            a = A.PlaceGhost(wanted.pop(0))
            if a in legal:
                pick = a
            else:
                raise ScenarioError(f"spread cell {a.cell} is not available now ({s.why_not(a)})")
        s.apply_action(pick or legal[0])
    if s.phase != TURNS or s.round != 1 or s.season != 1:
        raise ScenarioError(f"the first spread did not lead to the first turn ({s!r})")
    if clear_spread:
        clear_ghosts(s)
    for c in ghosts:
        put_ghost(s, c)
    s.auto_chance = auto_chance
    s._legal = None
    return s


# =========================================================================== helpers


def _ctx(s: State):
    return R.ctx_of(s)


def cell_index(s: State, cell) -> int:
    """Index of the axial ``cell`` in the state's per-cell lists."""
    try:
        return s.field.cell_index(tuple(cell))
    except (ValueError, TypeError) as exc:
        raise ScenarioError(str(exc)) from None


def _player(s: State, p) -> int:
    if not is_integer(p) or not 0 <= p < s.config.players:
        raise ScenarioError(f"player must be an index 0..{s.config.players - 1}, got {p!r}")
    return int(p)


def _note(s: State, text: str, cell=None, player=None, **data) -> None:
    s._legal = None
    if s.log is not None:
        R.emit(s, "setup", player, f"Scenario: {text}", cell=cell, scenario=data.pop("what"), **plain_integers(data))


def _resource_amounts(s: State, amounts: dict) -> dict:
    box = s.config.box
    out = {}
    for name, k in amounts.items():
        if name not in box.resources:
            raise ScenarioError(f"{name!r} is not a resource (known: {', '.join(box.resources)})")
        if not is_integer(k) or k < 0:
            raise ScenarioError(f"{name} must be a non-negative integer, got {k!r}")
        out[box.resources.index(name)] = int(k)
    return out


# =========================================================================== players


def place(s: State, player: int, cell) -> None:
    """Put ``player``'s sensor on ``cell`` (any explorable cell; not a lake)."""
    p = _player(s, player)
    i = cell_index(s, cell)
    if not _ctx(s).explorable[i]:
        raise ScenarioError(f"a sensor cannot stand on {s.field.describe(i)}")
    s.sensor[p] = i
    _note(s, f"{R.P(p)}'s sensor is put on {s.field.describe(i)}.", cell=i, player=p, what="place")


def give(s: State, player: int, *, pecunias: int = 0, **resources) -> None:
    """Give ``player`` resources (``food=1, ore=2``...) from the supply, and pecunias.

    Raises :class:`ScenarioError` when the supply is short or the player's cap
    (3, or 4 with skill 7) would be passed.
    """
    p = _player(s, player)
    ctx = _ctx(s)
    amounts = _resource_amounts(s, resources)
    cap = R.resource_cap(s, ctx, p)
    for r, k in amounts.items():
        if s.sup_res[r] < k:
            raise ScenarioError(f"the supply holds {s.sup_res[r]} {ctx.res_names[r]}, cannot give {k}")
        if s.resource(p, r) + k > cap:
            raise ScenarioError(f"{R.P(p)} may hold at most {cap} {ctx.res_names[r]}")
    if not is_integer(pecunias) or pecunias < 0:
        raise ScenarioError(f"pecunias must be a non-negative integer, got {pecunias!r}")
    for r, k in amounts.items():
        s.sup_res[r] -= k
        s.add_resource(p, r, k)
    s.pec[p] += int(pecunias)
    what = ", ".join(f"{k} {ctx.res_names[r]}" for r, k in amounts.items() if k)
    if pecunias:
        what = f"{what}, {pecunias} pecunias" if what else f"{pecunias} pecunias"
    _note(s, f"{R.P(p)} receives {what or 'nothing'} from the supply.", player=p, what="give")


def take(s: State, player: int, *, pecunias: int = 0, **resources) -> None:
    """Return resources and pecunias of ``player`` to the supply."""
    p = _player(s, player)
    ctx = _ctx(s)
    amounts = _resource_amounts(s, resources)
    for r, k in amounts.items():
        if s.resource(p, r) < k:
            raise ScenarioError(f"{R.P(p)} holds {s.resource(p, r)} {ctx.res_names[r]}, cannot return {k}")
    if not is_integer(pecunias) or not 0 <= pecunias <= s.pec[p]:
        raise ScenarioError(f"{R.P(p)} holds {s.pec[p]} pecunias, cannot return {pecunias!r}")
    for r, k in amounts.items():
        s.sup_res[r] += k
        s.add_resource(p, r, -k)
    s.pec[p] -= int(pecunias)
    _note(s, f"{R.P(p)} returns resources/pecunias to the supply.", player=p, what="take")


def set_resources(s: State, player: int, **resources) -> None:
    """Set ``player``'s holding of the named resources exactly (others unchanged)."""
    p = _player(s, player)
    ctx = _ctx(s)
    amounts = _resource_amounts(s, resources)
    held = s.resource_counts(p)
    back = {ctx.res_names[r]: held[r] - k for r, k in amounts.items() if held[r] > k}
    more = {ctx.res_names[r]: k - held[r] for r, k in amounts.items() if held[r] < k}
    if back:
        take(s, p, **back)
    if more:
        give(s, p, **more)


def set_pecunias(s: State, player: int, pecunias: int) -> None:
    """Set ``player``'s pecunias exactly (pecunias are unlimited)."""
    p = _player(s, player)
    if not is_integer(pecunias) or pecunias < 0:
        raise ScenarioError(f"pecunias must be a non-negative integer, got {pecunias!r}")
    s.pec[p] = int(pecunias)
    _note(s, f"{R.P(p)} now holds {pecunias} pecunias.", player=p, what="set_pecunias")


def set_tokens(s: State, player: int, track: str, owned: int | None = None, active: int | None = None) -> None:
    """Set how many ``track`` tokens ``player`` owns and how many are active.

    Extra tokens come from the supply, removed ones go back to it; ``owned`` stays
    within the track's slots and ``active`` within ``owned``.
    """
    p = _player(s, player)
    ctx = _ctx(s)
    if track not in ctx.ti:
        raise ScenarioError(f"{track!r} is not an action track (known: {', '.join(ctx.track_names)})")
    t = ctx.ti[track]
    owned = s.tokens(p, t) if owned is None else owned
    active = min(s.tokens(p, t, active=True), owned) if active is None else active
    slots = ctx.tracks[t].slots
    if not is_integer(owned) or not 0 <= owned <= slots:
        raise ScenarioError(f"the {track} track has {slots} slots; cannot own {owned!r} tokens")
    if not is_integer(active) or not 0 <= active <= owned:
        raise ScenarioError(f"active tokens must lie between 0 and owned ({owned}), got {active!r}")
    owned, active = int(owned), int(active)
    delta = owned - s.tokens(p, t)
    if delta > s.sup_tok[t]:
        raise ScenarioError(f"the supply holds {s.sup_tok[t]} {track} tokens, cannot give {delta}")
    s.sup_tok[t] -= delta
    s.set_tokens(p, t, owned, active)
    _note(s, f"{R.P(p)} owns {owned} {track} token(s), {active} active.", player=p, what="set_tokens",
          track=track, owned=owned, active=active)


def set_valor(s: State, player: int, valor: int) -> None:
    """Move ``player``'s valor token to ``valor``; it lands on top of any stack there
    (so successive calls build a stack bottom to top)."""
    p = _player(s, player)
    if not is_integer(valor) or valor < 0:
        raise ScenarioError(f"valor must be a non-negative integer, got {valor!r}")
    valor = int(valor)
    s.valor[p] = valor
    s.arrivals += 1
    s.arrival[p] = s.arrivals
    _note(s, f"{R.P(p)}'s valor token is put on {valor}, on top of any stack there.", player=p,
          what="set_valor", valor=valor)


def learn(s: State, player: int, skill: int, *, valor: bool = False) -> None:
    """Teach ``player`` a skill in play: their marker takes the leftmost free marker
    slot of the card (as the learning action does), without paying its cost. With
    ``valor`` the slot's valor is gained too."""
    p = _player(s, player)
    ctx = _ctx(s)
    if skill not in s.skills:
        raise ScenarioError(f"skill {skill} is not in play (in play: {', '.join(map(str, s.skills))})")
    if s.knows_skill(p, skill):
        raise ScenarioError(f"{R.P(p)} already knows skill {skill}")
    j = R.free_slot(s, ctx, skill)
    if j is None:
        raise ScenarioError(f"skill {skill} has no free marker slot")
    if s.markers[p] >= ctx.box.player_markers:
        raise ScenarioError(f"{R.P(p)} has no player marker left")
    s.mark_skill(p, skill, j)
    _note(s, f"{R.P(p)} knows skill {skill} (marker slot {j + 1}).", player=p, what="learn", skill=skill, slot=j + 1)
    if valor:
        R.gain_valor(s, p, ctx.box.skill_slot_valor[j], f"marker slot {j + 1} of skill {skill}", "skills")


def give_quests(s: State, player: int, *quests: int) -> None:
    """Move quest cards from ``player``'s hand to their face-down chosen quests."""
    p = _player(s, player)
    for q in quests:
        if not s.holds_quest(p, q):
            raise ScenarioError(f"quest {q} is not in {R.P(p)}'s hand")
        s.take_quest(p, q)
        s._legal = None
        if s.log is not None:
            R.emit(s, "quest_chosen", p, f"Scenario: {R.P(p)} holds quest card {q} face down.",
                   scenario="give_quests", quest=q)


# =========================================================================== the field


def put_ghost(s: State, *cells) -> None:
    """Put a ghost from the supply on each cell (not a lake, a building or a ghost)."""
    ctx = _ctx(s)
    for cell in cells:
        i = cell_index(s, cell)
        if not ctx.holds_ghosts[i]:
            raise ScenarioError(f"a ghost cannot stand on {s.field.describe(i)}")
        if s.ghosts[i]:
            raise ScenarioError(f"{s.field.describe(i)} already holds a ghost")
        if s.building[i] >= 0:
            raise ScenarioError(f"{s.field.describe(i)} has a building; a ghost cannot go there")
        if s.sup_ghosts <= 0:
            raise ScenarioError("the supply has no ghost left")
        s.ghosts[i] = 1
        s.sup_ghosts -= 1
        _note(s, f"a ghost from the supply is put on {s.field.describe(i)}.", cell=i, what="put_ghost")


def remove_ghost(s: State, *cells) -> None:
    """Return the ghost on each cell to the supply."""
    for cell in cells:
        i = cell_index(s, cell)
        if not s.ghosts[i]:
            raise ScenarioError(f"{s.field.describe(i)} holds no ghost")
        s.ghosts[i] = 0
        s.sup_ghosts += 1
        _note(s, f"the ghost on {s.field.describe(i)} returns to the supply.", cell=i, what="remove_ghost")


def clear_ghosts(s: State) -> None:
    """Return every ghost on the field to the supply."""
    k = sum(s.ghosts)
    s.sup_ghosts += k
    s.ghosts = [0] * len(s.ghosts)
    _note(s, f"{k} ghost(s) return from the field to the supply.", what="clear_ghosts", amount=k)


def deplete(s: State, *cells) -> None:
    """Put a depletion token from the supply on each cell."""
    for cell in cells:
        i = cell_index(s, cell)
        if s.depleted[i]:
            raise ScenarioError(f"{s.field.describe(i)} already has a depletion token")
        if s.sup_depl <= 0:
            raise ScenarioError("the supply has no depletion token left")
        s.depleted[i] = 1
        s.sup_depl -= 1
        _note(s, f"a depletion token is put on {s.field.describe(i)}.", cell=i, what="deplete")


def undeplete(s: State, *cells) -> None:
    """Return the depletion token on each cell to the supply."""
    for cell in cells:
        i = cell_index(s, cell)
        if not s.depleted[i]:
            raise ScenarioError(f"{s.field.describe(i)} has no depletion token")
        s.depleted[i] = 0
        s.sup_depl += 1
        _note(s, f"the depletion token on {s.field.describe(i)} returns to the supply.", cell=i, what="undeplete")


def put_building(s: State, cell, building: str, owner: int, *, valor: bool = False) -> None:
    """Put a ``building`` piece from the supply on ``cell`` with ``owner``'s marker.

    The cell must allow that building (terrain, or a noria next to a lake) and hold
    no building, ghost or depletion token. With ``valor`` the owner gains the
    building's valor (as construction would, skill 11 included).
    """
    p = _player(s, owner)
    ctx = _ctx(s)
    i = cell_index(s, cell)
    if building not in ctx.bi:
        raise ScenarioError(f"{building!r} is not a building (known: {', '.join(ctx.bi)})")
    b = ctx.bi[building]
    if b not in ctx.build_here[i]:
        raise ScenarioError(f"a {building} cannot stand on {s.field.describe(i)}")
    if s.building[i] >= 0 or s.ghosts[i] or s.depleted[i]:
        raise ScenarioError(f"{s.field.describe(i)} is not empty (building, ghost or depletion token)")
    if s.sup_build[b] <= 0:
        raise ScenarioError(f"the supply has no {building} left")
    if s.markers[p] >= ctx.box.player_markers:
        raise ScenarioError(f"{R.P(p)} has no player marker left")
    s.sup_build[b] -= 1
    s.building[i] = b
    s.owner[i] = p
    s.markers[p] += 1
    _note(s, f"{R.P(p)}'s {building} is put on {s.field.describe(i)}.", cell=i, player=p, what="put_building",
          building=building)
    if valor:
        R.gain_valor(s, p, ctx.buildings[b].valor, f"building a {building}", "buildings")
        if R.has_skill(s, ctx, p, "build_valor"):
            R.gain_valor(s, p, ctx.amount["build_valor"], f"skill {ctx.skill_no['build_valor']}", "buildings")


def remove_building(s: State, cell) -> None:
    """Return the building on ``cell`` to the supply (its marker to its owner)."""
    i = cell_index(s, cell)
    if s.building[i] < 0:
        raise ScenarioError(f"{s.field.describe(i)} has no building")
    b, p = s.building[i], s.owner[i]
    s.sup_build[b] += 1
    s.markers[p] -= 1
    s.building[i] = -1
    s.owner[i] = -1
    _note(s, f"the building on {s.field.describe(i)} returns to the supply.", cell=i, player=p, what="remove_building")


# =========================================================================== the calendar


def set_turn(s: State, order=None, to_move: int | None = None) -> None:
    """Set the turn order (players, first to last) and whose turn it is.

    ``to_move`` defaults to the first player of the order. Only between decisions
    of the turn phase (no pending sub-decision).
    """
    if s.phase != TURNS or s.pending or s.chance is not None:
        raise ScenarioError("the turn order can be edited only during the turns, between decisions")
    if order is not None:
        order = list(order)
        if sorted(order) != list(range(s.config.players)):
            raise ScenarioError(f"order must list each player index once, got {order!r}")
        s.turn_order = order
    if to_move is None:
        to_move = s.turn_order[0]
    if to_move not in s.turn_order:
        raise ScenarioError(f"player {to_move!r} is not in the turn order")
    s.turn_pos = s.turn_order.index(to_move)
    _note(s, "turn order " + ", ".join(R.P(p) for p in s.turn_order) + f"; {R.P(to_move)} to move.",
          player=to_move, what="set_turn", order=list(s.turn_order))


def set_calendar(s: State, season: int, round: int) -> None:
    """Jump to ``round`` of ``season`` (the bonus card follows the season). Nothing
    else changes; use it to test a season's contact cost or its end."""
    box = s.config.box
    if not 1 <= season <= box.seasons or not 1 <= round <= box.rounds_per_season:
        raise ScenarioError(f"season must be 1..{box.seasons} and round 1..{box.rounds_per_season}")
    s.season, s.round = season, round
    _note(s, f"the game is now in round {round} of season {season}.", what="set_calendar", season=season,
          round=round)


# =========================================================================== playing on


def end_turn(s: State) -> None:
    """Apply :class:`EndTurn` for the player to move."""
    s.apply_action(A.EndTurn())


def end_round(s: State, terrain: str = "plain", ghost_cells: Iterable = ()) -> None:
    """End every remaining turn of the round and play the next spread.

    The next terrain-die roll is forced to ``terrain``; where the last player has a
    choice of cells, ``ghost_cells`` are used in order, then the first legal cells.
    Stops at the next turn decision, at an end-of-season quest choice or when the
    game is over (with a season or game end, ``terrain`` is used at the next spread
    that comes).
    """
    start = (s.season, s.round)
    s.force_chance(terrain)
    wanted = [tuple(c) for c in ghost_cells]
    while s.phase != OVER:
        if s.pending:
            if s.pending[-1].kind != "ghosts":
                return
            legal = s.legal_actions()
            a = A.PlaceGhost(wanted.pop(0)) if wanted else legal[0]
            s.apply_action(a)
            continue
        if s.phase == TURNS and (s.season, s.round) != start:
            return
        if s.phase == TURNS:
            s.apply_action(A.EndTurn())
            continue
        return  # pragma: no cover


# =========================================================================== checks


def conservation_problems(s: State) -> list[str]:
    """Every component count that does not add up to the box (empty when all is well):
    ghosts, buildings, resources, depletion tokens, action tokens, player markers,
    skill marker slots. With unlimited supplies only the field-side counts are checked."""
    box = s.config.box
    ctx = _ctx(s)
    n = s.config.players
    out = []
    lim = s.config.limited_supplies
    if s.field is None:
        return out
    if lim and sum(s.ghosts) + s.sup_ghosts != box.supply_ghosts:
        out.append(f"ghosts: {sum(s.ghosts)} on the field + {s.sup_ghosts} in supply != {box.supply_ghosts}")
    if any(s.ghosts[c] and not ctx.holds_ghosts[c] for c in range(len(s.ghosts))):
        out.append("a ghost stands on a lake")
    if any(s.ghosts[c] and s.building[c] >= 0 for c in range(len(s.ghosts))):
        out.append("a ghost stands on a building")
    for b, name in enumerate(box.buildings):
        on = sum(1 for x in s.building if x == b)
        if lim and on + s.sup_build[b] != box.supply_buildings[name]:
            out.append(f"{name}: {on} built + {s.sup_build[b]} in supply != {box.supply_buildings[name]}")
    for r, name in enumerate(box.resources):
        held = sum(s.resource(p, r) for p in range(n))
        if lim and held + s.sup_res[r] != box.supply_resources[name]:
            out.append(f"{name}: {held} held + {s.sup_res[r]} in supply != {box.supply_resources[name]}")
        for p in range(n):
            if s.resource(p, r) > R.resource_cap(s, ctx, p):
                out.append(f"{R.P(p)} holds {s.resource(p, r)} {name}, over the cap")
    if lim and sum(s.depleted) + s.sup_depl != box.supply_depletion:
        out.append(f"depletion: {sum(s.depleted)} on the field + {s.sup_depl} in supply != {box.supply_depletion}")
    for t, name in enumerate(box.tracks):
        owned = sum(s.tokens(p, t) for p in range(n))
        if lim and owned + s.sup_tok[t] != box.supply_tokens[name]:
            out.append(f"{name} tokens: {owned} owned + {s.sup_tok[t]} in supply != {box.supply_tokens[name]}")
        for p in range(n):
            owned_p, active_p = s.tokens(p, t), s.tokens(p, t, active=True)
            if not 0 <= active_p <= owned_p <= box.tracks[name].slots:
                out.append(f"{R.P(p)}'s {name} track: {active_p} active of {owned_p}")
    for p in range(n):
        used = sum(1 for c in range(len(s.building)) if s.building[c] >= 0 and s.owner[c] == p)
        used += sum(1 for v in s.slots if v == p)
        if used != s.markers[p]:
            out.append(f"{R.P(p)}: {used} markers on the board but {s.markers[p]} counted as used")
        if len(s.skills_known(p)) != sum(1 for v in s.slots if v == p):
            out.append(f"{R.P(p)}: learned skills and marker slots disagree")
    covered = set(box.covered_slots.get(n, ()))
    for k in s.skills:
        for j, v in enumerate(s.marker_slots(k) if s.slots else ()):
            if (j in covered) != (v == COVERED):
                out.append(f"skill {k} marker slot {j + 1}: covered state wrong")
            if v not in (FREE, COVERED) and not 0 <= v < n:
                out.append(f"skill {k} marker slot {j + 1}: unknown content {v!r}")
    return out
