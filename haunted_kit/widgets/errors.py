"""Errors inside widget callbacks are shown to the person, recorded, and never swallowed.

ipywidgets runs button and canvas callbacks through a dispatcher that only logs an
exception (or prints it to a log the person rarely sees). Every callback of the
haunted_kit widgets is wrapped by :meth:`ErrorReporting.guard`: an exception is shown
in the widget's error banner (an HTML widget with the CSS class ``hk-error``, with the
traceback folded; in the classroom app, where ``HAUNTED_KIT_APP=1``, the page shows the
sentence only and the traceback goes to the teacher's log), kept in ``widget.errors`` / ``widget.last_error``, logged, and
announced to every listener registered with :func:`capture_errors`, so a test can fail
when any callback raised::

    with capture_errors() as caught:
        view.click_cell((1, 0))
    assert not caught, caught
"""

from __future__ import annotations

import contextlib
import html
import logging
import os
import traceback
from dataclasses import dataclass

import ipywidgets as W

from .text import ShownText

log = logging.getLogger("haunted_kit.widgets")

_LISTENERS: list[list] = []


@dataclass
class CallbackError:
    """One exception raised inside a widget callback."""

    widget: str  #: class name of the widget
    where: str  #: what the widget was doing
    exception: BaseException
    traceback: str

    def __str__(self) -> str:
        return f"{self.widget} ({self.where}): {type(self.exception).__name__}: {self.exception}"


@contextlib.contextmanager
def capture_errors():
    """Collect every :class:`CallbackError` raised in any haunted_kit widget callback
    while the block runs (the yielded list fills as they happen)."""
    caught: list = []
    _LISTENERS.append(caught)
    try:
        yield caught
    finally:
        _LISTENERS.remove(caught)


def _details_default() -> bool:
    """Technical details (the traceback) are shown except in the classroom app, whose
    launcher sets ``HAUNTED_KIT_APP=1``: students see a sentence, the log keeps the rest."""
    return os.environ.get("HAUNTED_KIT_APP", "0").strip() != "1"


class ErrorBanner(W.HTML):
    """A red banner that shows the last callback error (empty and hidden otherwise).
    ``details``: fold the traceback into the banner (default: yes, except in the
    classroom app)."""

    def __init__(self, details: bool | None = None, **kw):
        super().__init__(value="", **kw)
        self.details = _details_default() if details is None else details
        self.add_class("hk-error")
        self.layout.display = "none"

    def show(self, err: CallbackError) -> None:
        msg = html.escape(f"{type(err.exception).__name__}: {err.exception}")
        more = ""
        if self.details:
            more = ('<details><summary>technical details</summary>'
                    f'<pre style="white-space:pre-wrap;font-size:11px">{html.escape(err.traceback)}</pre></details>')
        else:
            msg = "The teacher's log has the details."
        self.value = ('<div style="background:#fde8e8;border:2px solid #b00020;color:#600;padding:6px 8px;'
                      'border-radius:4px;font-family:sans-serif">'
                      f"<b>Something went wrong while {html.escape(err.where)}.</b> {msg}{more}</div>")
        self.layout.display = ""

    def clear(self) -> None:
        self.value = ""
        self.layout.display = "none"


class ErrorReporting(ShownText):
    """Mixin: ``self.error_banner``, ``self.errors``, ``self.last_error``, :meth:`guard`.
    Every kit view has it; through :class:`~haunted_kit.widgets.text.ShownText` a view's
    plain-text form is the text it shows."""

    def _init_errors(self, banner: ErrorBanner | None = None) -> ErrorBanner:
        self.errors: list[CallbackError] = []
        self.last_error: CallbackError | None = None
        self.error_banner = banner or ErrorBanner()
        return self.error_banner

    def report_error(self, exc: BaseException, where: str) -> CallbackError:
        err = CallbackError(type(self).__name__, where, exc, "".join(traceback.format_exception(exc)))
        self.errors.append(err)
        self.last_error = err
        log.error("error in a haunted_kit widget callback: %s", err, exc_info=exc)
        self.error_banner.show(err)
        for listener in list(_LISTENERS):
            listener.append(err)
        return err

    def guard(self, fn, where: str):
        """``fn`` wrapped so that an exception is reported (banner, ``errors``,
        listeners, log) instead of vanishing in the ipywidgets dispatcher."""

        def guarded(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - reported, never swallowed
                self.report_error(exc, where)
                return None

        guarded.__name__ = getattr(fn, "__name__", "callback")
        guarded.__wrapped__ = fn
        return guarded
