"""Helpers for tests that check child processes end with their parent (simulate's
workers, the classroom server's bots): the live descendants of a process, whether a
process is alive, waiting for a set of processes to end."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

try:
    import psutil
except ImportError:  # pragma: no cover - psutil is a test dependency; /proc is the fallback
    psutil = None


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (psutil when installed, else Linux's /proc)."""
    if psutil is not None:
        try:
            return {p.pid for p in psutil.Process(pid).children(recursive=True)}
        except psutil.NoSuchProcess:
            return set()
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d.name))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out


def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    if psutil is not None:
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cmdline(pid: int) -> str:
    """The command line of ``pid`` (Linux's /proc), or "" when it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_gone(pids: set[int], seconds: float) -> set[int]:
    """Wait up to ``seconds`` for ``pids`` to end; the ones still alive."""
    deadline = time.monotonic() + seconds
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = {p for p in left if alive(p)}
    return left


def outlived_kill(proc, children: set[int], seconds: float = 5) -> set[int]:
    """SIGKILL ``proc`` (a Popen) and wait up to ``seconds`` for ``children`` to end; the
    ones that outlived it (killed here too, so a failing test leaves nothing running)."""
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    left = wait_gone(children, seconds)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left
