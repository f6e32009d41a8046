"""The first game that teaches itself (haunted_kit.tutorial, haunted_kit.widgets.tutorial), over
every registered game: a scripted player (the random bot playing for the student) completes the
first round; every decision kind it met was introduced before or at its first decision; steps
can be skipped and replayed; progress is kept and resumed; a wrong move is refused in plain
words with the rule's section; each game's teach points cite sections its engine uses."""

from __future__ import annotations

import re

import importlib.util
import json
import os
import shlex
import sys
from html import escape

import pytest

from haunted_kit.hexgrid import name_cells
from haunted_kit.games import DEFAULT_GAME, default_players, game_module, game_names, get_game
from haunted_kit.protocol import RandomAgent, describe_action, sample_chance
from haunted_kit.tutorial import (LEARNER, TeachPoint, Tutorial, TutorialError, aid_step, board_kinds, button_kinds, choices_where, choosing_words, kind_of,
                                  MEANWHILE, phase_now, round_word, step_parts, teach_points)
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.tutorial import TutorialView
from ruletools import games_with_module

GAMES = game_names()
#: the most decisions of the learner a first round takes in any game (a loop bound, not a result)
ROUND_BOUND = 400


def play_first_round(t: Tutorial, seed: int = 5, read: bool = True, offered: set | None = None) -> list:
    """The random bot plays for the learner until the first round is over; every step is read
    (or left unread) and every question answered right. Returns the kinds decided, in order;
    ``offered`` collects the kinds legal at each of the learner's decisions."""
    bot, kinds = RandomAgent(seed), []
    while not t.round_done:
        if offered is not None:
            offered |= {kind_of(t.game, a) for a in t.state.legal_actions()}
        assert len(kinds) < ROUND_BOUND
        while read and t.current is not None:
            t.next()
        if t.asking:
            ex = t.question()
            assert ex.check(ex.answer).correct
            t.answered("right")
        a = bot.act(t.state.copy())
        kind = kind_of(t.game, a)
        # introduced before or at the first decision of the kind: queued by then
        assert f"kind:{kind}" in t.introduced, (kind, sorted(t.introduced))
        assert t.introduced[f"kind:{kind}"] <= t.decisions
        assert t.attempt(a) is None
        kinds.append(kind)
    return kinds


def an_illegal_action(t: Tutorial):
    """An action of the game that is refused at the learner's position: one legal at a later
    position of a copy played on by random bots, not legal now."""
    now = t.state
    s, bot = now.copy(), RandomAgent(3)
    for _ in range(2000):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_chance(s.chance_outcomes()[0][0])
            continue
        for a in s.legal_actions():
            if now.why_not(a) is not None:
                return a
        s.apply_action(bot.act(s))
    pytest.skip("no refused action found on this seed")  # pragma: no cover


@pytest.mark.parametrize("game", GAMES)
def test_a_scripted_player_completes_the_first_round(game, tmp_path):
    t = Tutorial(game, seed=1, progress=tmp_path / "p.json")
    kinds = play_first_round(t)
    assert kinds and t.round_done
    met = [k for k in t.steps if k.startswith("kind:")]
    assert {f"kind:{k}" for k in kinds} <= set(met)
    phases = [k for k in t.steps if k.startswith("phase:")]
    assert phases, "the phases the game went through are taught"
    points = teach_points(game)
    for key in met + phases:  # the game's own words where it declares them, with the section
        if key in points:
            assert t.steps[key].text.startswith(points[key].say(t.state)) and t.steps[key].section == points[key].section


@pytest.mark.parametrize("game", GAMES)
def test_steps_follow_what_the_player_does(game, tmp_path):
    """Two players who choose differently meet different positions: the steps are the
    position's, not a fixed script (the kinds each one's first decision offers)."""
    a = Tutorial(game, seed=1, progress=False)
    b = Tutorial(game, seed=1, progress=False)
    first_kinds = {f"kind:{kind_of(a.game, x)}" for x in a.state.legal_actions()}
    assert first_kinds == {k for k in a.steps if k.startswith("kind:")}
    for t, seed in ((a, 11), (b, 12)):
        offered: set = set()
        play_first_round(t, seed=seed, offered=offered)
        if not t.state.is_terminal():
            offered |= {kind_of(t.game, x) for x in t.state.legal_actions()}
        # each tutorial introduced exactly the kinds its own positions offered the player
        assert {k for k in t.steps if k.startswith("kind:")} == {f"kind:{k}" for k in offered}


@pytest.mark.parametrize("game", GAMES)
def test_steps_met_together_come_in_the_games_teaching_order(game):
    """Met together at the first decision: the goal, the aid, the phases over by then (the
    setting up: the context), the kinds legal now, the phase the game is in, then the rest;
    within each, the game's teaching order."""
    t = Tutorial(game, seed=1, progress=False)
    order = list(teach_points(game))
    legal = {f"kind:{k}" for k in t.legal_by_kind()}
    now = f"phase:{phase_now(t.game, t.state)}"
    assert t.queue[:2] == ["goal", "aid"] and {k for k in t.queue if k.startswith("kind:")} == legal
    past = [k for k in t.queue if k.startswith("phase:") and k != now]
    assert past, "every game has a phase before the learner's first decision (its setting up)"
    groups = [past, [k for k in t.queue if k in legal], [k for k in t.queue if k == now],
              [k for k in t.queue[2:] if k not in legal and k != now and k not in past]]
    assert t.queue[2:] == [k for g in groups for k in g]
    for g in groups:
        first = [k for k in g if k in order]
        assert first == sorted(first, key=order.index)


@pytest.mark.parametrize("game", GAMES)
def test_skip_and_replay(game):
    t = Tutorial(game, seed=1, progress=False)
    first = t.current
    assert first is not None
    second = t.waiting()[0] if t.waiting() else None
    t.skip()
    assert first.key in t.skipped and first.key not in t.queue and first.key not in t.read
    assert (t.current.key if t.current else None) == (second.key if second else None)
    again = t.replay(first.key)
    assert t.current is again and again.key == first.key
    t.next()
    assert first.key in t.read
    with pytest.raises(TutorialError, match="no step 'kind:nothing' has been met"):
        t.replay("kind:nothing")


@pytest.mark.parametrize("game", GAMES)
def test_progress_is_kept_and_resumed(game, tmp_path):
    path = tmp_path / "progress.json"
    t = Tutorial(game, seed=1, progress=path)
    bot = RandomAgent(7)
    t.next()
    for _ in range(2):
        if t.state.is_terminal():
            break
        t.attempt(bot.act(t.state.copy()))
    data = json.loads(path.read_text())
    assert data["game"] == game and data["decisions"] == t.decisions
    r = Tutorial.resume(game, path)
    assert r.state.to_dict() == t.state.to_dict()
    assert (r.queue, r.read, r.skipped, r.introduced, r.decisions) == (t.queue, t.read, t.skipped, t.introduced,
                                                                         t.decisions)
    assert list(r.steps) == list(t.steps)
    # a damaged file is refused with its name and left as it is
    path.write_text("{not json")
    with pytest.raises(TutorialError, match="cannot resume the tutorial"):
        Tutorial.resume(game, path)
    assert path.read_text() == "{not json"
    # a missing file starts a new tutorial there
    assert Tutorial.resume(game, tmp_path / "new.json").decisions == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_move_is_refused_in_plain_words_with_the_section(game):
    t = Tutorial(game, seed=1, progress=False)
    bad = an_illegal_action(t)
    before = t.state.to_dict()
    why = t.attempt(bad)
    refusal = t.state.why_not(bad)
    assert why is not None and refusal.text in why and refusal.section in why
    assert t.state.to_dict() == before
    assert t.current.key == "refusal" and t.steps["refusal"].section == refusal.section
    assert refusal.text in t.steps["refusal"].text


@pytest.mark.parametrize("game", GAMES)
def test_teach_points_cite_their_sections_and_exercises(game):
    points = teach_points(game)
    g = get_game(game)
    s = g.new_game(players=default_players(g), seed=1)
    for p in points.values():
        assert p.say(s) and p.section and p.title
        if p.key.startswith("kind:"):
            assert p.key[5:] in g.action_types


@pytest.mark.parametrize("game", games_with_module("tutorial"))
def test_a_game_with_a_table_teaches_every_kind_it_declares_in_its_own_words(game):
    kinds = {f"kind:{k}" for k in get_game(game).action_types}
    assert kinds <= set(teach_points(game)), sorted(kinds - set(teach_points(game)))


@pytest.mark.parametrize("game", GAMES)
def test_a_taught_event_is_introduced_when_it_first_happens_and_hidden_events_never_are(game):
    """Played on past the first round: each event kind the game teaches is a step from the
    learner's first look after it happened (its sentence quoted; or, for an event named as a
    phase that the game does not describe as a phase, from the phase's beginning, quoting the
    event that opened it: one step for both), and no step quotes an event hidden from the
    learner (another seat's face-down card)."""
    t = Tutorial(game, seed=1, progress=False)
    points = {k[6:] for k in teach_points(game) if k.startswith("event:")}
    vis = getattr(t.game, "visibility", None)
    bot, seen = RandomAgent(9), {}
    for _ in range(ROUND_BOUND):
        if t.state.is_terminal():
            break
        t.attempt(bot.act(t.state.copy()))
        visible = vis.log_for(t.state.log, LEARNER) if vis is not None else list(t.state.log)
        for e in visible:
            phased = str(e.phase) in points and f"phase:{e.phase}" not in teach_points(game)
            name = str(e.phase) if phased and str(e.phase) not in seen else e.kind
            if name in points and name not in seen:
                seen[name] = name_cells(e.text)  # a step writes cells as the boards do
                st = t.steps.get(f"event:{name}")
                assert st is not None and (st.text.endswith(f"Just now: {seen[name]}") if e.player == LEARNER
                                           else st.text.endswith(f"{MEANWHILE}: {seen[name]}")), name
    if points:
        assert seen, "a played game met none of the events the game teaches"
    hidden = [e.text for e, v in zip(t.state.log, vis.log_for(t.state.log, LEARNER))
              if v.text != e.text] if vis is not None else []
    for st in t.steps.values():
        assert not any(h in st.text for h in hidden), st


def test_a_game_without_teach_points_is_taught_from_its_declarations(monkeypatch, tmp_path):
    """The toy Nim has no tutorial module: every kind and phase is still taught, from its
    own words, and a refusal from why_not."""
    from haunted_kit import games

    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent / "fourth_game"))
    monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", "GAME"))
    assert teach_points("nim") == {}
    t = Tutorial("nim", seed=2, progress=tmp_path / "nim.json")
    kinds = play_first_round(t)
    assert kinds
    for k in (k for k in t.steps if k.startswith("kind:")):
        st = t.steps[k]
        assert st.title == f"New: {k[5:].replace('_', ' ')}" and st.choices
        # said new once, and no board to light: the toy draws none (its choices are listed)
        assert "New: New:" not in st.title
        assert "under 'Your choices')" in st.text and "lit on the board" not in st.text
    # its notebook view is the kit's own play view (no widgets module), and teaches the same
    with capture_errors() as caught:
        v = TutorialView("nim", seed=2, progress=False)
        assert type(v.view).__name__ == "GamePlayView" and v.tutorial.current is not None
        off = [w.value for w in v.view.controls.children if "hk-hints-off" in w._dom_classes]
        assert off == ["<i>Hints are switched off in this tutorial, so that you try each move yourself first "
                       "(in a notebook, hk.tutorial(game, hints=True) turns them on).</i>"]  # no teacher to name
        assert v.you.layout.display == "none" and v.you.value == ""   # no holdings declared: no line
    # on a Voila page no code can be typed: the Python way to turn them on is not said there
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.8")
    v = TutorialView("nim", seed=2, progress=False)
    off = [w.value for w in v.view.controls.children if "hk-hints-off" in w._dom_classes]
    assert off == ["<i>Hints are switched off in this tutorial, so that you try each move yourself first.</i>"]
    monkeypatch.delenv("SERVER_SOFTWARE")
    with capture_errors() as caught:
        v.view.attempt(v.view.legal[0])
        assert v.tutorial.decisions == 1
    assert not caught


@pytest.mark.parametrize("game", GAMES)
def test_choices_are_said_to_be_lit_on_the_board_only_for_the_kinds_the_board_lights(game):
    """A kind step says "lit on the board" only for a kind the game's board lights (its
    declared board kinds, each a kind of the game); every other kind's choices are "listed
    below" as buttons under "Your choices". Over a first round played, every kind step met reads so."""
    g = get_game(game)
    lit, listed = board_kinds(g), button_kinds(g)
    assert lit <= set(getattr(g, "action_types", None) or {}), sorted(lit)
    assert listed <= lit, sorted(listed - lit)   # a kind also listed as buttons is one the board lights
    assert choices_where(g, None) == ("lit on the board: click one there" if lit else "buttons under 'Your choices'")
    assert choices_where(g, None, 1) == ("lit on the board: click it there" if lit else "a button under 'Your choices'")
    t = Tutorial(game, seed=1, progress=False)
    play_first_round(t, read=False)
    kinds = [k for k in t.steps if k.startswith("kind:")]
    assert kinds
    for key in kinds:
        text = t.steps[key].text
        on_board = re.search(r"\(lit on the board: click (one|it) there\)", text) is not None
        both = re.search(r"\((a button|buttons) under 'Your choices', or a click on (its|a) lit cell\)", text) is not None
        assert on_board == (key[5:] in lit - listed), (key, text)
        assert both == (key[5:] in listed), (key, text)
        assert on_board or both or re.search(r"\((a button|buttons) under 'Your choices'\)", text), text


def test_a_teach_point_with_a_bad_key_is_refused():
    with pytest.raises(ValueError, match="a teach point's key is"):
        TeachPoint("move:x", "t", "x", "s")


@pytest.mark.parametrize("game", GAMES)
def test_the_widget_teaches_while_the_play_view_plays(game, tmp_path):
    with capture_errors() as caught:
        v = TutorialView(game, seed=1, progress=tmp_path / "w.json")
        t = v.tutorial
        assert v.view.state is t.state and t.current is not None
        assert t.current.title in v.lesson.value
        first = t.current.key
        v.b_skip.click()
        assert first in t.skipped
        v.met.value = first
        v.b_replay.click()
        assert t.current.key == first
        v.b_next.click()
        bot = RandomAgent(5)
        for _ in range(ROUND_BOUND):
            if t.round_done:
                break
            while t.current is not None:
                v.b_next.click()
            if t.asking:
                assert v.exercise is not None
                v.b_resume.click()
                assert t.answers and not t.asking
            assert v.view.attempt(bot.act(v.view.state.copy()))
        assert t.round_done and f"first {round_word(game)} is over" in v.lesson.value
        assert "Play on to the end of the game" in v.lesson.value   # the lesson is not over: the game goes on
        # a game that names its round says its own word (estate: a season), never "round" for it
        if round_word(game) != "round":
            assert "first round is over" not in v.lesson.value
        while t.asking:       # the first round's questions, asked after it: left, one after another
            v.b_resume.click()
        # a wrong move: the play view says no, the lesson panel explains it with the section
        if not t.state.is_terminal() and t.learner_to_move():
            bad = an_illegal_action(t)
            assert not v.view.attempt(bad)
            assert t.current.key == "refusal" and t.state.why_not(bad).section in v.lesson.value
        # Start again: a new first game, nothing met, and the new play view is followed
        v.b_restart.click()
        t = v.tutorial
        assert t.decisions == 0 and not t.read and not t.round_done and v.view.state is t.state
        assert json.loads((tmp_path / "w.json").read_text())["decisions"] == 0
        assert v.view.attempt(v.view.state.legal_actions()[0]) and t.decisions == 1
    assert not caught, caught


def test_the_command_writes_the_notebook_and_says_how_to_open_it(tmp_path, capsys):
    from haunted_kit.cli import main

    for game in GAMES:
        assert main(["tutorial", "--game", game, "--seed", "3", "--dir", str(tmp_path), "--no-open"]) == 0
        nb = json.loads((tmp_path / f"tutorial-{game}.ipynb").read_text())
        assert nb["cells"][1]["source"] == f'import haunted_kit as hk\nhk.tutorial("{game}", seed=3)'
        out = capsys.readouterr().out
        assert get_game(game).title in out
        # the printed command works in a plain shell: no bare "voila" that the venv's PATH may lack
        line = next(x for x in out.splitlines() if x.startswith("To open it: "))
        words = shlex.split(line.removeprefix("To open it: ").split("   ")[0])
        assert words[:2] == ["cd", str(tmp_path)] and words[2] == "&&"
        assert words[3:] == [sys.executable, "-m", "haunted_kit.classroom", f"tutorial-{game}.ipynb"]  # the kit's Voila
        assert os.access(words[3], os.X_OK) and importlib.util.find_spec("voila") is not None
        assert "It serves on port 8866 by default" in out and "--port N chooses another" in out
    # a port and no browser go to the app, in the printed command too (two tutorials on one machine)
    assert main(["tutorial", "--dir", str(tmp_path), "--no-open", "--port", "8944", "--no-browser"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("To open it: "))
    assert shlex.split(line.removeprefix("To open it: ").split("   ")[0])[-3:] == [
        f"tutorial-{DEFAULT_GAME}.ipynb", "--port=8944", "--no-browser"] and "by default" not in out
    assert main(["tutorial", "--dir", str(tmp_path), "--no-open", "--lab"]) == 0
    assert "It serves on port 8888 by default" in capsys.readouterr().out


def test_the_command_refuses_bad_usage_with_exit_2(tmp_path, capsys):
    from haunted_kit.cli import main

    (tmp_path / "file").write_text("")
    for argv, said in ((["tutorial", "--game", "nope", "--no-open"], "invalid choice: 'nope'"),
                       (["tutorial", "--dir", str(tmp_path / "file"), "--no-open"], "is a file, not a folder"),
                       (["tutorial", "--seed", "x", "--no-open"], "--seed"),
                       (["tutorial", "--port", "80", "--no-open"], "argument --port: the value must be a whole number "
                                                                   "from 1,024 to 65,535, got '80'")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
    with pytest.raises(SystemExit) as e:
        main(["tutorial", "--help"])
    assert e.value.code == 0 and "--no-open" in capsys.readouterr().out


def test_the_notebook_runs_and_resumes(tmp_path):
    """The written notebook, executed as Jupyter would (nbclient), shows the tutorial and keeps
    its progress beside it; executed again, it resumes from that file."""
    import nbformat
    from nbclient import NotebookClient

    game = GAMES[0]
    from haunted_kit.tutorial import PROGRESS_DIR, write_notebook

    path = write_notebook(game, tmp_path / "t.ipynb")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = nb.cells[1].outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in shown and "Tutorial: " in shown["text/plain"]
    kept = json.loads((tmp_path / PROGRESS_DIR / f"{game}.json").read_text())
    assert kept["game"] == game and kept["steps"]


@pytest.mark.parametrize("game", GAMES)
def test_the_widget_keeps_a_damaged_progress_file_aside_and_begins_anew(game, tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"tutorial": 1, "game": "%s", "seed": 1}' % game)  # no state: cannot be resumed
    with capture_errors() as caught:
        v = TutorialView(game, progress=path)
    assert not caught
    aside = tmp_path / "p.damaged-1.json"
    assert aside.read_text() == '{"tutorial": 1, "game": "%s", "seed": 1}' % game
    assert "cannot resume the tutorial" in v.lesson.value and "p.damaged-1.json" in v.lesson.value
    assert v.tutorial.decisions == 0 and json.loads(path.read_text())["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_is_taught_each_kind_at_its_first_decision_of_it(game):
    """seat_lesson (the server's tutorial tables): over a game played by random seats, a kind
    is in a seat's lesson exactly while the seat is to move, may take it and never has."""
    from haunted_kit.games import default_players
    from haunted_kit.tutorial import seat_lesson

    g = get_game(game)
    s = g.new_game(players=default_players(g), seed=2)
    bots = [RandomAgent(40 + p) for p in range(s.players)]
    decided: dict = {p: set() for p in range(s.players)}
    taught: dict = {p: set() for p in range(s.players)}
    for _ in range(ROUND_BOUND):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_chance(s.chance_outcomes()[0][0])
            continue
        p = s.current_player()
        for q in range(s.players):  # nobody but the mover is taught anything
            assert q == p or seat_lesson(g, s, q) == []
        legal = {kind_of(g, a) for a in s.legal_actions()}
        steps = seat_lesson(g, s, p)
        # before a seat's first decision its lesson opens with what it plays for and the player aid, then only kinds
        first = [st.key for st in steps[:2]]
        assert first == ["goal", "aid"] if not decided[p] else "goal" not in first and "aid" not in first
        assert all(st.key.startswith("kind:") for st in steps[0 if decided[p] else 2:])
        lesson = {st.key[5:] for st in steps if st.key.startswith("kind:")}
        assert lesson == legal - decided[p]
        taught[p] |= lesson
        a = bots[p].act(s)
        decided[p].add(kind_of(g, a))
        assert decided[p] <= taught[p]
        s.apply_action(a)
    assert any(taught.values())


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_class_on_the_server_shows_each_seat_its_lesson(game):
    """The mover's panel opens on the goal, then queues each legal kind in the game's words; a
    seat not to move has met nothing yet; an ordinary class sends no panel."""
    from haunted_kit.games import default_players
    from haunted_kit.server import Classroom
    from haunted_kit.store import GameStore

    g = get_game(game)
    store = GameStore(":memory:")
    t = store.create_table(game=game, players=default_players(g), seed=1)
    mover = t.state.current_player()
    points = teach_points(game)
    c = Classroom(store, bot_delay=0, tutorial=True)
    msg = c.tutor_message(t, mover)
    kinds = [kind_of(g, a) for a in t.state.legal_actions()]
    kinds = list(dict.fromkeys(kinds))
    assert [m["key"] for m in msg["met"]] == ["goal", "aid"] + [f"kind:{k}" for k in kinds]  # the goal, the aid first
    assert msg["current"]["key"] == "goal" and not any(m["read"] or m["skipped"] for m in msg["met"])
    goal = points.get("goal")
    assert goal is None or (msg["current"]["text"], msg["current"]["section"]) == (goal.say(t.state), goal.section)
    assert msg["waiting"] == [m["title"] for m in msg["met"][1:]]
    aid = c.tutor_of(t, mover).steps["aid"]
    assert aid.lines and aid.lines == aid_step(g, t.state).lines   # the notebook's player aid, every kind
    for k in kinds:
        p = points.get(f"kind:{k}")
        st = c.tutor_of(t, mover).steps[f"kind:{k}"]
        assert p is None or (st.text.startswith(p.say(t.state)) and st.section == p.section and st.question == p.question)
    other = (mover + 1) % t.state.players
    assert c.tutor_message(t, other)["met"] == [] and c.tutor_message(t, other)["current"] is None
    assert "lesson" not in c.build_view(t, mover, "seat")  # the panel comes beside the view, not in it
    store.close()


# ---------------------------------------------------------------- what a newcomer met (session 30)
@pytest.mark.parametrize("game", GAMES)
def test_the_first_step_says_what_the_player_plays_for_and_how_the_game_ends(game):
    """Before any decision the tutorial says the aim: the game's declared ``goal`` teach
    point (every game with a table declares one), else the kit's sentence naming the game."""
    t = Tutorial(game, seed=1, progress=False)
    points = teach_points(game)
    assert t.current.key == "goal" and t.queue[0] == "goal"
    if "goal" in points:  # the game's own words (a game with a teach table may leave the goal to the kit)
        p = points["goal"]
        assert (t.current.text, t.current.section) == (p.say(t.state), p.section)
        assert "end" in p.say(t.state) and p.section
    else:
        assert get_game(game).title in t.current.text
    v = TutorialView(game, progress=False)
    lead, more, _ = step_parts(t.current)  # every sentence shown: the deciding one first, the rest under More
    assert escape(t.current.title) in v.lesson.value and escape(lead) in v.lesson.value and escape(more) in v.lesson.value
    assert sorted(f"{lead} {more}".split()) == sorted(t.current.text.split())


def test_a_goal_teach_point_is_a_key_of_its_own_and_bad_keys_are_refused():
    assert TeachPoint("goal", "Aim", "Win.", "Scoring").key == "goal"
    for bad in ("goal:x", "aim", "kind:"):
        with pytest.raises(ValueError, match="'goal', 'kind:<type>'"):
            TeachPoint(bad, "t", "x", "s")


def _string_literals(game) -> set:
    """Every string constant of the game package's modules but its tutorial table."""
    import ast
    from pathlib import Path

    from haunted_kit.games import game_module

    root = Path(game_module(game, "tutorial").__file__).parent
    out = set()
    for f in root.rglob("*.py"):
        if f.name != "tutorial.py":
            out |= {n.value for n in ast.walk(ast.parse(f.read_text())) if isinstance(n, ast.Constant)
                    and isinstance(n.value, str)}
    return out


@pytest.mark.parametrize("game", games_with_module("tutorial"))
def test_every_teach_point_cites_a_section_the_games_own_rules_cite(game):
    """A teach point's section is one the game's engine and rules name (the same words its
    refusals and events use), so a step cites a section the player can find, never a
    made-up or neighbouring one."""
    literals = _string_literals(game)
    wrong = {k: p.section for k, p in teach_points(game).items() if not any(p.section in x for x in literals)}
    assert not wrong, wrong


def test_a_cited_kit_ruling_opens_with_its_own_words():
    from haunted_kit.events import cited_rulings, kit_rulings, rulings_html

    rulings = kit_rulings()
    assert {"1", "32", "E1", "E18", "L9"} <= set(rulings)
    said = cited_rulings("Not allowed (kit ruling E3, docs/RULINGS.md); see rulings E18, E19 and ruling 32; ruling 999")
    assert [r[0] for r in said] == ["E3", "E18", "E19", "32"]
    assert said[0][1] == "The Factory and the first taker's extra unit" and "One worker per take" in said[0][2]
    html = rulings_html("kit ruling E1")
    assert html.startswith('<details class="hk-ruling"') and "What kit ruling E1 says" in html
    assert escape(rulings["E1"][1]) in html and "`" not in html
    assert rulings_html("no ruling here") == ""


def test_the_lesson_panel_opens_a_cited_ruling_and_never_colours_the_section_as_a_link():
    """Every step of every game that cites a kit ruling (in its words or its section) shows
    that ruling's own words on demand; the section is plain text, not link-coloured."""
    from haunted_kit.events import cited_rulings

    citing = 0
    for game in GAMES:
        v = TutorialView(game, progress=False)
        t = v.tutorial
        for key in list(t.steps):
            t.replay(key)
            v.show()
            st = t.shown()
            if st.section:
                assert f"Rule: <i>{escape(st.section)}</i>" in v.lesson.value and "#2a5d8a" not in v.lesson.value
            for rid, _q, _r in cited_rulings(f"{st.text} {st.section}"):
                assert f"What kit ruling {rid} says" in v.lesson.value, (game, key, rid)
                citing += 1
    assert citing, "no step of any game cites a kit ruling"


@pytest.mark.parametrize("game", GAMES)
def test_a_step_shown_again_reads_from_the_current_position(game):
    """"Show again" of a decision kind recomposes its count and choices from the position
    now; when the kind is not the learner's now it says the text is as it was then."""
    t = Tutorial(game, seed=1, progress=False)
    bot = RandomAgent(3)
    first = {k: st for k, st in t.steps.items() if k.startswith("kind:")}
    changed, gone = [], []
    for _ in range(ROUND_BOUND):
        while t.current is not None:
            t.next()
        t.asking = ""
        if t.state.is_terminal():
            break
        t.attempt(bot.act(t.state.copy()))
        now = t.legal_by_kind()
        changed = [k for k in first if now.get(k[5:]) and choosing_words(get_game(game), len(now[k[5:]]), k[5:]) not in first[k].text]
        gone = [k for k in first if k[5:] not in now]
        if changed and gone:
            break
    assert changed or gone, "the first kinds offered never changed in a played game"
    for key in changed:
        t.replay(key)
        st = t.shown()
        n = len(t.legal_by_kind()[key[5:]])
        assert choosing_words(get_game(game), n, key[5:]) in st.text and st.text != first[key].text
        assert st.choices[0] == describe_action(t.legal_by_kind()[key[5:]][0], t.state)
    for key in gone:
        t.replay(key)
        st = t.shown()
        assert "earlier position" in st.text and "You may now choose" not in st.text
        assert all(c.startswith("then: ") for c in st.choices)
        v_html = TutorialView(game, progress=False)
        v_html.tutorial = t
        v_html.show()
        assert "Your choices then:" in v_html.lesson.value and "Your choices of this kind now" not in v_html.lesson.value


@pytest.mark.parametrize("game", GAMES)
def test_the_refusal_step_quotes_the_latest_refusal(game):
    """After a second refusal the lesson's refusal step quotes that one, as the message line
    does, not the first (it is not queued twice)."""
    t = Tutorial(game, seed=1, progress=False)
    t.refused_message("Not allowed: first try", "A")
    t.next()
    t.refused_message("Not allowed: second try", "B")
    st = t.shown("refusal")
    assert st.text.startswith("Not allowed: second try") and st.section == "B"
    assert t.queue.count("refusal") <= 1 and "first try" not in st.text


@pytest.mark.parametrize("game", games_with_module("exercises"))
def test_a_right_answer_is_told_why_as_a_wrong_one_is(game):
    """"Right!" never comes alone: every exercise of every game says why its answer is
    right (its note, the engine's explanation or the rule a wrong answer is shown)."""
    from haunted_kit.games import game_module
    from haunted_kit.widgets.exercise import ExerciseWidget

    exercises = game_module(game, "exercises").EXERCISES
    for key in exercises:
        ex = exercises.make(key, 1)
        told = ex.right_text()
        assert told.startswith(ex.answer_text())
        assert ex.answer_note or told != ex.answer_text(), key
        if not ex.answer_note and not ex.why_text():
            assert " Why: " in told and told.endswith(".") or told.endswith(")"), key
    w = ExerciseWidget(exercises.make(next(iter(exercises)), 1))
    w.submit(w.ex.right_response())
    assert "Right!" in w.feedback.value and escape(w.ex.right_text()) in w.feedback.value


@pytest.mark.parametrize("game", GAMES)
def test_doing_what_the_shown_step_teaches_reads_it_and_what_is_new_comes_forward(game):
    """A newcomer explored twice with the Explore step still on the panel and three steps
    queued behind it, the Contact step they needed last. Doing the kind of the step shown
    counts as reading it; a kind step never shown is not read by doing (it was not taught)."""
    t = Tutorial(game, seed=1, progress=False)
    bot = RandomAgent(2)
    for _ in range(ROUND_BOUND):   # the learner's decisions until one is of the kind of the step shown
        while t.current is not None and not t.current.key.startswith("kind:"):
            t.next()
        if t.asking:
            t.answered("right")
        st = t.shown()   # the panel shows it
        if st is None:   # nothing to read: the learner plays on
            assert t.attempt(bot.act(t.state.copy())) is None
            continue
        assert st.key.startswith("kind:"), st
        kind = st.key[5:]
        same = [a for a in t.state.legal_actions() if kind_of(t.game, a) == kind]
        assert same, kind   # a kind step is queued only while its kind is legal
        behind = [k for k in t.queue[1:] if k.startswith("kind:")]
        assert t.attempt(same[0]) is None
        assert st.key in t.read and st.key not in t.queue, (st.key, t.queue)
        if behind:   # what waited behind it comes forward
            break
    else:
        pytest.fail("no step queued behind a kind's step in the learner's first decisions")
    # not shown: not read by doing
    t2 = Tutorial(game, seed=1, progress=False)
    while t2.current is not None and not t2.current.key.startswith("kind:"):
        t2.next()
    key = t2.current.key
    a = next(a for a in t2.state.legal_actions() if kind_of(t2.game, a) == key[5:])
    assert key not in t2.displayed and t2.attempt(a) is None
    assert key not in t2.read


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_doing_what_its_step_teaches_reads_it(game):
    """The classroom seat's lesson follows the same rule: the seat's step shown now, of the
    kind the seat then decides, is read by the decision; a follow with no new decision of
    the seat reads nothing."""
    from haunted_kit.tutorial import SeatTutorial
    g = get_game(game)
    s = g.new_game(players=default_players(g), seed=3)
    bot = RandomAgent(4)
    seat = None
    for _ in range(ROUND_BOUND * 4):
        while s.is_chance_node():
            s.apply_chance(sample_chance(s, 1))
        if s.is_terminal():
            break
        p = s.current_player()
        if seat is None:
            seat = SeatTutorial(g, p, seed=3)
        seat.follow(s)
        if p == seat.seat:
            while seat.current is not None and not seat.current.key.startswith("kind:"):
                seat.next()
            st = seat.current
            if st is not None:
                assert seat.follow(s) == [] and st.key in seat.queue   # no decision of the seat: nothing read
                a = next(a for a in s.legal_actions() if kind_of(g, a) == st.key[5:])
                s.apply_action(a)
                seat.follow(s)
                assert st.key in seat.read and st.key not in seat.queue
                return
        s.apply_action(bot.act(s.copy()))
    pytest.fail("the seat never had a decision kind's step to read")


@pytest.mark.parametrize("game", GAMES)
def test_the_newest_kinds_come_first_and_kinds_met_together_keep_the_teaching_order(game):
    """A newcomer on a ghost's cell had "Your turn, and ending it" (legal all along) in front of
    Extract and Contact (legal just now): a kind step met at a later decision comes first."""
    from haunted_kit.tutorial import SeatTutorial, Step
    book = SeatTutorial(game, 0, seed=1)
    kinds = sorted(get_game(game).action_types)[:3]
    assert len(kinds) == 3, kinds
    a, b, c = (f"kind:{k}" for k in kinds)
    book.meet([Step(a, "A", "a.")], decisions=0)
    book.meet([Step(b, "B", "b."), Step(c, "C", "c.")], decisions=4)   # met together, b first
    book.settle(set(kinds))
    assert book.queue == [b, c, a]
    book.settle({kinds[0], kinds[2]})   # b no longer legal: it leaves the queue unread
    assert book.queue == [c, a]


@pytest.mark.parametrize("game", [g for g in GAMES if getattr(game_module(g, "tutorial"), "holdings", None)])
def test_the_learners_holdings_stay_in_view_and_follow_each_decision(game):
    """Newcomers scrolled to their own board before every decision: the lesson panel keeps the
    game's one line of the learner's holdings, redrawn after every decision."""
    from haunted_kit.tutorial import holdings_line
    with capture_errors() as caught:
        v = TutorialView(game, seed=1, progress=False, resume=False)
        t = v.tutorial
        said = holdings_line(t.game, t.state)
        assert said and v.you.layout.display == "" and escape(said) in v.you.value
        assert 'aria-label="your holdings"' in v.you.value
        seen, bot = {said}, RandomAgent(3)
        for _ in range(ROUND_BOUND):
            if t.state.is_terminal() or len(seen) > 2:
                break
            assert v.view.attempt(bot.act(t.state.copy()))
            said = holdings_line(t.game, t.state)
            assert escape(said) in v.you.value   # what the position holds now, not what it held
            seen.add(said)
        assert len(seen) > 2, "the holdings never changed over the learner's decisions"
    assert not caught, caught


@pytest.mark.parametrize("game", GAMES)
def test_a_step_on_the_panel_only_while_the_bots_play_is_not_shown_nor_filed(game):
    """Newcomers found steps ("The production phase", "Joining a land") ticked as met and gone,
    never seen: the panel showed them for a moment while the bots played on. A step counts as
    shown only while the panel holds still for it: the learner to move."""
    t = Tutorial(game, seed=1, progress=False)
    bot = RandomAgent(5)
    for _ in range(ROUND_BOUND):
        while t.current is not None:
            t.next()
        if t.asking:
            t.answered("right")
        t.state.apply_action(bot.act(t.state.copy()))   # the learner's decision, the bots not yet answered
        t.chances()
        t.follow(t.state)
        if not t.learner_to_move() and not t.state.is_terminal() and t.current is not None:
            break
    else:
        pytest.fail("no step was queued while the bots were to play")
    key = t.current.key
    assert t.shown() is not None and key not in t.displayed   # on the panel a moment, not shown
    t.bots_play()
    t.follow(t.state)
    if t.learner_to_move() and t.current is not None:
        now = t.current.key
        t.shown()
        assert now in t.displayed   # the learner to move: the panel holds still, the step is shown
