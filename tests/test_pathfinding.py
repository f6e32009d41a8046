"""Exploration analysis (haunted_kit.haunted.pathfinding): exact costs and routes, reach,
turns, tables, teaching traces, plan-to-play, and bad input.

Exact values are worked out by hand from the tile table of box-defaults.md. The fixed
field is layout R01..R06 (the scenario default); the cells used here:

    Kalena: (0,0) city; ring (1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1) suburbs   -> 1 token each
    R01 (centre (2,1)): (2,1) LAKE, (3,1) P, (3,0) P, (2,0) F, (1,1) F, (1,2) M, (2,2) P
    R02 (centre (3,-2)): (3,-2) P, (4,-2) LAKE, (4,-3) F, (3,-3) F, (2,-2) M, (2,-1) P, (3,-1) P
    costs: plain 1, forest 2, mountain 3 (skill 4: forest 1; skill 5: mountain 2),
    ghost card 3: +1 on a cell with a ghost; lakes cannot be entered.

Cell indexes (tie-break): Kalena 0..6 in the order centre, E, NE, NW, W, SW, SE, then
each region slot's 7 cells in the same order: (1,0)=1, (1,-1)=2, (2,0)=10,
(3,-2)=14, (3,-3)=17, (2,-2)=18, (2,-1)=19, (3,-1)=20.
"""

from __future__ import annotations

import heapq
import math
import os
import random
import subprocess
import sys

import networkx as nx
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import haunted_kit as hk
from haunted_kit import hexgrid
from haunted_kit.haunted import pathfinding as pf
from haunted_kit.haunted import rules
from haunted_kit.haunted.scenario import learn, place, scenario, set_tokens

L = ("R01", "R02", "R03", "R04", "R05", "R06")


@pytest.fixture
def s():
    """Two players, wanderer (ghost card 1), clean field, P1 to move in the city with 4 tokens."""
    return scenario(players=2)


def patch(costs: dict, order=None) -> pf.CostMap:
    """A small hand-built field: the given axial cells, adjacent when hex neighbours;
    ``costs`` maps cell -> entry cost (None = lake)."""
    g = nx.Graph()
    for c in costs:
        g.add_node(c, terrain="lake" if costs[c] is None else "")
    for c in costs:
        for n in hexgrid.neighbours(c):
            if n in costs:
                g.add_edge(c, n)
    return pf.CostMap(g, costs, order)


# ============================================================================ 1. the one cost rule


def test_entry_costs_come_from_the_rule_on_every_cell(s):
    m = pf.cost_map(s, 0)
    ctx = rules.ctx_of(s)
    for i in range(49):
        assert m.entry[i] == rules.entry_cost(ctx, i, s.learned[0], bool(s.ghosts[i])) == rules.explore_cost(s, 0, i)
    # by hand: city/suburb 1, plain 1, forest 2, mountain 3, lake None
    assert [pf.entry_cost_of(s, 0, c) for c in [(0, 0), (1, 0), (3, 1), (2, 0), (1, 2), (2, 1)]] == [1, 1, 1, 2, 3, None]


@pytest.mark.parametrize("mode, extra, surcharge", [
    ("wanderer", (), 0), ("builder", (), 0), ("citizen", (), 1), ("wanderer", (2,), 0),
    ("wanderer", (3,), 1), ("builder", (3,), 1), ("wanderer", (2, 3), 1), ("citizen", (1, 2), 1),
])
@pytest.mark.parametrize("skills", [(), (4,), (5,), (4, 5)])
def test_every_combination_of_ghost_cards_and_skills(mode, extra, surcharge, skills):
    s = scenario(players=2, mode=mode, extra_ghost_cards=extra, skills=(1, 4, 7, 10), ghosts=[(2, 0), (1, 2), (3, 1)])
    s.set_skills_known(0, skills)  # what the rule reads (skill 5 need not be in play here)
    m = pf.cost_map(s, 0)
    forest = 2 - (4 in skills)
    mountain = 3 - (5 in skills)
    assert m.entry_cost((2, 0)) == forest + surcharge      # forest with a ghost
    assert m.entry_cost((1, 1)) == forest                  # forest without
    assert m.entry_cost((1, 2)) == mountain + surcharge    # mountain with a ghost
    assert m.entry_cost((2, -2)) == mountain
    assert m.entry_cost((3, 1)) == 1 + surcharge           # plain with a ghost
    assert m.entry_cost((2, 1)) is None                    # lake


def test_engine_legality_and_analysis_share_the_rule(s, monkeypatch):
    """Swap the one rule for a house rule: the engine and the analysis both follow."""
    original = rules.entry_cost

    def house_rule(ctx, cell, learned, ghost):
        c = original(ctx, cell, learned, ghost)
        return 9 if c is not None and ctx.is_forest[cell] else c

    place(s, 0, (1, 0))
    monkeypatch.setattr(rules, "entry_cost", house_rule)
    s._legal = None
    assert pf.entry_cost_of(s, 0, (2, 0)) == 9
    assert pf.cost_map(s, 0).entry_cost((2, 0)) == 9
    assert s.why_not(hk.Explore((2, 0))) is not None  # 9 > 4 active tokens
    assert hk.Explore((2, -1)) in s.legal_actions()


def test_explore_legality_matches_the_cost_map_from_every_cell():
    for mode in ("wanderer", "citizen"):
        st = scenario(players=2, mode=mode, ghosts=[(2, -1), (2, 0)])
        for i in range(49):
            if st.field.terrain[i] == "lake":
                continue
            place(st, 0, st.field.cells[i])
            m = pf.cost_map(st, 0)
            for j in st.field.neighbours[i]:
                c = st.field.cells[j]
                legal = st.why_not(hk.Explore(c)) is None
                assert legal == (m.entry[j] is not None and m.entry[j] <= 4), (mode, st.field.cells[i], c)


# ============================================================================ 2. cheapest paths


def test_cheapest_route_avoids_the_mountain_of_the_fewest_hops_route(s):
    # fewest hops to (3,-3): NE, NE, NE = (1,-1) 1 + (2,-2) mountain 3 + (3,-3) forest 2 = 6 tokens
    hops = nx.shortest_path(s.field.graph, (0, 0), (3, -3))
    assert hops == [(0, 0), (1, -1), (2, -2), (3, -3)]
    # cheapest: (1,0) 1 + (2,-1) plain 1 + (3,-2) plain 1 + (3,-3) forest 2 = 5 tokens, 4 steps;
    # (1,-1) instead of (1,0) costs the same, but index 2 > 1 (tie-break)
    r = pf.cheapest_path(s, 0, (3, -3))
    assert r.cells == ((0, 0), (1, 0), (2, -1), (3, -2), (3, -3))
    assert (r.cost, r.steps, r.step_costs) == (5, 4, (1, 1, 1, 2))
    assert r.found and r.reason == "" and r.player == 0


def test_equal_cost_tie_goes_to_fewest_steps(s):
    # (0,0) -> (3,1): the only 4-step route (1,0),(2,0)F,(3,0),(3,1) costs 1+2+1+1 = 5;
    # the all-plain 5-step route (1,0),(2,-1),(3,-1),(3,0),(3,1) also costs 5
    r = pf.cheapest_path(s, 0, (3, 1))
    assert r.cells == ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)) and r.cost == 5


def test_lake_detour(s):
    # (1,1) -> (3,1): the only 2-step route crosses the lake (2,1); detour via (2,0) F 2, (3,0) 1, (3,1) 1
    r = pf.cheapest_path(s, 0, (3, 1), source=(1, 1))
    assert r.cells == ((1, 1), (2, 0), (3, 0), (3, 1)) and r.cost == 4


def test_skill_5_makes_the_fewest_hops_route_best(s):
    s.set_skills_known(0, s.skills_known(0) + [5])  # mountain 2: (1,-1) 1 + (2,-2) 2 + (3,-3) 2 = 5, the same cost in 3 steps
    r = pf.cheapest_path(s, 0, (3, -3))
    assert r.cells == ((0, 0), (1, -1), (2, -2), (3, -3)) and r.cost == 5


def test_skill_4_turns_a_tie_into_the_forest_route(s):
    # without skill 4, (0,0) -> (3,-1): (1,0), (2,-1) P, (3,-1) P = 3; via (2,0) forest = 4
    assert pf.cheapest_path(s, 0, (3, -1)).cells == ((0, 0), (1, 0), (2, -1), (3, -1))
    learn(s, 0, 4)  # forest 1: both cost 3 in 3 steps; index 10 (2,0) < 19 (2,-1)
    r = pf.cheapest_path(s, 0, (3, -1))
    assert r.cells == ((0, 0), (1, 0), (2, 0), (3, -1)) and r.cost == 3
    # and skill 4 makes (1,2) cheaper: (1,0), (1,1) forest 1, (1,2) mountain 3 = 5
    assert pf.cheapest_path(s, 0, (1, 2)).cells == ((0, 0), (1, 0), (1, 1), (1, 2))


def test_ghost_card_3_changes_the_answer():
    # a ghost on (3,-2): with ghost card 3 the plain route costs 1+1+2+2 = 6, as does the
    # 3-step mountain route (1,-1),(2,-2),(3,-3) -> fewest steps wins
    citizen = scenario(players=2, mode="citizen", ghosts=[(3, -2)])
    r = pf.cheapest_path(citizen, 0, (3, -3))
    assert r.cells == ((0, 0), (1, -1), (2, -2), (3, -3)) and r.cost == 6
    wanderer = scenario(players=2, mode="wanderer", ghosts=[(3, -2)])  # the ghost costs nothing extra
    assert pf.cheapest_path(wanderer, 0, (3, -3)).cost == 5
    # the what-if copy agrees with a real game of each kind
    assert pf.cheapest_path(pf.what_if(wanderer, 0, ghost_card_3=True), 0, (3, -3)) == r
    assert pf.cheapest_path(pf.what_if(citizen, 0, ghost_card_3=False), 0, (3, -3)).cost == 5


def test_same_inputs_same_route_every_run_and_process(s):
    a = pf.cheapest_path(s, 0, (3, -3))
    pf.clear_cache()
    assert pf.cheapest_path(s, 0, (3, -3)) == a
    code = ("from haunted_kit.haunted.scenario import scenario; from haunted_kit.haunted import pathfinding as pf; "
            "s = scenario(players=2); print(pf.cheapest_path(s, 0, (-1, 4)).cells, pf.cheapest_path(s, 0, (3, -3)).cells)")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout for h in (1, 2)}
    assert len(outs) == 1


def _oracle(m: pf.CostMap, s: int):
    """Brute-force reference for the tie-break: Dijkstra on labels (cost, steps, path)."""
    best = {}
    heap = [(0, 0, (s,))]
    while heap:
        c, k, path = heapq.heappop(heap)
        u = path[-1]
        if u in best:
            continue
        best[u] = (c, path)
        for v in m._succ[u]:
            if v not in best:
                heapq.heappush(heap, (c + m.entry[v], k + 1, path + (v,)))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tie_break_matches_a_brute_force_reference(seed):
    rng = random.Random(seed)
    st = pf.first_turn_state(seed, players=2, mode="citizen")
    st.set_skills_known(0, rng.choice([[], [4], [5], [4, 5]]))
    m = pf.cost_map(st, 0)
    for src in range(49):
        if m.entry[src] is None:
            continue
        ref = _oracle(m, src)
        for dst in range(49):
            r = m.route(src, dst)
            if dst in ref:
                assert r.cost == ref[dst][0]
                assert r.cells == tuple(m.cells[i] for i in ref[dst][1])
            else:
                assert not r.found and r.cost == math.inf


# ============================================================================ small hand-built fields


def test_hand_built_detour_and_tie():
    # bottom row (0,0) (1,0)* (2,0); top row (1,-1) (2,-1); everything costs 1 except (1,0)
    top = {(0, 0): 1, (1, 0): 3, (2, 0): 1, (1, -1): 1, (2, -1): 1}
    m = patch(top)
    # fewest hops (0,0),(1,0),(2,0) = 3 + 1 = 4; over the top (1,-1),(2,-1),(2,0) = 3
    assert m.route((0, 0), (2, 0)).cells == ((0, 0), (1, -1), (2, -1), (2, 0))
    m2 = patch({**top, (1, 0): 2})  # 2-step route now costs 3 too: fewest steps wins
    assert m2.route((0, 0), (2, 0)).cells == ((0, 0), (1, 0), (2, 0))


def test_hand_built_lexicographic_tie_break_follows_cell_order():
    diamond = {(0, 0): 1, (1, 0): 1, (0, 1): 1, (1, 1): 1}
    # default order is sorted axial: (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3 -> via (0,1)
    assert patch(diamond).route((0, 0), (1, 1)).cells == ((0, 0), (0, 1), (1, 1))
    order = [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert patch(diamond, order).route((0, 0), (1, 1)).cells == ((0, 0), (1, 0), (1, 1))


def test_hand_built_lake_cuts_off():
    m = patch({(0, 0): 1, (1, 0): None, (2, 0): 1})
    r = m.route((0, 0), (2, 0))
    assert not r.found and r.cost == math.inf and r.cells == () and r.steps is None
    assert "lake" in r.reason
    assert m.costs_from((0, 0)) == {(0, 0): 0, (1, 0): math.inf, (2, 0): math.inf}
    assert m.turn_plan((0, 0), (2, 0), 4, 4).turns == math.inf
    t = m.table((0, 0))
    assert t["cost"].isna().tolist() == [False, True, True]
    assert "cannot be explored" in m.route((0, 0), (1, 0)).reason


def test_hand_built_turns_waste_leftover_tokens():
    line = {(0, 0): 1, (1, 0): 3, (2, 0): 2, (3, 0): 3, (4, 0): 5}
    m = patch(line)
    # 4 tokens a turn: 3 | 2 | 3 -> 3 turns although 8 tokens would fit in 2 turns of 4
    p = m.turn_plan((0, 0), (3, 0), 4, 4)
    assert p.turns == 3 and p.legs == (((1, 0),), ((2, 0),), ((3, 0),)) and p.leg_costs == (3, 2, 3)
    # only 1 active token now: nothing can be paid this turn
    p = m.turn_plan((0, 0), (3, 0), 1, 4)
    assert p.turns == 4 and p.legs[0] == () and p.leg_costs == (0, 3, 2, 3)
    # 5 tokens a turn: 3 | 2+3 -> 2 turns; (4,0) costs 5 > 4 so never with 4
    assert m.turn_plan((0, 0), (3, 0), 5, 5).turns == 2
    assert m.turn_plan((0, 0), (4, 0), 4, 4).turns == math.inf
    assert m.turns_from((0, 0), 4, 4) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 3, (4, 0): math.inf}


# ============================================================================ 3. reach and turns


def test_reach_with_active_tokens_and_with_n_tokens(s):
    # 2 tokens: city + 6 suburbs + the plains next to the ring (2,-1), (0,2), (-2,2)
    two = pf.reach(s, 0, 2)
    assert len(two) == 10 and {c for c, d in two.items() if d == 2} == {(2, -1), (0, 2), (-2, 2)}
    # 3 tokens: + forests next to the ring (2,0), (1,1), (1,-2), (-2,0)
    #           + plains behind those plains (3,-1), (3,-2), (0,3), (-3,2), (-3,3)
    assert len(pf.reach(s, 0, 3)) == 19
    # 4 tokens (the active ones): + 5 mountains next to the ring + (3,0), (-3,0), (-1,3), (-2,3)
    now = pf.reach(s, 0)
    assert len(now) == 28 and now[(0, 0)] == 0 and list(now.values()) == sorted(now.values())
    set_tokens(s, 0, "exploration", active=1)
    assert len(pf.reach(s, 0)) == 7


def test_turns_needed(s):
    assert pf.turns_needed(s, 0, (0, 0)) == 0
    assert pf.turns_needed(s, 0, (2, -2)) == 1                  # 1 + 3 = 4 tokens
    plan = pf.turn_plan(s, 0, (3, -3))                          # 5 tokens > 4
    assert plan.turns == 2 and sum(plan.leg_costs) >= 5 and all(c <= 4 for c in plan.leg_costs)
    assert plan.cells[0] == (0, 0) and plan.cells[-1] == (3, -3)
    assert pf.turns_needed(s, 0, (2, 1)) == math.inf            # a lake
    set_tokens(s, 0, "exploration", active=0)                   # all spent: wait for rest
    assert pf.turns_needed(s, 0, (1, 0)) == 2
    assert pf.turns_needed(s, 0, (1, 0), first_budget=1) == 1


# ============================================================================ 4. tables


def test_cost_table(s):
    t = pf.cost_table(s, 0)
    assert t.shape[0] == 49 and t.index.names == ["q", "r"]
    assert t.loc[(3, -3), "cost"] == 5 and t.loc[(3, -3), "steps"] == 4 and t.loc[(3, -3), "previous"] == (3, -2)
    assert t.loc[(3, -3), "turns"] == 2
    assert pd.isna(t.loc[(2, 1), "cost"]) and pd.isna(t.loc[(2, 1), "entry"])
    assert str(t["cost"].dtype) == "Int64"
    assert t.attrs["source"] == (0, 0)


def test_all_pairs_table(s):
    a = pf.all_pairs_table(s, 0)
    assert a.shape == (49, 49)
    # not symmetric: a step costs what the cell entered costs. Out 1+1+1+2 = 5 (ends on
    # the forest); back (3,-2) 1, (2,-1) 1, (1,0) 1, city 1 = 4 (starts on it)
    assert a.loc[(0, 0), (3, -3)] == 5 and a.loc[(3, -3), (0, 0)] == 4
    # (1,1) -> (3,1): (2,0) 2 + (3,0) 1 + (3,1) 1 = 4; back: (3,0) 1 + (2,0) 2 + (1,1) 2 = 5
    assert a.loc[(1, 1), (3, 1)] == 4 and a.loc[(3, 1), (1, 1)] == 5
    assert pd.isna(a.loc[(0, 0), (2, 1)]) and a.loc[(2, 1), (2, 1)] == 0 and pd.isna(a.loc[(2, 1), (0, 0)])
    for i, c in enumerate(s.field.cells):
        assert a.loc[c].tolist() == pf.cost_table(s, 0, source=c)["cost"].tolist()


def test_terrain_table(s):
    t = pf.terrain_table(s, 0)
    assert t["tokens"].drop("lake").to_dict() == {"city": 0, "suburb": 1, "plain": 2, "forest": 3, "mountain": 4}
    assert t.loc["lake", "tokens"] is pd.NA and t.loc["lake", "cell"] is None  # lakes are never entered
    # nearest of equal cost: the lowest index: plain (2,-1)=19, forest (2,0)=10, mountain (2,-2)=18
    assert t.loc["plain", "cell"] == (2, -1) and t.loc["forest", "cell"] == (2, 0) and t.loc["mountain", "cell"] == (2, -2)
    assert t.loc["mountain", "route"] == "(0, 0) -> (1, -1) -> (2, -2)"


def test_compare_rules_same_map():
    st = scenario(players=2, mode="wanderer", ghosts=[(2, -1), (2, 0)])
    c = pf.compare_rules(st, 0)
    assert len(c) == 8
    base, card3 = c.loc[("none", False)], c.loc[("none", True)]
    # nearest plain: (2,-1) has a ghost -> 3 with card 3, but (0,2) still costs 2
    assert (base["to plain"], base["to forest"], base["to mountain"]) == (2, 3, 4)
    assert card3["to plain"] == 2 and card3["to forest"] == 3  # (1,1) forest, no ghost, is also 3
    assert c.loc[("4", False), "to forest"] == 2 and c.loc[("5", False), "to mountain"] == 3
    assert c.loc[("4+5", False), "cells within 4"] > base["cells within 4"] >= card3["cells within 4"]
    # the original state is untouched
    assert st.config.ghost_cards == (1,) and st.skills_known(0) == []


def test_seeded_maps_distribution():
    d = pf.seeded_maps(4)
    assert len(d) == 4 * 8 and d["seed"].nunique() == 4
    assert list(d["skills"].cat.categories) == ["none", "4", "5", "4+5"]
    again = pf.seeded_maps(4)
    pd.testing.assert_frame_equal(d, again)


# ============================================================================ 5. teaching traces


@pytest.mark.parametrize("mode", ["wanderer", "citizen"])
def test_traces_reach_the_networkx_cost(mode):
    st = scenario(players=2, mode=mode, ghosts=[(2, -1), (3, -2), (2, 0)])
    m = pf.cost_map(st, 0)
    costs = nx.single_source_dijkstra_path_length(m.digraph, (0, 0))
    for c in st.field.cells:
        d = list(pf.dijkstra_trace(st, 0, target=c))
        a = list(pf.astar_trace(st, 0, c))
        want = costs.get(c, math.inf)
        assert d[-1].done and a[-1].done
        assert d[-1].cost == a[-1].cost == want == pf.cheapest_path(st, 0, c).cost
        assert len(a[-1].settled) <= len(d[-1].settled)
        if want != math.inf:
            r = d[-1].route_to(c)
            assert r[0] == (0, 0) and r[-1] == c and sum(m.entry_cost(x) for x in r[1:]) == want


def test_trace_steps_show_the_search(s):
    steps = list(pf.dijkstra_trace(s, 0, target=(3, -3)))
    first = steps[0]
    assert first.number == 0 and first.current is None and first.frontier == (((0, 0), 0),) and first.settled == ()
    assert [x.number for x in steps] == list(range(len(steps)))
    settled_costs = [steps[-1].best[c] for c in steps[-1].settled]
    assert settled_costs == sorted(settled_costs)  # Dijkstra settles in order of cost
    assert steps[1].current == (0, 0) and {c for c, _ in steps[1].frontier} == {
        (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    assert not any(x.done for x in steps[:-1]) and steps[-1].current == (3, -3)
    full = list(pf.dijkstra_trace(s, 0))  # no target: settles every reachable cell
    assert len(full[-1].settled) == 49 - 6 and full[-1].cost is None
    astar = list(pf.astar_trace(s, 0, (3, -3)))
    assert astar[0].frontier == (((0, 0), 3),)  # h = hex distance 3 x cheapest entry 1


# ============================================================================ 6. plan to play


def test_path_to_actions(s):
    r = pf.cheapest_path(s, 0, (3, -1))
    assert pf.path_to_actions(r) == [hk.Explore((1, 0)), hk.Explore((2, -1)), hk.Explore((3, -1))]
    assert r.actions() == pf.path_to_actions(r.cells)
    with pytest.raises(pf.PathError, match="no route"):
        pf.path_to_actions(pf.cheapest_path(s, 0, (2, 1)))


def test_play_path_spends_the_predicted_tokens(s):
    r = pf.cheapest_path(s, 0, (2, -2))
    res = pf.play_path(s, r)
    assert (res.predicted, res.spent, res.sensor) == (4, 4, (2, -2))
    assert s.sensor[0] == 0  # played on a copy
    assert res.state.sensor[0] == s.field.index[(2, -2)]


@pytest.mark.parametrize("seed", range(30))
def test_plan_to_play_on_seeded_maps(seed):
    rng = random.Random(seed)
    st = pf.first_turn_state(seed, players=rng.choice([2, 3, 4]), mode=rng.choice(["wanderer", "builder", "citizen"]))
    p = st.current_player()
    st.set_skills_known(p, set(st.skills_known(p)) | set(rng.choice([[], [4], [5], [4, 5]])))
    st._legal = None
    budget = st.tokens(p, "exploration", active=True)
    m = pf.cost_map(st, p)
    targets = pf.reach(st, p)
    assert targets == pf.reach(st, p, budget)
    for c, cost in targets.items():
        if c == st.field.cells[st.sensor[p]]:
            continue
        r = pf.cheapest_path(st, p, c)
        assert r.cost == cost
        res = pf.play_path(st, r)
        assert res.spent == res.predicted == cost and res.sensor == c
    # a target beyond this turn's tokens: refused before anything is applied
    far = [c for c, d in m.costs_from(st.sensor[p]).items() if budget < d < math.inf]
    if far:
        with pytest.raises(pf.PathError, match="active"):
            pf.play_path(st, pf.cheapest_path(st, p, far[0]))


def test_play_path_refuses_a_route_that_does_not_fit(s):
    r = pf.cheapest_path(s, 0, (3, -1), source=(1, 0))
    with pytest.raises(pf.PathError, match="starts at"):
        pf.play_path(s, r)
    with pytest.raises(pf.PathError, match="not adjacent"):
        pf.play_path(s, [(0, 0), (2, 0)])


# ============================================================================ bad input


def test_unknown_cells_are_named(s):
    with pytest.raises(hk.FieldError, match=r"\(9, 9\)"):
        pf.cheapest_path(s, 0, (9, 9))
    with pytest.raises(hk.FieldError, match="49"):
        pf.cost_table(s, 0, source=49)
    with pytest.raises(hk.FieldError, match="'x'"):
        pf.entry_cost_of(s, 0, "x")
    with pytest.raises(hk.FieldError):
        list(pf.astar_trace(s, 0, (5, 5)))


@pytest.mark.parametrize("player", [2, -1, "P1", True, 1.0])
def test_unknown_players_are_named(s, player):
    with pytest.raises(pf.PathError, match=f"player {player!r} does not exist"):
        pf.cheapest_path(s, player, (1, 0))
    with pytest.raises(pf.PathError, match="does not exist"):
        pf.reach(s, player)


def test_unreachable_is_a_result_not_an_exception(s):
    lake = pf.cheapest_path(s, 0, (2, 1))
    assert not lake.found and lake.cost == math.inf and "cannot be explored" in lake.reason
    budget = pf.cheapest_path(s, 0, (3, -3), budget=4)
    assert not budget.found and budget.cost == math.inf and "budget of 4" in budget.reason
    assert pf.cheapest_path(s, 0, (3, -3), budget=5).found
    assert "no route" in str(lake)
    with pytest.raises(pf.PathError, match="budget"):
        pf.reach(s, 0, -1)


def test_state_without_a_field():
    st = hk.new_game(players=2, seed=1, auto_chance=False)
    with pytest.raises(pf.PathError, match="not drawn"):
        pf.cost_map(st, 0)


def test_negative_budget_is_refused_like_reach():
    from haunted_kit.haunted import pathfinding as pf

    s = hk.new_game(players=2, seed=1)
    cm = pf.cost_map(s, 0)
    with pytest.raises(pf.PathError, match="budget must be a whole number of tokens >= 0, got -1"):
        cm.route((0, 0), (1, 0), budget=-1)
    with pytest.raises(pf.PathError, match="got -3"):
        cm.reach((0, 0), -3)


# ============================================================================ A* on hand-built graphs

def test_astar_on_a_graph_whose_edges_join_non_neighbours_finds_the_cheapest_cost():
    """The issue's case: a long edge makes hex distance overestimate; A* must still agree with Dijkstra."""
    g = nx.Graph()
    g.add_edges_from([((0, 0), (9, 0)), ((9, 0), (2, 0)), ((0, 0), (1, 0)), ((1, 0), (2, 0))])
    m = pf.CostMap(g, {(0, 0): 1, (9, 0): 1, (2, 0): 1, (1, 0): 5})
    assert not m.hex_edges
    independent = nx.dijkstra_path_length(m.digraph, (0, 0), (2, 0))
    assert independent == 2
    assert list(m.astar_trace((0, 0), (2, 0)))[-1].cost == 2
    assert list(m.dijkstra_trace((0, 0), (2, 0)))[-1].cost == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=19, max_size=19),
       st.lists(st.tuples(st.integers(0, 18), st.integers(0, 18)), max_size=6),
       st.integers(0, 18), st.integers(0, 18))
def test_astar_cost_equals_networkx_on_any_graph(costs, long_edges, a, b):
    cells = [c for c in ((q, r) for q in range(-2, 3) for r in range(-2, 3)) if hexgrid.distance(c, (0, 0)) <= 2]
    g = nx.Graph()
    g.add_nodes_from(cells)
    g.add_edges_from((c, n) for c in cells for n in hexgrid.neighbours(c) if n in g)
    g.add_edges_from((cells[i], cells[j]) for i, j in long_edges if i != j)
    m = pf.CostMap(g, dict(zip(cells, costs)))
    src, dst = cells[a], cells[b]
    expected = nx.dijkstra_path_length(m.digraph, src, dst)
    assert list(m.astar_trace(src, dst))[-1].cost == expected


def test_compare_rules_counts_cells_within_reach_as_reach_does():
    """Notebook 05 printed "28 cells within 4 tokens" from ``reach`` and 27 in
    ``compare_rules`` for the same position: the table left out the city. Both count the
    source now, by the one function."""
    st = scenario(players=2, mode="wanderer")
    c = pf.compare_rules(st, 0, tokens=4)
    now = pf.reach(st, 0, 4)
    assert (0, 0) in now and now[(0, 0)] == 0
    assert c.loc[("none", False), "cells within 4"] == len(now) == 28
    with_card3 = pf.reach(pf.what_if(st, 0, ghost_card_3=True), 0, 4)
    assert c.loc[("none", True), "cells within 4"] == len(with_card3)
