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
* a class (``--only class``): ``haunted-kit server`` (its own process) with ``--tables``
  4-seat tables, all human: table 1 played from four Chromium pages (as above), the other
  tables by four websocket clients each (tornado ``websocket_connect``, offering
  permessage-deflate as browsers do; one decision per table every ``--pace`` seconds,
  a random one of the choices their view lists), and the teacher page open in Chromium.
  Prints, over the window in which table 1 plays ``--moves`` decisions: move -> other
  seats' pages median and p90 (table 1); wire bytes the server sent per decision per
  page (``ss -ti``: bytes acknowledged on the server's sockets, over decisions x pages
  that see each decision: its table's 4 seats and the teacher page); the message text
  (uncompressed JSON) per decision per seat page as the websocket clients received it;
  server CPU per decision (``psutil``: user + system time of the server process over all
  decisions of the class). ``--compare DIR`` runs the same class against the checkout in
  DIR too (e.g. ``git archive main``), alternating ``--rounds`` times; medians of the
  rounds are printed for each.
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
import random
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import haunted_kit as hk  # noqa: E402
from browser_harness import free_port, launch_chromium, start_class_server, terminate_tree  # noqa: E402
from benchargs import number_at_least  # noqa: E402
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


def seat_pages(browser, srv) -> list:
    """Table 1's four seat pages, one browser context each (four devices), each showing
    decision 0 and watching when its page shows each new position."""
    pages = []
    for p in range(4):
        page = browser.new_context(viewport={"width": 1024, "height": 800}).new_page()
        page.goto(srv.seats[(1, p + 1)])
        page.wait_for_selector('#app[data-seq="0"]', state="attached", timeout=60_000)
        page.evaluate(WATCH_JS)
        pages.append(page)
    return pages


def play_from_pages(pages: list, moves: int) -> list[float]:
    """Table 1 (4 players, seed 11) plays ``moves`` greedy decisions, each sent from the
    mover's page; returns each other page's delay (ms) from the send to showing it."""
    delays = []
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
    return delays


def propagation(moves: int, work: Path) -> list[float]:
    from playwright.sync_api import sync_playwright

    srv = start_class_server(["--store", str(work / "prop.db"), "--port", str(free_port()), "--players", "4",
                              "--seed", "11", "--bot-delay", "0"], work)
    delays = []
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            pages = seat_pages(browser, srv)
            delays = play_from_pages(pages, moves)
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


def server_bytes_sent(port: int) -> int:
    """Bytes the server acknowledged as delivered on its established sockets (``ss -ti``)."""
    out = subprocess.run(["ss", "-tnHi", "state", "established", f"( sport = :{port} )"], capture_output=True,
                         text=True, check=True).stdout
    return sum(int(n) for n in re.findall(r"bytes_acked:(\d+)", out))


def class_store(path: Path, tables: int, root: Path | None = None) -> None:
    """A store of ``tables`` 4-seat tables, written by the kit of the checkout at ``root``
    (its own schema: an older kit refuses a newer store) or, without it, this one."""
    if root is None:
        with GameStore(path) as store:
            for k in range(tables):
                store.create_table(players=4, seed=11 + k)
        return
    code = ("import sys; from haunted_kit.store import GameStore\n"
            "with GameStore(sys.argv[1]) as s:\n"
            f"    [s.create_table(players=4, seed=11 + k) for k in range({int(tables)})]")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})


def socket_class(url: str, codes: dict, tables: int, pace: float, stop: threading.Event, out: dict) -> None:
    """Tables 2..``tables`` played by 4 websocket clients each until ``stop`` (bounded:
    at most 2,000 rounds of ``pace`` seconds); ``out``: decisions sent, message text received."""
    import tornado.websocket

    async def client(code):
        ws = await tornado.websocket.websocket_connect(f"{url.replace('http', 'ws')}/ws?code={code}",
                                                      compression_options={}, max_message_size=1 << 24)
        page = {"ws": ws, "view": None}

        async def read():
            while True:
                text = await ws.read_message()
                if text is None:
                    return
                out["text"] += len(text)
                msg = json.loads(text)
                if msg["type"] == "view":
                    page["view"] = msg
                elif msg["type"] == "patch" and page["view"] is not None:
                    page["view"].update(msg["changed"])

        page["reader"] = asyncio.get_running_loop().create_task(read())
        return page

    async def table(tid, rng):
        pages = [await client(codes[(tid, p)]) for p in range(1, 5)]
        for _ in range(2000):
            if stop.is_set():
                break
            await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
            for page in pages:
                v = page["view"]
                if v and v.get("actions") and v.get("acting") == v.get("you"):
                    page["ws"].write_message(json.dumps({"type": "act", "seq": v["seq"],
                                                         "i": rng.choice(v["actions"])["i"]}))
                    out["decisions"] += 1
                    break
        for page in pages:
            page["ws"].close()
            page["reader"].cancel()

    async def main():
        await asyncio.gather(*(table(tid, random.Random(tid)) for tid in range(2, tables + 1)))

    asyncio.run(main())


def class_run(root: Path, tables: int, moves: int, pace: float, teacher: bool, work: Path) -> dict:
    """One class against the checkout at ``root`` (see the module's docstring)."""
    from playwright.sync_api import sync_playwright

    db = work / f"class-{time.monotonic_ns()}.db"
    class_store(db, tables, root)
    os.environ["PYTHONPATH"] = str(root)  # the server process runs that checkout's kit
    srv = start_class_server(["--store", str(db), "--port", str(free_port()), "--bot-delay", "0"], work)
    port = int(srv.url.rsplit(":", 1)[1])
    proc = psutil.Process(srv.process.pid)
    stop, out = threading.Event(), {"decisions": 0, "text": 0}
    delays = []
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            if teacher:
                tpage = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                tpage.goto(srv.teacher)
            pages = seat_pages(browser, srv)
            sockets = threading.Thread(target=socket_class, args=(srv.url, srv.codes, tables, pace, stop, out), daemon=True)
            sockets.start()
            time.sleep(3.0)  # every client joined and playing
            cpu0, bytes0, dec0, text0 = sum(proc.cpu_times()[:2]), server_bytes_sent(port), out["decisions"], out["text"]
            delays = play_from_pages(pages, moves)
            cpu1, bytes1, dec1, text1 = sum(proc.cpu_times()[:2]), server_bytes_sent(port), out["decisions"], out["text"]
            stop.set()
            sockets.join(30)
            browser.close()
    finally:
        stop.set()
        terminate_tree(srv.process)
    decisions = moves + (dec1 - dec0)   # table 1's and the other tables' decisions in the window
    per_page = decisions * (4 + (1 if teacher else 0))
    return {"median": statistics.median(delays), "p90": pct(delays, 0.9), "decisions": decisions,
            "wire": (bytes1 - bytes0) / per_page, "text": (text1 - text0) / max(1, (dec1 - dec0) * 4),
            "cpu_ms": 1000 * (cpu1 - cpu0) / decisions}


def class_figures(roots: dict, rounds: int, tables: int, moves: int, pace: float, teacher: bool, work: Path) -> None:
    runs = {name: [] for name in roots}
    for r in range(rounds):
        for name, root in roots.items():  # alternating: old, new, old, new...
            runs[name].append(class_run(root, tables, moves, pace, teacher, work))
            f = runs[name][-1]
            print(f"  round {r + 1} {name}: {f['median']:.0f} / {f['p90']:.0f} ms, {f['wire']:,.0f} B wire, "
                  f"{f['text']:,.0f} B text, {f['cpu_ms']:.1f} ms CPU per decision ({f['decisions']} decisions)",
                  flush=True)
    for name, fs in runs.items():
        med = {k: statistics.median(f[k] for f in fs) for k in fs[0]}
        print(f"class of {tables} tables x 4 seats (table 1: 4 Chromium pages; {4 * (tables - 1)} websocket clients; "
              f"teacher page {'open' if teacher else 'closed'}), {name}, median of {len(fs)} rounds: "
              f"move -> other seats median {med['median']:.0f} ms, p90 {med['p90']:.0f} ms; "
              f"{med['wire']:,.0f} bytes on the wire per decision per page ({med['text']:,.0f} bytes of message text "
              f"per decision per seat page); server CPU {med['cpu_ms']:.1f} ms per decision")


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
    ap.add_argument("--moves", type=number_at_least(1), default=40)
    ap.add_argument("--sockets", type=number_at_least(1), default=40)
    ap.add_argument("--tables", type=number_at_least(1), default=10)
    ap.add_argument("--only", choices=["class"], help="run only this part")
    ap.add_argument("--pace", type=float, default=1.0, help="class: seconds between decisions of each other table")
    ap.add_argument("--rounds", type=number_at_least(1), default=1, help="class: runs per checkout (alternating)")
    ap.add_argument("--compare", type=Path, metavar="DIR", help="class: another checkout to run alternately (e.g. main)")
    ap.add_argument("--no-teacher", dest="teacher", action="store_false", help="class: without the teacher page")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        roots = {**({str(args.compare): args.compare.resolve()} if args.compare else {}), "this checkout": ROOT}
        class_figures(roots, args.rounds, args.tables, args.moves, args.pace, args.teacher, work)
        if args.only == "class":
            return 0
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
