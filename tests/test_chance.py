"""Chance nodes: outcomes with probabilities, forcing, resolving by hand, bad outcomes."""

from __future__ import annotations

import pytest

from haunted_kit.haunted.flow import GhostPlacement
import haunted_kit as hk
from haunted_kit.haunted import scenario as sc


def test_terrain_die_outcomes_and_probabilities():
    s = hk.new_game(players=3, seed=2, auto_chance=False, layout=["R01", "R02", "R03", "R04", "R05", "R06"],
                    skills=[1, 4, 7, 10], market=1, order=[0, 1, 2])
    assert s.is_chance_node() and s.current_player() is None and s.legal_actions() == []
    # kit default die: plain, plain, forest, forest, mountain, mountain
    assert s.chance_outcomes() == [("plain", 2 / 6), ("forest", 2 / 6), ("mountain", 2 / 6)]
    before = s.to_json()
    with pytest.raises(hk.ChanceError, match="'lake' is not a possible outcome of the terrain die roll"):
        s.apply_chance("lake")
    assert s.to_json() == before
    s.apply_chance("forest")
    # 13 forest cells on R01..R06 (2+2+3+2+2+2), more than 4 ghosts: the last player (P3) chooses
    assert s.pending == [GhostPlacement(2, "forest", 4)]
    assert len(s.legal_actions()) == 13


def test_lake_die_sends_every_ghost_to_kalena():
    s = hk.new_game(players=2, seed=2, terrain_die="with_lakes", auto_chance=False,
                    layout=["R01", "R02", "R03", "R04", "R05", "R06"], skills=[1, 4, 7, 10], market=1, order=[0, 1])
    # optional die: plain, plain, forest, mountain, lake, lake
    assert dict(s.chance_outcomes()) == {"plain": 2 / 6, "forest": 1 / 6, "mountain": 1 / 6, "lake": 2 / 6}
    s.apply_chance("lake")
    # lakes never hold ghosts: all 4 ghosts go to Kalena, the last player (P2) choosing among its 7 cells
    assert s.pending[-1] == GhostPlacement(1, "Kalena", 4)
    assert {a.cell for a in s.legal_actions()} == {(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


def test_forced_outcome_is_used_then_the_seeded_generator_resumes():
    s = sc.scenario(players=2, ghosts=[(1, 0)])
    sc.place(s, 0, (1, 0))
    s.force_chance(6)
    s.apply_action(hk.Contact())
    # season 1 bonus card, face 6: 2 valor
    assert s.valor[0] == 2
    assert s.forced == []


def test_impossible_forced_outcome_is_dropped_and_the_game_waits():
    s = sc.scenario(players=2, ghosts=[(1, 0)])
    sc.place(s, 0, (1, 0))
    s.force_chance(7)
    with pytest.raises(hk.ChanceError, match="forced outcome 7 is not possible at bonus die roll"):
        s.apply_action(hk.Contact())
    assert s.is_chance_node() and s.forced == []
    s.apply_chance(1)  # face 1: 2 pecunias
    assert s.pec[0] == 2 and not s.is_chance_node()
