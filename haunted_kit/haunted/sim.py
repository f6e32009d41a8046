"""Play whole games with agents, one or many, and collect the results.

:func:`play_game` plays one game and returns a :class:`GameResult`;
:func:`play_many` plays a batch (with an optional progress bar) and returns a pandas
DataFrame, one row per player per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import rules as R
from .engine import GAME, new_game
from ..play import play_out
from .state import GameConfig, State
from ..progress import progress as bar


@dataclass
class GameResult:
    """The outcome of one game.

    Attributes:
        state: the final state (terminal).
        agents: agent name per player.
        decisions: decisions made by the agents.
        valor: final valor per player.
        quest_valor: valor each player gained from quests at final scoring.
        winner: winning player index, or ``None`` on a collective loss.
        lost: True when Kalena fell.
    """

    state: State
    agents: list[str]
    decisions: int
    valor: list[int]
    quest_valor: list[int]
    winner: int | None
    lost: bool
    quests: list[list[tuple[int, int]]] = field(default_factory=list)  #: per player (quest, valor)


def play_game(config: GameConfig | None = None, agents=("greedy",), *, log: bool = False, agent_seed: int | None = None,
              **kwargs) -> GameResult:
    """Play one full game (:func:`haunted_kit.play.play_out`, the kit's one play loop) and
    gather the Haunted Lands result.

    Args:
        config: game parameters (or GameConfig fields as keyword arguments).
        agents: agent specs (:func:`haunted_kit.bots.make_bot`: ``"greedy"``,
            ``"search[playouts=50]"``...) or agent objects, one per player; a shorter list repeats.
        log: keep the event log (slower).
        agent_seed: seed for the agents (defaults to the game seed); agent ``i`` gets
            ``agent_seed * 100 + i``.

    Returns:
        a :class:`GameResult`.
    """
    s = new_game(config, log=log, **kwargs)
    n = s.config.players
    _, names = play_out(s, agents, seed=s.config.seed, agent_seed=agent_seed, game=GAME)
    ctx = R.ctx_of(s)
    quests = [[(q, R.quest_score(s, ctx, p, q)[0]) for q in s.quests[p]] for p in range(n)]
    return GameResult(s, names, s.decisions, list(s.valor),
                      [sum(v for _, v in qs) if not s.lost else 0 for qs in quests], s.winner, s.lost, quests)


def extra_ghost_cards_text(config: GameConfig) -> str:
    """The ghost cards beyond the mode's as a dataset writes them: ``"2,3"``, ``""`` for none."""
    return ",".join(str(g) for g in config.extra_ghost_cards)


def play_many(games: int, *, players: int = 4, mode: str = "wanderer", agents=("greedy",), extra_ghost_cards=(),
              first_seed: int = 0, progress: bool = False, **config_kwargs):
    """Play ``games`` seeded games (seeds ``first_seed..first_seed+games-1``).

    Returns:
        pandas DataFrame with one row per player per game: seed, players, mode,
        ``extra_ghost_cards`` (the cards beyond the mode's, as ``"2,3"``; ``""`` for
        none, as in :mod:`haunted_kit.simulate` datasets), ``ghost_card_count`` (how
        many ghost cards are in play, the mode's included), seat (turn position at
        start, 1-based), player, agent, valor, quest_valor, won, lost,
        ``game_decisions`` (decisions of the whole game, every player's),
        ``buildings_owned`` and ``skills_learned`` (counts, at the end).
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    seeds = range(first_seed, first_seed + games)
    if progress:
        seeds = bar(seeds, desc=f"{players}p {mode}")
    for seed in seeds:
        cfg = GameConfig(players=players, mode=mode, extra_ghost_cards=tuple(extra_ghost_cards), seed=seed, **config_kwargs)
        start = new_game(cfg, log=False)
        seat = {p: i + 1 for i, p in enumerate(start.turn_order)}
        res = play_game(cfg, agents)
        s = res.state
        for p in range(players):
            rows.append({
                "seed": seed, "players": players, "mode": mode, "extra_ghost_cards": extra_ghost_cards_text(cfg),
                "ghost_card_count": len(cfg.ghost_cards),
                "seat": seat[p], "player": f"P{p + 1}", "agent": res.agents[p], "valor": res.valor[p],
                "quest_valor": res.quest_valor[p], "won": res.winner == p, "lost": res.lost,
                "game_decisions": res.decisions,
                "buildings_owned": sum(1 for c in range(len(s.building)) if s.building[c] >= 0 and s.owner[c] == p),
                "skills_learned": len(s.skills_known(p)),
            })
    return pd.DataFrame(rows)
