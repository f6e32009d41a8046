"""Command-line faults met in a lesson (issue 32): ``--allow-host`` checks its value (a
bare host name or IP address; a port or a scheme is a usage error saying what to write),
and Ctrl-C in the first moments of any command's start-up is one line and exit 130,
never a traceback."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haunted_kit.cli import _allowed_host, main
from haunted_kit.server import host_name

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", ["server", "classroom"])
@pytest.mark.parametrize("value", ["class.lan:8870", "http://class.lan", "https://class.lan/", "class.lan/teacher",
                                   "", "-class.lan", "class lan", "[::1]:8870", "192.168.1.20:80"])
def test_allow_host_with_a_port_or_scheme_is_a_usage_error_saying_what_to_write(capsys, command, value):
    with pytest.raises(SystemExit) as exc:
        main([command, f"--allow-host={value}"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: "), err
    assert ("argument --allow-host: expected a bare host name or IP address as students type it, without http:// or "
            "a port, e.g. --allow-host class.school.lan or --allow-host 192.168.1.20; got ") in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("value, kept", [("Class.School.LAN", "class.school.lan"), ("class.lan.", "class.lan"),
                                         ("192.168.1.20", "192.168.1.20"), ("fe80::1", "[fe80::1]"),
                                         ("[FE80::0:1]", "[fe80::1]"), ("teacher-pc", "teacher-pc")])
def test_allow_host_keeps_a_bare_name_as_the_pages_host_header_names_it(value, kept):
    """Accepted values are compared with a page's Host header without its port
    (:func:`haunted_kit.server.host_name`), so a page asked for by that name is served."""
    assert _allowed_host(value) == kept
    assert host_name(f"{kept}:8870") == kept


@given(st.text(max_size=40))
def test_any_allow_host_value_is_a_name_pages_can_send_or_a_usage_error(text):
    try:
        kept = _allowed_host(text)
    except argparse.ArgumentTypeError as exc:
        assert "expected a bare host name or IP address" in str(exc)
        return
    assert kept == kept.lower() and ":" not in kept.strip("[]").replace("::", ":") or kept.startswith("[")
    assert "/" not in kept and " " not in kept and host_name(f"{kept}:80") == kept


# ============================================================================ Ctrl-C at start-up
#: commands that keep starting up or running for seconds (each imports its own modules when chosen)
COMMANDS = [["simulate", "--games", "100000", "--out", "runs", "--workers", "1", "--no-progress"],
            ["server", "--port", "0", "--store", "class.db"],
            ["play", "--agents", "search[playouts=2000]"],
            ["check-box", "--games", "1000", "--no-progress", str(ROOT / "data")]]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_ctrl_c_during_start_up_is_one_line_and_exit_130(tmp_path, argv):
    """SIGINT sent as soon as the entry point says it started (its guard in place,
    nothing of the command loaded yet), so it arrives while the command's modules load
    or it starts: one line, exit 130, no traceback. A server that was already serving
    when it arrived stops as Ctrl-C always stops it (exit 0)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    starter = ("import sys; from haunted_kit.__main__ import run; "
               "sys.exit(run(sys.argv[1:], guarded=lambda: (sys.stderr.write('started\\n'), sys.stderr.flush())))")
    proc = subprocess.Popen([sys.executable, "-c", starter, *argv], cwd=tmp_path, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stderr.readline() == b"started\n"  # the event waited for: the process runs the entry point
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    if argv[0] == "server" and b"Ready: Ctrl+C stops the server" in out:
        assert proc.returncode == 0
        return
    assert proc.returncode == 130, (proc.returncode, text, out)
    assert text.strip().splitlines() == ["haunted-kit: interrupted"], text
