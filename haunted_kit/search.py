"""Information-set Monte Carlo tree search (ISMCTS) and move hints, for any game of the kit.

:class:`SearchAgent` is single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one
tree over the searching player's information set. Every playout starts from a fresh
*determinisation* (:func:`determinise`, the one path every search and hint takes): a
copy of the position built from what the searching player sees, ``state.observation(player)``,
with everything hidden from them redrawn from the search's own seeded generator: the
other players' hidden cards (Haunted Lands: face-down quests; Landmarks: hands and
architects), the order of what is still to be drawn, the chance generator's seed and
position (future dice, tiles and deals), while outcomes forced on the next chance nodes
(``force_chance``) and the action record are left out. So two positions that look the
same to the player give the same search, the same moves and the same hints, whatever
their hidden truth; the kit checks this promise for every game with
:func:`haunted_kit.testing.determinisation_problems`. Selection is PUCT with availability counts
(a move is only compared with the playouts in which it was legal), guided by a prior
over moves: the game's greedy agent's move scores as a softmax (:func:`prior_of`), so
that a small budget (100 playouts) is spent on the few plausible moves; chance outcomes
are sampled (open loop). Playouts run a rollout policy (``"greedy"`` or ``"random"``,
see :func:`haunted_kit.protocol.agent_table`) to the end, or for ``rollout_depth``
decisions and then score the position with the Game's ``evaluate(state)``.

Values come from each player's :meth:`~haunted_kit.protocol.GameState.returns` at the
end of a playout, read with the game's own meaning of them (:func:`playout_values`): a
Game that declares ``win_loss_returns = True`` gives win/loss values, kept as they are
(Haunted Lands: 1 for the winner, 0 for the others, -1 for every player after a
collective loss); any other game's returns are scores (the estate's gold values,
Landmarks' module points), and the player or players with the highest score share a
value of 1 (0 for the others), whatever the size of the points. Before the end, the
evaluation's estimate of those values (Haunted Lands: the win chance, less the chance that
Kalena falls, see :meth:`haunted_kit.haunted.engine.HauntedLandsGame.evaluate`).

Anything game-specific comes from the Game: ``determinise``, ``evaluate``, ``prior``
or the greedy agent of its ``agents`` (each optional, with a generic fallback).

Seeded and reproducible: with a budget in playouts, the same seed, position and calls
give the same moves. A budget in ``seconds`` stops on the clock and is not reproducible.

:func:`hints` runs a search for the player to move and returns the top moves with their
visit shares and a sentence each built from the move's own events and statistics.
"""

from __future__ import annotations

import gc
import math
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass

from .games import DECISION_CAP, DecisionCapReached, MissingHook, box_words, cap_setting, game_of, hook
from .limits import EXPLORATION_RANGE, PLAYOUTS_RANGE, ROLLOUT_DEPTH_RANGE, SEARCH_SECONDS_RANGE, finite, whole
from .protocol import agent_table, is_integer
from .render.style import name_cells
from .visibility import seen_events

__all__ = ["Hint", "MoveStats", "SearchAgent", "SearchResult", "check_settings", "determinise", "hints", "is_telling", "move_events", "rollout",
           "rollout_policy", "sample_chance"]


def determinise(game, state, player: int, rng: random.Random):
    """A copy of ``state`` as ``player`` might believe it to be, built from what
    ``player`` sees: the hidden parts (other players' hidden cards, what is still to be
    drawn and in which order, the chance generator's seed and position, forced chance
    outcomes, the action record) are redrawn from ``rng`` or left out, never read, so
    the copy is a function of ``state.observation(player)`` and ``rng`` alone.

    Uses the Game's ``determinise`` when it has one. A game without one must show
    ``player`` everything (``state.observation(player) == state.observation(None)``):
    then a plain copy is a determinisation. The Game's copy keeps no event log (``log``
    None: every playout plays on it and composes no sentence, docs/NEW_GAME.md); should one
    keep a log anyway, it is given as ``player`` may see it (the game's ``visibility``,
    :mod:`haunted_kit.visibility`), so no sentence of the copy tells what ``player`` may not see.

    Raises:
        MissingHook (a ValueError): the game hides information from ``player`` and has no
        ``determinise`` hook (the message names it).
    """
    det = getattr(game, "determinise", None)
    if det is not None:
        d = det(state, player, rng)
        if getattr(d, "log", None):
            d.log = seen_events(game, d.log, player)
        return d
    if state.observation(player) != state.observation(None):
        raise MissingHook(f"the search needs the game's determinise hook: {getattr(game, 'title', game)} (--game "
                          f"{getattr(game, 'name', '?')}) hides information from player {player} and has none, so "
                          "searching would read the hidden state")
    return state.copy()


class _Node:
    __slots__ = ("player", "visits", "value", "avail", "prior", "children")

    def __init__(self, player, prior=0.0):
        self.player = player  # who chose the move leading here (values are from their side)
        self.visits = 0
        self.value = 0.0
        self.avail = 0  # playouts in which this move was legal here
        self.prior = prior  # the prior's probability of the move when first seen
        self.children: dict = {}


@dataclass(frozen=True)
class MoveStats:
    """One root move after a search: ``visits`` (playouts through it), ``share`` of all
    root visits (0..1) and ``value`` (mean return for the searching player, Haunted
    Lands: -1..1, roughly a win chance when positive)."""

    action: object
    visits: int
    share: float
    value: float


@dataclass(frozen=True)
class SearchResult:
    """What a search found: ``moves`` sorted by visits (most first), the number of
    ``playouts`` and the ``seconds`` it took. ``best`` is the most visited move."""

    player: int
    moves: tuple[MoveStats, ...]
    playouts: int
    seconds: float

    @property
    def best(self):
        return self.moves[0].action


def _uniform(state, actions) -> list[float]:
    return [1.0 / len(actions)] * len(actions)


def prior_of(game, kind: str = "greedy"):
    """The prior over moves a search uses: ``prior(state, actions) -> probabilities``.

    ``"greedy"``: the Game's own ``prior`` when it has one, else the ``prior`` of the
    game's greedy agent (:meth:`~haunted_kit.protocol.OneStepGreedyAgent.prior`, a
    softmax of its move scores), else uniform. ``"uniform"``: every legal move alike.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in PRIORS:
        raise ValueError(f"unknown prior {kind!r} (known: {', '.join(PRIORS)})")
    if kind == "uniform":
        return _uniform
    own = getattr(game, "prior", None)
    if own is not None:
        return own
    greedy = agent_table(game).get("greedy")
    return _uniform if greedy is None else getattr(greedy(0), "prior", _uniform)


PRIORS = ("greedy", "uniform")
#: how often (in playouts) a search reports its progress to a ``progress`` callback
PROGRESS_EVERY = 50


ROLLOUTS = ("greedy", "random")


def check_settings(playouts=100, seconds=None, rollout="greedy", rollout_depth="auto", exploration=0.3,
                   prior="greedy") -> dict:
    """The search's settings, checked (numbers by :mod:`haunted_kit.limits`, the one place
    their ranges live): ``playouts`` a whole number in :data:`~haunted_kit.limits.PLAYOUTS_RANGE`
    (the budget unless ``seconds`` is given), ``seconds`` None or a finite number of
    seconds above 0 in :data:`~haunted_kit.limits.SEARCH_SECONDS_RANGE`, ``rollout`` one
    of :data:`ROLLOUTS`, ``rollout_depth`` ``"auto"``, None or a whole number in
    :data:`~haunted_kit.limits.ROLLOUT_DEPTH_RANGE`, ``exploration`` a finite number in
    :data:`~haunted_kit.limits.EXPLORATION_RANGE`, ``prior`` one of :data:`PRIORS`.
    Returns them as a dict (ints as ``int``, numbers as ``float``).

    Raises:
        ValueError: naming the setting, its range and the value (NaN and infinities included).
    """
    playouts = whole(playouts, "playouts", *PLAYOUTS_RANGE)
    if seconds is not None:
        seconds = finite(seconds, "seconds", *SEARCH_SECONDS_RANGE, above=True)
    if rollout not in ROLLOUTS:
        raise ValueError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUTS)})")
    if rollout_depth not in ("auto", None):
        rollout_depth = whole(rollout_depth, "rollout_depth", *ROLLOUT_DEPTH_RANGE)
    exploration = finite(exploration, "exploration", *EXPLORATION_RANGE)
    if prior not in PRIORS:
        raise ValueError(f"unknown prior {prior!r} (known: {', '.join(PRIORS)})")
    return {"playouts": playouts, "seconds": seconds, "rollout": rollout, "rollout_depth": rollout_depth,
            "exploration": exploration, "prior": prior}


class SearchAgent:
    """ISMCTS agent; ``act(state)`` returns one of ``state.legal_actions()``.

    Selection is PUCT (as in AlphaZero) with availability counts: a move is scored
    ``Q + exploration * P * sqrt(A) / (1 + N)``, with ``Q`` its mean value, ``P`` its
    prior probability (see :func:`prior_of`), ``A`` the playouts in which it was legal
    and ``N`` those that chose it; an untried move counts as worth its siblings' mean.

    Args:
        seed: seeds the determinisations, the tree policy's tie breaks and the rollouts.
        playouts: playouts per decision (the budget) when ``seconds`` is not given.
        seconds: a time budget per decision instead (not reproducible).
        rollout: rollout policy, ``"greedy"`` (default; the game's greedy agent, random
            for a game without one) or ``"random"``.
        rollout_depth: decisions per rollout before the position is scored with the
            Game's ``evaluate``; ``None`` plays to the end. Default: 40 when the game
            has ``evaluate``, else ``None``.
        exploration: the PUCT constant.
        prior: ``"greedy"`` (default) or ``"uniform"`` (see :func:`prior_of`).
        game: the :class:`~haunted_kit.protocol.Game`; found from the state if omitted.

    Raises:
        ValueError: a number out of its range (:func:`check_settings`: a budget that is not
            positive, NaN or infinite, too large...), an unknown rollout policy or prior.
    """

    name = "search"

    def __init__(self, seed: int = 0, *, playouts: int = 100, seconds: float | None = None, rollout: str = "greedy",
                 rollout_depth: int | None | str = "auto", exploration: float = 0.3, prior: str = "greedy", game=None):
        ok = check_settings(playouts, seconds, rollout, rollout_depth, exploration, prior)
        playouts, seconds, rollout_depth, exploration = ok["playouts"], ok["seconds"], ok["rollout_depth"], ok["exploration"]
        self.seed = seed
        self.playouts, self.seconds = playouts, seconds
        self.rollout, self.rollout_depth, self.exploration, self.prior = rollout, rollout_depth, exploration, prior
        self.game = game
        self.rng = random.Random(seed)
        self._tools = None

    def settings(self) -> dict:
        """The agent's settings (recorded in simulation datasets)."""
        return {"agent": "search", "playouts": self.playouts, "seconds": self.seconds, "rollout": self.rollout,
                "rollout_depth": self.rollout_depth, "exploration": self.exploration, "prior": self.prior}

    def act(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.search(state).best

    # ------------------------------------------------------------------ the search
    def search(self, state, player: int | None = None, *, progress=None) -> SearchResult:
        """Search from ``state`` for ``player`` (default: the player to move).

        ``progress``: an optional ``progress(done, budget)`` called every
        :data:`PROGRESS_EVERY` playouts (``budget`` is ``None`` for a budget in seconds), for a
        progress bar; it does not change the search.

        The cycle collector is paused while the playouts run (:func:`collector_paused`):
        no game of the kit leaves cyclic garbage in a playout (``tests/test_no_cyclic_garbage.py``),
        so its passes over the growing tree and the engines' tables were pure cost
        (10-25% of a Landmarks hint).

        Raises:
            ValueError: the game is over, a chance node waits (nobody is to move until its
                outcome is applied), or ``player`` is not the player to move (the message
                names who is).
        """
        with collector_paused():
            return self._search(state, player, progress)

    def _search(self, state, player, progress) -> SearchResult:
        game = self.game or game_of(state)
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to search or suggest")
        mover = state.current_player()
        if mover is None:
            raise ValueError("a chance node waits, so nobody is to move: resolve it first (state.apply_chance(outcome), "
                             "or state.apply_chance(state.sample_chance()) for the seeded one), then search")
        if player is None:
            player = mover
        elif not is_integer(player) or player != mover:
            raise ValueError(f"player must be the player to move: P{mover + 1} (index {mover}) is to move here, got {player!r}")
        win_loss = returns_are_win_loss(game)
        depth = self.rollout_depth
        evaluate = getattr(game, "evaluate", None)
        if depth == "auto":
            depth = 40 if evaluate is not None else None
        if depth is not None and evaluate is None:
            hook(game, "evaluate", "rollout_depth")  # MissingHook naming it
        rng = random.Random(self.rng.getrandbits(64))
        if self._tools is None or self._tools[0] is not game:
            self._tools = (game, rollout_policy(game, self.rollout), prior_of(game, self.prior))
        _, policy, prior = self._tools
        policy.rng = rng
        root = _Node(None)
        c = self.exploration
        sqrt = math.sqrt
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        budget = self.playouts if self.seconds is None else 1 << 62
        n = 0
        while n < budget:
            if deadline is not None and n & 7 == 0 and time.perf_counter() >= deadline and n:
                break
            n += 1
            if progress is not None and n % PROGRESS_EVERY == 0:
                progress(n, None if self.seconds is not None else budget)
            d = determinise(game, state, player, rng)
            node = root
            path = []
            # selection, expanding one move per playout
            while not d.is_terminal():
                if d.is_chance_node():
                    sample_chance(d, rng)
                    continue
                legal = d.legal_actions()
                mover = d.current_player()
                children = node.children
                kids = list(map(children.get, legal))  # each move's node, None where new here
                if None in kids:
                    for i, p in enumerate(prior(d, legal) if len(legal) > 1 else (1.0,)):
                        if kids[i] is None:
                            kids[i] = children[legal[i]] = _Node(mover, p)
                tried_v = tried_n = 0
                for ch in kids:
                    ch.avail += 1
                    if ch.visits:
                        tried_v += ch.value
                        tried_n += ch.visits
                fpu = tried_v / tried_n if tried_n else 0.0
                best, best_u = 0, -math.inf
                for i, ch in enumerate(kids):
                    q = ch.value / ch.visits if ch.visits else fpu
                    u = q + c * ch.prior * sqrt(ch.avail) / (1 + ch.visits)
                    if u > best_u:
                        best, best_u = i, u
                node = kids[best]
                d.apply_action(legal[best])
                path.append(node)
                if node.visits == 0:
                    break
            values = rollout(d, policy, rng, depth, evaluate, win_loss)
            for nd in path:
                nd.visits += 1
                nd.value += values[nd.player]
        total = sum(ch.visits for ch in root.children.values()) or 1
        moves = sorted((MoveStats(a, ch.visits, ch.visits / total, ch.value / ch.visits if ch.visits else 0.0)
                        for a, ch in root.children.items() if ch.visits), key=lambda m: (-m.visits, -m.value))
        return SearchResult(player, tuple(moves), n, time.perf_counter() - start)


@contextmanager
def collector_paused():
    """Pause Python's cycle collector (``gc``) for the ``with`` block, and restore it as
    it was (a collector already off stays off). Reference counting still frees every
    object that is not in a cycle; cycles made in the block wait for the collector's
    next pass after it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def rollout(d, policy, rng: random.Random, depth: int | None, evaluate, win_loss: bool) -> list:
    """Play ``d`` (a determinisation, changed in place) on with ``policy`` (an agent with
    ``act``) and chance outcomes drawn by ``rng``, to the end or for ``depth`` decisions
    (``None``: to the end, at most the decision cap: ``$HAUNTED_KIT_DECISION_CAP`` or the kit's
    :data:`~haunted_kit.games.DECISION_CAP`); then each player's value: :func:`playout_values`
    of the returns at the end, else ``evaluate(d)`` (the Game's estimate). The playout of
    every search.

    Raises:
        DecisionCapReached (a RuntimeError): with ``depth`` None, a playout that did not end
            within the decision cap (a house rule that lets a game run for ever).
    """
    steps = 0
    limit = depth if depth is not None else (cap_setting() or DECISION_CAP)
    act, apply, is_terminal, is_chance_node = policy.act, d.apply_action, d.is_terminal, d.is_chance_node
    while not is_terminal() and steps < limit:
        if is_chance_node():
            sample_chance(d, rng)
            continue
        apply(act(d))
        steps += 1
    if d.is_terminal():
        return playout_values(d.returns(), win_loss)
    if depth is None:
        game = game_of(d)
        box_of = getattr(game, "box_of", None)
        raise DecisionCapReached(f"a search playout (rollout_depth=None: to the end) did not end within {limit:,} "
                                 f"decisions, the decision cap; box: {box_words(game, box_of(d) if box_of else None)}. "
                                 f"A house rule may let the game run for ever: give the search a rollout_depth, or "
                                 f"check the box with 'haunted-kit check-box'.", decisions=limit, cap=limit)
    return evaluate(d)


def rollout_policy(game, name: str = "greedy"):
    """The rollout agent: the game's ``name`` agent (:func:`~haunted_kit.protocol.agent_table`);
    a game without one rolls out at random. Its ``rng`` may be replaced before a rollout."""
    table = agent_table(game)
    return table.get(name, table["random"])(0)


def returns_are_win_loss(game) -> bool:
    """Whether ``game``'s returns are win/loss values (its Game's optional
    ``win_loss_returns``; Haunted Lands: 1 win, 0 loss, -1 collective loss) rather than
    scores (every other game of the kit: gold values, module points)."""
    return getattr(game, "win_loss_returns", False) is True


def playout_values(ret: list, win_loss: bool = False) -> list:
    """A finished playout's value for each player, from the game's ``returns()``.

    Args:
        ret: the returns, one per player.
        win_loss: the returns are win/loss values (:func:`returns_are_win_loss`): kept
            as they are. Otherwise they are scores: the players with the highest score
            share 1, the others get 0 (``[4, 4, 0]`` and ``[1, 1, 0]`` both give
            ``[0.5, 0.5, 0.0]``; ``[0, 0, 0]`` gives a third each), so that the
            exploration constant means the same for every game.
    """
    if win_loss:
        return [float(r) for r in ret]
    top = max(ret)
    k = sum(1 for r in ret if r == top)
    return [1.0 / k if r == top else 0.0 for r in ret]


def sample_chance(d, rng: random.Random) -> None:
    """Resolve ``d``'s waiting chance node with an outcome drawn by ``rng`` from
    ``chance_outcomes()`` (probabilities as the game gives them)."""
    outcomes = d.chance_outcomes()
    x = rng.random()
    for o, p in outcomes:
        x -= p
        if x < 0:
            break
    d.apply_chance(o)


# ============================================================================ hints


@dataclass(frozen=True)
class Hint:
    """One suggested move: the action, its share of the search's visits (0..1), its
    mean value for the player, and a sentence explaining it."""

    action: object
    share: float
    value: float
    visits: int
    sentence: str


_CHANCE_KINDS = ("_die", "_drawn")  # events naming a chance outcome: an example, not a promise


def move_events(game, state, player: int, action, rng: random.Random) -> tuple[list, float | None]:
    """What ``action`` (legal for ``player``, the player to move) would cause, played on a
    determinisation of ``state`` for ``player`` (so it cannot reveal a hidden quest or a
    future die): ``(events, gain)``, the move's own events (the state's ``log`` entries,
    :class:`haunted_kit.events.Event`; ``[]`` for a game without a log) up to the next
    decision or chance node, each as ``player`` may see it in a guessed position (the
    game's ``visibility``: another seat's hidden events redacted, and a die, a draw or a
    card turned up, which the determinisation only guessed, told by its declared sentence,
    never by the sampled value), and the change of ``player``'s ``seat_results`` score
    (``None`` for a game without ``seat_results``)."""
    d = determinise(game, state, player, rng)
    if hasattr(d, "log"):
        d.log = []  # record this move's events on the copy
    before = None
    seats = getattr(game, "seat_results", None)
    if seats is not None:
        before = seats(d)[player]["score"]
    d.apply_action(action)
    events = seen_events(game, d.log or [], player, guessed=True) if hasattr(d, "log") else []
    return events, (None if before is None else seats(d)[player]["score"] - before)


def is_telling(event) -> bool:
    """Whether an event says what a move did, rather than bookkeeping (a turn, round or
    season starting or ending) or a chance outcome (a die, a draw)."""
    return not (event.kind in ("turn_started", "turn_ended", "round_started", "season_started")
                or event.kind.endswith(_CHANCE_KINDS))


def _describe_effect(game, state, player: int, action, rng: random.Random) -> str:
    """What ``action`` does, from its own events (:func:`move_events`)."""
    events, delta = move_events(game, state, player, action, rng)
    parts = []
    for e in events:
        if not is_telling(e):
            continue
        if e.player == player:
            parts.append(name_cells(e.text).rstrip("."))
        if len(parts) == 2:
            break
    gain = f" ({getattr(game, 'score_name', 'score')} {delta:+g} at once)" if delta else ""
    return ("; ".join(parts) + gain) if parts else (getattr(action, "describe", lambda: str(action))() + gain)


def _outcome_words(value: float, win_loss: bool) -> str:
    """How a move's mean playout value reads: a win share, or (only for a game whose
    returns are win/loss values, where -1 is a collective loss) a negative mean as
    "often ends in a collective loss"."""
    if value < 0 and win_loss:
        return "often ends in a collective loss"
    return f"wins about {max(0.0, value):.0%} of them"


def hints(state, *, player: int | None = None, playouts: int = 1000, seconds: float | None = None, top: int = 3,
          seed: int = 0, rollout: str = "greedy", rollout_depth: int | None = 20, game=None,
          progress=None) -> list[Hint]:
    """The search agent's ``top`` moves for the player to move, best first.

    Each hint has its visit share, its mean value and a sentence built from the move's
    own events (played on a determinisation, so it never reveals hidden information)
    and its statistics, e.g. ``"P2 builds a tower on (1, -2), gaining 3 valor. Chosen
    in 41% of 1,000 playouts; wins about 35% of them."``

    Rollouts are shorter than the agent's default (20 decisions, then the Game's
    ``evaluate``; a game without one plays to the end) so that 1,000 playouts stay
    within a second.

    Args:
        player: the player to move (the default); any other player is refused.
        top: how many moves, 1 or more (fewer when fewer were searched).
        progress: ``progress(done, budget)`` every :data:`PROGRESS_EVERY` playouts (a
            progress bar's; the hints are the same with or without it).

    Works on any position where a player is to move, however it was made (forced
    chance outcomes pending, a scenario or prepared position, chance nodes left for the
    caller): the search reads only what the player sees (:func:`determinise`), so two
    positions that look the same to the player get the same hints.

    Raises:
        ValueError: the game is over, a chance node waits (nobody is to move), ``player``
            is not the player to move (naming who is), ``top`` is not a whole number of
            at least 1, or a bad budget.
        MissingHook (a ValueError): the game has no ``determinise(state, player, rng)``.
    """
    if not is_integer(top) or top < 1:
        raise ValueError(f"top must be a whole number of moves, 1 or more, got {top!r}")
    game = game or game_of(state)
    hook(game, "determinise", "hints")
    if getattr(game, "evaluate", None) is None:
        rollout_depth = None
    agent = SearchAgent(seed, playouts=playouts, seconds=seconds, rollout=rollout, rollout_depth=rollout_depth, game=game)
    res = agent.search(state, player, progress=progress)
    win_loss = returns_are_win_loss(game)
    rng = random.Random(seed + 1)
    out = []
    for m in res.moves[:top]:
        effect = _describe_effect(game, state, res.player, m.action, rng)
        sentence = f"{effect}. Chosen in {m.share:.0%} of {res.playouts:,} playouts; {_outcome_words(m.value, win_loss)}."
        out.append(Hint(m.action, m.share, m.value, m.visits, sentence))
    return out
