"""The table server's pages show words, in Chromium: the new-table form's dropdowns list
each choice by its words (every registered game's form fields; the estate's third
marked Market action by its Market row's text, never its key), a table's settings line
is words, a field's help opens a
kit ruling it cites in its words, and an estate seat page's phase line, which cites a kit
ruling, opens that ruling's reading under it. (Every text of every page, without a
browser: tests/test_player_words.py.)"""

from __future__ import annotations

import pytest
from browser_harness import free_port
from playwright.sync_api import expect

from haunted_kit.events import kit_rulings
from haunted_kit.server import classroom_games
from haunted_kit.tableview import choice_label

pytestmark = pytest.mark.browser


def test_the_form_lists_choices_by_their_words_and_a_cited_ruling_opens_in_words(chromium_browser, class_server,
                                                                                   tmp_path):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", "estate",
                       "--players", "2", "--seed", "3", "--bot-delay", "0")
    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    form = teacher.locator("form.hk-new")
    for g in classroom_games():
        form.locator('select[name="game"]').select_option(g["name"])
        for f in g["fields"]:
            if f["kind"] == "choice":
                select = form.locator(f'select[name="opt-{f["name"]}"]')
                assert select.locator("option").all_inner_texts() == [choice_label(f, c) for c in f["choices"]]
                assert [o.get_attribute("value") for o in select.locator("option").all()] == f["choices"]
            if f.get("rulings"):
                help_box = form.locator(".hk-game-help")
                expect(help_box.locator("details.hk-ruling").first).to_be_attached()
    form.locator('select[name="game"]').select_option("estate")
    third = form.locator('select[name="opt-third_marked"]')
    expect(third.locator("option", has_text="sell_marble")).to_have_count(0)
    third.select_option(label="Sell 1 marble")  # a table made with it: its settings line says the row's words
    form.locator('input[name="players"]').fill("2")
    form.locator("button").click()
    expect(teacher.locator(".hk-message")).to_have_text("Table 2 created.")
    settings = teacher.locator(".hk-table-box", has=teacher.locator('h3.hk-table[data-id="2"]')).locator(".hk-settings")
    expect(settings).to_contain_text("Third marked Market action: Sell 1 marble.")
    assert "_" not in settings.inner_text()

    seat = chromium_browser.new_page()
    seat.goto(srv.seats[(1, 1)])
    expect(seat.locator(".hk-phase")).to_contain_text("ruling E1")
    ruling = seat.locator(".hk-phase-rulings details.hk-ruling")
    expect(ruling.locator("summary")).to_have_text("What kit ruling E1 says")
    ruling.locator("summary").click()
    expect(ruling).to_contain_text(kit_rulings()["E1"][1][:60])
