"""Reusable pieces of the browser-test harness (imported by conftest.py and tests).

Playwright drives Debian's chromium (/usr/bin/chromium); Playwright's own browser
download is never used. Servers (JupyterLab, Voila, a static http.server) run as
child processes/threads on free loopback ports and are always torn down.

In tests:  ``from browser_harness import canvas_pixel, save_screenshot``
"""

from __future__ import annotations

import contextlib
import http.server
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM = Path(os.environ.get("HAUNTED_KIT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--no-proxy-server",
]
SERVER_START_TIMEOUT = 60.0  # seconds
PAGE_TIMEOUT_MS = 20_000  # default Playwright action/expect timeout
NAV_TIMEOUT_MS = 45_000  # default Playwright navigation timeout

# urllib without any *_proxy environment variables: we only ever talk to 127.0.0.1.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# --------------------------------------------------------------------------- the browser


def launch_chromium(playwright, executable: Path = CHROMIUM, timeout_ms: int = 60_000):
    """Launch headless Debian chromium through Playwright (never Playwright's own download);
    `playwright` is a started Playwright or its ``.chromium`` BrowserType.
    Raises RuntimeError saying which executable failed and why."""
    browser_type = getattr(playwright, "chromium", playwright)
    executable = Path(executable)
    if not executable.exists():
        raise RuntimeError(
            f"Debian's chromium is missing at {executable}. Install it as root: "
            "apt-get update && apt-get install -y chromium (or run `python3 bootstrap.py setup`)."
        )
    try:
        return browser_type.launch(
            executable_path=str(executable), headless=True, args=CHROMIUM_ARGS, timeout=timeout_ms
        )
    except Exception as exc:  # playwright.Error, TimeoutError, OSError ...
        raise RuntimeError(f"chromium at {executable} could not be launched by Playwright:\n{exc}") from exc


# --------------------------------------------------------------------------- ports, files


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1 (bind to port 0, read it back, release)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:150] or "artifact"


def save_screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a PNG of `page` as test-artifacts/<name>.png and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{safe_name(name)}.png"
    page.screenshot(path=str(path), full_page=full_page, timeout=PAGE_TIMEOUT_MS)
    return path


def copy_repo(dest: Path) -> Path:
    """Copy the repo (without venv, VCS, caches, artifacts) to `dest`; returns `dest`."""
    ignore = shutil.ignore_patterns(
        ".venv", ".git", "test-artifacts", "__pycache__", ".ipynb_checkpoints",
        ".pytest_cache", "build", "dist", "*.egg-info",
    )
    shutil.copytree(REPO_ROOT, dest, ignore=ignore, symlinks=True)
    return dest


# --------------------------------------------------------------------------- canvas pixels

_PIXEL_JS = """
(canvas, [x, y]) => {
    if (!(canvas instanceof HTMLCanvasElement)) {
        return {error: `element is <${canvas.tagName.toLowerCase()}>, not <canvas>`};
    }
    if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) {
        return {error: `pixel (${x}, ${y}) outside canvas ${canvas.width}x${canvas.height}`};
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) { return {error: 'canvas has no 2d context (webgl/bitmaprenderer?)'}; }
    try {
        return {rgba: Array.from(ctx.getImageData(x, y, 1, 1).data)};
    } catch (e) {
        return {error: String(e)};
    }
}
"""


def _canvas_locator(page, selector_or_locator, nth):
    loc = page.locator(selector_or_locator) if isinstance(selector_or_locator, str) else selector_or_locator
    if nth is not None:
        return loc.nth(nth)
    count = loc.count()
    if count != 1:
        raise AssertionError(
            f"canvas_pixel: {selector_or_locator!r} matches {count} elements; pass nth=... "
            "(ipycanvas MultiCanvas stacks one <canvas> per layer) or a more precise selector"
        )
    return loc


def canvas_pixel(page, selector_or_locator, x: int, y: int, *, nth: int | None = None) -> tuple[int, int, int, int]:
    """RGBA of pixel (x, y) of one <canvas> element, read with getContext('2d').getImageData.

    `selector_or_locator` is a CSS/Playwright selector string or a Locator; it must resolve
    to exactly one <canvas> unless `nth` picks one (e.g. a layer of an ipycanvas
    MultiCanvas: ``canvas_pixel(page, ".multi-canvas canvas", 10, 10, nth=2)``).
    Coordinates are in canvas pixels (canvas.width/height), not CSS pixels.
    Only the given canvas is read; see `canvas_pixels_stack` for all stacked layers.
    """
    loc = _canvas_locator(page, selector_or_locator, nth)
    loc.wait_for(state="attached", timeout=PAGE_TIMEOUT_MS)
    result = loc.evaluate(_PIXEL_JS, [int(x), int(y)])
    if "error" in result:
        raise AssertionError(f"canvas_pixel({selector_or_locator!r}, {x}, {y}): {result['error']}")
    return tuple(result["rgba"])


def canvas_pixels_stack(page, container_selector_or_locator, x: int, y: int) -> list[tuple[int, int, int, int]]:
    """RGBA at (x, y) of every <canvas> inside a container (bottom layer first).

    For an ipycanvas MultiCanvas the visible colour is the composite of these layers.
    """
    loc = (
        page.locator(container_selector_or_locator)
        if isinstance(container_selector_or_locator, str)
        else container_selector_or_locator
    )
    canvases = loc.locator("canvas")
    return [canvas_pixel(page, canvases, x, y, nth=i) for i in range(canvases.count())]


# --------------------------------------------------------------------------- process handling


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    return children


def descendants(pid: int) -> list[int]:
    """All descendant pids of `pid` (Linux /proc walk). Kernels run in their own sessions,
    so killing the server's process group alone would leave them behind."""
    children, out, todo = _children_map(), [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def terminate_tree(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """SIGTERM `proc` and all its descendants, wait up to `grace` s, then SIGKILL the rest."""
    if proc.poll() is not None:
        kids = descendants(proc.pid)  # orphans reparented elsewhere are missed; best effort
        for pid in kids:
            _signal(pid, signal.SIGKILL)
        return
    kids = descendants(proc.pid)
    for pid in [proc.pid, *kids]:
        _signal(pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    for pid in [proc.pid, *kids, *descendants(proc.pid)]:
        _signal(pid, signal.SIGKILL)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError as exc:
        return f"<no log: {exc}>"


@dataclass
class ServerInfo:
    """A running JupyterLab / Voila server."""

    url: str  # base url without trailing slash, e.g. http://127.0.0.1:43211
    token: str | None
    root_dir: Path
    log_path: Path
    process: subprocess.Popen = field(repr=False)

    def with_token(self, path: str = "") -> str:
        url = f"{self.url}/{path.lstrip('/')}" if path else self.url + "/"
        if self.token:
            url += ("&" if "?" in url else "?") + f"token={self.token}"
        return url

    def lab(self, path: str = "") -> str:
        """URL of JupyterLab, optionally opening `path` (relative to root_dir)."""
        return self.with_token(f"lab/tree/{path}" if path else "lab")

    @property
    def name(self) -> str:
        return self.log_path.stem

    def log(self, lines: int = 40) -> str:
        return log_tail(self.log_path, lines)

    def describe(self, lines: int = 25) -> str:
        """Which server, where, alive or not, and the tail of its output (for failure messages)."""
        code = self.process.poll()
        state = "running" if code is None else f"EXITED with code {code}"
        return f"{self.name} at {self.url} ({state}); last output lines:\n{self.log(lines)}"


def _probe(url: str, headers: dict[str, str], any_status: bool) -> bool:
    req = urllib.request.Request(url, headers=headers)
    try:
        with _opener.open(req, timeout=5) as resp:
            return resp.status == 200 or any_status
    except urllib.error.HTTPError:
        return any_status  # server is up, endpoint just answered non-200
    except (urllib.error.URLError, OSError):
        return False


def start_server(
    cmd: list[str],
    *,
    name: str,
    url: str,
    token: str | None,
    root_dir: Path,
    cwd: Path,
    log_dir: Path,
    probe_path: str,
    probe_any_status: bool,
    env: dict[str, str] | None = None,
    timeout: float = SERVER_START_TIMEOUT,
) -> ServerInfo:
    """Start `cmd`, wait until `url + probe_path` answers; on exit/timeout raise RuntimeError
    carrying the tail of the server's combined stdout/stderr."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{name}.log"
    with open(log_path, "wb") as log:
        try:
            proc = subprocess.Popen(
                cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as exc:
            raise RuntimeError(f"{name} could not be started: {exc}\ncommand: {' '.join(cmd)}") from exc
    info = ServerInfo(url=url, token=token, root_dir=root_dir, log_path=log_path, process=proc)
    headers = {"Authorization": f"token {token}"} if token else {}
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with code {proc.returncode} before answering {probe_path}\n"
                    f"command: {' '.join(cmd)}\n--- log tail ---\n{info.log()}"
                )
            if _probe(url + probe_path, headers, probe_any_status):
                return info
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{name} did not answer {url}{probe_path} within {timeout:.0f} s\n"
                    f"command: {' '.join(cmd)}\n--- log tail ---\n{info.log()}"
                )
            time.sleep(0.25)
    except BaseException:
        terminate_tree(proc)
        raise


def jupyter_env(state_dir: Path) -> dict[str, str]:
    """Environment isolating Jupyter config/runtime/workspaces from the user's home."""
    env = dict(os.environ)
    for var, sub in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (state_dir / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(state_dir / sub)
    # JupyterLab user settings: no news/update toasts that could cover what a test clicks
    settings = state_dir / "lab-user-settings"
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True, exist_ok=True)
    notification.write_text('{"fetchNews": "false", "checkForUpdates": false, "doNotDisturbMode": true}\n')
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def start_jupyter_lab(
    root_dir: Path, state_dir: Path, timeout: float = SERVER_START_TIMEOUT, env: dict[str, str] | None = None
) -> ServerInfo:
    """JupyterLab on a free port with a random token. ``env`` adds variables to the
    server's environment, which its kernels inherit (e.g. ``HAUNTED_KIT_SEED``)."""
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.port_retries=0",  # fail instead of silently moving to another port
        f"--ServerApp.token={token}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={root_dir}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--allow-root",
    ]
    return start_server(
        cmd, name=f"jupyter-lab-{port}", url=f"http://127.0.0.1:{port}", token=token,
        root_dir=root_dir, cwd=root_dir, log_dir=state_dir, probe_path="/api/status",
        probe_any_status=False, env={**jupyter_env(state_dir), **(env or {})}, timeout=timeout,
    )


def start_voila(
    notebook: Path, state_dir: Path, extra_args: list[str] = (), timeout: float = SERVER_START_TIMEOUT,
    module: str = "voila",
) -> ServerInfo:
    """Voila serving ``notebook``: ``python -m MODULE`` (``voila``, or ``haunted_kit.classroom``:
    the kit's Voila with its page template, as ``haunted-kit tutorial`` opens a tutorial)."""
    port = free_port()
    cmd = [
        sys.executable, "-m", module, str(notebook),
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",
        *extra_args,
    ]
    # Voila 0.5 has no /api/status; any HTTP answer from a static route means "listening"
    # (GET / would execute the notebook, so it is left for the test itself).
    return start_server(
        cmd, name=f"voila-{port}", url=f"http://127.0.0.1:{port}", token=None,
        root_dir=notebook.parent, cwd=notebook.parent, log_dir=state_dir,
        probe_path="/voila/static/__probe__", probe_any_status=True, env=jupyter_env(state_dir),
        timeout=timeout,
    )


# --------------------------------------------------------------------------- the classroom command

CLASSROOM_URL = re.compile(r"Classroom app: (http://127\.0\.0\.1:(\d+))/")


def classroom_command() -> list[str]:
    """``haunted-kit`` from the venv running the tests (``python -m haunted_kit.cli`` if the
    console script is not installed)."""
    exe = Path(sys.executable).parent / "haunted-kit"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "haunted_kit.cli"]


def start_classroom(args: list[str], state_dir: Path, timeout: float = SERVER_START_TIMEOUT) -> ServerInfo:
    """Run ``haunted-kit classroom ARGS --no-browser`` (ARGS should include ``--port``), read
    the URL it prints, wait until Voila answers there. Raises RuntimeError naming the
    command, what was awaited and the tail of its output. PYTHONUNBUFFERED is removed on
    purpose: the command itself must print its URL at once, also into a pipe or a file."""
    cmd = [*classroom_command(), "classroom", *args, "--no-browser"]
    env = jupyter_env(state_dir)
    env.pop("PYTHONUNBUFFERED", None)
    state_dir.mkdir(parents=True, exist_ok=True)
    log_path = state_dir / "haunted-kit-classroom.log"
    with open(log_path, "wb") as log:
        try:
            proc = subprocess.Popen(cmd, cwd=state_dir, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as exc:
            raise RuntimeError(f"haunted-kit classroom could not be started: {exc}\ncommand: {' '.join(cmd)}") from exc
    deadline = time.monotonic() + timeout
    url = None
    try:
        while True:
            if url is None:
                m = CLASSROOM_URL.search(log_path.read_text(errors="replace"))
                if m:
                    url = m.group(1)
            if url is not None and _probe(url + "/voila/static/__probe__", {}, True):
                return ServerInfo(url=url, token=None, root_dir=state_dir, log_path=log_path, process=proc)
            if proc.poll() is not None:
                raise RuntimeError(
                    f"haunted-kit classroom exited with code {proc.returncode} "
                    + ("before printing its URL" if url is None else f"before answering at {url}")
                    + f"\ncommand: {' '.join(cmd)}\n--- output tail ---\n{log_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"haunted-kit classroom did not "
                    + ("print 'Classroom app: <url>'" if url is None else f"answer at {url}")
                    + f" within {timeout:.0f} s\ncommand: {' '.join(cmd)}\n--- output tail ---\n{log_tail(log_path)}"
                )
            time.sleep(0.2)
    except BaseException:
        terminate_tree(proc)
        raise


# --------------------------------------------------------------------------- waiting with explanations

_WAIT_PIXEL_JS = """
([sel, x, y, want, before, tol]) => {
    const c = document.querySelector(sel);
    if (!(c instanceof HTMLCanvasElement) || c.width <= x || c.height <= y) { return false; }
    const p = c.getContext('2d').getImageData(x, y, 1, 1).data;
    const near = (q) => q.every((v, k) => Math.abs(v - p[k]) <= tol);
    if (want && !near(want)) { return false; }
    if (before && near(before)) { return false; }
    return true;
}
"""


def wait_canvas_pixel(page, selector: str, x: float, y: float, *, want=None, changed_from=None, tol: int = 4,
                      timeout_ms: int = PAGE_TIMEOUT_MS, what: str = "") -> tuple[int, int, int, int]:
    """Wait (polling every animation frame, at most `timeout_ms`) until pixel (x, y) of the
    canvas `selector` is within `tol` of `want` (RGB or RGBA) and/or differs from
    `changed_from`; returns its RGBA. On timeout: AssertionError with the last colour."""
    from playwright.sync_api import TimeoutError as PWTimeout

    x, y = int(x), int(y)
    want_l = list(want) if want is not None else None
    before_l = list(changed_from[:3]) if changed_from is not None else None
    try:
        page.wait_for_function(_WAIT_PIXEL_JS, arg=[selector, x, y, want_l, before_l, tol], polling="raf",
                               timeout=timeout_ms)
    except PWTimeout:
        try:
            last = canvas_pixel(page, selector, x, y)
        except AssertionError as exc:
            last = f"unreadable ({exc})"
        cond = []
        if want is not None:
            cond.append(f"~{tuple(want)}")
        if changed_from is not None:
            cond.append(f"changed from {tuple(changed_from)}")
        raise AssertionError(
            f"{what or 'canvas pixel'}: pixel ({x}, {y}) of {selector} did not become {' and '.join(cond)} "
            f"within {timeout_ms / 1000:.0f} s; last colour {last}"
        ) from None
    return canvas_pixel(page, selector, x, y)


def page_errors(page) -> str:
    """Python-side errors the page shows: widget error banners and stderr outputs."""
    texts = []
    try:
        for sel in (".hk-error", '[data-mime-type="application/vnd.jupyter.stderr"]',
                    '[data-mime-type="application/vnd.jupyter.error"]'):
            loc = page.locator(sel)
            for i in range(min(loc.count(), 5)):
                text = loc.nth(i).inner_text(timeout=2_000).strip()
                if text:
                    texts.append(f"{sel}: {text[:1500]}")
    except Exception as exc:  # the page may be gone
        texts.append(f"<could not read the page: {exc}>")
    return "\n".join(texts) or "<none>"


@contextlib.contextmanager
def explained(what: str, server: ServerInfo | None = None, page=None):
    """Re-raise any failure inside the block as AssertionError saying what was being done,
    on which server and page URL, with the server's last output and the page's errors."""
    try:
        yield
    except Exception as exc:
        parts = [f"{what} failed: {type(exc).__name__}: {exc}"]
        if page is not None:
            try:
                parts.append("page: " + re.sub(r"token=[0-9a-f]+", "token=<test token>", page.url))
            except Exception:
                pass
            parts.append(f"errors shown in the page: {page_errors(page)}")
        if server is not None:
            parts.append(f"server: {server.describe()}")
        raise AssertionError("\n".join(parts)) from exc


# --------------------------------------------------------------------------- static http server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature from base class
        pass


@dataclass
class StaticServer:
    url: str
    directory: Path
    httpd: http.server.ThreadingHTTPServer = field(repr=False)
    thread: threading.Thread = field(repr=False)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def start_static_server(directory: Path) -> StaticServer:
    """Serve `directory` over http on a free 127.0.0.1 port from a daemon thread."""
    handler = partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="static-http", daemon=True)
    thread.start()
    return StaticServer(f"http://127.0.0.1:{httpd.server_address[1]}", Path(directory), httpd, thread)


CLIPPED_JS = """root => {
    // elements of `root` that end right of the window, or whose content is cut (scrolled
    // or hidden) horizontally; the valor track scrolls on purpose and is not counted, nor is a
    // pan box (a static drawing's .hk-pan, a canvas board's .hk-pan-box: a board drawn at a
    // readable size, wider than its box), which must itself fit but may scroll, nor what is
    // inside it
    const vw = document.documentElement.clientWidth, out = [], PAN = '.hk-pan, .hk-pan-box';
    for (const el of [root, ...root.querySelectorAll('*')]) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || el.closest('.hk-valor-track')) continue;
        const pan = el.parentElement && el.parentElement.closest(PAN);
        if (pan && root.contains(pan)) continue;
        const cut = !el.matches(PAN) && el.scrollWidth > el.clientWidth + 1
            && getComputedStyle(el).overflowX !== 'visible';
        if (r.right > vw + 1 || cut) {
            out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)} `
                     + `scrollWidth=${el.scrollWidth} clientWidth=${el.clientWidth} `
                     + `(${(el.textContent || '').replace(/\\s+/g, ' ').slice(0, 60)})`);
        }
    }
    return out.slice(0, 12);
}"""


#: every text of ``root`` (an element) as drawn, in CSS px on screen, least first, as
#: ``[px, kind, what]``: ``html``, an element's own words (its font size times the CSS zoom of it
#: and its ancestors, which the computed size leaves out); ``svg``, an SVG text (its font size
#: times the SVG's scale on screen); ``canvas``, a canvas board's least text (its class
#: ``hk-least-text-N``, on it or on the board's widget holding its layers: N hundredths of a px
#: at its own size, times its drawn scale; a canvas without it is reported at 0 px); ``img``, an
#: image of an SVG (its least font size times its drawn scale). Hidden elements, a closed
#: ``<details>`` (its summary aside), styles, scripts and a notebook's input areas are left out.
#: The one measure of the pages' text sizes (the projector, the readable screens, the phone fit)
TEXT_SIZES = """root => {
    const out = [];
    const seen = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
        && getComputedStyle(e).visibility !== 'hidden' && !(e.closest('details:not([open])') && !e.closest('summary')); };
    for (const e of [root, ...root.querySelectorAll('*')]) {
        if (!seen(e) || e.closest('style, script, .jp-InputArea')) continue;
        if (e.tagName === 'CANVAS') {
            const host = e.closest('[class*="hk-least-text-"]');
            const m = host && [...host.classList].map(c => /^hk-least-text-(\\d+)$/.exec(c)).find(Boolean);
            if (!m) { out.push([0, 'canvas', 'canvas without hk-least-text class: ' + e.className]); continue; }
            out.push([+m[1] / 100 * e.getBoundingClientRect().width / e.width, 'canvas', 'canvas.' + [...e.classList].join('.')]);
            continue;
        }
        if (e.tagName === 'IMG' && e.src.startsWith('data:image/svg+xml')) {
            const b64 = e.src.split(',')[1], svg = e.src.includes(';base64,') ? atob(b64) : decodeURIComponent(b64);
            const sizes = [...svg.matchAll(/font-size="([\\d.]+)"/g)].map(m => +m[1]);
            if (sizes.length) out.push([Math.min(...sizes) * e.getBoundingClientRect().width / e.naturalWidth, 'img', 'img ' + e.alt]);
            continue;
        }
        let own = '';
        for (const n of e.childNodes) if (n.nodeType === 3) own += n.textContent;
        if (!own.trim()) continue;
        let px = parseFloat(getComputedStyle(e).fontSize), kind = 'html';
        if (e.closest('svg')) { const m = e.getScreenCTM(); px *= Math.hypot(m.a, m.b); kind = 'svg'; }
        else for (let a = e; a; a = a.parentElement) px *= parseFloat(getComputedStyle(a).zoom) || 1;
        out.push([px, kind, e.tagName + ': ' + own.trim().slice(0, 50)]);
    }
    return out.sort((a, b) => a[0] - b[0]).map(([px, kind, what]) => [Math.round(px * 100) / 100, kind, what]);
}"""

#: the page's extent in CSS px: ``{"width", "height"}`` (its scroll size)
PAGE_EXTENT = """() => ({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})"""


def text_sizes(page, root: str = "#app") -> list:
    """:data:`TEXT_SIZES` of the first ``root`` of ``page``."""
    return page.locator(root).first.evaluate(TEXT_SIZES)


def clipped_elements(page, root: str = ".hk-play", scroll: bool = False) -> list[str]:
    """The elements inside every ``root`` match that do not fit the window's width
    (descriptions; empty when everything fits). ``scroll``: scroll each match into view
    first (JupyterLab lays out only the cells it shows)."""
    out = []
    for match in page.locator(root).all():
        if scroll:
            match.scroll_into_view_if_needed()
        out += match.evaluate(CLIPPED_JS)
    return out


def assert_fits(page, width: int, root: str = ".hk-play", timeout_s: float = 5.0) -> None:
    """Resize the window to ``width`` px and check (polling up to ``timeout_s`` for the
    layout to settle) that nothing inside ``root`` is cut or reaches past the window."""
    page.set_viewport_size({"width": width, "height": page.viewport_size["height"]})
    deadline = time.monotonic() + timeout_s
    while True:
        clipped = clipped_elements(page, root)
        if not clipped or time.monotonic() > deadline:
            break
        page.wait_for_timeout(250)
    assert clipped == [], f"at {width} px wide these elements of {root} do not fit:\n" + "\n".join(clipped)


# --------------------------------------------------------------------------- the classroom server

TEACHER_URL = re.compile(r"Teacher page: (http://[^/\s]+)/teacher\?token=(\S+)")
SEAT_LINE = re.compile(r"Table (\d+) P(\d+) \[[^\]]+\]: (http://\S+/s/([A-Z0-9]+))")
SCREEN_LINE = re.compile(r"Table (\d+) (?:projector|hot seat) \([^)]*\): (http://\S+/(projector|hotseat)/\d+\?token=\S+)")


@dataclass
class ClassServerInfo(ServerInfo):
    """A running ``haunted-kit server``: ``teacher`` (URL with the token), ``seats``
    {(table, player 1-based): seat URL}, ``codes`` {(table, player): join code},
    ``projector`` and ``hotseat`` {table: URL}: each table's watch-only and hot-seat links
    as the command prints them (tokens of their own, never the teacher's)."""

    teacher: str = ""
    seats: dict = field(default_factory=dict)
    codes: dict = field(default_factory=dict)
    projector: dict = field(default_factory=dict)
    hotseat: dict = field(default_factory=dict)


def start_class_server(args: list[str], state_dir: Path, timeout: float = SERVER_START_TIMEOUT) -> ClassServerInfo:
    """Run ``haunted-kit server ARGS`` (ARGS should include ``--port`` and ``--store``),
    read the teacher link and seat links it prints, wait until it answers. Raises
    RuntimeError naming the command and the tail of its output."""
    cmd = [*classroom_command(), "server", *args]
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)  # the command must print its links at once into a file
    state_dir.mkdir(parents=True, exist_ok=True)
    log_path = state_dir / f"haunted-kit-server-{len(list(state_dir.glob('haunted-kit-server-*.log')))}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=state_dir, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + timeout
    try:
        while True:
            text = log_path.read_text(errors="replace")
            m = TEACHER_URL.search(text)
            if m and "Ready:" in text and _probe(m.group(1) + "/favicon.ico", {}, True):
                seats = {(int(t), int(p)): url for t, p, url, _ in SEAT_LINE.findall(text)}
                codes = {(int(t), int(p)): code for t, p, _, code in SEAT_LINE.findall(text)}
                screens = {role: {int(t): url for t, url, r in SCREEN_LINE.findall(text) if r == role}
                           for role in ("projector", "hotseat")}
                return ClassServerInfo(url=m.group(1), token=m.group(2), root_dir=state_dir, log_path=log_path,
                                       process=proc, teacher=f"{m.group(1)}/teacher?token={m.group(2)}",
                                       seats=seats, codes=codes, **screens)
            if proc.poll() is not None:
                raise RuntimeError(f"haunted-kit server exited with code {proc.returncode}\ncommand: {' '.join(cmd)}"
                                   f"\n--- output tail ---\n{log_tail(log_path)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"haunted-kit server did not print its links and answer within {timeout:.0f} s"
                                   f"\ncommand: {' '.join(cmd)}\n--- output tail ---\n{log_tail(log_path)}")
            time.sleep(0.2)
    except BaseException:
        terminate_tree(proc)
        raise
