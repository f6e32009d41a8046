"""A play view's live region (the keyboard line under its board, ``widgets.access.FieldKeys``:
what a screen reader says after every move) never says one sentence twice, over every
registered game: its last event and the message line that may quote the same event are
compared as shown (cells as the boards write them), so "P1 puts a ghost on plain cell 2,0"
is said once, not once from the event log and again from the message."""

from __future__ import annotations

import random
import re

import pytest

from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.widgets import capture_errors
from haunted_kit.widgets.access import FieldKeys
from haunted_kit.widgets.tutorial import make_play_view

#: a sentence long enough to be a statement, not a short repeated word ("P1.")
LONG = 20


def keypads(widget) -> list:
    """Every keyboard line (live region) under ``widget``."""
    found, todo = [], [widget]
    while todo:
        w = todo.pop()
        if isinstance(w, FieldKeys):
            found.append(w)
        todo.extend(getattr(w, "children", ()) or ())
    return found


def repeated(text: str) -> list:
    """The sentences of ``text`` said more than once (a label such as "Last event:" left aside)."""
    said = [re.sub(r"^[A-Z][a-z ]+: ", "", x.strip()) for x in re.split(r"(?<=[.!?])\s+", text)]  # "Last event: ..."
    said = [x for x in said if len(x) >= LONG]
    return sorted({x for x in said if said.count(x) > 1})


@pytest.mark.parametrize("game", game_names())
def test_the_live_region_says_each_sentence_once(game):
    g = get_game(game)
    state = g.new_game(players=default_players(g), seed=1)
    with capture_errors() as caught:
        view = make_play_view(g, state)
        rng, looked, faults = random.Random(2), 0, []
        for _ in range(60):
            if view.state.is_terminal():
                break
            for pad in keypads(view):
                looked += 1
                faults += [f"{game} after {len(view.state.log)} events: {x!r} twice" for x in repeated(pad.text)]
            view.attempt(rng.choice(view.state.legal_actions()))
    assert not caught, caught
    assert not faults, "\n".join(faults[:10])
    if keypads(view):
        assert looked > 0
