"""Exact-value tests of every estate rule and every illegal case of issue 11, worked out
from the estate rules text (sections named in each test) and the kit defaults."""

from __future__ import annotations

import pytest

from haunted_kit.estate import (EndVisit, InnDecline, InnReturn, Join, Pass, PlaceTile, RemoveTile, TakeGold,
                                TakeMaterial, Trade, VisitMarket, new_game)
from haunted_kit.estate import rules as R
from haunted_kit.estate.scenario import position
from haunted_kit.estate.state import position_of
from haunted_kit.protocol import IllegalAction

DISPLAY = ["tax_land", "marble_quarry", "forest", "limestone_quarry"]


def refused(s, action, *words, section=None):
    """``action`` is illegal, the reason holds ``words``, and applying it changes nothing."""
    why = s.why_not(action)
    assert why is not None, f"{action} should be illegal"
    assert why.source == "estate rules"
    for w in words:
        assert w in why.text, (w, why.text)
    if section:
        assert why.section == section
    before = position_of(s)
    with pytest.raises(IllegalAction) as exc:
        s.apply_action(action)
    assert exc.value.refusal == why
    assert position_of(s) == before
    return why


def trade(action, give=(), take=()):
    return Trade(action, tuple(sorted(give)), tuple(sorted(take)))


# ============================================================================ setup


def test_start_income_workers_and_display():
    s = new_game(3, seed=5)
    assert [s.income[p] for p in range(3)] == [{"gold": 3, "wood": 2, "limestone": 2, "marble": 0}] * 3
    assert all(h == {"gold": 0, "wood": 0, "limestone": 0, "marble": 0, "glass": 0} for h in s.hand)
    assert all(w == {"supply": 4, "factory": 0, "inn": 0} for w in s.workers)
    assert len(s.display) == 4 and sum(s.stack.values()) == 21 - 4
    assert s.current_player() == 0 and s.season == 1


def test_same_seed_same_game_and_forced_draws():
    a, b = new_game(2, seed=11), new_game(2, seed=11)
    assert a.display == b.display
    s = new_game(2, seed=0, auto_chance=False)
    assert s.is_chance_node() and s.current_player() is None
    outcomes = dict(s.chance_outcomes())
    assert outcomes == pytest.approx({"forest": 6 / 21, "limestone_quarry": 6 / 21, "tax_land": 5 / 21,
                                      "marble_quarry": 3 / 21, "marble_field": 1 / 21})
    for t in ["marble_field", "forest", "forest", "tax_land"]:
        s.apply_chance(t)
    assert s.display == ["marble_field", "forest", "forest", "tax_land"] and s.stack["marble_field"] == 0
    from haunted_kit.protocol import ChanceError

    with pytest.raises(ChanceError):
        s.apply_chance("forest")  # no draw waits now


# ============================================================================ Resource income


def test_factory_take_first_taker_extra_and_one_worker_each():
    s = position(2)
    s.apply_action(TakeMaterial("wood", 3))  # income 2 + the first taker's extra unit
    assert s.hand[0]["wood"] == 3 and s.workers[0] == {"supply": 3, "factory": 1, "inn": 0}
    assert s.first_taker["wood"] == 0
    # P2 is not first for wood: at most the income of 2
    refused(s, TakeMaterial("wood", 3), "at most 2 more wood", section="Resource income")
    s.apply_action(TakeMaterial("wood", 2))
    assert s.hand[1]["wood"] == 2
    # P1 has used income and extra: nothing left
    refused(s, TakeMaterial("wood", 1), "no wood income left", section="Resource income")
    s.apply_action(TakeMaterial("limestone", 1))  # first for limestone: limit 3, takes 1
    s.apply_action(Pass())
    s.apply_action(TakeMaterial("limestone", 2))  # a later take of the same material (kit default)
    assert s.hand[0]["limestone"] == 3 and s.taken[0]["limestone"] == 3 and s.workers[0]["factory"] == 3


def test_marble_income_zero_gives_no_extra_unit():
    s = position(2)
    refused(s, TakeMaterial("marble", 1), "no marble income left")
    s = position(2, income={0: {"marble": 1}})
    s.apply_action(TakeMaterial("marble", 2))
    assert s.hand[0]["marble"] == 2


def test_glass_and_gold_are_not_factory_takes():
    s = position(2)
    refused(s, TakeMaterial("glass", 1), "obtained through the Market")
    refused(s, TakeMaterial("gold", 1), "gold takes no workers")


def test_gold_takes_no_worker_and_no_more_than_income():
    s = position(2)
    s.apply_action(TakeGold(2))
    assert s.hand[0]["gold"] == 2 and s.workers[0]["supply"] == 4
    s.apply_action(Pass())
    refused(s, TakeGold(2), "1 gold left this season")
    s.apply_action(TakeGold(1))
    assert s.hand[0]["gold"] == 3 and s.taken[0]["gold"] == 3


def test_factory_needs_a_worker_in_supply():
    s = position(2, workers={0: {"supply": 0, "factory": 4}})
    refused(s, TakeMaterial("wood", 1), "needs 1 worker")


def test_workers_come_back_and_income_restarts_at_season_end():
    s = position(2)
    s.apply_action(TakeMaterial("wood", 3))
    s.apply_action(TakeMaterial("limestone", 3))
    s.apply_action(Pass())
    s.apply_action(Pass())
    assert s.season == 2 and s.phase == "turns"
    assert s.workers[0] == {"supply": 4, "factory": 0, "inn": 0} == s.workers[1]
    assert s.taken[0] == {"gold": 0, "wood": 0, "limestone": 0, "marble": 0}
    assert s.first_taker == {"wood": None, "limestone": None, "marble": None}
    kinds = list(s.events().kind)
    assert kinds.count("workers_back") == 2 and "prices_reset" in kinds


# ============================================================================ Expand the lands


def test_first_tile_costs_3_gold_goes_over_the_lower_area():
    s = position(2, hand={0: {"gold": 5}}, display=DISPLAY)
    refused(s, PlaceTile("forest", (0, 0)), "first tile must lie over the shared lower area", section="Expand the lands")
    s.apply_action(PlaceTile("forest", (0, 2)))
    assert s.hand[0]["gold"] == 2 and s.income[0]["wood"] == 3
    assert s.lands[(0, 2)] == {"tile": "forest", "owner": 0, "markers": [0], "raised": [0]}
    assert len(s.display) == 4  # refilled from the stack


def test_a_tile_refused_for_its_price_and_its_place_names_both():
    """A newcomer told only the price took it that the slot would do with gold: a placement
    wrong on both counts names both, the price first as the rule states it (Expand the lands)."""
    s = position(2, hand={0: {"gold": 2}}, display=DISPLAY)
    before = s.to_json()
    why = s.why_not(PlaceTile("forest", (0, 0)))
    assert str(why) == ("a land tile costs 3 gold and P1 has 2; and P1's first tile must lie over the shared lower "
                        "area (slots -2,2; -1,2; 0,2), not on slot 0,0 (estate rules: Expand the lands)")
    assert str(s.why_not(PlaceTile("forest", (0, 2)))) == "a land tile costs 3 gold and P1 has 2 (estate rules: Expand the lands)"
    assert s.to_json() == before


def test_tile_price_refused_without_3_gold():
    s = position(2, hand={0: {"gold": 2}}, display=DISPLAY)
    refused(s, PlaceTile("forest", (0, 2)), "costs 3 gold", "has 2")


def test_connection_broken_is_refused():
    s = position(2, hand={0: {"gold": 9}}, lands={(0, 2): ("forest", [0])}, display=DISPLAY)
    refused(s, PlaceTile("tax_land", (-2, 2)), "does not touch P1's estate", section="Expand the lands")
    s.apply_action(PlaceTile("tax_land", (0, 1)))
    assert s.income[0]["gold"] == 4
    assert R.estate_of(s, 0) == [(0, 1), (0, 2)]


def test_a_second_marker_of_yours_on_one_tile_is_refused():
    s = position(2, hand={0: {"gold": 9}}, lands={(0, 2): ("forest", [0]), (-1, 2): ("tax_land", [1, 0])})
    refused(s, Join((0, 2)), "own", "one marker per player")
    refused(s, Join((-1, 2)), "already has a marker")
    refused(s, PlaceTile("forest", (0, 2)), "already holds a tile")


def test_join_pays_the_owner_per_marker_up_to_3():
    # P3 joins P1's forest that holds markers of P1 and P2: 2 markers -> 2 gold to P1
    s = position(4, turn=2, hand={2: {"gold": 5}}, lands={(0, 2): ("forest", [0, 1])}, income={1: {"wood": 3}})
    s.apply_action(Join((0, 2)))
    assert s.hand[2]["gold"] == 3 and s.hand[0]["gold"] == 2 and s.hand[1]["gold"] == 0
    assert s.income[2]["wood"] == 3  # the improvement applies to the joiner (kit default)
    assert s.lands[(0, 2)]["markers"] == [0, 1, 2]
    # a fourth marker: 3 markers on it -> 3 gold, the cap
    s = position(4, turn=3, hand={3: {"gold": 3}}, lands={(0, 2): ("forest", [0, 1, 2])})
    assert R.join_fee(s, (0, 2)) == 3
    s.apply_action(Join((0, 2)))
    assert s.hand[3]["gold"] == 0 and s.hand[0]["gold"] == 3


def test_join_fee_cap_with_a_house_rule_of_two_gold_per_marker(tmp_path):
    import shutil

    from haunted_kit.estate.box import data_dir, load_estate_box

    shutil.copytree(data_dir(), tmp_path / "e")
    p = tmp_path / "e" / "lands.toml"
    p.write_text(p.read_text().replace("join_fee_per_marker = 1", "join_fee_per_marker = 2"))
    box = load_estate_box(tmp_path / "e")
    s = position(4, turn=3, hand={3: {"gold": 9}}, lands={(0, 2): ("forest", [0, 1, 2])}, box=box)
    assert R.join_fee(s, (0, 2)) == 3  # 2 x 3 = 6, capped at 3


def test_join_without_the_fee_is_refused():
    s = position(2, turn=1, lands={(0, 2): ("forest", [0])})
    refused(s, Join((0, 2)), "joining costs 1 gold", "has 0")


def test_marble_quarry_too_early_is_refused():
    s = position(2, hand={0: {"gold": 9}}, lands={(0, 2): ("forest", [0])}, display=DISPLAY)
    refused(s, PlaceTile("marble_quarry", (0, 1)), "at least 2 land tiles", "has 1")
    s = position(2, hand={0: {"gold": 9}}, lands={(0, 2): ("forest", [0]), (-1, 2): ("tax_land", [1, 0])},
                 display=DISPLAY)
    s.apply_action(PlaceTile("marble_quarry", (0, 1)))  # a joined tile counts (kit default)
    assert s.income[0]["marble"] == 1


def test_marble_field_has_two_spaces_for_two_players():
    s = position(3, hand={0: {"gold": 3}, 1: {"gold": 5}, 2: {"gold": 5}},
                 lands={(-1, 2): ("forest", [1, 2])},
                 display=["marble_field", "forest", "forest", "tax_land"])
    s.apply_action(PlaceTile("marble_field", (0, 2)))
    assert s.income[0]["marble"] == 1
    s.apply_action(Join((0, 2)))  # P2, next to its forest: the second space
    assert s.income[1]["marble"] == 1 and s.hand[1]["gold"] == 4
    s.apply_action(Pass())  # P3
    s.apply_action(Pass())  # P1
    s.apply_action(Pass())  # P2: the season ends
    assert s.season == 2
    s.apply_action(Pass())  # P1
    s.apply_action(Pass())  # P2
    s.apply_action(Join((0, 2)))  # P3: 2 markers -> 2 gold
    assert s.income[2]["marble"] == 0 and s.hand[2]["gold"] == 3
    assert "no_raise" in list(s.events().kind)


def test_marble_field_single_switch_gives_both_spaces_at_once():
    s = position(2, hand={0: {"gold": 3}}, display=["marble_field", "forest", "forest", "tax_land"], marble_field="single")
    s.apply_action(PlaceTile("marble_field", (0, 2)))
    assert s.income[0]["marble"] == 2


def test_white_dotted_land_gives_a_token_and_removes_a_tile():
    s = position(2, hand={0: {"gold": 3}}, lands={(1, 1): ("forest", [0]), (0, 2): ("forest", [0])}, display=DISPLAY)
    s.apply_action(PlaceTile("tax_land", (2, 0)))
    assert s.tokens[0] == 1 and s.current_player() == 0 and s.pending == ["remove", 0]
    assert s.display == ["marble_quarry", "forest", "limestone_quarry"]
    assert s.legal_actions() == [RemoveTile("marble_quarry"), RemoveTile("forest"), RemoveTile("limestone_quarry")]
    refused(s, Pass(), "must first remove a tile")
    s.apply_action(RemoveTile("marble_quarry"))
    assert s.removed == ["marble_quarry"] and len(s.display) == 4 and s.current_player() == 1
    assert sum(s.stack.values()) == 21 - 3 - 4 - 1


def test_condition_token_lowers_marked_prices_by_one():
    s = position(2, hand={0: {"gold": 5}}, tokens={0: 1})
    assert R.marked_price(s, 0, "hire_two") == 1
    assert R.marked_price(s, 1, "hire_two") == 2
    s = position(2, tokens={0: 3})
    assert R.marked_price(s, 0, "hire_two") == 1  # never below 1


def test_improvement_adjacent_switch():
    s = position(2, turn=1, hand={1: {"gold": 3}}, lands={(0, 2): ("tax_land", [0])}, display=DISPLAY,
                 improvement="adjacent")
    s.apply_action(PlaceTile("forest", (-1, 2)))  # touches P1's tax land
    assert s.income[1] == {"gold": 4, "wood": 3, "limestone": 2, "marble": 0}


def test_continuous_line_group_reading_uses_networkx_connectivity():
    box = position(2).box
    assert R.estate_connected(box, [(-2, 2), (-1, 2), (0, 2)], "group") is True
    assert R.estate_connected(box, [(-2, 2), (-1, 2), (0, 2), (0, 0)], "group") is False
    assert R.estate_connected(box, [], "group") is True


def test_line_reading_refuses_a_star():
    box = position(2).box
    star = [(0, 0), (1, 0), (-1, 0), (0, -2 + 1) if False else (1, -1)]
    # (0,0) with neighbours (1,0), (-1,0): a line of three; (1,-1) touches (0,0) and (1,0): still a line
    assert R.estate_connected(box, star, "line") is True
    claw = [(0, 0), (1, 0), (-1, 1), (0, -1)]  # (0,0) with three neighbours that do not touch each other
    assert R.estate_connected(box, claw, "group") is True
    assert R.estate_connected(box, claw, "line") is False
    s = position(2, hand={0: {"gold": 3}}, lands={(0, 2): ("forest", [0]), (0, 1): ("forest", [0]),
                                                   (1, 0): ("forest", [0])}, display=DISPLAY, connection="line")
    # (0,1) has neighbours (0,2), (1,0); adding (-1,1) (touching only (0,1) and (-1,2)...) makes a claw at (0,1)
    why = refused(s, PlaceTile("tax_land", (-1, 1)), "continuous line")
    assert "ruling E6" in why.text
    t = position(2, hand={0: {"gold": 3}}, lands={(0, 2): ("forest", [0]), (0, 1): ("forest", [0]),
                                                   (1, 0): ("forest", [0])}, display=DISPLAY)
    assert t.why_not(PlaceTile("tax_land", (-1, 1))) is None  # the group reading allows it


# ============================================================================ Market actions


def test_first_visitor_three_different_actions_later_two():
    s = position(2, hand={0: {"wood": 5, "marble": 2, "glass": 1}, 1: {"wood": 5, "marble": 2}})
    s.apply_action(VisitMarket())
    assert s.visit == {"player": 0, "limit": 3, "used": []}
    s.apply_action(trade("sell_marble", [("marble", 1)], [("gold", 3)]))
    refused(s, trade("sell_marble", [("marble", 1)], [("gold", 3)]), "already used", "must be different",
            section="Market actions")
    s.apply_action(trade("sell_wood_or_limestone", [("wood", 1)], [("gold", 1)]))
    refused(s, trade("sell_wood_or_limestone", [("wood", 1)], [("gold", 1)]), "already used")
    s.apply_action(trade("sell_glass", [("glass", 1)], [("gold", 2)]))
    assert s.visit is None and s.current_player() == 1  # three used: the visit and the turn end
    assert s.hand[0] == {"gold": 6, "wood": 4, "limestone": 0, "marble": 1, "glass": 0}
    assert s.workers[0] == {"supply": 4, "factory": 0, "inn": 0}  # no workers used
    s.apply_action(VisitMarket())
    assert s.visit["limit"] == 2
    s.apply_action(trade("sell_marble", [("marble", 1)], [("gold", 3)]))
    s.apply_action(trade("exchange_wood", [("wood", 1)], [("limestone", 1)]))
    assert s.visit is None and s.hand[1] == {"gold": 3, "wood": 4, "limestone": 1, "marble": 1, "glass": 0}


def test_a_fourth_market_action_is_refused():
    s = position(2, hand={0: {"wood": 5, "marble": 2, "glass": 1, "gold": 9}})
    s.apply_action(VisitMarket())
    for t in [trade("sell_marble", [("marble", 1)], [("gold", 3)]), trade("sell_glass", [("glass", 1)], [("gold", 2)])]:
        s.apply_action(t)
    s.apply_action(trade("exchange_wood", [("wood", 1)], [("limestone", 1)]))
    # the visit is over; the player can no longer trade
    refused(s, trade("hire_two", [], [("workers", 2)]), "not visiting the Market")
    # and a second visit this season is refused
    s.apply_action(Pass())  # P2
    refused(s, VisitMarket(), "already visited the Market this season")


def test_a_visit_with_every_action_used_refuses_another():
    s = position(2, hand={0: {"wood": 5, "marble": 2}})
    s.apply_action(VisitMarket())
    s.apply_action(trade("sell_marble", [("marble", 1)], [("gold", 3)]))
    assert s.visit is not None
    s.visit["used"].append("sell_glass")  # crafted: a visit whose 3 actions are used but still open
    s.visit["used"].append("hire_two")
    why = s.why_not(trade("exchange_wood", [("wood", 1)], [("limestone", 1)]))
    assert why is not None and "all are used" in why.text


def test_every_exchange_and_sale_of_the_table():
    s = position(2, hand={0: {"gold": 0, "wood": 4, "limestone": 4, "marble": 2, "glass": 2}})
    s.apply_action(VisitMarket())
    legal = {(t.action, t.give, t.take) for t in s.legal_actions() if isinstance(t, Trade)}
    assert ("sell_marble", (("marble", 1),), (("gold", 3),)) in legal
    assert ("sell_glass", (("glass", 1),), (("gold", 2),)) in legal
    assert ("sell_wood_or_limestone", (("limestone", 1),), (("gold", 1),)) in legal
    ex = {(g, t) for a, g, t in legal if a == "exchange_marble_or_glass"}
    assert ex == {(g, t) for g in ((("marble", 1),), (("glass", 1),))
                  for t in ((("wood", 2),), (("limestone", 2),), (("limestone", 1), ("wood", 1)))}
    ex = {(g, t) for a, g, t in legal if a == "exchange_resources"}
    assert ex == {(g, t) for g in ((("wood", 2),), (("limestone", 2),), (("limestone", 1), ("wood", 1)))
                  for t in ((("marble", 1),), (("glass", 1),))}
    assert {(g, t) for a, g, t in legal if a == "exchange_wood"} == {((("wood", 1),), (("limestone", 1),)),
                                                                    ((("limestone", 1),), (("wood", 1),))}
    # no gold: the marked hires are not legal
    assert not any(a.startswith("hire") for a, _, _ in legal)
    s.apply_action(trade("exchange_resources", [("wood", 1), ("limestone", 1)], [("glass", 1)]))
    s.apply_action(trade("exchange_marble_or_glass", [("marble", 1)], [("wood", 1), ("limestone", 1)]))
    assert s.hand[0] == {"gold": 0, "wood": 4, "limestone": 4, "marble": 1, "glass": 3}
    refused(s, trade("sell_marble", [("marble", 2)], [("gold", 6)]), "does not give")


def test_marked_prices_first_use_2_later_3_reset_at_season_end():
    s = position(3, hand={0: {"gold": 9}, 1: {"gold": 9}, 2: {"gold": 9}})
    s.apply_action(VisitMarket())
    s.apply_action(trade("hire_two", [], [("workers", 2)]))
    assert s.hand[0]["gold"] == 7 and s.workers[0]["supply"] == 6
    s.apply_action(trade("hire_one_and_take", [], [("limestone", 1), ("workers", 1)]))
    assert s.hand[0]["gold"] == 5 and s.hand[0]["limestone"] == 1 and s.workers[0]["supply"] == 7
    s.apply_action(EndVisit())
    s.apply_action(VisitMarket())  # P2: the markers now show 3
    assert R.marked_price(s, 1, "hire_two") == 3
    s.apply_action(trade("hire_two", [], [("workers", 2)]))
    assert s.hand[1]["gold"] == 6
    s.apply_action(EndVisit())
    for _ in range(3):
        s.apply_action(Pass())
    assert s.season == 2 and R.marked_price(s, 2, "hire_two") == 2


def test_third_marked_switch_charges_the_exchange():
    s = position(2, hand={0: {"gold": 2, "wood": 2}}, third_marked="exchange_resources")
    s.apply_action(VisitMarket())
    s.apply_action(trade("exchange_resources", [("wood", 2)], [("marble", 1)]))
    assert s.hand[0] == {"gold": 0, "wood": 0, "limestone": 0, "marble": 1, "glass": 0}


def test_a_13th_worker_is_refused_and_hire_one_stays_legal_for_the_wood():
    s = position(2, hand={0: {"gold": 9}}, workers={0: {"supply": 12}})
    s.apply_action(VisitMarket())
    why = refused(s, trade("hire_two", [], [("workers", 2)]), "12 workers, the limit", section="Market actions")
    assert why
    s.apply_action(trade("hire_one_and_take", [], [("wood", 1), ("workers", 1)]))
    assert s.workers[0]["supply"] == 12 and s.hand[0]["wood"] == 1 and s.hand[0]["gold"] == 7
    # 11 workers: hire two gains one
    s = position(2, hand={0: {"gold": 9}}, workers={0: {"supply": 9, "inn": 2}})
    s.apply_action(VisitMarket())
    s.apply_action(trade("hire_two", [], [("workers", 2)]))
    assert s.workers[0] == {"supply": 10, "factory": 0, "inn": 2}
    assert "hire_capped" in list(s.events().kind)


# ============================================================================ the Inn


def _end_season(s):
    season = s.season
    while s.phase == "turns" and s.season == season:
        s.apply_action(Pass())


def test_inn_paid_return_after_the_season():
    s = position(2, hand={0: {"gold": 2}}, workers={0: {"supply": 2, "inn": 2}})
    _end_season(s)
    assert s.phase == "inn" and s.current_player() == 0
    assert s.legal_actions() == [InnReturn(), InnDecline()]
    s.apply_action(InnReturn())
    assert s.hand[0]["gold"] == 1 and s.workers[0] == {"supply": 3, "factory": 0, "inn": 1}
    assert s.season == 2 and s.phase == "turns"  # P2 has no Inn worker; one return a season


def test_inn_without_gold():
    s = position(2, workers={0: {"supply": 2, "inn": 2}})
    _end_season(s)  # P1 cannot pay: no choice is offered, an event says so
    assert s.season == 2 and s.workers[0]["inn"] == 2
    assert "inn_unpaid" in list(s.events().kind)
    s = position(2, hand={0: {"gold": 1}}, workers={0: {"supply": 2, "inn": 2}})
    _end_season(s)
    s.hand[0]["gold"] = 0  # (crafted) the gold went before the choice
    s.legal_cache = None
    refused(s, InnReturn(), "costs 1 gold")


def test_inn_is_refused_during_the_season():
    s = position(2, hand={0: {"gold": 2}}, workers={0: {"inn": 1}})
    refused(s, InnReturn(), "after each season")


# ============================================================================ turns and malformed input


def test_game_ends_after_three_seasons_with_gold_values():
    s = position(2, hand={0: {"gold": 1, "marble": 2, "glass": 1, "wood": 1, "limestone": 3}})
    for _ in range(3):
        _end_season(s)
    assert s.is_terminal() and s.current_player() is None and s.legal_actions() == []
    assert s.returns() == [1 + 6 + 2 + 1 + 3, 0.0]
    assert "kit measure" in s.events().text.iloc[-1]
    refused(s, Pass(), "the game is over")


@pytest.mark.parametrize("bad", [
    TakeMaterial("wood", 0), TakeMaterial("wood", "2"), TakeGold(-1), PlaceTile("castle", (0, 2)),
    PlaceTile("forest", (9, 9)), PlaceTile("forest", "x"), Join((5, 5)), Trade("sell_marble"), EndVisit(),
    RemoveTile("forest"), "pass", None,
])
def test_malformed_or_out_of_place_actions_are_refused_and_change_nothing(bad):
    s = position(2, hand={0: {"gold": 5}}, display=DISPLAY)
    why = s.why_not(bad)
    assert why is not None and why.source == "estate rules"
    before = position_of(s)
    with pytest.raises(IllegalAction):
        s.apply_action(bad)
    assert position_of(s) == before


def test_legal_actions_are_exactly_the_unrefused_ones():
    s = new_game(3, seed=2)
    import random

    rng = random.Random(2)
    while not s.is_terminal():
        legal = s.legal_actions()
        for a in legal:
            assert s.why_not(a) is None, a
        s.apply_action(legal[rng.randrange(len(legal))])
