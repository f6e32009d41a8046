"""Helpers for tests that drive the widgets from Python (needs pytest).

    from haunted_kit.widgets.testing import no_callback_errors   # a pytest fixture

    def test_click(no_callback_errors):
        view = PlayView(seed=1)
        view.click_cell((1, 0))      # same message path as a browser click

A test that uses ``no_callback_errors`` fails when any haunted_kit widget callback
raised during it (ipywidgets alone would only log the error). A test that provokes an
error on purpose takes it out of the list: ``no_callback_errors.clear()``.
"""

from __future__ import annotations

import pytest

from .errors import capture_errors


@pytest.fixture
def no_callback_errors():
    with capture_errors() as caught:
        yield caught
    if caught:
        pytest.fail("a widget callback raised:\n" + "\n".join(f"{e}\n{e.traceback}" for e in caught), pytrace=False)
