"""The classroom launcher without a browser: settings from the environment, the Voila
command it builds, busy ports and bad seats. (The served app itself is tested in
tests/browser/test_classroom_app.py.)"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from ruletools import copy_data, edit

import haunted_kit as hk
from haunted_kit import classroom
from haunted_kit.classroom import (app_settings, classroom_env, full_page, host_allowed, run_voila, serve,
                                   voila_command, wait_until_answering)
from haunted_kit.cli import main

VARS = ("SEED", "MODE", "PLAYERS", "BOTS", "SIZE", "HINTS", "HINT_PLAYOUTS", "BOX")


@pytest.fixture
def clean_env(monkeypatch):
    for v in VARS:
        monkeypatch.delenv("HAUNTED_KIT_" + v, raising=False)
    return monkeypatch


@pytest.fixture
def no_voila(monkeypatch):
    """Replace the Voila subprocess; records (cmd, env) of every call."""
    calls = []

    def call(cmd, env=None, url=None, **kw):
        calls.append((cmd, env))
        URLS.append(url)
        return 0

    URLS.clear()
    monkeypatch.setattr(classroom, "run_voila", call)
    return calls


URLS: list = []  # the URL each faked run_voila was to print once Voila answers


REFERENCE = {"box": hk.default_box(), "size": 34.0, "hints": True, "hint_playouts": 1000}


def test_app_settings_defaults(clean_env):
    assert app_settings() == {"seed": 1, "players": 4, "mode": "wanderer", "bots": [1, 2, 3], **REFERENCE}
    assert app_settings(default_seed=9)["seed"] == 9


def test_app_settings_from_environment(clean_env):
    clean_env.setenv("HAUNTED_KIT_SEED", "3")
    clean_env.setenv("HAUNTED_KIT_MODE", "citizen")
    clean_env.setenv("HAUNTED_KIT_PLAYERS", "3")
    clean_env.setenv("HAUNTED_KIT_BOTS", " 2 , 3 ")  # 1-based seats, spaces tolerated
    assert app_settings() == {"seed": 3, "players": 3, "mode": "citizen", "bots": [1, 2], **REFERENCE}


def test_app_settings_default_bots_follow_players(clean_env):
    clean_env.setenv("HAUNTED_KIT_PLAYERS", "2")
    assert app_settings()["bots"] == [1]


def test_app_settings_empty_bots_means_all_human(clean_env):
    clean_env.setenv("HAUNTED_KIT_BOTS", "")
    assert app_settings()["bots"] == []


@pytest.mark.parametrize("var, value", [("SEED", "three"), ("PLAYERS", "4.5"), ("BOTS", "2,x"), ("SIZE", "big"),
                                        ("SIZE", "8"), ("SIZE", "nan"), ("HINTS", "maybe"), ("HINT_PLAYOUTS", "many"),
                                        ("BOX", "/nonexistent/box")])
def test_app_settings_names_a_malformed_variable(clean_env, var, value):
    clean_env.setenv("HAUNTED_KIT_" + var, value)
    with pytest.raises(ValueError, match=f"HAUNTED_KIT_{var}={value!r}"):
        app_settings()


def test_classroom_env_round_trips_through_app_settings(clean_env):
    env = classroom_env(players=3, mode="citizen", seed=5, bots=[2, 3])
    assert {k: env["HAUNTED_KIT_" + k] for k in VARS if k != "BOX"} == {"SEED": "5", "MODE": "citizen", "PLAYERS": "3",
                                                                        "BOTS": "2,3", "SIZE": "34", "HINTS": "1",
                                                                        "HINT_PLAYOUTS": "1000"}
    assert "HAUNTED_KIT_BOX" not in env
    for k in VARS[:-1]:
        clean_env.setenv("HAUNTED_KIT_" + k, env["HAUNTED_KIT_" + k])
    assert app_settings() == {"seed": 5, "players": 3, "mode": "citizen", "bots": [1, 2], **REFERENCE}
    assert classroom_env(players=4, mode="wanderer", seed=1, bots=None)["HAUNTED_KIT_BOTS"] == "2,3,4"


def test_voila_command_serves_the_play_notebook_on_localhost_only():
    cmd = voila_command(8123)
    assert cmd[:3] == [sys.executable, "-m", "haunted_kit.classroom"]  # Voila with the kit's cap and Host check
    assert cmd[3].endswith("notebooks/07_classroom_play.ipynb")
    assert "--port=8123" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--no-browser" in cmd
    assert "--Voila.port_retries=0" in cmd  # never a silent move to a port other than the one printed
    # a closed or reloaded page's kernel (no connection) goes within 30 + 10 s; open pages' kernels stay
    assert {"--MappingKernelManager.cull_idle_timeout=30", "--MappingKernelManager.cull_interval=10",
            "--MappingKernelManager.cull_connected=False", "--ClassroomVoila.max_kernels=40"} <= set(cmd)
    assert "--no-browser" not in voila_command(8123, open_browser=True)
    tuned = voila_command(8123, kernel_idle=2, cull_interval=1, max_kernels=3, allow_hosts=["class.school.test"])
    assert {"--MappingKernelManager.cull_idle_timeout=2", "--MappingKernelManager.cull_interval=1",
            "--ClassroomVoila.max_kernels=3", "--ClassroomVoila.allow_hosts=class.school.test"} <= set(tuned)


def test_serve_passes_kernel_settings_and_checks_them(no_voila, capsys):
    assert serve(port=0, open_browser=False, kernel_idle=45, max_kernels=12, allow_hosts=["class.school.test"]) == 0
    (cmd, _env), = no_voila
    assert {"--MappingKernelManager.cull_idle_timeout=45", "--ClassroomVoila.max_kernels=12",
            "--ClassroomVoila.allow_hosts=class.school.test"} <= set(cmd)
    assert serve(port=0, open_browser=False, kernel_idle=2) == 2
    assert serve(port=0, open_browser=False, max_kernels=0) == 2
    err = capsys.readouterr().err
    assert "kernel idle time must be between 5 and 3600 seconds, got 2" in err
    assert "max kernels must be between 1 and 1000, got 0" in err and len(no_voila) == 1


@pytest.mark.parametrize("header, ok", [("127.0.0.1:8866", True), ("localhost:8866", True), ("[::1]:8866", True),
                                        ("Class.School.Test:8866", True), ("evil.example:8866", False),
                                        ("10.0.0.5:8866", False)])
def test_the_host_header_is_checked_as_the_table_server_does(header, ok):
    assert host_allowed(header, ["class.school.test"]) is ok


def test_the_full_page_says_what_happened_and_what_to_do():
    page = full_page(40, 40)
    assert "The classroom app is full" in page and "40 games are open already" in page
    assert "Close a tab" in page and "within a minute" in page and "--max-kernels" in page
    assert "1 game is open already" in full_page(1, 1)


FAKE_VOILA = """
import http.server, sys, time
time.sleep(float(sys.argv[2]))
server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), http.server.BaseHTTPRequestHandler)
print("fake voila listening", flush=True)
server.handle_request()
time.sleep(0.3)
"""


def free_local_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_url_is_printed_only_once_voila_answers(capfd):
    port = free_local_port()
    url = f"http://127.0.0.1:{port}/"
    assert run_voila([sys.executable, "-c", FAKE_VOILA, str(port), "0.8"], {}, url=url) == 0
    out = capfd.readouterr().out
    assert f"Classroom app: {url}" in out
    assert out.index("fake voila listening") < out.index("Classroom app:")  # answered first, then printed


def test_a_voila_that_never_answers_or_stops_is_reported_without_the_url(capfd):
    port = free_local_port()
    url = f"http://127.0.0.1:{port}/"
    start = time.monotonic()
    assert run_voila([sys.executable, "-c", "import time; time.sleep(30)"], {}, url=url, start_timeout=1.0) == 1
    assert time.monotonic() - start < 15  # stopped, not waited for
    assert run_voila([sys.executable, "-c", "raise SystemExit(3)"], {}, url=url) == 3
    captured = capfd.readouterr()
    assert "Classroom app:" not in captured.out
    assert f"Voila did not answer at {url} within 1 s; stopping it." in captured.err
    assert f"Voila stopped before it answered at {url} (exit status 3)" in captured.err


def get(url: str, host: str | None = None) -> tuple[int, str]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with opener.open(req, timeout=90) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@contextlib.contextmanager
def voila_running(tmp_path, **settings):
    """The real classroom Voila on a free 127.0.0.1 port with ``settings``
    (:func:`voila_command`'s), answering; yields its URL and stops it after (log in
    ``tmp_path/voila.log``)."""
    port = free_local_port()
    url = f"http://127.0.0.1:{port}/"
    env = classroom_env(players=2, mode="wanderer", seed=3, bots=[2])
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path)
    log = open(tmp_path / "voila.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(voila_command(port, **settings), env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        assert wait_until_answering(proc, url, timeout=90)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_voila_caps_kernels_checks_the_host_and_shuts_down_a_closed_pages_kernel(tmp_path, clean_env):
    """The real Voila, tuned so the test waits seconds: one kernel at most, a kernel with
    no page shut down after 2 s idle (looked for every second)."""
    with voila_running(tmp_path, kernel_idle=2, cull_interval=1, max_kernels=1) as url:
        assert get(url, host="evil.example")[0] == 403
        assert get(url + "voila/static/extension.js", host="evil.example")[0] == 403  # every handler, not only pages
        status, page = get(url)  # a student's page: the kernel runs the notebook
        assert status == 200 and "Classroom play" in page
        status, page = get(url)  # the cap (1) is reached: a clear page, no second kernel
        assert status == 503 and "The classroom app is full" in page and "1 game is open already" in page
        # the first page never connected (as a closed tab): its kernel is shut down within seconds
        deadline = time.monotonic() + 60
        while b"Kernel shutdown" not in (tmp_path / "voila.log").read_bytes() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert b"Culling 'idle' kernel" in (tmp_path / "voila.log").read_bytes()
        for _ in range(20):  # the shutdown is logged a moment before the kernel leaves the list
            status, _page = get(url)
            if status == 200:
                break
            time.sleep(0.5)
        assert status == 200  # its place is free again


def test_serve_passes_settings_to_voila(no_voila, clean_env, capsys):
    with socket.socket() as s:  # a port that is free right now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert serve(players=3, mode="citizen", seed=3, bots=[2, 3], port=port, open_browser=False) == 0
    (cmd, env), = no_voila
    assert f"--port={port}" in cmd
    assert env["HAUNTED_KIT_BOTS"] == "2,3" and env["HAUNTED_KIT_SEED"] == "3"
    assert env["HAUNTED_KIT_HINTS"] == "1"
    out = capsys.readouterr().out
    assert URLS == [f"http://127.0.0.1:{port}/"] and "in use" not in out  # printed by run_voila once Voila answers


def test_serve_replaces_a_busy_port_and_says_so(no_voila, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert serve(port=port, open_browser=False) == 0
    (cmd, _env), = no_voila
    out = capsys.readouterr().out
    new = int(out.split("serving on port ")[1].split(" ")[0].rstrip("."))
    assert f"Port {port} is in use; serving on port {new} instead." in out
    assert new != port and f"--port={new}" in cmd
    assert URLS == [f"http://127.0.0.1:{new}/"]


def test_serve_port_zero_picks_a_free_port(no_voila, capsys):
    assert serve(port=0, open_browser=False) == 0
    (cmd, _env), = no_voila
    port = int(next(a for a in cmd if a.startswith("--port=")).split("=")[1])
    assert port > 0 and "in use" not in capsys.readouterr().out


@pytest.mark.parametrize("bots", [[5], [0, 2], [-1]])
def test_serve_refuses_bad_bot_seats_with_exit_2(no_voila, capsys, bots):
    assert serve(players=4, bots=bots, open_browser=False) == 2
    assert "bot seats must be between 1 and 4" in capsys.readouterr().err
    assert no_voila == []


def test_serve_refuses_a_port_out_of_range(no_voila, capsys):
    assert serve(port=70000, open_browser=False) == 2
    assert "port must be between 0 and 65535" in capsys.readouterr().err
    assert no_voila == []


@pytest.mark.parametrize("argv, needle", [
    (["classroom", "--players", "3", "--bots", "4"], "bot seats must be between 1 and 3"),
    (["classroom", "--bots", "2,x"], "expected numbers separated by commas"),
    (["classroom", "--players", "5"], "invalid choice"),
    (["classroom", "--mode", "nightmare"], "invalid choice"),
    (["classroom", "--port", "http"], "argument --port: the value must be a whole number from 0 to 65,535, got 'http'"),
    (["classroom", "--port", "70000"], "argument --port: the value must be a whole number from 0 to 65,535, got '70000'"),
    (["classroom", "--size", "200"], "argument --size: the value must be a finite number from 12 to 80, got '200'"),
    (["classroom", "--size", "nan"], "argument --size: the value must be a finite number from 12 to 80, got 'nan'"),
    (["classroom", "--size", "big"], "argument --size: the value must be a finite number from 12 to 80, got 'big'"),
    (["classroom", "--hint-playouts", "5"], "argument --hint-playouts: the value must be a whole number from 10 to 100,000, got '5'"),
    (["classroom", "--box", "/nonexistent/box"], "--box /nonexistent/box:"),
])
def test_cli_classroom_misuse_exits_2(no_voila, capsys, argv, needle):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors
        code = exc.code
    assert code == 2
    assert needle in capsys.readouterr().err
    assert no_voila == []


def test_cli_classroom_runs_voila_with_the_options(no_voila, clean_env, capsys):
    assert main(["classroom", "--players", "3", "--mode", "citizen", "--seed", "7", "--bots", "2,3",
                 "--port", "0", "--no-browser"]) == 0
    (cmd, env), = no_voila
    assert "--no-browser" in cmd
    assert {k: env["HAUNTED_KIT_" + k] for k in VARS if k != "BOX"} == {"SEED": "7", "MODE": "citizen", "PLAYERS": "3",
                                                                        "BOTS": "2,3", "SIZE": "34", "HINTS": "1",
                                                                        "HINT_PLAYOUTS": "1000"}


def test_cli_classroom_box_and_size_reach_the_notebook(no_voila, clean_env, tmp_path, monkeypatch):
    d = copy_data(tmp_path)
    edit(d / "quests.toml", "valor = 3\ntext = \"3 valor for each sawmill you own.\"",
         "valor = 30\ntext = \"3 valor for each sawmill you own.\"")
    monkeypatch.chdir(tmp_path)
    assert main(["classroom", "--box", "data", "--size", "48", "--port", "0", "--no-browser"]) == 0
    (_cmd, env), = no_voila
    assert env["HAUNTED_KIT_BOX"] == str(d.resolve()) and env["HAUNTED_KIT_SIZE"] == "48"
    for k in ("BOX", "SIZE"):
        clean_env.setenv("HAUNTED_KIT_" + k, env["HAUNTED_KIT_" + k])
    settings = app_settings()
    assert settings["size"] == 48.0
    assert settings["box"].fingerprint == hk.load_box(d).fingerprint != hk.default_box().fingerprint
    assert settings["box"].quests[7].valor == 30  # the sawmill quest, as edited


def test_a_teacher_switches_hints_off(no_voila, clean_env):
    assert serve(port=0, open_browser=False, hints=False) == 0
    (_cmd, env), = no_voila
    assert env["HAUNTED_KIT_HINTS"] == "0"
    clean_env.setenv("HAUNTED_KIT_HINTS", "0")
    assert app_settings()["hints"] is False


def test_the_hint_budget_reaches_the_notebook_and_is_checked(no_voila, clean_env, capsys):
    assert main(["classroom", "--port", "0", "--no-browser", "--hint-playouts", "60"]) == 0
    (_cmd, env), = no_voila
    assert env["HAUNTED_KIT_HINT_PLAYOUTS"] == "60"
    clean_env.setenv("HAUNTED_KIT_HINT_PLAYOUTS", "60")
    assert app_settings()["hint_playouts"] == 60
    clean_env.setenv("HAUNTED_KIT_HINT_PLAYOUTS", "9")
    with pytest.raises(ValueError, match="HAUNTED_KIT_HINT_PLAYOUTS=9 \\(expected 10 to 100,000 playouts\\)"):
        app_settings()
    assert serve(port=0, open_browser=False, hint_playouts=200_000) == 2
    assert "hint playouts must be between 10 and 100,000, got 200000" in capsys.readouterr().err


def test_classroom_pages_never_show_a_traceback(monkeypatch):
    """Issue 13, item 4: a student's page gets a sentence; the traceback goes to the log."""
    from haunted_kit.widgets.errors import ErrorBanner, ErrorReporting

    env = classroom_env(players=3, mode="citizen", seed=5, bots=[2, 3])
    assert env["HAUNTED_KIT_APP"] == "1"
    assert "--show_tracebacks=False" in voila_command(8866)

    class Thing(ErrorReporting):
        pass

    def boom():
        raise ZeroDivisionError("division by zero")

    monkeypatch.setenv("HAUNTED_KIT_APP", "1")
    student = Thing()
    student._init_errors()
    student.guard(boom, "placing a ghost")()
    assert "Something went wrong while placing a ghost." in student.error_banner.value
    assert "The teacher's log has the details." in student.error_banner.value
    assert "Traceback" not in student.error_banner.value and "ZeroDivisionError" not in student.error_banner.value
    assert "ZeroDivisionError" in student.last_error.traceback  # kept for the log

    monkeypatch.delenv("HAUNTED_KIT_APP")
    lab = Thing()
    lab._init_errors(ErrorBanner())
    lab.guard(boom, "placing a ghost")()
    assert "ZeroDivisionError: division by zero" in lab.error_banner.value and "Traceback" in lab.error_banner.value


def test_a_notebook_opened_with_the_kits_voila_culls_closed_pages_kernels(monkeypatch):
    """The tutorial's printed command (``python -m haunted_kit.classroom NOTEBOOK --port=N``)
    names no culling, and a newcomer's reloads and a ``curl`` left a kernel each until the app
    stopped: the kit's Voila adds the culling flags (:func:`cull_flags`, 30 s idle, looked for
    every 10 s) that its command line does not give."""
    from voila.app import Voila

    from haunted_kit.classroom import cull_flags, voila_main

    launched = []
    monkeypatch.setattr(Voila, "launch_instance", classmethod(lambda cls, argv=None, **kw: launched.append(argv)))
    voila_main(["tutorial-estate.ipynb", "--port=8946"])
    assert launched == [["--MappingKernelManager.cull_idle_timeout=30", "--MappingKernelManager.cull_interval=10",
                         "--MappingKernelManager.cull_connected=False", "--MappingKernelManager.cull_busy=False",
                         "tutorial-estate.ipynb", "--port=8946"]]
    assert cull_flags(45, 5)[:2] == ["--MappingKernelManager.cull_idle_timeout=45",
                                     "--MappingKernelManager.cull_interval=5"]
    # a culling flag the command line gives is its own, never given twice (traitlets refuses two values)
    voila_main(["nb.ipynb", "--MappingKernelManager.cull_idle_timeout=2"])
    assert launched[1] == ["--MappingKernelManager.cull_interval=10", "--MappingKernelManager.cull_connected=False",
                           "--MappingKernelManager.cull_busy=False", "nb.ipynb",
                           "--MappingKernelManager.cull_idle_timeout=2"]
