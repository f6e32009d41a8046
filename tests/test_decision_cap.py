"""Issue 30, item 1: no silent endless game. The one decision cap (haunted_kit.games.decision_cap)
stops play, simulate, compare, review, the environments and the classroom's bots with a
message naming the seed and the box; check-box replays each seed with the kit's greedy bots
and warns, naming the seeds and the box's house-rule values; a box whose numbers make a turn
endless is refused at load (kit ruling 41).

Every test but the Haunted Lands box ones runs for each registered game. A small cap
(``cap=`` or ``$HAUNTED_KIT_DECISION_CAP``) is set just below a game's own length, worked out
by playing the same seed to its end first, so the cap is what stops it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

import haunted_kit as hk
from haunted_kit.cli import main
from haunted_kit.compare import compare
from haunted_kit.env import KitAECEnv, SingleSeatEnv
from haunted_kit.games import (CAP_VARIABLE, DECISION_CAP, DecisionCapReached, decision_cap, game_module, game_names, option_defaults,
                               get_game, start_game)
from haunted_kit.play import play_game, play_out
from haunted_kit.review import review
from haunted_kit.server import Classroom
from haunted_kit.simulate import DatasetError, Grid, load_dataset, simulate
from haunted_kit.store import GameStore
from haunted_kit.testing import check_box, game_settings
from fresh_loop import run_in_fresh_loop
from haunted_kit.bots import default_agent
from ruletools import copy_data, edit, games_with_agent, games_with_box

GAMES = game_names()
SEEDS = range(4)


def named(g, seed) -> str:
    """How the cap's message names a game: its title and seed, the seed only when the Game
    has the optional ``seed_of`` hook (docs/NEW_GAME.md)."""
    return f"{g.title} seed {seed}" if getattr(g, "seed_of", None) is not None else g.title


def own_box(g) -> str:
    """How a message names a game's box when none is given: ``"the reference box ("`` (then
    its folder) for a game with a ``default_box``, else ``"the game's own box"``."""
    return "the reference box (" if getattr(g, "default_box", None) is not None else "the game's own box"


def decisions(state) -> int:
    """Decisions in a state's action record (chance outcomes aside)."""
    return sum(not e.chance for e in state.history())


def length(name: str, players: int, seed: int, **options) -> int:
    """Decisions of the greedy game ``seed``, played to its end with no cap to speak of."""
    s, _ = play_game(name, players=players, seed=seed, cap=10**9, **options)
    assert s.is_terminal()
    return decisions(s)


def cap_below_longest(name: str, players: int, **options):
    """``(cap, lengths, capped seeds)``: a cap one below the longest of :data:`SEEDS`' games, so at
    least that game is stopped, and every seed whose game is longer than the cap."""
    lengths = {s: length(name, players, s, **options) for s in SEEDS}
    cap = max(lengths.values()) - 1
    return cap, lengths, sorted(s for s, k in lengths.items() if k > cap)


# ============================================================================ the cap itself


@pytest.mark.parametrize("name", GAMES)
def test_the_cap_is_the_games_own_or_the_kits_default_and_refuses_a_bad_one(name, monkeypatch):
    g = get_game(name)
    s = start_game(g, players=g.min_players, seed=0)
    own = getattr(g, "max_decisions", None)
    assert decision_cap(g, s) == (own(s) if own else DECISION_CAP)
    assert decision_cap(g, s) > length(name, g.min_players, 0)  # a reference game ends well within it
    assert decision_cap(g, s, 7) == 7
    monkeypatch.setenv(CAP_VARIABLE, "12")
    assert decision_cap(g, s) == 12 and decision_cap(g, s, 7) == 7  # an explicit cap wins over the variable
    for bad in (0, -1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="the decision cap must be a whole number >= 1"):
            decision_cap(g, s, bad)
    monkeypatch.setenv(CAP_VARIABLE, "ten")
    with pytest.raises(ValueError, match=f"{CAP_VARIABLE} must be a whole number >= 1, got 'ten'"):
        decision_cap(g, s)


def test_haunted_lands_cap_comes_from_its_length():
    """100 decisions for each player's turn of each round of each season (3 x 3 rounds in the box)."""
    g = get_game("haunted")
    assert [decision_cap(g, start_game(g, players=n, seed=0)) for n in (2, 3, 4)] == [1800, 2700, 3600]


# ============================================================================ play


@pytest.mark.parametrize("name", GAMES)
def test_play_stops_at_the_cap_naming_seed_and_box(name, monkeypatch, capsys):
    g = get_game(name)
    n, seed = g.min_players, 3
    full = length(name, n, seed)
    with pytest.raises(DecisionCapReached) as ei:
        play_game(name, players=n, seed=seed, cap=full - 1)
    e = ei.value
    assert (e.seed, e.cap) == (seed, full - 1)
    assert str(e).startswith(f"{g.title} seed {seed} did not end within {full - 1:,} decisions, the decision cap; "
                             f"box: {own_box(g)}")
    state, _ = play_game(name, players=n, seed=seed, cap=full)  # exactly enough decisions: it ends
    assert state.is_terminal() and decisions(state) == full
    # the command line: one line naming seed and box, exit 1, no traceback
    monkeypatch.setenv(CAP_VARIABLE, str(full - 1))
    assert main(["play", "--game", name, "--players", str(n), "--seed", str(seed)]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"haunted-kit: {e}\n" and captured.out == ""


# ============================================================================ simulate and compare


@pytest.mark.parametrize("name", GAMES)
def test_simulate_records_capped_games_as_rows_without_a_result(name, tmp_path, monkeypatch, capsys):
    g = get_game(name)
    n = g.min_players
    cap, lengths, capped = cap_below_longest(name, n)
    monkeypatch.setenv(CAP_VARIABLE, str(cap))
    report = simulate(Grid(game=name, players=(n,), games=len(SEEDS)), tmp_path / "runs", workers=1, progress=False)
    frame = load_dataset(tmp_path / "runs")
    assert report.played == len(SEEDS) and report.capped == len(capped)
    assert sorted(set(frame.loc[frame["capped"], "seed"])) == capped
    for seed, rows in frame.groupby("seed"):
        if seed in capped:
            assert (rows["game_decisions"] == cap).all() and rows["score"].isna().all() and rows["returns"].isna().all()
            assert (rows["rank"] == 0).all() and not rows["won"].any()
        else:
            assert (rows["game_decisions"] == lengths[seed]).all() and rows["score"].notna().all()
    assert frame.attrs["metadata"]["decision_cap"] == cap  # recorded, and sent to every worker (Dask too)
    with pytest.raises(DatasetError, match="made with another decision cap"):
        simulate(Grid(game=name, players=(n,), games=len(SEEDS)), tmp_path / "runs", workers=1, progress=False,
                 cap=cap + 1)
    # the command line says so, naming the seeds and the box, and leaves them out of its table
    assert main(["simulate", "--out", str(tmp_path / "cli"), "--game", name, "--players", str(n),
                 "--games", str(len(SEEDS)), "--workers", "1", "--no-progress"]) == 0
    err = capsys.readouterr().err
    # the command line starts games with the game's declared option defaults (games.option_defaults)
    cli_capped = sorted(s for s in SEEDS if length(name, n, s, **option_defaults(g)) > cap)
    assert (f"WARNING: {len(cli_capped)} games did not end within the decision cap" in err
            and f"seeds {', '.join(map(str, cli_capped))}; box: {own_box(g)}" in err)


@pytest.mark.parametrize("name", games_with_box())
def test_compare_counts_capped_games_and_leaves_them_out(name, monkeypatch):
    g = get_game(name)
    n = g.min_players
    cap, lengths, capped = cap_below_longest(name, n, **option_defaults(g))   # compare plays the game's defaults
    monkeypatch.setenv(CAP_VARIABLE, str(cap))
    run = lambda: compare(g.default_box(), game=name, games=len(SEEDS), players=n, workers=1,  # noqa: E731
                          progress=False)
    if len(SEEDS) - len(capped) < 2:  # too few ended for an interval: refused, naming the seeds
        with pytest.raises(DecisionCapReached, match=f"{len(capped)} of {len(SEEDS)} reference games did not end"):
            run()
        return
    c = run()
    assert c.capped == (tuple(capped), tuple(capped))
    assert c.row("decisions per game").ref[0] == pytest.approx(
        sum(k for s, k in lengths.items() if s not in capped) / (len(SEEDS) - len(capped)))
    text = c.table()
    assert (f"CAPPED: {len(capped)} of {len(SEEDS)} house-rule games did not end within the decision cap (seeds "
            f"{', '.join(map(str, capped))}) and are left out of every figure" in text)
    ended = len(SEEDS) - len(capped)  # the precision line counts the games its intervals used
    if capped and any(r.kind == "rate" for r in c.rows):
        assert (f"pts with {ended} reference and {ended} house-rule games that ended (of {len(SEEDS)} per box); "
                in text), text
        assert " games that end per box" in text
    frame = c.games_frame()  # the per-game rows say which games were stopped (no result)
    assert sorted(frame.loc[frame["capped"] & (frame["box"] == "house"), "seed"]) == list(capped)
    monkeypatch.setenv(CAP_VARIABLE, "1")  # no game ends: nothing to compare, said instead of a report of nothing
    with pytest.raises(DecisionCapReached, match=f"compare: {len(SEEDS)} of {len(SEEDS)} reference games did not end "
                                                 f"within the decision cap \\(seeds 0, 1, 2, 3\\), too few ended"):
        run()


# ============================================================================ review


@pytest.mark.parametrize("name", GAMES)
def test_review_refuses_a_record_longer_than_the_cap(name, tmp_path, monkeypatch, capsys):
    g = get_game(name)
    n, seed = g.min_players, 2
    state, _ = play_game(name, players=n, seed=seed, log=True)
    full = decisions(state)
    monkeypatch.setenv(CAP_VARIABLE, str(full - 1))
    with pytest.raises(DecisionCapReached, match=f"{named(g, seed)} did not end within {full - 1:,} decisions"):
        review(state, playouts=1, progress=False)
    save = tmp_path / "game.json"
    state.save(save)
    assert main(["review", str(save)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"haunted-kit: {named(g, seed)} did not end") and own_box(g).rstrip(" (") in err
    assert "Traceback" not in err


# ============================================================================ environments


def first_legal_length(name: str, n: int, seed: int) -> int:
    """Decisions of the AEC game ``seed`` where every agent plays its first legal number."""
    e = KitAECEnv(name, players=n)
    e.reset(seed=seed)
    k = 0
    for _ in e.agent_iter(max_iter=100_000):
        obs, _, term, trunc, _ = e.last()
        act = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        k += act is not None
        e.step(act)
    assert not e.agents
    return k


@pytest.mark.parametrize("name", [n for n in GAMES if hasattr(get_game(n), "action_catalogue")])
def test_environments_truncate_at_the_cap(name):
    g = get_game(name)
    n, seed = g.min_players, 5
    full = first_legal_length(name, n, seed)
    e = KitAECEnv(name, players=n, cap=full - 1)
    e.reset(seed=seed)
    k, ends = 0, []
    for _ in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            ends.append((term, trunc, reward, info.get("truncated")))
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        k += 1
    words = f"{g.title} seed {seed} did not end within {full - 1:,} decisions, the decision cap (environment)"
    assert k == full - 1 and len(ends) == n and not e.agents
    assert all(not term and trunc and reward == 0 and text.startswith(words) for term, trunc, reward, text in ends)
    with pytest.raises(ValueError, match="the decision cap must be a whole number >= 1, got 0"):
        KitAECEnv(name, players=n, cap=0)
    # Gymnasium: the bots' decisions count too; the step that reaches the cap is truncated
    one = SingleSeatEnv(name, players=n, cap=1, illegal_reward=None)
    obs, info = one.reset(seed=seed)
    if "truncated" not in info:  # the learner moves first: its one decision reaches the cap
        obs, reward, term, trunc, info = one.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert (reward, term, trunc) == (0.0, one.aec.state_.is_terminal(), not one.aec.state_.is_terminal())
    if not one.aec.state_.is_terminal():
        assert info["truncated"].startswith(f"{g.title} seed {seed} did not end within 1 decisions")
        with pytest.raises(RuntimeError, match="truncated at the decision cap: call reset"):
            one.step(0)


# ============================================================================ the classroom's bots


@pytest.mark.parametrize("name", [n for n in GAMES if game_module(n, "classroom") is not None])
def test_classroom_bots_stop_at_the_cap_and_say_why(name, monkeypatch):
    g = get_game(name)
    n, seed = g.min_players, 6
    full = length(name, n, seed)
    monkeypatch.setenv(CAP_VARIABLE, str(full - 1))
    store = GameStore(":memory:")
    t = store.create_table(game=name, players=n, seed=seed, bots={p: "greedy" for p in range(n)})
    c = Classroom(store, bot_delay=0, bot_workers=1)

    async def go():
        try:
            c.schedule_bots(t.id)
            for _ in range(1200):  # bounded: at most 2 minutes
                if t.id in c.announcements:  # set by the bots' task in the step it returns
                    break
                await asyncio.sleep(0.1)
        finally:
            c.close()

    run_in_fresh_loop(go)
    assert len(t.applied) == full - 1 and not t.state.is_terminal()
    assert c.announcements[t.id]["text"] == (
        f"The bots stopped: {g.title} seed {seed} did not end within {full - 1:,} decisions, the decision cap "
        f"(classroom bots); box: the reference box ({Path(g.default_box().path).name}). A house rule may let the game run "
        f"for ever: check the box with 'haunted-kit check-box --game {name} DIR'.")


# ============================================================================ check-box


@pytest.mark.parametrize("name", games_with_agent("greedy"))  # check-box's bots: a game's greedy agent
def test_check_box_warns_naming_the_seeds_of_bot_games_that_do_not_end(name):
    g = get_game(name)
    lengths = {}
    for setting in game_settings(name):
        for seed in range(2):
            kw = dict(setting)
            s = start_game(g, players=kw.pop("players"), seed=seed, **kw)
            play_out(s, ("greedy",), seed=seed, game=g, cap=10**9)
            lengths[(str(sorted(setting.items(), key=str)), seed)] = decisions(s)
    cap = max(lengths.values()) - 1
    report = check_box(game=name, games=1, bot_games=2, cap=cap)
    expected = sorted(k for k, v in lengths.items() if v > cap)
    results = ("agents", "seed", "steps", "finished", "problem", "capped", "cap")
    got = sorted((str(sorted(((k, v) for k, v in r.items() if k not in results), key=str)), r["seed"])
                 for r in report.rows if r["capped"])
    assert expected and got == expected
    assert not report.ok and not report.failures and len(report.capped) == len(expected)
    text = str(report)
    assert "No problem found" not in text
    assert report.bot_games == 2 * len(game_settings(name))
    assert f"WARNING {len(expected)} of {report.bot_games} bot games did not end within the decision cap; box: " \
           f"{own_box(g)}" in text and f"agents=greedy (cap {cap:,}): seeds " in text


# ============================================================================ Haunted Lands: the issue's house rule


def test_free_forest_exploration_box_is_refused_at_load(tmp_path, capsys):
    """Forest exploration 2 -> 1 with skill 4's discount of 1 made exploring free (issue 30): the
    box is refused at load, naming the file, the entry and why (kit ruling 41)."""
    d = copy_data(tmp_path)
    edit(d / "terrain.toml", 'letter = "F"\nexplore_cost = 2', 'letter = "F"\nexplore_cost = 1')
    with pytest.raises(hk.BoxError) as ei:
        hk.load_box(d)
    e = ei.value
    assert (e.file, e.entry) == ("terrain.toml", "forest")
    assert e.problem.startswith("explore_cost 1 less skill 4's discount of 1 (skills.toml, skills.4 amount) leaves 0: "
                                "exploring a forest would be free with that skill, so a turn need never end")
    assert main(["check-box", str(d), "--no-progress"]) == 1
    assert f"the box does not load: terrain.toml, entry forest: {e.problem}" in capsys.readouterr().err
    # a forest at 1 token is fine when no skill makes it free
    edit(d / "skills.toml", 'effect = "cheaper_forest"\namount = 1', 'effect = "cheaper_forest"\namount = 0')
    box = hk.load_box(d)
    assert box.terrains["forest"].explore_cost == 1 and check_box(box, games=1).ok


def test_check_box_names_the_house_rule_values_of_a_box_whose_games_are_capped(tmp_path, capsys, monkeypatch):
    d = copy_data(tmp_path)
    edit(d / "game.toml", "rounds_per_season = 3", "rounds_per_season = 2")
    report = check_box(d, games=1, bot_games=2, cap=20)
    assert len(report.capped) == report.bot_games == 18
    text = str(report)
    assert ("WARNING 18 of 18 bot games did not end within the decision cap; box: box 'data' (house rules: "
            "game.toml structure.rounds_per_season = 2, reference 3)") in text
    assert "    players=2, mode=wanderer, agents=greedy (cap 20): seeds 0, 1" in text and "No problem found" not in text
    monkeypatch.setenv(CAP_VARIABLE, "20")
    assert main(["check-box", str(d), "--games", "1", "--bot-games", "2", "--no-progress"]) == 1
    assert "game.toml structure.rounds_per_season = 2, reference 3" in capsys.readouterr().out


# ============================================================================ the play views' bots


@pytest.mark.parametrize("name", GAMES)
def test_play_view_bots_stop_at_the_cap_with_the_message(name, monkeypatch):
    from haunted_kit.widgets.playview import GamePlayView  # lazy: ipywidgets only for this test

    g = get_game(name)
    n, seed = g.min_players, 2
    full = length(name, n, seed)
    monkeypatch.setenv(CAP_VARIABLE, str(full - 1))
    view = GamePlayView(g, start_game(g, players=n, seed=seed), bots=list(range(n)), auto_bots=False, hints=False)
    done = view.play_on()
    assert len(done) == full - 1 and not view.state.is_terminal()
    assert view.message.startswith(f"{named(g, seed)} did not end within {full - 1:,} decisions, the decision "
                                   f"cap (bots); box: {own_box(g)}")


def test_haunted_lands_play_view_bots_stop_at_the_cap(monkeypatch):
    from haunted_kit.haunted.widgets.play import PlayView  # lazy: ipywidgets only for this test

    full = length("haunted", 2, 2)
    monkeypatch.setenv(CAP_VARIABLE, str(full - 1))
    view = PlayView(players=2, seed=2, bots=[0, 1], auto_bots=False)
    view.play_on(sync=True)
    assert decisions(view.state) == full - 1 and not view.bot_running
    assert view.message.startswith(f"Haunted Lands seed 2 did not end within {full - 1:,} decisions")


@pytest.mark.parametrize("name", GAMES)
def test_a_search_playout_to_the_end_stops_at_the_cap(name, monkeypatch):
    """``rollout_depth=None`` plays each playout to the end: at most the decision cap."""
    from haunted_kit.search import SearchAgent

    g = get_game(name)
    s = start_game(g, players=g.min_players, seed=1)
    agent = SearchAgent(0, playouts=3, rollout_depth=None, game=g)
    assert s.legal_actions().count(agent.act(s.copy())) == 1  # the reference game's playouts end
    monkeypatch.setenv(CAP_VARIABLE, "1")
    with pytest.raises(DecisionCapReached, match="a search playout .rollout_depth=None: to the end. did not end within "
                                                 f"1 decisions, the decision cap; box: {own_box(g).rstrip(' (')}"):
        SearchAgent(0, playouts=3, rollout_depth=None, game=g).act(s.copy())


def test_the_issues_house_rule_is_caught_by_check_box_even_past_the_loader(tmp_path, monkeypatch):
    """Were ruling 41's refusal not there, check-box's greedy games would still name the seeds:
    at 4 players the issue found seed 4 endless. The capped game's last decisions are free forest
    moves back and forth by a player with skill 4 (the cause, read from the record)."""
    from haunted_kit.haunted import actions as A, box as haunted_box
    from haunted_kit.haunted import rules

    d = copy_data(tmp_path)
    edit(d / "terrain.toml", 'letter = "F"\nexplore_cost = 2', 'letter = "F"\nexplore_cost = 1')
    monkeypatch.setattr(haunted_box, "_refuse_free_exploration", lambda terrains, skills: None)
    box = hk.load_box(d)
    report = check_box(box, games=1, bot_games=8)
    capped = {(r["players"], r["mode"], r["seed"]) for r in report.rows if r["capped"]}
    assert (4, "wanderer", 4) in capped and not report.ok
    assert "box 'data' (house rules: terrain.toml forest.explore_cost = 1, reference 2)" in str(report)
    s = start_game(get_game("haunted"), players=4, seed=4, box=box, mode="wanderer")
    with pytest.raises(DecisionCapReached):
        play_out(s, ("greedy",), seed=4)
    tail = [e for e in s.history() if not e.chance][-40:]
    skill4 = next(n for n, sk in box.skills.items() if sk.effect == "cheaper_forest")
    assert all(isinstance(e.action, A.Explore) and s.field.terrain_of(e.action.cell) == "forest" for e in tail)
    assert all(s.learned[e.player] >> skill4 & 1 for e in tail)
    assert {rules.explore_cost(s, e.player, s.field.cell_index(e.action.cell)) for e in tail} == {0}
