"""Search values read with each game's own meaning of its returns, and hints refuse a
player who is not to move and a ``top`` below 1 (every game of the kit)."""

from __future__ import annotations

import pytest

from haunted_kit.games import game_names, get_game, start_game
from haunted_kit.search import SearchAgent, _outcome_words, hints, playout_values, returns_are_win_loss

GAMES = game_names()


def test_points_give_the_same_shares_whatever_their_size():
    assert playout_values([0, 0, 0]) == [1 / 3, 1 / 3, 1 / 3]
    assert playout_values([2, 2, 2]) == [1 / 3, 1 / 3, 1 / 3]
    assert playout_values([1, 1, 0]) == [0.5, 0.5, 0.0]
    assert playout_values([4, 4, 0]) == [0.5, 0.5, 0.0]
    assert playout_values([0.5, 0.25, -1]) == [1.0, 0.0, 0.0]  # a -1 score is no collective loss
    assert playout_values([-1, -3]) == [1.0, 0.0]


def test_win_loss_returns_are_kept():
    assert playout_values([1, 0, 0], win_loss=True) == [1.0, 0.0, 0.0]
    assert playout_values([-1, -1, -1], win_loss=True) == [-1.0, -1.0, -1.0]
    assert playout_values([0, 0], win_loss=True) == [0.0, 0.0]


def test_only_haunted_lands_declares_win_loss_returns():
    assert [returns_are_win_loss(get_game(g)) for g in ("haunted", "estate", "landmarks")] == [True, False, False]
    assert returns_are_win_loss(None) is False


def test_collective_loss_wording_only_for_a_game_that_has_one():
    assert _outcome_words(-0.25, True) == "often ends in a collective loss"
    assert _outcome_words(-0.25, False) == "wins about 0% of them"
    assert _outcome_words(0.375, False) == _outcome_words(0.375, True) == "wins about 38% of them"


def _to_move(game):
    g = get_game(game)
    s = start_game(g, players=min(3, g.max_players), seed=1)
    while s.is_chance_node():
        s.apply_chance(s.sample_chance())
    return s, s.current_player()


@pytest.mark.parametrize("game", GAMES)
def test_hints_refuse_a_player_who_is_not_to_move(game):
    s, mover = _to_move(game)
    before = s.to_dict()
    others = [p for p in range(s.players) if p != mover]
    for player in (-1, s.players, 9, *others, str(mover), float(mover), True if mover == 1 else None):
        if player is None:
            continue
        msg = rf"^player must be the player to move: P{mover + 1} \(index {mover}\) is to move here, got {player!r}$"
        with pytest.raises(ValueError, match=msg):
            hints(s, player=player, playouts=5)
        with pytest.raises(ValueError, match=msg):
            SearchAgent(0, playouts=5).search(s, player)
    assert s.to_dict() == before
    a = hints(s, player=mover, playouts=20, seed=3)
    b = hints(s, playouts=20, seed=3)
    assert [(h.action, h.visits, h.sentence) for h in a] == [(h.action, h.visits, h.sentence) for h in b]


@pytest.mark.parametrize("game", GAMES)
def test_hints_refuse_top_below_one(game):
    s, _ = _to_move(game)
    for top in (-1, 0, 1.5, True, "2"):
        with pytest.raises(ValueError, match=rf"^top must be a whole number of moves, 1 or more, got {top!r}$"):
            hints(s, top=top, playouts=5)
    assert len(hints(s, top=1, playouts=20, seed=1)) == 1
