"""A tutorial class on the table server (``haunted-kit server --tutorial``), in Chromium, for
every registered game: the first seat's page shows, above its board, each kind of decision it
meets for the first time in the game's words with the rule's section (that a kind is taught
only until the seat first decides it is tests/test_tutorial.py's)."""

from __future__ import annotations

import pytest
from browser_harness import free_port, save_screenshot
from playwright.sync_api import expect

from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.tutorial import teach_points

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", game_names())
def test_a_tutorial_class_teaches_each_seat_on_its_page(game, chromium_browser, class_server, tmp_path):
    g = get_game(game)
    n = default_players(g)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", game,
                       "--players", str(n), "--seed", "1", "--bots", ",".join(str(p) for p in range(2, n + 1)),
                       "--bot-delay", "0", "--tutorial")
    s = g.new_game(players=n, seed=1)
    page = chromium_browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(srv.seats[(1, 1)])
    expect(page.locator("#app[data-seq]")).to_have_count(1)
    if s.current_player() != 0:  # the bots open the game: wait for the first seat's turn
        expect(page.locator(".hk-turn")).to_have_count(1, timeout=60_000)
    lesson = page.locator(".hk-lesson")
    expect(lesson).to_be_visible(timeout=30_000)
    points = teach_points(game)
    shown = lesson.inner_text()
    taught = [k for k in points if k.startswith("kind:") and points[k].title in shown]
    assert taught, shown
    for k in taught:
        assert points[k].section in shown
    save_screenshot(page, f"tutorial-seat-{game}", full_page=False)
    assert errors == []
