"""The shortcuts of Haunted Lands' random-play speed (issue 21 item 4) agree with the rules
they shorten: no event words composed with the log off, the explore-reach memo shared by
token counts from the dearest cell up, and the ghost placement listed once by the spread."""

import pytest

from haunted_kit.haunted import rules as R
from haunted_kit.haunted.engine import GAME, new_game
from haunted_kit.protocol import RandomAgent


def _play(players: int, seed: int, log: bool, each=None):
    s = new_game(players=players, seed=seed, log=log)
    bots = [RandomAgent(seed * 100 + i) for i in range(players)]
    while not s.is_terminal():
        if each is not None:
            each(s)
        s.apply_action(bots[s.current_player()].act(s))
    return s


def test_no_event_words_are_composed_with_the_log_off(monkeypatch):
    """With ``log=False`` the words handed to gain_valor, gain_resource, give_bonus and
    restore are never read (rules.words is not called); with the log on they are, and the
    valor events carry them."""
    calls = []
    real = R.words
    monkeypatch.setattr(R, "words", lambda text: calls.append(text) or real(text))
    for seed in range(12):
        _play(2 + seed % 3, seed, log=False)
    assert calls == []
    logs = [_play(4, seed, log=True).log for seed in range(8)]
    assert calls
    whys = {e.data["why"] for log in logs for e in log if e.kind == "valor"}
    assert whys and all(isinstance(w, str) and w for w in whys)


def test_explore_reach_above_the_dearest_cell_equals_the_rule():
    """Every cell's reach, for every token count (those of ``reach_cap`` and more share
    one memo entry), is the neighbours whose kit entry cost (rules.entry_cost) the count
    covers, for both cost skills learned or not."""
    s = new_game(players=4, seed=21, log=False)
    ctx = R.ctx_of(s)
    assert ctx.reach_cap == 3  # the mountain's cost in the reference box; no ghost card 3 in play
    masks = [0, ctx.bit["cheaper_forest"], ctx.bit["cheaper_forest"] | ctx.bit["cheaper_mountain"]]
    for mask in masks:
        for cell in range(len(ctx.neighbours)):
            for have in range(1, 8):
                cells, actions, rule = ctx.explore_reach(mask, cell, have)
                want = [c for c in ctx.neighbours[cell]
                        if (k := R.entry_cost(ctx, c, mask, False)) is not None and k <= have]
                assert list(cells) == want and rule == {}
                assert actions == tuple(ctx.explore_actions[c] for c in want)


@pytest.mark.parametrize("seed", range(6))
def test_the_spread_lists_ghost_placements_as_a_fresh_position_does(seed):
    """At every ghost placement, the legal actions the spread handed over are those a
    position rebuilt from the save (nothing cached) lists."""
    seen = []

    def check(s):
        if s.pending and s.pending[-1].kind == "ghosts":
            fresh = GAME.from_dict(s.to_dict())
            assert s.legal_actions() == fresh.legal_actions()
            seen.append(len(s.legal_actions()))

    _play(4, seed, log=False, each=check)
    assert seen and min(seen) >= 2
