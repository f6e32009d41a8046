"""Kinds of bad saves users met, each refused by every game's loader (issue 19).

Each test is parametrized over :func:`haunted_kit.games.game_names`: a save of a real
game (seeded random steps) is changed in one way the rules or the save format never
produce, and the game's loader must refuse it naming the field.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from haunted_kit.fileio import read_json
from haunted_kit.games import game_names, get_game, load_state
from haunted_kit.haunted.rules import ctx_of
from haunted_kit.testing import random_steps

GAMES = game_names()


def _played(name: str, steps: int = 40, seed: int = 3):
    game = get_game(name)
    s = game.new_game(players=game.min_players, seed=seed)
    random_steps(s, random.Random(seed), steps)
    return game, s


def _load(game, path):
    """A save file read as the kit's tools read one (``replay``, ``review``): its JSON,
    then :func:`haunted_kit.games.load_state`."""
    return load_state(game, read_json(path, what="save"))


@pytest.mark.parametrize("name", GAMES)
def test_a_save_loads_unchanged(name, tmp_path):
    game, s = _played(name)
    path = tmp_path / "save.json"
    s.save(path)
    assert json.dumps(_load(game, path).to_dict(), sort_keys=True) == json.dumps(s.to_dict(), sort_keys=True)


@pytest.mark.parametrize("name", GAMES)
def test_duplicate_keys_in_a_save_are_refused(name, tmp_path):
    game, s = _played(name)
    d = s.to_dict()
    key = next(iter(d))  # the save's first field (the kit's games: "format"), written twice
    text = json.dumps(d)
    assert text.startswith("{")
    path = tmp_path / "save.json"
    path.write_text("{" + json.dumps(key) + ': "something else", ' + text[1:], encoding="utf-8")
    with pytest.raises(ValueError, match=f"the key '{key}' appears twice in one object"):
        _load(game, path)


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_forced_chance_outcome_is_refused_at_load(name):
    game, s = _played(name)
    d = s.to_dict()
    d["forced"] = ["no such outcome"]
    with pytest.raises(ValueError, match="forced"):
        game.from_dict(d)


def test_a_known_forced_outcome_still_loads_in_haunted_lands():
    game, s = _played("haunted")
    d = s.to_dict()
    d["forced"] = ["forest", 3]
    assert game.from_dict(d).forced == ["forest", 3]
    d["forced"] = ["forest", True]
    with pytest.raises(ValueError, match="save field 'forced': must be an integer, got True"):
        game.from_dict(d)


def _event_with_int_data(d: dict, first: int):
    for i, e in enumerate(d["log"]):
        if i >= first:
            for k, v in e["data"].items():
                if type(v) is int:
                    return i, k
    raise AssertionError("no event with integer data")  # pragma: no cover


@pytest.mark.parametrize("value", [True, 3.5])
@pytest.mark.parametrize("name", GAMES)
def test_event_data_that_the_record_does_not_give_is_refused(name, value):
    game, s = _played(name)
    d = s.to_dict()
    if "log" not in d:  # the estate's log is rebuilt by replaying the record: a log in the save is refused
        d["log"] = [{"seq": 0, "data": {"amount": value}}]
        with pytest.raises(ValueError, match="log: unknown field"):
            game.from_dict(d)
        assert game.from_dict(s.to_dict()).log == s.log
        return
    for first in {0, d.get("start_log", 0)}:  # the start position's events too (Landmarks)
        d = s.to_dict()
        i, k = _event_with_int_data(d, first)
        d["log"][i]["data"][k] = value
        with pytest.raises(ValueError, match=rf"log\[{i}\]"):
            game.from_dict(d)


#: per game, a change to a counter that the rules never produce, and the field named
def _impossible_counters():
    def hl_markers_in_setup(game):
        s = game.new_game(players=2, seed=1, auto_chance=False)
        d = s.to_dict()
        assert d["phase"] == "setup" and d["players"][0]["markers_used"] == 0
        d["players"][0]["markers_used"] = 2
        return d, r"players\[0\].markers_used': 2"

    def hl_depletion_under_building(game):
        _, s = _played("haunted", 0)
        ctx = ctx_of(s)
        c = next(c for c in range(len(s.ghosts)) if 0 in ctx.build_here[c] and not s.ghosts[c] and not s.depleted[c])
        s.building[c], s.owner[c] = 0, 0
        d = s.to_dict()
        d["cells"]["depleted"].append(d["cells"]["buildings"][0]["cell"])
        d["supply"]["depletion"] -= 1
        d["supply"]["buildings"][next(iter(d["supply"]["buildings"]))] -= 1
        d["players"][0]["markers_used"] += 1
        return d, "depletion token lies under the building"

    def hl_generator_position(game):
        _, s = _played("haunted")
        d = s.to_dict()
        d["rng_count"] += 1
        return d, "save field 'rng_count': .* chance outcomes"

    def estate_workers(game):
        _, s = _played("estate")
        d = s.to_dict()
        d["state"]["workers"][0]["supply"] += 1
        return d, r"state.workers\[0\].supply"

    def landmarks_gold(game):
        _, s = _played("landmarks")
        d = s.to_dict()
        d["state"]["supply"][next(iter(d["state"]["supply"]))] += 1
        return d, r"state.supply"

    return {"haunted": [hl_markers_in_setup, hl_depletion_under_building, hl_generator_position], "estate": [estate_workers],
            "landmarks": [landmarks_gold]}


#: the per-game cases are worked out from each game's rules: they run for the games that have them
@pytest.mark.parametrize("name", [n for n in GAMES if n in _impossible_counters()])
def test_counters_the_rules_never_produce_are_refused(name):
    game = get_game(name)
    cases = _impossible_counters()[name]
    assert cases, f"no impossible-counter case for {name}"
    for case in cases:
        d, where = case(game)
        with pytest.raises(ValueError, match=where):
            game.from_dict(d)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True) | st.text(max_size=4),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                     max_leaves=6)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_action_from_dict_refuses_every_malformed_form_clearly(name, data):
    game = get_game(name)
    _, s = _played(name, 10)
    legal = s.legal_actions() or [None]
    good = data.draw(st.sampled_from(legal))
    base = game.action_to_dict(good) if good is not None else {"type": "X"}
    form = data.draw(st.one_of(
        _JSON,
        st.fixed_dictionaries({"type": _JSON}),
        st.builds(lambda k, v: {**base, k: v}, st.sampled_from(sorted(base) + ["extra"]), _JSON)))
    try:
        action = game.action_from_dict(form)
    except ValueError as exc:
        assert str(exc)
        return
    assert game.action_from_dict(game.action_to_dict(action)) == action


def _scribble(v) -> None:
    """Change every list and object inside ``v`` in place."""
    if isinstance(v, dict):
        for x in list(v.values()):
            _scribble(x)
        v["scribbled"] = True
    elif isinstance(v, list):
        for x in list(v):
            _scribble(x)
        v.append("scribbled")


@pytest.mark.parametrize("name", GAMES)
def test_changing_a_saves_dict_never_changes_the_game(name):
    _, s = _played(name)
    before = json.dumps(s.to_dict(), sort_keys=True)
    d = s.to_dict()
    _scribble(d)
    assert json.dumps(s.to_dict(), sort_keys=True) == before
