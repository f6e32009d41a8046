"""How long "Suggest a move" takes in every game's play view: CPU seconds of
:func:`haunted_kit.search.hints` at the view's playouts and at hints' standard 1,000, on
positions along seeded greedy games (every fifth decision with a choice).

    PYTHONPATH=$PWD python benchmarks/bench_hints.py [SEEDS]

Prints one row per game and budget: positions, median and worst CPU seconds. On an idle
machine every hint answers within a second or two; a loaded machine multiplies the wall
time (the play view shows a progress bar meanwhile).
"""

from __future__ import annotations

import argparse
import statistics
import time

from haunted_kit import games
from haunted_kit.bots import seat_bots
from haunted_kit.protocol import sample_chance
from haunted_kit.search import hints
from benchargs import number_at_least

#: the playouts each game's play view asks for (its ``hint_playouts`` default)
VIEW_PLAYOUTS = {"haunted": 1000, "estate": 300, "landmarks": 100}


def positions(name: str, seed: int, every: int = 5) -> list:
    game = games.get_game(name)
    s = game.new_game(players=3, seed=seed)
    bots, _names = seat_bots(game, ["greedy"] * 3, 3, seed)
    out, k = [], 0
    while True:
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance(sample_chance(s, seed))
        if s.is_terminal():
            return out
        if len(s.legal_actions()) > 1 and k % every == 0:
            out.append(s.copy())
        s.apply_action(bots[s.current_player()].act(s.copy()))
        k += 1


def main(seeds: int = 2) -> None:
    print(f"{'game':10s} {'playouts':>8s} {'positions':>9s} {'median s':>9s} {'worst s':>8s}")
    for name in games.game_names():
        found = [p for seed in range(1, seeds + 1) for p in positions(name, seed)]
        for budget in sorted({VIEW_PLAYOUTS.get(name, 1000), 1000}):
            cpu = []
            for i, s in enumerate(found):
                t0 = time.process_time()
                hints(s, playouts=budget, seed=i)
                cpu.append(time.process_time() - t0)
            print(f"{name:10s} {budget:8d} {len(cpu):9d} {statistics.median(cpu):9.2f} {max(cpu):8.2f}", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds", nargs="?", type=number_at_least(1), default=2, help="seeded games per game (default 2)")
    main(ap.parse_args().seeds)
