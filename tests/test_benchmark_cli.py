"""The benchmark scripts' command lines (the README sends analysts to them): ``--help``
works without running anything, and a mistyped count, flag or revision gets argparse's
usage line and exit status 2, never a traceback (issue 21's second round: ``--games 0``
divided by zero, ``--thirds 0`` indexed an empty list, ``--ab nosuchrev`` showed git's
CalledProcessError)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if p.name != "benchargs.py")
#: a positional argument some scripts need before their options
LEAD = {"bench_scale.py": ["speed"]}


def run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def counts(script: Path) -> list[str]:
    """The script's options that take a count of at least 1."""
    return re.findall(r'add_argument\("(--[\w-]+)", type=number_at_least\(1\)', script.read_text())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_and_an_unknown_flag(script):
    shown = run(script, "--help")
    assert shown.returncode == 0 and "usage:" in shown.stdout, shown.stderr[-400:]
    wrong = run(script, *LEAD.get(script.name, []), "--no-such-flag")
    assert wrong.returncode == 2 and "usage:" in wrong.stderr and "Traceback" not in wrong.stderr, wrong.stderr[-400:]


@pytest.mark.parametrize("script", [s for s in SCRIPTS if counts(s)], ids=lambda p: p.name)
def test_a_count_below_one_or_not_a_number_is_refused_with_usage(script):
    option = counts(script)[0]
    for value, says in (("0", "must be at least 1, got 0"), ("-1", "must be at least 1, got -1"),
                        ("x", "'x' is not a whole number")):
        done = run(script, *LEAD.get(script.name, []), f"{option}={value}")
        assert done.returncode == 2, (option, value, done.stderr[-400:])
        assert says in done.stderr and "Traceback" not in done.stderr, done.stderr[-400:]


@pytest.mark.parametrize("name", ["bench_hints.py", "bench_kalena_falls.py", "bench_exercises.py"])
def test_a_positional_count_that_is_not_a_number_is_refused(name):
    done = run(ROOT / "benchmarks" / name, "x")
    assert done.returncode == 2 and "'x' is not a whole number" in done.stderr and "Traceback" not in done.stderr


def test_speed_without_catanatron_or_with_an_unknown_revision_says_so():
    """``bench_scale.py speed`` needs Catanatron beside the kit: without it, usage and a
    sentence naming the package; with it, ``--ab`` names an unknown revision."""
    done = run(ROOT / "benchmarks" / "bench_scale.py", "speed", "--ab", "no-such-revision", "--rounds", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-400:]
    probe = subprocess.run([sys.executable, "-c", "import importlib.util; print(importlib.util.find_spec('catanatron') is not None)"],
                           capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    if probe.stdout.strip() == "True":
        assert "'no-such-revision' is no git revision" in done.stderr
    else:
        assert "usage:" in done.stderr and "pip install catanatron" in done.stderr


def test_an_unknown_revision_is_named():
    done = run(ROOT / "benchmarks" / "bench_env.py", "--ab", "no-such-revision", "--games", "1")
    assert done.returncode == 2 and "'no-such-revision' is no git revision" in done.stderr
    assert "Traceback" not in done.stderr


def test_instruction_counts_without_valgrind_say_what_is_missing(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_env.py"), "--instructions", "--games", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": str(tmp_path)})  # no valgrind on this PATH
    assert done.returncode == 2 and "--instructions needs valgrind (apt install valgrind)" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
