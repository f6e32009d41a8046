"""A first game that teaches itself, for any game of the kit, built from what the game declares.

    from haunted_kit.tutorial import Tutorial
    t = Tutorial("estate", seed=1)          # seat 0 learns, the other seats are the game's bots
    t.current                              # the step to read now (a Step), or None: free play
    t.attempt(t.state.legal_actions()[0])  # play; the bots answer; new steps are queued
    t.next() / t.skip() / t.replay(key)    # read on, skip a step, show a step again

The tutorial follows the game as the player plays it, never a fixed script of clicks: after
every change it looks at the position and queues the steps that now matter, one idea at a
time, each the first time the player meets it:

* ``goal`` - first of all: what the player is trying to win and how the game ends (the
  game's ``goal`` teach point; without one, the kit says the game is scored at its end);
* ``aid`` - at the learner's first own decision, right after the goal: the player aid,
  "What you can do on a turn", one short line per decision kind the game teaches (its
  ``kind:`` teach points, in their order, legal yet or not; a point's ``aid`` line, with the
  box's numbers), so a player can plan before meeting each (:func:`aid_step`);
* ``kind:<type>`` - a decision kind (the Game's ``action_types``), the first time one of
  its actions is legal for the player, with the legal choices of that kind listed (the
  play view lights them on the board);
* ``phase:<name>`` - a phase of the flow (the event log's ``phase`` column), the first time
  the game enters it, with the event sentence that opened it;
* ``event:<kind>`` - an event kind the game chose to teach, the first time one happens;
* ``refusal`` - the first time the player tries an illegal action: the rules' reason
  (``why_not``) in plain words and the section it comes from.

The words come from the game's own **teach points** (optional, the game package's
``tutorial.py`` with ``TEACH_POINTS``: a tuple of :class:`TeachPoint`, each citing its
rule's section, and optionally naming an exercise of the game's ``EXERCISES`` asked right
after it, or, for a step read in the learner's first round, after that round: the first round
is played straight through and its questions come after it, one after another
(:attr:`StepBook.held`); a point's text may be a function of the position, ``text(state) -> str``, so the
numbers it gives (costs, valor) are read from the game's box in play, house rules included; optionally ``OPTIONS``, the first game's ``new_game`` keywords; and optionally ``ROUND_WORD``, the game's own word for its round, :func:`round_word`). A game without the table still gets a tutorial: every kind, phase and refusal
is taught from its declarations (the action's own words, the event sentences, the
refusal's reason and section).

Progress (the position, the steps met, read, skipped and the questions answered) is kept
in a small JSON file written atomically (:func:`haunted_kit.fileio.atomic_write`) after
every change, so a re-opened tutorial resumes where it was (:meth:`Tutorial.resume`).
The widget is :class:`haunted_kit.widgets.tutorial.TutorialView`.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Callable, Union
from html import escape
from pathlib import Path

from .bots import default_agent, seat_bots
from .events import cite_rulings
from .exercises import Exercise, ExerciseError
from .fileio import atomic_write
from .hexgrid import name_cells
from .games import default_players, game_module, get_game, load_state
from .protocol import describe_action, is_integer, sample_chance

#: the version of the progress file's layout
VERSION = 1
#: the seat of the player who learns (the others are bots)
LEARNER = 0
#: how many legal choices of a kind a step lists by name
LISTED = 6
#: where a tutorial keeps its progress when none is given: this folder, one file per game
PROGRESS_DIR = Path(".haunted-kit-tutorial")
#: the kinds of step, by the prefix of their key
STEP_KINDS = ("kind", "phase", "event", "refusal", "goal", "aid")
#: the player aid's heading
AID_TITLE = "What you can do on a turn"


class TutorialError(ValueError):
    """A progress file that cannot be read, or an unknown step (the message says which);
    ``path``: the progress file concerned, or ``None``."""

    def __init__(self, message: str, path=None):
        super().__init__(message)
        self.path = path


def set_aside(path) -> Path:
    """Rename the progress file ``path`` to ``<stem>.damaged-<n>.json`` (the first free
    ``n``), so a damaged file is kept, not overwritten; returns the new path."""
    path = Path(path)
    n = 1
    while (aside := path.with_name(f"{path.stem}.damaged-{n}{path.suffix}")).exists():
        n += 1
    path.rename(aside)
    return aside


@dataclass(frozen=True)
class TeachPoint:
    """One entry of a game's teach-point table (``<game>/tutorial.py``'s ``TEACH_POINTS``).

    Attributes:
        key: what it teaches: ``"goal"`` (what a player tries to win and how the game ends,
            taught first), ``"kind:<type>"`` (a name of the Game's ``action_types``),
            ``"phase:<phase>"`` (a value of the event log's ``phase`` column) or
            ``"event:<kind>"`` (an event kind of the game's log).
        title: a short heading.
        text: the rule in one to three sentences, in the game's own words: a string, or a
            function ``text(state) -> str`` of the position, which reads the numbers a player
            plans with (costs, valor) from the box in play (``state.box``), so a house-rule
            box prints its own (:meth:`say`).
        section: the rule's section in the game's rule text.
        question: a key of the game's ``EXERCISES`` to ask right after this point is read
            (``""``: none).
        aid: for a ``kind:`` point, its line of the player aid (:func:`aid_step`): a short
            string or ``aid(state) -> str``; ``""``: the first sentence of the text;
            ``None``: not in the player aid (a follow-up decision a player does not plan,
            such as a choice a skill opens).
        lines: ``lines(state) -> ((title, line), ...)``, a short list the step shows under its
            text (the choices of a kind explained one line each, such as the actions a leader
            may lead), its words read at the position; ``None``: no list.
        where: ``where(state) -> str``, the section at a position, for a decision whose rule
            depends on what opened it (a resource of your choice from a skill card or from a
            bonus card); ``None``: always ``section`` (:meth:`section_at`).
        within: for a ``phase:`` point, the ``kind:`` point whose text also teaches this
            phase (the phase's one decision, such as the spread's ghost placing): when the
            phase begins while that kind is legal for the learner or already taught, the phase
            is no step of its own (one idea, one step); ``""``: always its own step.
        now: for a ``kind:`` point, ``now(state) -> str``, a clause on the position in front of
            the learner said with the choices (:func:`choosing_words`: "..., the die showed
            plain: 4 of 4 to place"); ``""`` or ``None``: nothing.
    """

    key: str
    title: str
    text: Union[str, Callable[[object], str]]
    section: str
    question: str = ""
    aid: Union[str, Callable[[object], str], None] = ""
    where: Union[Callable[[object], str], None] = None
    lines: Union[Callable[[object], tuple], None] = None
    within: str = ""
    now: Union[Callable[[object], str], None] = None

    def __post_init__(self):
        kind = self.key.partition(":")[0]
        if self.key != "goal" and (kind not in STEP_KINDS[:3] or not self.key.partition(":")[2]):
            raise ValueError("a teach point's key is 'goal', 'kind:<type>', 'phase:<name>' or 'event:<kind>', "
                             f"got {self.key!r}")
        if self.within and (kind != "phase" or not self.within.startswith("kind:")):
            raise ValueError(f"{self.key}: only a phase is taught within a decision kind's step ('kind:<type>'), "
                             f"got within={self.within!r}")

    def say(self, state) -> str:
        """The point's text at ``state`` (a position of its game): ``text(state)`` when the
        text is a function (its numbers read from ``state.box``), else the text itself."""
        return name_cells(self.text(state) if callable(self.text) else self.text)  # cells as the boards write them

    def now_at(self, state) -> str:
        """The point's clause on the position ``state`` (:attr:`now`), cells as the boards write
        them, or ``""``."""
        return name_cells(str(self.now(state) or "")) if self.now is not None and state is not None else ""

    def section_at(self, state) -> str:
        """The rule's section at ``state``: ``where(state)`` when the point has one (and it
        names one), else ``section``."""
        return (self.where(state) or self.section) if self.where is not None and state is not None else self.section

    def lines_at(self, state) -> tuple:
        """The point's list at ``state`` (``(title, line)`` pairs of text), or ``()``."""
        return tuple((str(a), str(b)) for a, b in self.lines(state)) if self.lines is not None else ()

    def aid_line(self, state) -> str | None:
        """The point's line of the player aid at ``state`` (``None``: not in the aid)."""
        if self.aid is None:
            return None
        if self.aid == "":
            text = self.say(state)
            return text.split(". ")[0].rstrip(".") + "."
        return self.aid(state) if callable(self.aid) else self.aid


def end_sentence(text: str) -> str:
    """``text`` ending as a sentence does (a full stop added when it ends without ``.``, ``!``
    or ``?``; a section cited in brackets after the sentence's words counts as its end):
    ``"Not here (rules: Build)"`` -> ``"Not here (rules: Build)."``."""
    text = text.rstrip()
    return text if not text or text[-1] in ".!?" else text + "."


@dataclass
class Step:
    """A step of the lesson: ``key`` (see the module doc), ``title``, ``text`` (what to read
    now, about this very position), ``section`` (the rule's section, ``""`` when the game
    names none), ``choices`` (the legal choices it is about, in words), ``question`` (an
    exercise key, or ``""``) and ``lines`` (a list shown under the text: ``(title, line)``
    pairs: the player aid's, one per decision kind, or a kind's own teach point's
    :attr:`TeachPoint.lines`; empty for every other step)."""

    key: str
    title: str
    text: str
    section: str = ""
    choices: tuple = ()
    question: str = ""
    lines: tuple = ()

    def __post_init__(self):
        # every sentence of a step names cells as the boards do (``cell 1,-2``, never ``(1, -2)``),
        # whatever composed it: a kind's words, a refusal, an event
        self.text = name_cells(self.text)
        self.choices = tuple(name_cells(c) for c in self.choices)
        self.lines = tuple((a, name_cells(b)) for a, b in self.lines)

    def as_dict(self) -> dict:
        return {"key": self.key, "title": self.title, "text": self.text, "section": self.section,
                "choices": list(self.choices), "question": self.question, "lines": [list(x) for x in self.lines]}

    @classmethod
    def from_dict(cls, d: dict) -> "Step":
        """The step :meth:`as_dict` wrote (a file without ``lines``, from before the player aid, reads as none)."""
        return cls(d["key"], d["title"], d["text"], d["section"], tuple(d["choices"]), d["question"],
                   tuple((str(a), str(b)) for a, b in d.get("lines", ())))


#: about how many words a step shows before its choices: a step saying more shows its deciding
#: sentence first and folds the rest behind "More" (:func:`step_parts`); nothing is dropped
LEAD_WORDS = 30
#: where a kind step's sentence about the choices in front of the learner begins (:meth:`Tutorial._kind_step`)
CHOOSING = (" You may now choose", " You could then choose")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z('\"‘“])")


def step_parts(step: Step) -> tuple[str, str, bool]:
    """``(lead, more, folded)``: ``step`` as a lesson panel shows it, the sentence that decides
    the move first. A step of at most :data:`LEAD_WORDS` words (its title, text, ``lines`` and
    rule section) is shown whole: ``(text, "", False)``. A longer one shows its first sentence (a decision
    kind's step: its rule's first sentence, then the sentence naming the choices in front of
    the learner) and folds the other sentences, its list and its rule's section behind
    "More" (``folded``). Every sentence is kept: ``lead`` and ``more`` together hold the
    text's every word (a kind's sentence about its choices moved up behind the first)."""
    text = step.text
    size = len(f"{step.title} {text} Rule: {step.section}".split()) + sum(len(f"{a} {b}".split()) for a, b in step.lines)
    if size <= LEAD_WORDS:
        return text, "", False
    choosing = ""
    if step.key.startswith("kind:"):
        at = min((i for i in (text.find(c) for c in CHOOSING) if i >= 0), default=-1)
        if at >= 0:
            text, choosing = text[:at], text[at:]
    first, *rest = _SENTENCE_END.split(text.strip(), maxsplit=1)
    return f"{first}{choosing}", " ".join(rest), True


def teach_points(game) -> dict:
    """``{key: TeachPoint}`` of ``game`` (a Game or its name): its package's ``tutorial``
    module's ``TEACH_POINTS``, or ``{}`` for a game without one.

    Raises:
        ValueError: a teach point naming a decision kind the game does not declare, a
            question its ``EXERCISES`` does not hold, or a ``within`` step it has no point for.
    """
    game = get_game(game) if isinstance(game, str) else game
    mod = _module(game, "tutorial")
    points = {p.key: p for p in getattr(mod, "TEACH_POINTS", ())}
    kinds = set(getattr(game, "action_types", None) or {})
    exercises = getattr(_module(game, "exercises"), "EXERCISES", None)
    for p in points.values():
        if p.key.startswith("kind:") and kinds and p.key[5:] not in kinds:
            raise ValueError(f"{game.title}: teach point {p.key} names no decision kind of the game ({', '.join(sorted(kinds))})")
        if p.question and (exercises is None or p.question not in exercises):
            raise ValueError(f"{game.title}: teach point {p.key} asks exercise {p.question!r}, which the game does not have")
        if p.within and p.within not in points:
            raise ValueError(f"{game.title}: teach point {p.key} is taught within {p.within}, which has no teach point")
    return points


def _module(game, part: str):
    try:
        return game_module(game.name, part)
    except Exception:  # a game registered without a package of parts (e.g. a namespace)
        return None


def round_word(game) -> str:
    """The game's own word for its round (its ``tutorial`` module's ``ROUND_WORD``, such as
    ``"season"``), else ``"round"``: the tutorial says "the first season is over".
    ``game``: a Game or its name."""
    game = get_game(game) if isinstance(game, str) else game
    return str(getattr(_module(game, "tutorial"), "ROUND_WORD", None) or "round")


def holdings_line(game, state, seat: int = LEARNER) -> str:
    """What ``seat`` holds at ``state`` in one line, from ``game``'s ``tutorial`` module's
    ``holdings(state, seat)`` (its own board's numbers: nothing another seat hides), so the
    lesson keeps them in view beside the choices; ``""`` for a game that declares none."""
    hook = getattr(_module(game, "tutorial"), "holdings", None)
    return "" if hook is None else str(hook(state, seat))


def board_kinds(game) -> frozenset:
    """The decision kinds whose choices ``game``'s play view lights on its board (its
    ``tutorial`` module's ``BOARD_KINDS``, names of its ``action_types``): a ghost's cell, a
    land slot. Empty for a game that declares none: its choices are only listed."""
    return frozenset(map(str, getattr(_module(game, "tutorial"), "BOARD_KINDS", None) or ()))


def button_kinds(game) -> frozenset:
    """The decision kinds of :func:`board_kinds` whose choices ``game``'s play view also
    lists as buttons under "Your choices" (its ``tutorial`` module's ``BUTTON_KINDS``): what
    the sensor's own cell allows, say. Empty for a game that declares none."""
    return frozenset(map(str, getattr(_module(game, "tutorial"), "BUTTON_KINDS", None) or ()))


#: where a decision kind's choices are, said at the end of its step (:func:`choices_where`)
ON_BOARD = "lit on the board: click {one} there"
AS_BUTTONS = "{a} under 'Your choices'"
BOTH = "{a} under 'Your choices', or a click on {its} lit cell"


def choices_where(game, kind: str | None = None, n: int = 2) -> str:
    """Where a learner finds the ``n`` choices of decision kind ``kind`` and what to do:
    ``"lit on the board: click one there"`` when the game's board lights that kind's choices
    (:func:`board_kinds`; ``kind`` ``None``: any of them), else ``"buttons under 'Your
    choices'"`` (a choice with no place on the board, such as passing; every play view and seat
    page heads its choices so); for a kind both lit and listed (:func:`button_kinds`),
    ``"buttons under 'Your choices', or a click on a lit cell"``; ``"... click it there"``,
    ``"a button ..."`` for one. The
    lesson panel names them after the sentence saying so."""
    lit = board_kinds(game)
    if kind is not None and kind in lit and kind in button_kinds(game):
        return BOTH.format(a="a button" if n == 1 else "buttons", its="its" if n == 1 else "a")
    if kind in lit if kind is not None else lit:
        return ON_BOARD.format(one="it" if n == 1 else "one")
    return AS_BUTTONS.format(a="a button" if n == 1 else "buttons")


def choosing_words(game, n: int, kind: str | None = None, now: str = "") -> str:
    """The sentence a decision kind's step ends with: how many of its choices are the learner's
    now and where they are (:func:`choices_where` of ``kind``), ``" You may now choose among 6
    (lit on the board: click one there)."`` (``" You may now choose it (a button under 'Your
    choices')."`` for one); ``now``, a clause on the position (:attr:`TeachPoint.now`), ends it
    after a colon."""
    return f" You may now choose {'it' if n == 1 else f'among {n}'} ({choices_where(game, kind, n)}){': ' + now if now else ''}."


def kind_of(game, action) -> str:
    """The name under which ``game`` declares ``action``'s class in its ``action_types``
    (the JSON ``"type"`` of the action when the game declares none)."""
    for name, cls in (getattr(game, "action_types", None) or {}).items():
        if type(action) is cls:
            return name
    try:
        return str(game.action_to_dict(action).get("type", type(action).__name__))
    except Exception:
        return type(action).__name__


def words(name: str) -> str:
    """A kind's name for people: ``PlaceTile`` -> ``place tile``, ``end_turn`` -> ``end turn``."""
    out = []
    for ch in name.replace("_", " "):
        if ch.isupper() and out and out[-1] != " ":
            out.append(" ")
        out.append(ch.lower())
    return "".join(out).strip()


def goal_step(game, points: dict | None = None, state=None) -> Step:
    """The ``goal`` step of ``game`` (a Game): what a player plays for and how the game ends,
    from its ``goal`` teach point (``points``: its :func:`teach_points`; its text read at
    ``state``, the game's position), else the kit's sentence naming the game."""
    p = (teach_points(game) if points is None else points).get("goal")
    if p is not None:
        return Step("goal", p.title, p.say(state), p.section_at(state))
    return Step("goal", f"The aim of {game.title}", f"You play {game.title} to the end of the game; the result is "
                "scored then (the play view shows it when the game is over).")


def aid_step(game, state, points: dict | None = None) -> Step:
    """The player aid of ``game`` (a Game) at ``state``: :data:`AID_TITLE`, one line per
    decision kind a player plans with, legal now or not, so the whole turn can be planned
    before each kind is met. The lines are the game's ``kind:`` teach points in their order
    (``(title, aid line)``, :meth:`TeachPoint.aid_line`: its numbers from ``state``'s box;
    a point whose ``aid`` is ``None`` is left out), then each declared kind without a teach
    point, in words; a game declaring neither gets its legal actions' kinds now."""
    points = teach_points(game) if points is None else points
    lines, named = [], set()
    for p in points.values():
        if p.key.startswith("kind:"):
            named.add(p.key[5:])
            line = p.aid_line(state)
            if line is not None:
                lines.append((p.title, line))
    kinds = list(getattr(game, "action_types", None) or {})
    if not kinds and not state.is_terminal():
        kinds = list(dict.fromkeys(kind_of(game, a) for a in state.legal_actions()))
    for kind in kinds:
        if kind not in named:
            lines.append((words(kind).capitalize(), "taught when you first may take it."))
    # the lead names every kind (a newcomer looked for the list and found it folded behind "More")
    listed = "; ".join(title for title, _line in lines)
    return Step("aid", AID_TITLE, f"The kinds of decision: {listed}. Each is taught when you may first take it; the "
                "list below says what each does, to plan ahead. 'Player aid and goal' shows it again.",
                "", (), "", tuple(lines))


def phase_now(game, state):
    """The phase ``state`` (a position of ``game``) is in, a string as its events name
    phases: the game's ``phase_of(state)`` where it declares one, else the ``phase`` of its
    log's last event; ``None`` without either."""
    hook = getattr(game, "phase_of", None)
    if hook is not None:
        return str(hook(state))
    log = getattr(state, "log", None)
    return str(log[-1].phase) if log else None


#: how a step about something over by now begins (:meth:`Tutorial.shown`)
MEANWHILE = "While the bots played"
#: how a step about a phase over by now begins (:meth:`Tutorial.shown`): it is told as past
PAST = "That phase is over; this is what happened in it:"
#: how an event the learner's own decision made is quoted
JUST_NOW = "Just now"


def round_of(state):
    """``(season, round)`` of the last event of ``state``'s log, or ``None`` without one."""
    log = getattr(state, "log", None)
    if not log:
        return None
    e = log[-1]
    return (e.season, e.round)


#: a question is made on a seed at least this far from every game seed it could share a deal
#: with (an exercise builder derives its games' seeds from its own by small offsets: the
#: kit's builders by at most 60 000), so its position never shows a seat's hidden cards
QUESTION_MARGIN = 10 ** 6
#: the questions of a tutorial on game seed ``s`` are made from seed ``QUESTION_BASE + s``
#: (reduced modulo it), far from the small seeds games are dealt on
QUESTION_BASE = 2 ** 40
#: a question's verdicts (:attr:`StepBook.answers`)
VERDICTS = ("right", "wrong", "skipped")


def question_seed(seed: int, taken=()) -> int:
    """The seed a tutorial's questions are made on, for a game dealt on ``seed``: ``QUESTION_BASE
    + seed mod QUESTION_BASE``, moved on past every seed of ``taken`` (the seeds of the games
    the learner or the class plays) within :data:`QUESTION_MARGIN` of it, and never within the
    margin of ``seed`` itself. An exercise's position is a game of its own seed: a question on
    a seed a game in play was dealt on could show that game's hidden cards (another seat's
    quests, a hand)."""
    taken = {int(t) for t in taken} | {int(seed)}
    s = QUESTION_BASE + int(seed) % QUESTION_BASE
    for _ in range(len(taken) + 1):  # each pass moves past one seed at least
        near = [t for t in taken if abs(t - s) <= QUESTION_MARGIN]
        if not near:
            return s
        s = max(near) + QUESTION_MARGIN + 1
    raise AssertionError("unreachable: every pass moves past a taken seed")  # pragma: no cover


def make_question(game, key: str, seed: int, taken=()):
    """Exercise ``key`` of ``game``'s ``EXERCISES`` on ``seed`` or a later one (the exercise
    machinery moves on from a seed with no position), its seed at least
    :data:`QUESTION_MARGIN` from each seed of ``taken`` (:func:`question_seed`).

    Raises:
        TutorialError: a game without ``EXERCISES`` or without ``key``.
    """
    exercises = getattr(_module(game, "exercises"), "EXERCISES", None)
    if exercises is None or key not in exercises:
        raise TutorialError(f"{game.title} has no exercise {key!r} to ask")
    taken = {int(t) for t in taken}
    for _ in range(len(taken) + 1):
        ex = _made(exercises, key, seed)
        near = [t for t in taken if abs(t - ex.seed) <= QUESTION_MARGIN]
        if not near:
            return ex
        seed = max(near) + QUESTION_MARGIN + 1
    raise TutorialError(f"no seed for exercise {key!r} away from the games in play")  # pragma: no cover


def settled_seed(game, key: str, seed: int, taken=()) -> int:
    """The seed :func:`make_question` settles on for exercise ``key`` from ``seed`` (a plain
    number: the classroom server works it out in a worker process, where the exercise
    machinery's search for a position costs the class nothing, then makes the exercise on it)."""
    return make_question(game, key, seed, taken).seed


@functools.lru_cache(maxsize=256)
def _made(exercises, key: str, seed: int):
    """``exercises.make(key, seed)``, made once (an exercise is read, never changed, by the
    tutorials asking it: every seat of a table is asked the same, on the same seed)."""
    return exercises.make(key, seed)


class StepBook:
    """The steps a learner met and what became of them, and the question asked now: the one
    step engine of the notebook's :class:`Tutorial` and the classroom server's
    :class:`SeatTutorial` (they differ only in how steps are met).

    Attributes:
        steps: ``{key: Step}``, every step met, in the order met; ``queue``: keys to read now,
        first first; ``read``, ``skipped``: keys; ``introduced``: key -> the learner's decision
        count when it was met; ``answers``: question key -> a :data:`VERDICTS` word;
        ``asking``: the question asked now (an exercise key) or ``""``; ``tries``: its wrong
        answers so far; ``feedback``: the last verdict shown (``{"question", "stage", "text"}``,
        stage ``"nudge"``, ``"rule"``, ``"right"`` or ``"answer"``) or ``None``;
        ``seeds``: question key -> the seed its exercise was made on; ``taken``: game seeds a
        question's seed keeps away from (:func:`question_seed`); ``held``: questions of steps
        read while questions are held (:meth:`holds_questions`), first first, each asked in
        turn once they are no longer held (:meth:`ask_held`).
    """

    def _init_book(self, game, seed: int, taken=()) -> None:
        self.game = game
        self.taken = {int(t) for t in taken} | {int(seed)}
        self.question_seed = question_seed(seed, self.taken)
        self.steps: dict = {}
        self.queue: list = []
        self.read: set = set()
        self.skipped: set = set()
        self.answers: dict = {}
        self.introduced: dict = {}
        self.asking = ""
        self.tries = 0
        self.feedback = None
        self.seeds: dict = {}
        self.held: list = []
        self._exercise = None

    def save(self) -> None:
        """Keep the progress (a subclass writes it; here nothing)."""

    def holds_questions(self) -> bool:
        """Whether a question named by a step read now waits (:attr:`held`) instead of being
        asked at once. Here never; the notebook's :class:`Tutorial` holds them through the
        learner's first round, so that round is played straight through."""
        return False

    def ask_held(self) -> str:
        """Ask the first held question (:attr:`held`) when none is asked now and questions are
        no longer held; returns the question asked now (``""``: none)."""
        while self.held and not self.asking and not self.holds_questions():
            key = self.held.pop(0)
            if key not in self.answers:
                self.asking, self.tries, self.feedback = key, 0, None
                self.save()
        return self.asking

    def meet(self, steps, decisions: int = 0) -> list:
        """Queue each of ``steps`` (:class:`Step`) not met before, in order; returns those queued."""
        new = [st for st in steps if st.key not in self.steps]
        for st in new:
            self.steps[st.key] = st
            self.queue.append(st.key)
            self.introduced[st.key] = decisions
        return new

    @property
    def current(self):
        """The step to read now (a :class:`Step`), or ``None``: free play."""
        return self.steps[self.queue[0]] if self.queue else None

    def waiting(self) -> list:
        """The steps queued behind the current one (also new now)."""
        return [self.steps[k] for k in self.queue[1:]]

    # ------------------------------------------------------------------ reading
    def next(self) -> Step | None:
        """The current step is read: it leaves the queue; when it names a question, that
        question is asked now (:attr:`asking`). Returns the step read (``None``: none)."""
        st = self.current
        if st is None:
            return None
        self.queue.pop(0)
        self.read.add(st.key)
        if st.question and st.question not in self.answers and st.question != self.asking \
                and st.question not in self.held:
            if self.holds_questions() or self.asking:
                self.held.append(st.question)
            else:
                self.asking, self.tries, self.feedback = st.question, 0, None
        self.ask_held()  # the step read may be the last that held the questions back
        self.save()
        return st

    def did(self, kinds) -> Step | None:
        """The learner just made decisions of ``kinds`` (kind names, :func:`kind_of`): when the
        step to read now is the step of one of them and the panel has shown it, doing it counts
        as reading it (:meth:`next`: it leaves the queue, its question is asked or held), so the
        steps of what is new come forward instead of waiting behind what was just done.
        Returns that step, or ``None``."""
        st = self.current
        if st is not None and st.key.startswith("kind:") and st.key[5:] in set(kinds) and self.was_shown(st.key):
            return self.next()
        return None

    def no_decision_yet(self) -> bool:
        """Whether the learner has made no decision yet (the phases over by then, such as the
        setting up, are read before the first decision's kinds, :meth:`settle`)."""
        return False

    def was_shown(self, key: str) -> bool:
        """Whether the learner's panel has shown step ``key`` as the one to read (a seat page
        always shows the current step: ``True``)."""
        return True

    def skip(self, key: str | None = None) -> Step | None:
        """Skip step ``key`` (default: the current one) without reading it; its question is
        not asked. A skipped step can be replayed."""
        key = key if key is not None else (self.queue[0] if self.queue else None)
        if key is None:
            return None
        self._known(key)
        if key in self.queue:
            self.queue.remove(key)
        self.skipped.add(key)
        self.ask_held()
        self.save()
        return self.steps[key]

    def replay(self, key: str) -> Step:
        """Show step ``key`` again now (it becomes the current step).

        Raises:
            TutorialError: a step not met yet.
        """
        self._known(key)
        if key in self.queue:
            self.queue.remove(key)
        self.queue.insert(0, key)
        self.save()
        return self.steps[key]

    def recall(self) -> Step | None:
        """Show the player aid and the goal again now, the aid first (a newcomer pressing
        "Player aid and goal" looked for the aid and met the goal); while the aid is the step
        shown, the goal comes first (then the aid again), so the button always shows something
        new. Only the steps of them met so far (the aid is met at the learner's first decision).
        Returns the step now current."""
        first = ("aid", "goal") if self.queue[:1] == ["aid"] else ("goal", "aid")   # inserted in turn at the front
        for key in first:
            if key in self.steps:
                if key in self.queue:
                    self.queue.remove(key)
                self.queue.insert(0, key)
        self.save()
        return self.current

    def settle(self, legal, phase_now=None) -> None:
        """Put what matters for the decision in front of the learner first (called when the
        learner is to move; ``legal``: the decision kinds legal for them now, ``phase_now``:
        the phase the game is in, or ``None``). The queue becomes: the goal, the player aid
        and a refusal; before the learner's first decision, the phases over by then (the
        setting up, a deal: :meth:`no_decision_yet`); then the steps of the kinds legal now, the
        newest first (met at a later decision; met together, in the game's teaching order) (a kind step met earlier but
        left unread because its kind stopped being legal comes back); then the step of the
        phase the game is in; then the rest (what happened while the bots played). A queued
        kind step whose kind is not legal now leaves the queue unread (it is not a choice
        in front of the learner; it comes back when its kind is legal again)."""
        legal = set(legal)
        for key in self.steps:  # a kind step left unread when its kind stopped being legal: legal again
            if key.startswith("kind:") and key[5:] in legal and key not in self.queue \
                    and key not in self.read and key not in self.skipped:
                self.queue.append(key)
        self.queue = [k for k in self.queue if not k.startswith("kind:") or k[5:] in legal]

        before_first = self.no_decision_yet()

        def rank(key):
            if key in ("goal", "aid", "refusal"):
                return (0, 0)
            if before_first and key.startswith("phase:") and key != f"phase:{phase_now}":
                return (1, 0)   # the setting up or deal before the learner's first decision: the context, first
            if key.startswith("kind:"):
                # the newest kinds first: what just became possible (a contact, once on a ghost's cell)
                # before a kind legal all along (ending the turn); met together, the teaching order
                return (2, -self.introduced.get(key, 0))
            return (3, 0) if phase_now is not None and key == f"phase:{phase_now}" else (4, 0)
        self.queue.sort(key=rank)  # stable: within a rank, the order met (the game's teaching order)

    def _known(self, key: str) -> None:
        if key not in self.steps:
            met = ", ".join(self.steps) or "none yet"
            raise TutorialError(f"no step {key!r} has been met in this tutorial (met: {met})")

    # ------------------------------------------------------------------ questions
    def question(self, key: str | None = None) -> Exercise | None:
        """The exercise asked now (or exercise ``key``) from the game's ``EXERCISES``, on the
        tutorial's question seed (:func:`question_seed`: never a seed of a game in play, so its
        position shows no seat's hidden cards); the same exercise each time it is asked (its
        seed kept in :attr:`seeds`). ``None`` when none is asked."""
        key = key or self.asking
        if not key:
            return None
        ex = self._exercise
        if ex is None or ex.key != key:
            seed = self.seeds.get(key, self.question_seed)
            ex = self._exercise = make_question(self.game, key, seed, self.taken)
            self.seeds[key] = ex.seed
        return ex

    def answered(self, verdict: str) -> None:
        """Close the question asked now with ``verdict`` (``"right"``, ``"wrong"`` or
        ``"skipped"``); play goes on."""
        if verdict not in VERDICTS:
            raise TutorialError(f"a question's verdict is one of {', '.join(VERDICTS)}, got {verdict!r}")
        if self.asking:
            self.answers[self.asking] = verdict
            self.asking, self.tries = "", 0
            self.save()
        self.ask_held()

    def check(self, response):
        """Judge ``response`` to the question asked now (:meth:`haunted_kit.exercises.Exercise.check`
        with the wrong tries so far): right -> the verdict ``"right"`` is kept and the question
        closes; wrong -> one more try, the feedback's stage ``"nudge"`` on the first, ``"rule"``
        after (as the notebook's exercise widget). Returns the Feedback.

        Raises:
            TutorialError: no question is asked now.
            ExerciseError: an answer that cannot be read (nothing is counted).
        """
        ex = self.question()
        if ex is None:
            raise TutorialError("no question is asked now")
        fb = ex.check(response, self.tries)
        if fb.correct:
            self.feedback = {"question": ex.key, "stage": "right", "text": ex.right_text()}
            self.answers[ex.key] = "right"
            self.asking, self.tries = "", 0
            self.ask_held()
        else:
            self.tries += 1
            self.feedback = {"question": ex.key, "stage": fb.stage, "text": fb.text}
        self.save()
        return fb

    def reveal(self) -> str:
        """Show the answer of the question asked now, after a first try only: the question
        closes as ``"wrong"``. Returns the answer's words.

        Raises:
            TutorialError: no question asked, or no try yet.
        """
        ex = self.question()
        if ex is None:
            raise TutorialError("no question is asked now")
        if not self.tries:
            raise TutorialError("Have a try first; then the answer can be shown.")
        text = ex.answer_text()
        why = cite_rulings(ex.why_text())
        if why and why not in text:
            text += f" {why}"
        self.feedback = {"question": ex.key, "stage": "answer", "text": text}
        self.answered("wrong")
        return text

    def leave(self) -> None:
        """Leave the question asked now unanswered: ``"wrong"`` after a wrong try, else ``"skipped"``."""
        self.answered("wrong" if self.tries else "skipped")

    def book_state(self) -> dict:
        """The steps and questions as plain JSON (a part of the progress)."""
        return {"steps": [st.as_dict() for st in self.steps.values()], "queue": list(self.queue),
                "read": sorted(self.read), "skipped": sorted(self.skipped), "answers": dict(self.answers),
                "introduced": dict(self.introduced), "asking": self.asking, "tries": self.tries,
                "feedback": self.feedback, "seeds": dict(self.seeds), "held": list(self.held)}

    def load_book(self, data: dict) -> None:
        """Take the steps and questions from ``data`` (:meth:`book_state`; a progress written
        before questions kept their tries has none: 0).

        Raises:
            ValueError, KeyError, TypeError: a part missing or of the wrong kind (named).
        """
        steps = {}
        for d in _listed(data, "steps"):
            if not isinstance(d, dict):
                raise TypeError(f"a step must be an object, got {type(d).__name__}")
            for key in ("key", "title", "text", "section", "question"):
                _text(d, key)
            for c in _listed(d, "choices"):
                _text({"choice": c}, "choice")
            lines = d.get("lines", [])  # a record from before the player aid has none
            if not isinstance(lines, list) or not all(isinstance(x, list) and len(x) == 2
                                                      and all(isinstance(y, str) for y in x) for x in lines):
                raise TypeError("a step's lines must be a list of [title, line] texts")
            st = Step.from_dict(d)
            steps[st.key] = st
        keys = {k: [_text({"k": k}, "k") for k in _listed(data, k)] for k in ("queue", "read", "skipped")}
        unknown = sorted({k for ks in keys.values() for k in ks} - set(steps))
        if unknown:
            raise ValueError(f"steps {unknown} are read, skipped or queued but were never met")
        answers = data["answers"]
        if not isinstance(answers, dict) or any(v not in VERDICTS for v in answers.values()):
            raise ValueError(f"answers must map questions to one of {VERDICTS}")
        introduced = data["introduced"]
        if not isinstance(introduced, dict) or not all(is_integer(v) for v in introduced.values()):
            raise ValueError("introduced must map steps to whole numbers")
        tries, feedback, seeds = data.get("tries", 0), data.get("feedback"), data.get("seeds", {})
        if not is_integer(tries) or tries < 0:
            raise ValueError(f"tries must be a whole number of at least 0, got {tries!r}")
        if feedback is not None and not (isinstance(feedback, dict) and all(isinstance(feedback.get(k), str)
                                                                           for k in ("question", "stage", "text"))):
            raise ValueError("feedback must be null or an object with question, stage and text")
        if not isinstance(seeds, dict) or not all(is_integer(v) for v in seeds.values()):
            raise ValueError("seeds must map questions to whole numbers")
        held = data.get("held", [])  # a progress from before questions were held has none
        if not isinstance(held, list) or not all(isinstance(k, str) for k in held):
            raise ValueError("held must be a list of question keys")
        self.steps, self.queue = steps, keys["queue"]
        self.read, self.skipped = set(keys["read"]), set(keys["skipped"])
        self.answers, self.introduced = dict(answers), {str(k): int(v) for k, v in introduced.items()}
        self.asking, self.tries, self.feedback, self.seeds = _text(data, "asking"), int(tries), feedback, dict(seeds)
        self.held = list(held)
        self._exercise = None

    def summary(self) -> dict:
        """How far the learner is: ``{"met", "read", "skipped", "asked", "held", "right"}``
        (counts of steps met, read, skipped; questions asked, held to ask later, answered right)."""
        return {"met": len(self.steps), "read": len(self.read), "skipped": len(self.skipped),
                "asked": len(self.answers) + (1 if self.asking and self.asking not in self.answers else 0),
                "held": len(self.held),
                "right": sum(1 for v in self.answers.values() if v == "right")}


def _listed(data: dict, key: str) -> list:
    value = data[key]
    if not isinstance(value, list):
        raise TypeError(f"{key} must be a list, got {type(value).__name__}")
    return value


def _text(data: dict, key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise TypeError(f"{key} must be text, got {type(value).__name__}")
    return value


class Tutorial(StepBook):
    """A first game of ``game`` against bots that teaches while it is played (module doc).

    Args:
        game: a Game or its registered name.
        seed: the game's seed (and the questions' seed).
        players: seats (default: the game's own, ``games.default_players``); seat 0 learns.
        progress: the progress file (``None``: ``PROGRESS_DIR/<game>.json``; ``False``: kept
            in memory only).
        state: a position to start from instead of a new game.

    Raises:
        UnknownGame: an unregistered name. ValueError: a bad seed or player count (the game's).
    """

    def __init__(self, game, *, seed: int = 1, players: int | None = None, progress=None, state=None):
        self.game = get_game(game) if isinstance(game, str) else game
        self.seed = seed
        self.points = teach_points(self.game)
        players = default_players(self.game) if players is None else players
        options = dict(getattr(_module(self.game, "tutorial"), "OPTIONS", None) or {})
        self.state = state if state is not None else self.game.new_game(players=players, seed=seed, **options)
        self.path = None if progress is False else Path(progress) if progress is not None \
            else PROGRESS_DIR / f"{self.game.name}.json"
        self.bots, _ = seat_bots(self.game, [default_agent(self.game)] * self.state.players, self.state.players, seed)
        self._init_book(self.game, seed)  # steps, queue, read, skipped, answers, asking (StepBook)
        self.decisions = 0           # the learner's decisions so far
        self.first_round = None      # (season, round) of the learner's first decision
        self.round_done = False
        self._events_seen = 0
        self._phases: set = set()
        self.displayed: set = set()  # the steps the panel has shown as the one to read (:meth:`shown`)
        self._queue_goal()
        self.bots_play()
        self.look()

    def holds_questions(self) -> bool:
        """Questions wait through the learner's first round (until :attr:`round_done`) and then
        while a step about what happened (a phase or an event: how the round ended) is still
        queued: the first round is played straight through, its end is told, and then its
        questions come, one after another, as a look back at what it taught
        (:meth:`StepBook.ask_held`). A step about what happened leaves the queue when read,
        skipped, or filed at the learner's next move."""
        return not self.round_done or any(k.startswith(("phase:", "event:")) for k in self.queue)

    # ------------------------------------------------------------------ what matters now
    def _queue_goal(self) -> None:
        """Queue the ``goal`` step first (:func:`goal_step`)."""
        self.steps["goal"] = goal_step(self.game, self.points, self.state)
        self.queue.append("goal")
        self.introduced["goal"] = 0

    def _kind_step(self, kind: str, actions: list) -> Step:
        """The step of decision kind ``kind`` with the learner's legal ``actions`` of it now."""
        said = [describe_action(a, self.state) for a in actions[:LISTED]]
        more = f" and {len(actions) - LISTED} more" if len(actions) > LISTED else ""
        p = self.points.get(f"kind:{kind}")
        text = p.say(self.state) if p is not None else f"A new kind of decision: {words(kind)}. For example: {said[0]}."
        text += choosing_words(self.game, len(actions), kind, p.now_at(self.state) if p else "")
        return Step(f"kind:{kind}", p.title if p else f"New: {words(kind)}", text,
                    p.section_at(self.state) if p else "",
                    tuple(said) + ((f"...{more}",) if more else ()), p.question if p else "",
                    p.lines_at(self.state) if p else ())

    def legal_by_kind(self) -> dict:
        """``{kind: [legal actions of the learner]}`` now (empty when the learner is not to move)."""
        by_kind: dict = {}
        if self.learner_to_move():
            for a in self.state.legal_actions():
                by_kind.setdefault(kind_of(self.game, a), []).append(a)
        return by_kind

    def shown(self, key: str | None = None) -> Step | None:
        """Step ``key`` (default: the current one) as it reads *now*: a decision kind legal for
        the learner is recomposed from the current position (its count and choices); a step
        about an earlier position says that it is as it was then (``"Then: ..."``), so no old
        choice or event is shown as current. ``None`` when there is no step. Asked for the
        current step (``key`` ``None``), it is the step on the panel: it counts as shown
        (:attr:`displayed`, :meth:`file_shown`) when the panel holds still for it, the learner
        being to move (or the game over): a step on the panel for a moment while the bots
        played on was never read (newcomers found such steps filed, never seen)."""
        if key is None and self.queue and (self.learner_to_move() or self.state.is_terminal()):
            self.displayed.add(self.queue[0])   # the step to read now is on the panel, and it stays
        key = key if key is not None else (self.queue[0] if self.queue else None)
        if key is None:
            return None
        st = self.steps[key]
        if key.startswith("kind:"):
            now = self.legal_by_kind().get(key[5:])
            if now:
                return self._kind_step(key[5:], now)
            then = st.text.replace(" You may now choose", " You could then choose")
            return Step(key, st.title, f"{then} (That was an earlier position: this kind of decision is not yours "
                        "right now.)", st.section, tuple(f"then: {c}" for c in st.choices), st.question, st.lines)
        if key.startswith("phase:") and key[6:] != phase_now(self.game, self.state):  # a phase over by now: told as past
            return Step(key, f"Earlier: {st.title}", f"{PAST} {st.text}", st.section, st.choices, st.question)
        if key in ("goal", "aid", "refusal") or self.introduced.get(key) == self.decisions:
            return st
        return Step(key, st.title, st.text.replace(f" {JUST_NOW}:", " When it came up:"), st.section, st.choices,
                    st.question)

    def was_shown(self, key: str) -> bool:
        return key in self.displayed

    def no_decision_yet(self) -> bool:
        return self.decisions == 0

    def file_shown(self) -> list:
        """The learner made a move: each queued step about something that happened (a phase, an
        event, a refused move) that the panel has shown (:attr:`displayed`) and the learner left
        unread is filed: it leaves the queue for good, kept under the steps met (Show again),
        neither read nor skipped, its question not asked. So no step about the past comes back
        move after move, and none leaves before the panel has shown it once. The goal, the
        player aid and the decision kinds stay (a kind comes back while it is legal,
        :meth:`settle`). Returns the keys filed."""
        filed = [k for k in self.queue if k in self.displayed and k not in ("goal", "aid") and not k.startswith("kind:")]
        self.queue = [k for k in self.queue if k not in filed]
        return filed

    def learner_to_move(self) -> bool:
        s = self.state
        return not s.is_terminal() and s.current_player() == LEARNER

    def _happened(self, fresh) -> list:
        """The steps of the events ``fresh`` (the log since the last look): each phase entered
        for the first time, each taught event kind met for the first time. A phase the game
        does not describe as a phase (no ``phase:`` teach point) but teaches as an event (an
        ``event:`` point named as the phase or as the event that opened it, such as a rest
        step's ``rest``) is one step, the event's: the kit's sentence on the phase would only
        say that event again."""
        s, new = self.state, []
        vis = getattr(self.game, "visibility", None)
        if vis is not None:  # what the learner may see: another seat's hidden card is never quoted
            fresh = vis.log_for(fresh, LEARNER)
        # the events after the first one not of the learner's own decision came while the bots played
        others = next((i for i, e in enumerate(fresh) if e.player != LEARNER), len(fresh))
        for i, e in enumerate(fresh):
            key, taught = f"phase:{e.phase}", [f"event:{e.kind}"]
            if e.phase not in self._phases:
                self._phases.add(e.phase)
                p = self.points.get(key)
                same = next((k for k in (f"event:{e.phase}", f"event:{e.kind}") if k in self.points), None)
                if p is not None and p.within and p.within in self.steps:
                    pass  # the phase is taught within its decision's step, met before (:meth:`_within`)
                elif p is None and same is not None:  # the phase is its event's step
                    taught.insert(0, same)
                else:
                    text = p.say(s) if p else f"The {words(str(e.phase))} phase began: {e.text}"
                    new.append(Step(key, p.title if p else f"The {words(str(e.phase))} phase", text,
                                    p.section_at(s) if p else "", (), p.question if p else ""))
            for key in taught:
                p = self.points.get(key)
                if p is not None and key not in self.steps and all(st.key != key for st in new):
                    when = MEANWHILE if i >= others else JUST_NOW
                    new.append(Step(key, p.title, f"{p.say(s)} {when}: {e.text}", p.section_at(s), (), p.question))
        return new

    def look(self) -> list:
        """Queue the steps the position now calls for (new phases, taught events since the
        last look, decision kinds newly legal for the learner). Returns the new steps."""
        s = self.state
        log = getattr(s, "log", None) or []
        new = self._happened(log[self._events_seen:])
        self._events_seen = len(log)
        if self.learner_to_move():
            for kind, actions in self.legal_by_kind().items():
                if f"kind:{kind}" not in self.steps:
                    new.append(self._kind_step(kind, actions))
            if self.first_round is None:
                self.first_round = round_of(s)
        if self.first_round is not None and not self.round_done:
            now = round_of(s)
            self.round_done = s.is_terminal() or (now is not None and now != self.first_round)
        order = {k: i for i, k in enumerate(self.points)}  # met together: in the game's teaching order
        new.sort(key=lambda st: order.get(st.key, len(order)))
        if self.learner_to_move() and "aid" not in self.steps:  # the first own decision: the player aid first
            new.insert(0, aid_step(self.game, s, self.points))
        for st in new:
            self.steps[st.key] = st
            self.queue.append(st.key)
            self.introduced[st.key] = self.decisions
        self._within()
        if self.learner_to_move() or s.is_terminal():  # the decision in front of the learner first
            self.settle(self.legal_by_kind(), phase_now(self.game, s))
        self.ask_held()  # once the first round is over and its end told
        return new

    def _within(self) -> None:
        """A phase taught within its decision's step (:attr:`TeachPoint.within`): once that
        step is met, the phase's own step, queued while the bots played and not shown yet,
        leaves the lesson (it was never met as a step of its own: one idea, one step)."""
        for key in [k for k in self.queue if k.startswith("phase:") and k not in self.displayed]:
            p = self.points.get(key)
            if p is not None and p.within and p.within in self.steps:
                self.queue.remove(key)
                del self.steps[key]
                self.introduced.pop(key, None)

    # ------------------------------------------------------------------ playing
    def why_not(self, action) -> str | None:
        """``None`` when ``action`` is legal for the learner now, else the rules' reason in
        plain words with its section ("... (estate rules: Market actions)")."""
        if not self.learner_to_move():
            return "It is not your decision now: the bots are playing." if not self.state.is_terminal() \
                else "The game is over."
        why = self.state.why_not(action)
        return None if why is None else cite_rulings(str(why))

    def attempt(self, action) -> str | None:
        """Play ``action`` for the learner: applied when legal (then the bots answer and new
        steps are queued) and ``None`` returned; else nothing changes, the reason is
        returned and, the first time, a ``refusal`` step explains it."""
        why = self.why_not(action)
        if why is not None:
            self.refused(action, why)
            return why
        self.state.apply_action(action)
        self.decisions += 1
        self.file_shown()
        self.did({kind_of(self.game, action)})
        self.bots_play()
        self.look()
        self.save()
        return None

    def refused(self, action, why: str) -> None:
        """Teach the first refusal the learner meets (``why``: the reason with its section)."""
        r = self.state.why_not(action) if self.learner_to_move() else None
        self.refused_message(f"You tried: {describe_action(action, self.state)}. The rules do not allow it now: {why}",
                             getattr(r, "section", "") or "")

    def refused_message(self, said: str, section: str) -> None:
        """Teach the first refusal the learner meets: ``said`` (what was refused and why, as
        the play view said it) and the rule's ``section``. A later refusal is not queued again
        but the step is rewritten with it, so the panel never quotes an older refusal than the
        message line."""
        first = "refusal" not in self.steps
        st = Step("refusal", "When a move is not allowed",
                  f"{end_sentence(said)} Every refusal gives the rule and its section; nothing changed, "
                  "so choose again.", section)
        self.steps["refusal"] = st
        if first:
            self.queue.insert(0, "refusal")
        self.introduced["refusal"] = self.decisions
        self.save()

    def chances(self) -> None:
        s = self.state
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance(sample_chance(s, self.seed))

    def bots_play(self) -> None:
        """Resolve chance and let the bots decide until the learner is to move or the game ends."""
        s = self.state
        self.chances()
        while not s.is_terminal() and s.current_player() != LEARNER:
            p = s.current_player()
            s.apply_action(self.bots[p].act(s.copy()))
            self.chances()

    def follow(self, state) -> list:
        """Follow a play view's position ``state`` (after a decision there, an undo, the bots'
        replies): the learner's decisions are counted from its record, new steps queued; the
        progress is written when a step is new, the learner is to move or the game is over
        (not after every bot decision: a haunted save is about 66 kB, 11 ms)."""
        self.state = state
        mine = [e.action for e in state.history() if not e.chance and e.player == LEARNER]
        if len(mine) > self.decisions:  # the learner moved: what the panel showed of the past is filed
            self.file_shown()
            self.did({kind_of(self.game, a) for a in mine[self.decisions:]})
        self.decisions = len(mine)
        new = self.look()
        if new or self.learner_to_move() or state.is_terminal():  # not at every bot decision: once they are done
            self.save()
        return new

    # ------------------------------------------------------------------ progress
    def progress(self) -> dict:
        """The progress as plain JSON (what :meth:`save` writes)."""
        return {"tutorial": VERSION, "game": self.game.name, "seed": self.seed, "state": self.state.to_dict(),
                **self.book_state(), "decisions": self.decisions,
                "first_round": list(self.first_round) if self.first_round is not None else None,
                "round_done": self.round_done, "phases": sorted(map(str, self._phases)),
                "events_seen": self._events_seen, "displayed": sorted(self.displayed)}

    def save(self) -> None:
        """Write the progress file atomically (nothing when the tutorial keeps no file)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(self.progress(), indent=1))

    @classmethod
    def resume(cls, game, path=None, **kw) -> "Tutorial":
        """The tutorial of ``game`` kept in ``path`` (default ``PROGRESS_DIR/<game>.json``),
        where it was left; a new one when there is no such file.

        Raises:
            TutorialError: a file that is not a tutorial's progress of this game (the message
                names the file and the problem; the file is left as it is).
        """
        game = get_game(game) if isinstance(game, str) else game
        path = Path(path) if path is not None else PROGRESS_DIR / f"{game.name}.json"
        if not path.exists():
            return cls(game, progress=path, **kw)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("tutorial") != VERSION or data.get("game") != game.name:
                raise ValueError(f"not a progress file (version {VERSION}) of a {game.title} tutorial")
            state = load_state(game, data["state"])
            t = cls(game, seed=int(data["seed"]), progress=path, state=state)
            t.load_book(data)
            t.decisions = int(data["decisions"])
            t.first_round = tuple(data["first_round"]) if data["first_round"] is not None else None
            t.round_done = bool(data["round_done"])
            t._phases = set(data["phases"])
            t._events_seen = int(data["events_seen"])
            t.displayed = {_text({"k": k}, "k") for k in data.get("displayed", [])} & set(t.steps)  # none before filing
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise TutorialError(f"{path}: cannot resume the tutorial from it: {exc}", path) from None
        return t

    def reset(self) -> None:
        """Start again: a new game on the same seed, nothing met (the file is rewritten)."""
        fresh = type(self)(self.game, seed=self.seed, players=self.state.players, progress=False)
        path = self.path
        self.__dict__.update(fresh.__dict__)
        self.path = path
        self.save()


def notebook(game, seed: int = 1) -> dict:
    """A small notebook (nbformat 4, plain JSON) that opens the tutorial of ``game`` (a
    Game or its name) on ``seed``: a one-line heading, one code cell, ``hk.tutorial(...)``, and
    under it how the lesson panel works;
    progress is kept beside it (``PROGRESS_DIR``), so re-opening it resumes."""
    game = get_game(game) if isinstance(game, str) else game
    # one short line over the game, so a laptop's first screen holds the lesson, the board and the choices
    text = (f"### A first game of {game.title}: you are P{LEARNER + 1}, bots play the other seats; the lesson panel "
            "teaches each new thing as you meet it.")
    how = ("The lesson panel introduces each kind of decision, phase and rule the first time it matters, names the "
           "rule's section, and after your first round asks a few short questions on it; a longer step shows what "
           "decides the move first and keeps the rest under **More**. **Got it** reads on, **Skip** skips a step, **Show again** replays "
           "one, **Player aid and goal** shows what you play for and every kind of decision, with its costs, again. "
           f"Your progress is kept in `{PROGRESS_DIR.as_posix()}/{game.name}.json`: open this page or notebook again "
           "and the lesson goes on where you left it.")
    code = f'import haunted_kit as hk\nhk.tutorial("{game.name}", seed={int(seed)})'
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "language_info": {"name": "python"}},
            "cells": [{"cell_type": "markdown", "id": "tutorial-intro", "metadata": {}, "source": text},
                      {"cell_type": "code", "id": "tutorial-play", "metadata": {}, "execution_count": None,
                       "outputs": [], "source": code},
                      {"cell_type": "markdown", "id": "tutorial-how", "metadata": {}, "source": how}]}


def write_notebook(game, path, seed: int = 1) -> Path:
    """Write :func:`notebook` of ``game`` to ``path`` atomically (its folder made); returns the path.

    Raises:
        OSError: the folder cannot be made or written (nothing half-written is left).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(notebook(game, seed), indent=1) + "\n")
    return path


def kind_steps(game, state, seat: int) -> list:
    """One :class:`Step` per decision kind legal for ``seat`` at ``state`` now (none when
    ``seat`` is not to move), in the game's words (its teach points) or its declarations,
    each listing the seat's legal choices of it.

    Args:
        game: a Game; state: a position; seat: a player index.
    """
    if state.is_terminal() or state.current_player() != seat:
        return []
    points = teach_points(game)
    by_kind: dict = {}
    for a in state.legal_actions():
        by_kind.setdefault(kind_of(game, a), []).append(a)
    out = []
    for kind, actions in by_kind.items():
        p = points.get(f"kind:{kind}")
        said = tuple(describe_action(a, state) for a in actions[:LISTED])
        more = f" and {len(actions) - LISTED} more" if len(actions) > LISTED else ""
        text = p.say(state) if p else f"A new kind of decision: {words(kind)}. For example: {said[0]}."
        out.append(Step(f"kind:{kind}", p.title if p else f"New: {words(kind)}", text + choosing_words(game, len(actions), kind, p.now_at(state) if p else ""),
                        p.section_at(state) if p else "", said + ((f"...{more}",) if more else ()),
                        p.question if p else "", p.lines_at(state) if p else ()))
    return out


def seat_lesson(game, state, seat: int) -> list:
    """What a seat of a shared table meets for the first time now, for a server's tutorial
    table: before its first decision the game's :func:`goal_step` and :func:`aid_step`, then one :class:`Step` per
    decision kind legal for ``seat`` at ``state`` that ``seat`` has never decided before
    (:func:`kind_steps`; read from the table's own record, ``state.history()``, so a
    reloaded page meets the same). Empty when ``seat`` is not to move.

    Args:
        game: a Game or its name; state: the table's position; seat: a player index.
    """
    game = get_game(game) if isinstance(game, str) else game
    if state.is_terminal() or state.current_player() != seat:
        return []
    done = {kind_of(game, e.action) for e in state.history() if not e.chance and e.player == seat}
    # a seat's first decision: what it plays for, then the player aid (as the notebook's tutorial)
    out = [] if done else [goal_step(game, None, state), aid_step(game, state)]
    return out + [st for st in kind_steps(game, state, seat) if st.key[5:] not in done]


#: the version of a seat's tutorial progress (:meth:`SeatTutorial.progress`)
SEAT_VERSION = 1


class SeatTutorial(StepBook):
    """The tutorial of one seat at a classroom server's tutorial table (``server
    --tutorial``): the steps the seat meets (:func:`seat_lesson`: the goal first, then each
    decision kind the first time it is the seat's), read with Next, Skip and Show again, and
    the questions their teach points name, asked after the step is read and answered on the
    seat's page (:class:`StepBook`, the notebook tutorial's own engine). The table never
    waits for a question: the seat plays on and may answer later.

    Args:
        game: a Game or its name; seat: the player index; seed: the table's seed;
        taken: every seed the class's tables of the game were dealt on (a question's seed
            keeps away from them, :func:`question_seed`); save: ``save(progress: dict)``
            called after every change (the server keeps it in its store), or ``None``.
    """

    def __init__(self, game, seat: int, seed: int, taken=(), save=None):
        game = get_game(game) if isinstance(game, str) else game
        self._init_book(game, seed, taken)
        self.seat = seat
        self._save = save
        self._decided = None  # the seat's decisions counted at the last follow (None: not followed yet)

    def save(self) -> None:
        if self._save is not None:
            self._save(self.progress())

    def no_decision_yet(self) -> bool:
        return not self._decided

    def follow(self, state) -> list:
        """Meet what ``state`` (the table's position) brings the seat for the first time
        (:func:`seat_lesson`) and, when the seat is to move, put its decision's kinds first
        (:meth:`StepBook.settle`); returns the steps new now (the progress is kept when the
        steps or their order changed)."""
        mine = [e.action for e in state.history() if not e.chance and e.player == self.seat]
        done = mine[self._decided:] if self._decided is not None else []
        self._decided = len(mine)
        if done:  # the step of what the seat just did counts as read
            self.did({kind_of(self.game, a) for a in done})
        new = self.meet(seat_lesson(self.game, state, self.seat))
        before = list(self.queue)
        if not state.is_terminal() and state.current_player() == self.seat:  # its decision's kinds first
            self.settle({kind_of(self.game, a) for a in state.legal_actions()}, phase_now(self.game, state))
        if new or self.queue != before:
            self.save()
        return new

    def shown(self, state, key: str | None = None) -> Step | None:
        """Step ``key`` (default: the current one) as it reads at ``state``: a decision kind
        the seat may take now lists its choices now; one it may not says its choices were
        those of an earlier position (``"then: ..."``). ``None``: no step."""
        key = key if key is not None else (self.queue[0] if self.queue else None)
        if key is None:
            return None
        st = self.steps[key]
        if not key.startswith("kind:"):
            return st
        now = {x.key: x for x in kind_steps(self.game, state, self.seat)}.get(key)
        if now is not None:
            return now
        return Step(key, st.title, st.text.replace(" You may now choose", " You could then choose")
                    + " (That was an earlier position: this kind of decision is not yours right now.)",
                    st.section, tuple(c if c.startswith("then: ") else f"then: {c}" for c in st.choices), st.question,
                    st.lines)

    def progress(self) -> dict:
        """The seat's progress as plain JSON (what the server's store keeps)."""
        return {"seat_tutorial": SEAT_VERSION, "game": self.game.name, "seat": self.seat, **self.book_state()}

    def load(self, data) -> None:
        """Resume from ``data`` (:meth:`progress`, as parsed JSON).

        Raises:
            TutorialError: not a progress record of this game's seat, or a part of it damaged
                (the message names what is wrong; nothing of it is taken).
        """
        try:
            if not isinstance(data, dict) or data.get("seat_tutorial") != SEAT_VERSION:
                raise ValueError(f"not a seat's tutorial progress (version {SEAT_VERSION})")
            if data.get("game") != self.game.name or data.get("seat") != self.seat:
                raise ValueError(f"it is the progress of {data.get('game')!r} seat {data.get('seat')!r}, "
                                 f"not of {self.game.name!r} seat {self.seat}")
            self.load_book(data)
        except (ValueError, KeyError, TypeError) as exc:
            msg = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
            raise TutorialError(f"P{self.seat + 1}'s tutorial progress cannot be read: {msg}") from None


def read_response(ex, raw):
    """A seat page's answer ``raw`` (JSON) as :meth:`~haunted_kit.exercises.Exercise.check`
    takes it for ``ex``'s kind: ``pick`` a list of option labels (a set), ``cells`` text
    naming cells as the boards write them (``"2,-1; 0,3"``, :func:`haunted_kit.hexgrid.cell_name`)
    or a list of ``[q, r]`` pairs (a set of cells), ``choose`` a label, ``number`` text or a
    whole number.

    Raises:
        ExerciseError: an answer of the wrong shape (nothing is counted).
    """
    if ex.kind == "pick":
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise ExerciseError("Tick the options that apply, then check.")
        return set(raw)
    if ex.kind == "cells":
        if isinstance(raw, str):
            pairs = _CELL.findall(raw)
            rest = _CELL.sub("", raw).replace(";", " ").replace("and", " ").strip(" ,")
            if rest:
                raise ExerciseError(f"write each cell as the board names it, such as 2,-1; 0,3 (not {rest[:20]!r})")
            return {(int(q), int(r)) for q, r in pairs}
        if isinstance(raw, list) and all(isinstance(c, list) and len(c) == 2 and all(is_integer(x) for x in c)
                                         for c in raw):
            return {(int(c[0]), int(c[1])) for c in raw}
        raise ExerciseError("write each cell as the board names it, such as 2,-1; 0,3")
    if ex.kind == "choose":
        if raw is not None and not isinstance(raw, str):
            raise ExerciseError("choose one of the answers")
        return raw
    if raw is not None and not isinstance(raw, str) and not is_integer(raw):
        raise ExerciseError("enter a whole number")
    return raw


_CELL = re.compile(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?")


def lines_html(lines) -> str:
    """A step's ``lines`` (the player aid: ``(title, line)`` pairs) as a compact list
    (``<ul class="hk-aid">``, escaped; one item per kind, its title in bold), or ``""``."""
    if not lines:
        return ""
    items = "".join(f"<li><b>{escape(t)}</b>: {escape(x)}</li>" for t, x in lines)
    return f'<ul class="hk-aid" style="margin:2px 0;padding-left:1.2em">{items}</ul>'
