"""Golden games of the Landmarks & Architects modules: fingerprints of seeded bot games.

Speed work on the modules' engine (legal actions, payment plans, caches, the greedy bot's
scoring) must not change a single outcome. This module plays a fixed list of 200 seeded
games, 120 between random bots and 80 between greedy bots, over 2-5 players, 3, 5 and 8
rounds and each module switched off in turn, and reduces each game to a fingerprint: the
number of decisions, the returns, the final villages, tokens and gold, and SHA-256 digests
of the whole action record (the architect deal and every decision, in order) and of the
event log (every event's JSON form, texts included). Random bots pick by position in
``legal_actions()``, so the fingerprint also pins the order of the legal actions.

``tests/test_golden_landmarks.py`` replays the games and compares them with
``tests/fixtures/golden_landmarks.json``. When a change of the rules (or of the greedy
bot's heuristic) is intended, regenerate the file and review the diff in the commit::

    PYTHONPATH=. python tests/golden_landmarks.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_games import golden_main  # noqa: E402  (the golden files' one command line)
from haunted_kit.landmarks.actions import action_to_dict  # noqa: E402
from haunted_kit.landmarks.agents import AGENTS  # noqa: E402
from haunted_kit.landmarks.engine import new_game  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden_landmarks.json"

ROUNDS = (3, 5, 8)
#: module switches cycled through the seeds (every module on, then each one off)
MODULES = ({}, {"castle_grounds": False}, {"landmarks": False}, {"architects": False})


def games() -> list[dict]:
    """The golden games' parameters: ``{"agent", "players", "rounds", "modules", "seed"}``;
    120 random and 80 greedy games, players 2-5 in turn."""
    out = []
    for agent, count in (("random", 120), ("greedy", 80)):
        for k in range(count):
            out.append({"agent": agent, "players": 2 + k % 4, "rounds": ROUNDS[(k // 4) % 3],
                        "modules": MODULES[(k // 12) % len(MODULES)], "seed": 1000 * (agent == "greedy") + k})
    return out


def play(spec: dict):
    """Play one golden game to its end; returns the final state."""
    s = new_game(spec["players"], spec["seed"], rounds=spec["rounds"], modules=dict(spec["modules"]))
    bots = [AGENTS[spec["agent"]](spec["seed"] * 10 + p) for p in range(spec["players"])]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    return s


def _digest(items) -> str:
    h = hashlib.sha256()
    for x in items:
        h.update(json.dumps(x, sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


def fingerprint(s) -> dict:
    """A game's outcome in plain values, plus the SHA-256 of its action record and event log."""
    return {
        "decisions": sum(1 for e in s.history() if not e.chance),
        "returns": s.returns(),
        "villages": [list(v) for v in s.villages],
        "tokens": [dict(t) for t in s.tokens],
        "gold": list(s.gold),
        "record_sha256": _digest(["chance", list(e.action)] if e.chance else [e.player, action_to_dict(e.action)]
                                 for e in s.history()),
        "log_sha256": _digest(e.to_dict() for e in s.log),
    }


def compute() -> list[dict]:
    return [{"game": spec, "result": fingerprint(play(spec))} for spec in games()]


def main(argv=None) -> int:
    return golden_main(argv, __doc__, GOLDEN, compute)


if __name__ == "__main__":
    sys.exit(main())
