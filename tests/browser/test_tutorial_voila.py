"""The tutorial notebook that ``haunted-kit tutorial`` writes, served by Voila in Chromium,
played as a first-time player would for every registered game: the lesson panel shows the
first step with its rule's section, **Got it** reads on, a choice button of the game's own
play view plays a decision (the bots answer), and the lesson follows: a step not seen before
appears or the panel says to play on; the progress file is written beside the notebook. The
first round asks no question: its questions come after it, one after another. A
question asked is shown where the player looks, in the game's place beside the panel (its
heading in view and the focus in the question, the board hidden, no axe-core violation), and "Back to the game"
brings the game back with the focus on the panel."""

from __future__ import annotations

import json
import time

import pytest
from browser_harness import explained, page_errors, save_screenshot
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from haunted_kit.cli import TUTORIAL_APP
from haunted_kit.games import game_names, get_game
from haunted_kit.render.style import MIN_TEXT_PX
from haunted_kit.widgets.canvas import PHONE_TEXT_PX, READABLE_CLASS
from haunted_kit.tutorial import PROGRESS_DIR, Tutorial, teach_points, write_notebook

pytestmark = pytest.mark.browser


#: the question's place on the page: ``{heading: [left, top, right, bottom], panel: [...], boards: boards shown}``
QUESTION_PLACE = """() => {
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const h = document.querySelector('.hk-tutorial .hk-question-title');
  const boards = [...document.querySelectorAll('.hk-tutorial .hk-tutorial-game canvas')]
    .filter(c => c.getBoundingClientRect().height > 0 && !c.closest('.hk-tutorial-question'));
  return {heading: h ? rect(h) : null,
          panel: rect(document.querySelector('.hk-tutorial .hk-tutorial-panel')), boards: boards.length};
}"""


def answer_in_place(page, srv) -> None:
    """The question shown now: in the game's place and in view, the focus in it, the board
    hidden, no axe-core violation; "Back to the game" brings the next question held from the
    first round, or the game back, the focus on the panel."""
    question = page.locator(".hk-tutorial .hk-tutorial-question")
    with explained("a question shown in the game's place", srv, page):
        expect(page.locator(".hk-tutorial .hk-question-title")).to_be_visible(timeout=30_000)
        # the focus is in the question: on its heading, or on its answer box when the exercise takes it
        try:
            page.wait_for_function("() => !!document.activeElement && !!document.activeElement.closest('.hk-tutorial-question')")
        except PlaywrightTimeout:
            raise AssertionError("the focus is not in the question: it is on "
                                 + page.evaluate("() => document.activeElement.outerHTML.slice(0, 300)")) from None
        got = page.evaluate(QUESTION_PLACE)
        left, top, _right, bottom = got["heading"]
        assert 0 <= top and bottom <= 800 and got["boards"] == 0, got  # in view; the game hidden
        assert left >= got["panel"][2], got                             # beside the lesson panel, not under the game
        found = Axe().run(page).response["violations"]
        assert not found, [(v["id"], [n["target"] for n in v["nodes"][:4]]) for v in found]
        save_screenshot(page, "tutorial-question-in-place", full_page=False)
        said = page.locator(".hk-tutorial .hk-question-title").evaluate("h => h.parentElement.innerText")
        page.locator(".hk-lesson-resume").click()
        # the kernel answers: the next question of the first round in the same place, or the game back
        nextq = page.wait_for_function("""said => {
            const box = document.querySelector('.hk-tutorial .hk-tutorial-question');
            if (!box || box.getBoundingClientRect().height === 0) return 'game';
            const h = box.querySelector('.hk-question-title');
            return !!h && h.getBoundingClientRect().height > 0 && h.parentElement.innerText !== said && 'next'; }""",
                                       arg=said, timeout=30_000).json_value()
        if nextq == "next":
            return
        expect(question).to_be_hidden(timeout=30_000)
        expect(page.locator(".hk-tutorial .hk-do").first).to_be_visible(timeout=30_000)
        expect(page.locator(".hk-lesson-next:focus, .hk-lesson-aid:focus")).to_have_count(1, timeout=30_000)


@pytest.mark.parametrize("game", game_names())
def test_a_first_time_player_plays_the_tutorial(game, page, voila_server, tmp_path):
    page.set_viewport_size({"width": 1280, "height": 800})
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    with explained(f"opening the {game} tutorial in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_be_visible(timeout=120_000)
        expect(lesson).to_contain_text("Rule:", timeout=60_000)
    first = lesson.inner_text()
    save_screenshot(page, f"tutorial-{game}-start", full_page=False)
    progress = tmp_path / "nb" / PROGRESS_DIR / f"{game}.json"
    with explained("reading every step shown with 'Got it'", srv, page):
        for _ in range(60):  # each click is answered by the kernel; read on while a step is shown
            # the kernel's answer to the last click is in when "Got it" is enabled again or nothing is left
            expect(page.locator(".hk-lesson-next:enabled, .hk-lesson:has-text('Nothing new right now')").first) \
                .to_be_visible(timeout=30_000)
            before = lesson.inner_text()
            if "Nothing new right now" in before:
                break
            try:  # "Got it" may be on its way to grey (the panel's text comes first): then look again
                page.locator(".hk-lesson-next").click(timeout=5_000)
            except PlaywrightTimeout:
                continue
            expect(lesson).not_to_have_text(before, timeout=30_000)  # the kernel answered (its progress is written)
            # the first round is played straight through: a step's question waits until it is over
            assert not json.loads(progress.read_text())["asking"]
        expect(lesson).to_contain_text("Nothing new right now", timeout=30_000)
    assert first != lesson.inner_text()
    assert "more below" not in lesson.inner_text()  # nothing below: the page's text does not say so
    kept = json.loads(progress.read_text())
    assert kept["read"] and not kept["queue"]
    with explained("playing the first legal choice from the list of every action", srv, page):
        decided = kept["decisions"]
        page.locator(".hk-tutorial .hk-do").first.click()
        deadline = time.monotonic() + 60
        while json.loads(progress.read_text())["decisions"] == decided:
            assert time.monotonic() < deadline, "the decision never reached the tutorial"
            page.wait_for_timeout(200)
        # the bots answer: the player's choices come back (a first round is never over in one decision)
        expect(page.locator(".hk-tutorial .hk-do").first).to_be_enabled(timeout=60_000)
    save_screenshot(page, f"tutorial-{game}-after", full_page=True)
    assert page_errors(page) == "<none>"


def round_one_played(game: str, folder) -> list:
    """A tutorial progress in ``folder`` (where the notebook's kernel keeps it) whose first
    round was played by reading every step and taking the first legal action, then the steps
    telling how it ended: its held questions are asked (the first now). Returns them, in order."""
    t = Tutorial(game, seed=1, progress=folder / PROGRESS_DIR / f"{game}.json")
    for _ in range(300):
        while t.current is not None and not t.round_done:
            t.next()
        if t.round_done:
            break
        t.attempt(t.state.legal_actions()[0])
    while not t.asking and t.current is not None:   # how the round ended is told; then its questions come
        t.next()
    t.save()
    return [t.asking, *t.held] if t.asking else []


@pytest.mark.parametrize("game", [g for g in game_names() if any(p.question for p in teach_points(g).values())])
def test_the_first_rounds_questions_come_after_it_in_the_games_place(game, page, voila_server, tmp_path):
    page.set_viewport_size({"width": 1280, "height": 800})
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    questions = round_one_played(game, tmp_path / "nb")
    if not questions:
        pytest.skip(f"{game}'s first round meets no step with a question")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    with explained(f"opening the {game} tutorial after its first round", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(".hk-tutorial .hk-question-title")).to_be_visible(timeout=120_000)
        expect(page.locator(".hk-tutorial .hk-tutorial-question")).to_contain_text("is over: a look back")
    progress = tmp_path / "nb" / PROGRESS_DIR / f"{game}.json"
    for i, key in enumerate(questions):
        assert json.loads(progress.read_text())["asking"] == key
        more = len(questions) - i - 1
        if more:
            expect(page.locator(".hk-tutorial .hk-tutorial-question")).to_contain_text(f"{more} more after this one")
            expect(page.locator(".hk-lesson-resume")).to_have_text("Next question")
        answer_in_place(page, srv)
    # the game is back: the lesson panel and the game's top in view, the keyboard on the lesson
    expect(page.locator(".hk-tutorial .hk-question-title")).to_have_count(0, timeout=30_000)
    for sel in (".hk-tutorial .hk-lesson", ".hk-tutorial .hk-tutorial-game:not(.hk-tutorial-question)"):
        top = page.locator(sel).first.evaluate("e => e.getBoundingClientRect().top")
        assert 0 <= top < 800, (sel, top)
    kept = json.loads(progress.read_text())
    assert kept["asking"] == "" and kept["held"] == [] and set(questions) <= set(kept["answers"])
    assert page_errors(page) == "<none>"


#: the board's top edge below the tutorial's own top (a scrolled page does not count as a move)
BOARD_TOP = ("el => Math.round(el.getBoundingClientRect().top"
             " - el.closest('.hk-tutorial').getBoundingClientRect().top)")
#: whether the game's board (not a question's) is laid out with its top at ``want`` px under the
#: tutorial's top: the page's widgets apply the kernel's answer message by message, so the board is
#: measured once the page has settled on it, never in the middle of an update
BOARD_AT = """want => {
  const c = [...document.querySelectorAll('.hk-tutorial .hk-tutorial-game:not(.hk-tutorial-question) canvas')]
    .find(e => e.getClientRects().length && e.getBoundingClientRect().width > 0);
  return !!c && !document.querySelector('.hk-tutorial .hk-question-title')
    && Math.round(c.getBoundingClientRect().top - c.closest('.hk-tutorial').getBoundingClientRect().top) === want;
}"""


def settled_top(page, board, want: int) -> int:
    """The game's board's top once the page shows it at ``want`` (waited for, up to 10 s), else
    where it is after that: a board that really moved is reported as it stands."""
    try:
        page.wait_for_function(BOARD_AT, arg=want, timeout=10_000)
    except PlaywrightTimeout:
        pass
    return board.evaluate(BOARD_TOP)


@pytest.mark.parametrize("game", game_names())
def test_the_board_stays_put_as_the_lesson_changes(game, page, voila_server, tmp_path):
    """On a phone (390x844) the board does not move while the lesson panel above it changes:
    every 'Got it', a 'Show again' and a decision (a new message line) leave its top edge
    where it was, so a click meant for a cell lands on it. The first step states the goal."""
    page.set_viewport_size({"width": 390, "height": 844})
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    # a board with a phone's layout shows that one; the game's own (a question in its place has a board too)
    board = page.locator(".hk-tutorial .hk-tutorial-game:not(.hk-tutorial-question) canvas:visible").first
    with explained(f"opening the {game} tutorial in Voila at phone size", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_contain_text("Rule:", timeout=120_000)
        expect(board).to_be_visible(timeout=60_000)
    assert get_game(game).title in page.locator(".hk-tutorial").inner_text()
    goal = teach_points(game).get("goal")
    if goal is not None:
        expect(lesson).to_contain_text(goal.title)
    # the board's smallest text (the kit's MIN_TEXT_PX at its own size, or 12 px on a board drawn
    # with READABLE_CLASS) is >= 12 CSS px on the phone: the board is drawn larger and pans in its
    # box, or fits, the page itself never scrolls sideways
    scale = board.evaluate("c => c.getBoundingClientRect().width / c.width")
    least = PHONE_TEXT_PX if board.evaluate(f"c => c.classList.contains('{READABLE_CLASS}')") else MIN_TEXT_PX
    assert scale * least >= 12 - 0.05, f"board text {scale * least:.1f} CSS px on a phone"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    top = board.evaluate(BOARD_TOP)
    tops = []
    progress = tmp_path / "nb" / PROGRESS_DIR / f"{game}.json"
    with explained("reading every step with 'Got it'", srv, page):
        for _ in range(30):
            # the kernel's answer to the last click is in when "Got it" is enabled again or nothing is left
            expect(page.locator(".hk-lesson-next:enabled, .hk-lesson:has-text('Nothing new right now')").first) \
                .to_be_visible(timeout=30_000)
            before = lesson.inner_text()
            if "Nothing new right now" in before:
                break
            try:  # "Got it" may be on its way to grey (the panel's text comes first): then look again
                page.locator(".hk-lesson-next").click(timeout=5_000)
            except PlaywrightTimeout:
                continue
            expect(lesson).not_to_have_text(before, timeout=30_000)
            # a question in the game's place (its file says so, or the page shows it): back to the game
            if json.loads(progress.read_text())["asking"] or page.locator(".hk-tutorial .hk-question-title").count():
                expect(page.locator(".hk-tutorial .hk-question-title")).to_be_visible(timeout=30_000)
                page.locator(".hk-lesson-resume").click()
                expect(board).to_be_visible(timeout=30_000)
            tops.append(settled_top(page, board, top))
        expect(lesson).to_contain_text("Nothing new right now", timeout=30_000)
    with explained("showing the first step again", srv, page):
        page.locator(".hk-tutorial select").first.select_option(index=0)
        page.locator(".hk-lesson-replay").click()
        expect(lesson).not_to_contain_text("Nothing new right now", timeout=30_000)
        tops.append(settled_top(page, board, top))
    with explained("making a decision (the message line changes)", srv, page):
        decided = json.loads(progress.read_text())["decisions"]
        page.locator(".hk-tutorial .hk-do").first.click()
        deadline = time.monotonic() + 60
        while json.loads(progress.read_text())["decisions"] == decided:
            assert time.monotonic() < deadline, "the decision never reached the tutorial"
            page.wait_for_timeout(200)
        expect(page.locator(".hk-tutorial .hk-do").first).to_be_enabled(timeout=60_000)
        tops.append(settled_top(page, board, top))
    save_screenshot(page, f"tutorial-{game}-phone-steady", full_page=False)
    assert tops and all(t == top for t in tops), f"the board's top moved from {top} px: {tops}"
    assert page_errors(page) == "<none>"


#: the rectangles a laptop's first screen must hold, in CSS px (left, top, right, bottom)
FIRST_SCREEN = """() => {
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = s => [...document.querySelectorAll(s)].filter(e => e.getBoundingClientRect().height > 0);
  const box = shown('.hk-tutorial .hk-board-box')[0];
  return {width: document.documentElement.scrollWidth, lesson: rect(shown('.hk-tutorial .hk-lesson')[0]),
          board: box ? rect(box) : null, boardHeight: box ? box.scrollHeight : 0,
          canvases: box ? [...box.querySelectorAll('canvas')].filter(c => c.getBoundingClientRect().width > 0)
                            .map(c => c.getBoundingClientRect().width / c.width) : [],
          choices: shown('.hk-tutorial .hk-choices button, .hk-tutorial .hk-all-actions, .hk-tutorial .hk-do').map(rect)};
}"""


@pytest.mark.parametrize("game", game_names())
def test_a_laptops_first_screen_shows_the_lesson_the_board_and_the_choices(game, page, voila_server, tmp_path):
    """At 1280x800 the first screen, unscrolled, holds the lesson panel (beside the game), the
    board (its top and at least 400 px of it, or all of a shorter one, drawn at its own size:
    a board wider than its room pans in its box) and the decision in front of the learner (its
    choice buttons, the list of every legal action and 'Do it'); a step's 'More' opens from the
    keyboard."""
    page.set_viewport_size({"width": 1280, "height": 800})
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    lesson = page.locator(".hk-tutorial .hk-lesson")
    with explained(f"opening the {game} tutorial in Voila at 1280x800", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(lesson).to_contain_text("What you play for" if "goal" in teach_points(game) else "Tutorial",
                                       timeout=120_000)
        expect(page.locator(".hk-tutorial .hk-do").first).to_be_visible(timeout=60_000)
    got = page.evaluate(FIRST_SCREEN)
    save_screenshot(page, f"tutorial-{game}-1280x800", full_page=False)
    assert got["width"] <= 1280, f"the page scrolls sideways: {got['width']} px"
    left, top, right, bottom = got["lesson"]
    assert top >= 0 and bottom <= 800, got["lesson"]
    if got["board"] is not None:   # a game whose view draws a board
        b_left, b_top, _b_right, b_bottom = got["board"]
        assert right <= b_left, ("the lesson panel stands beside the board", got["lesson"], got["board"])
        assert 0 <= b_top < 800 and min(b_bottom, 800) - b_top >= min(got["boardHeight"], 400) - 1, got["board"]
        assert got["canvases"] and all(s >= 0.999 for s in got["canvases"]), got["canvases"]  # never shrunk
    assert got["choices"], "no choice is shown"
    assert all(0 <= t and b <= 800 and r <= 1280 for _l, t, r, b in got["choices"]), got["choices"]
    # the step's rest is folded behind "More": Tab from the lesson reaches it, Enter opens it
    more = page.locator(".hk-tutorial details.hk-step-more").first
    if more.count():
        page.locator(".hk-tutorial [aria-label='lesson']").first.focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        expect(more).to_have_attribute("open", "")
    assert page_errors(page) == "<none>"


@pytest.mark.parametrize("game", game_names())
def test_opening_the_boards_key_never_squashes_the_board(game, page, voila_server, tmp_path):
    """A newcomer opened "Key: what the board's codes mean" beside the estate's board at 1280x800 and
    the board shrank to 349x107 px, its hexes flattened (the board's box had a bounded height and
    shrank what it holds): with the key open every canvas of the board keeps its drawn shape, and
    the box grows instead; it never scrolls up and down (a mouse wheel over it hid the board's top row)."""
    nb = write_notebook(game, tmp_path / "nb" / f"tutorial-{game}.ipynb")
    srv = voila_server(nb, timeout=120.0, module=TUTORIAL_APP)
    shapes = """() => [...document.querySelectorAll('.hk-tutorial-game canvas')]
                .filter(c => c.width > 50 && c.getBoundingClientRect().width > 0)
                .map(c => { const r = c.getBoundingClientRect(); return Math.round(100 * r.height / r.width * c.width / c.height); })"""
    with explained(f"opening the {game} tutorial in Voila", srv, page):
        page.goto(srv.url, timeout=120_000)
        expect(page.locator(".hk-tutorial .hk-lesson")).to_contain_text("Rule:", timeout=120_000)
    before = page.evaluate(shapes)
    assert before and all(r == 100 for r in before), before   # drawn at its own shape
    with explained("opening the board's key", srv, page):
        page.locator(".hk-tutorial-game summary", has_text="Key").first.click()
        expect(page.locator(".hk-tutorial-game details[open]").first).to_be_visible()
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(shapes) == before, "the board changed its shape when its key opened"
    # the board's box never scrolls up and down: a mouse wheel over the board (a newcomer's, to scroll
    # the page) once scrolled the box and hid the board's top row, where a choice was lit
    box = page.locator(".hk-tutorial .hk-tutorial-game:not(.hk-tutorial-question) .hk-board-box").first
    top = "b => Math.round(b.querySelector('canvas').getBoundingClientRect().top - b.getBoundingClientRect().top)"
    at = box.evaluate(top)
    # the page's own scroller (the board's nearest ancestor that scrolls up and down)
    page_top = """b => { let el = b.parentElement;
        while (el && !(el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY)))
            el = el.parentElement;
        return (el || document.scrollingElement).scrollTop; }"""
    box.evaluate(page_top.replace("return (el || document.scrollingElement).scrollTop;",
                                  "(el || document.scrollingElement).scrollTop = 0;"))   # the page at its top
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    scrolled = box.evaluate(page_top)
    with explained("turning the mouse wheel over the board: the page scrolls, not the board's box", srv, page):
        page.mouse.move(*(lambda r: (r["x"] + r["width"] / 2, r["y"] + 40))(box.bounding_box()))
        page.mouse.wheel(0, 400)
        # the page scrolls (ipycanvas cancelled every wheel turn on a canvas: TouchScroll keeps them from it)
        box.evaluate(f"b => new Promise(ok => {{ const t0 = performance.now(); const f = () => "
                     f"(({page_top})(b) > {scrolled} || performance.now() - t0 > 10000) ? ok() : "
                     f"requestAnimationFrame(f); f(); }})")
    assert box.evaluate(page_top) > scrolled, "a mouse wheel over the board did not scroll the page"
    assert box.evaluate("b => b.scrollTop") == 0 and box.evaluate(top) == at, "the board's box scrolled up and down"
    assert box.evaluate("b => b.scrollHeight <= b.clientHeight + 1"), "the board's box hides part of what it holds"
