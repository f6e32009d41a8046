"""What a newcomer met in the estate's first season (notes/s33/nc-estate-log.md), said plainly:
the Factory's limit is the taker's own, the join fee says whose markers count (kit ruling E16),
a removed tile says what it is for (E13), a Market visit is taught when it begins (E10), and the
play view names the choices made on the board among "Your choices" and what a pass leaves."""

from __future__ import annotations

from haunted_kit.estate import Join, Pass, PlaceTile, TakeMaterial, VisitMarket
from haunted_kit.estate.scenario import position
from haunted_kit.estate.widgets import EstatePlayView
from haunted_kit.games import get_game
from haunted_kit.render.style import name_cells
from haunted_kit.tutorial import Tutorial, teach_points


def test_a_factory_take_says_the_limit_is_the_takers_own():
    s = position(2)
    s.apply_action(TakeMaterial("wood", 3))  # income 2 + 1 for the season's first wood taker (Resource income)
    assert s.log[-1].text == ("P1 takes 3 wood at the Factory (first to take it this season: one extra unit allowed); "
                              "that makes 3 of the 3 wood P1 may take this season.")


def test_a_gold_take_says_whose_income_bounds_it():
    s = position(2)
    s.apply_action(get_game("estate").new_game(players=2, seed=0).legal_actions()[6])  # take 1 gold
    assert s.log[-1].text == "P1 advances the gold marker: +1 gold (1 of P1's gold income of 3 this season)."


def test_the_join_fee_says_whose_markers_count():
    # P2's tax land at 0,2 holds the markers of P2 and P3: P1 pays P2 2 gold (1 per marker, 3 at most: E16)
    s = position(3, hand={0: {"gold": 5}}, lands={(0, 2): ("tax_land", [1, 2])})
    s.apply_action(Join((0, 2)))
    paid = next(e for e in s.log if e.kind == "fee_paid")
    assert name_cells(paid.text) == ("P1 pays P2 2 gold to join the land at slot 0,2: 2 markers already on it, 1 gold each, 3 at most "
                         "(kit ruling E16).")
    assert s.hand[0]["gold"] == 3 and s.hand[1]["gold"] == 2
    for key in ("kind:Join", "event:joined"):
        said = teach_points("estate")[key].say(s)
        assert ("The joining player pays the tile's owner 1 gold for every marker already on the tile, whoever's it is "
                "(the owner's own included), 3 gold at most (kit ruling E16).") in said
        assert "their markers" not in said


def test_removing_a_tile_says_what_the_token_and_the_removal_are_for():
    said = teach_points("estate")["kind:RemoveTile"].say(position(2))
    # E13: each token takes 1 gold off its holder's marked prices, never below 1; the removed tile is out of the game
    assert ("The token makes each marked Market price 1 gold cheaper for you for the rest of the game (never below 1; "
            "sale prices stay the same).") in said
    assert "the rules' price for the token: the tile is gone, so no one can buy it" in said
    assert "least like another player to get" in said
    assert teach_points("estate")["kind:RemoveTile"].section == "Expand the lands"


def test_a_market_visit_is_taught_as_one_turn_when_it_begins_and_never_called_a_phase():
    visit = ("A Market visit is one turn: the season's first visitor takes up to 3 different Market actions, later "
             "visitors 2 (kit ruling E10).")
    met = set()
    for seed in (1, 2, 3):
        t = Tutorial("estate", seed=seed, progress=False)
        while t.current is not None:
            t.next()
        t.attempt(VisitMarket())  # the learner walks in: the first step shown is about the visit's decisions
        assert t.current.key in ("kind:Trade", "kind:EndVisit") and visit in t.current.text, t.current
        # a Market action's step opens with the visit; leaving's with what leaving does (then the visit)
        lead = visit if t.current.key == "kind:Trade" else "Leave the Market when its other actions are of no use"
        assert t.current.text.startswith(lead), t.current
        met.add(t.current.key)
        assert all(e.phase == "turns" for e in t.state.log if e.kind == "market_visit")
        while not t.state.is_terminal() and t.state.season == 1:
            t.attempt(t.state.legal_actions()[-1])
        assert "phase:market" not in t.steps and not any("phase began" in st.text for st in t.steps.values())
    assert met


def _only_pass_and_tiles():
    """P1 has used every worker and the season's gold and visited the Market: the display's forest and
    tax land on the 3 slots over the shared lower area (6 placements), or a pass."""
    return position(2, hand={0: {"gold": 3}}, taken={0: {"gold": 3}}, workers={0: {"supply": 0, "factory": 4}},
                    visited={0: True}, display=["forest", "tax_land", "forest", "forest"])


def test_the_board_choices_are_named_among_your_choices_and_listed_on_demand():
    v = EstatePlayView(_only_pass_and_tiles(), bots=[1], auto_bots=False)
    assert len(v.legal) == 7 and sum(isinstance(a, PlaceTile) for a in v.legal) == 6
    assert v.board_row in v.controls.children and v.board_row.layout.display == ""
    assert "Place a land tile: click a lit slot on the board (6 choices)." in v.slot_note.value
    assert [b.description for b in v.choices.children] == ["pass for the rest of the season (6 other choices still open)"]
    assert v.b_board.description == "List them as buttons (6)"
    v.b_board.click()
    assert len(v.choices.children) == 7 and v.choices.children[1].description == \
        "place a forest (+1 wood income) on land slot -2,2 for 3 gold"
    v.choices.children[6].click()   # the tax land on 0,2
    assert v.state.lands[(0, 2)]["tile"] == "tax_land" and v.state.hand[0]["gold"] == 0


def test_the_keyboard_reaches_every_board_choice_and_a_lone_pass_has_no_count():
    v = EstatePlayView(_only_pass_and_tiles(), bots=[1], auto_bots=False)
    seen = {v.legal[v.cursor]}
    for _ in range(len(v.legal)):
        v.press("ArrowDown")
        seen.add(v.legal[v.cursor])
    assert seen == set(v.state.legal_actions())
    alone = position(2, taken={0: {"gold": 3}}, workers={0: {"supply": 0, "factory": 4}}, visited={0: True})
    w = EstatePlayView(alone, bots=[1], auto_bots=False)
    assert w.legal == [Pass()] and [b.description for b in w.choices.children] == ["pass for the rest of the season"]
    assert w.board_row.layout.display == "none"
