"""A season end whose quest count is 0 for the trailing player of a 2-player game.

Rulebook "Game Flow: End of a Season": the box says how many quest cards each chooser
takes; a house-rule box may give the trailing player of a 2-player game none
(``trailing_two_player = 0``). Then nobody waits to choose, and the game goes on to
the next season (it used to push a choice of 0 cards, which no save can hold).
"""

from haunted_kit import load_box
from haunted_kit.haunted.flow import QuestChoice
from haunted_kit.haunted.scenario import end_round, scenario, set_calendar, set_valor
from ruletools import copy_data, edit

FAR_PLAINS = [(-3, -1), (-3, 0), (-3, 2), (-3, 3)]


def end_of_season_2(box, players):
    s = scenario(players=players, mode="wanderer", box=box)
    set_valor(s, 1, 5)  # P2 leads, so P1 (and P3) trail
    set_calendar(s, 2, box.rounds_per_season)
    end_round(s, "plain", FAR_PLAINS)
    return s


def test_a_trailing_count_of_0_lets_the_game_go_on(tmp_path):
    d = copy_data(tmp_path)
    edit(d / "game.toml", "quests = 2, trailing_two_player = 1", "quests = 2, trailing_two_player = 0")
    box = load_box(d)
    s = end_of_season_2(box, 2)
    assert not [q for q in s.pending if isinstance(q, QuestChoice)]
    assert s.season == 3 and not s.is_terminal()
    assert type(s).from_dict(s.to_dict(), box).season == 3  # the position saves and loads
    # 3 players are not concerned: the two trailing players each choose 2 (quests = 2)
    s3 = end_of_season_2(box, 3)
    assert sorted((q.player, q.count) for q in s3.pending if isinstance(q, QuestChoice)) == [(0, 2), (2, 2)]
