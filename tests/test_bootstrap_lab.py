"""bootstrap.py lab: the Lab it opens greets a newcomer without JupyterLab's news pop-up."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bootstrap

PLUGIN = "@jupyterlab/apputils-extension:notification"


def overrides(venv):
    return venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def test_the_news_popup_is_turned_off_in_a_fresh_venv(tmp_path):
    path = bootstrap.quiet_lab_news(tmp_path)
    assert path == overrides(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8")) == {PLUGIN: {"fetchNews": "false"}}
    bootstrap.quiet_lab_news(tmp_path)                       # twice: the same file
    assert json.loads(path.read_text(encoding="utf-8")) == {PLUGIN: {"fetchNews": "false"}}


def test_other_settings_and_a_chosen_news_setting_are_kept(tmp_path):
    path = overrides(tmp_path)
    path.parent.mkdir(parents=True)
    theme = {"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}
    path.write_text(json.dumps({**theme, PLUGIN: {"doNotDisturbMode": True}}), encoding="utf-8")
    bootstrap.quiet_lab_news(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8")) == {**theme, PLUGIN: {"doNotDisturbMode": True, "fetchNews": "false"}}
    path.write_text(json.dumps({PLUGIN: {"fetchNews": "true"}}), encoding="utf-8")   # a teacher who wants the news
    bootstrap.quiet_lab_news(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8")) == {PLUGIN: {"fetchNews": "true"}}


def test_a_broken_overrides_file_is_left_alone_with_a_warning(tmp_path, capsys):
    path = overrides(tmp_path)
    path.parent.mkdir(parents=True)
    for text in ("{not json", "[1, 2]", json.dumps({PLUGIN: "off"})):
        path.write_text(text, encoding="utf-8")
        assert bootstrap.quiet_lab_news(tmp_path) == path
        assert path.read_text(encoding="utf-8") == text
        assert "the news pop-up stays on" in capsys.readouterr().out


def test_the_setting_is_one_the_installed_jupyterlab_knows():
    """The schema shipped with the venv's JupyterLab names fetchNews with "false" as Never."""
    schema = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas" / "@jupyterlab" / "apputils-extension" / "notification.json"
    prop = json.loads(schema.read_text(encoding="utf-8"))["properties"]["fetchNews"]
    assert {"const": "false", "title": "Never"} in prop["oneOf"]
    assert bootstrap.NEWS_SETTING == (PLUGIN, "fetchNews", "false")
