"""Every configuration option that selects a reading of the rules is played both ways: its
reading and the default, on a position where they differ, with the exact difference.

The inventory test lists the options from the configuration classes (Haunted Lands'
``GameConfig``, the estate's ``EstateConfig``, Landmarks' ``new_game`` options and its
modules) and fails when one has no both-ways test here (docs/RULINGS.md names the rulings).
"""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

from haunted_kit import landmarks as lm
from haunted_kit.estate import Join, Pass, PlaceTile, Trade, VisitMarket
from haunted_kit.estate.scenario import position as estate_position
from haunted_kit.estate.state import EstateConfig
from haunted_kit.haunted.actions import EndTurn, Extract
from haunted_kit.haunted.flow import GhostPlacement
from haunted_kit.haunted.scenario import deplete, end_round, place, put_building, put_ghost, scenario
from haunted_kit.haunted.state import GameConfig
from haunted_kit.landmarks import engine as landmarks_engine
from haunted_kit.landmarks.box import default_box as landmarks_box
from haunted_kit.protocol import ChanceError

# ============================================================================ the inventory

#: configuration fields that do not select a reading (size, mode, seed, box, bookkeeping)
NOT_READINGS = {
    "haunted": {"players", "mode", "seed", "box", "n_resources"},
    "estate": {"players", "seed", "box", "auto_chance"},
    "landmarks": {"players", "seed", "rounds", "box", "auto_chance", "log"},
}

#: (game, option) -> the test below that plays it both ways
BOTH_WAYS = {
    ("haunted", "limited_supplies"): "test_haunted_limited_supplies",
    ("haunted", "terrain_die"): "test_haunted_terrain_die_with_lakes",
    ("haunted", "extra_ghost_cards"): "test_haunted_extra_ghost_card_1_in_builder_mode",
    ("estate", "connection"): "test_estate_connection_line",
    ("estate", "marble_field"): "test_estate_marble_field_single",
    ("estate", "improvement"): "test_estate_improvement_adjacent_once_per_land",
    ("estate", "third_marked"): "test_estate_third_marked",
    ("landmarks", "modules.landmarks"): "test_landmarks_module_landmarks",
    ("landmarks", "modules.architects"): "test_landmarks_module_architects",
    ("landmarks", "modules.castle_grounds"): "test_landmarks_module_castle_grounds",
}


def reading_options() -> set[tuple[str, str]]:
    """Every (game, option) of the configuration classes that selects a reading."""
    out = {("haunted", f.name) for f in fields(GameConfig)} | {("estate", f.name) for f in fields(EstateConfig)}
    for name in inspect.signature(landmarks_engine.new_game).parameters:
        if name == "modules":
            out |= {("landmarks", f"modules.{m}") for m in landmarks_box().modules}
        else:
            out.add(("landmarks", name))
    return {(g, o) for g, o in out if o not in NOT_READINGS[g]}


def test_every_reading_option_is_tested_both_ways():
    missing = sorted(reading_options() - set(BOTH_WAYS))
    assert missing == [], f"options that select a reading with no both-ways test: {missing}"
    assert all(callable(globals().get(t)) for t in BOTH_WAYS.values())
    assert set(BOTH_WAYS) <= reading_options(), "a both-ways test names an option that no longer exists"


# ============================================================================ Haunted Lands

DEPLETED = [(3, 1), (3, 0), (1, 1), (1, 2), (2, 2), (3, -2), (4, -3), (3, -3), (2, -2), (2, -1), (3, -1), (1, -3)]


@pytest.mark.parametrize("limited", [True, False])
def test_haunted_limited_supplies(limited):
    """Ruling 1: with the 12 depletion tokens all on the field, extraction is refused (no token
    to mark the cell); with unlimited supplies it is legal."""
    s = scenario(players=2, limited_supplies=limited)
    deplete(s, *DEPLETED)
    place(s, 0, (2, 0))
    why = s.why_not(Extract((2, 0), "wood"))
    if limited:
        assert why.text == "the supply has no depletion token left to mark the cell"
    else:
        assert why is None


@pytest.mark.parametrize("die", ["standard", "with_lakes"])
def test_haunted_terrain_die_with_lakes(die):
    """Ruling 15: only the die with lake faces can roll a lake; a lake sends the 4 ghosts to Kalena."""
    s = scenario(players=2, terrain_die=die)
    s.force_chance("lake")
    if die == "standard":
        with pytest.raises(ChanceError):
            while s.phase == "turns" and not s.pending:
                s.apply_action(EndTurn())
    else:
        while s.phase == "turns" and not s.pending:
            s.apply_action(EndTurn())
        assert s.pending == [GhostPlacement(1, "Kalena", 4)]  # the last player places 4 ghosts on Kalena


@pytest.mark.parametrize("extra,food", [((), 1), ((1,), 0)])
def test_haunted_extra_ghost_card_1_in_builder_mode(extra, food):
    """Ruling 35: Builder replaces ghost card 1; ``extra_ghost_cards=(1,)`` adds it back, and a
    mill next to a ghost then produces nothing (ghost card 1)."""
    s = scenario(players=2, mode="builder", extra_ghost_cards=extra)
    put_building(s, (2, -1), "mill", 0)
    put_ghost(s, (2, 0))
    end_round(s, "plain", [(-3, -1), (-3, 0), (-3, 2), (-3, 3)])
    assert s.to_dict()["players"][0]["resources"]["food"] == food


# ============================================================================ Estate and Market

DISPLAY = ["tax_land", "marble_quarry", "forest", "limestone_quarry"]


@pytest.mark.parametrize("connection", ["group", "line"])
def test_estate_connection_line(connection):
    """E6: a claw of three lands around one is a connected group but not a line."""
    s = estate_position(2, hand={0: {"gold": 3}}, lands={(0, 2): ("forest", [0]), (0, 1): ("forest", [0]),
                                                         (1, 0): ("forest", [0])}, display=DISPLAY, connection=connection)
    why = s.why_not(PlaceTile("tax_land", (-1, 1)))
    if connection == "group":
        assert why is None
    else:
        assert "continuous line" in why.text and "ruling E6" in why.text


@pytest.mark.parametrize("reading,marble", [("shared", 1), ("single", 2)])
def test_estate_marble_field_single(reading, marble):
    """E8: the placer of a marble field takes one raise (shared) or both (single)."""
    s = estate_position(2, hand={0: {"gold": 3}}, display=["marble_field", "forest", "forest", "tax_land"],
                        marble_field=reading)
    s.apply_action(PlaceTile("marble_field", (0, 2)))
    assert s.income[0]["marble"] == marble


@pytest.mark.parametrize("reading", ["join", "adjacent"])
def test_estate_improvement_adjacent_once_per_land(reading):
    """E7: under 'adjacent', P2's new forest touching P1's tax land raises P2's gold income by 1,
    once per land: a second tile of P2 touching the same tax land raises nothing more.
    Under 'join' (the default) touching gives nothing; only joining does."""
    s = estate_position(2, turn=1, hand={1: {"gold": 6}}, lands={(0, 2): ("tax_land", [0])},
                        display=["tax_land", "forest", "forest", "tax_land"], improvement=reading)
    start = dict(s.income[1])
    assert start == {"gold": 3, "limestone": 2, "wood": 2, "marble": 0}
    s.apply_action(PlaceTile("forest", (-1, 2)))  # touches P1's tax land at (0, 2)
    gold = 4 if reading == "adjacent" else 3
    assert s.income[1] == {"gold": gold, "limestone": 2, "wood": 3, "marble": 0}
    s.apply_action(Pass())  # P1
    s.apply_action(PlaceTile("forest", (0, 1)))  # touches the same tax land again, and P2's own forest
    assert s.income[1] == {"gold": gold, "limestone": 2, "wood": 4, "marble": 0}  # once per land
    raised = [e for e in s.log if e.kind == "income_raised" and "'adjacent' reading" in e.text]
    assert len(raised) == (1 if reading == "adjacent" else 0)


def test_estate_improvement_join_raises_the_joiner():
    """E7, the default reading's own case: joining P1's tax land raises P2's gold income."""
    s = estate_position(2, turn=1, hand={1: {"gold": 6}}, lands={(0, 2): ("tax_land", [0])})
    s.apply_action(Join((0, 2)))
    assert s.income[1]["gold"] == 4


@pytest.mark.parametrize("third,gold", [(None, 2), ("exchange_resources", 0)])
def test_estate_third_marked(third, gold):
    """E11: a marked action costs its marked price (2 gold for the season's first use); the
    exchange row is free unless it is named the third marked action."""
    s = estate_position(2, hand={0: {"gold": 2, "wood": 2}}, third_marked=third)
    s.apply_action(VisitMarket())
    s.apply_action(Trade("exchange_resources", (("wood", 2),), (("marble", 1),)))
    assert s.hand[0] == {"gold": gold, "wood": 0, "limestone": 0, "marble": 1, "glass": 0}


# ============================================================================ Landmarks & Architects


@pytest.mark.parametrize("on", [True, False])
def test_landmarks_module_landmarks(on):
    """Landmarks: Take One Action: a follower may acquire a landmark instead of following,
    only with the Landmarks module in play."""
    s = lm.position(hands=[["tannery"], ["granary"]], villages=[[]] * 2, gold=[0, 0], lead="harvest",
                    modules=None if on else {"landmarks": False})
    if on:
        assert s.legal_actions() == [lm.Follow(), lm.Acquire("silo", ("granary",)), lm.Decline()]
    else:
        assert s.legal_actions() == [lm.Follow(), lm.Decline()]
        assert s.why_not(lm.Acquire("silo", ("granary",))).text == "the Landmarks module is not in play in this game"


@pytest.mark.parametrize("on", [True, False])
def test_landmarks_module_architects(on):
    """Architects: Game Setup: the architects are dealt (a chance node) before the first lead,
    only with the Architects module in play."""
    s = lm.new_game(players=3, seed=1, auto_chance=False, modules=None if on else {"architects": False})
    assert (s.phase, s.is_chance_node(), s.current_player()) == (("deal", True, None) if on else ("lead", False, 0))


@pytest.mark.parametrize("on", [True, False])
def test_landmarks_module_castle_grounds(on):
    """Architects: Castle Grounds: P2 (castle spent, 1 gold) can pay the Tannery's food only with
    a Castle Grounds (1 gold and the Granary discarded), so follows the build only with the module."""
    s = lm.position(hands=[["tannery"], ["tannery", "granary"]], villages=[[]] * 2, gold=[0, 1],
                    spent=[[], ["castle"]], lead="build", modules=None if on else {"castle_grounds": False})
    chooses = [a for a in s.legal_actions() if isinstance(a, lm.ChooseBuilding)]
    if on:  # a Build is two decisions: the Tannery, then its payments
        assert chooses == [lm.ChooseBuilding("tannery")]
        s.apply_action(chooses[0])
        builds = [(a.card, [(u.source, u.owner, u.discard) for u in a.payment]) for a in s.legal_actions()]
        assert builds == [("tannery", [("grounds", 1, "granary")]), ("tannery", [("grounds", 0, "granary")])]
    else:
        assert chooses == []
        # the refusal names the switched-off module that would have paid (issue 29: in the player's terms)
        assert s.why_not(lm.ChooseBuilding("tannery")).text == (
            "P2 cannot pay for the Tannery: the Tannery needs 1 food but only 0 free sources can give it (none); P2's "
            "castle already holds gold until P2's next lead; a Castle Grounds could give what is missing, but the "
            "Castle Grounds module is not in play in this game (Architects: Concepts, Castle Grounds Cards)")
        # without a card to discard, a Castle Grounds could not pay either: the module is not blamed
        t = lm.position(hands=[["tannery"], ["tannery"]], villages=[[]] * 2, gold=[0, 1],
                        spent=[[], ["castle"]], lead="build", modules={"castle_grounds": False})
        assert "Castle Grounds" not in t.why_not(lm.ChooseBuilding("tannery")).text
