"""haunted_kit.notebook and haunted_kit.progress: what a teacher sees in a notebook."""

from __future__ import annotations

import nbformat
import pandas as pd
from nbclient import NotebookClient

from haunted_kit.notebook import frame_html
from haunted_kit.progress import progress


def test_progress_outside_a_kernel_yields_every_item():
    assert list(progress(range(5), "games")) == [0, 1, 2, 3, 4]


def test_text_columns_are_aligned_left_and_numbers_are_not():
    frame = pd.DataFrame({"n": [1, 2], "text": ["a sentence", "another"], "x": [0.5, 1.5]}).set_index("n")
    html = frame_html(frame)
    assert '<div class="hk-left-2">' in html and ".hk-left-2 td:nth-child(2) { text-align: left; }" in html
    assert frame_html(pd.DataFrame({"a": [1]})) == pd.DataFrame({"a": [1]})._repr_html_()


def run(source: str) -> list:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    return nb.cells[0].outputs


def test_a_finished_bar_is_stored_as_done_not_stalled_at_zero():
    outputs = run("from haunted_kit.progress import progress\nfor _ in progress(range(7), '4p wanderer'):\n    pass")
    texts = [o["data"]["text/plain"] for o in outputs if o.get("output_type") == "display_data"]
    assert texts == ["4p wanderer: 7 of 7 done"]


def test_setup_shows_whole_sentences():
    outputs = run("import pandas as pd\nfrom haunted_kit.notebook import setup\nsetup()\n"
                  "pd.DataFrame({'text': ['word ' * 40]})")
    assert "word " * 39 in outputs[-1]["data"]["text/plain"] and "..." not in outputs[-1]["data"]["text/plain"]
    assert "hk-left-2" in outputs[-1]["data"]["text/html"]
