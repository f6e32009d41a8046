"""The estate module's flow: setup, seasons of turns, the Market visit, season end and
the Inn, chance (the tile stack), legal actions, refusals and applying actions.

Turn structure (kit default, ruling E1): in each season the players act in seat order,
one action a turn, until all have passed. A turn is one of: a Factory take
(:class:`TakeMaterial`), taking gold (:class:`TakeGold`), placing a land tile
(:class:`PlaceTile`, followed by :class:`RemoveTile` on a white-dotted slot), joining a
land (:class:`Join`), a Market visit (:class:`VisitMarket`, then up to 3 or 2
:class:`Trade` and :class:`EndVisit`) or :class:`Pass`. Season end: Factory workers go
back, marked prices reset, then each player with a worker in the Inn chooses
(:class:`InnReturn` / :class:`InnDecline`) in seat order.

Chance: each face-up tile of the display is drawn from the shuffled stack; outcome
*k* of a game with seed *s* is :func:`haunted_kit.protocol.chance_index` of ``(s, k)``
weighted by the tiles left (the kit's one seeded draw), so the same seed and actions give
the same game.
"""

from __future__ import annotations

import math
from dataclasses import fields, replace

from ..fileio import MAX_INPUT_BYTES, read_json
from ..games import load_state
from ..protocol import (ChanceError, IllegalAction, Record, SCORE_ONLY_MEANINGS, chance_index, is_integer,
                        is_the_integer, results_by_score)
from . import actions as A
from . import rules as R
from .actions import action_from_dict, action_table
from .agents import AGENTS
from .box import SCHEMA as BOX_SCHEMA, default_estate_box, load_estate_box
from .state import (VISIBILITY, GAME_NAME, SAVE_FORMAT, SAVE_VERSION, EstateConfig, EstateConfigError, EstateData,
                    EstateSaveError, check_position, fail, first_difference, position_of, set_position, value_at)


class EstateState(EstateData):
    """An estate position implementing :class:`haunted_kit.protocol.GameState`: the data
    of :class:`~haunted_kit.estate.state.EstateData` plus the rules-driven methods
    (legal actions, refusals, applying, chance, loading saves)."""

    # current_player, legal_actions and apply_action are this module's functions themselves,
    # set on the class below them (one call per question: the search asks at every step)

    def why_not(self, action):
        return why_not(self, action)

    def chance_outcomes(self) -> list:
        return chance_outcomes(self)

    def apply_chance(self, outcome) -> None:
        apply_chance(self, outcome)

    def sample_chance(self) -> str:
        """The seeded tile of the waiting draw (:func:`sample_chance`)."""
        return sample_chance(self)

    def force_chance(self, *outcomes) -> None:
        """Make the next stack draws give ``outcomes`` (tile names), in order ("what if")."""
        for o in outcomes:
            if o not in self.box.tiles:
                raise ValueError(f"unknown tile {o!r} (known: {', '.join(self.box.tiles)})")
        self.forced.extend(outcomes)
        advance(self)

    @staticmethod
    def from_dict(data, box=None) -> "EstateState":
        """Rebuild a saved game after the kit's box check (:func:`haunted_kit.games.load_state`,
        then :func:`load_save`). Raises :class:`EstateSaveError` naming what is wrong."""
        return load_state(GAME, data, box, EstateSaveError)

    @staticmethod
    def load(path, box=None, max_bytes: int | None = None) -> "EstateState":
        """Read a save; ``max_bytes`` (default 16 MiB) refuses bigger files unread.
        Raises :class:`EstateSaveError` naming what is wrong."""

        data = read_json(path, MAX_INPUT_BYTES if max_bytes is None else max_bytes, what="save", error=EstateSaveError)
        return load_state(GAME, data, box, EstateSaveError)

    def __repr__(self) -> str:
        if self.phase == "over":
            return f"<EstateState over; gold values {[self.gold_value(p) for p in range(self.players)]}>"
        return f"<EstateState season {self.season} {self.phase}, to move: {self.current_player()}>"


# ============================================================================ setup


def new_state(config: EstateConfig, *, start: dict | None = None, log: bool = True) -> EstateState:
    """A new game for ``config``. ``start`` (a position dict, see
    :func:`haunted_kit.estate.state.position_of`) replaces the setup, for exact
    positions in tests and notebooks; it is checked and kept in the save."""
    s = EstateState(config)
    s.log = [] if log else None
    box = config.box
    n = config.players
    s.season, s.phase, s.turn = 1, "setup", 0
    s.hand = [dict(box.start_hand) for _ in range(n)]
    s.income = [dict(box.start_income) for _ in range(n)]
    s.taken = [{r: 0 for r in box.income_resources} for _ in range(n)]
    s.first_taker = {r: None for r in box.factory_resources}
    s.workers = [{"supply": box.start_workers, "factory": 0, "inn": 0} for _ in range(n)]
    s.tokens, s.passed, s.visited = [0] * n, [False] * n, [False] * n
    s.visitors, s.visit = 0, None
    s.uses = {a: 0 for a in box.market}
    s.lands, s.display, s.removed, s.adjacent = {}, [], [], []
    s.stack = {t: x.count for t, x in box.tiles.items()}
    s.pending, s.chance, s.inn_queue = None, None, []
    s.rng_count, s.decisions = 0, 0
    if start is not None:
        set_position(s, start)
        s.start = start
        R.emit(s, "setup", None, f"A prepared position: season {s.season}, {n} players.")
    else:
        R.emit(s, "setup", None, f"Setup: {n} players, each with income {_income_text(box.start_income)}, "
                                 f"{box.start_workers} workers and no resources; the land tiles are shuffled.")
    advance(s)
    return s


def _income_text(inc: dict) -> str:
    return ", ".join(f"{v} {r}" for r, v in inc.items())


def new_game(players: int = 3, seed: int = 0, *, log: bool = True, start: dict | None = None, **options) -> EstateState:
    """A new estate game. ``options`` are :class:`EstateConfig` fields (``connection``,
    ``marble_field``, ``improvement``, ``third_marked``, ``auto_chance``, ``box``).

    Raises:
        EstateConfigError: a bad parameter (named).
    """
    return new_state(EstateConfig(players=players, seed=seed, **options), start=start, log=log)


# ============================================================================ chance


def sample_chance(s: EstateState) -> str:
    """The seeded tile of the waiting stack draw: draw number ``rng_count`` of the game's
    seed, weighted by the tiles left (:func:`haunted_kit.protocol.chance_index`, the kit's
    one seeded draw). Raises :class:`ChanceError` when no draw is waiting."""
    if s.chance is None:
        raise ChanceError("no chance node is waiting (no tile is being drawn)")
    outcomes = [(t, k) for t, k in s.stack.items() if k]
    return outcomes[chance_index(s.config.seed, s.rng_count, [k for _, k in outcomes])][0]


def chance_outcomes(s: EstateState) -> list:
    """``[(tile, probability), ...]`` for the waiting stack draw, else ``[]``."""
    if s.chance is None:
        return []
    total = sum(s.stack.values())
    return [(t, k / total) for t, k in s.stack.items() if k]


def apply_chance(s: EstateState, outcome) -> None:
    """Put ``outcome`` (a tile name) face up in the display. Raises :class:`ChanceError`
    for a tile the stack does not hold or when no draw is waiting."""
    if s.chance is None:
        raise ChanceError("no chance node is waiting (no tile is being drawn)")
    if not isinstance(outcome, str) or s.stack.get(outcome, 0) <= 0:
        left = ", ".join(t for t, k in s.stack.items() if k)
        raise ChanceError(f"the stack holds no {outcome!r} (left: {left})")
    _resolve(s, outcome)
    advance(s)


def _resolve(s: EstateState, tile: str) -> None:
    s.stack[tile] -= 1
    s.display.append(tile)
    s.rng_count += 1
    s.chance = None
    s.legal_cache = None
    s.record = s.record.step(None, tile, True)
    if s.log is not None:  # (a search copy keeps no log: no sentence made)
        R.emit(s, "tile_drawn", None, f"A {tile.replace('_', ' ')} is drawn from the stack into the display "
                                      f"({sum(s.stack.values())} tiles left in the stack).", tile=tile)


# ============================================================================ flow


def current_player(s: EstateState):
    """The player to decide now (0-based), ``None`` at a chance node, in setup or once the game is over."""
    if s.chance is not None or s.phase in ("over", "setup"):
        return None
    if s.pending is not None:
        return s.pending[1]
    if s.visit is not None:
        return s.visit["player"]
    if s.phase == "inn":
        return s.inn_queue[0]
    return s.turn


def advance(s: EstateState) -> None:
    """Run the automatic steps: refill the display (chance), start play after setup,
    end turns and seasons, until a decision, an unresolved draw or the end."""
    s.legal_cache = None
    while True:
        if s.phase == "over":
            return
        if s.pending is None and len(s.display) < s.config.box.display_size and sum(s.stack.values()) > 0:
            s.chance = "draw"
            if s.forced:
                _resolve(s, s.forced.pop(0))
                continue
            if not s.config.auto_chance:
                return
            _resolve(s, sample_chance(s))
            continue
        if s.phase == "setup":
            s.phase = "turns"
            R.emit(s, "season_started", None, f"Season {s.season} begins; P{s.turn + 1} acts first.")
            continue
        if s.phase == "inn":
            while s.inn_queue and not _inn_choice(s, s.inn_queue[0]):
                s.inn_queue.pop(0)
            if s.inn_queue:
                return
            _next_season(s)
            continue
        return


def _inn_choice(s: EstateState, p: int) -> bool:
    """Whether ``p`` has a choice at the Inn (a worker there and the gold to pay)."""
    if s.workers[p]["inn"] == 0:
        return False
    if s.hand[p]["gold"] < s.config.box.inn_price:
        R.emit(s, "inn_unpaid", p, f"P{p + 1} has a worker in the Inn but not the {s.config.box.inn_price} gold to bring it back.")
        return False
    return True


def _end_turn(s: EstateState) -> None:
    passed = s.passed
    n = len(passed)
    q = s.turn
    for _ in range(n):  # the next seat in order that has not passed
        q = q + 1 if q + 1 < n else 0
        if not passed[q]:
            s.turn = q
            return
    _end_season(s)


def _end_season(s: EstateState) -> None:
    box = s.config.box
    R.emit(s, "season_ended", None, f"Season {s.season} ends: every player has passed.")
    for p in range(s.players):
        R.move_workers(s, p, "factory", "supply", s.workers[p]["factory"], "workers_back",
                       f"P{p + 1}'s {s.workers[p]['factory']} Factory workers return to the supply.")
    s.uses = {a: 0 for a in box.market}
    R.emit(s, "prices_reset", None, f"The marked prices are reset: the next use costs {box.price_first} gold.")
    s.phase = "inn"
    s.inn_queue = list(range(s.players))


def _next_season(s: EstateState) -> None:
    if s.season >= s.config.box.seasons:
        s.phase = "over"
        values = ", ".join(f"P{p + 1} {s.gold_value(p)}" for p in range(s.players))
        R.emit(s, "game_over", None, f"The game ends after season {s.season}. Gold value of holdings "
                                     f"(a kit measure, not a rule): {values}.")
        return
    n = s.players
    s.season += 1
    s.phase, s.turn = "turns", 0
    s.taken = [{r: 0 for r in s.config.box.income_resources} for _ in range(n)]
    s.first_taker = {r: None for r in s.config.box.factory_resources}
    s.passed, s.visited, s.visitors = [False] * n, [False] * n, 0
    R.emit(s, "season_started", None, f"Season {s.season} begins; income takes start again and P1 acts first.")


# ============================================================================ legality


def legal_actions(s: EstateState) -> list:
    """The legal actions of the player to move (see the module doc); empty at a chance
    node or the end. The objects are the box's interned ones (:func:`~haunted_kit.estate.actions.action_table`),
    in this order: a Factory take of each material (1 unit up), gold takes, each display
    tile (first seen first) on each open slot, joins, the Market visit, pass."""
    if s.legal_cache is not None:
        return s.legal_cache
    out = []
    box = s.config.box
    table = action_table(box)
    # the branches of current_player, each naming the player to move
    if s.chance is not None or s.phase == "over" or s.phase == "setup":
        pass
    elif s.pending is not None:
        out = [table.remove[t] for t in dict.fromkeys(s.display)]
    elif s.visit is not None:
        out = _visit_actions(s, box, table)
    elif s.phase == "inn":
        out = [table.INN_RETURN, table.INN_DECLINE]
    else:
        p = s.turn
        taken = s.taken[p]
        if s.workers[p]["supply"] >= box.workers_per_take:
            income, first_taker = s.income[p], s.first_taker
            rows = table.take
            for m in box.factory_resources:
                inc = income[m]  # R.take_limit, inlined
                if inc <= 0:
                    continue
                first = first_taker[m]
                left = inc + (box.first_taker_extra if first is None or first == p else 0) - taken[m]
                if left > 0:
                    row = rows[m]  # table.takes(m, left), the row sliced straight once it is long enough
                    out += row[:left] if len(row) >= left else table.takes(m, left)
        left = s.income[p]["gold"] - taken["gold"]
        if left > 0:
            row = table.gold  # table.golds(left), the row sliced straight once it is long enough
            out += row[:left] if len(row) >= left else table.golds(left)
        cache = s.slot_cache  # (R.open_slot_lists' own lookup first: most turns find the lists kept)
        found = cache.get(-1 - p) if cache is not None else None
        free, joins, have = found or R.open_slot_lists(s, p)  # have: tiles in p's estate (the marble quarry's condition)
        gold = s.hand[p]["gold"]
        if free or joins:
            if free and gold >= box.tile_price:
                for t in dict.fromkeys(s.display):
                    if t == "marble_quarry" and have < box.marble_quarry_min_tiles:
                        continue
                    row = table.place[t]
                    out += map(row.__getitem__, free)
            lands, fee = s.lands, R.land_join_fee
            for slot in joins:
                land = lands[slot]
                if land["tile"] == "marble_quarry" and have < box.marble_quarry_min_tiles:
                    continue
                if gold >= fee(box, land):
                    out.append(table.join[slot])
        if not s.visited[p]:
            out.append(table.VISIT)
        out.append(table.PASS)
    s.legal_cache = out
    return out


def _visit_actions(s: EstateState, box, table) -> list:
    """The legal actions of a Market visit: the trades the visitor may make, then ending
    the visit (memoised by what the trades depend on)."""
    p = s.visit["player"]
    # the legal trades depend only on this key (the visit's rows used and limit, the third marked row,
    # the prices: uses and tokens, the hand, the worker limit reached): found once, then copied. A new
    # hand is looked up again with its gold capped at the dearest price and each holding at what an
    # option gives (the trades depend on nothing more, table.wanted; capping a capped key changes
    # nothing, so both kinds of key share the memo)
    hand, uses, visit, tokens = s.hand[p], s.uses, s.visit, s.tokens[p]
    key = (s.config.third_marked, visit["limit"], *visit["used"], None, R.total_workers(s, p) >= box.worker_limit,
           tokens, *map(uses.__getitem__, box.market), hand["gold"], *map(hand.__getitem__, box.resources))
    memo = table.trade_memo
    found = memo.get(key)
    if found is None:
        if len(memo) >= _TRADES_KEPT:
            memo.clear()
        dearest = max(R.token_price(box, box.price_first, tokens), R.token_price(box, box.price_later, tokens))
        n = len(box.resources) + 1
        wide = (*key[:-n], min(hand["gold"], dearest), *table.wanted(hand))
        found = memo.get(wide)
        if found is None:
            found = memo[wide] = R.legal_trades(s, p, table.trades)
        memo[key] = found
    return [*found, table.END_VISIT]


# the methods are the functions: one call per question (the search asks at every step)
EstateState.current_player = current_player
EstateState.legal_actions = legal_actions


def why_not(s: EstateState, action):
    """``None`` if ``action`` is legal now, else the Refusal with the rule section."""
    p = current_player(s)
    if s.phase == "over":
        return R.refusal("the game is over", R.TURNS)
    if p is None:
        return R.refusal("a tile is being drawn from the stack (a chance node): no player decides now", R.LANDS)
    t = type(action)
    if t not in A.ACTION_TYPES.values():
        return R.refusal(f"{action!r} is not an action of the estate module", R.TURNS)
    try:
        hash(action)
    except TypeError:  # a list or dict in a field: slots, gives and takes are read as pairs below, others refused
        for f in fields(action):
            v = getattr(action, f.name)
            if f.name not in _PAIR_FIELDS and not _hashable(v):
                return R.refusal(f"{t.__name__}.{f.name} must be a name or a whole number, got {v!r}", R.TURNS)
    if s.pending is not None:
        if t is not A.RemoveTile:
            return R.refusal(f"P{p + 1} must first remove a tile of the display from the game (white-dotted land)", R.LANDS)
        if action.tile not in s.display:
            return R.refusal(f"no {action.tile!r} is in the display ({', '.join(s.display)})", R.LANDS)
        return None
    if t is A.RemoveTile:
        return R.refusal("a tile is removed only after taking a white-dotted outer land", R.LANDS)
    if s.phase == "inn":
        if t is A.InnDecline:
            return None
        if t is A.InnReturn:
            if s.hand[p]["gold"] < s.config.box.inn_price:
                return R.refusal(f"bringing a worker back from the Inn costs {s.config.box.inn_price} gold and P{p + 1} has "
                                 f"{s.hand[p]['gold']}", R.MARKET)
            return None
        return R.refusal(f"the season is over: P{p + 1} only chooses whether to bring a worker back from the Inn", R.MARKET)
    if t in (A.InnReturn, A.InnDecline):
        return R.refusal("the Inn is visited after each season, not during it", R.MARKET)
    if s.visit is not None:
        if t is A.EndVisit:
            return None
        if t is A.Trade:
            give, take = _amounts(action.give), _amounts(action.take)
            if give is None or take is None or not isinstance(action.action, str):
                return R.refusal("a trade names a Market action and gives and takes tuples of (resource, amount) pairs",
                                 R.MARKET)
            return R.refuse_trade(s, p, action.action, give, take)
        return R.refusal(f"P{p + 1} is at the Market: take a Market action or leave it", R.MARKET)
    if t is A.Trade:
        return R.refusal(f"P{p + 1} is not visiting the Market; visit it first", R.MARKET)
    if t is A.EndVisit:
        return R.refusal(f"P{p + 1} is not at the Market", R.MARKET)
    if t is A.VisitMarket:
        if s.visited[p]:
            return R.refusal(f"P{p + 1} already visited the Market this season (one visit a season: ruling E10)", R.MARKET)
        return None
    if t is A.Pass:
        return None
    if t is A.TakeMaterial:
        return R.refuse_take(s, p, action.material, action.amount)
    if t is A.TakeGold:
        return R.refuse_gold(s, p, action.amount)
    slot = _slot(action.slot)
    if slot is None:
        return R.refusal(f"{action.slot!r} is not a slot (expected a (q, r) pair of integers)", R.LANDS)
    if t is A.PlaceTile:
        return R.refuse_place(s, p, action.tile, slot)
    if t is A.Join:
        return R.refuse_join(s, p, slot)
    return R.refusal(f"{action!r} is not an action of the estate module", R.TURNS)  # pragma: no cover


def _amounts(v):
    """``v`` as sorted ``(resource, amount)`` pairs, or None when it has another shape."""
    if not isinstance(v, (tuple, list)):
        return None
    out = []
    for x in v:
        if not (isinstance(x, (tuple, list)) and len(x) == 2 and isinstance(x[0], str) and is_integer(x[1])):
            return None
        out.append((x[0], int(x[1])))
    return tuple(sorted(out))


_TRADES_KEPT = 50_000  # legal trade lists kept per box (ActionTable.trade_memo), then started afresh
_PAIR_FIELDS = ("slot", "give", "take")  # fields given as lists are accepted and read as tuples


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _slot(v):
    if isinstance(v, (tuple, list)) and len(v) == 2 and all(is_integer(x) for x in v):
        return (int(v[0]), int(v[1]))
    return None


# ============================================================================ applying


def apply_action(s: EstateState, action) -> None:
    """Apply a legal action of the player to move; raises :class:`IllegalAction`
    (the state unchanged) otherwise."""
    t = type(action)
    for a in s.legal_cache or ():  # the usual case: one of the listed (interned, plain) objects, legal as it is
        if a is action:
            break
    else:  # anything else: check it and record its plain form
        why = why_not(s, action)
        if why is not None:
            raise IllegalAction(action, why)
        if t in (A.PlaceTile, A.Join):
            action = t(*(([action.tile] if t is A.PlaceTile else []) + [_slot(action.slot)]))
        if t in (A.TakeMaterial, A.TakeGold):  # numpy integers become int: the record and the save hold plain ints
            action = A.TakeGold(int(action.amount)) if t is A.TakeGold else A.TakeMaterial(action.material, int(action.amount))
        if t is A.Trade:  # sorted pairs in the record (the box's own trades have them already)
            action = A.Trade(action.action, _amounts(action.give), _amounts(action.take))
    p = current_player(s)
    s.record = s.record.step(p, action)
    s.decisions += 1
    s.legal_cache = None
    log = s.log is not None  # a search copy keeps no log: no sentence is made
    end = True
    if t is A.TakeMaterial:  # (the kinds in the order a playout meets them most)
        R.do_take(s, p, action.material, action.amount)
    elif t is A.Trade:
        R.do_trade(s, p, action.action, action.give, action.take)
        end = len(s.visit["used"]) >= s.visit["limit"]
        if end:
            if log:
                R.emit(s, "market_left", p, f"P{p + 1} has used all {s.visit['limit']} actions of the visit and leaves the Market.")
            s.visit = None
    elif t is A.TakeGold:
        R.do_gold(s, p, action.amount)
    elif t is A.PlaceTile:
        if R.do_place(s, p, action.tile, action.slot):
            s.pending = ["remove", p]
            end = False
    elif t is A.Join:
        R.do_join(s, p, action.slot)
    elif t is A.RemoveTile:
        R.do_remove(s, p, action.tile)
        s.pending = None
    elif t is A.VisitMarket:
        limit = R.visit_limit(s)
        first = s.visitors == 0
        s.visited[p] = True
        s.visitors += 1
        s.visit = {"player": p, "limit": limit, "used": []}
        if log:
            R.emit(s, "market_visit", p, f"P{p + 1} visits the Market{' first this season' if first else ''}: up to "
                                         f"{limit} different actions, no workers needed.")
        end = False
    elif t is A.EndVisit:
        if log:
            R.emit(s, "market_left", p, f"P{p + 1} leaves the Market after {len(s.visit['used'])} action(s).")
        s.visit = None
    elif t is A.Pass:
        s.passed[p] = True
        if log:
            R.emit(s, "passed", p, f"P{p + 1} passes for the rest of season {s.season}.")
    elif t is A.InnReturn:
        R.gain(s, p, "gold", -s.config.box.inn_price, "inn_paid", f"P{p + 1} pays {s.config.box.inn_price} gold at the Inn.")
        R.move_workers(s, p, "inn", "supply", 1, "inn_return", f"P{p + 1} brings one worker back from the Inn.")
        s.inn_queue.pop(0)
        end = False
    elif t is A.InnDecline:
        R.emit(s, "inn_declined", p, f"P{p + 1} leaves the workers in the Inn.")
        s.inn_queue.pop(0)
        end = False
    if end and s.phase == "turns":
        _end_turn(s)
    advance(s)


EstateState.apply_action = apply_action  # the method is the function (see current_player above)


def load_save(data, box=None) -> "EstateState":
    """Rebuild a saved game (the Game's ``from_dict``): check the header and config, load
    the start position, replay the action record and compare with the stored position.
    Which box the save was made with is the kit's check (:func:`haunted_kit.games.load_state`,
    which :meth:`EstateState.from_dict` and :meth:`EstateState.load` go through); here
    ``box`` (default: the kit's) is taken as given.

    Raises:
        EstateSaveError: naming the field (``config.players``, ``history[7].action``,
            ``state.hand[1].gold``...) and what is wrong.
    """
    if not isinstance(data, dict):
        fail("save", "must be a JSON object")
    unknown = [k for k in data if k not in SAVE_KEYS]
    if unknown:  # e.g. forced chance outcomes: this module's saves never hold any
        fail(str(unknown[0]), f"unknown field of an estate save (its fields: {', '.join(SAVE_KEYS)})")
    if data.get("format") != SAVE_FORMAT:
        fail("format", f"not a haunted-kit save (got {data.get('format')!r})")
    if data.get("game") != GAME_NAME:
        fail("game", f"this is a save of game {data.get('game')!r}, not {GAME_NAME!r}")
    if not is_the_integer(data.get("version"), SAVE_VERSION):
        fail("version", f"unsupported version {data.get('version')!r} (this kit reads version {SAVE_VERSION})")
    box = box or default_estate_box()
    if not isinstance(data.get("box"), str):  # which box: the kit's to check (games.load_state)
        fail("box", f"must be the fingerprint of the box the game was played with, got {data.get('box')!r}")
    cfg = data.get("config")
    if not isinstance(cfg, dict):
        fail("config", "must be an object")
    known = {"players", "seed", "connection", "marble_field", "improvement", "third_marked", "auto_chance"}
    for k in known:
        if k not in cfg:
            fail(f"config.{k}", "missing")
    for k in cfg:
        if k not in known:
            fail(f"config.{k}", "unknown field")
    if not isinstance(cfg["auto_chance"], bool):
        fail("config.auto_chance", f"must be true or false, got {cfg['auto_chance']!r}")
    try:
        config = EstateConfig(box=box, **{**cfg, "auto_chance": False})
    except EstateConfigError as exc:
        fail("config", str(exc))
    start = data.get("start")
    if start is not None:
        check_position(box, config, start, "start")
    s = new_state(config, start=start)
    hist = data.get("history")
    if not isinstance(hist, list):
        fail("history", "must be a list")
    for i, e in enumerate(hist):
        w = f"history[{i}]"
        if not isinstance(e, dict):
            fail(w, "must be an object")
        try:
            if "chance" in e:
                s.apply_chance(e["chance"])
            else:
                if not is_the_integer(e.get("player"), s.current_player()):
                    fail(f"{w}.player", f"is {e.get('player')!r} but P{(s.current_player() or 0) + 1} was to decide"
                          if s.current_player() is not None else f"is {e.get('player')!r} but no decision was due")
                s.apply_action(action_from_dict(e.get("action")))
        except EstateSaveError:
            raise
        except Exception as exc:  # IllegalAction, ChanceError, ValueError: all name the entry
            fail(w, f"cannot be replayed: {exc}")
    stored = data.get("state")
    check_position(box, config, stored, "state")
    now = position_of(s)
    diff = first_difference(stored, now, "state")
    if diff:
        fail(diff, f"is {value_at(stored, diff)!r} but the recorded actions give {value_at(now, diff)!r}")
    s.config = replace(config, auto_chance=cfg["auto_chance"])
    return s


#: the fields of an estate save (:meth:`EstateData.to_dict`); a save with any other is refused
SAVE_KEYS = ("format", "game", "version", "box", "config", "start", "history", "state")


# ============================================================================ the Game object


class EstateGame:
    """The estate module as a :class:`haunted_kit.protocol.Game` (registered as ``"estate"``)."""

    name = "estate"
    title = "Estate and Market"
    visibility = VISIBILITY  #: who may see what (:data:`~haunted_kit.estate.state.VISIBILITY`)
    #: the decision kinds (JSON type name -> action class) the conformance suite reaches
    action_types = A.ACTION_TYPES

    def conformance_starts(self, box=None) -> list[EstateState]:
        """Positions the conformance suite plays from besides new games: no action sends a
        worker to the Inn (ruling E15), so play from a new game never meets the Inn's
        decisions (``InnReturn``, ``InnDecline``). Here a 2-player game of ``box`` (default:
        the kit's) starts with a worker of each player in the Inn and P1 holding 9 gold,
        enough to bring one back."""
        cfg = EstateConfig(players=2, seed=1, box=box or default_estate_box())
        start = position_of(new_state(cfg, log=False))
        for p in range(2):
            start["workers"][p]["inn"] = 1
        start["hand"][0]["gold"] = 9
        return [new_state(cfg, start=start)]
    default_players = 3  #: the tools' player count when none is given
    compare_games = 300  #: ``compare``'s games per box when none are asked for (about 5-15 CPU s of games)

    @property
    def min_players(self) -> int:
        return default_estate_box().min_players

    @property
    def max_players(self) -> int:
        return default_estate_box().max_players

    def new_game(self, *, players: int = 3, seed: int = 0, log: bool = True, **options) -> EstateState:
        return new_game(players, seed, log=log, **options)

    def from_dict(self, data: dict, box=None) -> EstateState:
        return load_save(data, box)

    def load(self, path, box=None) -> EstateState:
        return EstateState.load(path, box)

    def action_to_dict(self, action) -> dict:
        return A.action_to_dict(action)

    @property
    def agents(self) -> dict:
        """Bots by name (``random``, ``greedy``; each a class taking a seed) for :func:`haunted_kit.bots.make_bot`."""
        return AGENTS

    def box_of(self, state: EstateState):
        """The box ``state`` is played with (named in the decision cap's message)."""
        return state.config.box

    def seed_of(self, state: EstateState) -> int:
        """``state``'s game seed."""
        return state.config.seed

    #: the box's schema (``haunted_kit.boxschema.BoxSchema``): its files and every key, for docs/BOXES.md
    box_schema = BOX_SCHEMA

    def load_box(self, path):
        """The estate box in folder ``path`` (raises :class:`EstateBoxError`)."""
        return load_estate_box(path)

    def settings(self, box=None) -> list[dict]:
        """Every player count of ``box`` under each connection reading, as ``new_game``
        keywords (what :func:`haunted_kit.testing.check_box` covers)."""
        box = box or default_estate_box()
        return [{"players": n, "connection": c} for c in ("group", "line")
                for n in range(box.min_players, box.max_players + 1)]

    def invariants(self, state: EstateState, before: EstateState | None = None) -> list[str]:
        """What is wrong with ``state`` (empty when nothing): the save loader's position
        checks (counts, worker limit, tiles adding up to the box, connected estates), and
        against ``before``: income never goes down, workers are only hired, never lost."""
        problems = []
        try:
            check_position(state.box, state.config, position_of(state))
        except EstateSaveError as exc:
            problems.append(str(exc))
        if before is not None:
            for p in range(state.players):
                for r, v in state.income[p].items():
                    if v < before.income[p][r]:
                        problems.append(f"P{p + 1}'s {r} income went down from {before.income[p][r]} to {v}")
                if sum(state.workers[p].values()) < sum(before.workers[p].values()):
                    problems.append(f"P{p + 1} lost workers")
            if state.decisions < before.decisions:
                problems.append("the decision count went back")
        return problems

    def action_from_dict(self, data: dict):
        return A.action_from_dict(data)

    # ---- optional members used by simulation and search (see protocol.Game)
    state_type = EstateState

    def determinise(self, state: EstateState, player: int, rng) -> EstateState:
        """A copy that ``player`` may search, built from what ``player`` sees: nothing is
        hidden in this module but the tile stack's order, so the copy's draws get a seed
        from ``rng`` (a :class:`random.Random`) and start at position 0, and the outcomes
        forced on the next draws (:meth:`EstateState.force_chance`), the action record,
        the start position and the log are left out: it cannot foretell the real stack."""
        d = state.copy(keep_log=False)
        config = d.config = object.__new__(EstateConfig)  # the same checked settings (a new seed in range needs no new check)
        config.__dict__.update(state.config.__dict__)
        config.__dict__["seed"] = rng.getrandbits(62)
        d.forced = []
        d.rng_count = 0
        d.record = Record()
        d.start = None
        return d

    def start_of(self, state: EstateState) -> EstateState:
        """The position before the first entry of ``state.history()``: the save's start
        position (or the seeded setup) with the tile draws left waiting and the event log
        on, so that :func:`haunted_kit.protocol.states_along` re-plays the record from it
        (used by :mod:`haunted_kit.review`)."""
        return new_state(replace(state.config, auto_chance=False), start=state.start, log=True)

    def evaluate(self, state: EstateState) -> list[float]:
        """A cheap estimate of each player's chance to end with the highest gold value, for
        truncated search playouts (a kit heuristic, not a rule): a softmax (3 gold wide)
        over the gold value held plus the income still to take, valued at the same prices:
        this season's untaken income and the full income of every season left."""
        box = state.box
        left = box.seasons - state.season
        value, get = box.value, box.value.get
        est = []
        for hand, income, taken in zip(state.hand, state.income, state.taken):  # whole numbers: exact in any order
            v = 0
            for r, n in hand.items():  # the gold value held (EstateData.gold_value)
                v += value[r] * n
            for r, inc in income.items():  # the income still to take, at the same prices
                v += get(r, 0) * (inc - taken[r] + inc * left)
            est.append(v)
        top = max(est)
        w = [math.exp((v - top) / 3.0) for v in est]
        total = sum(w)
        return [x / total for x in w]

    def default_box(self):
        """The module's own box (``data/estate/``)."""
        return default_estate_box()

    score_name = "gold value"  #: what ``seat_results``' score is, in words (hint sentences)

    #: what the simulation dataset's columns mean for this module (see haunted_kit.simulate)
    result_meanings = {
        **SCORE_ONLY_MEANINGS,
        "score": "gold value of the holdings at the end (gold 1, marble 3, glass 2, wood 1, limestone 1; "
                 "a kit measure, not a rule: the module prints no victory points)",
        "won": "the sole highest gold value (a tie at the top: nobody)",
        "score_parts": "the gold value by holding as JSON, holding -> amount x its price in gold",
        "game_turns": "seasons begun (the box's seasons once the game is over)",
    }

    def seat_results(self, state: EstateState) -> list[dict]:
        """Per player the figures a simulation records (:func:`~haunted_kit.protocol.results_by_score`
        of the gold values; see :attr:`result_meanings`)."""
        return results_by_score([state.gold_value(p) for p in range(state.players)])

    def score_parts(self, state: EstateState) -> list[dict]:
        """Each player's gold value by part (index order): holding -> its amount times its
        price in gold (the box's ``value``, in the box's order; zeros included), the parts
        adding up to :meth:`EstateState.gold_value` (a kit measure, not a rule)."""
        value = state.box.value
        return [{r: value[r] * state.hand[p].get(r, 0) for r in value} for p in range(state.players)]

    length_name = "seasons"  #: what :meth:`game_length` counts, in words

    def game_length(self, state: EstateState) -> int:
        """Seasons begun (estate rules, "Resource income": income is taken each season): the box's ``seasons`` once the game is over."""
        return int(state.season)

    def action_catalogue(self, box=None):
        """The fixed integer encoding of the estate's actions (:func:`haunted_kit.estate.encoding.catalogue`)."""
        from . import encoding  # lazy: the environment's encoding (numpy, ~0.14 s) loads only for the environment

        return encoding.catalogue(box)

    def observation_encoder(self, box, players: int):
        """The observation vector (:class:`haunted_kit.estate.encoding.EstateObservation`)."""
        from . import encoding  # lazy: the environment's encoding (numpy, ~0.14 s) loads only for the environment

        return encoding.EstateObservation(box, players)

    def __repr__(self) -> str:
        return "<Game estate: Estate and Market>"


GAME = EstateGame()

__all__ = ["GAME", "EstateConfigError", "EstateGame", "EstateState", "apply_action", "legal_actions", "load_save", "new_game",
           "new_state", "why_not"]
