"""Landmarks & Architects: exact values from the rule text (and the kit defaults of
docs/RULINGS.md), every refusal with its reason, the text's five examples, saves."""

import dataclasses
import json
import random
import shutil
from pathlib import Path

import pytest

from haunted_kit import landmarks as lm
from haunted_kit.haunted.box import BoxError
from haunted_kit.games import get_game
from haunted_kit.protocol import ChanceError, Game, GameState, IllegalAction

BOX = lm.default_box()
NONE = {k: 0 for k in BOX.landmarks}


def follower(hand, *, lead="build", cannot=(1,), tokens=None, players=2, gold=None, supply_taken=None, **kw):
    """P1 has led; P2 (with ``hand``) is to choose."""
    hands = [[]] + [list(hand)] + [[] for _ in range(players - 2)]
    toks = tokens or [{} for _ in range(players)]
    if supply_taken:
        toks = [dict(t) for t in toks]
        toks[0] = {**toks[0], **supply_taken}
    return lm.position(hands=hands, villages=[[]] * players, gold=gold or [0] * players, lead=lead,
                       cannot_follow=cannot, tokens=toks, **kw)


def reason(s, a):
    r = s.why_not(a)
    return None if r is None else r.text


# ============================================================================ the box


def test_box_numbers_and_provenance():
    assert {k: (lt.discard, lt.icon, lt.victory_points) for k, lt in BOX.landmarks.items()} == {
        "gate": (2, "", 1), "silo": (1, "food", 0), "statue": (1, "stone", 0), "ward_tower": (1, "magic", 0),
        "windmill": (1, "wood", 0)}
    assert (BOX.tokens_per_type, BOX.supply(2), BOX.supply(3), BOX.supply(5)) == (7, 5, 7, 7)
    assert (BOX.most_points, BOX.most_minimum, BOX.set_points, BOX.architect_points) == (2, 1, 3, 1)
    assert len(BOX.architects) == 6
    pairs = {frozenset(a.types) for a in BOX.architects.values()}
    assert len(pairs) == 6 and all(len(p) == 2 for p in pairs)  # the 6 pairs of 4 types
    assert BOX.architects["dont_glaver"].name == "Don't Glaver"
    pf = BOX.provenance_frame()
    assert set(pf.provenance) == {"rulebook", "kit default"}
    prov = {(r.file, r.entry, r.field): r.provenance for r in pf.itertuples()}
    assert prov[("landmarks/landmarks.toml", "types.silo", "icon")] == "rulebook"
    assert prov[("landmarks/scoring.toml", "most", "minimum")] == "kit default"
    assert prov[("landmarks/deck.toml", "cards.vardo", "cost")] == "kit default"
    assert BOX.cards["vardo"].cost == ("wood", "wood", "magic") and BOX.cards["tannery"].cost == ("food",)
    assert "stone" in BOX.cards["village_square"].icons


def test_deck_is_labelled_a_kit_example():
    assert BOX.deck_label == "kit example deck (not the published cards)"
    assert BOX.deck_frame().attrs["label"] == BOX.deck_frame().columns.name == BOX.deck_label
    assert "KIT EXAMPLE DECK: NOT THE PUBLISHED CARDS" in Path(BOX.path, "deck.toml").read_text()


@pytest.fixture
def box_copy(tmp_path):
    d = tmp_path / "landmarks"
    shutil.copytree(Path(BOX.path), d)
    return d


@pytest.mark.parametrize("file, old, new, message", [
    ("landmarks.toml", 'discard = 1\nicon = "food"', 'discard = "one"\nicon = "food"',
     "landmarks/landmarks.toml, entry types.silo: field 'discard' must be int, got 'one'"),
    ("landmarks.toml", 'icon = "food"', 'icon = "grain"',
     "landmarks/landmarks.toml, entry types.silo: field 'icon' has unknown resource 'grain'"),
    ("landmarks.toml", "two_player_removed = 2", "two_player_removed = 7",
     "landmarks/landmarks.toml, entry supply: field 'two_player_removed' must be at most 6, got 7"),
    ("architects.toml", 'types = ["soldier", "holy"]', 'types = ["soldier"]',
     "landmarks/architects.toml, entry mother_hallow: field 'types' must name exactly 2 building types, got 1"),
    ("deck.toml", 'label = "kit example deck (not the published cards)"', 'label = "the cards"',
     "landmarks/deck.toml, entry deck: field 'label' must say the deck is a kit example"),
    ("deck.toml", 'type = "worker"', 'type = "wizard"',
     "landmarks/deck.toml, entry cards.vardo: field 'type' has unknown building type 'wizard'"),
    ("scoring.toml", 'provenance = "rulebook"\n', 'provenance = "house"\n',
     "landmarks/scoring.toml, entry sets: provenance of 'points' must be \"rulebook\" or \"kit default\", got 'house'"),
    ("castle_grounds.toml", "uses_per_card = 1", "uses_per_card = 1\ncolour = 3",
     "landmarks/castle_grounds.toml, entry use: unknown field 'colour'"),
    ("game.toml", "[players]", "[players", "landmarks/game.toml, the file: not valid TOML"),
    # every number is bounded: a typo is refused at load, never a game that cannot end
    ("game.toml", "village_cards = 12", "village_cards = 100000",
     "landmarks/game.toml, entry end_trigger: field 'village_cards' must be at most 99, got 100000"),
    ("scoring.toml", "minimum = 1", "minimum = 100000",
     "landmarks/scoring.toml, entry most: field 'minimum' must be at most 99, got 100000"),
])
def test_box_errors_name_file_entry_problem(box_copy, file, old, new, message):
    path = box_copy / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(BoxError) as err:
        lm.load_box(box_copy)
    assert str(err.value).startswith(message)


def test_box_refuses_a_deck_too_small_for_the_example_round(box_copy):
    path = box_copy / "deck.toml"
    path.write_text(path.read_text().replace("copies = 2", "copies = 1"))
    with pytest.raises(BoxError, match=r"deck.toml, entry cards: the example round deals 45 cards to 5 players .* "
                                       r"but the deck has 26"):
        lm.load_box(box_copy)


# ============================================================================ setup and the deal


def test_two_player_token_removal():
    s = lm.new_game(2, seed=3)
    assert s.supply == dict.fromkeys(BOX.landmarks, 5)
    assert s.events().text[0] == ("The 5 Landmark cards are laid out with 7 tokens of each type; with 2 players 2 of "
                                  "each type go back to the box, leaving 5 (Landmarks: Game Setup).")
    s3 = lm.new_game(3, seed=3)
    assert s3.supply == dict.fromkeys(BOX.landmarks, 7)
    assert s3.events().text[0] == "The 5 Landmark cards are laid out with 7 tokens of each type (Landmarks: Game Setup)."


def test_two_player_supply_runs_out_after_five():
    s = follower(["tannery"], supply_taken={"silo": 5})
    assert s.supply["silo"] == 0
    assert reason(s, lm.Acquire("silo", ("tannery",))) == ("the Silo supply is empty: all 5 Silo tokens of this 2-player "
                                                             "game are taken")
    assert not any(isinstance(a, lm.Acquire) and a.landmark == "silo" for a in s.legal_actions())


def test_architect_deal_is_an_explicit_seeded_chance_node():
    s = lm.new_game(3, seed=11, auto_chance=False)
    assert s.is_chance_node() and s.current_player() is None and s.legal_actions() == []
    outs = s.chance_outcomes()
    assert len(outs) == 6 * 5 * 4 and outs[0] == (("captain_morrow", "dont_glaver", "master_hewn"), 1 / 120)
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    with pytest.raises(ChanceError, match="not a deal of 3 different architects"):
        s.apply_chance(("dont_glaver", "dont_glaver", "vesper_lark"))
    deal = s.sample_chance()
    assert list(deal) == lm.new_game(3, seed=11).architects  # the auto-resolved deal is the seeded sample
    s.apply_chance(("dont_glaver", "vesper_lark", "master_hewn"))
    assert s.architects == ["dont_glaver", "vesper_lark", "master_hewn"] and s.current_player() == 0
    assert s.history()[-1].chance and s.history()[-1].action == ("dont_glaver", "vesper_lark", "master_hewn")
    with pytest.raises(ChanceError, match="no chance node is waiting"):
        s.apply_chance(("dont_glaver", "vesper_lark", "master_hewn"))
    # the seeded deal is the same in every run, and private to its player
    a, b = lm.new_game(4, seed=5), lm.new_game(4, seed=5)
    assert a.architects == b.architects and len(set(a.architects)) == 4
    ev = a.events(viewer=1)
    dealt = ev[ev.kind == "architect_dealt"].text.tolist()
    assert dealt[0] == "P1 is dealt an architect face down."
    assert dealt[1].startswith(f"P2 is dealt {BOX.architects[a.architects[1]].name} face down")
    obs = a.observation(1)
    assert obs["architects"][1] == a.architects[1] and obs["architects"][0] == "hidden"
    assert obs["hands"][0] == 5 and obs["hands"][1] == a.hands[1] and "seed" not in obs


def test_new_game_refuses_bad_parameters():
    with pytest.raises(lm.ConfigError, match="players must be an integer from 2 to 5, got 6"):
        lm.new_game(6)
    with pytest.raises(lm.ConfigError, match=r"rounds \(the turns to play\) must be an integer from 1 to 1000, got 0"):
        lm.new_game(3, rounds=0)
    with pytest.raises(lm.ConfigError, match="modules must map some of landmarks, architects, castle_grounds"):
        lm.new_game(3, modules={"ghosts": True})


# ============================================================================ the text's five examples


def test_example_statue_acquisition():
    """Rick (P1) led Build; Helen (P2) cannot build, so she discards the Village Square
    (a Stone icon) for a Statue (Landmarks: Acquiring a Landmark, example)."""
    s = follower(["village_square", "tannery"], lead="build", cannot=(1,))
    assert s.current_player() == 1
    assert s.legal_actions() == [
        lm.Acquire("gate", ("tannery", "village_square")), lm.Acquire("silo", ("tannery",)),
        lm.Acquire("statue", ("village_square",)), lm.Decline()]
    opts = s.options()
    assert opts.option.tolist()[0] == "follow: build" and not opts.legal[0]
    assert opts.reason[0] == ("P2 cannot follow the build in this position (landmarks rules: Landmarks: How To Play, "
                              "Take One Action)")
    s.apply_action(lm.Acquire("statue", ("village_square",)))
    assert s.tokens[1]["statue"] == 1 and s.supply["statue"] == 4  # 2 players: 5 - 1
    assert s.hands[1] == ["tannery"] and s.discard_pile == ["village_square"]
    acquired = s.events().query("kind == 'landmark_acquired'").text.tolist()
    assert acquired == [
        "P2 discards the Village Square (showing stone) and takes a Statue token into their village instead of "
        "following (4 left; Landmarks: How To Play, Acquiring a Landmark)."]
    # a position is a turn of a game of the box's 3 turns: P1's turn is complete, P2 leads the next
    assert s.rounds == 3 and (s.round, s.leader, s.phase, s.current_player()) == (2, 1, "lead", 1)
    assert not s.is_terminal() and "game_over" not in s.events().kind.tolist()


def test_example_two_sets_score_six_set_points():
    s = lm.position(hands=[[], []], villages=[[], []], gold=[0, 0], tokens=[
        {"gate": 2, "silo": 3, "statue": 2, "ward_tower": 4, "windmill": 2}, {}], lead=None)
    t = lm.score_table(s)
    row = t[(t.player == "P1") & (t.source == "landmark sets")].iloc[0]
    assert row.points == 6
    assert row.explanation == "2 full sets of the 5 types x 3 (2 Gate, 3 Silo, 2 Statue, 4 Ward Tower, 2 Windmill)"


def _vardo():
    """Helen (P1) with her castle, a developed Lumber Camp (wood), her Castle Grounds, 3 gold."""
    return lm.position(hands=[["vardo", "tannery"], ["granary"]], villages=[[], []], developed=[["lumber_camp"], []],
                       gold=[3, 0], lead=None)


def test_example_vardo_payment():
    s = _vardo()
    plans = s.plan_payments("vardo", 0)
    assert plans.why_none is None
    assert plans.frame().to_dict("records") == [
        {"rank": 1, "payment": "P1's castle -> wood; P1's Lumber Camp -> wood; P1's Castle Grounds + a discard -> magic",
         "gold": 3, "gold to others": 0, "cards discarded": 1},
        {"rank": 2, "payment": "P1's castle -> wood; P1's Lumber Camp -> wood; P2's Castle Grounds + a discard -> magic",
         "gold": 3, "gold to others": 1, "cards discarded": 1}]
    s.apply_action(lm.Lead("build"))
    # a Build is two decisions: the card (the Tannery's food comes from the castle), then its payment
    assert s.legal_actions() == [lm.ChooseBuilding("tannery"), lm.ChooseBuilding("vardo")]
    s.apply_action(lm.ChooseBuilding("vardo"))
    assert s.events().text.iloc[-1] == "P1 chooses to build the Vardo (Architects: How To Play, Build)."
    best = lm.Build("vardo", (lm.Use("castle", 0, "wood"), lm.Use("developed", 0, "wood", 0, "", "lumber_camp"),
                              lm.Use("grounds", 0, "magic", 0, "tannery")))
    assert s.legal_actions() == [best, lm.Build("vardo", best.payment[:2] + (lm.Use("grounds", 1, "magic", 0, "tannery"),))]
    s.apply_action(best)
    assert s.gold == [0, 0] and s.spent[0] == {"castle", "developed:0"} and s.grounds[0] == [0]
    assert s.villages[0] == ["vardo"] and s.hands[0] == [] and s.discard_pile == ["tannery"]
    assert s.events().text.tolist()[-4:] == [
        "P1 places 1 gold on their castle for a wild resource: wood (Architects: How To Play, Build).",
        "P1 places 1 gold on their Lumber Camp: wood (Architects: How To Play, Build).",
        "P1 places 1 gold on their own Castle Grounds and discards the Tannery for a wild resource: magic "
        "(Architects: How To Play, Build).",
        "P1 builds the Vardo (worker, 3 victory points) into their village (Architects: How To Play, Build)."]


def _tannery(rounds=3):
    """Rick (P1) led Build; Helen (P2) has her resources tied up and 1 gold."""
    return lm.position(hands=[["granary"], ["tannery", "granary"]], villages=[[], []], developed=[[], ["lumber_camp"]],
                       gold=[0, 1], spent=[[], ["castle", "developed:0"]], grounds=[[], [1]], lead="build",
                       rounds=rounds)


def test_example_tannery_on_another_players_castle_grounds_and_gold_ownership():
    s = _tannery()
    plans = s.plan_payments("tannery", 1)
    assert [p.describe(s) for p in plans.plans] == ["P1's Castle Grounds + a discard -> food"]
    assert (plans.plans[0].gold, plans.plans[0].gold_to_others, plans.plans[0].cards) == (1, 1, 1)
    s.apply_action(lm.ChooseBuilding("tannery"))
    s.apply_action(lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "granary"),)))
    assert s.gold == [0, 0] and s.grounds == [[1], [1]] and s.villages[1] == ["tannery"]
    assert s.events().text.iloc[-3] == (
        "P2 places 1 gold on P1's Castle Grounds and discards the Granary for a wild resource: food; it belongs to P1 "
        "at P1's next lead (Architects: How To Play, Build).")
    # round 2: Helen leads. Her own gold comes back; Rick's Castle Grounds keep Helen's gold
    s.apply_action(lm.Lead("harvest"))
    assert s.gold == [0, 3] and s.grounds == [[1], []] and s.spent[1] == set()
    s.apply_action(lm.Decline())
    # round 3: Rick leads, and the gold on his Castle Grounds becomes his
    s.apply_action(lm.Lead("trade"))
    assert s.gold == [1, 3] and s.grounds == [[], []]
    assert s.events().text.iloc[-2] == ("P1 leads: the 1 gold on their Castle Grounds (placed by P2) now belongs to P1 "
                                        "(Architects: How To Play, Build).")


def test_example_architect_worth_seven():
    village = ["barracks", "armory", "watch_post", "guard_house", "vardo", "tannery", "granary", "wandering_knight"]
    s = lm.position(hands=[[], []], villages=[village, []], gold=[0, 0], architects=["dont_glaver", "vesper_lark"],
                    lead=None)
    t = lm.score_table(s)
    mine = t[(t.player == "P1") & t.source.str.startswith("architect")]
    assert mine.points.tolist() == [4, 3] and mine.points.sum() == 7
    assert mine.explanation.tolist() == [
        "Don't Glaver: 4 soldier buildings x 1; 1 adventurer of that type not counted",
        "Don't Glaver: 3 worker buildings x 1"]
    assert lm.totals(s) == [7, 0]


# ============================================================================ acquisition costs and refusals


@pytest.mark.parametrize("landmark, hand, legal", [
    ("gate", ["arena", "cathedral"], [("arena", "cathedral")]),  # any two cards, even without icons
    ("silo", ["tannery", "vardo"], [("tannery",)]),
    ("statue", ["village_square", "tannery"], [("village_square",)]),
    ("ward_tower", ["shrine", "hidden_sanctum", "vardo"], [("hidden_sanctum",), ("shrine",)]),
    ("windmill", ["vardo", "grain_mill", "tannery"], [("grain_mill",), ("vardo",)]),  # the Grain Mill shows food and wood
])
def test_every_acquisition_cost(landmark, hand, legal):
    s = follower(hand, lead="harvest", cannot=())
    got = [a.discards for a in s.legal_actions() if isinstance(a, lm.Acquire) and a.landmark == landmark]
    assert got == legal
    s.apply_action(lm.Acquire(landmark, legal[0]))
    assert s.tokens[1][landmark] == 1 and s.supply[landmark] == 4
    assert sorted(s.hands[1] + s.discard_pile) == sorted(hand)


def test_acquisition_refusals_with_reasons():
    s = follower(["vardo"], lead="harvest", cannot=())
    assert reason(s, lm.Acquire("silo", ("vardo",))) == (
        "a Silo costs 1 card showing a food icon in its Resource section; P2 holds 0 such cards (Vardo)")
    assert reason(s, lm.Acquire("gate", ("vardo",))) == "a Gate costs any 2 cards from hand; P2 holds 1 card"
    assert str(s.why_not(lm.Acquire("gate", ("vardo", "vardo")))) == (
        "a Gate costs any 2 cards from hand; P2 holds 1 card (landmarks rules: Landmarks: How To Play, "
        "Acquiring a Landmark)")
    t = follower(["vardo", "tannery"], lead="harvest", cannot=())
    assert reason(t, lm.Acquire("windmill", ("tannery",))) == (
        "a Windmill needs a card showing a wood icon; the Tannery shows food in its Resource section")
    assert reason(t, lm.Acquire("windmill", ("granary",))) == "P2 has no Granary in hand to discard"
    assert reason(t, lm.Acquire("windmill", ())) == "a Windmill costs 1 card; the action discards 0"
    assert reason(t, lm.Acquire("gate", ("vardo", "vardo"))) == "P2 has no Vardo left in hand to discard"
    assert reason(t, lm.Acquire("castle", ("vardo",))) == (
        "there is no landmark 'castle' (landmarks: gate, silo, statue, ward_tower, windmill)")
    assert reason(t, lm.Acquire("windmill", "vardo")) == "the discards must be a tuple of card keys, got 'vardo'"
    u = follower(["arena"], lead="harvest", cannot=())
    assert reason(u, lm.Acquire("statue", ("arena",))) == (
        "a Statue costs 1 card showing a stone icon in its Resource section; P2 holds 0 such cards (Arena)")
    off = follower(["tannery"], lead="harvest", cannot=(), modules={"landmarks": False})
    assert reason(off, lm.Acquire("silo", ("tannery",))) == "the Landmarks module is not in play in this game"
    assert off.legal_actions() == [lm.Follow(), lm.Decline()]


def test_illegal_action_leaves_state_unchanged():
    s = follower(["vardo"], lead="harvest", cannot=())
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply_action(lm.Acquire("silo", ("vardo",)))
    assert err.value.refusal.source == "landmarks rules"
    assert err.value.refusal.section == "Landmarks: How To Play, Acquiring a Landmark"
    assert s.to_json() == before
    for bad in (None, "acquire", lm.Acquire(3), lm.Build(None), lm.Build("vardo", ("castle",)), lm.Lead(None)):
        assert s.why_not(bad) is not None
        with pytest.raises(IllegalAction):
            s.apply_action(bad)
        assert s.to_json() == before


def test_turn_refusals():
    s = lm.position(hands=[["tannery"], ["tannery"], ["granary"]], villages=[[]] * 3, gold=[0] * 3, lead="harvest",
                    rounds=1)
    assert s.current_player() == 1 and s.followers() == [1, 2]
    s.apply_action(lm.Follow())
    assert s.events().text.iloc[-1] == ("P2 follows harvest (the base game's effect is outside the module; Landmarks: "
                                        "How To Play, Take One Action).")
    assert s.current_player() == 2
    s.apply_action(lm.Acquire("silo", ("granary",)))
    assert s.is_terminal()
    assert reason(s, lm.Decline()) == "the game is over"
    lead = lm.position(hands=[["tannery"], ["tannery"]], villages=[[]] * 2, gold=[0, 0], lead=None)
    assert reason(lead, lm.Acquire("silo", ("tannery",))) == (
        "P1 leads this turn; only the other players may follow or acquire a landmark")
    assert reason(lead, lm.Lead("fly")) == "'fly' is not an action to lead (actions: harvest, build, develop, recruit, trade)"
    assert reason(lead, lm.Lead("build")) == ("P1 cannot lead build: no building in hand can be paid, even with the gold "
                                                  "that comes back at this lead")
    assert [a.action for a in lead.legal_actions()] == ["harvest", "develop", "recruit", "trade"]
    harvest = lm.position(hands=[[], ["tannery"]], villages=[[]] * 2, gold=[0, 0], lead="harvest", cannot_follow=[1])
    assert reason(harvest, lm.Follow()) == ("P2 cannot follow harvest in this position (the base game decides who can; "
                                            "the position says P2 cannot)")
    assert reason(harvest, lm.Build("tannery")) == "the lead action is harvest; building follows only a Build lead"
    build = follower(["tannery"], lead="build", cannot=(), gold=[0, 1])
    assert reason(build, lm.Follow()) == "a Build lead is followed by building: choose a building, then how to pay for it"


# ============================================================================ Build payments


def test_build_refusals():
    s = lm.position(hands=[[], ["vardo", "tannery", "sly_rogue"]], villages=[[]] * 2, developed=[[], ["lumber_camp"]],
                    gold=[0, 2], lead="build", spent=[[], ["castle"]])
    assert reason(s, lm.Build("sly_rogue")) == "the Sly Rogue is an adventurer: adventurers are recruited, not built"
    assert reason(s, lm.Build("arena")) == "P2 has no Arena in hand"
    assert reason(s, lm.Build("dragon")) == "there is no card 'dragon' in the deck"
    # the payments are judged once the card is chosen (a Build is two decisions)
    assert reason(s, lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "vardo"),))) == (
        "P2 builds in two decisions: first choose the building (ChooseBuilding), then how to pay")
    assert reason(s, lm.ChooseBuilding("vardo")) == (
        "P2 cannot pay for the Vardo: every way to pay the Vardo (2 wood + 1 magic) places at least 3 gold (one per "
        "resource), and P2 has 2 gold")
    s.apply_action(lm.ChooseBuilding("tannery"))
    assert reason(s, lm.Build("vardo")) == "P2 chose to build the Tannery, not the Vardo"
    assert reason(s, lm.Build("tannery", (lm.Use("castle", 1, "food"),))) == (
        "P2's castle already holds gold until P2's next lead")
    assert reason(s, lm.Build("tannery", (lm.Use("developed", 1, "food", 0),))) == "P2's Lumber Camp gives wood, not food"
    assert reason(s, lm.Build("tannery", (lm.Use("grounds", 1, "food", 0, "tannery"),))) == (
        "P2 has no Tannery to discard besides the Tannery being built")
    assert reason(s, lm.Build("tannery", (lm.Use("grounds", 1, "food"),))) == (
        "a Castle Grounds use needs a card discarded from hand")
    assert reason(s, lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "vardo"),
                                           lm.Use("grounds", 1, "wood", 0, "sly_rogue")))) == (
        "the Tannery costs 1 food; this payment gives 1 food + 1 wood, so it overpays it (only minimal payments are legal)")
    assert reason(s, lm.Build("tannery", (lm.Use("castle", 0, "food"),))) == (
        "P2 may place gold only on their own castle and developed resources, not on P1's")
    assert reason(s, lm.Build("vardo", (lm.Use("developed", 1, "wood", 0), lm.Use("grounds", 1, "wood", 0, "tannery"),
                                        lm.Use("grounds", 0, "magic", 0, "sly_rogue")))) == (
        "P2 chose to build the Tannery, not the Vardo")
    assert reason(s, lm.Build("tannery", (lm.Use("developed", 1, "food", 0), lm.Use("grounds", 0, "food", 0, "vardo")))) \
        == "P2's Lumber Camp gives wood, not food"
    assert reason(s, lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "vardo"),))) is None
    why = s.plan_payments("vardo", 1).why_none
    assert why == "every way to pay the Vardo (2 wood + 1 magic) places at least 3 gold (one per resource), and P2 has 2 gold"


def test_planner_says_exactly_why_none_exists():
    s = lm.position(hands=[["chapel"], []], villages=[[]] * 2, developed=[["lumber_camp", "grain_mill"], []],
                    gold=[5, 0], lead=None, modules={"castle_grounds": False}, spent=[["castle"], []])
    plans = s.plan_payments("chapel", 0)
    assert not plans and plans.plans == []
    assert plans.why_none == ("the Chapel needs 1 stone but only 0 free sources can give it (none); P1's castle already "
                              "holds gold until P1's next lead")
    # 2 cost units and the 2 developed wood sources, with no edge: wood cannot pay stone or magic
    assert len(plans.graph) == 4 and len(plans.graph.edges) == 0
    s2 = lm.position(hands=[["chapel"], []], villages=[[]] * 2, developed=[[], []], gold=[5, 0], lead=None,
                     grounds=[[1], [0]])
    assert s2.plan_payments("chapel", 0).why_none == (
        "the Chapel needs 1 stone + 1 magic but only 1 free source can give them (P1's castle); the Castle Grounds of "
        "P1, P2 already hold gold")
    s3 = lm.position(hands=[["tannery"], []], villages=[[]] * 2, developed=[[], []], gold=[5, 0], lead=None,
                     spent=[["castle"], []])
    assert s3.plan_payments("tannery", 0).why_none == (
        "the free sources left need Castle Grounds: 1 discard from hand besides the Tannery, and P1 holds 0 other cards")


def test_planner_lists_every_minimal_payment_ranked():
    s = lm.position(hands=[["armory", "tannery", "granary"], [], []], villages=[[]] * 3,
                    developed=[["armory", "watch_post"], [], []], gold=[9, 0, 0], lead=None)
    plans = s.plan_payments("armory", 0)  # stone + wood
    rows = [(p.describe(s), p.gold, p.gold_to_others, p.cards) for p in plans.plans]
    assert rows[:4] == [  # ties broken by the sources in seat order, castle before developed resources
        ("P1's castle -> stone; P1's Watch Post -> wood", 2, 0, 0),
        ("P1's castle -> wood; P1's Armory -> stone", 2, 0, 0),
        ("P1's Armory -> stone; P1's Watch Post -> wood", 2, 0, 0),
        ("P1's castle -> stone; P1's Castle Grounds + a discard -> wood", 2, 0, 1)]
    # 1 with both developed cards, 8 with one of them and a wild (castle or one of 3 Castle Grounds), 6 with 2 wilds
    assert len(rows) == len(set(rows)) == 15
    assert [(g, o, c) for _, g, o, c in rows] == sorted((g, o, c) for _, g, o, c in rows)
    assert rows[-1] == ("P2's Castle Grounds + a discard -> stone; P3's Castle Grounds + a discard -> wood", 2, 2, 2)
    # every plan with every discard choice is a legal Build, and nothing else is
    s.apply_action(lm.Lead("build"))
    assert s.legal_actions() == [lm.ChooseBuilding("armory"), lm.ChooseBuilding("granary"), lm.ChooseBuilding("tannery")]
    s.apply_action(lm.ChooseBuilding("armory"))
    armory = s.legal_actions()
    expected = sum(len(lm.rules.discard_choices(s, 0, "armory", p)) for p in plans.plans)
    assert len(armory) == expected and all(s.why_not(a) is None for a in armory)


# ============================================================================ scoring sources with ties


def test_most_needs_strictly_the_most_and_nobody_scores_a_tie():
    s = lm.position(hands=[[]] * 3, villages=[[]] * 3, gold=[0] * 3, lead=None, tokens=[
        {"gate": 3, "silo": 1}, {"gate": 3, "windmill": 2}, {"silo": 0, "windmill": 1}])
    t = lm.score_table(s).set_index(["player", "source"])
    assert t.loc[("P1", "most Gate")].points == 0 and t.loc[("P2", "most Gate")].points == 0
    assert t.loc[("P1", "most Gate")].explanation == "tied for the most Gate tokens (3) with P2: nobody scores"
    assert t.loc[("P3", "most Gate")].explanation == "0 Gate tokens; P1 and P2 tie with 3: nobody scores"
    assert t.loc[("P1", "most Silo")].points == 2
    assert t.loc[("P2", "most Windmill")].points == 2
    assert t.loc[("P2", "most Windmill")].explanation == "the most Windmill tokens: 2 (next best 1)"
    assert t.loc[("P1", "most Statue")].explanation == "nobody has a Statue token"
    assert t.loc[("P1", "Gate tokens")].points == 3 and t.loc[("P3", "Gate tokens")].points == 0
    summary = lm.score_summary(s)
    assert summary.total.tolist() == [5, 5, 0]
    assert summary.loc["P1"].to_dict() == {"most Gate": 0, "most Silo": 2, "most Statue": 0, "most Ward Tower": 0,
                                           "most Windmill": 0, "Gate tokens": 3, "landmark sets": 0, "total": 5}


def test_sets_and_architect_sources():
    s = lm.position(hands=[[]] * 2, villages=[["chapel", "shrine", "crypt", "herb_garden"], ["sly_rogue", "crypt"]],
                    gold=[0, 0], lead=None, architects=["vesper_lark", "captain_morrow"],
                    tokens=[dict.fromkeys(BOX.landmarks, 1), {"gate": 1}])
    t = lm.score_table(s).set_index(["player", "source"])
    assert t.loc[("P1", "landmark sets")].points == 3
    assert t.loc[("P1", "architect: holy")].points == 3 and t.loc[("P1", "architect: shadow")].points == 1
    assert t.loc[("P2", "architect: shadow")].explanation == (
        "Captain Morrow: 1 shadow building x 1; 1 adventurer of that type not counted")
    # P1: most of 4 types (the Gate is tied 1-1) 8, 1 Gate token, 1 set 3, architect 3 + 1
    assert lm.totals(s) == [8 + 1 + 3 + 4, 1 + 1] == [16, 2]


def test_end_trigger_count_excludes_landmark_tokens():
    village = ["barracks", "armory", "watch_post", "guard_house", "vardo", "tannery", "granary", "chapel", "shrine"]
    s = lm.position(hands=[[], ["tannery", "granary"]], villages=[[], village], developed=[[], ["lumber_camp", "crypt"]],
                    gold=[0, 5], lead="build", tokens=[{}, dict.fromkeys(BOX.landmarks, 2)])
    assert s.village_cards(1) == 11  # 9 in the village + 2 developed; 10 landmark tokens do not count
    s.apply_action(lm.ChooseBuilding("tannery"))
    s.apply_action(lm.Build("tannery", (lm.Use("castle", 1, "food"),)))
    assert s.village_cards(1) == 12 and s.end_triggered
    assert s.events().query("kind == 'end_trigger'").text.tolist() == [
        "P2's village reaches 12 cards (landmark tokens do not count), which triggers the end of the base game "
        "(Landmarks: How To Play, Acquiring a Landmark)."]


# ============================================================================ a whole example round, protocol, saves


def test_protocol_and_registry():
    g = get_game("landmarks")
    assert isinstance(g, Game) and g.name == "landmarks" and (g.min_players, g.max_players) == (2, 5)
    s = g.new_game(players=3, seed=2)
    assert isinstance(s, GameState)
    for a in s.legal_actions():
        assert g.action_from_dict(json.loads(json.dumps(g.action_to_dict(a)))) == a and a.describe()
    assert s.returns() == [0.0, 0.0, 0.0]


def test_a_new_game_plays_the_box_turns_one_lead_each_and_ends_after_the_last():
    """new_game's default is the box's example_round.rounds, 3 turns: with 3 players every seat
    leads once, the leader's token passing left when every follower has chosen (Take One Action)."""
    s = lm.new_game(3, seed=4)
    assert s.box.example_round["rounds"] == 3 and s.rounds == 3
    for turn, leader in ((1, 0), (2, 1), (3, 2)):
        assert (s.round, s.leader, s.phase, s.current_player()) == (turn, leader, "lead", leader)
        s.apply_action(lm.Lead("harvest"))
        first, second = (leader + 1) % 3, (leader + 2) % 3
        assert s.current_player() == first
        s.apply_action(lm.Follow())
        assert s.current_player() == second and not s.is_terminal()
        s.apply_action(lm.Decline())
    assert s.is_terminal() and s.current_player() is None and s.legal_actions() == []
    assert s.returns() == [float(x) for x in lm.totals(s)]
    assert [e.player for e in s.history()] == [None, 0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert [e.kind for e in s.log].count("round_ended") == 3


def test_a_one_turn_game_is_terminal_when_every_follower_has_chosen():
    s = lm.new_game(3, seed=4, rounds=1)
    s.apply_action(lm.Lead("harvest"))
    s.apply_action(lm.Follow())
    assert not s.is_terminal()
    s.apply_action(lm.Decline())
    assert s.is_terminal() and [e.player for e in s.history()] == [None, 0, 1, 2]


def _played(seed, players=3, rounds=3):
    s = lm.new_game(players, seed=seed, rounds=rounds)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_copies_share_the_record_and_are_independent():
    s = lm.new_game(3, seed=1)
    c = s.copy()
    c.apply_action(lm.Lead("harvest"))
    assert s.phase == "lead" and c.phase == "follow" and len(s.history()) == 1 and len(c.history()) == 2
    steps = _played(2).replay()
    assert steps[0][0] is None and steps[-1][1].is_terminal()


@pytest.mark.parametrize("seed", range(6))
def test_saves_round_trip(tmp_path, seed):
    s = _played(seed, players=2 + seed % 4)
    path = tmp_path / "game.json"
    s.save(path)
    t = lm.LandmarksState.load(path)
    assert t.to_dict() == s.to_dict() and t.returns() == s.returns()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left
    mid = lm.new_game(3, seed=seed)
    mid.apply_action(lm.Lead("build") if lm.Lead("build") in mid.legal_actions() else lm.Lead("trade"))
    assert lm.LandmarksState.from_dict(json.loads(mid.to_json())).to_dict() == mid.to_dict()
    pos = _tannery()
    assert lm.LandmarksState.from_dict(pos.to_dict()).to_dict() == pos.to_dict()


def _corrupt(change):
    d = json.loads(_played(1).to_json())
    change(d)
    with pytest.raises(lm.SaveError) as err:
        lm.LandmarksState.from_dict(d)
    return str(err.value)


def test_corrupt_saves_are_refused_naming_the_field(tmp_path):
    assert _corrupt(lambda d: d.update(format="x")) == "format: must be 'haunted-kit-landmarks-save', got 'x'"
    assert _corrupt(lambda d: d.update(version=9)) == "version: this kit reads version 4 (and migrates versions 1 to 3), got 9"
    assert _corrupt(lambda d: d["box"].update(fingerprint="0")).startswith(
        "box: this save was made with another box (Landmarks & Architects, folder 'landmarks', fingerprint 0)")
    assert _corrupt(lambda d: d["start"]["hands"][1].__setitem__(0, "dragon")) == "start.hands[1][0]: unknown card 'dragon'"
    assert _corrupt(lambda d: d["start"]["gold"].__setitem__(0, -1)) == "start.gold[0]: must be between 0 and 1000000, got -1"
    assert _corrupt(lambda d: d["start"]["supply"].__setitem__("gate", 6)) == (
        "start.supply.gate: 6 in the supply + 0 in villages must make the 7 tokens of a 3-player game")
    assert _corrupt(lambda d: d["state"]["gold"].__setitem__(0, 99)).startswith("state.gold: the record replays to [")
    assert _corrupt(lambda d: d["state"].pop("tokens")) == "state.tokens: missing"
    assert _corrupt(lambda d: d["record"][1]["action"].update(action="fly")).startswith(
        "record[1]: the rules refuse it: 'fly' is not an action to lead")
    assert _corrupt(lambda d: d["record"][0].update(action=["dont_glaver"])).startswith(
        "record[0]: ('dont_glaver',) is not a deal of 3 different architects")
    assert _corrupt(lambda d: d["log"][-1].update(text="P1 wins.")) == (
        "log[31]: the saved event log differs from what the record replays to")
    assert _corrupt(lambda d: d["start"]["hands"][0].extend(["vardo"] * 3)).startswith("start: the card 'vardo' appears ")
    assert _corrupt(lambda d: d.update(start_log=-1)).startswith("start_log: must count the events")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(lm.SaveError, match="is not valid JSON"):
        lm.LandmarksState.load(tmp_path / "bad.json")
    with pytest.raises(lm.SaveError, match="cannot read save"):
        lm.LandmarksState.load(tmp_path / "missing.json")


def test_save_is_atomic_when_the_write_fails(tmp_path, monkeypatch):
    s = _played(3)
    path = tmp_path / "game.json"
    path.write_text("old save")
    import os

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        s.save(path)
    assert path.read_text() == "old save" and [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_random_play_keeps_the_supply_and_cards_conserved():
    for seed in range(20):
        s = _played(seed, players=2 + seed % 4, rounds=4)
        total = BOX.supply(s.players)
        for k in BOX.landmarks:
            assert s.supply[k] + sum(t[k] for t in s.tokens) == total
        assert min(s.gold) >= 0
        assert lm.LandmarksState.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_load_refuses_a_save_over_the_size_limit(tmp_path):
    path = tmp_path / "game.json"
    _played(1).save(path)
    with pytest.raises(lm.SaveError, match=r"save .*game.json is \d[\d,]* bytes, over the limit of 100 bytes"):
        lm.LandmarksState.load(path, max_bytes=100)


def test_box_check_plays_every_setting_with_invariants(box_copy):
    from haunted_kit.testing import check_box

    report = check_box(game="landmarks", games=1)
    assert report.ok and report.games == 7  # players 2-5, and each of the 3 modules switched off once
    # a folder is loaded (and refused) with the module's own loader
    path = box_copy / "castle_grounds.toml"
    text = path.read_text()
    assert "gold = 1\nwild = 1" in text
    path.write_text(text.replace("gold = 1\nwild = 1", "gold = 0\nwild = 1"))
    with pytest.raises(BoxError, match="castle_grounds.toml, entry castle: field 'gold' must be at least 1, got 0"):
        check_box(box_copy, game="landmarks", games=1)


def test_the_same_choice_in_another_order_is_the_listed_action():
    s = follower(["village_square", "tannery"], lead="harvest", cannot=())
    s.apply_action(lm.Acquire("gate", ("village_square", "tannery")))
    assert s.tokens[1]["gate"] == 1 and s.history()[-1].action == lm.Acquire("gate", ("tannery", "village_square"))
    v = _vardo()
    v.apply_action(lm.Lead("build"))
    v.apply_action(lm.ChooseBuilding("vardo"))
    v.apply_action(lm.Build("vardo", (lm.Use("grounds", 0, "magic", 0, "tannery"), lm.Use("developed", 0, "wood", 0),
                                      lm.Use("castle", 0, "wood"))))
    assert v.villages[0] == ["vardo"] and v.history()[-1].action.payment[0] == lm.Use("castle", 0, "wood")


def test_acquire_with_discards_none_is_refused_not_a_crash():
    s = follower(["vardo", "tannery"], lead="harvest", cannot=())
    before = s.to_json()
    assert reason(s, lm.Acquire("gate", None)) == "the discards must be a tuple of card keys, got None"
    assert reason(s, lm.Acquire("castle", None)) == (
        "there is no landmark 'castle' (landmarks: gate, silo, statue, ward_tower, windmill)")
    with pytest.raises(IllegalAction):
        s.apply_action(lm.Acquire("gate", None))
    assert s.to_json() == before


def test_payment_numbers_take_numpy_integers_and_refuse_floats_and_bools():
    import numpy as np

    s = _vardo()
    s.apply_action(lm.Lead("build"))
    s.apply_action(lm.ChooseBuilding("vardo"))
    plan = s.legal_actions()[0]
    assert isinstance(plan, lm.Build)
    u = plan.payment[0]
    before = s.to_json()
    for bad, words in [(dataclasses.replace(u, owner=1.0), "the owner must be a player index, a whole number (an int, "
                                                          "not a bool or a float), got 1.0"),
                       (dataclasses.replace(u, owner=True), "got True"),
                       (dataclasses.replace(u, owner=9), "9 is not a player of this game (players 0..1)"),
                       (dataclasses.replace(u, slot=0.0), "slot 0.0 must be a whole number (an int, not a bool or a float)")]:
        a = lm.Build(plan.card, (bad,) + plan.payment[1:])
        assert words in reason(s, a)
        with pytest.raises(IllegalAction):
            s.apply_action(a)
        assert s.to_json() == before
    numpy_plan = lm.Build(plan.card, tuple(dataclasses.replace(x, owner=np.int64(x.owner), slot=np.int8(x.slot))
                                           for x in plan.payment))
    assert s.why_not(numpy_plan) is None
    s.apply_action(numpy_plan)
    last = s.history()[-1].action
    assert last == plan and all(type(x.owner) is int and type(x.slot) is int for x in last.payment)
    assert lm.LandmarksState.from_dict(json.loads(s.to_json())).to_json() == s.to_json()


@pytest.mark.parametrize("where", ["state", "start"])
@pytest.mark.parametrize("bad", [[], {}, ["captain_morrow"]])
def test_a_save_with_an_architect_that_is_a_list_or_object_is_refused(where, bad):
    s = lm.new_game(players=3, seed=1)
    d = json.loads(s.to_json())
    d[where]["architects"][0] = bad
    with pytest.raises(lm.SaveError, match=rf"{where}.architects\[0\]: unknown architect"):
        lm.LandmarksState.from_dict(d)


def test_a_save_whose_start_log_holds_infinity_or_wrong_types_is_refused():
    s = lm.new_game(players=3, seed=1)
    d = json.loads(s.to_json())
    assert d["start_log"] >= 1
    for field, bad in [("seq", float("inf")), ("text", None), ("player", [0]), ("data", {"x": float("nan")})]:
        e = json.loads(s.to_json())
        e["log"][0][field] = bad
        with pytest.raises(lm.SaveError, match=f"log: malformed event .*'{field}'"):
            lm.LandmarksState.from_dict(e)
    assert lm.LandmarksState.from_dict(d).to_json() == s.to_json()


@pytest.mark.parametrize("change,words", [
    ({"gold": None}, "gold must be a list, got None"),
    ({"villages": None}, "villages must be a list with one list per player, got None"),
    ({"hands": [None, []]}, "hands must be a list with one list per player, got [None, []]"),
    ({"tokens": [5, {}]}, "tokens must be a list with one {landmark: count} object per player, got [5, {}]"),
    ({"cannot_follow": None}, "cannot_follow must be a list, got None"),
    ({"spent": [None, []]}, "spent must be a list with one list per player, got [None, []]"),
    ({"spent": [["castle", 3], []]}, "position.spent[0][1]: must be 'castle' or 'developed:N'"),
    ({"grounds": 5}, "grounds must be a list with one list per player, got 5"),
    ({"architects": 7}, "architects must be a list, got 7"),
])
def test_position_refuses_malformed_parts_with_a_config_error(change, words):
    with pytest.raises(lm.ConfigError) as err:
        lm.position(**{"hands": [[], ["tannery"]], "villages": [[], []], "gold": [0, 0], **change})
    assert words in str(err.value)
