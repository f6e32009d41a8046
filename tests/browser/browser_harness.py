"""Reusable pieces of the browser-test harness (imported by conftest.py and tests).

Playwright drives Debian's chromium (/usr/bin/chromium); Playwright's own browser
download is never used. Servers (JupyterLab, Voila, a static http.server) run as
child processes/threads on free loopback ports and are always torn down.

In tests:  ``from browser_harness import canvas_pixel, save_screenshot``
"""

from __future__ import annotations

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

    def log(self, lines: int = 40) -> str:
        return log_tail(self.log_path, lines)


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
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def start_jupyter_lab(root_dir: Path, state_dir: Path, timeout: float = SERVER_START_TIMEOUT) -> ServerInfo:
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
        probe_any_status=False, env=jupyter_env(state_dir), timeout=timeout,
    )


def start_voila(
    notebook: Path, state_dir: Path, extra_args: list[str] = (), timeout: float = SERVER_START_TIMEOUT
) -> ServerInfo:
    port = free_port()
    cmd = [
        sys.executable, "-m", "voila", str(notebook),
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
