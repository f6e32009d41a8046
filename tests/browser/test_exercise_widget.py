"""An exercise widget in Chromium (Voila): a wrong answer gets a nudge and the rulebook
section, a second wrong answer the rule applied to the board, the answer can be shown
after a try, and the right answer is recognised. The exercise is mirrored in Python
(same key and seed) to know the right answer and the engine's words."""

from __future__ import annotations

import nbformat
import pytest
from browser_harness import explained, save_screenshot, wait_canvas_pixel
from playwright.sync_api import expect

from haunted_kit.haunted.exercises import make

pytestmark = pytest.mark.browser

KEY, SEED = "02-next-first", 2


def test_exercise_answers_back_in_chromium(page, voila_server, tmp_path):
    ex = make(KEY, SEED)
    wrong = [o for o in ex.options if o != ex.answer]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f'from haunted_kit.haunted.widgets.exercise import exercise\nexercise("{KEY}", seed={SEED})')]
    path = tmp_path / "exercise.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    root = page.locator(".hk-exercise")
    feedback = page.locator(".hk-ex-feedback")
    option = lambda label: page.locator(".hk-ex-option button", has_text=label)  # noqa: E731
    check, show = page.locator(".hk-ex-check"), page.locator(".hk-ex-answer")
    with explained("loading the exercise in Voila", srv, page):
        page.goto(srv.url)
        expect(root).to_be_visible(timeout=60_000)
        expect(page.locator(".hk-ex-question")).to_contain_text("who plays first?")
        expect(page.locator("canvas.hk-field")).to_be_visible()
        expect(show).to_be_disabled()
    with explained("a first wrong answer", srv, page):
        option(wrong[0]).click()
        check.click()
        expect(feedback).to_contain_text("Not quite: a hint (try 1)")
        # a nudge about this answer, not the answer; and the rulebook section
        expect(feedback).to_contain_text(ex.nudge_text(wrong[0]))
        expect(feedback).to_contain_text('(rulebook: "Game Flow")')
        expect(show).to_be_enabled()
    with explained("a second wrong answer brings the rule on this position", srv, page):
        option(wrong[1]).click()
        check.click()
        expect(feedback).to_contain_text("the rule on this position (try 2)")
        expect(feedback).to_contain_text(ex.rule_text(wrong[1]))
        save_screenshot(page, "exercise-rule")
    with explained("the right answer", srv, page):
        option(ex.answer).click()
        check.click()
        expect(feedback).to_contain_text("Right!")
        expect(feedback).to_contain_text(ex.answer_text())
        save_screenshot(page, "exercise-right")


def test_cell_exercise_clicks_on_the_board_in_chromium(page, voila_server, tmp_path):
    """A 'click every cell' exercise: clicks on the canvas select exactly the clicked cells
    (the board keeps its own size, so clicks map 1:1), a missing cell is named by the
    engine, and the full set is right."""
    from board_page import FIELD, Board

    ex = make("03-explore-cells", 2)
    cells = sorted(ex.answer)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('from haunted_kit.haunted.widgets.exercise import exercise\nexercise("03-explore-cells", seed=2)')]
    path = tmp_path / "cells.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    board = Board(page, ex.state, size=40)
    feedback = page.locator(".hk-ex-feedback")
    with explained("loading the cell exercise", srv, page):
        page.goto(srv.url)
        expect(page.locator(FIELD)).to_be_visible(timeout=60_000)
        board.check_canvas_size()
        # the kernel has drawn the terrain: the widget is connected, clicks will be answered
        quiet = board.quiet_cell()
        wait_canvas_pixel(page, FIELD, *board.plain_spot(quiet), want=board.terrain_rgb(quiet), timeout_ms=60_000,
                          what=f"terrain of the quiet cell {quiet}")
        box = page.locator(FIELD).bounding_box()
        assert abs(box["width"] - board.geom.width) <= 1, f"the canvas is drawn {box['width']} px wide, not {board.geom.width}"
    with explained("clicking all but one of the right cells", srv, page):
        for cell in cells[:-1]:
            board.click(cell)
            # the selection is drawn before the next click (a click the kernel has not answered yet would race Check)
            wait_canvas_pixel(page, FIELD, *board.plain_spot(cell), changed_from=board.terrain_rgb(cell), timeout_ms=30_000,
                              what=f"the selection mark on {cell}")
        page.locator(".hk-ex-check").click()
        expect(feedback).to_contain_text("Not quite: a hint (try 1)")
        expect(feedback).to_contain_text("Those are not the right cells.")  # no count: that gave the answer away
    with explained("clicking the last one", srv, page):
        board.click(cells[-1])
        wait_canvas_pixel(page, FIELD, *board.plain_spot(cells[-1]), changed_from=board.terrain_rgb(cells[-1]),
                          timeout_ms=30_000, what=f"the selection mark on {cells[-1]}")
        page.locator(".hk-ex-check").click()
        expect(feedback).to_contain_text("Right!")
        save_screenshot(page, "exercise-cells-right")


def test_a_phone_taps_cells_of_an_exercise_and_swipes_scroll_the_page(chromium_browser, voila_server, tmp_path):
    """On a 390x844 touch screen (Voila): a tap on a board cell selects it as a click does (ipycanvas
    sends a finger as touch events, never a click), the live region says so, and the buttons are
    whole, outside the board's pan box."""
    from board_page import FIELD, Board

    ex = make("03-explore-cells", 2)
    cell = sorted(ex.answer)[0]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('from haunted_kit.haunted.widgets.exercise import exercise\nexercise("03-explore-cells", seed=2)')]
    path = tmp_path / "phone.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                           device_scale_factor=2)
    page = context.new_page()
    try:
        board = Board(page, ex.state, size=40)
        with explained("loading the cell exercise on a phone", srv, page):
            page.goto(srv.url)
            expect(page.locator(FIELD)).to_be_visible(timeout=60_000)
            quiet = board.quiet_cell()
            wait_canvas_pixel(page, FIELD, *board.plain_spot(quiet), want=board.terrain_rgb(quiet), timeout_ms=60_000,
                              what=f"terrain of the quiet cell {quiet}")
        with explained("tapping a right cell", srv, page):
            x, y = board.geom.centre(cell)
            # the board pans in its box on a phone: bring the cell to the middle of the screen first
            page.locator(FIELD).evaluate(
                """(c, [x, y]) => { const box = c.closest('.hk-field-box'); const r = c.getBoundingClientRect();
                                    const s = r.width / c.width;
                                    box.scrollLeft += r.left + x * s - innerWidth / 2;
                                    let el = c.parentElement;   // the page's scroller (Voila scrolls a container)
                                    while (el && !(el.scrollHeight > el.clientHeight &&
                                                   /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
                                    (el || document.scrollingElement).scrollTop += r.top + y * s - innerHeight / 2; }""", [x, y])
            px, py = board.page_point(cell)
            assert 0 < px < 390 and 0 < py < 844, (px, py)
            page.touchscreen.tap(px, py)
            wait_canvas_pixel(page, FIELD, *board.plain_spot(cell), changed_from=board.terrain_rgb(cell), timeout_ms=30_000,
                              what=f"the selection mark on {cell}")
            expect(page.locator(".hk-live")).to_contain_text(f"cell {cell[0]},{cell[1]} selected (1 selected)")
        with explained("the buttons are whole and outside the pan box", srv, page):
            for cls in (".hk-ex-check", ".hk-ex-answer", ".hk-ex-new"):
                b = page.locator(cls)
                assert b.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && !e.closest('.hk-field-box')"), cls
                r = b.bounding_box()
                assert r["x"] >= 0 and r["x"] + r["width"] <= 390, (cls, r)
            save_screenshot(page, "exercise-phone-tap")
        with explained("a vertical swipe on the board scrolls the page", srv, page):
            scroller = """c => { let el = c.parentElement;
                                 while (el && !(el.scrollHeight > el.clientHeight &&
                                                /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
                                 return (el || document.scrollingElement).scrollTop; }"""
            before = page.locator(FIELD).evaluate(scroller)
            cdp = context.new_cdp_session(page)
            px, py = board.page_point(cell)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": px, "y": py}]})
            for k in range(1, 11):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": px, "y": py - 20 * k}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            page.wait_for_function(f"() => ({scroller})(document.querySelector('{FIELD}')) > {before}", timeout=10_000)
    finally:
        context.close()


def test_a_number_answer_from_the_keyboard_in_chromium(page, voila_server, tmp_path):
    """The number box asks for a numeric keyboard, Enter in it checks, and after "New exercise"
    the focus is in the new exercise's box (not at the page's top)."""
    ex = make("01-entry-cost", 1)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('from haunted_kit.haunted.widgets.exercise import exercise\nexercise("01-entry-cost", seed=1)')]
    path = tmp_path / "number.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    box, feedback = page.locator("input.hk-ex-number"), page.locator(".hk-ex-feedback")
    with explained("loading the number exercise", srv, page):
        page.goto(srv.url)
        expect(box).to_be_visible(timeout=60_000)
        assert box.get_attribute("inputmode") == "numeric"
    with explained("Enter in the box checks", srv, page):
        box.fill(str(ex.answer + 1))
        box.press("Enter")
        expect(feedback).to_contain_text("Not quite: a hint (try 1)")
        expect(feedback).to_contain_text("Try again, or press Show answer.")
        box.fill(str(ex.answer))
        box.press("Enter")
        expect(feedback).to_contain_text("Right!")
    with explained("New exercise keeps the focus in the exercise", srv, page):
        page.locator(".hk-ex-new").click()
        expect(page.locator(".hk-ex-title, .hk-exercise").first).to_contain_text(f"seed {ex.seed + 1}")
        page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('hk-ex-number')"
                               " && document.activeElement.value === ''", timeout=10_000)
