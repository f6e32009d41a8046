"""tests/nbval_sanitize.cfg replaces only the noise it names, never a figure of a notebook;
and a wrong number in a stored output fails nbval, a wrong figure too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from matplotlib.figure import Figure
from nbval.plugin import get_sanitize_patterns

from haunted_kit.notebook import describe_figure

ROOT = Path(__file__).resolve().parent.parent
CFG = ROOT / "tests" / "nbval_sanitize.cfg"
SECTIONS = re.findall(r"^\[([\w-]+)\]\nregex: (.*)\nreplace: (.*)$", CFG.read_text(encoding="utf-8"), re.M)
PATTERNS = {name: (regex, replace) for name, regex, replace in SECTIONS}


def sanitize(text: str) -> str:
    """What nbval does with the file: every pattern in order, re.sub without flags."""
    for regex, replace in get_sanitize_patterns(CFG.read_text(encoding="utf-8")):
        text = re.sub(regex, replace, text)
    return text


def test_nbval_reads_every_section_of_the_file():
    assert [r for r, _ in get_sanitize_patterns(CFG.read_text(encoding="utf-8"))] == [r for _, r, _ in SECTIONS]
    assert len(SECTIONS) == CFG.read_text(encoding="utf-8").count("\n[") == 11


#: ipywidgets' text/plain for a widget whose repr is long: the repr cut at 110 characters, and "…"
CUT_REPR = ("Dropdown(description='algorithm', options=('Dijkstra', 'A*'), value='Dijkstra', "
            "layout=Layout(width='300px'), style=DescriptionStyle(description_width=''))")[:110] + "…"

# name: (noise it must replace -> what it reads as, real text it must leave alone)
CASES = {
    "ipywidgets-model-id": (
        [('{"model_id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0"}', '{"model_id": "<MODEL_ID>"}')],
        ['"model_id": "deadbeef"', '"seed": "12345678901"']),
    "ipywidgets-model-id-repr": (
        [("Output(model_id='0f1e2d3c4b5a69788796a5b4c3d2e1f0')", "Output(model_id='<MODEL_ID>')")],
        ["model_id='abc'"]),
    "uuid": (
        [("game 123e4567-e89b-12d3-a456-426614174000 saved", "game <UUID> saved")],
        ["seeds 12345678-1234", "x123e4567-e89b-12d3-a456-426614174000y"]),
    "memory-address": (
        [("<function f at 0x7f3a2b1c9d50>", "<function f at 0xADDRESS>"),
         ("<object at 0x55d0c0ffee00>", "<object at 0xADDRESS>")],
        ["640x380", "<Figure size 640x480 with 1 Axes>", "1100x380", "size 0x10", "ax0x7f3a2b1c9d50"]),
    "timing-seconds": (
        [("took 12.5 ms", "took <TIME>"), ("3 µs per step", "<TIME> per step"), ("in 0.25 s", "in <TIME>"),
         ("wall 1.5s", "wall <TIME>"), ("900 ns", "<TIME>")],
        ["valor 25", "25", "2.5 seasons", "v1.25 s", "3 us", "80 games", "1.5 spaces", "0.25 share",
         "P1 scored 12 in 3 rounds"]),
    "tqdm-rate": (
        [("[00:01<00:00, 52.30it/s]", "[<TQDM>]"), ("[00:00<?, ?it/s]", "[<TQDM>]"), ("[01:02<00:03]", "[<TQDM>]")],
        ["[12:30<15:00 is not a bar", "[1, 2, 3]", "[00:01<00:00, 52 cells]"]),
    "iso-datetime": (
        [("saved 2026-11-30T17:16:59.892112Z", "saved <DATETIME>"), ("at 2026-11-30 17:16:59", "at <DATETIME>")],
        ["2026-11-30", "17:16:59", "seed 20261130171659"]),
    "tmp-path": (
        [("wrote /tmp/pytest-of-x/test_a0/game.json", "wrote <TMPPATH>"),
         ("(/tmp/tmpab12_c/save.json), 25 valor", "(<TMPPATH>), 25 valor"),
         ("/tmp/x.csv: 3 rows", "<TMPPATH>: 3 rows")],
        ["data/tmp/box.json", "/var/tmp/x", "~/tmp/a", "3 /tmp", "a/tmp/b"]),
    "ipywidgets-text-repr": (
        [(CUT_REPR, "Dropdown(<WIDGET>)")],
        ["Score(value=25)", "IntSlider(value=7, description='seed')", "PlayView: Season 1, round 1, spread | P1 to move",
         "Counter(value=3)…", CUT_REPR[:-1], "x" + CUT_REPR]),
    "progress-bar": (
        [("4p wanderer:   0%|          | 0/80 [<TQDM>]", "4p wanderer: <PROGRESS> of 80"),
         ("configurations: 100%|##########| 9/9", "configurations: <PROGRESS> of 9")],
        ["4p wanderer: 25%", "valor: 12|13|14", "winner: P1 | 25 valor"]),
    "progress-done": (
        [("4p wanderer: 80 of 80 done", "4p wanderer: <PROGRESS> of 80"),
         ("logged 4p wanderer: 7 of 7 done", "logged 4p wanderer: <PROGRESS> of 7")],
        ["4p wanderer: stopped after 3 of 80", "P1: 3 of 4 quests done, 25 valor", "2 of 3 done\nP2: 1 of 3 done"]),
}


def test_every_sanitizer_has_cases():
    assert set(CASES) == set(PATTERNS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_sanitizer_replaces_its_noise_and_leaves_real_figures(name):
    regex, replace = PATTERNS[name]
    must, keep = CASES[name]
    for text, expected in must:
        assert re.sub(regex, replace, text) == expected, (name, text)
    for text in keep:
        assert re.sub(regex, replace, text) == text, (name, text)


def test_the_whole_file_keeps_the_figures_of_a_notebook():
    """All the patterns in nbval's order: sizes, counts and totals survive."""
    for text in ["<Figure size 640x480 with 1 Axes>", "<Figure size 1100x380 with 2 Axes: 12 lines; data 3f2a9c1b77e0>",
                 "valor 25", "Season 1, round 3: 4 of 9 cells within 4"]:
        assert sanitize(text) == text
    # the two forms of one progress bar read the same, the total is still there
    assert sanitize("4p wanderer:   0%|          | 0/80 [00:00<?, ?it/s]") == sanitize("4p wanderer: 80 of 80 done") \
        == "4p wanderer: <PROGRESS> of 80"
    assert sanitize("4p wanderer: 80 of 80 done") != sanitize("4p wanderer: 40 of 40 done")
    assert sanitize("a 640x380 figure") != sanitize("a 640x100 figure")


# ----------------------------------------------------------------------------- end to end

FIGURE = ("import matplotlib.pyplot as plt\nfrom haunted_kit.notebook import describe_figures\ndescribe_figures()\n"
          "fig, ax = plt.subplots(figsize=(6.4, 3.8))\nax.bar([0, 1, 2], [3, 5, 4])\nax.set_title('valor')\nplt.show()")


def stored_notebook(valor: str, figure_text: str) -> nbformat.NotebookNode:
    """Three cells whose stored outputs are what they print: a number, a figure's text
    (the PNG, never compared, left out) and a progress line."""
    out = nbformat.v4.new_output
    cells = [
        nbformat.v4.new_code_cell("print('valor', 20 + 5)", outputs=[out("stream", name="stdout", text=f"valor {valor}\n")]),
        nbformat.v4.new_code_cell(FIGURE, outputs=[out("display_data", data={"text/plain": figure_text})]),
        nbformat.v4.new_code_cell("print(f'{640}x{380}')", outputs=[out("stream", name="stdout", text="640x380\n")]),
    ]
    for k, cell in enumerate(cells, 1):
        cell.execution_count = k                           # nbval refuses an unrun cell with outputs
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def test_a_wrong_number_or_figure_in_a_stored_output_fails_nbval(tmp_path):
    def figure(heights):
        fig = Figure(figsize=(6.4, 3.8), dpi=100)           # the kernel's inline backend: 100 dpi
        ax = fig.add_subplot()
        ax.bar([0, 1, 2], heights)
        ax.set_title("valor")
        return describe_figure(fig)

    right, other_bar = figure([3, 5, 4]), figure([3, 6, 4])   # one bar one higher
    assert right.startswith("<Figure size 640x380 with 1 Axes: 3 bars; data ") and other_bar != right
    notebooks = {
        "right": stored_notebook("25", right),
        "wrong_valor": stored_notebook("26", right),
        "wrong_size": stored_notebook("25", right.replace("640x380", "640x100")),
        "wrong_bar": stored_notebook("25", other_bar),
    }
    for name, nb in notebooks.items():
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-sanitize-with", str(CFG), "-v",
                           "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    results = {f"{name}.ipynb::Cell {k}": outcome      # pytest -v names them "right::ipynb::Cell 0"
               for name, k, outcome in re.findall(r"(\w+)(?:\.|::)ipynb::Cell (\d) (PASSED|FAILED)", proc.stdout)}
    assert results == {
        "right.ipynb::Cell 0": "PASSED", "right.ipynb::Cell 1": "PASSED", "right.ipynb::Cell 2": "PASSED",
        "wrong_valor.ipynb::Cell 0": "FAILED", "wrong_valor.ipynb::Cell 1": "PASSED", "wrong_valor.ipynb::Cell 2": "PASSED",
        "wrong_size.ipynb::Cell 0": "PASSED", "wrong_size.ipynb::Cell 1": "FAILED", "wrong_size.ipynb::Cell 2": "PASSED",
        "wrong_bar.ipynb::Cell 0": "PASSED", "wrong_bar.ipynb::Cell 1": "FAILED", "wrong_bar.ipynb::Cell 2": "PASSED",
    }, proc.stdout[-3000:] + proc.stderr[-2000:]
