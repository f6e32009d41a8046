"""The phase a tutorial calls current is the one the game is in (``haunted_kit.tutorial.phase_now``):
a game whose phase changes without an event declares ``phase_of``, and over every registered game
that does, the phase it gives is the phase its next decision's events are logged in. Landmarks'
lead phase begins after the architect deal with no event: at the learner's first decision the
deal is told as over, and leading within the step of the lead decision (Landmarks: How To Play, Take One Action)."""

from __future__ import annotations

import pytest

from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.protocol import RandomAgent, sample_chance
from haunted_kit.tutorial import PAST, Tutorial, phase_now

DECLARING = [g for g in game_names() if getattr(get_game(g), "phase_of", None) is not None]


@pytest.mark.parametrize("name", DECLARING)
def test_a_declared_phase_is_the_phase_of_the_next_decisions_events(name):
    game = get_game(name)
    for seed in (1, 2, 3):
        s = game.new_game(players=default_players(game), seed=seed)
        bot, checked = RandomAgent(seed), 0
        while not s.is_terminal() and checked < 60:
            if s.is_chance_node():
                s.apply_chance(sample_chance(s))
                continue
            before, logged = game.phase_of(s), len(s.log)
            s.apply_action(bot.act(s))
            new = s.log[logged:]
            assert new, "a decision logs at least one event"
            assert str(new[0].phase) == before, (name, seed, checked, before, new[0].kind, new[0].phase)
            checked += 1
        assert checked > 0


def test_landmarks_leading_is_now_at_the_first_decision(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = Tutorial("landmarks", seed=1)
    assert t.state.current_player() == 0 and phase_now(t.game, t.state) == "lead"
    assert t.state.log[-1].phase == "deal"   # the last event is the deal's: the log alone would say "deal"
    # "Leading" is taught within the step of leading (it only said that step again), the deal as over,
    # read before the lead as its context
    assert "phase:lead" not in t.steps and t.queue.index("phase:deal") < t.queue.index("kind:Lead")
    deal, lead = t.shown("phase:deal"), t.shown("kind:Lead")
    assert deal.title == "Earlier: The deal" and deal.text.startswith(PAST)
    assert "in clockwise order from your left, may follow it, acquire a landmark instead, or decline" in lead.text
