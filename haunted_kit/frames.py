"""Tables the kit shows: a value absent by design reads as absent, never as ``NaN``.

pandas (3.x) stores a text column as its ``str`` dtype, whose missing value is ``NaN``, and
an integer column with a gap as floats (``1.0``, ``NaN``). A reader of the event log or of a
slot table then meets ``NaN`` where the kit means "no player" or "no fee". :func:`nullable`
gives such columns pandas' nullable dtypes (``string``, ``Int64``, ``boolean``), whose
missing value shows as ``<NA>`` and still answers ``isna()``; columns without a gap, and
columns of other objects (cells, dicts), are left as they are.
"""

from __future__ import annotations

__all__ = ["nullable"]


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
