"""Hint and event wording: a Market trade says its row once (estate rules, "Market
actions": the exchange row takes two resources, wood or limestone in any mix, for one
marble or glass)."""

from __future__ import annotations

import random

from haunted_kit.estate.actions import Trade
from haunted_kit.estate.engine import new_game

ROW = "Swap two of wood and limestone, in any mix, for 1 marble or glass"


def _at_a_two_resource_trade():
    """Seed 0, two players, random moves (seeded) until P1 may give 1 limestone and 1 wood for a marble."""
    s, rng = new_game(2, 0), random.Random(0)
    while True:
        legal = s.legal_actions()
        tr = [a for a in legal if isinstance(a, Trade) and len(a.give) == 2]
        if tr:
            return s, tr[0]
        s.apply_action(rng.choice(legal))


def test_a_trade_is_one_event_naming_its_row_once():
    s, trade = _at_a_two_resource_trade()
    assert trade == Trade("exchange_resources", (("limestone", 1), ("wood", 1)), (("marble", 1),))
    before = {r: s.hand[0][r] for r in ("limestone", "wood", "marble")}
    n = len(s.log)
    s.apply_action(trade)
    new = [e for e in s.log[n:] if e.kind == "exchanged"]
    assert [e.text for e in new] == [f"P1 gives 1 limestone and 1 wood and gets 1 marble at the Market ({ROW})."]
    assert new[0].data["gain"] == {"limestone": -1, "wood": -1, "marble": 1}
    assert {r: s.hand[0][r] for r in before} == {"limestone": before["limestone"] - 1, "wood": before["wood"] - 1,
                                                  "marble": before["marble"] + 1}


def test_an_estate_hint_says_each_trade_once():
    from haunted_kit.search import hints

    s, trade = _at_a_two_resource_trade()
    hs = hints(s, playouts=200, seed=1, top=8)
    said = {h.action: h.sentence for h in hs}
    assert said[trade].startswith(f"P1 gives 1 limestone and 1 wood and gets 1 marble at the Market ({ROW}) "
                                  "(gold value +1 at once). Chosen in ")
    assert all(h.sentence.count("at the Market") == 1 for h in hs if isinstance(h.action, Trade))
