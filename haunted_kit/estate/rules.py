"""The estate rules, each once: legality (``refuse_*``, a :class:`Refusal` or ``None``)
next to its effect (``do_*``). The engine, the analysis and the widgets all call these.

Sections named in refusals are the estate rules text's: "Resource income", "Expand the
lands", "Market actions"; where the text is silent the refusal says which kit default
decides (``docs/RULINGS.md``, section "Estate and Market").
"""

from __future__ import annotations

from ..events import Event
from ..hexgrid import cell_name
from ..protocol import Refusal, is_integer
from .board import board_tables, estate_connected, land_graph, slot_name, slots_named, slots_of  # noqa: F401  (the one connection rule)
from .actions import Trade, amounts_text as _amounts

SOURCE = "estate rules"
INCOME = "Resource income"
LANDS = "Expand the lands"
MARKET = "Market actions"
TURNS = "kit default: turns (ruling E1)"
SEASON_END = "kit default: the season's end (ruling E15)"
END = "kit measure: the end of the game (rulings E18, E19)"


def refusal(text, section) -> Refusal:
    return Refusal(text, section, SOURCE)


def P(p) -> str:
    return f"P{p + 1}"


# ============================================================================ the land board (see board.py)


def estate_of(s, p: int) -> list:
    """The slots holding a marker of ``p``, in board order."""
    return [slot for slot in s.config.box.slots if slot in s.lands and p in s.lands[slot]["markers"]]


def refuse_marker(s, p: int, slot) -> Refusal | None:
    """Can ``p`` put a marker on ``slot`` (placing or joining) as far as where it is
    concerned: on the board, one marker per player per tile, the first on the shared
    lower area, later ones connected to the estate. Costs are checked by the caller."""
    box = s.config.box
    if slot not in box.slots:
        return refusal(f"the land board has no slot {cell_name(slot)}", LANDS)
    land = s.lands.get(slot)
    if land is not None and p in land["markers"]:
        return refusal(f"{P(p)} already has a marker on the tile at {slot_name(slot)}; each tile holds one marker per player", LANDS)
    mine = estate_of(s, p)
    if not mine:
        if slot not in box.lower_area:
            return refusal(lambda: f"{P(p)}'s first tile must lie over the shared lower area "
                                   f"({slots_named(box.lower_area)}), not on {slot_name(slot)}", LANDS)
        return None
    g = land_graph(box)
    if not any(g.has_edge(slot, m) for m in mine):
        return refusal(lambda: f"{slot_name(slot)} does not touch {P(p)}'s estate ({slots_named(mine)}): "
                               "a tile after the first has to touch one that already carries your marker", LANDS)
    # a slot touching a connected estate keeps it one connected group (the "group"
    # reading needs no more); the "line" reading asks the graph
    if s.config.connection != "group" and not estate_connected(box, mine + [slot], s.config.connection):
        return refusal(f"with {slot_name(slot)} {P(p)}'s markers would not form a continuous line "
                       "(the 'line' reading, ruling E6)", LANDS)
    return None


def refuse_marble_quarry(s, p: int, tile: str) -> Refusal | None:
    """Whether ``p`` may add ``tile`` (a tile name) as far as the marble quarry's
    condition goes: a marble quarry needs at least the box's ``marble_quarry_min_tiles``
    land tiles in ``p``'s estate already. ``None`` or the :class:`Refusal` (estate rules,
    "Expand the lands")."""
    if tile != "marble_quarry":
        return None
    have = len(estate_of(s, p))
    need = s.config.box.marble_quarry_min_tiles
    if have < need:
        return refusal(f"a marble quarry can be added only once {P(p)} has at least {need} land tiles ({P(p)} has {have})", LANDS)
    return None


def join_fee(s, slot) -> int:
    """Gold a player pays the owner to join the tile at ``slot``: 1 per marker already on
    it, at most 3 (from the box)."""
    return land_join_fee(s.config.box, s.lands[slot])


def land_join_fee(box, land: dict) -> int:
    """:func:`join_fee` of the land ``land`` (a ``state.lands`` entry) under ``box``'s rules."""
    return box.join_fee(len(land["markers"]))


def refuse_place(s, p: int, tile: str, slot) -> Refusal | None:
    """Whether ``p`` may buy ``tile`` (a name of the face-up display) and place it with a
    marker on the empty ``slot`` (axial ``(q, r)``): a known tile in the display, an empty
    slot, :func:`refuse_marker`, :func:`refuse_marble_quarry` and the tile price in gold.
    ``None`` or the :class:`Refusal` (estate rules, "Expand the lands")."""
    box = s.config.box
    if tile not in box.tiles:
        return refusal(f"there is no land tile called {tile!r} (known: {', '.join(box.tiles)})", LANDS)
    if tile not in s.display:
        return refusal(f"no {tile.replace('_', ' ')} is face up in the display ({', '.join(s.display) or 'empty'})", LANDS)
    if slot in s.lands:
        return refusal(f"{slot_name(slot)} already holds a tile; join it instead", LANDS)
    # every reason, the price first as the rule states it: a newcomer told only where a first tile goes
    # took it that one could be placed now, and one told only the price, that the slot would do with gold
    where = refuse_marker(s, p, slot) or refuse_marble_quarry(s, p, tile)
    if s.hand[p]["gold"] < box.tile_price:
        price = f"a land tile costs {box.tile_price} gold and {P(p)} has {s.hand[p]['gold']}"
        return refusal(price, LANDS) if where is None else refusal(lambda: f"{price}; and {where.text}", LANDS)
    return where


def refuse_join(s, p: int, slot) -> Refusal | None:
    """Whether ``p`` may put a marker on the tile of another player at ``slot`` (axial
    ``(q, r)``): a tile there, not ``p``'s own, :func:`refuse_marker`,
    :func:`refuse_marble_quarry` and the join fee in gold (:func:`join_fee`). ``None`` or
    the :class:`Refusal` (estate rules, "Expand the lands")."""
    if slot not in s.config.box.slots:
        return refusal(f"the land board has no slot {cell_name(slot)}", LANDS)
    land = s.lands.get(slot)
    if land is None:
        return refusal(f"{slot_name(slot)} holds no tile to join", LANDS)
    if land["owner"] == p and p in land["markers"]:
        return refusal(f"the tile at {slot_name(slot)} is {P(p)}'s own; each tile holds one marker per player", LANDS)
    why = refuse_marker(s, p, slot)
    if why is not None:
        return why
    why = refuse_marble_quarry(s, p, land["tile"])
    if why is not None:
        return why
    fee = join_fee(s, slot)
    if s.hand[p]["gold"] < fee:
        return refusal(f"joining costs {fee} gold for {P(land['owner'])} and {P(p)} has {s.hand[p]['gold']}", LANDS)
    return None


def legal_slots(s, p: int) -> dict:
    """Where ``p`` may put a marker now, ignoring costs: ``{slot: "place" | "join"}``, in
    board order; the slots :func:`refuse_marker` accepts. A new dict (see :func:`open_slots`)."""
    return dict(open_slots(s, p)[0])


def open_slots(s, p: int) -> tuple[dict, int]:
    """``(legal_slots(s, p), tiles in p's estate)``, kept in the state until a marker
    changes it (:func:`do_place`, :func:`do_join` drop what they change): read only, shared by copies. Under
    the "group" reading worked out from the board's edges at once (:func:`estate_bits`)."""
    cache = s.slot_cache
    if cache is not None and p in cache:
        return cache[p]
    box, lands = s.config.box, s.lands
    if s.config.connection != "group":
        slots = {slot: "join" if slot in lands else "place" for slot in box.slots if refuse_marker(s, p, slot) is None}
        found = (slots, sum(1 for land in lands.values() if p in land["markers"]))
    else:
        tables, _, ok, have = _group_open(s, p)
        found = ({slot: "join" if slot in lands else "place" for slot in slots_of(tables, ok)}, have)
    s.slot_cache = {**(s.slot_cache or {}), p: found}  # a new dict: copies sharing the old one keep it
    return found


def estate_bits(s) -> tuple[int, tuple, tuple]:
    """``(land, mine, reach)`` as bits of the board's slots (:class:`~haunted_kit.estate.board.BoardTables`):
    the slots holding a tile; per player the slots with their marker; per player the slots
    touching those. Under the "group" reading ``p`` may put a marker on ``reach[p] & ~mine[p]``,
    or on the lower area while ``mine[p]`` is 0. Worked out from ``s.lands`` (public) once, kept
    in the state's slot cache and carried through :func:`do_place` and :func:`do_join`
    (:func:`_marker_put`); read only, shared by copies."""
    cache = s.slot_cache
    if cache is not None:
        found = cache.get("bits")
        if found is not None:
            return found
    tables = board_tables(s.config.box)
    bit, near = tables.bit, tables.near
    land, mine, reach = 0, [0] * s.players, [0] * s.players
    for slot, held in s.lands.items():
        b, n = bit[slot], near[slot]
        land |= b
        for q in held["markers"]:
            mine[q] |= b
            reach[q] |= n
    found = (land, tuple(mine), tuple(reach))
    s.slot_cache = {**(cache or {}), "bits": found}  # a new dict: copies sharing the old one keep it
    return found


def _group_open(s, p: int) -> tuple:
    """Under the "group" reading: ``(the board's tables, the slots holding a tile, the
    slots open to p's next marker, tiles in p's estate)``, the sets as bits (:func:`estate_bits`)."""
    land, mine, reach = estate_bits(s)
    tables = board_tables(s.config.box)
    return tables, land, (reach[p] & ~mine[p] if mine[p] else tables.lower), mine[p].bit_count()


def _group_lists(tables, land: int, mine: int, reach: int) -> tuple[list, list, int]:
    """:func:`open_slot_lists` under the "group" reading from the bits of :func:`estate_bits`
    (``land``, and the player's ``mine`` and ``reach``): the slots touching the estate and
    not in it (the lower area before the first marker), split by whether a tile is there."""
    ok = reach & ~mine if mine else tables.lower
    return slots_of(tables, ok & ~land), slots_of(tables, ok & land), mine.bit_count()


def _marker_put(s, p: int, slot, placed: bool) -> None:
    """The slot cache after ``p``'s marker went on ``slot`` (``placed``: on a new tile, else
    a join): :func:`estate_bits` carried on when it was worked out (and with it, under the
    "group" reading, ``p``'s new :func:`open_slot_lists`); ``p``'s other open slots
    dropped, and another player's dropped only when a new tile went on a slot open to
    them (a join changes none of their slots, and a new tile only the word for its own
    slot, "place" becoming "join": where a player may go and their tile count depend on
    their own markers alone, under either connection reading)."""
    cache = s.slot_cache
    if cache is None:
        return
    kept = {}
    for key, found in cache.items():
        if key == "bits":
            tables = board_tables(s.config.box)
            b = tables.bit[slot]
            land, mine, reach = found
            mine = (*mine[:p], mine[p] | b, *mine[p + 1:])
            reach = (*reach[:p], reach[p] | tables.near[slot], *reach[p + 1:])
            kept["bits"] = (land | b, mine, reach)
            if s.config.connection == "group":  # p's own next slots, from the bits at hand (p asks again soon)
                kept[-1 - p] = _group_lists(tables, land | b, mine[p], reach[p])
        elif key != p and key != -1 - p and not (placed and slot in found[0]):
            kept[key] = found  # (open_slots: slot -> how; open_slot_lists: the slots to place a tile on first)
    s.slot_cache = kept or None


def open_slot_lists(s, p: int) -> tuple[list, list, int]:
    """``(slots to place a tile on, slots to join, tiles in p's estate)``: :func:`open_slots`
    split by how, in board order, kept in the state alike (read only, shared by copies)."""
    cache = s.slot_cache
    key = -1 - p  # (open_slots keeps p's dict under p)
    if cache is not None:
        found = cache.get(key)
        if found is not None:
            return found
    if s.config.connection == "group":
        land, mine, reach = estate_bits(s)
        found = _group_lists(board_tables(s.config.box), land, mine[p], reach[p])
    else:
        slots, have = open_slots(s, p)
        found = ([x for x, how in slots.items() if how == "place"], [x for x, how in slots.items() if how == "join"], have)
    s.slot_cache = {**(s.slot_cache or {}), key: found}  # a new dict: copies sharing the old one keep it
    return found


# ============================================================================ income


def income_bound(box, resource: str) -> int:
    """The most income of ``resource`` a player can ever have with ``box``: the starting
    income plus, for every tile raising it, its amount once per space (one for a
    one-marker tile) and once more for the 'adjacent' reading (Expand the lands)."""
    raise_by = sum(t.count * t.amount * (max(1, t.spaces) + 1) for t in box.tiles.values() if t.raises == resource)
    return box.start_income.get(resource, 0) + raise_by


def take_limit(s, p: int, material: str) -> int:
    """How much of ``material`` ``p`` may take in total this season: the income, plus
    the first-taker extra unit while nobody else has taken it first (only with an
    income of at least 1: ruling E3)."""
    inc = s.income[p][material]
    if inc <= 0:
        return 0
    first = s.first_taker[material]
    return inc + (s.config.box.first_taker_extra if first is None or first == p else 0)


def refuse_take(s, p: int, material: str, amount: int) -> Refusal | None:
    """Whether ``p`` may take ``amount`` units (a whole number, at least 1) of ``material``
    (a Factory resource) at the Raw Materials Factory: within this season's income left
    (:func:`take_limit`, the first taker's extra unit included) and with a worker in
    ``p``'s supply. ``None`` or the :class:`Refusal` (estate rules, "Resource income")."""
    box = s.config.box
    if material == "gold":
        return refusal("gold takes no workers: take it with the gold marker (TakeGold)", INCOME)
    if material not in box.factory_resources:
        why = "is obtained through the Market" if material in box.resources else "is not a resource"
        return refusal(f"{material} {why}; the Factory gives {', '.join(box.factory_resources)}", INCOME)
    if not is_integer(amount):
        return refusal(f"the amount must be a whole number (an int, not a bool or a float), got {amount!r}", INCOME)
    if amount < 1:
        return refusal(f"take at least 1 {material}, not {amount!r}", INCOME)
    left = take_limit(s, p, material) - s.taken[p][material]
    if left <= 0:
        return refusal(lambda: f"{P(p)} has no {material} income left this season (income {s.income[p][material]}, "
                               f"taken {s.taken[p][material]})", INCOME)
    if amount > left:
        extra = "" if take_limit(s, p, material) == s.income[p][material] else " including the first taker's extra unit"
        return refusal(f"{P(p)} may take at most {left} more {material} this season{extra}", INCOME)
    if s.workers[p]["supply"] < box.workers_per_take:
        return refusal(f"a Factory take needs {box.workers_per_take} worker in {P(p)}'s supply and none is left", INCOME)
    return None


def refuse_gold(s, p: int, amount: int) -> Refusal | None:
    """Whether ``p`` may advance the gold marker by ``amount`` gold (a whole number, at
    least 1, within this season's gold income left). ``None`` or the :class:`Refusal`
    (estate rules, "Resource income")."""
    if not is_integer(amount):
        return refusal(f"the amount must be a whole number (an int, not a bool or a float), got {amount!r}", INCOME)
    if amount < 1:
        return refusal(f"take at least 1 gold, not {amount!r}", INCOME)
    left = s.income[p]["gold"] - s.taken[p]["gold"]
    if amount > left:
        return refusal(f"{P(p)}'s gold marker has {left} gold left this season (income {s.income[p]['gold']})", INCOME)
    return None


# ============================================================================ market


def marked_price(s, p: int, action: str) -> int:
    """The gold ``p`` pays now for marked Market action ``action``: 2 for its first use
    this season, 3 later, less 1 per Market-condition token ``p`` holds (at least 1)."""
    box = s.config.box
    return token_price(box, box.price_first if s.uses[action] == 0 else box.price_later, s.tokens[p])


def token_price(box, base: int, tokens: int) -> int:
    """A marked Market action's price ``base`` (the box's first or later price) for a player
    holding ``tokens`` Market-condition tokens: less the discount per token, at least the
    box's minimum."""
    return max(box.price_minimum, base - box.condition_discount * tokens)


def visit_limit(s) -> int:
    """Actions allowed to the player beginning a Market visit now."""
    return s.config.box.first_visitor_actions if s.visitors == 0 else s.config.box.later_visitor_actions


def refuse_trade(s, p: int, action: str, give, take) -> Refusal | None:
    """Whether ``p``, visiting the Market, may use row ``action`` giving ``give`` for
    ``take`` (tuples of ``(resource, amount)`` pairs, one option of the row): not used yet
    in this visit, within the visit's action limit, the resources given held, the marked
    price in gold (:func:`marked_price`) paid, and room for a hired worker. ``None`` or the
    :class:`Refusal` (estate rules, "Market actions")."""
    box = s.config.box
    row = box.market.get(action)
    if row is None:
        return refusal(f"the Market has no action {action!r} (known: {', '.join(box.market)})", MARKET)
    if s.visit is None or s.visit["player"] != p:
        return refusal(f"{P(p)} is not visiting the Market; visit it first", MARKET)
    if action in s.visit["used"]:
        return refusal(f"{P(p)} already used '{row.text}' in this visit: each Market action of a visit must be different", MARKET)
    if len(s.visit["used"]) >= s.visit["limit"]:
        return refusal(f"this visit allows {s.visit['limit']} different actions and all are used", MARKET)
    if (tuple(give), tuple(take)) not in row.options:
        return refusal(f"'{row.text}' does not give {list(take)} for {list(give)}", MARKET)
    for r, n in give:
        if s.hand[p][r] < n:
            return refusal(f"{P(p)} has {s.hand[p][r]} {r}, {n} needed", MARKET)
    if s.config.marked(action):
        price = marked_price(s, p, action)
        if s.hand[p]["gold"] < price:
            return refusal(f"'{row.text}' costs {price} gold now and {P(p)} has {s.hand[p]['gold']}", MARKET)
    hired = dict(take).get("workers", 0)
    if hired and len(dict(take)) == 1 and total_workers(s, p) >= box.worker_limit:
        return refusal(f"{P(p)} already has {box.worker_limit} workers, the limit; no worker can be hired", MARKET)
    return None


def legal_trades(s, p: int, trades: dict) -> list:
    """The trades of ``trades`` (Market row -> its Trades, e.g. the interned ones of
    :func:`~haunted_kit.estate.actions.action_table`) that :func:`refuse_trade` accepts for
    ``p`` visiting the Market now, rows in the box's order, worked out row by row (the
    rows not yet used in the visit, the resources given held, the marked price, room for
    a hired worker); ``[]`` when the visit's actions are all used."""
    box, visit = s.config.box, s.visit
    if visit is None or visit["player"] != p or len(visit["used"]) >= visit["limit"]:
        return []
    hand, used, out = s.hand[p], visit["used"], []
    full = total_workers(s, p) >= box.worker_limit
    marked = s.config.marked
    for action, row in trades.items():
        if action in used:
            continue
        if marked(action) and hand["gold"] < marked_price(s, p, action):
            continue
        for x in row:
            for r, n in x.give:  # every resource given held (a loop: cheaper than all() over a generator)
                if hand[r] < n:
                    break
            else:
                if not (full and len(x.take) == 1 and x.take[0][0] == "workers" and x.take[0][1]):
                    out.append(x)
    return out


def total_workers(s, p: int) -> int:
    w = s.workers[p]
    return w["supply"] + w["factory"] + w["inn"]


def trades_for(s, p: int, action: str):
    """Every Trade of ``action`` (legal or not) for ``p``: one per option of its row."""
    return [Trade(action, g, t) for g, t in s.config.box.market[action].options]


# ============================================================================ effects


def emit(s, kind: str, player, text, slot=None, **data) -> None:
    """Log an event of ``kind`` when ``s`` keeps a log. ``text``: its sentence, or a
    function of no arguments making it, called here and only when the log is kept (so
    that a search copy, which keeps none, does not format sentences nobody reads)."""
    if s.log is None:
        return
    # a Market visit is one turn of the season's turns (kit ruling E10): logged in their phase
    s.log.append(Event(len(s.log), s.season, 0, s.phase, kind, player, text() if callable(text) else text, slot, data))


def gain(s, p: int, res: str, n: int, kind: str, text, slot=None, **data) -> None:
    """Change ``p``'s holding of ``res`` by ``n`` (may be negative) and log it (one
    resource: :func:`exchange`)."""
    if s.log is None:  # a search copy keeps no log: the change alone (no dict, no event)
        s.hand[p][res] += n
        return
    exchange(s, p, {res: n}, kind, text, slot, **data)


def exchange(s, p: int, changes: dict, kind: str, text, slot=None, **data) -> None:
    """Change ``p``'s holdings by ``changes`` (resource -> amount, may be negative) and log
    it as one event: with :func:`gain`, the only way holdings change (the soak test checks
    every change against these events)."""
    hand = s.hand[p]
    for res, n in changes.items():
        hand[res] += n
    if s.log is not None:  # (a search copy keeps no log: nothing to build)
        emit(s, kind, p, text, slot, gain=dict(changes), **data)


def move_workers(s, p: int, src: str | None, dst: str | None, n: int, kind: str, text) -> None:
    """Move ``n`` workers of ``p`` between ``supply``, ``factory`` and ``inn`` (``None``:
    hired from outside); logged with the change per place."""
    if n <= 0:
        return
    workers = s.workers[p]
    if src is not None:
        workers[src] -= n
    if dst is not None:
        workers[dst] += n
    if s.log is not None:  # (a search copy keeps no log: nothing to build)
        change = {} if src is None else {src: -n}
        if dst is not None:
            change[dst] = change.get(dst, 0) + n
        emit(s, kind, p, text, workers=change)


def raise_income(s, p: int, slot, times: int = 1) -> None:
    """``p``'s income rises by the tile at ``slot`` ``times`` times, while it has a space
    left (estate rules, "Expand the lands"); logs ``income_raised`` or ``no_raise``."""
    land = s.lands[slot]
    t = s.config.box.tiles[land["tile"]]
    log = s.log is not None  # a search copy keeps no log: the changes alone, no sentence or event made
    for _ in range(times):
        if t.spaces and len(land["raised"]) >= t.spaces:
            if log:
                emit(s, "no_raise", p, f"Both spaces of the {t.word} at {slot_name(slot)} are taken: {P(p)}'s income does not rise.",
                     slot)
            return
        land["raised"].append(p)
        s.income[p][t.raises] += t.amount
        if log:
            emit(s, "income_raised", p, f"{P(p)}'s {t.raises} income rises by {t.amount} to {s.income[p][t.raises]} "
                                        f"({t.word} at {slot_name(slot)}).", slot, income={t.raises: t.amount})


def do_take(s, p: int, material: str, amount: int) -> None:
    """Apply a legal Factory take (:func:`refuse_take`): one worker of ``p`` goes to the
    Factory, ``amount`` units of ``material`` to ``p``'s hand, the season's taken count
    rises, and the first taker of ``material`` is noted. Pushes no decision; logs
    ``worker_placed`` and ``taken`` (estate rules, "Resource income")."""
    first = s.first_taker[material] is None
    if first:
        s.first_taker[material] = p
    box = s.config.box
    s.taken[p][material] += amount
    if s.log is None:  # a search copy keeps no log: the changes alone (as move_workers and gain make them)
        workers = s.workers[p]
        workers["supply"] -= box.workers_per_take
        workers["factory"] += box.workers_per_take
        s.hand[p][material] += amount
        return
    move_workers(s, p, "supply", "factory", box.workers_per_take, "worker_placed",
                 f"{P(p)} places {box.workers_per_take} worker in the Raw Materials Factory.")
    extra = " (first to take it this season: one extra unit allowed)" if first else ""
    # whose limit it is: the taker's own (income and first-taker extra), not the Factory's stock
    gain(s, p, material, amount, "taken", f"{P(p)} takes {amount} {material} at the Factory{extra}; that makes "
                                          f"{s.taken[p][material]} of the {take_limit(s, p, material)} {material} "
                                          f"{P(p)} may take this season.")


def do_gold(s, p: int, amount: int) -> None:
    """Apply a legal gold take (:func:`refuse_gold`): ``amount`` gold to ``p``, the gold
    marker advanced. Pushes no decision; logs ``gold_taken`` (estate rules, "Resource
    income")."""
    s.taken[p]["gold"] += amount
    if s.log is None:  # a search copy keeps no log: the change alone (as gain makes it)
        s.hand[p]["gold"] += amount
        return
    gain(s, p, "gold", amount, "gold_taken", lambda: f"{P(p)} advances the gold marker: +{amount} gold "
                                                     f"({s.taken[p]['gold']} of {P(p)}'s gold income of {s.income[p]['gold']} "
                                                     "this season).")


def _adjacent_raises(s, p: int, slot) -> None:
    """The ``adjacent`` reading of ruling E7 (an improvement reaching "later players
    adjacent" to its land): each touching land of another player raises ``p`` once."""
    g = land_graph(s.config.box)
    for n in g.neighbors(slot):
        land = s.lands.get(n)
        key = [p, f"{n[0]},{n[1]}"]
        if land is None or p in land["markers"] or key in s.adjacent:
            continue
        s.adjacent.append(key)
        t = s.config.box.tiles[land["tile"]]
        s.income[p][t.raises] += t.amount
        emit(s, "income_raised", p, f"{P(p)}'s new tile touches the {t.word} at {n}: {t.raises} income +{t.amount} "
                                    f"(the 'adjacent' reading).", n, income={t.raises: t.amount})


def do_place(s, p: int, tile: str, slot) -> bool:
    """Apply a legal placement (:func:`refuse_place`): ``p`` pays the tile price, the tile
    goes from the display to ``slot`` (axial ``(q, r)``) with ``p``'s marker, ``p``'s income
    rises, and a white-dotted outer land gives a Market-condition token. Returns True when
    a tile of the display must then be removed (the engine pushes that decision, a
    ``RemoveTile``). Logs ``tile_bought``, ``tile_placed``, ``income_raised``,
    ``condition_token`` (estate rules, "Expand the lands")."""
    config = s.config
    box = config.box
    log = s.log is not None  # a search copy keeps no log: the changes alone, no sentence or event made
    if log:
        gain(s, p, "gold", -box.tile_price, "tile_bought", f"{P(p)} pays {box.tile_price} gold for a {tile.replace('_', ' ')}.",
             slot)
    else:
        s.hand[p]["gold"] -= box.tile_price
    s.display.remove(tile)
    s.lands[slot] = {"tile": tile, "owner": p, "markers": [p], "raised": []}
    _marker_put(s, p, slot, True)
    if log:
        emit(s, "tile_placed", p, f"{P(p)} places the {tile.replace('_', ' ')} on {slot_name(slot)} with a marker.", slot, tile=tile)
    t = box.tiles[tile]
    both = config.marble_field == "single" and t.spaces > 1
    raise_income(s, p, slot, t.spaces if both else 1)
    if config.improvement == "adjacent":
        _adjacent_raises(s, p, slot)
    if slot in box.white_dotted:
        s.tokens[p] += 1
        if log:
            emit(s, "condition_token", p, f"{slot_name(slot).capitalize()} is a white-dotted outer land: {P(p)} takes a Market-condition token "
                                          f"({s.tokens[p]} held) and removes another tile from the game.", slot)
        return bool(s.display)
    return False


def do_join(s, p: int, slot) -> None:
    """Apply a legal join (:func:`refuse_join`): ``p`` pays the owner the join fee, puts a
    marker on the tile at ``slot`` and raises its income once (and by the 'adjacent'
    reading for touching lands). Pushes no decision; logs ``fee_paid``/``fee_received``,
    ``joined`` and ``income_raised`` (estate rules, "Expand the lands")."""
    land = s.lands[slot]
    owner = land["owner"]
    box = s.config.box
    fee = land_join_fee(box, land)
    log = s.log is not None  # a search copy keeps no log: the changes alone, no sentence or event made
    if fee:
        if log:
            n = len(land["markers"])
            gain(s, p, "gold", -fee, "fee_paid", f"{P(p)} pays {P(owner)} {fee} gold to join the land at {slot_name(slot)}: "
                                                 f"{n} marker{'s' if n != 1 else ''} already on it, "
                                                 f"{box.join_fee_per_marker} gold each, {box.join_fee_cap} at most "
                                                 "(kit ruling E16).", slot, to=owner)
            gain(s, owner, "gold", fee, "fee_received", f"{P(owner)} receives {fee} gold from {P(p)} for the land at {slot_name(slot)}.",
                 slot, payer=p)
        else:
            hand = s.hand
            hand[p]["gold"] -= fee
            hand[owner]["gold"] += fee
    land["markers"].append(p)
    _marker_put(s, p, slot, False)
    if log:
        emit(s, "joined", p, f"{P(p)} puts a marker on {P(owner)}'s {land['tile'].replace('_', ' ')} at {slot_name(slot)}.", slot)
    raise_income(s, p, slot)
    if s.config.improvement == "adjacent":
        _adjacent_raises(s, p, slot)


def do_remove(s, p: int, tile: str) -> None:
    """Remove ``tile`` of the display from the game, the step owed after a tile on a
    white-dotted outer land (:func:`do_place` returns True). Pushes no decision; logs
    ``tile_removed`` (estate rules, "Expand the lands")."""
    s.display.remove(tile)
    s.removed.append(tile)
    if s.log is not None:
        emit(s, "tile_removed", p, f"{P(p)} removes a {tile.replace('_', ' ')} of the display from the game.", tile=tile)


def do_trade(s, p: int, action: str, give, take) -> None:
    """Apply a legal Market trade (:func:`refuse_trade`): the marked price paid, the row
    counted as used this season and in the visit, ``give`` handed over and ``take``
    received (hired workers up to the worker limit). Pushes no decision; logs
    ``market_paid``, ``sold``/``exchanged``/``hired`` (estate rules, "Market actions")."""
    box = s.config.box
    row = box.market[action]
    if s.config.marked(action):
        price = marked_price(s, p, action)
        gain(s, p, "gold", -price, "market_paid", lambda: f"{P(p)} pays the marked price of {price} gold for '{row.text}'.",
             action=action)
    s.uses[action] += 1
    s.visit["used"].append(action)
    if s.log is None:  # a search copy keeps no log: the changes alone (as exchange and move_workers make them)
        hand = s.hand[p]
        for r, n in give:
            hand[r] -= n
        for r, n in take:
            if r != "workers":
                hand[r] += n
            else:
                got = min(n, box.worker_limit - total_workers(s, p))
                if got > 0:
                    s.workers[p]["supply"] += got
        return
    kind = "sold" if action.startswith("sell") else ("hired" if action.startswith("hire") else "exchanged")
    goods = [(r, n) for r, n in take if r != "workers"]
    if give or goods:  # one event, so the row's text is said once per trade
        changes: dict = {}
        for r, n in give:
            changes[r] = changes.get(r, 0) - n
        for r, n in goods:
            changes[r] = changes.get(r, 0) + n
        said = lambda: " and ".join(x for x in (f"gives {_amounts(give)}" if give else "",  # noqa: E731
                                                f"gets {_amounts(goods)}" if goods else "") if x)
        exchange(s, p, changes, kind, lambda: f"{P(p)} {said()} at the Market ({row.text}).", action=action)
    for r, n in take:
        if r == "workers":
            room = box.worker_limit - total_workers(s, p)
            got = min(n, room)
            if got:
                after = total_workers(s, p) + got
                move_workers(s, p, None, "supply", got, "hired", lambda: f"{P(p)} hires {got} worker{'s' if got > 1 else ''} "
                                                                         f"({after} of {box.worker_limit}).")
            if got < n:
                emit(s, "hire_capped", p, f"{P(p)} is at the {box.worker_limit}-worker limit: {n - got} worker not hired.")
