"""The tutorial's words say what the game in play has (haunted_kit.tutorial and the games'
teach points): the Haunted Lands texts name only skill cards in play and cite the rule of the
actual source of a resource; an extraction says whether it is from a lake; the setup step
explains the mode, the ghost cards in play, map-tile names and the depletion mark; Estate's
aid says only Inn workers cost gold and the land action gives the marble quarry's condition
from the box; a bot's join is taught as it first happens; Landmarks' lead step lists every
lead action, a build's gold per source is taught before paying, and the goal words the
learner's architect as the setup log does; "Player aid and goal" shows the aid first (on the aid, the goal)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from haunted_kit.games import get_game, game_names
from haunted_kit.haunted.flow import ResourceChoice
from haunted_kit.protocol import RandomAgent, describe_action
from haunted_kit.tutorial import MEANWHILE, Tutorial, aid_step, round_word, step_parts, teach_points

SEEDS = range(1, 9)


def haunted(seed: int):
    return get_game("haunted").new_game(players=4, seed=seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_haunted_teach_texts_name_only_skill_cards_in_play(seed):
    s = haunted(seed)
    for key, p in teach_points("haunted").items():
        named = {int(n) for n in re.findall(r"\bskill (\d+)", p.say(s), flags=re.I)}
        assert named <= set(s.skills), (key, named, s.skills)


def test_a_resource_of_your_choice_cites_the_rule_of_its_source():
    s = haunted(1)
    p = teach_points("haunted")["kind:choose_resource"]
    bonus = s.copy()
    bonus.pending.append(ResourceChoice(0, 1, "bonus reward 4"))
    assert p.section_at(bonus) == "Basic Actions: Contact" and "bonus card" in p.say(bonus)
    assert "skill" not in p.say(bonus).lower()
    n = next(k for k, v in s.box.skills.items() if v.effect == "extract_bonus")
    skill = s.copy()
    skill.pending.append(ResourceChoice(0, 1, f"skill {n}"))
    assert p.section_at(skill) == "Skill Cards" and f"skill {n} after an extraction" in p.say(skill)


def test_an_extraction_says_whether_its_resource_is_from_a_lake():
    seen = set()
    for seed in SEEDS:
        t = Tutorial("haunted", seed=seed, progress=False)
        bot = RandomAgent(seed)
        for _ in range(40):
            if t.state.is_terminal():
                break
            for a in t.state.legal_actions():
                if type(a).__name__ == "Extract":
                    said = describe_action(a, t.state)
                    lake = t.state.field.terrain[t.state.field.cell_index(a.cell)] == "lake"
                    assert ("from the lake at cell" in said) == lake and ("on your" in said) != lake, said
                    seen.add(lake)
            t.attempt(bot.act(t.state.copy()))
    assert seen == {True, False}, "the plays met no extraction from both a lake and a cell"


def test_the_haunted_setup_step_explains_the_mode_the_ghost_cards_the_tiles_and_the_diamond():
    s = haunted(2)
    text = teach_points("haunted")["phase:setup"].say(s)
    assert f"{s.config.mode} mode" in text and "\u25c6" in text and "depletion token" in text
    for n in s.config.ghost_cards:
        assert f"ghost card {n}: {s.box.ghost_cards[n].text.rstrip('.')}" in text
    assert all(t in text for t in set(s.field.tile) - {"Kalena"})


def test_estate_aid_says_only_inn_workers_cost_gold_and_the_land_action_gives_the_quarry_condition():
    s = get_game("estate").new_game(players=3, seed=1)
    aid = dict(aid_step(get_game("estate"), s).lines)
    assert "from the Inn" in aid["Bring a worker back"] and "Factory workers come back free" in aid["Bring a worker back"]
    pts = teach_points("estate")
    assert f"at least {s.box.marble_quarry_min_tiles} land tiles" in pts["kind:PlaceTile"].say(s)
    house = s.copy()
    house.config = replace(s.config, box=replace(s.config.box, marble_quarry_min_tiles=4))
    assert "at least 4 land tiles" in pts["kind:PlaceTile"].say(house)
    assert "once you have 4 tiles" in aid_step(get_game("estate"), house).lines[
        [t for t, _ in aid_step(get_game("estate"), house).lines].index("Place a land tile")][1]
    assert round_word("estate") == "season" and round_word("haunted") == "round"


def test_a_bots_join_is_taught_when_it_first_happens():
    met = 0
    for seed in SEEDS:
        t = Tutorial("estate", seed=seed, progress=False)
        bot = RandomAgent(seed)
        for _ in range(200):
            if t.state.is_terminal():
                break
            t.attempt(bot.act(t.state.copy()))
            joins = [e for e in t.state.log if e.kind == "joined"]
            if joins:
                st = t.steps["event:joined"]
                first = joins[0]
                assert st.text.endswith(f"{MEANWHILE if first.player != 0 else 'Just now'}: {first.text}")
                assert "gold" in st.text and st.section == "Expand the lands"
                met += 1
                break
    assert met, "no seeded game met a join"


def test_landmarks_lead_lists_each_action_and_build_teaches_the_gold_before_paying():
    t = Tutorial("landmarks", seed=1, progress=False)
    s, box = t.state, t.state.box
    lead = t.steps["kind:Lead"]
    assert [a for a, _ in lead.lines] == [a.capitalize() for a in box.lead_actions]
    assert all("(" in line and ")" in line for _, line in lead.lines)  # each cites its section or ruling
    pts = teach_points("landmarks")
    for key in ("kind:ChooseBuilding", "kind:Build"):
        said = pts[key].say(s)
        assert f"{box.castle_gold} gold on your castle" in said and f"{box.grounds_gold} gold on any player's Castle Grounds" in said
    dealt = next(e.text for e in s.log if e.kind == "architect_dealt" and e.player == 0)
    words = dealt.split(": ", 1)[1].rsplit(" (", 1)[0]  # "+1 per worker and per holy building at the end"
    assert words in t.steps["goal"].text


@pytest.mark.parametrize("game", game_names())
def test_player_aid_and_goal_shows_the_aid_first_and_on_the_aid_the_goal(game):
    t = Tutorial(game, seed=1, progress=False)
    assert t.current.key == "goal"
    assert t.recall().key == "aid" and t.waiting()[0].key == "goal"
    t.next()
    t.next()
    assert t.current is None or t.current.key not in ("aid", "goal")
    assert t.recall().key == "aid" and t.waiting()[0].key == "goal"   # the aid first, wanted most
    assert t.recall().key == "goal" and t.waiting()[0].key == "aid"   # pressed on the aid: the goal


def test_landmarks_goal_names_only_what_the_score_table_counts():
    """The goal's lead names what scores: landmark tokens and the architect, the score table's
    sources; a building's own victory points are in no source (kit ruling L14), so the lead says
    they count for nothing rather than listing buildings among what scores."""
    from haunted_kit.landmarks.engine import new_game
    t = Tutorial("landmarks", seed=1, progress=False)
    lead = step_parts(t.steps["goal"])[0]
    sources = set(new_game(players=t.state.players, seed=1).score_table().source)
    assert all(src.startswith(("architect:", "most ", "Gate tokens", "landmark sets")) for src in sources), sources
    assert "landmark tokens and your secret architect score then" in lead
    assert "its own victory points count for nothing here, kit ruling L14" in lead
