"""A region tile's code (R01-R11, the kit's names of its own tiles: the rulebook prints none)
is never shown bare to a player or learner: every sentence naming one says it is a region tile
first ("plain cell 0,-2 on region tile R02"), and a log line says when in words, never "S1 R3"."""

from __future__ import annotations

import random
import re

import pytest

import haunted_kit as hk
from haunted_kit.haunted.cli import summary
from haunted_kit.haunted.draw.html import event_html
from haunted_kit.haunted.exercises import EXERCISES
from haunted_kit.tutorial import Tutorial
from haunted_kit.widgets.text import html_text

CODE = re.compile(r"\bR\d\d\b")
SHORT_WHEN = re.compile(r"\bS\d+ R\d+\b")


def explained(text: str) -> bool:
    """Whether every tile code in ``text`` comes after the words "region tile" (a list such as
    "region tiles R08, R03" counts for the codes it lists)."""
    first = CODE.search(text)
    return first is None or "region tile" in text[:first.start()].lower()


def bare(texts) -> list[str]:
    return [t for t in texts if not explained(t) or SHORT_WHEN.search(t)]


@pytest.mark.parametrize("seed", range(6))
def test_event_sentences_log_lines_refusals_and_the_summary_name_a_region_tile_as_one(seed):
    s = hk.new_game(players=2 + seed % 3, seed=seed)
    rng, texts = random.Random(seed), []
    while not s.is_terminal():
        legal = s.legal_actions()
        texts += [str(s.why_not(hk.Explore(c))) for c in ((3, 3), (-1, 2)) if s.why_not(hk.Explore(c))]
        s.apply_action(rng.choice(legal))
    texts += [e.text for e in s.log] + [html_text(event_html(e)) for e in s.log[-30:]] + [summary(s)]
    assert any(CODE.search(t) for t in texts)  # the tiles are named, and each time explained
    assert not bare(texts), bare(texts)[:3]
    assert f"Field: Kalena + region tiles {', '.join(s.layout)};" in summary(s)


def test_exercises_their_feedback_and_the_tutorial_explain_every_tile_code():
    texts = []
    for key in EXERCISES:
        for seed in range(1, 5):
            ex = EXERCISES.make(key, seed)
            texts += [ex.question, *ex.fact_lines(), ex.answer_text(), ex.why_text()]
            other = next((o for o in ex.options if o != ex.answer and o not in (ex.answer or ())), None)
            wrong = ({(0, 0)} if ex.kind == "cells" else other if ex.kind == "choose" else {other} if ex.kind == "pick"
                     else 0 if ex.answer != 0 else 1)
            texts += [ex.check(wrong, tries).text for tries in (0, 1)]
    t = Tutorial("haunted", seed=1, progress=False)
    for _ in range(80):
        texts += [f"{st.title} {st.text} {' '.join(st.choices)}" for st in t.steps.values()]
        if t.state.is_terminal():
            break
        t.attempt(t.state.legal_actions()[0])
    assert any(CODE.search(x) for x in texts)
    assert not bare(texts), bare(texts)[:3]
    assert explained("mountain cell 1,1 on region tile R08") and not explained("mountain cell 1,1 on R08")
