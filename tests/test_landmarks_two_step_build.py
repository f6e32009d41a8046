"""A Landmarks Build is two decisions (Architects: How To Play, Build): the builder chooses
which building of the hand to build (``ChooseBuilding``, one per building some minimal
payment can pay for), then how to pay for it (the ``Build`` actions of that card only).
The same Builds are legal in the end; the same refusals, each at its step; the chosen card
is part of the position (observation, copy, save, determinisation); saves of version 1
(one decision per Build) are migrated."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from haunted_kit import landmarks as lm
from haunted_kit.landmarks import rules as R
from haunted_kit.landmarks.encoding import LandmarksObservation, catalogue
from haunted_kit.protocol import IllegalAction

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "landmarks_save_v1.json"


def reason(s, a):
    r = s.why_not(a)
    return None if r is None else r.text


def _helen():
    """P1 (Helen) leads Build holding a Vardo (2 wood + 1 magic) and a Tannery (1 food), with
    her castle, a developed Lumber Camp (wood), both Castle Grounds free and 3 gold."""
    s = lm.position(hands=[["vardo", "tannery"], ["granary"]], villages=[[], []], developed=[["lumber_camp"], []],
                    gold=[3, 0], lead=None)
    s.apply_action(lm.Lead("build"))
    return s


def test_the_two_step_legal_lists_of_a_worked_position():
    s = _helen()
    # step 1: both buildings can be paid, listed by key
    assert s.legal_actions() == [lm.ChooseBuilding("tannery"), lm.ChooseBuilding("vardo")]
    assert s.chosen_building is None and s.current_player() == 0
    # step 2, the Tannery (1 food): the castle (1 gold, no discard), then her own Castle Grounds, then P2's,
    # each discarding the only other card in hand, the Vardo
    t = s.copy()
    t.apply_action(lm.ChooseBuilding("tannery"))
    assert t.chosen_building == "tannery" and t.phase == "build" and t.current_player() == 0
    assert t.legal_actions() == [
        lm.Build("tannery", (lm.Use("castle", 0, "food"),)),
        lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "vardo"),)),
        lm.Build("tannery", (lm.Use("grounds", 1, "food", 0, "vardo"),))]
    # step 2, the Vardo (2 wood + 1 magic): castle and Lumber Camp give the wood, a Castle Grounds the magic
    v = s.copy()
    v.apply_action(lm.ChooseBuilding("vardo"))
    wood = (lm.Use("castle", 0, "wood"), lm.Use("developed", 0, "wood", 0, "", "lumber_camp"))
    assert v.legal_actions() == [lm.Build("vardo", wood + (lm.Use("grounds", 0, "magic", 0, "tannery"),)),
                                 lm.Build("vardo", wood + (lm.Use("grounds", 1, "magic", 0, "tannery"),))]
    # the Builds of both steps are exactly the Builds the rules allow (the one-decision list of version 1)
    assert t.legal_actions() + v.legal_actions() == R.build_options(s, 0)
    # after the Build the chosen card is cleared and the followers choose
    v.apply_action(v.legal_actions()[0])
    assert v.chosen_building is None and v.phase == "follow" and v.villages[0] == ["vardo"]


def test_a_follower_chooses_among_buildings_landmarks_and_decline_then_only_pays():
    s = lm.position(hands=[[], ["tannery", "granary"]], villages=[[], []], gold=[0, 1], lead="build",
                    spent=[[], ["castle"]])
    # P2 can pay the Tannery (food) only on a Castle Grounds discarding the Granary; the Granary (food + wood)
    # needs 2 sources but 1 gold
    legal = s.legal_actions()
    assert legal[0] == lm.ChooseBuilding("tannery") and legal[-1] == lm.Decline()
    assert not any(isinstance(a, lm.Build) for a in legal)
    assert reason(s, lm.ChooseBuilding("granary")) == (
        "P2 cannot pay for the Granary: every way to pay the Granary (1 food + 1 wood) places at least 2 gold "
        "(one per resource), and P2 has 1 gold")
    s.apply_action(lm.ChooseBuilding("tannery"))
    assert s.events().text.iloc[-1] == "P2 chooses to build the Tannery (Architects: How To Play, Build)."
    assert s.legal_actions() == [lm.Build("tannery", (lm.Use("grounds", 1, "food", 0, "granary"),)),
                                 lm.Build("tannery", (lm.Use("grounds", 0, "food", 0, "granary"),))]
    # no taking back: the other choices of a follower are refused with the reason
    kept = "P2 has chosen to build the Tannery (a choice is not taken back); now choose how to pay for it"
    assert reason(s, lm.Decline()) == kept
    assert reason(s, lm.Acquire("silo", ("granary",))) == kept
    assert reason(s, lm.ChooseBuilding("tannery")) == (
        "P2 has already chosen to build the Tannery (a choice is not taken back); now choose how to pay for it")
    opts = s.options()
    assert opts.option[0] == "follow: build" and opts.legal[0] and opts.ways[0] == 2


def test_refusals_at_each_step_name_the_reason_and_change_nothing():
    s = _helen()
    before = s.to_json()
    two = "P1 builds in two decisions: first choose the building (ChooseBuilding), then how to pay"
    first = {
        lm.ChooseBuilding("dragon"): "there is no card 'dragon' in the deck",
        lm.ChooseBuilding("granary"): "P1 has no Granary in hand",
        lm.Build("granary"): "P1 has no Granary in hand",
        lm.Build("vardo", (lm.Use("castle", 0, "wood"),)): two,
        lm.Build("tannery", (lm.Use("castle", 0, "food"),)): two,
        lm.Decline(): "P1 leads this turn; only the other players may follow or acquire a landmark",
    }
    for action, words in first.items():
        assert reason(s, action) == words, action
        with pytest.raises(IllegalAction):
            s.apply_action(action)
        assert s.to_json() == before
    assert s.why_not(lm.ChooseBuilding("granary")).section == "Architects: How To Play, Build"
    rogue = lm.position(hands=[["sly_rogue", "chapel"], []], villages=[[], []], gold=[5, 0], lead="build",
                        to_move=0, modules={"castle_grounds": False})
    assert reason(rogue, lm.ChooseBuilding("sly_rogue")) == (
        "the Sly Rogue is an adventurer: adventurers are recruited, not built")
    assert reason(rogue, lm.ChooseBuilding("chapel")) == (
        "P1 cannot pay for the Chapel: the Chapel needs 1 stone + 1 magic but only 1 free source can give them "
        "(P1's castle); a Castle Grounds could give what is missing, but the Castle Grounds module is not in play "
        "in this game (Architects: Concepts, Castle Grounds Cards)")
    # step 2: the chosen card's payments only
    s.apply_action(lm.ChooseBuilding("tannery"))
    before = s.to_json()
    second = {
        lm.Build("vardo", (lm.Use("castle", 0, "wood"),)): "P1 chose to build the Tannery, not the Vardo",
        lm.Build("dragon"): "P1 chose to build the Tannery, not the 'dragon'",
        lm.Build("tannery", (lm.Use("castle", 0, "wood"),)): (
            "the Tannery costs 1 food; this payment gives 1 wood, so it does not pay it (only minimal payments are "
            "legal)"),
        lm.ChooseBuilding("vardo"): (
            "P1 has already chosen to build the Tannery (a choice is not taken back); now choose how to pay for it"),
    }
    for action, words in second.items():
        assert reason(s, action) == words, action
        with pytest.raises(IllegalAction):
            s.apply_action(action)
        assert s.to_json() == before


def test_the_chosen_building_is_part_of_the_position():
    s = lm.position(hands=[["vardo"], ["tannery", "granary"], ["chapel", "shrine"]], villages=[[]] * 3,
                    gold=[0, 1, 0], lead="build", architects=["dont_glaver", "vesper_lark", "master_hewn"])
    s.apply_action(lm.ChooseBuilding("tannery"))
    # public: every observer sees it, the others' hands stay counts
    for viewer in range(3):
        obs = s.observation(viewer)
        assert obs["chosen_building"] == "tannery"
        assert obs["hands"][1] == (["tannery", "granary"] if viewer == 1 else 2)
    # copies, saves and the legal-action memo tell it apart
    c = s.copy()
    assert c.chosen_building == "tannery" and c.legal_actions() == s.legal_actions()
    again = lm.LandmarksState.from_dict(json.loads(s.to_json()))
    assert again.chosen_building == "tannery" and again.to_dict() == s.to_dict()
    assert s.to_dict()["version"] == 4 and s.to_dict()["state"]["chosen_building"] == "tannery"
    fresh = lm.position(hands=[["vardo"], ["tannery", "granary"], ["chapel", "shrine"]], villages=[[]] * 3,
                        gold=[0, 1, 0], lead="build")
    assert fresh.legal_actions()[0] == lm.ChooseBuilding("tannery") and s.legal_actions()[0].card == "tannery"
    assert not any(isinstance(a, lm.ChooseBuilding) for a in s.legal_actions())
    # another player's determinisation redraws P2's hidden card but keeps the announced Tannery
    for seed in range(20):
        d = lm.GAME.determinise(s, 0, random.Random(seed))
        assert "tannery" in d.hands[1] and len(d.hands[1]) == 2 and d.chosen_building == "tannery"
        assert d.legal_actions() and all(a.card == "tannery" for a in d.legal_actions())
    # the environment's observation shows it
    enc = LandmarksObservation(s.box, 3)
    v = enc.from_state(s, 0, 1)
    assert v[enc.at["chosen_building.tannery"]] == 1 and sum(v[enc.at[f"chosen_building.{k}"]] for k in enc.cards) == 1


def test_positions_and_saves_refuse_an_impossible_chosen_building():
    common = dict(hands=[["vardo"], ["tannery", "granary"]], villages=[[], []], gold=[0, 1])
    assert lm.position(**common, lead="build", chosen_building="tannery").legal_actions()[0].card == "tannery"
    with pytest.raises(lm.ConfigError, match=r"position.chosen_building: must be a building in the hand of P2, who is "
                                             r"to move; got 'vardo'"):
        lm.position(**common, lead="build", chosen_building="vardo")
    with pytest.raises(lm.ConfigError, match=r"a building is chosen only while building after a Build lead, not in "
                                             r"phase 'follow' after a harvest lead"):
        lm.position(**common, lead="harvest", chosen_building="tannery")
    with pytest.raises(lm.ConfigError, match=r"position.chosen_building: unknown card 'dragon'"):
        lm.position(**common, lead="build", chosen_building="dragon")


def test_every_build_of_a_game_is_reached_in_two_steps():
    """Along seeded random games of 2-5 players, where building is due the Builds reached
    through each listed card are exactly the Builds the rules allow, and each card listed
    has one."""
    checked = 0
    for seed in range(12):
        s = lm.new_game(2 + seed % 4, seed=seed, rounds=3)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            chooses = [a for a in legal if isinstance(a, lm.ChooseBuilding)]
            if chooses:
                p = s.current_player()
                reached = []
                for a in chooses:
                    t = s.copy()
                    t.apply_action(a)
                    assert t.legal_actions() and all(isinstance(b, lm.Build) and b.card == a.card
                                                     for b in t.legal_actions())
                    reached += t.legal_actions()
                assert reached == R.build_options(s, p)
                assert all(R.refuse_build(s, p, b) is None for b in reached)
                checked += 1
            s.apply_action(rng.choice(legal))
    assert checked > 15


def test_a_version_1_save_is_migrated_to_two_decisions(tmp_path):
    old = json.loads(FIXTURE.read_text())
    assert old["version"] == 1
    s = lm.LandmarksState.load(FIXTURE)
    record = [e for e in s.history() if not e.chance]
    old_record = [e for e in old["record"] if not e["chance"]]
    # each Build is replayed as the ChooseBuilding of its card, by the same player, then the Build
    builds = [e for e in old_record if e["action"]["type"] == "Build"]
    assert len(builds) == 4 and len(record) == len(old_record) + len(builds)
    it = iter(record)
    for e in old_record:
        got = next(it)
        if e["action"]["type"] == "Build":
            assert (got.player, got.action) == (e["player"], lm.ChooseBuilding(e["action"]["card"]))
            got = next(it)
        assert got.player == e["player"] and lm.action_to_dict(got.action) == e["action"]
    # the same final position, and the same log with one "chooses to build" event before each Build's
    assert s.is_terminal() and {k: v for k, v in s.fields().items() if k != "chosen_building"} == old["state"]
    chosen = [e for e in s.log if e.kind == "building_chosen"]
    assert [e.data["card"] for e in chosen] == [e["action"]["card"] for e in builds]
    # (the game-over sentence in words since version 3: tests/test_landmarks_save_migration.py)
    assert old["log"][-1]["text"] == "The modules' points: P1 6, P2 1, P3 7 (see score_table for each point)."
    assert s.log[-1].text == lm.rules.game_over_sentence([6, 1, 7])
    # (and the kit's rulings cited by code since version 4: tests/test_landmarks_save_migration.py)
    assert [e.text for e in s.log[:-1] if e.kind != "building_chosen"] == [
        e["text"].replace("(kit default, see RULINGS: Landmarks & Architects)", "(kit ruling L9)")
        for e in old["log"][:-1]]
    assert [e.seq for e in s.log] == list(range(len(s.log)))
    # saved again it is a save of this version that loads as it is
    s.save(tmp_path / "v3.json")
    again = lm.LandmarksState.load(tmp_path / "v3.json")
    assert again.to_dict() == s.to_dict() and again.to_dict()["version"] == 4
    # a version 1 save cannot hold what version 1 never had
    bad = json.loads(FIXTURE.read_text())
    bad["record"].insert(2, {"player": 0, "chance": False, "action": {"type": "ChooseBuilding", "card": "vardo"}})
    with pytest.raises(lm.SaveError, match=r"^record\[2\]: a version 1 save has no ChooseBuilding"):
        lm.LandmarksState.from_dict(bad)
    tampered = json.loads(FIXTURE.read_text())
    tampered["log"][-1]["text"] = "P1 wins."
    with pytest.raises(lm.SaveError, match="the saved event log differs from what the record replays to"):
        lm.LandmarksState.from_dict(tampered)


def test_the_action_catalogue_numbers_both_steps():
    box = lm.default_box()
    cat = catalogue(box)
    buildings = sorted(k for k, c in box.cards.items() if c.kind == "building")
    assert [e.card for e in cat.entries if isinstance(e, lm.ChooseBuilding)] == buildings
    s = _helen()
    nums = cat.legal_numbers(s)
    assert [cat.decode(s, i) for i in nums] == s.legal_actions()
    s.apply_action(lm.ChooseBuilding("vardo"))
    nums = cat.legal_numbers(s)
    assert [cat.decode(s, i) for i in nums] == s.legal_actions() and len(nums) == 2
    assert nums[1] == nums[0] + 1 == cat.entries.index(lm.ChooseBuilding("vardo")) + 2


def test_a_refused_version_1_save_names_the_entry_of_its_own_record():
    """The migration adds a ChooseBuilding before each Build; a refusal still names the
    entry as the file numbers it (record[3] is P2's Build of the Village Square, the file's
    fourth entry, after the setup draw, the lead and P1's Build)."""
    bad = json.loads(FIXTURE.read_text())
    assert bad["record"][3]["action"]["card"] == "village_square"
    bad["record"][3]["action"]["payment"][0]["resource"] = "gold dust"
    with pytest.raises(lm.SaveError, match=r"^record\[3\]: "):
        lm.LandmarksState.from_dict(bad)
    bad = json.loads(FIXTURE.read_text())
    bad["record"][3]["action"]["card"] = "no_such_card"  # its card's choice, made up by the migration, is refused first
    with pytest.raises(lm.SaveError, match=r"^record\[3\] \(the choice of its card\): "):
        lm.LandmarksState.from_dict(bad)
