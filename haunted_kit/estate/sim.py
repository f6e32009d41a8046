"""Play estate games with bots and report them.

:func:`play_game` plays one game; :func:`play_many` a batch into a pandas DataFrame;
:func:`summary` the text the CLI prints: each player's income, holdings, workers and
gold value (a kit measure: the module has no victory points).
"""

from __future__ import annotations

from .. import play
from .engine import GAME

MEASURE_NOTE = "gold value = gold + 3 per marble + 2 per glass + 1 per wood or limestone (a kit measure, not a rule)"


def play_game(players: int = 3, seed: int = 0, agents=("greedy",), *, log: bool = True, agent_seed: int | None = None,
              **options):
    """Play one game to the end (:func:`haunted_kit.play.play_game`, the kit's one play loop).

    Args:
        agents: agent specs (:func:`haunted_kit.bots.make_bot`) or agent objects, one per seat (a shorter list repeats); agent
            ``i`` is seeded ``agent_seed * 100 + i`` (``agent_seed`` defaults to ``seed``).
        options: :class:`~haunted_kit.estate.state.EstateConfig` fields.

    Returns:
        ``(state, agent names)``; the state is terminal.

    Raises:
        EstateConfigError (a ValueError): a bad parameter (named); BotSpecError: a bad agent spec.
    """
    return play.play_game(GAME, players=players, seed=seed, agents=agents, agent_seed=agent_seed, log=log, **options)


def holdings_frame(s):
    """One row per player: income per resource, holdings, workers by place, tiles,
    Market-condition tokens and gold value (kit measure)."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    for p in range(s.players):
        row = {"player": f"P{p + 1}"}
        row.update({f"income_{r}": v for r, v in s.income[p].items()})
        row.update(dict(s.hand[p]))
        row.update({f"workers_{k}": v for k, v in s.workers[p].items()})
        row["tiles"] = sum(1 for x in s.lands.values() if p in x["markers"])
        row["tokens"] = s.tokens[p]
        row["gold_value"] = s.gold_value(p)
        rows.append(row)
    return pd.DataFrame(rows).set_index("player")


def summary(s, agents=None) -> str:
    """The text summary of a game (finished or not)."""
    c = s.config
    lines = [f"Estate and Market: {c.players} players, seed {c.seed}, connection '{c.connection}', "
             f"marble field '{c.marble_field}', improvement '{c.improvement}'"]
    if s.is_terminal():
        lines.append(f"Game over after {s.box.seasons} seasons; {s.decisions} decisions")
    else:
        lines.append(f"Game running: season {s.season}, {s.phase}; {s.decisions} decisions so far")
    for p in range(s.players):
        inc = ", ".join(f"{v} {r}" for r, v in s.income[p].items())
        hold = ", ".join(f"{v} {r}" for r, v in s.hand[p].items())
        w = s.workers[p]
        tiles = sum(1 for x in s.lands.values() if p in x["markers"])
        who = f" ({agents[p]})" if agents else ""
        lines.append(f"  P{p + 1}{who}: income {inc} | holds {hold} | workers {w['supply']} supply, {w['factory']} Factory, "
                     f"{w['inn']} Inn | {tiles} land tiles, {s.tokens[p]} condition tokens | gold value {s.gold_value(p)}")
    lines.append(f"Note: {MEASURE_NOTE}.")
    return "\n".join(lines)


def play_many(games: int, *, players: int = 3, agents=("greedy",), first_seed: int = 0, progress: bool = False,
              **options):
    """Play ``games`` seeded games (seeds ``first_seed...``); one row per player per game:
    seed, player, agent, gold_value (kit measure), income per resource, ``tiles_marked``
    (land tiles holding the player's marker at the end, placed or joined),
    ``game_decisions`` (decisions of the whole game, every player's) and ``opening``
    (the player's first action, described)."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    seeds = range(first_seed, first_seed + games)
    if progress:
        from tqdm.auto import tqdm  # lazy: progress bars only when asked for

        seeds = tqdm(seeds, desc=f"estate {players}p", leave=False)
    rows = []
    for seed in seeds:
        s, names = play_game(players, seed, agents, log=False, **options)
        first = {}
        for e in s.history():
            if not e.chance and e.player not in first:
                first[e.player] = e.action
        for p in range(players):
            row = {"seed": seed, "player": f"P{p + 1}", "agent": names[p], "gold_value": s.gold_value(p),
                   "tiles_marked": sum(1 for x in s.lands.values() if p in x["markers"]),
                   "game_decisions": s.decisions,
                   "opening": first[p].describe() if p in first else ""}
            row.update({f"income_{r}": v for r, v in s.income[p].items()})
            rows.append(row)
    return pd.DataFrame(rows)
