"""Run a coroutine in a fresh event loop in its own thread: the test session may already
run a loop in the main thread (Playwright's sync API does, once a browser test has run),
and ``asyncio.run`` refuses to start inside a running loop."""

from __future__ import annotations

import asyncio
import threading


def run_in_fresh_loop(make_coroutine, timeout: float = 120.0):
    """The value of ``asyncio.run(make_coroutine())`` run in another thread; its exception
    is raised here. Raises TimeoutError after ``timeout`` seconds (the loop stops by itself
    or the test fails; nothing waits forever)."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = asyncio.run(make_coroutine())
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            out["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the coroutine did not finish in {timeout} s")
    if "error" in out:
        raise out["error"]
    return out["value"]
