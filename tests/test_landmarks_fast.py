"""The Landmarks & Architects engine's fast paths give the answers of the plain rules:
module points without the explanations, the greedy bot's score without playing the move,
payment plans without networkx unless none exists, and memoised legal actions that tell
apart positions differing in anything legality reads (gold, spent sources, Castle Grounds,
the supply). That whole games stay the same is ``tests/test_golden_landmarks.py``."""

from __future__ import annotations

import dataclasses
import random

import networkx as nx
import pytest

from golden_landmarks import games, play
from haunted_kit import landmarks as lm
from haunted_kit.landmarks import rules as R
from haunted_kit.landmarks.agents import LandmarksGreedyAgent
from haunted_kit.protocol import IllegalAction


def _positions(step: int = 10):
    """Every position along a sample of the golden games (random and greedy, 2-5 players,
    each module switched off in turn)."""
    for spec in games()[::step]:
        for _, s in play(spec).replay():
            yield s


def test_totals_are_the_explained_rows_summed():
    seen = 0
    for s in _positions():
        by_rows = [0] * s.players
        for r in R.score_rows(s):
            by_rows[int(r["player"][1:]) - 1] += r["points"]
        assert R.totals(s) == by_rows
        seen += any(by_rows)
    assert seen > 50  # points were scored in many of them


def test_the_greedy_score_is_the_points_after_playing_the_move():
    bot = LandmarksGreedyAgent(0)
    checked = 0
    for s in _positions(step=20):
        if s.is_terminal() or s.current_player() is None:
            continue
        p, legal = s.current_player(), s.legal_actions()
        after = []
        for a in legal:
            t = s.copy()
            t.apply_action(a)
            if isinstance(a, lm.ChooseBuilding):  # scored as its Build will be: any payment gives the same points
                t.apply_action(t.legal_actions()[-1])
            after.append(R.totals(t)[p])
        assert bot.scores(s, legal) == after
        assert [bot.score(s, a) for a in legal] == after
        checked += len(legal)
    assert checked > 500


def test_payment_plans_exist_exactly_when_a_matching_of_cost_to_sources_does():
    checked = 0
    for s in _positions(step=20):
        for p in range(s.players):
            for k in sorted(set(s.hands[p])):
                if s.box.cards[k].kind != "building":
                    continue
                pp = R.plan_payments(s, p, k)
                units = [n for n in pp.graph if n[0] == "unit"]
                matched = sum(1 for u in units if u in nx.bipartite.hopcroft_karp_matching(pp.graph, top_nodes=units))
                no_matching = pp.why_none is not None and pp.why_none.startswith(f"the {s.box.cards[k].name} needs")
                assert (matched == len(units)) == (not no_matching)
                for plan in pp.plans:  # every plan listed is a legal payment on its own
                    ds = iter(R.discard_choices(s, p, k, plan)[0])  # one discard per Castle Grounds use
                    uses = tuple(lm.Use(u.source, u.owner, u.resource, u.slot, next(ds), u.card) if u.source == "grounds"
                                 else u for u in plan.uses)
                    assert R.refuse_build(s, p, lm.Build(k, uses)) is None
                checked += 1
    assert checked > 100


def _vardo(**kw):
    """The text's Vardo example (P1 to lead), with ``kw`` changed."""
    args = dict(hands=[["vardo", "tannery"], ["granary"]], villages=[[], []], developed=[["lumber_camp"], []],
                gold=[3, 0], lead=None)
    return lm.position(**{**args, **kw})


LEADS_BUT_BUILD = [lm.Lead("harvest"), lm.Lead("develop"), lm.Lead("recruit"), lm.Lead("trade")]


def test_memoised_legal_actions_tell_apart_gold_spent_sources_and_castle_grounds():
    assert _vardo().legal_actions()[1] == lm.Lead("build")  # 3 gold: the Vardo or the Tannery can be built
    broke = _vardo(gold=[0, 0])  # the same hands, no gold: no Build to lead (ruling L3)
    assert broke.legal_actions() == LEADS_BUT_BUILD
    assert str(broke.why_not(lm.Lead("build"))).startswith("P1 cannot lead build: no building in hand can be paid")
    # no gold in supply, but the castle and Lumber Camp hold 2 gold that comes back at the lead: the Tannery
    assert lm.Lead("build") in _vardo(gold=[0, 0], spent=[["castle", "developed:0"], []]).legal_actions()
    # the gold P2 placed on P1's Castle Grounds becomes P1's at the lead: the Tannery again
    assert lm.Lead("build") in _vardo(gold=[0, 0], grounds=[[1], []]).legal_actions()
    assert _vardo(gold=[0, 0]).legal_actions() == LEADS_BUT_BUILD  # and the memo still says no for the first


def test_memoised_legal_actions_tell_apart_the_supply():
    def follower(silos_taken):
        return lm.position(hands=[["vardo"], ["granary", "tannery"]], villages=[[], []], gold=[0, 0],
                           tokens=[{"silo": silos_taken}, {}], lead="harvest")

    some_left = follower(4).legal_actions()
    assert lm.Acquire("silo", ("granary",)) in some_left and lm.Acquire("silo", ("tannery",)) in some_left
    assert follower(5).legal_actions() == [lm.Follow(), lm.Acquire("gate", ("granary", "tannery")), lm.Decline()]
    assert str(follower(5).why_not(lm.Acquire("silo", ("granary",)))).startswith("the Silo supply is empty")


def test_acquire_options_are_exactly_the_acquisitions_refuse_acquire_allows():
    """The options listed without judging each landmark (a memo miss) are every landmark and
    distinct choice of discards from the hand that refuse_acquire accepts, in the box's order."""
    from itertools import combinations

    checked = 0
    for s in _positions(step=5):
        p = s.current_player()
        if s.phase != "follow" or not s.modules["landmarks"]:
            continue
        R.memo_table(s.box, "acquires").clear()  # the options worked out, not a memo's answer
        listed = R.acquire_options(s, p)
        judged = [lm.Acquire(k, combo) for k, lt in s.box.landmarks.items()
                  for combo in sorted(set(combinations(sorted(s.hands[p]), lt.discard)))
                  if R.refuse_acquire(s, p, k, combo) is None]
        assert listed == judged
        checked += len(judged)
    assert checked > 200
    # a refused kind is left out: no silo left in the supply, no stone card for a statue
    s = lm.position(hands=[["vardo"], ["granary", "tannery"]], villages=[[], []], gold=[0, 0],
                    tokens=[{"silo": 5}, {}], lead="harvest")
    R.memo_table(s.box, "acquires").clear()
    assert R.acquire_options(s, 1) == [lm.Acquire("gate", ("granary", "tannery"))]


def _expected_builds(s, p):
    """Every Build of ``p`` from the plain rules: each building of the hand (sorted), each
    ranked minimal payment (plan_payments), each choice of discards given to its Castle
    Grounds uses in order."""
    out = []
    for k in sorted(set(s.hands[p])):
        if s.box.cards[k].kind != "building":
            continue
        for plan in R.plan_payments(s, p, k).plans:
            for ds in R.discard_choices(s, p, k, plan):
                it = iter(ds)
                out.append(lm.Build(k, tuple(dataclasses.replace(u, discard=next(it)) if u.source == "grounds" and ds
                                             else u for u in plan.uses)))
    return out


def test_builds_of_a_new_hand_in_a_known_situation_are_its_payments_with_each_discard_choice():
    """build_options keeps each building's payments per situation (gold, free sources, hand
    size) and picks discards per hand: a hand redrawn in the same situation (as a search's
    determinisation does) lists exactly the plain rules' Builds, refused ones left out."""
    checked = redrawn = 0
    for s in _positions(step=40):
        for p in range(s.players):
            assert R.build_options(s, p) == _expected_builds(s, p)
            checked += 1
            if s.draw_pile and s.hands[p]:
                t = s.copy()
                k = len(t.hands[p])
                pool = t.hands[p] + t.draw_pile
                t.hands[p], t.draw_pile = pool[-k:], pool[:-k]  # the same size: the same situation, another hand
                builds = R.build_options(t, p)
                assert builds == _expected_builds(t, p)
                assert all(R.refuse_build(t, p, b) is None for b in builds)
                redrawn += bool(builds)
    assert checked > 100 and redrawn > 10


def test_an_equal_action_is_recorded_as_the_listed_one():
    s = _vardo()
    s.apply_action(lm.Lead("build"))
    s.apply_action(lm.ChooseBuilding("tannery"))
    listed = next(a for a in s.legal_actions() if a.card == "tannery")
    again = lm.Build("tannery", tuple(lm.Use(u.source, u.owner, u.resource, u.slot, u.discard, u.card)
                                      for u in listed.payment))
    assert again == listed and again is not listed and hash(again) == hash(listed)
    s.apply_action(again)
    assert s.history()[-1].action is listed
    with pytest.raises(IllegalAction) as exc:
        s.apply_action(listed)  # P2 follows now, and P1's card is built: judged, not waved through
    assert "P2" in str(exc.value)


def test_strict_equality_still_tells_kinds_apart_through_the_fast_path():
    a = lm.Build("vardo", (lm.Use("castle", 0, "wood"),))
    assert a == lm.Build("vardo", (lm.Use("castle", 0, "wood"),))
    assert a != lm.Build("vardo", (lm.Use("castle", 0.0, "wood"),))  # 0.0 is not a player index
    assert lm.Acquire("gate", ("a", "b")) != lm.Acquire("gate", ["a", "b"])  # a list is another kind
    assert lm.Use("castle", 0, "wood", 0) != lm.Use("castle", 0, "wood", False)


def _rows_total(s, p):
    return sum(r["points"] for r in R.score_rows(s) if r["player"] == f"P{p + 1}")


def test_token_points_are_the_points_after_one_more_token_of_each_type():
    """Landmarks: Scoring (kit box: a majority is the sole most tokens, at least 1, worth 2;
    a Gate token 1 point; a full set of the 5 types 3): P1 and P2 tie on Gates (2 each), P1
    alone has a Silo and a Ward Tower, P1 and P2 tie on Statues, P2 alone has a Windmill."""
    s = lm.position(hands=[[], [], []], villages=[[], [], []], gold=[0, 0, 0], lead=None,
                    tokens=[{"gate": 2, "silo": 1, "statue": 1, "ward_tower": 1},
                            {"gate": 2, "statue": 1, "windmill": 1}, {}])
    assert R.totals(s) == [2 + 2 + 2, 2 + 2, 0]  # Gate tokens, then the Silo and Ward Tower / Windmill majorities
    # P1: a 3rd Gate wins that majority (+2, +1 token point); a 2nd Statue wins it (+2); a Windmill ties P2 (no
    # majority) but completes P1's first set (+3); another Silo or Ward Tower changes nothing
    assert R.token_points(s, 0) == (6, {"gate": 9, "silo": 6, "statue": 8, "ward_tower": 6, "windmill": 9})
    # P2: a Silo or a Ward Tower ties P1's one (no majority, and the other type still lacks a token: no set)
    assert R.token_points(s, 1) == (4, {"gate": 7, "silo": 4, "statue": 6, "ward_tower": 4, "windmill": 4})


def test_one_pass_totals_and_token_points_agree_with_the_explained_rows_over_many_token_counts():
    rng = random.Random(5)
    checked = 0
    for s in _positions(step=40):
        for p in range(s.players):
            for k in s.box.landmarks:  # counts with ties, majorities and sets, within the supply
                s.tokens[p][k] = rng.choice([0, 0, 1, 1, 2, 3])
        assert R.totals(s) == [_rows_total(s, p) for p in range(s.players)]
        for p in range(s.players):
            now, after = R.token_points(s, p)
            assert now == _rows_total(s, p)
            for k in s.box.landmarks:
                s.tokens[p][k] += 1
                assert after[k] == _rows_total(s, p), (p, k)
                s.tokens[p][k] -= 1
            checked += 1
    assert checked > 100


def test_builds_of_plans_with_different_discard_counts_keep_the_plan_order():
    """A card whose ranked payments discard different numbers of cards (plans with 0, 1
    and 2 Castle Grounds discards) lists its Builds plan by plan, each plan's discard
    choices in order, as the plain rules do: with the memo tables emptied, from the kept
    Builds, and for another hand of the same size in the same situation."""
    mixed = 0
    for s in _positions(step=20):
        for p in range(s.players):
            hand = sorted(s.hands[p])
            counts = [[pl.cards for pl in R.plan_payments(s, p, k).plans] for k in set(hand)
                      if s.box.cards[k].kind == "building"]
            if not any(len(set(c)) > 2 for c in counts):
                continue
            mixed += 1
            for table in ("builds", "plan builds", "builds by parts"):
                R.memo_table(s.box, table).clear()
            assert R.build_options(s, p) == _expected_builds(s, p)  # cold
            assert R.build_options(s, p) == _expected_builds(s, p)  # the kept Builds
            if s.draw_pile:
                t = s.copy()
                pool = t.hands[p] + t.draw_pile
                t.hands[p], t.draw_pile = pool[-len(hand):], pool[:-len(hand)]
                assert R.build_options(t, p) == _expected_builds(t, p)
    assert mixed > 20
