"""The rules of Haunted Lands: each action's legality next to its effect, and scoring.

Every rule lives in exactly one function here, called by the engine, the pathfinding
analysis and the widgets alike (principle 7):

* :func:`entry_cost` / :func:`explore_cost` - the exploration cost of entering a cell;
* ``refuse_<action>`` - ``None`` when legal, else a :class:`Refusal` (plain words +
  rule section); ``do_<action>`` - the effect, assuming legality;
* production, spread placement, rest, reorder, quest scoring and the final tie-break.

Numbers come from the box (``data/``); the rule functions only read them.
"""

from __future__ import annotations

import math
from itertools import combinations

from . import actions as A
from .board import cell_geometry
from ..events import Event
from .flow import (AUTOMATIC, BonusChoice, BonusDie, GhostPlacement, QuestChoice, ResourceChoice, RestoreChoice,
                   SkillDraw, StackDraw, TileDraw)
from ..protocol import Refusal, is_integer
from .state import (COVERED, CONSTRUCTION, CONTACT, EXPLORATION, EXTRACTION, FREE, OVER, TRACKS, SaveError, State,
                    VISIBILITY, flat_index, flat_spans)
from .board import KALENA


def P(p: int) -> str:
    """Display name of player index ``p`` (P1..P4)."""
    return f"P{p + 1}"


# ============================================================================ context


class Ctx:
    """Per-game lookup tables derived from the config, the box and the field.

    Shared (never copied) between all states of a game. Holds the interned action
    objects so that listing legal actions allocates nothing.
    """

    _cache: dict = {}
    #: Ctx objects kept; the least recently used goes first. Small on purpose: a game (and
    #: every search over it) uses one, a classroom a few; each kept Ctx holds memos that
    #: the garbage collector traverses, and bulk play draws a new layout every game, so a
    #: cache of 128 made random play ~3% more instructions (cachegrind, 400 games)
    _CACHE_SIZE = 8

    @classmethod
    def get(cls, config, field) -> "Ctx":
        """The tables of ``config`` and ``field`` (``None`` before the layout is drawn),
        from a cache of the :attr:`_CACHE_SIZE` most recently used (a steady size, so
        memory stays flat over many games)."""
        key = (config.players, config.mode, config.ghost_cards, config.limited_supplies,
               config.terrain_die, id(config.box), field.layout if field is not None else None)
        ctx = cls._cache.pop(key, None)
        if ctx is None or ctx.box is not config.box:
            if field is None:
                ctx = cls(config, None)
            else:
                # the config-level tables are shared; only the terrain tables are new
                ctx = cls.get(config, None)._pointing_at(config, field)
                ctx._field_tables(field)
        elif ctx.config is not config or ctx.field is not field:
            # equal parameters, other objects: share the tables, point at these objects
            ctx = ctx._pointing_at(config, field)
        cls._cache[key] = ctx  # the most recently used last
        if len(cls._cache) > cls._CACHE_SIZE:
            del cls._cache[next(iter(cls._cache))]
        return ctx

    def _pointing_at(self, config, field) -> "Ctx":
        """A shallow copy (the tables are shared) whose ``config`` and ``field`` are these."""
        ctx = object.__new__(Ctx)
        ctx.__dict__.update(self.__dict__)
        ctx.config, ctx.field = config, field
        return ctx

    def __init__(self, config, field):
        box = config.box
        self.box, self.config, self.field = box, config, field
        self.n = config.players
        self._resource_and_building_tables(box)
        self._skill_tables(box)
        self._listing_tables(box)
        self._game_tables(box, config)
        self._chance_tables(box)
        self._interned_actions(box)
        if field is not None:
            self._field_tables(field)

    def _resource_and_building_tables(self, box) -> None:
        """Resource indices, the lake's water, the tracks and the buildings' costs, incomes and production."""
        self.res_names = box.resources
        self.R = len(box.resources)
        self.ri = {r: i for i, r in enumerate(box.resources)}
        # what a lake gives when extracted from an adjacent cell, and what terrains with
        # water_near_lake give there: the lake's `extract` in data/terrain.toml
        lake = box.terrains.get("lake")
        self.water = self.ri[lake.extract] if lake is not None and lake.extract else None
        self.tracks = tuple(box.tracks.values())
        self.track_names = tuple(box.tracks)
        self.ti = {t: i for i, t in enumerate(self.track_names)}
        self.buildings = tuple(box.buildings.values())
        self.bi = {b: i for i, b in enumerate(box.buildings)}
        self.noria = self.bi["noria"]
        self.building_cost = tuple(tuple(self.ri[r] for r in b.cost) for b in self.buildings)
        self.building_counts = tuple(tuple(c.count(r) for r in range(self.R)) for c in self.building_cost)
        self.building_income = tuple(self.ri[b.income] for b in self.buildings)
        self.building_production = tuple(b.production for b in self.buildings)  # data/buildings.toml `production`

    def _skill_tables(self, box) -> None:
        """Skills by effect (bitmasks, amounts), their costs, and the card numbers events and refusals name."""
        # skills: effect -> bitmask of skill numbers with that effect, and amounts
        self.bit: dict[str, int] = {}
        self.amount: dict[str, int] = {}
        for sk in box.skills.values():
            self.bit[sk.effect] = self.bit.get(sk.effect, 0) | (1 << sk.number)
            self.amount[sk.effect] = sk.amount
        self.skill_cost = {n: tuple(self.ri[r] for r in sk.cost) for n, sk in box.skills.items()}
        # card numbers by effect, for the sentences of events and refusals (data/, not code)
        self.skill_no = {}
        for n, sk in sorted(box.skills.items()):
            self.skill_no.setdefault(sk.effect, n)
        self.ghost_card_no = {}
        for n, g in sorted(box.ghost_cards.items()):
            self.ghost_card_no.setdefault(g.effect, n)
        self.skill_counts = {n: tuple(c.count(r) for r in range(self.R)) for n, c in self.skill_cost.items()}
        self.S = len(box.skill_slot_valor)

    def _listing_tables(self, box) -> None:
        """The box numbers and flat-list places the legal-action listing and the hot paths read."""
        # box numbers the legal-action listing reads on every turn decision
        self.extraction_tokens = box.extraction_tokens
        self.player_markers = box.player_markers
        # season -> contact tokens to remove a ghost (its bonus card): contact_cost's table
        self.contact_costs = {season: card.contact_cost for season, card in box.bonus_cards.items()}
        # per track index, by tokens owned: the pecunias of the next token (None when the
        # track is full); training_cost reads it
        self.next_training_cost = tuple(tuple(tr.training_costs[k] if k < tr.slots else None for k in range(tr.slots + 1))
                                        for tr in self.tracks)
        self.covered = box.covered_slots.get(self.n, ())
        # where each player's tokens and resources, and each card's marker slots, sit in
        # the state's flat lists (state.flat_index / flat_spans): the hot paths' lookups
        self.token_at = flat_index(self.n, TRACKS)
        self.resource_span = flat_spans(self.n, self.R)
        self.card_span = flat_spans(len(box.skill_decks), self.S)

    def _game_tables(self, box, config) -> None:
        """The ghost cards in play, market payments, the caches, the skills that change costs
        and places, the reach cap, the quests and the terrain die."""
        # ghost cards in play
        effects = {box.ghost_cards[g].effect: box.ghost_cards[g] for g in config.ghost_cards}
        self.block_production = "block_production" in effects
        self.block_extraction = "block_extraction" in effects
        self.ghost_surcharge = effects["costly_ghost_cells"].amount if "costly_ghost_cells" in effects else 0
        # market payments: card -> list of (option 1-based, payment counts tuple)
        self.market_payments = {c: self._payments(opts) for c, opts in box.market_cards.items()}
        self.sale_cache: dict = {}  # (market, resources held) -> affordable sale actions
        self.afford_cache: dict = {}  # resources held -> (skills, buildings) they pay for (affordable)
        # values that depend only on the box and a key (e.g. the greedy agent's wanted
        # resources per set of skills not learned), shared by the copies of this Ctx
        self.memo: dict = {}
        self._kinds: dict = {}  # (terrain, near lake) -> a cell's table entries (_cell_kind)
        # the skills that change exploration costs (entry_cost, entry_costs)
        self.cost_skills = self.bit.get("cheaper_forest", 0) | self.bit.get("cheaper_mountain", 0)
        # the skills that let a player sell and train anywhere in Kalena (sells_here, trains_here)
        self.anywhere_skills = self.bit.get("anywhere_in_kalena", 0)
        # the most any cell can cost to enter under the kit's entry_cost (skills only
        # lower a cost): with this many tokens every explorable neighbour is in reach
        self.reach_cap = max((t.explore_cost for t in box.terrains.values() if t.explorable), default=0) + self.ghost_surcharge
        self.quest_numbers = tuple(q for q in sorted(box.quests) if q not in box.removed_quests.get(self.n, ()))
        self.terrain_die = box.terrain_die if config.terrain_die == "standard" else box.terrain_die_with_lakes

    def _chance_tables(self, box) -> None:
        """The fixed chance nodes: kind -> (outcomes, weights)."""
        # the fixed chance nodes: kind -> (outcomes, weights); "skill" -> one pair per deck
        decks = tuple(box.skill_decks.values())
        self.chance_weights = {
            "skill": tuple((deck, (1,) * len(deck)) for deck in decks),
            "market": (tuple(box.market_cards), (1,) * len(box.market_cards)),
            "terrain_die": _faces(self.terrain_die),
            "bonus_die": _faces(box.bonus_die),
        }

    def _interned_actions(self, box) -> None:
        """Every action the listing hands out, made once."""
        # interned actions
        self.CONTACT, self.END_TURN, self.ROLL = A.Contact(), A.EndTurn(), A.RollBonus()
        self.build_actions = tuple(A.Build(b.name) for b in self.buildings)
        self.train_actions = tuple(A.Train(t) for t in self.track_names)
        self.restore_actions = tuple(A.RestoreToken(t) for t in self.track_names)
        self.learn_actions = {n: A.Learn(n) for n in box.skills}
        self.choose_resource = tuple(A.ChooseResource(r) for r in box.resources)
        self.choose_bonus = tuple(A.ChooseBonus(f) for f in box.bonus_die)
        self.choose_quest = {q: A.ChooseQuest(q) for q in box.quests}
        self.sell_actions = {c: tuple((A.Sell(o, tuple(box.resources[i] for i, k in enumerate(pay) for _ in range(k))),
                                       tuple((r, k) for r, k in enumerate(pay) if k))
                                      for o, pay in pays) for c, pays in self.market_payments.items()}
        # actions naming cells: the cells sit at the same place in every layout
        cells = cell_geometry(box)[0]
        self.explore_actions = tuple(A.Explore(c) for c in cells)
        self.place_ghost_actions = tuple(A.PlaceGhost(c) for c in cells)
        self.extract_actions = {(i, r): A.Extract(cells[i], self.res_names[r])
                                for i in range(len(cells)) for r in range(self.R)}

    def _payments(self, options):
        out = []
        R = self.R
        for o, opt in enumerate(options, start=1):
            if opt.kind in ("any", "same"):
                for r in range(R):
                    pay = [0] * R
                    pay[r] = opt.count
                    out.append((o, tuple(pay)))
            else:
                for combo in combinations(range(R), opt.count):
                    pay = [0] * R
                    for r in combo:
                        pay[r] = 1
                    out.append((o, tuple(pay)))
        return tuple(out)

    def _field_tables(self, f):
        """The tables that depend on the drawn layout: one entry per cell index.

        A cell's entry depends only on its terrain and whether a lake is adjacent, so
        each (terrain, near lake) pair is worked out once per box
        (:meth:`_cell_kind`) and the tables are a transpose of the cells' kinds."""
        cells = list(zip(f.terrain, f.near_lake))
        for terrain, near in set(cells).difference(self._kinds):
            self._cell_kind(terrain, near)
        kinds = map(self._kinds.__getitem__, cells)
        (self.T, self.explorable, self.base_cost, self.is_forest, self.is_mountain, self.holds_ghosts,
         self.is_lake, self.can_sell, self.can_train, self.extract_here, self.build_here) = map(tuple, zip(*kinds))
        self.T = list(self.T)
        self.kalena_cells = f.kalena
        self.neighbours = f.neighbours
        self.lakes_adjacent = f.lakes_adjacent
        # terrain name -> cells, for the spread
        self.cells_of = f.by_terrain
        # the spread's candidates: per terrain, and on Kalena, the cells whose terrain holds ghosts
        hold = self.holds_ghosts
        self.ghost_cells_of = {terrain: _holding(cells, hold) for terrain, cells in f.by_terrain.items()}
        self.kalena_ghost_cells = _holding(f.kalena, hold)
        self.extraction_memo = {}  # cell -> extraction_pairs(cell), filled on first use
        self._entry_costs = {}  # see entry_costs
        self._explore_reach = {}  # see explore_reach
        self.n_cells = len(f.terrain)  # cells on the field (explore_reach's key)

    def extraction_pairs(self, cell: int) -> tuple[tuple[int, int], ...]:
        """The (cell, resource index) pairs a sensor standing on ``cell`` could extract
        if nothing blocked it: its own cell's resources, then water from each adjacent
        lake. Memoised per cell on first use; the field of a Ctx never changes, so the
        memo is never invalidated (a Ctx for another layout starts an empty one)."""
        hit = self.extraction_memo.get(cell)
        if hit is None:
            pairs = []  # loops, not comprehensions: this runs for most cells of every game's field
            for r in self.extract_here[cell]:
                pairs.append((cell, r))
            water = self.water
            if water is not None:
                for lake in self.lakes_adjacent[cell]:
                    pairs.append((lake, water))
            hit = self.extraction_memo[cell] = tuple(pairs)
        return hit

    def _cell_kind(self, terrain: str, near_lake: bool) -> tuple:
        """The per-cell table entries of a ``terrain`` cell, next to a lake or not (in the
        order :meth:`_field_tables` unpacks them). Memoised in ``_kinds`` (shared by the
        copies of this Ctx): it depends only on the box, which never changes."""
        key = (terrain, near_lake)
        hit = self._kinds.get(key)
        if hit is not None:
            return hit
        t = self.box.terrains[terrain]
        # extraction options of a cell when the sensor stands on it (resource indexes)
        ext = []
        if t.explorable:
            if t.extract:
                ext.append(self.ri[t.extract])
            if t.water_near_lake and near_lake and self.water is not None and self.water not in ext:
                ext.append(self.water)
        bld = []
        if t.build:
            bld.append(self.bi[t.build])
        if t.noria_near_lake and near_lake and self.noria not in bld:
            bld.append(self.noria)
        hit = self._kinds[key] = (t, t.explorable, t.explore_cost, t.name == "forest", t.name == "mountain",
                                  t.holds_ghosts, t.name == "lake", t.sell, t.train_and_learn, tuple(ext), tuple(bld))
        return hit

    def entry_costs(self, learned_mask: int) -> tuple[tuple, tuple]:
        """``(cost, cost_with_ghost)``: per cell index, the exploration tokens a player
        with skills ``learned_mask`` pays to enter it (:func:`entry_cost`), without and
        with a ghost on it; a cell that cannot be explored costs ``math.inf`` here, more
        than any player has (:func:`entry_cost` says ``None``).

        The kit's :func:`entry_cost` reads only a cell's terrain, the skills
        ``cheaper_forest`` and ``cheaper_mountain`` and the ghost cards, so it is asked
        once per terrain of the field, and the answers are memoised per those two skills
        of ``learned_mask``. The field, box and ghost cards of a Ctx never change, so the
        memo is never invalidated; a Ctx for another layout starts an empty one
        (:meth:`_field_tables`). When a house rule has replaced ``rules.entry_cost``,
        every cell is asked on every call, and nothing is memoised."""
        if entry_cost is not _KIT_ENTRY_COST:
            return tuple(self._ask_every_cell(learned_mask, ghost) for ghost in (False, True))
        key = learned_mask & self.cost_skills
        hit = self._entry_costs.get(key)
        if hit is None:
            cost, ghost_cost = (self._ask_every_terrain(key, ghost) for ghost in (False, True))
            # one object when a ghost changes no cost (no ghost card 3): explore_reach tests `is`
            hit = self._entry_costs[key] = (cost, cost if ghost_cost == cost else ghost_cost)
        return hit

    def explore_reach(self, learned_mask: int, cell: int, have: int) -> tuple[tuple, tuple, dict]:
        """``(cells, actions, ghost_rule)``: the neighbours of ``cell`` (cell index, in
        neighbour order) that a sensor there with skills ``learned_mask`` and ``have``
        active exploration tokens may enter with or without a ghost on them
        (:meth:`entry_costs`), their interned :class:`~haunted_kit.haunted.actions.Explore`
        actions, and ``ghost_rule``: cell -> 1 for a cell enterable only without a ghost
        on it (ghost card 3 adds to its cost), 2 for one enterable only with a ghost; an
        empty dict when the ghosts change nothing (no ghost card 3: the usual case).

        Memoised per (cost skills of ``learned_mask``, ``cell``, ``have``) on the same
        terms as :meth:`entry_costs`: while a house rule has replaced
        ``rules.entry_cost``, the memo is neither read nor written. A ``have`` of at
        least :attr:`reach_cap` (no cell costs more) is memoised as ``reach_cap``, so
        those counts share one entry. :func:`explore_targets` reads it."""
        if entry_cost is _KIT_ENTRY_COST:
            cap = self.reach_cap
            # the three parts as one whole number (cell < cells, the count <= cap): a key
            # read at every turn decision, with no tuple to build, hash and compare
            key = ((learned_mask & self.cost_skills) * self.n_cells + cell) * (cap + 1) + (have if have < cap else cap)
            hit = self._explore_reach.get(key)
            if hit is not None:
                return hit
        else:
            key = None
        cost, ghost_cost = self.entry_costs(learned_mask)
        cells, moves, rule = [], [], {}
        acts = self.explore_actions
        if cost is ghost_cost:  # the ghosts change no cost: one comparison per neighbour
            for c in self.neighbours[cell]:
                if cost[c] <= have:
                    cells.append(c)
                    moves.append(acts[c])
        else:
            for c in self.neighbours[cell]:
                free, haunted = cost[c] <= have, ghost_cost[c] <= have
                if free or haunted:
                    cells.append(c)
                    moves.append(acts[c])
                    if free != haunted:
                        rule[c] = 1 if free else 2
        hit = (tuple(cells), tuple(moves), rule)
        if key is not None:
            self._explore_reach[key] = hit
        return hit

    def _ask_every_terrain(self, learned_mask: int, ghost: bool) -> tuple:
        by_terrain = {}
        for terrain, cells in self.cells_of.items():
            cost = entry_cost(self, cells[0], learned_mask, ghost)
            by_terrain[terrain] = math.inf if cost is None else cost
        return tuple(map(by_terrain.__getitem__, self.field.terrain))

    def _ask_every_cell(self, learned_mask: int, ghost: bool) -> tuple:
        costs = (entry_cost(self, c, learned_mask, ghost) for c in range(len(self.field.terrain)))
        return tuple(math.inf if cost is None else cost for cost in costs)


def _holding(cells, hold) -> tuple:
    """The cells of ``cells`` whose ``hold[cell]`` is true, in order (a loop: it runs for
    every terrain of every game's field, where a comprehension's function costs more)."""
    out = []
    for c in cells:
        if hold[c]:
            out.append(c)
    return tuple(out)


def _faces(faces) -> tuple[tuple, tuple]:
    """A die's distinct faces in order of first appearance, and how often each occurs."""
    outs = tuple(dict.fromkeys(faces))
    return outs, tuple(faces.count(f) for f in outs)


def ctx_of(s: State) -> Ctx:
    """The lookup tables of ``s``'s game (cached on the state, shared by its copies)."""
    c = s._ctx
    if c is None or c.field is not s.field or c.config is not s.config:
        c = s._ctx = Ctx.get(s.config, s.field)
    return c


# ============================================================================ small helpers


def has_skill(s: State, ctx: Ctx, p: int, effect: str) -> bool:
    """True when player ``p`` has learned the skill whose property is ``effect``."""
    return bool(s.learned[p] & ctx.bit.get(effect, 0))


def resource_cap(s: State, ctx: Ctx, p: int) -> int:
    """Most tokens of one resource type ``p`` may keep (3, or 4 with skill 7; rulebook: "Resources")."""
    return ctx.box.resource_cap + (ctx.amount["bigger_supply"] if s.learned[p] & ctx.bit.get("bigger_supply", 0) else 0)


def emit(s: State, kind: str, player, text: str, cell=None, **data) -> None:
    """Append an event to the log (callers check ``s.log is not None`` first); private
    when :data:`~haunted_kit.haunted.state.VISIBILITY` declares its kind not for everyone."""
    s.log.append(Event(len(s.log), s.season, s.round, str(s.phase), kind, player, text,
                       s.field.cells[cell] if (cell is not None and s.field is not None) else None, data,
                       VISIBILITY.private(kind)))


#: Where valor comes from, as recorded in the ``source`` of every ``valor`` event.
VALOR_SOURCES = ("buildings", "skills", "tracks", "contact", "quests", "other")


def words(text) -> str:
    """``text`` itself, or what it returns when it is a function: the event sentences'
    parts that a caller hands over as ``lambda: f"..."``, so that nothing is composed
    while the log is off (bulk simulation and search play with ``log=False``)."""
    return text() if callable(text) else text


def gain_valor(s: State, p: int, amount: int, why: str, source: str = "other") -> None:
    """Move ``p``'s valor token ``amount`` points; it lands on top of any stack there.
    Valor never decreases (ruling 11). ``why`` (words, or a function composing them
    only when the log is on: :func:`words`) and ``source`` (one of
    :data:`VALOR_SOURCES`) go into the event's data. Rulebook: "Valor Points and the
    Valor Track"."""
    if amount <= 0:
        return
    s.valor[p] += amount
    s.arrivals += 1
    s.arrival[p] = s.arrivals
    if s.log is not None:
        why = words(why)
        emit(s, "valor", p, f"{P(p)} gains {amount} valor for {why}, now at {s.valor[p]}.", amount=amount,
             total=s.valor[p], why=why, source=source)


def gain_resource(s: State, ctx: Ctx, p: int, r: int, n: int, why: str) -> int:
    """Give ``n`` tokens of resource ``r`` to ``p`` from the supply: only what the supply
    holds (ruling 1), and beyond the cap they go straight back (ruling 8). ``why``:
    words or a function composing them (:func:`words`). Returns the number kept."""
    take = n if s.sup_res[r] >= n else s.sup_res[r]
    room = resource_cap(s, ctx, p) - s.resource(p, r)
    keep = take if take <= room else (room if room > 0 else 0)
    s.sup_res[r] -= keep
    s.add_resource(p, r, keep)
    if s.log is not None:
        name, why = ctx.res_names[r], words(why)
        if keep:
            emit(s, "resource_gained", p, f"{P(p)} receives {keep} {name} ({why}).", resource=name, amount=keep)
        if take < n:
            emit(s, "resource_lost", p, f"The supply has no {name} left, so {P(p)} gets {n - take} fewer (ruling 1).",
                 resource=name, amount=n - take, reason="supply")
        if keep < take:
            emit(s, "resource_lost", p, f"{P(p)} already holds the most {name} allowed, so {take - keep} goes back to the supply (rulebook: Resources).",
                 resource=name, amount=take - keep, reason="cap")
    return keep


def pay_resources(s: State, ctx: Ctx, p: int, counts) -> None:
    """Return resources (counts per type) from ``p`` to the supply."""
    for r in range(ctx.R):
        k = counts[r]
        if k:
            s.add_resource(p, r, -k)
            s.sup_res[r] += k


def counts_of(ctx: Ctx, names) -> list[int]:
    c = [0] * ctx.R
    for r in names:
        c[r] += 1
    return c


def can_afford(s: State, ctx: Ctx, p: int, counts) -> bool:
    """Whether player ``p`` holds at least ``counts`` (per resource index)."""
    return _covers(s.res[ctx.resource_span[p]], counts, ctx.R)


def _covers(held, counts, n: int) -> bool:
    for r in range(n):
        if counts[r] > held[r]:
            return False
    return True


def affordable(ctx: Ctx, held: tuple) -> tuple[frozenset, frozenset]:
    """``(skills, buildings)``: the skill numbers and building indexes whose cost a
    player holding ``held`` (resource counts, a tuple) can pay (:func:`can_afford`),
    memoised per holding. Legal-action listing reads it before asking
    :func:`refuse_learn` and :func:`refuse_build`."""
    hit = ctx.afford_cache.get(held)
    if hit is None:
        R = ctx.R
        hit = ctx.afford_cache[held] = (frozenset(k for k, c in ctx.skill_counts.items() if _covers(held, c, R)),
                                        frozenset(b for b, c in enumerate(ctx.building_counts) if _covers(held, c, R)))
    return hit


def missing(s: State, ctx: Ctx, p: int, counts) -> str:
    held = s.resource_counts(p)
    parts = [f"{counts[r]} {ctx.res_names[r]}" for r in range(ctx.R) if counts[r] > held[r]]
    have = ", ".join(f"{held[r]} {ctx.res_names[r]}" for r in range(ctx.R) if counts[r])
    return f"it needs {' and '.join(parts)} but {P(p)} has {have}"


# ============================================================================ exploration


def entry_cost(ctx: Ctx, cell: int, learned_mask: int, ghost_on_cell: bool) -> int | None:
    """Exploration tokens to enter ``cell``, or ``None`` if it cannot be explored.

    The one source of truth for exploration cost (principle 7): terrain cost from the
    box; lakes impassable; skill 4 (forest) and skill 5 (mountain) each 1 less; ghost
    card 3 adds 1 on a cell holding a ghost. Rulebook: "Game Field, Tiles and Terrain
    Types", "Exploration", skills 4-5, ghost card 3.

    Args:
        ctx: the game's tables (:func:`ctx_of`).
        cell: cell index.
        learned_mask: bitmask of learned skill numbers (``1 << n``).
        ghost_on_cell: whether the cell holds a ghost.
    """
    if not ctx.explorable[cell]:
        return None
    cost = ctx.base_cost[cell]
    if ctx.is_forest[cell] and learned_mask & ctx.bit.get("cheaper_forest", 0):
        cost -= ctx.amount["cheaper_forest"]
    elif ctx.is_mountain[cell] and learned_mask & ctx.bit.get("cheaper_mountain", 0):
        cost -= ctx.amount["cheaper_mountain"]
    if ghost_on_cell and ctx.ghost_surcharge:
        cost += ctx.ghost_surcharge
    return cost if cost > 0 else 0


_KIT_ENTRY_COST = entry_cost  # the kit's own rule (Ctx.entry_costs memoises only its answers)


def explore_cost(s: State, p: int, cell: int) -> int | None:
    """Exploration tokens player ``p`` pays to enter ``cell`` now (see :func:`entry_cost`)."""
    return entry_cost(ctx_of(s), cell, s.learned[p], bool(s.ghosts[cell]))


def explore_targets(s: State, ctx: Ctx, p: int) -> list[int]:
    """The cells player ``p`` may explore to now: adjacent, explorable, and costing no
    more than ``p``'s active exploration tokens (:func:`entry_cost`, through the memos
    :meth:`Ctx.entry_costs` and :meth:`Ctx.explore_reach`). The one legality test of exploration;
    :func:`refuse_explore` explains its answer. Rulebook: "Basic Actions: Exploration"."""
    have = s.act[ctx.token_at[p][EXPLORATION]]
    if not have:
        return []
    cells, _, rule = ctx.explore_reach(s.learned[p], s.sensor[p], have)
    if not rule:
        return list(cells)
    ghosts = s.ghosts
    return [c for c in cells if c not in rule or (rule[c] == 1) != bool(ghosts[c])]


def refuse_explore(s: State, ctx: Ctx, p: int, cell: int) -> Refusal | None:
    """``None`` when ``cell`` is one of :func:`explore_targets`, else why not."""
    if cell in explore_targets(s, ctx, p):
        return None
    here = s.sensor[p]
    if cell not in ctx.neighbours[here]:
        return Refusal(lambda: f"{s.field.describe(cell)} is not adjacent to {P(p)}'s sensor at {s.field.describe(here)}; a sensor moves one cell at a time",
                       "Basic Actions: Exploration")
    cost = entry_cost(ctx, cell, s.learned[p], bool(s.ghosts[cell]))
    if cost is None:
        return Refusal(lambda: f"{s.field.describe(cell)} is a {s.field.terrain[cell]}, which cannot be explored",
                       "Game Field: Lake; Basic Actions: Exploration")
    have = s.active_tokens(p, EXPLORATION)
    return Refusal(lambda: f"entering {s.field.describe(cell)} costs {cost} exploration tokens but {P(p)} has {have} active",
                   "Basic Actions: Exploration; Game Field (exploration costs)")


def do_explore(s: State, ctx: Ctx, p: int, cell: int) -> None:
    """Move ``p``'s sensor to ``cell`` (cell index), turning the entry cost
    (:func:`entry_cost`) of active exploration tokens face down; logs ``explored``. Pushes
    nothing. Rulebook: "Basic Actions: Exploration"."""
    cost = entry_cost(ctx, cell, s.learned[p], s.ghosts[cell] != 0)
    s.act[ctx.token_at[p][EXPLORATION]] -= cost  # s.spend_tokens, without the call
    s.sensor[p] = cell
    if s.log is not None:
        emit(s, "explored", p, f"{P(p)} explores to {s.field.describe(cell)}, paying {cost} exploration token{'s' if cost != 1 else ''}.",
             cell=cell, cost=cost)


# ============================================================================ extraction


def extraction_options(s: State, ctx: Ctx, p: int) -> tuple[tuple[int, int], ...]:
    """Every (cell, resource) the sensor of ``p`` could extract if nothing blocked it:
    its own cell's resources and water from each adjacent lake (a table of the field,
    :meth:`Ctx.extraction_pairs`)."""
    return ctx.extraction_pairs(s.sensor[p])


def extract_targets(s: State, ctx: Ctx, p: int) -> list[tuple[int, int]]:
    """The (cell, resource index) pairs player ``p`` may extract now, in the order of
    :func:`extraction_options`: no depletion token, building or (ghost card 2) ghost on
    the cell, enough active extraction tokens, a depletion token left in the supply.
    The one legality test of extraction; :func:`refuse_extract` explains its answer.
    Rulebook: "Basic Actions: Extraction", "Game Field: Lake"; ghost card 2; ruling 1."""
    if s.act[ctx.token_at[p][EXTRACTION]] < ctx.box.extraction_tokens or s.sup_depl <= 0:
        return []
    return open_extractions(s, ctx, s.sensor[p])


def open_extractions(s: State, ctx: Ctx, here: int) -> list[tuple[int, int]]:
    """The (cell, resource index) pairs of a sensor on cell ``here``
    (:meth:`Ctx.extraction_pairs`) whose cell holds no depletion token, no building and
    (ghost card 2) no ghost: :func:`extract_targets` once its token and supply checks
    have passed (the turn listing makes those checks itself)."""
    depleted, building = s.depleted, s.building
    pairs = ctx.extraction_memo.get(here)  # the memo read without a call
    if pairs is None:
        pairs = ctx.extraction_pairs(here)
    ghosts = s.ghosts if ctx.block_extraction else None
    out = []  # a loop, not a comprehension: pairs are one to three, and this runs every turn decision
    for cr in pairs:
        c = cr[0]
        if not depleted[c] and building[c] < 0 and not (ghosts and ghosts[c]):
            out.append(cr)
    return out


def refuse_extract(s: State, ctx: Ctx, p: int, cell: int, r: int) -> Refusal | None:
    """``None`` when ``(cell, r)`` (cell index, resource index) is one of
    :func:`extract_targets`, else why not: the sensor's own cell giving that resource,
    or an adjacent lake (what the lake's ``extract`` names); no depletion token,
    building or (ghost card 2) ghost there; an active extraction token; a depletion
    token left in the supply. The :class:`Refusal` names the first that fails. Rulebook: "Basic Actions: Extraction", "Game Field: Lake"; ghost
    card 2; ruling 1."""
    if (cell, r) in extract_targets(s, ctx, p):
        return None
    sec = "Basic Actions: Extraction"
    here = s.sensor[p]
    if cell == here:
        if r not in ctx.extract_here[here]:
            t = s.field.terrain[here]
            if not ctx.extract_here[here]:
                return Refusal(lambda: f"nothing can be extracted on a {t} cell{' that is not adjacent to a lake' if t == 'suburb' else ''}",
                               "Game Field, Tiles and Terrain Types")
            water = " (water only where the cell is adjacent to a lake)" if r == ctx.water else ""
            return Refusal(lambda: f"a {t} cell gives {' or '.join(ctx.res_names[x] for x in ctx.extract_here[here])}, not {ctx.res_names[r]}{water}",
                           "Game Field, Tiles and Terrain Types")
    elif cell in ctx.lakes_adjacent[here]:
        if r != ctx.water:
            gives = f"only {ctx.res_names[ctx.water]}" if ctx.water is not None else "nothing"
            return Refusal(lambda: f"a lake gives {gives}, not {ctx.res_names[r]}", "Game Field: Lake")
    else:
        return Refusal(lambda: f"{P(p)} can extract only on the sensor's own cell or an adjacent lake, and {s.field.describe(cell)} is neither",
                       sec)
    if s.depleted[cell]:
        return Refusal(lambda: f"{s.field.describe(cell)} has a depletion token", sec)
    if s.building[cell] >= 0:
        return Refusal(lambda: f"{s.field.describe(cell)} has a building", sec)
    if ctx.block_extraction and s.ghosts[cell]:
        g = ctx.ghost_card_no["block_extraction"]
        return Refusal(lambda: f"ghost card {g} is in play and {s.field.describe(cell)} holds a ghost", f"Ghost Cards: card {g}")
    have = s.act[ctx.token_at[p][EXTRACTION]]
    if have < ctx.box.extraction_tokens:
        return Refusal(lambda: short_of_tokens(p, "extraction", "an extraction", ctx.box.extraction_tokens, have), sec)
    if s.sup_depl <= 0:
        return Refusal("the supply has no depletion token left to mark the cell", "ruling 1 (limited supplies)")
    return None


def short_of_tokens(p: int, track: str, what: str, cost: int, have: int) -> str:
    """The refusal sentence of an action that takes ``cost`` active ``track`` tokens
    (a data value: ``action_costs.extraction_tokens``, a building's ``cost_tokens``)
    when player ``p`` has only ``have`` active."""
    if cost == 1 and have == 0:
        return f"{P(p)} has no active {track} token"
    return f"{what} takes {cost} {track} token{'s' if cost != 1 else ''} but {P(p)} has {have} active"


def do_extract(s: State, ctx: Ctx, p: int, cell: int, r: int) -> None:
    """Extract resource index ``r`` at ``cell``: an extraction token face down, the
    resource from the supply (:func:`gain_resource`: cap and supply apply), a depletion
    token on the cell. With skill 12 pushes a :class:`~haunted_kit.haunted.flow.ResourceChoice`.
    Logs ``extracted`` (and the resource events). Rulebook: "Basic Actions: Extraction"."""
    s.spend_tokens(p, EXTRACTION, ctx.box.extraction_tokens)
    if s.log is not None:
        emit(s, "extracted", p, f"{P(p)} extracts {ctx.res_names[r]} on {s.field.describe(cell)}; a depletion token now marks it.",
             cell=cell, resource=ctx.res_names[r])
    gain_resource(s, ctx, p, r, 1, "extraction")
    s.sup_depl -= 1
    s.depleted[cell] = 1
    if has_skill(s, ctx, p, "extract_bonus") and ctx.amount["extract_bonus"]:  # a bonus of 0 asks for nothing
        s.pending.append(ResourceChoice(p, ctx.amount["extract_bonus"], f"skill {ctx.skill_no['extract_bonus']}"))


# ============================================================================ construction


def refuse_build(s: State, ctx: Ctx, p: int, b: int) -> Refusal | None:
    """``None`` when ``p`` may build building index ``b`` on the sensor's cell: the
    terrain takes it (a noria next to a lake), no building or ghost there, an active
    construction token, the resources of its cost, a piece in the supply and a player
    marker left. Else the :class:`Refusal`. Rulebook: "Basic Actions: Construction",
    "Buildings"; rulings 1 and on markers."""
    sec = "Basic Actions: Construction"
    here = s.sensor[p]
    name = ctx.buildings[b].name
    if b not in ctx.build_here[here]:
        t = s.field.terrain[here]
        if not ctx.build_here[here]:
            return Refusal(lambda: f"nothing can be built on a {t} cell", "Game Field, Tiles and Terrain Types")
        if b == ctx.noria:
            return Refusal(lambda: f"a noria needs a cell adjacent to a lake, and {s.field.describe(here)} is not", "Buildings: Noria")
        return Refusal(lambda: f"a {name} stands on {ctx.buildings[b].terrain}, not on {t}", f"Buildings: {name.title()}")
    if s.building[here] >= 0:
        return Refusal(lambda: f"{s.field.describe(here)} already has a building", sec)
    if s.ghosts[here]:
        return Refusal(lambda: f"{s.field.describe(here)} holds a ghost", sec + "; Ghosts")
    bld = ctx.buildings[b]
    have = s.act[ctx.token_at[p][CONSTRUCTION]]
    if have < bld.cost_tokens:
        return Refusal(lambda: short_of_tokens(p, "construction", f"a {name}", bld.cost_tokens, have), sec)
    counts = ctx.building_counts[b]
    if not can_afford(s, ctx, p, counts):
        return Refusal(lambda: f"a {name} costs {' and '.join(bld.cost)}; {missing(s, ctx, p, counts)}", f"Buildings: {name.title()}")
    if s.sup_build[b] <= 0:
        return Refusal(lambda: f"the supply has no {name} piece left", "ruling 1 (limited supplies)")
    if s.markers[p] >= ctx.box.player_markers:
        return Refusal(lambda: f"{P(p)} has used all {ctx.box.player_markers} player markers", "Player Markers (ruling on markers)")
    return None


def do_build(s: State, ctx: Ctx, p: int, b: int) -> None:
    """Build building index ``b`` on the sensor's cell: construction token face down,
    cost paid to the supply, a depletion token there goes back, the piece and a player
    marker placed; the building's valor (and skill 11's). Logs ``built`` and ``valor``.
    Pushes nothing. Rulebook: "Basic Actions: Construction"."""
    here = s.sensor[p]
    bld = ctx.buildings[b]
    s.spend_tokens(p, CONSTRUCTION, bld.cost_tokens)
    pay_resources(s, ctx, p, ctx.building_counts[b])
    cleared = s.depleted[here]
    if cleared:
        s.depleted[here] = 0
        s.sup_depl += 1
    s.sup_build[b] -= 1
    s.building[here] = b
    s.owner[here] = p
    s.markers[p] += 1
    if s.log is not None:
        back = "; the cell's depletion token goes back to the supply" if cleared else ""
        emit(s, "built", p, f"{P(p)} builds a {bld.name} on {s.field.describe(here)}, paying {' and '.join(bld.cost)}{back}.",
             cell=here, building=bld.name, depletion_returned=bool(cleared))
    gain_valor(s, p, bld.valor, lambda: f"building a {bld.name}", "buildings")
    if has_skill(s, ctx, p, "build_valor"):
        gain_valor(s, p, ctx.amount["build_valor"], lambda: f"skill {ctx.skill_no['build_valor']}", "buildings")


# ============================================================================ contact


def contact_cost(s: State, ctx: Ctx) -> int:
    """Contact tokens to remove a ghost this season (the season's bonus card; read from
    :attr:`Ctx.contact_costs`). Raises KeyError outside the seasons (setup)."""
    return ctx.contact_costs[s.season]


def refuse_contact(s: State, ctx: Ctx, p: int) -> Refusal | None:
    """``None`` when ``p`` may contact the ghost on the sensor's cell: a ghost there and
    as many active contact tokens as this season's bonus card asks. Else the
    :class:`Refusal`. Rulebook: "Basic Actions: Contact", "Bonus Cards"."""
    here = s.sensor[p]
    if not s.ghosts[here]:
        return Refusal(lambda: f"there is no ghost on {s.field.describe(here)}, where {P(p)}'s sensor is", "Basic Actions: Contact")
    cost = contact_cost(s, ctx)
    have = s.act[ctx.token_at[p][CONTACT]]
    if have < cost:
        return Refusal(lambda: f"contact costs {cost} contact token{'s' if cost != 1 else ''} in season {s.season} but {P(p)} has {have} active",
                       "Basic Actions: Contact; Bonus Cards")
    return None


def do_contact(s: State, ctx: Ctx, p: int) -> None:
    """Contact: pay the season's contact tokens, the ghost goes back to the supply; skill
    1 gives valor, skill 3 restores contact tokens; then skill 2 pushes a
    :class:`~haunted_kit.haunted.flow.BonusChoice`, otherwise the :class:`~haunted_kit.haunted.flow.BonusDie`
    chance node is set. Logs ``contacted``. Rulebook: "Basic Actions: Contact"."""
    here = s.sensor[p]
    cost = contact_cost(s, ctx)
    s.spend_tokens(p, CONTACT, cost)
    s.ghosts[here] = 0
    s.sup_ghosts += 1
    if s.log is not None:
        emit(s, "contacted", p, f"{P(p)} pays {cost} contact token{'s' if cost != 1 else ''} and the ghost on {s.field.describe(here)} returns to the supply.",
             cell=here, cost=cost)
    if has_skill(s, ctx, p, "contact_valor"):
        gain_valor(s, p, ctx.amount["contact_valor"], lambda: f"skill {ctx.skill_no['contact_valor']}", "contact")
    if has_skill(s, ctx, p, "contact_restore"):
        restore(s, ctx, p, CONTACT, ctx.amount["contact_restore"], lambda: f"skill {ctx.skill_no['contact_restore']}")
    if has_skill(s, ctx, p, "choose_bonus"):
        s.pending.append(BonusChoice(p))
    else:
        s.chance = BonusDie(p)


def give_bonus(s: State, ctx: Ctx, p: int, face: int, how: str) -> None:
    """Give player ``p`` the reward of ``face`` on this season's bonus card; ``how`` the
    player got it, in words or a function composing them (:func:`words`)."""
    card = ctx.box.bonus_cards[s.season]
    reward = card.rewards[ctx.box.bonus_die.index(face)]
    if s.log is not None:
        emit(s, "bonus_reward", p, f"{P(p)} {words(how)} and receives {reward.describe()} from the season {s.season} bonus card.",
             face=face, pecunias=reward.pecunias, resources=reward.resources, valor=reward.valor)
    s.pec[p] += reward.pecunias
    gain_valor(s, p, reward.valor, lambda: f"bonus reward {face}", "contact")
    if reward.resources:
        s.pending.append(ResourceChoice(p, reward.resources, f"bonus reward {face}"))


def restore(s: State, ctx: Ctx, p: int, t: int, n: int, why: str) -> int:
    """Restore up to ``n`` inactive tokens of track ``t``; returns how many. ``why``:
    words or a function composing them (:func:`words`)."""
    k = min(n, s.tokens(p, t) - s.active_tokens(p, t))
    if k > 0:
        s.restore_tokens(p, t, k)
        if s.log is not None:
            emit(s, "tokens_restored", p, f"{P(p)} restores {k} {ctx.track_names[t]} token{'s' if k != 1 else ''} ({words(why)}).",
                 track=ctx.track_names[t], amount=k)
    return k


# ============================================================================ selling / training / learning


def sells_here(s: State, ctx: Ctx, p: int) -> bool:
    """Whether ``p``'s sensor stands where it may sell: the city, or the suburb with
    skill 6. Rulebook: "Additional Actions: Selling", skill 6."""
    here = s.sensor[p]
    return ctx.can_sell[here] or (ctx.can_train[here] and (s.learned[p] & ctx.anywhere_skills) != 0)


def trains_here(s: State, ctx: Ctx, p: int) -> bool:
    """Whether ``p``'s sensor stands where it may train and learn: the suburb, or the
    city with skill 6. Rulebook: "Additional Actions: Training, Learning", skill 6."""
    here = s.sensor[p]
    return ctx.can_train[here] or (ctx.can_sell[here] and (s.learned[p] & ctx.anywhere_skills) != 0)


def refuse_sell_place(s: State, ctx: Ctx, p: int) -> Refusal | None:
    """``None`` when ``p``'s sensor stands where selling is allowed (:func:`sells_here`),
    else the :class:`Refusal`. Rulebook: "Additional Actions: Selling", skill 6."""
    if sells_here(s, ctx, p):
        return None
    here = s.sensor[p]
    return Refusal(lambda: f"{P(p)}'s sensor is on {s.field.describe(here)}; selling needs the city{_skill_also(s, ctx, 'anywhere_in_kalena', 'the suburb')}",
                   "Additional Actions: Selling")


def refuse_sell(s: State, ctx: Ctx, p: int, option: int, payment: tuple) -> Refusal | None:
    """``None`` when ``p`` may sell with ``option`` (1-based) of the market card in play,
    paying ``payment`` (resource names): the place, an existing option, a payment that
    fits it, resources held. Else the :class:`Refusal`. Rulebook: "Additional Actions:
    Selling", "Market Cards"."""
    r = refuse_sell_place(s, ctx, p)
    if r:
        return r
    options = ctx.box.market_cards[s.market]
    if not 1 <= option <= len(options):
        return Refusal(lambda: f"market card {s.market} has options 1 to {len(options)}, not {option}", "Market Cards")
    opt = options[option - 1]
    try:
        counts = tuple(counts_of(ctx, [ctx.ri[x] for x in payment]))
    except KeyError as exc:
        bad = exc.args[0]
        return Refusal(lambda: f"{bad!r} is not a resource ({', '.join(ctx.res_names)})", "Resources")
    if (option, counts) not in ctx.market_payments[s.market]:
        return Refusal(lambda: f"option {option} of market card {s.market} takes {opt.describe()}; {' + '.join(payment) or 'nothing'} does not fit",
                       "Market Cards")
    if not can_afford(s, ctx, p, counts):
        return Refusal(lambda: f"{P(p)} cannot pay {' + '.join(payment)}: {missing(s, ctx, p, counts)}", "Additional Actions: Selling")
    return None


def affordable_sales(ctx: Ctx, market: int, held: tuple) -> list:
    """The sale actions of market card ``market`` that a player holding ``held``
    (resource counts) can pay, memoised per holding: selling is legal where
    :func:`refuse_sell_place` allows it and the payment is affordable."""
    key = (market, held)
    hit = ctx.sale_cache.get(key)
    if hit is None:
        hit = ctx.sale_cache[key] = [a for a, need in ctx.sell_actions[market]
                                     if all(held[r] >= k for r, k in need)]
    return hit


def do_sell(s: State, ctx: Ctx, p: int, option: int, counts: tuple) -> None:
    """Sell: ``counts`` (per resource index) go to the supply, ``p`` gains the option's
    pecunias (skill 8 adds). With skill 9 and enough resources sold pushes a
    :class:`~haunted_kit.haunted.flow.RestoreChoice` (if a token is inactive). Logs ``sold``.
    Rulebook: "Additional Actions: Selling"."""
    opt = ctx.box.market_cards[s.market][option - 1]
    pay_resources(s, ctx, p, counts)
    gain = opt.pecunias
    if has_skill(s, ctx, p, "sell_bonus"):
        gain += ctx.amount["sell_bonus"]
    s.pec[p] += gain
    spent = sum(counts)
    if s.log is not None:
        paid = " + ".join(f"{k} {ctx.res_names[r]}" for r, k in enumerate(counts) if k)
        extra = f" ({gain - opt.pecunias} more from skill {ctx.skill_no['sell_bonus']})" if gain != opt.pecunias else ""
        emit(s, "sold", p, f"{P(p)} sells {paid} for {gain} pecunias{extra}, now holding {s.pec[p]}.",
             option=option, pecunias=gain, spent=spent)
    if has_skill(s, ctx, p, "sell_restore") and spent >= ctx.amount["sell_restore"]:
        if any(s.tokens(p, t) > s.active_tokens(p, t) for t in range(TRACKS)):
            s.pending.append(RestoreChoice(p))
        elif s.log is not None:
            emit(s, "tokens_restored", p, f"Skill {ctx.skill_no['sell_restore']} would restore a token, but all of {P(p)}'s tokens are active (ruling 9).", amount=0)


def _skill_also(s: State, ctx: Ctx, effect: str, words: str) -> str:
    """`` (or <words> with skill N)``, when the skill card with ``effect`` is in play in ``s``;
    ``""`` when it is not (a refusal names only what is in play)."""
    k = ctx.skill_no.get(effect)
    return f" (or {words} with skill {k})" if k is not None and k in s.skills else ""


def refuse_train_place(s: State, ctx: Ctx, p: int, what: str) -> Refusal | None:
    """``None`` when ``p``'s sensor stands where training and learning are allowed
    (:func:`trains_here`), else the :class:`Refusal` naming ``what`` ("training",
    "learning"). Rulebook: "Additional Actions: Training, Learning", skill 6."""
    if trains_here(s, ctx, p):
        return None
    here = s.sensor[p]
    return Refusal(lambda: f"{P(p)}'s sensor is on {s.field.describe(here)}; {what} needs the suburb{_skill_also(s, ctx, 'anywhere_in_kalena', 'the city')}",
                   f"Additional Actions: {what.title()}")


def training_cost(s: State, ctx: Ctx, p: int, t: int) -> int | None:
    """Pecunias for ``p``'s next token on track ``t`` (leftmost free slot), ``None`` if full."""
    return ctx.next_training_cost[t][s.tok[ctx.token_at[p][t]]]


def refuse_train(s: State, ctx: Ctx, p: int, t: int, place_checked: bool = False) -> Refusal | None:
    """``None`` when ``p`` may train a token of track index ``t``: the place (unless
    ``place_checked``), a free slot on the track, its cost in pecunias, a token in the
    supply. Else the :class:`Refusal`. Rulebook: "Additional Actions: Training"; ruling 1."""
    if not place_checked:
        r = refuse_train_place(s, ctx, p, "training")
        if r:
            return r
    name = ctx.track_names[t]
    cost = training_cost(s, ctx, p, t)
    if cost is None:
        return Refusal(lambda: f"every slot of {P(p)}'s {name} track already holds a token", "Additional Actions: Training")
    if s.pec[p] < cost:
        return Refusal(lambda: f"the next {name} token costs {cost} pecunias but {P(p)} has {s.pec[p]}", "Additional Actions: Training")
    if s.sup_tok[t] <= 0:
        return Refusal(lambda: f"the supply has no {name} token left", "ruling 1 (limited supplies)")
    return None


def do_train(s: State, ctx: Ctx, p: int, t: int) -> None:
    """Train: pay the slot's pecunias, the token from the supply goes inactive into the
    leftmost free slot; filling the track gives its last-slot valor. Logs ``trained``.
    Pushes nothing. Rulebook: "Additional Actions: Training"."""
    cost = training_cost(s, ctx, p, t)
    s.pec[p] -= cost
    s.sup_tok[t] -= 1
    owned = s.tokens(p, t) + 1
    s.set_tokens(p, t, owned, s.active_tokens(p, t))
    track = ctx.tracks[t]
    if s.log is not None:
        emit(s, "trained", p, f"{P(p)} pays {cost} pecunias for a new {track.name} token, placed inactive in slot {owned}.",
             track=track.name, cost=cost, slot=owned)
    if owned == track.slots:
        gain_valor(s, p, track.last_slot_valor, lambda: f"filling the {track.name} track", "tracks")


def refuse_learn(s: State, ctx: Ctx, p: int, skill: int, place_checked: bool = False) -> Refusal | None:
    """``None`` when ``p`` may learn skill card number ``skill``: the place (unless
    ``place_checked``), the card in play, not learned yet, its cost in resources, a free
    marker slot and a player marker left. Else the :class:`Refusal`. Rulebook:
    "Additional Actions: Learning", "Skill Cards"."""
    if not place_checked:
        r = refuse_train_place(s, ctx, p, "learning")
        if r:
            return r
    if skill not in s.skills:
        return Refusal(lambda: f"skill {skill} is not in play (in play: {', '.join(map(str, s.skills))})", "Skill Cards")
    if s.learned[p] >> skill & 1:
        return Refusal(lambda: f"{P(p)} has already learned skill {skill}; a skill is learned only once", "Skill Cards; Additional Actions: Learning")
    counts = ctx.skill_counts[skill]
    if not can_afford(s, ctx, p, counts):
        return Refusal(lambda: f"skill {skill} costs {' and '.join(ctx.box.skills[skill].cost)}; {missing(s, ctx, p, counts)}",
                       "Additional Actions: Learning")
    if free_slot(s, ctx, skill) is None:
        return Refusal(lambda: f"every open marker slot of skill {skill} is taken", "Skill Cards")
    if s.markers[p] >= ctx.box.player_markers:
        return Refusal(lambda: f"{P(p)} has used all {ctx.box.player_markers} player markers", "Player Markers (ruling on markers)")
    return None


def free_slot(s: State, ctx: Ctx, skill: int) -> int | None:
    """Leftmost free (uncovered, unmarked) marker slot of a skill card in play."""
    row = s.slots[ctx.card_span[s.skills.index(skill)]]
    for j in range(ctx.S):
        if row[j] == FREE:
            return j
    return None


def do_learn(s: State, ctx: Ctx, p: int, skill: int) -> None:
    """Learn: pay the cost, ``p``'s marker takes the leftmost free slot of the card
    (:meth:`~haunted_kit.haunted.state.State.mark_skill`) and gives that slot's valor. Logs
    ``learned``. Pushes nothing. Rulebook: "Additional Actions: Learning"."""
    pay_resources(s, ctx, p, ctx.skill_counts[skill])
    j = free_slot(s, ctx, skill)
    s.mark_skill(p, skill, j)
    if s.log is not None:
        emit(s, "learned", p, f"{P(p)} learns skill {skill} ({ctx.box.skills[skill].text.rstrip('.')}) and takes marker slot {j + 1}.",
             skill=skill, slot=j + 1)
    gain_valor(s, p, ctx.box.skill_slot_valor[j], lambda: f"marker slot {j + 1} of skill {skill}", "skills")


# ============================================================================ sub-decisions


def refuse_choose_resource(s, ctx, p, r) -> Refusal | None:
    """``None`` when ``r`` is a resource index of the box, else the :class:`Refusal`
    (the answer to a :class:`~haunted_kit.haunted.flow.ResourceChoice`). Rulebook: "Resources"."""
    return None if 0 <= r < ctx.R else Refusal("not a resource", "Resources")


def do_choose_resource(s: State, ctx: Ctx, p: int, r: int) -> None:
    """Answer the :class:`~haunted_kit.haunted.flow.ResourceChoice` on top of the pending
    stack with resource index ``r``: one resource from the supply; if more are owed, a
    ResourceChoice for the rest is pushed back. Rulebook: "Resources"; skill 12, bonus
    rewards."""
    top = s.pending.pop()
    if top.count > 1:
        s.pending.append(ResourceChoice(p, top.count - 1, top.why))
    gain_resource(s, ctx, p, r, 1, lambda: f"resource of {P(p)}'s choice, {top.why}")


def refuse_restore(s, ctx, p, t) -> Refusal | None:
    """``None`` when ``p`` has an inactive token of track index ``t`` to restore (the
    answer to a :class:`~haunted_kit.haunted.flow.RestoreChoice`), else the :class:`Refusal`.
    Rulebook: "Skill Cards" (skill 9)."""
    if s.tokens(p, t) <= s.active_tokens(p, t):
        return Refusal(lambda: f"{P(p)} has no inactive {ctx.track_names[t]} token to restore", f"Skill Cards: skill {ctx.skill_no['sell_restore']}")
    return None


def refuse_choose_quest(s: State, ctx: Ctx, p: int, q: int) -> Refusal | None:
    """``None`` when quest card ``q`` is still in ``p``'s hand (the answer to a
    :class:`~haunted_kit.haunted.flow.QuestChoice`), else the :class:`Refusal`. Rulebook: "Quest
    Cards", "Game Modes"; setup step 17."""
    if q not in ctx.box.quests:
        return Refusal(lambda: f"there is no quest card {q}", "Quest Cards")
    if not s.holds_quest(p, q):
        why = "was returned to the box in a 2-player game" if q not in ctx.quest_numbers else "was already chosen"
        return Refusal(lambda: f"quest card {q} {why}", "Quest Cards")
    return None


def do_choose_quest(s: State, ctx: Ctx, p: int, q: int) -> None:
    """Answer the :class:`~haunted_kit.haunted.flow.QuestChoice` on top of the pending stack: quest
    ``q`` leaves ``p``'s hand face down; if more are owed, a QuestChoice for the rest is
    pushed back. Logs ``quest_chosen`` (private). Rulebook: "Quest Cards", "Game Modes"."""
    top = s.pending.pop()
    if top.count > 1:
        s.pending.append(QuestChoice(p, top.count - 1))
    s.take_quest(p, q)
    if s.log is not None:
        emit(s, "quest_chosen", p, f"{P(p)} takes quest card {q} face down.", quest=q)


# ============================================================================ spread


def ghost_targets(s: State, ctx: Ctx, terrain: str) -> list[int]:
    """Cells of ``terrain`` that can take a ghost now: no ghost and no building there
    (ghosts never go on lakes). Rulebook: "Ghosts"; ruling 3 (sensors and depletion
    tokens do not block)."""
    return _free_for_ghosts(s, ctx.ghost_cells_of.get(terrain, ()))


def kalena_targets(s: State, ctx: Ctx) -> list[int]:
    """The Kalena cells that can take a ghost now (where the spread goes once no cell of
    the rolled terrain is free; see :func:`ghost_targets`). Rulebook: "Ghosts"."""
    return _free_for_ghosts(s, ctx.kalena_ghost_cells)


def _free_for_ghosts(s: State, cells) -> list[int]:
    """The cells of ``cells`` (each one whose terrain holds ghosts: :attr:`Ctx.ghost_cells_of`)
    without a ghost or a building."""
    ghosts, building = s.ghosts, s.building
    out = []  # a loop, not a comprehension (a call of its own): this runs twice per spread ghost
    for c in cells:
        if not ghosts[c] and building[c] < 0:
            out.append(c)
    return out


def kalena_fallen(s: State, ctx: Ctx) -> bool:
    """All Kalena cells hold ghosts: the collective loss (rulebook: "Ghosts")."""
    ghosts = s.ghosts
    for c in ctx.kalena_cells:  # a loop: all(map(list.__getitem__)) costs more (after every ghost placed)
        if not ghosts[c]:
            return False
    return True


def place_ghost(s: State, ctx: Ctx, p: int, cell: int, forced: bool) -> None:
    s.ghosts[cell] = 1
    s.sup_ghosts -= 1
    if s.log is not None:
        how = "must put" if forced else "puts"
        emit(s, "ghost_placed", p, f"{P(p)} {how} a ghost on {s.field.describe(cell)}.", cell=cell, forced=forced)


# ============================================================================ production, rest, reorder


def production(s: State, ctx: Ctx) -> None:
    """Every building produces its ``production`` (data/buildings.toml; kit default 1)
    of its income for its owner, in turn order, while the supply lasts; the ghost card
    with ``block_production`` stops buildings adjacent to a ghost; the skill with
    ``extra_income`` adds its amount. When no building produces, the log gets one
    ``nothing_produced`` event, so every round shows its production step.
    Rulebook: "Game Flow" step 2, "Buildings", ghost card 1, skill 10; rulings 1 and 8."""
    # max() first: in most rounds nothing is built yet, and it is cheaper than the comprehension
    built = [c for c, b in enumerate(s.building) if b >= 0] if max(s.building) >= 0 else []
    produced = False
    for p in s.turn_order if built else ():
        extra = ctx.amount["extra_income"] if has_skill(s, ctx, p, "extra_income") else 0
        for c in built:
            if s.owner[c] != p:
                continue
            b = s.building[c]
            name = ctx.buildings[b].name
            if ctx.block_production and any(s.ghosts[n] for n in ctx.neighbours[c]):
                if s.log is not None:
                    emit(s, "production_blocked", p, f"{P(p)}'s {name} on {s.field.describe(c)} is next to a ghost and produces nothing (ghost card {ctx.ghost_card_no['block_production']}).",
                         cell=c, building=name)
                continue
            if s.log is not None:
                emit(s, "production", p, f"{P(p)}'s {name} on {s.field.describe(c)} produces {ctx.building_production[b] + extra} {ctx.buildings[b].income}.",
                     cell=c, building=name)
            gain_resource(s, ctx, p, ctx.building_income[b], ctx.building_production[b] + extra, lambda: f"production of the {name}")
            produced = True
    if not produced and s.log is not None:  # the log shows the production step every round
        emit(s, "nothing_produced", None, "Production: no building produces this round"
             + (" (every building stands next to a ghost)." if built else " (nobody has built yet)."),
             buildings=len(built))


def rest(s: State, ctx: Ctx) -> None:
    """All players restore all their action tokens (rulebook: "Game Flow" step 4)."""
    s.rest_all()
    if s.log is not None:
        emit(s, "rest", None, "Rest: every player restores all action tokens.")


def stack_order(s: State) -> list[int]:
    """Players from the highest valor (top of its stack first) to the lowest
    (rulebook: "Valor Points and the Valor Track")."""
    return sorted(range(len(s.valor)), key=list(zip(s.valor, s.arrival)).__getitem__, reverse=True)


def reorder(s: State, ctx: Ctx) -> None:
    """Turn order from the valor track (rulebook: "Game Flow" step 5)."""
    s.turn_order = stack_order(s)
    if s.log is not None:
        emit(s, "reorder", None, "Reorder: turn order is now " + ", ".join(P(p) for p in s.turn_order) + " (most valor first, top of a stack first).",
             order=[p for p in s.turn_order])


def leaders(s: State) -> list[int]:
    """The player(s) with the most valor."""
    top = max(s.valor)
    return [p for p in range(len(s.valor)) if s.valor[p] == top]


# ============================================================================ quests and final scoring


def quest_score(s: State, ctx: Ctx, p: int, q: int) -> tuple[int, int]:
    """(valor, fulfilments) that quest card ``q`` gives player ``p`` at final scoring.
    Rulebook: "Card Reference: Quest Cards"; ruling 13 for quest 1. Scoring several
    quests of one position: :class:`QuestScores`."""
    return QuestScores(s, ctx, p).score(q)


class QuestScores:
    """The quest cards' final-scoring values for player ``p`` in position ``s`` (with its
    tables ``ctx``): :meth:`score` per quest card. What several quests read from the
    board (the player's buildings by kind, the region tiles where they have the most
    buildings) is counted once, on first use; the position must not change meanwhile.
    Rulebook: "Card Reference: Quest Cards"; ruling 13 for quest 1."""

    __slots__ = ("s", "ctx", "p", "_built", "_majorities")

    def __init__(self, s: State, ctx: Ctx, p: int):
        self.s, self.ctx, self.p = s, ctx, p
        self._built = self._majorities = None

    def score(self, q: int) -> tuple[int, int]:
        """(valor, fulfilments) that quest card ``q`` (a number of the box's quests; KeyError
        otherwise) gives the player: valor per fulfilment times the fulfilments."""
        s, ctx, p = self.s, self.ctx, self.p
        quest = ctx.box.quests[q]
        e = quest.effect
        if e == "resource_sets":  # counted per resource type
            n = sum(k // quest.per for k in s.res[ctx.resource_span[p]])
        elif e == "pecunias":
            n = s.pec[p] // quest.per
        elif e == "buildings":
            if self._built is None:  # the kinds of the player's buildings, one per building
                self._built = [b for b, o in zip(s.building, s.owner) if o == p and b >= 0]
            n = self._built.count(ctx.bi[quest.building]) // quest.per
        elif e == "rightmost_markers":  # the last marker slot of each skill card in play
            S = ctx.S
            n = s.slots[S - 1:len(s.skills) * S:S].count(p) // quest.per
        elif e == "region_majority":
            if self._majorities is None:
                self._majorities = self._count_majorities()
            n = self._majorities // quest.per
        else:  # pragma: no cover - the loader rejects unknown effects
            raise ValueError(e)
        return n * quest.valor, n

    def _count_majorities(self) -> int:
        """The region tiles (slots 1.., Kalena's 0 left out) where the player owns more
        buildings than every other player (a tie scores nothing)."""
        s, p = self.s, self.p
        tiles, players, slot, owner = len(self.ctx.box.region_centres), s.config.players, s.field.slot, s.owner
        counts: dict[int, list[int]] = {}
        for c, b in enumerate(s.building):
            if b >= 0 and 1 <= slot[c] <= tiles:
                row = counts.get(slot[c])
                if row is None:
                    row = counts[slot[c]] = [0] * players
                row[owner[c]] += 1
        return sum(1 for row in counts.values() if row[p] and all(row[p] > row[o] for o in range(players) if o != p))


# ============================================================================ checking a loaded position


def check_outcome(s: State) -> None:
    """Refuse a save whose end of game disagrees with itself, in every phase: a game
    still running has no winner and no collective loss; a collective loss has no
    winner; a game ended by final scoring is won by the top of the valor stack
    (rulebook: "Final Scoring"; "Valor Points and the Valor Track"; ruling 10).
    Raises :class:`~haunted_kit.haunted.state.SaveError` naming the save field."""
    n = s.config.players
    if s.winner is not None and not (is_integer(s.winner) and 0 <= s.winner < n):
        raise SaveError(f"save field 'winner': {s.winner!r} is not a player")
    if s.phase != OVER:
        if s.winner is not None or s.lost:
            raise SaveError(f"save field 'winner'/'lost': a game still in the {s.phase} step has no winner and no "
                            f"collective loss (winner {s.winner!r}, lost {s.lost})")
    elif s.lost:
        if s.winner is not None:
            raise SaveError(f"save field 'winner': a collective loss has no winner, but the save names P{s.winner + 1}")
    elif s.winner != stack_order(s)[0]:
        raise SaveError(f"save field 'winner': {'no player' if s.winner is None else f'P{s.winner + 1}'} cannot have won "
                        f"a finished game: valor {list(s.valor)} puts P{stack_order(s)[0] + 1} on top of the stack")


def check_position(s: State) -> None:
    """Refuse a loaded state that the rules could never produce (each message names
    the save field): a game stopped in an automatic step, a chance node that does not
    follow the draws made so far, negative supplies, quests that do not split the hand, markers that disagree with
    learned skills, sensors or ghosts where they cannot be, resources over the cap,
    tokens beyond a track, (with limited supplies) pieces that do not add up to the
    box, a calendar that does not follow setup (:func:`_check_calendar`), player
    markers other than one per building and learned skill (ruling 16), and an outcome
    that disagrees with the valor stack and Kalena (:func:`_check_outcome`).
    Raises :class:`~haunted_kit.haunted.state.SaveError`."""
    _check_clock_and_supplies(s)
    _check_quests_and_skills(s)
    _check_marker_slots(s)
    _check_pending(s)
    _check_chance(s)
    check_outcome(s)
    _check_calendar(s)
    _check_supplies(s)
    _check_markers_used(s)
    _check_forced(s)
    if s.field is None:
        return
    ctx = ctx_of(s)
    _check_outcome(s, ctx)
    _check_players_on_field(s, ctx)
    _check_cells(s, ctx)


def _check_clock_and_supplies(s: State) -> None:
    """The season, round, turn, market card and phase a game can stop at; no negative supply."""
    box = s.config.box
    n = s.config.players
    if s.season > box.seasons or s.round > box.rounds_per_season:
        raise SaveError(f"save field 'season'/'round': season {s.season} round {s.round} is beyond "
                        f"{box.seasons} seasons of {box.rounds_per_season} rounds")
    if s.turn_pos > n or (s.phase == "turns" and s.turn_pos >= n):
        raise SaveError(f"save field 'turn_pos': {s.turn_pos} is not a turn of {n} players")
    if s.phase != "setup" and s.market not in box.market_cards:
        raise SaveError(f"save field 'market': {s.market} is not a market card ({', '.join(map(str, box.market_cards))})")
    if s.phase in AUTOMATIC:
        raise SaveError(f"save field 'phase': a game never stops in the {s.phase} step (it runs by itself)")
    sup = {"ghosts": [s.sup_ghosts], "buildings": s.sup_build, "resources": s.sup_res, "depletion": [s.sup_depl], "tokens": s.sup_tok}
    for name, vals in sup.items():
        if any(v < 0 for v in vals):
            raise SaveError(f"save field 'supply.{name}': a supply cannot be negative ({vals})")


def _check_quests_and_skills(s: State) -> None:
    """Each player's quests (chosen and in hand split the game's quest cards) and
    learned skills (one marker on each)."""
    box = s.config.box
    n = s.config.players
    allowed = [q for q in box.quests if q not in box.removed_quests.get(n, ())]
    for p in range(n):
        for q in s.quests[p]:
            if q not in box.quests:
                raise SaveError(f"save field 'players[{p}].quests': there is no quest card {q}")
            if q not in allowed:
                raise SaveError(f"save field 'players[{p}].quests': quest {q} is out of a {n}-player game")
        held = [q for q in box.quests if s.holds_quest(p, q)]
        if len(set(s.quests[p])) != len(s.quests[p]) or set(held) & set(s.quests[p]) or \
                sorted(held + list(s.quests[p])) != sorted(allowed):
            raise SaveError(f"save field 'players[{p}].quests': chosen {list(s.quests[p])} and in hand {held} "
                            f"must split the quest cards {allowed} between them")
        learned = s.skills_known(p)
        marked = [k for k in s.skills if p in s.marker_slots(k)]
        if sorted(learned) != sorted(marked):
            raise SaveError(f"save field 'players[{p}].skills': learned {learned} but markers sit on skills {marked}")


def _check_marker_slots(s: State) -> None:
    """Each skill's marker slots: covered where the player count covers them, real
    players elsewhere, no player twice."""
    box = s.config.box
    n = s.config.players
    covered = box.covered_slots.get(n, ())
    if s.slots:
        for k in s.skills:
            row = s.marker_slots(k)
            for j, v in enumerate(row):
                if (v == COVERED) != (j in covered) or not (v in (FREE, COVERED) or 0 <= v < n):
                    raise SaveError(f"save field 'marker_slots': skill {k} slot {j + 1} holds {v!r}, impossible "
                                    f"with {n} players")
            owners = [v for v in row if v >= 0]
            if len(set(owners)) != len(owners):
                raise SaveError(f"save field 'marker_slots': a player marks skill {k} twice")


def _check_chance(s: State) -> None:
    """A chance node follows the draws made so far."""
    if s.chance is not None:  # shapes and phases were checked by flow's registry at load
        node = s.chance
        if type(node) is TileDraw and node.slot != len(s.layout) or type(node) is SkillDraw and node.deck != len(s.skills) \
                or type(node) is StackDraw and node.position != len(s.turn_order):
            raise SaveError(f"save field 'chance': {node.to_json()} does not follow the draws made so far")


def _check_markers_used(s: State) -> None:
    """Each player's markers used: one per building and learned skill (ruling 16)."""
    n = s.config.players
    for p in range(n):  # from setup on: before the field is drawn every player has used none
        used = sum(1 for o in s.owner if o == p) + len(s.skills_known(p))
        if s.markers[p] != used:
            raise SaveError(f"save field 'players[{p}].markers_used': {s.markers[p]}, but the player's buildings and "
                            f"skills hold {used} markers (one each, ruling 16)")


def _check_players_on_field(s: State, ctx) -> None:
    """Each player's sensor on an explorable cell, resources within the cap and tokens within each track."""
    box = s.config.box
    n = s.config.players
    for p in range(n):
        c = s.sensor[p]
        if not ctx.explorable[c]:
            raise SaveError(f"save field 'players[{p}].sensor': a sensor cannot stand on {s.field.describe(c)}")
        cap = resource_cap(s, ctx, p)
        for r, name in enumerate(box.resources):
            if s.resource(p, r) > cap:
                raise SaveError(f"save field 'players[{p}].resources': {s.resource(p, r)} {name} is over the cap of {cap}")
        for t, track in enumerate(ctx.tracks):
            if s.tokens(p, t) > track.slots or s.tokens(p, t) < 1:
                raise SaveError(f"save field 'players[{p}].tokens': {s.tokens(p, t)} {track.name} tokens do not fit a track of {track.slots} slots")


def _check_cells(s: State, ctx) -> None:
    """The ghosts, buildings and depletion tokens of each cell of the field."""
    for c in range(len(s.ghosts)):
        if s.ghosts[c] and (not ctx.holds_ghosts[c] or s.building[c] >= 0):
            raise SaveError(f"save field 'cells.ghosts': a ghost cannot be on {s.field.describe(c)}")
        if s.building[c] >= 0 and ctx.buildings[s.building[c]] and s.building[c] not in ctx.build_here[c]:
            raise SaveError(f"save field 'cells.buildings': a {ctx.buildings[s.building[c]].name} cannot stand on {s.field.describe(c)}")
        if s.depleted[c] and s.building[c] >= 0:
            raise SaveError(f"save field 'cells.depleted': a depletion token lies under the building on "
                            f"{s.field.describe(c)} (building there returns it to the supply, and no one extracts "
                            "on a building; Basic Actions: Construction, Extraction)")


def _check_forced(s: State) -> None:
    """Every forced outcome (:meth:`State.force_chance`) is one that some chance node of
    this game can give (a region tile, a skill or market card, a player's place in the
    turn order, a face of the terrain or bonus die), and the first one is possible at
    the chance node waiting, if any: otherwise the game would fail in play."""
    if not s.forced:
        return
    box = s.config.box
    fixed = ctx_of(s).chance_weights
    known = set(box.tiles) | set(range(s.config.players)) | set(fixed["market"][0]) | set(fixed["terrain_die"][0]) \
        | set(fixed["bonus_die"][0])
    for outcomes, _ in fixed["skill"]:
        known |= set(outcomes)
    for i, o in enumerate(s.forced):
        if isinstance(o, bool) or o not in known:
            raise SaveError(f"save field 'forced[{i}]': {o!r} is not an outcome of any chance event of this game")


def _check_supplies(s: State) -> None:
    """With limited supplies, every piece is in the supply, on the field or with a
    player, exactly as many as the box holds (ruling 1); checked from setup on."""
    box = s.config.box
    n = s.config.players
    if s.config.limited_supplies:
        problems = []
        if sum(s.ghosts) + s.sup_ghosts != box.supply_ghosts:
            problems.append("ghosts")
        if sum(s.depleted) + s.sup_depl != box.supply_depletion:
            problems.append("depletion tokens")
        for b, name in enumerate(box.buildings):
            if sum(1 for x in s.building if x == b) + s.sup_build[b] != box.supply_buildings[name]:
                problems.append(name + "s")
        for r, name in enumerate(box.resources):
            if sum(s.resource(p, r) for p in range(n)) + s.sup_res[r] != box.supply_resources[name]:
                problems.append(name)
        for t, name in enumerate(box.tracks):
            if sum(s.tokens(p, t) for p in range(n)) + s.sup_tok[t] != box.supply_tokens[name]:
                problems.append(name + " tokens")
        if problems:
            raise SaveError(f"save field 'supply': pieces do not add up to the box for {', '.join(problems)} "
                            "(supply + field + players must equal the box counts)")


def _check_calendar(s: State) -> None:
    """The phase agrees with the season, the draws, the turn order and the valor stack."""
    box = s.config.box
    n = s.config.players
    if s.phase == "setup":
        if s.season or s.round or s.chance is None or s.pending or s.winner is not None or s.lost:
            raise SaveError("save field 'phase': during setup the game waits at a setup draw, before season 1, "
                            "with no decision and no outcome")
        # the draws come in order: tiles, skill cards, the market card, the stack
        step = ("tile", "skill", "market", "stack").index(s.chance.kind)
        done = (len(s.layout) == len(box.region_centres), len(s.skills) == len(box.skill_decks),
                s.market in box.market_cards)
        started = (bool(s.layout), bool(s.skills), s.market != 0, bool(s.turn_order))
        if not all(done[:step]) or any(started[step + 1:]):
            raise SaveError(f"save field '{('layout', 'skills', 'market', 'turn_order')[step]}': setup waits at the "
                            f"{s.chance.name()}, so the draws before it are complete and none after it has started")
        return
    if s.field is None or len(s.skills) != len(box.skill_decks) or not s.slots or len(s.turn_order) != n:
        raise SaveError(f"save field 'phase': {s.phase!r} comes after setup, but the setup draws are incomplete")
    if not (1 <= s.season and 1 <= s.round):
        raise SaveError(f"save field 'season'/'round': season {s.season} round {s.round} is not a round of the game")
    if s.phase == "season_end" and not (s.season < box.seasons and s.round == box.rounds_per_season):
        raise SaveError(f"save field 'phase': a season ends after round {box.rounds_per_season} of a season before the "
                        f"last ({box.seasons}), not at season {s.season} round {s.round}")
    arrivals = sorted(s.arrival)
    if len(set(arrivals)) != n or arrivals[0] < 1 or arrivals[-1] > s.arrivals:
        raise SaveError(f"save field 'players[].arrival': {s.arrival} must be distinct, from 1 to arrivals "
                        f"({s.arrivals}): each valor token arrived at its place once")


def _check_outcome(s: State, ctx) -> None:
    """Beyond :func:`check_outcome`: a running game has Kalena standing; a finished
    game waits for nothing; a collective loss has a Kalena without a free cell; final
    scoring comes after the last round of the last season."""
    box = s.config.box
    if s.phase != "over":
        if s.phase != "setup" and kalena_fallen(s, ctx):
            raise SaveError("save field 'cells.ghosts': every Kalena cell holds a ghost, so the game would be over")
        return
    if s.pending or s.chance is not None:
        raise SaveError("save field 'pending'/'chance': a finished game waits for nothing")
    if s.lost:
        if kalena_targets(s, ctx):
            raise SaveError("save field 'lost': Kalena has a free cell, so it has not fallen")
        return
    if (s.season, s.round) != (box.seasons, box.rounds_per_season):
        raise SaveError(f"save field 'season'/'round': final scoring comes after round {box.rounds_per_season} "
                        f"of season {box.seasons}, not season {s.season} round {s.round}")


def _check_pending(s: State) -> None:
    """The pending stack: parts within the box's bounds, one spread, skill 2 or skill 9
    decision at a time, one quest choice per player, only the turn's player during turns."""
    box = s.config.box
    n = s.config.players
    for e in s.pending:
        if isinstance(e, GhostPlacement) and (e.terrain not in box.terrains and e.terrain != KALENA
                                              or not 1 <= e.remaining <= box.ghosts_per_spread):
            raise SaveError(f"save field 'pending': {e.to_json()}: ghosts go on a terrain of the box or Kalena, "
                            f"1 to {box.ghosts_per_spread} at a time")
        if isinstance(e, (ResourceChoice, QuestChoice)) and not 1 <= e.count <= (
                len(box.quests) if isinstance(e, QuestChoice) else 10**9):
            raise SaveError(f"save field 'pending': {e.to_json()}: the count is out of range")
    kinds = [e.kind for e in s.pending]
    if any(kinds.count(k) > 1 for k in ("ghosts", "bonus", "restore")):
        raise SaveError(f"save field 'pending': a spread, a skill 2 or a skill 9 decision waits only once, got {kinds}")
    asked = [e.player for e in s.pending if isinstance(e, QuestChoice)]
    if len(set(asked)) != len(asked):
        raise SaveError(f"save field 'pending': a player is asked twice for quests, {asked}")
    if s.phase == "turns" and s.turn_pos < n and len(s.turn_order) == n and \
            any(e.player != s.turn_order[s.turn_pos] for e in s.pending):
        raise SaveError(f"save field 'pending': during a turn only the player taking it decides, "
                        f"got {[e.to_json() for e in s.pending]}")
