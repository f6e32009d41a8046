"""A choice that names a card or a tile says what a player needs to decide on it, in every
game and every view (they all word a choice with protocol.describe_action): Landmarks' cards
with their building type, cost and victory points (what is discarded or built); Haunted Lands'
skill cards with their effect and cost, quest cards with their text, sales with what they pay,
bonus rewards with what they give; the estate's tiles with what they raise and cost, a join
with its owner, raise and fee. Each figure said is checked against what the engine then does."""

from __future__ import annotations

import random

import pytest

from haunted_kit.games import get_game
from haunted_kit.protocol import describe_action, sample_chance
from haunted_kit.tutorial import Tutorial

SEEDS = range(12)


def positions(name: str, seeds=SEEDS, players=3):
    """Every decision position of seeded random games of ``name`` (chance resolved by the seed)."""
    g = get_game(name)
    for seed in seeds:
        s = g.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_chance(sample_chance(s, seed))
                continue
            yield s
            s.apply_action(rng.choice(s.legal_actions()))


def after(s, a):
    t = s.copy()
    t.apply_action(a)
    return t


def test_landmarks_every_card_a_choice_names_comes_with_its_type_cost_and_points():
    from haunted_kit.landmarks import Acquire, Build, ChooseBuilding
    met = set()
    for s in positions("landmarks"):
        box = s.box
        for a in s.legal_actions():
            named = (a.discards if isinstance(a, Acquire) else (a.card,) if isinstance(a, ChooseBuilding)
                     else tuple(u.discard for u in a.payment if u.discard) if isinstance(a, Build) else ())
            label = describe_action(a, s)
            for key in named:
                c = box.cards[key]
                cost = f"; costs {' + '.join(c.cost)}" if c.cost else ""
                assert f"{c.name} ({c.type} {c.kind}{cost}; {c.victory_points} victory point" in label, label
                met.add(type(a).__name__)
            if isinstance(a, Acquire):  # the cards named are the ones the acquisition takes from the hand
                p, t = s.current_player(), after(s, a)
                assert sorted(t.discard_pile[len(s.discard_pile):]) == sorted(a.discards)
                assert t.tokens[p][a.landmark] == s.tokens[p][a.landmark] + 1
    assert met == {"Acquire", "ChooseBuilding", "Build"}
    # the text's own example: Helen discards the Village Square (a Stone icon) for a Statue
    from haunted_kit import landmarks as lm
    statue = lm.position(hands=[[], ["village_square", "tannery"]], villages=[[], []], gold=[0, 0], lead="build",
                         cannot_follow=[1])
    assert describe_action(lm.Acquire("statue", ("village_square",)), statue) == (
        "acquire a Statue token, discarding Village Square (holy building; costs stone + food; 2 victory points)")


def test_haunted_lands_skill_quest_sale_and_bonus_choices_say_what_they_give():
    from haunted_kit.haunted import actions as A
    met = set()
    for s in positions("haunted", range(6), players=4):
        box, p = s.box, s.current_player()
        for a in s.legal_actions():
            label = describe_action(a, s)
            if isinstance(a, A.Learn):
                k = box.skills[a.skill]
                assert label == f"learn skill {a.skill} ({k.deck}: {k.text.rstrip('.')}; costs {' + '.join(k.cost)})"
            elif isinstance(a, A.ChooseQuest):
                assert label == f"choose quest {a.quest}: {box.quests[a.quest].text}"
            elif isinstance(a, A.Sell):  # the pecunias said are the pecunias the sale pays, a skill's extra included
                gain = after(s, a).pec[p] - s.pec[p]
                assert label.startswith(f"sell {' + '.join(a.payment)} for {gain} pecunia"), label
            elif isinstance(a, A.ChooseBonus):
                reward = next(r for r in box.bonus_cards[s.season].rewards if r.face == a.face)
                assert label == f"take bonus reward {a.face}: {reward.describe()}"
            else:
                continue
            met.add(type(a).__name__)
    assert {"Learn", "ChooseQuest", "Sell"} <= met


def test_haunted_lands_a_bonus_reward_choice_names_its_reward():
    from haunted_kit.haunted import actions as A
    from haunted_kit.haunted.engine import new_game
    s = new_game(players=2, seed=1)
    card = s.box.bonus_cards[s.season]
    assert describe_action(A.ChooseBonus(6), s) == f"take bonus reward 6: {card.rewards[5].describe()}"
    assert card.rewards[5].describe() == "2 valor"  # season 1's card, face 6 (data/bonus.toml)


def test_estate_every_tile_a_choice_names_says_what_it_raises_and_costs():
    from haunted_kit.estate import actions as A
    met = set()
    for s in positions("estate"):
        box, p = s.box, s.current_player()
        for a in s.legal_actions():
            label = describe_action(a, s)
            if isinstance(a, A.PlaceTile):
                t, tile = after(s, a), box.tiles[a.tile]
                paid = s.hand[p]["gold"] - t.hand[p]["gold"]
                raised = t.income[p][tile.raises] - s.income[p][tile.raises]
                assert label.startswith(f"place a {tile.word} (+{raised} {tile.raises} income) on land slot ")
                assert f" for {paid} gold" in label and paid == box.tile_price
            elif isinstance(a, A.Join):
                land, t = s.lands[tuple(a.slot)], after(s, a)
                owner, tile = land["owner"], box.tiles[land["tile"]]
                fee = t.hand[owner]["gold"] - s.hand[owner]["gold"]
                raised = t.income[p][tile.raises] - s.income[p][tile.raises]
                gives = f"+{raised} {tile.raises} income" if raised else "no income"
                assert label.startswith(f"join P{owner + 1}'s {tile.word} on land slot "), label
                assert label.endswith(f"({gives}; {fee} gold to P{owner + 1})") or (not raised and gives in label), label
            elif isinstance(a, A.RemoveTile):
                tile = box.tiles[a.tile]
                assert label == f"remove a {tile.word} (+{tile.amount} {tile.raises} income) of the display from the game"
            else:
                continue
            met.add(type(a).__name__)
    assert {"PlaceTile", "Join", "RemoveTile"} <= met


@pytest.mark.parametrize("name", ["haunted", "estate", "landmarks"])
def test_the_tutorial_lists_a_kinds_choices_as_every_view_words_them(name):
    t = Tutorial(name, seed=3, progress=False)
    checked = 0
    for _ in range(40):
        if t.state.is_terminal():
            break
        for st in t.steps.values():
            if st.key.startswith("kind:") and t.legal_by_kind().get(st.key[5:]):
                now = t.shown(st.key)
                legal = t.legal_by_kind()[st.key[5:]]
                assert list(now.choices[:len(legal[:6])]) == [describe_action(a, t.state) for a in legal[:6]]
                checked += 1
        t.attempt(t.state.legal_actions()[0])
    assert checked >= 3
