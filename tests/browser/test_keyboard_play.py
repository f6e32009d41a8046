"""A whole human turn in the classroom app played with the keyboard alone: Tab to the
field's keyboard element, arrow keys to move the cell cursor, Enter to act, Tab to the
End turn button. The ARIA live region must say the cursor cell's facts and the last
event. The game is mirrored in Python (a PlayView with the same settings, driven by the
same keys) to know the legal targets and what the live region must say."""

from __future__ import annotations

import pytest
from browser_harness import explained, free_port, save_screenshot
from playwright.sync_api import expect

from haunted_kit.haunted import actions as A
from haunted_kit.classroom import DEFAULT_SIZE
from haunted_kit.haunted.widgets import PlayView
from haunted_kit.haunted.state import VISIBILITY
from haunted_kit.widgets.access import keys_to
from haunted_kit.hexgrid import name_cells

pytestmark = pytest.mark.browser

PLAYERS, MODE, SEED, BOTS = 3, "citizen", 1, "2,3"  # P1 human: places the spread ghosts, then plays a turn
MAX_TABS = 60


def tab_to(page, predicate_js: str, what: str) -> None:
    """Press Tab until the focused element matches ``predicate_js`` (a JS expression on ``el``)."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return !!el && ({predicate_js}); }})()"):
            return
    raise AssertionError(f"{MAX_TABS} Tab presses did not reach {what}")


def press(page, mirror, key: str) -> None:
    page.keyboard.press(key)
    mirror.field.press(key)


def test_a_whole_human_turn_by_keyboard(page, classroom_server):
    srv = classroom_server("--players", str(PLAYERS), "--mode", MODE, "--seed", str(SEED), "--bots", BOTS,
                           "--port", str(free_port()))
    mirror = PlayView(players=PLAYERS, mode=MODE, seed=SEED, bots=[1, 2], size=DEFAULT_SIZE)
    field = mirror.field
    cells = mirror.state.field.cells
    live = page.locator(".hk-live")
    with explained("loading the classroom app", srv, page):
        page.goto(srv.url + "/")
        expect(page.locator("canvas.hk-field")).to_be_visible(timeout=60_000)
        assert live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite"
    with explained("reaching the field by Tab", srv, page):
        tab_to(page, "el.classList.contains('hk-keys')", "the field's keyboard element")
        field._on_key_msg(None, {"event": "focus"}, [])       # what the browser's focus event does
        expect(live).to_contain_text("Cursor on city cell 0,0 on Kalena")
    with explained("placing the spread ghosts with arrows and Enter", srv, page):
        placed = 0
        while mirror.state.current_player() == 0 and mirror.state.pending:
            target = next(a.cell for a in mirror.state.legal_actions() if isinstance(a, A.PlaceGhost))
            for key in keys_to(field.geom, cells, field.cursor, target):
                press(page, mirror, key)
            expect(live).to_contain_text(f"cell {target[0]},{target[1]}")
            press(page, mirror, "Enter")
            placed += 1
            expect(live).to_contain_text(f"ghost on {name_cells(mirror.state.field.describe(target))}", timeout=30_000)
        assert placed == 4
    with explained("the bots play on to P1's turn; P1 explores by keyboard", srv, page):
        s = mirror.state
        assert s.current_player() == 0 and s.phase == "turns"
        expect(live).to_contain_text(name_cells(s.log[-1].text), timeout=60_000)
        target = next(a.cell for a in s.legal_actions() if isinstance(a, A.Explore))
        for key in keys_to(field.geom, cells, field.cursor, target):
            press(page, mirror, key)
        press(page, mirror, "Enter")
        explored = mirror.state.log[-1]
        assert explored.kind in ("explored", "turn_ended", "turn_started") or "explores" in mirror.message
        expect(live).to_contain_text(f"P1 explores to {name_cells(mirror.state.field.describe(target))}", timeout=30_000)
        save_screenshot(page, "keyboard-explored")
    with explained("ending the turn from the keyboard", srv, page):
        tab_to(page, "el.tagName === 'BUTTON' && el.textContent.trim() === 'End turn'", "the End turn button")
        page.keyboard.press("Enter")
        mirror.b_end.click()
        expect(live).to_contain_text(name_cells(VISIBILITY.event(mirror.state.log[-1], 0).text), timeout=60_000)
        assert any(e.kind == "turn_ended" and e.player == 0 for e in mirror.state.log)
        save_screenshot(page, "keyboard-turn-ended")
