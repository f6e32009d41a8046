"""Landmarks saves of version 2 (issue 32): their game-over event said "(see score_table for
each point)", a function's name, not words for a player. Version 3 writes the ranking in
words (``rules.game_over_sentence``); a version 2 save, made by the kit before the change
(``tests/fixtures/landmarks_save_v2.json``: seed 11, three rounds, 3 players, P2 and P3
tied on 4 module points, P1 on 2), loads, shows the new sentence and saves as version 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import haunted_kit.landmarks as lm
from haunted_kit.games import get_game, load_state
from haunted_kit.landmarks.rules import game_over_sentence

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "landmarks_save_v2.json"
OLD_SENTENCE = "The modules' points: P1 2, P2 4, P3 4 (see score_table for each point)."
RULING = "(who wins: kit ruling L14)."


#: how versions 1 to 3 cited a kit ruling in an event: a document to see, which no player can open
V3 = "kit default, see RULINGS: Landmarks & Architects"


def cited(e: dict) -> str:
    """An event's text as version 4 writes it: a ruling cited by its code (L9: gold comes back at the lead)."""
    return e["text"].replace(f"({V3})", "(kit ruling L9)") if e["kind"] == "gold_returned" else e["text"]


@pytest.mark.parametrize("points, ranking", [
    # the sole most points wins (RULINGS L14); the others follow, most first
    ([6, 1, 7], "P3 wins with 7 points; then P1 with 6 points; then P2 with 1 point"),
    # a tie at the top: nobody wins alone; equal points share a place
    ([2, 4, 4], "P2 and P3 tie for the most points with 4 points each, so nobody wins alone; then P1 with 2 points"),
    ([1, 1, 0, 0], "P1 and P2 tie for the most points with 1 point each, so nobody wins alone; "
                   "then P3 and P4 with 0 points each"),
    ([3, 3, 3], "P1, P2 and P3 tie for the most points with 3 points each, so nobody wins alone"),
    ([0, 2], "P2 wins with 2 points; then P1 with 0 points"),
])
def test_the_game_over_sentence_ranks_the_players_in_words(points, ranking):
    assert game_over_sentence(points) == f"The game is over and the modules are scored: {ranking} {RULING}"


def test_a_game_ends_with_the_sentence_of_its_points():
    s = lm.LandmarksState.load(FIXTURE)
    last = s.log[-1]
    assert last.kind == "game_over" and last.data["points"] == lm.totals(s) == [2, 4, 4]
    assert last.text == ("The game is over and the modules are scored: P2 and P3 tie for the most points with 4 "
                         f"points each, so nobody wins alone; then P1 with 2 points {RULING}")


def test_a_version_2_save_loads_with_the_new_sentence_and_saves_as_version_4(tmp_path):
    old = json.loads(FIXTURE.read_text())
    assert old["version"] == 2 and old["log"][-1]["text"] == OLD_SENTENCE
    for s in (lm.LandmarksState.from_dict(old), load_state(get_game("landmarks"), old)):  # both doors: the game's, the kit's
        assert s.is_terminal() and s.fields() == old["state"]
        # every event as saved, but the game-over sentence, which reads the ranking in words
        assert [e.text for e in s.log[:-1]] == [cited(e) for e in old["log"][:-1]]
        assert [e.to_dict()["data"] for e in s.log] == [e["data"] for e in old["log"]]
        assert s.log[-1].text == game_over_sentence([2, 4, 4])
    assert json.loads(FIXTURE.read_text()) == old  # the migration changed nothing of what it read
    s.save(tmp_path / "v4.json")
    new = json.loads((tmp_path / "v4.json").read_text())
    assert new["version"] == 4 and new["log"][-1]["text"] == game_over_sentence([2, 4, 4])
    assert lm.LandmarksState.load(tmp_path / "v4.json").to_dict() == s.to_dict()


def test_a_saved_game_over_sentence_the_kit_never_wrote_is_refused():
    old = json.loads(FIXTURE.read_text())
    tampered = json.loads(FIXTURE.read_text())
    tampered["log"][-1]["text"] = "The modules' points: P1 9, P2 4, P3 4 (see score_table for each point)."
    with pytest.raises(lm.SaveError, match=rf"^log\[{len(old['log']) - 1}\]: the saved event log differs"):
        lm.LandmarksState.from_dict(tampered)
    # version 3 wrote the new sentence from the start: the old one in a version 3 save is no migration
    v3 = dict(old, version=3)
    with pytest.raises(lm.SaveError, match=rf"^log\[{len(old['log']) - 1}\]: the saved event log differs"):
        lm.LandmarksState.from_dict(v3)
    with pytest.raises(lm.SaveError, match=r"^version: this kit reads version 4 \(and migrates versions 1 to 3\), "
                                           r"got 5$"):
        lm.LandmarksState.from_dict(dict(old, version=5))


def v3_save(tmp_path) -> dict:
    """A finished game saved by this kit, written back as version 3 wrote it: version 3 and
    each ruling cited as a document (the gold returned at a lead, who wins)."""
    s = lm.LandmarksState.load(FIXTURE.with_name("landmarks_save_v1.json"))  # a game with a gold returned
    s.save(tmp_path / "now.json")
    data = json.loads((tmp_path / "now.json").read_text())
    old = dict(data, version=3, log=[dict(e, text=e["text"].replace("(kit ruling L9)", f"({V3})")
                                          .replace("(who wins: kit ruling L14)", f"(who wins: {V3})"))
                                     for e in data["log"]])
    return data, old


def test_a_version_3_save_cites_the_rulings_by_code_once_loaded(tmp_path):
    now, old = v3_save(tmp_path)
    kinds = {e["kind"] for e in old["log"] if V3 in e["text"]}
    assert kinds == {"gold_returned", "game_over"}          # the fixture's game has both sentences
    s = lm.LandmarksState.from_dict(old)
    assert [e.text for e in s.log] == [e["text"] for e in now["log"]]
    assert not any("RULINGS" in e.text for e in s.log)
    assert s.to_dict()["version"] == 4 and s.to_dict()["log"] == now["log"]
    # the new words in a version 3 save, or a citation version 3 never wrote, are refused by the log check
    assert lm.LandmarksState.from_dict(dict(now, version=3)).to_dict() == s.to_dict()
    tampered = json.loads(json.dumps(old))
    i = next(i for i, e in enumerate(tampered["log"]) if e["kind"] == "gold_returned")
    tampered["log"][i]["text"] = tampered["log"][i]["text"].replace(V3, "kit default, see the back of the box")
    with pytest.raises(lm.SaveError, match=rf"^log\[{i}\]: the saved event log differs"):
        lm.LandmarksState.from_dict(tampered)


def test_refusals_cite_a_ruling_by_its_code_never_a_document():
    import haunted_kit.landmarks.rules as R
    for name in ("SEC_SOURCES", "SEC_LEAD_BUILD", "SEC_TWO_STEP", "SEC_WINNER"):
        assert getattr(R, name).startswith("kit ruling L")
    assert not hasattr(R, "SEC_KIT")
