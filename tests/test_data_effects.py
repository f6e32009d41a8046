"""Data values that the rules once ignored now change behaviour: each test edits one
value in a copy of data/ and sees the game change (quest ``per`` of the
rightmost_markers and region_majority quests, the lake's ``extract``, the card numbers
named in sentences, the buildings' ``production``); the effect registry
(haunted_kit/effects.py) names a real implementation for every effect the data can name.

Below "one number at a time": every skill ``amount`` and ``cost``, every marker-slot
valor, every ghost-card ``amount``, every market option's ``count`` and ``pecunias``,
every bonus card's ``contact_cost`` and each reward's ``pecunias``, ``resources`` and
``valor``, every building's ``valor``, ``cost_tokens`` and ``cost``, every quest's
``valor`` and ``per`` (and the quests removed with 2 players), every supply count, the
structure numbers of game.toml, each mode's ghost card and season-end values, the
player board (resource cap, extraction tokens, each track's start tokens, training
costs and last-slot valor), each terrain's explore cost, the covered marker slots and
the terrain dice faces are edited alone in a copy of data/, and the exact outcome is
asserted with the shipped and the edited value. The values that must agree with others
(seasons, a track's slots, the bonus die) and the sensor-cell fields of the lake are
refused at load when changed (docs/RULINGS.md, ruling 40)."""

from __future__ import annotations

import importlib
import json

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.box import CHEAPER_TERRAIN
from haunted_kit.haunted.effects import COMMON, EFFECTS
from haunted_kit.haunted.rules import ctx_of, quest_score
from haunted_kit.haunted.scenario import end_round, learn, place, put_building, scenario, set_turn
from ruletools import copy_data, edit, res

#: cells the spread's ghosts go to, far from the buildings (as in test_flow)
FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


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
        obj = importlib.import_module(f"haunted_kit.haunted.{module}")
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
    from haunted_kit.haunted.flow import BonusChoice, RestoreChoice
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

from haunted_kit.haunted.flow import QuestChoice, ResourceChoice  # noqa: E402
from haunted_kit.haunted.scenario import deplete, give, put_ghost, set_calendar, set_tokens, set_valor  # noqa: E402
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
    return edited_entry(tmp_path, file, "", old, new, once=True)


def edited_entry(tmp_path, file, header, old, new, *, once=False):
    """The box from a copy of data/ where the first ``old`` after the line ``header``
    (a TOML table header such as ``[mill]``) of ``file`` becomes ``new``; with ``once``
    ``old`` must occur exactly once in the file."""
    d = copy_data(tmp_path)
    text = (d / file).read_text(encoding="utf-8")
    head = text.index(header)
    if once:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
    at = text.index(old, head)
    (d / file).write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
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
    return [food_after_extraction(with_skill(box, 7), held) for held in (2 + a, 3 + a)], [3 + a, 3 + a]


def food_after_extraction(s, held):
    """P1 holds ``held`` food and extracts food on the plain (2, -1): the food P1 then holds."""
    give(s, 0, food=held)
    place(s, 0, (2, -1))
    s.apply_action(A.Extract((2, -1), "food"))
    return res(s, 0)["food"]


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


def test_an_extraction_bonus_of_zero_asks_for_nothing(tmp_path):
    """Skill 12 with amount 0 (a house rule the box accepts): an extraction gives the wood and
    no resource of P1's choice, and nothing waits; before, a choice of 0 resources waited,
    gave 1 when answered, and no save could hold it (``benchmarks/fuzz.py`` found it)."""
    box = edited_box(tmp_path, "skills.toml", 'effect = "extract_bonus"\namount = 1', 'effect = "extract_bonus"\namount = 0')
    s = with_skill(box, 12)
    place(s, 0, (2, 0))
    s.apply_action(A.Extract((2, 0), "wood"))
    assert not any(isinstance(x, ResourceChoice) for x in s.pending)
    assert (res(s, 0)["wood"], res(s, 0)["ore"]) == (1, 0)
    assert hk.State.from_dict(json.loads(json.dumps(s.to_dict())), box=box).to_dict() == s.to_dict()


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
    with that one number raised by 1 the effect changes by exactly that (lowered by 1 for
    a discount that, raised, would make its terrain free to explore: kit ruling 41)."""
    sk = BOX.skills[number]
    play = SKILL_AMOUNT_PLAYS[sk.effect]
    got, want = play(BOX, sk.amount)
    assert got == want
    terrain = CHEAPER_TERRAIN.get(sk.effect)
    new = sk.amount - 1 if terrain and BOX.terrains[terrain].explore_cost - (sk.amount + 1) < 1 else sk.amount + 1
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
    box = edited_entry(tmp_path, "bonus_cards.toml", f"[bonus_cards.{season}]", old, new)
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


# ------------------------------------------------------------------ buildings
#: where P1's sensor stands to build each building (a noria next to the lake (2, 1))
BUILD_SITE = {"mill": (2, -1), "sawmill": (2, 0), "mine": (2, -2), "noria": (3, 0)}
#: a second cell for each building (quests that count buildings)
SECOND_SITE = {"mill": (3, -1), "sawmill": (1, 1), "mine": (1, 2), "noria": (3, 1)}


def try_build(box, name, tokens, payment, players=2):
    """P1 on ``name``'s site with ``tokens`` active construction tokens and exactly
    ``payment`` resources tries to build: (the refusal text or None, the state after)."""
    s = scenario(players=players, box=box)
    place(s, 0, BUILD_SITE[name])
    set_tokens(s, 0, "construction", owned=max(tokens, 1), active=tokens)
    give(s, 0, **{r: payment.count(r) for r in set(payment)})
    refusal = s.why_not(A.Build(name))
    if refusal is None:
        s.apply_action(A.Build(name))
    return (None if refusal is None else refusal.text), s


def building_text(b):
    return f'cost_tokens = {b.cost_tokens}\ncost = {json.dumps(list(b.cost))}\nvalor = {b.valor}\n'


@pytest.mark.parametrize("name", list(BOX.buildings))
def test_each_building_valor_governs_construction(tmp_path, name):
    """Rulebook "Basic Actions: Construction" and "Buildings": building gives the
    building's valor; raised by 2, exactly 2 more."""
    b = BOX.buildings[name]
    box = edited_entry(tmp_path, "buildings.toml", f"[{name}]", building_text(b),
                       building_text(b).replace(f"valor = {b.valor}", f"valor = {b.valor + 2}"))
    for bx, valor in ((BOX, b.valor), (box, b.valor + 2)):
        refusal, s = try_build(bx, name, b.cost_tokens, b.cost)
        assert (refusal, s.valor[0]) == (None, valor)


@pytest.mark.parametrize("name", list(BOX.buildings))
def test_each_building_token_cost_governs_construction(tmp_path, name):
    """The building takes ``cost_tokens`` active construction tokens: raised by 1, the
    old number of tokens is refused naming the cost, and the new number is all spent."""
    b = BOX.buildings[name]
    c = b.cost_tokens
    box = edited_entry(tmp_path, "buildings.toml", f"[{name}]", building_text(b),
                       building_text(b).replace(f"cost_tokens = {c}", f"cost_tokens = {c + 1}"))
    refusal, s = try_build(BOX, name, c, b.cost)
    assert (refusal, active(s, 0)["construction"]) == (None, 0)
    refusal, s = try_build(box, name, c, b.cost)
    assert refusal == f"a {name} takes {c + 1} construction tokens but P1 has {c} active"
    refusal, s = try_build(box, name, c + 1, b.cost)
    assert (refusal, active(s, 0)["construction"]) == (None, 0)


@pytest.mark.parametrize("name", list(BOX.buildings))
def test_each_building_resource_cost_governs_construction(tmp_path, name):
    """The building costs the resources its ``cost`` lists: with one ore more, the old
    payment is refused naming the new cost, and the new one is spent to the last resource."""
    b = BOX.buildings[name]
    new = list(b.cost) + ["ore"]
    box = edited_entry(tmp_path, "buildings.toml", f"[{name}]", building_text(b),
                       building_text(b).replace(f"cost = {json.dumps(list(b.cost))}", f"cost = {json.dumps(new)}"))
    refusal, s = try_build(BOX, name, b.cost_tokens, b.cost)
    assert (refusal, sum(res(s, 0).values())) == (None, 0)
    refusal, s = try_build(box, name, b.cost_tokens, b.cost)
    assert refusal.startswith(f"a {name} costs {' and '.join(new)}; ")
    refusal, s = try_build(box, name, b.cost_tokens, new)
    assert (refusal, sum(res(s, 0).values()), s.valor[0]) == (None, 0, b.valor)


# ------------------------------------------------------------------ quests


def majority_counts(s, box):
    """P1 alone builds a mill on a plain of regions 1 and 2: 2 regions won."""
    plains = [next(c for c in s.field.region_cells(slot) if s.field.terrain[c] == "plain") for slot in (1, 2)]
    for c in plains:
        put_building(s, s.field.cells[c], "mill", owner=0)
    return [2]


def rightmost_counts(s, box):
    """P1's markers on the rightmost slot of two skill cards: 2 markers."""
    for k in s.skills[:2]:
        s.set_marker_slot(k, len(s.marker_slots(k)) - 1, 0)
    return [2]


def resource_counts(s, box):
    """P1 holds 3 food and 2 water (counted per type)."""
    give(s, 0, food=3, water=2)
    return [3, 2]


def pecunia_counts(s, box):
    give(s, 0, pecunias=7)
    return [7]


def building_counts(s, box, quest):
    """P1 owns two of the quest's building."""
    name = box.quests[quest].building
    for cell in (BUILD_SITE[name], SECOND_SITE[name]):
        put_building(s, cell, name, owner=0)
    return [2]


#: quest effect -> sets up P1's position in a 2-player game, returns the units counted
QUEST_POSITIONS = {"region_majority": majority_counts, "rightmost_markers": rightmost_counts,
                   "resource_sets": resource_counts, "pecunias": pecunia_counts}


def quest_outcome(box, quest):
    """(quest_score of P1, the score worked out from the box: valor x sum(units // per))."""
    s = scenario(players=2, box=box)
    q = box.quests[quest]
    units = (building_counts(s, box, quest) if q.effect == "buildings" else QUEST_POSITIONS[q.effect](s, box))
    fulfilments = sum(u // q.per for u in units)
    return quest_score(s, ctx_of(s), 0, quest), (q.valor * fulfilments, fulfilments)


def test_every_quest_effect_has_a_position():
    assert {q.effect for q in BOX.quests.values()} == set(QUEST_POSITIONS) | {"buildings"}


@pytest.mark.parametrize("quest, field", [(n, f) for n in BOX.quests for f in ("valor", "per")])
def test_each_quest_number_governs_its_score(tmp_path, quest, field):
    """Rulebook "Quest Cards": a quest gives its valor for every ``per`` units of what it
    counts (3 food and 2 water, 7 pecunias, 2 regions, 2 rightmost markers, 2 buildings).
    Raising the valor or the unit by 1 changes the score exactly as worked out."""
    q = BOX.quests[quest]
    value = getattr(q, field)
    box = edited_entry(tmp_path, "quests.toml", f"[quests.{quest}]", f"\n{field} = {value}\n", f"\n{field} = {value + 1}\n")
    assert getattr(box.quests[quest], field) == value + 1
    got, want = quest_outcome(BOX, quest)
    assert got == want
    got2, want2 = quest_outcome(box, quest)
    assert got2 == want2 and got2 != got


def test_the_quests_removed_in_a_2_player_game_are_the_box_list(tmp_path):
    """Rulebook "Setup": with 2 players, quests 3 and 4 go back to the box; listing 3 and
    5 instead deals quest 4 and keeps 5 out."""
    box = edited_box(tmp_path, "quests.toml", "players_2 = [3, 4]", "players_2 = [3, 5]")
    assert scenario(players=2).quests_in_hand(0) == [1, 2, 5, 6, 7, 8]
    assert scenario(players=2, box=box).quests_in_hand(0) == [1, 2, 4, 6, 7, 8]


# ------------------------------------------------------------------ skill costs


@pytest.mark.parametrize("number", list(BOX.skills))
def test_each_skill_cost_governs_learning(tmp_path, number):
    """Rulebook "Additional Actions: Learning": learning pays the skill's ``cost``; with
    one ore more, the old payment is refused naming the new cost and the new one is spent."""
    sk = BOX.skills[number]
    new = list(sk.cost) + ["ore"]
    box = edited_entry(tmp_path, "skills.toml", f"[skills.{number}]\n", f"cost = {json.dumps(list(sk.cost))}",
                       f"cost = {json.dumps(new)}")

    def learn_paying(b, payment):
        s = scenario(players=2, skills=tuple(number if number in d else d[0] for d in SKILL_DECKS), box=b)
        place(s, 0, (1, 0))
        give(s, 0, **{r: payment.count(r) for r in set(payment)})
        refusal = s.why_not(A.Learn(number))
        if refusal is None:
            s.apply_action(A.Learn(number))
        return None if refusal is None else refusal.text, s.knows_skill(0, number), sum(res(s, 0).values())

    assert learn_paying(BOX, sk.cost) == (None, True, 0)
    text, knows, left = learn_paying(box, sk.cost)
    assert text.startswith(f"skill {number} costs {' and '.join(new)}; ") and not knows
    assert learn_paying(box, new) == (None, True, 0)


# ------------------------------------------------------------------ supplies and game structure


def spread_ghosts(box):
    """One round ends and the spread (forced plain) places ghosts: (ghosts on the field, in the supply)."""
    s = scenario(players=2, box=box)
    end_round(s, "plain", FAR_PLAINS)
    return sum(s.ghosts), s.supply()["ghosts"]


def extract_outcome(box, resource):
    """P1 extracts ``resource`` (water beside the lake): (refusal, held, supply of it, depletion supply)."""
    s = scenario(players=2, box=box)
    cell = {"food": (2, -1), "wood": (2, 0), "ore": (2, -2), "water": (2, 0)}[resource]
    place(s, 0, cell)
    refusal = s.why_not(A.Extract(cell, resource))
    if refusal is None:
        s.apply_action(A.Extract(cell, resource))
    return None if refusal is None else refusal.text, res(s, 0)[resource], s.supply()["resources"][resource], s.supply()["depletion"]


def train_outcome(box, track):
    """In a 4-player game P1 on the suburb (1, 0) with 10 pecunias trains ``track``: (refusal, tokens owned)."""
    s = scenario(players=4, box=box)
    place(s, 0, (1, 0))
    give(s, 0, pecunias=10)
    refusal = s.why_not(A.Train(track))
    if refusal is None:
        s.apply_action(A.Train(track))
    return None if refusal is None else refusal.text, s.tokens(0, track)


def supply_line(key, counts):
    return f"{key} = {{ " + ", ".join(f"{k} = {v}" for k, v in counts.items()) + " }"


def supply_case(key, name, new):
    """(old text, new text) of supplies.toml for one count."""
    table = {"buildings": BOX.supply_buildings, "resources": BOX.supply_resources, "action_tokens": BOX.supply_tokens}
    if name is None:
        old = getattr(BOX, {"ghosts": "supply_ghosts", "depletion": "supply_depletion"}.get(key, key))
        return f"\n{key} = {old}\n", f"\n{key} = {new}\n"
    counts = table[key]
    return supply_line(key, counts), supply_line(key, {**counts, name: new})


MAX4 = BOX.max_players
SUPPLY_CASES = (
    [("buildings", b, 0, lambda bx, b=b: try_build(bx, b, 1, BOX.buildings[b].cost)[0],
      None, f"the supply has no {b} piece left") for b in BOX.buildings]
    + [("resources", r, 0, lambda bx, r=r: extract_outcome(bx, r)[1:3], (1, BOX.supply_resources[r] - 1), (0, 0))
       for r in BOX.resources]
    + [("depletion", None, 0, lambda bx: extract_outcome(bx, "food")[::3], (None, BOX.supply_depletion - 1),
        ("the supply has no depletion token left to mark the cell", 0))]
    + [("action_tokens", t, MAX4 * tr.start_tokens, lambda bx, t=t: train_outcome(bx, t), (None, tr.start_tokens + 1),
        (f"the supply has no {t} token left", tr.start_tokens)) for t, tr in BOX.tracks.items()]
    + [("ghosts", None, 2, spread_ghosts, (BOX.ghosts_per_spread, BOX.supply_ghosts - BOX.ghosts_per_spread), (2, 0))]
    + [("player_markers", None, 0, lambda bx: try_build(bx, "mill", 1, BOX.buildings["mill"].cost)[0],
        None, "P1 has used all 0 player markers")]
)


@pytest.mark.parametrize("key, name, new, play, shipped, edited", SUPPLY_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in SUPPLY_CASES])
def test_each_supply_count_governs_the_game(tmp_path, key, name, new, play, shipped, edited):
    """Ruling 1 (limited supplies): every count of supplies.toml is what the game can
    hand out. Lowered (to 0 pieces, resources, depletion tokens and markers; to the 4
    players' starting tokens; to 2 ghosts), the same action is refused or gives less."""
    old, text = supply_case(key, name, new)
    box = edited_box(tmp_path, "supplies.toml", old, text)
    assert play(BOX) == shipped
    assert play(box) == edited


def season_and_round(box):
    """Round 2 of season 1 ends: the (season, round) that follows."""
    s = scenario(players=2, box=box)
    set_calendar(s, 1, 2)
    end_round(s, "plain", FAR_PLAINS)
    return s.season, s.round


def config_problem(box, players):
    try:
        scenario(players=players, box=box)
    except hk.ConfigError as e:
        return str(e)
    return None


def valor_track(box):
    """P1 at 25 valor: (marks on the valor track, P1's board says the token is flipped)."""
    from haunted_kit.haunted.draw.html import player_board_html, valor_track_html
    s = scenario(players=2, box=box)
    set_valor(s, 0, 25)
    return valor_track_html(s).count('title="'), f"(+{box.valor_track_marks} side up)" in player_board_html(s, 0)


STRUCTURE_CASES = [
    ("ghosts_per_spread", 3, spread_ghosts, (4, 21), (3, 22)),
    ("rounds_per_season", 2, season_and_round, (1, 3), (2, 1)),
    ("min_players", 3, lambda bx: config_problem(bx, 2), None, "players must be between 3 and 4, got 2"),
    ("max_players", 3, lambda bx: config_problem(bx, 4), None, "players must be between 2 and 3, got 4"),
    ("valor_track_marks", 20, valor_track, (30, False), (20, True)),
]


@pytest.mark.parametrize("key, new, play, shipped, edited", STRUCTURE_CASES, ids=[c[0] for c in STRUCTURE_CASES])
def test_each_structure_number_governs_the_game(tmp_path, key, new, play, shipped, edited):
    """Rulebook "Game Flow" and "Setup": ghosts per spread, rounds per season, the player
    counts and the valor track's marks (a token past the last mark shows its +marks side)."""
    box = edited_box(tmp_path, "game.toml", f"\n{key} = {getattr(BOX, key)}\n", f"\n{key} = {new}\n")
    assert play(BOX) == shipped
    assert play(box) == edited


@pytest.mark.parametrize("new, problem", [(4, "missing: every season needs a bonus card"),
                                          (2, "season end 2 is not a season before the last")])
def test_the_number_of_seasons_must_agree_with_the_cards_and_season_ends(tmp_path, new, problem):
    """Changing ``seasons`` alone is refused at load: a fourth season has no bonus card,
    and with two seasons the modes' season-2 ends come after the last season."""
    with pytest.raises(hk.BoxError, match=problem):
        edited_box(tmp_path, "game.toml", "\nseasons = 3\n", f"\nseasons = {new}\n")


@pytest.mark.parametrize("mode", list(BOX.modes))
def test_each_mode_ghost_card_is_the_one_in_play(tmp_path, mode):
    """Rulebook "Setup" step 8: the mode's ghost card is in play; another number puts that card in play."""
    card = BOX.modes[mode].ghost_card
    other = min(set(BOX.ghost_cards) - {card})
    box = edited_entry(tmp_path, "game.toml", f"[modes.{mode}]", f"ghost_card = {card}", f"ghost_card = {other}")
    assert scenario(players=2, mode=mode).config.ghost_cards == (card,)
    assert scenario(players=2, mode=mode, box=box).config.ghost_cards == (other,)


# ------------------------------------------------------------------ the player board


def test_the_resource_cap_governs_what_is_kept(tmp_path):
    """Rulebook "Player Board": at most ``cap`` of each resource; raised to 4, a fourth food is kept."""
    box = edited_box(tmp_path, "player_board.toml", "cap = 3", "cap = 4")
    assert food_after_extraction(scenario(players=2), 3) == 3
    assert food_after_extraction(scenario(players=2, box=box), 3) == 4


def test_the_extraction_token_cost_governs_extraction(tmp_path):
    """``action_costs.extraction_tokens``: raised to 2, one active token is refused naming
    the cost, and two are both spent."""
    box = edited_box(tmp_path, "player_board.toml", "extraction_tokens = 1", "extraction_tokens = 2")
    for b, tokens, refusal, left in ((BOX, 1, None, 0), (box, 1, "an extraction takes 2 extraction tokens but P1 has 1 active", 1),
                                     (box, 2, None, 0)):
        s = scenario(players=2, box=b)
        set_tokens(s, 0, "extraction", owned=2, active=tokens)
        place(s, 0, (2, -1))
        why = s.why_not(A.Extract((2, -1), "food"))
        assert (None if why is None else why.text) == refusal
        if why is None:
            s.apply_action(A.Extract((2, -1), "food"))
        assert active(s, 0)["extraction"] == left


def track_text(tr):
    return (f"[tracks.{tr.name}]\nslots = {tr.slots}\nstart_tokens = {tr.start_tokens}\n"
            f"training_costs = {list(tr.training_costs)}\nlast_slot_valor = {tr.last_slot_valor}\n")


def train_from(box, track, owned, pecunias):
    """P1 owns ``owned`` ``track`` tokens and ``pecunias`` on the suburb and trains: (refusal, pecunias, owned, valor)."""
    s = scenario(players=2, box=box)
    place(s, 0, (1, 0))
    set_tokens(s, 0, track, owned=owned)
    give(s, 0, pecunias=pecunias)
    why = s.why_not(A.Train(track))
    if why is None:
        s.apply_action(A.Train(track))
    return None if why is None else why.text, s.pecunias(0), s.tokens(0, track), s.valor[0]


@pytest.mark.parametrize("track, slot", [(t, i) for t, tr in BOX.tracks.items() for i in range(tr.start_tokens, tr.slots)])
def test_each_training_cost_governs_training(tmp_path, track, slot):
    """Rulebook "Additional Actions: Training": the token for slot i costs
    ``training_costs[i]`` pecunias; raised by 1, the old price is refused naming the new one."""
    tr = BOX.tracks[track]
    c = tr.training_costs[slot]
    costs = list(tr.training_costs)
    costs[slot] += 1
    box = edited_entry(tmp_path, "player_board.toml", f"[tracks.{track}]", f"training_costs = {list(tr.training_costs)}",
                       f"training_costs = {costs}")
    last = tr.last_slot_valor if slot == tr.slots - 1 else 0
    assert train_from(BOX, track, slot, c) == (None, 0, slot + 1, last)
    assert train_from(box, track, slot, c) == (f"the next {track} token costs {c + 1} pecunias but P1 has {c}", c, slot, 0)
    assert train_from(box, track, slot, c + 1) == (None, 0, slot + 1, last)


@pytest.mark.parametrize("track", list(BOX.tracks))
def test_each_last_slot_valor_governs_training(tmp_path, track):
    """Filling the last slot of a track gives its ``last_slot_valor``; raised by 2, 2 more."""
    tr = BOX.tracks[track]
    box = edited_entry(tmp_path, "player_board.toml", f"[tracks.{track}]", f"last_slot_valor = {tr.last_slot_valor}",
                       f"last_slot_valor = {tr.last_slot_valor + 2}")
    cost = tr.training_costs[-1]
    assert train_from(BOX, track, tr.slots - 1, cost)[3] == tr.last_slot_valor
    assert train_from(box, track, tr.slots - 1, cost)[3] == tr.last_slot_valor + 2


@pytest.mark.parametrize("track", list(BOX.tracks))
def test_each_start_tokens_governs_setup(tmp_path, track):
    """Rulebook "Setup": each player starts with the track's ``start_tokens`` tokens, taken from the supply."""
    tr = BOX.tracks[track]
    if tr.start_tokens == tr.slots:
        pytest.skip("the track is full at the start")
    box = edited_entry(tmp_path, "player_board.toml", f"[tracks.{track}]", f"start_tokens = {tr.start_tokens}",
                       f"start_tokens = {tr.start_tokens + 1}")
    for b, start in ((BOX, tr.start_tokens), (box, tr.start_tokens + 1)):
        s = scenario(players=2, box=b)
        assert (s.tokens(0, track), active(s, 0)[track], s.supply()["tokens"][track]) == (
            start, start, BOX.supply_tokens[track] - 2 * start)


def test_the_slots_of_a_track_must_agree_with_its_training_costs(tmp_path):
    """Changing a track's ``slots`` alone is refused at load naming the mismatch."""
    with pytest.raises(hk.BoxError, match="training_costs lists 6 slots but the track has 7"):
        edited_entry(tmp_path, "player_board.toml", "[tracks.exploration]", "slots = 6", "slots = 7")


# ------------------------------------------------------------------ dice


def spread_die(box, terrain_die):
    """The terrain die's outcomes at the first spread: {face: probability}."""
    s = scenario(players=2, box=box, auto_chance=False, terrain_die=terrain_die)
    while not s.is_chance_node():
        s.apply_action(A.EndTurn())
    return dict(s.chance_outcomes())


@pytest.mark.parametrize("die, table, old, new", [
    ("standard", "[terrain_die]", '"plain", "plain", "forest"', '"plain", "plain", "plain"'),
    ("with_lakes", "[terrain_die_with_lakes]", '"forest", "mountain", "lake"', '"forest", "forest", "lake"'),
])
def test_each_terrain_die_face_governs_the_spread(tmp_path, die, table, old, new):
    """Rulebook "Game Flow" step 1: the spread's terrain is a roll of the die's six faces
    (ruling 15 for the die with lakes); a face changed changes the chances exactly."""
    box = edited_entry(tmp_path, "dice.toml", table, old, new)
    for b in (BOX, box):
        faces = b.terrain_die if die == "standard" else b.terrain_die_with_lakes
        assert spread_die(b, die) == pytest.approx({f: faces.count(f) / len(faces) for f in set(faces)})
    assert spread_die(BOX, die) != pytest.approx(spread_die(box, die))


def test_the_bonus_die_must_match_the_bonus_cards(tmp_path):
    """The bonus die's faces pick the bonus card's rewards, so a changed face is refused at load."""
    with pytest.raises(hk.BoxError, match="rewards must cover the bonus die faces"):
        edited_box(tmp_path, "dice.toml", "faces = [1, 2, 3, 4, 5, 6]", "faces = [1, 2, 3, 4, 5, 7]")


# ------------------------------------------------------------------ season ends (game.toml modes)


def season_end_line(e):
    trailing = "" if e.trailing_two_player is None else f", trailing_two_player = {e.trailing_two_player}"
    return (f'{{ season = {e.season}, clear_depletion = {str(e.clear_depletion).lower()}, choosers = "{e.choosers}", '
            f'quests = {e.quests}{trailing} }}')


def season_end_outcome(box, mode, season, players):
    """Season ``season`` ends with a depletion token on (2, -1) and P2 leading (5 valor):
    (sorted (player, quests to choose) waiting, depletion tokens left on the field)."""
    s = scenario(players=players, mode=mode, box=box)
    deplete(s, (2, -1))
    set_valor(s, 1, 5)
    set_calendar(s, season, box.rounds_per_season)
    end_round(s, "plain", FAR_PLAINS)
    return sorted((q.player, q.count) for q in s.pending if isinstance(q, QuestChoice)), sum(s.depleted)


def season_end_worked_out(box, mode, season, players):
    """The same outcome worked out from the box's season end (rulebook "Game Flow: End of a Season")."""
    e = box.modes[mode].season_end(season)
    choosers = {"non_leaders": [p for p in range(players) if p != 1], "everyone": list(range(players)), "nobody": []}[e.choosers]
    count = e.trailing_two_player if players == 2 and e.trailing_two_player is not None else e.quests
    return [(p, count) for p in choosers], 0 if e.clear_depletion else 1


SEASON_END_CASES = [(m, e.season, field, new) for m, mode in BOX.modes.items() for e in mode.season_ends
                    for field, new in (("quests", e.quests + 1 if e.choosers != "nobody" else None),
                                       ("clear_depletion", not e.clear_depletion),
                                       ("trailing_two_player", None if e.trailing_two_player is None else e.trailing_two_player + 1),
                                       ("choosers", {"non_leaders": "everyone", "everyone": "non_leaders"}.get(e.choosers)))
                    if new is not None]


@pytest.mark.parametrize("mode, season, field, new", SEASON_END_CASES)
def test_each_season_end_value_governs_the_season_end(tmp_path, mode, season, field, new):
    """Each mode's season ends say who takes how many quest cards and whether depletion
    tokens return; one value changed changes exactly that (3 players, or 2 for the
    trailing player's count)."""
    e = BOX.modes[mode].season_end(season)
    old = season_end_line(e)
    value = {"quests": f"quests = {new}", "clear_depletion": f"clear_depletion = {str(new).lower()}",
             "trailing_two_player": f"trailing_two_player = {new}", "choosers": f'choosers = "{new}"'}[field]
    was = {"quests": f"quests = {e.quests}", "clear_depletion": f"clear_depletion = {str(e.clear_depletion).lower()}",
           "trailing_two_player": f"trailing_two_player = {e.trailing_two_player}", "choosers": f'choosers = "{e.choosers}"'}[field]
    box = edited_entry(tmp_path, "game.toml", f"[modes.{mode}]", old, old.replace(was, value))
    players = 2 if field == "trailing_two_player" else 3
    shipped = season_end_outcome(BOX, mode, season, players)
    assert shipped == season_end_worked_out(BOX, mode, season, players)
    edited = season_end_outcome(box, mode, season, players)
    assert edited == season_end_worked_out(box, mode, season, players) and edited != shipped


# ------------------------------------------------------------------ terrain and marker-slot covers

#: (sensor cell, cell entered) for a cell of each explorable terrain
ENTRY = {"city": ((1, 0), (0, 0)), "suburb": ((1, 0), (1, -1)), "plain": ((1, 0), (2, -1)),
         "forest": ((1, 0), (2, 0)), "mountain": ((1, 1), (1, 2))}


@pytest.mark.parametrize("terrain", [n for n, t in BOX.terrains.items() if t.explorable])
def test_each_explore_cost_governs_exploration(tmp_path, terrain):
    """Rulebook "Basic Actions: Exploration": entering a cell costs its terrain's
    ``explore_cost`` exploration tokens; raised by 1, one more of the 4 active tokens is spent."""
    cost = BOX.terrains[terrain].explore_cost
    box = edited_entry(tmp_path, "terrain.toml", f"[{terrain}]", f"explore_cost = {cost}", f"explore_cost = {cost + 1}")
    here, there = ENTRY[terrain]
    for b, c in ((BOX, cost), (box, cost + 1)):
        s = scenario(players=2, box=b)
        assert s.field.terrain[s.field.cell_index(there)] == terrain
        place(s, 0, here)
        s.apply_action(A.Explore(there))
        assert active(s, 0)["exploration"] == 4 - c


@pytest.mark.parametrize("key, value", [("explore_cost", "2"), ("sell", "true"), ("train_and_learn", "true"),
                                        ("water_near_lake", "true"), ("noria_near_lake", "true"), ("build", '"mill"')])
def test_values_of_a_terrain_no_sensor_enters_are_refused(tmp_path, key, value):
    """No sensor stands on a lake (explorable = false), so no rule reads its explore cost,
    sale, training, building or own-cell water fields: a changed one is refused at load."""
    t = BOX.terrains["lake"]
    old = {"explore_cost": f"explore_cost = {t.explore_cost}", "build": 'build = ""'}.get(key, f"{key} = false")
    with pytest.raises(hk.BoxError, match=f"field '{key}' must be .* on a terrain no sensor can enter"):
        edited_entry(tmp_path, "terrain.toml", "[lake]", old, f"{key} = {value}")


@pytest.mark.parametrize("players", [2, 3])
def test_the_covered_marker_slots_govern_learning(tmp_path, players):
    """Rulebook "Setup": with 2 players slots 1 and 4 of each skill card are covered, with
    3 players slot 1, so the first learner takes slot 2 (2 valor). Covering slot 2
    instead of slot 1, the first learner takes slot 1 (3 valor)."""
    old = list(BOX.covered_slots[players])
    new = [1 if c == 0 else c for c in old]
    box = edited_box(tmp_path, "skills.toml", f"covered_{players}_players = {old}", f"covered_{players}_players = {new}")
    for b, slot in ((BOX, 1), (box, 0)):
        s = scenario(players=players, skills=(1, 4, 7, 10), box=b)
        place(s, 0, (1, 0))
        give(s, 0, food=1, water=1)
        s.apply_action(A.Learn(1))
        assert s.valor[0] == BOX.skill_slot_valor[slot]


def test_the_number_of_seasons_governs_the_game_end(tmp_path):
    """Rulebook "Game Flow: End of the Game": the game ends after the last round of the
    last season. With ``seasons = 2`` (and the modes' season-2 ends removed, which must
    go with it: ruling 40) the end of season 2 is final scoring instead of season 3."""
    d = copy_data(tmp_path)
    edit(d / "game.toml", "\nseasons = 3\n", "\nseasons = 2\n")
    text = (d / "game.toml").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("{ season = 2,")]
    (d / "game.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    box = hk.load_box(d)
    for b, want in ((BOX, (False, 3, 1)), (box, (True, 2, 3))):
        s = scenario(players=2, box=b)
        set_calendar(s, 2, 3)
        end_round(s, "plain", FAR_PLAINS)
        assert (s.is_terminal(), s.season, s.round) == want
