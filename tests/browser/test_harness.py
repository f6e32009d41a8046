"""Smoke tests for the browser harness itself (Debian chromium + Playwright)."""

from __future__ import annotations

import re

import pytest
from browser_harness import canvas_pixel, canvas_pixels_stack, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>harness smoke</title></head>
<body>
  <div id="stack" style="position:relative;width:40px;height:30px">
    <canvas id="bottom" width="40" height="30" style="position:absolute;left:0;top:0"></canvas>
    <canvas id="top" width="40" height="30" style="position:absolute;left:0;top:0"></canvas>
  </div>
  <button id="go">Roll</button>
  <p id="msg">waiting</p>
  <script>
    // note: `top`/`parent`/`name` are window globals; don't reuse them as const names
    const lower = document.getElementById('bottom').getContext('2d');
    lower.fillStyle = 'rgb(200, 30, 40)';
    lower.fillRect(0, 0, 40, 30);
    const upper = document.getElementById('top').getContext('2d');
    upper.fillStyle = 'rgb(10, 120, 250)';
    upper.fillRect(20, 0, 20, 30);          // right half of the top layer only
    document.getElementById('go').addEventListener('click', () => {
      document.getElementById('msg').textContent = 'rolled a 6';
    });
  </script>
</body></html>
"""


def test_canvas_pixel_and_click(page, static_server, tmp_path):
    (tmp_path / "index.html").write_text(PAGE)
    srv = static_server(tmp_path)
    page.goto(f"{srv.url}/index.html")
    expect(page).to_have_title("harness smoke")

    assert canvas_pixel(page, "#bottom", 5, 5) == (200, 30, 40, 255)
    assert canvas_pixel(page, page.locator("#top"), 30, 10) == (10, 120, 250, 255)
    assert canvas_pixel(page, "#top", 5, 5) == (0, 0, 0, 0)  # transparent part of the top layer
    assert canvas_pixel(page, "#stack canvas", 5, 5, nth=0) == (200, 30, 40, 255)
    assert canvas_pixels_stack(page, "#stack", 30, 10) == [(200, 30, 40, 255), (10, 120, 250, 255)]
    with pytest.raises(AssertionError, match="matches 2 elements"):
        canvas_pixel(page, "#stack canvas", 5, 5)

    page.click("#go")
    expect(page.locator("#msg")).to_have_text("rolled a 6")
    assert save_screenshot(page, "harness-static-page").exists()


def test_jupyterlab_loads(page, jupyter_server):
    page.goto(jupyter_server.lab())
    expect(page).to_have_title(re.compile("JupyterLab"), timeout=60_000)
    # the application shell is rendered by JS, so this proves the frontend booted
    expect(page.locator("#jp-main-dock-panel")).to_be_visible(timeout=60_000)
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=60_000)
    # the file browser lists the server's root: a temp copy of the repo
    expect(page.locator(".jp-DirListing-item", has_text="pyproject.toml")).to_be_visible(timeout=30_000)
    save_screenshot(page, "harness-jupyterlab")


def test_voila_renders_notebook(page, voila_server, tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('haunted ' + str(6 * 7))")]
    path = tmp_path / "smoke.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    page.goto(srv.url)
    expect(page.get_by_text("haunted 42")).to_be_visible(timeout=60_000)
    save_screenshot(page, "harness-voila")


# ------------------------------------------------------------------ failures say which and why


def test_a_command_that_cannot_serve_says_which_and_why(tmp_path):
    from browser_harness import start_classroom

    with pytest.raises(RuntimeError) as ei:
        start_classroom(["--players", "9", "--port", "0"], tmp_path, timeout=30)
    msg = str(ei.value)
    assert "haunted-kit classroom exited with code 2 before printing its URL" in msg
    assert "invalid choice" in msg  # argparse's reason, from the output tail


def test_a_server_that_never_answers_fails_with_its_output(tmp_path):
    import sys

    from browser_harness import free_port, start_server

    port = free_port()
    cmd = [sys.executable, "-c", "import time; print('stuck loading extensions', flush=True); time.sleep(60)"]
    with pytest.raises(RuntimeError) as ei:
        start_server(cmd, name="stuck-server", url=f"http://127.0.0.1:{port}", token=None, root_dir=tmp_path,
                     cwd=tmp_path, log_dir=tmp_path, probe_path="/api/status", probe_any_status=False, timeout=2)
    msg = str(ei.value)
    assert f"stuck-server did not answer http://127.0.0.1:{port}/api/status within 2 s" in msg
    assert "stuck loading extensions" in msg


def test_a_browser_that_cannot_start_says_which_and_why(tmp_path, chromium_browser):
    from browser_harness import launch_chromium

    browser_type = chromium_browser.browser_type  # the session's Playwright (one per thread)
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'chromium: cannot open shared object file' >&2\nexit 127\n")
    fake.chmod(0o755)
    with pytest.raises(RuntimeError, match="chromium is missing at .*apt-get install -y chromium"):
        launch_chromium(browser_type, tmp_path / "no-such-chromium")
    with pytest.raises(RuntimeError, match=f"chromium at {fake} could not be launched by Playwright") as ei:
        launch_chromium(browser_type, fake, timeout_ms=15_000)
    assert "cannot open shared object file" in str(ei.value)
