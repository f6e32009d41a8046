"""Views and saves: JSON round trip, identical continuation, determinism, corrupt and
wrong-version saves, hidden quests in a player's view (issue 2; ruling 7)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys

import pytest

import haunted_kit as hk
from haunted_kit.haunted.actions import ChooseQuest, ChooseResource, Contact, EndTurn
from haunted_kit.haunted.scenario import give_quests, put_building, put_ghost, scenario, set_calendar, set_valor


def play(s, rng, n):
    """Apply ``n`` random legal decisions (stops at the end of the game); returns the actions."""
    done = []
    for _ in range(n):
        if s.is_terminal():
            break
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        done.append(a)
    return done


@pytest.mark.parametrize("players, mode, seed", [(2, "wanderer", 3), (3, "builder", 5), (4, "citizen", 8)])
def test_round_trip_mid_game_plays_on_identically(players, mode, seed):
    s = hk.new_game(players=players, mode=mode, seed=seed)
    rng = random.Random(seed)
    play(s, rng, 80)
    text = s.to_json()
    t = hk.State.from_json(text)
    assert t.to_json() == text
    assert t.legal_actions() == s.legal_actions()
    for _ in range(150):
        if s.is_terminal():
            break
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        t.apply_action(a)
        assert t.to_json() == s.to_json()


def test_round_trip_through_a_file(tmp_path):
    s = hk.new_game(players=3, seed=2)
    play(s, random.Random(1), 40)
    path = tmp_path / "game.json"
    s.save(path)
    t = hk.State.load(path)
    assert t.to_json() == s.to_json()
    assert json.loads(path.read_text())["format"] == "haunted-kit-save"


def test_round_trip_at_a_pending_decision_and_at_a_chance_node():
    s = scenario(players=2)
    put_ghost(s, (0, 0))
    s.force_chance(4)  # season 1 face 4: 1 resource + 1 pecunia
    s.apply_action(Contact())
    assert s.pending[-1].kind == "resource"
    t = hk.State.from_json(s.to_json())
    t.apply_action(ChooseResource("wood"))
    s.apply_action(ChooseResource("wood"))
    assert t.to_json() == s.to_json()

    u = hk.new_game(players=2, seed=4, auto_chance=False)
    assert u.is_chance_node()
    v = hk.State.from_json(u.to_json())
    assert v.is_chance_node() and v.chance == u.chance and v.chance_outcomes() == u.chance_outcomes()


def test_same_seed_same_actions_same_game():
    a = hk.new_game(players=4, seed=99)
    b = hk.new_game(players=4, seed=99)
    ra, rb = random.Random(5), random.Random(5)
    for _ in range(300):
        if a.is_terminal():
            break
        assert a.to_json() == b.to_json()
        x, y = ra.choice(a.legal_actions()), rb.choice(b.legal_actions())
        assert x == y
        a.apply_action(x)
        b.apply_action(y)
    assert a.to_json() == b.to_json()


def test_the_seed_decides_the_draws():
    layouts = {tuple(hk.new_game(players=2, seed=k).layout) for k in range(8)}
    assert len(layouts) > 1


def test_a_replay_from_the_action_list_gives_the_same_game():
    s = hk.new_game(players=3, seed=21)
    actions = play(s, random.Random(21), 200)
    r = hk.new_game(players=3, seed=21)
    for a in actions:
        r.apply_action(hk.action_from_dict(json.loads(json.dumps(hk.action_to_dict(a)))))
    assert r.to_json() == s.to_json()


# ------------------------------------------------------------------ bad saves


def good():
    s = hk.new_game(players=2, seed=1)
    play(s, random.Random(1), 20)
    return s.to_dict()


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"format": "chess", "version": 1}', "not a haunted-kit save"),
])
def test_corrupt_text(text, words):
    with pytest.raises(hk.SaveError, match=words):
        hk.State.from_json(text)


@pytest.mark.parametrize("version", [0, 3, "1", True, None])
def test_wrong_version(version):
    d = good()
    d["version"] = version
    with pytest.raises(hk.SaveError, match="version"):
        hk.State.from_dict(d)


def test_missing_version():
    d = good()
    del d["version"]
    with pytest.raises(hk.SaveError, match="version"):
        hk.State.from_dict(d)


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d.pop("players"), "players"),
    (lambda d: d["players"].pop(), "players"),
    (lambda d: d.__setitem__("season", -1), "season"),
    (lambda d: d.__setitem__("phase", "lunch"), "phase"),
    (lambda d: d["cells"]["ghosts"].append([40, 40]), "cells.ghosts"),
    (lambda d: d["players"][0]["resources"].__setitem__("food", -2), r"players\[0\].resources.food': must be between 0 and 16, got -2"),
    (lambda d: d["players"][0]["active"].__setitem__("contact", 5), "more active tokens"),
    (lambda d: d["config"].__setitem__("players", 7), "config"),
    (lambda d: d.__setitem__("skills", [99, 4, 7, 10]), "skill"),
    (lambda d: d.__setitem__("turn_order", [0, 0]), "turn_order"),
])
def test_malformed_field_is_named(mutate, words):
    d = good()
    mutate(d)
    with pytest.raises(hk.SaveError, match=words):
        hk.State.from_dict(d)


def test_missing_file(tmp_path):
    with pytest.raises(hk.SaveError, match="cannot read"):
        hk.State.load(tmp_path / "nope.json")


def test_an_observation_is_not_a_save():
    s = scenario(players=2)
    give_quests(s, 1, 5)
    obs = s.observation(0)
    obs["format"] = "haunted-kit-save"
    obs["rng_count"] = 0
    with pytest.raises(hk.SaveError, match="observation"):
        hk.State.from_dict(obs)


# ------------------------------------------------------------------ views


def chosen_at_season_end():
    """4 players; end of season 1 with P1 leading: P2, P3, P4 choose quests 2, 6, 8."""
    s = scenario(players=4)
    set_valor(s, 0, 3)
    set_calendar(s, 1, 3)
    s.force_chance("plain")
    for _ in range(4):
        s.apply_action(EndTurn())
    for q in (2, 6, 8):
        s.apply_action(ChooseQuest(q))
    return s


def test_a_players_view_hides_the_others_quests():
    s = chosen_at_season_end()
    assert s.quests == [(), (2,), (6,), (8,)]
    obs = s.observation(1)
    pl = obs["players"]
    assert pl[1]["quests"] == [2] and pl[1]["quests_in_hand"] == [1, 3, 4, 5, 6, 7, 8]
    for p in (0, 2, 3):
        assert pl[p]["quests"] is None and pl[p]["quests_in_hand"] is None
    assert [p["quest_count"] for p in pl] == [0, 1, 1, 1]
    assert obs["viewer"] == 1 and "rng_count" not in obs and "forced" not in obs
    seen = [e for e in obs["log"] if e["kind"] == "quest_chosen"]
    assert [(e["player"], e["data"]) for e in seen] == [(1, {"quest": 2}), (2, {}), (3, {})]
    assert all("6" not in e["text"] and "8" not in e["text"] for e in seen[1:])
    frame = s.events(viewer=1)
    rows = frame[frame.kind == "quest_chosen"]
    assert list(rows.data) == [{"quest": 2}, {}, {}]


def test_the_full_view_shows_everything():
    s = chosen_at_season_end()
    obs = s.observation(None)
    assert [p["quests"] for p in obs["players"]] == [[], [2], [6], [8]]


def test_revealed_quests_are_public_after_the_game():
    s = chosen_at_season_end()  # now at the spread of season 2, round 1
    while s.pending:
        s.apply_action(s.legal_actions()[0])
    set_calendar(s, 3, 3)
    while not s.is_terminal():
        s.apply_action(EndTurn())
    obs = s.observation(0)
    revealed = [(e["player"], e["data"]["quest"]) for e in obs["log"] if e["kind"] == "quest_revealed"]
    assert sorted(revealed) == [(1, 2), (2, 6), (3, 8)]


def test_same_game_in_other_processes_with_other_hash_seeds():
    code = ("import random, hashlib, haunted_kit as hk\n"
            "s = hk.new_game(players=4, mode='citizen', seed=77)\n"
            "rng = random.Random(3)\n"
            "for _ in range(400):\n"
            "    if s.is_terminal(): break\n"
            "    s.apply_action(rng.choice(s.legal_actions()))\n"
            "print(hashlib.sha256(s.to_json().encode()).hexdigest())\n")
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    s = hk.new_game(players=4, mode="citizen", seed=77)
    play(s, random.Random(3), 400)
    digests.add(hashlib.sha256(s.to_json().encode()).hexdigest())
    assert len(digests) == 1


def scenario_save():
    s = scenario(players=2)  # layout R01..R06: (2,1) is a lake
    return s.to_dict()


IMPOSSIBLE = [
    (lambda d: d.__setitem__("pending", [["dance", 0]]), "pending"),
    (lambda d: d.__setitem__("pending", [["resource", 7, 1, "skill 12"]]), "pending"),
    (lambda d: d.__setitem__("chance", ["coin"]), "chance"),
    (lambda d: d.__setitem__("market", 9), "market"),
    (lambda d: d.__setitem__("turn_pos", 9), "turn_pos"),
    (lambda d: d.__setitem__("season", 7), "season"),
    (lambda d: d["supply"]["resources"].__setitem__("food", -3), "supply"),
    (lambda d: d["players"][0].__setitem__("quests", [42]), "quest"),
    (lambda d: d["players"][0].__setitem__("sensor", [2, 1]), "sensor"),
    (lambda d: d["cells"]["ghosts"].append([2, 1]), "ghosts"),
    (lambda d: (d["players"][0]["tokens"].__setitem__("extraction", 5),
                d["players"][0]["active"].__setitem__("extraction", 5)), "extraction"),
    (lambda d: d["players"][0]["resources"].__setitem__("food", 9), "food"),
]
IMPOSSIBLE_IDS = ["unknown-pending-kind", "pending-for-player-8", "unknown-chance-node", "market-card-9", "turn_pos-9",
                  "season-7", "negative-supply", "unknown-quest-42", "sensor-on-a-lake", "ghost-on-a-lake",
                  "5-extraction-tokens-on-2-slots", "9-food-over-the-cap"]


@pytest.mark.parametrize("mutate, words", IMPOSSIBLE, ids=IMPOSSIBLE_IDS)
def test_impossible_values_are_refused_at_load(mutate, words):
    """A save whose values cannot occur in a game must fail at load with a SaveError
    naming the field, not load and break later."""
    d = scenario_save()
    mutate(d)
    with pytest.raises(hk.SaveError, match=words):
        hk.State.from_dict(d)


def finished_on_a_tie():
    """P1 and P2 both end on 5 valor; P2 arrived last, so P2 tops the stack and wins
    (rulebook "Final Scoring", "Valor Points and the Valor Track"; ruling 10)."""
    s = scenario(players=2)
    set_valor(s, 0, 5)
    set_valor(s, 1, 3)
    give_quests(s, 1, 5)  # 1 mill: 2 valor per mill
    put_building(s, (3, 1), "mill", 1)
    set_calendar(s, 3, 3)
    while not s.is_terminal():
        s.apply_action(EndTurn())
    assert s.winner == 1 and [p["valor"] for p in s.to_dict()["players"]] == [5, 5]
    return s.to_dict()


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d.__setitem__("winner", 0), "P1 cannot have won.*P2 on top"),    # P1 is under P2 on the 5 stack
    (lambda d: d.__setitem__("winner", None), "no player cannot have won"),
    (lambda d: d.__setitem__("lost", True), "collective loss has no winner"),
    (lambda d: (d.__setitem__("phase", "turns"), d.__setitem__("turn_pos", 0)), "still in the turns step has no winner"),
], ids=["winner-under-the-stack", "no-winner", "lost-with-a-winner", "running-with-a-winner"])
def test_a_finished_saves_outcome_must_follow_the_stack_in_every_phase(mutate, words):
    d = finished_on_a_tie()
    assert hk.State.from_dict(json.loads(json.dumps(d))).winner == 1  # the true save loads
    mutate(d)
    with pytest.raises(hk.SaveError, match=words):
        hk.State.from_dict(d)


@pytest.mark.parametrize("field, value", [("winner", 1), ("lost", True)])
def test_a_running_game_has_no_outcome(field, value):
    """Before the fix the winner was checked only at a chance node: a save in the
    turns step (no chance node) named a winner and loaded."""
    d = scenario_save()
    assert d["phase"] == "turns" and d["chance"] is None
    d[field] = value
    with pytest.raises(hk.SaveError, match="no winner and no collective loss"):
        hk.State.from_dict(d)


def test_a_save_whose_event_log_holds_infinity_or_wrong_types_names_the_log():
    s = hk.new_game(players=2, seed=3)
    for _ in range(5):
        s.apply_action(s.legal_actions()[0])
    good = json.loads(s.to_json())
    for field, bad in [("seq", float("inf")), ("seq", "x"), ("text", None), ("player", 1.5), ("cell", [0]),
                       ("data", {"x": float("inf")}), ("private", "yes")]:
        d = json.loads(s.to_json())
        d["log"][0][field] = bad
        with pytest.raises(hk.SaveError, match=f"'{field}'"):
            hk.State.from_dict(d)
    assert hk.State.from_dict(good).to_json() == s.to_json()


@pytest.mark.parametrize("season, rnd", [(3, 3), (1, 2)])
def test_a_season_end_outside_a_last_round_before_the_last_season_is_refused(season, rnd):
    """Rulebook "Game Flow": a season ends after its last round; after the last season the
    game goes to final scoring, so a save waiting at a season end of season 3 (or in
    round 2) is refused naming the phase (found by test_hostile_inputs: it crashed on a
    bonus card for season 4)."""
    from haunted_kit.haunted.scenario import scenario, set_calendar
    s = scenario(players=2)
    set_calendar(s, season, rnd)
    d = s.to_dict()
    d["phase"] = "season_end"
    with pytest.raises(hk.SaveError, match=f"save field 'phase': a season ends after round 3 of a season before "
                                           f"the last \\(3\\), not at season {season} round {rnd}"):
        hk.State.from_dict(d)
