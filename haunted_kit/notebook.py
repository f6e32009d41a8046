"""One set-up call for the teaching notebooks: ``from haunted_kit.notebook import setup; setup()``.

* pandas shows whole sentences (no ``...`` cut in text columns) and wide tables;
* in Jupyter, text columns of a DataFrame are aligned left (numbers stay right), so
  sentences read naturally; the plain-text form of a table is unchanged.
"""

from __future__ import annotations


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


def frame_html(frame) -> str | None:
    """``frame``'s usual HTML with its non-numeric columns (sentences, names, lists)
    aligned left."""
    html = frame._repr_html_()
    if html is None:
        return None
    from pandas.api.types import is_numeric_dtype  # lazy: pandas is heavy to import; only the table outputs need it

    text_cols = [j for j, dt in enumerate(frame.dtypes) if not is_numeric_dtype(dt)]  # text, lists, categories
    if not text_cols:
        return html
    children = [j + 1 + frame.index.nlevels for j in text_cols]  # body rows: index <th>s, then one <td> per column
    name = "hk-left-" + "-".join(map(str, children))            # same columns, same rules: no clash on a page
    rules = " ".join(f".{name} td:nth-child({k}) {{ text-align: left; }}" for k in children)
    return f'<div class="{name}"><style>{rules}</style>{html}</div>'
