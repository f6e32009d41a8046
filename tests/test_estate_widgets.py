"""The estate widgets: the land board drawn with the kit's renderer, clicks through the
canvas message path, the Market panel's prices, a game against bots, undo."""

from __future__ import annotations

import math
import re
import random

import pytest

from haunted_kit.estate import new_game
from haunted_kit.estate.draw import board_primitives, land_geometry
from haunted_kit.render import style as S
from haunted_kit.render.primitives import Circle, Text
from haunted_kit.render.svg import boxes_overlap, text_box

from haunted_kit.estate import PlaceTile
from haunted_kit.estate.draw import board_svg
from haunted_kit.estate.scenario import position
from haunted_kit.estate.state import position_of
from haunted_kit.estate.draw import board_key as estate_board_key, legend_text
from haunted_kit.estate.widgets import EstatePlayView, market_html
from haunted_kit.widgets import capture_errors


def test_board_svg_draws_every_slot_and_marker():
    s = position(2, lands={(0, 2): ("forest", [0, 1])})
    svg = str(board_svg(s))
    assert svg.count("<polygon") == 19
    assert "forest of P1 at slot 0,2" in svg and svg.count("<circle") == 4 + 2  # 4 white dots, 2 markers
    assert board_svg(s).title == "Estate land board, season 1"


def test_click_places_a_tile_and_illegal_clicks_explain():
    s = position(2, hand={0: {"gold": 5}}, display=["forest", "forest", "forest", "forest"])
    with capture_errors() as caught:
        v = EstatePlayView(s, bots=[1], auto_bots=False)
        assert set(v.board.highlight) == {(-2, 2), (-1, 2), (0, 2)}
        v.board.click_slot((0, 0))
        assert "first tile must lie over the shared lower area" in v.message and v.last_refusal.section == "Expand the lands"
        v.board.click_slot((0, 2))  # one tile kind in the display: applied at once
        assert v.state.lands[(0, 2)]["owner"] == 0 and v.state.hand[0]["gold"] == 2
    assert not caught


def test_several_tile_kinds_are_offered_as_buttons():
    s = position(2, hand={0: {"gold": 5}}, display=["forest", "tax_land", "forest", "forest"])
    v = EstatePlayView(s, bots=[1], auto_bots=False)
    cands = v.click_slot((0, 2))
    assert cands == [PlaceTile("forest", (0, 2)), PlaceTile("tax_land", (0, 2))]
    # each tile named with what it gives and costs (the box: +1 income each, 3 gold a tile)
    assert [b.description for b in v.choices.children] == ["place a forest (+1 wood income) on land slot 0,2 for 3 gold",
                                                           "place a tax land (+1 gold income) on land slot 0,2 for 3 gold"]
    # the slot chosen is circled, every legal slot still lit, and the line under the buttons asks the
    # decision's second half (a newcomer saw the old "click a lit slot" line and no mark)
    assert v.board.marked == ((0, 2),) and set(v.board.highlight) == {tuple(a.slot) for a in v.board_choices()}
    assert "Which tile for slot 0,2 (circled)? Choose it above, or click another lit slot." in v.slot_note.value
    assert "click a lit slot on the board" not in v.slot_note.value
    v.choices.children[1].click()
    assert v.state.lands[(0, 2)]["tile"] == "tax_land"
    assert v.board.marked == () and "Which tile" not in v.slot_note.value   # the decision made: nothing circled


def _unstyled(html: str) -> str:
    """The panel's HTML without its cells' inline styles (what is written, not how it looks)."""
    return re.sub(r' style="[^"]*"', "", html)


def test_market_panel_shows_this_seasons_prices():
    s = position(2, uses={"hire_two": 1}, tokens={1: 1})
    html = _unstyled(market_html(s, 0))
    assert "Hire 2 workers (marked)</td><td>3 gold</td><td>1</td>" in html
    assert "Hire 1 worker and gain 1 wood or 1 limestone (marked)</td><td>2 gold</td>" in html
    assert "Hire 2 workers (marked)</td><td>2 gold</td>" in _unstyled(market_html(s, 1))  # a condition token: 1 less
    assert "takes 3 different actions" in html
    # an unmarked row costs no gold: a sale says what it pays (the box's fixed price), a swap says so
    assert "<th>you pay now</th>" in html and "<td>-</td>" not in html
    assert "Sell 1 marble</td><td>none; pays you 3 gold</td>" in html
    assert "Sell 1 wood or limestone</td><td>none; pays you 1 gold</td>" in html
    assert "Exchange 1 wood for 1 limestone, or the reverse</td><td>none (a swap)</td>" in html
    assert "A marked row costs gold: 2 the first time in a season, 3 after, 1 less per Market-condition token." in html


def test_the_legend_and_key_say_what_each_code_is_and_when_it_matters():
    s = position(2)
    legend = legend_text(s)
    assert "Mq = marble quarry (marble income, laid only by a player with 2 land tiles)" in legend
    assert "Mf = marble field (marble income, for its first 2 markers only)" in legend
    assert "White dot: an outer slot; laying a tile there earns a Market-condition token, 1 gold off each marked" \
        in legend and legend.endswith("(Rule: Expand the lands.)")
    key = {e.codes[0]: e for e in estate_board_key(s)}
    assert key["Mf"].what == "marble field land tile: a marker on it earns that player marble every season"
    assert key["Mf"].value.startswith("raises 1 marble income per marker (only the first 2 markers on it count)")
    assert "you may lay one only once you have 2 land tiles" in key["Mq"].value
    assert "takes a Market-condition token and removes another tile of the display" in key["white dot"].what
    assert key["white dot"].value.startswith("each token takes 1 gold off every marked Market price")


def test_a_game_against_bots_to_the_end_and_undo():
    with capture_errors() as caught:
        v = EstatePlayView(players=3, seed=4, bots=[1, 2])
        start = position_of(v.state)
        first = v.state.legal_actions()[0]
        v.attempt(first)
        assert v.state.current_player() == 0 or v.state.is_terminal()
        assert v.message.startswith(f"P1: {first.describe()}.") and "Then P2 (bot): " in v.message
        assert "; P3 (bot): " in v.message
        assert v.undo() and position_of(v.state) == start
        while not v.state.is_terminal():
            v.attempt(v.state.legal_actions()[-1])  # pass, and the bots play on
        assert "The game is over" in v.status.value and "kit measure" in v.status.value
    assert not caught


def _inside_convex(point, polygon) -> bool:
    """Whether ``point`` lies inside (or on) the convex ``polygon`` (corners in order)."""
    signs = set()
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) <= 1


def _positions():
    for players, seed in ((2, 1), (3, 2), (4, 3), (4, 7)):
        s, rng = new_game(players, seed=seed), random.Random(seed)
        for _ in range(rng.randrange(20, 120)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        yield s
    # the widest names ("-1,-1"), an empty lower slot ("lower"), a tile with every player's marker
    yield position(4, lands={(0, 2): ("forest", [0, 1, 2, 3]), (-1, 2): ("marble_quarry", [1])})


@pytest.mark.parametrize("size", [34, 26])
def test_every_label_lies_inside_its_hex_clear_of_the_edges(size):
    """Issue 22: the hex edges ran through the slot names ("0,-2" at 8 px, drawn across the
    top corner). Every text (name, tile code, "lower", marker digit) is >= 9 px and its box
    (render.svg.text_box) lies inside the hex of its slot, at the default size and the exercises' 26."""
    checked = 0
    for s in _positions():
        geom = land_geometry(s.box, size)
        prims = board_primitives(s, geom)
        polygons = {slot: list(geom.polygon(slot)) for slot in s.box.slots}
        for t in (p for p in prims if isinstance(p, Text)):
            assert t.size >= 9, (t.text, t.size)
            slot = min(polygons, key=lambda c: math.dist(geom.centre(c), (t.x, t.y)))  # the slot it belongs to
            x0, y0, x1, y1 = text_box(t)
            for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
                assert _inside_convex(corner, polygons[slot]), (t.text, slot, size, corner)
            checked += 1
        names = [p for p in prims if isinstance(p, Text) and p.text in {S.cell_name(c) for c in s.box.slots}]
        assert len(names) == len(s.box.slots)
    assert checked > 140
    # the white dots of white-dotted outer lands overlap no text
    s = list(_positions())[-1]
    prims = board_primitives(s, land_geometry(s.box, size))
    dots = [p for p in prims if isinstance(p, Circle) and p.fill == "#ffffff"]
    assert len(dots) == len(s.box.white_dotted) > 0
    for d in dots:
        for t in (p for p in prims if isinstance(p, Text)):
            assert not boxes_overlap((d.x - d.r, d.y - d.r, d.x + d.r, d.y + d.r), text_box(t)), t.text


def test_the_season_and_pass_steps_cite_the_turn_ruling_not_resource_income():
    """The estate's turns and passing come from kit ruling E1, not the income section
    (a newcomer found "Resource income" cited for them)."""
    from haunted_kit.estate import rules as ER
    from haunted_kit.tutorial import teach_points

    points = teach_points("estate")
    assert points["phase:turns"].section == points["kind:Pass"].section == ER.TURNS
    assert points["event:season_ended"].section == ER.SEASON_END and "E15" in ER.SEASON_END
