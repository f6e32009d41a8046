"""Progress bars for long work (many seeded games, many maps) that leave a true record.

A tqdm bar displayed in a notebook is stored in the saved file as its first frame
("0/80"), so a re-opened notebook shows every bar stalled at zero. :func:`progress`
shows the same tqdm bar while the work runs and, when it is done, replaces it in place
(an updated display) with one line such as ``4p wanderer: 80 of 80 done``; outside a
Jupyter kernel it is a plain tqdm bar that disappears when done. :class:`Bar` is the
same bar counted by hand, for work finished in chunks (``simulate``'s parts, the two
boxes of ``compare`` on one bar).
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


class Bar:
    """A progress bar counted by hand (``update(n)``), for work that finishes in chunks
    (a simulation's parts): a tqdm bar while the work runs; in a notebook, once
    :meth:`close` is called, it is replaced by ``"<desc>: <n> of <total> done"``
    (``"stopped after n of total"`` when it did not reach ``total``), as :func:`progress`.
    Also a context manager that closes it."""

    def __init__(self, total: int | None, desc: str, initial: int = 0):
        from tqdm.auto import tqdm  # lazy: progress bars only when asked for

        self.desc, self.total, self.n = desc, total, initial
        self._handle = None
        if _in_kernel():
            from IPython.display import display  # lazy: IPython exists only inside a notebook kernel
            from tqdm.notebook import tqdm as notebook_tqdm  # lazy: progress bars only when asked for

            self._bar = notebook_tqdm(total=total, initial=initial, desc=desc, display=False)
            self._handle = display(self._bar.container, display_id=True)
        else:
            self._bar = tqdm(total=total, initial=initial, desc=desc, leave=False)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more items done."""
        self.n += n
        self._bar.update(n)

    def close(self) -> None:
        """End the bar (in a notebook: replace it by the line saying how far it got)."""
        if self._bar is None:
            return
        self._bar.close()
        self._bar = None
        if self._handle is not None:
            of = f" of {self.total}" if self.total is not None else ""
            done = self.n == self.total if self.total is not None else True
            self._handle.update(_Done(f"{self.desc}: {self.n}{of} done" if done
                                      else f"{self.desc}: stopped after {self.n}{of}"))

    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def progress(iterable, desc: str, total: int | None = None):
    """Iterate over ``iterable`` with a progress bar labelled ``desc``.

    Args:
        iterable: the work items (seeds, configurations...).
        desc: the bar's label, e.g. ``"4p wanderer"``.
        total: the number of items when ``iterable`` has no ``len``.

    Yields the items of ``iterable`` unchanged. In a notebook, the finished bar is
    replaced by ``"<desc>: <n> of <total> done"`` (``"stopped after n"`` if the loop
    ended early), so a saved notebook never shows a bar stalled at 0 (a :class:`Bar`).
    """
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)
    with Bar(total, desc) as bar:
        for item in iterable:
            bar.update(1)
            yield item
