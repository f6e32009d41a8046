"""The play views' fixed-height message line (``widgets.playview.message_html``) in Chromium:
whole lines at LINE_PX each; a message longer than its box starts at the start of a sentence,
its latest whole sentences in view and the earlier ones behind "Show the N earlier sentences"
(opened from the keyboard); a short one sits at the top with nothing hidden."""

from __future__ import annotations

import pytest

from haunted_kit.widgets.playview import LINE_PX, message_html, message_parts

pytestmark = pytest.mark.browser

MEASURE = """id => { const b = document.getElementById(id).firstElementChild;
  return {scrollTop: b.scrollTop, scroll: b.scrollHeight, client: b.clientHeight,
          first: b.innerText.split('\\n')[0]}; }"""


def test_a_long_message_starts_at_a_sentence_and_folds_the_earlier_ones(page):
    events = "; ".join(f"P2 (bot): P2 takes {k} wood at the Raw Materials Factory" for k in range(1, 9))
    long = f"{events}; Season 1 ends: every player has passed."
    page.set_viewport_size({"width": 1280, "height": 800})
    page.set_content(f'<div id="long" style="width:900px;font:14px sans-serif">{message_html(long)}</div>'
                     f'<div id="short" style="width:900px;font:14px sans-serif">{message_html("P1: pass.")}</div>')
    got = page.evaluate(MEASURE, "long")
    assert got["client"] == 3 * LINE_PX and got["scrollTop"] == 0
    # 9 sentences: 8 of 55 characters and the last of 39; two lines of 90 hold the last three (39 + 2 x 56)
    assert [len(p) for p in message_parts(long)] == [55] * 8 + [39]
    assert got["first"] == "Show the 6 earlier sentences"
    visible = page.locator("#long").inner_text()
    assert visible.split("\n")[1].startswith("P2 (bot): P2 takes 7 wood")   # the latest three, from their start
    assert " ".join(visible.split("\n")[1:]).strip() == " ".join(message_parts(long)[-3:])
    assert got["scroll"] == got["client"]                                   # nothing more hidden below
    page.locator("#long summary").focus()
    page.keyboard.press("Enter")
    assert page.locator("#long details").get_attribute("open") == ""
    assert message_parts(long)[0] in page.locator("#long details").inner_text()
    short = page.evaluate(MEASURE, "short")
    assert short["first"] == "P1: pass." and short["scroll"] == short["client"]
