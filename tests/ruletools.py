"""Shared helpers for the rule tests (exact values worked out from the rulebook and
/work/shared/design/box-defaults.md; see each test's comments for the arithmetic).

Default field (layout R01..R06, tiles never rotated), cells used most often:

    (0,0) city          (1,0) suburb (not next to a lake)   (0,1) suburb
    R01 slot, centre (2,1) = LAKE; (3,1) P E, (3,0) P NE, (2,0) F NW, (1,1) F W, (1,2) M SW, (2,2) P SE
        -> every R01 cell is next to the lake (2,1)
    R02 slot, centre (3,-2) P; (4,-2) L E, (4,-3) F NE, (3,-3) F NW, (2,-2) M W, (2,-1) P SW, (3,-1) P SE
        -> (2,-1) plain and (2,-2) mountain are NOT next to a lake
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import haunted_kit as hk

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"


def assert_illegal(s, action, *words):
    """``action`` raises IllegalAction whose reason (same as ``why_not``) contains
    every word of ``words`` (case-insensitive), and the state is exactly unchanged."""
    before = s.to_json()
    reason = s.why_not(action)
    assert reason is not None, f"{action!r} should be illegal"
    assert action not in s.legal_actions()
    with pytest.raises(hk.IllegalAction) as ei:
        s.apply_action(action)
    assert ei.value.refusal == reason
    text = ei.value.refusal.text.lower()
    for w in words:
        assert w.lower() in text, f"{w!r} not in refusal {ei.value.refusal.text!r}"
    assert s.to_json() == before
    return ei.value.refusal


def res(s, p):
    d = s.to_dict()["players"][p]
    return d["resources"]


def active(s, p):
    return s.to_dict()["players"][p]["active"]


def tokens(s, p):
    return s.to_dict()["players"][p]["tokens"]


def supply(s):
    return s.to_dict()["supply"]


def cell_of(s, cell):
    return s.field.cell_index(tuple(cell))


def kinds(s, since=0):
    return [e.kind for e in s.log[since:]]


def copy_data(tmp_path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA, dst)
    return dst


def edit(path: Path, old: str, new: str, count: int = 1):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


#: the optional hooks the environments need (docs/NEW_GAME.md, "Optional, on the Game")
ENV_HOOKS = ("action_catalogue", "observation_encoder")


def games_with(*hooks: str) -> list[str]:
    """The registered games whose Game has every optional hook in ``hooks``: a kit test of
    an optional tool loops over these, since a game without the hook is told so by
    ``games.MissingHook`` (tests/test_fourth_game.py), not failed by that tool's tests."""
    from haunted_kit.games import game_names, get_game

    return [n for n in game_names() if all(getattr(get_game(n), h, None) is not None for h in hooks)]


def games_with_agent(agent: str) -> list[str]:
    """The registered games whose Game declares ``agent`` (e.g. ``"greedy"``) in its
    ``agents`` table: a kit test of that agent loops over these."""
    from haunted_kit.games import game_names, get_game
    from haunted_kit.protocol import agent_table

    return [n for n in game_names() if agent in agent_table(get_game(n))]


def games_with_box() -> list[str]:
    """The registered games with a box (``load_box`` and ``default_box``): a kit test of
    box tools (compare, check-box, box files) loops over these."""
    return games_with("load_box", "default_box")


def games_with_module(*parts: str) -> list[str]:
    """The registered games whose package has every optional module in ``parts``
    (``classroom``, ``widgets``, ``exercises``, ``cli``; see :func:`haunted_kit.games.game_module`)."""
    from haunted_kit.games import game_module, game_names

    return [n for n in game_names() if all(game_module(n, p) is not None for p in parts)]
