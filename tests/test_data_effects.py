"""Data values that the rules once ignored now change behaviour: each test edits one
value in a copy of data/ and sees the game change (quest ``per`` of the
rightmost_markers and region_majority quests, the lake's ``extract``, the card numbers
named in sentences)."""

from __future__ import annotations

import haunted_kit as hk
from haunted_kit import actions as A
from haunted_kit.rules import ctx_of, quest_score
from haunted_kit.scenario import learn, place, put_building, scenario
from ruletools import copy_data, edit


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
