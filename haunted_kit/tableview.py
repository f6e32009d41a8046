"""What every game's ``classroom`` module shares (the game side of the table server,
:mod:`haunted_kit.server`): reading the teacher's new-table form, and the pieces of a
page's view that do not depend on the game.

* The create form. A game's ``classroom`` module declares ``FORM``, a list of fields
  ``{"name", "label", "kind", "default", "help"}`` (``kind``: ``"choice"`` with
  ``"choices"``, the values the page sends, and ``"labels"``, value -> its words, which the
  dropdown and the settings lines show: a value that is a key of the game's data must have
  its words there; ``"int"`` / ``"ints"`` with optional ``"min"`` / ``"max"``, or
  ``"bool"``); :func:`choice_label` reads a choice's words; :func:`read_form` turns the page's values into checked Python values and
  refuses bad ones with a sentence naming the field. The server reads the fields every
  game shares (players, seed, house-rule box, bot seats) with the same function.
* The view. :func:`seat_roles` (whose choices a page lists and whose hidden cards it
  shows: a seat, or on a shared hot-seat screen the human to move once they revealed),
  :func:`legal_for`, :func:`mover_line` (the status line's "P2 (you) to move"), :func:`choice_entries` (the ``actions`` list of a view message:
  ``i`` the index into ``legal_actions()``, a sentence, and the board cell with its pixel
  centre when the action is played on one), :func:`sentence_log_html` (the last
  events, each the engine's own sentence with the player's colour chip) and
  :func:`help_html` (the help panel: the phase explained, what the page's seat can do now).
* The generic view. :func:`generic_table_view` serves a game that has no ``classroom``
  module of its own: its title, the observation as the page's seat may see it as nested
  tables (:func:`observation_html`; a shared screen shows the game's observation for
  :data:`PUBLIC` when it declares its visibility, else only what every seat's observation
  holds alike, :func:`common_view`), the declared log as sentences and the legal actions
  as buttons.

No game's rules here: each game says which of its actions name hidden cards, which are
played on a cell, and how a sentence reads.
"""

from __future__ import annotations

from html import escape

from .events import Event, rulings_html
from .protocol import describe_action, is_integer
from .render import style as S
from .visibility import PUBLIC  # the viewer of a shared screen (projector, hot seat): no player, every hidden card face down

__all__ = ["BOX_STYLE", "PUBLIC", "chip", "choice_entries", "choice_label", "common_view", "generic_table_view", "help_html", "legal_for",
           "mover_line", "observation_html", "read_form", "seat_roles", "seen_observation_and_log", "sentence_log_html"]

MAX_INTS = 20  #: the most numbers an ``"ints"`` field takes

#: the frame of a page's HTML parts (player boards, logs, panels)
BOX_STYLE = ("border:1px solid #999;border-radius:4px;padding:4px 6px;margin:2px 0;font-family:sans-serif;"
             "font-size:12px;line-height:1.35")


# ============================================================================ the create form
def choice_label(field: dict, value) -> str:
    """The words a ``"choice"`` field's ``value`` is shown with (its ``"labels"`` entry),
    else the value itself: ``choice_label(estate third_marked, "hire_two")`` -> ``"Hire 2
    workers"``."""
    return str((field.get("labels") or {}).get(value, value))


def _field_problem(field: dict, value):
    """``(value read, None)`` or ``(None, what is wrong)`` for one field of a form."""
    kind = field["kind"]
    if kind == "choice":
        if isinstance(value, str) and value in field["choices"]:
            return value, None
        return None, f"must be one of {', '.join(map(str, field['choices']))}"
    if kind == "bool":
        if isinstance(value, bool):
            return value, None
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "on", "off"):
            return value.strip().lower() in ("true", "yes", "on"), None
        return None, "must be yes or no"
    lo, hi = field.get("min"), field.get("max")
    span = (f" from {lo} to {hi}" if lo is not None and hi is not None else f" of at least {lo}" if lo is not None
            else f" of at most {hi}" if hi is not None else "")

    def number(v):
        if isinstance(v, str) and v.strip().lstrip("+-").isdigit() and len(v.strip()) <= 20:
            v = int(v.strip())
        if not is_integer(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
            return None
        return int(v)

    if kind == "int":
        n = number(value)
        return (n, None) if n is not None else (None, f"must be a whole number{span}")
    if kind == "ints":
        items = [x for x in value.split(",") if x.strip()] if isinstance(value, str) else value
        if isinstance(items, (list, tuple)) and len(items) <= MAX_INTS:
            nums = [number(x) for x in items]
            if all(n is not None for n in nums):
                return nums, None
        return None, f"must be at most {MAX_INTS} whole numbers{span}, separated by commas"
    raise ValueError(f"form field {field['name']!r} has an unknown kind {kind!r}")  # a game's FORM is wrong


def read_form(form, fields: list[dict], what: str) -> dict:
    """The values of ``form`` (a dict from the page) for ``fields`` (a game's ``FORM`` or the
    server's common fields), defaults filled in.

    Args:
        form: field name -> value as the page sent it: a string for a choice, a number (or
            its digits) for an int, a list of numbers (or ``"2, 3"``) for ints, true/false
            for a bool. A missing field takes its default.
        fields: the form's field descriptions (see the module doc).
        what: the form's name in messages (``"Landmarks & Architects"``).

    Returns:
        field name -> value (choice: str, int: int, ints: list of int, bool: bool).

    Raises:
        ValueError: a sentence naming the field and what it must be, e.g. ``"Rounds
        (rounds) must be a whole number from 1 to 1000, got 0."``; a field the form
        does not have is named with the ones it has.
    """
    if form is None:
        form = {}
    if not isinstance(form, dict):
        raise ValueError(f"The settings of {what} must be named values (field: value), got {type(form).__name__}.")
    names = [f["name"] for f in fields]
    for key in form:
        if key not in names:
            raise ValueError(f"{what} has no setting {str(key)[:40]!r} (its settings: {', '.join(names) or 'none'}).")
    out = {}
    for f in fields:
        value = form.get(f["name"], f["default"])
        got, problem = _field_problem(f, value)
        if problem is not None:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise ValueError(f"{f['label']} ({f['name']}) {problem}, got {shown}.")
        out[f["name"]] = got
    return out


# ============================================================================ the view
def legal_for(state, seat) -> list:
    """The legal actions of ``seat`` (a player index), empty when another seat (or chance)
    is to move, the game is over or ``seat`` is no player (None, :data:`PUBLIC`)."""
    if seat is None or seat < 0 or state.is_terminal() or state.current_player() != seat:
        return []
    return state.legal_actions()


def seat_roles(state, viewer: int, *, hot_seat: bool, revealed: bool, bots=()) -> tuple[int, int]:
    """``(acting, shown)`` for a page of ``viewer`` (a seat or :data:`PUBLIC`): ``acting`` is
    the seat whose choices the page lists (on a hot-seat screen the player to move unless
    a bot plays that seat; else ``viewer``), ``shown`` the seat whose hidden cards it
    shows (on a hot-seat screen only once ``revealed``; else ``viewer``), PUBLIC for none."""
    mover = state.current_player()
    acting = mover if (hot_seat and mover is not None and mover not in bots) else viewer
    shown = acting if (not hot_seat or revealed) else PUBLIC
    return acting, (PUBLIC if shown is None else shown)


def mover_line(state, where: str, viewer=None, waiting: str = "chance is drawn") -> str:
    """``"{where}: P2 to move."`` (``"P2 (you)"`` on ``viewer``'s own page), or
    ``"{where}: {waiting}."`` while no player is to move (a chance outcome is waited for)."""
    p = state.current_player()
    if p is None:
        return f"{where}: {waiting}."
    return f"{where}: P{p + 1}{' (you)' if viewer == p else ''} to move."


def choice_entries(legal: list, label, cell_of=None, centre=None, keep=None) -> list[dict]:
    """The ``actions`` of a view message: ``{"i", "label", "cell", "xy"}`` per legal action.

    Args:
        legal: the acting seat's ``legal_actions()`` (``i`` indexes it, so a page's
            choice names the action the server applies).
        label: action -> the sentence a student reads.
        cell_of: action -> the board cell it is played on (a pair), or None (a button).
        centre: cell -> its pixel centre on the view's board (``xy``, rounded to 0.1 px).
        keep: action -> whether the page may offer it (e.g. not when it names hidden
            cards on a covered hot-seat screen); default every action.
    """
    out = []
    for i, a in enumerate(legal):
        if keep is not None and not keep(a):
            continue
        c = cell_of(a) if cell_of is not None else None
        out.append({"i": i, "label": label(a), "cell": list(c) if c is not None else None,
                    "xy": [round(v, 1) for v in centre(c)] if c is not None else None})
    return out


#: what the help panel says to a page whose seat waits
WAIT_HELP = "Wait for the player to move; the board updates by itself."


def help_html(state, phase: str, acting, *, act: str, end: str, notes: str = "") -> str:
    """The help panel's HTML of a table page (the view's ``help``): ``phase``, the game's
    sentence explaining the phase, then what the page can do now: ``act`` when ``acting``
    (the seat whose choices the page lists) is not None, ``end`` when ``state`` is
    terminal, else :data:`WAIT_HELP`; then ``notes``, the game's own paragraphs (HTML,
    e.g. how its cells are named). ``phase``, ``act`` and ``end`` are plain text."""
    what = act if acting is not None else end if state.is_terminal() else WAIT_HELP
    return f"<p><b>Now:</b> {escape(phase)}</p><p>{escape(what)}</p>{notes}"


def clause(sentence: str) -> str:
    """``sentence`` without its closing full stop, for use inside a longer sentence or in
    brackets (``"quest 5 (2 valor for each mill you own): ..."``), so a text from the
    game's data never reads ``".):"`` or ``".;"``. Other endings (``?``, ``!``, ``...``) stay."""
    s = sentence.rstrip()
    return s[:-1] if s.endswith(".") and not s.endswith("..") else s


CHIP_MIN_PX = 17  #: a chip's smallest diameter: its number is drawn at 12 CSS px at least (readable on a phone)


def chip(p: int, size: int = CHIP_MIN_PX) -> str:
    """A player's colour disc (``size`` CSS px across, at least :data:`CHIP_MIN_PX`) with
    the player's number (readable without colour) in at least 12 CSS px."""
    size = max(size, CHIP_MIN_PX)
    return (f'<span style="display:inline-block;width:{size}px;height:{size}px;line-height:{size}px;border-radius:50%;'
            f'background:{S.player_colour(p)};border:1px solid #000;text-align:center;font-weight:bold;'
            f'font-size:{size - 5}px;color:#000">{S.PLAYER_MARKS[p % len(S.PLAYER_MARKS)]}</span>')


def sentence_log_html(events, last: int = 12, *, heading=None, words=None, notes=None) -> str:
    """The last ``last`` of ``events`` (already as the viewer may see them), newest at the
    bottom: each the engine's sentence after the player's chip, in a ``hk-event-log`` box.

    ``heading(event) -> str``: a line written above an event whenever it differs from the
    previous event's (e.g. ``"Season 2, round 3, turns"``); ``words(text) -> str``: the
    sentence rewritten for the page (e.g. cells named as the board writes them);
    ``notes``: index into ``events`` -> sentences written (marked ``hk-log-note``) before
    that event (``len(events)``: after the last), such as a rollback at its place. A
    sentence citing a kit ruling has the ruling's words to open under it
    (:func:`~haunted_kit.events.rulings_html`), never a bare code."""
    rows, when, notes = [], None, notes or {}
    events = list(events)
    first = max(0, len(events) - last) if last else 0

    def noted(i):
        rows.extend(f'<div class="hk-log-note" style="padding:1px 2px;font-style:italic;border-left:3px solid #c9a400">'
                    f'{escape(n)}</div>' for n in notes.get(i, ()))

    for i, e in enumerate(events[first:], first):
        noted(i)
        if heading is not None and (now := heading(e)) != when:
            when = now
            rows.append(f'<div class="hk-when" style="color:#555;margin-top:3px"><i>{escape(when)}</i></div>')
        who = chip(e.player, 13) + " " if e.player is not None else ""
        text = words(e.text) if words is not None else S.name_cells(e.text)
        rows.append(f'<div style="padding:1px 2px">{who}{escape(text)}{rulings_html(text)}</div>')
    noted(len(events))
    if not rows:
        rows.append('<div style="color:#666">Nothing has happened yet.</div>')
    return f'<div class="hk-event-log"{S.scroll_region("game log")} style="{BOX_STYLE};max-height:260px;overflow-y:auto">{"".join(rows)}</div>'


# ============================================================================ the generic view
#: what a shared screen shows where the seats' observations differ
HIDDEN = "(hidden)"
MAX_SHOWN = 200  #: the most entries of one list or table :func:`observation_html` writes


def common_view(observations: list):
    """What every one of ``observations`` (one per seat, JSON-like) holds alike: a dict
    keeps its keys with the common view of their values, lists of one length are compared
    entry by entry, lists of different lengths (a log with private entries) keep the
    entries every one holds, in the first one's order; a value that differs is
    :data:`HIDDEN`. So a shared screen shows no seat's secret, whatever the game."""
    first = observations[0]
    if all(o == first for o in observations[1:]):
        return first
    if all(isinstance(o, dict) for o in observations) and all(o.keys() == first.keys() for o in observations):
        return {k: common_view([o[k] for o in observations]) for k in first}
    if all(isinstance(o, list) for o in observations):
        if all(len(o) == len(first) for o in observations):
            return [common_view([o[i] for o in observations]) for i in range(len(first))]
        return [v for v in first if all(v in o for o in observations[1:])]
    return HIDDEN


def _key_words(key) -> str:
    """An observation's key as a row heading people read: ``"draw_pile"`` -> ``"draw pile"``."""
    return str(key).replace("_", " ")


def observation_html(obs) -> str:
    """An observation (JSON-like: dicts, lists, numbers, strings) as nested HTML tables:
    a dict one row per key (its words: ``draw pile``, never ``draw_pile``), a list of plain values one line, a list of dicts or lists
    numbered rows; every text escaped, at most :data:`MAX_SHOWN` entries of each."""
    if isinstance(obs, dict):
        rows = "".join(f'<tr><th style="text-align:left;vertical-align:top;padding-right:6px">{escape(_key_words(k))}</th>'
                       f"<td>{observation_html(v)}</td></tr>" for k, v in list(obs.items())[:MAX_SHOWN])
        return f'<table class="hk-obs">{rows}</table>' if rows else "(none)"
    if isinstance(obs, (list, tuple)):
        more = f" ... ({len(obs) - MAX_SHOWN} more)" if len(obs) > MAX_SHOWN else ""
        if all(not isinstance(v, (dict, list, tuple)) for v in obs):
            return (", ".join(observation_html(v) for v in obs[:MAX_SHOWN]) or "(none)") + more
        rows = "".join(f"<tr><td>{i}</td><td>{observation_html(v)}</td></tr>" for i, v in enumerate(obs[:MAX_SHOWN]))
        return f'<table class="hk-obs">{rows}</table>{more}'
    return "-" if obs is None else escape(str(obs))


def seen_observation_and_log(game, state, shown) -> tuple:
    """What the generic view shows ``shown`` (a seat, or ``None``/:data:`PUBLIC`: a shared
    screen): ``(observation, log_html)``. A seat sees ``state.observation(shown)``; a shared
    screen ``state.observation(PUBLIC)`` when the game declares its ``visibility`` (so what
    the others see instead, e.g. a hand's size, is the declaration's), else the
    :func:`common_view` of every seat's. The declaration's ``log`` key, when it has one, is
    taken out of the observation and written as sentences (:func:`sentence_log_html`)."""
    declared = getattr(game, "visibility", None)
    if shown is not None and shown >= 0:
        obs = state.observation(shown)
    elif declared is not None:  # the all-seeing observation, redacted by the declaration for a shared screen
        obs = declared.observation(state.observation(None), PUBLIC)
    else:
        obs = common_view([state.observation(p) for p in range(state.players)])
    key = getattr(declared, "log", None)
    if not (key and isinstance(obs, dict) and isinstance(obs.get(key), list)):
        return obs, ""
    events = [Event.from_dict(e) for e in obs[key]]
    return {k: v for k, v in obs.items() if k != key}, sentence_log_html(events)


def generic_table_view(game, state, viewer: int, *, hot_seat: bool = False, revealed: bool = False, bots=()) -> dict:
    """The game's part of a table page for a game with no ``classroom`` module, from the
    protocol alone (the keys of a ``classroom.table_view``).

    Args:
        game: the table's :class:`~haunted_kit.protocol.Game` (its ``title``).
        state: the table's state.
        viewer: a seat (player index) or :data:`PUBLIC` (projector, hot-seat screen).
        hot_seat: a shared screen where the human to move acts; it lists their choices
            and shows their observation only once ``revealed`` (a choice may name what is
            hidden), else ``needs_reveal``.

    Returns:
        ``acting``, ``needs_reveal``, ``status`` (who is to move), ``phase``, ``board``
        (the observation of the shown seat or of a shared screen,
        :func:`seen_observation_and_log`, as :func:`observation_html` tables), ``log``
        (the declared log's sentences as that seat or screen may read them), ``game_board`` and
        ``players`` (empty: the observation holds them), ``ranking`` (at the end: each
        seat's ``returns()``), ``actions`` (every legal action of the acting seat as a
        button, :func:`~haunted_kit.protocol.describe_action`) and ``help``.
    """
    acting, shown = seat_roles(state, viewer, hot_seat=hot_seat, revealed=revealed, bots=bots)
    covered = hot_seat and not revealed
    legal = [] if covered else legal_for(state, acting)
    obs, log = seen_observation_and_log(game, state, shown)
    actions = choice_entries(legal, lambda a: describe_action(a, state))
    over = state.is_terminal()
    ranking = ""
    if over:
        rows = "".join(f"<tr><td>{chip(p)} P{p + 1}</td><td>{v:g}</td></tr>" for p, v in enumerate(state.returns()))
        ranking = (f'<div class="hk-ranking" style="{BOX_STYLE}"><b>The game is over.</b><table><tr><th>player</th>'
                   f"<th>{escape(str(getattr(game, 'score_name', None) or 'result'))}</th></tr>{rows}</table></div>")
    phase = "The game is over." if over else mover_line(state, game.title, viewer if not hot_seat else None)
    return {
        "acting": acting if actions else None,
        "needs_reveal": bool(covered and acting is not None and acting >= 0 and legal_for(state, acting)),
        "status": phase, "phase": phase,
        "board": f'<div class="hk-generic-board" style="{BOX_STYLE}">{observation_html(obs)}</div>',
        "log": log, "game_board": "", "players": [], "ranking": ranking, "actions": actions,
        "help": help_html(state, phase, acting if actions else None, act="Choose one of the buttons.",
                          end="The game is over: the results are above.",
                          notes="<p>This game has no board of its own on the table server: the page shows what "
                                "your seat may see of the game as tables.</p>"),
    }


#: the line a play view's log puts before the events since the viewer's last decision
SINCE_LINE = '<div class="hk-log-since" style="color:#555;margin-top:3px"><i>Since your last decision:</i></div>'


def log_window(total: int, last: int, since: int | None) -> int:
    """Where a play view's log box starts in a log of ``total`` events: at the last ``last``
    (0: all), or earlier at ``since`` (:func:`haunted_kit.widgets.playview.last_decision_start`), so nothing the bots did
    since the viewer's last decision scrolls away (the box scrolls)."""
    first = max(0, total - last) if last else 0
    return first if since is None else min(first, max(0, since))


def recent_log_html(texts, since: int | None, last: int = 8) -> str:
    """A play view's log box of plain sentences (``texts``: the log's, as the viewer may read
    them, one per event, oldest first): :func:`log_window`'s, newest at the bottom, with
    :data:`SINCE_LINE` where the viewer's last decision began."""
    texts = list(texts)
    first = log_window(len(texts), last, since)
    rows = [(SINCE_LINE if i == since else "") + f"<div>{escape(t)}</div>"
            for i, t in enumerate(texts[first:], first)]
    return '<div style="font:12px sans-serif;color:#333">' + "".join(rows) + "</div>"
