"""The command-line player: summary, files, and misuse exiting with status 2."""

from __future__ import annotations

import argparse
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
    (["play", "--seed", "abc"], "argument --seed: expected a whole number, got 'abc'"),
    ([], "usage:"),
    (["fly"], "invalid choice: 'fly'"),
    (["play", "--ghost-cards", ","], "expected numbers separated by commas"),
    (["play", "--ghost-cards", "2,,3"], "expected numbers separated by commas"),
    (["play", "--box", "/nonexistent"], "--box /nonexistent: /nonexistent, the folder: no such folder"),
    (["play", "--save", "same.json", "--log", "./same.json"], "--log same.json and --save same.json are the same file"),
    (["play", "--log", "no/such/folder/g.csv"], "folder no/such/folder for file no/such/folder/g.csv does not exist"),
    (["play", "--save", "."], "file . is a folder"),
    (["replay", "x.json", "--max-bytes", "0"], "argument --max-bytes: the value must be a whole number from 1 to 1,099,511,627,776, got '0'"),
    (["classroom", "--players", "9"], "invalid choice: 9 (this box plays 2..4)"),
    # the embedded cluster and an existing one at once: --dask was ignored (a 30 s wait for the address)
    (["simulate", "--out", "d", "--dask", "--scheduler", "tcp://127.0.0.1:1"],
     "argument --scheduler: not allowed with argument --dask"),
    (["compare", "--box", "b", "--scheduler", "tcp://127.0.0.1:1", "--dask"],
     "argument --dask: not allowed with argument --scheduler"),
    # an empty address (an unset shell variable) ran the games here without a word
    (["simulate", "--out", "d", "--scheduler", ""], "argument --scheduler: an empty address"),
    (["compare", "--box", "b", "--scheduler", " "], "argument --scheduler: an empty address"),
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
    from haunted_kit.haunted.sim import play_game

    lost = play_game(players=4, seed=30, agents=["greedy"], log=True).state
    assert lost.lost
    text = summary(lost)
    assert "no quest is revealed or scored" in text and "Winner" not in text
    assert "1. P" not in text and "(quests" not in text
    for p in range(4):
        assert f"P{p + 1}: {lost.valor[p]:>3} valor gained before Kalena fell" in text


def test_help_works_with_a_bad_data_folder(tmp_path):
    env = {**__import__("os").environ, "HAUNTED_KIT_DATA": str(tmp_path / "missing")}
    for argv in (["--help"], ["play", "--help"], ["check-box", "--help"]):
        r = subprocess.run([sys.executable, "-m", "haunted_kit.cli", *argv], capture_output=True, text=True, env=env)
        assert r.returncode == 0 and r.stdout.startswith("usage: haunted-kit"), r.stderr
    r = subprocess.run([sys.executable, "-m", "haunted_kit.cli", "play"], capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"HAUNTED_KIT_DATA={tmp_path / 'missing'}, the folder: no such folder" in r.stderr


def test_bootstrap_help_exits_0():
    from ruletools import REPO

    r = subprocess.run([sys.executable, str(REPO / "bootstrap.py"), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("usage: python3 bootstrap.py")


def test_paths_are_checked_before_the_game(tmp_path, monkeypatch, capsys):
    import haunted_kit.cli as cli

    played = []
    monkeypatch.setattr(cli, "play_game", lambda *a, **k: played.append(1))
    with pytest.raises(SystemExit):
        main(["play", "--save", str(tmp_path / "g.json"), "--log", str(tmp_path / "missing" / "g.csv")])
    assert played == [] and not (tmp_path / "g.json").exists()


def test_ctrl_c_exits_130_with_one_line_and_no_file(tmp_path, monkeypatch, capsys):
    save = tmp_path / "g.json"
    save.write_text("the old save")
    real = State.to_json

    def interrupted(self, **kw):  # Ctrl-C while the save is being written
        real(self, **kw)
        raise KeyboardInterrupt

    monkeypatch.setattr(State, "to_json", interrupted)
    assert main(["play", "--players", "2", "--save", str(save)]) == 130
    assert capsys.readouterr().err == "haunted-kit: interrupted\n"
    assert save.read_text() == "the old save" and sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch, capsys):
    import errno
    import os

    save, log = tmp_path / "g.json", tmp_path / "g.jsonl"
    save.write_text("the old save")
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device")))
    assert main(["play", "--players", "2", "--save", str(save), "--log", str(log)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write {save}: No space left on device" in err and f"cannot write {log}" in err
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert save.read_text() == "the old save" and sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_replay_refuses_big_and_broken_inputs(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (16 * 1024 * 1024 + 1))
    assert main(["replay", str(big)]) == 1
    assert "is 16,777,217 bytes, over the limit of 16,777,216 bytes" in capsys.readouterr().err
    save = tmp_path / "g.json"
    main(["play", "--players", "2", "--save", str(save)])
    capsys.readouterr()
    assert main(["replay", str(save), "--max-bytes", "1000"]) == 1
    assert "over the limit of 1,000 bytes" in capsys.readouterr().err
    assert main(["replay", str(tmp_path)]) == 1  # a folder
    assert "cannot read save" in capsys.readouterr().err
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "caf\xe9"}')
    assert main(["replay", str(latin)]) == 1
    assert "is not a UTF-8 text file" in capsys.readouterr().err


def test_help_presents_every_registered_game_with_its_name_and_player_range(capsys):
    from haunted_kit.games import game_names, get_game

    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())   # argparse wraps lines
    assert f"Learn, play and analyse {len(game_names())} games on one protocol" in text
    for name in game_names():
        g = get_game(name)
        assert f"{g.title} (--game {name}, {g.min_players}-{g.max_players} players)" in text


def _path_options():
    """Every (command, option) of the parser whose value is a path (metavar FILE or DIR),
    positional ones included, with the other arguments the command requires."""
    from haunted_kit.cli import build_parser
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for command, parser in sub.choices.items():
        actions = [a for a in parser._actions if a.metavar in ("FILE", "DIR") or a.dest in ("save", "box")]
        for a in actions:
            found.append((command, a.option_strings[0] if a.option_strings else None,
                          [x for x in parser._actions if x.required or not x.option_strings]))
    return found


@pytest.mark.parametrize("command,option,required", _path_options(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(command, option, required, tmp_path,
                                                                monkeypatch, capsys):
    """`--out ""` (an unset shell variable) is Path("") == Path("."): simulate wrote its
    dataset into the current folder. Every path option refuses empty text, exit 2,
    naming the option, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    argv = [command]
    for a in required:  # the other required arguments, each a harmless path
        if a.option_strings and a.option_strings[0] == option:
            continue
        if not a.option_strings and option is None:
            continue
        argv += ([a.option_strings[0]] if a.option_strings else []) + [str(tmp_path / "x")]
    argv += ([option] if option else []) + [""]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: haunted-kit" in err and "an empty path" in err, err
    assert list(tmp_path.iterdir()) == []


def test_every_command_help_says_what_that_command_does(capsys):
    """'check-box --help' (and play, replay, review...) printed the kit's general blurb instead
    of what the command does: each command's help opens with its own line from the list."""
    from haunted_kit.cli import build_parser
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for choice in sub._choices_actions:
        with pytest.raises(SystemExit) as exc:
            main([choice.dest, "--help"])
        assert exc.value.code == 0
        text = " ".join(capsys.readouterr().out.split())
        own = " ".join((sub.choices[choice.dest].description or "").split())
        assert own and own in text, (choice.dest, text[:300])  # its own description: the list's line or longer
        assert "'haunted-kit COMMAND --help' tells its options" not in text, choice.dest


def test_review_help_gives_the_default_playouts_as_a_number(capsys):
    from haunted_kit.review import DEFAULT_PLAYOUTS

    with pytest.raises(SystemExit):
        main(["review", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_PLAYOUTS}, review.DEFAULT_PLAYOUTS)" in text
