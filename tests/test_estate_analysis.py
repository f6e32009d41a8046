"""Estate analysis: the Market exchange graph, cheapest conversions with exact costs,
income growth for a plan, legal slots and growth, the openings table."""

from __future__ import annotations

import pytest

from haunted_kit.estate.analysis import (KIT_MEASURE, PlanRefused, cheapest_conversion, estate_graph, growth,
                                         income_growth, market_graph, opening_table, slot_table)
from haunted_kit.estate import Trade, VisitMarket
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
    t = income_growth(s.box, {1: ["tax_land"], 2: ["forest"], 3: ["marble_quarry"]})
    assert list(t.income_gold) == [4, 4, 4] and list(t.income_wood) == [2, 3, 3] and list(t.income_marble) == [0, 0, 1]
    # season 1: take 3 gold, buy the tax land (0 left), take its extra gold (1), 2 wood, 2 limestone: 4 + 2 + 2 = 8
    assert list(t.taken_value) == [8, 9, 12] and list(t.tile_cost) == [3, 3, 3]  # season 3: 4 + 2 + 3 + 3 (marble)
    assert list(t.cumulative_net) == [5, 11, 20] and list(t.gold_left) == [1, 2, 3]
    with pytest.raises(ValueError, match="unknown tile"):
        income_growth(s.box, {1: ["castle"]})


@pytest.mark.parametrize("plan, season, tile, reason, section", [
    # a marble quarry as the only tile: it needs 2 tiles first (ruling E9)
    ({1: ["marble_quarry"]}, 1, "marble_quarry",
     "a marble quarry can be added only once P1 has at least 2 land tiles (P1 has 0)", "Expand the lands"),
    ({1: ["forest"], 2: ["marble_quarry", "tax_land"]}, 2, "marble_quarry",
     "a marble quarry can be added only once P1 has at least 2 land tiles (P1 has 1)", "Expand the lands"),
    # the second tile of season 1: the first took all 3 gold of the income, none is in hand
    ({1: ["forest", "forest"]}, 1, "forest", "a land tile costs 3 gold and P1 has 0", "Expand the lands"),
    # a start with no gold income buys nothing
    ({1: ["forest"]}, 1, "forest", "a land tile costs 3 gold and P1 has 0", "Expand the lands"),
    # the box holds one marble field
    ({1: ["marble_field"], 2: ["forest"], 3: ["marble_field"]}, 3, "marble_field",
     "the box holds 1 marble field tile and the plan places more", "kit default: the tile stack (ruling E17)"),
])
def test_income_growth_refuses_a_plan_the_rules_forbid(plan, season, tile, reason, section):
    box = position(2).box
    start = {"gold": 0} if plan == {1: ["forest"]} else None
    with pytest.raises(PlanRefused) as caught:
        income_growth(box, plan, start_income=start)
    e = caught.value
    assert (e.season, e.step, e.refusal.text, e.refusal.section, e.refusal.source) == \
        (season, tile, reason, section, "estate rules")
    assert str(e) == f"the plan breaks a rule at season {season}, {tile.replace('_', ' ')}: {reason} (estate rules: {section})"


def test_cheapest_conversion_follows_the_visit_under_way():
    """During a visit the rows already used are out (each action of a visit is a different
    row: estate rules, "Market actions"): the same hand outside a visit would use the row again."""
    s = position(3, hand={0: {"wood": 4, "gold": 2}})
    s.apply_action(VisitMarket())
    s.apply_action(Trade("exchange_resources", (("wood", 2),), (("glass", 1),)))
    assert s.hand[0]["wood"] == 2 and s.hand[0]["glass"] == 1
    assert cheapest_conversion(s, {"glass": 2}) is None
    fresh = position(3, hand={0: {"wood": 2, "glass": 1, "gold": 2}})
    assert [t.action for t in cheapest_conversion(fresh, {"glass": 2}).steps] == ["exchange_resources"]
    with pytest.raises(PlanRefused, match=r"a Market visit has at most 3 actions .* not 4 \(estate rules: Market actions\)"):
        cheapest_conversion(fresh, {"glass": 2}, actions=4)


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
    assert t["player_games"].sum() == 8 and "mean_tiles_marked" in t.columns
