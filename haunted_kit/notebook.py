"""One set-up call for the teaching notebooks: ``from haunted_kit.notebook import setup; setup()``.

* pandas shows whole sentences (no ``...`` cut in text columns) and wide tables;
* in Jupyter, text columns of a DataFrame are aligned left (numbers stay right), so
  sentences read naturally; the plain-text form of a table is unchanged;
* a matplotlib figure's plain-text form (:func:`describe_figures`) says its pixel size
  and what it plots, with a checksum of the plotted numbers: the notebook tests (nbval)
  never compare the PNG, they compare this text, so a figure that plots other numbers
  fails them while a new font or renderer does not.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

from .frames import reflow_table


def setup(max_rows: int = 80, max_columns: int = 30) -> None:
    """Set pandas display options for the notebooks and, in IPython, left-align text
    columns of displayed DataFrames. Safe to call more than once."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    pd.set_option("display.width", 160)
    pd.set_option("display.max_columns", max_columns)
    pd.set_option("display.max_colwidth", None)
    pd.set_option("display.max_rows", max_rows)
    try:
        from IPython import get_ipython  # lazy: IPython exists only inside a notebook kernel
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, frame_html)
    describe_figures()


def describe_figures() -> None:
    """In IPython, show every matplotlib figure's plain-text form as
    :func:`describe_figure` (the PNG is unchanged; a notebook shows the PNG, the tests
    compare the text). Outside IPython it does nothing. Safe to call more than once; call
    it again after changing the inline backend's figure formats (``%config
    InlineBackend.figure_formats``), which drops the entry."""
    try:
        from IPython import get_ipython  # lazy: IPython exists only inside a notebook kernel
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    import matplotlib  # lazy: only a notebook that shows figures needs matplotlib
    import matplotlib.pyplot as plt  # lazy: as above
    from matplotlib.figure import Figure  # lazy: as above

    # Start the backend now: the inline backend, when it starts, drops every formatter's
    # Figure entry (IPython's pylabtools.select_figure_formats), so the entry goes in after.
    plt.switch_backend(matplotlib.get_backend())
    shell.display_formatter.formatters["text/plain"].for_type(Figure, lambda fig, p, cycle: p.text(describe_figure(fig)))


def describe_figure(fig) -> str:
    """One line naming what matplotlib figure ``fig`` shows, e.g.
    ``<Figure size 600x300 with 1 Axes: 4 bars, 1 line; data 3f2a9c1b77e0>``: its size in
    pixels (inches times dpi), how many Axes, bars (rectangles), lines, polygons, other patches, texts and
    collections, and the first 12 hex digits of the SHA-256 of :func:`figure_data`. Two
    figures with the same data, titles and labels give the same line whatever the font,
    the renderer or the matplotlib version's tick choice."""
    w, h = (round(float(v)) for v in fig.get_size_inches() * fig.dpi)
    rows = figure_data(fig)
    kinds = [r.split(" ", 1)[0] for r in rows]
    parts = [f"{kinds.count(k)} {k if kinds.count(k) == 1 else k + ('es' if k.endswith('h') else 's')}"
             for k in ("bar", "line", "polygon", "patch", "text", "collection", "image") if k in kinds]
    digest = hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()[:12]
    return f"<Figure size {w}x{h} with {len(fig.axes)} Axes: {', '.join(parts) or 'nothing plotted'}; data {digest}>"


def _numbers(values) -> str:
    """Numbers to 6 significant digits (masked or missing: ``nan``), space-separated."""
    arr = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).ravel()
    return " ".join(f"{v:.6g}" for v in arr)


def figure_data(fig) -> list[str]:
    """What ``fig`` plots, one row per item, each row starting with its kind: per Axes
    (``axes``) its title and axis labels, its fixed tick labels (``ticks``: categories, or
    ticks set by hand or by pandas), its legend entries (``legend``); then every ``line`` (x, y
    data), ``bar`` (a rectangle: x, y, width, height in data units), ``polygon``
    (corners), other ``patch`` (its class, edge and face colours, line width: a
    graph's arrows), ``collection`` (offsets, segments and face colours: a scatter's or
    a graph's nodes),
    ``text`` (position and words) and ``image`` (shape and sum). Numbers to 6
    significant digits. Automatic tick positions are left out: they depend on the
    matplotlib version, not on the data."""
    rows = []
    for ax in fig.axes:
        rows.append(f"axes {ax.get_title()!r} x={ax.get_xlabel()!r} y={ax.get_ylabel()!r}")
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if type(axis.get_major_locator()).__name__ in ("FixedLocator", "StrCategoryLocator"):
                rows.append(f"ticks {name} {[t.get_text() for t in axis.get_majorticklabels()]!r}")
        legend = ax.get_legend()
        if legend is not None:
            rows.append(f"legend {[t.get_text() for t in legend.get_texts()]!r}")
        for line in ax.lines:
            label = line.get_label()
            rows.append(f"line {label if not label.startswith('_') else ''} {_numbers(line.get_xydata())}")
        for patch in ax.patches:
            kind = type(patch).__name__
            if kind == "Rectangle":
                rows.append(f"bar {_numbers([patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()])}")
            elif kind == "Polygon":
                rows.append(f"polygon {_numbers(patch.get_xy())}")
            else:   # an arrow, a circle...: its colours and width (a graph's highlighted edges)
                rows.append(f"patch {kind} {_numbers(patch.get_edgecolor())} {_numbers(patch.get_facecolor())} "
                            f"{_numbers([patch.get_linewidth()])}")
        for col in ax.collections:
            segments = col.get_segments() if hasattr(col, "get_segments") else []
            rows.append(f"collection {type(col).__name__} {_numbers(col.get_offsets())} "
                        f"{' / '.join(_numbers(s) for s in segments)} colours {_numbers(col.get_facecolor())}")
        for text in ax.texts:
            x, y = text.get_position()
            rows.append(f"text {_numbers([x, y])} {text.get_text()!r}")
        for image in ax.images:
            arr = np.ma.asarray(image.get_array(), dtype=float)
            rows.append(f"image {arr.shape} {_numbers([arr.sum()])}")
    return rows


#: a header cell with an underscore in its name ("income_limestone")
_SNAKE_HEADER = re.compile(r"(<th[^>]*>)([^<]*_[^<]*)(</th>)")


def frame_html(frame) -> str | None:
    """``frame``'s usual HTML made to read on any screen, with inline styles only (a
    notebook's stored outputs keep those when JupyterLab drops their ``<style>``): its
    non-numeric columns (sentences, names, lists) aligned left, a line break allowed after
    each underscore of a header (``income_<wbr>limestone``), every row label written out
    (no cell spans rows or columns), and the table reflowing in a narrow output area
    (:func:`haunted_kit.frames.reflow_table`: a phone's 274 px, the Lab beside its file
    browser) instead of scrolling sideways, a sentence column keeping a readable width."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it
    from pandas.api.types import is_numeric_dtype  # lazy: as above

    with pd.option_context("display.multi_sparse", False):
        html = frame._repr_html_()
    if html is None:
        return None
    html = _SNAKE_HEADER.sub(lambda m: m.group(1) + m.group(2).replace("_", "_<wbr>") + m.group(3), html)
    labels = frame.index.nlevels  # body rows: the index's <th>s, then one <td> per column
    left = [j + labels for j, dt in enumerate(frame.dtypes) if not is_numeric_dtype(dt)]  # text, lists, categories
    return reflow_table(html, left)
