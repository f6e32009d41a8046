"""A tutorial class on the table server (``haunted-kit server --tutorial``), in Chromium, for
every registered game: one page per seat, every seat human. Each seat reads its lesson steps
(the goal first) and plays its first choice until a seat is asked a question; that seat
answers it by keyboard only, wrong twice (a hint, then the rule on the position) and then
right, shows a step again and skips it, shows the player aid and the goal again; the server is SIGKILLed and started again on the
same store, and the reloaded page and the teacher page find the seat's progress. The panel's
text is at least 12 px on a phone. (The steps' words and the stepped feedback's exact texts
are tests/test_server_tutorial.py's; axe over the panel is tests/browser/test_axe_pages.py's.)"""

from __future__ import annotations

import pytest
from browser_harness import free_port, save_screenshot
from playwright.sync_api import expect

from haunted_kit.exercises import NONE_OF_THEM
from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.hexgrid import cell_name
from haunted_kit.tutorial import aid_step, make_question

pytestmark = pytest.mark.browser

#: decisions played before a seat is asked a question (a loop bound, not a result)
BOUND = 60
#: every text of the panel on a phone, in CSS px, at least
MIN_TEXT_PX = 12


def tutor(page, what: str):
    return page.evaluate(f"() => tutor && tutor.on ? {what} : null")


def read_on(page) -> None:
    """Press Next (by keyboard) while a step is shown and no question is asked, each time
    waiting for the server's answer (one more step read)."""
    for _ in range(20):
        if tutor(page, "tutor.question !== null || tutor.preparing || tutor.current === null"):
            return
        read = tutor(page, "tutor.summary.read")
        page.locator(".hk-tutor-next").focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => tutor.summary.read > {read}")


def play_first_choice(page) -> None:
    seq = int(page.locator("#app").get_attribute("data-seq"))
    choice = page.locator(".hk-action, .hk-pick-go").first
    choice.focus()
    page.keyboard.press("Enter")  # a key press: never taken for the rest of a double-click
    page.wait_for_function(f"() => +document.getElementById('app').dataset.seq > {seq}")


def answer_by_keyboard(page, ex, answer) -> None:
    """Give ``answer`` (the exercise's form) on the page with the keyboard only, then Enter."""
    form = page.locator("form.hk-question")
    if ex.kind in ("number", "cells"):
        said = str(answer) if ex.kind == "number" else "; ".join(cell_name(c) for c in sorted(answer))
        box = form.locator(".hk-q-text")
        box.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type(said)
    else:
        want = {answer} if ex.kind == "choose" else (set(answer) or {NONE_OF_THEM})
        for box in form.locator("input[name=hk-q-option]").all():
            if box.is_checked() != (box.get_attribute("value") in want):
                box.focus()
                page.keyboard.press("Space")
        form.locator("input[name=hk-q-option]").first.focus()
    page.keyboard.press("Enter")


def a_wrong_answer(ex):
    a = ex.answer
    if ex.kind == "number":
        return a + 1 if ex.bounds[1] is None or a + 1 <= ex.bounds[1] else a - 1
    if ex.kind == "choose":
        return next(o for o in ex.options if o != a)
    if ex.kind == "pick":
        return frozenset(sorted(a)[1:]) if len(a) > 1 else frozenset({next(o for o in ex.options
                                                                           if o not in a and o != NONE_OF_THEM)})
    return frozenset(sorted(a)[1:]) if len(a) > 1 else frozenset(a | {(99, 99)})


def start(class_server, store, port, game, n):
    return class_server("--store", str(store), "--port", str(port), "--game", game, "--players", str(n),
                        "--seed", "1", "--bot-delay", "0", "--tutorial")


@pytest.mark.parametrize("game", game_names())
def test_a_seat_answers_skips_shows_again_and_finds_its_progress_after_a_restart(game, chromium_browser, class_server,
                                                                                  tmp_path):
    g = get_game(game)
    n = default_players(g)
    store, port = tmp_path / "class.db", free_port()
    srv = start(class_server, store, port, game, n)
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    pages = []
    for p in range(1, n + 1):
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(srv.seats[(1, p)])
        expect(page.locator("#app[data-seq]")).to_have_count(1)
        pages.append(page)
    mover = next(pg for pg in pages if pg.locator(".hk-turn").count())
    expect(mover.locator("#hk-tutor .hk-tutor-title")).to_be_visible()
    assert tutor(mover, "tutor.current.key") == "goal"  # what the seat plays for, first
    assert mover.locator("#hk-tutor").get_attribute("aria-labelledby") == "hk-tutor-h"
    asked = None
    for _ in range(BOUND):
        for page in pages:
            if tutor(page, "tutor.current") is not None or tutor(page, "tutor.question") is not None:
                read_on(page)
            if tutor(page, "tutor.question !== null || tutor.preparing"):
                # made in the server's worker pool: the question comes in a further message
                page.wait_for_function("() => tutor.question !== null", timeout=60_000)
                asked = page
                break
        if asked is not None:
            break
        mover = next(pg for pg in pages if pg.locator(".hk-turn").count())
        play_first_choice(mover)
        for page in pages:  # every page has the new position (and its panel) before the next look
            page.wait_for_function(f"() => document.getElementById('app').dataset.seq === "
                                   f"'{mover.locator('#app').get_attribute('data-seq')}'")
    assert asked is not None, f"no seat of {game} was asked a question in {BOUND} decisions"
    page = asked
    key, seed = tutor(page, "tutor.question.key"), tutor(page, "tutor.question.seed")
    ex = make_question(g, key, seed)
    form = page.locator("form.hk-question")
    expect(form.locator("legend")).to_have_text(ex.question)
    feedback = page.locator(".hk-q-feedback")
    assert (feedback.get_attribute("role"), feedback.get_attribute("aria-live")) == ("status", "polite")
    wrong = a_wrong_answer(ex)
    answer_by_keyboard(page, ex, wrong)
    expect(feedback).to_have_class("hk-q-feedback nudge")
    expect(feedback).to_contain_text(f"Not quite: a hint (try 1) {ex.check(wrong, 0).text}")
    answer_by_keyboard(page, ex, wrong)
    expect(feedback).to_have_class("hk-q-feedback rule")
    expect(feedback).to_contain_text("Not quite: the rule on this position (try 2)")
    answer_by_keyboard(page, ex, ex.answer)
    expect(feedback).to_have_class("hk-q-feedback right")
    expect(feedback).to_have_text(f"Right! {ex.right_text()}")
    expect(form).to_have_count(0)  # answered: the question closes, the verdict stays
    # the keyboard goes on in the panel (never back to the page's top)
    assert page.evaluate("() => document.getElementById('hk-tutor').contains(document.activeElement)")
    # read on; a step read may bring its own question, answered right at once
    asked = 1
    for _ in range(BOUND):
        read_on(page)
        if not tutor(page, "tutor.question !== null || tutor.preparing"):
            break
        page.wait_for_function("() => tutor.question !== null", timeout=60_000)
        more = make_question(g, tutor(page, "tutor.question.key"), tutor(page, "tutor.question.seed"))
        expect(form.locator("legend")).to_have_text(more.question)
        answer_by_keyboard(page, more, more.answer)
        expect(feedback).to_have_text(f"Right! {more.right_text()}")
        asked += 1
    # show the goal again (chosen from the steps met, by keyboard), then skip it
    sel = page.locator(".hk-tutor-list")
    sel.focus()
    sel.select_option("goal")
    page.locator(".hk-tutor-replay").focus()
    page.keyboard.press("Enter")
    goal = tutor(page, "tutor.met[0].title")
    expect(page.locator(".hk-tutor-title")).to_have_text(goal)
    live = page.locator("#hk-tutor .hk-tutor-live")  # a screen reader hears the step shown
    assert (live.get_attribute("role"), live.get_attribute("aria-live")) == ("status", "polite")
    expect(live).to_contain_text(f"Tutorial: {goal}. ")
    page.locator(".hk-tutor-skip").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => tutor.summary.skipped === 1")
    # the player aid and the goal again (as the notebook's button): the aid first, listing every kind of decision
    page.locator(".hk-tutor-aid").focus()
    page.keyboard.press("Enter")
    lines = aid_step(g, g.new_game(players=n, seed=1)).lines
    expect(page.locator("#hk-tutor .hk-aid li")).to_have_count(len(lines))
    expect(page.locator("#hk-tutor .hk-aid li").first).to_have_text(f"{lines[0][0]}: {lines[0][1]}")
    page.locator(".hk-tutor-next").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".hk-tutor-title")).to_have_text(goal)
    expect(page.locator("#hk-tutor .hk-aid")).to_have_count(0)
    page.locator(".hk-tutor-next").focus()
    page.keyboard.press("Enter")
    summary = tutor(page, "tutor.summary")
    assert summary["right"] == asked and summary["asked"] == asked and summary["read"] == summary["met"]
    progress = page.locator(".hk-tutor-progress").inner_text()
    assert progress == (f"Your progress: {summary['read']} of {summary['met']} steps read, 1 skipped; "
                        f"questions: {asked} right of {asked} asked.")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    small = page.evaluate("""(min) => [...document.querySelectorAll('#hk-tutor *')]
        .filter(e => e.childNodes.length && [...e.childNodes].some(c => c.nodeType === 3 && c.textContent.trim())
                     && e.getClientRects().length)
        .map(e => [e.tagName, parseFloat(getComputedStyle(e).fontSize)]).filter(([, px]) => px < min)""", MIN_TEXT_PX)
    assert small == []
    save_screenshot(page, f"tutorial-seat-{game}-phone", full_page=True)
    # a crash: the server is killed and started again on the same store; the progress is there
    class_server.kill(srv)
    srv2 = start(class_server, store, port, game, n)
    page.reload()
    expect(page.locator(".hk-tutor-progress")).to_have_text(progress)
    assert tutor(page, "tutor.summary") == summary
    assert page.locator(".hk-tutor-list option").first.inner_text().endswith("(read)")
    teacher = context.new_page()
    teacher.goto(srv2.teacher)
    seat = pages.index(page)
    cell = teacher.locator("tr.hk-seat").nth(seat).locator(".hk-tutor-cell")
    expect(cell).to_have_text(f"{summary['read']} of {summary['met']} steps read, 1 skipped; questions {asked} right of {asked} asked")
    assert errors == []
    context.close()
