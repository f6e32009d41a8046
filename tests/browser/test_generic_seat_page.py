"""A game with no ``classroom`` module at the table server, in Chromium: ``haunted-kit server
--game nim`` with the toy Nim of tests/fourth_game registered through the kit's
``HAUNTED_KIT_GAMES`` variable. The seat page is the generic one: the game's title, the
observation as the seat may see it as tables (its own bonus card, the other's hidden), the
legal actions as buttons; a click decides, the bot answers, and the page follows."""

from __future__ import annotations

import os

import pytest
from browser_harness import REPO_ROOT, free_port
from playwright.sync_api import expect

from haunted_kit.bots import seat_bot

pytestmark = pytest.mark.browser

FOURTH_GAME = REPO_ROOT / "tests" / "fourth_game"


@pytest.fixture
def nim(monkeypatch):
    """The toy Nim registered in this process and in the server's (which inherits the environment)."""
    from haunted_kit import games

    monkeypatch.syspath_prepend(str(FOURTH_GAME))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO_ROOT), str(FOURTH_GAME), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("HAUNTED_KIT_GAMES", "nim=nim.engine:GAME")
    monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", "GAME"))
    return games.get_game("nim")


def cell(page, key: str):
    """The value cell of ``key`` in the page's observation table."""
    return page.locator(".hk-generic-board tr", has=page.locator(f'th:text-is("{key}")')).locator("td").first


def test_a_game_without_a_classroom_module_gets_the_generic_seat_page(chromium_browser, class_server, tmp_path, nim):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", "nim",
                       "--players", "2", "--seed", "3", "--bots", "2", "--bot-delay", "0")
    s = nim.new_game(players=2, seed=3)  # the table's game, mirrored: the same seed deals the same bonus cards
    bot = seat_bot("greedy", nim, 3, 1)  # the server's bot of seat P2
    context = chromium_browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(srv.seats[(1, 1)])

    expect(page.locator('#app[data-seq="0"]')).to_have_count(1)
    expect(page.locator("h1.hk-title")).to_have_text("Toy Nim · Table 1 · P1")
    assert page.title() == "Your turn · Toy Nim · Table 1 · P1"
    expect(page.locator(".hk-status")).to_have_text("Toy Nim: P1 (you) to move.")
    expect(cell(page, "heaps")).to_have_text("3, 4, 5")
    expect(cell(page, "bonus")).to_have_text(f"{s.bonus[0]}, hidden")  # P2's card stays face down
    expect(page.locator(".hk-action")).to_have_text([a.describe() for a in s.legal_actions()])

    cell(page, "heaps").click()  # the board is tables, not cells: a click on it names the buttons
    expect(page.locator(".hk-message")).to_have_text("Choose with one of the buttons.")
    assert page.locator('#app[data-seq="0"]').count() == 1 and errors == []

    page.locator(".hk-action", has_text="take 3 from heap 3").click()
    s.apply_action(s.legal_actions()[[a.describe() for a in s.legal_actions()].index("take 3 from heap 3")])
    s.apply_action(bot.act(s.copy()))
    expect(page.locator('#app[data-seq="2"]')).to_have_count(1)  # the bot answered: P1 to move again
    expect(cell(page, "heaps")).to_have_text(", ".join(map(str, s.heaps)))
    expect(page.locator(".hk-action")).to_have_text([a.describe() for a in s.legal_actions()])
    assert errors == []
    context.close()


def test_a_server_error_is_shown_on_a_page_that_has_no_view_yet(chromium_browser, class_server, tmp_path, nim,
                                                                  monkeypatch):
    """A seat page whose table the server cannot draw says so (the teacher's log has the details), never blank."""
    monkeypatch.setenv("HAUNTED_KIT_GAMES", "nim=nim.engine:UNDRAWABLE")  # its observation raises
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", "nim",
                       "--players", "2", "--seed", "3")
    page = chromium_browser.new_page()
    page.goto(srv.seats[(1, 1)])
    expect(page.locator(".hk-message")).to_have_text(
        "The server could not draw this page; the teacher's log has the details.")
    expect(page.locator("h1.hk-title")).to_have_text("Toy Nim")  # the table's game, before any view
    assert "a fault of the game's own observation" in srv.log_path.read_text()
    page.close()


def test_the_keyboard_focus_survives_each_redraw_so_a_seat_plays_by_keyboard_alone(chromium_browser, class_server,
                                                                                   tmp_path, nim):
    """Every view redraws the seat page: the control a keyboard player was on keeps the
    focus (the help's summary while another player moves), and after a decision the focus
    is on the first new choice, so Enter, Enter... plays without Tab from the top. The
    settle time (a slow double-click's guard) is set to 0: no wait on the clock."""
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", "nim",
                       "--players", "2", "--seed", "3")
    s = nim.new_game(players=2, seed=3)
    context = chromium_browser.new_context(viewport={"width": 1024, "height": 768})
    p1, p2 = context.new_page(), context.new_page()
    p1.goto(srv.seats[(1, 1)])
    p2.goto(srv.seats[(1, 2)])
    expect(p1.locator('#app[data-seq="0"]')).to_have_count(1)
    expect(p2.locator('#app[data-seq="0"]')).to_have_count(1)
    p1.evaluate("PARAMS.settle_ms = 0")
    focused = "document.activeElement.className + ':' + document.activeElement.textContent"

    p2.locator(".hk-help summary").focus()  # P2 waits, on the help
    p1.locator(".hk-action").first.focus()
    assert p1.evaluate(focused) == f"hk-action:{s.legal_actions()[0].describe()}"
    p1.keyboard.press("Enter")
    s.apply_action(s.legal_actions()[0])
    expect(p2.locator('#app[data-seq="1"]')).to_have_count(1)
    assert p2.evaluate(focused) == ":Help: this phase and this page"  # redrawn for P1's move, still on the help
    expect(p1.locator('#app[data-seq="1"]')).to_have_count(1)

    p2.locator(".hk-action").first.focus()
    p2.keyboard.press("Enter")
    s.apply_action(s.legal_actions()[0])
    expect(p1.locator('#app[data-seq="2"]')).to_have_count(1)
    assert p1.evaluate(focused) == f"hk-action:{s.legal_actions()[0].describe()}"  # the same choice again, by its words
    p1.keyboard.press("Enter")  # no Tab: the next decision
    s.apply_action(s.legal_actions()[0])
    expect(p1.locator('#app[data-seq="3"]')).to_have_count(1)
    expect(p1.locator(".hk-status")).to_have_text("Toy Nim: P2 to move.")
    expect(cell(p1, "heaps")).to_have_text(", ".join(map(str, s.heaps)))
    context.close()
