"""Property tests (hypothesis) for loaded inputs: a mutated box is refused with a
BoxError or plays every mode and player count cleanly; a mutated save is refused with
a SaveError naming a field, or loads into a state that plays on to the end. The larger
fuzz is benchmarks/fuzz.py."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haunted_kit as hk
from haunted_kit.cli import summary
from haunted_kit.haunted.engine import GAME
from haunted_kit.testing import check_box, mutate_json, mutate_text, random_steps
from ruletools import DATA, copy_data

FILES = sorted(p.name for p in DATA.iterdir() if p.is_file())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.sampled_from(FILES), rng=st.randoms(use_true_random=False))
def test_a_mutated_box_is_refused_or_plays_cleanly(tmp_path_factory, name, rng):
    d = copy_data(tmp_path_factory.mktemp("box"))
    new = mutate_text((d / name).read_text(encoding="utf-8"), rng)
    (d / name).write_bytes(new if isinstance(new, bytes) else new.encode("utf-8"))
    try:
        box = hk.load_box(d)
    except hk.BoxError as exc:
        assert exc.file in FILES and exc.entry and exc.problem  # names file, entry and problem
        return
    report = check_box(box, games=1, seed=rng.randrange(1000), max_steps=5000, save_every=0)
    assert report.ok, str(report)


def _saves():
    out = []
    for j, st_ in enumerate(GAME.settings()):
        for stop in (0, 3, 40, 10**9):
            s = hk.new_game(seed=j, auto_chance=stop != 0, **st_)
            random_steps(s, random.Random(j), stop)
            out.append(s.to_dict())
    return out


SAVES = _saves()


def play_on(s, rng):
    for _ in range(20_000):
        if s.is_terminal():
            return
        assert GAME.invariants(s) == []
        try:
            if s.is_chance_node():
                s.apply_chance(rng.choice([o for o, _ in s.chance_outcomes()]))
            else:
                legal = s.legal_actions()
                assert legal
                s.apply_action(legal[rng.randrange(len(legal))])
        except hk.ChanceError:  # a saved forced outcome that does not fit: dropped, the game waits
            assert s.is_chance_node()
    raise AssertionError("the loaded game does not end")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(SAVES) - 1), edits=st.integers(1, 3), rng=st.randoms(use_true_random=False))
def test_a_mutated_save_is_refused_naming_a_field_or_plays_on(i, edits, rng):
    data, paths = mutate_json(SAVES[i], rng, edits)
    text = json.dumps(data)  # Infinity and NaN are written the way JSON readers accept them
    try:
        s = hk.State.from_json(text)
    except hk.SaveError as exc:
        assert "save" in str(exc)
        return
    summary(s)  # what `haunted-kit replay` prints
    assert hk.State.from_json(s.to_json()).to_dict() == s.to_dict()
    play_on(s, rng)
    summary(s)
