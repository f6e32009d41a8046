"""Exercises that answer back, for any game of the kit: the record, the checking and the
stepped feedback. Each game keeps its own exercise builders (``estate/exercises.py``,
``landmarks/exercises.py``) and registers them in an :class:`ExerciseSet`.

    from haunted_kit.estate.exercises import EXERCISES
    ex = EXERCISES.make("08-market-price", seed=1)   # a seeded position of a game in progress
    ex.facts, ex.question, ex.kind, ex.options         # every fact the answer depends on, the question
    ex.check(3)                                        # Feedback: stage "nudge" on a first wrong try
    ex.check(3, tries=1)                               # stage "rule": the rule applied to this position
    ex.answer_text()                                   # the answer, on request
    ex.regenerate()                                    # the same exercise on another seed

Every answer is worked out by the engine when the exercise is made (legal actions,
``why_not`` refusals, events of an action applied to a copy, scores). A wrong answer first
gets a **nudge** naming the rule's section; from the second wrong answer the **rule applied**
to this position (the engine's own words: refusal reasons, event sentences); the answer
only on request. Kinds of answer (:attr:`Exercise.kind`): ``"choose"`` (one of
:attr:`Exercise.options`), ``"pick"`` (a set of them, all that apply), ``"number"`` (a
whole number).

The widget is :class:`haunted_kit.widgets.exercise.ExerciseWidget`. Haunted Lands' exercises
(:mod:`haunted_kit.haunted.exercises`) keep their own record for now; their builders fit
:class:`ExerciseSet` as they are (a function of the seed returning an exercise).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .bots import seat_bots
from .protocol import check_seed, is_integer, sample_chance

KINDS = ("choose", "pick", "number")
#: a wrong try from which the rule applied is shown (the first wrong try gets the nudge)
RULE_AFTER = 1


class ExerciseError(ValueError):
    """An unknown exercise key, a bad seed or an answer that cannot be read (the message says which)."""


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


@dataclass
class Exercise:
    """One seeded question about a game in progress, with its answer and feedback.

    Attributes:
        key: the exercise's key in its :class:`ExerciseSet`.
        seed: the seed of the position.
        title: a short title.
        facts: every fact the answer depends on, one sentence each (shown above the question).
        question: the question, in words.
        kind: ``"choose"``, ``"pick"`` or ``"number"``.
        answer: the right answer (a label, a frozenset of labels, an int), from the engine.
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

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"an exercise's kind is one of {KINDS}, got {self.kind!r}")
        if self.state is not None and self.state.is_terminal():
            raise ValueError(f"exercise {self.key} (seed {self.seed}) is about a finished game")

    def normalise(self, response):
        """``response`` in the answer's form. Raises :class:`ExerciseError` when it cannot be read."""
        if self.kind == "pick":
            try:
                out = frozenset(response)
            except TypeError:
                raise ExerciseError(f"answer with a set of options, got {response!r}") from None
            bad = sorted(str(x) for x in out if x not in self.options)
            if bad:
                raise ExerciseError(f"unknown option(s) {bad}; choose among {list(self.options)}")
            return out
        if self.kind == "choose":
            if response not in self.options:
                raise ExerciseError(f"choose one of {list(self.options)}, got {response!r}")
            return response
        if is_integer(response):
            return int(response)
        try:
            return int(str(response).strip())
        except ValueError:
            raise ExerciseError(f"answer with a whole number, got {response!r}") from None

    def check(self, response, tries: int = 0) -> Feedback:
        """Judge ``response``, given ``tries`` wrong answers before it: right -> the answer
        in words; a first wrong answer -> the nudge with the section; a later one -> the
        rule applied and what the engine says about that answer.

        Raises:
            ExerciseError: the response cannot be read (nothing is counted).
        """
        got = self.normalise(response)
        if got == self.answer:
            return Feedback(True, "right", self.answer_text(), self.section)
        if tries < RULE_AFTER:
            return Feedback(False, "nudge", f"{self.nudge} (rules: \"{self.section}\")", self.section)
        said = self.explain(got) if self.explain is not None else ""
        return Feedback(False, "rule", " ".join(t for t in (self.rule, said) if t), self.section)

    def answer_text(self) -> str:
        """The right answer in words, with why."""
        a = self.answer
        if self.kind == "pick":
            shown = "; ".join(o for o in self.options if o in a) or "none of them"
        else:
            shown = str(a)
        return f"The answer: {shown}." + (f" {self.answer_note}" if self.answer_note else "")

    def regenerate(self) -> "Exercise":
        """The same exercise on the next seed."""
        if self.remake is None:
            raise ExerciseError(f"exercise {self.key} was not made by an ExerciseSet; it cannot be remade")
        return self.remake(self.seed + 1)


class ExerciseSet:
    """A game's exercises by key: ``{key: (notebook, title, builder)}`` where
    ``builder(seed) -> Exercise``."""

    def __init__(self, entries: dict):
        self.entries = dict(entries)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key) -> bool:
        return key in self.entries

    def title(self, key: str) -> str:
        return self.entries[key][1]

    def for_notebook(self, notebook: str) -> list[str]:
        """The keys of a notebook (``"08"``), in order."""
        return [k for k, (nb, _t, _b) in self.entries.items() if nb == notebook]

    def make(self, key: str, seed: int = 0) -> Exercise:
        """Exercise ``key`` on seed ``seed``.

        Raises:
            ExerciseError: an unknown key or a bad seed.
        """
        if key not in self.entries:
            raise ExerciseError(f"unknown exercise {key!r}; known: {', '.join(self.entries)}")
        try:
            seed = check_seed(seed, error=ExerciseError)
        except ValueError as exc:
            raise ExerciseError(str(exc)) from None
        ex = self.entries[key][2](seed)
        return replace(ex, key=key, seed=seed, title=self.entries[key][1], remake=lambda s: self.make(key, s))


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
