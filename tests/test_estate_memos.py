"""The estate's speed-ups remember what the rules gave and hand it out again (issue 21, fast
hints): the Market's legal trades and a visit's value are kept by a key that holds a hand only
up to what a Market option gives, and a seat's open slots are carried through another seat's
marker. Each must give exactly what the rules give when asked afresh (estate rules, "Market
actions" and "Expand the lands")."""

from __future__ import annotations

import pytest

from haunted_kit.estate import EndVisit, InnDecline, InnReturn, Pass, Trade, VisitMarket, new_game
from haunted_kit.estate.actions import action_table
from haunted_kit.estate.agents import EstateGreedyAgent
from haunted_kit.estate.scenario import position
from haunted_kit.protocol import RandomAgent


def trade(action, give=(), take=()):
    return Trade(action, tuple(sorted(give)), tuple(sorted(take)))


def every_allowed_trade(s) -> list:
    """Each trade of the box's Market table that the rules allow now, in the table's order (asked one by one)."""
    return [x for row in action_table(s.box).trades.values() for x in row if s.why_not(x) is None]


def test_a_hand_counts_for_the_markets_trades_only_up_to_what_an_option_gives():
    box = position(2).box
    # the reference table gives at most 2 wood or 2 limestone (exchange_resources) and 1 marble or 1 glass; never gold
    assert action_table(box).give_caps == (0, 2, 2, 1, 1) and box.resources == ("gold", "wood", "limestone", "marble", "glass")
    with_two = [trade("sell_wood_or_limestone", [("wood", 1)], [("gold", 1)]),
                trade("exchange_resources", [("wood", 2)], [("marble", 1)]),
                trade("exchange_resources", [("wood", 2)], [("glass", 1)]),
                trade("exchange_wood", [("wood", 1)], [("limestone", 1)]),
                trade("hire_two", [], [("workers", 2)]),  # marked: 2 gold at its first use this season
                trade("hire_one_and_take", [], [("wood", 1), ("workers", 1)]),
                trade("hire_one_and_take", [], [("limestone", 1), ("workers", 1)])]
    for wood, gold, expected in ((2, 2, with_two), (9, 7, with_two),  # more wood and gold than any option asks: the same
                                 (1, 2, [with_two[0], with_two[3], *with_two[4:]]),  # one wood: no 2-wood exchange
                                 (2, 1, with_two[:4])):  # one gold: the marked hires (2 gold) refused
        s = position(2, hand={0: {"gold": gold, "wood": wood}})
        s.apply_action(VisitMarket())
        assert s.legal_actions() == expected + [EndVisit()], (wood, gold)
        assert every_allowed_trade(s) == expected


@pytest.mark.parametrize("third_marked", [None, "exchange_resources"])
@pytest.mark.parametrize("players", [2, 4])
def test_kept_market_trades_and_visit_values_are_what_the_rules_give_along_seeded_games(players, third_marked):
    """Random and greedy seats (hands of every size, tokens, rows used, marked prices); at each
    Market decision the listed trades are the ones the rules allow asked one by one, and the
    greedy bot's value of a visit is its one-move score (the best trade of the hand now)."""
    visits = valued = 0
    for seed in range(3):
        s = new_game(players=players, seed=seed, third_marked=third_marked, log=False)
        greedy = EstateGreedyAgent(seed)
        bots = [EstateGreedyAgent(seed * 10 + i) if i % 2 else RandomAgent(seed * 10 + i) for i in range(players)]
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.visit is not None:
                assert legal == every_allowed_trade(s) + [EndVisit()]
                visits += 1
            elif VisitMarket() in legal:
                k = legal.index(VisitMarket())
                assert greedy.scores(s, legal)[k] == greedy.score(s, VisitMarket())
                valued += 1
            s.apply_action(bots[s.current_player()].act(s))
    assert visits > 10 and valued > 30, (visits, valued)
