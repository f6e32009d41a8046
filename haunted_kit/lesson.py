"""The classroom lesson around a game, for every registered game (the kit never names
one): how long a table waits for whom, the whole game log, the results screen and the
class's results as CSV, the replay of a finished table with the game review's turning
points. The server (:mod:`haunted_kit.server`) serves these; each reads only the store's
record (:mod:`haunted_kit.store`) and the game's declarations and hooks:

* ``seat_results(state)`` (else :func:`haunted_kit.protocol.results_by_score` of
  ``returns()``): the ranking and scores, as the game itself scores them;
* ``score_parts(state)``: each player's score by source (absent: the score alone);
* ``score_name``: what the score is in words;
* the game's visibility (:func:`haunted_kit.visibility.seen_events`): the whole log as
  a viewer may see it;
* ``start_of`` and ``determinise`` (:func:`haunted_kit.review.review`): the turning points.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timezone
from html import escape

from .protocol import results_by_score
from .review import review
from .search import hints as search_hints
from .store import start_position, table_box
from .tableview import sentence_log_html
from .visibility import PUBLIC, seen_events

#: the playouts of the replay's turning points (a class waits for them: a quick look, not a full review)
REPLAY_PLAYOUTS = 8
#: the playouts of a seat's "Suggest a move" (a second or so of a worker's time)
HINT_PLAYOUTS = 300
#: the CSV's columns, in order (one row per seat per table); ``score_unit``: what the row's
#: ``score`` counts, the game's declared ``score_name`` ("valor", "gold value"; "score" for a
#: game that declares none), since one class's CSV mixes games; after them one
#: ``points: SOURCE`` column per score source any row has (:func:`csv_text`)
CSV_COLUMNS = ("table", "table_name", "game", "date", "seed", "finished", "seat", "player", "name", "bot", "rank",
               "won", "score", "score_unit", "decisions", "human_decisions", "bot_decisions", "bots_played",
               "takebacks", "hints")


def duration_words(seconds) -> str:
    """``seconds`` (a number >= 0) in words for a page: ``"45 s"``, ``"2 min 05 s"``, ``"1 h 03 min"``."""
    s = max(0, int(seconds or 0))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def last_activity(store, table) -> float | None:
    """When ``table`` last changed (its record's last row), else when it was created;
    seconds since the epoch."""
    last, _ = store.last_times(table.id)
    return last if last is not None else store.created(table.id)


def seat_idle(store, table) -> list[float | None]:
    """Per seat, when it last decided (seconds since the epoch), else when the table was created."""
    created = store.created(table.id)
    _, by_seat = store.last_times(table.id)
    return [by_seat.get(s.seat) or created for s in table.seats]


def waiting(store, table) -> dict | None:
    """Whom ``table`` waits for: ``{"seat", "label", "bot", "since"}`` (``since``: seconds
    since the epoch, the table's last change), or None when the game is over or nobody is to move."""
    p = table.state.current_player()
    if table.state.is_terminal() or p is None or not 0 <= p < len(table.seats):
        return None
    seat = table.seats[p]
    return {"seat": p, "label": seat.label, "bot": seat.agent is not None, "since": last_activity(store, table)}


def full_log_html(table, viewer: int | None, record: list | None = None) -> str:
    """The table's whole event log as ``viewer`` may see it (a seat, or None / a negative
    number: the public side), every event from the first, oldest first, in a box the
    page scrolls, headed by who is who (each seat's label with its name, escaped).
    ``record`` (the store's :meth:`~haunted_kit.store.GameStore.record` of the table):
    its take-backs and the teacher's rollbacks written at their place (:func:`record_notes`)."""
    log = getattr(table.state, "log", None) or []
    events = seen_events(table.game, log, viewer if viewer is not None and viewer >= 0 else -1)
    who = " · ".join(escape(s.label) for s in table.seats)
    notes = {}
    if record:
        ends = log_ends(table)
        for k, text in record_notes(table, record):
            notes.setdefault(min(ends[k], len(events)), []).append(text)
    return f'<div class="hk-log-names"><b>Players:</b> {who}</div>' + sentence_log_html(events, last=0, notes=notes)


def record_notes(table, record: list) -> list[tuple[int, str]]:
    """The take-backs and rollbacks of ``record`` (the store's rows, oldest first), each
    ``(k, sentence)``: ``k`` the decisions in effect now that came before it (its place in
    the game as it stands), in the order they happened."""
    kept = [q for q, _p, _a in table.applied]  # the seq of each decision in effect now
    stack, out = [], []
    for row in record:
        if row["kind"] != "rollback":
            stack.append(row["seq"])
            continue
        to, was = int(row["target"]), len(stack)
        stack = stack[:to]
        place = next((i for i, (a, b) in enumerate(zip(stack, kept)) if a != b), min(len(stack), len(kept)))
        p = row["player"]
        if p is not None:
            text = f"P{p + 1} took back decision {was}; the game went back to decision {to}."
        else:
            text = (f"The teacher took the game back to decision {to}: decisions {to + 1} to {was} were set aside "
                    "(what follows was decided again).")
        out.append((place, text))
    return out


def log_ends(table) -> list[int]:
    """The length of the table's event log after each of its decisions in effect
    (entry ``k``: after ``k`` decisions, ``0`` the start), replayed from the seed."""
    s = start_position(table.game, table.config, table.box)
    ends = [len(getattr(s, "log", None) or [])]
    for _seq, _p, action in table.applied:
        s.apply_action(action)
        ends.append(len(getattr(s, "log", None) or []))
    return ends


def results(store, table) -> dict:
    """The results of ``table``: ``{"over", "score_name", "sources", "rows", "collective_loss"}``
    (``collective_loss``: the game says every player lost together); ``rows`` per
    seat in seat order: ``seat``, ``label``, ``name``, ``bot`` (agent or None), ``rank``,
    ``won``, ``score`` (the game's ``seat_results``, else ranked ``returns()``; None while
    the game is not over), ``parts`` (source -> points from the game's ``score_parts``, or
    {}), ``decisions`` (the seat's decisions in effect), ``human_decisions`` and
    ``bot_decisions`` (of those, made by a student and by a bot: a seat handed over midway
    has both, :meth:`~haunted_kit.store.GameStore.agent_history`; ``bot``: the seat's agent
    as the table was made, None for a student's; ``bots_played``: the agents that decided
    for it), ``takebacks`` (its own
    decisions it took back) and ``hints`` (the moves it asked the server to suggest,
    :meth:`haunted_kit.store.GameStore.hints_asked`)."""
    game, state = table.game, table.state
    over = bool(state.is_terminal())
    n = len(table.seats)
    ranked = parts = None
    if over:
        hook = getattr(game, "seat_results", None)
        ranked = hook(state) if hook is not None else results_by_score(state.returns())
        parts_hook = getattr(game, "score_parts", None)
        parts = parts_hook(state) if parts_hook is not None else None
    decisions, by_bot = [0] * n, [0] * n
    hands = [store.agent_history(table.id, s.seat) for s in table.seats]
    bots_played = [[] for _ in range(n)]
    for seq, p, _a in table.applied:
        decisions[p] += 1
        agent = next((a for after, a in reversed(hands[p]) if after < seq), hands[p][0][1])
        if agent is not None:
            by_bot[p] += 1
            if agent not in bots_played[p]:
                bots_played[p].append(agent)
    takebacks = [0] * n
    for row in store.record(table.id):
        if row["kind"] == "rollback" and row["player"] is not None and 0 <= row["player"] < n:
            takebacks[row["player"]] += 1
    asked = store.hints_asked(table.id)
    rows = []
    for s in table.seats:
        r = ranked[s.seat] if ranked else {}
        rows.append({"seat": s.seat, "label": s.label, "name": s.name, "bot": hands[s.seat][0][1],
                     "bots_played": bots_played[s.seat], "human_decisions": decisions[s.seat] - by_bot[s.seat],
                     "bot_decisions": by_bot[s.seat], "rank": r.get("rank"), "won": r.get("won"), "score": r.get("score"),
                     "parts": dict(parts[s.seat]) if parts else {}, "decisions": decisions[s.seat],
                     "takebacks": takebacks[s.seat], "hints": asked.get(s.seat, 0)})
    sources = list(dict.fromkeys(k for r in rows for k in r["parts"]))  # every player's sources: they may differ
    lost = bool(ranked) and all(r.get("collective_loss") for r in ranked)  # every player lost together (the game says)
    return {"over": over, "score_name": getattr(game, "score_name", "score"), "sources": sources, "rows": rows,
            "collective_loss": lost}


def _number(v) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return "" if v is None else str(v)


def results_html(res: dict) -> str:
    """The results screen of :func:`results` as an HTML table (every name escaped), best rank
    first; each cell's ``data-label`` is its column's name (a phone's page stacks the cells)."""
    if not res["over"]:
        return ""
    rows = sorted(res["rows"], key=lambda r: (r["rank"] if r["rank"] is not None else 1e9, r["seat"]))
    names = ("rank", "player", str(res["score_name"]),
             *(f"{k} ({res['score_name']})" for k in res["sources"]),  # each source says what it counts
             "decisions", "take-backs", "hints asked")
    parts = range(3, 3 + len(res["sources"]))  # the score's parts: class hk-part (the projector leaves them to the ranking)

    def cls(i):
        return ' class="hk-part"' if i in parts else ""

    head = "".join(f"<th scope=\"col\"{cls(i)}>{escape(h)}</th>" for i, h in enumerate(names))
    body = []
    for r in rows:
        who = escape(r["label"]) + (f" ({escape(r['bot'])} bot)" if r["bot"] else "")
        made = str(r["decisions"])
        if r["bot_decisions"] and r["human_decisions"]:  # a seat handed over midway: who made which
            made += (f" ({r['human_decisions']} by {'the student' if r['bot'] is None else 'a person'}, "
                     f"{r['bot_decisions']} by the {' / '.join(r['bots_played'])} bot)")
        cells = [_number(r["rank"]) + (" (won)" if r["won"] else ""), who, _number(r["score"]),
                 *(_number(r["parts"].get(k, 0)) for k in res["sources"]), made, str(r["takebacks"]),
                 str(r["hints"])]
        # each cell carries its column's name: a phone stacks a row's cells, each labelled (the page's CSS)
        body.append("<tr>" + "".join(f'<td{cls(i)} data-label="{escape(names[i])}">{c if i == 1 else escape(c)}</td>'
                                     for i, c in enumerate(cells)) + "</tr>")
    caption = "Results: a collective loss, every player lost" if res.get("collective_loss") else "Results"
    # in a box of its own that scrolls sideways if it must (focusable: the keyboard scrolls it); on a
    # phone the page stacks each row's cells under their column names, so nothing is wider than the screen
    return (f'<div class="hk-results-scroll" tabindex="0" role="region" aria-label="{caption}">'
            f'<table class="hk-results"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def _cell(value) -> str:
    """A CSV cell a spreadsheet reads as text: a cell starting ``=``, ``+``, ``-``, ``@``
    (a formula) gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_rows(store, tables) -> list[dict]:
    """One row per seat per table (:data:`CSV_COLUMNS`, ``date``: the day of the table's
    last change, UTC, ``YYYY-MM-DD``), with the students' names, and ``score_by_source``
    (source -> points, written by :func:`csv_text` as a column per source)."""
    out = []
    for t in tables:
        res = results(store, t)
        when = last_activity(store, t)
        day = datetime.fromtimestamp(when, timezone.utc).date().isoformat() if when is not None else ""
        for r in res["rows"]:
            out.append({"table": t.id, "table_name": t.name, "game": t.game.name, "date": day, "seed": t.config.get("seed"),
                        "finished": "yes" if res["over"] else "no", "seat": r["seat"] + 1, "player": f"P{r['seat'] + 1}",
                        "name": r["name"] or "", "bot": r["bot"] or "", "rank": r["rank"],
                        "won": "" if r["won"] is None else ("yes" if r["won"] else "no"), "score": _number(r["score"]),
                        "score_unit": str(res["score_name"]), "score_by_source": dict(r["parts"]),
                        "decisions": r["decisions"], "human_decisions": r["human_decisions"],
                        "bot_decisions": r["bot_decisions"], "bots_played": " ".join(r["bots_played"]),
                        "takebacks": r["takebacks"], "hints": r["hints"]})
    return out


#: the CSV download's encoding: UTF-8 with a byte-order mark, which Excel on Windows needs to
#: read the names as UTF-8 (without it "Chloé" shows as "ChloÃ©"); Python reads it back with ``utf-8-sig``
CSV_ENCODING = "utf-8-sig"


def csv_text(rows: list[dict]) -> str:
    """:func:`csv_rows` as CSV text: a header line (:data:`CSV_COLUMNS`, then ``points:
    SOURCE`` for every score source of any row, in order met), then a row per seat per
    table (a source a row's game or player lacks: empty for another game, 0 for a
    player of a game that has it). Text: the server sends it encoded ``utf-8-sig``
    (:data:`CSV_ENCODING`), so a spreadsheet reads "Chloé" as written."""
    sources = list(dict.fromkeys(k for r in rows for k in r["score_by_source"]))
    of_game = {}
    for r in rows:
        of_game.setdefault(r["game"], set()).update(r["score_by_source"])
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([*CSV_COLUMNS, *(_cell(f"points: {k}") for k in sources)])
    for r in rows:
        points = [_number(r["score_by_source"].get(k, 0)) if k in of_game[r["game"]] and r["finished"] == "yes" else ""
                  for k in sources]
        w.writerow([_cell(r[c]) if c in ("name", "table_name", "score_unit") else ("" if r[c] is None else r[c]) for c in CSV_COLUMNS]
                   + points)
    return out.getvalue()


def with_names(text: str, names: list, style: str = "{p} {name}") -> str:
    """``text`` with every player mark ``P<n>`` followed by that seat's name, in ``style``
    (``"{p} {name}"``: ``"P3 to move."`` -> ``"P3 Chloé to move."``; ``"{p} ({name})"``);
    ``names[n - 1]`` empty or None, or a mark past the seats: the mark stays as it is. One
    pass, so a name holding a mark is never named again."""
    def one(m):
        n = int(m.group(1))
        name = names[n - 1] if 0 < n <= len(names) else None
        return style.format(p=m.group(0), name=name) if name else m.group(0)

    return re.sub(r"\bP(\d+)\b", one, text)


def turning_points(game, config: dict, box_path, record: list, names: list[str]) -> list[dict]:
    """The game review's turning points of a table (:func:`haunted_kit.review.review`, a
    quick look of :data:`REPLAY_PLAYOUTS` playouts), rebuilt from its record (run in a
    worker process): ``{"number", "player", "text", "detail"}`` each, in game order:
    ``text`` the swing in words a class reads (:meth:`~haunted_kit.review.TurningPoint.plain`:
    a chance of winning in per cent), ``detail`` the change with its 95% interval and
    playouts, both with the seats' labels (``"P1 (Ana)"``); [] for a game the review cannot read."""
    box, _ = table_box(game, box_path)
    s = start_position(game, config, box)
    for a in record:
        s.apply_action(game.action_from_dict(a))
    try:
        rev = review(s, playouts=REPLAY_PLAYOUTS, progress=False, game=game, top=1, candidates=1,
                     viewer=PUBLIC)  # a class's replay: no seat's hidden decision
    except ValueError:  # MissingHook, ReviewError: no review for this game
        return []

    def named(text):
        return with_names(text, names, "{p} ({name})")

    return [{"number": tp.number, "player": tp.player, "text": named(tp.plain(rev.win_loss)), "detail": tp.detail()}
            for tp in sorted(rev.turning_points, key=lambda tp: tp.number)]  # in game order, as the replay steps


def hint_texts(game, config: dict, box_path, record: list, player: int) -> list[str]:
    """The search's top three moves for ``player`` (to move after ``record``) as sentences
    (:func:`haunted_kit.search.hints`: it reads only what the player may see), rebuilt
    from the table's record (run in a worker process); [] for a game without the hook."""
    box, _ = table_box(game, box_path)
    s = start_position(game, config, box)
    for a in record:
        s.apply_action(game.action_from_dict(a))
    try:
        found = search_hints(s, player=player, playouts=HINT_PLAYOUTS, top=3, seed=len(record), game=game)
    except ValueError:  # MissingHook: a game without determinise
        return []
    return [h.sentence for h in found]
