"""Progress bars for long work (many seeded games, many maps) that leave a true record.

A tqdm bar displayed in a notebook is stored in the saved file as its first frame
("0/80"), so a re-opened notebook shows every bar stalled at zero. :func:`progress`
shows the same tqdm bar while the work runs and, when it is done, replaces it in place
(an updated display) with one line such as ``4p wanderer: 80 of 80 done``; outside a
Jupyter kernel it is a plain tqdm bar that disappears when done.
"""

from __future__ import annotations


class _Done:
    """The line that replaces a finished bar (plain text only, like the bar's own text
    form, so a saved notebook and a fresh run show the same kinds of output)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython  # lazy: IPython exists only inside a notebook kernel
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress(iterable, desc: str, total: int | None = None):
    """Iterate over ``iterable`` with a progress bar labelled ``desc``.

    Args:
        iterable: the work items (seeds, configurations...).
        desc: the bar's label, e.g. ``"4p wanderer"``.
        total: the number of items when ``iterable`` has no ``len``.

    Yields the items of ``iterable`` unchanged. In a notebook, the finished bar is
    replaced by ``"<desc>: <n> of <total> done"`` (``"stopped after n"`` if the loop
    ended early), so a saved notebook never shows a bar stalled at 0.
    """
    from tqdm.auto import tqdm  # lazy: progress bars only when asked for

    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)
    if not _in_kernel():
        yield from tqdm(iterable, desc=desc, total=total, leave=False)
        return
    from IPython.display import display  # lazy: IPython exists only inside a notebook kernel
    from tqdm.notebook import tqdm as notebook_tqdm  # lazy: progress bars only when asked for

    bar = notebook_tqdm(iterable, desc=desc, total=total, display=False)
    handle = display(bar.container, display_id=True)
    n = 0
    try:
        for item in bar:
            n += 1
            yield item
    finally:
        bar.close()
        of = f" of {total}" if total is not None else ""
        done = n == total if total is not None else True
        handle.update(_Done(f"{desc}: {n}{of} done" if done else f"{desc}: stopped after {n}{of}"))
