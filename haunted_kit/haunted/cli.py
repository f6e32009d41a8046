"""What ``haunted-kit`` needs from Haunted Lands beyond its Game object (found through
:func:`haunted_kit.games.game_module`): :func:`play_game` and :func:`summary` for
``play`` and ``replay``, :func:`check_settings` for the options only Haunted Lands has
(``--mode``, ``--ghost-cards``: the Game's ``options``), and the ``handout`` command (teacher copies are the kit's). The usage
checks every game shares, the box, saves and logs live in :mod:`haunted_kit.cli`."""

from __future__ import annotations


from ..handout import handout_command
from . import rules as R
from . import sim
from .state import ConfigError, GameConfig

__all__ = ["check_mode", "check_settings", "handout", "play_game", "summary"]

DEFAULT_MODE = "wanderer"


def check_mode(box, mode: str) -> str:
    """``mode`` when ``box`` has it; else ValueError ``argument --mode: invalid choice...``."""
    if mode not in box.modes:
        raise ValueError(f"argument --mode: invalid choice: {mode!r} (choose from {', '.join(box.modes)})")
    return mode


def make_config(box, *, players: int, seed: int, mode: str | None = None, extra_ghost_cards=()) -> GameConfig:
    """The :class:`GameConfig` of the command-line options (``mode`` None: wanderer).

    Raises:
        ValueError: a mode the box does not have (``argument --mode: invalid choice...``),
            or a :class:`ConfigError` (e.g. an unknown ghost card)."""
    mode = check_mode(box, mode or DEFAULT_MODE)
    return GameConfig(players=players, mode=mode, seed=seed, extra_ghost_cards=tuple(extra_ghost_cards), box=box)


def check_settings(box, *, players: int, seed: int, mode: str | None = None, extra_ghost_cards=()) -> None:
    """Raise ValueError (:func:`make_config`'s message) when the options make no game."""
    try:
        make_config(box, players=players, seed=seed, mode=mode, extra_ghost_cards=extra_ghost_cards)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


def play_game(players: int, seed: int, agents, *, box, log: bool = False, mode: str | None = None, extra_ghost_cards=()):
    """Play a seeded game with bots from the agent specs ``agents`` (one per seat,
    repeating); returns ``(terminal state, agent names)``. Raises ValueError for settings
    the box cannot play (:func:`make_config`)."""
    res = sim.play_game(make_config(box, players=players, seed=seed, mode=mode, extra_ghost_cards=extra_ghost_cards),
                        agents, log=log)
    return res.state, res.agents


def summary(state, names=None) -> str:
    """A readable summary of a finished (or running) game: each player's valor with the
    quests' share (rulebook "Valor Points and the Valor Stack"), the winner, or after a
    collective loss the valor gained before the fall; ``names``: the agents, one line."""
    ctx = R.ctx_of(state)
    lines = []
    cfg = state.config
    lines.append(f"Haunted Lands: {cfg.players} players, {cfg.mode} mode, ghost cards {', '.join(map(str, cfg.ghost_cards))}, seed {cfg.seed}")
    lines.append(f"Field: Kalena + region tiles {', '.join(state.layout)}; skills {', '.join(map(str, state.skills))}; market card {state.market}")
    if state.lost:
        # nobody ranks and no quest is scored: the valor is only what was gained before the fall
        lines.append(f"Collective loss: {state.over_reason}. Every player loses; no quest is revealed or scored.")
        for p in range(cfg.players):
            k = len(state.quests[p])
            lines.append(f"  P{p + 1}: {state.valor[p]:>3} valor gained before Kalena fell  "
                         f"({k} quest card{'s' if k != 1 else ''} never scored)")
        lines.append(f"Decisions: {state.decisions}")
    else:
        over = state.phase == "over"
        for rank, p in enumerate(R.stack_order(state), start=1):
            qs = [(q, R.quest_score(state, ctx, p, q)[0]) for q in state.quests[p]]
            qv = sum(v for _, v in qs)
            qtext = ", ".join(f"quest {q}: {v}" for q, v in qs) or "no quests"
            label = "quests" if over else "quests if scored now"
            lines.append(f"  {rank}. P{p + 1}: {state.valor[p]:>3} valor  ({label} {qv}: {qtext})")
        if state.winner is not None:
            tie = sum(1 for v in state.valor if v == state.valor[state.winner]) > 1
            lines.append(f"Winner: P{state.winner + 1}" + (" (tie broken by the valor stack)" if tie else ""))
        else:
            lines.append(f"Game still running: season {state.season}, round {state.round}, phase {state.phase}")
        lines.append(f"Decisions: {state.decisions}")
    if names:
        lines.append("Agents: " + ", ".join(f"P{i + 1} {a}" for i, a in enumerate(names)))
    return "\n".join(lines)


def handout(parser, args, box) -> int:
    """``haunted-kit handout``: the printable handout of ``box`` (HTML, and a PDF when
    Chromium is installed). Misuse is ``parser.error`` (exit 2); a failed write exit 1."""
    from .handout import find_chromium, handout_html  # lazy: only handout needs it

    try:
        check_mode(box, args.mode)
    except ValueError as exc:
        parser.error(str(exc))
    return handout_command(parser, args, lambda: handout_html(box, paper=args.paper, seed=args.seed,
                                                              players=args.players, mode=args.mode), find_chromium)
