"""A play view's message line shows whole sentences (``widgets.playview.message_html``): a
message longer than its box keeps its latest whole sentences in view and folds the earlier ones
behind "Show the N earlier sentences", never starting the box in the middle of a sentence."""

from __future__ import annotations

import re

from haunted_kit.widgets.playview import MESSAGE_LINE_CHARS, message_html, message_parts

#: the newcomer's news after a long run of bot moves (notes/s33/nc-estate-log.md): 5 sentences
LONG = ("P1: sell 1 wood for 1 gold. P2 (bot): P2 pays P1 1 gold to join the land at cell -1,2; "
        "P3 (bot): P3 visits the Market: up to 2 different actions, no workers needed; "
        "P3 (bot): P3 gives 2 wood and gets 1 marble at the Market; "
        "P2 (bot): P2 takes 2 limestone at the Factory; that makes 2 of the 2 limestone P2 may take this season.")


def test_a_message_is_cut_only_between_whole_sentences():
    assert message_parts(LONG) == [
        "P1: sell 1 wood for 1 gold.", "P2 (bot): P2 pays P1 1 gold to join the land at cell -1,2;",
        "P3 (bot): P3 visits the Market: up to 2 different actions, no workers needed;",
        "P3 (bot): P3 gives 2 wood and gets 1 marble at the Market;",
        "P2 (bot): P2 takes 2 limestone at the Factory; that makes 2 of the 2 limestone P2 may take this season."]
    assert " ".join(message_parts(LONG)) == LONG


def test_a_long_message_shows_its_latest_whole_sentences_and_folds_the_rest():
    assert len(LONG) > 3 * MESSAGE_LINE_CHARS
    html = message_html(LONG)
    # the summary takes a line; 2 lines of 90 characters hold the last two sentences (58 + 1 + 103 = 162
    # characters), not the third from the end too (77 more)
    parts = message_parts(LONG)
    assert [len(p) for p in parts[-3:]] == [77, 58, 103]
    shown = re.search(r"</details><div[^>]*>(.*?)</div>", html).group(1)
    assert shown == " ".join(parts[-2:])
    assert "Show the 3 earlier sentences</summary>" in html
    assert "column-reverse" not in html            # the box starts at its top: at a sentence's start
    folded = re.search(r"</summary><div>(.*?)</div></details>", html).group(1)
    assert folded == " ".join(parts[:3])


def test_a_short_message_shows_whole_with_nothing_folded():
    html = message_html("P1: pass for the rest of the season.", "#8a1c00")
    assert "<details" not in html and ">P1: pass for the rest of the season.</div>" in html and "#8a1c00" in html
