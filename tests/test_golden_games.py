"""The engine plays 400 seeded bot games exactly as it did when the golden file was made.

Pins every rule outcome against speed work on the engine: the action record (chance
outcomes, decisions and the order of the legal actions the random bots pick from), the
returns and the final holdings of each game in ``tests/fixtures/golden_games.json``
(see ``tests/golden_games.py`` for the games). If a rule change is intended, regenerate
the file with ``PYTHONPATH=. python tests/golden_games.py --write`` and commit the diff
with the change that explains it.
"""

import json

import pytest

from golden_games import GOLDEN, fingerprint, games, play

_GOLDEN = json.loads(GOLDEN.read_text())
_SPECS = games()


def test_the_golden_file_lists_the_same_games():
    assert [row["game"] for row in _GOLDEN] == json.loads(json.dumps(_SPECS))
    # every mode and player count, random and greedy
    seen = {(g["agent"], g["mode"], g["players"]) for g in _SPECS}
    assert len(seen) == 2 * 3 * 3


@pytest.mark.parametrize("k", range(0, len(_SPECS), 50), ids=lambda k: f"games{k}-{k + 49}")
def test_golden_games_replay_identically(k):
    for row in _GOLDEN[k:k + 50]:
        got = json.loads(json.dumps(fingerprint(play(row["game"]))))
        assert got == row["result"], f"golden game {row['game']} changed"


def test_the_event_log_does_not_change_play():
    """With the event log on, a game takes the same course (the log is only words)."""
    for row in _GOLDEN[::40]:
        got = json.loads(json.dumps(fingerprint(play(row["game"], log=True))))
        assert got == row["result"], f"golden game {row['game']} changed with log=True"
