"""Why do more ghost cards make Kalena fall less often in the strategy lab? Prints the figures.

Four greedy bots, Wanderer mode (ghost card 1), with and without ghost card 3, on GAMES
seeds; then the same with unlimited supplies (ruling 1 switched off). For each: the
share of games lost, contacts per game, the share of games whose ghost supply ran
out (an event ``ghosts_short``), and the loss rate when it did and when it did not.

    .venv/bin/python benchmarks/bench_kalena_falls.py [GAMES]     (default 1000)
"""

from __future__ import annotations

import argparse

import pandas as pd

from haunted_kit.haunted.sim import play_game
from haunted_kit.haunted.state import GameConfig
from benchargs import number_at_least


def figures(games: int, extra=(), limited=True) -> dict:
    rows = []
    for seed in range(games):
        cfg = GameConfig(players=4, mode="wanderer", extra_ghost_cards=extra, seed=seed, limited_supplies=limited)
        st = play_game(cfg, ["greedy"], log=True).state
        rows.append({"lost": st.lost, "contacts": sum(e.kind == "contacted" for e in st.log),
                     "short": any(e.kind == "ghosts_short" for e in st.log)})
    df = pd.DataFrame(rows)
    return {"ghost cards": "1" + "".join(f"+{g}" for g in extra), "supplies": "limited" if limited else "unlimited",
            "Kalena fell": df.lost.mean(), "+-95%": 1.96 * (df.lost.mean() * (1 - df.lost.mean()) / games) ** 0.5,
            "contacts/game": df.contacts.mean(), "ghost supply ran out": df.short.mean(),
            "fell | ran out": df[df.short].lost.mean(), "fell | never ran out": df[~df.short].lost.mean()}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=number_at_least(1), default=1000, help="seeded games per row (default 1000)")
    n = ap.parse_args().games
    table = pd.DataFrame([figures(n, extra, limited) for limited in (True, False) for extra in ((), (3,), (2, 3))])
    print(f"{n} seeded games per row, four greedy bots, Wanderer mode")
    print(table.round(3).to_string(index=False))
