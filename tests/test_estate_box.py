"""The estate box as data: the values of the reference box, provenance per value, and
clear errors (file, entry, problem) for malformed edits."""

from __future__ import annotations

import shutil

import pytest

from haunted_kit.estate.box import EstateBoxError, data_dir, load_estate_box


def test_reference_box_values():
    b = load_estate_box()
    assert b.start_income == {"gold": 3, "limestone": 2, "wood": 2, "marble": 0}
    assert b.resources == ("gold", "wood", "limestone", "marble", "glass")
    assert b.factory_resources == ("wood", "limestone", "marble")
    assert b.worker_limit == 12 and b.tile_price == 3 and b.inn_price == 1
    assert (b.join_fee_per_marker, b.join_fee_cap, b.marble_quarry_min_tiles) == (1, 3, 2)
    assert {t: x.count for t, x in b.tiles.items()} == {"forest": 6, "limestone_quarry": 6, "tax_land": 5,
                                                         "marble_quarry": 3, "marble_field": 1}
    assert b.tiles["marble_field"].spaces == 2
    assert len(b.slots) == 19 and len(b.outer) == 12 and len(b.white_dotted) == 4
    assert (b.first_visitor_actions, b.later_visitor_actions, b.price_first, b.price_later) == (3, 2, 2, 3)
    assert list(b.market) == ["sell_marble", "sell_glass", "sell_wood_or_limestone", "exchange_marble_or_glass",
                              "exchange_resources", "exchange_wood", "hire_two", "hire_one_and_take"]
    assert [a for a, x in b.market.items() if x.marked] == ["hire_two", "hire_one_and_take"]
    assert len(b.market["exchange_marble_or_glass"].options) == 6
    assert b.value == {"gold": 1, "wood": 1, "limestone": 1, "marble": 3, "glass": 2}


def test_every_value_has_a_provenance():
    frame = load_estate_box().provenance_frame()
    assert set(frame.provenance) == {"rulebook", "kit default"}
    row = frame[(frame.file == "game.toml") & (frame.entry == "start") & (frame.field == "income")]
    assert list(row.provenance) == ["rulebook"]
    row = frame[(frame.file == "lands.toml") & (frame.entry == "board") & (frame.field == "white_dotted")]
    assert list(row.provenance) == ["kit default"]


@pytest.fixture
def box_copy(tmp_path):
    dst = tmp_path / "estate"
    shutil.copytree(data_dir(), dst)
    return dst


@pytest.mark.parametrize("file,old,new,entry,problem", [
    ("game.toml", "limit = 12", "limit = -1", "workers", "at least 1"),
    ("game.toml", 'income = { gold = 3, limestone = 2, wood = 2, marble = 0 }', 'income = { gold = 3, wood = 2 }',
     "start", "no starting income for 'limestone'"),
    ("lands.toml", 'raises = "wood"', 'raises = "cheese"', "tiles.forest", "unknown value 'cheese'"),
    ("lands.toml", "white_dotted = [[0, -2]", "white_dotted = [[0, 0]", "board", "not an outer land"),
    ("lands.toml", "lower_area = [[-2, 2]", "lower_area = [[-5, 2]", "board", "not on a board"),
    ("market.toml", "give = [{ marble = 1 }]\ntake = [{ gold = 3 }]", "give = [{ marbel = 1 }]\ntake = [{ gold = 3 }]",
     "actions.sell_marble.give[1]", "unknown resource 'marbel'"),
    ("market.toml", 'marked = true\nprovenance = "rulebook"', 'marked = "yes"\nprovenance = "rulebook"',
     "actions.hire_two", "true or false"),
    ("resources.toml", '[glass]\nincome = false\nfactory = false\nmarket_only = true\nprovenance = "rulebook"',
     '[glass]\nincome = false\nfactory = false\nmarket_only = true\nprovenance = "rules"', "glass", "provenance"),
    ("game.toml", '[seasons]\ncount = 3\nprovenance = "kit default"', "[seasons]\ncount = 3", "seasons",
     "missing field 'provenance'"),
    ("lands.toml", "[rules]", "[rules", "-", "not valid TOML"),
    # every number is bounded: a typo is refused at load, never a game that cannot end
    ("game.toml", "[seasons]\ncount = 3", "[seasons]\ncount = 100000", "seasons", "at most 12, got 100000"),
    ("lands.toml", "radius = 2", "radius = 1000000", "board", "at most 6, got 1000000"),
    ("game.toml", "limit = 12", "limit = 12000", "workers", "at most 999, got 12000"),
    ("game.toml", "income = { gold = 3,", "income = { gold = 3000,", "start", "from 0 to 999, got 3000"),
    ("lands.toml", "lower_area = [[-2, 2]", "lower_area = [[-2, 99999999999]", "board", "within 6 of the centre"),
])
def test_malformed_edits_name_file_entry_and_problem(box_copy, file, old, new, entry, problem):
    p = box_copy / file
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new, 1))
    with pytest.raises(EstateBoxError) as exc:
        load_estate_box(box_copy)
    assert exc.value.file == file and exc.value.entry == entry and problem in exc.value.problem, str(exc.value)


def test_a_missing_file(box_copy):
    (box_copy / "market.toml").unlink()
    with pytest.raises(EstateBoxError, match="market.toml, the file: file not found"):
        load_estate_box(box_copy)


def test_a_house_rule_box_plays_and_its_saves_remember_it(box_copy):
    from haunted_kit.estate import EstateSaveError, EstateState, new_game

    p = box_copy / "lands.toml"
    p.write_text(p.read_text().replace("tile_price = 3", "tile_price = 2"))
    box = load_estate_box(box_copy)
    s = new_game(2, seed=1, box=box)
    assert box.tile_price == 2 and box.fingerprint != load_estate_box().fingerprint
    with pytest.raises(EstateSaveError, match="^box: "):
        EstateState.from_dict(s.to_dict())
    assert EstateState.from_dict(s.to_dict(), box).to_dict() == s.to_dict()
