"""The estate's open slots (the legal actions' places and joins) agree with the marker rule.

``rules.open_slot_lists`` works the open slots out from the board's edges (issue 21, speed);
here every player's lists are held, at every decision of seeded random games under both
connection readings (ruling E6), to :func:`haunted_kit.estate.rules.refuse_marker` asked slot
by slot in board order (estate rules, "Expand the lands")."""

from __future__ import annotations

import pytest

from haunted_kit.bots import make_bot
from haunted_kit.estate import rules as R
from haunted_kit.estate.engine import new_game


def test_a_first_marker_goes_on_the_lower_area_in_board_order():
    s = new_game(players=3, seed=0)
    free, joins, have = R.open_slot_lists(s, 0)
    assert free == [slot for slot in s.box.slots if slot in s.box.lower_area]  # nothing placed yet
    assert joins == [] and have == 0
    outside = next(slot for slot in s.box.slots if slot not in s.box.lower_area)
    assert "lower area" in R.refuse_marker(s, 0, outside).text


@pytest.mark.parametrize("connection", ["group", "line"])
@pytest.mark.parametrize("seed", range(4))
def test_open_slots_are_the_slots_the_marker_rule_accepts(connection, seed):
    s = new_game(players=3, seed=seed, connection=connection, log=False)
    bots = [make_bot("random", seed * 10 + i, "estate") for i in range(3)]
    checked = joined = 0
    while not s.is_terminal():
        for p in range(s.players):
            ok = [slot for slot in s.box.slots if R.refuse_marker(s, p, slot) is None]
            free, joins, have = R.open_slot_lists(s, p)
            assert free == [slot for slot in ok if slot not in s.lands]
            assert joins == [slot for slot in ok if slot in s.lands]
            assert have == len(R.estate_of(s, p))
            assert R.legal_slots(s, p) == {slot: "join" if slot in s.lands else "place" for slot in ok}
            checked += 1
            joined += bool(joins)
        s.apply_action(bots[s.current_player()].act(s))
    assert checked > 100 and joined  # positions with joins were among them
