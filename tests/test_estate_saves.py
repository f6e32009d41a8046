"""Estate saves: versioned JSON that round-trips, written atomically, and refuses
corrupt input naming the field."""

from __future__ import annotations

import json
import random

import pytest

from haunted_kit.estate import EstateSaveError, EstateState, new_game
from haunted_kit.estate.scenario import position
from haunted_kit.games import get_game


def played(seed=3, steps=60, players=3):
    s = new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    return s


def test_round_trip_mid_game_and_finished(tmp_path):
    for steps in (0, 25, 10_000):
        s = played(steps=steps)
        path = tmp_path / "g.json"
        s.save(path)
        t = EstateState.load(path)
        assert t.to_dict() == s.to_dict()
        assert t.legal_actions() == s.legal_actions()
        assert list(t.events().text) == list(s.events().text)
        assert not list(tmp_path.glob(".g.json.*"))  # no temporary file left behind
    data = json.loads(path.read_text())
    assert data["format"] == "haunted-kit-save" and data["game"] == "estate" and data["version"] == 1


def test_a_loaded_game_continues_exactly_like_the_original():
    s = played(seed=5, steps=20)
    t = get_game("estate").from_dict(json.loads(json.dumps(s.to_dict())))
    rng1, rng2 = random.Random(1), random.Random(1)
    while not s.is_terminal():
        a, b = s.legal_actions(), t.legal_actions()
        assert a == b
        s.apply_action(a[rng1.randrange(len(a))])
        t.apply_action(b[rng2.randrange(len(b))])
    assert s.returns() == t.returns() and s.display == t.display


def test_a_prepared_position_round_trips():
    s = position(2, hand={0: {"gold": 5}}, lands={(0, 2): ("forest", [0])}, connection="line")
    t = EstateState.from_dict(json.loads(s.to_json()))
    assert t.to_dict() == s.to_dict() and t.config.connection == "line"


CORRUPTIONS = [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(game="haunted"), "game"),
    (lambda d: d.update(version=9), "version"),
    (lambda d: d.update(box="0000"), "box"),
    (lambda d: d["config"].update(players=7), "config"),
    (lambda d: d["config"].pop("seed"), "config.seed"),
    (lambda d: d["config"].update(colour="red"), "config.colour"),
    (lambda d: d.update(history="x"), "history"),
    (lambda d: d["history"].__setitem__(7, {"player": 0, "action": {"type": "Fly"}}), "history[7]"),
    (lambda d: d["history"][6].update(player=5), "history[6].player"),
    (lambda d: d["state"]["hand"][1].update(gold=99), "state.hand[1].gold"),
    (lambda d: d["state"]["hand"][1].update(gold=-1), "state.hand[1].gold"),
    (lambda d: d["state"]["hand"][0].update(gold="3"), "state.hand[0].gold"),
    (lambda d: d["state"]["workers"][2].update(supply=13), "state.workers[2]"),
    (lambda d: d["state"].update(season=4), "state.season"),
    (lambda d: d["state"]["stack"].update(forest=6), "state.stack.forest"),
    (lambda d: d["state"].update(lands={"9,9": {"tile": "forest", "owner": 0, "markers": [0], "raised": []}}),
     "state.lands[9,9]"),
    (lambda d: d["state"].pop("display"), "state.display"),
    (lambda d: d.pop("state"), "state"),
]


@pytest.mark.parametrize("corrupt,field", CORRUPTIONS)
def test_corrupt_saves_are_refused_naming_the_field(corrupt, field):
    s = played(seed=3, steps=30)
    d = json.loads(s.to_json())
    corrupt(d)
    with pytest.raises(EstateSaveError) as exc:
        EstateState.from_dict(d)
    assert str(exc.value).startswith(field), str(exc.value)


def test_unreadable_files(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(EstateSaveError, match="not valid JSON"):
        EstateState.load(p)
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(EstateSaveError, match="is not a UTF-8 text file"):
        EstateState.load(p)
    with pytest.raises(EstateSaveError, match="cannot read save"):
        EstateState.load(tmp_path / "missing.json")


def test_failed_write_keeps_the_old_save(tmp_path, monkeypatch):
    s = played(steps=10)
    path = tmp_path / "g.json"
    s.save(path)
    old = path.read_text()
    t = played(steps=30)
    import haunted_kit.fileio as fileio

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", boom)
    with pytest.raises(OSError):
        t.save(path)
    assert path.read_text() == old and sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_observation_hides_the_seed_from_players():
    s = played(steps=5)
    assert "seed" in s.observation()["config"]
    o = s.observation(1)
    assert "seed" not in o["config"] and "rng_count" not in o


def _first_land(d):
    return next(iter(d["state"]["lands"].values()))


UNHASHABLE = [  # a JSON list or object where a name is expected: refused by name, not a TypeError
    (lambda d: d["config"].update(third_marked=["hire_two"]), "config: third_marked must name a Market action"),
    (lambda d: d["state"]["display"].__setitem__(0, []), "state.display: must list known tile names"),
    (lambda d: d["state"].update(removed=[{}]), "state.removed: must list known tile names"),
    (lambda d: _first_land(d).update(tile=["forest"]), "unknown tile ['forest']"),
    (lambda d: _first_land(d).update(markers=[_first_land(d)["owner"], []]), "must be a player index 0..2, got []"),
]


@pytest.mark.parametrize("corrupt,words", UNHASHABLE)
def test_names_that_are_lists_or_objects_are_refused_naming_the_field(corrupt, words):
    s = played(seed=3, steps=60)
    d = json.loads(s.to_json())
    assert d["state"]["lands"], "the game must have land on the board for this test"
    corrupt(d)
    with pytest.raises(EstateSaveError, match=None) as exc:
        EstateState.from_dict(d)
    assert words in str(exc.value)


@pytest.mark.parametrize("change,words", [
    ({"hand": {5: {"gold": 1}}}, "hand[5]: is not a player index 0..1"),
    ({"hand": {True: {"gold": 1}}}, "hand[True]: is not a player index 0..1"),
    ({"passed": {-1: True}}, "passed[-1]: is not a player index 0..1"),
    ({"hand": [1]}, "hand: must be a {player: value} object, got [1]"),
    ({"workers": {0: 5}}, "workers[0]: must be a {key: value} object of changes, got 5"),
])
def test_scenario_position_names_a_bad_player_key_instead_of_an_index_error(change, words):
    with pytest.raises(EstateSaveError) as exc:
        position(2, **change)
    assert str(exc.value) == words
    assert position(2, hand={1: {"gold": 4}}).hand[1]["gold"] == 4
