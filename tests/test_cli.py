"""The command-line player: summary, files, and misuse exiting with status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from haunted_kit import State
from haunted_kit.cli import main


def test_play_prints_summary_and_writes_log_and_save(tmp_path, capsys):
    log, save = tmp_path / "g.csv", tmp_path / "g.json"
    assert main(["play", "--players", "3", "--mode", "citizen", "--seed", "4", "--agents", "greedy,random",
                 "--log", str(log), "--save", str(save)]) == 0
    out = capsys.readouterr().out
    s = State.load(save)
    assert s.is_terminal()
    assert f"Decisions: {s.decisions}" in out
    for p in range(3):
        assert f"P{p + 1}: {s.valor[p]:>3} valor" in out
    assert ("Winner: P" in out) != s.lost
    assert "Agents: P1 greedy, P2 random, P3 greedy" in out
    events = pd.read_csv(log)
    assert len(events) == len(s.log) and events["kind"].iloc[-1] in ("game_over", "collective_loss")


def test_jsonl_log(tmp_path):
    log = tmp_path / "g.jsonl"
    assert main(["play", "--players", "2", "--seed", "1", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["kind"] == "setup"


def test_replay(tmp_path, capsys):
    save = tmp_path / "g.json"
    main(["play", "--players", "2", "--seed", "2", "--save", str(save)])
    first = capsys.readouterr().out
    assert main(["replay", str(save)]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[:4] == first.splitlines()[:4]


def test_replay_of_corrupt_save_fails_clearly(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "haunted-kit-save", "version": 99}')
    assert main(["replay", str(bad)]) == 1
    assert "version 99 is not supported" in capsys.readouterr().err


@pytest.mark.parametrize("argv,needle", [
    (["play", "--players", "5"], "invalid choice: 5"),
    (["play", "--players", "1"], "invalid choice: 1"),
    (["play", "--mode", "hero"], "invalid choice: 'hero'"),
    (["play", "--agents", "greedy,alphazero"], "unknown agent 'alphazero'"),
    (["play", "--ghost-cards", "1"], "already the wanderer mode's card"),
    (["play", "--ghost-cards", "7"], "unknown ghost card 7"),
    (["play", "--seed", "abc"], "invalid int value"),
    ([], "usage:"),
    (["fly"], "invalid choice: 'fly'"),
])
def test_misuse_prints_usage_and_exits_2(argv, needle, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: haunted-kit" in err and needle in err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "haunted_kit.cli", "play", "--players", "2", "--seed", "3"],
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith("Haunted Lands: 2 players, wanderer mode")


def test_summary_of_a_collective_loss_ranks_nobody_and_scores_no_quest():
    from haunted_kit.cli import summary
    from haunted_kit.sim import play_game

    lost = play_game(players=4, seed=30, agents=["greedy"], log=True).state
    assert lost.lost
    text = summary(lost)
    assert "no quest is revealed or scored" in text and "Winner" not in text
    assert "1. P" not in text and "(quests" not in text
    for p in range(4):
        assert f"P{p + 1}: {lost.valor[p]:>3} valor gained before Kalena fell" in text
