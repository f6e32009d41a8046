"""Bots that play Haunted Lands: a seeded random agent and a simple greedy agent.

An agent is any object with ``act(state) -> action`` returning one of
``state.legal_actions()``. Agents are seeded, so the same seed and the same game give
the same choices. :data:`AGENTS` names them for the Game's ``agents`` table, from which
:func:`haunted_kit.bots.make_bot` builds one by spec (the CLI's ``--agents``).
"""

from __future__ import annotations

import math
from functools import lru_cache

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
        return self._score(_Position(state), action)

    def scores(self, state: State, actions) -> list[float]:
        """:meth:`score` of each of ``actions`` (legal for the player to move), reading
        what every move's score shares (the player, the tables, the resources wanted,
        the tokens) once for the position."""
        pos = _Position(state)
        if actions and actions[0].__class__ is A.PlaceGhost and all(a.__class__ is A.PlaceGhost for a in actions):
            # a spread: every move places a ghost
            return self._ghost_values(pos, actions)
        score = self._score
        # exploring is the most frequent move: the cells' values are worked out in one loop
        cells = [pos.s.field.index[a.cell] for a in actions if a.__class__ is Explore]
        if not cells:
            return [score(pos, a) for a in actions]
        values = iter(self._cell_values(pos, cells))
        return [10 + next(values) if a.__class__ is Explore else score(pos, a) for a in actions]

    # ------------------------------------------------------------------ heuristics
    def _score(self, pos: "_Position", a) -> float:
        s, ctx, p = pos.s, pos.ctx, pos.p
        t = type(a)
        if t is Explore:
            return 10 + self._cell_values(pos, [s.field.index[a.cell]])[0]
        if t is A.EndTurn:
            return 0
        if t is A.PlaceGhost:
            return self._ghost_values(pos, [a])[0]
        if t is A.Extract:
            return 40 + pos.need()[ctx.ri[a.resource]]
        if t is A.Sell:
            counts = R.counts_of(ctx, [ctx.ri[x] for x in a.payment])
            need = pos.need()
            surplus = sum(k for r, k in enumerate(counts) if need[r] < 0)
            if surplus < len(a.payment):
                return -1
            return 25 + ctx.box.market_cards[s.market][a.option - 1].pecunias
        if t is A.Train:
            ti = ctx.ti[a.track]
            return {CONSTRUCTION: 45, EXTRACTION: 44, CONTACT: 30, EXPLORATION: 20}[ti]
        if t is A.Build:
            return 100 + ctx.buildings[ctx.bi[a.building]].valor
        if t is A.Learn:
            j = R.free_slot(s, ctx, a.skill)
            return 80 + (ctx.box.skill_slot_valor[j] if j is not None else 0)
        if t is A.Contact:
            return 70
        if t is A.ChooseResource:
            return pos.need()[ctx.ri[a.resource]]
        if t is A.ChooseQuest:
            return R.quest_score(s, ctx, p, a.quest)[0] + ctx.box.quests[a.quest].valor / 10
        if t is A.ChooseBonus:
            r = ctx.box.bonus_cards[s.season].rewards[ctx.box.bonus_die.index(a.face)]
            return 3 * r.valor + r.pecunias + 2 * r.resources
        if t is A.RollBonus:
            rewards = ctx.box.bonus_cards[s.season].rewards
            return sum(3 * r.valor + r.pecunias + 2 * r.resources for r in rewards) / len(rewards)
        if t is A.RestoreToken:
            return {CONSTRUCTION: 4, EXTRACTION: 3, CONTACT: 2, EXPLORATION: 1}[ctx.ti[a.track]]
        return 0

    def _ghost_values(self, pos: "_Position", actions) -> list[float]:
        """How good placing a ghost with each of ``actions`` (:class:`~haunted_kit.haunted.actions.PlaceGhost`)
        is for the player to move: next to rivals' buildings, away from their own, far from Kalena."""
        s, ctx, p = pos.s, pos.ctx, pos.p
        building, owner, index, neighbours = s.building, s.owner, s.field.index, ctx.neighbours
        out = []
        for a in actions:
            near = [owner[n] for n in neighbours[index[a.cell]] if building[n] >= 0]
            if near:
                out.append(sum(1 for o in near if o != p) - 2 * sum(1 for o in near if o == p) - 0.1 * _from_centre(a.cell))
            else:  # the same value, without counting
                out.append(0 - 0.1 * _from_centre(a.cell))
        return out

    def _cell_values(self, pos: "_Position", cells) -> list[float]:
        """How good exploring to each of ``cells`` (cell indexes) is for the player to move."""
        s, ctx = pos.s, pos.ctx
        pos.read_tokens()
        ghosts, building, depleted = s.ghosts, s.building, s.depleted
        extract_here, build_here, can_sell, can_train = ctx.extract_here, ctx.build_here, ctx.can_sell, ctx.can_train
        explore, contact_ok, extraction, construction, trades = pos.explore, pos.contact_ok, pos.extraction, pos.construction, pos.trades
        costs, ghost_costs = pos.cost, pos.ghost_cost
        need = None
        out = []
        for c in cells:
            v = 0.0
            ghost, free = ghosts[c], building[c] < 0
            cost = (ghost_costs if ghost else costs)[c]
            if cost == math.inf:  # not explorable (never a legal move): explore_cost's None
                cost = 0
            left = explore - cost
            if ghost and contact_ok:
                v += 8
            if free and not depleted[c] and extract_here[c] and extraction:
                if need is None:
                    need = pos.need()
                v += 4 + max(need[r] for r in extract_here[c])
            if free and not ghost and build_here[c] and construction:
                v += 3
            if (can_sell[c] or can_train[c]) and trades:
                v += 6
            out.append(v - cost + 0.5 * left)
        return out


@lru_cache(maxsize=None)
def _from_centre(cell) -> int:
    """Hex distance of ``cell`` (axial) from Kalena's centre (memoised: a board has few cells)."""
    return hexgrid.distance(cell, (0, 0))


class _Position:
    """What the greedy scores of one position share, read once: the state ``s``, its
    tables ``ctx``, the player ``p`` to move; on first use :meth:`need` (how much each
    resource is wanted) and, by :meth:`read_tokens`, the active tokens, exploration
    costs (:meth:`rules.Ctx.entry_costs`, ``math.inf`` where a cell cannot be explored)
    and whether selling or training would pay (4+ resources or 5+ pecunias)."""

    __slots__ = ("s", "ctx", "p", "_need", "explore", "contact_ok", "extraction", "construction", "trades",
                 "cost", "ghost_cost")

    def __init__(self, s: State):
        self.s, self.ctx, self.p = s, R.ctx_of(s), s.current_player()
        self._need = None

    def need(self) -> list[int]:
        """How much each resource is wanted: building and learning costs not yet covered."""
        if self._need is None:
            s, ctx, p = self.s, self.ctx, self.p
            unknown = tuple(k for k in s.skills if not s.knows_skill(p, k))
            want = ctx.memo.get(("greedy wants", unknown))
            if want is None:
                want = [1] * ctx.R
                for b in ctx.building_cost:
                    for r in b:
                        want[r] += 1
                for k in unknown:
                    for r in ctx.skill_cost[k]:
                        want[r] += 1
                ctx.memo["greedy wants", unknown] = want
            have = s.resource_counts(p)
            self._need = [w - 2 * h for w, h in zip(want, have)]
        return self._need

    def read_tokens(self) -> None:
        s, ctx, p = self.s, self.ctx, self.p
        active, at = s.act, ctx.token_at[p]
        self.explore = active[at[EXPLORATION]]
        self.contact_ok = active[at[CONTACT]] >= R.contact_cost(s, ctx)
        self.extraction = active[at[EXTRACTION]]
        self.construction = active[at[CONSTRUCTION]]
        self.trades = sum(s.res[ctx.resource_span[p]]) >= 4 or s.pec[p] >= 5
        self.cost, self.ghost_cost = ctx.entry_costs(s.learned[p])


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}
