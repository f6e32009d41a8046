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
