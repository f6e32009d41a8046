"""The board's key and "what is this?" on a phone, and settings in words on the teacher page,
for every game with a classroom view, in Chromium (issues 29 item 3, 32 item 2): a student
on a 390x844 touch screen opens the key under the board by a tap (no hover), taps a code
the board draws and reads what it is, its rule and its box value in the page's status
line; the projector's board carries the same titles; the teacher page writes each table's
settings as sentences, not keys and JSON."""

from __future__ import annotations

import pytest
from browser_harness import free_port
from playwright.sync_api import expect
from ruletools import games_with_module

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", games_with_module("classroom"))
def test_a_student_on_a_phone_taps_the_key_and_a_code_and_reads_what_it_is(chromium_browser, class_server, tmp_path,
                                                                           name):
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", name,
                       "--players", "3", "--seed", "4", "--bot-delay", "0")
    phone = chromium_browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(srv.seats[(1, 1)])
    key = page.locator(".hk-board details.hk-key")
    expect(key).to_have_count(1)
    expect(key.locator("dl")).not_to_be_visible()  # shut until asked for
    key.locator("summary").tap()
    expect(key.locator("dl")).to_be_visible()
    assert key.locator("dt").count() >= 4 and "(rule: " in key.locator("dd").first.inner_text()
    # a drawn code with its title: tapped, the status line under the board says what it is
    code = page.locator(".hk-board svg text:has(title)").first
    title = code.locator("title").text_content()
    assert title and "(rule: " in title
    code.tap(force=True)
    expect(page.locator(".hk-board .hk-what")).to_have_text("What is this? " + title)
    expect(page.locator(".hk-board .hk-what")).to_have_attribute("role", "status")
    # the key stays open across a redraw (the page is redrawn at every view)
    page.evaluate("render()")
    expect(key.locator("dl")).to_be_visible()
    assert errors == []

    teacher = chromium_browser.new_page()
    teacher.goto(srv.teacher)
    settings = teacher.locator(".hk-settings").first
    expect(settings).to_contain_text("Settings: ")
    text = settings.inner_text()
    assert "{" not in text and "[" not in text and " true" not in text and "_" not in text, text

    projector = chromium_browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(srv.projector[1])
    expect(projector.locator(".hk-board svg text:has(title)").first).to_be_attached()
    expect(projector.locator(".hk-board details.hk-key")).to_have_count(1)
