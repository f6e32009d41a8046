"""Tools say what the game declares, never a kit word in its place: the summary of a game
without ``seat_results`` and the play view's last line name the Game's ``score_name``
(else "returns"); ``observation_fields`` without a player count names the vector of the
game's default player count (the count the tools start it with), not a fixed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from haunted_kit import games
from haunted_kit.cli import protocol_summary
from haunted_kit.env import observation_fields
from haunted_kit.games import default_players, get_game
from haunted_kit.widgets.playview import GamePlayView
from ruletools import ENV_HOOKS, games_with


@pytest.fixture
def minimal_nim(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent / "fourth_game"))
    monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", "MINIMAL"))  # no seat_results: the protocol's summary
    return get_game("nim")


def _finished(game):
    s = game.new_game(players=2, seed=1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    return s


def test_the_summary_and_the_play_views_end_name_the_games_score(minimal_nim, monkeypatch):
    s = _finished(minimal_nim)
    won = s.returns().index(1.0)
    assert f"P{won + 1}: returns 1, " in protocol_summary(minimal_nim, s)  # no score_name: the protocol's word
    monkeypatch.setattr(minimal_nim, "score_name", "stones taken last", raising=False)
    said = protocol_summary(minimal_nim, s)
    assert f"P{won + 1}: stones taken last 1, " in said and "returns" not in said
    view = GamePlayView(minimal_nim, s, bots=[], hints=False)
    assert view.status_text() == ("The game is over. Stones taken last: "
                                  + ", ".join(f"P{p + 1} {r:g}" for p, r in enumerate(s.returns())) + ".")


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_observation_fields_default_to_the_games_own_player_count(game):
    g = get_game(game)
    n = default_players(g)
    assert observation_fields(game) == observation_fields(game, n)
    other = g.min_players if g.min_players != n else g.max_players
    assert other == n or observation_fields(game) != observation_fields(game, other)  # the names depend on the count
    with pytest.raises(ValueError, match="players must be a whole number"):
        observation_fields(game, 2.0)
