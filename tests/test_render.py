"""Shared geometry, static SVG and HTML panels (haunted_kit.render)."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest

import haunted_kit as hk
from haunted_kit import hexgrid
from haunted_kit.render import BoardSVG, RenderError
from haunted_kit.render.svg import readable_width
from haunted_kit.haunted.draw import board_geometry, board_svg, render_svg
from haunted_kit.haunted.draw import html as H
from haunted_kit.haunted.sim import play_game
from haunted_kit.render import style as S
from haunted_kit.haunted.draw.scene import pieces_layer, terrain_layer

SNAPSHOTS = Path(__file__).parent / "snapshots"
LAYOUT = ["R01", "R02", "R03", "R04", "R05", "R06"]


def fixed_state():
    """A hand-set position on a forced setup: independent of dice and bots."""
    from haunted_kit.haunted import scenario as sc

    s = sc.scenario(players=4, seed=1, layout=LAYOUT, skills=[1, 4, 7, 10], market=1, order=[0, 1, 2, 3],
                    ghosts=[(3, 0), (-2, -1), (1, -1)])
    sc.put_building(s, (3, 1), "mill", 1)  # P2's mill
    sc.put_building(s, (1, 2), "mine", 2)  # P3's mine
    sc.deplete(s, (2, 0))
    sc.place(s, 2, (3, 1))
    sc.place(s, 3, (2, 2))  # P1 and P2 share the city
    for p, v in ((1, 5), (2, 5), (0, 3)):
        sc.set_valor(s, p, v)
    return s


# ----------------------------------------------------------------------------- geometry
@pytest.mark.parametrize("size", [12, 30, 41.5])
def test_every_cell_centre_maps_back_to_its_cell(size):
    g = board_geometry(hk.default_box(), size)
    assert len(g.cells) == 49
    for i, c in enumerate(g.cells):
        x, y = g.centre(c)
        assert g.cell_at(x, y) == c
        assert g.index_at(x, y) == i
        assert hexgrid.pixel_to_axial(x, y, size, g.origin) == c


def test_points_near_edges_map_to_the_nearest_cell():
    g = board_geometry(hk.default_box(), 30)
    for i, c in enumerate(g.cells):
        cx, cy = g.centres[i]
        pts = g.polygons[i]
        for k in range(6):
            (x1, y1), (x2, y2) = pts[k], pts[(k + 1) % 6]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            for t in (0.02, 0.1, 0.5, 0.9):  # from just inside the edge to near the centre
                x, y = mx + (cx - mx) * t, my + (cy - my) * t
                assert g.cell_at(x, y) == c, (c, k, t)
            # just across the edge: the neighbour on that side, or nothing off the field
            dq, dr = hexgrid.DIRECTIONS[hexgrid.edge_direction_index(k)]
            other = (c[0] + dq, c[1] + dr)
            x, y = mx - (cx - mx) * 0.02, my - (cy - my) * 0.02
            assert g.cell_at(x, y) == (other if other in g.index else None)
            # near a corner: whichever cell it maps to has the nearest centre
            x, y = x1 + (cx - x1) * 0.03, y1 + (cy - y1) * 0.03
            hit = g.axial_at(x, y)
            best = min(math.dist((x, y), hexgrid.axial_to_pixel(a, 30, g.origin))
                       for a in [c] + hexgrid.neighbours(c))
            assert math.isclose(math.dist((x, y), hexgrid.axial_to_pixel(hit, 30, g.origin)), best, abs_tol=1e-9)


def test_clicks_off_the_field_find_no_cell():
    g = board_geometry(hk.default_box(), 30)
    for x, y in [(1, 1), (g.width - 1, 1), (1, g.height - 1), (-50, 20), (g.width + 30, g.height / 2)]:
        assert g.cell_at(x, y) is None


def test_extent_holds_every_cell_and_tile_outlines_are_tile_borders():
    box = hk.default_box()
    g = board_geometry(box, 30)
    xs = [x for poly in g.polygons for x, _ in poly]
    ys = [y for poly in g.polygons for _, y in poly]
    assert min(xs) >= 0 and min(ys) >= 0 and max(xs) <= g.width and max(ys) <= g.height
    # 7 tiles of 18 outer sides each; shared sides count once: 6 x 3 with Kalena, 6 pairs of regions x 3
    assert len(g.tile_edges) == 7 * 18 - 18 - 18
    for (a, b) in g.tile_edges:  # every outline side is a side of some cell polygon
        assert any(a in poly and b in poly for poly in g.polygons)
    s = hk.new_game(seed=1)
    assert g.cells == s.field.cells  # same cell order as the engine's field
    assert board_geometry(s, 30) is g  # cached and shared


# ----------------------------------------------------------------------------- SVG
def test_svg_is_deterministic_and_well_formed():
    import xml.etree.ElementTree as ET

    s = fixed_state()
    a = render_svg(s, highlight={(1, 0): 1, (0, 1): 1}, path=[(0, 0), (1, 0), (2, 0)])
    b = render_svg(s.copy(), highlight={(0, 1): 1, (1, 0): 1}, path=[(0, 0), (1, 0), (2, 0)])
    assert a == b
    assert render_svg(hk.State.from_json(s.to_json())) == render_svg(s)
    root = ET.fromstring(a)
    assert root.tag.endswith("svg")
    assert not re.search(r"0x[0-9a-f]{6,}", a)  # no memory addresses
    for num in re.findall(r' (?:x|y|cx|cy|r)="([^"]+)"', a):
        assert re.fullmatch(r"-?\d+\.\d{2}", num), num
    assert a.count("<polygon") >= 49
    assert "<title>" in a and 'class="hk-terrain"' in a


def test_svg_snapshot_fixed_seed():
    text = render_svg(fixed_state(), highlight=[(1, 0), (0, 1)], path=[(0, 0), (1, 1), (2, 1)])
    snap = SNAPSHOTS / "board_fixed_seed1.svg"
    if os.environ.get("HK_UPDATE_SNAPSHOTS") == "1" or not snap.exists():
        if not snap.exists() and os.environ.get("HK_UPDATE_SNAPSHOTS") != "1":
            pytest.fail(f"snapshot {snap} missing; run with HK_UPDATE_SNAPSHOTS=1 to write it")
        snap.write_text(text, encoding="utf-8")
    assert text == snap.read_text(encoding="utf-8"), "SVG changed; check it and rerun with HK_UPDATE_SNAPSHOTS=1"


def test_svg_shows_pieces_with_marks_and_labels():
    s = fixed_state()
    text = render_svg(s)
    assert ">Ml2<" in text and ">Mn3<" in text  # building mark + owner number
    assert text.count(">G<") == 3 + 1  # three ghosts and the legend's
    for p in range(4):
        assert S.player_colour(p) in text
    for letter in "CSPFML":
        assert f">{letter}<" in text
    plain = render_svg(s, show_labels=False, legend_rows=False)
    assert ">C<" not in plain and "valor" not in plain


def test_several_sensors_on_one_cell_are_side_by_side():
    s = fixed_state()
    g = board_geometry(s, 30)
    prims = pieces_layer(s, g)
    xs = sorted(p.x for p in prims if type(p).__name__ == "Circle" and p.fill in (S.player_colour(0), S.player_colour(1)))
    assert len(xs) == 2 and xs[1] - xs[0] > 2 * 0.15 * 30


def test_board_svg_displays_inline():
    pic = board_svg(fixed_state(), size=20)
    assert isinstance(pic, BoardSVG)
    assert pic.data.startswith("<svg")
    html = pic._repr_html_()  # the SVG as an image, never shown under 12 px text: 20 px hexes are drawn larger
    width, readable = readable_width(pic.data)
    assert html.count("<img ") == 1 and 'alt="Haunted Lands: ' in html
    assert readable > width and f"min-width:{readable:.0f}px" in html and f"width:{readable:.0f}px" in html


def test_unknown_terrain_is_a_clear_error(tmp_path):
    import shutil

    data_copy = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data", data_copy)
    (data_copy / "terrain.toml").write_text((data_copy / "terrain.toml").read_text() + """
[swamp]
letter = "W"
explore_cost = 2
extract = "water"
water_near_lake = false
build = ""
noria_near_lake = false
sell = false
train_and_learn = false
explorable = true
holds_ghosts = true
provenance = "kit default"
""")
    tiles = data_copy / "tiles.csv"
    tiles.write_text(tiles.read_text().replace("R01,L,", "R01,W,", 1))
    box = hk.load_box(data_copy)
    s = hk.new_game(hk.GameConfig(seed=1, box=box), layout=LAYOUT)
    with pytest.raises(RenderError, match=r"cell \(2, 1\).*terrain 'swamp'.*register_terrain"):
        render_svg(s)
    with pytest.raises(RenderError, match="swamp"):
        terrain_layer(s.field, board_geometry(s, 30))


def test_state_without_field_is_a_clear_error():
    s = hk.new_game(seed=1, auto_chance=False)
    with pytest.raises(RenderError, match="no field yet"):
        render_svg(s)


def test_readme_picture_command(tmp_path):
    from haunted_kit.haunted.draw.svg import main

    out = tmp_path / "b.svg"
    assert main(["--seed", "1", "--out", str(out)]) == 0
    assert out.read_text().startswith("<svg")


# ----------------------------------------------------------------------------- HTML panels
def test_player_board_shows_the_numbers_of_a_known_state():
    s = fixed_state()
    s.set_resource(1, "food", 2)  # P2: 2 food, 3 wood
    s.set_resource(1, "wood", 3)
    s.pec[1] = 7
    s.set_tokens(1, "contact", owned=3, active=1)
    s.quests = [(), (1, 5), (2,), ()]
    own = H.player_board_html(s, 1, viewer=1)
    assert "food <b>2</b>/3" in own and "wood <b>3</b>/3" in own
    assert "pecunias <b>7</b>" in own
    assert "1/3 active; next 4" in own  # contact slot 4 costs 4 (box default)
    assert "4/4 active; next 4" in own  # exploration slot 5 costs 4
    assert "quests: 1: " in own and "5: " in own
    other = H.player_board_html(s, 1, viewer=2)
    assert "2 quest cards face down" in other and "quests: 1" not in other
    assert "1 quest card face down" in H.player_board_html(s, 2, viewer=0)


def test_game_board_shows_valor_stacks_skills_market_and_cards():
    s = fixed_state()
    assert s.skills[0] == 1
    s.set_marker_slot(1, 0, 2)  # P3 took the first marker slot of skill 1
    s.valor[3] = 31  # +30 side, mark 1
    text = H.game_board_html(s)
    assert "skill 1" in text and "skill 10" in text and "market card 1" in text and "ghost card" in text
    assert "P3&#x27;s marker" in text or "P3's marker" in text
    track = H.valor_track_html(s)
    # mark 5 holds P2 and P3: top of the stack first (highest arrival)
    mark5 = track.split('title="5 valor"')[1].split("</div></div>")[0]
    order = [int(m) for m in re.findall(r">(\d)</span>", mark5)]
    assert sorted(order) == [2, 3] and order == [p + 1 for p in hk.haunted.rules.stack_order(s) if s.valor[p] == 5]
    assert "<sup>+30</sup>" in track.split('title="1 valor"')[1].split('title="2 valor"')[0]


def test_event_log_redacts_other_players_quests():
    s = fixed_state()
    from haunted_kit.events import Event

    s.log.append(Event(len(s.log), 1, 1, "season_end", "quest_chosen", 1, "P2 takes quest card 5 face down.",
                       None, {"quest": 5}, True))
    assert "quest card 5" in H.event_log_html(s, viewer=1)
    assert "quest card 5" not in H.event_log_html(s, viewer=0)


def test_quest_lists_never_read_full_stop_semicolon():
    s = fixed_state()
    s.quests = [(), (1, 5), (2,), ()]
    own = H.player_board_html(s, 1, viewer=1)
    assert ".;" not in own and ".;" not in H.game_board_html(s)
    assert H.listing(["a.", "b.", "c."]) == "a; b; c."


def test_end_game_panels_reveal_quests_or_say_they_were_never_scored():
    won = play_game(players=3, seed=1, agents=["greedy"], log=True).state
    assert won.is_terminal() and not won.lost
    p = next(q for q in range(3) if won.quests[q])
    other = H.player_board_html(won, p, viewer=(p + 1) % 3)
    assert "face down" not in other and "quests revealed: " in other
    lost = play_game(players=4, seed=30, agents=["greedy"], log=True).state   # notebook 02's fallen game
    assert lost.lost
    p = next(q for q in range(4) if lost.quests[q])
    k = len(lost.quests[p])
    text = H.player_board_html(lost, p, viewer=(p + 1) % 4)
    assert f"{k} quest card{'s' if k != 1 else ''}, never scored (Kalena fell)" in text and "face down" not in text


def test_setup_events_are_labelled_setup_not_season_zero():
    s = hk.new_game(players=2, seed=1)
    first = H.event_html(s.log[0])
    assert "#0 setup" in first and "S0" not in first
    assert "to move: P" in repr(s) and "to move: 0" not in repr(s) and "to move: 1" not in repr(s)
    waiting = hk.new_game(players=2, seed=1, auto_chance=False)
    assert repr(waiting).startswith("<State setup waiting for the ")
