"""The projector view and the final ranking: only public information before the end,
the phase explained, the ranking with each quest's score at the end."""

from __future__ import annotations

import pytest

import haunted_kit as hk
from haunted_kit.haunted import rules as R
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.draw import html as H
from haunted_kit.haunted.draw.scene import final_ranking, phase_sentence
from haunted_kit.haunted.widgets import PlayView, ProjectorView
from haunted_kit.widgets.testing import no_callback_errors  # noqa: F401  (fixture)

LAYOUT = ["R01", "R02", "R03", "R04", "R05", "R06"]


@pytest.fixture(autouse=True)
def _strict(no_callback_errors):  # noqa: F811
    yield no_callback_errors


def game():
    return hk.new_game(players=4, seed=1, layout=LAYOUT, skills=[1, 4, 7, 10], market=1, order=[0, 1, 2, 3])


def finished(seed=5, log=True):
    s = hk.new_game(players=4, seed=seed, log=log)
    bots = [GreedyAgent(seed * 10 + p) for p in range(4)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    return s


def texts(view) -> str:
    return " ".join([view.status.value, view.phase.value, view.log_panel.value, view.board_panel.value,
                     view.ranking.value] + [b.value for b in view.player_panels.boards])


def test_the_projector_shows_no_hidden_quest_before_the_end():
    s = game()
    while s.pending:
        s.apply_action(s.legal_actions()[0])
    s.quests = [(1,), (2, 5), (), ()]
    view = ProjectorView(s)
    shown = texts(view)
    box = s.config.box
    for q in (1, 2, 5):
        assert box.quests[q].text not in shown
    assert "quests: " not in shown
    assert "1 quest card face down" in shown and "2 quest cards face down" in shown
    assert "(you)" not in shown and "<i>you</i>" not in shown  # no seat is "you" on the shared screen
    assert view.ranking.layout.display == "none" and view.ranking.value == ""
    # turns: the phase in a sentence, and who is to move
    assert "Turns: on a turn a player spends action tokens" in view.phase.value
    assert "Season 1, round 1, turns: P1 to move." in view.status.value


def test_quest_choices_in_the_projectors_log_are_face_down():
    s = finished()
    chosen = [e for e in s.log if e.kind == "quest_chosen"]
    assert chosen  # quests were taken during the game
    public = H.event_log_html(s, H.PUBLIC, last=0)
    for e in chosen:
        assert e.text not in public
    assert f"P{chosen[0].player + 1} takes a quest card face down." in public


def test_the_final_ranking_follows_the_valor_stack_and_the_scored_quests():
    s = finished()
    rows = final_ranking(s)
    assert [r.player for r in rows] == R.stack_order(s) and rows[0].player == s.winner
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    for r in rows:
        assert r.valor == s.valor[r.player]
        # each quest's valor, as scored: the valor events of source "quests"
        gained = [e.data["amount"] for e in s.log if e.kind == "valor" and e.player == r.player
                  and e.data["source"] == "quests"]
        assert r.quest_valor == sum(gained) == sum(v for _, _, v in r.quests)
        assert sorted(q for q, _, _ in r.quests) == sorted(s.quests[r.player])
    # without a log the same numbers are worked out from the final state
    quiet = finished(log=False)
    assert [(r.player, r.valor, r.quest_valor) for r in final_ranking(quiet)] == [(r.player, r.valor, r.quest_valor) for r in rows]


def test_the_projector_at_the_end_shows_the_ranking_and_reveals_the_quests():
    s = finished()
    view = ProjectorView(s, size=30)
    assert view.ranking.layout.display == ""
    table = view.ranking.value
    assert f"<b>P{s.winner + 1} wins.</b>" in table
    assert table.count('class="hk-rank"') == 4
    box = s.config.box
    for r in final_ranking(s):
        for q, n, v in r.quests:
            assert f"quest {q} ({box.quests[q].text.removesuffix('.')}): {n}&times; = <b>{v}</b> valor" in table
    assert "quest card face down" not in " ".join(b.value for b in view.player_panels.boards)
    assert view.phase.value.count(f"P{s.winner + 1} wins with {s.valor[s.winner]} valor") == 1


def test_a_collective_loss_lists_no_quest():
    s = game()
    s.lost, s.phase, s.winner, s.over_reason = True, "over", None, "every Kalena cell holds a ghost"
    assert all(r.quests == () for r in final_ranking(s))
    assert "Kalena fell: every player loses." in H.ranking_html(s)
    assert phase_sentence(s) == ("Game over: Kalena fell (every Kalena cell holds a ghost), so every player "
                                 "loses together.")


def test_the_projector_follows_a_play_view():
    play = PlayView(game(), bots=[0, 1, 2], auto_bots=False)   # P4, the last player, spreads first
    view = ProjectorView(play)
    assert "Spread: ghosts arrive" in view.phase.value
    cell = play.state.legal_actions()[0].cell
    pieces = view.field.draw_counts["pieces"]
    play.click_cell(cell)
    assert view.state is play.state and view.field.draw_counts["pieces"] == pieces + 1
    assert "places ghosts" in view.status.value
    play.undo()
    assert view.state is play.state and view.field.draw_counts["pieces"] == pieces + 2


def test_projector_zoom_out_of_range_is_refused():
    with pytest.raises(ValueError, match="zoom must be between 0.5 and 3, got 5"):
        ProjectorView(game(), zoom=5)
