"""How long every notebook takes to execute: one kernel per notebook, in file order.

    .venv/bin/python benchmarks/bench_notebooks.py            # time them (outputs not kept)
    .venv/bin/python benchmarks/bench_notebooks.py --inplace  # and store the fresh outputs

Prints seconds per notebook and the total (the issue's budget: under 90 s for all of them).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent / "notebooks"


def main(argv) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inplace", action="store_true", help="write each executed notebook back")
    inplace = ap.parse_args(argv).inplace
    total = 0.0
    for path in sorted(ROOT.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
        dt = time.perf_counter() - t0
        total += dt
        print(f"{path.name:40s} {dt:6.1f} s", flush=True)
        if inplace:
            nbformat.write(nb, path)
    print(f"{'all notebooks':40s} {total:6.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
