"""Fixtures shared by the rule tests; plain helpers live in tests/ruletools.py
(imported by name, since tests/browser has a conftest of its own)."""

from __future__ import annotations

import pytest

from ruletools import copy_data


@pytest.fixture
def data_copy(tmp_path):
    return copy_data(tmp_path)
