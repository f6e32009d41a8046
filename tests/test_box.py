"""Box data (data/): the reference values of box-defaults.md, provenance on every
value, validation errors naming file / entry / problem, and finding the data."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import haunted_kit as hk
from haunted_kit.haunted.actions import Build
from haunted_kit.haunted.box import PROVENANCES
from haunted_kit.haunted.scenario import give, place, scenario
from ruletools import DATA, REPO, copy_data, edit


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv("HAUNTED_KIT_DATA", raising=False)


# ============================================================================ reference values


TILES = {  # box-defaults.md, order centre, E, NE, NW, W, SW, SE
    "R01": "LPPFFMP", "R02": "PLFFMPP", "R03": "FFLPMMF", "R04": "MMFLPPF", "R05": "PPMFLFP", "R06": "FPPMFLM",
    "R07": "LFMMPFP", "R08": "PFFPMML", "R09": "MPLFPMF", "R10": "FFPPLMP", "R11": "PMPFFPL",
}
LETTER = {"P": "plain", "F": "forest", "M": "mountain", "L": "lake"}


def test_tiles_match_box_defaults():
    box = hk.default_box()
    assert box.tiles == {t: tuple(LETTER[c] for c in v) for t, v in TILES.items()}
    total = {}
    for cells in box.tiles.values():
        for c in cells:
            total[c] = total.get(c, 0) + 1
    assert total == {"plain": 26, "forest": 23, "mountain": 17, "lake": 11}


def test_field_geometry_matches_box_defaults():
    box = hk.default_box()
    assert box.directions == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert box.kalena_centre == (0, 0)
    assert box.region_centres == ((2, 1), (3, -2), (1, -3), (-2, -1), (-3, 2), (-1, 3))
    assert (box.kalena_centre_terrain, box.kalena_ring_terrain) == ("city", "suburb")


def test_dice_and_bonus_cards_match_box_defaults():
    box = hk.default_box()
    assert box.terrain_die == ("plain", "plain", "forest", "forest", "mountain", "mountain")
    assert box.bonus_die == (1, 2, 3, 4, 5, 6)
    table = {  # (pecunias, resources, valor) per face
        1: (1, [(2, 0, 0), (3, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 0, 2)]),
        2: (2, [(4, 0, 0), (0, 2, 0), (2, 1, 0), (0, 0, 2), (1, 0, 2), (0, 0, 3)]),
        3: (3, [(6, 0, 0), (2, 2, 0), (0, 0, 3), (0, 1, 3), (0, 0, 4), (0, 0, 5)]),
    }
    for season, (cost, rewards) in table.items():
        card = box.bonus_cards[season]
        assert card.contact_cost == cost
        assert [(r.pecunias, r.resources, r.valor) for r in card.rewards] == rewards


def test_player_board_and_skills_match_box_defaults():
    box = hk.default_box()
    t = box.tracks
    assert [(x.slots, x.start_tokens, x.training_costs, x.last_slot_valor) for x in t.values()] == [
        (6, 4, (0, 0, 0, 0, 4, 6), 3), (6, 1, (0, 2, 3, 4, 5, 6), 4), (2, 1, (0, 5), 2), (2, 1, (0, 5), 2)]
    assert box.resource_cap == 3
    assert box.skill_slot_valor == (3, 2, 1, 0)
    assert box.covered_slots == {4: (), 3: (0,), 2: (0, 3)}
    assert box.skill_decks == {"Communication": (1, 2, 3), "Wandering": (4, 5, 6), "Trade": (7, 8, 9), "Craft": (10, 11, 12)}
    costs = {1: ("food", "water"), 2: ("wood", "ore"), 3: ("food", "food"), 4: ("food", "ore"), 5: ("water", "ore"),
             6: ("food", "water"), 7: ("food", "ore"), 8: ("food", "food"), 9: ("food", "wood"), 10: ("water", "wood"),
             11: ("food", "water"), 12: ("food", "wood")}
    assert {k: v.cost for k, v in box.skills.items()} == costs


def test_supplies_buildings_quests_market_match_the_rulebook():
    box = hk.default_box()
    assert box.supply_ghosts == 25 and box.supply_depletion == 12
    assert box.supply_buildings == {"mill": 12, "sawmill": 12, "mine": 12, "noria": 12}
    assert box.supply_resources == {"food": 16, "water": 16, "wood": 16, "ore": 16}
    assert box.supply_tokens == {"exploration": 24, "contact": 24, "extraction": 8, "construction": 8}
    b = box.buildings
    assert [(x.terrain, x.cost, x.valor, x.income) for x in b.values()] == [
        ("plain", ("wood", "water"), 1, "food"), ("forest", ("water", "ore"), 2, "wood"),
        ("mountain", ("water", "food"), 3, "ore"), ("near lake", ("ore",), 1, "water")]
    assert [(q.per, q.valor) for q in box.quests.values()] == [(3, 3), (3, 1), (1, 4), (1, 2), (1, 2), (1, 2), (1, 3), (1, 3)]
    assert box.removed_quests[2] == (3, 4)
    m = {k: [(o.count, o.kind, o.pecunias) for o in v] for k, v in box.market_cards.items()}
    assert m == {1: [(1, "any", 2), (2, "same", 5), (3, "same", 8)],
                 2: [(1, "any", 2), (2, "different", 5), (3, "different", 8)],
                 3: [(1, "any", 2), (4, "different", 12)]}
    assert [t.explore_cost for t in box.terrains.values() if t.explorable] == [1, 1, 1, 2, 3]


# ============================================================================ provenance


def _expected_rows(name, node, path=""):
    """(file, entry, field) for every value of a TOML file; fails on a value without provenance."""
    out = set()
    if isinstance(node, dict):
        if "provenance" in node:
            return {(name, path, k) for k in node if k != "provenance"}
        for k, v in node.items():
            sub = f"{path}.{k}" if path else k
            if isinstance(v, dict):
                out |= _expected_rows(name, v, sub)
            elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                for i, x in enumerate(v, start=1):
                    out |= _expected_rows(name, x, f"{sub}[{i}]")
            else:
                raise AssertionError(f"{name}: {sub} has no provenance")
    return out


def test_every_value_carries_provenance():
    box = hk.default_box()
    rows = set(box.provenance)
    assert {p for *_, p in rows} <= set(PROVENANCES)
    got = {(f, e, k) for f, e, k, _ in rows}
    expected = set()
    for f in sorted(DATA.glob("*.toml")):
        expected |= _expected_rows(f.name, tomllib.loads(f.read_text(encoding="utf-8")))
    expected |= {("tiles.csv", t, c) for t in TILES for c in ("centre", "E", "NE", "NW", "W", "SW", "SE")}
    assert got == expected
    frame = box.provenance_frame()
    assert list(frame.columns) == ["file", "entry", "field", "provenance"] and len(frame) == len(box.provenance)


def test_rulebook_and_kit_default_provenance_where_box_defaults_says():
    prov = {(f, e, k): p for f, e, k, p in hk.default_box().provenance}
    assert prov["tiles.csv", "R01", "centre"] == "kit default"
    assert prov["dice.toml", "terrain_die", "faces"] == "kit default"
    assert prov["bonus_cards.toml", "bonus_cards.2", "contact_cost"] == "kit default"
    assert prov["supplies.toml", "supply", "ghosts"] == "rulebook"
    assert prov["player_board.toml", "tracks.contact", "start_tokens"] == "rulebook"
    assert prov["player_board.toml", "tracks.contact", "training_costs"] == "kit default"
    assert prov["skills.toml", "marker_slots", "valor"] == "kit default"
    assert prov["skills.toml", "marker_slots", "covered_2_players"] == "rulebook"
    assert prov["buildings.toml", "mine", "valor"] == "rulebook"


# ============================================================================ validation errors


BAD = [
    # file, old text, new text, expected entry, words of the problem
    ("tiles.csv", "R03,F,F,L,P,M,M,F", "R03,F,X,L,P,M,M,F", "R03", "unknown terrain letter 'X'"),
    ("tiles.csv", "R05,P,P,M,F,L,F,P,kit default", "R05,P,P,M,F,L,F,P,", "R05", "provenance"),
    ("tiles.csv", "R11,", "R10,", "R10", "duplicate tile id"),
    ("buildings.toml", 'production = 1\nprovenance = { terrain = "rulebook", cost_tokens = "rulebook", cost = "rulebook", valor = "rulebook", income = "rulebook", production = "kit default" }', 'production = 1', "mill", "missing field 'provenance'"),
    ("buildings.toml", "valor = 2", "valor = -2", "sawmill", "must not be negative"),
    ("buildings.toml", 'cost = ["water", "food"]', 'cost = ["water", "gold"]', "mine", "unknown value 'gold'"),
    ("buildings.toml", "valor = 1", 'valor = "one"', "mill", "field 'valor' must be int"),
    ("buildings.toml", 'income = "water"', 'income = "mud"', "noria", "unknown resource 'mud'"),
    ("skills.toml", 'cost = ["food", "ore"]', 'cost = ["food", "gems"]', "skills.4", "unknown value 'gems'"),
    ("skills.toml", "valor = [3, 2, 1, 0]", "valor = [3, 2, -1, 0]", "marker_slots", "field 'valor[3]' must not be negative"),
    ("skills.toml", "covered_2_players = [0, 3]", "covered_2_players = [0, 0]", "marker_slots", "covered slots repeat"),
    ("skills.toml", "[skills.4]", "[skills.x4]", "skills.x4", "card keys must be numbers"),
    ("buildings.toml", "valor = 3", "valor = 1000000000000000000000", "mine", "must be at most 999, got"),
    ("player_board.toml", "slots = 6\nstart_tokens = 1", "slots = 600\nstart_tokens = 1", "tracks.contact",
     "must be at most 24, got"),
    ("game.toml", "seasons = 3", "seasons = 100000", "structure", "must be at most 12, got"),
    ("game.toml", "valor_track_marks = 30", "valor_track_marks = 0", "structure", "at least 1"),
    ("dice.toml", "faces = [1, 2, 3, 4, 5, 6]", "faces = []", "bonus_die", "at least one face"),
    ("dice.toml", "faces = [1, 2, 3, 4, 5, 6]", "faces = [1, 2.0]", "bonus_die", "field 'faces[2]' must be int, got 2.0"),
    ("field.toml", "kalena_centre = [0, 0]", "kalena_centre = [0, 100000]", "layout", "within ±99"),
    ("field.toml", "centre = \"city\"", "centre = \"lake\"", "kalena", "cannot be entered"),
    ("ghost_cards.toml", "[ghost_cards.2]", "[ghost_cards.two]", "ghost_cards.two", "card keys must be numbers"),
    ("market_cards.toml", "[[market_cards.3.options]]", "[[market_cards.\"³\".options]]", "market_cards.³", "card keys"),
    ("bonus_cards.toml", "{ face = 1, pecunias = 2, resources = 0, valor = 0 }", "7", "bonus_cards.1.rewards[1]", "must be a table"),
    ("game.toml", "{ season = 1, clear_depletion = true, choosers = \"everyone\", quests = 2 }",
     "{ season = 2, clear_depletion = true, choosers = \"everyone\", quests = 2 }", "modes.citizen", "listed twice"),
    ("tiles.csv", "R03,F,F,L,P,M,M,F,kit default", "R03,F,F,L,P,M,M,F,kit default,extra", "line 5", "exactly the 9 columns"),  # the file's line 5 (a comment first)
    ("skills.toml", 'effect = "sell_bonus"', 'effect = "haggle"', "skills.8", "unknown effect 'haggle'"),
    ("terrain.toml", "explore_cost = 2", "explore_cost = -1", "forest", "must not be negative"),
    # kit ruling 41: a skill's discount may not make exploring free (a turn would never need to end)
    ("terrain.toml", "explore_cost = 2", "explore_cost = 1", "forest",
     "explore_cost 1 less skill 4's discount of 1 (skills.toml, skills.4 amount) leaves 0"),
    ("terrain.toml", "explore_cost = 3", "explore_cost = 1", "mountain",
     "explore_cost 1 less skill 5's discount of 1 (skills.toml, skills.5 amount) leaves 0"),
    ("terrain.toml", 'extract = "food"', 'extract = "bread"', "plain", "unknown resource 'bread'"),
    ("terrain.toml", 'letter = "F"', 'letter = "P"', "-", "distinct"),
    ("player_board.toml", "training_costs = [0, 0, 0, 0, 4, 6]", "training_costs = [0, 0, 0, 4, 6]",
     "tracks.exploration", "training_costs lists 5 slots"),
    ("player_board.toml", "cap = 3", "cap = -3", "resources", "field 'cap' must be at least 1, got -3"),
    ("bonus_cards.toml", "{ face = 6, pecunias = 0, resources = 0, valor = 2 }",
     "{ face = 7, pecunias = 0, resources = 0, valor = 2 }", "bonus_cards.1", "bonus die faces"),
    ("bonus_cards.toml", "contact_cost = 2", "contact_cost = -2", "bonus_cards.2", "field 'contact_cost' must be at least 1, got -2"),
    ("market_cards.toml", "count = 3\nkind = \"same\"", "count = 4\nkind = \"same\"", "market_cards.1.options[3]",
     "exceeds the resource cap"),
    ("supplies.toml", ", ore = 16 }", " }", "supply", "exactly food, water, wood, ore"),
    ("supplies.toml", "ghosts = 25", "ghosts = -25", "supply", "must not be negative"),
    ("game.toml", "ghost_card = 1", "ghost_card = 9", "modes.wanderer", "ghost card 9 does not exist"),
    ("quests.toml", "players_2 = [3, 4]", "players_2 = [3, 9]", "removed", "quest 9 does not exist"),
    ("dice.toml", 'faces = ["plain", "plain", "forest", "forest", "mountain", "mountain"]',
     'faces = ["plain", "plain", "forest", "forest", "mountain", "swamp"]', "terrain_die", "unknown value 'swamp'"),
    ("dice.toml", 'provenance = "kit default"', 'provenance = "folklore"', "terrain_die", '"rulebook" or "kit default"'),
    ("ghost_cards.toml", 'effect = "block_extraction"', 'effect = "haunt"', "ghost_cards.2", "unknown effect 'haunt'"),
    # the effect registry (haunted_kit/effects.py): a field the entry's effect does not read is refused
    ("skills.toml", 'effect = "choose_bonus"', 'effect = "choose_bonus"\namount = 1', "skills.2",
     "field 'amount' is not used by 'choose_bonus'"),
    ("quests.toml", 'effect = "resource_sets"', 'effect = "resource_sets"\nbuilding = "mill"', "quests.1",
     "field 'building' is not used by 'resource_sets'"),
    ("quests.toml", 'effect = "pecunias"', 'effect = "coins"', "quests.2", "unknown effect 'coins'"),
    ("ghost_cards.toml", 'effect = "block_production"', 'effect = "block_production"\namount = 2', "ghost_cards.1",
     "field 'amount' is not used by 'block_production'"),
    ("market_cards.toml", 'count = 3\nkind = "same"', 'count = 3\nkind = "same"\ndiscount = 1', "market_cards.1.options[3]",
     "field 'discount' is not used by 'same'"),
    ("market_cards.toml", 'kind = "different"', 'kind = "barter"', "market_cards.2.options[2]", "unknown effect 'barter'"),
    ("bonus_cards.toml", "{ face = 1, pecunias = 2, resources = 0, valor = 0 }",
     "{ face = 1, pecunias = 2, resources = 0, valor = 0, ghosts = 1 }", "bonus_cards.1.rewards[1]", "field 'ghosts' is not used"),
    ("bonus_cards.toml", "contact_cost = 2", "contact_cost = 2\ndiscount = 1", "bonus_cards.2", "unknown field 'discount'"),
    ("buildings.toml", 'income = "ore"', 'income = "ore"\nyield = 2', "mine", "field 'yield' is not used by 'production'"),
    ("buildings.toml", "production = 1\n", "", "mill", "missing field 'production'"),
    ("buildings.toml", "production = 1\n", "production = -1\n", "mill", "must not be negative"),
    ("terrain.toml", 'letter = "F"', 'letter = "F"\nspeed = 2', "forest", "unknown field 'speed'"),
    ("player_board.toml", "slots = 6", "slots = 6\nsize = 2", "tracks.exploration", "unknown field 'size'"),
    ("game.toml", "ghost_card = 1", "ghost_card = 1\nghosts = 3", "modes.wanderer", "unknown field 'ghosts'"),
    ("game.toml", "seasons = 3", "seasons = 3\nrounds = 4", "structure", "unknown field 'rounds'"),
    ("supplies.toml", "ghosts = 25", "ghosts = 25\ngold = 3", "supply", "unknown field 'gold'"),
]


EMPTIED = [
    # file, a whole table emptied, expected entry, words of the problem
    ("market_cards.toml", "market_cards = {}", "market_cards", "no market cards"),
    ("quests.toml", "quests = {}\n[removed]\nplayers_2 = []\nprovenance = \"rulebook\"", "quests", "no quest cards"),
    ("game.toml", "[structure]\nseasons = 3\nrounds_per_season = 3\nghosts_per_spread = 4\nmin_players = 2\n"
                  "max_players = 4\nvalor_track_marks = 30\nprovenance = \"rulebook\"\n[modes]", "modes", "no game modes"),
]


@pytest.mark.parametrize("file, text, entry, words", EMPTIED, ids=[e[0] for e in EMPTIED])
def test_empty_decks_and_modes_are_refused(tmp_path, file, text, entry, words):
    d = copy_data(tmp_path)
    (d / file).write_text(text + "\n", encoding="utf-8")
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert (ei.value.file, ei.value.entry) == (file, entry) and words in ei.value.problem, str(ei.value)


def test_latin1_byte_names_file_and_line(tmp_path):
    d = copy_data(tmp_path)
    raw = (d / "quests.toml").read_bytes().replace(b"2 valor for each mill", "2 valor for each moulin à".encode("latin-1"))
    (d / "quests.toml").write_bytes(raw)
    line = raw[:raw.index(b"\xe0")].count(b"\n") + 1
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert (ei.value.file, ei.value.entry) == ("quests.toml", f"line {line}")
    assert "byte 0xe0 is not UTF-8" in ei.value.problem
    d2 = copy_data(tmp_path / "csv")
    (d2 / "tiles.csv").write_bytes((d2 / "tiles.csv").read_bytes() + b"R99,P,P,P,P,P,P,P,kit d\xe9faut\n")
    with pytest.raises(hk.BoxError, match=r"^tiles.csv, entry line \d+: byte 0xe9 is not UTF-8"):
        hk.load_box(d2)


def test_missing_box_folder_is_named(tmp_path):
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(tmp_path / "nonexistent")
    assert ei.value.file == str(tmp_path / "nonexistent") and "no such folder" in ei.value.problem
    (tmp_path / "afile").write_text("x")
    with pytest.raises(hk.BoxError, match="is not a folder"):
        hk.load_box(tmp_path / "afile")


@pytest.mark.parametrize("file, old, new, entry, words", BAD, ids=[f"{b[0]}:{b[3]}:{b[4][:20]}" for b in BAD])
def test_malformed_box_names_file_entry_and_problem(tmp_path, file, old, new, entry, words):
    d = copy_data(tmp_path)
    edit(d / file, old, new)
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    e = ei.value
    assert (e.file, e.entry) == (file, entry), str(e)
    assert words in e.problem, str(e)
    assert str(e).startswith(f"{file}, the file: " if entry == "-" else f"{file}, entry {entry}: ")  # no "entry -"


def test_missing_file(tmp_path):
    d = copy_data(tmp_path)
    (d / "quests.toml").unlink()
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert ei.value.file == "quests.toml" and "file not found" in ei.value.problem


def test_not_toml(tmp_path):
    d = copy_data(tmp_path)
    (d / "game.toml").write_text("[structure\nseasons = 3\n", encoding="utf-8")
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert ei.value.file == "game.toml" and "not valid TOML" in ei.value.problem


def test_too_few_tiles(tmp_path):
    d = copy_data(tmp_path)
    lines = (d / "tiles.csv").read_text(encoding="utf-8").splitlines()
    (d / "tiles.csv").write_text("\n".join(lines[:-6]) + "\n", encoding="utf-8")  # R01..R05 only
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert ei.value.file == "tiles.csv" and "5 tiles listed but 6 are drawn" in ei.value.problem


def test_an_edited_box_plays_with_its_numbers(tmp_path):
    d = copy_data(tmp_path)
    edit(d / "buildings.toml", "valor = 1", "valor = 5")  # house rule: a mill is worth 5
    box = hk.load_box(d)
    s = scenario(players=2, box=box)
    place(s, 0, (2, -1))
    give(s, 0, wood=1, water=1)
    s.apply_action(Build("mill"))
    assert s.valor[0] == 5


# ============================================================================ finding the data


def test_source_checkout_finds_data_folder():
    assert Path(hk.load_box().path).resolve() == DATA.resolve()


def test_environment_variable_and_argument(tmp_path, monkeypatch):
    d = copy_data(tmp_path)
    monkeypatch.setenv("HAUNTED_KIT_DATA", str(d))
    assert Path(hk.load_box().path) == d
    assert Path(hk.load_box(DATA).path) == DATA  # an explicit path wins


def _installed_copy(tmp_path, with_box: bool) -> Path:
    site = tmp_path / "site"
    shutil.copytree(REPO / "haunted_kit", site / "haunted_kit", ignore=shutil.ignore_patterns("__pycache__", "_box"))
    if with_box:  # pyproject: [tool.hatch.build.targets.wheel.force-include] "data" = "haunted_kit/_box"
        shutil.copytree(DATA, site / "haunted_kit" / "_box")
    return site


def _run(site, code, cwd):
    env = {k: v for k, v in os.environ.items() if k != "HAUNTED_KIT_DATA"}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_installed_package_finds_its_packed_box(tmp_path):
    site = _installed_copy(tmp_path, with_box=True)
    out = _run(site, "import haunted_kit as hk; print(hk.__file__); print(hk.load_box().path); "
                     "print(len(hk.new_game(players=2, seed=1).layout))", tmp_path)
    assert out.returncode == 0, out.stderr
    file, path, n = out.stdout.split()
    assert Path(file).resolve().is_relative_to(site.resolve())
    assert Path(path).resolve() == (site / "haunted_kit" / "_box").resolve() and n == "6"


def test_installed_package_without_data_fails_clearly(tmp_path):
    site = _installed_copy(tmp_path, with_box=False)
    out = _run(site, "import haunted_kit as hk\ntry:\n    hk.load_box()\nexcept hk.BoxError as e:\n    print('ERR', e)", tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ERR data/, the folder: no data directory found")


LOOSE = [
    # values the loader must check too (the problem must at least name the field)
    ("ghost_cards.toml", "amount = 1", "amount = -1", "ghost_cards.3", "amount"),
    ("ghost_cards.toml", "amount = 1", 'amount = "one"', "ghost_cards.3", "amount"),
    ("game.toml", "trailing_two_player = 1", 'trailing_two_player = "x"', "modes.wanderer.season_ends[2]",
     "field 'trailing_two_player' must be int, got 'x'"),
    ("field.toml", "kalena_centre = [0, 0]", 'kalena_centre = ["a", 0]', "layout", "kalena_centre"),
]


@pytest.mark.parametrize("file, old, new, entry, words", LOOSE, ids=[f"{b[0]}:{b[4]}:{b[2]}" for b in LOOSE])
def test_unchecked_fields_are_checked(tmp_path, file, old, new, entry, words):
    d = copy_data(tmp_path)
    edit(d / file, old, new)
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert (ei.value.file, ei.value.entry) == (file, entry), str(ei.value)
    assert words in ei.value.problem, str(ei.value)


def test_building_terrain_must_agree_with_the_terrain_table(tmp_path):
    # buildings.toml says the mill stands on the city, terrain.toml says plains build mills
    d = copy_data(tmp_path)
    edit(d / "buildings.toml", 'terrain = "plain"', 'terrain = "city"')
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert (ei.value.file, ei.value.entry) in {("buildings.toml", "mill"), ("terrain.toml", "plain"), ("terrain.toml", "city")}, str(ei.value)


# ============================================================================ read by schema


def _refused(d) -> hk.BoxError:
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    return ei.value


def test_a_card_numbered_twice_is_refused(tmp_path):
    """``[skills.1]`` and ``[skills.01]`` are the same card 1: the second would silently replace the first."""
    d = copy_data(tmp_path)
    edit(d / "skills.toml", "[skills.2]", "[skills.01]")
    e = _refused(d)
    assert (e.file, e.entry, e.problem) == ("skills.toml", "skills.01", "card 1 is listed twice (as '1' and '01')")
    assert e.section == "Haunted Lands: Skill Cards"


def test_a_terrains_building_missing_from_buildings_toml_is_named_where_it_is_named(tmp_path):
    """terrain.toml's plain builds a mill; a buildings.toml without the mill is refused on
    terrain.toml's entry that names it (rulebook "Construction"), before the two files'
    agreement is checked, as a typo in terrain.toml would be."""
    d = copy_data(tmp_path)
    edit(d / "terrain.toml", 'build = "mill"', 'build = "mil"')
    e = _refused(d)
    assert (e.file, e.entry, e.problem) == ("terrain.toml", "plain", "field 'build' names unknown building 'mil'")
    assert e.section == "Haunted Lands: Construction"


@pytest.mark.parametrize("file, old, entry, effect", [
    ("ghost_cards.toml", "amount = 1\n", "ghost_cards.3", "costly_ghost_cells"),
    ("skills.toml", "effect = \"extract_bonus\"\namount = 1\n", "skills.12", "extract_bonus"),
    ("quests.toml", "building = \"mill\"\n", "quests.5", "buildings"),
])
def test_a_field_its_effect_reads_left_out_is_missing(tmp_path, file, old, entry, effect):
    """The effect registry says which fields an effect reads: one left out is missing (its
    provenance still naming it or not), not a field the provenance names in vain."""
    d = copy_data(tmp_path)
    edit(d / file, old, old.replace("amount = 1\n", "").replace("building = \"mill\"\n", ""))
    e = _refused(d)
    field = "building" if file == "quests.toml" else "amount"
    assert (e.file, e.entry, e.problem) == (file, entry, f"missing field '{field}' (effect {effect!r} reads it)")


def test_a_provenance_naming_a_field_left_out_is_refused(tmp_path):
    """Skill 2 reads no amount: a provenance table naming one describes nothing."""
    d = copy_data(tmp_path)
    text = (d / "skills.toml").read_text(encoding="utf-8")
    two = text.index("[skills.2]")
    line = text.index("provenance = {", two)
    (d / "skills.toml").write_text(text[:line] + text[line:].replace("provenance = { ", 'provenance = { amount = "rulebook", ', 1),
                                   encoding="utf-8")
    e = _refused(d)
    assert (e.file, e.entry, e.problem) == ("skills.toml", "skills.2", "provenance names field 'amount', which the table does not give")


@pytest.mark.parametrize("header, problem", [
    ("name,centre,E,NE,NW,W,SW,SE,provenance", "columns must be tile, centre, one per direction of field.toml (each once), "
                                               "provenance; got name, centre, E, NE, NW, W, SW, SE, provenance"),
    ("tile,centre,E,E,NW,W,SW,SE,provenance", "columns must be tile, centre, one per direction of field.toml (each once), "
                                              "provenance; got tile, centre, E, E, NW, W, SW, SE, provenance"),
    ("tile,centre,E,NE,NW,W,SW,S,provenance", "columns must be tile, centre, E, NE, NW, W, SW, SE, provenance, "
                                              "got tile, centre, E, NE, NW, W, SW, S, provenance"),
])
def test_the_tiles_header_must_name_the_fields_directions(tmp_path, header, problem):
    d = copy_data(tmp_path)
    edit(d / "tiles.csv", "tile,centre,E,NE,NW,W,SW,SE,provenance", header)
    e = _refused(d)
    assert (e.file, e.entry, e.problem) == ("tiles.csv", "header", problem)


def test_renamed_directions_rename_the_tiles_columns(tmp_path):
    """field.toml names the six directions; tiles.csv has a column for each, by that name:
    renamed in both files, the box loads with the same tiles, its rows named the new way."""
    d = copy_data(tmp_path)
    edit(d / "field.toml", 'direction_names = ["E", "NE", "NW", "W", "SW", "SE"]',
         'direction_names = ["east", "NE", "NW", "W", "SW", "SE"]')
    edit(d / "tiles.csv", "tile,centre,E,NE", "tile,centre,east,NE")
    box = hk.load_box(d)
    assert box.tiles == hk.default_box().tiles and box.direction_names[0] == "east"
    prov = {(f, e, k): p for f, e, k, p in box.provenance}
    assert prov["tiles.csv", "R01", "east"] == "house rule" and ("tiles.csv", "R01", "E") not in prov


def test_a_tiles_file_without_a_header_is_refused(tmp_path):
    d = copy_data(tmp_path)
    (d / "tiles.csv").write_text("# only a comment\n\n", encoding="utf-8")
    e = _refused(d)
    assert (e.file, e.entry) == ("tiles.csv", "header") and e.problem.startswith("missing: the first line")


def test_the_whole_box_is_read_by_the_declared_schema():
    """Every file of data/ is a file of the Game's box_schema, and the schema alone reads the
    reference box into the rows and values the Box records."""
    from haunted_kit.games import get_game
    from haunted_kit.haunted.boxmodels import SCHEMA

    assert get_game("haunted").box_schema is SCHEMA
    assert set(SCHEMA.files) == {p.name for p in DATA.iterdir() if p.is_file()}
    box = hk.default_box()
    rows = SCHEMA.rows(SCHEMA.read(DATA))
    assert tuple(r[:4] for r in rows) == box.provenance and {r[:3]: r[4] for r in rows} == box.values
