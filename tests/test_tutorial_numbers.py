"""Each game's teach points state the numbers a player plans with, read from the box in play:
the values printed are the rule text's (Haunted Lands: Game Field, Tiles and Terrain Types;
Buildings; Market Cards; skill card reference; Final Scoring; the estate's Expand the lands and
Market actions; Landmarks: Scoring), and a house-rule box prints its own."""

from __future__ import annotations

from haunted_kit.games import get_game
from haunted_kit.tutorial import Tutorial, teach_points
from ruletools import copy_data, edit


def said(game, state) -> dict:
    """``{key: text}`` of every teach point of ``game`` at ``state``, and ``aid:<kind>`` lines."""
    t = Tutorial(game, state=state, progress=False)
    out = {k: p.say(state) for k, p in teach_points(game).items()}
    out.update({f"aid:{title}": line for title, line in t.steps["aid"].lines})
    return out


def test_haunted_lands_states_costs_valor_and_where_from_the_default_box():
    s = get_game("haunted").new_game(players=3, seed=1)
    w = said("haunted", s)
    # Game Field, Tiles and Terrain Types: plain 1, forest 2, mountain 3; a lake cannot be explored
    assert "plain 1, forest 2, mountain 3" in w["kind:explore"] and "lake can never be entered" in w["kind:explore"]
    assert "forest 2, mountain 3" in w["aid:Explore"]
    # Buildings: mine on a mountain, water and food, 3 valor; sawmill 2 valor; mill and noria 1
    assert "mine (mountain) water + food, 3 valor points" in w["kind:build"]
    assert "sawmill (forest) water + ore, 2 valor points" in w["kind:build"]
    assert "mine (mountain) water+food: 3 valor" in w["aid:Build"]
    # Additional Actions: selling in the city, training and learning in the suburb
    assert w["kind:sell"].startswith("Only in the city")
    assert w["kind:train"].startswith("Only in the suburb") and w["kind:learn"].startswith("Only in the suburb")
    assert "only in the city" in w["phase:turns"] and "only in the suburb" in w["phase:turns"]
    # the market card in play (Market Cards: card 1 and card 2 both give 2 pecunias for 1 resource)
    assert s.market in (1, 2) and "1 resource -> 2 pecunias" in w["kind:sell"]
    kind = "same type" if s.market == 1 else "different types"
    assert f"3 resources of the {kind} -> 8 pecunias" in w["kind:sell"]
    # skill card reference: each skill in play with its cost (skill 5: water, ore; skill 8: food, food)
    costs = {5: "water + ore", 8: "food + food", 4: "food + ore", 1: "food + water"}
    for n in s.skills:
        if n in costs:
            assert f"skill {n} {costs[n]}" in w["kind:learn"]
    # Valor Points: quest valor counts only at final scoring; Final Scoring: the tie goes up the stack
    assert "only at the final scoring" in w["goal"] and "higher in the stack" in w["goal"]
    assert "only at the final scoring" in w["kind:choose_quest"]
    assert "contact tokens (season 1: 1, season 2: 2, season 3: 3)" in w["aid:Contact a ghost"]


def test_a_house_rule_box_prints_its_own_haunted_numbers(tmp_path):
    data = copy_data(tmp_path)
    edit(data / "terrain.toml", "letter = \"M\"\nexplore_cost = 3", "letter = \"M\"\nexplore_cost = 4")
    edit(data / "buildings.toml", 'cost = ["water", "food"]\nvalor = 3', 'cost = ["water", "food"]\nvalor = 5')
    game = get_game("haunted")
    s = game.new_game(players=3, seed=1, box=game.load_box(data))
    w = said("haunted", s)
    assert "mountain 4" in w["kind:explore"] and "mountain 3" not in w["kind:explore"]
    assert "mountain 4" in w["aid:Explore"]
    assert "mine (mountain) water + food, 5 valor points" in w["kind:build"]
    assert "mine (mountain) water+food: 5 valor" in w["aid:Build"]


def test_the_estate_and_landmarks_state_their_box_numbers_and_a_house_rule_changes_them(tmp_path):
    e = get_game("estate")
    w = said("estate", e.new_game(players=2, seed=1))
    # Expand the lands: a tile costs 3 gold; Market actions: marked prices 2, then 3; marble sells for 3
    assert w["kind:PlaceTile"].startswith("Pay 3 gold") and w["aid:Place a land tile"].startswith("3 gold")
    assert "costs 2 the first time" in w["kind:Trade"] and "then 3" in w["kind:Trade"]
    assert "Sell 1 marble: 3 gold" in w["aid:A Market action"]
    data = copy_data(tmp_path)
    edit(data / "estate" / "lands.toml", "tile_price = 3", "tile_price = 4")
    w = said("estate", e.new_game(players=2, seed=1, box=e.load_box(data / "estate")))
    assert w["kind:PlaceTile"].startswith("Pay 4 gold") and w["aid:Place a land tile"].startswith("4 gold")
    # Landmarks: Scoring: 2 for the sole most of a type, 1 per Gate, 3 per set of all five types
    lm = get_game("landmarks")
    w = said("landmarks", lm.new_game(players=3, seed=1, rounds=3))
    assert "+2 to the one player with the most tokens of a type (at least 1; a tie: nobody), 1 per Gate, 3 per set of all 5 types" in w["goal"]
    assert "Gate 2" in w["aid:Acquire a landmark"]


def test_haunted_lands_names_what_changes_the_numbers_in_this_game():
    game = get_game("haunted")
    layout = list(game.new_game(players=3, seed=1).layout)   # the skills are forced after the layout
    # citizen mode: ghost card 3 (a ghost's cell costs 1 more to explore); skill 5 (a mountain 1 less);
    # skill 6 (sell, train and learn on either Kalena terrain); quests: everyone 2 at season 1's end
    # only (kit rulings 5 and 6)
    w = said("haunted", game.new_game(players=3, seed=1, mode="citizen", layout=layout, skills=[1, 6, 8, 11]))
    assert "Skill 6, in play in this game, lets its owner do these on either." in w["kind:sell"]
    assert "Skill 6" in w["kind:train"] and "Skill 6" in w["kind:learn"] and "Skill 6" in w["phase:turns"]
    assert "ghost card 3 adds 1 on a cell holding a ghost" in w["kind:explore"]
    assert "skill" not in w["kind:explore"]
    assert "(end of season 1: everyone 2 quests)" in w["kind:choose_quest"]
    w = said("haunted", game.new_game(players=3, seed=1, mode="wanderer", layout=layout, skills=[1, 5, 8, 11]))
    assert "In this game skill 5 takes 1 off a mountain." in w["kind:explore"]
    assert "Skill 6" not in w["kind:sell"] and "ghost card" not in w["kind:explore"]
    assert "everyone but the valor leader 1 quest; end of season 2: everyone but the valor leader 2 quests" \
        in w["kind:choose_quest"]
    # 2 players: the first and last marker slots are covered, so a skill gives 2 or 1 valor
    w = said("haunted", game.new_game(players=2, seed=1))
    assert "marker slot (valor 2, 1, left to right)" in w["kind:learn"] and "valor 2, 1 by slot" in w["aid:Learn a skill"]


def test_landmarks_says_placed_gold_stays_when_nobody_leads_twice():
    """Gold placed on your castle or a developed resource comes back at your next lead (Architects:
    How To Play, Build; kit ruling L9); the leader's token passes left each turn, so in a game of
    no more turns than players nobody leads twice and placed gold stays (a newcomer expected it back)."""
    lm = get_game("landmarks")
    stays = "nobody leads twice, so gold you place stays where it is"
    assert stays in said("landmarks", lm.new_game(players=3, seed=1, rounds=3))["kind:Build"]
    assert stays in said("landmarks", lm.new_game(players=4, seed=1, rounds=2))["kind:Build"]
    again = said("landmarks", lm.new_game(players=2, seed=1, rounds=3))["kind:Build"]
    assert stays not in again and again.endswith("comes back from your own castle and resources when you next lead.")


def test_the_spread_step_says_the_rolled_terrain_and_the_ghosts_left():
    """A newcomer had to find the terrain die's roll in the event box: the step of placing a ghost
    says it with the choices, and how many of the spread's ghosts are left (Game Flow: Spread)."""
    from haunted_kit.tutorial import Tutorial
    t = Tutorial("haunted", seed=1, progress=False)
    p = t.state.pending[-1]
    n = t.state.box.ghosts_per_spread
    st = t.shown("kind:place_ghost")
    assert st.text.endswith(f"(lit on the board: click one there): the die showed {p.terrain}, {n} of {n} left.")
    assert t.attempt(t.state.legal_actions()[0]) is None
    assert t.state.pending and t.state.current_player() == 0   # the learner places the spread's every ghost
    assert t.shown("kind:place_ghost").text.endswith(f"the die showed {p.terrain}, {n - 1} of {n} left.")


def test_a_bonus_resource_choice_says_the_whole_reward_of_the_roll():
    """A newcomer saw their pecunias rise unexplained: the choice of a bonus resource says the
    season's card's whole reward for the roll, as the bonus event does (Basic Actions: Contact)."""
    import haunted_kit as hk
    from haunted_kit.haunted.flow import ResourceChoice
    from haunted_kit.haunted.tutorial import choose_resource
    from haunted_kit.protocol import RandomAgent
    for seed in range(1, 40):   # a bounded search for a contact whose roll owes a resource of any type
        s, bot = hk.new_game(players=2, seed=seed), RandomAgent(seed)
        for _ in range(400):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_chance(hk.sample_chance(s, seed))
                continue
            top = s.pending[-1] if s.pending else None
            if isinstance(top, ResourceChoice) and top.why.startswith("bonus"):
                face = int(top.why.split()[-1])
                reward = s.box.bonus_cards[s.season].rewards[s.box.bonus_die.index(face)]
                said = choose_resource(s)
                assert said.startswith(f"The season's bonus card gives {reward.describe()} for a roll of {face}")
                last = [e.text for e in s.log if e.kind == "bonus_reward"][-1]
                assert f"receives {reward.describe()} from the season {s.season} bonus card" in last
                return
            s.apply_action(bot.act(s))
    raise AssertionError("no bonus resource choice in 39 random games")
