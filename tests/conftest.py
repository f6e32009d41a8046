"""Fixtures shared by the rule tests; plain helpers live in tests/ruletools.py
(imported by name, since tests/browser has a conftest of its own)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# More games for the kit tests that loop over the registry: HAUNTED_KIT_EXTRA_GAMES=nim (names
# separated by commas) registers each named toy game of tests/fourth_game/ (its engine's GAME)
# as a maintainer would, through haunted_kit.games' HAUNTED_KIT_GAMES variable, with its folder
# on sys.path and PYTHONPATH, so the worker processes of simulate and the table server (which
# inherit both) see it too. Registering a game must turn no kit test red but for its own faults.
EXTRA_GAMES = [n.strip() for n in os.environ.get("HAUNTED_KIT_EXTRA_GAMES", "").split(",") if n.strip()]
FOURTH_GAME = Path(__file__).resolve().parent / "fourth_game"
if EXTRA_GAMES:
    missing = [n for n in EXTRA_GAMES if not (FOURTH_GAME / n / "engine.py").is_file()]
    if missing:
        raise pytest.UsageError(f"HAUNTED_KIT_EXTRA_GAMES: no tests/fourth_game/{missing[0]}/engine.py")
    sys.path.insert(0, str(FOURTH_GAME))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(FOURTH_GAME), os.environ.get("PYTHONPATH")]))
    os.environ["HAUNTED_KIT_GAMES"] = ",".join(filter(None, [os.environ.get("HAUNTED_KIT_GAMES")]
                                                      + [f"{n}={n}.engine:GAME" for n in EXTRA_GAMES]))
    from haunted_kit import games as _games

    _games.register_from_environment()  # (a no-op when haunted_kit was first imported after the lines above)

from ruletools import copy_data  # noqa: E402  (after the registry: ruletools imports the kit)

# Property tests: locally, hypothesis keeps failing examples in .hypothesis/ (git-ignored)
# and replays them; a CI run (CI set, as .ci/run does) starts from no database and draws
# its examples from a fixed seed, so a red CI run repeats exactly on any machine.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def data_copy(tmp_path):
    return copy_data(tmp_path)
