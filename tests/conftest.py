"""Fixtures shared by the rule tests; plain helpers live in tests/ruletools.py
(imported by name, since tests/browser has a conftest of its own)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from ruletools import copy_data

# Property tests: locally, hypothesis keeps failing examples in .hypothesis/ (git-ignored)
# and replays them; a CI run (CI set, as .ci/run does) starts from no database and draws
# its examples from a fixed seed, so a red CI run repeats exactly on any machine.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def data_copy(tmp_path):
    return copy_data(tmp_path)
