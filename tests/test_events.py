"""The event log: every state change emits an event (issue 2), and the engine keeps
every component conserved (rulebook "General supply") during random games."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.events import EVENT_KINDS
from haunted_kit.haunted.scenario import conservation_problems, deplete, give, place, scenario

EXPECTED_KIND = {
    A.Explore: {"explored"}, A.Extract: {"extracted"}, A.Build: {"built"}, A.Contact: {"contacted"},
    A.Sell: {"sold"}, A.Train: {"trained"}, A.Learn: {"learned"}, A.EndTurn: {"turn_ended"},
    A.PlaceGhost: {"ghost_placed"}, A.ChooseResource: {"resource_gained", "resource_lost"},
    A.ChooseBonus: {"bonus_reward"}, A.RollBonus: {"bonus_die"}, A.RestoreToken: {"tokens_restored"},
    A.ChooseQuest: {"quest_chosen"},
}


def snapshot(s):
    d = s.to_dict()
    for k in ("log", "decisions"):
        d.pop(k)
    return d


@pytest.mark.parametrize("players, mode, seed", [
    (2, "wanderer", 1), (3, "wanderer", 2), (4, "wanderer", 3), (2, "builder", 4), (3, "citizen", 5), (4, "builder", 6),
])
def test_random_games_log_every_change_and_conserve_components(players, mode, seed):
    s = hk.new_game(players=players, mode=mode, seed=seed)
    rng = random.Random(seed)
    assert conservation_problems(s) == []
    for _ in range(2500):
        if s.is_terminal():
            break
        before, n = snapshot(s), len(s.log)
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        new = [e.kind for e in s.log[n:]]
        if snapshot(s) != before:
            assert new, f"{a!r} changed the state without an event"
        assert EXPECTED_KIND[type(a)] & set(new), f"{a!r} logged {new}"
        assert conservation_problems(s) == [], (a, conservation_problems(s))
    assert all(e.kind in EVENT_KINDS for e in s.log)
    assert [e.seq for e in s.log] == list(range(len(s.log)))
    # the valor events add up to each player's valor
    gained = defaultdict(int)
    for e in s.log:
        if e.kind == "valor":
            gained[e.player] += e.data["amount"]
    assert [gained[p] for p in range(players)] == s.valor


def built_event(depleted: bool):
    """Build a mill on (2, -1), a plain, with or without a depletion token there."""
    s = scenario(players=2)
    place(s, 0, (2, -1))
    if depleted:
        deplete(s, (2, -1))
    give(s, 0, wood=1, water=1)
    before = s.sup_depl
    n = len(s.log)
    s.apply_action(A.Build("mill"))
    built = [e for e in s.log[n:] if e.kind == "built"]
    assert len(built) == 1
    return s, before, built[0]


def test_building_on_a_depleted_cell_logs_the_depletion_token_going_back():
    """Rulebook "Basic Actions: Construction": a building on a depleted cell sends its
    depletion token back to the general supply (12 in the box)."""
    s, before, e = built_event(depleted=True)
    assert (before, s.sup_depl) == (11, 12)
    assert not s.depleted[s.field.index[(2, -1)]]
    assert e.data["depletion_returned"] is True
    assert "the cell's depletion token goes back to the supply" in e.text


def test_building_on_a_clear_cell_says_nothing_of_depletion():
    s, before, e = built_event(depleted=False)
    assert (before, s.sup_depl) == (12, 12)
    assert e.data["depletion_returned"] is False
    assert "depletion" not in e.text


def test_every_event_kind_has_text_and_a_known_kind():
    s = hk.new_game(players=4, seed=12)
    for e in s.log:
        assert e.kind in EVENT_KINDS and e.text and e.text[0].isupper()


def candidate_actions(s):
    box = s.box
    cells = list(s.field.cells)
    out = [A.Explore(c) for c in cells] + [A.PlaceGhost(c) for c in cells]
    out += [A.Extract(c, r) for c in cells for r in box.resources]
    out += [A.Build(b) for b in box.buildings] + [A.Contact(), A.EndTurn(), A.RollBonus()]
    out += [A.Train(t) for t in box.tracks] + [A.RestoreToken(t) for t in box.tracks]
    out += [A.Learn(k) for k in box.skills] + [A.ChooseQuest(q) for q in box.quests]
    out += [A.ChooseResource(r) for r in box.resources] + [A.ChooseBonus(f) for f in box.bonus_die]
    res = box.resources
    for option in (1, 2, 3, 4):
        for k in (1, 2, 3, 4):
            for pay in itertools.combinations_with_replacement(res, k):
                out.append(A.Sell(option, pay))
    return out


@pytest.mark.parametrize("players, mode, seed", [(2, "wanderer", 31), (3, "citizen", 32), (4, "builder", 33)])
def test_why_not_agrees_with_legal_actions(players, mode, seed):
    """An action is in legal_actions() exactly when why_not() finds no reason against it."""
    s = hk.new_game(players=players, mode=mode, seed=seed)
    rng = random.Random(seed)
    for step in range(400):
        if s.is_terminal():
            break
        legal = set(s.legal_actions())
        if step % 4 == 0:
            for a in candidate_actions(s):
                assert (s.why_not(a) is None) == (a in legal), (a, s.why_not(a), s)
        s.apply_action(rng.choice(sorted(legal, key=repr)))
