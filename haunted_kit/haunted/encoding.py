"""Haunted Lands for learning agents: a fixed-length observation vector (used by
:mod:`haunted_kit.env` through the Game's ``observation_encoder``; the action encoding is
the Game's ``action_catalogue``).

The vector is built only from ``state.observation(me)`` (other players' face-down quests,
the seed and the generator's position are not in it). Players are listed starting with the
observer ("player+0" is me, "player+1" the next player); :attr:`HauntedObservation.names`
names each entry.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..protocol import vector_bounds
from .board import build_field
from .box import default_box

__all__ = ["HauntedObservation"]


class HauntedObservation:
    """Fixed-length vector from a Haunted Lands observation dict (the player's own view)."""

    def __init__(self, box, players: int):
        box = box or default_box()
        self.box, self.n = box, players
        self._field = functools.lru_cache(maxsize=64)(lambda layout: build_field(layout, box))
        f = self._field(tuple(list(box.tiles)[:len(box.region_centres)]))
        self.cells = [tuple(c) for c in f.cells]
        self.cell_index = {c: i for i, c in enumerate(self.cells)}
        self.terrains = list(box.terrains)
        self.buildings = list(box.buildings)
        self.skills = sorted(box.skills)
        self.quests = sorted(box.quests)
        self.phases = ["setup", "spread", "production", "turns", "rest", "reorder", "season_end", "over"]
        names = ["season", "round"] + [f"phase={p}" for p in self.phases] + [f"market={m}" for m in box.market_cards]
        names += [f"skill_in_play={k}" for k in self.skills] + ["supply_ghosts", "supply_depletion", "to_move=me"]
        names += [f"to_move=player+{k}" for k in range(1, self.n)]
        for c in range(len(self.cells)):
            names += [f"cell{c}.terrain={t}" for t in self.terrains] + [f"cell{c}.ghost", f"cell{c}.depleted"]
            names += [f"cell{c}.building={b}" for b in self.buildings] + [f"cell{c}.owner=player+{k}" for k in range(self.n)]
            names += [f"cell{c}.sensor=player+{k}" for k in range(self.n)]
        for k in range(self.n):
            who = f"player+{k}"
            names += [f"{who}.{r}" for r in box.resources] + [f"{who}.pecunias"]
            names += [f"{who}.tokens.{t}" for t in box.tracks] + [f"{who}.active.{t}" for t in box.tracks]
            names += [f"{who}.valor", f"{who}.arrival", f"{who}.quest_count", f"{who}.markers_used"]
            names += [f"{who}.skill={s}" for s in self.skills]
        names += [f"my_quest={q}" for q in self.quests] + [f"my_hand={q}" for q in self.quests]
        self.names = names

    def entry_high(self, name: str) -> float:
        """The highest value of entry ``name``: 1 for a flag (every ``key=value`` entry, a
        skill or quest held, a cell's ghost or depletion token); the box's seasons, rounds
        per season, ghost and depletion supplies and resource cap (per type, §Resources)
        for those counts; ``math.inf`` for the counts the rules do not cap (pecunias,
        valor, tokens...)."""
        box, key = self.box, name.split(".")[-1]
        if "=" in name or key in ("ghost", "depleted"):
            return 1.0
        caps = {"season": box.seasons, "round": box.rounds_per_season, "supply_ghosts": box.supply_ghosts,
                "supply_depletion": box.supply_depletion}
        if name in caps:
            return float(caps[name])
        if name.startswith("player+") and key in box.resources:
            return float(box.resource_cap)
        return math.inf

    def bounds(self):
        """(low, high) float32 arrays: every entry is >= 0 and <= :meth:`entry_high`."""
        return vector_bounds(self.names, self.entry_high)

    def __call__(self, obs: dict, me: int, to_move: int | None) -> np.ndarray:
        v = np.zeros(len(self.names), dtype=np.float32)
        n = self.n
        rel = lambda p: (p - me) % n  # noqa: E731
        i = 0

        def put(k, x=1.0):
            v[i + k] = x

        put(0, obs["season"]), put(1, obs["round"])
        i = 2
        if obs["phase"] in self.phases:
            put(self.phases.index(obs["phase"]))
        i += len(self.phases)
        markets = list(self.box.market_cards)
        if obs["market"] in markets:
            put(markets.index(obs["market"]))
        i += len(markets)
        for k in obs["skills"]:
            put(self.skills.index(k))
        i += len(self.skills)
        put(0, obs["supply"]["ghosts"]), put(1, obs["supply"]["depletion"])
        i += 2
        if to_move is not None:
            put(rel(to_move))
        i += n
        per_cell = len(self.terrains) + 2 + len(self.buildings) + 2 * n
        cells = obs.get("cells")
        if obs["layout"] and len(obs["layout"]) == len(self.box.region_centres) and cells is not None:
            field = self._field(tuple(obs["layout"]))
            for c, cell in enumerate(field.cells):
                v[i + self.cell_index[tuple(cell)] * per_cell + self.terrains.index(field.terrain[c])] = 1
            for c in cells["ghosts"]:
                v[i + self.cell_index[tuple(c)] * per_cell + len(self.terrains)] = 1
            for c in cells["depleted"]:
                v[i + self.cell_index[tuple(c)] * per_cell + len(self.terrains) + 1] = 1
            for b in cells["buildings"]:
                base = i + self.cell_index[tuple(b["cell"])] * per_cell + len(self.terrains) + 2
                v[base + self.buildings.index(b["building"])] = 1
                v[base + len(self.buildings) + rel(b["owner"])] = 1
            for p, pl in enumerate(obs["players"]):
                if pl["sensor"] is not None:
                    v[i + self.cell_index[tuple(pl["sensor"])] * per_cell + len(self.terrains) + 2 + len(self.buildings) + n + rel(p)] = 1
        i += per_cell * len(self.cells)
        per_player = len(self.box.resources) + 1 + 2 * len(self.box.tracks) + 4 + len(self.skills)
        for p, pl in enumerate(obs["players"]):
            j = i + rel(p) * per_player
            vals = [pl["resources"][r] for r in self.box.resources] + [pl["pecunias"]]
            vals += [pl["tokens"][t] for t in self.box.tracks] + [pl["active"][t] for t in self.box.tracks]
            vals += [pl["valor"], pl["arrival"], pl["quest_count"], pl["markers_used"]]
            v[j:j + len(vals)] = vals
            for s in pl["skills"]:
                v[j + len(vals) + self.skills.index(s)] = 1
        i += per_player * n
        mine = obs["players"][me]
        for q in mine["quests"] or []:
            v[i + self.quests.index(q)] = 1
        i += len(self.quests)
        for q in mine["quests_in_hand"] or []:
            v[i + self.quests.index(q)] = 1
        return v
