"""Each game's one line of a seat's holdings (its tutorial module's ``holdings``), shown under the
lesson so a newcomer need not scroll to their board: the numbers of a known position, worked out
from the rules and the box (Haunted Lands: Game Setup step 11, Extraction; estate: Resource income;
Landmarks: Architects, Game Setup)."""

from __future__ import annotations

import haunted_kit as hk
from haunted_kit.estate.engine import new_game as estate_game
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.tutorial import holdings as haunted_holdings
from haunted_kit.estate.tutorial import holdings as estate_holdings
from haunted_kit.landmarks.engine import new_game as landmarks_game
from haunted_kit.landmarks.rules import architect_words
from haunted_kit.landmarks.tutorial import holdings as landmarks_holdings


def test_haunted_lands_at_the_start_and_after_an_extraction():
    s = hk.new_game(players=4, seed=1)
    # setup step 11: 4 exploration tokens, 1 each of contact, extraction, construction, all active; nothing held
    assert haunted_holdings(s, 0) == ("valor 0 · food 0, water 0, wood 0, ore 0 (at most 3 each) · pecunias 0 · "
                                      "tokens active/held: exploration 4/4, contact 1/1, extraction 1/1, "
                                      "construction 1/1")
    while s.pending or s.is_chance_node():   # the spread: ghosts placed, chance resolved
        s.apply_chance(hk.sample_chance(s, 1)) if s.is_chance_node() else s.apply_action(s.legal_actions()[0])
    p = s.current_player()
    for _ in range(10):   # explore until an extraction is legal, then extract: 1 resource, the token flipped
        extract = [a for a in s.legal_actions() if isinstance(a, A.Extract)]
        if extract:
            break
        s.apply_action(next(a for a in s.legal_actions() if isinstance(a, A.Explore)))
    got = extract[0].resource
    s.apply_action(extract[0])
    line = haunted_holdings(s, p)
    assert f"{got} 1" in line and "extraction 0/1" in line


def test_the_estate_at_the_start_and_after_taking_gold():
    s = estate_game(players=4, seed=1)
    b = s.box
    # Resource income: the box's starting income, its workers, nothing held yet
    assert estate_holdings(s, 0) == ("nothing · income per season: gold 3, limestone 2, wood 2, marble 0 · "
                                     f"workers: {b.start_workers} free, 0 Factory, 0 Inn")
    take = next(a for a in s.legal_actions() if type(a).__name__ == "TakeGold" and a.amount == 3)
    s.apply_action(take)
    assert estate_holdings(s, 0).startswith("gold 3 · income per season: gold 3,")


def test_landmarks_shows_the_seats_own_architect_and_never_anothers():
    s = landmarks_game(players=3, seed=1)
    b = s.box
    mine = b.architects[s.architects[0]]
    others = {b.architects[s.architects[q]].name for q in (1, 2)} - {mine.name}
    line = landmarks_holdings(s, 0)
    assert line == (f"{s.gold[0]} gold · {len(s.hands[0])} cards in hand · architect {mine.name}: "
                    f"{architect_words(b, mine)} · landmark tokens: none yet")
    assert s.gold[0] == 3 and len(s.hands[0]) == 5   # Architects: Game Setup, the kit's box
    assert not any(name in line for name in others)   # another seat's secret architect is never named
