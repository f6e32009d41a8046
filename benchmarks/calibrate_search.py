"""Calibrate the Haunted Lands evaluation the search agent uses (``HauntedLandsGame.evaluate``).
Prints figures and fitted constants; asserts nothing.

    python benchmarks/calibrate_search.py --games 400

Plays greedy games on CALIBRATION seeds (900,000 and up; the strength measurement of
``bench_scale.py strength`` uses seeds from 10,000, so the constants are never fitted on
the games that measure them) and samples positions during turns. For each position it
records the progress (rounds played, 0..9), every player's score now (valor plus the valor
their face-down quests would score now), the Kalena cells still free of ghosts, the free
cells elsewhere, and how the game ended. Then it fits, by maximum likelihood:

* the collective-loss chance: a logistic of (Kalena cells free, other free cells, rounds
  left), over all sampled positions;
* the winner: a softmax of score / T with T = a + b * rounds left, over positions of games
  that were not lost (a logistic of the valor margin at 2 players).

The fitted numbers are written into ``engine.py`` by hand (``_LOSS_*``, ``_WIN_*``).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import number_at_least  # noqa: E402
from haunted_kit.haunted import rules as R  # noqa: E402
from haunted_kit.haunted.agents import GreedyAgent  # noqa: E402
from haunted_kit.haunted import engine  # noqa: E402
from haunted_kit.haunted.engine import eval_features, new_game  # noqa: E402

FIRST_SEED = 900_000


def samples(players: int, games: int, every: int = 6):
    rows = []
    for g in range(games):
        seed = FIRST_SEED + players * 10_000 + g
        s = new_game(players=players, seed=seed, log=False)
        bots = [GreedyAgent(seed * 100 + i) for i in range(players)]
        taken = []
        while not s.is_terminal():
            if s.phase == "turns" and s.decisions % every == 0:
                taken.append(eval_features(s, R.ctx_of(s)))
            s.apply_action(bots[s.current_player()].act(s))
        for f in taken:
            rows.append((f, s.lost, s.winner))
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 30) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):  # Newton's method with a little ridge for stability
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (y - p) - 1e-3 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hess, grad)
    return w


def loglik_winner(rows, a: float, b: float) -> float:
    ll = 0.0
    for f, _, winner in rows:
        t = a + b * f["rounds_left"]
        sc = f["scores"]
        top = max(sc)
        z = sum(math.exp((v - top) / t) for v in sc)
        ll += (sc[winner] - top) / t - math.log(z)
    return ll


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=number_at_least(1), default=400, help="greedy games per player count (default 400)")
    a = ap.parse_args()
    for players in (2, 3, 4):
        rows = samples(players, a.games)
        x = np.array([[1.0, f["kalena_free"], f["free"], f["rounds_left"]] for f, _, _ in rows])
        y = np.array([1.0 if lost else 0.0 for _, lost, _ in rows])
        w = fit_logistic(x, y)
        p = 1 / (1 + np.exp(-x @ w))
        base = y.mean()
        ll = float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))
        ll0 = float(len(y) * (base * math.log(base) + (1 - base) * math.log(1 - base))) if 0 < base < 1 else 0.0
        print(f"{players} players: {a.games} greedy games, {len(rows)} positions; collective losses in "
              f"{base:.1%} of positions")
        print(f"  loss logit = {w[0]:+.3f} {w[1]:+.3f}*kalena_free {w[2]:+.3f}*free {w[3]:+.3f}*rounds_left "
              f"(log-likelihood {ll:.0f} vs {ll0:.0f} for a constant)")
        won = [r for r in rows if not r[1]]
        best = max(((loglik_winner(won, a_, b_), a_, b_) for a_ in (0.25, 0.5, 0.75, 1, 1.5, 2) for b_ in (0.5, 0.75, 1, 1.25, 1.5, 2)))
        now = loglik_winner(won, *engine._WIN_T[players])
        print(f"  winner: softmax of score / (a + b*rounds_left): best a={best[1]}, b={best[2]} "
              f"(log-likelihood {best[0]:.0f}; the kit's constants give {now:.0f}; uniform {len(won) * -math.log(players):.0f})")


if __name__ == "__main__":
    main()
