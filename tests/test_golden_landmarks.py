"""The Landmarks & Architects engine plays 200 seeded bot games exactly as it did when the
golden file was made.

Pins every outcome against speed work on the modules (legal actions and their order,
payment plans, the greedy bot's scoring): the action record, the event log, the returns and
the final villages, tokens and gold of each game in ``tests/fixtures/golden_landmarks.json``
(see ``tests/golden_landmarks.py`` for the games). If a rule change is intended, regenerate
the file with ``PYTHONPATH=. python tests/golden_landmarks.py --write`` and commit the diff
with the change that explains it.
"""

import json

import pytest

from golden_landmarks import GOLDEN, fingerprint, games, play

_GOLDEN = json.loads(GOLDEN.read_text())
_SPECS = games()


def test_the_golden_file_lists_the_same_games():
    assert [row["game"] for row in _GOLDEN] == json.loads(json.dumps(_SPECS))
    seen = {(g["agent"], g["players"]) for g in _SPECS}
    assert len(seen) == 2 * 4  # random and greedy over 2-5 players
    # the games are not all alike: landmarks were acquired and buildings built
    assert len({row["result"]["record_sha256"] for row in _GOLDEN}) == len(_GOLDEN)
    assert sum(any(v for t in row["result"]["tokens"] for v in t.values()) for row in _GOLDEN) > 50


@pytest.mark.parametrize("k", range(0, len(_SPECS), 50), ids=lambda k: f"games{k}-{k + 49}")
def test_golden_landmarks_games_replay_identically(k):
    for row in _GOLDEN[k:k + 50]:
        got = json.loads(json.dumps(fingerprint(play(row["game"]))))
        assert got == row["result"], f"golden game {row['game']} changed"
