"""Golden games: fingerprints of seeded bot games that pin the engine's behaviour.

Speed work on the engine (legal-action generation, caches, copies) must not change a
single rule outcome. This module plays a fixed list of seeded games, 300 between
random bots and 100 between greedy bots, over every mode, player count 2-4, the extra
ghost cards, unlimited supplies and the terrain die with lakes, and reduces each game to
a fingerprint: the number of decisions, the returns, the final valor, pecunias,
resources, tokens, skills and supplies, and a SHA-256 of the whole action record
(every chance outcome and decision, in order). Random bots pick by position in
``legal_actions()``, so the fingerprint also pins the order of the legal actions.

``tests/test_golden_games.py`` replays the games and compares them with
``tests/fixtures/golden_games.json``. When a change of the rules (or of the greedy bot's
heuristic) is intended, regenerate the file and review the diff in the commit::

    PYTHONPATH=. python tests/golden_games.py --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from haunted_kit.haunted.actions import action_to_dict  # noqa: E402
from haunted_kit.haunted.agents import GreedyAgent, RandomAgent  # noqa: E402
from haunted_kit.haunted.box import default_box  # noqa: E402
from haunted_kit.haunted.engine import new_game  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden_games.json"

MODES = ("wanderer", "builder", "citizen")
#: config variations beyond mode and players, cycled through the seeds
VARIANTS = (
    {},
    {"extra_ghost_cards": (2, 3)},
    {"limited_supplies": False},
    {"terrain_die": "with_lakes"},
    {"extra_ghost_cards": (1,), "terrain_die": "with_lakes"},
)


def _extra_cards(mode: str, variant: dict) -> dict:
    """``variant`` without the extra ghost cards that are already ``mode``'s own card."""
    own = default_box().modes[mode].ghost_card
    v = dict(variant)
    if "extra_ghost_cards" in v:
        v["extra_ghost_cards"] = tuple(g for g in v["extra_ghost_cards"] if g != own)
    return v


def games() -> list[dict]:
    """The golden games' parameters: ``{"agent", "players", "mode", "seed", ...config}``;
    300 random and 100 greedy games, every (mode, players) pair equally often."""
    out = []
    for agent, count in (("random", 300), ("greedy", 100)):
        for k in range(count):
            mode, players = MODES[k % 3], 2 + (k // 3) % 3
            cfg = {"agent": agent, "players": players, "mode": mode, "seed": 1000 * (agent == "greedy") + k}
            cfg.update(_extra_cards(mode, VARIANTS[(k // 9) % len(VARIANTS)]))
            out.append(cfg)
    return out


def play(spec: dict, log: bool = False):
    """Play one golden game to its end; returns the final state."""
    cfg = {k: v for k, v in spec.items() if k != "agent"}
    s = new_game(log=log, **cfg)
    cls = RandomAgent if spec["agent"] == "random" else GreedyAgent
    bots = [cls(spec["seed"] * 10 + p) for p in range(spec["players"])]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].act(s))
    return s


def record_sha256(s, to_dict) -> str:
    """SHA-256 (hex) of ``s``'s whole action record: every chance outcome and decision
    in order, each decision as ``[player, to_dict(action)]`` (any game of the kit)."""
    h = hashlib.sha256()
    for e in s.history():
        step = ["chance", e.action] if e.chance else [e.player, to_dict(e.action)]
        h.update(json.dumps(step, sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


def fingerprint(s) -> dict:
    """A game's outcome in plain values, plus the SHA-256 of its action record."""
    n = s.players
    return {
        "decisions": s.decisions,
        "returns": s.returns(),
        "valor": [s.valor[p] for p in range(n)],
        "pecunias": [s.pecunias(p) for p in range(n)],
        "resources": [s.resources(p) for p in range(n)],
        "tokens": [{t: list(v) for t, v in s.token_counts(p).items()} for p in range(n)],
        "skills": [s.skills_known(p) for p in range(n)],
        "quests": [list(s.quests_chosen(p)) for p in range(n)],
        "supply": s.supply(),
        "over_reason": s.over_reason,
        "record_sha256": record_sha256(s, action_to_dict),
    }


def compute() -> list[dict]:
    return [{"game": spec, "result": fingerprint(play(spec))} for spec in games()]


def _jsonable(x):
    return json.loads(json.dumps(x))


def main(argv=None) -> int:
    return golden_main(argv, __doc__, GOLDEN, compute)


def golden_main(argv, doc: str, golden: Path, compute) -> int:
    """The command line of a golden-games module: ``--write`` writes ``compute()``'s rows
    to ``golden``; without it, compares them with the file and lists the games that differ
    (exit status 1 if any)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help=f"write {golden.relative_to(golden.parent.parent.parent)}")
    args = ap.parse_args(argv)
    rows = _jsonable(compute())
    if args.write:
        text = "[\n" + ",\n".join(json.dumps(r, sort_keys=True) for r in rows) + "\n]\n"
        tmp = golden.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(golden)
        print(f"wrote {len(rows)} golden games to {golden}")
        return 0
    old = json.loads(golden.read_text())
    bad = [r["game"] for r, o in zip(rows, old) if r != o]
    print(f"{len(rows) - len(bad)} of {len(rows)} golden games unchanged")
    for g in bad[:10]:
        print(f"  differs: {g}")
    return 1 if bad or len(rows) != len(old) else 0


if __name__ == "__main__":
    sys.exit(main())
