"""`haunted-kit simulate`: a grid of games into a Parquet dataset, the same rows from one
worker, two processes and a Dask LocalCluster; resuming; house-rule boxes; misuse."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import haunted_kit as hk
from haunted_kit import simulate as S
from haunted_kit.cli import main
from haunted_kit.games import game_names
from haunted_kit.haunted.sim import play_game, play_many
from processes import cmdline, descendants, outlived_kill, wait_gone
from ruletools import copy_data, edit


SMALL = S.Grid(players=(2, 3), options={"mode": ["wanderer"], "extra_ghost_cards": [[], [3]]},
               lineups=("greedy", "random,greedy"), games=3, first_seed=5)


def test_grid_places_and_seeds():
    tasks = SMALL.tasks()
    assert len(SMALL) == len(tasks) == 2 * 2 * 2 * 3
    # cell order: players, then options, then lineups; game_id = cell * games + repetition
    assert tasks[0] == (0, 2, {"mode": "wanderer", "extra_ghost_cards": []}, "greedy", 5)
    assert tasks[4] == (4, 2, {"mode": "wanderer", "extra_ghost_cards": []}, "random,greedy", 6)
    assert tasks[23] == (23, 3, {"mode": "wanderer", "extra_ghost_cards": [3]}, "random,greedy", 7)


def test_rows_are_the_games_played_directly(tmp_path):
    rep = S.simulate(SMALL, tmp_path / "d", workers=1, progress=False)
    assert (rep.total, rep.played, rep.resumed, rep.interrupted) == (24, 24, 0, False)
    f = S.load_dataset(tmp_path / "d")
    assert len(f) == 2 * 12 + 3 * 12
    assert list(f.columns) == [c for c, _, _ in S.COLUMNS]
    for gid in (4, 23):
        rows = f[f.game_id == gid].sort_values("player")
        _, n, opts, lineup, seed = SMALL.tasks()[gid]
        cfg = hk.GameConfig(players=n, seed=seed, mode=opts["mode"], extra_ghost_cards=tuple(opts["extra_ghost_cards"]))
        res = play_game(cfg, lineup.split(","))  # agent i is seeded seed * 100 + i here too
        assert rows.score.tolist() == res.valor
        assert rows.won.tolist() == [res.winner == p for p in range(n)]
        assert rows.collective_loss.tolist() == [res.lost] * n
        assert rows.game_decisions.iloc[0] == res.decisions == rows.decisions.sum()
        assert rows.quests.map(list).tolist() == [[q for q, _ in qs] for qs in res.quests]
        assert rows.quest_total.tolist() == res.quest_valor
        assert rows.agent.tolist() == [lineup.split(",")[p % len(lineup.split(","))] for p in range(n)]
        start = hk.new_game(cfg, log=False)
        assert rows.seat.tolist() == [start.turn_order.index(p) + 1 for p in range(n)]
        # rank follows the valor stack: the winner is ranked 1 unless Kalena fell
        if not res.lost:
            assert rows[rows.won]["rank"].tolist() == [1]
    # sorted by game and seat
    assert f[["game_id", "seat"]].apply(tuple, axis=1).is_monotonic_increasing


def test_metadata_records_version_box_agents_and_schema(tmp_path):
    grid = S.Grid(players=(2,), lineups=("search[playouts=5],greedy",), games=1)
    S.simulate(grid, tmp_path / "d", workers=1, progress=False)
    meta = json.loads((tmp_path / "d" / "dataset.json").read_text())
    assert meta["kit_version"] == hk.__version__
    assert meta["box"]["fingerprint"] == hk.default_box().fingerprint
    assert meta["agents"]["search[playouts=5]"] == {"agent": "search", "playouts": 5, "seconds": None, "rollout": "greedy",
                                                    "rollout_depth": "auto", "exploration": 0.3, "prior": "greedy"}
    assert meta["agents"]["greedy"] == {"agent": "greedy"}
    assert [c["name"] for c in meta["schema"]] == [c for c, _, _ in S.COLUMNS]
    part = next((tmp_path / "d").glob("part-*.parquet"))
    assert json.loads(pq.read_schema(part).metadata[b"haunted_kit"])["grid"] == grid.to_dict()
    assert S.load_dataset(tmp_path / "d").attrs["metadata"]["game"] == "haunted"


def test_one_worker_two_processes_and_dask_give_identical_rows(tmp_path):
    grid = S.Grid(players=(2, 4), lineups=("greedy", "random"), games=3)
    S.simulate(grid, tmp_path / "one", workers=1, progress=False)
    S.simulate(grid, tmp_path / "two", workers=2, chunk=2, progress=False)
    rep = S.simulate(grid, tmp_path / "dask", workers=2, dask=True, chunk=1, progress=False)  # a real LocalCluster on 127.0.0.1
    assert rep.played == 12
    one = S.load_dataset(tmp_path / "one")
    pd.testing.assert_frame_equal(one, S.load_dataset(tmp_path / "two"))
    pd.testing.assert_frame_equal(one, S.load_dataset(tmp_path / "dask"))
    assert len(list((tmp_path / "dask").glob("part-*.parquet"))) == 12


def test_interrupt_keeps_finished_part_and_rerun_resumes(tmp_path, monkeypatch):
    grid = S.Grid(players=(2,), lineups=("greedy",), games=6)
    S.simulate(grid, tmp_path / "whole", workers=1, progress=False)
    real = S.run_chunk
    calls = []

    def stop_on_third(payload):
        calls.append(payload["tasks"][0][0])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(payload)

    monkeypatch.setattr(S, "run_chunk", stop_on_third)
    rep = S.simulate(grid, tmp_path / "d", workers=1, chunk=2, progress=False)
    assert rep.interrupted and rep.played == 4
    assert sorted(S.load_dataset(tmp_path / "d").game_id.unique()) == [0, 1, 2, 3]
    monkeypatch.setattr(S, "run_chunk", real)
    rep = S.simulate(grid, tmp_path / "d", workers=1, chunk=2, progress=False)
    assert (rep.resumed, rep.played, rep.interrupted) == (4, 2, False)
    pd.testing.assert_frame_equal(S.load_dataset(tmp_path / "d"), S.load_dataset(tmp_path / "whole"))
    # no temporary file is left behind
    assert not list((tmp_path / "d").glob(".*.tmp"))


@pytest.mark.parametrize("where", ["_remove_partial_parts", "run_chunk", "_write_chunk"])
def test_a_ctrl_c_anywhere_in_the_simulate_command_says_how_to_resume(tmp_path, monkeypatch, capsys, where):
    """CI once printed only 'haunted-kit: interrupted' for a Ctrl-C in a 2-worker run: one
    that lands outside simulate's own play loop (here: while it cleans the folder, before
    the loop) still names what is kept and how to resume, exit 130, no traceback."""
    argv = ["simulate", "--out", str(tmp_path / "d"), "--games", "4", "--players", "2", "--workers", "1",
            "--no-progress"]

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(S, where, ctrl_c)
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err.startswith("Interrupted: ") and "run the same command again to resume." in err
    assert str(tmp_path / "d") in err and "Traceback" not in err
    monkeypatch.undo()
    assert main(argv) == 0  # the same command then plays the run
    assert "4 games (8 rows)" in capsys.readouterr().out


@pytest.mark.parametrize("name", game_names())
def test_a_grid_without_counts_or_lineups_takes_the_games_own_defaults(name):
    """Grid(game=...) alone seats the game's default count of its default agent (a
    literal 4 players was Haunted Lands' count and refused a 2-player game)."""
    from haunted_kit.bots import default_agent
    from haunted_kit.games import default_players, get_game
    game = get_game(name)
    grid = S.Grid(game=name, games=1)
    assert grid.players == (default_players(game),)
    assert game.min_players <= grid.players[0] <= game.max_players
    assert grid.lineups == (default_agent(game),)


def test_another_grid_in_the_same_directory_is_refused(tmp_path):
    S.simulate(S.Grid(players=(2,), games=1), tmp_path / "d", workers=1, progress=False)
    with pytest.raises(S.DatasetError, match="another grid"):
        S.simulate(S.Grid(players=(2,), games=2), tmp_path / "d", workers=1, progress=False)


def test_a_folder_whose_first_run_played_no_game_takes_another_grid(tmp_path):
    """A run that never played (its --scheduler did not answer) leaves only dataset.json;
    the corrected command, another grid, is not refused as 'a dataset made with another
    grid' since the folder holds no game: it plays and describes the new grid."""
    with pytest.raises(S.SchedulerError):
        S.simulate(S.Grid(players=(2,), games=1), tmp_path / "d", workers=1, progress=False,
                   scheduler="tcp://127.0.0.1:1", connect_timeout=0.5)
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["dataset.json"]
    rep = S.simulate(S.Grid(players=(2,), games=2), tmp_path / "d", workers=1, progress=False)
    assert (rep.played, rep.resumed) == (2, 0)
    assert json.loads((tmp_path / "d" / "dataset.json").read_text())["grid"]["games"] == 2
    assert sorted(S.load_dataset(tmp_path / "d")["seed"].unique()) == [0, 1]
    with pytest.raises(S.DatasetError, match="another grid"):  # now it holds games: refused as before
        S.simulate(S.Grid(players=(2,), games=1), tmp_path / "d", workers=1, progress=False)


def test_damaged_part_is_named(tmp_path):
    S.simulate(S.Grid(players=(2,), games=2), tmp_path / "d", workers=1, chunk=1, progress=False)
    part = sorted((tmp_path / "d").glob("part-*.parquet"))[1]
    part.write_bytes(b"not parquet")
    with pytest.raises(S.DatasetError, match=part.name):
        S.load_dataset(tmp_path / "d")
    with pytest.raises(S.DatasetError, match="delete it and run again"):
        S.simulate(S.Grid(players=(2,), games=2), tmp_path / "d", workers=1, progress=False)


def test_house_rule_box_travels_to_the_workers(tmp_path):
    d = copy_data(tmp_path)
    edit(d / "buildings.toml", 'cost = ["wood", "water"]\nvalor = 1', 'cost = ["wood", "water"]\nvalor = 6')  # the mill
    house = hk.load_box(d)
    grid = S.Grid(players=(2,), lineups=("greedy",), games=4)
    S.simulate(grid, tmp_path / "house", box=house, workers=2, chunk=1, progress=False)
    f = S.load_dataset(tmp_path / "house")
    assert f.attrs["metadata"]["box"]["fingerprint"] == house.fingerprint
    expected = [v for k in range(4) for v in play_game(hk.GameConfig(players=2, seed=k, box=house), ["greedy"]).valor]
    assert f.sort_values(["game_id", "player"]).score.tolist() == expected
    plain = [v for k in range(4) for v in play_game(hk.GameConfig(players=2, seed=k), ["greedy"]).valor]
    assert expected != plain  # the house rule changed the games


def test_event_logs(tmp_path):
    S.simulate(S.Grid(players=(2,), games=2), tmp_path / "d", workers=1, events=True, progress=False)
    ev = S.load_events(tmp_path / "d")
    assert set(ev.game_id) == {0, 1}
    g0 = ev[ev.game_id == 0]
    assert g0.seq.tolist() == list(range(len(g0)))
    last = g0.iloc[-1]
    assert last.kind in ("game_over", "collective_loss")
    full = hk.new_game(players=2, seed=0)
    from haunted_kit.haunted.agents import GreedyAgent

    bots = [GreedyAgent(i) for i in range(2)]  # seat i of game 0: seed 0 * 100 + i
    while not full.is_terminal():
        full.apply_action(bots[full.current_player()].act(full))
    assert g0.text.tolist() == full.events().text.tolist()
    S.simulate(S.Grid(players=(3,), games=1), tmp_path / "e", workers=1, progress=False)
    with pytest.raises(S.DatasetError, match="no event logs"):
        S.load_events(tmp_path / "e")


def test_a_bad_grid_cell_is_refused_before_any_work(tmp_path):
    grid = S.Grid(players=(2,), options={"mode": ["wanderer", "builder"], "extra_ghost_cards": [[2]]}, games=1)
    with pytest.raises(ValueError, match="mode=builder.*ghost card 2 is already the builder mode's card"):
        S.simulate(grid, tmp_path / "d", workers=1, progress=False)
    assert not (tmp_path / "d").exists()
    with pytest.raises(ValueError, match="unknown agent 'clever'"):
        S.Grid(lineups=("clever",))
    for bad in (0, 1.5, float("nan"), True, 10 ** 7):
        with pytest.raises(ValueError, match=r"^games must be a whole number from 1 to 1,000,000, got "):
            S.Grid(games=bad)


def test_cli_simulate_and_resume(tmp_path, capsys):
    argv = ["simulate", "--out", str(tmp_path / "d"), "--games", "2", "--players", "2", "--workers", "1", "--no-progress",
            "--agents", "greedy", "--agents", "random", "--ghost-cards", "none", "--ghost-cards", "2,3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "8 games (16 rows)" in out and "8 played now, 0 already there" in out
    assert main(argv) == 0
    assert "0 played now, 8 already there" in capsys.readouterr().out
    f = S.load_dataset(tmp_path / "d")
    assert sorted(f.extra_ghost_cards.unique()) == ["", "2,3"]


def test_cli_summary_keeps_the_grid_cells_apart(tmp_path, capsys):
    """The printed summary pooled every mode, ghost-card set and lineup of the grid into
    one line per player count and agent (four cells asked for, one line of 160 games):
    it has one line per cell and seat agent, each worked out from the dataset's rows."""
    argv = ["simulate", "--out", str(tmp_path / "d"), "--games", "3", "--players", "2", "--workers", "1",
            "--no-progress", "--agents", "greedy", "--agents", "random,greedy", "--ghost-cards", "none",
            "--ghost-cards", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    f = S.load_dataset(tmp_path / "d")
    cells = f.groupby(["players", "options", "lineup", "agent"])
    assert len(cells) == 2 * 3  # 2 ghost-card sets x (greedy lineup: greedy; mixed lineup: random, greedy)
    lines = [ln.split() for ln in out.splitlines()]
    assert ["players", "options", "lineup", "agent", "games", "win_rate"] in [ln[:6] for ln in lines]
    for (players, options, lineup, agent), rows in cells:
        label = ";".join(f"{k}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}"
                         for k, v in json.loads(options).items())  # the documented name=value;... label
        line = [ln for ln in lines if ln[:4] == [str(players), label, lineup, agent]]
        assert len(line) == 1, (label, lineup, agent, out)
        assert int(line[0][4]) == rows["game_id"].nunique()
        assert float(line[0][5]) == round(rows["won"].mean(), 3)


def test_cli_summary_when_no_game_ended_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HAUNTED_KIT_DECISION_CAP", "5")
    argv = ["simulate", "--out", str(tmp_path / "d"), "--games", "2", "--players", "2", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Empty DataFrame" not in out
    assert "No game ended within the decision cap: no figures to show." in out


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "--games", "2"], "--out"),
    (["simulate", "--out", "x", "--agents", "search[budget=3]"], "unknown search setting 'budget=3'"),
    (["simulate", "--out", "x", "--agents", "clever"], "unknown agent 'clever'"),
    (["simulate", "--out", "x", "--workers", "0"], "--workers"),
    (["simulate", "--out", "x", "--players", "5"], "players=5, mode=wanderer, extra_ghost_cards=[]: players must be between 2 and 4"),
    (["simulate", "--out", "x", "--ghost-cards", "two"], "expected numbers"),
    (["simulate", "--out", "x", "--mode", "hermit"], "unknown mode 'hermit'"),
])
def test_cli_simulate_misuse_prints_usage_and_exits_2(argv, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ei:
        main(argv)
    assert ei.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and needle in err
    assert not (tmp_path / "x").exists()


def test_a_companion_module_simulates_through_the_protocol(tmp_path):
    from haunted_kit.games import get_game

    grid = S.Grid(game="estate", players=(2, 3), lineups=("greedy", "random,greedy"), games=2)
    S.simulate(grid, tmp_path / "one", workers=1, progress=False)
    S.simulate(grid, tmp_path / "two", workers=2, chunk=1, progress=False)
    f = S.load_dataset(tmp_path / "one")
    pd.testing.assert_frame_equal(f, S.load_dataset(tmp_path / "two"))
    assert f.attrs["metadata"]["game"] == "estate"
    assert f.attrs["metadata"]["box"] == {"fingerprint": get_game("estate").default_box().fingerprint, "name": "estate", "kit_data": True}
    # the estate's returns are each player's gold value (a kit measure): score, rank and win follow them
    estate = get_game("estate")
    for gid in (1, 6):
        rows = f[f.game_id == gid].sort_values("player")
        _, n, _opts, lineup, seed = grid.tasks()[gid]
        s = estate.new_game(players=n, seed=seed, log=False)
        specs = lineup.split(",")
        bots = [estate.agents[specs[i % len(specs)]](seed * 100 + i) for i in range(n)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].act(s))
        ret = s.returns()
        assert rows.score.tolist() == ret == rows["returns"].tolist()
        top = max(ret)
        assert rows.won.tolist() == [r == top and ret.count(top) == 1 for r in ret]
        assert rows["rank"].tolist() == [sorted(set(ret), reverse=True).index(r) + 1 for r in ret]
        assert not rows.collective_loss.any()


# ---------------------------------------------------------------- a grid holds each value once


@pytest.mark.parametrize("kwargs, needle", [
    (dict(players=(3, 3)), "players lists 3 more than once"),
    (dict(lineups=("greedy", "greedy")), "lineups lists 'greedy' more than once"),
    (dict(lineups=("random,greedy", "random, greedy")), "lineups lists 'random,greedy' more than once"),
    (dict(options={"mode": ["wanderer", "wanderer"]}), "option 'mode' lists 'wanderer' more than once"),
    (dict(options={"extra_ghost_cards": [[2], [], [2]]}), r"option 'extra_ghost_cards' lists \[2\] more than once"),
])
def test_grid_refuses_a_value_given_twice(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        S.Grid(games=1, **kwargs)


def test_grid_of_another_game_refuses_a_value_given_twice():
    with pytest.raises(ValueError, match="players lists 2 more than once"):
        S.Grid(game="landmarks", players=(2, 3, 2), games=1)
    assert len(S.Grid(game="landmarks", players=(2, 3), games=4)) == 8  # distinct values: 2 cells x 4 games


@pytest.mark.parametrize("extra, needle", [
    (["--players", "3,3"], "players lists 3 more than once"),
    (["--agents", "greedy", "--agents", "greedy"], "lineups lists 'greedy' more than once"),
    (["--mode", "citizen,citizen"], "option 'mode' lists 'citizen' more than once"),
    (["--ghost-cards", "2,3", "--ghost-cards", "2,3"], "option 'extra_ghost_cards' lists [2, 3] more than once"),
])
def test_cli_refuses_a_grid_value_given_twice(extra, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ei:
        main(["simulate", "--out", "x", "--games", "1", "--workers", "1", "--no-progress", *extra])
    assert ei.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and needle in err
    assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------- event logs: one schema, whole parts


@pytest.mark.parametrize("game", game_names())
def test_event_parts_share_the_declared_schema(game, tmp_path):
    S.simulate(S.Grid(game=game, players=(2,), games=3), tmp_path / "d", workers=1, chunk=1, events=True, progress=False)
    parts = sorted((tmp_path / "d" / "events").glob("part-*.parquet"))
    assert len(parts) == 3
    declared = [(n, t) for n, t, _ in S.EVENT_COLUMNS]
    for part in parts:  # the same types in every part, whatever that part's games held
        sch = pq.read_schema(part)
        assert [(f.name, str(f.type).replace("large_", "")) for f in sch] == declared
    ev = S.load_events(tmp_path / "d")
    assert list(ev.columns) == [n for n, _ in declared]
    assert sorted(ev.game_id.unique()) == [0, 1, 2]
    for _, g in ev.groupby("game_id"):
        assert g.seq.tolist() == list(range(len(g)))
    assert all(isinstance(json.loads(d), dict) for d in ev.data)
    cells = [json.loads(c) for c in ev.cell.dropna()]
    assert all(isinstance(c, list) and len(c) == 2 for c in cells)  # axial pairs as JSON, never a bare number
    assert set(ev.player.dropna()) <= {"P1", "P2"}


def test_an_interruption_between_events_and_rows_loses_no_event_and_repeats_none(tmp_path, monkeypatch):
    grid = S.Grid(players=(2,), lineups=("greedy",), games=5)
    S.simulate(grid, tmp_path / "whole", workers=1, events=True, progress=False)
    real = S._atomic_write_table
    writes = []

    def stop_before_the_second_rows_file(table, path):
        writes.append(path)
        if path.parent.name == "d" and len([p for p in writes if p.parent.name == "d"]) == 2:
            raise KeyboardInterrupt  # the second part's events are written, its rows are not
        real(table, path)

    monkeypatch.setattr(S, "_atomic_write_table", stop_before_the_second_rows_file)
    rep = S.simulate(grid, tmp_path / "d", workers=1, chunk=2, events=True, progress=False)
    assert rep.interrupted and rep.played == 2  # the first part (games 0, 1) is whole
    orphan = tmp_path / "d" / "events" / "part-00000002-00000003.parquet"
    assert orphan.is_file() and not (tmp_path / "d" / orphan.name).exists()
    assert sorted(S.load_events(tmp_path / "d").game_id.unique()) == [0, 1]  # an unfinished part's events are not shown
    monkeypatch.setattr(S, "_atomic_write_table", real)
    rep = S.simulate(grid, tmp_path / "d", workers=1, chunk=3, events=True, progress=False)  # another chunking
    assert (rep.resumed, rep.played) == (2, 3)
    assert not orphan.exists()
    whole = S.load_events(tmp_path / "whole")
    pd.testing.assert_frame_equal(S.load_events(tmp_path / "d"), whole)
    assert not whole.duplicated(["game_id", "seq"]).any()


# ---------------------------------------------------------------- workers end with the main process


def _start_simulate(tmp_path):
    argv = ["simulate", "--out", str(tmp_path / "d"), "--games", "400", "--players", "4", "--workers", "2",
            "--no-progress"]
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from haunted_kit.cli import main; sys.exit(main(sys.argv[1:]))",
                             *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:  # the two workers have started
        time.sleep(0.2)
        workers = {p for p in descendants(proc.pid) if "spawn_main" in cmdline(p)}
    assert len(workers) == 2, f"no workers started: {proc.stderr.read1().decode() if proc.poll() is not None else ''}"
    time.sleep(1.0)  # they are playing
    return proc, descendants(proc.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the worker processes")
def test_workers_die_with_a_killed_main_process(tmp_path):
    proc, children = _start_simulate(tmp_path)
    left = outlived_kill(proc, children)
    assert not left, f"{len(left)} of {len(children)} child processes outlived the SIGKILLed main process"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the worker processes")
def test_ctrl_c_on_the_main_process_stops_the_workers_and_keeps_finished_parts(tmp_path):
    proc, children = _start_simulate(tmp_path)
    proc.send_signal(signal.SIGINT)  # to the main process only, as Jupyter's interrupt does
    assert proc.wait(60) == 130  # bounded: a loaded machine needs a while to start the workers
    assert b"run the same command again to resume" in proc.stderr.read()
    left = wait_gone(children, 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
    S.load_dataset(tmp_path / "d")  # what was finished is readable


def test_a_dataset_and_play_many_hold_the_same_games_seed_for_seed(tmp_path):
    """Notebooks 06 (``play_many``) and 10 (``simulate``) report Kalena's fall for one
    setup from different numbers of games; for a seed they play the same game, so the
    per-game rows agree exactly (seeds 0-7 of four greedy bots in Wanderer with card 1:
    the shares differ between the notebooks only by how many seeds they play)."""
    grid = S.Grid(players=(4,), options={"mode": ["wanderer"], "extra_ghost_cards": [[]]}, lineups=("greedy",),
                  games=8, first_seed=0)
    S.simulate(grid, tmp_path / "d", workers=1, progress=False)
    f = S.load_dataset(tmp_path / "d").sort_values(["seed", "player"])
    m = play_many(8, players=4, agents=["greedy"], first_seed=0).sort_values(["seed", "player"])
    assert f.collective_loss.tolist() == m.lost.tolist()
    assert f.score.tolist() == m.valor.tolist() and f.seat.tolist() == m.seat.tolist()
    assert f.game_decisions.tolist() == m.game_decisions.tolist()
    assert f.extra_ghost_cards.tolist() == m.extra_ghost_cards.tolist() == [""] * 32
