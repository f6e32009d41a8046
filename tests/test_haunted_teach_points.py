"""What a newcomer's first Haunted Lands round must teach, checked against the rulebook and the
engine (the s33 newcomer's log and quiz): the Extract step says that water from a lake puts the
depletion token on the lake (Basic Actions: Extraction, "Remember that") and when depletion
tokens leave the field (Game Flow, end of the season 3A/3B; Construction step 3); the Train step
says a new token arrives inactive until the rest (Additional Actions: Training, step 4); the
Setting up step says the starting stack is random and its top plays first (Game Setup, steps
12-13); the production phase's step says where production sits in the round (Game Flow,
step 2: after the spread, before the turns); and the play view's log keeps every event since
the learner's last decision, however many the bots made."""

from __future__ import annotations

import re

import pytest

from haunted_kit.games import get_game
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.scenario import place, scenario, set_pecunias
from haunted_kit.haunted.widgets import PlayView
from haunted_kit.protocol import RandomAgent
from haunted_kit.tutorial import PAST, Step, Tutorial, aid_step, choosing_words, step_parts, teach_points
from haunted_kit.widgets.text import html_text

#: benchmarks/bench_tutorial_words.py's LIMIT: the most words a step may show before its choices
LIMIT = 40
POINTS = teach_points("haunted")


def words(text: str) -> int:
    return len(text.split())


def kind_step(key: str, state, n: int) -> Step:
    """The lesson step of decision kind ``key`` as the tutorial composes it with ``n`` choices."""
    p = POINTS[key]
    return Step(key, p.title, p.say(state) + choosing_words(get_game("haunted"), n), p.section_at(state))


def lake_and_cell_extraction():
    """A tutorial position (seeds 1..) where the learner may extract both on their own cell and
    from an adjacent lake: ``(state, lake action, own-cell action)``."""
    for seed in range(1, 30):
        t = Tutorial("haunted", seed=seed, progress=False)
        bot = RandomAgent(seed)
        for _ in range(60):
            if t.state.is_terminal():
                break
            ex = [a for a in t.state.legal_actions() if isinstance(a, A.Extract)]
            lake = [a for a in ex if t.state.field.terrain[t.state.field.cell_index(a.cell)] == "lake"]
            own = [a for a in ex if a not in lake]
            if lake and own:
                return t.state, lake[0], own[0]
            t.attempt(bot.act(t.state.copy()))
    raise AssertionError("no seed gave a choice between a lake and the sensor's cell")


def test_the_extract_step_says_a_lake_takes_the_depletion_token_and_the_engine_agrees():
    s, lake, own = lake_and_cell_extraction()
    n = len([a for a in s.legal_actions() if isinstance(a, A.Extract)])
    st = kind_step("kind:extract", s, n)
    lead, more, folded = step_parts(st)
    # shown before the choices (not folded away), short enough for a first round
    assert "water from an adjacent lake (the lake then takes the depletion token, not your cell)" in lead
    assert words(f"{st.title} {lead}") + 1 <= LIMIT  # + the "More" of the fold
    assert st.section == "Basic Actions: Extraction"
    # the rulebook: extracting on a lake puts the depletion token on the lake, not on the sensor's cell
    after = s.copy()
    after.apply_action(lake)
    f = s.field
    assert after.depleted[f.cell_index(lake.cell)] == 1
    assert after.depleted[f.cell_index(own.cell)] == 0 and own.cell != lake.cell


@pytest.mark.parametrize("mode", ["wanderer", "builder", "citizen"])
def test_the_extract_step_says_when_depletion_tokens_leave_the_field(mode):
    # Game Flow 3A/3B (and every mode's changed 3A/3B) return all depletion tokens at the end of
    # seasons 1 and 2; Construction step 3 returns the token of the cell built on
    s = get_game("haunted").new_game(players=4, seed=3, mode=mode)
    assert [e.season for e in s.box.modes[mode].season_ends if e.clear_depletion] == [1, 2]
    text = POINTS["kind:extract"].say(s)
    assert ("At the end of seasons 1 and 2 every depletion token goes back to the supply "
            "(Game Flow: end of the season)") in text
    assert "a building placed on a depleted cell sends its token back" in text


def test_the_train_step_says_a_new_token_is_inactive_until_the_rest_and_the_engine_agrees():
    s = scenario(players=2)
    suburb = next(c for c in s.field.cells if s.field.terrain[s.field.cell_index(c)] == "suburb")
    place(s, 0, suburb)
    set_pecunias(s, 0, 4)  # the exploration track's next slot costs 4 (player board; data/tracks)
    trains = [a for a in s.legal_actions() if isinstance(a, A.Train)]
    assert A.Train("exploration") in trains
    st = kind_step("kind:train", s, len(trains))
    lead, _more, _folded = step_parts(st)
    assert "it arrives inactive, so you can use it only after the rest" in lead
    assert words(f"{st.title} {lead}") + 1 <= LIMIT and st.section == "Additional Actions: Training"
    aid = dict(aid_step(get_game("haunted"), s, POINTS).lines)
    assert aid["Train"].endswith("it is inactive until the rest.")
    # the rulebook: a trained token is placed inactive side up; action tokens are restored at rest
    active = s.tokens(0, "exploration", active=True)
    s.apply_action(A.Train("exploration"))
    assert s.tokens(0, "exploration") == 5 and s.tokens(0, "exploration", active=True) == active


def test_the_setting_up_step_says_the_starting_stack_is_random_and_its_top_plays_first():
    s = get_game("haunted").new_game(players=4, seed=5)
    text = POINTS["phase:setup"].say(s)
    assert "start in one stack, in random order (Game Setup, step 12): the token on top plays first" in text
    # the log of setup steps 12-13: the token on top of the stack holds turn order token 1
    top = next(e for e in s.log if "number 1 from the top of the starting stack" in e.text)
    assert s.turn_order[0] == top.player


def test_the_production_step_says_where_production_sits_in_the_round():
    t = Tutorial("haunted", seed=1, progress=False)
    while "phase:production" not in t.steps:
        t.attempt(t.state.legal_actions()[0])
    st = t.steps["phase:production"]
    # Game Flow: 1. spread, 2. production, 3. turns
    assert st.text.startswith("Production is step 2 of every round: after the spread, before the turns. ")
    assert st.text.endswith("This time: no building produces this round (nobody has built yet).")
    assert st.section == "Game Flow: 2. Production"
    lead, _more, _folded = step_parts(Step(st.key, f"Earlier: {st.title}", f"{PAST} {st.text}", st.section))
    assert words(f"Earlier: {st.title} {lead}") + 1 <= LIMIT


def test_the_play_views_log_keeps_every_event_since_the_learners_last_decision():
    s = get_game("haunted").new_game(players=4, seed=1)
    v = PlayView(s, bots=[1, 2, 3])
    assert v.state.current_player() == 0 and v.state.phase == "spread"  # P1 last: places the spread's ghosts
    while v.state.phase == "spread":
        start = len(v.state.log)
        v.attempt(v.state.legal_actions()[0])
    shown = [int(n) for n in re.findall(r"#(\d+) ", html_text(v.log_panel.value))]
    end = len(v.state.log)
    assert end - start > 20  # the three bots' turns ran: more than the panel's last 10
    assert shown[-(end - start):] == list(range(start, end))
    assert "Since your last decision:" in html_text(v.log_panel.value)


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_explore_step_shows_at_most_limit_words_before_its_choices(seed):
    # a newcomer's first decision kind: its lead (title, first sentence with every terrain's cost,
    # the choosing sentence, "More") stays within the benchmark's LIMIT; main's was 41
    s = get_game("haunted").new_game(players=4, seed=seed)
    st = kind_step("kind:explore", s, 6)
    lead, _more, folded = step_parts(st)
    assert folded and "city 1, suburb 1, plain 1, forest 2, mountain 3" in lead
    assert words(f"{st.title} {lead}") + 1 <= LIMIT
