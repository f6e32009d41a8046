"""The one-step greedy agents score a position's moves in one pass (``scores``), and the
engine lists a turn's moves after cheap checks: both must give exactly what the slow,
one-move-at-a-time way gives (issue 21: speed without changing a single choice)."""

from __future__ import annotations

import pytest

from haunted_kit.games import get_game, start_game
from haunted_kit.haunted import actions as A
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.engine import new_game
from haunted_kit.haunted.scenario import put_building
from haunted_kit.haunted.state import TURNS
from haunted_kit.hexgrid import distance
from haunted_kit.protocol import agent_table
from ruletools import games_with_agent


def _positions(name: str, seeds=range(3), players: int = 3):
    """Every decision of seeded greedy games of game ``name`` (chance nodes skipped)."""
    game = get_game(name)
    greedy = agent_table(game)["greedy"]
    for seed in seeds:
        s = start_game(game, players=min(players, game.max_players), seed=seed)
        bots = [greedy(seed * 10 + i) for i in range(players)]
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_chance(s.chance_outcomes()[0][0])
                continue
            yield s, bots[s.current_player()]
            s.apply_action(bots[s.current_player()].act(s))


@pytest.mark.parametrize("name", games_with_agent("greedy"))
def test_scores_of_a_position_are_each_moves_score(name):
    checked = 0
    for s, bot in _positions(name):
        legal = s.legal_actions()
        assert bot.scores(s, legal) == [bot.score(s, a) for a in legal]
        checked += 1
    assert checked > 5  # decisions of every seat (Landmarks games are short)


@pytest.mark.parametrize("name", games_with_agent("greedy"))
def test_greedy_plays_a_best_scored_move_and_breaks_ties_by_its_seed(name):
    ties = 0
    for s, bot in _positions(name, seeds=range(2)):
        legal = s.legal_actions()
        scores = [bot.score(s, a) for a in legal]
        best = [a for a, v in zip(legal, scores) if v == max(scores)]
        twin = type(bot)(7)
        twin.rng.setstate(bot.rng.getstate())
        a = bot.act(s)
        assert a in best
        if len(best) > 1:  # a tie: the seeded generator picks among the best, in listed order
            assert a is best[twin.rng.randrange(len(best))]
            ties += 1
    assert ties > 0


def test_a_ghost_placement_far_from_buildings_scores_minus_a_tenth_of_its_distance():
    # seed 0, 4 players: the spread of setup asks P3 to place mountain ghosts; nothing is built yet
    s = new_game(players=4, seed=0, log=False)
    assert s.pending and s.current_player() == 2
    legal = s.legal_actions()
    assert A.PlaceGhost((3, -3)) in legal and all(type(a) is A.PlaceGhost for a in legal)
    scores = GreedyAgent(0).scores(s, legal)
    assert scores[legal.index(A.PlaceGhost((3, -3)))] == 0 - 0.1 * 3
    assert scores == [0 - 0.1 * distance(a.cell, (0, 0)) for a in legal]


def test_a_ghost_placement_counts_rivals_buildings_next_to_it_and_the_players_own_twice():
    # seed 0, 4 players: P3 places mountain ghosts at setup. Next to (1, 1): P1's mill on
    # (2, 1), P2's mill on (1, 2) and P3's own sawmill on (2, 0), which also touches (3, -1)
    s = new_game(players=4, seed=0, log=False)
    put_building(s, (2, 1), "mill", 0)
    put_building(s, (1, 2), "mill", 1)
    put_building(s, (2, 0), "sawmill", 2)
    legal = s.legal_actions()
    scores = dict(zip(legal, GreedyAgent(0).scores(s, legal)))
    assert scores[A.PlaceGhost((1, 1))] == 2 - 2 * 1 - 0.1 * 2   # 2 rivals' buildings, 1 own, 2 steps from the centre
    assert scores[A.PlaceGhost((3, -1))] == 0 - 2 * 1 - 0.1 * 3  # only the own sawmill, 3 steps out
    assert scores[A.PlaceGhost((3, -3))] == 0 - 0.1 * 3          # no building next to it
    assert [GreedyAgent(0).score(s, a) for a in legal] == list(scores.values())


def _turn_candidates(s):
    """Every build, learning and extraction a player could name on their turn."""
    box = s.config.box
    here = s.field.cells[s.sensor[s.current_player()]]
    cells = [here] + [s.field.cells[n] for n in s.field.neighbours[s.sensor[s.current_player()]]]
    return ([A.Build(b) for b in box.buildings] + [A.Learn(k) for k in box.skills]
            + [A.Extract(c, r) for c in cells for r in box.resources])


def test_a_turns_listed_builds_learnings_and_extractions_are_exactly_those_the_rules_allow():
    allowed = refused = 0
    for seed in range(6):
        s = new_game(players=4, seed=seed, log=False)
        bots = [GreedyAgent(seed * 10 + i) for i in range(4)]
        while not s.is_terminal():
            if s.phase == TURNS and not s.pending:
                legal = s.legal_actions()
                for a in _turn_candidates(s):
                    ok = s.why_not(a) is None
                    assert (a in legal) == ok, (a, s.why_not(a))
                    allowed += ok
                    refused += not ok
            s.apply_action(bots[s.current_player()].act(s))
    assert allowed > 100 and refused > 1000
