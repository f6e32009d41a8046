"""The game review (haunted_kit.review, ``haunted-kit review``) for every game of the kit."""

from __future__ import annotations

import functools
import math
import random

import pytest

from haunted_kit.bots import default_agent
from haunted_kit.cli import main
from haunted_kit.games import MissingHook, game_names, get_game, start_game
from haunted_kit.compare import t_quantile
from haunted_kit.play import play_game
from haunted_kit.protocol import agent_table, chance_hash, describe_action
from haunted_kit.review import LOOKS, MIN_PAIRS, ROLLOUT_DEPTH, ReviewError, paired_interval, review
from haunted_kit.search import determinise, returns_are_win_loss, rollout, rollout_policy

PLAYERS = {n: min(3, get_game(n).max_players) for n in game_names()}  # 3 players, or the game's nearest count
#: the seed of each game's staged blunder (Haunted Lands 5: P1 ends the turn where a mine scores 3 valor;
#: the estate: P1's first decision, where a take scores 3; Landmarks: P2 builds where a Gate token scores 3)
BLUNDER_SEEDS = {"haunted": 5, "estate": 5, "landmarks": 3}
#: the staged blunder is played among greedy bots (their scores pick the worst non-scoring move),
#: so it is staged for the games that declare a greedy agent; another game's first seed is 1
GREEDY_GAMES = [n for n in game_names() if "greedy" in agent_table(get_game(n))
                and getattr(get_game(n), "seat_results", None) is not None]  # the blunder is built from its scores


def _finished(name, seed=1):
    s, _ = play_game(name, players=PLAYERS[name], seed=seed, agents=[default_agent(name), "random"], log=False)
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
    s = start_game(game, players=PLAYERS[name], seed=BLUNDER_SEEDS.get(name, 1))
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


#: the review every per-game test reads (one each, made once): P1's decisions, each judged against the
#: search's best alternative only, every mistake and within-noise decision listed
REVIEWED = {"seat": 0, "playouts": 6, "seed": 3, "candidates": 1, "top": 50}


@functools.cache
def _reviewed(name):
    return review(_finished(name), progress=False, **REVIEWED)


@pytest.mark.parametrize("name", game_names())
def test_review_is_reproducible_and_turning_points_sorted(name):
    s = _finished(name)
    if getattr(get_game(name), "start_of", None) is None:  # the review re-plays the record from the game's start_of
        with pytest.raises(MissingHook, match="^review needs the game's start_of hook; "):
            review(s, progress=False, **REVIEWED)
        return
    a = _reviewed(name)
    b = review(s, progress=False, **REVIEWED)
    assert a.text() == b.text() and a.html() == b.html()
    assert a.turning_points, "a finished game has at least one swing"
    # ranked by the lower end of the size of the swing, every interval clear of zero
    lows = [t.low if t.swing > 0 else -t.high for t in a.turning_points]
    assert lows == sorted(lows, reverse=True) and all(x > 0 for x in lows)
    for t in a.turning_points:  # every turning point starts at a decision of its own player
        d = next(d for d in a.decisions if d.number == t.number)
        assert d.player == t.player and d.text == t.text and t.low <= t.swing <= t.high
        assert t.pairs >= MIN_PAIRS and (t.pairs != d.playouts or t.before == pytest.approx(d.value, abs=1e-12))
    win_loss = getattr(get_game(name), "win_loss_returns", False)
    top = max(s.returns())
    # the final values: the game's results (Haunted Lands 1/0/-1; others the top score's share)
    assert a.final == ([float(r) for r in s.returns()] if win_loss
                       else [1 / s.returns().count(top) if r == top else 0.0 for r in s.returns()])
    assert all(c.player == 0 and c.mistake and c.low > 0 and c.cost > 0 for c in a.costly)
    assert [c.low for c in a.costly] == sorted((c.low for c in a.costly), reverse=True)


def _by_hand(game, state, player, actions, seed, pairs):
    """The paired differences ``actions[1]`` less ``actions[0]``, playout by playout, worked
    out here from the review's documented seeds: playout ``k`` draws its determinisation with
    ``Random(chance_hash(seed, k))`` and plays both actions on copies of it, each rolled out
    with ``Random(chance_hash(seed, k, "rollout"))``."""
    policy, evaluate = rollout_policy(game), getattr(game, "evaluate", None)
    depth = ROLLOUT_DEPTH if evaluate is not None else None
    diffs = []
    for k in range(pairs):
        base = determinise(game, state, player, random.Random(chance_hash(seed, k)))
        vals = []
        for a in actions:
            d = base.copy()
            d.apply_action(a)
            rng = random.Random(chance_hash(seed, k, "rollout"))
            policy.rng = rng
            vals.append(rollout(d, policy, rng, depth, evaluate, returns_are_win_loss(game))[player])
        diffs.append(vals[1] - vals[0])
    return diffs


@pytest.mark.parametrize("name", game_names())
def test_costs_are_paired_intervals_and_noise_is_not_a_mistake(name):
    """Every judged decision's cost is the mean of the paired differences of the same
    playouts (same determinisation and rollout seeds for both moves), its interval the
    95% one shared by the looks; one whose interval includes zero is "within noise" and
    never called a mistake."""
    game = get_game(name)
    r = _reviewed(name)
    assert r.noise, f"no decision within noise in {r.text()}"
    assert r.judged >= len(r.costly) + len(r.noise) and r.mistakes == len(r.costly)
    for c in r.costly + r.noise:
        state = r.states[c.number]
        chosen = next(d.action for d in r.decisions if d.number == c.number)
        diffs = _by_hand(game, state, 0, [chosen, c.better_action], chance_hash(REVIEWED["seed"], "judge", c.number),
                         c.pairs)
        mean, low, high = paired_interval(diffs, LOOKS)
        assert (c.cost, c.low, c.high) == pytest.approx((mean, low, high), abs=1e-12)
        line = c.sentence()
        assert f"  {line}" in r.text().splitlines()
        if low <= 0 <= high:
            assert not c.mistake and c in r.noise and c not in r.costly
            assert "within noise, not called a mistake" in line and "mistake: it cost" not in line
        else:
            assert low > 0 and c.mistake and c in r.costly
            assert f"a mistake: it cost {c.interval()}" in line


@pytest.mark.parametrize("name", game_names())
def test_the_same_move_twice_gives_zero_on_every_pair(name):
    """Both moves of a judgement see the same sampled deals and dice: a move judged against
    itself differs by exactly 0 on every playout, so its interval is [0, 0] and no mistake."""
    from haunted_kit.review import _Judgement

    game = get_game(name)
    s = start_game(game, players=PLAYERS[name], seed=1)
    while s.is_chance_node() or len(s.legal_actions()) < 2:  # on to the first decision with a choice
        if s.is_chance_node():
            s.apply_chance(s.sample_chance())
        else:
            s.apply_action(s.legal_actions()[0])
    evaluate = getattr(game, "evaluate", None)
    ctx = (game, rollout_policy(game), ROLLOUT_DEPTH if evaluate is not None else None, evaluate,
           returns_are_win_loss(game))
    move = s.legal_actions()[1]
    j = _Judgement(ctx, s, s.current_player(), [move, move], 7, MIN_PAIRS)
    assert j.runs.values[0] == j.runs.values[1] and len(j.runs) == MIN_PAIRS
    assert j.best()[1] == (0.0, 0.0, 0.0)


def test_paired_interval_values():
    diffs = [0.0, 1.0] * 20  # mean 0.5, sd sqrt(40 / 4 / 39)
    mean, low, high = paired_interval(diffs)
    half = t_quantile(39) * math.sqrt(10 / 39 / 40)
    assert mean == 0.5 and (low, high) == pytest.approx((0.5 - half, 0.5 + half), rel=5e-4)
    # shared by 4 looks: Bonferroni, each at 1 - 0.05 / 4
    half4 = t_quantile(39, 1 - 0.05 / 4) * math.sqrt(10 / 39 / 40)
    assert paired_interval(diffs, 4)[1:] == pytest.approx((0.5 - half4, 0.5 + half4), rel=5e-4)
    assert paired_interval([0.25] * 40) == (0.25, 0.25, 0.25)
    with pytest.raises(ValueError, match="2 or more paired differences, got 1"):
        paired_interval([1.0])


@pytest.mark.parametrize("name", game_names())
def test_the_report_and_the_page_explain_the_value_scale(name):
    r = _reviewed(name)
    win_loss = getattr(get_game(name), "win_loss_returns", False)
    scale = ("1 = a win, 0 = a loss, -1 = a collective loss (every player loses)" if win_loss
             else "1 = a win (the top score at the end; players tied on it split the 1), 0 = a loss")
    meaning = "A cost of 0.05 means the better move wins about 5 more games in 100 from that position."
    html = r.html()
    assert "<h2>How to read the values</h2>" in html and scale in html and meaning in html
    assert "a decision is called a mistake only when its interval excludes zero" in html
    assert scale in r.text() and meaning in r.text()


@pytest.mark.parametrize("name", GREEDY_GAMES)
def test_a_move_that_throws_away_points_is_among_the_costliest(name):
    """A constructed clear blunder (a move scoring nothing where one scored at once) is a
    mistake: its interval lies above zero, and the better move scores by the rules."""
    s, number, seat, gain = _blunder(name)
    r = review(s, seat=seat, playouts=40, seed=0, progress=False)
    found = [c for c in r.costly if c.number == number]
    assert found, f"decision {number} (a move scoring nothing where one scored {gain}) missing from {r.text()}"
    c = found[0]
    assert c.better != c.chosen and c.mistake and 0 < c.low <= c.cost <= c.high
    assert f"better: {c.better}, because, on a sampled deal of what P{seat + 1} could not see," in r.text()
    assert f"a mistake: it cost {c.interval()}" in r.text() and c not in r.noise
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
    assert "Turning points (largest swings first, by the lower end of their interval):" in out
    assert "P2's costliest decisions (mistakes: intervals above zero):" in out and "Values are shares of playouts won" in out
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


def test_a_turning_point_reads_in_plain_words_then_its_measure():
    """The replay's two lines of a swing: the chance of winning in per cent (the value is a
    share of playouts won), then the change with its interval and playouts; a game whose
    returns are win/loss values (a collective loss counts -1) says an outlook in 100."""
    from haunted_kit.review import TurningPoint

    tp = TurningPoint(90, 3, "P4 advances the gold marker: +2 gold.", 0.43, 0.66, 99, 0.215, 0.241, 256)
    assert tp.plain() == ("Decision 90: P4: P4 advances the gold marker: +2 gold. P4's chance of winning rose from "
                          "about 43% to 66% by P4's next decision (99).")
    assert tp.detail() == "Change +0.230 (95% interval +0.215 to +0.241), from 256 paired playouts."
    end = TurningPoint(7, 0, "end the turn", 0.05, -0.02, None, -0.09, -0.05, 1024)
    assert end.plain(win_loss=True) == ("Decision 7: P1: end the turn. P1's outlook fell from about 5 to -2 in 100 "
                                        "(games won less games every player lost) by the end of the game.")
    assert end.detail() == "Change -0.070 (95% interval -0.090 to -0.050), from 1,024 paired playouts."


@pytest.mark.parametrize("name", game_names())
def test_the_replay_page_explains_a_value_in_the_reports_own_words(name):
    from haunted_kit.review import game_value_words, scale_words

    game = get_game(name)
    words = game_value_words(game)
    depth = ROLLOUT_DEPTH if getattr(game, "evaluate", None) is not None else None
    assert scale_words(returns_are_win_loss(game), depth).startswith(words)  # the CLI's scale begins with them
    assert "1 = a win" in words and "0 = a loss" in words
    assert ("-1 = a collective loss" in words) == returns_are_win_loss(game)
