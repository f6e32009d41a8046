"""Estate golden games: fingerprints of seeded bot games that pin the estate engine.

Speed work on the estate (legal actions, copies, the greedy bot, ``evaluate``) must not
change a single outcome. This module plays 200 seeded games, 100 between random bots
and 100 between greedy bots, 2-4 players, cycling through the ruling switches
(``connection``, ``marble_field``, ``improvement``, ``third_marked``), and reduces each
to a fingerprint: decisions, gold values, final holdings, income and workers, and a
SHA-256 of the whole action record (every tile drawn and every decision, in order).
Random bots pick by position in ``legal_actions()``, so the order of the legal actions
is pinned too. Six rows more pin the search: ``hints(playouts=200)`` from positions a
few greedy decisions into a game (moves, visits and values), i.e. the rollouts, the
greedy prior and ``evaluate``.

``tests/test_estate_golden.py`` replays them against ``tests/fixtures/estate_golden.json``.
When a rule change is intended, regenerate the file and review the diff::

    PYTHONPATH=. python tests/estate_golden.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_games import golden_main, record_sha256  # noqa: E402  (the golden files' one command line)

from haunted_kit.estate.actions import action_to_dict  # noqa: E402
from haunted_kit.estate.agents import EstateGreedyAgent, RandomAgent  # noqa: E402
from haunted_kit.estate.engine import new_game  # noqa: E402
from haunted_kit.search import hints  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "estate_golden.json"

#: ruling switches cycled through the seeds (the kit defaults first)
VARIANTS = (
    {},
    {"connection": "line"},
    {"marble_field": "single"},
    {"improvement": "adjacent"},
    {"third_marked": "sell_marble"},
    {"connection": "line", "improvement": "adjacent", "marble_field": "single"},
)


def games() -> list[dict]:
    """The golden games' parameters: ``{"agent", "players", "seed", ...switches}``."""
    out = []
    for agent, count in (("random", 100), ("greedy", 100)):
        for k in range(count):
            cfg = {"agent": agent, "players": 2 + k % 3, "seed": 1000 * (agent == "greedy") + k}
            cfg.update(VARIANTS[(k // 3) % len(VARIANTS)])
            out.append(cfg)
    for k in range(6):
        out.append({"agent": "hint", "players": 2 + k % 3, "seed": 50 + k, "greedy_steps": 4 + 5 * k,
                    **VARIANTS[k % len(VARIANTS)]})
    return out


def play(spec: dict, log: bool = False):
    """Play one golden game to its end (a hint row: to its position); returns the state."""
    cfg = {k: v for k, v in spec.items() if k not in ("agent", "greedy_steps")}
    s = new_game(log=log, **cfg)
    if spec["agent"] == "hint":
        bots = [EstateGreedyAgent(spec["seed"] * 10 + p) for p in range(spec["players"])]
        for _ in range(spec["greedy_steps"]):
            s.apply_action(bots[s.current_player()].act(s))
        return s
    cls = RandomAgent if spec["agent"] == "random" else EstateGreedyAgent
    bots = [cls(spec["seed"] * 10 + p) for p in range(spec["players"])]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    return s


def fingerprint(s, spec: dict | None = None) -> dict:
    """A game's outcome in plain values and the SHA-256 of its action record; for a hint
    row, the search's top 3 moves (action, visits, value to 12 digits) as well."""
    n = s.players
    out = {
        "decisions": s.decisions,
        "gold_values": [s.gold_value(p) for p in range(n)],
        "hand": [dict(s.hand[p]) for p in range(n)],
        "income": [dict(s.income[p]) for p in range(n)],
        "workers": [dict(s.workers[p]) for p in range(n)],
        "lands": sorted([list(k), v["tile"], v["markers"], v["raised"]] for k, v in s.lands.items()),
        "record_sha256": record_sha256(s, action_to_dict),
    }
    if spec is not None and spec["agent"] == "hint":
        out["hints"] = [[action_to_dict(h.action), h.visits, round(h.value, 12)]
                        for h in hints(s, playouts=200, seed=spec["seed"])]
    return out


def compute() -> list[dict]:
    return [{"game": spec, "result": fingerprint(play(spec), spec)} for spec in games()]


if __name__ == "__main__":
    sys.exit(golden_main(None, __doc__, GOLDEN, compute))
