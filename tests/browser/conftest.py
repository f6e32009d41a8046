"""Browser-test fixtures: Playwright + Debian chromium, JupyterLab, Voila, static pages.

Fixtures
    chromium_browser   session  Playwright Browser on /usr/bin/chromium (fails, never skips)
    page               function fresh context + page; screenshot to test-artifacts/ on failure
    jupyter_lab        function factory: jupyter_lab(env={...}) -> ServerInfo (JupyterLab, temp repo copy)
    jupyter_server     function JupyterLab on a temp copy of the repo -> ServerInfo(url, token, ...)
    classroom_server   function factory: classroom_server(*args) runs `haunted-kit classroom` -> ServerInfo
    class_server       function factory: class_server(*args) runs `haunted-kit server` -> ClassServerInfo
    voila_server       function factory: voila_server("notebooks/x.ipynb") -> ServerInfo
    static_server      function factory: static_server(directory) -> StaticServer(url, ...)
    artifacts_dir      test-artifacts/ (gitignored)

Helpers (import from browser_harness): canvas_pixel, canvas_pixels_stack, save_screenshot,
wait_canvas_pixel, explained, free_port; board pixels of the play view: board_page.Board.
"""

from __future__ import annotations

import contextlib

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import (  # noqa: E402
    ARTIFACTS,
    NAV_TIMEOUT_MS,
    PAGE_TIMEOUT_MS,
    REPO_ROOT,
    ServerInfo,
    canvas_pixel,  # noqa: F401  (re-exported for convenience)
    canvas_pixels_stack,  # noqa: F401
    copy_repo,
    launch_chromium,
    safe_name,
    save_screenshot,
    start_class_server,
    start_classroom,
    start_jupyter_lab,
    start_static_server,
    start_voila,
    terminate_tree,
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    if report.when == "call" and report.failed and "page" in getattr(item, "funcargs", {}):
        # now, before fixture teardown stops the servers the page talks to
        _keep_page_on_failure(item, item.funcargs["page"])
    return report


def _keep_page_on_failure(item, pg) -> None:
    """test-artifacts/<test>-FAILED.png (full page) and -FAILED-console.txt."""
    name = safe_name(item.nodeid)
    try:
        save_screenshot(pg, f"{name}-FAILED")
    except Exception as exc:  # page may be dead; never mask the real failure
        print(f"[browser harness] failure screenshot failed: {exc}")
    console = getattr(pg, "console_messages", None)
    if console:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{name}-FAILED-console.txt").write_text("\n".join(console) + "\n")


def _keep_logs_on_failure(request, servers) -> None:
    """A failed test's server logs go to test-artifacts/<test>-<server>.log."""
    rep = getattr(request.node, "rep_call", None)
    if rep is None or not rep.failed:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    for server in servers:
        try:
            shutil.copyfile(server.log_path, ARTIFACTS / f"{safe_name(request.node.nodeid)}-{server.name}.log")
        except OSError as exc:
            print(f"[browser harness] could not keep {server.log_path}: {exc}")


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def chromium_browser():
    """Headless Debian chromium driven by Playwright (never Playwright's own download)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        pytest.fail(f"cannot import playwright ({exc}); run `python3 bootstrap.py setup`", pytrace=False)
    pw = sync_playwright().start()
    try:
        browser = launch_chromium(pw)
    except RuntimeError as exc:
        pw.stop()
        pytest.fail(f"browser tests cannot start the browser: {exc}", pytrace=False)
    try:
        yield browser
    finally:
        try:
            browser.close()
        finally:
            pw.stop()


@pytest.fixture
def page(chromium_browser):
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
        yield pg  # a failing test's screenshot is taken in pytest_runtest_makereport, servers still up
    finally:
        context.close()


class _ServerPool:
    """Servers started by one test: a start that fails fails the test with the reason,
    and at teardown every server (with its children and kernels) is killed and, for a
    failed test, its log kept in test-artifacts/."""

    def __init__(self):
        self.started: list[ServerInfo] = []

    def launch(self, what: str, starter, *args, **kwargs) -> ServerInfo:
        try:
            server = starter(*args, **kwargs)
        except RuntimeError as exc:
            pytest.fail(f"{what} failed to start:\n{exc}", pytrace=False)
        self.started.append(server)
        return server

    def close(self, request) -> None:
        for server in self.started:
            terminate_tree(server.process)
        _keep_logs_on_failure(request, self.started)


@contextlib.contextmanager
def _server_pool(request):
    pool = _ServerPool()
    try:
        yield pool
    finally:
        pool.close(request)


@pytest.fixture
def jupyter_lab(tmp_path, request):
    """Factory: ``jupyter_lab(env={"HAUNTED_KIT_SEED": "1"})`` starts JupyterLab serving a
    temporary copy of the repo (so autosave/checkpoints never touch the working tree);
    ``env`` adds variables to the server's environment, which its kernels inherit.
    Returns ServerInfo(url, token, root_dir, ...); .lab("notebooks/x.ipynb") gives a
    tokenised URL. Every server and all its kernels are killed at teardown."""
    with _server_pool(request) as pool:
        def start(env: dict[str, str] | None = None) -> ServerInfo:
            n = len(pool.started)
            return pool.launch("JupyterLab", start_jupyter_lab, copy_repo(tmp_path / f"repo-{n}"),
                               tmp_path / f"jupyter-state-{n}", env=env)

        yield start


@pytest.fixture
def jupyter_server(jupyter_lab) -> ServerInfo:
    """JupyterLab on a temporary copy of the repo (see ``jupyter_lab``)."""
    return jupyter_lab()


@pytest.fixture
def classroom_server(tmp_path, request):
    """Factory: ``classroom_server("--seed", "3", "--port", str(free_port()))`` runs the
    ``haunted-kit classroom ... --no-browser`` command, reads the URL it prints and waits
    until Voila answers there; returns ServerInfo (``.log()`` has the command's output).
    Every command started is killed (with Voila and its kernels) at teardown."""
    with _server_pool(request) as pool:
        def start(*args: str, timeout: float = 60.0) -> ServerInfo:
            return pool.launch("the classroom app", start_classroom, list(args),
                               tmp_path / f"classroom-{len(pool.started)}", timeout)

        yield start


@pytest.fixture
def class_server(tmp_path, request):
    """Factory: ``class_server("--store", str(db), "--port", str(free_port()), ...)`` runs
    ``haunted-kit server`` in ``tmp_path``, waits for its links and returns
    ClassServerInfo (teacher link, seat links). ``class_server.kill(srv)`` SIGKILLs one
    (a crash); every server started is killed at teardown, also after a failure."""
    with _server_pool(request) as pool:
        def start(*args: str, timeout: float = 60.0):
            return pool.launch("haunted-kit server", start_class_server, list(args), tmp_path, timeout)

        def kill(server) -> None:
            import signal

            server.process.send_signal(signal.SIGKILL)
            server.process.wait(timeout=30)

        start.kill = kill
        yield start


@pytest.fixture
def voila_server(tmp_path, request):
    """Factory: ``srv = voila_server("notebooks/03_board.ipynb", "--theme=dark")`` starts
    ``voila <nb> --no-browser --port <free> --Voila.ip=127.0.0.1`` and returns ServerInfo;
    ``page.goto(srv.url)`` renders the notebook. Relative paths are relative to the repo root.
    Every server started is killed at teardown."""
    with _server_pool(request) as pool:
        def start(notebook_path, *extra_args: str, timeout: float = 60.0, module: str = "voila") -> ServerInfo:
            nb = Path(notebook_path)
            nb = nb if nb.is_absolute() else REPO_ROOT / nb
            if not nb.exists():
                pytest.fail(f"voila_server: notebook {nb} does not exist", pytrace=False)
            return pool.launch("Voila", start_voila, nb, tmp_path / f"voila-state-{len(pool.started)}",
                               list(extra_args), timeout, module)

        yield start


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
