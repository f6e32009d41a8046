"""The classroom in figures: move propagation between seats, memory per connected seat,
resume time of a restarted server, live widget models of a play view over games.

    .venv/bin/python benchmarks/bench_classroom.py [--moves 40] [--sockets 40] [--tables 10]

Prints (asserts nothing; the tests check behaviour):

* move propagation: ``haunted-kit server`` with one 4-seat table (all human), four
  Chromium pages (one context each, as four student devices). The mover's page sends
  its decision; for each of the three other pages, the time from the send
  (``Date.now()`` in the mover's page) to that page showing the new position (a
  MutationObserver on its ``data-seq``). Median and p90 over ``--moves`` decisions x 3
  pages. Aim: under 500 ms.
* memory per connected seat: the server's resident memory (``/proc/PID/status`` VmRSS)
  before and after ``--sockets`` websocket clients join seats and receive their view,
  divided by the number of sockets; and how many students an 8 GiB laptop could serve on
  that figure (memory only; the laptop's own browser, OS and the CPU are the real limits).
* resume time: a store with ``--tables`` tables of 4 players, each 150 decisions in; the
  time for a new ``GameStore`` to rebuild every table, and for ``haunted-kit server`` on
  that store to print "Ready".
* live widget models (ipywidgets' registry) of one ``PlayView`` (P1 human, three greedy
  bots) after 1 and after 5 full games played in it (``new_game`` between games).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import haunted_kit as hk  # noqa: E402
from browser_harness import free_port, launch_chromium, start_class_server, terminate_tree  # noqa: E402
from haunted_kit.haunted.agents import GreedyAgent  # noqa: E402
from haunted_kit.store import GameStore  # noqa: E402

WATCH_JS = """() => {
    window.__seen = {};
    const app = document.getElementById('app');
    new MutationObserver(() => { const s = app.dataset.seq; if (s !== undefined && !(s in window.__seen)) window.__seen[s] = Date.now(); })
        .observe(app, {attributes: true, attributeFilter: ['data-seq']});
}"""


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def propagation(moves: int, work: Path) -> list[float]:
    from playwright.sync_api import sync_playwright

    srv = start_class_server(["--store", str(work / "prop.db"), "--port", str(free_port()), "--players", "4",
                              "--seed", "11", "--bot-delay", "0"], work)
    delays = []
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            pages = []
            for p in range(4):
                page = browser.new_context(viewport={"width": 1024, "height": 800}).new_page()
                page.goto(srv.seats[(1, p + 1)])
                page.wait_for_selector('#app[data-seq="0"]', state="attached", timeout=60_000)
                page.evaluate(WATCH_JS)
                pages.append(page)
            s = hk.new_game(players=4, seed=11)
            bots = [GreedyAgent(50 + p) for p in range(4)]
            for seq in range(moves):
                p = s.current_player()
                a = bots[p].act(s.copy())
                i = s.legal_actions().index(a)
                sent = pages[p].evaluate("i => { const t = Date.now(); act(i); return t; }", i)
                s.apply_action(a)
                for q, page in enumerate(pages):
                    page.wait_for_selector(f'#app[data-seq="{seq + 1}"]', state="attached", timeout=30_000)
                    if q != p:
                        delays.append(page.evaluate(f"() => window.__seen['{seq + 1}']") - sent)
            browser.close()
    finally:
        terminate_tree(srv.process)
    return delays


def memory_per_socket(sockets: int, work: Path) -> tuple[int, int, float]:
    import tornado.websocket

    srv = start_class_server(["--store", str(work / "mem.db"), "--port", str(free_port()), "--players", "4",
                              "--seed", "3"], work)
    try:
        codes = [srv.codes[(1, p)] for p in range(1, 5)]
        time.sleep(1.0)
        before = rss_kib(srv.process.pid)

        async def join():
            conns = []
            for k in range(sockets):
                ws = await tornado.websocket.websocket_connect(f"{srv.url.replace('http', 'ws')}/ws?code={codes[k % 4]}")
                json.loads(await ws.read_message())  # its view
                conns.append(ws)
            await asyncio.sleep(1.0)
            after = rss_kib(srv.process.pid)
            for ws in conns:
                ws.close()
            return after

        after = asyncio.run(join())
    finally:
        terminate_tree(srv.process)
    return before, after, (after - before) / sockets


def resume(tables: int, work: Path) -> tuple[float, float]:
    db = work / "resume.db"
    with GameStore(db) as store:
        for k in range(tables):
            t = store.create_table(players=4, seed=100 + k)
            bots = [GreedyAgent(k * 10 + p) for p in range(4)]
            for _ in range(150):
                p = t.state.current_player()
                t.decide(p, bots[p].act(t.state.copy()))
    start = time.perf_counter()
    with GameStore(db) as store:
        store.tables()
    rebuild = time.perf_counter() - start
    start = time.perf_counter()
    srv = start_class_server(["--store", str(db), "--port", str(free_port())], work)
    ready = time.perf_counter() - start
    terminate_tree(srv.process)
    return rebuild, ready


def widget_models(games: int) -> list[int]:
    from ipywidgets.widgets import widget

    from haunted_kit.haunted.widgets import PlayView

    view = PlayView(players=4, mode="wanderer", seed=1, bots=[1, 2, 3])
    human = GreedyAgent(9)
    counts = [len(widget._instances)]
    for g in range(games):
        if g:
            view.new_game(seed=1 + g)
        while not view.state.is_terminal():
            view.attempt(human.act(view.state.copy()))
        counts.append(len(widget._instances))
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--sockets", type=int, default=40)
    ap.add_argument("--tables", type=int, default=10)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        counts = widget_models(5)
        print(f"live widget models: {counts[0]} after building the view, {counts[1]} after 1 game, "
              f"{counts[5]} after 5 games (each game: P1 human, three greedy bots)")
        rebuild, ready = resume(args.tables, work)
        print(f"resume {args.tables} tables x 150 decisions: store rebuilt in {rebuild:.2f} s; "
              f"server ready in {ready:.2f} s (process start included)")
        before, after, per = memory_per_socket(args.sockets, work)
        print(f"memory: server {before / 1024:.1f} MiB idle, {after / 1024:.1f} MiB with {args.sockets} seat sockets: "
              f"{per:.0f} KiB per connected seat")
        spare = 8 * 1024 * 1024 - 2 * 1024 * 1024 - before   # 8 GiB laptop, 2 GiB for the OS and a browser
        print(f"  on memory alone an 8 GiB laptop (2 GiB kept for the system) could hold {int(spare / max(per, 1)):,} "
              "seats; CPU and the network decide long before that")
        delays = propagation(args.moves, work)
        print(f"move propagation to the other seats' pages ({len(delays)} samples, 4 Chromium pages): "
              f"median {statistics.median(delays):.0f} ms, p90 {pct(delays, 0.9):.0f} ms, max {max(delays):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
