"""A play view's log keeps what happened since the player's last decision, in every game: bots that
play at once after a decision may log more events than the box's last few, and a newcomer found
what the other seats did "gone" (#20-#45 of a Haunted Lands round). Over every registered game's
own play view (the tutorial's), after each of the learner's decisions (the first game played to its
end), every event since that decision is shown, under "Since your last
decision:", as the learner may read it (the game's visibility declaration)."""

from __future__ import annotations

import re

import pytest

from haunted_kit.games import game_names
from haunted_kit.hexgrid import name_cells
from haunted_kit.tutorial import LEARNER, Tutorial
from haunted_kit.visibility import seen_events
from haunted_kit.widgets.text import visible_text
from haunted_kit.widgets.tutorial import make_play_view

#: decisions tried before a long enough run of bot events (a loop bound, not a result)
BOUND = 300


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("game", game_names())
def test_every_event_since_the_learners_last_decision_is_shown(game):
    t = Tutorial(game, seed=1, progress=False)
    v = make_play_view(t.game, t.state)
    longest = 0
    for _ in range(BOUND):
        s = v.state
        if s.is_terminal():
            break
        assert s.current_player() == LEARNER
        before = len(s.log)
        assert v.attempt(s.legal_actions()[-1])
        s = v.state
        shown = words(visible_text(v))
        assert "Since your last decision:" in shown
        after = shown.split("Since your last decision:")[-1]
        for e in seen_events(t.game, s.log[before:], LEARNER):
            assert words(name_cells(e.text))[:50] in after, (e.seq, e.text)  # cells as the boards write them
        longest = max(longest, len(s.log) - before)
    assert longest > 0
