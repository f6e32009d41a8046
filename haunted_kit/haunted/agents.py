"""Bots that play Haunted Lands: a seeded random agent and a simple greedy agent.

An agent is any object with ``act(state) -> action`` returning one of
``state.legal_actions()``. Agents are seeded, so the same seed and the same game give
the same choices. :data:`AGENTS` names them for the Game's ``agents`` table, from which
:func:`haunted_kit.bots.make_bot` builds one by spec (the CLI's ``--agents``).
"""

from __future__ import annotations

import math

from . import actions as A
from .. import hexgrid
from . import rules as R
from ..protocol import OneStepGreedyAgent, RandomAgent  # noqa: F401  (RandomAgent plays any game through the protocol)
from .actions import Explore
from .state import CONSTRUCTION, CONTACT, EXPLORATION, EXTRACTION, State


class GreedyAgent(OneStepGreedyAgent):
    """Plays sensibly by scoring each legal action with a one-step heuristic:
    build > learn > contact > extract what buildings and skills need > train > sell
    surplus in the city > explore towards useful cells > end the turn. Sub-decisions:
    scarce resources, the quest that scores best now, the best bonus reward, ghosts
    next to rivals' buildings. Ties are broken by its seeded generator.

    Its :meth:`score` also gives the search agent's prior over moves
    (:meth:`~haunted_kit.protocol.OneStepGreedyAgent.prior`, temperature
    :attr:`prior_temperature` in score points)."""

    prior_temperature = 8.0

    def score(self, state: State, action) -> float:
        """The heuristic value of ``action`` for the player to move (higher is better;
        building scores 100 + its valor, ending the turn 0)."""
        return self.scores(state, (action,))[0]

    def scores(self, state: State, actions) -> list[float]:
        """:meth:`score` of each of ``actions`` (legal for the player to move), reading
        what every move's score shares (the player, the tables, the resources wanted,
        the tokens, the buildings next to each cell, the quest counts) once for the
        position. The hot path of greedy rollouts: the frequent moves (exploring,
        placing a ghost, ending the turn, extracting, choosing a quest) are valued in
        this loop, the others by :meth:`_score`."""
        pos = _Position(state)
        s = state
        index = s.field.index
        out = []
        append = out.append
        read = False  # the position's part of an exploring move's value, read on first use
        near = None  # pos.near_buildings(), read on first use
        for a in actions:
            t = a.__class__
            if t is Explore:
                if not read:  # the cells' tables, the player's tokens and exploration costs
                    ctx, p = pos.ctx, pos.p
                    ghosts, building, depleted = s.ghosts, s.building, s.depleted
                    extract_here, build_here, can_sell, can_train = ctx.extract_here, ctx.build_here, ctx.can_sell, ctx.can_train
                    active, at = s.act, ctx.token_at[p]
                    have, extraction, construction = active[at[EXPLORATION]], active[at[EXTRACTION]], active[at[CONSTRUCTION]]
                    contact_ok = active[at[CONTACT]] >= R.contact_cost(s, ctx)
                    # selling or training would pay: 4+ resources or 5+ pecunias
                    trades = sum(s.res[ctx.resource_span[p]]) >= 4 or s.pec[p] >= 5
                    # math.inf where a cell cannot be explored (never a legal move): cost 0 here
                    costs, ghost_costs = ctx.entry_costs(s.learned[p])
                    read = True
                c = index[a.cell]
                v = 0
                ghost, free = ghosts[c], building[c] < 0
                cost = (ghost_costs if ghost else costs)[c]
                if cost == _INF:
                    cost = 0
                if ghost and contact_ok:
                    v += 8
                if free and extraction and not depleted[c] and extract_here[c]:
                    need = pos.need()
                    v += 4 + max([need[r] for r in extract_here[c]])
                if free and construction and not ghost and build_here[c]:
                    v += 3
                if trades and (can_sell[c] or can_train[c]):
                    v += 6
                # 10 + the cell's value less its cost, plus half the tokens left (whole or
                # half numbers: exact in any order)
                append(10 + (v - cost + 0.5 * (have - cost)))
            elif t is A.PlaceGhost:
                # next to rivals' buildings (+1 each), away from the player's own (-2 each),
                # far from Kalena (-0.1 per step from its centre)
                if near is None:
                    near = pos.near_buildings()
                append(near.get(index[a.cell], 0) - _TENTH_FROM_CENTRE[a.cell])
            elif t is A.EndTurn:
                append(0)
            elif t is A.Extract:
                append(40 + pos.need()[pos.ctx.ri[a.resource]])
            elif t is A.ChooseQuest:  # the valor it would score now, a tenth of its valor per fulfilment
                append(pos.quests().score(a.quest)[0] + pos.ctx.box.quests[a.quest].valor / 10)
            else:
                append(self._score(pos, a))
        return out

    # ------------------------------------------------------------------ heuristics
    def _score(self, pos: "_Position", a) -> float:
        """The value of a move other than those :meth:`scores` values itself."""
        s, ctx = pos.s, pos.ctx
        t = a.__class__
        if t is A.Sell:
            counts = R.counts_of(ctx, [ctx.ri[x] for x in a.payment])
            need = pos.need()
            surplus = sum(k for r, k in enumerate(counts) if need[r] < 0)
            if surplus < len(a.payment):
                return -1
            return 25 + ctx.box.market_cards[s.market][a.option - 1].pecunias
        if t is A.Train:
            return _TRAIN_VALUE[ctx.ti[a.track]]
        if t is A.Build:
            return 100 + ctx.buildings[ctx.bi[a.building]].valor
        if t is A.Learn:
            j = R.free_slot(s, ctx, a.skill)
            return 80 + (ctx.box.skill_slot_valor[j] if j is not None else 0)
        if t is A.Contact:
            return 70
        if t is A.ChooseResource:
            return pos.need()[ctx.ri[a.resource]]
        if t is A.ChooseBonus:
            r = ctx.box.bonus_cards[s.season].rewards[ctx.box.bonus_die.index(a.face)]
            return 3 * r.valor + r.pecunias + 2 * r.resources
        if t is A.RollBonus:
            rewards = ctx.box.bonus_cards[s.season].rewards
            return sum(3 * r.valor + r.pecunias + 2 * r.resources for r in rewards) / len(rewards)
        if t is A.RestoreToken:
            return _RESTORE_VALUE[ctx.ti[a.track]]
        return 0


_INF = math.inf
#: most memoised greedy need lists kept per box (skills in play, learned, held): then it starts afresh
_NEED_MEMO = 20_000
#: a training move's value by track index, and a restored token's
_TRAIN_VALUE = {CONSTRUCTION: 45, EXTRACTION: 44, CONTACT: 30, EXPLORATION: 20}
_RESTORE_VALUE = {CONSTRUCTION: 4, EXTRACTION: 3, CONTACT: 2, EXPLORATION: 1}


class _TenthFromCentre(dict):
    """Axial cell -> a tenth of its hex distance from Kalena's centre, worked out on first
    use (a board has few cells; the same float as ``0.1 * distance``)."""

    def __missing__(self, cell) -> float:
        v = self[cell] = 0.1 * hexgrid.distance(cell, (0, 0))
        return v


_TENTH_FROM_CENTRE = _TenthFromCentre()


class _Position:
    """What the greedy scores of one position share, read once: the state ``s``, its
    tables ``ctx``, the player ``p`` to move; on first use :meth:`need` (how much each
    resource is wanted), :meth:`near_buildings` (what the buildings next to each cell
    are worth to a ghost placed there) and :meth:`quests` (the position's quest scores,
    :class:`rules.QuestScores`)."""

    __slots__ = ("s", "ctx", "p", "_need", "_quests")

    def __init__(self, s: State):
        self.s, self.ctx, self.p = s, R.ctx_of(s), s.current_player()
        self._need = self._quests = None

    def need(self) -> list[int]:
        """How much each resource is wanted: building and learning costs not yet covered
        (1 + the buildings and unknown skills asking for it, less twice the tokens held).
        Read only (the list may be shared)."""
        need = self._need
        if need is None:
            s, ctx, p = self.s, self.ctx, self.p
            learned = s.learned[p]
            held = s.res[ctx.resource_span[p]]
            # a function of the box and these numbers only: memoised in the Ctx's box-level memo
            key = (learned, *s.skills, *held)
            table = ctx.memo.get("greedy need")
            if table is None:
                table = ctx.memo["greedy need"] = {}
            need = table.get(key)
            if need is None:
                want = [1] * ctx.R
                for b in ctx.building_cost:
                    for r in b:
                        want[r] += 1
                for k in s.skills:
                    if not learned >> k & 1:  # a skill in play not learned yet
                        for r in ctx.skill_cost[k]:
                            want[r] += 1
                if len(table) >= _NEED_MEMO:  # a steady size over many games
                    table.clear()
                need = table[key] = [w - 2 * h for w, h in zip(want, held)]
            self._need = need
        return need

    def near_buildings(self) -> dict[int, int]:
        """Cell index -> rivals' buildings next to it less twice the player's own
        (cells next to no building are left out)."""
        s, p, neighbours = self.s, self.p, self.ctx.neighbours
        owner = s.owner
        near: dict[int, int] = {}
        get = near.get
        for c, b in enumerate(s.building):
            if b >= 0:
                w = -2 if owner[c] == p else 1
                for n in neighbours[c]:
                    near[n] = get(n, 0) + w
        return near

    def quests(self) -> "R.QuestScores":
        """The position's quest scores for the player (:class:`rules.QuestScores`)."""
        if self._quests is None:
            self._quests = R.QuestScores(self.s, self.ctx, self.p)
        return self._quests


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}
