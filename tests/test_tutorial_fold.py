"""A newcomer's first round reads little before each decision: a step that says more than about
40 words shows the sentence that decides the move first (a decision kind's: its rule's first
sentence and how many choices are theirs, where), its choices, and folds the rest (the other
sentences, the list, the rule's section) behind a closed "More" that keeps every word
(tutorial.step_parts; the notebook's lesson panel and the seat page's)."""

from __future__ import annotations

import re
from html import escape

import pytest

from haunted_kit.games import game_names
from haunted_kit.tutorial import LEAD_WORDS, Step, Tutorial, step_parts
from haunted_kit.widgets.text import html_text
from haunted_kit.widgets.tutorial import MORE_CLASS, TutorialView

#: what the panel shows that is not read before deciding (as benchmarks/bench_tutorial_words.py)
NOT_BEFORE = re.compile(r"<div>Your choices (?:of this kind now|then): [^<]*</div>"
                        r"|<div style='color:#555'>Next in the lesson[^<]*</div>|<div class=\"hk-more\"[^>]*>[^<]*</div>")
#: about 40: the step's own words (LEAD_WORDS) and the panel's own lines (a waiting question, a ruling's summary)
ABOUT = 45


def test_a_short_step_is_whole_and_a_long_one_leads_with_its_deciding_sentence():
    short = Step("phase:x", "Short", "One sentence. Two.", "S")
    assert step_parts(short) == ("One sentence. Two.", "", False)
    rule = "Move your sensor to an adjacent cell. " + "It costs tokens by terrain, as the table says. " * 4
    kind = Step("kind:Explore", "Explore", rule + "You may now choose among 6 (lit on the board: click one there).", "S")
    lead, more, folded = step_parts(kind)
    assert folded and lead == "Move your sensor to an adjacent cell. You may now choose among 6 (lit on the board: click one there)."
    assert more == rule[len("Move your sensor to an adjacent cell. "):].strip()
    aid = Step("aid", "Aid", "Plan ahead.", "", (), "", tuple((f"Kind {i}", "what it does in a few words.") for i in range(6)))
    assert step_parts(aid) == ("Plan ahead.", "", True)  # the list goes under More


@pytest.mark.parametrize("game", game_names())
def test_round_one_shows_about_40_words_before_each_choice_and_folds_the_rest(game):
    v = TutorialView(game, seed=1, progress=False, resume=False)
    t, folded = v.tutorial, 0
    for _ in range(200):
        if t.round_done or t.state.is_terminal():
            break
        while t.current is not None:
            st, html = t.shown(), v.lesson.value
            before = html_text(NOT_BEFORE.sub(" ", html))
            assert len(before.split()) <= ABOUT, (game, st.key, before)
            lead, more, fold = step_parts(st)
            assert escape(lead) in html and escape(more) in html
            assert sorted(f"{lead} {more}".split()) == sorted(st.text.split())  # every word kept, reordered at most
            if fold:
                folded += 1
                inside = html.split(f'<details class="{MORE_CLASS}">', 1)[1]
                assert "<summary" in inside and "More</summary>" in inside
                assert all(escape(x) in inside for pair in st.lines for x in pair)
                if st.section:
                    assert escape(st.section) in inside
                if st.choices:  # the choices come before More, right after the deciding sentence
                    assert html.index("Your choices") < html.index(f'<details class="{MORE_CLASS}">')
            v.b_next.click()
        if t.asking:
            v.b_resume.click()
        assert v.view.attempt(t.state.legal_actions()[0])
    assert t.round_done and folded >= 2   # at least the player aid and one longer step


def test_the_seat_pages_step_carries_the_same_parts():
    from haunted_kit.tutorial import seat_lesson
    from haunted_kit.games import get_game
    g = get_game("landmarks")
    s = g.new_game(players=3, seed=1)
    steps = seat_lesson(g, s, 0)
    assert [st.key for st in steps][:2] == ["goal", "aid"]
    for st in steps:
        lead, more, folded = step_parts(st)
        words = len(f"{st.title} {st.text} Rule: {st.section}".split()) + sum(len(f"{a} {b}".split()) for a, b in st.lines)
        assert folded == (words > LEAD_WORDS) and sorted(f"{lead} {more}".split()) == sorted(st.text.split())
