"""The search agent, hints and simulate over the companion rule modules: Landmarks
determinisations read nothing hidden, hints explain legal moves in the module's words,
search plays whole games, simulate records what each game defines."""

from __future__ import annotations

import json
import random
from collections import Counter

import pandas as pd
import pytest

from haunted_kit import simulate as S
from haunted_kit.bots import make_bot
from haunted_kit.games import get_game
from haunted_kit.landmarks import rules as LR
from haunted_kit.search import SearchAgent, determinise, hints

LM = get_game("landmarks")
ESTATE = get_game("estate")


def _lm_follow_position(seed=3):
    """A 3-player Landmarks game after P1 led harvest: P2 chooses (follow, acquire, decline)."""
    s = LM.new_game(players=3, seed=seed)
    s.apply_action(next(a for a in s.legal_actions() if getattr(a, "action", None) == "harvest"))
    assert s.current_player() == 1 and len(s.legal_actions()) > 3
    return s


def test_landmarks_determinisation_reads_nothing_hidden():
    s = _lm_follow_position()
    me = 1
    # the same position as P2 sees it: P3's hand traded with the draw pile, P1 and P3 holding other architects
    t = s.copy()
    t.hands[2][0], t.draw_pile[0] = t.draw_pile[0], t.hands[2][0]
    spare = [a for a in sorted(s.box.architects) if a not in s.architects]
    t.architects[0], t.architects[2] = spare[0], s.architects[0]
    assert t.observation(me) == s.observation(me) and t.fields() != s.fields()
    a, b = LM.determinise(s, me, random.Random(7)), LM.determinise(t, me, random.Random(7))
    assert a.fields() == b.fields()
    assert a.log is None and b.log is None  # no log: nothing of what P2 did not see, no sentences in playouts
    seen_hands, seen_arch = set(), set()
    for i in range(30):
        d = determinise(LM, s, me, random.Random(i))
        assert d.hands[me] == s.hands[me] and d.architects[me] == s.architects[me]  # own cards kept
        assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
        unseen = Counter(k for p in (0, 2) for k in s.hands[p]) + Counter(s.draw_pile)
        assert Counter(k for p in (0, 2) for k in d.hands[p]) + Counter(d.draw_pile) == unseen
        assert d.architects[0] != s.architects[me] and d.architects[2] != s.architects[me]
        assert len(set(d.architects)) == 3 and d.seed != s.seed
        assert d.legal_actions() == s.legal_actions()  # P2's choices depend on P2's own cards only
        seen_hands.add(tuple(d.hands[2]))
        seen_arch.add(d.architects[2])
    assert len(seen_hands) > 10 and len(seen_arch) > 2  # really redrawn
    assert s.fields() == _lm_follow_position().fields()  # the position itself is untouched


def _first_event_of(state, player, action):
    """The first event ``player``'s ``action`` logs, played on a plain copy."""
    t = state.copy()
    n = len(t.log)
    t.apply_action(action)
    return next(e.text for e in t.log[n:] if e.player == player).rstrip(".")


@pytest.mark.parametrize("which", ["estate", "landmarks"])
def test_hints_play_and_explain_a_companion_position(which):
    if which == "landmarks":
        s, game = _lm_follow_position(), LM
    else:
        game = ESTATE
        s = game.new_game(players=3, seed=2)
        bots = [game.agents["greedy"](i) for i in range(3)]
        for _ in range(8):
            s.apply_action(bots[s.current_player()].act(s))
    me = s.current_player()
    before = s.to_dict()
    hs = hints(s, playouts=150, seed=4)
    assert len(hs) == 3 and s.to_dict() == before
    assert [h.visits for h in hs] == sorted((h.visits for h in hs), reverse=True)
    legal = s.legal_actions()
    for h in hs:
        assert h.action in legal
        assert h.sentence.startswith(f"P{me + 1} ")
        assert _first_event_of(s, me, h.action) in h.sentence  # what the move does, in the module's words
        assert f"Chosen in {h.share:.0%} of 150 playouts" in h.sentence
        score = game.seat_results
        t = s.copy()
        t.apply_action(h.action)
        delta = score(t)[me]["score"] - score(s)[me]["score"]
        if delta:
            assert f"({game.score_name} {delta:+d} at once)" in h.sentence
    assert [h.sentence for h in hints(s, playouts=150, seed=4)] == [h.sentence for h in hs]  # reproducible


def test_landmarks_hint_names_the_points_an_acquisition_gains():
    # after a harvest lead P2 may acquire a Gate (1 point a token, Landmarks: Scoring): the hint says what it gains
    s = LM.new_game(players=3, seed=3)
    s.apply_action(next(a for a in s.legal_actions() if getattr(a, "action", None) == "harvest"))
    hs = hints(s, playouts=120, seed=2, top=5)
    gate = [h for h in hs if getattr(h.action, "landmark", None) == "gate"]
    assert gate and all("takes a Gate token" in h.sentence for h in gate)
    t = s.copy()
    t.apply_action(gate[0].action)
    assert LR.totals(t)[1] > LR.totals(s)[1]
    assert f"(module points +{LR.totals(t)[1] - LR.totals(s)[1]} at once)" in gate[0].sentence


@pytest.mark.parametrize("which,players,options", [("estate", 2, {}), ("landmarks", 4, {"rounds": 3})])
def test_search_agent_plays_whole_companion_games(which, players, options):
    game = get_game(which)
    s = game.new_game(players=players, seed=6, **options)
    bot = make_bot("search[playouts=8]", 1, game=game)
    others = [make_bot("greedy", 10 + i, game=game) for i in range(players)]
    chosen = []
    while not s.is_terminal():
        p = s.current_player()
        a = bot.act(s) if p == 0 else others[p].act(s)
        assert s.why_not(a) is None
        if p == 0:
            chosen.append(a)
        s.apply_action(a)
    assert chosen and len(s.returns()) == players
    # the same seeds replay the same search choices
    t = game.new_game(players=players, seed=6, **options)
    bot2, again = make_bot("search[playouts=8]", 1, game=game), []
    others = [make_bot("greedy", 10 + i, game=game) for i in range(players)]
    while not t.is_terminal():
        p = t.current_player()
        a = bot2.act(t) if p == 0 else others[p].act(t)
        if p == 0:
            again.append(a)
        t.apply_action(a)
    assert again == chosen


def test_estate_playouts_are_cut_short_and_scored_by_gold_value_and_income_to_come():
    import math

    s = ESTATE.new_game(players=2, seed=1, log=False)
    assert s.season == 1 and ESTATE.evaluate(s) == [0.5, 0.5]  # the same start for both
    t = s.copy()
    t.hand[0]["gold"] += 3  # 3 gold more: one softmax width ahead
    assert ESTATE.evaluate(t) == pytest.approx([1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))])
    u = s.copy()
    u.income[1]["wood"] += 1  # +1 wood income (value 1) for this season and the 2 left: 3 gold of value to come
    assert ESTATE.evaluate(u) == pytest.approx(ESTATE.evaluate(t)[::-1])
    assert SearchAgent(0).settings()["rollout_depth"] == "auto"  # 20 decisions, then evaluate, for the estate too


def test_simulate_with_search_on_the_companions_records_what_each_game_defines(tmp_path):
    for which, players, lineup in (("estate", 2, "search[playouts=4],greedy"), ("landmarks", 3, "search[playouts=6],greedy")):
        grid = S.Grid(game=which, players=(players,), lineups=(lineup,), games=2)
        S.simulate(grid, tmp_path / which, workers=1, progress=False)
        f = S.load_dataset(tmp_path / which)
        meta = f.attrs["metadata"]
        game = get_game(which)
        assert meta["box"] == {"fingerprint": game.default_box().fingerprint, "name": which, "kit_data": True}
        meaning = {c["name"]: c["meaning"] for c in meta["schema"]}
        assert meaning["collective_loss"].startswith("always false")
        assert meaning["score"] == game.result_meanings["score"]
        assert not f.collective_loss.any() and (f.quest_total == 0).all()
        assert set(f.agent) == {"search[playouts=4]" if which == "estate" else "search[playouts=6]", "greedy"}
        assert meta["agents"][lineup.split(",")[0]]["playouts"] in (4, 6)
        for gid, rows in f.groupby("game_id"):
            scores = rows.sort_values("player").score.tolist()
            top = max(scores)
            assert rows.sort_values("player").won.tolist() == [v == top and scores.count(top) == 1 for v in scores]
            assert rows["returns"].tolist() == rows.score.tolist()  # both games return their score
    est = S.load_dataset(tmp_path / "estate")
    assert meaning["score"] != dict((c["name"], c["meaning"]) for c in est.attrs["metadata"]["schema"])["score"]


def test_a_dataset_that_stored_an_absolute_box_path_still_loads_and_resumes(tmp_path):
    grid = S.Grid(game="estate", players=(2,), lineups=("random",), games=3)
    S.simulate(grid, tmp_path / "d", workers=1, progress=False)
    meta_path = tmp_path / "d" / "dataset.json"
    meta = json.loads(meta_path.read_text())
    assert "path" not in json.dumps(meta["box"]) and "/" not in meta["box"]["name"]
    # an older kit wrote the box's absolute path
    meta["box"] = {"fingerprint": meta["box"]["fingerprint"], "path": "/home/someone/haunted/data/estate"}
    meta_path.write_text(json.dumps(meta))
    f = S.load_dataset(tmp_path / "d")
    assert f.attrs["metadata"]["box"] == {"fingerprint": meta["box"]["fingerprint"], "name": "estate"}
    (tmp_path / "d" / sorted(p.name for p in (tmp_path / "d").glob("part-*"))[-1]).unlink()
    report = S.simulate(grid, tmp_path / "d", workers=1, progress=False)  # same box (fingerprint): resumes
    assert report.played >= 1 and report.resumed >= 1
    S.simulate(grid, tmp_path / "fresh", workers=1, progress=False)
    pd.testing.assert_frame_equal(S.load_dataset(tmp_path / "d"), S.load_dataset(tmp_path / "fresh"))


def test_cli_simulates_a_companion_with_its_own_house_rule_box(tmp_path, capsys):
    import shutil

    from haunted_kit.cli import main
    from haunted_kit.estate.box import default_estate_box, load_estate_box

    rules = tmp_path / "my_estate"
    shutil.copytree(default_estate_box().path, rules)
    text = (rules / "game.toml").read_text()
    (rules / "game.toml").write_text(text.replace("[seasons]\ncount = 3", "[seasons]\ncount = 2", 1))
    assert load_estate_box(rules).seasons == 2
    def argv(out, *box):
        return ["simulate", "--game", "estate", *box, "--out", str(tmp_path / out), "--games", "2", "--players", "2",
                "--workers", "1", "--no-progress"]

    assert main(argv("d", "--box", str(rules))) == 0
    out = capsys.readouterr().out
    assert "score: gold value. win_rate: games won, where won = the sole highest gold value" in out
    assert "collective_loss" not in out
    f = S.load_dataset(tmp_path / "d")
    assert f.attrs["metadata"]["box"] == {"fingerprint": load_estate_box(rules).fingerprint, "name": "my_estate",
                                          "kit_data": False}
    assert main(argv("plain")) == 0  # the same grid with the module's own box
    plain = S.load_dataset(tmp_path / "plain")
    assert (f.game_decisions < plain.game_decisions).all()  # two seasons, not three: the box reached the games
    capsys.readouterr()
    # a Haunted Lands box is not an estate box: usage, exit 2, the estate loader's reason
    from haunted_kit.haunted.box import default_box

    with pytest.raises(SystemExit) as ei:
        main(argv("bad", "--box", default_box().path))
    err = capsys.readouterr().err
    assert ei.value.code == 2 and "usage:" in err and f"--box {default_box().path}: resources.toml, the file: file not found" in err
    assert not (tmp_path / "bad").exists()


def test_landmarks_playouts_are_cut_short_and_scored_by_points_and_architect_points_to_come(monkeypatch):
    import math

    from haunted_kit import landmarks as lm

    def two(**kw):
        args = dict(hands=[[], []], villages=[[], []], gold=[0, 0], lead=None, rounds=2)
        return lm.position(**{**args, **kw})

    assert LM.evaluate(two()) == [0.5, 0.5]  # nobody has a point or a building to come
    lead = 1 / (1 + math.exp(-1))  # 2 points ahead: one softmax width (2 points)
    assert LM.evaluate(two(tokens=[{"silo": 1}, {}])) == pytest.approx([lead, 1 - lead])  # the most Silos: 2 points
    assert LM.evaluate(two(tokens=[{}, {"silo": 1}])) == pytest.approx([1 - lead, lead])
    # architects dealt: P2's Chapel (holy) would give Master Hewn (worker, holy) 1 point; half of it is counted
    arch = ["dont_glaver", "master_hewn"]
    ahead = 1 / (1 + math.exp(-0.25))
    assert LM.evaluate(two(architects=arch, hands=[[], ["chapel"]])) == pytest.approx([1 - ahead, ahead])
    assert LM.evaluate(two(architects=arch, hands=[["vardo"], ["chapel"]])) == pytest.approx([0.5, 0.5])  # worker
    assert LM.evaluate(two(architects=arch, hands=[["chapel"], ["chapel"]])) == pytest.approx([1 - ahead, ahead])
    # one building per round left: rounds=1 counts only the best of two
    assert lm.engine.points_estimate(two(architects=arch, hands=[[], ["chapel", "vardo"]], rounds=1)) == [0, 0.5]
    assert lm.engine.points_estimate(two(architects=arch, hands=[[], ["chapel", "vardo"]], rounds=2)) == [0, 1.0]
    # along whole games: one value per player, each 0..1, summing to 1; the leader in points the highest
    for seed in range(6):
        s = LM.new_game(players=3, seed=seed, rounds=4)
        bots = [make_bot("greedy", i, game=LM) for i in range(3)]
        while not s.is_terminal():
            v = LM.evaluate(s)
            assert len(v) == 3 and sum(v) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in v)
            est = lm.engine.points_estimate(s)
            assert v.index(max(v)) == est.index(max(est))
            s.apply_action(bots[s.current_player()].act(s))
    # the search now cuts Landmarks rollouts ("auto": 40 decisions) and scores them with evaluate
    calls = []
    real = type(LM).evaluate
    monkeypatch.setattr(type(LM), "evaluate", lambda self, st: calls.append(1) or real(self, st))
    long = LM.new_game(players=3, seed=2, rounds=30)
    assert SearchAgent(0, playouts=5).search(long).playouts == 5 and len(calls) == 5
    assert SearchAgent(0, playouts=5, rollout_depth=None).search(long).playouts == 5 and len(calls) == 5
