"""The game protocol: Haunted Lands' State implements it; the record is shared by copies."""

import random

import pytest

import haunted_kit as hk
from haunted_kit.games import UnknownGame, game_names, get_game
from haunted_kit.protocol import Game, HistoryEntry, RandomAgent, Record, Refusal


def test_registry_gives_haunted_lands_game():
    g = get_game("haunted")
    assert isinstance(g, Game)
    assert "haunted" in game_names()
    s = g.new_game(players=3, seed=7, mode="citizen")
    assert s.players == 3 and s.config.mode == "citizen"
    a = s.legal_actions()[0]
    assert g.action_from_dict(g.action_to_dict(a)) == a


def test_unknown_game_lists_known_names():
    with pytest.raises(UnknownGame, match="unknown game 'chess' \\(known: haunted"):
        get_game("chess")


def test_refusal_names_its_source():
    assert str(Refusal("no", "Market")) == "no (rulebook: Market)"
    assert str(Refusal(lambda: "no", "Market", "estate rules")) == "no (estate rules: Market)"


def test_record_shares_prefix_and_keeps_order():
    r1 = Record().append(HistoryEntry(0, "a")).append(HistoryEntry(None, "die", chance=True))
    r2 = r1.append(HistoryEntry(1, "b"))
    r3 = r1.append(HistoryEntry(2, "c"))
    assert len(r1) == 2 and len(r2) == 3
    assert [e.action for e in r2] == ["a", "die", "b"]
    assert [e.action for e in r3] == ["a", "die", "c"]
    assert r2._head[0] is r3._head[0]  # common prefix shared, not copied


def test_seat_agents_repeats_the_lineup_and_seeds_each_seat():
    """Seat i's named agent is made with seed * 100 + i; objects are used as they are."""
    from haunted_kit.protocol import RandomAgent, seat_agents

    made = []

    def make(name, seed):
        made.append((name, seed))
        return RandomAgent(seed)

    mine = RandomAgent(9)
    bots, names = seat_agents(["random", mine], 3, 7, make)
    assert made == [("random", 700), ("random", 702)]
    assert bots[1] is mine and names == ["random", "random", "random"]
    assert bots[0].rng.random() == RandomAgent(700).rng.random()


def test_states_along_reapplies_a_record_to_a_copy_of_the_start():
    """One state per entry, each the start with the entries so far applied; the start is untouched."""
    from haunted_kit.games import get_game
    from haunted_kit.protocol import states_along

    g = get_game("landmarks")
    s = g.new_game(players=3, seed=4)
    start = s.copy()
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    entries = s.history()[len(start.history()):]
    out = states_along(start, entries)
    assert [e for e, _ in out] == [None, *entries] and len(entries) == 3
    assert out[-1][1].to_dict() == s.to_dict() and out[0][1].to_dict() == start.to_dict()
    assert start.history() == out[0][1].history()


class _Listed:
    """A stand-in position whose legal actions are the numbers 0..n-1."""

    def __init__(self, n):
        self.n = n

    def legal_actions(self):
        return list(range(self.n))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 9, 16, 17, 100])
def test_random_agent_draws_what_rng_choice_draws(n):
    """RandomAgent.act writes rng.choice out: for every list length (powers of two and
    their neighbours included, where the rejection loop matters), the same choices and
    the generator left in the same place."""
    agent, ref = RandomAgent(11), random.Random(11)
    state = _Listed(n)
    assert [agent.act(state) for _ in range(300)] == [ref.choice(range(n)) for _ in range(300)]
    assert agent.rng.getstate() == ref.getstate()


def test_random_agent_with_nothing_to_choose_raises_like_choice():
    with pytest.raises(IndexError, match="empty sequence"):
        RandomAgent(0).act(_Listed(0))
