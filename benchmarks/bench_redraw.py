"""Python-side cost of drawing the field widget (and the static SVG).

    .venv/bin/python benchmarks/bench_redraw.py [--repeat 200] [--size 34]

Prints the median time to redraw the whole field (every layer: terrain, pieces,
highlights; scene building, batching, serialising the commands), the number of canvas
commands and messages one full redraw sends, and the same for a pieces-only redraw.
Without a browser the messages go to a dummy comm, so the times are the Python side
only (the aim is under 20 ms per full redraw).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.haunted.draw.svg import readme_state, render_svg  # noqa: E402
from haunted_kit.widgets import CommandCounter
from haunted_kit.haunted.widgets import FieldWidget  # noqa: E402


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=number_at_least(1), default=200)
    ap.add_argument("--size", type=float, default=34)
    a = ap.parse_args(argv)

    s = readme_state(1)
    fw = FieldWidget(s, size=a.size)
    targets = {tuple(x.cell): 1 for x in s.legal_actions() if hasattr(x, "cell")}
    fw.set_highlight(targets or [(1, 0)], path=[(0, 0), (1, 0), (2, 0)])
    for _ in range(10):  # warm up
        fw.redraw()

    with CommandCounter() as full:
        fw.redraw()
    t_full = timed(fw.redraw, a.repeat)

    states = []
    for k in range(2):
        t = s.copy()
        i = next(j for j in range(len(t.ghosts)) if not t.ghosts[j])
        t.ghosts[i] = k
        states.append(t)
    flip = iter(range(1, 10**9))

    def pieces():
        fw.update(states[next(flip) % 2])

    with CommandCounter() as one:
        pieces()
    t_pieces = timed(pieces, a.repeat)
    t_svg = timed(lambda: render_svg(s), max(20, a.repeat // 4))

    def line(name, ts):
        return (f"{name:<28} median {statistics.median(ts):6.2f} ms   p90 {sorted(ts)[int(0.9 * len(ts))]:6.2f} ms"
                f"   ({len(ts)} runs)")

    print(f"field: 49 cells, size {a.size:g} px, canvas {fw.geom.width}x{fw.geom.height}, state: {s!r}")
    print(line("full redraw (all layers)", t_full))
    print(f"{'':<28} {full.commands} canvas commands in {full.messages} messages, {full.bytes} bytes of buffers")
    print(line("pieces layer only", t_pieces))
    print(f"{'':<28} {one.commands} canvas commands in {one.messages} message, {one.bytes} bytes of buffers")
    print(line("static SVG (render_svg)", t_svg))
    ok = statistics.median(t_full) < 20
    print("aim (< 20 ms per full redraw):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
