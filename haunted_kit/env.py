"""A standard environment for learning agents: PettingZoo AEC and a Gymnasium wrapper.

:class:`KitAECEnv` plays any game of the kit (``game="haunted"`` by default) as a
PettingZoo AEC environment: agents ``"player_0"``... (player indexes), the one to move is
``agent_selection``; chance outcomes are resolved inside ``step`` with the game's seeded
generator (or the environment's one for games that expose chance nodes).

**Action encoding** (fixed for a box): action ``i`` is ``catalogue[i]``, the list from the
Game's ``action_catalogue(box)``. For Haunted Lands, in this order: end the turn, contact,
roll the bonus die; explore to each of the 49 cells (field order: Kalena's centre, its
ring, then each region slot's centre, E, NE, NW, W, SW, SE); extract each resource on
each cell (cell-major); build each building; train each track; restore each track;
learn each skill (by number); choose each resource; choose each bonus-die face; choose
each quest (by number); place a ghost on each cell; then every sale (market card by
card, option, payment). :func:`action_table` lists it as a DataFrame.
``observe(agent)["action_mask"]`` marks the legal ones (all zero when that agent is not
to move). An illegal action raises ``ValueError`` with the rule's reason and changes nothing.

**Observations** are built only from ``state.observation(player)`` (other players'
face-down quests, the seed and the generator's position are not in it), as a float32
vector (see :func:`observation_fields` for what each entry is). Players are listed
starting with the observer, so the vector always describes "me first".

**Rewards** are the game's ``returns()`` when it ends (Haunted Lands: 1 win, 0 loss,
-1 for everyone after a collective loss), 0 before.

:class:`SingleSeatEnv` is a Gymnasium environment: one seat plays, the other seats are
bots from specs (``"greedy"``, ``"search[playouts=50]"``...).
"""

from __future__ import annotations

import json
import functools
import random

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .bots import make_bot
from .games import get_game
from .search import sample_chance
from .board import build_field
from .components import default_box

__all__ = ["KitAECEnv", "SingleSeatEnv", "action_table", "env", "observation_fields"]


# ============================================================================ encodings


def _catalogue(game, box):
    hook = getattr(game, "action_catalogue", None)
    if hook is None:
        raise TypeError(f"{game.name!r} has no action_catalogue(box): no fixed action encoding")
    return list(hook(box))


def action_table(game: str = "haunted", box=None):
    """The integer encoding as a DataFrame: ``index``, ``action`` (its JSON form) and
    ``describe`` (a sentence)."""

    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    g = get_game(game)
    cat = _catalogue(g, box)
    return pd.DataFrame({"index": range(len(cat)), "action": [json.dumps(g.action_to_dict(a)) for a in cat],
                         "describe": [a.describe() for a in cat]})


class _HauntedObservation:
    """Fixed-length vector from a Haunted Lands observation dict (the player's own view)."""

    def __init__(self, box, players: int):
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


def _encoder(game, box, players):
    hook = getattr(game, "observation_encoder", None)
    if hook is not None:
        return hook(box, players)
    if game.name == "haunted":
        return _HauntedObservation(box, players)
    raise TypeError(f"{game.name!r} has no observation_encoder(box, players): no fixed observation vector")


def observation_fields(game: str = "haunted", players: int = 4, box=None) -> list[str]:
    """The meaning of each entry of the observation vector ("player+1" is the next
    player after the observer)."""
    g = get_game(game)
    if box is None and game == "haunted":
        box = default_box()
    return list(_encoder(g, box, players).names)


# ============================================================================ PettingZoo AEC


class KitAECEnv(AECEnv):
    """PettingZoo AEC environment over any game of the kit (see the module docstring).

    Args:
        game: a registered game's short name.
        players: number of players.
        box: a house-rule box (Haunted Lands), default the reference box.
        render_mode: ``"ansi"`` (a text summary) or ``None``.
        options: more game options (``mode="citizen"``, ``extra_ghost_cards=(2,)``...).

    Raises:
        ValueError: bad players or options (checked at the first ``reset``).
    """

    metadata = {"name": "haunted_kit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "haunted", players: int = 4, box=None, render_mode: str | None = None, **options):
        super().__init__()
        self.game = get_game(game)
        if box is None and game == "haunted":
            box = default_box()
        self.box, self.n, self.options = box, players, dict(options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.catalogue = _catalogue(self.game, box)
        self.index = {a: i for i, a in enumerate(self.catalogue)}
        self.encode = _encoder(self.game, box, players)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(len(self.encode.names),), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(len(self.catalogue),), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(len(self.catalogue))
        self.state_ = None
        self._seed = 0

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ------------------------------------------------------------------ helpers
    def _sync(self) -> None:
        """Resolve chance nodes; point agent_selection at the player to move; rewards at the end."""
        s = self.state_
        while s.is_chance_node():
            sample_chance(s, self._rng)
        if s.is_terminal():
            ret = s.returns()
            for p, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(ret[p])
                    self.terminations[a] = True
            return
        self.agent_selection = self.possible_agents[s.current_player()]

    def legal_mask(self, player: int) -> np.ndarray:
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        s = self.state_
        if not s.is_terminal() and s.current_player() == player:
            for a in s.legal_actions():
                mask[self.index[a]] = 1
        return mask

    # ------------------------------------------------------------------ the AEC API
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed = int(seed)
        self._rng = random.Random(self._seed)
        self.state_ = self.game.new_game(players=self.n, seed=self._seed, log=False,
                                         **({"box": self.box} if self.box is not None else {}), **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._sync()

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        s = self.state_
        obs = s.observation(p)
        return {"observation": self.encode(obs, p, None if s.is_terminal() else s.current_player()),
                "action_mask": self.legal_mask(p)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            chosen = self.catalogue[int(action)]
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"action must be an integer 0..{len(self.catalogue) - 1}, got {action!r}") from None
        why = self.state_.why_not(chosen)
        if why is not None:
            raise ValueError(f"action {int(action)} ({chosen.describe()}) is illegal now: {why}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.state_.apply_action(chosen)
        self._sync()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode != "ansi":
            return None
        s = self.state_
        lines = [f"{self.game.title}: {self.n} players, decision {s.decisions}"]
        lines += [f"  P{p + 1}: returns {r}" for p, r in enumerate(s.returns())] if s.is_terminal() else []
        if not s.is_terminal():
            lines.append(f"  P{s.current_player() + 1} to move, {len(s.legal_actions())} legal actions")
        return "\n".join(lines)

    def close(self):
        pass


def env(**kwargs) -> KitAECEnv:
    """A :class:`KitAECEnv` (PettingZoo's ``env()`` convention)."""
    return KitAECEnv(**kwargs)


# ============================================================================ Gymnasium, one seat


class SingleSeatEnv(gymnasium.Env):
    """Gymnasium environment: the learner plays ``seat`` (a player index); the other
    players are bots from ``opponents`` (specs, repeating; e.g. ``["greedy"]``).

    Observations are the AEC environment's dicts (``observation`` vector and
    ``action_mask``); ``info["action_mask"]`` repeats the mask. The reward is the seat's
    return when the game ends, 0 before. ``reset(seed=k)`` plays game seed ``k``; the
    bots are seeded ``k * 100 + player``.

    Raises:
        ValueError: a seat outside the players, a bad bot spec.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "haunted", players: int = 4, seat: int = 0, opponents=("greedy",), box=None,
                 render_mode: str | None = None, **options):
        if not 0 <= seat < players:
            raise ValueError(f"seat must be a player index 0..{players - 1}, got {seat!r}")
        self.aec = KitAECEnv(game, players, box=box, render_mode=render_mode, **options)
        self.seat, self.opponents = seat, list(opponents)
        for spec in self.opponents:
            make_bot(spec, 0, game=self.aec.game)  # a bad spec fails here
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.aec.possible_agents[seat])
        self.action_space = self.aec.action_space(self.aec.possible_agents[seat])

    def _play_bots(self) -> None:
        e = self.aec
        s = e.state_
        while not s.is_terminal() and s.current_player() != self.seat:
            p = s.current_player()
            s.apply_action(self.bots[p].act(s))
            e._sync()

    def _out(self):
        o = self.aec.observe(self.aec.possible_agents[self.seat])
        return o, {"action_mask": o["action_mask"]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        k = self.aec._seed
        self.bots = {p: make_bot(self.opponents[i % len(self.opponents)], k * 100 + p, game=self.aec.game)
                     for i, p in enumerate(p for p in range(self.aec.n) if p != self.seat)}
        self._play_bots()
        return self._out()

    def step(self, action):
        e = self.aec
        if e.state_.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        e.step(action)
        self._play_bots()
        s = e.state_
        done = s.is_terminal()
        reward = float(s.returns()[self.seat]) if done else 0.0
        obs, info = self._out()
        return obs, reward, done, False, info

    def render(self):
        return self.aec.render()
