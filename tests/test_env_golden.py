"""The environments hand a learner exactly what commit 3e73b0c's did (issue 21: speed work
keeps every observation, mask, reward and info): seeded AEC and single-seat episodes of
every game, digested as ``tests/env_golden.py`` describes, equal the digests in
``tests/fixtures/env_golden.json``, which that commit's environments wrote. The three
single-seat digests with an illegal action's sentence in ``info`` were rewritten once, when
that sentence began to name cells as the boards do (``cell 0,-3``), and the estate's once more
when its refusals named slots as slots and a tile's price before its place: their steps and
every AEC digest stayed the same."""

import json

import pytest

from env_golden import GOLDEN, RUNS, aec_digest, single_seat_digest
from haunted_kit.games import REGISTRY

_GOLDEN = json.loads(GOLDEN.read_text())


def test_the_golden_file_covers_every_game_in_both_environments():
    """Every game of the kit (a game registered from outside it has no digests here)."""
    kit = [n for n, (module, _) in REGISTRY.items() if module.startswith("haunted_kit.")]
    assert {(row["game"]["game"], row["game"]["env"]) for row in _GOLDEN} == {
        (g, kind) for g in kit for kind in ("aec", "single_seat")}
    assert len(_GOLDEN) == sum(len(aec) + len(seat) for *_, aec, seat in RUNS)


@pytest.mark.parametrize("row", _GOLDEN, ids=lambda r: "{game}-{players}p-{env}-seed{seed}".format(**r["game"]))
def test_a_golden_episode_gives_the_same_observations_masks_rewards_and_infos(row):
    run = row["game"]
    digest = aec_digest if run["env"] == "aec" else single_seat_digest
    steps, sha = digest(run["game"], run["players"], run["options"], run["seed"])
    assert steps == row["steps"]
    assert sha == row["sha256"], f"{run}: something the environment hands the learner changed"
