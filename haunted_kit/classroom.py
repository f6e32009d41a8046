"""The classroom app: the play notebook served by Voila, widgets only, no code.

``haunted-kit classroom --seed 3 --mode citizen --players 3 --bots 2,3`` starts Voila
on localhost with ``notebooks/07_classroom_play.ipynb``. The game parameters reach the
notebook through environment variables (``HAUNTED_KIT_SEED``, ``HAUNTED_KIT_MODE``,
``HAUNTED_KIT_PLAYERS``, ``HAUNTED_KIT_BOTS``, ``HAUNTED_KIT_BOX``: a house-rule copy of
``data/``, ``HAUNTED_KIT_SIZE``: the hex size in pixels, ``HAUNTED_KIT_HINTS``: ``0`` switches
the "Suggest a move" button off, ``HAUNTED_KIT_HINT_PLAYOUTS``: the search budget of a
hint), read by :func:`app_settings`.
"""

from __future__ import annotations

import signal
import os
import socket
import subprocess
import sys
from pathlib import Path

from .games import DEFAULT_GAME, get_game

ENV_PREFIX = "HAUNTED_KIT_"
DEFAULT_SIZE, MIN_SIZE, MAX_SIZE = 34.0, 12.0, 80.0  # hex size in pixels (centre to corner)
DEFAULT_HINT_PLAYOUTS, MIN_HINT_PLAYOUTS, MAX_HINT_PLAYOUTS = 1000, 10, 100_000  # playouts per "Suggest a move"


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


KERNEL_IDLE_CULL = 600  # seconds: the kernel of a page closed (or left idle) this long is shut down


def voila_command(port: int, open_browser: bool = False) -> list[str]:
    """The Voila command: localhost only, no port hopping; each page load runs the
    notebook in its own kernel, and a kernel idle for :data:`KERNEL_IDLE_CULL` seconds
    (its page closed) is shut down, so page loads do not pile up kernels for a lesson."""
    cmd = [sys.executable, "-m", "voila", str(notebook_path()), f"--port={port}", "--Voila.ip=127.0.0.1",
           "--Voila.port_retries=0", "--theme=light", "--show_tracebacks=False",
           f"--MappingKernelManager.cull_idle_timeout={KERNEL_IDLE_CULL}", "--MappingKernelManager.cull_interval=60"]
    if not open_browser:
        cmd.append("--no-browser")
    return cmd


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
          hint_playouts: int = DEFAULT_HINT_PLAYOUTS) -> int:
    """Serve the classroom app until interrupted; returns Voila's exit status.

    ``bots`` are 1-based seats played by bots (default: all but seat 1). A busy
    ``port`` is replaced by a free one, and the command says so. ``box``: a house-rule
    copy of ``data/`` (a folder; the command checks it loads), ``size``: the hex size
    in pixels (12 to 80), ``hints``: the "Suggest a move" button (off for a table
    where the teacher wants none), ``hint_playouts``: its search budget (10 to 100,000;
    fewer answer faster on a slow machine, more play better).
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
    if port == 0 or not port_is_free(port):
        new = free_port()
        if port:
            print(f"Port {port} is in use; serving on port {new} instead.", flush=True)
        port = new
    try:
        cmd = voila_command(port, open_browser)
    except FileNotFoundError as exc:
        print(f"haunted-kit classroom: {exc}", file=sys.stderr)
        return 1
    # flush: the URL must show at once also when stdout is a pipe or a file (Voila runs on)
    print(f"Classroom app: http://127.0.0.1:{port}/  (Ctrl+C stops it)", flush=True)
    return run_voila(cmd, classroom_env(players, mode, seed, bots, box, size, hints, hint_playouts))


def run_voila(cmd: list[str], env: dict) -> int:
    """Run Voila until it exits; Ctrl+C, SIGTERM or SIGHUP to this command stop Voila
    too (it never outlives the command). Returns Voila's exit status (0 on Ctrl+C)."""

    proc = subprocess.Popen(cmd, env=env)

    def forward(signum, _frame):
        proc.terminate()

    previous = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            previous[sig] = signal.signal(sig, forward)
    try:
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
