"""A tap on a touch screen does what a click does, on every canvas board of every game that takes
clicks (exercise boards, play views): ipycanvas turns a finger into touch events and sends no
mouse click, so each board wires its click handler through the kit's one
:func:`haunted_kit.widgets.canvas.on_tap`."""

from __future__ import annotations

import pytest
from ipycanvas import Canvas, MultiCanvas

from haunted_kit.games import game_module, get_game
from haunted_kit.widgets.canvas import TAP_SLOP_PX, on_tap
from haunted_kit.widgets.text import visible_text

from ruletools import games_with_module


def _send(canvas, content) -> None:
    """One message from the browser to ``canvas`` (a MultiCanvas' events come on its top layer)."""
    target = canvas._canvases[-1] if isinstance(canvas, MultiCanvas) else canvas
    target._handle_frontend_event(None, content, None)


def click(canvas, x, y) -> None:
    _send(canvas, {"event": "mouse_down", "x": x, "y": y})


def tap(canvas, x, y) -> None:
    """A one-finger tap, as a phone's browser reports it to ipycanvas: the touch start with the
    finger, the touch end with the fingers still down (none)."""
    _send(canvas, {"event": "touch_start", "touches": [{"x": x, "y": y}]})
    _send(canvas, {"event": "touch_end", "touches": []})


def canvases(widget) -> list:
    out, todo, seen = [], [widget], set()
    while todo:
        w = todo.pop(0)
        if id(w) in seen:
            continue
        seen.add(id(w))
        if isinstance(w, (Canvas, MultiCanvas)):
            out.append(w)
            continue
        todo.extend(getattr(w, "children", ()) or ())
    return out


def test_a_tap_is_a_click_and_a_swipe_a_pinch_or_a_cancel_is_not():
    c = Canvas(width=100, height=100)
    got = []
    on_tap(c, lambda x, y: got.append((x, y)))
    click(c, 10, 20)
    tap(c, 30, 40)
    assert got == [(10, 20), (30, 40)]
    # a swipe: the finger moved more than the slop between touching and lifting
    _send(c, {"event": "touch_start", "touches": [{"x": 50, "y": 50}]})
    _send(c, {"event": "touch_move", "touches": [{"x": 50, "y": 50 + TAP_SLOP_PX + 1}]})
    _send(c, {"event": "touch_end", "touches": []})
    # a small tremble is still a tap, at the point first touched
    _send(c, {"event": "touch_start", "touches": [{"x": 60, "y": 60}]})
    _send(c, {"event": "touch_move", "touches": [{"x": 62, "y": 61}]})
    _send(c, {"event": "touch_end", "touches": []})
    # a pinch: two fingers down, lifted one after the other
    _send(c, {"event": "touch_start", "touches": [{"x": 1, "y": 1}, {"x": 9, "y": 9}]})
    _send(c, {"event": "touch_end", "touches": [{"x": 9, "y": 9}]})
    _send(c, {"event": "touch_end", "touches": []})
    # a second finger joining a first one makes it no tap
    _send(c, {"event": "touch_start", "touches": [{"x": 5, "y": 5}]})
    _send(c, {"event": "touch_start", "touches": [{"x": 5, "y": 5}, {"x": 70, "y": 70}]})
    _send(c, {"event": "touch_end", "touches": [{"x": 5, "y": 5}]})
    _send(c, {"event": "touch_end", "touches": []})
    # a touch the browser cancelled
    _send(c, {"event": "touch_start", "touches": [{"x": 80, "y": 80}]})
    _send(c, {"event": "touch_cancel", "touches": []})
    _send(c, {"event": "touch_end", "touches": []})
    assert got == [(10, 20), (30, 40), (60, 60)]


EXERCISE_GAMES = [n for n in games_with_module("exercises", "widgets")
                  if getattr(game_module(n, "widgets"), "exercise_view", None) is not None]


def _board_exercises(name: str) -> list[str]:
    """The game's exercises whose board takes clicks (a cells answer or cells marked on it)."""
    ex = game_module(name, "exercises").EXERCISES
    return [k for k in ex if (lambda e: e.kind == "cells" or bool(e.highlight))(ex.make(k, 1))]


@pytest.mark.parametrize("name", EXERCISE_GAMES)
def test_every_exercise_board_answers_a_tap_as_a_click(name):
    make = game_module(name, "widgets").exercise_view
    for key in _board_exercises(name):
        for seed in (1, 2):
            by_click, by_tap = make(key, seed), make(key, seed)
            if by_click.board is None:
                continue
            a, b = canvases(by_click.board)[0], canvases(by_tap.board)[0]
            points = [by_click.board.geom.centre(c) for c in sorted(by_click.ex.answer)] \
                if by_click.ex.kind == "cells" else [(5.0, 5.0)]
            for x, y in points:
                click(a, x, y)
                tap(b, x, y)
            assert by_tap.selected == by_click.selected, (key, seed)
            assert visible_text(by_tap) == visible_text(by_click), (key, seed)
            if by_click.ex.kind == "cells":
                assert by_tap.selected == set(by_click.ex.answer), (key, seed)  # each tap selected its cell
                by_tap.submit()
                assert by_tap.solved, (key, seed)


PLAY_GAMES = [n for n in games_with_module("widgets") if getattr(game_module(n, "widgets"), "play_view", None)]


@pytest.mark.parametrize("name", PLAY_GAMES)
def test_every_play_view_board_answers_a_tap_as_a_click(name):
    """Every canvas of the game's play view: a tap at points over it does what a click there does
    (the same words shown, the same position)."""
    g = get_game(name)
    players = min(max(2, g.min_players), g.max_players)

    def view():
        s = g.new_game(players=players, seed=3)
        return game_module(name, "widgets").play_view(s, bots=[p for p in range(players) if p != 0], hints=False)

    by_click, by_tap = view(), view()
    pairs = list(zip(canvases(by_click), canvases(by_tap)))
    assert pairs, f"{name}'s play view has no canvas board"
    changed = False
    for a, b in pairs:
        w, h = a.width, a.height
        before = visible_text(by_click)
        for fx, fy in ((0.5, 0.5), (0.3, 0.6), (0.7, 0.4)):
            click(a, fx * w, fy * h)
            tap(b, fx * w, fy * h)
            assert visible_text(by_tap) == visible_text(by_click), (name, fx, fy)
            if hasattr(by_click.state, "to_dict"):
                assert by_tap.state.to_dict() == by_click.state.to_dict(), (name, fx, fy)   # the same position
        changed |= visible_text(by_click) != before
    assert changed, f"no click on {name}'s play view boards showed anything: the test would not see a lost tap"


@pytest.mark.parametrize("name", PLAY_GAMES)
def test_every_board_keeps_a_swipe_from_ipycanvas(name):
    """Every canvas board of the game's play view sits in a pan box (only the canvases pan) whose
    board widget holds a TouchScroll for that widget's CSS class (so a swipe on it scrolls the page;
    tests/browser/test_exercise_widget.py swipes) and the pan box's cue for the same class, over the box."""
    from haunted_kit.widgets.canvas import PAN_BOX_CLASS, PanCue, TouchScroll

    g = get_game(name)
    players = min(max(2, g.min_players), g.max_players)
    v = game_module(name, "widgets").play_view(g.new_game(players=players, seed=3), bots=[], hints=False)
    todo, found = [v], 0
    while todo:
        w = todo.pop()
        kids = list(getattr(w, "children", ()) or ())
        boxes = [k for k in kids if PAN_BOX_CLASS in getattr(k, "_dom_classes", ())]
        for box in boxes:
            assert all(isinstance(c, (Canvas, MultiCanvas)) for c in box.children), (name, type(w).__name__)
            touch = [k for k in kids if isinstance(k, TouchScroll)]
            cue = [k for k in kids if isinstance(k, PanCue)]
            assert len(touch) == 1 and touch[0].box_class in w._dom_classes, (name, type(w).__name__)
            assert len(cue) == 1 and cue[0].host_class == touch[0].box_class, (name, type(w).__name__)
            assert kids.index(cue[0]) == kids.index(box) - 1, "the cue is right over the board"
            found += 1
        assert not any(isinstance(k, (Canvas, MultiCanvas)) for k in kids) or PAN_BOX_CLASS in w._dom_classes, \
            f"a canvas of {name}'s play view outside a pan box"
        todo.extend(kids)
    assert found, f"{name}'s play view has no canvas board"
