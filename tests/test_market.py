"""Market cards 1-3 (rulebook "Market Cards", "Selling") with skills 8 and 9."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.actions import RestoreToken, Sell
from haunted_kit.haunted.scenario import give, learn, scenario, set_tokens
from ruletools import active, assert_illegal, res, supply


def sells(s):
    return [a for a in s.legal_actions() if isinstance(a, Sell)]


def pec(s, p=0):
    return s.to_dict()["players"][p]["pecunias"]


@pytest.mark.parametrize("market, option, payment, pecunias", [
    (1, 1, ("water",), 2), (1, 2, ("food", "food"), 5), (1, 3, ("food", "food", "food"), 8),
    (2, 1, ("ore",), 2), (2, 2, ("food", "wood"), 5), (2, 3, ("food", "water", "ore"), 8),
    (3, 1, ("wood",), 2), (3, 2, ("food", "water", "wood", "ore"), 12),
])
def test_every_option_of_every_card(market, option, payment, pecunias):
    s = scenario(players=2, market=market)
    give(s, 0, food=3, water=1, wood=1, ore=1)
    s.apply_action(Sell(option, payment))
    assert pec(s) == pecunias
    held = {"food": 3, "water": 1, "wood": 1, "ore": 1}
    for x in payment:
        held[x] -= 1
    assert res(s, 0) == held
    assert supply(s)["resources"] == {k: 16 - v for k, v in held.items()}


def test_card_1_legal_sales():
    s = scenario(players=2, market=1)
    give(s, 0, food=3, wood=1)
    assert sells(s) == [Sell(1, ("food",)), Sell(1, ("wood",)), Sell(2, ("food", "food")), Sell(3, ("food", "food", "food"))]


def test_card_2_legal_sales():
    s = scenario(players=2, market=2)
    give(s, 0, food=2, water=1, wood=1)
    assert sells(s) == [
        Sell(1, ("food",)), Sell(1, ("water",)), Sell(1, ("wood",)),
        Sell(2, ("food", "water")), Sell(2, ("food", "wood")), Sell(2, ("water", "wood")),
        Sell(3, ("food", "water", "wood")),
    ]


def test_card_3_legal_sales():
    s = scenario(players=2, market=3)
    give(s, 0, food=1, water=1, wood=1)
    assert sells(s) == [Sell(1, ("food",)), Sell(1, ("water",)), Sell(1, ("wood",))]  # 3 types: no 4-type sale
    give(s, 0, ore=1)
    assert Sell(2, ("food", "water", "wood", "ore")) in sells(s)


@pytest.mark.parametrize("market, option, payment", [
    (1, 2, ("food", "wood")),           # card 1 wants the same type
    (1, 3, ("food", "food", "wood")),
    (2, 2, ("food", "food")),           # card 2 wants different types
    (2, 3, ("food", "food", "wood")),
    (3, 2, ("food", "water", "wood")),  # card 3: 4 different types
    (3, 2, ("food", "food", "water", "wood")),
    (1, 1, ("food", "wood")),
])
def test_payment_that_does_not_fit_the_option(market, option, payment):
    s = scenario(players=2, market=market)
    give(s, 0, food=2, water=1, wood=1, ore=1)
    assert_illegal(s, Sell(option, payment), "does not fit")


def test_card_3_has_two_options_only():
    s = scenario(players=2, market=3)
    give(s, 0, food=1)
    assert_illegal(s, Sell(3, ("food",)), "options 1 to 2")


def test_payment_order_does_not_matter():
    s = scenario(players=2, market=2)
    give(s, 0, food=1, wood=1)
    s.apply_action(Sell(2, ("wood", "food")))
    assert pec(s) == 5


def test_unknown_resource_in_payment():
    s = scenario(players=2, market=1)
    assert_illegal(s, Sell(1, ("gold",)), "not a resource")


@pytest.mark.parametrize("market, option, payment, pecunias", [
    (1, 3, ("food",) * 3, 9), (2, 2, ("food", "wood"), 6), (3, 2, ("food", "water", "wood", "ore"), 13),
])
def test_skill_8_on_each_card(market, option, payment, pecunias):
    s = scenario(players=2, market=market, skills=(1, 4, 8, 10))
    learn(s, 0, 8)
    give(s, 0, food=3, water=1, wood=1, ore=1)
    s.apply_action(Sell(option, payment))
    assert pec(s) == pecunias  # printed value + 1


@pytest.mark.parametrize("market, option, payment, pecunias", [
    (1, 3, ("food",) * 3, 8), (2, 3, ("food", "water", "wood"), 8), (3, 2, ("food", "water", "wood", "ore"), 12),
])
def test_skill_9_on_each_card(market, option, payment, pecunias):
    s = scenario(players=2, market=market, skills=(1, 4, 9, 10))
    learn(s, 0, 9)
    give(s, 0, food=3, water=1, wood=1, ore=1)
    set_tokens(s, 0, "exploration", active=1)
    set_tokens(s, 0, "contact", active=0)
    s.apply_action(Sell(option, payment))
    assert pec(s) == pecunias
    assert s.legal_actions() == [RestoreToken("exploration"), RestoreToken("contact")]
    s.apply_action(RestoreToken("contact"))
    assert active(s, 0) == {"exploration": 1, "contact": 1, "extraction": 1, "construction": 1}
