"""The memoised tables Haunted Lands' legal-action listing reads (rules.Ctx.explore_reach,
rules.extract_targets, rules.affordable) give the rulebook's answers, ghost cards 2 and 3
included. Seed 5, 2 players, ghost cards 1-3: Kalena's city (cell 0) is ringed by the
six suburbs 1-6 (1 exploration token each, 2 with a ghost under ghost card 3); cell 10
is a forest (gives wood); the resources are food, water, wood, ore."""

import pytest

from haunted_kit.haunted import rules as R
from haunted_kit.haunted.engine import new_game
from haunted_kit.haunted.state import EXPLORATION, EXTRACTION


@pytest.fixture
def game():
    s = new_game(players=2, seed=5, log=False, extra_ghost_cards=(2, 3))
    ctx = R.ctx_of(s)
    assert s.config.ghost_cards == (1, 2, 3) and s.field.terrain[:7] == ("city",) + ("suburb",) * 6
    return s, ctx


def test_ghost_card_3_makes_a_haunted_suburb_out_of_reach_with_one_token(game):
    s, ctx = game
    p = 0
    s.sensor[p] = 0
    s.act[ctx.token_at[p][EXPLORATION]] = 1
    cells, actions, rule = ctx.explore_reach(s.learned[p], 0, 1)
    assert cells == (1, 2, 3, 4, 5, 6)
    assert [a.cell for a in actions] == [s.field.cells[c] for c in cells]
    assert rule == {c: 1 for c in cells}  # each enterable only without a ghost
    s.ghosts[2] = 1
    assert R.explore_targets(s, ctx, p) == [1, 3, 4, 5, 6]
    refusal = R.refuse_explore(s, ctx, p, 2)
    assert "costs 2 exploration tokens" in refusal.text and "has 1 active" in refusal.text
    # with 2 tokens the ghost no longer matters
    s.act[ctx.token_at[p][EXPLORATION]] = 2
    assert ctx.explore_reach(s.learned[p], 0, 2)[2] == {}
    assert R.explore_targets(s, ctx, p) == [1, 2, 3, 4, 5, 6]
    s.act[ctx.token_at[p][EXPLORATION]] = 0
    assert R.explore_targets(s, ctx, p) == []


def test_ghost_card_2_blocks_extraction_on_a_haunted_forest(game):
    s, ctx = game
    p = 0
    s.sensor[p] = 10
    s.act[ctx.token_at[p][EXTRACTION]] = ctx.box.extraction_tokens
    wood = ctx.ri["wood"]
    assert R.extract_targets(s, ctx, p) == [(10, wood)]
    assert R.refuse_extract(s, ctx, p, 10, wood) is None
    s.ghosts[10] = 1
    assert R.extract_targets(s, ctx, p) == []
    assert "ghost card 2" in R.refuse_extract(s, ctx, p, 10, wood).text
    s.ghosts[10] = 0
    s.depleted[10] = 1
    assert R.extract_targets(s, ctx, p) == []
    assert "depletion token" in R.refuse_extract(s, ctx, p, 10, wood).text
    s.depleted[10] = 0
    s.act[ctx.token_at[p][EXTRACTION]] = 0
    assert R.extract_targets(s, ctx, p) == []


def test_affordable_lists_what_a_food_and_a_water_pay_for(game):
    s, ctx = game
    # skills 1, 6 and 11 cost food + water; the mine (building index 2) too
    skills, buildings = R.affordable(ctx, (1, 1, 0, 0))
    assert skills == {1, 6, 11}
    assert [ctx.buildings[b].name for b in sorted(buildings)] == ["mine"]
    assert R.affordable(ctx, (0, 0, 0, 0)) == (frozenset(), frozenset())
    p = 0
    s.res[ctx.resource_span[p]] = [1, 1, 0, 0]
    assert all(R.can_afford(s, ctx, p, ctx.skill_counts[k]) == (k in skills) for k in ctx.skill_counts)


def test_open_extractions_is_extract_targets_past_its_token_and_supply_checks(game):
    """rules.open_extractions (what the turn listing asks once it has checked the tokens
    and the depletion supply itself) gives the pairs extract_targets gives when those
    checks pass, and keeps the cell rules (depletion token, ghost card 2)."""
    s, ctx = game
    p = 0
    s.sensor[p] = 10
    wood = ctx.ri["wood"]
    s.act[ctx.token_at[p][EXTRACTION]] = 0
    assert R.extract_targets(s, ctx, p) == []  # no active extraction token
    assert R.open_extractions(s, ctx, 10) == [(10, wood)]
    s.act[ctx.token_at[p][EXTRACTION]] = ctx.box.extraction_tokens
    assert R.extract_targets(s, ctx, p) == R.open_extractions(s, ctx, 10) == [(10, wood)]
    s.sup_depl = 0  # ruling 1: no depletion token left in the supply
    assert R.extract_targets(s, ctx, p) == []
    s.ghosts[10] = 1
    assert R.open_extractions(s, ctx, 10) == []  # ghost card 2


def test_spread_candidates_are_the_cells_of_a_terrain_that_hold_ghosts(game):
    """Ctx.ghost_cells_of: per terrain, the cells whose terrain holds ghosts (every
    terrain of data/terrain.toml but the lake); ghost_targets leaves out the cells with a
    ghost or a building (Ghosts; ruling 3)."""
    s, ctx = game
    f = s.field
    assert ctx.kalena_ghost_cells == (0, 1, 2, 3, 4, 5, 6)
    assert ctx.ghost_cells_of.get("lake", ()) == ()
    for terrain, cells in f.by_terrain.items():
        assert ctx.ghost_cells_of[terrain] == (cells if terrain != "lake" else ())
    forests = f.by_terrain["forest"]
    assert 10 in forests
    s.ghosts[10] = 1
    s.building[forests[-1]], s.owner[forests[-1]] = 0, 0
    assert R.ghost_targets(s, ctx, "forest") == [c for c in forests if c not in (10, forests[-1])]
    s.ghosts[1] = s.ghosts[4] = 1
    assert R.kalena_targets(s, ctx) == [0, 2, 3, 5, 6]


def test_contact_cost_is_the_season_bonus_card(game):
    """Contact costs 1, 2 and 3 contact tokens in seasons 1-3 (data/bonus_cards.toml),
    read from Ctx.contact_costs; outside the seasons (setup) there is no bonus card."""
    s, ctx = game
    assert ctx.contact_costs == {1: 1, 2: 2, 3: 3}
    for season in (1, 2, 3):
        s.season = season
        assert R.contact_cost(s, ctx) == season
    s.season = 0
    with pytest.raises(KeyError):
        R.contact_cost(s, ctx)
