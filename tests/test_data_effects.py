"""Data values that the rules once ignored now change behaviour: each test edits one
value in a copy of data/ and sees the game change (quest ``per`` of the
rightmost_markers and region_majority quests, the lake's ``extract``, the card numbers
named in sentences, the buildings' ``production``); the effect registry
(haunted_kit/effects.py) names a real implementation for every effect the data can name.

Below "one number at a time": every skill ``amount``, every marker-slot valor, every
ghost-card ``amount``, every market option's ``count`` and ``pecunias``, every bonus
card's ``contact_cost`` and each reward's ``pecunias``, ``resources`` and ``valor`` is
edited alone in a copy of data/, and the exact changed outcome is asserted."""

from __future__ import annotations

import importlib

import pytest

import haunted_kit as hk
from haunted_kit import actions as A
from haunted_kit.effects import COMMON, EFFECTS
from haunted_kit.rules import ctx_of, quest_score
from haunted_kit.scenario import end_round, learn, place, put_building, scenario, set_turn
from ruletools import copy_data, edit, res

#: cells the spread's ghosts go to, far from the buildings (as in test_flow)
FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


def rightmost_score(box):
    """P1's markers on the rightmost slot of two skill cards: quest 4's (valor, fulfilments)."""
    s = scenario(players=3, box=box)
    for k in s.skills[:2]:
        s.set_marker_slot(k, len(s.marker_slots(k)) - 1, 0)
    return quest_score(s, ctx_of(s), 0, 4)


def test_rightmost_markers_counts_per_its_unit(tmp_path):
    """Quest 4: 2 valor per marker in a rightmost slot (per = 1); per = 2 counts pairs."""
    assert rightmost_score(hk.default_box()) == (4, 2)
    d = copy_data(tmp_path)
    edit(d / "quests.toml", 'effect = "rightmost_markers"\nper = 1', 'effect = "rightmost_markers"\nper = 2')
    assert rightmost_score(hk.load_box(d)) == (2, 1)


def majority_score(box):
    """P1 alone builds in regions 1 and 2 (a mill on each one's plain): quest 3."""
    s = scenario(players=2, box=box)
    plains = [next(c for c in s.field.region_cells(slot) if s.field.terrain[c] == "plain") for slot in (1, 2)]
    for c in plains:
        put_building(s, s.field.cells[c], "mill", owner=0)
    return quest_score(s, ctx_of(s), 0, 3)


def test_region_majority_counts_per_its_unit(tmp_path):
    """Quest 3: 4 valor per region where P1 has the most buildings; per = 2 counts pairs."""
    assert majority_score(hk.default_box()) == (8, 2)
    d = copy_data(tmp_path)
    edit(d / "quests.toml", 'effect = "region_majority"\nper = 1', 'effect = "region_majority"\nper = 2')
    assert majority_score(hk.load_box(d)) == (4, 1)


def lake_extractions(box):
    """P1's sensor next to the lake (2, 1): the extractions listed on the lake."""
    s = scenario(players=2, box=box)
    place(s, 0, (2, 0))
    return [a for a in s.legal_actions() if isinstance(a, A.Extract) and a.cell == (2, 1)], s


def test_the_lake_gives_what_its_extract_names(tmp_path):
    """Rulebook "Game Field: Lake": a lake gives water to an adjacent sensor; the box's
    lake `extract` names that resource, so a house rule can change it."""
    got, s = lake_extractions(hk.default_box())
    assert got == [A.Extract((2, 1), "water")]
    d = copy_data(tmp_path)
    edit(d / "terrain.toml", '[lake]\nletter = "L"\nexplore_cost = 0\nextract = "water"',
         '[lake]\nletter = "L"\nexplore_cost = 0\nextract = "ore"')
    got, s = lake_extractions(hk.load_box(d))
    assert got == [A.Extract((2, 1), "ore")]
    assert s.why_not(A.Extract((2, 1), "water")).text == "a lake gives only ore, not water"


def extract_with_craft_skill(box, skill):
    """P1 knows ``skill`` (a Craft card) and extracts on its own cell (2, 0)."""
    s = scenario(players=2, box=box, skills=(1, 4, 8, skill))
    learn(s, 0, skill)
    place(s, 0, (2, 0))
    s.apply_action(next(a for a in s.legal_actions() if isinstance(a, A.Extract) and a.cell == (2, 0)))
    return s


def test_card_numbers_in_sentences_come_from_the_data(tmp_path):
    """The extraction bonus names its skill card by the number the data gives the card
    with that effect: skill 12 in the box; with the effects of cards 11 and 12 swapped,
    the same effect is skill 11's and the sentence says so."""
    s = extract_with_craft_skill(hk.default_box(), 12)
    assert s.pending[-1].why == "skill 12"
    d = copy_data(tmp_path)
    edit(d / "skills.toml", 'effect = "build_valor"', 'effect = "extract_bonus_tmp"')
    edit(d / "skills.toml", 'effect = "extract_bonus"', 'effect = "build_valor"')
    edit(d / "skills.toml", 'effect = "extract_bonus_tmp"', 'effect = "extract_bonus"')
    s = extract_with_craft_skill(hk.load_box(d), 11)
    assert s.pending[-1].why == "skill 11" and "skill 11" in s.pending[-1].status()


def produced(box):
    """P1's mill on (2, -1) and P2's mine on (2, -2), one round later: (P1 food, P2 ore)."""
    s = scenario(players=2, box=box)
    put_building(s, (2, -1), "mill", 0)
    put_building(s, (2, -2), "mine", 1)
    end_round(s, "plain", FAR_PLAINS)
    return res(s, 0)["food"], res(s, 1)["ore"], [e.text for e in s.log if e.kind == "production"]


def test_production_amount_is_a_data_value(tmp_path):
    """Rulebook "Game Flow" step 2: each building produces its resource; the box says
    how many (kit default 1). A mill producing 2 gives its owner 2 food, the mine still 1."""
    food, ore, texts = produced(hk.default_box())
    assert (food, ore) == (1, 1)
    assert hk.default_box().buildings["mill"].production == 1
    d = copy_data(tmp_path)
    edit(d / "buildings.toml", 'income = "food"\nproduction = 1', 'income = "food"\nproduction = 2')
    food, ore, texts = produced(hk.load_box(d))
    assert (food, ore) == (2, 1)
    assert any("mill" in t and "produces 2 food" in t for t in texts)
    prov = {(f, e, k): v for f, e, k, v in hk.default_box().provenance}
    assert prov["buildings.toml", "mill", "production"] == "kit default"
    prov = {(f, e, k): v for f, e, k, v in hk.load_box(d).provenance}
    assert prov["buildings.toml", "mill", "production"] == "house rule"  # the edited copy says so


@pytest.mark.parametrize("family, name", [(f, n) for f, kinds in EFFECTS.items() for n in kinds])
def test_every_registered_effect_names_its_implementation(family, name):
    """Each effect's ``implemented_in`` resolves to a real function, and the data files
    use only registered effects (the loader refuses others: tests/test_box.py)."""
    effect = EFFECTS[family][name]
    assert effect.implemented_in and effect.section
    for dotted in effect.implemented_in:
        module, _, attr = dotted.partition(".")
        obj = importlib.import_module(f"haunted_kit.{module}")
        for part in attr.split("."):
            obj = getattr(obj, part)
        assert callable(obj), dotted
    assert not set(effect.params) & COMMON[family]


def test_the_box_uses_every_kind_the_registry_lists():
    """Every registered skill, quest and ghost-card effect and market kind is on some
    card of the reference box (none is dead code), and every card names a registered one."""
    box = hk.default_box()
    assert {sk.effect for sk in box.skills.values()} == set(EFFECTS["skill"])
    assert {q.effect for q in box.quests.values()} == set(EFFECTS["quest"])
    assert {g.effect for g in box.ghost_cards.values()} == set(EFFECTS["ghost card"])
    assert {o.kind for opts in box.market_cards.values() for o in opts} == set(EFFECTS["market option"])


def test_pending_sentences_name_the_card_the_box_gives_the_effect(tmp_path):
    """The waiting sentences of skill 2 (choose_bonus) and skill 9 (sell_restore) take
    the card number from the box: with the two cards' numbers swapped, they name the other card."""
    from haunted_kit.flow import BonusChoice, RestoreChoice
    box = hk.default_box()
    assert BonusChoice(0).status(box) == "P1 must take a bonus reward or roll the bonus die (skill 2)"
    assert RestoreChoice(1).status(box) == "P2 must choose a token to restore (skill 9)"
    d = copy_data(tmp_path)
    edit(d / "skills.toml", "[skills.2]", "[skills.tmp]")  # the two cards swap numbers
    edit(d / "skills.toml", "[skills.9]", "[skills.2]")
    edit(d / "skills.toml", "[skills.tmp]", "[skills.9]")
    swapped = hk.load_box(d)
    assert BonusChoice(0).status(swapped).endswith("(skill 9)")
    assert RestoreChoice(1).status(swapped).endswith("(skill 2)")
    # the engine's refusal while a decision waits uses the game's box
    s = scenario(players=2, box=swapped, skills=(1, 2, 4, 10))
    s.pending.append(BonusChoice(0))
    assert s.why_not(A.EndTurn()).text == "P1 must take a bonus reward or roll the bonus die (skill 9) first"


# ------------------------------------------------------------------ one number at a time
# Each test below edits exactly one number of a copied box, plays the effect that reads it,
# and asserts the outcome worked out from the rule text with the edited number (and with
# the shipped one). The parameters come from the data entries, so a new skill amount, a
# new market option or a new bonus reward without a test here fails.

from haunted_kit.flow import ResourceChoice  # noqa: E402
from haunted_kit.scenario import give, put_ghost, set_calendar, set_tokens  # noqa: E402
from ruletools import active  # noqa: E402

BOX = hk.default_box()
SKILL_DECKS = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]


def with_skill(box, skill, players=2, **kw):
    """A 2-player scenario whose deck of ``skill`` shows it; P1 has learnt it."""
    chosen = tuple(skill if skill in deck else deck[0] for deck in SKILL_DECKS)
    s = scenario(players=players, skills=chosen, box=box, **kw)
    learn(s, 0, skill)
    return s


def edited_box(tmp_path, file, old, new):
    """The box from a copy of data/ with the text ``old`` of ``file`` replaced by ``new``
    (``old`` must occur exactly once)."""
    d = copy_data(tmp_path)
    text = (d / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
    edit(d / file, old, new)
    return hk.load_box(d)


def contact_valor(box, a):
    """Skill 1: season 1 bonus face 5 gives 1 valor, the skill ``a`` more."""
    s = with_skill(box, 1)
    put_ghost(s, (0, 0))
    s.force_chance(5)
    s.apply_action(A.Contact())
    return s.valor[0], 1 + a


def contact_restore(box, a):
    """Skill 3: a season-3 contact pays all 3 contact tokens, the skill restores ``a`` (at most 3)."""
    s = with_skill(box, 3)
    set_calendar(s, 3, 1)
    set_tokens(s, 0, "contact", owned=3, active=3)
    put_ghost(s, (0, 0))
    s.force_chance(1)
    s.apply_action(A.Contact())
    return active(s, 0)["contact"], min(a, 3)


def cheaper_forest(box, a):
    """Skill 4: exploring the forest (2, 0) costs 2 - ``a`` of 4 active exploration tokens."""
    s = with_skill(box, 4)
    place(s, 0, (1, 0))
    s.apply_action(A.Explore((2, 0)))
    return active(s, 0)["exploration"], 4 - (2 - a)


def cheaper_mountain(box, a):
    """Skill 5: exploring the mountain (1, 2) costs 3 - ``a``."""
    s = with_skill(box, 5)
    place(s, 0, (1, 1))
    s.apply_action(A.Explore((1, 2)))
    return active(s, 0)["exploration"], 4 - (3 - a)


def bigger_supply(box, a):
    """Skill 7: P1 keeps 3 + ``a`` food. Holding 2 + ``a``, an extraction of food is kept;
    holding 3 + ``a``, the extracted food goes back to the supply."""
    got = []
    for held in (2 + a, 3 + a):
        s = with_skill(box, 7)
        give(s, 0, food=held)
        place(s, 0, (2, -1))
        s.apply_action(A.Extract((2, -1), "food"))
        got.append(res(s, 0)["food"])
    return got, [3 + a, 3 + a]


def sell_bonus(box, a):
    """Skill 8: market card 1 option 1 (1 food) pays 2 pecunias, the skill ``a`` more."""
    s = with_skill(box, 8, market=1)
    give(s, 0, food=1)
    s.apply_action(A.Sell(1, ("food",)))
    return s.pecunias(0), 2 + a


def sell_restore(box, a):
    """Skill 9: a sale that spends at least ``a`` resources restores an exploration token.
    Sales of 3 (market 1, option 3) and of 4 (market 3, option 2) resources."""
    got = []
    for market, option, payment in ((1, 3, ("ore",) * 3), (3, 2, ("food", "water", "wood", "ore"))):
        s = with_skill(box, 9, market=market)
        give(s, 0, **{r: payment.count(r) for r in set(payment)})
        set_tokens(s, 0, "exploration", active=3)
        s.apply_action(A.Sell(option, payment))
        got.append(active(s, 0)["exploration"])
    return got, [4 if 3 >= a else 3, 4 if 4 >= a else 3]


def extra_income(box, a):
    """Skill 10: P1's mill produces 1 + ``a`` food at production (capped at 3)."""
    s = with_skill(box, 10)
    put_building(s, (2, -1), "mill", 0)
    end_round(s, "plain", FAR_PLAINS)
    return res(s, 0)["food"], min(1 + a, 3)


def build_valor(box, a):
    """Skill 11: building a mill gives its 1 valor and ``a`` more."""
    s = with_skill(box, 11)
    place(s, 0, (2, -1))
    give(s, 0, wood=1, water=1)
    s.apply_action(A.Build("mill"))
    return s.valor[0], 1 + a


def extract_bonus(box, a):
    """Skill 12: an extraction also gives ``a`` resources of P1's choice."""
    s = with_skill(box, 12)
    place(s, 0, (2, 0))
    s.apply_action(A.Extract((2, 0), "wood"))
    waiting = s.pending[-1]
    for _ in range(a):
        s.apply_action(A.ChooseResource("ore"))
    return (waiting, res(s, 0)["wood"], res(s, 0)["ore"]), (ResourceChoice(0, a, "skill 12"), 1, min(a, 3))


#: skill effect -> play(box, amount) -> (outcome, outcome worked out for ``amount``)
SKILL_AMOUNT_PLAYS = {
    "contact_valor": contact_valor, "contact_restore": contact_restore, "cheaper_forest": cheaper_forest,
    "cheaper_mountain": cheaper_mountain, "bigger_supply": bigger_supply, "sell_bonus": sell_bonus,
    "sell_restore": sell_restore, "extra_income": extra_income, "build_valor": build_valor,
    "extract_bonus": extract_bonus,
}
AMOUNT_SKILLS = [n for n, sk in BOX.skills.items() if "amount" in EFFECTS["skill"][sk.effect].params]


def test_every_skill_amount_has_a_play():
    assert sorted(BOX.skills[n].effect for n in AMOUNT_SKILLS) == sorted(SKILL_AMOUNT_PLAYS)


@pytest.mark.parametrize("number", AMOUNT_SKILLS)
def test_each_skill_amount_governs_its_effect(tmp_path, number):
    """Rulebook "Card Reference: Skill Cards": the skill's number is the box's ``amount``;
    with that one number raised by 1 the effect changes by exactly that."""
    sk = BOX.skills[number]
    play = SKILL_AMOUNT_PLAYS[sk.effect]
    got, want = play(BOX, sk.amount)
    assert got == want
    new = sk.amount + 1
    box = edited_box(tmp_path, "skills.toml", f'[skills.{number}]\ndeck = "{sk.deck}"\ncost = {list(sk.cost)!r}'.replace("'", '"')
                     + f'\neffect = "{sk.effect}"\namount = {sk.amount}\n',
                     f'[skills.{number}]\ndeck = "{sk.deck}"\ncost = {list(sk.cost)!r}'.replace("'", '"')
                     + f'\neffect = "{sk.effect}"\namount = {new}\n')
    assert box.skills[number].amount == new
    got2, want2 = play(box, new)
    assert got2 == want2 and got2 != got


@pytest.mark.parametrize("slot", range(len(BOX.skill_slot_valor)))
def test_each_marker_slot_valor_governs_learning(tmp_path, slot):
    """Rulebook "Skill Cards": learning takes the leftmost free marker slot of the card and
    its valor. In a 4-player game no slot is covered, so the n-th learner takes slot n."""
    valor = list(BOX.skill_slot_valor)
    raised = valor[:slot] + [valor[slot] + 5] + valor[slot + 1:]
    box = edited_box(tmp_path, "skills.toml", f"valor = {valor}", f"valor = {raised}")
    for b, values in ((BOX, valor), (box, raised)):
        s = scenario(players=4, skills=(1, 4, 7, 10), box=b)
        for p in range(slot + 1):
            place(s, p, (1, 0))
            give(s, p, food=1, water=1)
            set_turn(s, to_move=p)
            s.apply_action(A.Learn(1))
        assert s.valor[slot] == values[slot]


@pytest.mark.parametrize("number", [n for n, g in BOX.ghost_cards.items()
                                    if "amount" in EFFECTS["ghost card"][g.effect].params])
def test_each_ghost_card_amount_governs_its_effect(tmp_path, number):
    """Ghost card 3 ("costly_ghost_cells"): exploring the ghost's plain (2, -1) costs 1 plus
    the card's ``amount`` exploration tokens; raised by 1, it costs 1 more."""
    card = BOX.ghost_cards[number]
    assert card.effect == "costly_ghost_cells"
    box = edited_box(tmp_path, "ghost_cards.toml", f'effect = "{card.effect}"\namount = {card.amount}\n',
                     f'effect = "{card.effect}"\namount = {card.amount + 1}\n')
    for b, a in ((BOX, card.amount), (box, card.amount + 1)):
        s = scenario(players=2, mode="citizen", extra_ghost_cards=(), box=b)
        assert number in s.config.ghost_cards
        place(s, 0, (1, 0))
        put_ghost(s, (2, -1))
        s.apply_action(A.Explore((2, -1)))
        assert active(s, 0)["exploration"] == 4 - (1 + a)


MARKET_OPTIONS = [(card, i) for card, opts in BOX.market_cards.items() for i in range(1, len(opts) + 1)]


def option_text(card, opt):
    return f'[[market_cards.{card}.options]]\ncount = {opt.count}\nkind = "{opt.kind}"\npecunias = {opt.pecunias}\n'


def payment_for(opt, count):
    """A payment of ``count`` resources that fits ``opt``'s kind."""
    kinds = ["food", "water", "wood", "ore"]
    return ("food",) * count if opt.kind in ("same", "any") else tuple(kinds[:count])


@pytest.mark.parametrize("card, option", MARKET_OPTIONS)
def test_each_market_pecunias_governs_the_sale(tmp_path, card, option):
    """Rulebook "Actions: Sell": the option pays its ``pecunias``; raised by 3, the same sale pays 3 more."""
    opt = BOX.market_cards[card][option - 1]
    box = edited_box(tmp_path, "market_cards.toml", option_text(card, opt),
                     option_text(card, opt).replace(f"pecunias = {opt.pecunias}", f"pecunias = {opt.pecunias + 3}"))
    for b, pec in ((BOX, opt.pecunias), (box, opt.pecunias + 3)):
        s = scenario(players=2, market=card, box=b)
        pay = payment_for(opt, opt.count)
        give(s, 0, **{r: pay.count(r) for r in set(pay)})
        s.apply_action(A.Sell(option, pay))
        assert s.pecunias(0) == pec


@pytest.mark.parametrize("card, option", [(c, i) for c, i in MARKET_OPTIONS if BOX.market_cards[c][i - 1].kind != "any"])
def test_each_market_count_governs_the_payment(tmp_path, card, option):
    """The option takes exactly ``count`` resources: with the count one lower (one higher
    for a 2-resource option), the old payment is refused and one of the new size is taken."""
    opt = BOX.market_cards[card][option - 1]
    new = opt.count + 1 if opt.count == 2 else opt.count - 1
    box = edited_box(tmp_path, "market_cards.toml", option_text(card, opt),
                     option_text(card, opt).replace(f"count = {opt.count}", f"count = {new}"))
    s = scenario(players=2, market=card, box=box)
    give(s, 0, food=3, water=1, wood=1, ore=1)
    refusal = s.why_not(A.Sell(option, payment_for(opt, opt.count)))
    assert refusal is not None and f"takes {new}" in refusal.text
    s.apply_action(A.Sell(option, payment_for(opt, new)))
    assert s.pecunias(0) == opt.pecunias


BONUS_VALUES = [(season, face, field) for season, card in BOX.bonus_cards.items() for face in range(1, 7)
                for field in ("pecunias", "resources", "valor")]


def reward_text(card, face):
    r = card.rewards[face - 1]
    return f"{{ face = {face}, pecunias = {r.pecunias}, resources = {r.resources}, valor = {r.valor} }}"


def contact_outcome(box, season, face):
    """P1 contacts a ghost in ``season`` with bonus face ``face``, choosing ore for any
    resources: (pecunias, valor, ore, resources still to choose)."""
    s = scenario(players=2, box=box)
    set_calendar(s, season, 1)
    set_tokens(s, 0, "contact", owned=3, active=3)
    put_ghost(s, (0, 0))
    s.force_chance(face)
    s.apply_action(A.Contact())
    waiting = s.pending[-1].count if s.pending and isinstance(s.pending[-1], ResourceChoice) else 0
    return s.pecunias(0), s.valor[0], waiting


@pytest.mark.parametrize("season, face, field", BONUS_VALUES)
def test_each_bonus_reward_number_governs_the_contact(tmp_path, season, face, field):
    """Rulebook "Actions: Contact": the bonus die's face picks the season card's reward,
    which gives its pecunias, valor and resources of the receiver's choice. Each of these
    numbers raised by 1 gives exactly 1 more."""
    card = BOX.bonus_cards[season]
    r = card.rewards[face - 1]
    old = reward_text(card, face)
    new = old.replace(f"{field} = {getattr(r, field)}", f"{field} = {getattr(r, field) + 1}")
    d = copy_data(tmp_path)
    text = (d / "bonus_cards.toml").read_text(encoding="utf-8")
    head = text.index(f"[bonus_cards.{season}]")
    assert text.count(old, head, head + 600) == 1
    (d / "bonus_cards.toml").write_text(text[:head] + text[head:].replace(old, new, 1), encoding="utf-8")
    box = hk.load_box(d)
    want = {"pecunias": r.pecunias, "valor": r.valor, "resources": r.resources}
    assert contact_outcome(BOX, season, face) == (want["pecunias"], want["valor"], want["resources"])
    want[field] += 1
    assert contact_outcome(box, season, face) == (want["pecunias"], want["valor"], want["resources"])


@pytest.mark.parametrize("season", list(BOX.bonus_cards))
def test_each_contact_cost_governs_the_contact(tmp_path, season):
    """Rulebook "Actions: Contact": a contact costs the season's bonus card ``contact_cost``
    contact tokens; raised by 1, one more token is spent, and a player with only the old
    cost active is refused."""
    cost = BOX.bonus_cards[season].contact_cost
    box = edited_box(tmp_path, "bonus_cards.toml", f"[bonus_cards.{season}]\ncontact_cost = {cost}\n",
                     f"[bonus_cards.{season}]\ncontact_cost = {cost + 1}\n")
    for b, c in ((BOX, cost), (box, cost + 1)):
        s = scenario(players=2, box=b)
        set_calendar(s, season, 1)
        set_tokens(s, 0, "contact", owned=4, active=4)
        put_ghost(s, (0, 0))
        s.force_chance(1)
        s.apply_action(A.Contact())
        assert active(s, 0)["contact"] == 4 - c
    s = scenario(players=2, box=box)
    set_calendar(s, season, 1)
    set_tokens(s, 0, "contact", owned=cost, active=cost)
    put_ghost(s, (0, 0))
    assert s.why_not(A.Contact()) is not None
