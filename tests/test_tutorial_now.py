"""What matters now comes first (haunted_kit.tutorial): in real seeded first games of every
registered game, played by a scripted learner who reads the lesson only now and then, at
every one of the learner's decisions the step shown is the goal, the player aid, a refusal,
a decision kind legal now, the step of the phase the game is in, or a step told as past;
no queued step offers a kind that is no longer legal; a phase over by now is never told as
current, and an event that came while the bots played says so."""

from __future__ import annotations

import pytest

from haunted_kit.games import game_names
from haunted_kit.protocol import RandomAgent
from haunted_kit.tutorial import MEANWHILE, PAST, Tutorial, phase_now

GAMES = game_names()
#: the learner's decisions looked at in each game (a loop bound: past the first round of each)
DECISIONS = 60


def check_now(t: Tutorial) -> str:
    """Assert the lesson puts what matters now first at this decision; returns the key shown."""
    legal = set(t.legal_by_kind())
    for key in t.queue:
        assert not key.startswith("kind:") or key[5:] in legal, (key, sorted(legal), t.queue)
    st = t.shown()
    if st is None:
        return ""
    unread_legal = [k for k in t.queue if k.startswith("kind:")]
    if unread_legal:  # the decision in front of the learner comes before anything that happened
        assert st.key in ("goal", "aid", "refusal") or st.key.startswith("kind:"), (st.key, t.queue)
    if st.key.startswith("kind:"):
        assert st.key[5:] in legal and "You may now choose" in st.text and "earlier position" not in st.text
    elif st.key.startswith("phase:") and st.key[6:] != phase_now(t.game, t.state):
        assert st.text.startswith(PAST) and st.title.startswith("Earlier: "), (st.key, phase_now(t.game, t.state), st.text)
    return st.key


@pytest.mark.parametrize("game", GAMES)
def test_at_every_decision_the_step_shown_is_about_now(game):
    t = Tutorial(game, seed=3, progress=False)
    bot, shown, past = RandomAgent(4), set(), 0
    for n in range(DECISIONS):
        if t.state.is_terminal():
            break
        shown.add(check_now(t))
        past += sum(1 for k in t.queue if k.startswith("phase:") and k[6:] != phase_now(t.game, t.state))
        if n % 2 == 0:  # every other decision the learner reads all that is queued
            while t.current is not None:
                t.next()
        t.asking = ""
        assert t.attempt(bot.act(t.state.copy())) is None
    assert t.round_done, "the first round never ended within the bound"
    assert any(k.startswith("kind:") for k in shown)
    assert past, "no phase was over by the time the learner looked: the check above never ran"


@pytest.mark.parametrize("game", GAMES)
def test_an_event_the_bots_brought_is_told_as_theirs(game):
    t = Tutorial(game, seed=3, progress=False)
    bot = RandomAgent(4)
    for _ in range(DECISIONS):
        if t.state.is_terminal():
            break
        t.attempt(bot.act(t.state.copy()))
    events = [st for k, st in t.steps.items() if k.startswith("event:")]
    for st in events:
        assert f" {MEANWHILE}: " in st.text or " Just now: " in st.text, st.text
    if any(k.startswith("event:") for k in t.points):
        assert any(f" {MEANWHILE}: " in st.text for st in events), [st.text for st in events]


@pytest.mark.parametrize("game", GAMES)
def test_a_server_seat_is_shown_its_decision_first_too(game):
    """The classroom server's seat tutorial shares the engine: at each of the seat's decisions
    of a seeded table played by random players, no queued kind is one it may not take now,
    and a kind it may take comes before anything but the goal and the aid."""
    from haunted_kit.games import get_game
    from haunted_kit.tutorial import SeatTutorial, kind_of

    g = get_game(game)
    state = g.new_game(seed=5, **({"players": 3} if game == "landmarks" else {}))
    seat = SeatTutorial(g, 0, 5)
    bot, looked = RandomAgent(6), 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            from haunted_kit.protocol import sample_chance
            state.apply_chance(sample_chance(state, 5))
            continue
        if state.current_player() == 0:
            seat.follow(state)
            legal = {kind_of(g, a) for a in state.legal_actions()}
            assert all(k[5:] in legal for k in seat.queue if k.startswith("kind:")), (seat.queue, legal)
            rest = [k for k in seat.queue if k not in ("goal", "aid")]
            assert not rest or rest[0].startswith("kind:") or not any(k.startswith("kind:") for k in rest)
            looked += 1
            if looked % 3 == 0:
                while seat.current is not None:
                    seat.next()
        state.apply_action(bot.act(state.copy()))
    assert looked
