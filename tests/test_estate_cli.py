"""``haunted-kit play --game estate`` and ``replay`` of an estate save."""

from __future__ import annotations

import json

import pytest

from haunted_kit.cli import main


def test_play_prints_income_holdings_and_gold_value_and_writes_files(tmp_path, capsys):
    save, log = tmp_path / "e.json", tmp_path / "e.csv"
    assert main(["play", "--game", "estate", "--players", "3", "--seed", "7", "--agents", "greedy,random",
                 "--save", str(save), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Estate and Market: 3 players, seed 7" in out
    assert out.count("gold value") >= 3 and "P2 (random): income" in out and "kit measure" in out
    data = json.loads(save.read_text())
    assert data["game"] == "estate"
    assert log.read_text().startswith("seq,season,round,phase,kind,player,cell,text,data")
    assert main(["replay", str(save)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.splitlines()[2:] == [line.replace(" (greedy)", "").replace(" (random)", "")
                                         for line in out.splitlines()[2:5]] + [out.splitlines()[5]]


def test_same_seed_same_output(capsys):
    main(["play", "--game", "estate", "--players", "2", "--seed", "3"])
    a = capsys.readouterr().out
    main(["play", "--game", "estate", "--players", "2", "--seed", "3"])
    assert capsys.readouterr().out == a


@pytest.mark.parametrize("argv,message", [
    (["play", "--game", "estate", "--mode", "citizen"], "belong to Haunted Lands"),
    (["play", "--game", "estate", "--players", "5"], "invalid choice"),
    (["play", "--game", "estate", "--players", "2", "--agents", "greedy,greedy,random"], "3 agents given for 2"),
    (["play", "--game", "chess"], "invalid choice"),
    (["play", "--game", "estate", "--box", "/nonexistent"], "--box"),
])
def test_misuse_prints_usage_and_exits_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and message in err


def test_replay_of_a_corrupt_estate_save(tmp_path, capsys):
    save = tmp_path / "e.json"
    main(["play", "--game", "estate", "--players", "2", "--seed", "1", "--save", str(save)])
    capsys.readouterr()
    d = json.loads(save.read_text())
    d["state"]["hand"][0]["gold"] += 5
    save.write_text(json.dumps(d))
    assert main(["replay", str(save)]) == 1
    err = capsys.readouterr().err
    assert "state.hand[0].gold" in err and "Traceback" not in err


def test_check_box_plays_the_estate_box(capsys):
    from haunted_kit.estate.box import data_dir

    assert main(["check-box", str(data_dir()), "--game", "estate", "--games", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "(estate): 6 games" in out and "0 failures" in out


def test_replay_refuses_an_estate_save_over_the_size_limit(tmp_path, capsys):
    save = tmp_path / "e.json"
    main(["play", "--game", "estate", "--players", "2", "--seed", "1", "--save", str(save)])
    capsys.readouterr()
    assert main(["replay", str(save), "--max-bytes", "100"]) == 1
    assert "over the limit of 100 bytes" in capsys.readouterr().err


def test_simulate_plays_estate_games_with_its_bots(tmp_path, capsys):
    from haunted_kit.simulate import load_dataset

    out = tmp_path / "runs"
    assert main(["simulate", "--game", "estate", "--out", str(out), "--games", "2", "--players", "2",
                 "--agents", "greedy,random", "--workers", "1", "--no-progress"]) == 0
    df = load_dataset(out)
    assert list(df.game.unique()) == ["estate"] and sorted(df.agent.unique()) == ["greedy", "random"]
    assert (df.returns >= 0).all() and len(df) == 4  # gold values (a kit measure), 2 games x 2 seats


def test_play_and_replay_with_a_house_rule_estate_box(tmp_path, capsys):
    import shutil

    from haunted_kit.estate.box import data_dir

    box = tmp_path / "estate"
    shutil.copytree(data_dir(), box)
    p = box / "game.toml"
    p.write_text(p.read_text().replace("workers = 4\n", "workers = 6\n"))
    save = tmp_path / "e.json"
    assert main(["play", "--game", "estate", "--players", "2", "--seed", "1", "--agents", "random",
                 "--box", str(box), "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["replay", str(save)]) == 1  # the reference box refuses it, naming the box
    assert "made with another box (Estate and Market, fingerprint" in capsys.readouterr().err
    assert main(["replay", str(save), "--box", str(box)]) == 0
    bad = tmp_path / "bad"
    shutil.copytree(box, bad)
    (bad / "lands.toml").write_text("[rules")
    with pytest.raises(SystemExit) as exc:
        main(["play", "--game", "estate", "--box", str(bad)])
    assert exc.value.code == 2 and "lands.toml, the file: not valid TOML" in capsys.readouterr().err
