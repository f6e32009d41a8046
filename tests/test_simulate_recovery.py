"""simulate after a crash: a killed run's partial parts are removed on resume (only the
kit's own temporary parts), and a Dask scheduler lost mid-run is named as such, with
the finished games kept and the same command resuming them."""

from __future__ import annotations

import pandas as pd
import pytest

from haunted_kit import simulate as S
from haunted_kit.cli import main
from haunted_kit.fileio import atomic_write

GRID_ARGS = ["--games", "6", "--players", "2", "--agents", "greedy", "--no-progress"]


def _real_temp_name(folder, name: str) -> str:
    """The name atomic_write gives its temporary file for target ``name`` (seen while it
    writes); the target is removed afterwards."""
    seen = []

    def write(fh):
        seen.extend(p.name for p in folder.iterdir() if p.name.startswith("."))
        fh.write("x")

    atomic_write(folder / name, write)
    (folder / name).unlink()
    assert len(seen) == 1
    return seen[0]


def test_resume_removes_the_partial_parts_a_killed_run_left_and_says_so(tmp_path, capsys):
    whole, d = tmp_path / "whole", tmp_path / "d"
    assert main(["simulate", "--out", str(whole), "--workers", "1", "--events", *GRID_ARGS]) == 0
    assert main(["simulate", "--out", str(d), "--workers", "1", "--events", *GRID_ARGS]) == 0
    capsys.readouterr()
    # a run SIGKILLed while writing the part of games 4-5 (rows and events) and before it
    # committed them: its temporary files stay, and the part is not there
    for folder in (d, d / "events"):
        for part in list(folder.glob("part-00000004-*.parquet")):
            half = part.read_bytes()[:100]  # half a Parquet file
            tmp = folder / _real_temp_name(folder, part.name)  # (removes the committed part)
            tmp.write_bytes(half)
            assert not part.exists()
    partial = sorted(str(p.relative_to(d)) for p in d.rglob(".part-*.tmp"))
    assert len(partial) == 2
    mine = [d / ".notes.json.tmp", d / "keep.tmp", d / "events" / ".part-x.parquet.txt"]  # not the kit's part pattern
    for p in mine:
        p.write_text("the user's")
    assert main(["simulate", "--out", str(d), "--workers", "1", "--events", *GRID_ARGS]) == 0
    err = capsys.readouterr().err
    assert f"Removed 2 partial part files left by a killed run ({', '.join(partial)} in {d}); their games were played again." in err
    assert not list(d.rglob(".part-*.tmp"))
    assert all(p.read_text() == "the user's" for p in mine)
    pd.testing.assert_frame_equal(S.load_dataset(d), S.load_dataset(whole))
    pd.testing.assert_frame_equal(S.load_events(d), S.load_events(whole))
    # nothing partial: nothing said
    assert main(["simulate", "--out", str(d), "--workers", "1", "--events", *GRID_ARGS]) == 0
    assert "partial" not in capsys.readouterr().err


def _cluster_lost_after_the_first_part(monkeypatch):
    """A Dask LocalCluster on 127.0.0.1 (one worker thread, TCP) that is closed as soon as
    simulate has written its first part (the event; no sleep)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                       host="127.0.0.1", dashboard_address=None)
    real = S._write_chunk

    def write_then_lose_the_scheduler(*args, **kw):
        real(*args, **kw)
        if cluster.status.name != "closed":
            cluster.close()

    monkeypatch.setattr(S, "_write_chunk", write_then_lose_the_scheduler)
    return cluster, real


def test_a_lost_scheduler_is_named_and_the_finished_games_are_kept(tmp_path, capsys, monkeypatch):
    cluster, real = _cluster_lost_after_the_first_part(monkeypatch)
    address = cluster.scheduler_address
    d = tmp_path / "d"
    try:
        code = main(["simulate", "--out", str(d), "--scheduler", address, "--workers", "1", *GRID_ARGS])
    finally:
        cluster.close()
    err = capsys.readouterr().err
    kept = S.load_dataset(d).game_id.nunique()
    assert code == 1 and 1 <= kept < 6
    assert (f"haunted-kit: lost the Dask scheduler at {address} after {kept} of 6 games (FutureCancelledError); "
            f"the finished games are kept in {d}: rerun the same command to resume") in err
    assert "Traceback" not in err and "cannot write" not in err
    monkeypatch.setattr(S, "_write_chunk", real)
    assert main(["simulate", "--out", str(d), "--workers", "1", *GRID_ARGS]) == 0
    assert f"6 games (12 rows) in {d}: {6 - kept} played now, {kept} already there." in capsys.readouterr().out
    assert main(["simulate", "--out", str(tmp_path / "fresh"), "--workers", "1", *GRID_ARGS]) == 0
    pd.testing.assert_frame_equal(S.load_dataset(d), S.load_dataset(tmp_path / "fresh"))


def test_compare_names_a_lost_scheduler_and_promises_no_resume(tmp_path, capsys, monkeypatch):
    """compare plays into a temporary folder: a lost scheduler is named, with no promise of
    resuming."""
    from pathlib import Path

    cluster, _ = _cluster_lost_after_the_first_part(monkeypatch)
    address = cluster.scheduler_address
    data = Path(__file__).resolve().parents[1] / "data"
    try:
        code = main(["compare", "--box", str(data), "--games", "4", "--players", "2", "--scheduler", address,
                     "--workers", "1", "--no-progress"])
    finally:
        cluster.close()
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"haunted-kit: lost the Dask scheduler at {address} after " in err
    assert " of 4 games of the reference box; compare keeps no partial run: rerun the command" in err


# The child writes the second part's rows file; half-way through the write it says so
# (a line on stdout) and waits on its stdin, which the test never writes to: the test
# kills it on that line, with the part's temporary file really on disk.
STALL = r"""
import sys
from haunted_kit import simulate as S
from haunted_kit.cli import main

real, parts = S._atomic_write_table, []

def stall(table, path):
    parts.append(path)
    if len(parts) == 2:
        def half(fh):
            fh.write("PAR1 half a part")
            fh.flush()
            print("writing", flush=True)
            sys.stdin.read()  # until killed
        S.atomic_write(path, half)
    return real(table, path)

S._atomic_write_table = stall
sys.exit(main(sys.argv[1:]))
"""


def test_a_sigkilled_run_s_partial_part_is_removed_by_the_next(tmp_path, capsys):
    import os
    import signal
    import subprocess
    import sys

    d = tmp_path / "d"
    argv = ["simulate", "--out", str(d), "--workers", "1", *GRID_ARGS]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", STALL, *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        line = proc.stdout.readline()  # the event: the child is inside its second part's write
        assert line == b"writing\n"
        partial = [p.relative_to(d) for p in sorted(d.rglob(".part-*.tmp"))]
        assert [p.name.startswith(".part-00000001-00000001.parquet.") for p in partial] == [True]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
    assert (d / partial[0]).exists() and len(list(d.glob("part-*.parquet"))) == 1
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert f"Removed 1 partial part file left by a killed run ({partial[0]} in {d})" in captured.err
    assert "6 games (12 rows) in" in captured.out and "5 played now, 1 already there." in captured.out
    assert not list(d.rglob("*.tmp"))
