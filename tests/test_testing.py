"""haunted_kit.testing: check_box plays every setting of a box and reports failures
with their seed; it serves any game module through the protocol."""

from __future__ import annotations

import random

import pytest

import haunted_kit as hk
from haunted_kit.cli import main
from haunted_kit.testing import Failure, check_box, mutate_json, mutate_text, play_checked, replay_failure
from ruletools import copy_data, edit


def test_reference_box_passes_every_mode_and_player_count():
    r = check_box(games=1)
    assert r.ok, str(r)
    assert r.games == 9 == r.finished  # 3 modes x 2..4 players
    frame = r.to_frame()
    assert sorted(set(zip(frame["mode"], frame["players"]))) == sorted(
        (m, n) for m in ("wanderer", "builder", "citizen") for n in (2, 3, 4))
    assert r.steps == frame["steps"].sum() > 0
    assert "9 games" in str(r) and "0 failures" in str(r)


def test_house_rule_box_from_a_folder(tmp_path):
    d = copy_data(tmp_path)
    edit(d / "game.toml", "rounds_per_season = 3", "rounds_per_season = 1")
    r = check_box(d, games=1)
    assert r.ok and r.box == str(d)
    # one round per season: every game is shorter than with the reference box
    ref = check_box(games=1).to_frame()["steps"]
    assert (r.to_frame()["steps"] < ref).all()


class _Countdown:
    """A toy rule module: players alternately add 1 or 2 to a total; the game ends at
    10. A deliberate bug: the invariants refuse a total of 7, and with ``endless``
    the game never ends."""

    name, title, min_players, max_players = "countdown", "Countdown", 2, 2

    def __init__(self, endless=False):
        self.endless = endless

    def new_game(self, *, players=2, seed=0, **options):
        return _CountdownState(self.endless)

    def from_dict(self, data, box=None):
        s = _CountdownState(self.endless)
        s.total, s.turn = data["total"], data["turn"]
        return s

    def invariants(self, state, before=None):
        return ["the total reached 7"] if state.total == 7 else []


class _CountdownState:
    players = 2

    def __init__(self, endless):
        self.total, self.turn, self.endless = 0, 0, endless

    def current_player(self):
        return None if self.is_terminal() else self.turn % 2

    def legal_actions(self):
        return [] if self.is_terminal() else [1, 2]

    def why_not(self, a):
        return None

    def apply_action(self, a):
        self.total = (self.total + a) % 10 if self.endless else self.total + a
        self.turn += 1

    def is_chance_node(self):
        return False

    def is_terminal(self):
        return self.total >= 10

    def returns(self):
        return [0.0, 0.0]

    def copy(self):
        c = _CountdownState(self.endless)
        c.total, c.turn = self.total, self.turn
        return c

    def to_dict(self):
        return {"total": self.total, "turn": self.turn}


def test_failures_name_setting_seed_and_step_and_replay():
    r = check_box(None, game=_Countdown(), games=20)
    assert r.games == 20 and not r.ok
    totals = []
    for f in r.failures:
        assert f.problem == "the total reached 7" and f.setting == {"players": 2}
        s = replay_failure(f, game=_Countdown())
        totals.append(s.total)
        # the replayed game is the same seeded game: the same decisions reach 7 at that step
        again, steps, failure = play_checked(_Countdown(), None, f.setting, f.seed)
        assert failure == f and steps == f.step == s.turn
    assert set(totals) == {7}
    assert f"seed {r.failures[0].seed}, step {r.failures[0].step}: the total reached 7" in str(r)


def test_a_game_that_never_ends_is_reported():
    game = _Countdown(endless=True)
    game.invariants = lambda s, b=None: []
    r = check_box(None, game=game, games=2, max_steps=500)
    assert [f.problem for f in r.failures] == ["the game did not end within 500 steps"] * 2
    assert r.finished == 0


def test_an_exception_in_play_is_a_failure_with_traceback():
    game = _Countdown()
    game.invariants = lambda s, b=None: 1 / 0 if s.total >= 5 else []
    r = check_box(None, game=game, games=1)
    (f,) = r.failures
    assert f.problem == "ZeroDivisionError: division by zero" and "Traceback" in f.detail


def test_check_box_command(tmp_path, capsys):
    d = copy_data(tmp_path)
    report = tmp_path / "report.csv"
    assert main(["check-box", str(d), "--games", "1", "--report", str(report), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "9 games" in out and "0 failures" in out and "Bots: 180 games, 180 ended within the decision cap." in out
    assert len(report.read_text().splitlines()) == 1 + 9 + 9 * 20  # the header, 9 random games, 20 seeds each by greedy bots
    edit(d / "market_cards.toml", "pecunias = 12", "pecunias = 1200")
    assert main(["check-box", str(d), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "market_cards.toml, entry market_cards.3.options[2]: field 'pecunias' must be at most 999, got 1200" in err


def test_check_box_misuse_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["check-box", str(tmp_path / "none")])
    assert e.value.code == 2 and "no such folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["check-box", str(tmp_path), "--games", "0"])
    assert e.value.code == 2 and "argument --games: the value must be a whole number from 1 to 1,000,000, got '0'" in capsys.readouterr().err


def test_mutators_are_seeded_and_change_something():
    text = "a = 1\nb = \"x\"\n"
    assert mutate_text(text, random.Random(3)) == mutate_text(text, random.Random(3))
    data = {"a": [1, 2], "b": {"c": 3}}
    out, paths = mutate_json(data, random.Random(5), edits=2)
    assert data == {"a": [1, 2], "b": {"c": 3}}  # the original is untouched
    assert len(paths) <= 2


@pytest.mark.parametrize("folder, wrong, right", [("estate", None, "estate"), ("landmarks", "estate", "landmarks"),
                                                   ("", "landmarks", "haunted")])
def test_check_box_on_another_games_box_names_the_right_game(capsys, folder, wrong, right):
    """A box of one game checked as another's is refused (exit 1) with the command that fits."""
    from haunted_kit.haunted.box import data_dir

    path = data_dir() / folder if folder else data_dir()
    argv = ["check-box", str(path), "--games", "1", "--no-progress"] + (["--game", wrong] if wrong else [])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "the box does not load" in err
    assert f"loads as the {right!r} game's box: try `haunted-kit check-box {path} --game {right}`" in err


def test_random_steps_is_seeded_and_stops_at_the_end():
    """The same seed plays the same steps; a budget past the end stops at the terminal state."""
    from haunted_kit.testing import random_steps

    a, b = hk.new_game(players=2, seed=3), hk.new_game(players=2, seed=3)
    assert random_steps(a, random.Random(7), 25) == 25 == random_steps(b, random.Random(7), 25)
    assert a.to_dict() == b.to_dict() and len(a.history()) > len(hk.new_game(players=2, seed=3).history())
    n = random_steps(a, random.Random(1), 10**9)
    assert a.is_terminal() and 0 < n < 10**9 and random_steps(a, random.Random(1), 5) == 0


@pytest.mark.parametrize("name", hk.game_names())
def test_progress_may_be_a_function_told_each_game(name):
    """``progress=callable``: told ``(0, total)`` first, then ``(done, total)`` after each game, the
    random games and the bots' (a widget's progress bar follows it)."""
    told = []
    r = check_box(game=name, games=1, bot_games=1, progress=lambda done, total: told.append((done, total)))
    total = r.games + r.bot_games
    assert told == [(k, total) for k in range(total + 1)]


def test_mutated_json_shares_nothing_with_the_odd_values_or_itself():
    """Each value mutate_json puts in is a copy of its own: a later edit of it changes that
    place only, the module's odd values stay as they are and no copy contains itself (an
    odd table once put in as it was became ``{'a': [2, nan]}`` for every later test, and a
    list appended to itself could not be written as JSON)."""
    import copy
    import json

    from haunted_kit.testing import ODD_JSON

    before = copy.deepcopy(ODD_JSON)
    rng = random.Random(3)
    doc = {"a": [{"b": [1, 2]}, {"c": {"d": 3}}], "e": [[], {}]}
    for _ in range(3000):
        out, _paths = mutate_json(doc, rng, rng.randint(1, 6))
        json.dumps(out)  # no circular reference
    assert repr(ODD_JSON) == repr(before) and doc == {"a": [{"b": [1, 2]}, {"c": {"d": 3}}], "e": [[], {}]}
