"""Soak test: many seeded full games over every mode and player count, checking the
invariants of the rules after every single decision."""

from __future__ import annotations

import itertools
import json

import pytest

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted import rules as R
from haunted_kit.haunted.agents import AGENTS as BOTS

BOX = hk.default_box()
MODES = list(BOX.modes)
PLAYERS = [2, 3, 4]
AGENTS = ["random", "greedy"]
SEEDS_PER_CONFIG = 12  # 3 modes x 3 player counts x 2 agents x 12 = 216 games


def check_invariants(s, prev_valor):
    n = s.config.players
    ctx = R.ctx_of(s)
    # nothing negative
    for name in ("res", "pec", "tok", "act", "valor", "sup_build", "sup_res", "sup_tok", "markers"):
        arr = getattr(s, name)
        assert min(arr) >= 0, f"negative {name}: {arr}"
    assert s.sup_ghosts >= 0 and s.sup_depl >= 0
    # caps and tracks
    for p in range(n):
        cap = R.resource_cap(s, ctx, p)
        assert max(s.resources(p).values()) <= cap, f"P{p + 1} above the resource cap {cap}"
        for name, track in BOX.tracks.items():
            assert 0 <= s.tokens(p, name, active=True) <= s.tokens(p, name) <= track.slots
        assert s.markers[p] <= BOX.player_markers
        assert s.markers[p] == len(s.skills_known(p)) + sum(1 for o in s.owner if o == p)
        assert len(s.quests_chosen(p)) + len(s.quests_in_hand(p)) == len(ctx.quest_numbers)
    # conservation of every component between supply, field and players
    assert sum(s.ghosts) + s.sup_ghosts == BOX.supply_ghosts
    assert sum(s.depleted) + s.sup_depl == BOX.supply_depletion
    for b, name in enumerate(BOX.buildings):
        assert sum(1 for x in s.building if x == b) + s.sup_build[b] == BOX.supply_buildings[name]
    for r, name in enumerate(BOX.resources):
        assert sum(s.resource(p, name) for p in range(n)) + s.sup_res[r] == BOX.supply_resources[name]
    for t, name in enumerate(BOX.tracks):
        assert sum(s.tokens(p, name) for p in range(n)) + s.sup_tok[t] == BOX.supply_tokens[name]
    # cells: no ghost on a lake or a building; buildings have owners
    for c in range(len(s.ghosts)):
        if s.ghosts[c]:
            assert s.field.terrain[c] != "lake" and s.building[c] < 0
        assert (s.building[c] >= 0) == (s.owner[c] >= 0)
    # valor never decreases (ruling 11)
    assert all(v >= pv for v, pv in zip(s.valor, prev_valor)), f"valor went down: {prev_valor} -> {s.valor}"


@pytest.mark.soak
@pytest.mark.parametrize("mode,players,agent", list(itertools.product(MODES, PLAYERS, AGENTS)))
def test_soak(mode, players, agent):
    finished = lost = 0
    for seed in range(SEEDS_PER_CONFIG):
        s = hk.new_game(players=players, mode=mode, seed=seed, log=(seed % 4 == 0),
                        extra_ghost_cards=(() if seed % 3 else tuple(g for g in (1, 2, 3) if g != BOX.modes[mode].ghost_card)[:1]))
        bots = [BOTS[agent](seed * 10 + p) for p in range(players)]
        prev = list(s.valor)
        check_invariants(s, prev)
        step = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal, "a decision with no legal action"
            # every listed action is legal by why_not too
            if step % 7 == 0:
                for a in legal:
                    assert s.why_not(a) is None, (a, s.why_not(a))
            # an illegal action changes nothing (checked now and then: it serialises the state)
            if step % 41 == 0 and s.phase == "turns":
                far = A.Explore((9, 9))
                before = s.to_json()
                with pytest.raises(hk.IllegalAction):
                    s.apply_action(far)
                assert s.to_json() == before
            s.apply_action(bots[s.current_player()].act(s))
            check_invariants(s, prev)
            prev = list(s.valor)
            step += 1
        assert s.returns() in ([-1.0] * players, ) or sorted(s.returns()) == [0.0] * (players - 1) + [1.0]
        finished += 1
        lost += s.lost
        if s.lost:
            assert R.kalena_fallen(s, R.ctx_of(s)) or "no free cell" in s.over_reason
        else:
            assert s.winner == R.stack_order(s)[0]
    assert finished == SEEDS_PER_CONFIG


def test_same_seed_same_actions_same_game():
    """Determinism: two runs with the same seed and agents give identical saves."""
    def run():
        s = hk.new_game(players=3, mode="builder", seed=11)
        bots = [BOTS["random"](5 + p) for p in range(3)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].act(s))
        return s.to_json()

    a, b = run(), run()
    assert a == b
    assert json.loads(a)["rng_count"] > 20


@pytest.mark.slow
def test_memory_flat_over_many_games():
    """Python memory after 600 games is not much above memory after 300 (no leak)."""
    import gc
    import tracemalloc

    def games(first, k):
        for seed in range(first, first + k):
            s = hk.new_game(players=4, seed=seed, log=False)
            bots = [BOTS["random"](seed + p) for p in range(4)]
            while not s.is_terminal():
                s.apply_action(bots[s.current_player()].act(s))

    games(0, 200)  # fill the bounded caches (fields, lookup tables)
    gc.collect()
    tracemalloc.start()
    games(200, 300)
    gc.collect()
    first = tracemalloc.get_traced_memory()[0]
    games(500, 300)
    gc.collect()
    second = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert second - first < 512 * 1024, f"memory grew by {(second - first) / 1024:.0f} KiB over 300 games"
