"""The kit's one play loop: a game of any registered rule module played to the end by agents.

:func:`play_game` starts a game of a :class:`~haunted_kit.protocol.Game` from its
configuration and seed, seats the agents with the one seat-seeding rule
(:func:`haunted_kit.bots.seat_bots`) and plays it out (:func:`play_out`). ``haunted-kit
play`` (every game), ``simulate``, and each game's own ``play_game`` wrapper (which adds
the game's result table) all play through here, so the same seed and agent specs give
the same action record wherever a game is started.
"""

from __future__ import annotations

import itertools

from .bots import default_agent, seat_bots
from .games import cap_reached, decision_cap, game_of, get_game, start_game
from .progress import progress as bar
from .protocol import check_seed, sample_chance

__all__ = ["play_game", "play_out", "play_steps"]


def play_steps(state, bots, *, seed: int, stop=None, max_steps: int | None = None, progress: bool = False,
               desc: str = "game", cap: int | None = None, what: str = "") -> int:
    """The loop itself: play ``state`` on in place with ``bots`` (one agent object per
    player, index = player) until it is over, ``stop(state)`` is true (checked before
    every step, so a game started with ``auto_chance=False`` can halt at a chance node) or
    ``max_steps`` steps were taken. A waiting chance node is one step, resolved with
    :func:`haunted_kit.protocol.sample_chance` (the game's own seeded draw, what
    ``auto_chance`` would draw; ``seed`` serves a game without one); a decision is one step.

    ``cap``: the decision cap (:func:`haunted_kit.games.decision_cap`; ``None``: none): a
    game still running after ``cap`` decisions of this loop (chance outcomes aside) raises
    :class:`~haunted_kit.games.DecisionCapReached`, naming ``seed`` and the box (``what``
    names the tool in its message). :func:`play_out` always passes one.

    Returns:
        the number of steps taken.

    Raises:
        IllegalAction: a bot chose an illegal action (the state is as it was before it).
        DecisionCapReached (a RuntimeError): the game did not end within ``cap`` decisions.
    """
    steps = itertools.count() if max_steps is None else range(max_steps)
    if progress:
        steps = bar(steps, desc=desc)
    taken = decided = 0
    for _ in steps:
        if state.is_terminal() or (stop is not None and stop(state)):
            break
        if state.is_chance_node():
            state.apply_chance(sample_chance(state, seed))
        else:
            if cap is not None and decided >= cap:
                raise cap_reached(game_of(state), state, seed=seed, cap=cap, what=what)
            state.apply_action(bots[state.current_player()].act(state))
            decided += 1
        taken += 1
    return taken


def play_out(state, agents=None, *, seed: int, agent_seed: int | None = None, game=None,
             progress: bool = False, desc: str | None = None, cap: int | None = None, what: str = ""):
    """Play ``state`` to the end, in place, with agents seated by the one seat-seeding rule.

    Args:
        state: a :class:`~haunted_kit.protocol.GameState`, at any position.
        agents: agent specs (:func:`haunted_kit.bots.make_bot`: ``"greedy"``,
            ``"search[playouts=50]"``...) or agent objects (``act(state) -> action``),
            one per seat; a shorter sequence repeats (default: the game's
            :func:`~haunted_kit.bots.default_agent`, greedy when it has one). Seat ``i``'s spec is seeded
            :func:`~haunted_kit.protocol.seat_seed` ``(agent_seed, i)``.
        seed: the game's seed; chance nodes the state leaves waiting (a game started with
            ``auto_chance=False``) are resolved with :func:`haunted_kit.protocol.sample_chance`,
            the game's own seeded draw.
        agent_seed: the agents' base seed (default: ``seed``).
        game: the state's :class:`~haunted_kit.protocol.Game` (default: found from the state).
        progress: show a progress bar counting the steps (:mod:`haunted_kit.progress`).
        desc: the bar's label (default: the game's name and seed).
        cap: the decision cap (default: :func:`haunted_kit.games.decision_cap` of the game:
            its own ``max_decisions`` or the kit's :data:`~haunted_kit.games.DECISION_CAP`).
        what: the tool named in the cap's message.

    Returns:
        ``(state, names)``: ``state``, now terminal, and each seat's agent name.

    Raises:
        ValueError: a bad seed, agent spec (BotSpecError) or cap.
        IllegalAction: an agent chose an illegal action (the state is as it was before it).
        DecisionCapReached (a RuntimeError): the game did not end within the cap; the
            message names the seed and the box.
    """
    game = game_of(state) if game is None else game
    seed = check_seed(seed)
    agent_seed = seed if agent_seed is None else check_seed(agent_seed, "agent_seed")
    cap = decision_cap(game, state, cap)
    agents = (default_agent(game),) if agents is None else agents
    bots, names = seat_bots(game, agents, state.players, agent_seed)
    play_steps(state, bots, seed=seed, progress=progress, desc=desc or f"{game.name} seed {seed}", cap=cap, what=what)
    return state, names


def play_game(game, *, players: int, seed: int = 0, agents=None, agent_seed: int | None = None,
              log: bool = False, progress: bool = False, cap: int | None = None, **options):
    """Start a game of ``game`` (a :class:`~haunted_kit.protocol.Game` or its short name)
    with ``game.new_game(players=players, seed=seed, log=log, **options)`` (``log`` only
    when the game's ``new_game`` names it: :func:`haunted_kit.games.start_game`) and play it to
    the end with :func:`play_out`.

    Args:
        players: the number of players.
        seed: the game's seed (:func:`~haunted_kit.protocol.check_seed`: signed 64 bits).
        agents, agent_seed, progress, cap: as :func:`play_out`.
        log: keep the game's event log (some games always keep it).
        options: the game's own ``new_game`` keywords (``mode``, ``box``, ``rounds``...).

    Returns:
        ``(state, names)``: the terminal state and each seat's agent name.

    Raises:
        ValueError: the game's configuration error for a bad seed or option (named by the
            game, before anything is played), an unknown game (UnknownGame) or agent spec
            (BotSpecError).
        DecisionCapReached (a RuntimeError): the game did not end within the cap.
    """
    game = get_game(game) if isinstance(game, str) else game
    state = start_game(game, players=players, seed=seed, log=log, **options)
    return play_out(state, agents, seed=seed, agent_seed=agent_seed, game=game, progress=progress, cap=cap)
