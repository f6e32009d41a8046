"""The 12 skill cards (rulebook "Card Reference: Skill Cards", "Skill Cards" rules;
rulings 8 and 9). Decks: 1-3 Communication, 4-6 Wandering, 7-9 Trade, 10-12 Craft."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.flow import BonusChoice, ResourceChoice, RestoreChoice
from haunted_kit.haunted.actions import (Build, ChooseBonus, ChooseResource, Contact, Explore, Extract, Learn,
                                         RestoreToken, RollBonus, Sell, Train)
from haunted_kit.haunted.scenario import (end_round, give, learn, place, put_building, put_ghost, scenario,
                                          set_calendar, set_pecunias, set_tokens)
from ruletools import active, assert_illegal, res, supply

SK_A, SK_B, SK_C = (1, 4, 7, 10), (2, 5, 8, 11), (3, 6, 9, 12)
NONE = {"food": 0, "water": 0, "wood": 0, "ore": 0}
# plains far from R01/R02 (used for spreads that must not touch the buildings of a test)
FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


def r(**kw):
    return {**NONE, **kw}


def player(s, p):
    return s.to_dict()["players"][p]


@pytest.mark.parametrize("skill, cost", [
    (1, dict(food=1, water=1)), (2, dict(wood=1, ore=1)), (3, dict(food=2)), (4, dict(food=1, ore=1)),
    (5, dict(water=1, ore=1)), (6, dict(food=1, water=1)), (7, dict(food=1, ore=1)), (8, dict(food=2)),
    (9, dict(food=1, wood=1)), (10, dict(water=1, wood=1)), (11, dict(food=1, water=1)), (12, dict(food=1, wood=1)),
])
def test_learning_cost_of_every_skill(skill, cost):
    deck = (skill - 1) // 3
    skills = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]
    chosen = tuple(skill if k == deck else d[0] for k, d in enumerate(skills))
    s = scenario(players=2, skills=chosen)
    place(s, 0, (1, 0))
    give(s, 0, **cost)
    s.apply_action(Learn(skill))
    assert player(s, 0)["skills"] == [skill]
    assert res(s, 0) == NONE
    assert supply(s)["resources"] == {"food": 16, "water": 16, "wood": 16, "ore": 16}
    assert player(s, 0)["valor"] == 2  # 2 players: slot 1 covered, slot 2 gives 2


# ------------------------------------------------------------------ 1: contact gives 1 valor


@pytest.mark.parametrize("face, valor, pec", [(1, 1, 2), (5, 2, 0), (6, 3, 0)])
def test_skill_1_contact_gives_one_valor(face, valor, pec):
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 1)
    put_ghost(s, (0, 0))
    s.force_chance(face)
    s.apply_action(Contact())
    # season 1 bonus: face 1 = 2 pecunias, face 5 = 1 valor, face 6 = 2 valor; +1 valor from skill 1
    assert player(s, 0)["valor"] == valor and player(s, 0)["pecunias"] == pec


# ------------------------------------------------------------------ 2: choose the bonus reward


def test_skill_2_choose_any_reward_instead_of_rolling():
    s = scenario(players=2, skills=SK_B)
    learn(s, 0, 2)
    put_ghost(s, (0, 0))
    s.apply_action(Contact())
    assert s.pending[-1] == BonusChoice(0)
    assert s.legal_actions() == [ChooseBonus(f) for f in range(1, 7)] + [RollBonus()]
    rolls = s.rng_count
    s.apply_action(ChooseBonus(6))  # season 1 face 6: 2 valor
    assert player(s, 0)["valor"] == 2
    assert s.rng_count == rolls  # no die was rolled


def test_skill_2_choose_a_resource_reward_in_season_2():
    s = scenario(players=2, skills=SK_B)
    learn(s, 0, 2)
    set_calendar(s, 2, 1)
    set_tokens(s, 0, "contact", owned=2, active=2)
    put_ghost(s, (0, 0))
    s.apply_action(Contact())
    s.apply_action(ChooseBonus(2))  # season 2 face 2: 2 resources of your choice
    s.apply_action(ChooseResource("wood"))
    s.apply_action(ChooseResource("ore"))
    assert res(s, 0) == r(wood=1, ore=1) and active(s, 0)["contact"] == 0


def test_skill_2_may_still_roll():
    s = scenario(players=2, skills=SK_B)
    learn(s, 0, 2)
    put_ghost(s, (0, 0))
    s.apply_action(Contact())
    s.force_chance(2)
    s.apply_action(RollBonus())
    assert player(s, 0)["pecunias"] == 3  # season 1 face 2


def test_without_skill_2_the_die_is_rolled():
    s = scenario(players=2, skills=SK_B)
    put_ghost(s, (0, 0))
    s.force_chance(1)
    s.apply_action(Contact())
    assert not s.pending and player(s, 0)["pecunias"] == 2


# ------------------------------------------------------------------ 3: contact restores a contact token


@pytest.mark.parametrize("season, owned, after", [
    (1, 1, 1),  # pay 1 of 1, restore 1 -> 1 active
    (2, 3, 2),  # pay 2 of 3 -> 1, restore 1 -> 2
    (3, 3, 1),  # pay 3 of 3 -> 0, restore 1 -> 1
])
def test_skill_3_contact_restores_one_contact_token(season, owned, after):
    s = scenario(players=2, skills=SK_C)
    learn(s, 0, 3)
    set_calendar(s, season, 1)
    set_tokens(s, 0, "contact", owned=owned, active=owned)
    put_ghost(s, (0, 0))
    s.force_chance(1)
    s.apply_action(Contact())
    assert active(s, 0)["contact"] == after


def test_skill_3_restores_nothing_when_no_token_is_spent_beyond_it():
    # 2 tokens owned, 1 active and 1 already inactive in season 1: pay 1 -> 0, restore 1 -> 1
    s = scenario(players=2, skills=SK_C)
    learn(s, 0, 3)
    set_tokens(s, 0, "contact", owned=2, active=1)
    put_ghost(s, (0, 0))
    s.force_chance(1)
    s.apply_action(Contact())
    assert active(s, 0)["contact"] == 1


# ------------------------------------------------------------------ 4, 5: cheaper exploration


def test_skill_4_forest_costs_one_less():
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 4)
    place(s, 0, (1, 0))
    s.apply_action(Explore((2, 0)))  # forest 2 - 1 = 1
    assert active(s, 0)["exploration"] == 3
    s.apply_action(Explore((1, 1)))  # forest again: 1
    assert active(s, 0)["exploration"] == 2
    assert_illegal(s, Explore((1, 2)), "costs 3")  # mountain: still 3


def test_skill_4_does_not_change_mountains():
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 4)
    place(s, 0, (1, 1))
    s.apply_action(Explore((1, 2)))  # mountain 3
    assert active(s, 0)["exploration"] == 1


def test_skill_5_mountain_costs_one_less():
    s = scenario(players=2, skills=SK_B)
    learn(s, 0, 5)
    place(s, 0, (1, 1))
    s.apply_action(Explore((1, 2)))  # mountain 3 - 1 = 2
    assert active(s, 0)["exploration"] == 2
    place(s, 0, (1, 0))
    set_tokens(s, 0, "exploration", active=4)
    s.apply_action(Explore((2, 0)))  # forest: still 2
    assert active(s, 0)["exploration"] == 2


def test_learned_skill_takes_effect_at_once():
    s = scenario(players=2, skills=SK_A)
    place(s, 0, (1, 0))
    give(s, 0, food=1, ore=1)
    s.apply_action(Learn(4))
    s.apply_action(Explore((2, 0)))  # same turn: forest for 1
    assert active(s, 0)["exploration"] == 3


# ------------------------------------------------------------------ 6: anywhere in Kalena


def test_skill_6_sell_in_the_suburb_train_and_learn_in_the_city():
    s = scenario(players=2, skills=SK_C)
    learn(s, 0, 6)
    give(s, 0, food=3, wood=1)
    set_pecunias(s, 0, 2)
    # city: train and learn allowed, selling too
    s.apply_action(Train("contact"))  # contact slot 2: 2 pecunias
    assert player(s, 0)["pecunias"] == 0
    s.apply_action(Learn(9))  # food + wood
    assert 9 in player(s, 0)["skills"]
    s.apply_action(Sell(1, ("food",)))
    # suburb: selling allowed, training too
    place(s, 0, (1, 0))
    s.apply_action(Sell(1, ("food",)))
    assert player(s, 0)["pecunias"] == 4  # 2 + 2
    # a region cell: none of them
    place(s, 0, (2, -1))
    assert_illegal(s, Sell(1, ("food",)), "selling needs the city (or the suburb with skill 6)")


def test_without_skill_6_no_selling_in_the_suburb_nor_training_in_the_city():
    s = scenario(players=2, skills=SK_C)
    give(s, 0, food=1, wood=1)
    set_pecunias(s, 0, 2)
    assert_illegal(s, Train("contact"), "training needs the suburb")
    assert_illegal(s, Learn(9), "learning needs the suburb")
    place(s, 0, (1, 0))
    assert_illegal(s, Sell(1, ("food",)), "selling needs the city")
    assert "(or the suburb with skill 6)" in s.why_not(Sell(1, ("food",))).text   # in play, not learned


def test_a_refusal_names_skill_6_only_when_it_is_in_play():
    s = scenario(players=2, skills=(1, 4, 7, 10))
    set_pecunias(s, 0, 2)
    place(s, 0, (1, 0))
    assert s.why_not(Sell(1, ("food",))).text.endswith("selling needs the city")
    place(s, 0, (0, 0))
    assert s.why_not(Train("contact")).text.endswith("training needs the suburb")


# ------------------------------------------------------------------ 7: 4 of each resource


def test_skill_7_keeps_four_of_a_kind():
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 7)
    give(s, 0, food=3)
    place(s, 0, (2, -1))
    s.apply_action(Extract((2, -1), "food"))
    assert res(s, 0) == r(food=4)
    assert supply(s)["resources"]["food"] == 12  # 16 - 4


def test_skill_7_learned_now_raises_the_cap_now():
    s = scenario(players=2, skills=SK_A)
    place(s, 0, (1, 0))
    give(s, 0, food=3, ore=1)
    s.apply_action(Learn(7))  # pays food + ore: 2 food left
    s.apply_action(Explore((2, -1)))
    give(s, 0, food=2)  # 4 food is allowed with skill 7
    assert res(s, 0)["food"] == 4


def test_without_skill_7_the_fourth_goes_back():
    s = scenario(players=2, skills=SK_A)
    give(s, 0, food=3)
    place(s, 0, (2, -1))
    s.apply_action(Extract((2, -1), "food"))
    assert res(s, 0) == r(food=3) and supply(s)["resources"]["food"] == 13


# ------------------------------------------------------------------ 8: +1 pecunia per sale


@pytest.mark.parametrize("option, payment, pec", [(1, ("food",), 3), (2, ("food", "food"), 6), (3, ("ore",) * 3, 9)])
def test_skill_8_one_more_pecunia_per_sale(option, payment, pec):
    s = scenario(players=2, skills=SK_B, market=1)
    learn(s, 0, 8)
    give(s, 0, food=2, ore=3)
    s.apply_action(Sell(option, payment))
    assert player(s, 0)["pecunias"] == pec  # market card 1: 2 / 5 / 8, + 1


# ------------------------------------------------------------------ 9: sale of 3+ restores a token


def test_skill_9_choose_the_token_to_restore():
    s = scenario(players=2, skills=SK_C, market=1)
    learn(s, 0, 9)
    give(s, 0, ore=3)
    set_tokens(s, 0, "exploration", active=2)
    set_tokens(s, 0, "extraction", active=0)
    s.apply_action(Sell(3, ("ore", "ore", "ore")))
    assert player(s, 0)["pecunias"] == 8
    assert s.pending[-1] == RestoreChoice(0)
    assert s.legal_actions() == [RestoreToken("exploration"), RestoreToken("extraction")]
    assert_illegal(s, RestoreToken("contact"), "no inactive contact token")
    s.apply_action(RestoreToken("exploration"))
    assert active(s, 0) == {"exploration": 3, "contact": 1, "extraction": 0, "construction": 1}


def test_skill_9_one_inactive_track_is_restored_directly():
    s = scenario(players=2, skills=SK_C, market=1)
    learn(s, 0, 9)
    give(s, 0, wood=3)
    set_tokens(s, 0, "construction", active=0)
    s.apply_action(Sell(3, ("wood",) * 3))
    assert not s.pending and active(s, 0)["construction"] == 1


def test_skill_9_nothing_to_restore_ruling_9():
    s = scenario(players=2, skills=SK_C, market=1)
    learn(s, 0, 9)
    give(s, 0, wood=3)
    before = active(s, 0)
    s.apply_action(Sell(3, ("wood",) * 3))
    assert not s.pending and active(s, 0) == before
    assert s.log[-1].kind == "tokens_restored" and s.log[-1].data["amount"] == 0


@pytest.mark.parametrize("market, option, payment, restores", [
    (1, 1, ("food",), False), (1, 2, ("food", "food"), False), (1, 3, ("food",) * 3, True),
    (2, 2, ("food", "wood"), False), (2, 3, ("food", "water", "wood"), True),
    (3, 2, ("food", "water", "wood", "ore"), True),
])
def test_skill_9_needs_at_least_3_resources(market, option, payment, restores):
    s = scenario(players=2, skills=SK_C, market=market)
    learn(s, 0, 9)
    give(s, 0, food=3, water=1, wood=1, ore=1)
    set_tokens(s, 0, "exploration", active=3)
    s.apply_action(Sell(option, payment))
    assert active(s, 0)["exploration"] == (4 if restores else 3)


# ------------------------------------------------------------------ 10: buildings produce 1 more


def test_skill_10_buildings_produce_one_more():
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 10)
    put_building(s, (2, -1), "mill", 0)
    put_building(s, (2, -2), "mine", 1)
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == r(food=2)  # 1 + 1 (skill 10)
    assert res(s, 1) == r(ore=1)


def test_skill_10_with_the_cap():
    s = scenario(players=2, skills=SK_A)
    learn(s, 0, 10)
    put_building(s, (2, -1), "mill", 0)
    give(s, 0, food=2)
    end_round(s, "plain", FAR_PLAINS)
    assert res(s, 0) == r(food=3)  # 2 + 2 capped at 3: one goes back
    assert supply(s)["resources"]["food"] == 13


# ------------------------------------------------------------------ 11: +1 valor per building


@pytest.mark.parametrize("cell, building, pay, valor", [
    ((2, -1), "mill", dict(wood=1, water=1), 2), ((2, 0), "sawmill", dict(water=1, ore=1), 3),
    ((2, -2), "mine", dict(water=1, food=1), 4), ((2, 0), "noria", dict(ore=1), 2),
])
def test_skill_11_one_more_valor_per_building(cell, building, pay, valor):
    s = scenario(players=2, skills=SK_B)
    learn(s, 0, 11)
    place(s, 0, cell)
    give(s, 0, **pay)
    s.apply_action(Build(building))
    assert player(s, 0)["valor"] == valor  # building valor + 1


# ------------------------------------------------------------------ 12: extraction gives 1 more of your choice


def test_skill_12_extraction_gives_a_resource_of_your_choice():
    s = scenario(players=2, skills=SK_C)
    learn(s, 0, 12)
    place(s, 0, (2, 0))
    s.apply_action(Extract((2, 0), "wood"))
    assert s.pending[-1] == ResourceChoice(0, 1, "skill 12")
    assert s.legal_actions() == [ChooseResource(x) for x in ("food", "water", "wood", "ore")]
    s.apply_action(ChooseResource("ore"))
    assert res(s, 0) == r(wood=1, ore=1)
    assert supply(s)["depletion"] == 11  # one depletion token only


def test_skill_12_choice_may_overflow_ruling_8():
    s = scenario(players=2, skills=SK_C)
    learn(s, 0, 12)
    give(s, 0, ore=3)
    place(s, 0, (2, 0))
    s.apply_action(Extract((2, 0), "wood"))
    s.apply_action(ChooseResource("ore"))  # allowed, and it goes straight back
    assert res(s, 0) == r(wood=1, ore=3)
    assert supply(s)["resources"]["ore"] == 13
