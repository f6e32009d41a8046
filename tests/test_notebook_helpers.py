"""haunted_kit.notebook and haunted_kit.progress: what a teacher sees in a notebook."""

from __future__ import annotations

import re

import nbformat
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch
from nbclient import NotebookClient

from haunted_kit.notebook import describe_figure, figure_data, frame_html
from haunted_kit.progress import progress


def test_progress_outside_a_kernel_yields_every_item():
    assert list(progress(range(5), "games")) == [0, 1, 2, 3, 4]


def test_text_columns_are_aligned_left_and_numbers_are_not():
    frame = pd.DataFrame({"n": [1, 2], "text": ["a sentence", "another"], "x": [0.5, 1.5]}).set_index("n")
    html = frame_html(frame)  # inline styles: a notebook's stored, untrusted outputs keep them
    assert re.search(r'<td style="flex:[^"]*;text-align:left">a sentence</td>', html)
    assert re.search(r'<td style="flex:[^"]*overflow-wrap:break-word">0.5</td>', html)


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
    assert ';text-align:left">word word' in outputs[-1]["data"]["text/html"]


def bar_figure(heights, labels=("1 card", "2 cards", "3 cards"), size=(6, 3), fontsize=10):
    fig = Figure(figsize=size, dpi=100)
    ax = fig.add_subplot()
    ax.bar(list(labels), heights)
    ax.axhline(0.25, ls="--", label="equal share")
    ax.set_title("Kalena falls", fontsize=fontsize)
    ax.legend(fontsize=fontsize)
    return fig


def test_a_figure_text_names_its_size_and_what_it_plots():
    text = describe_figure(bar_figure([0.1, 0.2, 0.4]))
    assert re.fullmatch(r"<Figure size 600x300 with 1 Axes: 3 bars, 1 line; data [0-9a-f]{12}>", text), text
    assert figure_data(bar_figure([0.1, 0.2, 0.4]))[:3] == [
        "axes 'Kalena falls' x='' y=''", "ticks x ['1 card', '2 cards', '3 cards']", "legend ['equal share']"]
    assert "line equal share 0 0.25 1 0.25" in figure_data(bar_figure([0.1, 0.2, 0.4]))


def test_a_figure_text_changes_with_the_data_not_with_the_font():
    text = describe_figure(bar_figure([0.1, 0.2, 0.4]))
    assert describe_figure(bar_figure([0.1, 0.2, 0.4], fontsize=14)) == text           # another font size
    assert describe_figure(bar_figure([0.1, 0.2, 0.4000001])) == text                  # below 6 digits: float noise
    assert describe_figure(bar_figure([0.1, 0.2, 0.41])) != text                       # one bar
    assert describe_figure(bar_figure([0.1, 0.2, 0.4], labels=("a", "b", "c"))) != text  # its categories
    assert describe_figure(bar_figure([0.1, 0.2, 0.4], size=(6, 1))).startswith("<Figure size 600x100 with 1 Axes")


def test_a_figure_in_a_kernel_is_shown_as_a_png_and_its_text():
    outputs = run("import matplotlib.pyplot as plt\nfrom haunted_kit.notebook import describe_figures\n"
                  "describe_figures()\nfig, ax = plt.subplots(figsize=(6, 3))\nax.bar(['1 card', '2 cards', '3 cards'], "
                  "[0.1, 0.2, 0.4])\nax.axhline(0.25, ls='--', label='equal share')\nax.set_title('Kalena falls')\n"
                  "ax.legend()\nplt.show()")
    shown = [o["data"] for o in outputs if o.get("output_type") == "display_data"]
    assert len(shown) == 1 and "image/png" in shown[0]
    assert shown[0]["text/plain"] == describe_figure(bar_figure([0.1, 0.2, 0.4]))


def test_a_graph_figure_text_changes_with_the_highlighted_edge():
    """The Market graph: edges are arrows whose colour marks the cheapest path."""
    def graph(colour):
        fig = Figure(figsize=(6, 5), dpi=100)
        ax = fig.add_subplot()
        ax.scatter([0, 1], [0, 1], c=["#f3e7a1", "#f3e7a1"])
        ax.add_patch(FancyArrowPatch((0, 0), (1, 1), color=colour))
        ax.text(0, 0, "wood")
        return describe_figure(fig)

    assert graph("#999999") != graph("#d55e00")
    assert graph("#999999").startswith("<Figure size 600x500 with 1 Axes: 1 patch, 1 text, 1 collection; data ")
