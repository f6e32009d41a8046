"""The ipycanvas/ipywidgets board widgets, built and driven from Python.

Every test here fails when a widget callback raised (fixture ``no_callback_errors``);
ipywidgets alone would only log such an error.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from html import escape
from pathlib import Path

import pytest

from haunted_kit.render.style import name_cells
from haunted_kit.protocol import describe_action
from ipycanvas import canvas as ipc

from haunted_kit.haunted.flow import ResourceChoice
import haunted_kit as hk
from haunted_kit.haunted import actions as A
from haunted_kit.render import RenderError
from haunted_kit.widgets import CommandCounter
from haunted_kit.haunted.widgets import (EventLogPanel, FieldWidget, GameBoardPanel, PlayerBoardPanel, PlayView,
                                         StepThroughView, candidates_for_cell)
from haunted_kit.widgets.testing import no_callback_errors  # noqa: F401  (fixture)

LAYOUT = ["R01", "R02", "R03", "R04", "R05", "R06"]
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _strict(no_callback_errors):  # noqa: F811
    yield no_callback_errors


class FirstLegal:
    """Stand-in bot: the first legal action."""

    def act(self, state):
        return state.legal_actions()[0]


def game():
    return hk.new_game(players=4, seed=1, layout=LAYOUT, skills=[1, 4, 7, 10], market=1, order=[0, 1, 2, 3])


def at_turns(s=None):
    """P1's first turn: the spread placed by taking the first legal placement."""
    s = s or game()
    while s.pending:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == "turns" and s.current_player() == 0
    return s


def ghostless(s):
    return next(i for i in range(len(s.field.cells)) if not s.ghosts[i])


def on_cell(s, p, cell):
    """The same state with ``p``'s sensor moved to ``cell`` (a position set by hand)."""
    s = s.copy()
    s.sensor[p] = s.field.index[cell]
    s._legal = None
    return s


# ----------------------------------------------------------------------------- field widget
def test_click_at_a_cell_centre_calls_back_with_that_cell():
    s = at_turns()
    fw = FieldWidget(s, size=30)
    got = []
    fw.on_click(got.append)
    for cell in [(0, 0), (2, 1), (-1, 3), (3, -2)]:
        fw.click_cell(cell)
    assert got == [(0, 0), (2, 1), (-1, 3), (3, -2)]
    assert fw.canvas._dom_classes == ("hk-field", "hk-least-text-742")  # 30 px hexes: least text 7.425 px (4 sensors)


def test_click_off_the_field_only_hints():
    fw = FieldWidget(at_turns(), size=30)
    got, missed = [], []
    fw.on_click(got.append)
    fw.on_miss(lambda x, y: missed.append((x, y)))
    with CommandCounter() as cc:
        fw.click(2, 2)
    assert got == [] and missed == [(2, 2)]
    assert "outside the field" in fw.last_hint and "outside the field" in fw.info.value
    assert cc.messages == 0  # nothing redrawn
    assert "outside the field" in fw.keypad.text


def test_an_old_hint_is_not_kept_beside_newer_messages():
    """A newcomer saw "That point is outside the field" kept in the field's box after later
    moves: a new message or a new position replaces the hint."""
    s = at_turns()
    fw = FieldWidget(s, size=30)
    fw.click(2, 2)
    fw.announce("P1: explore to cell 1,0.")
    assert "outside the field" not in fw.keypad.text and "explore to cell 1,0" in fw.keypad.text
    fw.click(2, 2)
    s2 = s.copy()
    s2.apply_action(s2.legal_actions()[0])
    fw.update(s2)
    assert not fw.last_hint and "outside the field" not in fw.info.value and "outside the field" not in fw.keypad.text


def test_hover_shows_the_cells_facts():
    s = at_turns()
    fw = FieldWidget(s, size=30)
    fw.hover(*fw.geom.centre((3, 1)))
    text = fw.info.value
    assert "plain cell 3,1 on region tile R01" in text and "next to a lake" in text   # cells and tiles as the board names them
    assert "exploring here costs P1" in text
    fw.hover(*fw.geom.centre((2, 1)))
    assert "lake" in fw.info.value and "cannot be explored" in fw.info.value
    n = fw.draw_counts["hover"]
    fw.hover(*fw.geom.centre((2, 1)))  # same cell: nothing redrawn
    assert fw.draw_counts["hover"] == n
    fw.send_mouse("mouse_out", 0, 0)
    assert fw.info.value == "&nbsp;"


def test_only_the_changed_layer_is_redrawn():
    s = at_turns()
    fw = FieldWidget(s, size=30)
    before = dict(fw.draw_counts)
    t = s.copy()
    t.ghosts[ghostless(t)] = 1
    with CommandCounter() as cc:
        drawn = fw.update(t)
    assert drawn == ["pieces"]
    assert cc.messages == 1 and cc.commands > 3
    assert fw.draw_counts["terrain"] == before["terrain"]
    with CommandCounter() as cc:
        assert fw.update(t) == []
    assert cc.messages == 0
    with CommandCounter() as cc:
        fw.set_highlight([(1, 0)], path=[(0, 0), (1, 0)])
    assert cc.messages == 1 and fw.draw_counts["highlights"] == before["highlights"] + 1


def test_a_failed_draw_does_not_block_the_next(monkeypatch):
    import haunted_kit.haunted.widgets.field as field_mod

    s = at_turns()
    fw = FieldWidget(s, size=30)
    t = s.copy()
    t.ghosts[ghostless(t)] = 1
    real = field_mod.pieces_layer

    def broken(*a, **k):
        real(*a, **k)
        raise RuntimeError("boom while drawing")

    monkeypatch.setattr(field_mod, "pieces_layer", broken)
    with CommandCounter() as cc, pytest.raises(RuntimeError, match="boom"):
        fw.update(t)
    assert cc.messages == 0
    mgr = ipc._CANVAS_MANAGER
    assert mgr._caching is False and mgr._commands_cache == []
    monkeypatch.setattr(field_mod, "pieces_layer", real)
    with CommandCounter() as cc:
        assert fw.update(t) == ["pieces"]  # the layer stayed dirty and is drawn now
    assert cc.messages == 1


def test_a_raising_callback_is_shown_and_recorded(no_callback_errors):  # noqa: F811
    fw = FieldWidget(at_turns(), size=30)

    def bad(cell):
        raise ValueError(f"cannot handle {cell}")

    fw.on_click(bad)
    fw.click_cell((1, 0))
    assert fw.last_error is not None and "cannot handle (1, 0)" in str(fw.last_error)
    assert fw.error_banner.layout.display == "" and "cannot handle (1, 0)" in fw.error_banner.value
    assert "hk-error" in fw.error_banner._dom_classes
    assert [str(e) for e in no_callback_errors] == [str(fw.last_error)]
    no_callback_errors.clear()  # provoked on purpose
    fw.on_click(bad, remove=True)
    with CommandCounter() as cc:
        fw.set_highlight([(0, 1)])  # drawing still reaches the canvas
    assert cc.messages == 1


def test_a_raising_callback_fails_the_test_that_triggered_it(tmp_path):
    test = tmp_path / "test_meta.py"
    test.write_text(textwrap.dedent("""
        import haunted_kit as hk
        from haunted_kit.haunted.widgets import FieldWidget
        from haunted_kit.widgets.testing import no_callback_errors

        def test_click(no_callback_errors):
            fw = FieldWidget(hk.new_game(seed=1))
            fw.on_click(lambda cell: 1 / 0)
            fw.click_cell((0, 0))
    """))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "a widget callback raised" in r.stdout and "ZeroDivisionError" in r.stdout


def test_unknown_terrain_fails_at_construction():
    s = game()
    field = s.field
    import dataclasses

    s.field = dataclasses.replace(field, terrain=("swamp",) + field.terrain[1:])
    with pytest.raises(RenderError, match=r"cell \(0, 0\) on tile Kalena: terrain 'swamp'"):
        FieldWidget(s)
    with pytest.raises(RenderError, match="swamp"):
        PlayView(s)


# ----------------------------------------------------------------------------- panels
def test_panels_show_the_numbers_of_a_known_state():
    s = at_turns()
    s.set_resource(2, "water", 2)  # P3: 2 water
    s.pec[2] = 9
    s.valor[2] = 4
    s.quests[2] = (2,)
    own = PlayerBoardPanel(s, 2, viewer=2).value
    assert "water <b>2</b>/3" in own and "pecunias <b>9</b>" in own and "valor <b>4</b>" in own
    assert "quests: 2: " in own
    assert "1 quest card face down" in PlayerBoardPanel(s, 2, viewer=0).value
    board = GameBoardPanel(s).value
    assert "market card 1" in board and "skill 4" in board and 'title="4 valor"' in board
    log = EventLogPanel(s, last=3).value
    assert log.count("#") >= 3 and "hk-event-log" in log


# ----------------------------------------------------------------------------- play view
def test_click_at_cell_centre_gives_the_expected_candidate_and_undo_restores_exactly():
    s = at_turns()
    view = PlayView(s)
    assert view.viewer == 0
    assert candidates_for_cell(view.state, (1, 0)) == [A.Explore((1, 0))]
    before = view.state.to_json()
    view.click_cell((1, 0))  # a suburb next to the city: one legal candidate, applied at once
    assert view.state.sensor[0] == view.state.field.index[(1, 0)]
    assert "P1: explore to cell 1,0" in view.message  # cells named as the board writes them (events.shown_text)
    assert view.undo() is True
    assert view.state.to_json() == before
    assert view.undo() is False and "Nothing to undo" in view.message


def test_several_candidates_on_a_cell_are_offered_as_buttons():
    s = on_cell(at_turns(), 0, (3, 1))  # plain next to the lake (2, 1)
    s.ghosts[s.field.index[(3, 1)]] = 0
    view = PlayView(s)
    cands = view.click_action((3, 1))
    assert set(cands) == {A.Extract((3, 1), "food"), A.Extract((3, 1), "water")}
    labels = [b.description for b in view.choices.children]
    assert labels == [name_cells(a.describe_at(view.state)) for a in cands]  # as every view words them
    assert labels == ["extract food on your plain cell 3,1", "extract water on your plain cell 3,1"]
    assert "choose one" in view.message
    before = view.state.to_json()
    water = next(b for b in view.choices.children if "water" in b.description)
    water.click()
    assert view.state.to_json() != before
    assert view.state.resource(0, "water") == 1  # P1 holds 1 water
    view.click_cell((2, 1))  # the adjacent lake: no extraction token is left
    assert view.message.startswith("Nothing you can do on lake cell 2,1")  # cells named as the board writes them
    assert str(view.state.why_not(A.Extract((2, 1), "water"))) in view.message


def test_what_the_sensors_cell_allows_is_a_button_without_a_click_on_the_cell():
    # a newcomer standing on a plain with a ghost saw End turn, Train and Learn, and no way to
    # extract or contact but clicking the cell under their own sensor
    s = on_cell(at_turns(), 0, (3, 1))  # plain next to the lake (2, 1)
    s.ghosts[s.field.index[(3, 1)]] = 1   # a ghost on the sensor's cell
    s._legal = None
    view = PlayView(s)
    legal = view.state.legal_actions()
    expected = [a for a in legal if isinstance(a, (A.Extract, A.Build, A.Contact))]
    assert A.Extract((3, 1), "food") in expected and A.Contact() in expected   # the rules allow these here
    assert view._choice_actions == expected
    assert [b.description for b in view.choices.children] == [name_cells(describe_action(a, view.state)) for a in expected]
    assert not any(isinstance(a, (A.Explore, A.EndTurn)) for a in view._choice_actions)  # explore stays on the board
    before = view.state.resource(0, "food")
    next(b for b in view.choices.children if "extract food" in b.description).click()
    assert view.state.resource(0, "food") == before + 1
    # the extraction token is spent: no extraction is offered any more, the contact still is
    assert not any(isinstance(a, A.Extract) for a in view._choice_actions)
    assert A.Contact() in view._choice_actions


def test_an_illegal_click_shows_the_engines_reason():
    view = PlayView(at_turns())
    far = (-1, 3)
    view.click_cell(far)
    why = view.state.why_not(A.Explore(far))
    assert why is not None and str(why) in view.message
    assert str(view.last_refusal) == str(why)
    # a button for an illegal choice: training in the city
    view.attempt(A.Train("contact"))
    assert str(view.state.why_not(A.Train("contact"))) in view.message


def test_buttons_cover_the_turn_actions():
    view = PlayView(at_turns())
    assert view.turn_box.layout.display == ""
    # each row named with where the rules allow it (the box's terrains flagged train_and_learn)
    where = [t.name for t in view.state.config.box.terrains.values() if t.train_and_learn]
    assert where == ["suburb"]   # Additional Actions: training and learning happen in the suburb
    assert [row.children[0].value for row in view.turn_box.children[1:3]] == ["Train (in the suburb):",
                                                                            "Learn (in the suburb):"]
    assert [b.description.split(" (")[0] for b in view.train_box.children] == list(view.state.config.box.tracks)
    box = view.state.config.box  # each skill card with its cost on its button, its effect listed under them
    assert [b.description for b in view.learn_box.children] == [
        f"skill {k} ({' + '.join(box.skills[k].cost)})" for k in (1, 4, 7, 10)]
    assert view.learn_box.children[0].description == "skill 1 (food + water)"
    for k in (1, 4, 7, 10):
        assert escape(f"skill {k} ({box.skills[k].deck}: {box.skills[k].text.rstrip('.')}; "
                      f"costs {' + '.join(box.skills[k].cost)})") in view.learn_words.value
    assert [o[1] for o in view.all_pick.options] == view.state.legal_actions()
    view.all_pick.value = A.EndTurn()
    view.b_do.click()
    assert view.state.current_player() == 1


def test_highlights_are_the_cells_of_the_legal_actions():
    view = PlayView(at_turns())
    cells, _, _ = view.field._highlight
    legal = {tuple(a.cell) for a in view.state.legal_actions() if isinstance(a, A.Explore)}
    assert set(cells) == legal and all(v == 1 for v in cells.values())  # suburb costs 1


def test_ghost_placement_by_click():
    s = game()
    p = s.current_player()
    view = PlayView(s)
    target = s.legal_actions()[0].cell
    view.click_cell(target)
    assert view.state.ghosts[view.state.field.index[target]] == 1
    assert view.viewer == p


def test_a_click_during_a_bots_decision_is_ignored_with_a_message():
    s = at_turns()
    view = PlayView(s, bots={0: FirstLegal()}, auto_bots=False)
    before = view.state.to_json()
    view.click_cell((1, 0))
    assert "is a bot" in view.message and view.state.to_json() == before
    view.bot_running = True
    view.click_cell((1, 0))
    assert "bots are playing" in view.message
    view.bot_running = False


def test_bots_step_one_decision_or_play_on():
    s = at_turns()
    view = PlayView(s, bots={1: FirstLegal(), 2: "greedy", 3: "random"})  # P1 human
    assert view.humans == [0]
    view.attempt(A.EndTurn())  # P1 ends; the bots play on until P1 is to move again
    assert view.state.current_player() == 0
    seats = [seat for _, seat in view.undo_stack]
    assert seats[0] == 0 and set(seats[1:]) == {1, 2, 3}  # P1's end of turn, then every bot decided
    steps = PlayView(at_turns(), bots={1: FirstLegal()}, auto_bots=False)
    steps.attempt(A.EndTurn())
    assert steps.state.current_player() == 1 and steps.bot_step() is True
    assert [seat for _, seat in steps.undo_stack] == [0, 1]


def test_undo_takes_back_only_the_humans_own_last_decision():
    view = PlayView(at_turns(), bots={1: FirstLegal(), 2: "greedy", 3: "random"})  # P1 human
    assert view.b_undo.disabled and view.undo() is False and view.message == "Nothing to undo."
    start = view.state.to_json()
    view.click_cell((1, 0))                      # P1 explores to the suburb: still P1's turn
    assert not view.b_undo.disabled
    assert view.undo() is True and view.state.to_json() == start
    assert view.message == "P1's last decision was taken back." and view.b_undo.disabled
    view.click_cell((1, 0))
    explored = view.state.to_json()
    view.attempt(A.EndTurn())                    # the bots play until P1 is to move again
    assert view.state.current_player() == 0 and view.state.to_json() != explored
    after_bots = view.state.to_json()
    assert view.b_undo.disabled                  # a bot decided since P1's end of turn
    assert view.undo() is False and view.state.to_json() == after_bots
    last = view.undo_stack[-1][1]
    assert view.message == f"Nothing of yours to undo: P{last + 1} (bot) decided last."
    view.click_cell(next(tuple(a.cell) for a in view.state.legal_actions() if isinstance(a, A.Explore)))
    assert view.undo() is True and view.state.to_json() == after_bots   # P1's new decision only
    assert view.undo() is False and not view.bot_running and view.state.current_player() == 0


def test_hot_seat_undo_is_refused_once_the_next_human_is_to_move():
    view = PlayView(at_turns())                 # four humans on one screen
    view.click_cell((1, 0))
    assert view.undo() is True                  # P1 takes back P1's exploration
    view.attempt(A.EndTurn())
    assert view.viewer == 1 and view.b_undo.disabled
    before = view.state.to_json()
    assert view.undo() is False and view.state.to_json() == before
    assert view.message == ("Nothing of P2's to undo: P1 has decided since; "
                            "Undo takes back only your own last decision.")


def live_widget_models() -> int:
    """Widget models alive in this process (ipywidgets' registry of every open widget)."""
    from ipywidgets.widgets import widget

    return len(widget._instances)


def test_live_widget_models_stay_flat_over_a_game_over_undo_and_over_new_games():
    from haunted_kit.haunted.agents import GreedyAgent

    view = PlayView(players=4, mode="wanderer", seed=1, bots=[1, 2, 3])   # P1 human, three greedy bots
    start = live_widget_models()
    human = GreedyAgent(9)
    decisions = 0
    while not view.state.is_terminal():
        assert view.attempt(human.act(view.state.copy()))
        decisions += 1
    # a whole game: seed 1 with the bots in seats 1-3 seeded 101-103 (the kit's seat rule) takes 200
    # decisions, 49 of them P1's; the undo stack holds every one
    assert decisions == 49 and len(view.undo_stack) == view.state.decisions == 200
    assert "Game over" in view.status.value
    assert view.ranking.layout.display == "" and view.ranking.value.count('class="hk-rank"') == 4
    assert live_widget_models() == start
    # 50 undo/redo pairs on P1's first turn of a new game
    assert view.new_game(seed=2) is True
    assert view.ranking.layout.display == "none" and view.state.config.seed == 2
    while view.state.current_player() != 0 or view.state.pending:
        view.attempt(human.act(view.state.copy()))
    assert live_widget_models() == start
    before = view.state.to_json()
    explore = next(a for a in view.state.legal_actions() if isinstance(a, A.Explore))
    for _ in range(50):
        assert view.attempt(explore) and view.undo()
    assert view.state.to_json() == before
    assert live_widget_models() == start
    with pytest.raises(ValueError, match="this view has 4 seats"):
        view.new_game(hk.new_game(players=2, seed=1))
    assert view.state.to_json() == before
def test_all_bot_game_plays_to_the_end():
    view = PlayView(seed=3, players=2, bots={0: "greedy", 1: "random"})
    assert view.viewer is None and view.humans == []
    view.play_on()
    assert view.state.is_terminal()
    assert "Game over" in view.status.value


def test_hidden_quests_only_for_the_viewed_seat():
    s = at_turns()
    s.quests = [(1,), (2, 5), (), ()]
    view = PlayView(s, bots=[1, 2, 3], auto_bots=False)
    assert view.viewer == 0
    texts = [b.value for b in view.player_panels.boards]
    assert "quests: 1: " in texts[0]
    assert "2 quest cards face down" in texts[1] and "quests: 2" not in texts[1]


def test_pending_choices_become_buttons():
    s = at_turns()
    s = s.copy()
    s.pending.append(ResourceChoice(0, 1, "test"))
    s._legal = None
    view = PlayView(s)
    labels = [b.description for b in view.choices.children]
    assert labels == [name_cells(a.describe()) for a in view.state.legal_actions()]
    view.choices.children[2].click()  # take wood
    assert view.state.resource(0, "wood") == 1


def test_a_failing_refresh_inside_a_click_shows_a_banner_and_the_next_draw_works(monkeypatch, no_callback_errors):  # noqa: F811
    import haunted_kit.haunted.widgets.field as field_mod

    view = PlayView(at_turns())
    real = field_mod.pieces_layer
    monkeypatch.setattr(field_mod, "pieces_layer", lambda *a, **k: 1 / 0)
    view.click_cell((1, 0))
    errs = view.errors + view.field.errors
    assert errs and "ZeroDivisionError" in view.error_banner.value
    assert no_callback_errors
    no_callback_errors.clear()
    monkeypatch.setattr(field_mod, "pieces_layer", real)
    with CommandCounter() as cc:
        view.undo()
    assert cc.messages >= 1 and view.field._keys.get("pieces") is not None


# ----------------------------------------------------------------------------- step-through
def played(decisions=40):
    from haunted_kit.haunted.agents import GreedyAgent

    s = game()
    bot = GreedyAgent(2)
    for _ in range(decisions):
        if s.is_terminal():
            break
        s.apply_action(bot.act(s))
    return s


def test_step_through_a_live_game_and_a_saved_log():
    s = played()
    view = StepThroughView(s, size=24)
    n = len(s.log)
    assert view.n_events == n and view.seq == n - 1 and view.slider.max == n - 1
    assert view.field.state.to_json() == s.to_json() or view.field.state.log[-1].seq == n - 1
    view.show(0)
    assert f"Event #0</b> (events #0 to #{n - 1})" in view.explanation.value and "setup" in view.explanation.value
    # one numbering everywhere: header, slider, log panel and the events table name the same event
    k = n - 5
    view.show(k)
    assert view.slider.value == k and f"Event #{k}<" in view.explanation.value
    assert f"#{k} " in view.events.value and view.events.value.count("background:#fff3b0") == 1
    frame = s.events()
    assert frame.loc[frame.seq == k, "text"].item() == name_cells(s.log[k].text)  # cells as the board writes them
    assert escape(name_cells(s.log[k].text)) in view.explanation.value
    # an event with a cell: the board shows the state after its step, the cell marked
    k = next(e.seq for e in s.log if e.kind == "ghost_placed")
    view.slider.value = k
    assert view.seq == k
    assert view.field._highlight[2] == s.log[k].cell
    assert view.field.state.ghosts[s.field.index[s.log[k].cell]] == 1
    view.b_next.click()
    assert view.seq == k + 1
    view.b_prev.click()
    assert view.seq == k
    view.b_next_step.click()
    assert view.seq > k
    saved = StepThroughView(s.to_json(), start=k)
    assert saved.seq == k and saved.field.state.to_json() == view.history.state_at(k).to_json()


def test_step_through_follows_a_play_view():
    play = PlayView(at_turns())
    steps = StepThroughView(play)
    n = steps.n_events
    play.click_cell((1, 0))
    steps.refresh()
    assert steps.n_events > n and steps.seq == steps.n_events - 1
    play.undo()
    steps.refresh()
    assert steps.n_events == n


def test_a_new_browser_view_gets_each_layer_drawn_again():
    fw = FieldWidget(at_turns(), size=24)
    before = fw.draw_counts["pieces"]
    with CommandCounter() as cc:
        fw.layer("pieces")._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert fw.draw_counts["pieces"] == before + 1 and cc.messages == 1


def test_replay_of_a_saved_file_and_of_a_redacted_log(tmp_path):
    from haunted_kit.haunted.history import ReplayError, replay
    from haunted_kit.haunted.state import VISIBILITY

    s = played(60)
    path = tmp_path / "game.json"
    s.save(path)
    h = replay(path)
    assert h.steps[-1].state.to_json().replace('"auto_chance": false', "") == s.to_json().replace('"auto_chance": false', "")
    assert all(st.first <= st.last for st in h.steps)
    view = StepThroughView(str(path), size=20)
    assert view.n_events == len(s.log)
    t = s.copy()
    t.log = VISIBILITY.log_for(t.log, 0)  # as P1 may see it
    if any(e.private and e.player != 0 for e in s.log):
        with pytest.raises(ReplayError, match="redacted"):
            replay(t)
    t.log = None  # a game played without a log replays from its action record all the same
    h = replay(t)
    assert h.steps[-1].state.to_dict() == {**t.to_dict(), "auto_chance": h.steps[-1].state.auto_chance}
    # one setup step (every setup draw), then one step per entry of the record
    assert len(h) == 1 + len(t.history()) - len(h.steps[0].state.history())


def test_step_through_jumps_to_any_decision():
    s = played(30)
    view = StepThroughView(s, size=20)
    decisions = [e for e in s.history() if not e.chance]
    assert view.history.decisions == len(decisions) == s.decisions
    view.decision.value = 5  # the fifth decision, 1-based in the box
    step = view.history.steps[view.history.decision(4)]
    assert step.action == decisions[4].action and step.player == decisions[4].player
    assert view.seq == step.first and view.field.state.to_json() == step.state.to_json()
    view.show_decision(-1)
    assert view.history.steps[view.history.step_of(view.seq)].action == decisions[-1].action
    with pytest.raises(IndexError, match=f"the game holds {len(decisions)} decisions"):
        view.show_decision(len(decisions))


def test_suggest_a_move_shows_the_search_agents_top_three(no_callback_errors):  # noqa: F811
    view = PlayView(players=2, seed=5, bots=[1])
    s = view.state
    while s.current_player() != 0:  # the human seat is P1
        view.bot_step()
    panel = view.hint_panel
    assert not panel.button.disabled
    panel.button.click()  # no kernel here: the search runs at once
    assert len(panel.hints) == 3
    legal = s.legal_actions()
    assert all(h.action in legal for h in panel.hints)
    html = panel.output.value
    assert html.count("<li>") == 3 and "of 1,000 playouts" in html
    assert escape(panel.hints[0].action.describe()) in html
    view.attempt(panel.hints[0].action)  # playing a move makes the hints stale
    assert panel.hints == [] and panel.output.value == ""
    off = PlayView(players=2, seed=5, bots=[1], hints=False)
    assert off.hint_panel is None and "switched off for this table" in off.actions_box.children[-1].value


def test_in_a_live_kernel_hints_are_searched_off_the_event_loop(no_callback_errors):  # noqa: F811
    import asyncio

    from haunted_kit.widgets.hints import HintPanel

    view = PlayView(players=2, seed=5, bots=[1], hints=False)
    while view.state.current_player() != 0:
        view.bot_step()
    loop = asyncio.new_event_loop()
    panel = HintPanel(view, lambda: loop, playouts=300)
    seen_busy = []

    async def click_and_wait():
        panel.suggest()
        assert panel.busy and panel.button.disabled and "Thinking for P1" in panel.output.value
        while panel.busy:  # the loop keeps serving other work while the search runs in a thread
            seen_busy.append(True)
            await asyncio.sleep(0.01)

    def run():  # in a thread of its own: the test session may already run a loop (Playwright's)
        try:
            loop.run_until_complete(click_and_wait())
        finally:
            loop.close()

    import threading

    t = threading.Thread(target=run)
    t.start()
    t.join(120)
    assert not t.is_alive()
    assert seen_busy and len(panel.hints) == 3 and not panel.button.disabled


def test_every_cell_a_choice_names_is_written_on_the_play_views_board(monkeypatch):
    """A newcomer saw choices naming cells the board did not name: at its default size the
    play view's board writes each cell's q,r (readable: at least the kit's least text size),
    and every choice names cells the kit's way ("cell q,r"), each one a cell of the board."""
    import re

    from haunted_kit.haunted.draw.scene import terrain_layer
    from haunted_kit.render.primitives import Text
    from haunted_kit.render.style import MIN_TEXT_PX, cell_name

    from haunted_kit.haunted.widgets import field as field_module

    layers = []  # what the play view's own field draws
    monkeypatch.setattr(field_module, "terrain_layer", lambda *a: layers.append(terrain_layer(*a)) or layers[-1])
    view = PlayView(at_turns())
    assert view.field.show_coords and layers
    drawn = [t for t in layers[-1] if isinstance(t, Text)]
    written = {t.text.split(" ")[-1] for t in drawn}
    assert written == {cell_name(c) for c in view.state.field.cells}
    assert min(t.size for t in drawn) >= MIN_TEXT_PX
    labels = [o[0] for o in view.all_pick.options] + [b.description for b in view.choices.children]
    named = [m for text in labels for m in re.findall(r"cell (-?\d+,-?\d+)", text)]
    assert named and set(named) <= written
    assert not any(re.search(r"\(-?\d+, -?\d+\)", text) for text in labels), labels


# ----------------------------------------------------------------------------- what is this?

def _with_ghost_and_building():
    """A 3-player game (seed 1, every seat a greedy bot) played until a building stands and a ghost is out."""
    view = PlayView(players=3, seed=1, bots=[0, 1, 2], auto_bots=False, hints=False)
    for _ in range(300):
        s = view.state
        if any(b >= 0 for b in s.building) and any(s.ghosts):
            return view
        view.bot_step()
    raise AssertionError("no building and ghost within 300 decisions")


def test_a_click_with_what_is_this_says_the_ghost_and_the_building_on_a_cell(no_callback_errors):
    view = _with_ghost_and_building()
    s, field = view.state, view.field
    w = field.whatis
    ghost = next(c for i, c in enumerate(s.field.cells) if s.ghosts[i])
    i = next(i for i, b in enumerate(s.building) if b >= 0)
    built, name = s.field.cells[i], list(s.config.box.buildings)[s.building[i]]
    before = s.copy()
    w.toggle.value = True                               # a click is now a question, not a move
    field.click_cell(ghost)
    said = w.last
    # rulebook "Ghosts", Spread: 4 ghosts are placed at each spread
    assert said.startswith(f"What is this? Cell {ghost[0]},{ghost[1]}: ") and "a ghost" in said
    assert "G: a ghost on the cell; 4 arrive at each spread" in said and "(rule: Ghosts)" in said
    field.click_cell(built)
    said = w.last
    owner = f"P{s.owner[i] + 1}"
    assert f"{owner}'s {name}" in said and f"(rule: Buildings: {name.title()})" in said
    b = s.config.box.buildings[name]
    assert f"stands on {b.terrain}" in said and f"worth {b.valor} valor" in said
    assert view.state.history() == before.history()    # nothing was played
    assert 'role="status" aria-live="polite"' in w.answer.value and escape(said) in w.answer.value
    # the keyboard list gives the same answer
    w.pick.value = ghost
    assert w.last.startswith(f"What is this? Cell {ghost[0]},{ghost[1]}: ") and "G: a ghost on the cell" in w.last
    # with the toggle up, a click is a move again; on a cell with no legal action it says what is there too
    w.toggle.value = False
    lake = next(c for k, c in enumerate(s.field.cells) if s.field.terrain[k] == "lake")
    view.click_action(lake)
    assert w.last.startswith(f"What is this? Cell {lake[0]},{lake[1]}: lake cell") and "L: lake cell; cannot be entered" in w.last


def test_the_step_through_answers_every_click_and_keeps_its_key(no_callback_errors):
    view = _with_ghost_and_building()
    step = StepThroughView(view.state)
    w = step.field.whatis
    s = step.history.steps[-1].state
    ghost = next(c for i, c in enumerate(s.field.cells) if s.ghosts[i])
    step.field.click_cell(ghost)                         # nothing is played here: every click is a question
    assert "G: a ghost on the cell" in w.last
    assert "<b>G</b>" in w.key.value and "(rule: Ghosts)" in w.key.value
