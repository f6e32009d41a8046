"""The event vocabulary: every state change is recorded as an :class:`Event`.

Each event has a ``kind`` (see :data:`EVENT_KINDS`), the season/round/phase it happened
in, the player concerned (or ``None``), the cell concerned (axial, or ``None``), a small
``data`` dict and a one-sentence ``text`` explaining it in plain words with the rule
section. Who may see an event is declared once per game, by its kind
(:mod:`haunted_kit.visibility`); ``private`` marks an event that is not for everyone's
eyes (an engine's hidden event, or a copy redacted for a viewer).

The log is a plain list of events; :func:`log_to_frame` turns it into a pandas
DataFrame (one row per event); :meth:`haunted_kit.visibility.Visibility.frame` does so
as a viewer may see it.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from .hexgrid import name_cells
from .saves import copy_tree
from .frames import nullable

#: a kit ruling as the engines cite it (``ruling 32``, ``rulings 1 and 8``, ``ruling E9``)
_RULING = re.compile(r"(?<!kit )\b(rulings? [EL]?\d+(?:(?:, | and )[EL]?\d+)*)")


#: a kit ruling cited with the repository's path to the rulings (``kit ruling E3, docs/RULINGS.md``,
#: ``kit ruling 32 (docs/RULINGS.md)``): a file a player's page cannot open
_CITED_PATH = re.compile(r"(kit rulings? [EL]?\d+(?:(?:, | and )[EL]?\d+)*)(?:, docs/RULINGS\.md| \(docs/RULINGS\.md\))")


def cite_rulings(text: str) -> str:
    """``text`` with every kit ruling cited as the kit's (``ruling 32`` -> ``kit ruling 32``,
    ``(ruling E9)`` -> ``(kit ruling E9)``, ``(one visit a season: ruling E10)`` -> ``(one visit
    a season: kit ruling E10)``): the rulings are the kit's readings where the rule texts are
    silent, not the rulebook's. Never a file's path: a citation written with the repository's
    (``kit ruling E3, docs/RULINGS.md``) loses it, since no page can open it; the ruling's own
    words open on demand where the text is shown (:func:`rulings_html`, :func:`rulings_words`)."""
    return _RULING.sub(r"kit \1", _CITED_PATH.sub(r"\1", text))


#: the kit's rulings, one table row each (``| E3 | question | reading | where | switch |``)
RULINGS_FILES = (Path(__file__).resolve().parent / "_docs" / "RULINGS.md",  # an installed wheel's copy
                 Path(__file__).resolve().parents[1] / "docs" / "RULINGS.md")  # a source checkout
_RULING_ROW = re.compile(r"^\| ([EL]?\d+) \| ([^|]+?) \| ([^|]+?) \|", re.M)
_RULING_CITED = re.compile(r"\b[Rr]ulings? ((?:[EL]?\d+)(?:(?:, | and )[EL]?\d+)*)")


@functools.lru_cache(maxsize=1)
def kit_rulings() -> dict:
    """``{id: (question, reading)}`` of every kit ruling (``"E3"``, ``"32"``, ``"L12"``) as
    ``docs/RULINGS.md`` words it, markdown marks removed; ``{}`` when neither copy is there
    (the wheel carries one as ``haunted_kit/_docs/RULINGS.md``; without it a citation stays a citation)."""
    for path in RULINGS_FILES:
        try:
            text = path.read_text(encoding="utf-8")
            break
        except OSError:
            continue
    else:
        return {}
    return {m[1]: (m[2].strip().replace("`", ""), m[3].strip().replace("`", "")) for m in _RULING_ROW.finditer(text)}


def cited_rulings(text: str) -> list:
    """The kit rulings ``text`` cites (``ruling 32``, ``rulings E18, E19``, ``kit ruling L9``),
    in order, each once, as ``(id, question, reading)``; a ruling the table lacks is left out."""
    if not text or ("uling" not in text):  # the common case, a text citing none, without the regex
        return []
    known, out = kit_rulings(), []
    for m in _RULING_CITED.finditer(text):
        for rid in re.findall(r"[EL]?\d+", m[1]):
            if rid in known and all(r[0] != rid for r in out):
                out.append((rid, *known[rid]))
    return out


def rulings_html(text: str) -> str:
    """HTML that opens, on demand, the short text of every kit ruling ``text`` cites: one
    ``<details class="hk-ruling">`` each (``"What kit ruling E3 says"``, then its question and
    reading), so a player reads the ruling itself instead of a file's path; ``""`` for none."""
    return "".join(f'<details class="hk-ruling" style="font:13px sans-serif;color:#222"><summary>What kit ruling '
                   f"{escape(rid)} says</summary><div><i>{escape(q)}</i> {escape(r)}</div></details>"
                   for rid, q, r in cited_rulings(text))


def rulings_words(text: str) -> str:
    """``text`` followed by the words of every kit ruling it cites, for a plain-text place
    (a tooltip): ``"... (ruling E11) Kit ruling E11 (Which are the three marked actions?):
    The two hire rows ..."``; ``text`` unchanged when it cites none."""
    said = " ".join(f"Kit ruling {rid} ({q}): {r}" for rid, q, r in cited_rulings(text))
    return f"{text} {said}" if said else text


def shown_text(text: str) -> str:
    """``text`` as every message line, exercise and page of the kit shows it: cells written
    the boards' one way (:func:`~haunted_kit.hexgrid.name_cells`: ``(0, 2)`` -> ``cell 0,2``,
    never a Python tuple) and kit rulings cited as the kit's (:func:`cite_rulings`)."""
    return cite_rulings(name_cells(text))


#: Every kind of event the engine emits, with what it means.
EVENT_KINDS = {
    "setup": "a setup step was carried out",
    "tile_drawn": "a region tile was placed on the field",
    "skill_drawn": "a skill card was put in play",
    "market_drawn": "the market card was put in play",
    "stack_placed": "a valor token was stacked at setup",
    "season_started": "a season began and its bonus card was placed",
    "round_started": "a round began",
    "terrain_die": "the terrain die was rolled for the spread",
    "ghost_placed": "a ghost was put on the field",
    "ghosts_short": "the ghost supply could not give all spread ghosts",
    "production": "a building produced resources",
    "production_blocked": "a building produced nothing",
    "nothing_produced": "production came and no building produced (none built, or all blocked)",
    "turn_started": "a player's turn began",
    "explored": "a sensor moved",
    "extracted": "a resource was extracted and a depletion token placed",
    "built": "a building was built",
    "contacted": "a ghost was contacted and removed",
    "bonus_die": "the bonus die was rolled",
    "bonus_reward": "a bonus reward was received",
    "sold": "resources were sold for pecunias",
    "trained": "a new action token was trained",
    "learned": "a skill was learned",
    "resource_gained": "a resource entered a personal supply",
    "resource_lost": "a resource could not be kept (cap or empty supply)",
    "valor": "a valor token moved",
    "tokens_restored": "action tokens were restored",
    "turn_ended": "a player's turn ended",
    "rest": "all action tokens were restored",
    "reorder": "turn order was set from the valor track",
    "depletion_cleared": "depletion tokens went back to the supply",
    "quest_choice": "the quest choices of a season end began",
    "quest_chosen": "a quest card was taken face down",
    "quest_revealed": "a quest card was revealed and scored",
    "game_over": "the game ended",
    "collective_loss": "Kalena fell and every player lost",
}


@dataclass(slots=True)
class Event:
    """One state change. ``text`` is a one-sentence explanation for people."""

    seq: int
    season: int
    round: int
    phase: str
    kind: str
    player: int | None
    text: str
    cell: tuple[int, int] | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    def to_dict(self) -> dict:
        """The event's JSON form: a new dict whose ``data`` is a copy (changing the
        result, e.g. a save's dict, never changes the event)."""
        return {
            "seq": self.seq, "season": self.season, "round": self.round, "phase": self.phase,
            "kind": self.kind, "player": self.player, "text": self.text,
            "cell": list(self.cell) if self.cell is not None else None,
            "data": copy_tree(self.data), "private": self.private,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        """An event from its JSON form (:meth:`to_dict`), as read from a save.

        Raises:
            ValueError: naming the field with the wrong shape (``seq``, ``season``,
                ``round`` and ``player`` whole numbers >= 0, ``player`` may be null; ``phase``,
                ``kind``, ``text`` strings; ``cell`` null or a pair of whole numbers; ``data`` an
                object of finite JSON values; ``private`` true or false).
        """
        if not isinstance(d, dict):
            raise ValueError(f"an event must be an object, got {type(d).__name__}")
        for k in ("seq", "season", "round", "phase", "kind", "player", "text"):
            if k not in d:
                raise ValueError(f"an event needs field {k!r}")

        def count(k, v, none=False):
            if (v is None and none) or (type(v) is int and v >= 0):
                return v
            raise ValueError(f"event field {k!r} must be a whole number >= 0{' or null' if none else ''}, got {v!r}")

        for k in ("phase", "kind", "text"):
            if not isinstance(d[k], str):
                raise ValueError(f"event field {k!r} must be a string, got {d[k]!r}")
        cell = d.get("cell")
        if cell is not None and not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise ValueError(f"event field 'cell' must be null or a pair of whole numbers, got {cell!r}")
        data = d.get("data") or {}
        try:
            if not isinstance(data, dict):
                raise ValueError
            json.dumps(data, allow_nan=False)
        except (ValueError, TypeError):
            raise ValueError(f"event field 'data' must be an object of finite JSON values, got {data!r}") from None
        private = d.get("private", False)
        if not isinstance(private, bool):
            raise ValueError(f"event field 'private' must be true or false, got {private!r}")
        return cls(count("seq", d["seq"]), count("season", d["season"]), count("round", d["round"]), d["phase"],
                   d["kind"], count("player", d["player"], none=True), d["text"],
                   tuple(cell) if cell is not None else None, dict(data), private)

    def when(self) -> str:
        """Where in the game this event happened, for people: ``"setup"`` before the
        first season, else ``"season 2, round 1, turns"`` (the phase in words, ``"season end"``)."""
        if self.season == 0:
            return "setup"
        return f"season {self.season}, round {self.round}, {self.phase.replace('_', ' ')}"


def log_to_frame(events):
    """The event log as a :class:`pandas.DataFrame`, the events as they are (a viewer's
    log: :meth:`haunted_kit.visibility.Visibility.frame`).

    Args:
        events: iterable of :class:`Event`.

    Returns:
        DataFrame with columns seq, season, round, phase, kind, player (1-based label
        ``"P1"``.. or ``None``), cell, text, data; one row per event.
    """
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    rows = []
    for e in events:
        rows.append({
            "seq": e.seq, "season": e.season, "round": e.round, "phase": e.phase, "kind": e.kind,
            "player": None if e.player is None else f"P{e.player + 1}",
            "cell": e.cell, "text": name_cells(e.text), "data": e.data,
        })

    return nullable(pd.DataFrame(rows, columns=["seq", "season", "round", "phase", "kind", "player", "cell", "text", "data"]))
