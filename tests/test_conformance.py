"""The protocol conformance suite, run over every registered game and every setting it
offers (in the spirit of OpenSpiel's random-simulation test): a game added to
``haunted_kit.games.REGISTRY`` is checked by all of it with no new test.

Every decision kind the game declares (its Game's ``action_types``) is reached: seeded
games (every other seat the game's greedy agent, the rest random; plus the positions of
the Game's optional ``conformance_starts``) are played until each kind has been legal
somewhere, and the suite fails naming the kinds never reached, or a listed action of a
class the game does not declare. At the first position of each kind, an action of that
kind is checked (:func:`haunted_kit.testing.kind_problems`): no ``why_not`` reason,
applied on a copy, its JSON form round-trips, the save round-trips through the kit's
loader and continues the same, copies are independent, other actions of that kind and
malformed forms of it are refused leaving the state as it was, and the mover's
determinisation looks to the mover as the position does.

Besides, at positions sampled from seeded random games and at the kinds' positions:
every legal action is accepted (on a copy); other positions' legal actions, wrong-field
variants and malformed JSON forms are refused with IllegalAction or the game's ValueError,
never another exception, and leave the state byte-identical; copies are independent; a
save continues the same way in another process; observations do not depend on what they
hide; seeds k and -k differ.

The shared checking code is in :mod:`haunted_kit.testing`. Default run: a few seeds per
setting; ``-m slow`` runs more.
"""

from __future__ import annotations

import json
import random

import pytest

from haunted_kit.games import game_names, get_game
from haunted_kit.testing import (KIND_GAMES, changed_fields, continuation, continuation_elsewhere, game_settings,
                                 kind_problems, malformed_forms, other_actions, random_steps, reach_decision_kinds,
                                 refusal_problem, sampled_positions, state_json)

CASES = [(name, setting) for name in game_names() for setting in game_settings(name)]
IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in setting.items()) for name, setting in CASES]
SEEDS = (1, 2)
SLOW_SEEDS = tuple(range(3, 13))


#: positions sampled per seed and legal actions tried per position (the default run's budget; each
#: decision kind's first position is checked besides, see kind_positions)
POSITIONS, LEGAL_TRIED = 6, 25


def _positions(name, setting, seeds, every=4, most=None):
    """Positions of seeded random games, ``most`` evenly spaced ones per seed (all: None),
    then the positions of this setting where a decision kind was first legal
    (:func:`kind_positions`), so every kind's moment is among them."""
    g = get_game(name)
    out = []
    for seed in seeds:
        found = sampled_positions(g, setting, seed, every)
        if most is not None and len(found) > most:
            found = [found[round(i * (len(found) - 1) / (most - 1))] for i in range(most)]
        out += found
    return g, out + kind_positions(g, setting)


def _refusal_problems(name, setting, seeds) -> list[str]:
    g, positions = _positions(name, setting, seeds, most=POSITIONS)
    pool = []  # legal actions of every sampled position (other players, other moments)
    for s in positions:
        pool += s.legal_actions()
    pool = list(dict.fromkeys(pool))
    rng = random.Random(0)
    problems = []
    for i, s in enumerate(positions):
        where = f"position {i} ({s!r})"
        legal = s.legal_actions()
        for a in rng.sample(legal, min(LEGAL_TRIED, len(legal))):  # listed actions are accepted, on a copy
            c = s.copy()
            try:
                c.apply_action(a)
            except Exception as exc:  # any exception for a listed action is a fault
                problems.append(f"{where}: listed {a!r} raises {type(exc).__name__}: {exc}")
        if s.is_terminal() or s.is_chance_node() or not legal:
            candidates = rng.sample(pool, min(10, len(pool)))
        else:
            candidates = rng.sample(other_actions(s, pool), min(10, len(other_actions(s, pool))))
        for a in candidates:
            problems.append(refusal_problem(s, a))
        forms = []
        for a in rng.sample(legal, min(2, len(legal))):
            data = g.action_to_dict(a)
            # a form that reads as a legal action is well formed (an optional field left out:
            # Trade's give/take, Build's payment...), unless it carries a field the action has not
            forms += [d for d in malformed_forms(data)
                      if not (_legal_form(g, s, d) and "unexpected_field" not in d)]
            forms += [d for d in changed_fields(data) if _legal_form(g, s, d) is False]
        for d in forms:
            p = refusal_problem(s, data=d, game=g)
            problems.append(p and f"{where}: {p}")
    return [p for p in problems if p]


def _legal_form(g, s, data):
    """Whether the JSON form ``data`` reads as a legal action of ``s`` (None: unreadable)."""
    try:
        return g.action_from_dict(data) in s.legal_actions()
    except ValueError:
        return None


_KIND_STEPS: dict[int, tuple] = {}


def kind_steps(game) -> tuple[dict, list]:
    """:func:`reach_decision_kinds` of ``game`` (a Game object: a test's registered toy is
    its own entry), played once per process. Kept by the object's identity, as a Game need
    not be hashable (a ``SimpleNamespace`` of the members is a Game)."""
    kept = _KIND_STEPS.get(id(game))
    if kept is None or kept[0] is not game:
        kept = _KIND_STEPS[id(game)] = (game, reach_decision_kinds(game))
    return kept[1]


kind_steps.cache_clear = _KIND_STEPS.clear  # (a test that changes a Game's declarations starts afresh)


def kind_positions(game, setting: dict) -> list:
    """Copies of the positions where each decision kind was first legal, in games of
    ``setting``; none for a game that declares no kinds (the kinds' test names the hook)."""
    if getattr(game, "action_types", None) is None:
        return []
    reached, _ = kind_steps(game)
    return [step.state.copy() for step in reached.values() if f"({_label(setting)})" in step.where]


def _label(setting: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items())


@pytest.mark.parametrize("name", game_names())
def test_every_decision_kind_is_reached_and_checked(name):
    g = get_game(name)
    reached, missing = kind_steps(g)
    assert missing == [], (f"{name}: decision kinds never legal in {KIND_GAMES} seeded games and the Game's "
                           f"conformance_starts: {', '.join(missing)} (a kind only a prepared position reaches needs "
                           "a conformance_starts position)")
    undeclared = [k for k in reached if k.startswith("undeclared ")]
    assert undeclared == [], f"{name}: legal actions of classes missing from the Game's action_types: {undeclared}"
    pool = list(dict.fromkeys(a for step in reached.values() for a in step.state.legal_actions()))
    problems = [p for i, step in enumerate(reached.values()) for p in kind_problems(g, step, pool, seed=i)]
    assert problems == []


@pytest.mark.parametrize("name,setting", CASES, ids=IDS)
def test_legal_accepted_illegal_and_malformed_refused_state_unchanged(name, setting):
    assert _refusal_problems(name, setting, SEEDS) == []


@pytest.mark.slow
@pytest.mark.parametrize("name,setting", CASES, ids=IDS)
def test_refusals_many_seeds(name, setting):
    assert _refusal_problems(name, setting, SLOW_SEEDS) == []


@pytest.mark.parametrize("name,setting", CASES, ids=IDS)
def test_copies_are_independent(name, setting):
    g, positions = _positions(name, setting, SEEDS, every=7, most=POSITIONS)
    moved = 0
    for s in positions:
        if s.is_terminal():
            continue
        before = state_json(s)
        c = s.copy()
        random_steps(c, random.Random(5), 3)
        assert state_json(s) == before, f"playing on a copy changed the original {s!r}"
        c2 = s.copy()
        random_steps(s, random.Random(5), 3)
        assert state_json(c2) == before, f"playing on the original changed its copy {s!r}"
        assert state_json(c) == state_json(s)  # the same steps on both give the same position
        moved += 1
    assert moved > 0


@pytest.mark.parametrize("name", game_names())
def test_save_load_continues_the_same_in_another_process(name):
    g = get_game(name)
    jobs = []
    for setting in game_settings(name):
        for s in sampled_positions(g, setting, 3, every=6)[1:-1][:2]:
            jobs.append({"save": json.loads(json.dumps(s.to_dict())), "game": name, "seed": 11, "steps": 40})
    assert jobs
    here = [continuation(j["save"], j["game"], j["seed"], j["steps"]) for j in jobs]
    there = continuation_elsewhere(jobs)
    assert there == json.loads(json.dumps(here))
    assert any(here), "no job played a step after its save"


@pytest.mark.parametrize("name,setting", CASES, ids=IDS)
def test_observation_hides_what_it_must(name, setting):
    """A player's observation is the same in every position consistent with what that
    player may know (the game's ``determinise``): it cannot depend on hidden information.
    A game whose player's observation ever differs from the omniscient one
    (``observation(None)``) hides something, so it must have ``determinise``; one that
    never does hides nothing and needs none."""
    g, positions = _positions(name, setting, SEEDS, every=6, most=POSITIONS)
    if not hasattr(g, "determinise"):
        hidden = [f"P{p + 1} at {s!r}" for s in positions for p in range(s.players)
                  if _without_log(s.observation(p)) != _without_log(s.observation(None))]
        assert hidden == [], (f"{name} hides information ({hidden[:1]}) but its Game has no "
                              "determinise(state, player, rng): search and this check need it")
        return
    rng = random.Random(9)
    differed = 0
    for s in positions:
        for p in range(s.players):
            other = g.determinise(s, p, rng)
            # the event log is compared through events(p) below: a determinised copy starts a fresh log
            assert _without_log(other.observation(p)) == _without_log(s.observation(p)), (
                f"P{p + 1}'s observation changed with hidden data at {s!r}")
            differed += _without_log(other.observation(None)) != _without_log(s.observation(None))
    # the check is not vacuous: hidden information did vary somewhere
    assert differed > 0, "determinise never changed hidden information: the check would be vacuous"


def _without_log(obs: dict) -> dict:
    return {k: v for k, v in obs.items() if k != "log"}


@pytest.mark.parametrize("name", game_names())
def test_seeds_k_and_minus_k_give_different_games(name):
    g = get_game(name)
    setting = game_settings(name)[0]
    same = []
    for k in (1, 2, 7, 12345):
        a, b = g.new_game(seed=k, **setting), g.new_game(seed=-k, **setting)
        random_steps(a, random.Random(0), 30)
        random_steps(b, random.Random(0), 30)
        oa, ob = a.observation(0), b.observation(0)
        if oa == ob and [e.action for e in a.history()] == [e.action for e in b.history()]:
            same.append(k)
    assert same == [], f"seeds k and -k give the same game for k in {same}"
