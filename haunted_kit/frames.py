"""Tables the kit shows: a value absent by design reads as absent, never as ``NaN``; and a
table's HTML that reflows on a phone instead of scrolling sideways (:func:`reflow_table`).

pandas (3.x) stores a text column as its ``str`` dtype, whose missing value is ``NaN``, and
an integer column with a gap as floats (``1.0``, ``NaN``). A reader of the event log or of a
slot table then meets ``NaN`` where the kit means "no player" or "no fee". :func:`nullable`
gives such columns pandas' nullable dtypes (``string``, ``Int64``, ``boolean``), whose
missing value shows as ``<NA>`` and still answers ``isna()``; columns without a gap, and
columns of other objects (cells, dicts), are left as they are.
"""

from __future__ import annotations

import html as html_lib
import re

__all__ = ["nullable", "reflow_table"]


def nullable(df):
    """``df`` with each column that has a missing value and otherwise holds only text,
    whole numbers or truth values in pandas' nullable dtype (``string``, ``Int64``,
    ``boolean``); returns the same frame (changed in place) for chaining.

    Args:
        df: a :class:`pandas.DataFrame`.
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    for col in df.columns:
        s = df[col]
        missing = s.isna()
        if not missing.any():
            continue
        present = s[~missing]
        if present.empty:  # nothing to type it by (a column no row fills): left as it is
            continue
        if all(isinstance(v, str) for v in present):
            df[col] = s.astype("string")
        elif all(isinstance(v, bool) for v in present):
            df[col] = s.astype("boolean")
        elif all(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() for v in present):
            df[col] = pd.array([None if m else int(v) for v, m in zip(s, missing)], dtype="Int64")
    return df


# ------------------------------------------------------------------ tables that reflow on a phone

#: one character of a table's 12-13 px sans-serif text, in em (a column's width is worked out from
#: its longest words); and the least width of a sentence column before it wraps its words
CHAR_EM = 0.6
SENTENCE_CHARS = 24

_TABLE = re.compile(r"<table\b[^>]*>.*?</table>", re.S)
_ROW = re.compile(r"<tr\b([^>]*)>(.*?)</tr>", re.S)
_CELL = re.compile(r"<(th|td)\b([^>]*)>(.*?)</\1>", re.S)
_GROUP = re.compile(r"<(table|thead|tbody)\b([^>]*)>")
_TAG = re.compile(r"<[^>]*>")


def _styled(attrs: str, style: str) -> str:
    """A start tag's attributes with ``style`` put first in its ``style`` attribute."""
    m = re.search(r'\sstyle="([^"]*)"', attrs)
    if m is None:
        return f'{attrs} style="{style}"'
    return attrs[:m.start()] + f' style="{style};{m.group(1)}"' + attrs[m.end():]


def _words(cell: str) -> tuple[int, int]:
    """``(length, longest word)`` of a cell's visible text, in characters."""
    text = html_lib.unescape(_TAG.sub(" ", cell.replace("<wbr>", ""))).strip()
    return len(text), max((len(w) for w in text.replace("_", "_ ").split()), default=0)


def column_widths(rows: list[list[str]], header_rows: int) -> list[tuple[float, bool]]:
    """Per column of a table (``rows`` of cells' inner HTML, the first ``header_rows`` the
    header): ``(basis in em, grows)``. A column whose body text is at most
    :data:`SENTENCE_CHARS` long is as wide as its longest text (and its header's longest
    word) and never grows; a longer one (a sentence) starts :data:`SENTENCE_CHARS` wide and
    takes the room left on its line, wrapping its words."""
    out = []
    for j in range(len(rows[0])):
        body = [_words(r[j]) for r in rows[header_rows:]] or [(0, 0)]
        head_word = max((_words(r[j])[1] for r in rows[:header_rows]), default=0)
        longest = max(n for n, _w in body)
        sentence = longest > SENTENCE_CHARS
        chars = max(SENTENCE_CHARS if sentence else longest, head_word)
        out.append((round(chars * CHAR_EM + 0.2, 1), sentence))
    return out


def reflow_table(html: str, left=()) -> str:
    """The first ``<table>`` of ``html`` made to reflow in a narrow output area (a phone's
    274 px, a laptop's Lab beside its file browser) instead of scrolling sideways, with
    inline styles only (JupyterLab keeps those in a notebook's stored, untrusted outputs, and
    drops ``<style>``): each row is a wrapping flex line whose cells keep their column's
    width (:func:`column_widths`), so rows wrap at the same places as the header and a
    sentence column, on a line of its own if need be, reads whole lines; where everything
    fits, it is an ordinary table. ``left``: the positions of columns aligned left (text).
    A table with spanning cells or rows of unequal length is returned as it is."""
    found = _TABLE.search(html)
    if found is None or re.search(r"\s(colspan|rowspan)=", found.group(0)):
        return html
    table = found.group(0)
    rows = [[m.group(3) for m in _CELL.finditer(r.group(2))] for r in _ROW.finditer(table)]
    if not rows or len({len(r) for r in rows}) != 1 or not rows[0]:
        return html
    head = table.find("</thead>")
    header_rows = len(_ROW.findall(table[:head])) if head >= 0 else 0
    widths = column_widths(rows, header_rows)
    left = set(left)

    def cell(j: int, m) -> str:
        basis, grows = widths[j]
        style = f"flex:{int(grows)} {int(grows)} {basis}em;min-width:0;overflow-wrap:break-word"
        if j in left:
            style += ";text-align:left"
        return f"<{m.group(1)}{_styled(m.group(2), style)}>{m.group(3)}</{m.group(1)}>"

    def row(m) -> str:
        cells = [cell(j, c) for j, c in enumerate(_CELL.finditer(m.group(2)))]
        return f"<tr{_styled(m.group(1), 'display:flex;flex-wrap:wrap;align-items:flex-start')}>{''.join(cells)}</tr>"

    out = _GROUP.sub(lambda g: f"<{g.group(1)}{_styled(g.group(2), 'display:block')}>", _ROW.sub(row, table))
    return html[:found.start()] + out + html[found.end():]
