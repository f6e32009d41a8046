"""Soak: many seeded estate games with random and greedy bots, checking the issue's
invariants after every decision."""

from __future__ import annotations

import random

import pytest

from haunted_kit.estate import new_game
from haunted_kit.estate.agents import AGENTS

#: the only event kinds that may change a player's holdings: Factory and gold takes,
#: purchases (tiles, marked prices, the Inn), sales, exchanges, hires and fees between players
HOLDING_KINDS = {"taken", "gold_taken", "tile_bought", "market_paid", "sold", "exchanged", "hired", "fee_paid",
                 "fee_received", "inn_paid"}
WORKER_KINDS = {"worker_placed", "workers_back", "hired", "inn_return"}


def check_step(before, after, new_events, box):
    n = len(after.hand)
    gained = [{r: 0 for r in box.resources} for _ in range(n)]
    moved = [{"supply": 0, "factory": 0, "inn": 0} for _ in range(n)]
    for e in new_events:
        if "gain" in e.data:
            assert e.kind in HOLDING_KINDS, e
            for r, k in e.data["gain"].items():
                gained[e.player][r] += k
        if "workers" in e.data:
            assert e.kind in WORKER_KINDS, e
            ch = e.data["workers"]
            if e.kind != "hired":
                assert sum(ch.values()) == 0, e  # only hiring adds workers
            for k, v in ch.items():
                moved[e.player][k] += v
    for p in range(n):
        for r in box.resources:
            assert after.hand[p][r] == before.hand[p][r] + gained[p][r], (p, r)
            assert after.hand[p][r] >= 0
        for k in ("supply", "factory", "inn"):
            assert after.workers[p][k] == before.workers[p][k] + moved[p][k]
            assert after.workers[p][k] >= 0
        assert sum(after.workers[p].values()) <= box.worker_limit
        for r, v in after.income[p].items():
            assert v >= before.income[p][r] >= 0  # income only rises
    # gold between players: fees sum to zero
    fees = sum(e.data["gain"]["gold"] for e in new_events if e.kind in ("fee_paid", "fee_received"))
    assert fees == 0


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_keep_the_invariants(players):
    for seed in range(12):
        s = new_game(players, seed=seed)
        box = s.box
        bots = [AGENTS["greedy" if (seed + p) % 2 else "random"](seed * 10 + p) for p in range(players)]
        steps = 0
        while not s.is_terminal():
            before = s.copy()
            k = len(s.log)
            p = s.current_player()
            a = bots[p].act(s)
            assert s.why_not(a) is None
            s.apply_action(a)
            check_step(before, s, s.log[k:], box)
            for slot, land in s.lands.items():
                assert len(set(land["markers"])) == len(land["markers"])
            steps += 1
            assert steps < 2000
        assert s.season == box.seasons and all(w["factory"] == 0 for w in s.workers)
        tiles = sum(s.stack.values()) + len(s.display) + len(s.lands) + len(s.removed)
        assert tiles == sum(t.count for t in box.tiles.values())


def test_same_seed_and_actions_give_the_same_game():
    def run(seed):
        s = new_game(3, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        return s.to_dict()

    assert run(4) == run(4)
    assert run(4)["history"] != run(5)["history"]
