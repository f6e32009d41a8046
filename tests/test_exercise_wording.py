"""Exercise wording as kinds, over every exercise of every registered game and a run of
seeds: no feedback step states the answer or gives parts that add up to it before the
answer is shown; no question about an empty count; "1 token", never "1 tokens"; no word
said twice in a row and no cell named twice in one clause."""

import re

import pytest

from haunted_kit.exercises import ExerciseError, one_part
from haunted_kit.games import game_module
from ruletools import games_with_module

SEEDS = range(12)
NUM = re.compile(r"(?<![\w.,-])-?\d+(?![\w,])")


def _all():
    out = []
    for g in games_with_module("exercises"):  # a game without exercises has nothing to word
        ex = game_module(g, "exercises").EXERCISES
        out += [(g, key) for key in ex]
    return out


def _made(g, key):
    ex = game_module(g, "exercises").EXERCISES
    return [ex.make(key, seed) for seed in SEEDS]


def _wrongs(e):
    if e.kind == "number":
        lo, hi = e.bounds
        return [g for g in (e.answer + 1, e.answer - 1, e.answer + 2)
                if not ((lo is not None and g < lo) or (hi is not None and g > hi))]
    if e.kind == "choose":
        return [o for o in e.options if o != e.answer][:2]
    if e.kind == "pick":
        return [w for w in (frozenset(e.options[:1]),) if w != e.right_response()]
    return []


def _texts(e):
    """Every sentence the exercise shows on the way to its answer, and with it."""
    out = [e.question, *e.fact_lines(), e.answer_text(), e.why_text()]
    for w in _wrongs(e):
        out += [e.check(w, tries).text for tries in (0, 1, 2)]
    if e.kind == "number" and e.bounds[0] is not None:
        with pytest.raises(ExerciseError) as err:
            e.normalise(e.bounds[0] - 1)
        out.append(str(err.value))
    return out


@pytest.fixture(scope="module")
def made():
    return {(g, key): _made(g, key) for g, key in _all()}


@pytest.mark.parametrize("g,key", _all())
def test_no_feedback_step_states_or_sums_to_the_answer(made, g, key):
    """A wrong count's feedback brings no figure that is the answer, nor figures that add up
    to it: the figures it may use are the question's and facts' (and what the student said)."""
    for e in made[g, key]:
        if e.kind != "number":
            return
        known = {int(x) for x in NUM.findall(" ".join([e.question, *e.fact_lines()]))}
        for got in _wrongs(e):
            derived = known | {got} | {abs(k - got) for k in known}  # "your count means 3 stopped"
            for tries in (0, 1, 2):
                text = e.check(got, tries).text
                new = [int(x) for x in NUM.findall(text) if int(x) not in derived]
                assert e.answer not in new, (e.seed, got, text)
                assert not (len(new) > 1 and sum(new) == e.answer), (e.seed, got, text)
                assert "answer" not in text.lower(), (e.seed, got, text)


@pytest.mark.parametrize("g,key", _all())
def test_no_question_about_an_empty_count(made, g, key):
    for e in made[g, key]:
        if e.kind == "number":
            lo, hi = e.bounds
            assert hi is None or hi > lo, (e.seed, e.bounds, e.question)
        for text in _texts(e):
            assert not re.search(r"\bfrom (\d+) to \1\b", text), (e.seed, text)


#: a number after one of these words names a thing ("skill 12 costs"), it counts nothing
NAMING = {"skill", "skills", "card", "cards", "option", "quest", "round", "season", "region", "rulings", "ruling"}


def _counts(text):
    """(number, word) for each "<number> <word ending in s>" that counts the word."""
    for before, n, word in re.findall(r"(?:\b([A-Za-z]+) )?(?<![\w.,-])(\d+) ([a-z]+s)\b", text):
        if before.lower() not in NAMING:
            yield int(n), word


@pytest.fixture(scope="module")
def counted(made):
    """The words the kit counts: those written after a number other than 1 ("2 tokens")."""
    words = set()
    for exs in made.values():
        for e in exs:
            for text in _texts(e):
                words |= {w for n, w in _counts(text) if n != 1}
    return words - {"is", "has", "was", "does"}


@pytest.mark.parametrize("g,key", _all())
def test_plurals_and_repeated_words(made, counted, g, key):
    assert {"tokens", "buildings"} & counted  # the counted words are found at all
    for e in made[g, key]:
        for text in _texts(e):
            for n, w in _counts(text):
                assert n != 1 or w not in counted, (e.seed, f"1 {w}", text)
            twice = re.search(r"\b([A-Za-z]+) \1\b", text, re.I)
            assert not twice, (e.seed, twice.group(0), text)
            again = re.search(r"(cells? -?\d+,-?\d+)\W+(?:is|are)\b[^.;:]*?\1(?![\d,])", text)
            assert not again, (e.seed, again.group(0), text)


def test_one_part_names_one_part_never_their_sum():
    parts = [("income 4", 4), ("3 were taken", -3), ("the extra unit is yours", 1), ("a worker is free", 0)]
    assert one_part(parts, 0, 2) == "One part to check: income 4."
    assert one_part(parts, 3, 2) == "One part to check: 3 were taken."
    assert one_part([("a worker is free", 0), ("income 2", 2)], 3, 2) == "One part to check: a worker is free."
    assert one_part([("income 2", 2)], 3, 2) == ""


#: a sentence begun with a small letter (after ". "), or broken punctuation: a full stop
#: inside brackets that a clause goes on from ("nothing).) is"), a doubled mark
_SMALL_START = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?] +[a-z]")
_BROKEN = re.compile(r"[.!?]\)\.|[.!?]\)\s+[a-z]|\.\.(?!\.)|,,|;;|[,;:]\.|\.,|\s[.,;:](?!\d)")


def _feedback(e):
    """Every verdict a student can be shown: the wrong answers' steps, the right answer."""
    out = [e.check(w, tries).text for w in _wrongs(e) for tries in (0, 1)]
    return out + [e.check(e.right_response()).text]


@pytest.mark.parametrize("g,key", _all())
def test_feedback_is_in_sentence_case_and_well_punctuated(made, g, key):
    for e in made[g, key]:
        for text in _feedback(e) + [e.question, *e.fact_lines()]:
            small = _SMALL_START.search(text)
            assert not small, (e.seed, small.group(0), text)
            broken = _BROKEN.search(text)
            assert not broken, (e.seed, broken.group(0), text)


#: a nudge that says by how much a part changes the count gives that part away
_AMOUNT = re.compile(r"\b(one|two|\d+) (less|more|fewer|extra)\b|(?<!\w)[+-]\d", re.I)


@pytest.mark.parametrize("g,key", _all())
def test_the_first_hint_nudges_without_the_parts_or_the_rule(made, g, key):
    """The first hint says where to look (and the rules section), never every part of a count
    with what each adds, nor the rule so stated that the answer follows at once: no amounts,
    at most two things listed, and no sentence of the rule applied (the second step)."""
    for e in made[g, key]:
        nudge = e.nudge
        assert not _AMOUNT.search(nudge), (e.seed, nudge)
        if e.kind == "number":  # the parts of a count: two things to look at at most
            listed = len(re.findall(r"[,;]|\bthen\b", nudge))
            assert listed <= 2, (e.seed, listed, nudge)
        rule = e.rule if isinstance(e.rule, str) else ""
        for clause in re.split(r"[.;:]\s+", rule):
            assert len(clause) < 25 or clause not in nudge, (e.seed, clause, nudge)


@pytest.mark.parametrize("g,key", _all())
def test_no_text_points_at_a_panel_that_is_not_shown(made, g, key):
    """An exercise speaks of "the panel" only when its widget shows one (a board whose class is a
    panel); the facts are otherwise "listed under" the question, in words."""
    make = getattr(game_module(g, "widgets"), "exercise_view", None)
    if make is None:
        return
    w = make(key, made[g, key][0].seed)
    has_panel = w.board is not None and "panel" in type(w.board).__name__.lower()
    for e in made[g, key]:
        for text in [*_texts(e)]:
            assert has_panel or "panel" not in text.lower(), (e.seed, text)
