"""Every sentence the kit shows names a cell as the boards do (``cell 2,-1``), never as a
Python pair ``(2, -1)``: the actions' words (describe_action: play views, server, review),
the event log (frames, the pages' logs, hints) and the game review, over every game."""

import random
import re

import pytest

from haunted_kit.events import log_to_frame
from haunted_kit.games import default_players, game_names, get_game, start_game
from haunted_kit.protocol import describe_action
from haunted_kit.review import review
from haunted_kit.tableview import sentence_log_html

PAIR = re.compile(r"\(-?\d+, ?-?\d+\)")


def _played(name, decisions, seed=5):
    game = get_game(name)
    s = start_game(game, players=default_players(game), seed=seed, log=True)
    rng = random.Random(seed)
    said = []
    for _ in range(decisions):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
            continue
        legal = s.legal_actions()
        said += [describe_action(a, s) for a in legal]
        s.apply_action(rng.choice(legal))
    return s, said


@pytest.mark.parametrize("name", game_names())
def test_actions_and_events_name_cells_as_the_board(name):
    s, said = _played(name, 80)
    texts = said + list(log_to_frame(s.log).text) + [sentence_log_html(s.log, last=0)]
    assert texts
    bad = [t for t in texts if PAIR.search(t)]
    assert not bad, bad[:3]


def test_the_name_is_the_boards():
    # a game that plays on cells: at least one action or event names one, written q,r
    named = []
    for name in game_names():
        s, said = _played(name, 80)
        named += [t for t in said + list(log_to_frame(s.log).text) if re.search(r"\bcells? -?\d+,-?\d+", t)]
    assert named


@pytest.mark.parametrize("name", game_names())
def test_the_review_names_cells_as_the_board(name):
    s, _ = _played(name, 24)
    r = review(s, seat=0, playouts=4, seed=1, top=2, turning=2)
    for text in (r.text(), r.html()):
        assert not PAIR.search(text), PAIR.search(text)


@pytest.mark.parametrize("name", game_names())
def test_every_refusal_names_cells_as_the_board(name):
    """The kind: a refusal's sentence (why_not, IllegalAction, a play view's message line)
    writes a cell as the boards do. Actions legal at one position are tried at later ones,
    where most are illegal, so every game's refusals for placed and moved pieces are met."""
    game = get_game(name)
    s = start_game(game, players=default_players(game), seed=11, log=True)
    rng = random.Random(11)
    seen, refusals = [], []
    for _ in range(120):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_chance(rng.choice(s.chance_outcomes())[0])
            continue
        legal = s.legal_actions()
        for a in seen[-60:]:
            if a not in legal:
                why = s.why_not(a)
                if why is not None:
                    refusals.append(why.text)
        seen += legal
        s.apply_action(rng.choice(legal))
    assert len(refusals) > 20, name
    bad = [t for t in refusals if PAIR.search(t)]
    assert not bad, f"{name}: {len(bad)} refusals write a cell as a pair, e.g. {bad[:2]}"


def test_a_message_line_names_cells_as_the_board():
    from haunted_kit.events import shown_text

    assert shown_text("Nothing you can do on city (0, 0) on Kalena now (ruling 32).") == \
        "Nothing you can do on city cell 0,0 on Kalena now (kit ruling 32)."


TITLE = re.compile(r"<title>(.*?)</title>", re.S)


@pytest.mark.parametrize("name", game_names())
def test_every_title_and_key_entry_of_a_served_board_names_cells_as_the_board(name, tmp_path):
    """The kind behind "What is this? suburb (1, 0) on Kalena": every ``<title>`` of every SVG
    a classroom page draws (the board, the shared board, each player's board: what the page's
    "What is this?" line and a tooltip read) and every entry of the board's key write a cell
    as the boards do (``1,0``), for every seat and the public side, at positions along a game."""
    from haunted_kit.server import PUBLIC, view_message
    from haunted_kit.store import GameStore

    game = get_game(name)
    store = GameStore(tmp_path / "class.db")
    t = store.create_table(game=name, players=default_players(game), seed=5)
    rng = random.Random(5)
    titles, bad = 0, []
    for step in range(60):
        t = store.table(t.id)
        if t.state.is_terminal():
            break
        if step % 6 == 0:
            for viewer in (*range(len(t.seats)), PUBLIC):
                msg = view_message(t, viewer, 30.0)
                for key in ("board", "game_board", "key", *(f"players {i}" for i in range(len(msg["players"])))):
                    html = msg["players"][int(key.split()[1])] if key.startswith("players ") else msg.get(key) or ""
                    said = TITLE.findall(html) + ([re.sub(r"<[^>]+>", " ", html)] if key == "key" else [])
                    titles += len(said)
                    bad += [(key, s) for s in said if PAIR.search(s)]
        t.decide(t.state.current_player(), rng.choice(t.state.legal_actions()))
    store.close()
    assert titles, f"{name}: no title or key drawn"
    assert not bad, f"{name}: {len(bad)} titles or key entries write a cell as a pair, e.g. {bad[:2]}"


def test_a_drawn_title_with_a_pair_is_written_as_the_board():
    """The kit's one place for drawn titles (render.svg) and the served board's titles and key
    (explain.keyed_board) rename a pair a game's words still write."""
    from haunted_kit.explain import named_titles
    from haunted_kit.render.primitives import Poly
    from haunted_kit.render.svg import primitive_svg

    assert "<title>suburb cell 1,0 on Kalena</title>" in primitive_svg(
        Poly([(0, 0), (1, 0), (0, 1)], "#fff", "#000", 1, title="suburb (1, 0) on Kalena"))
    assert named_titles('<svg><text>(1, 0)</text><title>slot (-2, 1)</title></svg>') == \
        '<svg><text>(1, 0)</text><title>slot -2,1</title></svg>'
