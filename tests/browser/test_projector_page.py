"""The projector view in Chromium (Voila): mid-game it shows no hidden quest and says
what the phase is; at the end the ranking lists each player's quests; both fit a
1024 px wide window without clipping. The games are mirrored in Python."""

from __future__ import annotations

import nbformat
import pytest
from browser_harness import assert_fits, explained, page_errors, save_screenshot
from playwright.sync_api import expect

import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.draw.scene import final_ranking

pytestmark = pytest.mark.browser

SEED = 5
CODE = f"""
import haunted_kit as hk
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.widgets import ProjectorView

def play(stop):
    s = hk.new_game(players=4, seed={SEED})
    bots = [GreedyAgent({SEED} * 10 + p) for p in range(4)]
    while not s.is_terminal() and not stop(s):
        s.apply_action(bots[s.current_player()].act(s))
    return s
"""
MID = "ProjectorView(play(lambda s: s.season == 2 and s.phase == 'turns'))"
END = "ProjectorView(play(lambda s: False))"


def mirrored(stop):
    s = hk.new_game(players=4, seed=SEED)
    bots = [GreedyAgent(SEED * 10 + p) for p in range(4)]
    while not s.is_terminal() and not stop(s):
        s.apply_action(bots[s.current_player()].act(s))
    return s


def test_projector_page_public_then_ranking_and_fits_1024(page, voila_server, tmp_path):
    nb = nbformat.v4.new_notebook(metadata={"title": "Projector"})
    nb.cells = [nbformat.v4.new_code_cell(CODE), nbformat.v4.new_code_cell(MID), nbformat.v4.new_code_cell(END)]
    path = tmp_path / "projector.ipynb"
    nbformat.write(nb, path)
    srv = voila_server(path)
    views = page.locator(".hk-projector")
    with explained("loading the projector page", srv, page):
        page.set_viewport_size({"width": 1024, "height": 900})
        page.goto(srv.url + "/")
        expect(views).to_have_count(2, timeout=90_000)
        expect(views.nth(1).locator(".hk-ranking")).to_be_visible()

    mid, end = mirrored(lambda s: s.season == 2 and s.phase == "turns"), mirrored(lambda s: False)
    box = mid.config.box
    hidden = [q for p in range(4) for q in mid.quests[p]]
    assert hidden, "the mid-game position should have quests face down"
    mid_text = views.nth(0).inner_text()
    for q in hidden:
        assert box.quests[q].text not in mid_text
    assert "quest card face down" in mid_text and "Turns: on a turn a player spends action tokens" in mid_text

    ranking = views.nth(1).locator(".hk-ranking")
    expect(ranking).to_contain_text(f"P{end.winner + 1} wins.")
    rows = ranking.locator(".hk-rank")
    expect(rows).to_have_count(4)
    for i, r in enumerate(final_ranking(end)):
        row = rows.nth(i).inner_text()
        assert f"P{r.player + 1}" in row and str(r.valor) in row
        for q, n, v in r.quests:
            assert f"quest {q} ({box.quests[q].text.removesuffix('.')}): {n}× = {v} valor" in row
    save_screenshot(page, "projector-1024", full_page=True)
    assert_fits(page, 1024, ".hk-projector")
    assert page_errors(page) == "<none>"
