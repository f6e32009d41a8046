"""Analysis of the estate module: the Market as an exchange graph, the cheapest way to
a target, income growth for a plan, legal land slots and how an estate can grow, and
a seeded-bots table of openings.

Every rule question goes to :mod:`haunted_kit.estate.rules` (prices, legality), so the
analysis never keeps a second copy of a rule. Values "in gold" use the kit's gold
value (``data/estate/game.toml`` [value]: marble 3, glass 2, wood 1, limestone 1,
gold 1), a kit measure and not a rule of the text.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx
import numpy as np

from . import rules as R
from .actions import Trade
from .scenario import position
from .sim import play_many
from ..protocol import Refusal, is_integer
from ..frames import nullable

STACK = "kit default: the tile stack (ruling E17)"
KIT_MEASURE = "gold value is a kit measure (marble 3, glass 2, wood 1, limestone 1), not a rule of the text"


# ============================================================================ the exchange graph


def market_graph(s, player: int | None = None) -> nx.MultiDiGraph:
    """The Market as a networkx exchange graph at this season's prices.

    Nodes are ``gold``, the resources and ``workers``; each option of each Market row
    is an edge from every resource it gives (gold for a marked price) to every
    resource it takes, with attributes ``action`` (row), ``give``, ``take`` (sorted
    ``(resource, amount)`` pairs), ``price`` (gold now for ``player``, default the
    player to move, 0 for unmarked rows) and ``label`` (short text).
    """
    p = s.current_player() if player is None else player
    p = 0 if p is None else p
    g = nx.MultiDiGraph()
    g.add_nodes_from(list(s.box.resources) + ["workers"])
    for name, row in s.box.market.items():
        price = R.marked_price(s, p, name) if s.config.marked(name) else 0
        for give, take in row.options:
            sources = [r for r, _ in give] or ["gold"]
            gtext = " + ".join(f"{n} {r}" for r, n in give) or f"{price} gold"
            ttext = " + ".join(f"{n} {r}" for r, n in take)
            for u in sources:
                for v, _ in take:
                    g.add_edge(u, v, action=name, give=give, take=take, price=price, label=f"{gtext} -> {ttext}")
    return g


@dataclass(frozen=True)
class Conversion:
    """The cheapest way found to reach a target in one Market visit.

    Attributes:
        steps: the :class:`Trade` actions, in order.
        cost: gold value given up, in gold (a kit measure): the holdings' value
            before less their value after, plus the value of the target units gained
            (what was given to get the target, less anything else received).
        holdings: the player's holdings after the steps.
        gold_paid: marked prices paid, in gold.
    """

    steps: tuple
    cost: int
    holdings: dict
    gold_paid: int

    def describe(self) -> str:
        if not self.steps:
            return "already held: no Market action needed (cost 0 gold)"
        return "; then ".join(t.describe() for t in self.steps) + f" (gives up {self.cost} gold of value, a kit measure)"


def cheapest_conversion(s, target: dict, player: int | None = None, actions: int | None = None) -> Conversion | None:
    """The cheapest sequence of different Market actions (one visit) that leaves
    ``player`` holding at least ``target`` (e.g. ``{"marble": 1}`` or ``{"glass": 2}``).

    Args:
        target: resource -> amount wanted in hand after the visit.
        player: default the player to move.
        actions: how many actions the visit allows (default: 3 if nobody has visited
            the Market this season, else 2, as the rules give; during ``player``'s own
            visit, the actions it has left, its used rows excluded).

    Returns:
        a :class:`Conversion` (cost = gold value given up, at this season's marked
        prices for ``player``; ties: fewer steps, then table order), or ``None`` when
        no visit reaches the target. Every step is judged by the engine's own rule
        (:func:`haunted_kit.estate.rules.refuse_trade`, played out on a copy): a set of
        trades the rules refuse is never returned.

    Raises:
        ValueError: a target naming an unknown resource or a negative amount.
        PlanRefused: ``actions`` beyond what any visit allows (estate rules, "Market
            actions": 3 for the season's first visitor).
    """
    box = s.box
    for r, n in target.items():
        if r not in box.resources or not is_integer(n) or n < 0:
            raise ValueError(f"target must map resources ({', '.join(box.resources)}) to amounts >= 0, got {r!r}: {n!r}")
    p = s.current_player() if player is None else player
    p = 0 if p is None else p
    own = s.visit if s.visit is not None and s.visit["player"] == p else None
    limit = _conversion_limit(s, own, actions)
    res = box.resources
    val = [box.value[r] for r in res]
    idx = {r: i for i, r in enumerate(res)}
    want = [(idx[r], n) for r, n in target.items() if n]
    start = tuple(s.hand[p][r] for r in res)
    options = _conversion_options(s, p, own, idx)
    if all(start[i] >= m for i, m in want):
        return Conversion((), 0, dict(zip(res, start)), 0)
    best = _cheapest_set(s, p, limit, options, start, want, val)
    if best is None:
        return None
    (cost, _), steps, h, paid = best
    return Conversion(steps, cost, dict(zip(res, h)), paid)


def _conversion_limit(s, own, actions) -> int:
    """How many actions the visit allows: ``actions`` when given (checked), else what is
    left of the player's own visit, else the rules' limit. Raises PlanRefused."""
    box = s.box
    if actions is not None and (not is_integer(actions) or not 0 <= actions <= box.first_visitor_actions):
        raise PlanRefused(R.refusal(f"a Market visit has at most {box.first_visitor_actions} actions (the season's first "
                                    f"visitor; later ones {box.later_visitor_actions}), not {actions!r}", R.MARKET),
                          None, f"a visit of {actions} actions")
    if actions is not None:
        limit = actions
    elif own is not None:
        limit = own["limit"] - len(own["used"])
    else:
        limit = R.visit_limit(s)
    return limit


def _conversion_options(s, p: int, own, idx: dict) -> list:
    """Every option of every Market row still open to ``p`` that gains a resource:
    ``(row, change of holdings, Trade, marked price paid)``, in table order."""
    box = s.box
    res = box.resources
    options = []
    for name, row in box.market.items():
        if own is not None and name in own["used"]:
            continue  # each action of a visit is a different row
        price = R.marked_price(s, p, name) if s.config.marked(name) else 0
        for give, take in row.options:
            delta = [0] * len(res)
            for r, n in give:
                delta[idx[r]] -= n
            for r, n in take:
                if r != "workers":
                    delta[idx[r]] += n
            delta[idx["gold"]] -= price
            if not any(delta[i] > 0 for i in range(len(res))):
                continue  # hiring only workers: never nearer a resource target
            options.append((name, tuple(delta), Trade(name, give, take), price))
    return options


def _cheapest_set(s, p: int, limit: int, options: list, start: tuple, want: list, val: list):
    """The cheapest set of options (different rows) reaching ``want`` from ``start`` that
    the rules allow in some order: ``((cost, steps), trades, holdings after, paid)``, or
    None."""
    start_value = sum(v * h for v, h in zip(val, start))
    table = _combo_table(tuple(options), limit)
    final = table.deltas + np.array(start)
    ok = final.min(axis=1) >= 0
    for i, m in want:
        ok &= final[:, i] >= m
    if not ok.any():
        return None
    value_after = final @ np.array(val)
    gained = np.zeros(len(final), dtype=np.int64)
    for i, m in want:
        gained += val[i] * np.maximum(0, np.minimum(m, final[:, i]) - min(m, start[i]))
    cost = start_value - value_after + gained
    best = None
    # candidates by (cost, steps, table order); the first with an order that never holds
    # a negative amount wins (a set of different rows gives the same holdings in any order)
    cand = np.flatnonzero(ok)
    for j in cand[np.lexsort((cand, table.steps[cand], cost[cand]))]:
        order = _feasible_order(start, [options[k] for k in table.combos[j]])
        if order is not None and _refuse_steps(s, p, limit, [o[2] for o in order]) is None:
            best = ((int(cost[j]), int(table.steps[j])), tuple(o[2] for o in order),
                    tuple(int(x) for x in final[j]), sum(o[3] for o in order))
            break
    return best


@dataclass(frozen=True)
class _Combos:
    combos: tuple  #: option indexes of each set of different rows (one option per row)
    deltas: "np.ndarray"  #: summed change of holdings per set
    steps: "np.ndarray"


@lru_cache(maxsize=64)
def _combo_table(options: tuple, limit: int) -> _Combos:
    """Every set of at most ``limit`` different Market rows with one option each, and the
    holdings change it makes (cached: prices change only a few times a season)."""
    rows = {}
    for k, (name, delta, _, _) in enumerate(options):
        rows.setdefault(name, []).append(k)
    groups = list(rows.values())
    combos, deltas = [], []
    width = len(options[0][1]) if options else 0
    for n in range(0, min(limit, len(groups)) + 1):
        for chosen in itertools.combinations(range(len(groups)), n):
            for pick in itertools.product(*(groups[i] for i in chosen)):
                combos.append(pick)
                d = [0] * width
                for k in pick:
                    for i, x in enumerate(options[k][1]):
                        d[i] += x
                deltas.append(d)
    return _Combos(tuple(combos), np.array(deltas, dtype=np.int64).reshape(len(combos), width),
                   np.array([len(c) for c in combos], dtype=np.int64))


def _refuse_steps(s, p: int, limit: int, trades) -> Refusal | None:
    """The rules' refusal of the first of ``trades`` they forbid, played out in order on a
    copy of ``s`` during a Market visit of ``p`` (``p``'s own visit if one is under way,
    else a new one of ``limit`` actions), or ``None`` when the rules allow them all."""
    t = s.copy(keep_log=False)
    if t.visit is None or t.visit["player"] != p:
        t.visit = {"player": p, "limit": limit, "used": []}
    for trade in trades:
        why = R.refuse_trade(t, p, trade.action, trade.give, trade.take)
        if why is not None:
            return why
        R.do_trade(t, p, trade.action, trade.give, trade.take)
    return None


def _feasible_order(start, pick):
    """An order of the trades in ``pick`` (option tuples) that never holds a negative
    amount, or None."""
    for order in itertools.permutations(pick):
        h = list(start)
        ok = True
        for _, delta, _, _ in order:
            for i, d in enumerate(delta):
                h[i] += d
            if min(h) < 0:
                ok = False
                break
        if ok:
            return order
    return None


# ============================================================================ income growth


class PlanRefused(ValueError):
    """A plan the rules forbid: ``refusal`` is the rules' :class:`~haunted_kit.protocol.Refusal`
    (its text and section, e.g. "Expand the lands"), ``season`` and ``step`` say where in
    the plan (``step`` a tile name or a :class:`Trade`)."""

    def __init__(self, refusal: Refusal, season: int | None, step):
        self.refusal, self.season, self.step = refusal, season, step
        where = f"season {season}, " if season is not None else ""
        what = step.describe() if hasattr(step, "describe") else str(step).replace("_", " ")
        super().__init__(f"the plan breaks a rule at {where}{what}: {refusal}")


def _stack_refusal(box, tile: str, placed: int) -> Refusal | None:
    """The box holds ``count`` tiles of each kind (ruling E17): a plan cannot place more."""
    if placed >= box.tiles[tile].count:
        return R.refusal(f"the box holds {box.tiles[tile].count} {box.tiles[tile].word} tile"
                         f"{'s' if box.tiles[tile].count != 1 else ''} and the plan places more", STACK)
    return None


def income_growth(box, plan: dict, *, start_income: dict | None = None, first_taker: bool = False):
    """Income per season for a plan of land tiles, taking the full income each season,
    each tile judged by the engine's own rules (:func:`haunted_kit.estate.rules.refuse_place`).

    Each season the player first takes the gold income, then buys the season's tiles in
    plan order (3 gold each, from the gold in hand: nothing else is sold), each on a slot
    the rules allow (the first over the shared lower area, later ones touching the estate;
    a white-dotted outer land only when no other slot is legal), then takes the income of
    every material and the gold income a tax land just raised. The tile is assumed face up
    when wanted (the display is chance), but the plan cannot place more tiles of a kind
    than the box holds (ruling E17).

    Args:
        box: an :class:`~haunted_kit.estate.box.EstateBox`.
        plan: ``{season: [tile names placed that season]}`` (they count in that season).
        start_income: default the box's starting income.
        first_taker: add the first taker's extra unit for each Factory material with
            income (as if first every season).

    Returns:
        pandas DataFrame, one row per season: ``tiles``, ``income_<resource>``,
        ``taken_value`` (gold value of the season's takes), ``tile_cost`` (gold),
        ``cumulative_net`` (taken value less tile costs so far), ``gold_left`` (gold in
        hand at the season's end). Values are the kit's gold value (a kit measure).

    Raises:
        ValueError: an unknown tile or a season outside 1..seasons.
        PlanRefused: a tile the rules forbid (estate rules, "Expand the lands": the
            marble quarry needs 2 tiles first, a tile costs 3 gold...), with the rules'
            reason and section.
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    for season in plan:
        if not is_integer(season) or not 1 <= season <= box.seasons:
            raise ValueError(f"plan seasons must be 1..{box.seasons}, got {season!r}")
        for t in plan[season]:
            if t not in box.tiles:
                raise ValueError(f"unknown tile {t!r} (known: {', '.join(box.tiles)})")
    s = position(2, box=box, log=False)
    if start_income is not None:
        s.income[0].update(start_income)
    placed: dict = {}
    rows, net = [], 0
    for season in range(1, box.seasons + 1):
        tiles = list(plan.get(season, []))
        gold_before = s.income[0]["gold"]
        s.hand[0]["gold"] += gold_before
        for t in tiles:
            why = _stack_refusal(box, t, placed.get(t, 0))
            s.display = [t]
            slots = sorted((slot for slot, how in R.legal_slots(s, 0).items() if how == "place"),
                           key=lambda slot: (slot in box.white_dotted, slot))
            slot = slots[0] if slots else next(iter(box.slots))
            why = why or R.refuse_place(s, 0, t, slot)
            if why is not None:
                raise PlanRefused(why, season, t)
            R.do_place(s, 0, t, slot)
            placed[t] = placed.get(t, 0) + 1
        inc = dict(s.income[0])
        s.hand[0]["gold"] += inc["gold"] - gold_before  # a tax land placed now raises this season's gold
        taken = {r: n + (box.first_taker_extra if first_taker and r in box.factory_resources and n > 0 else 0)
                 for r, n in inc.items()}
        value = sum(box.value[r] * n for r, n in taken.items())
        cost = box.tile_price * len(tiles)
        net += value - cost
        row = {"season": season, "tiles": ", ".join(tiles)}
        row.update({f"income_{r}": n for r, n in inc.items()})
        row.update(taken_value=value, tile_cost=cost, cumulative_net=net, gold_left=s.hand[0]["gold"])
        rows.append(row)
    return pd.DataFrame(rows).set_index("season")


# ============================================================================ land slots


def slot_table(s, player: int | None = None):
    """Every land slot for ``player`` (default the player to move): ``status``
    (``place``, ``join`` or ``no``), the tile on it, its owner, the join fee and the
    rules' reason when ``no`` (from :func:`haunted_kit.estate.rules.refuse_marker`)."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    p = s.current_player() if player is None else player
    p = 0 if p is None else p
    rows = []
    for slot in s.box.slots:
        land = s.lands.get(slot)
        why = R.refuse_marker(s, p, slot)
        rows.append({"slot": slot, "status": "no" if why else ("join" if land else "place"),
                     "tile": land["tile"] if land else "", "owner": f"P{land['owner'] + 1}" if land else "",
                     "join_fee": R.join_fee(s, slot) if land else None,
                     "white_dotted": slot in s.box.white_dotted, "reason": why.text if why else ""})

    return nullable(pd.DataFrame(rows))


def estate_graph(s, player: int) -> nx.Graph:
    """``player``'s estate: the land graph's subgraph on the slots marked by them."""
    return R.land_graph(s.box).subgraph(R.estate_of(s, player)).copy()


def growth(s, player: int) -> dict:
    """How ``player``'s estate can grow: ``{"estate": n slots, "next": slots legal now,
    "reach": slots reachable over free or joinable slots, by distance}`` where reach
    maps a slot to the fewest markers needed to get there (networkx BFS from the
    estate; the first marker must go over the lower area)."""
    g = R.land_graph(s.box)
    mine = R.estate_of(s, player)
    nxt = sorted(R.legal_slots(s, player))
    sources = mine or list(s.box.lower_area)
    dist = nx.multi_source_dijkstra_path_length(g, sources, weight=lambda u, v, d: 1)
    reach = {slot: (d if mine else d + 1) for slot, d in dist.items() if slot not in mine}
    return {"estate": len(mine), "next": nxt, "reach": dict(sorted(reach.items(), key=lambda kv: (kv[1], kv[0])))}


# ============================================================================ openings


def opening_table(games: int = 20, players: int = 3, agents=("greedy",), first_seed: int = 0, progress: bool = False,
                  **options):
    """What each opening (a player's first action) yields with seeded bots.

    Returns:
        pandas DataFrame indexed by opening: ``player_games`` (how many players opened
        so, over all games), ``mean_gold_value``, ``min``, ``max`` (gold value at the end,
        a kit measure), ``mean_tiles_marked`` (land tiles with the player's marker).
        ``DataFrame.attrs["measure"]`` says that the measure is the kit's.
    """
    df = play_many(games, players=players, agents=agents, first_seed=first_seed, progress=progress, **options)
    t = df.groupby("opening").agg(player_games=("gold_value", "size"), mean_gold_value=("gold_value", "mean"),
                                  min=("gold_value", "min"), max=("gold_value", "max"),
                                  mean_tiles_marked=("tiles_marked", "mean"))
    t = t.sort_values("mean_gold_value", ascending=False).round(2)
    t.attrs["measure"] = KIT_MEASURE
    return t
