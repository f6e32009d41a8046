"""Worker processes that never outlive the process that started them: the one pool of
the kit for work done in child processes (``simulate``'s games, the classroom server's
bots).

:func:`worker_pool` starts a :class:`~concurrent.futures.ProcessPoolExecutor` with the
``spawn`` start method (each worker a direct child of this process) whose workers run
:func:`init_worker` first: they ignore Ctrl-C (the main process decides when work ends),
ask Linux to kill them when their parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``),
and, on every platform, a watchdog thread ends a worker within :data:`WATCH_INTERVAL`
seconds once its parent is gone or the pool's ``stop`` event is set. So a SIGKILL of the
main process (or a crash) leaves no worker behind.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["WATCH_INTERVAL", "init_worker", "worker_pool"]

#: seconds between a worker's looks at its parent and at the stop signal
WATCH_INTERVAL = 0.5
_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): the signal sent to this process when its parent dies


def init_worker(stop, parent: int) -> None:
    """Set up a worker process so that it never outlives its parent (process id
    ``parent``): Ctrl-C ignored, ``PR_SET_PDEATHSIG`` on Linux, and a watchdog thread that
    ends the worker within :data:`WATCH_INTERVAL` seconds once the parent is gone or
    ``stop`` (a multiprocessing Event, or None) is set. A worker whose parent died while
    it was starting ends here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)

    stop = stop if stop is not None else threading.Event()  # no stop signal: one that is never set

    def watch():
        while not stop.wait(WATCH_INTERVAL):
            if os.getppid() != parent:
                os._exit(1)
        os._exit(1)

    threading.Thread(target=watch, name="haunted-kit parent watchdog", daemon=True).start()


def worker_pool(workers: int, stop=None) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, each set up by :func:`init_worker` (they
    end with this process, or when ``stop`` is set: an Event of
    ``multiprocessing.get_context("spawn")``, or None)."""
    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=init_worker,
                               initargs=(stop, os.getpid()))
