"""The estate engine plays 200 seeded bot games (and six searches) exactly as it did when
the golden file was made: the action record (tiles drawn, decisions and the order of
the legal actions the random bots pick from), the final holdings and, for the hint
rows, the search's top moves, against ``tests/fixtures/estate_golden.json`` (see
``tests/estate_golden.py``). If a rule change is intended, regenerate the file with
``PYTHONPATH=. python tests/estate_golden.py --write`` and commit the diff with it.
"""

import json

import pytest

from estate_golden import GOLDEN, VARIANTS, fingerprint, games, play

_GOLDEN = json.loads(GOLDEN.read_text())
_SPECS = games()


def test_the_golden_file_lists_the_same_games():
    assert [row["game"] for row in _GOLDEN] == json.loads(json.dumps(_SPECS))
    # random and greedy at every player count, every ruling variant
    seen = {(g["agent"], g["players"]) for g in _SPECS}
    assert seen >= {(a, n) for a in ("random", "greedy") for n in (2, 3, 4)}
    assert all(any(all(g.get(k) == v for k, v in var.items()) for g in _SPECS) for var in VARIANTS)


@pytest.mark.parametrize("k", range(0, len(_SPECS), 50), ids=lambda k: f"games{k}-{k + 49}")
def test_estate_golden_games_replay_identically(k):
    for row in _GOLDEN[k:k + 50]:
        got = json.loads(json.dumps(fingerprint(play(row["game"]), row["game"])))
        assert got == row["result"], f"estate golden game {row['game']} changed"


def test_the_event_log_does_not_change_estate_play():
    """With the event log on, a game takes the same course (the log is only words)."""
    for row in _GOLDEN[:200:25]:
        got = json.loads(json.dumps(fingerprint(play(row["game"], log=True), row["game"])))
        assert got == row["result"], f"estate golden game {row['game']} changed with log=True"
