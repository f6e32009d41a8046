"""Issue 19, item 1: the CLI, the classroom store and the table server reach a game only
through the registry (``games.get_game``, ``games.game_module``): every registered game
plays, replays and summarises through its own ``cli`` module, a store keeps each table's
game name (an older store's tables are Haunted Lands'), and a hook a game lacks is a
clear message, never an AttributeError."""

from __future__ import annotations

import sqlite3

import pytest

from haunted_kit.bots import default_agent
from haunted_kit.cli import game_cli, main, summary
from haunted_kit import games
from haunted_kit.games import REGISTRY, UnknownGame, game_module, game_names, game_options, get_game
from haunted_kit.protocol import describe_action
from haunted_kit import server as table_server
from haunted_kit.server import Classroom, status_of, view_message
from haunted_kit.store import GameStore
from haunted_kit.tableview import BOX_STYLE, observation_html

#: the kit's own companion games (a game registered from outside the kit, e.g. tests/fourth_game's, is none)
COMPANIONS = [n for n, (module, _) in REGISTRY.items() if module.startswith("haunted_kit.") and n != "haunted"]


@pytest.mark.parametrize("name", game_names())
def test_every_game_is_summarised_by_its_own_cli(name):
    """``cli.summary`` of any game's state is that game's ``cli.summary``, agents last; the
    kit's ``cli.play_game`` plays every game (through the kit's play loop)."""
    from haunted_kit import cli

    g = get_game(name)
    own = getattr(g, "default_box", None)
    lineup = ["random", default_agent(g)]
    s, names = cli.play_game(name, 2, 4, lineup, box=own() if own else None)
    assert s.is_terminal() and names == lineup
    text = summary(s, names)
    module = game_cli(name)  # a game without a cli module: the kit's summary from the protocol
    assert text == (module.summary(s, names) if module is not None else cli.protocol_summary(g, s, names))
    first = {"haunted": "Haunted Lands: 2 players, wanderer mode", "estate": "Estate and Market: 2 players, seed 4",
             "landmarks": "Landmarks & Architects, 2 players"}.get(name, f"{g.title}, 2 players, over. P1 (random): ")
    assert text.startswith(first), text


def test_game_module_finds_optional_pieces_through_the_registry():
    assert game_module("haunted", "classroom").__name__ == "haunted_kit.haunted.classroom"
    assert game_module("landmarks", "cli").__name__ == "haunted_kit.landmarks.cli"
    assert [game_module(n, "classroom").__name__ for n in COMPANIONS] == [f"haunted_kit.{n}.classroom" for n in COMPANIONS]
    assert game_module("estate", "no_such_part") is None
    with pytest.raises(UnknownGame, match=rf"^unknown game 'chess' \(known: {', '.join(game_names())}\)$"):
        game_module("chess", "cli")


def test_teacher_for_a_game_without_exercises_is_a_usage_error(monkeypatch, capsys):
    from haunted_kit import cli

    monkeypatch.setattr(cli, "game_module", lambda name, part: None if part == "exercises" else game_module(name, part))
    with pytest.raises(SystemExit) as exc:
        main(["teacher", "--game", "estate"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith("error: teacher is not available for --game estate: it has no exercises") and "Traceback" not in err


@pytest.mark.parametrize("name", game_names())
def test_a_table_of_every_game_is_rebuilt_from_its_name_config_and_decisions(name, tmp_path):
    path = tmp_path / "class.db"
    with GameStore(path) as store:
        t = store.create_table(game=name, players=2, seed=3, bots={1: default_agent(name)})
        for _ in range(3):  # the first decisions, whoever is to move (no bot runs without the server)
            if t.state.is_terminal():
                break
            t.decide(t.state.current_player(), t.state.legal_actions()[-1])
        played, seq = t.state.to_dict(), t.seq
        assert seq >= 1
    with GameStore(path) as store:
        again = store.table(1)
        assert again.game.name == name and again.config["players"] == 2 and again.config["seed"] == 3
        assert again.state.to_dict() == played and again.seq == seq
        assert [s.agent for s in again.seats] == [None, default_agent(name)]
        assert again.rollback(0).to_dict() == get_game(name).new_game(players=2, seed=3).to_dict()


def test_a_store_written_before_tables_named_their_game_opens_as_haunted_lands(tmp_path):
    path = tmp_path / "old.db"
    with GameStore(path) as store:
        t = store.create_table(players=2, mode="citizen", seed=5)
        t.decide(t.state.current_player(), t.state.legal_actions()[0])
        played = t.state.to_json()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE game_tables DROP COLUMN game")  # the schema of the kit before this column
    db.execute("ALTER TABLE game_tables DROP COLUMN archived")  # and before schema 2's columns
    db.execute("ALTER TABLE seats DROP COLUMN name")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    db.commit()
    db.close()
    with GameStore(path) as store:
        again = store.table(1)
        assert again.game.name == "haunted" and again.config["mode"] == "citizen"
        assert again.state.to_json() == played
        assert store.db.execute("SELECT game FROM game_tables").fetchall() == [(None,)]


def test_a_table_of_an_unknown_game_is_a_store_error(tmp_path):
    from haunted_kit.store import StoreError

    path = tmp_path / "s.db"
    with GameStore(path) as store:
        store.create_table(game="estate", players=2, seed=1)
        store.db.execute("UPDATE game_tables SET game = 'chess'")
    with GameStore(path) as store, pytest.raises(StoreError, match=r"^table 1: unknown game 'chess' \(known: "):
        store.table(1)


@pytest.mark.parametrize("name", COMPANIONS)
def test_the_server_shows_a_game_without_a_classroom_view_on_the_generic_page(name, monkeypatch):
    # as if the game had no classroom module (every game of the kit has one now)
    monkeypatch.setattr(table_server, "game_module", lambda game, part: None if part == "classroom" else game_module(game, part))
    with GameStore(":memory:") as store:
        t = store.create_table(game=name, players=2, seed=1)
        mover = t.state.current_player()
        msg = view_message(t, mover, 30.0)
        title = get_game(name).title
        assert msg["type"] == "view" and msg["title"] == f"{title} · Table 1 · P{mover + 1}" and msg["turn"]
        assert msg["status"] == f"{title}: P{mover + 1} (you) to move."
        assert [a["label"] for a in msg["actions"]] == [describe_action(a, t.state) for a in t.state.legal_actions()]
        assert msg["board"] == f'<div class="hk-generic-board" style="{BOX_STYLE}">{observation_html(t.state.observation(mover))}</div>'
        assert status_of(t) == f"{title}: 0 decisions"
        teacher = Classroom(store).teacher_message()
        assert teacher["tables"][0]["game"] == name and teacher["tables"][0]["status"] == f"{title}: 0 decisions"
        generic = {g["name"]: g for g in teacher["games"]}[name]  # the new-table form: the game's declared options
        assert generic["players"] == [get_game(name).min_players, get_game(name).max_players]
        assert [f["name"] for f in generic["fields"]] == [o.keyword for o in game_options(get_game(name)) if o.kind != "str"]


def test_the_server_titles_a_haunted_lands_view_with_the_game():
    with GameStore(":memory:") as store:
        t = store.create_table(players=2, seed=1)
        msg = view_message(t, 0, 30.0)
        assert msg["type"] == "view" and msg["title"] == "Haunted Lands · Table 1 · P1"
        assert msg["board"].startswith("<svg") and len(msg["players"]) == 2


def test_the_command_line_parser_loads_no_game():
    """The parser every subcommand builds first imports no game's package: the help names
    the agents every game has without asking a game. (The top-level ``haunted-kit --help``
    presents every game with its title and player range, so it reads them, and only then.)"""
    import ast
    import subprocess
    import sys

    code = ("import sys, haunted_kit.cli as c\n"
            "ap = c.build_parser()\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('haunted_kit.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(ast.literal_eval(out.strip().splitlines()[-1]))
    packages = {p.split(".")[1] for p in map(games.package_of, games.game_names())
                if p.startswith("haunted_kit.")}  # (a game kept outside the kit is no haunted_kit module)
    assert not loaded & packages, loaded
