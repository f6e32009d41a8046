"""The ISMCTS search agent and hints: determinisations read only what the searching
player may know, searches are reproducible, hints explain legal moves."""

from __future__ import annotations

import math
import random

import pytest

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.bots import BotSpecError, bot_settings, make_bot, parse_lineup, parse_spec
from haunted_kit.games import MissingHook
from haunted_kit.haunted.engine import GAME
from haunted_kit.search import SearchAgent, determinise, hints


def _after_quests(players=2, seed=4):
    """A citizen-mode greedy game played until every player holds face-down quests (2 each
    after season 1, ruling 5) and it is a turn."""
    s = hk.new_game(players=players, seed=seed, mode="citizen")
    bots = [GreedyAgent(i) for i in range(players)]
    while not (all(s.quests) and s.phase == "turns"):
        s.apply_action(bots[s.current_player()].act(s))
    assert not s.is_terminal()
    return s


def test_determinisation_reads_nothing_hidden_from_the_searching_player():
    s = _after_quests()
    me = s.current_player()
    other = 1 - me
    # the same position with the other player's face-down quests swapped for others
    dealt = [q for q in sorted(s.config.box.quests) if q not in s.config.box.removed_quests[2]]
    assert len(dealt) == 6  # 2 players: quests 3 and 4 go back to the box (setup step 17)
    t = s.copy()
    k = len(s.quests[other])
    chosen = tuple(q for q in dealt if q not in s.quests[other])[:k]
    t.set_quests(other, chosen, [q for q in dealt if q not in chosen])
    assert t.quests[other] != s.quests[other]
    assert t.observation(me) == s.observation(me)
    a, b = determinise(GAME, s, me, random.Random(9)), determinise(GAME, t, me, random.Random(9))
    assert a.to_dict() == b.to_dict()
    # own quests are kept; the other's number of quests is kept, drawn from the dealt hand
    assert a.quests[me] == s.quests[me]
    seen = set()
    for i in range(40):
        d = determinise(GAME, s, me, random.Random(i))
        assert len(d.quests[other]) == k and set(d.quests[other]) <= set(dealt)
        assert d.quests_in_hand(other) == [q for q in dealt if q not in d.quests[other]]
        assert d.config.seed != s.config.seed
        seen.add(d.quests[other])
    assert len(seen) > 5  # really redrawn
    assert s.to_dict() == s.copy().to_dict()  # the position itself is untouched


def test_a_game_that_hides_information_needs_a_determiniser():
    class NoDeterminise:
        name = "plain"

    s = _after_quests()
    with pytest.raises(MissingHook, match=r"^the search needs the game's determinise hook: .* \(--game plain\) hides "
                                          r"information from player \d and has none"):
        determinise(NoDeterminise(), s, s.current_player(), random.Random(0))
    with pytest.raises(MissingHook, match="determinise hook: .* hides information"):
        SearchAgent(0, playouts=3, game=NoDeterminise(), rollout_depth=None).search(s)


def test_search_is_reproducible_and_counts_its_playouts():
    s = _after_quests(players=4, seed=2)
    before = s.to_dict()
    r1 = SearchAgent(5, playouts=60).search(s)
    r2 = SearchAgent(5, playouts=60).search(s)
    assert [(m.action, m.visits, m.value) for m in r1.moves] == [(m.action, m.visits, m.value) for m in r2.moves]
    assert r1.playouts == 60 and sum(m.visits for m in r1.moves) == 60
    assert {m.action for m in r1.moves} <= set(s.legal_actions())
    assert r1.moves[0].visits == max(m.visits for m in r1.moves)
    assert abs(sum(m.share for m in r1.moves) - 1) < 1e-9
    assert s.to_dict() == before  # searching never changes the position
    r3 = SearchAgent(6, playouts=60).search(s)
    assert [m.visits for m in r3.moves] != [m.visits for m in r1.moves]


def test_search_with_full_greedy_rollouts_and_a_time_budget():
    s = _after_quests(players=2, seed=1)
    r = SearchAgent(1, playouts=8, rollout="greedy", rollout_depth=None).search(s)
    assert r.playouts == 8 and sum(m.visits for m in r.moves) == 8
    r = SearchAgent(1, seconds=0.05).search(s)
    assert r.playouts >= 1 and r.best in s.legal_actions()


def test_search_agent_plays_a_whole_game_legally():
    s = hk.new_game(players=2, seed=3)
    bots = [SearchAgent(1, playouts=10), GreedyAgent(2)]
    while not s.is_terminal():
        a = bots[s.current_player()].act(s)
        assert s.why_not(a) is None
        s.apply_action(a)
    assert s.returns() in ([1.0, 0.0], [0.0, 1.0], [-1.0, -1.0])


@pytest.mark.parametrize("kwargs, needle", [
    ({"playouts": 0}, "playouts must be a whole number from 1 to 1,000,000, got 0"),
    ({"seconds": 0}, "seconds must be a finite number more than 0 and at most 3,600, got 0"),
    ({"rollout": "clever"}, "unknown rollout policy 'clever'"),
    ({"rollout_depth": -1}, "rollout_depth must be"),
])
def test_bad_budgets_are_refused(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        SearchAgent(0, **kwargs)


def test_searching_a_finished_game_is_refused():
    s = hk.new_game(players=2, seed=3)
    bots = [GreedyAgent(1), GreedyAgent(2)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    with pytest.raises(ValueError, match="the game is over: there is no move to search"):
        SearchAgent(0).search(s)


def test_hints_top_three_with_shares_and_sentences():
    s = _after_quests(players=4, seed=2)
    me = s.current_player()
    hs = hints(s, playouts=200, seed=3)
    assert len(hs) == 3
    assert [h.visits for h in hs] == sorted((h.visits for h in hs), reverse=True)
    assert all(h.action in s.legal_actions() for h in hs)
    assert sum(h.share for h in hs) <= 1
    for h in hs:
        assert f"Chosen in {h.share:.0%} of 200 playouts" in h.sentence
        assert h.sentence.startswith(f"P{me + 1} ") or h.sentence.startswith(h.action.describe())
    # the same call gives the same hints; the position is untouched
    assert [h.sentence for h in hints(s, playouts=200, seed=3)] == [h.sentence for h in hs]


def test_hint_sentences_never_name_another_players_hidden_quest():
    s = _after_quests(players=2, seed=4)
    me = s.current_player()
    hs = hints(s, playouts=100, seed=1)
    for h in hs:
        assert "quest" not in h.sentence.lower() or all(f"quest {q}" not in h.sentence for q in s.quests[1 - me])


def test_bot_specs():
    assert parse_spec("search[playouts=100,rollout=greedy]") == ("search", {"playouts": 100, "rollout": "greedy"})
    assert parse_spec("search[rollout_depth=none]") == ("search", {"rollout_depth": None})
    assert parse_lineup("search[playouts=5,seconds=1.5], greedy,random") == ["search[playouts=5,seconds=1.5]", "greedy", "random"]
    assert bot_settings("greedy") == {"agent": "greedy"}
    assert bot_settings("search[playouts=7]")["playouts"] == 7
    assert isinstance(make_bot("search[playouts=7]", 3, "haunted"), SearchAgent)
    for bad, needle in [("search[playouts=x]", "playouts='x' is not a whole number"), ("greedy[playouts=3]", "takes no settings"),
                        ("search[depth=3]", "unknown search setting 'depth=3'"), ("9lives", "cannot read agent spec"),
                        ("", "give at least one agent")]:
        with pytest.raises(BotSpecError, match=needle.replace("[", r"\[")):
            parse_lineup(bad)
    with pytest.raises(ValueError, match="unknown agent 'clever'"):
        make_bot("clever", 0, "haunted")


def test_search_plays_a_companion_module():
    from haunted_kit.games import get_game

    estate = get_game("estate")
    s = estate.new_game(players=2, seed=3, log=False)
    d = determinise(estate, s, 0, random.Random(1))
    assert d.config.seed != s.config.seed and d.observation(0) == {**s.observation(0)}
    bot = make_bot("search[playouts=3]", 1, game=estate)
    other = make_bot("greedy", 2, game=estate)
    while not s.is_terminal():
        a = (bot if s.current_player() == 0 else other).act(s)
        assert s.why_not(a) is None
        s.apply_action(a)
    assert len(s.returns()) == 2


# ---------------------------------------------------------------- the prior and the evaluation


def test_the_greedy_prior_is_a_softmax_of_the_greedy_scores():
    s = _after_quests(players=4, seed=2)
    bot = GreedyAgent(0)
    legal = s.legal_actions()
    p = bot.prior(s, legal)
    assert len(p) == len(legal) and abs(sum(p) - 1) < 1e-12 and all(x > 0 for x in p)
    scores = [bot.score(s, a) for a in legal]
    i, j = max(range(len(legal)), key=scores.__getitem__), min(range(len(legal)), key=scores.__getitem__)
    assert scores[i] > scores[j]  # this position has better and worse moves
    # the odds of two moves are e ** (score difference / temperature)
    assert p[i] / p[j] == pytest.approx(math.exp((scores[i] - scores[j]) / GreedyAgent.prior_temperature))
    # the greedy agent plays a move the prior ranks first
    assert scores[legal.index(GreedyAgent(1).act(s))] == max(scores)


def test_each_game_gives_its_prior():
    from haunted_kit.games import get_game
    from haunted_kit.search import prior_of

    s = _after_quests(players=2, seed=4)
    legal = s.legal_actions()
    assert prior_of(GAME, "greedy")(s, legal) == GreedyAgent(0).prior(s, legal)
    assert prior_of(GAME, "uniform")(s, legal) == [1 / len(legal)] * len(legal)
    estate = get_game("estate")
    e = estate.new_game(players=2, seed=3, log=False)
    el = e.legal_actions()
    got = prior_of(estate)(e, el)
    assert len(got) == len(el) and abs(sum(got) - 1) < 1e-12

    class NoBots:  # a game with neither a prior nor a greedy agent: every move alike
        name = "plain"
        agents = {}

    assert prior_of(NoBots())(s, legal) == [1 / len(legal)] * len(legal)
    with pytest.raises(ValueError, match="unknown prior 'clever'"):
        prior_of(GAME, "clever")
    with pytest.raises(ValueError, match="unknown prior 'clever'"):
        SearchAgent(0, prior="clever")


def test_evaluation_features_of_a_new_game():
    from haunted_kit.haunted.engine import eval_features
    from haunted_kit.haunted.rules import ctx_of

    s = hk.new_game(players=4, seed=3, log=False)
    f = eval_features(s, ctx_of(s))
    # no valor, no quests yet; the 7 cells of the Kalena tile are free; 3 seasons x 3 rounds to play
    assert f["scores"] == [0, 0, 0, 0] and f["kalena_free"] == 7 and f["rounds_left"] == 9
    v = GAME.evaluate(s)
    assert len(set(v)) == 1  # nobody ahead: the same value for everyone
    loss = -(v[0] - 0.25) / 1.25  # v = (1 - L) / 4 - L for every player
    assert 0 < loss < 1


def test_the_evaluation_rewards_valor_and_fears_kalenas_fall():
    s = _after_quests(players=4, seed=2)
    base = GAME.evaluate(s)
    assert all(-1 <= x <= 1 for x in base)
    me = s.current_player()
    richer = s.copy()
    richer.valor[me] += 5
    v = GAME.evaluate(richer)
    assert v[me] > base[me] and all(v[o] < base[o] for o in range(4) if o != me)
    # a ghost on a free Kalena cell makes the collective loss likelier: worse for everyone
    from haunted_kit.haunted.rules import ctx_of

    ctx = ctx_of(s)
    free = [c for c in ctx.kalena_cells if not s.ghosts[c]]
    assert free
    haunted = s.copy()
    haunted.ghosts[free[0]] = 1
    assert all(x < y for x, y in zip(GAME.evaluate(haunted), base))
    # a finished game is valued by its returns
    t = hk.new_game(players=2, seed=3)
    bots = [GreedyAgent(1), GreedyAgent(2)]
    while not t.is_terminal():
        t.apply_action(bots[t.current_player()].act(t))
    assert GAME.evaluate(t) == t.returns()


def test_the_prior_steers_a_small_search():
    """With 30 playouts, a uniform prior spreads the visits over the legal moves; the
    greedy prior spends most of them on the moves the greedy scores rank high."""
    s = _after_quests(players=4, seed=2)
    legal = s.legal_actions()
    assert len(legal) >= 4
    scores = {a: GreedyAgent(0).score(s, a) for a in legal}
    top = max(scores.values())
    on_top = flat_on_top = 0
    for seed in (3, 4, 5):  # summed over three searches: one alone can tie by luck of the draws
        guided = SearchAgent(seed, playouts=30).search(s)
        flat = SearchAgent(seed, playouts=30, prior="uniform").search(s)
        assert len(flat.moves) == len(legal)  # each move tried once at least
        on_top += sum(m.visits for m in guided.moves if scores[m.action] == top)
        flat_on_top += sum(m.visits for m in flat.moves if scores[m.action] == top)
    assert on_top > flat_on_top
