"""Keyboard play and the live region of the field (haunted_kit.widgets.access)."""

from __future__ import annotations

import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.widgets import FieldWidget, PlayView
from haunted_kit.hexgrid import name_cells
from haunted_kit.widgets.access import ARROWS, cursor_step, keys_to


def test_arrows_move_towards_their_side_and_reach_every_cell():
    s = hk.new_game(players=2, seed=3)
    f = FieldWidget(s, size=30)
    cells = s.field.cells
    for c in cells:
        x0, y0 = f.geom.centre(c)
        for key, (dx, dy) in ARROWS.items():
            n = cursor_step(f.geom, cells, c, key)
            if n != c:
                x, y = f.geom.centre(n)
                assert (x - x0) * dx + (y - y0) * dy > 0, (c, key, n)
    # from the city, the arrows reach every cell of the field, and back
    for c in cells:
        assert c == (0, 0) or keys_to(f.geom, cells, (0, 0), c)
        assert c == (0, 0) or keys_to(f.geom, cells, c, (0, 0))


def test_enter_acts_like_a_click_and_the_live_region_says_cell_and_event():
    v = PlayView(players=3, mode="citizen", seed=1, bots=[1, 2])
    f = v.field
    assert f.keypad is not None and f.keypad.text.startswith("Last event:")
    f.press("Home")                                    # the cursor starts on the sensor of the player to move
    assert f.cursor == (0, 0) and f.keypad.text.startswith("Cursor on city cell 0,0 on Kalena; sensors of P1, P2, P3.")
    target = next(a.cell for a in v.state.legal_actions() if isinstance(a, A.PlaceGhost))
    for key in keys_to(f.geom, v.state.field.cells, f.cursor, target):
        f.press(key)
    assert f.cursor == target and f"Cursor on {name_cells(v.state.field.describe(target))}" in f.keypad.text
    before = sum(v.state.ghosts)
    f.press("Enter")
    assert sum(v.state.ghosts) == before + 1
    assert f"P1 puts a ghost on {name_cells(v.state.field.describe(target))}" in f.keypad.text
    # an illegal Enter: the engine's reason reaches the live region through the play view's message
    lake = next(c for c, t in zip(v.state.field.cells, v.state.field.terrain) if t == "lake")
    for key in keys_to(f.geom, v.state.field.cells, f.cursor, lake):
        f.press(key)
    f.press("Enter")
    assert v.message and v.message in f.keypad.text


def test_a_field_without_keyboard_has_no_keypad():
    f = FieldWidget(hk.new_game(players=2, seed=1), keyboard=False)
    assert f.keypad is None and all(type(c).__name__ != "FieldKeys" for c in f.children)


def test_the_keyboard_cursor_is_a_ring_on_its_cell_that_the_pan_box_brings_into_view():
    """The cursor is drawn as its cell's outline, white under black (the mouse's hover is one black
    line), and each move asks the board's pan box to show that cell's span of the board's width;
    the same cell asked again (focus back on the keyboard line) asks again."""
    from haunted_kit.haunted.draw.scene import cursor_ring

    s = hk.new_game(players=2, seed=3)
    fw = FieldWidget(s, size=30)
    cell = s.field.cells[5]
    fw.move_cursor(cell)
    i = s.field.cell_index(cell)
    ring = fw._prims["hover"]   # what the hover layer was sent
    assert ring == cursor_ring(fw.geom, i) and [p.stroke for p in ring] == ["#ffffff", "#000000"]
    assert all(p.points == fw.geom.polygons[i] for p in ring) and ring[0].width > ring[1].width
    xs = [x for x, _y in fw.geom.polygons[i]]
    x0, x1, n = fw.pan.show
    assert (x0, x1) == (round(min(xs) / fw.geom.width, 4), round(max(xs) / fw.geom.width, 4)) and 0 <= x0 < x1 <= 1
    fw.keypad._handle_custom_msg({"event": "focus"}, [])
    assert fw.cursor == cell and fw.pan.show[:2] == [x0, x1] and fw.pan.show[2] == n + 1
    fw.send_mouse("mouse_move", *fw.geom.centre(s.field.cells[0]))   # the mouse's hover outline replaces the ring
    assert fw._hover_cursor is False and [p.stroke for p in fw._prims["hover"]] == ["#000000"]
