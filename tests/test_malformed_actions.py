"""Malformed actions: every public entry point that takes an action refuses a wrong
shape with IllegalAction and a reason, leaving the state, the dice position and the
log untouched; integers of any integral type are accepted the same way everywhere.
Property tests (hypothesis) mix malformed actions into random games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.actions import ActionFormatError, action_from_dict, action_to_dict, normalise
from haunted_kit.haunted.scenario import give, place, scenario, set_pecunias


def snapshot(s):
    return s.to_json(), s.rng_count, len(s.log), s.decisions


@pytest.mark.parametrize("action, words", [
    (A.PlaceGhost(5), "PlaceGhost.cell must be an axial cell, a pair of whole numbers (q, r), got 5"),
    (A.Explore(None), "Explore.cell must be an axial cell, a pair of whole numbers (q, r), got None"),
    (A.Explore((1.0, 0)), "got (1.0, 0)"),
    (A.Explore((1, 0, 0)), "got (1, 0, 0)"),
    (A.Explore("1,0"), "got '1,0'"),
    (A.Explore(np.array([1, 0])), "got array([1, 0])"),
    (A.Learn(1.0), "Learn.skill must be a whole number (an int, not a bool or a float), got 1.0; e.g. Learn(4)"),
    (A.Learn(True), "got True"),
    (A.Learn(np.bool_(True)), "got np.True_"),
    (A.Learn("4"), "got '4'"),
    (A.Sell(1.0, ("food",)), "Sell.option must be a whole number"),
    (A.Sell(1, "food"), "Sell.payment must list the resource names paid, one per token, got 'food'"),
    (A.Sell(1, ()), "Sell.payment must list"),
    (A.Sell(1, ("food", 3)), "Sell.payment lists 3, which is not a resource (food, water, wood, ore)"),
    (A.Train(0), "Train.track must name an action track (a string), got 0"),
    (A.Train("stealth"), "Train.track 'stealth' is not an action track of this box"),
    (A.Build(["mill"]), "Build.building must name a building (a string)"),
    (A.Extract((1, 0), None), "Extract.resource must name a resource (a string), got None"),
    (A.ChooseQuest(2.5), "ChooseQuest.quest must be a whole number"),
    (A.ChooseBonus(None), "ChooseBonus.face must be a whole number"),
    (A.RestoreToken(b"contact"), "RestoreToken.track must name an action track (a string), got b'contact'"),
    ("explore", "'explore' is not an action (see haunted_kit.haunted.actions"),
    (None, "None is not an action"),
    (A.Explore, "is not an action"),
])
def test_malformed_actions_are_refused_with_a_reason_and_change_nothing(action, words):
    s = hk.new_game(players=3, seed=5)
    before = snapshot(s)
    r = s.why_not(action)
    assert r is not None and words in r.text and r.source == "kit", r
    with pytest.raises(hk.IllegalAction) as ei:
        s.apply_action(action)
    assert ei.value.refusal == r
    assert snapshot(s) == before


def test_learn_one_point_oh_is_refused_where_learn_one_would_be_legal():
    s = scenario(players=2)
    place(s, 0, (1, 0))
    give(s, 0, food=1, water=1)
    assert s.why_not(A.Learn(1)) is None
    for bad in (A.Learn(1.0), A.Learn(True)):  # equal to Learn(1) as dataclasses, refused by shape
        before = snapshot(s)
        with pytest.raises(hk.IllegalAction, match="Learn.skill must be a whole number"):
            s.apply_action(bad)
        assert snapshot(s) == before
    s.apply_action(A.Learn(1))
    hk.State.from_json(s.to_json())


@pytest.mark.parametrize("kind", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_integers_are_accepted_and_normalised(kind):
    s = scenario(players=2)
    place(s, 0, (1, 0))
    give(s, 0, food=1, water=1)
    set_pecunias(s, 0, 9)
    assert s.why_not(A.Learn(kind(1))) is None
    s.apply_action(A.Learn(kind(1)))
    assert s.knows_skill(0, 1)
    # the log and the save hold plain ints: the save is JSON and loads again
    hk.State.from_json(s.to_json())
    t = scenario(players=2)
    place(t, 0, (1, 0))
    q, r = t.field.cells[t.sensor[0]]
    target = next(a.cell for a in t.legal_actions() if isinstance(a, A.Explore))
    t.apply_action(A.Explore([kind(target[0]), kind(target[1])]))
    assert t.field.cells[t.sensor[0]] == target and type(t.log[-1].cell[0]) is int


def test_chance_outcomes_take_any_integral_type_but_no_bool_or_float():
    s = hk.new_game(players=2, seed=1, auto_chance=False)
    s.apply_chance(s.chance_outcomes()[0][0])  # tile
    while s.chance and s.chance.kind == "tile":
        s.apply_chance(s.chance_outcomes()[0][0])
    assert s.chance.kind == "skill"
    first = s.chance_outcomes()[0][0]
    for bad in (float(first), True, None, [first]):
        before = snapshot(s)
        with pytest.raises(hk.ChanceError):
            s.apply_chance(bad)
        assert snapshot(s) == before
    s.apply_chance(np.int64(first))
    assert s.skills == [first] and type(s.skills[0]) is int


def test_action_json_form_is_checked():
    assert action_from_dict({"type": "learn", "skill": 4}) == A.Learn(4)
    assert action_from_dict({"type": "explore", "cell": [1, 0]}) == A.Explore((1, 0))
    for bad, words in [({"type": "learn", "skill": 4.0}, "Learn.skill must be a whole number"),
                       ({"type": "learn", "skill": True}, "Learn.skill must be a whole number"),
                       ({"type": "explore", "cell": [1]}, "Explore.cell must be an axial cell"),
                       ({"type": ["learn"]}, "unknown action type ['learn']"),
                       ({"type": "learn"}, "needs field 'skill'"),
                       ({"type": "learn", "skill": 1, 3: 4}, "unknown fields ['3']"),
                       ([1, 2], "must be an object with a 'type'")]:
        with pytest.raises(ActionFormatError, match=None) as ei:
            action_from_dict(bad)
        assert words in str(ei.value)
    with pytest.raises(ActionFormatError, match="Learn.skill must be a whole number"):
        action_to_dict(A.Learn(1.5))
    assert action_to_dict(A.Learn(np.int64(2))) == {"type": "learn", "skill": 2}


def test_normalise_keeps_normal_actions_and_orders_payments():
    a = A.Learn(4)
    assert normalise(a) is a
    names = A.box_names(hk.default_box())
    assert normalise(A.Sell(2, ["ore", "food"]), names) == A.Sell(2, ("food", "ore"))
    got = normalise(A.Explore((np.int64(1), 0)))
    assert got == A.Explore((1, 0)) and type(got.cell[0]) is int


# ============================================================================ properties

_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.sampled_from(["food", "ore", "mill", "contact", "exploration", "city"]),
    st.tuples(st.integers(-9, 9), st.integers(-9, 9)), st.lists(st.integers(-9, 9), max_size=3),
    st.lists(st.sampled_from(["food", "water", "wood", "ore", "gold"]), max_size=4),
    st.tuples(st.floats(-3, 3), st.integers(-3, 3)), st.builds(np.int64, st.integers(-9, 9)),
)


@st.composite
def any_action(draw):
    """An action of any type with any field values (well-formed or not), or a non-action."""
    cls = draw(st.sampled_from(list(A.FIELD_KINDS) + [str, dict]))
    if cls in (str, dict):
        return cls()
    return cls(*[draw(_values) for _ in A.FIELD_KINDS[cls]])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), steps=st.integers(0, 120),
       attempts=st.lists(any_action(), min_size=1, max_size=12), data=st.data())
def test_random_games_with_malformed_actions_mixed_in(seed, players, steps, attempts, data):
    """At random points of random games, any action either applies as the listed equal
    action, or raises IllegalAction with the why_not reason and leaves the state, the
    dice position and the log exactly as they were."""
    s = hk.new_game(players=players, seed=seed)
    for i in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[data.draw(st.integers(0, len(legal) - 1), label="pick")])
        if i % 10 == 0 and attempts:
            a = attempts.pop()
            before = snapshot(s)
            reason = s.why_not(a)
            assert snapshot(s) == before
            if reason is None:
                listed = normalise(a, A.box_names(s.config.box))
                assert listed in legal_now(s)
                s.apply_action(a)
            else:
                assert isinstance(reason.text, str) and reason.text
                with pytest.raises(hk.IllegalAction) as ei:
                    s.apply_action(a)
                assert ei.value.refusal == reason
                assert snapshot(s) == before
    hk.State.from_json(s.to_json())  # whatever happened, the save is consistent


def legal_now(s):
    return s.legal_actions()
