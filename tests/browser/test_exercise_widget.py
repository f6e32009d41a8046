"""An exercise widget in Chromium (Voila): a wrong answer gets a nudge and the rulebook
section, a second wrong answer the rule applied to the board, the answer can be shown
after a try, and the right answer is recognised. The exercise is mirrored in Python
(same key and seed) to know the right answer and the engine's words."""

from __future__ import annotations

import nbformat
import pytest
from browser_harness import explained, save_screenshot, wait_canvas_pixel
from playwright.sync_api import TimeoutError as PWTimeout
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
                """(c, [x, y]) => { const box = c.closest('.hk-pan-box'); const r = c.getBoundingClientRect();
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


# ------------------------------------------------------------------ a board wider than a phone
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def exercise_notebook(tmp_path, name: str, lines: list[str]):
    """A notebook of one cell per line (each displays a widget), written to ``tmp_path/name``."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(line) for line in lines]
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


def box_state(page, nth: int = 0) -> dict:
    """The nth pan box's scroll and size, its region's name, and its cue's words, buttons and live region."""
    return page.locator(".hk-pan-box").nth(nth).evaluate(
        """b => { const host = b.parentElement.closest('.widget-vbox'); const cue = host.querySelector('.hk-pan-cue');
                  const words = cue && cue.querySelector('.hk-pan-words'); const r = b.getBoundingClientRect();
                  const shown = e => !!e && !e.hidden && e.getBoundingClientRect().width > 0;
                  return {left: b.scrollLeft, client: b.clientWidth, width: b.scrollWidth, name: b.getAttribute('aria-label'),
                          role: b.getAttribute('role'), tab: b.tabIndex, x0: r.left, x1: r.right,
                          cue: !!cue, cue_in_box: !!cue && b.contains(cue), words: words ? words.textContent : null,
                          live: words ? words.getAttribute('aria-live') : null,
                          buttons: cue ? [...cue.querySelectorAll('button')].filter(shown).map(x => x.textContent) : [],
                          cue_x: cue ? [cue.getBoundingClientRect().left, cue.getBoundingClientRect().right] : null}; }""")


def test_a_phone_is_told_the_board_pans_and_pans_it_by_buttons_and_keys(chromium_browser, voila_server, tmp_path):
    """On a 390x844 phone the Haunted Lands exercise board (drawn wider than the output, its text >= 12 px)
    says over it, in words a screen reader is told too, that it scrolls sideways, with buttons that pan it;
    the box is then a named region the arrow keys scroll. On a laptop, where the board fits, no cue."""
    from haunted_kit.render.pancue import PAN_WORDS

    path = exercise_notebook(tmp_path, "pan.ipynb", ['from haunted_kit.haunted.widgets.exercise import exercise\n'
                                                      'exercise("01-entry-cost", seed=1)'])
    srv = voila_server(path)
    context = chromium_browser.new_context(**PHONE)
    page = context.new_page()
    try:
        with explained("loading the exercise on a phone", srv, page):
            page.goto(srv.url)
            expect(page.locator(".hk-pan-cue")).to_contain_text(PAN_WORDS, timeout=60_000)
            st = box_state(page)
            assert st["width"] > st["client"] + 100, st            # the board is wider than its box: it pans
            assert not st["cue_in_box"] and 0 <= st["cue_x"][0] and st["cue_x"][1] <= 390, st  # the cue stays in view
            assert st["live"] == "polite" and st["buttons"] == ["\u2190 left", "right \u2192"], st
            assert st["role"] == "region" and st["tab"] == 0 and st["name"].startswith("The field drawn at a readable size"), st
            assert st["left"] > 0, "the board starts panned to the question's cell"
        with explained("the buttons pan the board", srv, page):
            start = st["left"]
            page.locator(".hk-pan-left").tap()
            page.wait_for_function("s => document.querySelector('.hk-pan-box').scrollLeft < s", arg=start)
            page.locator(".hk-pan-left").click()
            page.wait_for_function("() => document.querySelector('.hk-pan-box').scrollLeft === 0")
            page.locator(".hk-pan-right").click()
            page.wait_for_function("() => document.querySelector('.hk-pan-box').scrollLeft > 0")
            save_screenshot(page, "exercise-phone-pan-cue")
        with explained("the arrow keys pan the focused box", srv, page):
            page.evaluate("() => { const b = document.querySelector('.hk-pan-box'); b.scrollLeft = 0; b.focus(); }")
            page.keyboard.press("ArrowRight")
            page.wait_for_function("() => document.querySelector('.hk-pan-box').scrollLeft > 0")
    finally:
        context.close()
    laptop = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    page = laptop.new_page()
    try:
        with explained("on a laptop the board fits: no cue, no extra tab stop", srv, page):
            page.goto(srv.url)
            expect(page.locator(".hk-pan-cue")).to_have_count(1, timeout=60_000)
            page.wait_for_function("() => document.querySelector('canvas.hk-field').getBoundingClientRect().width > 0")
            st = box_state(page)
            assert st["width"] <= st["client"] + 1 and st["words"] == "" and st["buttons"] == [], st
            assert st["role"] is None and st["tab"] == -1, st
    finally:
        laptop.close()


#: a canvas board's least text at its own size in px, from the class its widget carries
#: (``widgets.canvas.least_text_class``: on the canvas or on the MultiCanvas holding its layers)
LEAST_TEXT_JS = """c => { const host = c.closest('[class*="hk-least-text-"]');
    const m = [...host.classList].map(k => /^hk-least-text-(\\d+)$/.exec(k)).find(Boolean);
    return Number(m[1]) / 100; }"""

#: where the keyboard's cursor ring of the field is drawn: for each edge of the ring (the cell's outline
#: drawn CURSOR_INSET of the way from its centre), its black line at the edge's middle and its white
#: line just inside; the ring's corners in page pixels
RING_JS = """([pts, w]) => {
    const c = document.querySelector('canvas.hk-field'), ctx = c.getContext('2d');
    const px = (x, y) => ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length, cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    let ok = 0;
    for (let i = 0; i < pts.length; i++) {   // across each edge's middle: a black line with white beside it
        const [x0, y0] = pts[i], [x1, y1] = pts[(i + 1) % pts.length];
        const mx = (x0 + x1) / 2, my = (y0 + y1) / 2, d = Math.hypot(cx - mx, cy - my);
        let dark = 255, light = 0;
        for (let t = -1.5 * w; t <= 1.5 * w; t += 0.5) {
            const p = px(mx + (cx - mx) / d * t, my + (cy - my) / d * t);
            dark = Math.min(dark, Math.max(p[0], p[1], p[2]));
            light = Math.max(light, Math.min(p[0], p[1], p[2]));
        }
        if (dark < 80 && light > 230) ok++;
    }
    const r = c.getBoundingClientRect(), s = r.width / c.width;
    const xs = pts.map(p => r.left + p[0] * s), ys = pts.map(p => r.top + p[1] * s);
    return {ok, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys)};
}"""


#: the ring is drawn whole on its cell and that part of the board is in the view of the box it pans in
RING_SHOWN_JS = ("a => { const r = (" + RING_JS + ")(a); let box = document.querySelector('canvas.hk-field').parentElement;"
                 " while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement;"
                 " const b = box.getBoundingClientRect(); return r.ok === 6 && r.x0 >= b.left - 1 && r.x1 <= b.right + 1; }")


@pytest.mark.parametrize("where", ["phone", "scaled"])
def test_the_keyboard_cursor_rings_its_cell_in_every_pan_and_scale(chromium_browser, voila_server, tmp_path, where):
    """The field's keyboard cursor (arrow keys on its keyboard line) is a ring drawn on the cursor's cell
    wherever the board is panned (a phone: the box pans to bring the cell into view) or scaled down
    (a window under the board's width): its drawn ring sits at the cell's drawn place, in the board's
    box and the window, and the keyboard line with its focus outline stays in the window."""
    from haunted_kit.haunted.draw.geometry import board_geometry
    from haunted_kit.haunted.draw.scene import cursor_ring
    from haunted_kit.widgets.access import cursor_step

    size = 40 if where == "phone" else 60
    ex = make("01-entry-cost", 1)
    s = ex.state
    geom = board_geometry(s.config.box, size)
    path = exercise_notebook(tmp_path, "cursor.ipynb", ['from haunted_kit.haunted.widgets.exercise import exercise\n'
                                                         f'exercise("01-entry-cost", seed=1, size={size})'])
    srv = voila_server(path)
    context = chromium_browser.new_context(**(PHONE if where == "phone" else {"viewport": {"width": 800, "height": 900}}))
    page = context.new_page()
    vw = page.viewport_size["width"]
    cell = s.field.cells[s.sensor[s.current_player()]]  # the cursor starts on the sensor of the player to move
    keys = ["ArrowLeft"] * 4 + ["ArrowRight"] * 9 if where == "phone" else ["ArrowLeft"] * 3 + ["ArrowDown"] * 2
    try:
        with explained("loading the exercise", srv, page):
            page.goto(srv.url)
            expect(page.locator(".hk-keys")).to_be_visible(timeout=60_000)
            scale = page.locator("canvas.hk-field").evaluate("c => c.getBoundingClientRect().width / c.width")
            least = page.locator("canvas.hk-field").evaluate(LEAST_TEXT_JS)
            # a phone draws it larger than its own size (its least text at 12 px, it pans), the laptop smaller (it fits)
            assert (scale > 1.2 and scale * least >= 12 - 0.05) if where == "phone" else (scale < 0.95), (scale, least)
            page.locator(".hk-keys").focus()
        for n, key in enumerate([None, *keys]):
            if key is not None:
                page.keyboard.press(key)
                cell = cursor_step(geom, s.field.cells, cell, key)
            if key is not None and n not in (4, len(keys)):
                continue
            with explained(f"the cursor on {cell} after {n} keys ({where})", srv, page):
                ring = cursor_ring(geom, geom.cell_index(cell))
                pts, w = [list(p) for p in ring[1].points], ring[1].width
                expect(page.locator(".hk-keys .hk-live")).to_contain_text(f"Cursor on {s.field.describe(cell).split(' ')[0]}")
                expect(page.locator(".hk-keys .hk-live")).to_contain_text(f"cell {cell[0]},{cell[1]}")
                try:
                    page.wait_for_function(RING_SHOWN_JS, arg=[pts, w], polling="raf", timeout=30_000)
                except PWTimeout:
                    raise AssertionError(f"no cursor ring drawn whole in view on {cell}: {page.evaluate(RING_JS, [pts, w])} "
                                         "(ok: the ring's edges found, of 6)") from None
                r = page.evaluate(RING_JS, [pts, w])
                assert 0 <= r["x0"] and r["x1"] <= vw, (cell, r)
                pad = page.locator(".hk-keys").bounding_box()
                assert pad["x"] >= 0 and pad["x"] + pad["width"] <= vw + 1, ("the keyboard line left the window", pad)
                assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
        save_screenshot(page, f"exercise-cursor-{where}")
    finally:
        context.close()


#: one exercise of each kind of every game, answered on a phone: (game, key, seed)
EVERY_KIND = [("haunted", "02-next-first", 2), ("haunted", "01-entry-cost", 1), ("haunted", "01-which-building", 1),
              ("haunted", "03-explore-cells", 2), ("estate", "08-take-limit", 1), ("estate", "08-slots", 1),
              ("landmarks", "09-acquire", 1), ("landmarks", "09-points", 1)]

#: the elements of an exercise that reach out of the window, other than the board inside its pan box
OUT_OF_WINDOW_JS = """root => { const vw = document.documentElement.clientWidth, out = [];
    for (const e of root.querySelectorAll('*')) {
        const r = e.getBoundingClientRect();
        if (!r.width || e.closest('.hk-pan-box') && !e.classList.contains('hk-pan-box')) continue;
        if (r.left < -1 || r.right > vw + 1) out.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out.slice(0, 8); }"""


def answer(page, root, ex, given) -> None:
    """Give ``given`` to the exercise ``root`` as a phone does (taps, typing), then tap Check."""
    if ex.kind == "choose":
        root.locator(".hk-ex-option button", has_text=given).tap()
    elif ex.kind == "number":
        root.locator("input.hk-ex-number").fill(str(given))
    elif ex.kind == "pick":
        for label in ex.options:
            box = root.get_by_role("checkbox", name=label, exact=True)
            if box.is_checked() != (label in given):
                box.tap()
    root.locator(".hk-ex-check").tap()


def tap_cell(page, root, geom, cell) -> None:
    """Bring ``cell`` of the exercise's board to the middle of the phone's screen (the board pans in its
    box, the page scrolls) and tap it."""
    canvas = root.locator("canvas.hk-field")
    canvas.evaluate("""(c, [x, y]) => { const box = c.closest('.hk-pan-box'), s = c.getBoundingClientRect().width / c.width;
                                        box.scrollLeft += c.getBoundingClientRect().left + x * s - innerWidth / 2;
                                        let el = c.parentElement;
                                        while (el && !(el.scrollHeight > el.clientHeight &&
                                                       /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
                                        (el || document.scrollingElement).scrollTop += c.getBoundingClientRect().top + y * s - innerHeight / 2; }""",
                    list(geom.centre(cell)))
    r = canvas.bounding_box()
    s = r["width"] / geom.width
    x, y = geom.centre(cell)
    page.touchscreen.tap(r["x"] + x * s, r["y"] + y * s)


def test_every_kind_of_every_game_answered_on_a_phone(chromium_browser, voila_server, tmp_path):
    """One exercise of each kind of every game (choose, number, pick, cells) on a 390x844 touch screen
    (Voila): a wrong answer is told "Not quite", the right one "Right!"; nothing but a board in its pan
    box reaches out of the window; each board's text is >= 12 px (a pan cue over a board wider than its
    box); and axe-core finds no violation on the page."""
    from axe_playwright_python.sync_playwright import Axe
    from haunted_kit.games import game_module
    from haunted_kit.haunted.draw.geometry import board_geometry
    from haunted_kit.render.pancue import PAN_WORDS
    from test_axe_pages import violations_text

    lines = ["from haunted_kit.games import game_module"] + [
        f'game_module("{g}", "widgets").exercise_view("{key}", {seed})' for g, key, seed in EVERY_KIND]
    srv = voila_server(exercise_notebook(tmp_path, "kinds.ipynb", lines))
    context = chromium_browser.new_context(**PHONE)
    page = context.new_page()
    try:
        with explained("loading one exercise of each kind of every game on a phone", srv, page):
            page.goto(srv.url)
            expect(page.locator(".hk-exercise")).to_have_count(len(EVERY_KIND), timeout=90_000)
            expect(page.locator(".hk-exercise .hk-ex-check")).to_have_count(len(EVERY_KIND))
        for i, (g, key, seed) in enumerate(EVERY_KIND):
            ex = game_module(g, "exercises").EXERCISES.make(key, seed)
            root, feedback = page.locator(".hk-exercise").nth(i), page.locator(".hk-exercise").nth(i).locator(".hk-ex-feedback")
            with explained(f"{g} {key} ({ex.kind}) fits the phone and its board is readable", srv, page):
                root.scroll_into_view_if_needed()
                assert root.evaluate(OUT_OF_WINDOW_JS) == [], (key, root.evaluate(OUT_OF_WINDOW_JS))
                for c in root.locator("canvas").all():
                    if not c.is_visible():
                        continue
                    assert "hk-text-12" in c.get_attribute("class") or "hk-field" in c.get_attribute("class"), (key, c)
                    st = c.evaluate("""c => { const b = c.closest('.hk-pan-box'), h = b.parentElement.closest('.widget-vbox');
                                              return {over: b.scrollWidth > b.clientWidth + 1, s: c.getBoundingClientRect().width / c.width,
                                                      words: h.querySelector('.hk-pan-words').textContent}; }""")
                    if "hk-field" in c.get_attribute("class"):
                        least = c.evaluate(LEAST_TEXT_JS)
                        assert least <= 12 and st["s"] * least >= 12 - 0.05, (key, least, st)  # its least text drawn at 12 px
                    else:
                        assert st["s"] >= 0.99, (key, st)            # drawn with 12 px text, at least its own size
                    assert st["words"] == (PAN_WORDS if st["over"] else ""), (key, st)
            if ex.kind == "cells":
                geom = board_geometry(ex.state, 40)
                cells = sorted(ex.answer)
                with explained(f"{key}: tapping all but one right cell", srv, page):
                    for n, cell in enumerate(cells[:-1]):
                        tap_cell(page, root, geom, cell)
                        expect(root.locator(".hk-live")).to_contain_text(f"cell {cell[0]},{cell[1]} selected ({n + 1} selected)")
                    root.locator(".hk-ex-check").tap()
                    expect(feedback).to_contain_text("Not quite")
                with explained(f"{key}: tapping the last one", srv, page):
                    tap_cell(page, root, geom, cells[-1])
                    expect(root.locator(".hk-live")).to_contain_text(f"({len(cells)} selected)")
                    root.locator(".hk-ex-check").tap()
                    expect(feedback).to_contain_text("Right!")
                continue
            if ex.kind == "choose":
                wrong = next(o for o in ex.options if o != ex.answer)
            elif ex.kind == "pick":
                wrong = {"none of them"} if ex.answer else {ex.options[0]}
            else:
                wrong = ex.answer + 1
            with explained(f"{g} {key} ({ex.kind}): a wrong answer", srv, page):
                answer(page, root, ex, wrong)
                expect(feedback).to_contain_text("Not quite")
            with explained(f"{g} {key} ({ex.kind}): the right answer", srv, page):
                answer(page, root, ex, ex.answer)
                expect(feedback).to_contain_text("Right!")
        save_screenshot(page, "exercise-every-kind-phone")
        with explained("axe-core on the exercises' page at 390x844", srv, page):
            found = Axe().run(page).response["violations"]
            assert not found, violations_text(found)
    finally:
        context.close()
