"""Every game's seat page played by keyboard alone, in Chromium: Tab reaches a button for
each choice, or, when the board has many cell choices (Haunted Lands' placements), a list
whose options the arrow keys walk through; together they are exactly the seat's legal
actions. Enter decides: the table moves on by that very action (the game is mirrored in
Python with the server's seed) and the live region announces the new position. The seat first to move
makes three decisions, or fewer if another seat is to move sooner. The toy Nim of tests/fourth_game
(no classroom module: the generic seat page) is played too."""

from __future__ import annotations

import os

import pytest
from browser_harness import REPO_ROOT, free_port
from playwright.sync_api import expect

from haunted_kit import games

pytestmark = pytest.mark.browser

FOURTH_GAME = REPO_ROOT / "tests" / "fourth_game"
SEED, DECISIONS, MAX_TABS = 7, 3, 80  # seed 7: a board whose first choices are more than 12 cells (the list) in the default game


def reachable(page) -> tuple[dict[int, str], str | None]:
    """Tab once round the page (from wherever the focus is, round to it again):
    ``{action index: label}`` of every choice the keyboard reaches
    (each .hk-action button; each option of the cell list, walked with the arrow keys), and
    how the last one is chosen ("list" or "button")."""
    found, seen, last = {}, set(), None
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement;
            return e ? {tag: e.tagName, cls: e.className, i: e.dataset ? e.dataset.i : null,
                        text: e.textContent, key: e.className + '|' + (e.dataset ? e.dataset.i : '') + '|' + e.textContent
                             + '|' + Array.prototype.indexOf.call(document.querySelectorAll('*'), e)}
                     : null; }""")
        if info is None or info["tag"] == "BODY":  # past the last control: the next Tab starts again at the top
            continue
        if info["key"] in seen:  # round once
            break
        seen.add(info["key"])
        if info["cls"] == "hk-action":
            found[int(info["i"])] = info["text"]
            last = "button"
        elif info["cls"] == "hk-pick-list":
            n = page.locator(".hk-pick-list option").count()
            page.keyboard.press("Home")
            for k in range(n):
                if k:
                    page.keyboard.press("ArrowDown")
                value = page.evaluate("() => document.activeElement.value")
                found[int(value)] = page.evaluate(
                    "() => document.activeElement.selectedOptions[0].textContent")
            last = "list"
    return found, last


def choose_last(page, how: str) -> int:
    """Reach the last choice by keyboard and press Enter; the action index chosen."""
    want = ".hk-pick-list" if how == "list" else ".hk-action"
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const all = document.querySelectorAll('{want}');"
                         f" return document.activeElement === all[all.length - 1]; }}"):
            break
    else:
        raise AssertionError(f"{MAX_TABS} Tab presses did not reach {want}")
    if how == "list":
        page.keyboard.press("End")
    i = int(page.evaluate("() => document.activeElement.value || document.activeElement.dataset.i"))
    page.keyboard.press("Enter")
    return i


@pytest.mark.parametrize("name", [*games.game_names(), "nim"])
def test_a_seat_is_played_by_keyboard_alone(chromium_browser, class_server, tmp_path, monkeypatch, name):
    if name == "nim":  # registered in this process and in the server's (which inherits the environment)
        monkeypatch.syspath_prepend(str(FOURTH_GAME))
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO_ROOT), str(FOURTH_GAME), os.environ.get("PYTHONPATH", "")]))
        monkeypatch.setenv("HAUNTED_KIT_GAMES", "nim=nim.engine:GAME")
        monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", "GAME"))
    game = games.get_game(name)
    srv = class_server("--store", str(tmp_path / "class.db"), "--port", str(free_port()), "--game", name,
                       "--seed", str(SEED), "--bot-delay", "0")
    s = game.new_game(players=games.default_players(game), seed=SEED)
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844})  # a phone: the hardest layout
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    seat = s.current_player()  # the first to move: its page has choices
    page.goto(srv.seats[(1, seat + 1)])
    live = page.locator(".hk-live")
    assert live.get_attribute("aria-live") == "polite"
    expect(page.locator('#app[data-seq="0"]')).to_have_count(1)
    made = lists = 0
    while made < DECISIONS and not s.is_terminal() and s.current_player() == seat:
        legal = s.legal_actions()
        found, how = reachable(page)
        assert sorted(found) == list(range(len(legal))), \
            f"{name}, decision {made + 1}: keyboard reaches {sorted(found)} of {len(legal)} legal actions"
        assert len(set(found.values())) == len(legal), f"{name}: two choices read the same: {sorted(found.values())}"
        lists += how == "list"
        i = choose_last(page, how)
        s.apply_action(legal[i])
        made += 1
        expect(page.locator(f'#app[data-seq="{made}"]')).to_have_count(1)
        expect(live).to_contain_text(page.locator(".hk-status").inner_text())
    assert made >= 1
    print(f"{name}: {made} decisions by keyboard, {lists} from the cell list")
    if not s.is_terminal() and s.current_player() != seat:  # another seat to move: no choice on this page
        assert reachable(page)[0] == {}
    assert errors == []
    context.close()
