"""House-rule boxes: the loader refuses edits that would stall a game, and a save
remembers its box so it is never continued or scored with another."""

from __future__ import annotations

import json

import pytest

import haunted_kit as hk
from haunted_kit.cli import main
from ruletools import copy_data, edit


def test_more_quest_choices_than_cards_in_hand_is_refused(tmp_path):
    d = copy_data(tmp_path)
    # wanderer, end of season 1: non-leaders choose 9 quests; a 2-player hand has 6 cards (8 minus quests 3 and 4)
    edit(d / "game.toml", '{ season = 1, clear_depletion = true, choosers = "non_leaders", quests = 1 },',
         '{ season = 1, clear_depletion = true, choosers = "non_leaders", quests = 9 },')
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    assert (ei.value.file, ei.value.entry) == ("game.toml", "modes.wanderer")
    # 9 at the end of season 1, then 1 for the trailing player of a 2-player game at the end of season 2
    assert "10 quest cards in a 2-player game but hold only 6" in ei.value.problem


def test_a_save_refuses_another_box_and_loads_with_its_own(tmp_path):
    d = copy_data(tmp_path)
    edit(d / "quests.toml", "valor = 3\ntext = \"3 valor for each sawmill you own.\"", "valor = 30\ntext = \"3 valor for each sawmill you own.\"")
    house = hk.load_box(d)
    assert house.fingerprint != hk.default_box().fingerprint
    s = hk.new_game(hk.GameConfig(players=2, seed=4, box=house))
    path = tmp_path / "g.json"
    s.save(path)
    assert json.loads(path.read_text())["box"]["fingerprint"] == house.fingerprint
    with pytest.raises(hk.SaveError, match="made with another box"):
        hk.State.load(path)
    assert hk.State.load(path, box=house).to_json() == s.to_json()


def test_cli_replay_with_box(tmp_path, capsys):
    d = copy_data(tmp_path)
    edit(d / "quests.toml", "valor = 3\ntext = \"3 valor for each sawmill you own.\"", "valor = 30\ntext = \"3 valor for each sawmill you own.\"")
    save = tmp_path / "g.json"
    assert main(["play", "--players", "2", "--seed", "3", "--box", str(d), "--save", str(save)]) == 0
    first = capsys.readouterr().out
    assert main(["replay", str(save)]) == 1
    assert "made with another box" in capsys.readouterr().err
    assert main(["replay", str(save), "--box", str(d)]) == 0
    assert capsys.readouterr().out.splitlines()[:5] == first.splitlines()[:5]


def test_cli_bad_box_is_a_usage_error(tmp_path, capsys):
    d = copy_data(tmp_path)
    edit(d / "tiles.csv", "R03,F,F,L,P,M,M,F", "R03,F,F,X,P,M,M,F")
    with pytest.raises(SystemExit) as exc:
        main(["play", "--box", str(d)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: haunted-kit play" in err and "tiles.csv, entry R03: cell 'NE' has unknown terrain letter 'X'" in err


def test_observation_hides_the_seed_so_dice_cannot_be_foreseen():
    s = hk.new_game(players=3, seed=99)
    obs = s.observation(1)
    assert obs["config"]["seed"] is None and "rng_count" not in obs and "forced" not in obs
    with pytest.raises(hk.SaveError, match="observation, not a save"):
        hk.State.from_dict({**obs, "format": "haunted-kit-save"})
    with pytest.raises(ValueError, match="viewer must be a player index 0..2"):
        s.observation(3)
    with pytest.raises(ValueError, match="viewer must be a player index"):
        s.events(viewer="x")


@pytest.mark.parametrize("mutate,words", [
    (lambda d: d["players"][0].__setitem__("quests", [3]), "out of a 2-player game"),
    (lambda d: d["players"][0].__setitem__("quests", [5, 5]), "must split"),
    (lambda d: d.__setitem__("skills", [1, 1, 8, 11]), "one skill card per deck"),
    (lambda d: d["marker_slots"]["1"].__setitem__(1, 7), "save field 'marker_slots.1': must be between 0 and 1, got 7"),
    (lambda d: d["marker_slots"]["1"].__setitem__(0, None), "impossible with 2 players"),
    (lambda d: d["players"][0].__setitem__("skills", [99]), "save field 'players[0].skills': 99 is not one of 1, 2"),
    (lambda d: d["players"][0].__setitem__("sensor", None), "sensor' is missing"),
    (lambda d: d.__setitem__("pending", [["quests", 0, 5]]), "cannot wait during the turns phase"),
    (lambda d: d.__setitem__("chance", ["stack"]), "cannot wait during the turns phase"),
    (lambda d: d.__setitem__("chance", ["tile"]), "cannot wait during the turns phase"),
])
def test_more_impossible_saves_are_refused(mutate, words):
    from haunted_kit.haunted.scenario import scenario

    d = json.loads(scenario(players=2, skills=(1, 4, 8, 11)).to_json())
    mutate(d)
    with pytest.raises(hk.SaveError) as ei:
        hk.State.from_dict(d)
    assert words in str(ei.value)


def test_values_that_differ_from_the_shipped_box_are_house_rules(tmp_path):
    d = copy_data(tmp_path)
    same = hk.load_box(d)            # an unedited copy: nothing is a house rule
    assert set(same.provenance_frame().provenance) == {"rulebook", "kit default"}
    assert list(same.provenance) == list(hk.default_box().provenance)
    # a rulebook number (the sawmill quest's valor) and a kit default (a tile's cell) edited
    edit(d / "quests.toml", "valor = 3\ntext = \"3 valor for each sawmill you own.\"", "valor = 30\ntext = \"3 valor for each sawmill you own.\"")
    edit(d / "tiles.csv", "R03,F,F,L,P,M,M,F", "R03,F,F,L,P,M,M,P")
    house = hk.load_box(d)
    frame = house.provenance_frame()
    changed = frame[frame.provenance == "house rule"]
    assert sorted(zip(changed.file, changed.entry, changed.field)) == [("quests.toml", "quests.7", "valor"), ("tiles.csv", "R03", "SE")]
    assert house.quests[7].valor == 30 and house.tiles["R03"][-1] == "plain"
    # everything else keeps its file's provenance
    rest = frame[frame.provenance != "house rule"]
    base = hk.default_box().provenance_frame().set_index(["file", "entry", "field"]).provenance
    assert (rest.set_index(["file", "entry", "field"]).provenance == base.loc[rest.set_index(["file", "entry", "field"]).index]).all()


def test_estate_values_that_differ_from_the_shipped_box_are_house_rules(tmp_path):
    import shutil

    from haunted_kit.estate.box import load_estate_box

    shipped = load_estate_box()
    assert "house rule" not in set(shipped.provenance_frame().provenance)
    d = tmp_path / "estate"
    shipped_dir = __import__("pathlib").Path(shipped.path)
    shutil.copytree(shipped_dir, d)
    edit(d / "game.toml", "workers = 4", "workers = 5")
    frame = load_estate_box(d).provenance_frame()
    changed = frame[frame.provenance == "house rule"]
    assert len(changed) == 1 and changed.file.item() == "game.toml" and changed.field.item() == "workers"
