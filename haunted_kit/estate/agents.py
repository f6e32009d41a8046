"""Bots for the estate module: the kit's protocol :class:`RandomAgent` and a greedy bot.

:class:`EstateGreedyAgent`'s heuristic (one step, documented so a class can argue with
it): every action is scored in gold value (marble 3, glass 2, wood 1, limestone 1,
gold 1; the kit's measure):

* Factory and gold takes: the value of what is taken (so it takes the most it may);
* a land tile or a join: the income raise's value times the seasons left to use it,
  less the price or the join fee;
* a Market visit: worth the best trade on offer; a trade: value got less value given
  and price paid (hiring counts a worker as 1 gold while a season remains);
* removing a tile: the most valuable tile is removed (denied to the others);
* the Inn: bring a worker back unless it is the last season;
* pass: 0, so the bot passes when nothing gains value.

Ties are broken by its seeded generator.
"""

from __future__ import annotations


from ..protocol import OneStepGreedyAgent, RandomAgent
from . import actions as A
from .actions import action_table
from . import rules as R


class EstateGreedyAgent(OneStepGreedyAgent):
    """The one-step greedy bot described in the module doc."""

    _fixed = None  # (box, seasons left, _fixed_scores(box, left), each tile's raise worth) last used by scores
    _market = None  # (box, third marked row, _market_values) last used by scores

    def __getstate__(self) -> dict:
        """Pickled and deep-copied without the last tables used (keyed by this process's object ids)."""
        state = self.__dict__.copy()
        state.pop("_fixed", None)
        state.pop("_market", None)
        return state

    @staticmethod
    def _seasons_left(s) -> int:
        return s.config.box.seasons - s.season + (1 if s.phase == "turns" else 0)

    def score(self, s, a) -> float:
        """The heuristic value of ``a`` for the player to move, in gold."""
        box, p, val = s.config.box, s.current_player(), s.config.box.value
        t = type(a)
        if t is A.TakeMaterial:
            return a.amount * val[a.material] + 0.1
        if t is A.TakeGold:
            return a.amount * val["gold"] + 0.05
        if t in (A.PlaceTile, A.Join):
            slot = tuple(a.slot)
            tile = box.tiles[a.tile if t is A.PlaceTile else s.lands[slot]["tile"]]
            # a raise this season is worth a season only if income is still to be taken
            worth = tile.amount * val[tile.raises] * self._seasons_left(s)
            cost = box.tile_price if t is A.PlaceTile else R.join_fee(s, slot)
            bonus = 1.5 if t is A.PlaceTile and slot in box.white_dotted else 0
            return worth - cost + bonus
        if t is A.VisitMarket:
            return max([0.0] + [self._trade(s, p, x) for x in self._trades(s, p)])
        if t is A.Trade:
            return self._trade(s, p, a)
        if t is A.RemoveTile:
            tile = box.tiles[a.tile]
            return tile.amount * val[tile.raises]
        if t is A.InnReturn:
            return 1 if s.season < box.seasons else -1
        return 0.0

    def scores(self, s, actions) -> list:
        """``[self.score(s, a) for a in actions]``, the same values, with what every
        action shares (the player, the seasons left, the Market's best trade) worked
        out once, and the takes' and placements' scores (which depend on the seasons left
        only) looked up (:func:`_fixed_scores`)."""
        box = s.config.box
        left = self._seasons_left(s)
        kept = self._fixed
        if kept is None or kept[0] is not box or kept[1] != left:  # the last box and seasons left asked: most often kept
            val = box.value
            kept = self._fixed = (box, left, _fixed_scores(box, left),
                                  {name: x.amount * val[x.raises] * left for name, x in box.tiles.items()})
        fixed = kept[2]
        out = list(map(fixed.get, map(id, actions)))
        if None not in out:
            return out
        p, val = s.current_player(), box.value
        more = left > 1
        hand = s.hand[p]
        market = self._market  # (box, third marked row, _market_values): the last asked, most often
        if market is None or market[0] is not box or market[1] != s.config.third_marked:
            market = self._market = (box, s.config.third_marked, _market_values(s))
        market = market[2]
        # a price depends on the uses of the marked rows only (and the tokens); asked at the Market and for a visit
        prices = (more, s.tokens[p], *map(s.uses.__getitem__, market[3])) if s.visit is not None or not s.visited[p] else None
        if s.visit is not None:  # at the Market: the trades' values depend only on this key
            key = (*prices, None, *map(id, actions))
            known = market[2].get(key)
            if known is not None:
                return list(known[1])
        for i in [i for i, v in enumerate(out) if v is None]:
            a = actions[i]
            t = type(a)
            if t is A.Join:  # the raise's worth over the seasons left (kept per tile) less the fee
                land = s.lands[a.slot if type(a.slot) is tuple else tuple(a.slot)]
                out[i] = kept[3][land["tile"]] - R.land_join_fee(box, land) + 0
            elif t is A.Trade:
                known = market[1].get(id(a))
                if known is None or known[0] is not a:
                    out[i] = self._trade_value(s, p, a.action, a.give, a.take, more, val)
                else:
                    _, got_more, got_last, given, marked = known
                    out[i] = (got_more if more else got_last) - given - (R.marked_price(s, p, a.action) if marked else 0)
            elif t is A.VisitMarket:
                # the best trade's value depends only on this key (the prices; the hand): kept. A new hand is
                # looked up again with each holding capped at what an option gives (the value depends on
                # nothing more, action_table(box).wanted; capping a capped hand changes nothing, so both
                # kinds of key share the table)
                memo = market[2]
                if prices is None:  # (a visit scored after this season's: not a legal move, valued alike)
                    prices = (more, s.tokens[p], *map(s.uses.__getitem__, market[3]))
                key = (*prices, *map(hand.__getitem__, box.resources))
                known = memo.get(key)
                if known is None:
                    if len(memo) >= _KEPT:
                        memo.clear()
                    wide = (*prices, *action_table(box).wanted(hand))
                    known = memo.get(wide)
                    if known is None:
                        known = memo[wide] = self._best_trade(s, p, market[0], hand, more)
                    memo[key] = known
                out[i] = known
            else:
                out[i] = self.score(s, a)
        if s.visit is not None:
            if len(market[2]) >= _KEPT:
                market[2].clear()
            market[2][key] = (tuple(actions), tuple(out))  # the actions kept alive: their ids in the key stay theirs
        return out

    @staticmethod
    def _best_trade(s, p, rows, hand, more) -> float:
        """The value of a Market visit (:meth:`score` of ``VisitMarket``): the best of 0 and
        the trades of ``rows`` (:func:`_market_values`) whose gives ``hand`` holds."""
        best = [0.0]
        for name, marked, row in rows:
            price = R.marked_price(s, p, name) if marked else 0
            for give, got_more, got_last, given in row:
                for r, n in give:
                    if hand[r] < n:
                        break
                else:
                    best.append((got_more if more else got_last) - given - price)
        return max(best)

    @staticmethod
    def _trade_value(s, p, action, give, take, more, val):
        """:meth:`_trade` of the trade ``(action, give, take)`` with ``more`` = a season remains after this one."""
        got = sum((1 if more else 0) * n if r == "workers" else val[r] * n for r, n in take)
        given = sum(val[r] * n for r, n in give)
        price = R.marked_price(s, p, action) if s.config.marked(action) else 0
        return got - given - price

    @staticmethod
    def _trades(s, p):
        out = []
        for name in s.config.box.market:
            for x in R.trades_for(s, p, name):
                if all(s.hand[p][r] >= n for r, n in x.give):
                    out.append(x)
        return out

    def _trade(self, s, p, a) -> float:
        val = s.config.box.value
        got = sum((1 if self._seasons_left(s) > 1 else 0) * n if r == "workers" else val[r] * n for r, n in a.take)
        given = sum(val[r] * n for r, n in a.give)
        price = R.marked_price(s, p, a.action) if s.config.marked(a.action) else 0
        return got - given - price


_MARKET_VALUES: dict = {}
_KEPT = 50_000  # Market visit values kept per box and config (then started afresh)
_FIXED: dict = {}


def _fixed_scores(box, left: int) -> dict:
    """``{id(action): score}`` for the interned takes, gold takes, placements, pass, leaving
    the Market and declining at the Inn of
    ``box`` (:func:`~haunted_kit.estate.actions.action_table`) with ``left`` seasons left:
    their :meth:`EstateGreedyAgent.score` depends on nothing else (made once per box and
    ``left``; the table keeps the actions, so their ids stay theirs)."""
    hit = _FIXED.get((id(box), left))
    if hit is not None and hit[0] is box:
        return hit[1]
    table, val, out = action_table(box), box.value, {}
    for m in box.factory_resources:
        for a in table.takes(m, R.income_bound(box, m) + box.first_taker_extra):
            out[id(a)] = a.amount * val[a.material] + 0.1
    for a in table.golds(R.income_bound(box, "gold")):
        out[id(a)] = a.amount * val["gold"] + 0.05
    for t, row in table.place.items():
        tile = box.tiles[t]
        worth = tile.amount * val[tile.raises] * left - box.tile_price
        for slot, a in row.items():
            out[id(a)] = worth + (1.5 if slot in box.white_dotted else 0)
    for a in (table.PASS, table.END_VISIT, table.INN_DECLINE):  # scored 0 whatever the position
        out[id(a)] = 0.0
    _FIXED[(id(box), left)] = (box, out)
    return out


def _market_values(s) -> tuple[list, dict, dict, tuple]:
    """The parts of :meth:`EstateGreedyAgent._trade` that depend on the box and the config
    only (made once per box and third marked action): per Market row of ``s``'s box
    ``(row, marked, [(give, got, got_in_last_season, given)...])``, per interned
    trade (by ``id``) ``(trade, got, got_in_last_season, given, marked)``, the Market
    visits' values found so far (by a season remains, the mover's tokens, the uses of each
    marked row and the mover's hand: all the value depends on; at most ``_KEPT``), and the
    marked rows' names."""
    key = (id(s.config.box), s.config.third_marked)
    hit = _MARKET_VALUES.get(key)
    if hit is not None and hit[0] is s.config.box:
        return hit[1]
    val = s.config.box.value

    def got(take, more):
        return sum((1 if more else 0) * n if r == "workers" else val[r] * n for r, n in take)

    rows, by_id = [], {}
    for name, trades in action_table(s.config.box).trades.items():
        marked = s.config.marked(name)
        parts = [(x, got(x.take, True), got(x.take, False), sum(val[r] * n for r, n in x.give)) for x in trades]
        rows.append((name, marked, [(x.give, *rest) for x, *rest in parts]))
        by_id.update({id(x): (x, *rest, marked) for x, *rest in parts})
    found = (rows, by_id, {}, tuple(name for name, marked, _ in rows if marked))
    _MARKET_VALUES[key] = (s.config.box, found)
    return found


AGENTS = {"random": RandomAgent, "greedy": EstateGreedyAgent}
