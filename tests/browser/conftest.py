"""Browser-test fixtures: Playwright + Debian chromium, JupyterLab, Voila, static pages.

Fixtures
    chromium_browser   session  Playwright Browser on /usr/bin/chromium (fails, never skips)
    page               function fresh context + page; screenshot to test-artifacts/ on failure
    jupyter_server     function JupyterLab on a temp copy of the repo -> ServerInfo(url, token, ...)
    voila_server       function factory: voila_server("notebooks/x.ipynb") -> ServerInfo
    static_server      function factory: static_server(directory) -> StaticServer(url, ...)
    artifacts_dir      test-artifacts/ (gitignored)

Helpers (import from browser_harness): canvas_pixel, canvas_pixels_stack, save_screenshot.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import (  # noqa: E402
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    NAV_TIMEOUT_MS,
    PAGE_TIMEOUT_MS,
    REPO_ROOT,
    ServerInfo,
    canvas_pixel,  # noqa: F401  (re-exported for convenience)
    canvas_pixels_stack,  # noqa: F401
    copy_repo,
    safe_name,
    save_screenshot,
    start_jupyter_lab,
    start_static_server,
    start_voila,
    terminate_tree,
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def chromium_browser():
    """Headless Debian chromium driven by Playwright (never Playwright's own download)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"browser tests need Debian's chromium at {CHROMIUM}, which is missing. "
            "Install it as root: apt-get update && apt-get install -y chromium "
            "(or run `python3 bootstrap.py setup`).",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        pytest.fail(f"cannot import playwright ({exc}); run `python3 bootstrap.py setup`", pytrace=False)
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=60_000
        )
    except Exception as exc:  # playwright.Error, TimeoutError, OSError ...
        pw.stop()
        pytest.fail(f"chromium at {CHROMIUM} could not be launched by Playwright:\n{exc}", pytrace=False)
    try:
        yield browser
    finally:
        try:
            browser.close()
        finally:
            pw.stop()


@pytest.fixture
def page(chromium_browser, request):
    """A fresh browser context + page; on test failure a full-page screenshot lands in
    test-artifacts/<test>-FAILED.png."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    context.set_default_navigation_timeout(NAV_TIMEOUT_MS)
    pg = context.new_page()
    console: list[str] = []
    pg.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
    pg.on("pageerror", lambda err: console.append(f"pageerror: {err}"))
    pg.console_messages = console  # handy when debugging a failing test
    try:
        yield pg
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            name = safe_name(request.node.nodeid)
            try:
                save_screenshot(pg, f"{name}-FAILED")
            except Exception as exc:  # page may be dead; never mask the real failure
                print(f"[browser harness] failure screenshot failed: {exc}")
            if console:
                (ARTIFACTS / f"{name}-FAILED-console.txt").write_text("\n".join(console) + "\n")
        context.close()


@pytest.fixture
def jupyter_server(tmp_path) -> ServerInfo:
    """JupyterLab serving a temporary copy of the repo (so autosave/checkpoints never touch
    the working tree). Yields ServerInfo(url, token, root_dir, ...); .lab("notebooks/x.ipynb")
    gives a tokenised URL. The server and all its kernels are killed at teardown."""
    root = copy_repo(tmp_path / "repo")
    try:
        server = start_jupyter_lab(root, tmp_path / "jupyter-state")
    except RuntimeError as exc:
        pytest.fail(f"JupyterLab failed to start:\n{exc}", pytrace=False)
    try:
        yield server
    finally:
        terminate_tree(server.process)


@pytest.fixture
def voila_server(tmp_path):
    """Factory: ``srv = voila_server("notebooks/03_board.ipynb", "--theme=dark")`` starts
    ``voila <nb> --no-browser --port <free> --Voila.ip=127.0.0.1`` and returns ServerInfo;
    ``page.goto(srv.url)`` renders the notebook. Relative paths are relative to the repo root.
    Every server started is killed at teardown."""
    started: list[ServerInfo] = []

    def start(notebook_path, *extra_args: str, timeout: float = 60.0) -> ServerInfo:
        nb = Path(notebook_path)
        nb = nb if nb.is_absolute() else REPO_ROOT / nb
        if not nb.exists():
            pytest.fail(f"voila_server: notebook {nb} does not exist", pytrace=False)
        try:
            server = start_voila(nb, tmp_path / f"voila-state-{len(started)}", list(extra_args), timeout)
        except RuntimeError as exc:
            pytest.fail(f"Voila failed to start:\n{exc}", pytrace=False)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            terminate_tree(server.process)


@pytest.fixture
def static_server():
    """Factory: ``static_server(directory)`` serves files over http on a free port."""
    servers = []

    def start(directory):
        srv = start_static_server(Path(directory))
        servers.append(srv)
        return srv

    try:
        yield start
    finally:
        for srv in servers:
            srv.close()
