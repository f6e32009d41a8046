"""No stale step (haunted_kit.tutorial): over every registered game, in real seeded first games
played by a learner who looks at the panel at every decision and reads the goal, the player aid
and the decision kinds but never a step about what happened,

* a step about something that happened (a phase, an event, a refused move) is the step shown
  at one of the learner's moves at most: left unread, it is filed at the move (kept among the
  steps met, for Show again) and never shown again by itself;
* no step is filed before the panel has shown it;
* no two steps met say the same thing: a phase the game teaches only as an event (the rest and
  reorder steps of a round) is one step, and no two steps share a title or their words.
"""

from __future__ import annotations

import re

import pytest

from haunted_kit.games import game_names
from haunted_kit.protocol import RandomAgent
from haunted_kit.tutorial import CHOOSING, JUST_NOW, MEANWHILE, Tutorial, teach_points

GAMES = game_names()
#: the learner's decisions looked at (a loop bound: past the first round of every game)
DECISIONS = 80
#: the steps that stay until read: what the learner plays for, the player aid, the kinds
STAY = ("goal", "aid")


def a_refused_action(t: Tutorial):
    """An action of the game refused at the learner's position (legal later in a copy), or None."""
    s, bot = t.state.copy(), RandomAgent(3)
    for _ in range(2000):
        if s.is_terminal():
            return None
        if s.is_chance_node():
            s.apply_chance(s.chance_outcomes()[0][0])
            continue
        for a in s.legal_actions():
            if t.state.why_not(a) is not None:
                return a
        s.apply_action(bot.act(s))
    return None


def words_of(text: str) -> str:
    """A step's own words: its text without what it says of the position now (the choices, the
    event quoted)."""
    for cut in (*CHOOSING, f" {MEANWHILE}:", f" {JUST_NOW}:"):
        text = text.split(cut)[0]
    return text.strip()


def play_unread(game: str, seed: int):
    """A learner who looks at the panel (``shown``) at each decision and reads only the goal, the
    player aid and the decision kinds; one refused move at the third decision. Returns the tutorial and ``{key: decisions at which it was shown}``."""
    t = Tutorial(game, seed=seed, progress=False)
    bot, shown_at = RandomAgent(seed + 10), {}
    for n in range(DECISIONS):
        if t.state.is_terminal() or (t.round_done and n > 20):
            break
        if n == 2 and (bad := a_refused_action(t)) is not None:
            assert t.attempt(bad) is not None  # refused: nothing changed, the refusal step comes first
        while t.current is not None and (t.current.key in STAY or t.current.key.startswith("kind:")):
            t.next()
        st = t.shown()
        if st is not None:
            shown_at.setdefault(st.key, []).append(n)
        t.asking = ""
        assert t.attempt(bot.act(t.state.copy())) is None
    return t, shown_at


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", (1, 3))
def test_a_step_about_the_past_left_unread_is_shown_at_one_move_at_most(game, seed):
    t, shown_at = play_unread(game, seed)
    past = {k: ns for k, ns in shown_at.items() if k not in STAY and not k.startswith("kind:")}
    about = [k for k in t.steps if k not in STAY and k != "refusal" and not k.startswith("kind:")]
    assert past or not about, "no step about the past was ever shown: the check never ran"
    assert len(set(past) - {"refusal"}) >= min(len(about), 2), (sorted(past), about)
    for key, ns in past.items():
        assert len(ns) == 1, (key, ns)
        assert key not in t.queue and key in t.steps  # filed: still among the steps met
    assert "refusal" in past or "refusal" not in t.steps
    # nothing is filed unseen: every step out of the queue, neither read nor skipped, was on the panel
    filed = set(t.steps) - set(t.queue) - t.read - t.skipped
    for key in filed:
        assert key in t.displayed or key.startswith("kind:"), key
    # a filed step can still be shown again on demand
    key = next(iter(past))
    t.replay(key)
    assert t.current.key == key


@pytest.mark.parametrize("game", GAMES)
def test_two_steps_never_say_the_same(game):
    t, _ = play_unread(game, 1)
    points = teach_points(game)
    titles = [st.title for st in t.steps.values()]
    assert len(titles) == len(set(titles)), titles
    said = [words_of(st.text) for st in t.steps.values()]
    assert len(said) == len(set(said)), said
    # a phase the game teaches as an event only is that event's one step
    for key in t.steps:
        if key.startswith("phase:") and key not in points:
            assert f"event:{key[6:]}" not in points, key
    # and no step quotes an event sentence that another step is about ("The rest phase began: Rest: ...")
    began = [st.text for st in t.steps.values() if re.search(r"^The .* phase began: ", st.text)]
    for text in began:
        quoted = text.split("began: ", 1)[1]
        assert not any(other.text.endswith(f": {quoted}") for other in t.steps.values() if other.text != text), text
