"""The classroom app: the play notebook served by Voila, widgets only, no code.

``haunted-kit classroom --seed 3 --mode citizen --players 3 --bots 2,3`` starts Voila
on localhost with ``notebooks/07_classroom_play.ipynb``. The game parameters reach the
notebook through environment variables (``HAUNTED_KIT_SEED``, ``HAUNTED_KIT_MODE``,
``HAUNTED_KIT_PLAYERS``, ``HAUNTED_KIT_BOTS``, ``HAUNTED_KIT_BOX``: a house-rule copy of
``data/``, ``HAUNTED_KIT_SIZE``: the hex size in pixels, ``HAUNTED_KIT_HINTS``: ``0`` switches
the "Suggest a move" button off, ``HAUNTED_KIT_HINT_PLAYOUTS``: the search budget of a
hint), read by :func:`app_settings`.

Voila runs in its own process through :func:`voila_main` (``python -m haunted_kit.classroom``),
which adds what a lesson needs to Voila: the kernel of a closed or reloaded page is shut
down at once by the page's own shutdown request (Voila sends it with the ``_xsrf`` cookie,
which no Voila page set, voila-dashboards/voila#1458: every handler's GET now sets it), and
otherwise after ``kernel_idle`` seconds without a page (jupyter_server's idle culling of
kernels with no connection); at most ``max_kernels`` live kernels (a kernel being shut down
at its page's request does not count, so a student reloading their own tab is served), the
next page load gets a page saying the app is full and what to do; the Host
header must be a localhost name or an ``allow_hosts`` name (else 403), as the table
server checks it. :func:`serve` prints the URL only once Voila answers there.
"""

from __future__ import annotations

import inspect
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from .games import DEFAULT_GAME, get_game
from .limits import HEX_SIZE_RANGE, HINT_PLAYOUTS_RANGE
from .server import LOCAL_HOSTS, host_name

ENV_PREFIX = "HAUNTED_KIT_"
DEFAULT_SIZE, (MIN_SIZE, MAX_SIZE) = 34.0, HEX_SIZE_RANGE  # hex size in pixels (centre to corner)
DEFAULT_HINT_PLAYOUTS, (MIN_HINT_PLAYOUTS, MAX_HINT_PLAYOUTS) = 1000, HINT_PLAYOUTS_RANGE  # playouts per "Suggest a move"


def app_settings(default_seed: int = 1) -> dict:
    """Game settings for the classroom notebook, from the environment or the defaults:
    ``seed``, ``mode``, ``players``, ``bots`` (0-based player indexes; default: seat 1
    human, the others bots), ``box`` (the loaded house-rule box, or the reference box)
    ``size`` (hex size in pixels, default :data:`DEFAULT_SIZE`) and ``hints`` (the
    "Suggest a move" button; ``HAUNTED_KIT_HINTS=0`` switches it off), ``hint_playouts``
    (the playouts each hint searches, :data:`DEFAULT_HINT_PLAYOUTS`). The dict's keys are
    :class:`~haunted_kit.haunted.widgets.PlayView` keywords. Raises ValueError naming a
    malformed variable or a box that does not load."""
    env = os.environ

    def number(name: str, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"bad classroom setting in the environment: {ENV_PREFIX}{name}={env.get(ENV_PREFIX + name)!r} "
                             "(expected a whole number" + (" or numbers separated by commas)" if name == "BOTS" else ")")) from None

    seed = number("SEED", env.get(ENV_PREFIX + "SEED", str(default_seed)))
    players = number("PLAYERS", env.get(ENV_PREFIX + "PLAYERS", "4"))
    bots_text = env.get(ENV_PREFIX + "BOTS")
    if bots_text is None:
        bots = list(range(1, players))
    else:
        bots = [number("BOTS", x) - 1 for x in bots_text.split(",") if x.strip()]
    mode = env.get(ENV_PREFIX + "MODE", "wanderer")
    size_text = env.get(ENV_PREFIX + "SIZE", str(DEFAULT_SIZE))
    try:
        size = float(size_text)
    except ValueError:
        size = None
    if size is None or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"bad classroom setting in the environment: {ENV_PREFIX}SIZE={size_text!r} "
                         f"(expected a hex size in pixels from {MIN_SIZE} to {MAX_SIZE})")
    box_dir = env.get(ENV_PREFIX + "BOX")
    game = get_game(DEFAULT_GAME)  # the classroom notebook plays the default game
    try:
        box = game.load_box(box_dir) if box_dir else game.default_box()
    except (ValueError, OSError) as exc:  # the game's BoxError
        raise ValueError(f"bad classroom setting in the environment: {ENV_PREFIX}BOX={box_dir!r}: {exc}") from None
    hints_text = env.get(ENV_PREFIX + "HINTS", "1").strip().lower()
    if hints_text not in ("0", "1", "off", "on"):
        raise ValueError(f"bad classroom setting in the environment: {ENV_PREFIX}HINTS={hints_text!r} (expected 1 or 0)")
    playouts = number("HINT_PLAYOUTS", env.get(ENV_PREFIX + "HINT_PLAYOUTS", str(DEFAULT_HINT_PLAYOUTS)))
    if not MIN_HINT_PLAYOUTS <= playouts <= MAX_HINT_PLAYOUTS:
        raise ValueError(f"bad classroom setting in the environment: {ENV_PREFIX}HINT_PLAYOUTS={playouts} "
                         f"(expected {MIN_HINT_PLAYOUTS} to {MAX_HINT_PLAYOUTS:,} playouts)")
    return {"seed": seed, "players": players, "mode": mode, "bots": bots, "box": box, "size": size,
            "hints": hints_text in ("1", "on"), "hint_playouts": playouts}


def notebook_path() -> Path:
    """The play notebook: the checkout's ``notebooks/07_classroom_play.ipynb``."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "notebooks" / "07_classroom_play.ipynb", here / "_notebooks" / "07_classroom_play.ipynb"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("notebooks/07_classroom_play.ipynb not found next to the package")


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


KERNEL_IDLE_CULL = 30      # seconds: the kernel of a page closed (or reloaded) this long ago is shut down
KERNEL_CULL_INTERVAL = 10  # seconds between two looks for such kernels: shut down within 40 s of the page closing
MAX_KERNELS = 40           # live kernels (open pages) at most; the next page load is told the app is full
START_TIMEOUT = 120.0      # seconds Voila may take to answer before the command gives up


def voila_command(port: int, open_browser: bool = False, *, kernel_idle: int = KERNEL_IDLE_CULL,
                  cull_interval: int = KERNEL_CULL_INTERVAL, max_kernels: int = MAX_KERNELS,
                  allow_hosts=()) -> list[str]:
    """The Voila command (run by :func:`voila_main`): localhost only, no port hopping;
    each page load runs the notebook in its own kernel. A kernel with no page connected
    for ``kernel_idle`` seconds is shut down (looked for every ``cull_interval`` seconds;
    kernels of open pages are kept however idle), at most ``max_kernels`` kernels live at
    once, and the Host header must be a localhost name or one of ``allow_hosts``."""
    cmd = [sys.executable, "-m", "haunted_kit.classroom", str(notebook_path()), f"--port={port}", "--Voila.ip=127.0.0.1",
           "--Voila.port_retries=0", "--theme=light", "--show_tracebacks=False", *cull_flags(kernel_idle, cull_interval),
           f"--ClassroomVoila.max_kernels={int(max_kernels)}"]
    cmd += [f"--ClassroomVoila.allow_hosts={h}" for h in allow_hosts]
    if not open_browser:
        cmd.append("--no-browser")
    return cmd


def cull_flags(kernel_idle: int = KERNEL_IDLE_CULL, cull_interval: int = KERNEL_CULL_INTERVAL) -> list[str]:
    """Voila's flags that shut down the kernel of a page closed or reloaded ``kernel_idle``
    seconds ago (looked for every ``cull_interval`` seconds; a kernel with its page open is
    kept however idle). :func:`voila_main` adds those its command line does not give, so a
    notebook opened with ``python -m haunted_kit.classroom NOTEBOOK`` (the tutorial's
    printed command) leaves no kernel behind either."""
    return [f"--MappingKernelManager.cull_idle_timeout={int(kernel_idle)}",
            f"--MappingKernelManager.cull_interval={int(cull_interval)}",
            "--MappingKernelManager.cull_connected=False", "--MappingKernelManager.cull_busy=False"]


def full_page(live: int, cap: int) -> str:
    """The page (HTML) a student gets when ``live`` kernels are running and the cap is
    ``cap`` (both integers): what happened and what to do, no traceback."""
    return ("<!doctype html><meta charset='utf-8'><title>Haunted Lands: the classroom app is full</title>"
            "<body style='font-family: sans-serif; max-width: 40em; margin: 3em auto'><main>"
            "<h1>The classroom app is full</h1>"
            f"<p>{live} game{' is' if live == 1 else 's are'} open already, the most this app serves at once ({cap}).</p>"
            "<p>Close a tab with a game you no longer play: its place is freed within a minute. "
            "Then reload this page. Your teacher can allow more with <code>haunted-kit classroom --max-kernels N</code>.</p>"
            "</main>")


def host_allowed(host_header: str, allow_hosts=()) -> bool:
    """Whether a request's Host header names this machine (a localhost name) or one of
    ``allow_hosts``: the table server's rule (:func:`haunted_kit.server.host_name`)."""
    return host_name(host_header) in LOCAL_HOSTS | {h.lower() for h in allow_hosts}


def voila_main(argv=None) -> None:
    """Run Voila (``argv``: its command line, as :func:`voila_command` builds it) with the
    classroom's kernel cap and Host check. Runs until Voila stops."""
    # lazy: only the Voila process imports voila, tornado and traitlets (the kernels and the CLI never do)
    import tornado.web
    import tornado.websocket
    from traitlets import Integer, List, Unicode
    from voila.app import Voila
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    class ClassroomVoila(Voila):
        """Voila with a cap on live kernels and the Host header checked on every handler."""

        max_kernels = Integer(MAX_KERNELS, config=True, help="live kernels at most; the next page load is refused")
        allow_hosts = List(Unicode(), config=True, help="names the Host header may carry besides localhost")

        closing: set = set()  #: kernels a page asked to shut down (counted free at once: a reloaded tab's own)

        def setup_template_dirs(self):
            super().setup_template_dirs()
            self.template_paths.insert(0, str(Path(__file__).with_name("voila_template")))  # its index.html.j2 first

        def initialize(self, argv=None):
            super().initialize(argv)
            self.voila_configuration.prelaunch_hook = self.kernel_cap

        def kernel_cap(self, handler, notebook, cwd):
            live = len(set(self.kernel_manager.list_kernel_ids()) - self.closing)
            if live >= self.max_kernels:
                self.log.warning("classroom app full: %d kernels live, the cap is %d", live, self.max_kernels)
                handler.set_status(503)
                handler.set_header("Content-Type", "text/html; charset=utf-8")
                raise tornado.web.Finish(full_page(live, self.max_kernels))
            return None

        def init_handlers(self):
            rules = super().init_handlers()
            rules = [(rule[0], closing_tracked(rule[1], self.closing), *rule[2:])
                     if issubclass(rule[1], VoilaShutdownKernelHandler) else rule for rule in rules]
            return [(rule[0], host_checked(rule[1], self.allow_hosts), *rule[2:]) for rule in rules]

    def closing_tracked(handler_class, closing: set):
        """Voila's shutdown handler (a page's ``beforeunload`` beacon) with the kernel
        counted free while it shuts down, so the same tab reloaded is served at the cap."""
        class Tracked(handler_class):
            async def post(self, kernel_id):
                closing.add(kernel_id)
                try:
                    return await super().post(kernel_id)
                finally:
                    closing.discard(kernel_id)

        Tracked.__name__ = handler_class.__name__
        return Tracked

    def host_checked(handler_class, allow_hosts):
        class Checked(handler_class):
            async def prepare(self):
                if not host_allowed(self.request.host, allow_hosts):
                    raise tornado.web.HTTPError(403, reason="Host not allowed")
                done = super().prepare()
                if inspect.isawaitable(done):
                    await done
                if self.request.method == "GET" and not isinstance(self, tornado.websocket.WebSocketHandler):
                    # the _xsrf cookie, which Voila's page sends with its shutdown request when it closes or
                    # reloads (voila-dashboards/voila#1458: no page sets it, so every such request got 403)
                    self.xsrf_token  # noqa: B018 - reading it sets the cookie

        Checked.__name__ = handler_class.__name__
        return Checked

    argv = list(sys.argv[1:] if argv is None else argv)
    given = {a.split("=", 1)[0] for a in argv}  # a culling flag the command line gives is its own (traitlets takes one)
    ClassroomVoila.launch_instance([*(f for f in cull_flags() if f.split("=", 1)[0] not in given), *argv])


def classroom_env(players: int, mode: str, seed: int, bots, box=None, size: float = DEFAULT_SIZE, hints: bool = True,
                  hint_playouts: int = DEFAULT_HINT_PLAYOUTS) -> dict:
    """The environment for Voila's kernel: this process' environment plus the game
    settings read back by :func:`app_settings` (``box``: a folder path or ``None``)."""
    env = dict(os.environ)
    env[ENV_PREFIX + "SEED"] = str(seed)
    env[ENV_PREFIX + "MODE"] = mode
    env[ENV_PREFIX + "PLAYERS"] = str(players)
    env[ENV_PREFIX + "BOTS"] = ",".join(str(b) for b in (bots if bots is not None else range(2, players + 1)))
    env[ENV_PREFIX + "SIZE"] = f"{float(size):g}"
    env[ENV_PREFIX + "HINTS"] = "1" if hints else "0"
    env[ENV_PREFIX + "HINT_PLAYOUTS"] = str(hint_playouts)
    env[ENV_PREFIX + "APP"] = "1"  # widget error banners: no traceback on a student's page
    if box is not None:
        env[ENV_PREFIX + "BOX"] = str(Path(box).resolve())
    else:
        env.pop(ENV_PREFIX + "BOX", None)
    return env


def serve(players: int = 4, mode: str = "wanderer", seed: int = 1, bots=None, port: int = 8866,
          open_browser: bool = True, box=None, size: float = DEFAULT_SIZE, hints: bool = True,
          hint_playouts: int = DEFAULT_HINT_PLAYOUTS, kernel_idle: int = KERNEL_IDLE_CULL,
          max_kernels: int = MAX_KERNELS, allow_hosts=()) -> int:
    """Serve the classroom app until interrupted; returns Voila's exit status.

    ``bots`` are 1-based seats played by bots (default: all but seat 1). A busy
    ``port`` is replaced by a free one, and the command says so. ``box``: a house-rule
    copy of ``data/`` (a folder; the command checks it loads), ``size``: the hex size
    in pixels (12 to 80), ``hints``: the "Suggest a move" button (off for a table
    where the teacher wants none), ``hint_playouts``: its search budget (10 to 100,000;
    fewer answer faster on a slow machine, more play better), ``kernel_idle``: seconds
    after which the kernel of a closed page is shut down (5 to 3,600), ``max_kernels``:
    live kernels at most (1 to 1,000), ``allow_hosts``: names besides localhost the Host
    header may carry. The URL is printed once Voila answers there.
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        print(f"haunted-kit classroom: size must be between {MIN_SIZE:g} and {MAX_SIZE:g} pixels, got {size:g}",
              file=sys.stderr)
        return 2
    if not MIN_HINT_PLAYOUTS <= hint_playouts <= MAX_HINT_PLAYOUTS:
        print(f"haunted-kit classroom: hint playouts must be between {MIN_HINT_PLAYOUTS} and {MAX_HINT_PLAYOUTS:,}, "
              f"got {hint_playouts}", file=sys.stderr)
        return 2
    if bots is not None:
        bad = [b for b in bots if not 1 <= b <= players]
        if bad:
            print(f"haunted-kit classroom: bot seats must be between 1 and {players}, got {bad}", file=sys.stderr)
            return 2
    if not 0 <= port <= 65535:
        print(f"haunted-kit classroom: port must be between 0 and 65535, got {port}", file=sys.stderr)
        return 2
    if not 5 <= kernel_idle <= 3600:
        print(f"haunted-kit classroom: kernel idle time must be between 5 and 3600 seconds, got {kernel_idle}",
              file=sys.stderr)
        return 2
    if not 1 <= max_kernels <= 1000:
        print(f"haunted-kit classroom: max kernels must be between 1 and 1000, got {max_kernels}", file=sys.stderr)
        return 2
    if port == 0 or not port_is_free(port):
        new = free_port()
        if port:
            print(f"Port {port} is in use; serving on port {new} instead.", flush=True)
        port = new
    try:
        cmd = voila_command(port, open_browser, kernel_idle=kernel_idle, cull_interval=min(KERNEL_CULL_INTERVAL, kernel_idle),
                            max_kernels=max_kernels, allow_hosts=allow_hosts)
    except FileNotFoundError as exc:
        print(f"haunted-kit classroom: {exc}", file=sys.stderr)
        return 1
    return run_voila(cmd, classroom_env(players, mode, seed, bots, box, size, hints, hint_playouts),
                     url=f"http://127.0.0.1:{port}/")


def answers(url: str, timeout: float = 2.0) -> bool:
    """Whether an HTTP server answers at ``url`` (any status counts; no proxy)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        opener.open(url, timeout=timeout).close()
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False
    return True


def wait_until_answering(proc: subprocess.Popen, url: str, timeout: float = START_TIMEOUT, every: float = 0.2) -> bool:
    """Poll ``url`` (its ``favicon.ico``: a page load would start a kernel) until it
    answers (True), or ``proc`` exits or ``timeout`` seconds pass (False)."""
    probe = url.rstrip("/") + "/favicon.ico"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if answers(probe):
            return True
        time.sleep(every)
    return False


def run_voila(cmd: list[str], env: dict, url: str | None = None, start_timeout: float = START_TIMEOUT) -> int:
    """Run Voila until it exits; Ctrl+C, SIGTERM or SIGHUP to this command stop Voila
    too (it never outlives the command). ``url``: printed once Voila answers there (a
    student opening it at once is served); when Voila exits first or does not answer
    within ``start_timeout`` seconds the command says so (and stops it). Returns Voila's
    exit status (0 on Ctrl+C; 1 when it never answered but did not fail)."""

    proc = subprocess.Popen(cmd, env=env)

    def forward(signum, _frame):
        proc.terminate()

    previous = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            previous[sig] = signal.signal(sig, forward)
    try:
        if url is not None:
            if wait_until_answering(proc, url, start_timeout):
                # flush: the URL must show at once also when stdout is a pipe or a file (Voila runs on)
                print(f"Classroom app: {url}  (Ctrl+C stops it)", flush=True)
            elif proc.poll() is None:
                print(f"haunted-kit classroom: Voila did not answer at {url} within {start_timeout:g} s; stopping it.",
                      file=sys.stderr, flush=True)
                proc.terminate()
                proc.wait(timeout=10)
                return 1
            else:
                print(f"haunted-kit classroom: Voila stopped before it answered at {url} (exit status {proc.returncode}); "
                      "its messages are above.", file=sys.stderr, flush=True)
                return proc.returncode or 1
        code = proc.wait()
        return 0 if code in (-signal.SIGTERM, 143) else code
    except KeyboardInterrupt:
        proc.terminate()
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if proc.poll() is None:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    voila_main(sys.argv[1:])
