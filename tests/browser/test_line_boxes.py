"""The play views' fixed-height line boxes (``widgets.playview.in_lines``) in Chromium: whole
lines at LINE_PX each; a message longer than its box shows its end (the last event whole)
with the earlier words scrolled up, and a short one sits at the top."""

from __future__ import annotations

import pytest

from haunted_kit.widgets.playview import LINE_PX, in_lines

pytestmark = pytest.mark.browser

MEASURE = """id => { const b = document.getElementById(id).firstElementChild, w = b.firstElementChild;
  const r = b.getBoundingClientRect(), q = w.getBoundingClientRect();
  return {top: q.top - r.top, bottom: r.bottom - q.bottom, scroll: b.scrollHeight, client: b.clientHeight}; }"""


def test_a_long_message_shows_its_last_event_whole_and_a_short_one_its_top(page):
    events = "; ".join(f"P2 (bot): P2 takes {k} wood at the Raw Materials Factory" for k in range(1, 9))
    long = f"<div>{events}; Season 1 ends: every player has passed.</div>"
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(f'<div id="long" style="width:360px;font:14px sans-serif">{in_lines(long, 3, "message", latest=True)}</div>'
                     f'<div id="short" style="width:360px;font:14px sans-serif">'
                     f'{in_lines("<div>P1: pass.</div>", 3, "message", latest=True)}</div>')
    got = page.evaluate(MEASURE, "long")
    assert got["client"] == 3 * LINE_PX and got["scroll"] > got["client"]        # it scrolls: more words above
    assert abs(got["bottom"]) <= 1                                                 # the words' end at the box's end
    last = page.evaluate("""() => { const b = document.getElementById('long').firstElementChild;
        const range = document.createRange(), t = b.firstElementChild.firstElementChild.firstChild;
        range.setStart(t, t.length - 10); range.setEnd(t, t.length);
        const q = range.getBoundingClientRect(), r = b.getBoundingClientRect();
        return q.top >= r.top && q.bottom <= r.bottom + 1; }""")
    assert last, "the last event is not inside the box's visible part"
    short = page.evaluate(MEASURE, "short")
    assert abs(short["top"]) <= 1 and short["scroll"] == short["client"]            # at the top, nothing hidden
