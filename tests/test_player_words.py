"""Every text a player or a teacher reads is words, for every registered game: no key of the
game's data, no name of the code (``sell_wood_or_limestone``, ``returns()``,
``PlaceGhost``) and no kit ruling cited as a bare code ("(ruling E18)") without the
ruling's own words next to it (its question and reading, opened in place), and no path of the
repository (``docs/RULINGS.md``): a page cannot open a file of the kit's source; a ruling reads
as the kit's, its words on demand.

Seeded games of every game are played to the end by bots; at each new kind of position
(a new phase or status shape, a new set of decision kinds) every page of the table
server is built (each seat, the projector, the hot seat covered and revealed; on a
tutorial table the seats' lessons too) and every
text its view carries is read, then the teacher page's message (each table's status,
settings and their help, the decisions list, the new-table form's labels, help and
choices), the whole game log, each game's declared options, the notebook play view's
status and message lines (every word it shows) while a human plays it against bots, and
every exercise (its texts, and in its widget a cited ruling opened in words), and every text
of the notebook tutorial's page (the lesson panel, the game and the question asked) over a first
round.
"""

from __future__ import annotations

import html
import random
import re

import pytest

from haunted_kit import lesson
from haunted_kit.bots import default_agent, make_bot
from haunted_kit.events import kit_rulings, rulings_words
from haunted_kit.explain import option_label, settings_words
from haunted_kit.games import game_module, game_names, game_options, get_game
from haunted_kit.protocol import GameOption
from haunted_kit.server import PUBLIC, Classroom, classroom_games, option_fields, view_message
from haunted_kit.store import GameStore
from haunted_kit.tableview import choice_label
from haunted_kit.widgets.text import html_text, visible_text
from test_server import run

#: a name of the code: snake_case (``hire_one_and_take``), camelCase or CamelCase joined
#: words (``PlaceGhost``, ``seatResults``), a call (``returns()``, ``observation(p)``)
CODE_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b"
                       r"|\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b"
                       r"|\b[A-Za-z_]+\((?:[a-rt-z]|[a-z_]+(?:, ?[a-z_]+)+)?\)")
#: a kit ruling cited by its code: "ruling E18", "rulings E18, E19", "Ruling 32"
CITED = re.compile(r"\b[Rr]ulings? ((?:[EL]?\d+)(?:(?:, | and )[EL]?\d+)*)")

#: a path of the repository a player cannot open from a page: ``docs/RULINGS.md``, ``haunted_kit/events.py``
REPO_PATH = re.compile(r"\b(?:docs|data|haunted_kit|notebooks|tests|scripts)/[\w./-]+|\b[\w-]+\.(?:md|py|toml)\b"
                       r"|\bsee RULINGS\b")  # the kit's rulings document named as a thing to see

#: the kit's own words for its machinery, met by a newcomer in the rulings a page opens ("The fragment prints no
#: victory points", "playout", "dataset"): a ruling's reading says the rule's thing in the player's words
JARGON = re.compile(r"\b(?:fragment|playouts?|dataset|search agent|determinis\w*)\b", re.I)

#: words the regex takes for code that are the rules' own (none so far): word -> why it is allowed
RULE_WORDS: dict = {}
#: in event sentences only (the engines' log): none (an event's words change only with a save migration)
EVENT_WORDS: dict = {}

#: the view keys that are no text for people (ids, flags, numbers, the SVG's markup is read as text)
NOT_TEXT = {"type", "table", "seq", "you", "hot_seat", "revealed", "secrets", "acting", "needs_reveal", "turn", "bot",
            "undo", "undo_seat", "i", "cell", "xy", "name_wanted", "since", "seat", "id"}


def code_names(text: str, allowed=RULE_WORDS) -> list[str]:
    """The code names in ``text`` (HTML or plain; tags, style blocks and entities read as a
    page shows them, ``title``/``aria-label`` attributes included), less ``allowed``."""
    said = html_text(text) + " " + " ".join(html.unescape(a) for a in
                                            re.findall(r'\b(?:title|aria-label|alt)="([^"]*)"', text))
    return [m for m in CODE_NAME.findall(said) if m not in allowed]


def repo_paths(text: str) -> list[str]:
    """The paths of the repository ``text`` (HTML or plain, as a page shows it) names."""
    return REPO_PATH.findall(html_text(text))


def bare_rulings(text: str, beside: str = "") -> list[str]:
    """The kit rulings ``text`` cites without their reading in ``text`` or ``beside`` (the
    words the page shows next to it: a view's ``rulings``, a field's ``rulings``)."""
    known, out = kit_rulings(), []
    words = html.unescape(text + " " + beside)
    for m in CITED.finditer(html_text(text)):
        for rid in re.findall(r"[EL]?\d+", m[1]):
            reading = known.get(rid, (None, None))[1]
            if reading is None or reading not in words:
                out.append(rid)
    return out


def view_texts(msg, path=""):
    """``(path, text)`` of every text a page's view carries."""
    if isinstance(msg, str):
        yield path, msg
    elif isinstance(msg, dict):
        for k, v in msg.items():
            if k not in NOT_TEXT:
                yield from view_texts(v, f"{path}.{k}")
    elif isinstance(msg, (list, tuple)):
        for v in msg:
            yield from view_texts(v, f"{path}[]")


def faults_of(msg: dict, where: str, allowed=RULE_WORDS) -> list[str]:
    """Every code name and bare ruling of a view (``.log`` with :data:`EVENT_WORDS` allowed)."""
    out = []
    for path, text in view_texts(msg):
        ok = {**allowed, **EVENT_WORDS} if path == ".log" else allowed
        out += [f"{where} {path}: code name {c!r}" for c in code_names(text, ok)]
        out += [f"{where} {path}: a repository path {c!r}" for c in repo_paths(text)]
        beside = msg.get("rulings", "") if path in (".status", ".phase") else ""
        out += [f"{where} {path}: ruling {r} without its words" for r in bare_rulings(text, beside)]
    return out


def signature(t, msg: dict) -> tuple:
    """A kind of position of table ``t``: the status line's shape (numbers left out), the
    decision kinds open and the kind of the last decision (a Market visit after a trade is
    another position than before it)."""
    state = t.state
    kinds = frozenset(type(a).__name__ for a in state.legal_actions()) if not state.is_terminal() else frozenset()
    last = type(t.applied[-1][2]).__name__ if t.applied else None
    return re.sub(r"\d+", "#", msg["status"] + "|" + msg.get("phase", "")), kinds, last


def played_table(name: str, seed: int):
    """A classroom with one table of ``name`` (the game's default settings), and a function
    playing it on by seeded bots (random on odd seeds, the game's default agent on even ones)."""
    game = get_game(name)
    c = Classroom(GameStore(":memory:"), bot_delay=0)
    c.tutorial = seed % 2 == 0  # a tutorial table: each seat's page also says what it meets first
    players = min(max(3, game.min_players), game.max_players)
    assert run(lambda: c.teacher_op({"op": "create", "game": name, "players": players, "seed": seed})) \
        == {"ok": "Table 1 created."}
    t = c.store.table(1)
    kind = "random" if seed % 2 else None
    bots = {p: make_bot(kind or default_agent(game), 50 + 7 * seed + p, game) for p in range(players)}
    return c, t, bots


SEEDS = (1, 2)


@pytest.mark.parametrize("name", game_names())
def test_every_page_of_a_table_speaks_words(name):
    faults, seen, pages = [], set(), 0
    for seed in SEEDS:
        c, t, bots = played_table(name, seed)
        while True:
            first = view_message(t, PUBLIC, 30)
            key = signature(t, first)
            if key not in seen or t.state.is_terminal():
                seen.add(key)
                views = {mode: c.build_view(t, PUBLIC, mode) for mode in ("projector", "hotseat", "hotseat-revealed")}
                views.update({f"P{p + 1}": c.build_view(t, p, "seat") for p in range(t.state.players)})
                for page, msg in views.items():
                    faults += faults_of(msg, f"{name} seed {seed} {page} at {len(t.applied)}")
                pages += len(views)
            if t.state.is_terminal():
                break
            p = t.state.current_player()
            t.decide(p, bots[p].act(t.state.copy()))
        for viewer in (None, *range(t.state.players)):  # every event sentence, as each seat and the projector read it
            log = lesson.full_log_html(t, viewer)
            faults += [f"{name} whole log: code name {w!r}" for w in code_names(log, {**RULE_WORDS, **EVENT_WORDS})]
            faults += [f"{name} whole log: ruling {r} without its words" for r in bare_rulings(log)]
            faults += [f"{name} whole log: a repository path {c!r}" for c in repo_paths(log)]
        teacher = c.teacher_message()
        for row in teacher["tables"]:
            for key in ("status", "settings"):
                faults += faults_of({key: row[key]}, f"{name} teacher page")
            faults += [f"{name} teacher settings help: code name {w!r}" for w in code_names(row["settings_help"])]
            faults += [f"{name} teacher settings help: ruling {r} without its words"
                       for r in bare_rulings(row["settings_help"])]
            faults += faults_of({"decisions": row["decisions_list"]}, f"{name} teacher decisions")
    assert not faults, "\n".join(sorted(set(faults))[:40])
    assert pages >= 2 * (2 + 2), "every page was built at the start and the end at least"


@pytest.mark.parametrize("name", game_names())
def test_the_new_table_form_and_the_settings_are_words(name):
    """Each field of the game's new-table form: its label, help and every choice's words
    (what the dropdown shows) are words, and a kit ruling its help cites is there in words;
    the settings lines write a choice by its words, never its key."""
    form = next(g for g in classroom_games() if g["name"] == name)
    faults = []
    for f in form["fields"]:
        shown = [f["label"], f.get("help", ""), *(choice_label(f, c) for c in f.get("choices", ()))]
        faults += [f"{name} field {f['name']}: code name {w!r}" for s in shown for w in code_names(s)]
        faults += [f"{name} field {f['name']}: ruling {r} without its words"
                   for r in bare_rulings(f.get("help", ""), f.get("rulings", ""))]
        for c in f.get("choices", ()):
            row = settings_words(get_game(name), {f["name"]: c}, form["fields"])[0]
            assert row["value"] == choice_label(f, c).replace("_", " ") and not code_names(row["value"])
    for o in game_options(get_game(name)):  # what the command line and a form without a classroom module say
        faults += [f"{name} option {o.keyword}: code name {w!r}" for w in code_names(option_label(o))]
        faults += [f"{name} option {o.keyword} choice {v}: code name {w!r}" for v, _ in o.choices
                   for w in code_names(o.words(v))]
    assert not faults, "\n".join(faults)


def test_a_declared_choice_is_shown_by_its_words():
    """A word option's ``choices`` become a dropdown of words in a form without a classroom
    module and the settings line writes the words; another value is refused naming them."""
    opt = GameOption("pace", "how fast the toy plays", default="slow_start",
                     choices=(("slow_start", "a slow start"), ("all_in", "everything at once")))
    game = type("Toy", (), {"options": (opt,), "name": "toy"})()
    [field] = option_fields(game)
    assert field["kind"] == "choice" and field["labels"] == {"slow_start": "a slow start", "all_in": "everything at once"}
    assert settings_words(game, {"pace": "all_in"})[0]["value"] == "everything at once"
    with pytest.raises(ValueError, match="must be one of slow_start \\(a slow start\\), all_in"):
        opt.check("fast")
    with pytest.raises(ValueError, match="choices are \\(value, words\\) pairs"):
        GameOption("pace", "x", kind="int", choices=(("a", "b"),))


def test_every_kit_ruling_reads_in_words():
    """A cited ruling opens with its question and reading (docs/RULINGS.md): those are for
    players, so no code name (the code is the table's "where" column)."""
    faults = [f"ruling {rid}: {w!r}" for rid, (q, r) in kit_rulings().items() for w in code_names(f"{q} {r}")]
    assert not faults, faults
    # nor the kit's own jargon, which a newcomer met in the rulings a page opens
    jargon = [f"ruling {rid}: {w!r}" for rid, (_q, r) in kit_rulings().items() for w in JARGON.findall(r)]
    assert not jargon, jargon
    said = rulings_words("Marked prices (ruling E12).")
    assert said.startswith("Marked prices (ruling E12). Kit ruling E12 (") and kit_rulings()["E12"][1] in said


@pytest.mark.parametrize("name", [n for n in game_names() if getattr(game_module(n, "widgets"), "play_view", None)])
def test_the_notebook_play_views_lines_are_words(name):
    """The play view's status and message lines (and every word it shows) while its human
    plays random legal decisions against the game's bots to the end."""
    game = get_game(name)
    state = game.new_game(players=min(max(3, game.min_players), game.max_players), seed=3)
    view = game_module(name, "widgets").play_view(state, bots=list(range(1, state.players)), hints=False)
    rng, faults, seen, steps = random.Random(3), [], set(), 0
    while not view.state.is_terminal() and steps < 400:
        shown = visible_text(view)
        key = re.sub(r"\d+", "#", shown[:120])
        if key not in seen:
            seen.add(key)
            faults += [f"{name} play view: code name {w!r}" for w in code_names(shown, {**RULE_WORDS, **EVENT_WORDS})]
            faults += [f"{name} play view: a repository path {c!r}" for c in repo_paths(shown)]
            faults += [f"{name} play view: ruling {r} without its words"
                       for r in bare_rulings(view.message_label.value if hasattr(view, "message_label") else shown)]
        view.attempt(rng.choice(view.state.legal_actions()))
        steps += 1
    shown = visible_text(view)
    faults += [f"{name} play view at the end: code name {w!r}" for w in code_names(shown, {**RULE_WORDS, **EVENT_WORDS})]
    assert view.state.is_terminal(), "the play view's game was played to the end"
    assert not faults, "\n".join(sorted(set(faults)))


@pytest.mark.parametrize("name", [n for n in game_names() if getattr(game_module(n, "exercises"), "EXERCISES", None)])
def test_every_exercise_speaks_words(name):
    """Each exercise of the game (seeds 1 and 2): its title, facts, question, choices,
    nudge, rule and answer are words; in its widget a kit ruling the facts or the answer
    cite opens in its words."""
    from haunted_kit.widgets.exercise import ExerciseWidget

    faults = []
    for key in game_module(name, "exercises").EXERCISES:
        for seed in (1, 2):
            ex = game_module(name, "exercises").EXERCISES.make(key, seed)
            shown = [ex.title, ex.question, ex.nudge, ex.rule, ex.answer_note, *map(str, ex.options), *ex.fact_lines(),
                     ex.answer_text(), ex.why_text(), ex.right_text()]
            faults += [f"{name} {key} seed {seed}: code name {w!r} in {s[:80]!r}" for s in shown if isinstance(s, str)
                       for w in code_names(s)]
            w = ExerciseWidget(ex)
            w.tries = 1
            w.b_answer.disabled = False  # as after a first try: the answer may be shown
            w.reveal()
            for part in (w.facts.value, w.feedback.value):
                faults += [f"{name} {key} seed {seed}: ruling {r} without its words" for r in bare_rulings(part)]
            faults += [f"{name} {key} seed {seed}: a repository path {c!r} in its widget" for c in repo_paths(visible_text(w))]
    assert not faults, "\n".join(faults)


def test_a_word_options_choices_are_listed_with_their_words_in_the_command_lines_help():
    import argparse

    from haunted_kit.cli import add_game_options

    opt = GameOption("pace", "how fast the toy plays", default="slow_start",
                     choices=(("slow_start", "a slow start"), ("all_in", "everything at once")))
    parser = argparse.ArgumentParser()
    add_game_options(parser, type("Toy", (), {"options": (opt,), "name": "toy"})())
    said = " ".join(parser.format_help().split())
    assert "one of slow_start (a slow start), all_in (everything at once); default slow_start" in said


@pytest.mark.parametrize("name", game_names())
def test_the_tutorial_page_speaks_words(name, tmp_path):
    """The notebook tutorial's page over a first round played by random legal decisions: every
    word it shows (the lesson panel, the game, the question asked, a refused move explained) has
    no repository path and no code name of the kit's own lesson (its steps, choices and
    questions), and each question's widget cites a ruling as the kit's, its words in place."""
    from haunted_kit.tutorial import teach_points
    from haunted_kit.widgets.tutorial import TutorialView

    v = TutorialView(name, seed=1, progress=tmp_path / "p.json", resume=False)
    rng, faults, seen, asked = random.Random(5), [], set(), 0
    for _ in range(300):
        for _read in range(40):  # every step read, so each question is asked
            shown = visible_text(v)
            if shown not in seen:
                seen.add(shown)
                faults += [f"{name} tutorial page: a repository path {c!r}" for c in repo_paths(shown)]
                faults += [f"{name} tutorial lesson: ruling {r} without its words"
                           for r in bare_rulings(v.lesson.value)]
            if v.exercise is not None:
                asked += 1
                faults += [f"{name} tutorial question: ruling {r} without its words"
                           for r in bare_rulings(v.exercise.facts.value)]
                v.leave_question()
            elif v.tutorial.current is not None:
                v.next()
            else:
                break
        if v.tutorial.round_done or v.view.state.is_terminal():  # the steps the round's end brought are read too
            break
        if v.tutorial.learner_to_move():
            v.view.attempt(rng.choice(v.view.state.legal_actions()))
    assert v.tutorial.round_done and len(seen) > 3
    assert asked or not any(p.question for p in teach_points(name).values()), "no question was asked: not read"
    assert not faults, "\n".join(sorted(set(faults))[:40])
