"""Every game at the classroom server, in Chromium: the teacher creates an estate table
and a Landmarks & Architects table from the new-table form (the game picker shows the
chosen game's own fields and its player range), and a student's seat page makes one
decision by click in each (an estate tile placed by a click on its slot, a Landmarks
lead by its button). The games are mirrored in Python to know what each page offers."""

from __future__ import annotations

import pytest
from browser_harness import free_port
from playwright.sync_api import expect

from haunted_kit.bots import make_bot, seat_bot
from haunted_kit.estate import classroom as estate_views
from haunted_kit.estate.draw import land_geometry
from haunted_kit.games import get_game
from haunted_kit.render.style import cell_name

pytestmark = pytest.mark.browser

SIZE = 30.0  # the server's default hex size


def seat_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    return context, page, errors


def test_a_teacher_creates_estate_and_landmarks_tables_and_seats_play_them_by_click(chromium_browser, class_server,
                                                                                     tmp_path):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--players", "2",
                       "--seed", "4", "--bot-delay", "0")
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    form = teacher.locator("form.hk-new")
    game = form.locator('select[name="game"]')
    players = form.locator('input[name="players"]')

    # an estate table: its rulings as fields, 2 to 4 players
    game.select_option("estate")
    expect(players).to_have_attribute("max", "4")
    expect(form.locator('select[name="opt-connection"]')).to_be_visible()
    expect(form.locator('input[name="opt-rounds"]')).to_have_count(0)
    form.locator('select[name="opt-connection"]').select_option("line")
    players.fill("2")
    form.locator('input[name="seed"]').fill("5")
    form.locator('input[name="bots"]').fill("2")
    form.locator("button").click()
    expect(teacher.locator(".hk-message")).to_have_text("Table 2 created.")

    # a Landmarks table: rounds and modules, 2 to 5 players; the page holds back values out of range
    game.select_option("landmarks")
    expect(players).to_have_attribute("max", "5")
    expect(form.locator('select[name="opt-connection"]')).to_have_count(0)
    rounds = form.locator('input[name="opt-rounds"]')
    rounds.fill("0")
    players.fill("3")
    form.locator('input[name="seed"]').fill("1")
    form.locator("button").click()   # refused by the page (the server's refusal: tests/test_server_games.py)
    assert rounds.evaluate("e => e.validity.rangeUnderflow") is True
    players.fill("6")
    assert players.evaluate("e => e.validity.rangeOverflow") is True
    players.fill("3")
    rounds.fill("2")
    form.locator('input[name="bots"]').fill("")   # the form kept the estate table's bot seat: all human now
    form.locator("button").click()
    expect(teacher.locator(".hk-message")).to_have_text("Table 3 created.")
    expect(teacher.locator("h3.hk-table")).to_have_count(3)
    expect(teacher.locator('h3.hk-table[data-id="3"]')).to_contain_text("3 players, seed 1")
    links = [a.get_attribute("href") for a in teacher.locator('.hk-seat a[href^="/s/"]').all()]
    assert len(links) == 2 + 2 + 3
    base = srv.teacher.split("/teacher")[0]

    # the estate against a bot (P2): P1 decides by buttons until a tile can be placed, then
    # places one by a click on its slot (and the tile's button when several fit there)
    g = get_game("estate")
    s = g.new_game(players=2, seed=5, connection="line")
    mine, bot = make_bot("greedy", 7, g), seat_bot("greedy", g, 5, 1)   # the server's bot: seat_bot of the table's seed
    context, page, errors = seat_page(chromium_browser, base + links[2])
    seq = 0
    while not any(type(a).__name__ == "PlaceTile" for a in s.legal_actions()):
        expect(page.locator(f'#app[data-seq="{seq}"]')).to_have_count(1)
        a = mine.act(s.copy())
        page.locator(f'.hk-action[data-i="{s.legal_actions().index(a)}"]').click()
        s.apply_action(a)
        s.apply_action(bot.act(s.copy()))
        seq += 2
    expect(page.locator(f'#app[data-seq="{seq}"]')).to_have_count(1)
    tile = next(a for a in s.legal_actions() if type(a).__name__ == "PlaceTile")
    svg = page.locator(".hk-board svg")
    box = svg.bounding_box()
    scale = box["width"] / float(svg.get_attribute("viewBox").split()[2])
    x, y = land_geometry(s.box, SIZE).centre(tile.slot)
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
    same = [a for a in s.legal_actions() if estate_views.cell_of(a) == tuple(tile.slot)]
    if len(same) > 1:   # several tiles fit that slot: the page offers them as buttons
        page.locator(".hk-action", has_text=estate_views.label(s, tile)).click()
    s.apply_action(tile)
    seq += 1
    while s.current_player() == 1:   # the bot answers at once
        s.apply_action(bot.act(s.copy()))
        seq += 1
    expect(page.locator(f'#app[data-seq="{seq}"]')).to_have_count(1)
    expect(page.locator(".hk-player-board").first).to_contain_text(f"lands: {cell_name(tile.slot)}")
    expect(page.locator(".hk-status")).to_have_text(estate_views.status(s, 0))
    assert errors == []
    context.close()

    # Landmarks: P1 leads harvest with its button; P2's page then shows its own hand
    lm = get_game("landmarks").new_game(players=3, seed=1, rounds=2)
    context, page, errors = seat_page(chromium_browser, base + links[4])
    expect(page.locator('#app[data-seq="0"]')).to_have_count(1)
    expect(page.locator(".hk-action")).to_have_count(len(lm.legal_actions()))
    page.locator(".hk-action", has_text="lead harvest").click()
    expect(page.locator('#app[data-seq="1"]')).to_have_count(1)
    expect(page.locator(".hk-status")).to_have_text("Turn 1 of 2, follow, harvest led by P1: P2 to move.")
    expect(page.locator(".hk-player-board").first).to_contain_text(
        "your hand: " + ", ".join(lm.box.cards[k].name for k in lm.hands[0]))
    assert errors == []
    context.close()
    teacher.close()
