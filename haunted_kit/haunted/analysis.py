"""Tables for the teaching notebooks and the strategy lab.

Everything here reads the engine's public state and its explained events; nothing
decides a rule. The tables are pandas DataFrames with a stable row and column order,
so a notebook that shows them gives the same text on every run.

* :func:`players_frame`, :func:`supply_frame` - a position at a glance;
* :func:`attempts` - try actions on a copy and show what the engine says (legal, or the
  refusal with its rulebook section);
* :func:`events_frame` - the event log, trimmed for reading;
* :func:`valor_events`, :func:`valor_sources` - where each player's valor came from;
* :func:`valor_sources_many` - the same over many seeded, logged games;
* board pictures: :func:`haunted_kit.haunted.draw.board` (this module sits below the renderer);
* :func:`side_by_side` - two or more board pictures or panels next to each other (HTML).

Valor sources (rulebook: "Valor Points and the Valor Track", "Final Scoring"):

====================  ==========================================================
``buildings``         valor printed on a building, and skill 11's extra point
``skills``            the marker slot taken when learning a skill
``tracks``            filling the last slot of an action track by training
``contact``           skill 1's point per contact, and valor rewards of the bonus card
``quests``            quest cards revealed at final scoring
====================  ==========================================================
"""

from __future__ import annotations

import re
from html import escape

from ..play import play_steps
from .flow import TerrainDie
from .sim import extra_ghost_cards_text, play_game
from .state import GameConfig
from ..progress import progress as bar
from ..render.svg import BoardSVG, readable_html


class AnalysisError(ValueError):
    """The input cannot give a true answer (for example a game played without its
    event log); the message says why and what to do instead."""


def _require_log(state, what: str) -> list:
    """The event log of ``state``; raises :class:`AnalysisError` when the game was
    played without one (``play_game(..., log=True)``, ``GameConfig(log=True)``)."""
    if state.log is None:
        raise AnalysisError(f"{what} needs the event log, but this game was played without one "
                            "(play it again with play_game(..., log=True) or hk.new_game(..., log=True))")
    return state.log


#: Coarse valor sources, in display order.
VALOR_SOURCES = ("buildings", "skills", "tracks", "contact", "quests")

_VALOR_TEXT = re.compile(r"gains (\d+) valor for (.+), now at (\d+)\.$")


def valor_reason(text: str) -> tuple[str, str]:
    """``(source, detail)`` for the reason of one ``valor`` event's text.

    ``source`` is one of :data:`VALOR_SOURCES` (or ``"other"``); ``detail`` is a finer
    label such as ``"building a mine"``, ``"skill 11"`` or ``"quest 3"``.
    """
    m = _VALOR_TEXT.search(text)
    why = m.group(2) if m else text  # a whole event sentence, or just its reason
    if why.startswith("building a"):
        return "buildings", why
    if why == "skill 11":
        return "buildings", "skill 11 (per building)"
    if why.startswith("marker slot"):
        return "skills", re.sub(r" of skill \d+$", "", why)
    if why.startswith("filling the"):
        return "tracks", why
    if why == "skill 1":
        return "contact", "skill 1 (per contact)"
    if why.startswith("bonus reward"):
        return "contact", "bonus reward"
    if why.startswith("quest"):
        return "quests", why
    return "other", why


def valor_events(state):
    """Every valor gain of a logged game: seq, season, round, player, amount, source,
    detail, text.

    Raises:
        AnalysisError: the game was played without an event log.
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    for e in _require_log(state, "valor_events"):
        if e.kind != "valor":
            continue
        source, detail = valor_reason(e.data.get("why", e.text))
        source = e.data.get("source", source)  # the engine records the source; older logs only have text
        rows.append({"seq": e.seq, "season": e.season, "round": e.round, "player": f"P{e.player + 1}",
                     "amount": e.data.get("amount", 0), "source": source, "detail": detail, "text": e.text})
    return pd.DataFrame(rows, columns=["seq", "season", "round", "player", "amount", "source", "detail", "text"])


def valor_sources(state):
    """Valor per player (rows P1..) and source (columns :data:`VALOR_SOURCES`), with a
    ``total`` column equal to the player's valor.

    Raises:
        AnalysisError: the game was played without an event log, or its log does not
            explain all of a player's valor (a position edited by hand, e.g. with
            :func:`haunted_kit.haunted.scenario.set_valor`); the message names the players and
            the gap, so no table ever shows a total that differs from the valor track.
    """
    ev = valor_events(state)
    players = [f"P{p + 1}" for p in range(state.config.players)]
    table = ev.pivot_table(index="player", columns="source", values="amount", aggfunc="sum", fill_value=0)
    cols = list(VALOR_SOURCES) + [c for c in table.columns if c not in VALOR_SOURCES]
    table = table.reindex(index=players, columns=cols, fill_value=0).fillna(0).astype(int)
    table["total"] = table.sum(axis=1)
    table.columns.name = None
    gaps = [f"P{p + 1} holds {state.valor[p]} but the log explains {table['total'].iloc[p]}"
            for p in range(state.config.players) if table["total"].iloc[p] != state.valor[p]]
    if gaps:
        raise AnalysisError("the event log does not explain all valor (" + "; ".join(gaps) + "): "
                            "the position was edited outside the rules, or the log was started late")
    return table


def valor_sources_many(games: int, *, players: int = 4, mode: str = "wanderer", agents=("greedy",),
                       extra_ghost_cards=(), first_seed: int = 0, progress: bool = False):
    """Play ``games`` seeded games with the event log on and return one row per
    player per game: seed, mode, players, ``extra_ghost_cards`` (``"2,3"``, ``""`` for
    none), ``ghost_card_count`` (cards in play, the mode's included), player, agent,
    won, lost, then the valor of each source and the total (the same names as
    :func:`haunted_kit.haunted.sim.play_many`).

    A collective loss still counts the valor gained before Kalena fell (no quests are
    scored then).
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it


    seeds = range(first_seed, first_seed + games)
    if progress:
        seeds = bar(seeds, desc=f"logged {players}p {mode}")
    frames = []
    for seed in seeds:
        cfg = GameConfig(players=players, mode=mode, extra_ghost_cards=tuple(extra_ghost_cards), seed=seed)
        res = play_game(cfg, agents, log=True)
        t = valor_sources(res.state).reset_index(names="player")
        t.insert(0, "seed", seed)
        t.insert(1, "mode", mode)
        t.insert(2, "players", players)
        t.insert(3, "extra_ghost_cards", extra_ghost_cards_text(cfg))
        t.insert(4, "ghost_card_count", len(cfg.ghost_cards))
        t.insert(6, "agent", res.agents)
        t.insert(7, "won", [res.winner == p for p in range(players)])
        t.insert(8, "lost", res.lost)
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------- positions

def players_frame(state):
    """One row per player: valor, resources, pecunias, active/owned tokens per track,
    skills learned, quests held (count), sensor cell, turn position."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    for p in range(state.config.players):
        row = {"player": f"P{p + 1}", "valor": state.valor[p]}
        row.update(state.resources(p))
        row["pecunias"] = state.pecunias(p)
        for name, (owned, active) in state.token_counts(p).items():
            row[name] = f"{active}/{owned}"
        row["skills"] = ", ".join(str(k) for k in state.skills_known(p)) or "-"
        row["quests"] = len(state.quests[p])
        row["sensor"] = str(state.field.cells[state.sensor[p]]) if state.field is not None else "-"
        row["turn"] = state.turn_order.index(p) + 1 if p in state.turn_order else None
        rows.append(row)
    return pd.DataFrame(rows).set_index("player")


def supply_frame(state):
    """The general supply and the field side by side: ghosts, buildings, resources and
    depletion tokens (rulebook: "General supply")."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    box = state.config.box
    rows = [{"component": "ghost", "in supply": state.sup_ghosts, "on the field / with players": sum(state.ghosts)}]
    for b, name in enumerate(box.buildings):
        rows.append({"component": name, "in supply": state.sup_build[b],
                     "on the field / with players": sum(1 for x in state.building if x == b)})
    for r, name in enumerate(box.resources):
        rows.append({"component": name, "in supply": state.sup_res[r],
                     "on the field / with players": sum(state.resource(p, r) for p in range(state.config.players))})
    rows.append({"component": "depletion token", "in supply": state.sup_depl,
                 "on the field / with players": sum(state.depleted)})
    return pd.DataFrame(rows).set_index("component")


def attempts(state, actions):
    """Ask the engine about each action in ``actions`` for the player to move, without
    changing ``state``: one row per action with ``legal`` and, for an illegal one, the
    engine's reason and the rulebook section it names."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    for a in actions:
        r = state.why_not(a)
        rows.append({"action": a.describe() if hasattr(a, "describe") else repr(a), "legal": r is None,
                     "reason": "" if r is None else r.text, "rulebook section": "" if r is None else r.section})
    return pd.DataFrame(rows)


def events_frame(state, since: int = 0, kinds=None, viewer=None):
    """The event log from sequence number ``since`` on, as seq/phase/kind/player/text
    (the ``data`` and ``cell`` columns dropped for reading); ``kinds`` keeps only those
    kinds. Players show as P1..; events without a player show ``-``.

    Raises:
        AnalysisError: the game was played without an event log.
    """
    _require_log(state, "events_frame")
    ev = state.events(viewer)
    ev = ev[ev.seq >= since]
    if kinds is not None:
        ev = ev[ev.kind.isin(list(kinds))]
    out = ev[["seq", "phase", "kind", "player", "text"]].copy()
    out["player"] = out["player"].fillna("-")
    return out.set_index("seq")


def last_seq(state) -> int:
    """The sequence number the next event will get (use with :func:`events_frame`)."""
    return len(state.log or [])


# --------------------------------------------------------------------------- pictures

class HTML:
    """A small HTML fragment that Jupyter displays (``_repr_html_``)."""

    def __init__(self, text: str, label: str = "HTML"):
        self.data = text
        self.label = label

    def _repr_html_(self) -> str:
        return self.data

    def __repr__(self) -> str:
        return f"<{self.label}>"

    def __str__(self) -> str:
        return self.data


def side_by_side(*pictures, captions=()) -> HTML:
    """Show pictures in one row where they fit (else one under the other), each with its
    caption above it: board pictures and HTML fragments (objects with ``_repr_html_``: a
    board shown never under 12 px text, :func:`haunted_kit.render.svg.readable_html`; the
    panels of :mod:`haunted_kit.haunted.draw.html` wrapped in :class:`HTML`) or HTML text.
    Each stays inside the output area: a drawing wider than it pans in its own box."""
    cells = []
    for i, pic in enumerate(pictures):
        cap = captions[i] if i < len(captions) else ""
        if isinstance(pic, BoardSVG) and cap:  # its caption in its accessible name too
            body = readable_html(pic.data, f"{cap}: {pic.title}")
        else:
            body = pic._repr_html_() if hasattr(pic, "_repr_html_") else str(pic)
        cells.append('<div style="display:inline-block;vertical-align:top;padding-right:12px;box-sizing:border-box;max-width:100%">'
                     f'<div style="font-weight:bold;margin-bottom:4px">{escape(cap)}</div>{body}</div>')
    label = "side by side: " + " | ".join(captions) if captions else f"{len(pictures)} pictures side by side"
    return HTML('<div class="hk-side-by-side">' + "".join(cells) + "</div>", label)


# --------------------------------------------------------------------------- stepping a game

def play_until(state, agents, stop=None, max_steps: int = 100_000) -> int:
    """Play ``state`` on in place with ``agents`` (one agent object per player) until
    ``stop(state)`` is true or the game is over; returns the number of steps taken.

    Works with ``auto_chance=False`` too: a waiting chance node is resolved with the
    game's seeded draw (:func:`haunted_kit.haunted.engine.sample_chance`, through the
    kit's loop :func:`haunted_kit.play.play_steps`), exactly as
    ``auto_chance`` would, so the game is the same either way. ``stop`` is checked
    before every step, so a game started with ``auto_chance=False`` can be halted at
    a chance node (e.g. the terrain die of a given round).
    """
    return play_steps(state, agents, seed=state.config.seed, stop=stop, max_steps=max_steps)


def at_terrain_die(season: int, round: int):
    """A ``stop`` test for :func:`play_until`: the terrain die of ``round`` of
    ``season`` is waiting (needs ``auto_chance=False``)."""
    return lambda s: isinstance(s.chance, TerrainDie) and (s.season, s.round) == (season, round)
