"""The game review (haunted_kit.review, ``haunted-kit review``) for every game of the kit."""

from __future__ import annotations

import pytest

from haunted_kit.cli import main
from haunted_kit.games import MissingHook, game_names, get_game, start_game
from haunted_kit.play import play_game
from haunted_kit.protocol import agent_table, describe_action
from haunted_kit.review import ReviewError, review

PLAYERS = {n: min(3, get_game(n).max_players) for n in game_names()}  # 3 players, or the game's nearest count
#: the seed of each game's staged blunder (Haunted Lands 5: P1 ends the turn where a mine scores 3 valor;
#: the estate: P1's first decision, where a take scores 3; Landmarks: P2 builds where a Gate token scores 3)
BLUNDER_SEEDS = {"haunted": 5, "estate": 5, "landmarks": 3}


def _finished(name, seed=1):
    s, _ = play_game(name, players=PLAYERS[name], seed=seed, agents=["greedy", "random"], log=False)
    return s


def _score_gain(game, s, action) -> float:
    d = s.copy()
    p = d.current_player()
    before = game.seat_results(d)[p]["score"]
    d.apply_action(action)
    return game.seat_results(d)[p]["score"] - before


def _blunder(name):
    """A game of greedy bots in which a player, at the first decision where some legal action
    scores at once (by the rules' own score, ``seat_results``) and another scores
    nothing, plays the one scoring nothing; the game then runs on for 8 decisions.
    Returns (state, the decision number of the blunder, who made it, its best immediate gain)."""
    game = get_game(name)
    s = start_game(game, players=PLAYERS[name], seed=BLUNDER_SEEDS[name])
    greedy = agent_table(game)["greedy"](0)
    number, blunder, after = 0, None, 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance(s.sample_chance())
            continue
        number += 1
        legal = s.legal_actions()
        if blunder is None and len(legal) > 1:
            gains = [_score_gain(game, s, a) for a in legal]
            if max(gains) >= 2 and 0 in gains:
                blunder = (number, s.current_player(), max(gains))
                scores = greedy.scores(s, legal)  # of the moves scoring nothing, the greedy bot's worst
                s.apply_action(min((a for a, g in zip(legal, gains) if g == 0), key=lambda a: scores[legal.index(a)]))
                continue
        s.apply_action(greedy.act(s))
        if blunder is not None:
            after += 1
            if after == 8:
                break
    assert blunder is not None, "no decision with a scoring move and a non-scoring one"
    return s, *blunder


@pytest.mark.parametrize("name", game_names())
def test_review_is_reproducible_and_turning_points_sorted(name):
    s = _finished(name)
    if getattr(get_game(name), "start_of", None) is None:  # the review re-plays the record from the game's start_of
        with pytest.raises(MissingHook, match="^review needs the game's start_of hook; "):
            review(s, seat=1, playouts=6, seed=5, progress=False)
        return
    a = review(s, seat=1, playouts=6, seed=5, progress=False)
    b = review(s, seat=1, playouts=6, seed=5, progress=False)
    assert a.text() == b.text() and a.html() == b.html()
    assert a.turning_points, "a finished game has at least one swing"
    swings = [abs(t.swing) for t in a.turning_points]
    assert swings == sorted(swings, reverse=True) and swings[0] > 0
    for t in a.turning_points:  # every turning point starts at a decision of its own player
        d = next(d for d in a.decisions if d.number == t.number)
        assert d.player == t.player and d.text == t.text and d.value == t.before
    win_loss = getattr(get_game(name), "win_loss_returns", False)
    top = max(s.returns())
    # the final values: the game's results (Haunted Lands 1/0/-1; others the top score's share)
    assert a.final == ([float(r) for r in s.returns()] if win_loss
                       else [1 / s.returns().count(top) if r == top else 0.0 for r in s.returns()])
    assert all(c.player == 1 and c.cost > 0 for c in a.costly)
    assert [c.cost for c in a.costly] == sorted((c.cost for c in a.costly), reverse=True)


@pytest.mark.parametrize("name", game_names())
def test_a_move_that_throws_away_points_is_among_the_costliest(name):
    s, number, seat, gain = _blunder(name)
    r = review(s, seat=seat, playouts=40, seed=0, progress=False)
    found = [c for c in r.costly if c.number == number]
    assert found, f"decision {number} (a move scoring nothing where one scored {gain}) missing from {r.text()}"
    c = found[0]
    assert c.better != c.chosen and c.cost > 0
    assert f"better: {c.better}, because" in r.text()
    state = r.states[number]
    assert _score_gain(get_game(name), state, c.better_action) > 0  # the better move scores at once, by the rules
    assert describe_action(c.better_action, state) == c.better


def test_bad_arguments_are_refused():
    s = _finished("estate")
    with pytest.raises(ReviewError, match="seat must be a player index 0..2, got 3"):
        review(s, seat=3, progress=False)
    with pytest.raises(ReviewError, match="playouts must be a whole number, 1 or more, got 0"):
        review(s, playouts=0, progress=False)


def test_cli_review_prints_and_writes_html(tmp_path, capsys):
    save, page = tmp_path / "g.json", tmp_path / "r.html"
    assert main(["play", "--game", "landmarks", "--players", "3", "--seed", "2", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["review", str(save), "--seat", "2", "--playouts", "5", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Turning points (largest swings first):" in out and "P2's costliest decisions:" in out
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<h2>Turning points</h2>" in html
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("argv,code,needle", [
    (["review", "{dir}/missing.json"], 2, "no such file"),
    (["review", "{save}", "--seat", "4"], 2, "this game has 3 players (seats 1..3), got 4"),
    (["review", "{save}", "--seat", "0"], 2, "argument --seat: the value must be a whole number from 1 to 99, got '0'"),
    (["review", "{save}", "--playouts", "-3"], 2, "argument --playouts: the value must be a whole number from 1 to 1,000,000, got '-3'"),
    (["review", "{save}", "--playouts", "nan"], 2, "argument --playouts: the value must be a whole number from 1 to 1,000,000, got 'nan'"),
    (["review", "{save}", "--html", "{dir}/no/such/dir/r.html"], 2, "--html"),
    (["review", "{bad}"], 1, "not valid JSON"),
])
def test_cli_review_misuse(tmp_path, capsys, argv, code, needle):
    save, bad = tmp_path / "g.json", tmp_path / "bad.json"
    assert main(["play", "--game", "estate", "--players", "3", "--seed", "2", "--save", str(save)]) == 0
    bad.write_text('{"format": 1')
    capsys.readouterr()
    args = [a.format(dir=tmp_path, save=save, bad=bad) for a in argv]
    if code == 2:
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
    else:
        assert main(args) == 1
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    if code == 1:
        assert len(err.strip().splitlines()) == 1


def test_widget_shows_the_events_of_a_clicked_decision():
    from haunted_kit.widgets.review import ReviewView  # lazy: ipywidgets only for the widget test

    s = _finished("estate")
    r = review(s, seat=0, playouts=6, seed=1, progress=False)
    view = ReviewView(r)
    first = r.turning_points[0].number
    view.show(first)
    shown = view.position.children[1].value
    assert all(t in shown for t in [e.replace("'", "&#x27;") for e in r.events[first]][:3]) and r.events[first]
    view = ReviewView(r, board=lambda st: f"<p>{st.current_player()}</p>")
    view.show(first)
    assert view.position.children[1].value == f"<p>{r.states[first].current_player()}</p>"
