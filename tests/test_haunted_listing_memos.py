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
