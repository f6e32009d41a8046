"""Data values that the rules once ignored now change behaviour: each test edits one
value in a copy of data/ and sees the game change (quest ``per`` of the
rightmost_markers and region_majority quests, the lake's ``extract``, the card numbers
named in sentences, the buildings' ``production``); the effect registry
(haunted_kit/effects.py) names a real implementation for every effect the data can name."""

from __future__ import annotations

import importlib

import pytest

import haunted_kit as hk
from haunted_kit import actions as A
from haunted_kit.effects import COMMON, EFFECTS
from haunted_kit.rules import ctx_of, quest_score
from haunted_kit.scenario import end_round, learn, place, put_building, scenario
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
