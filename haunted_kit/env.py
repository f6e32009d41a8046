"""A standard environment for learning agents: PettingZoo AEC and a Gymnasium wrapper.

:class:`KitAECEnv` plays any game of the kit whose Game has the two optional members of
:class:`haunted_kit.protocol.Game` below (Haunted Lands, ``"estate"`` and ``"landmarks"``
all do) as a PettingZoo AEC environment: agents ``"player_0"``... (player indexes), the
one to move is ``agent_selection``; chance outcomes are resolved inside ``step`` with the
game's generator, seeded by the game's seed.

**Seeds**, as Gymnasium describes them: ``reset(seed=k)`` plays game seed ``k`` and seeds
the environment's own generator ``np_random`` with ``k``; ``reset()`` without a seed draws
the next game's seed (0 .. 2**63 - 1) from ``np_random``, so successive episodes, and the
copies of a vector environment, play different games; before any seeded reset,
``np_random`` is seeded from the operating system's entropy. So ``reset(seed=k)`` then
``reset()``, ``reset()``... is one reproducible series of games. ``game_seed`` is the
seed of the game being played.

**Action encoding**: the Game's ``action_catalogue(box)``, a fixed list for a box
(:class:`haunted_kit.protocol.ActionCatalogue`; a plain list of actions is wrapped).
Haunted Lands: end the turn, contact, roll the bonus die; explore to each of the 49 cells
(field order: Kalena's centre, its ring, then each region slot's centre, E, NE, NW, W, SW,
SE); extract each resource on each cell (cell-major); build each building; train each
track; restore each track; learn each skill (by number); choose each resource; choose each
bonus-die face; choose each quest (by number); place a ghost on each cell; then every sale
(market card by card, option, payment). The estate and Landmarks orders are documented in
:mod:`haunted_kit.estate.encoding` and :mod:`haunted_kit.landmarks.encoding` (a Landmarks
Build is numbered by its rank among the legal ways to pay for that card).
:func:`action_table` lists any game's encoding as a DataFrame.
``observe(agent)["action_mask"]`` marks exactly the legal actions (one number each; all
zero when that agent is not to move). In the AEC environment an illegal action raises
``ValueError`` with the rule's reason and changes nothing; for :class:`SingleSeatEnv`,
whose users may sample the whole action space, see its ``illegal_reward``.

**Observations**: the Game's ``observation_encoder(box, players)`` turns
``state.observation(player)`` (the player's own view: no other player's hidden cards,
seed or generator position) into a float32 vector (:func:`observation_fields` names each
entry); an encoder with a ``from_state(state, player, to_move)`` method is asked for that
instead (the same vector, read from the state's fields without building the observation's
dict). Players are listed starting
with the observer, so the vector always describes
"me first". Every entry is a count or a flag: the observation ``Box`` runs from 0 to the
encoder's ``bounds()`` (1 for a flag, the box's cap for a capped count such as Haunted
Lands' season or resources, ``inf`` where the rules set no cap).

**Rewards** are the game's ``returns()`` when it ends (Haunted Lands: 1 win, 0 loss, -1
for everyone after a collective loss; the estate: gold values; Landmarks: module points),
0 before.

:class:`SingleSeatEnv` is a Gymnasium environment: one seat plays, the other seats are
bots from specs (``"greedy"``, ``"search[playouts=50]"``...).
"""

from __future__ import annotations

import json

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .bots import make_bot, parse_lineup, seat_bot
from .games import DEFAULT_GAME, cap_reached, decision_cap, default_players, get_game, hook, start_game
from .protocol import SEED_MAX, ActionCatalogue, RankedEntry, check_seed, describe_action, is_integer, sample_chance

_INT8 = np.dtype(np.int8)

__all__ = ["KitAECEnv", "SingleSeatEnv", "action_table", "env", "observation_fields"]


# ============================================================================ encodings


def _catalogue(game, box) -> ActionCatalogue:
    """The game's ``action_catalogue(box)``; MissingHook naming it when the game has none."""
    cat = hook(game, "action_catalogue", "the environment (a fixed action encoding)")(box)
    return cat if isinstance(cat, ActionCatalogue) else ActionCatalogue(cat)


def _encoder(game, box, players):
    """The game's ``observation_encoder(box, players)``; MissingHook naming it when it has none."""
    return hook(game, "observation_encoder", "the environment (a fixed observation vector)")(box, players)


def action_table(game: str = DEFAULT_GAME, box=None):
    """A game's integer encoding as a DataFrame: ``index``, ``action`` (its JSON form) and
    ``describe`` (a sentence).

    Raises:
        UnknownGame: no such game. MissingHook (a ValueError): the game has no
        ``action_catalogue`` hook (the message names it).
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    g = get_game(game)
    cat = _catalogue(g, box)
    forms = [e.to_dict() if isinstance(e, RankedEntry) else g.action_to_dict(e) for e in cat.entries]
    return pd.DataFrame({"index": range(len(cat)), "action": [json.dumps(f) for f in forms],
                         "describe": [e.describe() for e in cat.entries]})


def observation_fields(game: str = DEFAULT_GAME, players: int | None = None, box=None) -> list[str]:
    """The meaning of each entry of a game's observation vector ("player+1" is the next
    player after the observer) for ``players`` players: the vector's length and names
    depend on the count, so give the count of the games you encode; ``None`` (the default)
    takes the game's default player count (:func:`haunted_kit.games.default_players`:
    Haunted Lands 4, the estate and Landmarks 3; a game without one, its ``min_players``).

    Raises:
        UnknownGame: no such game. MissingHook (a ValueError): the game has no
        ``observation_encoder`` hook (the message names it).
    """
    g = get_game(game)
    return list(_encoder(g, box, default_players(g) if players is None else _check_players(players)).names)


# ============================================================================ argument checks


def _check_players(players) -> int:
    if not is_integer(players):
        raise ValueError(f"players must be a whole number of players (an int), got {players!r}")
    return int(players)


def _action_number(action):
    """An action number as a plain ``int`` when it is an integer or a 0-d integer array (as
    ``spaces.Discrete.contains`` accepts); anything else unchanged, for ``decode`` to refuse."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return action


# ============================================================================ PettingZoo AEC


class KitAECEnv(AECEnv):
    """PettingZoo AEC environment over any game of the kit (see the module docstring).

    Args:
        game: a registered game's short name (``"haunted"``, ``"estate"``, ``"landmarks"``).
        players: number of players.
        box: a house-rule box of that game, default the game's own.
        render_mode: ``"ansi"`` (a text summary) or ``None``.
        cap: the decision cap (default :func:`haunted_kit.games.decision_cap` of each game):
            a game still running after that many decisions is truncated, as PettingZoo
            truncates an episode: every agent's ``truncations`` entry becomes True and its
            ``infos`` entry holds ``"truncated"``, the message naming the seed and the box.
        options: more game options (``mode="citizen"``, ``extra_ghost_cards=(2,)``...).

    Raises:
        ValueError: naming the argument: players not an integer or outside what the game
            (and box) plays, an unknown option or a bad option value, a bad render_mode or
            cap (all checked here, by setting up a trial game).
        UnknownGame: no such game.
        MissingHook (a ValueError): the game has no ``action_catalogue`` or
            ``observation_encoder`` hook (the message names the one missing).
    """

    metadata = {"name": "haunted_kit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = DEFAULT_GAME, players: int = 4, box=None, render_mode: str | None = None,
                 cap: int | None = None, **options):
        super().__init__()
        self.game = get_game(game)
        self._cap = None if cap is None else decision_cap(self.game, None, cap)  # a bad cap: ValueError now
        self._left = 0  # decisions the game may still take before it is truncated
        players = _check_players(players)
        self.box, self.n, self.options = box, players, dict(options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.catalogue = _catalogue(self.game, box)
        self.encode = _encoder(self.game, box, players)
        self._from_state = getattr(self.encode, "from_state", None)
        try:  # the game's own checks of players, box and options, now rather than at reset
            self._new_state(0)
        except TypeError as exc:  # an option the game's new_game does not take
            raise ValueError(f"{self.game.name!r} options: {exc}; given options: {', '.join(self.options) or 'none'}") from None
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._player_of = {a: p for p, a in enumerate(self.possible_agents)}
        low, high = self.encode.bounds()
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(len(self.catalogue),), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(len(self.catalogue))
        self._n_actions = len(self.catalogue)
        self.state_ = None
        self._numbered = None  # (legal actions, their numbers) of the last mask made for the player to move
        self._seed = 0
        self._np_random = None  # made by the first reset (see the module docstring)
        self._np_seed = None  # the seed of np_random still to be made (see np_random)

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ------------------------------------------------------------------ helpers
    def _sync(self) -> bool:
        """Resolve chance nodes; point agent_selection at the player to move; rewards at
        the end. Whether the game is over."""
        s = self.state_
        p = s.current_player()  # None at a chance node and at the end (the protocol's promise)
        if p is not None:  # the usual case: a decision
            self.agent_selection = self.possible_agents[p]
            return False
        while s.is_chance_node():
            s.apply_chance(sample_chance(s, self._seed))  # the kit's one seeded chance draw
        if s.is_terminal():
            ret = s.returns()
            for p, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(ret[p])
                    self.terminations[a] = True
            return True
        self.agent_selection = self.possible_agents[s.current_player()]
        return False

    def legal_mask(self, player: int) -> np.ndarray:
        """1 for each legal action's number when ``player`` is to move (exactly the legal
        actions: one number each), else all 0."""
        s = self.state_
        return self._mask(s, player, None if s.is_terminal() else s.current_player())

    def _mask(self, s, player: int, to_move: int | None) -> np.ndarray:
        """:meth:`legal_mask` of ``s`` with its player to move already known."""
        mask = bytearray(self._n_actions)  # plain byte writes, then numpy over the same memory
        if to_move == player:
            legal = s.legal_actions()
            numbers = self.catalogue.legal_numbers(s, legal)  # (actions met before: found by identity, in C)
            self._numbered = (legal, numbers)  # for step: the action of a number, while these are the legal actions
            for i in numbers:
                mask[i] = 1
        return np.frombuffer(mask, _INT8)  # (dtype positional: numpy parses keywords slowly)

    # ------------------------------------------------------------------ the AEC API
    def _new_state(self, seed: int):
        return start_game(self.game, players=self.n, seed=seed, log=False,
                          **({"box": self.box} if self.box is not None else {}), **self.options)

    def _check_started(self) -> None:
        if self.state_ is None:
            raise RuntimeError("no game yet: call reset() first")

    @property
    def game_seed(self) -> int:
        """The seed of the game being played (0 before the first reset)."""
        return self._seed

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a game: ``seed`` (an integer of at most 64 bits, numpy integers too) is
        the game's seed and seeds ``np_random``; ``None`` draws a new game's seed from
        ``np_random`` (see the module docstring). The game's seed also seeds its chance
        outcomes. Raises ValueError (:func:`~haunted_kit.protocol.check_seed`) for any
        other seed, before anything changes."""
        self._seed = self.next_seed(seed)
        self.state_ = self._new_state(self._seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._left = decision_cap(self.game, self.state_, self._cap)
        self._sync()

    def _truncate(self) -> None:
        """The decision cap is reached: every agent truncated, with the message in its infos."""
        words = str(cap_reached(self.game, self.state_, seed=self._seed, cap=decision_cap(self.game, self.state_, self._cap),
                                what="environment"))
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {**self.infos[a], "truncated": words}

    def next_seed(self, seed: int | None = None) -> int:
        """The game seed a ``reset(seed)`` plays: ``seed`` itself (checked; it reseeds
        ``np_random``), or for ``None`` a draw from ``np_random``."""
        if seed is not None:
            seed = check_seed(seed)  # ValueError before anything changes
            # Gymnasium's generator takes only seeds >= 0: a negative game seed maps one to one
            self._np_random, self._np_seed = None, seed % 2**64  # made when first asked for (np_random)
            return seed
        return int(self.np_random.integers(0, SEED_MAX, endpoint=True))

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's own generator (see the module docstring): seeded by the last
        seeded reset (made when first asked for, so a seeded reset costs no generator),
        before any from the operating system's entropy."""
        if self._np_random is None:
            # a seed still to use (None: the operating system's entropy)
            self._np_random, _ = seeding.np_random(self._np_seed)
            self._np_seed = None
        return self._np_random

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        self._np_random, self._np_seed = generator, None

    def observe(self, agent):
        s = self.state_
        if s is None:
            self._check_started()
        p = self._player_of.get(agent) if isinstance(agent, str) else None
        if p is None:
            raise ValueError(f"unknown agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        to_move = s.current_player()  # None at the end (the protocol's promise; no chance node waits here)
        from_state = self._from_state  # the encoder's cheap read of what observation(p) holds, if it has one
        vector = self.encode(s.observation(p), p, to_move) if from_state is None else from_state(s, p, to_move)
        return {"observation": vector, "action_mask": self._mask(s, p, to_move)}

    def step(self, action):
        """Play action number ``action`` (an integer or a 0-d integer array) for the agent
        to move; after the end, ``None`` for each agent in turn removes it.

        Raises:
            ValueError: not a number of the encoding, or illegal now (the rule's reason);
                the state is unchanged.
            RuntimeError: no game yet, or every agent is done (call ``reset()``).
        """
        if self.state_ is None:
            self._check_started()
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self.legal_action(action)
        self._cumulative_rewards[agent] = 0.0
        # every reward is 0 here: _sync sets them only when the game ends, after which
        # steps are the done agents' (so no fresh dict of zeros per step)
        s = self.state_
        s.apply_action(chosen)
        self._left -= 1
        p = s.current_player()
        if p is not None:  # the usual case, a decision next: _sync's first lines, without the call
            self.agent_selection = self.possible_agents[p]
            if not self._left:
                self._truncate()
        elif self._sync():  # the game is over
            self._accumulate_rewards()  # (before the end every reward is 0: nothing to add)
        elif not self._left:
            self._truncate()

    def legal_action(self, action):
        """The game's action for action number ``action`` (an integer or a 0-d integer
        array) when it is legal now. Raises ValueError: not a number of the encoding, or
        illegal now (the rule's reason); nothing changes."""
        if type(action) is not int:
            action = _action_number(action)
        if type(action) is int and self._numbered is not None:  # the mask's numbering, if these are still the legal actions
            legal, numbers = self._numbered
            if action in numbers:  # a handful: no dict
                now = self.state_.legal_actions()
                if now == legal:  # equal actions are numbered alike (the very objects, usually: compared in C)
                    return now[numbers.index(action)]
        chosen = self.catalogue.decode(self.state_, action)  # ValueError: not a number in range, or not offered
        for a in self.state_.legal_actions():  # one of the listed objects (a game that interns them): legal as it is
            if a is chosen:
                return chosen
        why = self.state_.why_not(chosen)
        if why is not None:
            raise ValueError(f"action {int(action)} ({describe_action(chosen, self.state_)}) is illegal now: {why}")
        return chosen

    def render(self):
        if self.render_mode != "ansi":
            return None
        s = self.state_
        lines = [f"{self.game.title}: {self.n} players, step {len(s.history())} of the action record"]
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


def _opponent_specs(opponents) -> list[str]:
    """The opponents' agent specs: a lineup string or a sequence of specs (each checked
    by :func:`~haunted_kit.bots.parse_lineup`); ValueError when there is none."""
    if isinstance(opponents, str):
        return parse_lineup(opponents)
    try:
        specs = list(opponents)
    except TypeError:
        raise ValueError(f"opponents must be agent specs (a list, or one lineup string), got {opponents!r}") from None
    if not specs:
        raise ValueError("opponents must name at least one agent spec, e.g. ['greedy'] (they repeat over the other seats)")
    for s in specs:
        if not isinstance(s, str):
            raise ValueError(f"opponents must be agent spec strings, got {s!r}")
        if len(parse_lineup(s)) != 1:
            raise ValueError(f"opponents: one spec per entry, got the lineup {s!r}")
    return [s.strip() for s in specs]


class SingleSeatEnv(gymnasium.Env):
    """Gymnasium environment: the learner plays ``seat`` (a player index); the other
    players are bots from ``opponents``: agent specs, repeating (``["greedy"]``,
    ``["search[playouts=50]", "random"]``) or one lineup string
    (``"search[playouts=50],greedy"``), read by :func:`haunted_kit.bots.parse_lineup`.

    Observations are the AEC environment's dicts (``observation`` vector and
    ``action_mask``); ``info["action_mask"]`` repeats the mask. The reward is the seat's
    return when the game ends, 0 before. ``reset(seed=k)`` plays game seed ``k`` and seeds
    ``np_random``; ``reset()`` draws a new game's seed from ``np_random`` (as in
    :class:`KitAECEnv`); the bots are seeded ``game seed * 100 + player``
    (:func:`haunted_kit.bots.seat_bot`, as every entry point).

    **An action of the space that is illegal now** (masked out, as an unmasked sample
    of ``action_space`` often is): with ``illegal_reward`` a number (default -1.0), the
    game is left exactly as it was, the step returns the same observation, reward
    ``illegal_reward``, ``terminated`` and ``truncated`` False, and
    ``info["illegal_action"]`` holds the rule's reason; the episode goes on. With
    ``illegal_reward=None`` it raises ``ValueError`` instead, as :class:`KitAECEnv`
    does. A value that is not an action of the space (not an integer 0..n-1) always
    raises ``ValueError``.

    **The decision cap** (``cap``, as :class:`KitAECEnv`; the bots' decisions count too): a
    game still running there ends the episode with ``truncated`` True, reward 0 and
    ``info["truncated"]`` naming the seed and the box; a further step asks for ``reset()``.

    Raises:
        ValueError: naming the argument: a seat that is not an integer player index, no
            opponents, a bad or unknown agent spec, an ``illegal_reward`` that is not a
            finite number or None, and whatever :class:`KitAECEnv` refuses.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = DEFAULT_GAME, players: int = 4, seat: int = 0, opponents=("greedy",), box=None,
                 render_mode: str | None = None, illegal_reward: float | None = -1.0, cap: int | None = None,
                 **options):
        players = _check_players(players)
        if not is_integer(seat) or not 0 <= seat < players:
            raise ValueError(f"seat must be a player index 0..{players - 1}, got {seat!r}")
        if illegal_reward is not None and (isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float))
                                           or not np.isfinite(illegal_reward)):
            raise ValueError(f"illegal_reward must be a finite number or None, got {illegal_reward!r}")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.aec = KitAECEnv(game, players, box=box, render_mode=render_mode, cap=cap, **options)
        self.seat, self.opponents = int(seat), _opponent_specs(opponents)
        for spec in self.opponents:
            make_bot(spec, 0, game=self.aec.game)  # an unknown agent or a bad setting fails here
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.aec.possible_agents[seat])
        self.action_space = self.aec.action_space(self.aec.possible_agents[seat])

    def _play_bots(self) -> None:
        e = self.aec
        s = e.state_
        while not s.is_terminal() and s.current_player() != self.seat and not e.truncations[e.agents[0]]:
            if e._left <= 0:  # the decision cap: the episode is truncated
                e._truncate()
                return
            p = s.current_player()
            s.apply_action(self.bots[p].act(s))
            e._left -= 1
            e._sync()

    def _out(self):
        o = self.aec.observe(self.aec.possible_agents[self.seat])
        truncated = self.aec.infos[self.aec.possible_agents[self.seat]].get("truncated")
        return o, ({"action_mask": o["action_mask"]} if truncated is None else
                   {"action_mask": o["action_mask"], "truncated": truncated})

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start game ``seed`` (an integer of at most 64 bits, numpy integers too; None:
        a new game drawn from ``np_random``). Raises ValueError for any other seed."""
        if seed is not None:
            seed = check_seed(seed)  # refused before the generators are touched
        # Gymnasium's generator takes only seeds >= 0: a negative game seed maps one to one
        super().reset(seed=None if seed is None else seed % 2**64)
        if seed is None:
            seed = int(self.np_random.integers(0, SEED_MAX, endpoint=True))
        self.aec.reset(seed=seed)
        k = self.aec.game_seed
        self.bots = {p: seat_bot(self.opponents[i % len(self.opponents)], self.aec.game, k, p)
                     for i, p in enumerate(p for p in range(self.aec.n) if p != self.seat)}
        self._play_bots()
        return self._out()

    def step(self, action):
        e = self.aec
        e._check_started()
        if e.state_.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        if e.truncations[e.possible_agents[self.seat]]:
            raise RuntimeError("the game was truncated at the decision cap: call reset()")
        if self.illegal_reward is not None and self.action_space.contains(_action_number(action)):
            try:
                e.legal_action(action)
            except ValueError as exc:  # an action of the space, illegal now: the documented penalty
                obs, info = self._out()
                return obs, self.illegal_reward, False, False, {**info, "illegal_action": str(exc)}
        e.step(action)
        self._play_bots()
        s = e.state_
        done = s.is_terminal()
        reward = float(s.returns()[self.seat]) if done else 0.0
        obs, info = self._out()
        return obs, reward, done, e.truncations[e.possible_agents[self.seat]], info

    def render(self):
        return self.aec.render()
