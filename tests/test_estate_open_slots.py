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


def _place_or_join(s, p, slot):
    """``p`` (to move, given the gold) puts a marker on ``slot``: the first listed place there, else the join."""
    s.hand[p]["gold"] = 10
    s.legal_cache = None  # (the hand was set by hand: the listed actions are asked again)
    a = next(a for a in s.legal_actions() if getattr(a, "slot", None) == slot)
    s.apply_action(a)
    while s.pending is not None:  # a white-dotted land: a display tile removed
        s.apply_action(s.legal_actions()[0])


def test_a_marker_put_opens_the_touching_slots_for_that_seat_only_and_copies_keep_theirs():
    s = new_game(players=3, seed=0, log=False)
    lower = [(-2, 2), (-1, 2), (0, 2)]  # the lower area in board order
    assert R.open_slot_lists(s, 0) == (lower, [], 0)
    before = s.copy()
    _place_or_join(s, 0, (-1, 2))
    # (-1, 2) touches (-1, 1), (0, 1), (-2, 2), (0, 2) on the board (axial neighbours, board order)
    assert R.open_slot_lists(s, 0) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)
    assert R.open_slot_lists(s, 1) == ([(-2, 2), (0, 2)], [(-1, 2)], 0)  # a first marker: the lower area, one to join
    assert R.open_slot_lists(before, 0) == (lower, [], 0)  # the copy taken before keeps its lands and slots
    assert s.current_player() == 1
    _place_or_join(s, 1, (-1, 2))  # P2 joins P1's tile
    assert s.lands[(-1, 2)]["markers"] == [0, 1]
    assert R.open_slot_lists(s, 1) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)
    assert R.open_slot_lists(s, 0) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)  # P1's unchanged by the join
    assert R.open_slot_lists(s, 2) == ([(-2, 2), (0, 2)], [(-1, 2)], 0)
    assert R.open_slot_lists(before, 1) == (lower, [], 0)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", [0, 2, 3])  # games with places and joins
def test_open_slots_asked_as_a_playout_asks_them_agree_with_the_marker_rule(players, seed):
    """Only the seat to move asks (so a place or a join often meets no worked-out slots),
    and a copy taken every few decisions keeps its own slots while the game goes on."""
    s = new_game(players=players, seed=seed, log=False)
    bots = [make_bot("random", seed * 10 + i, "estate") for i in range(players)]
    copies = []
    while not s.is_terminal():
        if s.decisions % 5 == 0:
            copies.append((s.copy(), {q: [x for x in s.box.slots if R.refuse_marker(s, q, x) is None] for q in range(players)}))
        s.apply_action(bots[s.current_player()].act(s))
    assert len(s.lands) > 3 and any(len(land["markers"]) > 1 for land in s.lands.values())  # places and joins met
    for c, oks in copies:
        for q, ok in oks.items():
            free, joins, have = R.open_slot_lists(c, q)
            assert (free, joins) == ([x for x in ok if x not in c.lands], [x for x in ok if x in c.lands])
            assert have == len(R.estate_of(c, q))


@pytest.mark.parametrize("connection", ["group", "line"])
def test_the_other_seats_worked_out_slots_are_kept_through_a_join_and_a_new_tile_makes_its_slot_a_join(connection):
    """A marker changes where only its own seat may go next (estate rules, "Expand the lands":
    a tile after the first touches your own estate); a new tile turns its slot from a place
    into a join for a seat it was open to, and a join changes no other seat's slots."""
    s = new_game(players=3, seed=0, connection=connection, log=False)
    lower = [(-2, 2), (-1, 2), (0, 2)]
    for q in range(3):  # every seat's slots worked out (and kept) before the first marker
        assert R.open_slot_lists(s, q) == (lower, [], 0)
        assert R.legal_slots(s, q) == {x: "place" for x in lower}
    _place_or_join(s, 0, (-1, 2))
    assert R.open_slot_lists(s, 1) == ([(-2, 2), (0, 2)], [(-1, 2)], 0)  # the new tile: a join for P2 and P3
    assert R.legal_slots(s, 2) == {(-2, 2): "place", (-1, 2): "join", (0, 2): "place"}
    assert R.open_slot_lists(s, 0) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)
    for q in range(3):
        R.open_slot_lists(s, q), R.legal_slots(s, q)
    _place_or_join(s, 1, (-1, 2))  # P2 joins P1's tile: P1's and P3's slots stay as they were
    assert R.open_slot_lists(s, 0) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)
    assert R.open_slot_lists(s, 2) == ([(-2, 2), (0, 2)], [(-1, 2)], 0)
    assert R.legal_slots(s, 2) == {(-2, 2): "place", (-1, 2): "join", (0, 2): "place"}
    assert R.open_slot_lists(s, 1) == ([(-1, 1), (0, 1), (-2, 2), (0, 2)], [], 1)
    for q in range(3):  # and all agree with the marker rule asked slot by slot
        ok = [x for x in s.box.slots if R.refuse_marker(s, q, x) is None]
        assert R.open_slot_lists(s, q)[:2] == ([x for x in ok if x not in s.lands], [x for x in ok if x in s.lands])
