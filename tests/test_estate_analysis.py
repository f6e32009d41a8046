"""Estate analysis: the Market exchange graph, cheapest conversions with exact costs,
income growth for a plan, legal slots and growth, the openings table."""

from __future__ import annotations

import pytest

from haunted_kit.estate.analysis import (KIT_MEASURE, cheapest_conversion, estate_graph, growth, income_growth,
                                         market_graph, opening_table, slot_table)
from haunted_kit.estate.scenario import position


def test_market_graph_edges_and_prices():
    s = position(2, tokens={0: 1})
    g = market_graph(s, 0)
    assert set(g.nodes) == {"gold", "wood", "limestone", "marble", "glass", "workers"}
    sells = [d for u, v, d in g.edges(data=True) if u == "marble" and v == "gold"]
    assert [(d["action"], d["price"]) for d in sells] == [("sell_marble", 0)]
    hires = {d["price"] for u, v, d in g.edges(data=True) if d["action"] == "hire_two"}
    assert hires == {1}  # 2 for the first use, less 1 for the condition token
    assert g.number_of_edges("wood", "marble") == 2  # 2 wood, or 1 wood + 1 limestone


def test_cheapest_conversion_exact_costs():
    s = position(3, hand={0: {"gold": 4, "wood": 3, "limestone": 2}})
    c = cheapest_conversion(s, {"marble": 1})
    assert [t.action for t in c.steps] == ["exchange_resources"] and c.cost == 2 and c.gold_paid == 0
    assert c.holdings["marble"] == 1 and c.holdings["wood"] + c.holdings["limestone"] == 3
    # from 1 marble only: marble -> 2 wood, then 2 wood -> glass: gives up 3 (the marble)
    s = position(3, hand={0: {"marble": 1}})
    c = cheapest_conversion(s, {"glass": 1})
    assert [t.action for t in c.steps] == ["exchange_marble_or_glass", "exchange_resources"] and c.cost == 3
    # the same row cannot be used twice in a visit: 2 glass need two visits
    s = position(3, hand={0: {"wood": 6, "limestone": 6}})
    assert cheapest_conversion(s, {"glass": 2}) is None
    # already held: nothing to do
    s = position(3, hand={0: {"glass": 2}})
    assert cheapest_conversion(s, {"glass": 2}).steps == ()


def test_cheapest_conversion_pays_marked_prices():
    # only gold: hire 1 worker and take wood, at the first-use price of 2
    s = position(3, hand={0: {"gold": 5}})
    c = cheapest_conversion(s, {"wood": 1})
    assert [t.action for t in c.steps] == ["hire_one_and_take"] and c.gold_paid == 2 and c.cost == 2
    assert c.holdings == {"gold": 3, "wood": 1, "limestone": 0, "marble": 0, "glass": 0}
    # a later visitor has 2 actions; the answer respects it
    assert cheapest_conversion(s, {"wood": 1}, actions=1).steps == c.steps
    with pytest.raises(ValueError, match="target"):
        cheapest_conversion(s, {"iron": 1})


def test_income_growth_for_a_plan():
    s = position(2)
    t = income_growth(s.box, {1: ["forest"], 2: ["marble_quarry", "tax_land"]})
    assert list(t.income_wood) == [3, 3, 3] and list(t.income_marble) == [0, 1, 1] and list(t.income_gold) == [3, 4, 4]
    # season 1: 3 gold + 3 wood + 2 limestone = 8, less 3 for the forest
    assert list(t.taken_value) == [8, 12, 12] and list(t.tile_cost) == [3, 6, 0]  # 4 + 3 + 2 + 3 from season 2
    assert list(t.cumulative_net) == [5, 11, 23]
    with pytest.raises(ValueError, match="unknown tile"):
        income_growth(s.box, {1: ["castle"]})


def test_slots_and_growth():
    s = position(2, lands={(0, 2): ("forest", [0]), (-1, 2): ("tax_land", [1])})
    t = slot_table(s, 0).set_index("slot")
    assert t.loc[[(0, 1)], "status"].item() == "place" and t.loc[[(-1, 2)], "status"].item() == "join"
    assert t.loc[[(-1, 2)], "join_fee"].item() == 1
    assert "does not touch" in t.loc[[(0, 0)], "reason"].item()
    g = growth(s, 0)
    assert g["estate"] == 1 and g["next"] == [(-1, 2), (0, 1), (1, 1)]
    assert g["reach"][(0, 0)] == 2 and g["reach"][(2, -2)] == 4
    assert list(estate_graph(s, 0).nodes) == [(0, 2)]


def test_opening_table_is_labelled_a_kit_measure():
    t = opening_table(4, players=2)
    assert t.attrs["measure"] == KIT_MEASURE and "kit measure" in KIT_MEASURE
    assert t["games"].sum() == 8
