"""Bad-input kinds found in review, fixed as kinds across Haunted Lands, the estate and
Landmarks: (a) a bool is never read as a whole number from a save or a dataset
(``True == 1`` in Python); (b) an action is equal to a listed legal action only when its
fields are of the same kind, so ``Learn(1.0) in state.legal_actions()`` agrees with
``apply_action`` refusing it; (c) numpy integers are accepted wherever whole numbers go
in (actions, positions, configurations), through the one ``protocol.plain_integers`` /
``protocol.is_integer``, and saves stay plain JSON."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.games import game_names, get_game, load_state
from haunted_kit.protocol import IllegalAction, is_the_integer, plain_integers

GAMES = game_names()


def decisions(s, steps: int):
    """Up to ``steps`` decision points of ``s`` (chance nodes resolved with their first
    outcome on the way); the caller applies one legal action at each."""
    for _ in range(steps):
        while not s.is_terminal() and s.is_chance_node():
            s.apply_chance(s.chance_outcomes()[0][0])
        if s.is_terminal():
            return
        yield s.legal_actions()


def played(game: str, steps: int = 40, seed: int = 2):
    g = get_game(game)
    box = {"box": g.default_box()} if getattr(g, "default_box", None) is not None else {}
    s = g.new_game(players=3, seed=seed, **box)
    rng = random.Random(1)
    for legal in decisions(s, steps):
        s.apply_action(legal[rng.randrange(len(legal))])
    return g, s


def record_key(d) -> str:
    """The key of a save's record of play: the list of save entries, one of which is a
    decision ``{"player", "action", ...}`` (the protocol's save entries; an event log's
    entries carry no action)."""
    return next(k for k, v in d.items() if isinstance(v, list)
                and any(isinstance(e, dict) and {"player", "action"} <= set(e) for e in v))


def int_paths(x, path=()):
    """Paths of the whole numbers 0 and 1 in a JSON value (the ones a bool could pass for),
    outside event ``data`` payloads (what an event says, not a number the loader reads)."""
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        if x in (0, 1):
            yield path
        return
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        if k == "data" and len(path) == 2 and path[0] == "log":
            continue
        yield from int_paths(v, path + (k,))


def with_value(d, path, v):
    d = copy.deepcopy(d)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = v
    return d


# ------------------------------------------------------------------ (a) bools are not numbers


@pytest.mark.parametrize("game", GAMES)
def test_a_save_whose_version_is_true_is_refused(game):
    g, s = played(game)
    d = s.to_dict()
    assert load_state(g, d).to_dict() == d
    assert "version" in d, "a save is versioned (protocol: GameState.to_dict)"
    with pytest.raises(ValueError, match="version"):
        load_state(g, {**d, "version": True})
    with pytest.raises(ValueError, match="version"):
        load_state(g, {**d, "version": float(d["version"])})


@pytest.mark.parametrize("game", GAMES)
def test_a_record_entry_whose_player_is_a_bool_is_refused(game):
    """The record's ``player`` of a decision by P2 (index 1) written as ``true``."""
    g, s = played(game)
    d = s.to_dict()
    key = record_key(d)
    i = next(i for i, e in enumerate(d[key]) if isinstance(e, dict) and e.get("player") == 1)
    bad = with_value(d, (key, i, "player"), True)
    with pytest.raises(ValueError, match=rf"{key}\[{i}\]"):
        load_state(g, bad)


@pytest.mark.parametrize("game", GAMES)
def test_every_number_of_a_save_refuses_a_bool(game):
    """Each 0 or 1 of a mid-game save, one at a time, written as false or true: refused."""
    g, s = played(game)
    d = json.loads(json.dumps(s.to_dict()))
    paths = list(int_paths(d))
    key = record_key(d)  # every decision by P1 or P2 in the record is among the numbers tried
    players = [(key, i, "player") for i, e in enumerate(d[key]) if isinstance(e, dict) and e.get("player") in (0, 1)]
    assert players and set(players) <= set(paths)
    loaded = []
    for path in paths:
        node = d
        for k in path:
            node = node[k]
        try:
            load_state(g, with_value(d, path, bool(node)))
        except ValueError:
            continue
        loaded.append(path)
    assert loaded == []


def test_a_dataset_with_version_true_is_another_run():
    from haunted_kit.simulate import _same_run
    meta = {"format": "haunted-kit-dataset", "version": 1, "grid": {"games": 1}, "events": False}
    assert _same_run(meta, dict(meta)) is None
    assert _same_run({**meta, "version": True}, meta) == "version"
    assert _same_run({**meta, "grid": {"games": True}}, meta) == "grid"


def test_is_the_integer():
    assert is_the_integer(1, 1) and is_the_integer(np.int64(1), 1) and is_the_integer(None, None)
    assert not is_the_integer(True, 1) and not is_the_integer(1.0, 1) and not is_the_integer(0, None)


# ------------------------------------------------------------------ (b) membership agrees with legality


def test_learn_one_point_zero_is_not_a_legal_action():
    from haunted_kit.haunted.scenario import give, place, scenario
    s = scenario(players=2, skills=(1, 4, 7, 10))
    place(s, 0, (1, 0))
    give(s, 0, food=1, water=1)
    legal = s.legal_actions()
    assert A.Learn(1) in legal
    assert A.Learn(1.0) not in legal and A.Learn(True) not in legal
    assert A.Learn(np.int64(1)) in legal and hash(A.Learn(np.int64(1))) == hash(A.Learn(1))
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply_action(A.Learn(1.0))
    assert s.to_json() == before
    assert A.Explore((1.0, 0)) != A.Explore((1, 0)) and A.Explore((np.int64(1), 0)) == A.Explore((1, 0))
    assert A.Sell(1, ("food",)) == A.Sell(np.int32(1), ("food",)) != A.Sell(1.0, ("food",))


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_action_with_a_float_field_is_unlisted_and_refused(game):
    """For each legal action with a whole-number field, the same action with that field
    as a float is not in legal_actions() and apply_action refuses it (state unchanged);
    with a numpy integer it is in the list and is applied."""
    import dataclasses
    g, s = played(game, steps=6)
    checked = 0
    for legal in decisions(s, 60):
        for a in legal:
            for f in dataclasses.fields(a):
                v = getattr(a, f.name)
                if isinstance(v, int) and not isinstance(v, bool):
                    as_float, as_numpy = float(v), np.int64(v)
                elif isinstance(v, tuple) and v and isinstance(v[0], int) and not isinstance(v[0], bool):  # a cell
                    as_float, as_numpy = (float(v[0]), *v[1:]), (np.int64(v[0]), *v[1:])
                else:
                    continue
                if True:
                    floaty = dataclasses.replace(a, **{f.name: as_float})
                    assert floaty not in legal
                    assert dataclasses.replace(a, **{f.name: as_numpy}) in legal
                    before = json.dumps(s.to_dict())
                    with pytest.raises((IllegalAction, ValueError, TypeError)):
                        s.apply_action(floaty)
                    assert json.dumps(s.to_dict()) == before
                    checked += 1
        s.apply_action(legal[0])
    if game != "landmarks":  # Landmarks' whole numbers sit inside Build payments (tested below)
        assert checked > 0


def test_landmarks_payment_parts_compare_by_kind():
    from haunted_kit.landmarks.actions import Build, Use
    assert Use("castle", 0, "wood") != Use("castle", 0.0, "wood")
    assert Use("castle", np.int64(0), "wood") == Use("castle", 0, "wood")
    assert Build("tannery", (Use("castle", 0, "wood"),)) != Build("tannery", (Use("castle", False, "wood"),))


# ------------------------------------------------------------------ (c) numpy integers everywhere


def test_plain_integers():
    got = plain_integers({np.int64(0): [np.int32(2), (np.int8(1), "x")], "k": True, "f": 1.5})
    assert got == {0: [2, (1, "x")], "k": True, "f": 1.5}
    assert type(next(iter(got))) is int and type(got[0][0]) is int and type(got[0][1][0]) is int


def test_estate_positions_and_configurations_take_numpy_integers():
    from haunted_kit.estate import EstateConfig, EstateConfigError
    from haunted_kit.estate.scenario import position
    s = position(players=np.int64(3), seed=np.int32(2), tokens={np.int64(0): np.int64(2)})
    t = position(players=3, seed=2, tokens={0: 2})
    assert json.dumps(s.to_dict()) == json.dumps(t.to_dict())
    assert EstateConfig(players=np.int64(3), seed=np.uint8(4)) == EstateConfig(players=3, seed=4)
    with pytest.raises(EstateConfigError):
        EstateConfig(players=True)
    with pytest.raises(ValueError, match="player index"):
        position(players=3, tokens={True: 2})


def test_landmarks_positions_and_games_take_numpy_integers():
    from haunted_kit.landmarks import engine as le
    g = get_game("landmarks")
    a, b = le.new_game(players=np.int64(3), seed=np.int64(1)), le.new_game(players=3, seed=1)
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    start = b.to_dict()["start"]
    kw = dict(hands=start["hands"], villages=start["villages"], developed=start["developed"])
    p = le.position(gold=[np.int64(x) for x in start["gold"]], leader=np.int64(0), **kw)
    q = le.position(gold=list(start["gold"]), leader=0, **kw)
    assert json.dumps(p.to_dict()) == json.dumps(q.to_dict())
    with pytest.raises(ValueError):
        le.position(gold=[True] + list(start["gold"][1:]), leader=0, **kw)
    assert g.from_dict(p.to_dict(), g.default_box()).to_dict() == p.to_dict()


def test_haunted_lands_scenarios_and_observations_take_numpy_integers():
    from haunted_kit.haunted.scenario import ScenarioError, give, scenario, set_tokens, set_valor
    s = scenario(players=2)
    give(s, np.int64(0), food=np.int64(2), pecunias=np.int32(3))
    set_tokens(s, 0, "exploration", owned=np.int64(4), active=np.int64(2))
    set_valor(s, 0, np.int64(5))
    json.dumps(s.to_dict())  # plain JSON
    assert s.resources(0)["food"] == 2 and s.pecunias(0) == 3 and s.valor[0] == 5
    assert s.observation(np.int64(1)) == s.observation(1)
    with pytest.raises(ValueError):
        s.observation(True)
    with pytest.raises(ScenarioError):
        set_valor(s, 0, True)
