"""The classroom launcher without a browser: settings from the environment, the Voila
command it builds, busy ports and bad seats. (The served app itself is tested in
tests/browser/test_classroom_app.py.)"""

from __future__ import annotations

import socket
import sys

import pytest
from ruletools import copy_data, edit

import haunted_kit as hk
from haunted_kit import classroom
from haunted_kit.classroom import app_settings, classroom_env, serve, voila_command
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

    def call(cmd, env=None, **kw):
        calls.append((cmd, env))
        return 0

    monkeypatch.setattr(classroom, "run_voila", call)
    return calls


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
    assert cmd[:3] == [sys.executable, "-m", "voila"]
    assert cmd[3].endswith("notebooks/07_classroom_play.ipynb")
    assert "--port=8123" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--no-browser" in cmd
    assert "--Voila.port_retries=0" in cmd  # never a silent move to a port other than the one printed
    assert "--MappingKernelManager.cull_idle_timeout=600" in cmd  # closed pages' kernels go after 10 minutes
    assert "--no-browser" not in voila_command(8123, open_browser=True)


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
    assert f"Classroom app: http://127.0.0.1:{port}/" in out and "in use" not in out


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
    assert f"Classroom app: http://127.0.0.1:{new}/" in out


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
    (["classroom", "--port", "http"], "invalid int value"),
    (["classroom", "--size", "200"], "--size must be between 12 and 80 pixels, got 200"),
    (["classroom", "--size", "big"], "invalid float value"),
    (["classroom", "--hint-playouts", "5"], "--hint-playouts must be between 10 and 100000, got 5"),
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
