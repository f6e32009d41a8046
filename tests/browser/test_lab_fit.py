"""No cut-off display at 1280x800 in JupyterLab, as a newcomer opens the notebooks (the
file browser open beside them): notebook 00's step-through view, run from the Run menu,
wraps its controls and panels inside the output area; the tables of notebooks 08 and 09
(event logs, refusal reasons) show every sentence whole and fit their output area, with no
horizontal scroll and nothing past the window's right edge."""

from __future__ import annotations

import re

import pytest
from browser_harness import clipped_elements, explained, page_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1280, 800


def _open(page, srv, notebook):
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    with explained(f"opening {notebook} in JupyterLab at {WIDTH}x{HEIGHT}", srv, page):
        page.goto(srv.lab(notebook))
        expect(page.locator(".jp-NotebookPanel")).to_be_visible(timeout=60_000)
        expect(page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\| Idle"))).to_be_visible(timeout=60_000)


def _fits(page, root):
    """Nothing inside any ``root`` (each scrolled into view first: the Lab lays out the cells
    it shows) reaches past the window or scrolls sideways (a board's pan box may)."""
    return clipped_elements(page, root, scroll=True)


def test_the_step_through_view_fits_at_1280(page, jupyter_lab):
    srv = jupyter_lab()
    _open(page, srv, "notebooks/00_start_here.ipynb")
    with explained("running all cells with Run > Run All Cells", srv, page):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        run_all = page.locator('.lm-Menu-item[data-command="runmenu:run-all"]')
        expect(run_all).not_to_have_class(re.compile("lm-mod-disabled"))
        run_all.click()
        step = page.locator(".hk-step")
        expect(step).to_be_visible(timeout=120_000)
        expect(step.locator(".hk-explanation")).not_to_be_empty(timeout=60_000)
    bad = _fits(page, ".hk-step")
    assert not bad, "\n".join(bad)
    assert page_errors(page) == "<none>"


@pytest.mark.parametrize("notebook", ["notebooks/08_estate_and_market.ipynb", "notebooks/09_landmarks_and_architects.ipynb"])
def test_the_tables_fit_at_1280(page, jupyter_lab, notebook):
    srv = jupyter_lab()
    _open(page, srv, notebook)
    tables = page.locator(".jp-OutputArea-output:has(table.dataframe)")
    expect(tables.first).to_be_attached(timeout=30_000)
    assert tables.count() >= 5
    bad = _fits(page, ".jp-OutputArea-output:has(table.dataframe)")
    assert not bad, "\n".join(bad)
