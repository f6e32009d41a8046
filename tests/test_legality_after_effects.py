"""Legality is judged on the position that a decision's automatic effects produce, in
every game: the gold that comes back at a Landmarks lead pays for the build it leads;
the estate's season end brings the Factory workers back before the next take; Haunted
Lands' Rest restores the action tokens before the next round's turns.
"""

from __future__ import annotations

import pytest

from haunted_kit.estate import Pass, TakeMaterial
from haunted_kit.estate.scenario import position as estate_position
from haunted_kit.haunted.actions import Contact
from haunted_kit.haunted.scenario import end_round, put_ghost, scenario, set_tokens
from haunted_kit.landmarks import Lead, position as landmarks_position
from haunted_kit.protocol import IllegalAction

# ============================================================================ Landmarks & Architects


def _leader(**kw):
    """P1 to lead, a Tannery (cost: 1 food) in hand, no developed resource, no gold in supply."""
    return landmarks_position(hands=[["tannery"], ["tannery"]], villages=[[]] * 2, gold=[0, 0], lead=None, **kw)


def test_landmarks_lead_build_paid_by_the_castle_gold_that_comes_back():
    """Architects: Build and RULINGS L9: the gold on P1's castle comes back at P1's lead, so the
    castle is free and its gold pays the Tannery's food (a wild resource): Build may be led."""
    s = _leader(spent=[["castle"], []])
    assert s.why_not(Lead("build")) is None
    assert Lead("build") in s.legal_actions()
    s.apply_action(Lead("build"))
    assert s.gold[0] == 1 and s.spent[0] == set()
    assert [a.card for a in s.legal_actions()] == ["tannery"]
    s.apply_action(s.legal_actions()[0])  # a Build is two decisions: the Tannery, then its payment (the castle)
    assert s.chosen_building == "tannery" and [a.payment[0].source for a in s.legal_actions()] == ["castle"]
    s.apply_action(s.legal_actions()[0])
    assert s.villages[0] == ["tannery"] and s.gold[0] == 0 and s.spent[0] == {"castle"}


def test_landmarks_lead_build_paid_by_the_castle_grounds_gold():
    """Architects: Build, note: P2's gold on P1's Castle Grounds becomes P1's at P1's lead;
    with P1's castle free, that gold pays the Tannery: Build may be led."""
    s = _leader(grounds=[[1], []])
    assert s.why_not(Lead("build")) is None
    s.apply_action(Lead("build"))
    assert s.gold[0] == 1 and s.grounds[0] == []


def test_landmarks_lead_build_refused_when_nothing_comes_back():
    s = _leader()
    why = s.why_not(Lead("build"))
    assert why.text == ("P1 cannot lead build: no building in hand can be paid, even with the gold that comes back at "
                        "this lead")
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply_action(Lead("build"))
    assert s.to_json() == before
    assert [a.action for a in s.legal_actions()] == ["harvest", "develop", "recruit", "trade"]


# ============================================================================ Estate and Market


def test_estate_take_after_the_season_end_brings_the_workers_back():
    """Estate rules, "Resource income" and RULINGS E15: at the season end the Factory workers go
    back; the first take of the next season is judged with them back."""
    s = estate_position(2, workers={0: {"supply": 0, "factory": 4}})
    why = s.why_not(TakeMaterial("wood", 1))
    assert why is not None and "worker" in why.text
    s.apply_action(Pass())  # P1
    s.apply_action(Pass())  # P2: the season ends, the workers come back
    assert s.season == 2 and s.current_player() == 0
    assert s.workers[0] == {"supply": 4, "factory": 0, "inn": 0}
    assert s.why_not(TakeMaterial("wood", 1)) is None


# ============================================================================ Haunted Lands


def test_haunted_contact_after_rest_restores_the_tokens():
    """Rulebook "Game Flow", round step 4 (Rest): the action tokens are restored before the next
    round's turns, so a contact refused for want of tokens is legal at the next turn."""
    s = scenario(players=2)
    set_tokens(s, 0, "contact", active=0)
    put_ghost(s, (0, 0))
    assert s.why_not(Contact()).text == "contact costs 1 contact token in season 1 but P1 has 0 active"
    end_round(s)
    while s.current_player() != 0:
        s.apply_action(s.legal_actions()[-1])
    assert s.why_not(Contact()) is None
