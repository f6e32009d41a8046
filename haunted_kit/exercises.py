"""Exercises that answer back, for any game of the kit: the record, the checking and the
stepped feedback, the attempt counting, another seed and never a finished game. Each game
keeps its own exercise builders (``haunted/exercises.py``, ``estate/exercises.py``,
``landmarks/exercises.py``) and registers them in an :class:`ExerciseSet`.

    from haunted_kit.estate.exercises import EXERCISES
    ex = EXERCISES.make("08-take-limit", seed=1)     # a seeded position of a game in progress
    ex.facts, ex.question, ex.kind, ex.options         # every fact the answer depends on, the question
    ex.check(3)                                        # Feedback: stage "nudge" on a first wrong try
    ex.check(3, tries=1)                               # stage "rule": the rule applied to this position
    ex.check(3, attempt=2)                             # the same, counting the tries from 1
    ex.answer_text()                                   # the answer, on request
    ex.regenerate()                                    # the same exercise on another seed

Every answer is worked out by the engine when the exercise is made (legal actions,
``why_not`` refusals, events of an action applied to a copy, scores). A wrong answer first
gets a **nudge** naming the rule's section; from the second wrong answer the **rule applied**
to this position (the engine's own words: refusal reasons, event sentences); the answer
only on request. Kinds of answer (:attr:`Exercise.kind`): ``"choose"`` (one of
:attr:`Exercise.options`), ``"pick"`` (a set of them, all that apply), ``"number"`` (a
whole number), ``"cells"`` (a set of board cells).

A ``"cells"`` answer (a set of board cells, clicked on the board) is a kind too;
:func:`how_off` says which way an answer is off without giving it, for a game whose nudges
speak about the answer given (Haunted Lands' :mod:`haunted_kit.haunted.exercises`
subclasses :class:`Exercise` for its own words, named facts and board).

No exercise is about a finished game: a builder whose seeded game ends before the
question's position raises :class:`NoPosition` and :meth:`ExerciseSet.make` tries the
next seed (:data:`MAX_SKIPS` at most). The widget is
:class:`haunted_kit.widgets.exercise.ExerciseWidget`.

Teacher copies of the
notebooks, for every game (``haunted-kit teacher``): :func:`write_teacher_copies` puts
each exercise's note (the answer, the rule, the common mistake) under its cell, the notes
coming from each game's exercises module (``EXERCISES`` and ``exercise_note(key, seed)``,
gathered by :func:`exercise_notes`), into :data:`TEACHER_DIR`. """

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .bots import seat_bots
from .events import cite_rulings, shown_text  # noqa: F401  (cite_rulings re-exported: the exercises' citing of kit rulings)
from .fileio import atomic_write
from .protocol import check_seed, is_integer, sample_chance
from .render.style import cell_name, name_cells

KINDS = ("choose", "pick", "number", "cells")
#: the explicit choice a ``pick`` exercise always offers (last): ticking it answers "no option
#: applies" (the empty set); ticking nothing is no answer at all
NONE_OF_THEM = "none of them"
#: a wrong try from which the rule applied is shown (the first wrong try gets the nudge)
RULE_AFTER = 1
#: what a wrong set answer is told (:func:`how_off`): neither how many are wrong or missing
#: nor which way it is off
SET_OFF = {"pick": "That is not the right set of choices.", "cells": "Those are not the right cells."}
#: said with the rule applied to a wrong set answer, whatever was left out (so it tells
#: nothing about the options not ticked)
UNTICKED = "Check each option you did not tick against the same rule."
#: a position whose answer is its exercise's common one (:class:`ExerciseSet` ``common``) is
#: kept on one seed in this many
COMMON_KEEP = 3
#: how many seeds :meth:`ExerciseSet.make` tries past the one asked for before giving up
MAX_SKIPS = 200


#: a small letter that starts a sentence: after a full stop, "!" or "?" and a space
_LOWER_START = re.compile(r"(?<![A-Za-z]\.[a-z])(?<!\be\.g)(?<!\bi\.e)([.!?] +)([a-z])")


def sentence_case(text: str) -> str:
    """``text`` with every sentence begun with a capital (``"mill: not legal. a mill stands"``
    -> ``"... Not legal. A mill stands"``: an engine's refusal reason, written to follow a
    colon, put after a full stop). "e.g." and "i.e." are no sentence ends."""
    return _LOWER_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 building"``, ``"2 buildings"``: ``n`` and ``word`` made plural unless ``n`` is 1
    (``many``: the plural when it is not ``word + "s"``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def one_part(parts, got: int, answer: int) -> str:
    """The second hint of a count, made of ``parts`` (``(sentence, what it adds)`` pairs): one
    part only, never all of them (their sum would be the answer). Below the answer it names
    the part adding the most (what a low count most likely left out); above it, the part
    taking the most away, else one adding nothing (what a high count most likely counted).
    ``""`` when no part fits."""
    parts = list(parts)
    if got < answer:
        pick = [p for p in parts if p[1] > 0]
        pick.sort(key=lambda p: -p[1])
    else:
        pick = sorted((p for p in parts if p[1] < 0), key=lambda p: p[1]) + [p for p in parts if p[1] == 0]
    return f"One part to check: {pick[0][0].rstrip('.')}." if pick else ""


#: ``text`` as an exercise shows it (:func:`haunted_kit.events.shown_text`: cells as the boards
#: write them, kit rulings cited as the kit's)
shown = shown_text


class ExerciseError(ValueError):
    """An unknown exercise key, a bad seed or an answer that cannot be read (the message says which)."""


class NoPosition(Exception):
    """Raised by a builder when its seeded game ends (won or lost) before the question's
    position: :meth:`ExerciseSet.make` then tries the next seed."""


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    Attributes:
        correct: whether the answer is right.
        stage: ``"right"``, ``"nudge"`` (a first wrong try: a pointer to the rule's section)
            or ``"rule"`` (a later wrong try: the rule applied to this position).
        text: the words to show for that stage.
        section: the rules section the question is about.
    """

    correct: bool
    stage: str
    text: str
    section: str

    @property
    def step(self) -> str:
        """The same as :attr:`stage` (the name Haunted Lands' exercises use)."""
        return self.stage


@dataclass
class Exercise:
    """One seeded question about a game in progress, with its answer and feedback.

    Attributes:
        key: the exercise's key in its :class:`ExerciseSet`.
        seed: the seed of the position.
        title: a short title.
        facts: every fact the answer depends on, one sentence each (shown above the question);
            a subclass may hold named facts and write them out in :meth:`fact_lines`.
        question: the question, in words.
        kind: ``"choose"``, ``"pick"``, ``"number"`` or ``"cells"``.
        answer: the right answer (a label, a frozenset of labels or cells, an int), from the engine.
        section: the rules section (named in the nudge).
        nudge: what to look at, shown on a first wrong try.
        rule: the rule applied to this position (the engine's words), shown from the second wrong try.
        mistake: the common mistake (for a teacher).
        options: the labels to choose from (``choose``/``pick``), else ``()``.
        explain: ``explain(answer) -> str``: what the engine says about a given wrong answer
            (a refusal, the events); shown with the rule.
        answer_note: why the answer is right (shown with it).
        state: the position the question is about; ``player``: whom it is about (0-based);
            ``about``: what it is about (an action, a material, a tile), for tests and teachers.
        remake: ``remake(seed) -> Exercise`` (set by :class:`ExerciseSet`).
        highlight: ``{cell: mark}`` drawn on the board of the position (``"?"`` on the cell
            a question names), else ``{}``.
        solve: ``solve(position) -> answer``, the engine's computation of the answer, or ``None``.
        bounds: ``(low, high)``: the sensible range of a ``number`` answer (``high`` ``None``:
            no upper bound); a number outside it is refused with a message, not counted as a try.
        describe: ``describe(facts) -> list[str]``: the sentences that show named ``facts`` (a
            dict, the names of the game's ``FACTS``), so the text shown is made from the very
            facts the game's ``rebuild(facts)`` uses; ``None``: ``facts`` are the sentences.

    A ``pick`` exercise always offers :data:`NONE_OF_THEM` as its last option (added here):
    ticking it alone answers the empty set; ticking nothing is not an answer.
    """

    key: str
    seed: int
    title: str
    facts: tuple[str, ...]
    question: str
    kind: str
    answer: Any
    section: str
    nudge: str
    rule: str
    mistake: str = ""
    options: tuple[str, ...] = ()
    explain: Callable[[Any], str] | None = field(default=None, repr=False)
    answer_note: str = ""
    state: Any = field(default=None, repr=False)
    player: int | None = None
    about: Any = None
    remake: Callable[[int], "Exercise"] | None = field(default=None, repr=False, compare=False)
    highlight: dict = field(default_factory=dict)
    solve: Callable[[Any], Any] | None = field(default=None, repr=False, compare=False)
    bounds: tuple = (0, None)
    describe: Callable[[dict], list] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"an exercise's kind is one of {KINDS}, got {self.kind!r}")
        if self.kind == "pick" and NONE_OF_THEM not in self.options:
            self.options = tuple(self.options) + (NONE_OF_THEM,)
        if self.state is not None and self.state.is_terminal():
            raise ValueError(f"exercise {self.key} (seed {self.seed}) is about a finished game")
        self.question = name_cells(self.question)  # cells written as the board writes them
        self.nudge = name_cells(self.nudge)
        if isinstance(self.rule, str):
            self.rule = name_cells(self.rule)

    # ------------------------------------------------------------------ answers
    def normalise(self, response):
        """``response`` in the answer's form. Raises :class:`ExerciseError` when it cannot be
        read: nothing chosen, no cell selected, no option ticked (:data:`NONE_OF_THEM` with
        another option too), an empty number or one outside :attr:`bounds` is not an answer
        (the message asks for one; nothing is counted)."""
        if self.kind == "cells":
            try:
                out = frozenset(tuple(int(x) for x in c) for c in response)
            except (TypeError, ValueError):
                raise ExerciseError(f"answer with a set of cells such as {{(1, 0), (2, -1)}}, got {response!r}") from None
            if not out:
                raise ExerciseError("Select at least one cell on the board first, then press Check.")
            return out
        if self.kind == "pick":
            try:
                out = frozenset(response)
            except TypeError:
                raise ExerciseError(f"answer with a set of options, got {response!r}") from None
            bad = sorted(str(x) for x in out if x not in self.options)
            if bad:
                raise ExerciseError(f"unknown option(s) {bad}; choose among {list(self.options)}")
            if not out:
                raise ExerciseError(f'Tick what applies (or "{NONE_OF_THEM}") first, then press Check.')
            if NONE_OF_THEM in out:
                if len(out) > 1:
                    raise ExerciseError(f'"{NONE_OF_THEM}" cannot go with another choice: untick one.')
                return frozenset()
            return out
        if self.kind == "choose":
            if response is None or response == "":
                raise ExerciseError("Choose an answer first: " + ", ".join(self.options) + ".")
            if response not in self.options:
                raise ExerciseError(f"choose one of {list(self.options)}, got {response!r}")
            return response
        if response is None or (isinstance(response, str) and not response.strip()):
            raise ExerciseError("Enter a whole number first, then press Check.")
        if is_integer(response):
            got = int(response)
        else:
            try:
                got = int(str(response).strip())
            except ValueError:
                raise ExerciseError(f"answer with a whole number, got {response!r}") from None
        low, high = self.bounds
        if (low is not None and got < low) or (high is not None and got > high):
            span = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise ExerciseError(f"{got} cannot be the answer here: it is a whole number {span}. Try again.")
        return got

    def right_response(self):
        """The response that gives the right answer, as a student gives it: the answer,
        or ``{NONE_OF_THEM}`` for a ``pick`` exercise whose answer is no option."""
        if self.kind == "pick" and not self.answer:
            return frozenset({NONE_OF_THEM})
        return self.answer

    def check(self, response, tries: int = 0, *, attempt: int | None = None) -> Feedback:
        """Judge ``response``, given ``tries`` wrong answers before it (or as the
        ``attempt``-th try, 1 = first): right -> the answer in words; a first wrong answer
        -> :meth:`nudge_text`; a later one -> :meth:`rule_text`. The answer itself comes only
        from :meth:`answer_text`.

        Raises:
            ExerciseError: the response cannot be read (nothing is counted).
        """
        if attempt is not None:
            tries = attempt - 1
        got = self.normalise(response)
        if got == self.answer:
            return Feedback(True, "right", sentence_case(self.answer_text()), self.section)
        if tries < RULE_AFTER:
            return Feedback(False, "nudge", sentence_case(shown(self.nudge_text(got))), self.section)
        return Feedback(False, "rule", sentence_case(shown(self.rule_text(got))), self.section)

    def nudge_text(self, got) -> str:
        """Step 1 for the wrong answer ``got``: which way it is off (:func:`how_off`) and
        the nudge, naming the rules section once."""
        return f"{how_off(self.kind, got, self.answer, self.bounds)} {self.nudge} (rules: \"{self.section}\")"

    def rule_text(self, got) -> str:
        """Step 2 for the wrong answer ``got``: which way it is off, the rule and what the
        engine says about ``got`` (``explain``: the refused options given, the parts of a
        count), never the answer itself."""
        said = self.explain(got) if self.explain is not None else ""
        return " ".join(t for t in (how_off(self.kind, got, self.answer, self.bounds), self.rule, said) if t)

    def answer_text(self) -> str:
        """The right answer in words, with why."""
        a = self.answer
        if self.kind == "cells":
            said = "; ".join(cell_name(c) for c in sorted(a)) or "no cell"
        elif self.kind == "pick":
            said = "; ".join(o for o in self.options if o in a) or "none of them"
        else:
            said = str(a)
        return shown(f"The answer: {said}." + (f" {self.answer_note}" if self.answer_note else ""))

    def why_text(self) -> str:
        """The engine's explanation of the right answer, shown with it where it adds to
        :meth:`answer_text` (``""`` here: :attr:`answer_note` says why)."""
        return ""

    def right_text(self) -> str:
        """What a right answer is told: :meth:`answer_text` with its one-line why - the
        engine's explanation where it adds to it, else, when the answer carries no note, the
        rule (:attr:`rule`) a wrong answer is shown - so "Right!" never comes without a reason."""
        text = self.answer_text()
        why = shown(self.why_text())
        if why and why not in text:
            return f"{text} {why}"
        if not self.answer_note and self.rule and self.rule not in text:
            return f"{text} Why: {shown(self.rule)}"
        return text

    def fact_lines(self) -> list[str]:
        """The facts to show above the question (or next to the board), one sentence each:
        named facts written out by :attr:`describe`, else :attr:`facts` themselves."""
        lines = self.describe(self.facts) if self.describe is not None else self.facts
        return [name_cells(line) for line in lines]

    def regenerate(self, seed: int | None = None) -> "Exercise":
        """The same exercise on ``seed`` (default: the next seed after this one, so always
        another position)."""
        if self.remake is None:
            raise ExerciseError(f"exercise {self.key} was not made by an ExerciseSet; it cannot be remade")
        return self.remake(self.seed + 1 if seed is None else seed)


def refused_picks(got, answer, refusal: Callable[[Any], str | None]) -> str:
    """For a ``pick`` answer ``got``: each ticked option that is not in ``answer`` with
    ``refusal(option)`` (the engine's reason), one sentence each, then :data:`UNTICKED`
    (always, so it reveals nothing); never names or counts the options left out."""
    out = []
    for label in sorted(got - answer - {NONE_OF_THEM}, key=str):
        why = refusal(label)
        out.append(f"{label}: refused, {why}." if why else f"{label}: refused.")
    return " ".join(out + [UNTICKED])


def how_off(kind: str, got, answer, bounds: tuple = (None, None)) -> str:
    """Which way the wrong answer ``got`` is off, without the answer: ``"3 is too high."``
    (number), ``"Not P1."`` (choose). A number's direction is left out when, within
    ``bounds`` (``(low, high)``, None: open), it would leave a single possible answer
    (``"1 is too high"`` when answers start at 0): then it says ``"1 is not right."``.

    For a set (``pick``, ``cells``) it says only that the set is not the answer
    (:data:`SET_OFF`): no count and no direction, since "1 does not belong; 4 are missing"
    among five options, or "2 are missing", gives the answer away."""
    if kind == "number":
        low, high = bounds
        if got > answer:
            return f"{got} is not right." if low is not None and got - 1 == low else f"{got} is too high."
        return f"{got} is not right." if high is not None and got + 1 == high else f"{got} is too low."
    if kind == "choose":
        return f"Not {got}."
    return SET_OFF[kind]


def check_facts(facts, known) -> dict:
    """``facts`` (a dict of named facts) checked against ``known`` (a game's ``FACTS``:
    name -> what it holds), for a game's ``rebuild``. Raises :class:`ExerciseError` naming
    the unknown names and the known ones (nothing is built)."""
    if not isinstance(facts, dict):
        raise ExerciseError(f"facts must be a dict of named facts, got {type(facts).__name__}")
    bad = set(facts) - set(known)
    if bad:
        raise ExerciseError(f"unknown fact(s) {sorted(bad)} (known: {', '.join(known)})")
    return facts


class ExerciseSet:
    """A game's exercises by key: ``{key: (notebook, title, builder)}`` where
    ``builder(seed) -> Exercise``; read like that dict (``set[key]``, ``len``, ``in``,
    iteration over the keys, ``items()``, ``values()``), :meth:`make` builds one.

    ``rebuild(facts) -> position`` (optional): the game's builder of a position from an
    exercise's named facts alone; :meth:`answer_from_facts` recomputes an answer on it
    (the fairness property: every answer follows from the facts shown).

    ``common`` (optional): ``{key: answer}``, an answer the exercise's positions give in most
    seeds (``0`` for "how much may you take" in two thirds of them), which a student would
    learn to guess: :meth:`make` keeps a position with that answer on one seed in
    :data:`COMMON_KEEP` only and moves on from the others, so that no answer is given by
    more than about 60% of the seeds (``tests/test_exercise_kinds.py`` checks 200 seeds of
    every exercise of every game)."""

    def __init__(self, entries: dict, rebuild: Callable[[dict], Any] | None = None, common: dict | None = None):
        self.entries = dict(entries)
        self.rebuild = rebuild
        self.common = dict(common or {})
        unknown = set(self.common) - set(self.entries)
        if unknown:
            raise ValueError(f"common answers for unknown exercises {sorted(unknown)}")

    def answer_from_facts(self, ex: Exercise):
        """The answer of ``ex`` recomputed from its shown facts alone: ``ex.solve`` on
        ``rebuild(ex.facts)``. Equal to ``ex.answer`` when the exercise shows every fact its
        answer depends on. Raises :class:`ExerciseError` for a set without ``rebuild`` or an
        exercise without ``solve``."""
        if self.rebuild is None or ex.solve is None:
            raise ExerciseError(f"exercise {ex.key} cannot be recomputed from its facts (no rebuild or solve)")
        return ex.solve(self.rebuild(ex.facts))

    def is_fair(self, key: str, seed: int) -> bool:
        """Whether exercise ``key`` on ``seed`` gives the same answer recomputed from its
        shown facts alone (:meth:`answer_from_facts`) as the engine gave when it was made."""
        ex = self.make(key, seed)
        return self.answer_from_facts(ex) == ex.answer

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key) -> bool:
        return key in self.entries

    def __getitem__(self, key: str) -> tuple:
        return self.entries[key]

    def items(self):
        return self.entries.items()

    def values(self):
        return self.entries.values()

    def title(self, key: str) -> str:
        return self.entries[key][1]

    def for_notebook(self, notebook: str) -> list[str]:
        """The keys of a notebook (``"08"``), in order."""
        return [k for k, (nb, _t, _b) in self.items() if nb == notebook]

    def make(self, key: str, seed: int = 0) -> Exercise:
        """Exercise ``key`` on the position of ``seed``. No exercise is about a finished
        game: when the builder raises :class:`NoPosition` (the seeded game ended before the
        question's position) or makes a ``cells`` exercise whose answer is no cell (selecting
        nothing is not an answer), the next seed is tried, and so on; so is a seed whose
        answer is the exercise's :attr:`common` one, except on one seed in
        :data:`COMMON_KEEP`. :attr:`Exercise.seed` is the seed used (``>= seed``).

        Raises:
            ExerciseError: an unknown key; a seed that is not a non-negative integer below
            2**63 (the kit's seed range, :func:`~haunted_kit.protocol.check_seed`); no
            position in :data:`MAX_SKIPS` seeds.
        """
        if key not in self:
            raise ExerciseError(f"unknown exercise {key!r}; known: {', '.join(self)}")
        seed = check_seed(seed, error=ExerciseError)
        if seed < 0:
            raise ExerciseError(f"seed must be a non-negative integer, got {seed!r}")
        for k in range(seed, seed + MAX_SKIPS):
            try:
                ex = self[key][2](k)
            except NoPosition:
                continue
            if ex.kind == "cells" and not ex.answer:
                continue          # no cell is an answer nobody can give: selecting none is not an answer
            if key in self.common and ex.answer == self.common[key] and k % COMMON_KEEP:
                continue          # the answer most seeds give: kept on one seed in COMMON_KEEP, so it is no safe guess
            return replace(ex, key=key, seed=k, title=self[key][1], remake=lambda s: self.make(key, s))
        raise ExerciseError(f"no position for {key} in seeds {seed}..{seed + MAX_SKIPS - 1}: every game ended first")

    def teacher_note(self, key: str, seed: int = 0) -> str:
        """The teacher's note (:func:`teacher_note`) of exercise ``key`` on ``seed``; raises
        as :meth:`make`. A game's ``exercise_note`` hook for ``haunted-kit teacher``."""
        return teacher_note(self.make(key, seed))


# ============================================================================ helpers for the builders

def game_in_progress(game, players: int, seed: int, decisions: int, *, agents: str = "greedy", stop=None, **options):
    """A seeded game of ``game`` played by seeded bots (``agents``, one spec for every seat)
    for ``decisions`` decisions and then on until ``stop(state)`` holds (if given), never to
    the end: when the next decision would finish the game, the position before it is
    returned (check ``stop`` again). Chance nodes are resolved from the seed."""
    s = game.new_game(players=players, seed=seed, **options)
    bots, _names = seat_bots(game, [agents] * players, players, seed)
    made = 0
    while True:
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance(sample_chance(s, seed))
        if made >= decisions and (stop is None or stop(s)):
            return s
        p = s.current_player()
        after = s.copy()
        after.apply_action(bots[p].act(s.copy()))
        while after.is_chance_node() and not after.is_terminal():
            after.apply_chance(sample_chance(after, seed))
        if after.is_terminal():
            return s
        s = after
        made += 1


def events_after(state, action, viewer=None) -> tuple:
    """``(copy, sentences)``: ``action`` applied to a copy of ``state``, and the event
    sentences it logged (as ``viewer`` sees them)."""
    c = state.copy()
    k = len(c.events(viewer))
    c.apply_action(action)
    return c, list(c.events(viewer).text[k:])


# ============================================================================ teacher copies

#: where ``haunted-kit teacher`` writes the teacher copies, under the notebooks folder: a
#: dot-folder, which JupyterLab's file browser hides, so the answers are not one click away
#: from the students (a teacher opens them by path, or with hidden files shown).
TEACHER_DIR = ".teacher"

#: an exercise cell in a notebook, of any game: ``exercise("03-sale", seed=1)``
EXERCISE_CELL = r'exercise\("(?P<key>[\w-]+)"(?:,\s*seed=(?P<seed>\d+))?'


def teacher_note(ex: Exercise) -> str:
    """The Markdown note a teacher copy puts under exercise ``ex``: the question, the
    answer and why, the rule applied, the common mistake, the nudge and the section."""
    lines = [f"> **Teacher's note: {ex.title}** (`{ex.key}`, seed {ex.seed})", ">", f"> {ex.question}", ">",
             f"> **{ex.answer_text()}**"]
    if ex.rule:
        lines += [">", f"> *The rule applied:* {ex.rule}"]
    lines += [">", f"> *Common mistake:* {ex.mistake or 'none recorded'}", ">",
              f"> *First wrong try is nudged to look at:* {ex.nudge}", ">", f"> *Rules:* \"{ex.section}\"."]
    return shown("\n".join(lines) + "\n")


def exercise_notes(modules) -> Callable[[str, int], str | None]:
    """``note(key, seed)``: the teacher's note of exercise ``key`` from the first of the
    games' exercise ``modules`` whose ``EXERCISES`` holds it (its ``exercise_note(key,
    seed)``), or ``None`` for a key none of them has (another game's exercise)."""
    modules = list(modules)

    def note(key: str, seed: int) -> str | None:
        for m in modules:
            if key in m.EXERCISES:
                return m.exercise_note(key, seed)
        return None

    return note


def teacher_notebook(nb: dict, name: str, note: Callable[[str, int], str | None]) -> dict | None:
    """A copy of notebook ``nb`` (nbformat JSON as a dict), outputs cleared, with
    ``note(key, seed)`` after every exercise cell (:data:`EXERCISE_CELL`) and a banner
    saying how it was made; ``None`` when no cell holds an exercise ``note`` knows."""
    out = copy.deepcopy(nb)
    out.get("metadata", {}).pop("widgets", None)              # the widget state of the student run
    banner = {"cell_type": "markdown", "id": "teacher-banner", "metadata": {},
              "source": [f"**Teacher copy of `{name}`**, generated by `haunted-kit teacher` from the exercises' "
                         "seeds: every exercise is followed by its answer, the engine's explanation and the common "
                         "mistake. Outputs are cleared: run it to see the boards. Do not edit: run `haunted-kit teacher` again "
                         "after changing the notebook or the box.\n"]}
    cells, found = [banner], False
    for cell in out["cells"]:
        cells.append(cell)
        if cell["cell_type"] != "code":
            continue
        cell["outputs"], cell["execution_count"] = [], None   # run the copy to see the boards
        for k, m in enumerate(re.finditer(EXERCISE_CELL, "".join(cell["source"]))):
            key, seed = m.group("key"), int(m.group("seed") or 0)
            text = note(key, seed)
            if text is None:
                continue
            found = True
            cells.append({"cell_type": "markdown", "id": f"teacher-{key}-{k}", "metadata": {},
                          "source": text.splitlines(keepends=True)})
    out["cells"] = cells
    return out if found else None


def write_teacher_copies(notebooks, out_dir, note: Callable[[str, int], str | None]) -> list:
    """Write the teacher copy (:func:`teacher_notebook`) of every notebook in
    ``notebooks`` (paths) that holds an exercise ``note`` knows into ``out_dir``
    (created); files are written atomically. Returns the paths written.

    Raises:
        ValueError: a notebook that is not nbformat JSON (json's error); OSError: a
            file that cannot be read or written; ExerciseError: an exercise that fails.
    """
    out_dir = Path(out_dir)
    written = []
    for path in sorted(Path(p) for p in notebooks):
        nb = json.loads(path.read_text(encoding="utf-8"))
        copy_ = teacher_notebook(nb, path.name, note)
        if copy_ is None:
            continue
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / path.name
        atomic_write(target, json.dumps(copy_, indent=1, ensure_ascii=False) + "\n")
        written.append(target)
    return written
