"""Every place that takes agent names reads the same specs through
:func:`haunted_kit.bots.make_bot` (``play`` and ``simulate``'s ``--agents``, the
environment's opponents, the play widgets, each game's ``play_game``) and names the same
known agents when one is unknown."""

from __future__ import annotations

import pytest

from haunted_kit.bots import BotSpecError, default_agent, known_agents, make_bot
from haunted_kit.cli import main
from haunted_kit.env import SingleSeatEnv
from haunted_kit.games import game_names, get_game, option_defaults, start_game
from haunted_kit.play import play_game
from haunted_kit.search import SearchAgent
from haunted_kit.simulate import Grid
from ruletools import ENV_HOOKS, games_with

GAMES = game_names()


def _known(game) -> str:
    """The known-agents tail of an unknown-agent message: the game's agents, then search."""
    return f"({'known: ' + ', '.join(known_agents(game))})"


def test_known_agents_are_the_games_own_then_search():
    for g in GAMES:
        own = list(getattr(get_game(g), "agents", None) or {})
        assert known_agents(g) == known_agents(get_game(g)) == ["random", *[a for a in own if a != "random"], "search"]
    for g in ("haunted", "estate", "landmarks"):
        if g in GAMES:
            assert known_agents(g) == ["random", "greedy", "search"]


class _NoAgents:
    """A Game that declares no agents of its own: only the kit's random one and search."""

    name = "bare"


def test_a_game_without_an_agents_table_offers_random_and_search():
    """No game is special in the bot factory: a Game's ``agents`` table is all it has."""
    assert known_agents(_NoAgents()) == ["random", "search"]
    assert type(make_bot("random", 3, _NoAgents())).__name__ == "RandomAgent"
    with pytest.raises(BotSpecError, match=r"^unknown agent 'greedy' for 'bare' \(known: random, search\)$"):
        make_bot("greedy", 0, _NoAgents())
    with pytest.raises(ValueError, match="unknown game 'nowhere'"):
        make_bot("random", 0, "nowhere")


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_agent_names_the_same_known_agents_everywhere(game, capsys):
    msg = f"unknown agent 'nobody' for '{game}' {_known(game)}"
    bot = default_agent(game)
    g = get_game(game)
    players = min(g.min_players + 1, g.max_players)  # 3 in the kit's games
    with pytest.raises(BotSpecError, match=f"^{msg}$".replace("(", r"\(").replace(")", r"\)")):
        make_bot("nobody", 0, game=game)
    with pytest.raises(ValueError) as grid_err:
        Grid(game=game, players=(players,), lineups=(f"{bot},nobody",))
    assert str(grid_err.value) == msg
    if game in games_with(*ENV_HOOKS):  # the environment is an optional tool (tests/ruletools.py)
        with pytest.raises(ValueError) as env_err:
            SingleSeatEnv(game, players=players, opponents=["nobody"])
        assert str(env_err.value) == msg
    with pytest.raises(SystemExit) as ex:
        main(["play", "--game", game, "--players", str(players), "--agents", f"{bot},nobody"])
    assert ex.value.code == 2
    assert capsys.readouterr().err.strip().endswith(f"haunted-kit play: error: argument --agents: {msg}")


def test_play_reads_search_specs_and_settings(capsys):
    with pytest.raises(SystemExit) as ex:
        main(["play", "--agents", "search[bogus=1]"])
    assert ex.value.code == 2
    assert ("argument --agents: unknown search setting 'bogus=1' (known: playouts, seconds, rollout, rollout_depth, "
            "exploration, prior)") in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--agents", "greedy[x=1]"])
    assert "argument --agents: agent 'greedy' takes no settings (got [x=1])" in capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES)
def test_play_with_a_search_lineup_plays_the_seeded_agents(game, capsys):
    """``play --agents "search[playouts=3],greedy"`` plays exactly the game that the
    seeded agents play by hand (seat ``i``: seed ``seed * 100 + i`` in every game)."""
    bot = default_agent(game)  # greedy in the kit's games
    lineup = f"search[playouts=3],{bot}"
    assert main(["play", "--game", game, "--players", "2", "--seed", "5", "--agents", lineup]) == 0
    out = capsys.readouterr().out
    g = get_game(game)
    options = option_defaults(g)  # the command line's defaults of the game's declared options
    s = start_game(g, players=2, seed=5, **options)
    bots = [SearchAgent(500, game=g, playouts=3), make_bot(bot, 501, game=g)]
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance(s.sample_chance())
            continue
        s.apply_action(bots[s.current_player()].act(s))
    state, names = play_game(g, players=2, seed=5, agents=["search[playouts=3]", bot], **options)
    assert state.to_dict() == s.to_dict() and names == ["search", bot]
    if game == "haunted":
        from haunted_kit.haunted.sim import play_game as play_haunted
        res = play_haunted(players=2, seed=5, agents=["search[playouts=3]", "greedy"])
        assert res.state.to_dict() == s.to_dict() and res.agents == ["search", "greedy"]
        assert "Agents: P1 search, P2 greedy" in out
    else:
        from haunted_kit import cli
        own = getattr(g, "default_box", None)
        state, names = cli.play_game(game, 2, 5, ["search[playouts=3]", bot], box=own() if own else None, **options)
        assert state.to_dict() == s.to_dict()
        assert cli.summary(state, names) in out


def test_the_play_widgets_take_specs():
    from haunted_kit.estate.widgets import EstatePlayView
    from haunted_kit.haunted.widgets.play import PlayView

    v = PlayView(players=2, seed=1, bots={1: "search[playouts=2]"}, auto_bots=False)
    assert isinstance(v.bots[1], SearchAgent) and v.bots[1].playouts == 2
    ev = EstatePlayView(players=2, seed=1, bots={1: "search[playouts=2]"}, auto_bots=False)
    assert isinstance(ev.bots[1], SearchAgent) and ev.bots[1].game.name == "estate"
    with pytest.raises(ValueError, match=r"^unknown agent 'nobody' for 'estate' \(known: random, greedy, search\)$"):
        EstatePlayView(players=2, seed=1, bots={1: "nobody"})


def test_classroom_tables_take_specs(tmp_path):
    from haunted_kit.store import GameStore

    with GameStore(tmp_path / "s.db") as store:
        with pytest.raises(ValueError, match=r"^unknown agent 'clever' for 'haunted' \(known: random, greedy, search\)$"):
            store.create_table(players=2, bots={1: "clever"})
        store.create_table(players=2, bots={1: "search[playouts=2]"})
        assert [s.agent for s in store.table(1).seats] == [None, "search[playouts=2]"]
        with pytest.raises(ValueError, match=r"^unknown search setting 'depth=3'"):
            store.set_agent(1, 0, "search[depth=3]")
