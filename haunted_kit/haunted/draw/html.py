"""The player boards, the game board and the event log as small HTML fragments.

Deterministic text (same state, same bytes), inline styles only, so the fragments work
in ipywidgets HTML widgets, in Voila, in static docs and in nbval-checked outputs.
Numbers come from the state, the box and the rule helpers of :mod:`haunted_kit.haunted.rules`
(training cost, resource cap, stack order); nothing here decides a rule.

CSS classes for browser tests: ``hk-player-board``, ``hk-game-board``, ``hk-event-log``,
``hk-valor-track``, ``hk-skill-card``, ``hk-track``, ``hk-ranking``.
"""

from __future__ import annotations

from html import escape

from .. import rules as R
from ..state import OVER, VISIBILITY
from ...render import style as S
from ...events import EVENT_KINDS, rulings_html
from ...tableview import SINCE_LINE, chip, clause, log_window  # noqa: F401  (one chip for every game; H.chip stays importable)
from .scene import final_ranking

PUBLIC = -1  #: the viewer of a shared screen: no player, so every hidden quest stays face down

_BOX = ("border:1px solid #999;border-radius:4px;padding:4px 6px;margin:2px 0;font-family:sans-serif;font-size:12px;"
        "line-height:1.35")




def listing(items) -> str:
    """Items joined with ``"; "``, each sentence's closing full stop dropped so the list
    never reads ``".;"`` (the list itself ends with a full stop only if the last item did)."""
    items = list(items)
    return "; ".join(clause(x) if i < len(items) - 1 else x for i, x in enumerate(items))


def _who(p: int) -> str:
    return f"{chip(p)}&nbsp;<b>{S.player_name(p)}</b>"


def player_board_html(state, p: int, viewer=None) -> str:
    """Player ``p``'s board: valor, resources against the cap, pecunias, the four action
    tracks (active A / inactive i tokens, empty slots with their training cost), the
    next training cost per track, learned skills, markers used, and the quests: their
    numbers and texts only when ``viewer`` is ``p`` or ``None`` (everyone) or the game
    is over, otherwise only how many lie face down. A ``viewer`` that is no player
    index (such as :data:`PUBLIC`, the projector) sees every quest face down."""
    box = state.config.box
    ctx = R.ctx_of(state)
    mover = state.current_player()
    cap = R.resource_cap(state, ctx, p)
    head = f"{_who(p)} &middot; valor <b>{state.valor[p]}</b>"
    if state.valor[p] >= box.valor_track_marks:
        head += f" (+{box.valor_track_marks} side up)"
    if p == mover:
        head += ' &middot; <span style="background:#000;color:#fff;padding:0 4px;border-radius:3px">to move</span>'
    if viewer is not None and p == viewer:
        head += " &middot; <i>you</i>"
    res = " &middot; ".join(f"{escape(r)} <b>{k}</b>/{cap}" for r, k in state.resources(p).items())
    rows = []
    width = max(track.slots for track in box.tracks.values())
    for t, (name, track) in enumerate(box.tracks.items()):
        owned, active = state.tokens(p, t), state.tokens(p, t, active=True)
        cells = []
        for j in range(track.slots):
            if j < active:
                cells.append('<td title="active token" style="background:#fff7c2;border:1px solid #333;width:18px;padding:1px 0;'
                             'text-align:center;font-weight:bold">A</td>')
            elif j < owned:
                cells.append('<td title="inactive token" style="background:#444;color:#fff;border:1px solid #333;'
                             'width:18px;padding:1px 0;text-align:center">i</td>')
            else:
                cost = track.training_costs[j]
                cells.append(f'<td title="empty slot: training costs {cost} pecunias" style="border:1px dashed #999;'
                             f'width:18px;padding:1px 0;text-align:center;color:#777">{cost}</td>')
        if track.slots < width:
            cells.append(f'<td colspan="{width - track.slots}"></td>')
        nxt = R.training_cost(state, ctx, p, t)
        nxt_txt = "track full" if nxt is None else f"next {nxt}"
        rows.append(f'<tr class="hk-track"><td style="padding:1px 4px 1px 0;text-align:left">{escape(name)}</td>'
                    f'{"".join(cells)}<td style="padding:1px 0 1px 6px;color:#333;text-align:left">{active}/{owned} active; {nxt_txt}; '
                    f'last slot +{track.last_slot_valor} valor</td></tr>')
    skills = state.skills_known(p)
    skills_txt = ", ".join(f'<span title="{escape(box.skills[k].text)}">{k}</span>' for k in skills) or "none"
    quests = state.quests[p] if p < len(state.quests) else ()
    k = len(quests)
    cards = f"{k} quest card{'s' if k != 1 else ''}"
    if state.phase == OVER and state.lost:
        q_txt = f"{cards}, never scored (Kalena fell)"
        if viewer is None or viewer == p:
            q_txt += ": " + (listing(f"{q}: {escape(box.quests[q].text)}" for q in quests) or "none")
    elif state.phase == OVER or viewer is None or viewer == p:
        shown = listing(f"{q}: {escape(box.quests[q].text)}" for q in quests) or "none"
        q_txt = f"quests{' revealed' if state.phase == OVER else ''}: {shown}"
    else:
        q_txt = f"{cards} face down"
    return (f'<div class="hk-player-board" style="{_BOX};border-left:6px solid {S.player_colour(p)}">'
            f"<div>{head}</div>"
            f"<div>{res} &middot; pecunias <b>{state.pecunias(p)}</b></div>"
            f'<table style="border-collapse:collapse;margin:2px 0">{"".join(rows)}</table>'
            f"<div>skills: {skills_txt} &middot; markers used {state.markers[p]}/{box.player_markers} &middot; {q_txt}</div>"
            "</div>")


def valor_track_html(state) -> str:
    """The valor track 0..marks-1 (box ``valor_track_marks``, 30 in the box): each mark
    lists the tokens on it, top of the stack first; a token past the last mark shows its
    +marks side."""
    box = state.config.box
    marks = box.valor_track_marks
    order = R.stack_order(state)  # highest valor first, top of a stack first
    at: dict[int, list[int]] = {}
    for p in order:
        at.setdefault(state.valor[p] % marks, []).append(p)
    cells = []
    for v in range(marks):
        chips = "".join(chip(p, 13) + (f"<sup>+{marks}</sup>" if state.valor[p] >= marks else "") + "<br>" for p in at.get(v, []))
        cells.append(f'<div title="{v} valor" style="display:inline-block;vertical-align:top;width:25px;min-height:30px;'
                     f'border:1px solid #bbb;margin:0 1px 1px 0;text-align:center;font-size:12px">'
                     f'<div style="color:#666">{v}</div>{chips}</div>')
    # width 0 with min-width 100%: the track takes its box's width and scrolls inside it, never
    # widening the box (a side column of 1280x800 beside the Lab's file browser)
    return (f'<div class="hk-valor-track"{S.scroll_region("valor track")} '
            f'style="white-space:nowrap;overflow-x:auto;width:0;min-width:100%">{"".join(cells)}</div>')


def game_board_html(state) -> str:
    """The shared board: season and round, turn order, valor track, the skill cards in
    play with their marker slots, the market card, the season's bonus card, the ghost
    cards in play and what is left in the general supply."""
    box = state.config.box
    parts = []
    seasons = " ".join(f"<b>[{k}]</b>" if k == state.season else str(k) for k in range(1, box.seasons + 1))
    rounds = " ".join(f"<b>[{k}]</b>" if k == state.round else str(k) for k in range(1, box.rounds_per_season + 1))
    order = " &rarr; ".join(_who(p) for p in state.turn_order)
    parts.append(f"<div>season {seasons} &middot; round {rounds} &middot; phase <b>{escape(state.phase.replace('_', ' '))}</b>"
                 f" &middot; turn order {order}</div>")
    parts.append(valor_track_html(state))
    S_ = len(box.skill_slot_valor)
    cards = []
    for k in state.skills:
        sk = box.skills[k]
        slots = []
        row = state.marker_slots(k) if state.slots else [-1] * S_
        for j in range(S_):
            v = row[j]
            if v == -2:
                inner, tip = '<span style="color:#fff;background:#000;padding:0 3px">&#9632;</span>', "covered by a counter marker"
            elif v == -1:
                inner, tip = "&nbsp;", "free"
            else:
                inner, tip = chip(v, 13), f"{S.player_name(v)}'s marker"
            slots.append(f'<td title="slot {j + 1}: {box.skill_slot_valor[j]} valor, {tip}" style="border:1px solid #777;'
                         f'width:22px;text-align:center">{inner}<div style="font-size:12px;color:#555">'
                         f'{box.skill_slot_valor[j]}</div></td>')
        cards.append(f'<div class="hk-skill-card" style="{_BOX};display:inline-block;vertical-align:top;width:170px">'
                     f"<b>skill {k}</b> ({escape(sk.deck)})<br>{escape(sk.text)}<br>"
                     f"cost: {escape(' + '.join(sk.cost))}"
                     f'<table style="border-collapse:collapse;margin-top:2px"><tr>{"".join(slots)}</tr></table></div>')
    parts.append(f"<div>{''.join(cards)}</div>")
    if state.market in box.market_cards:
        opts = listing(f"{i}: {escape(o.describe())}" for i, o in enumerate(box.market_cards[state.market], start=1))
        parts.append(f"<div><b>market card {state.market}</b>: {opts}</div>")
    card = box.bonus_cards.get(state.season)
    if card is not None:
        faces = listing(f"{r.face}: {escape(r.describe())}" for r in card.rewards)
        parts.append(f"<div><b>bonus card, season {card.season}</b>: contact costs {card.contact_cost} "
                     f"contact token{'s' if card.contact_cost != 1 else ''}; bonus die {faces}</div>")
    ghosts = listing(f"{g}: {escape(box.ghost_cards[g].text)}" for g in state.config.ghost_cards)
    parts.append(f"<div><b>ghost card{'s' if len(state.config.ghost_cards) > 1 else ''}</b> {ghosts}</div>")
    parts.append(f"<div>general supply: {state.sup_ghosts} ghosts, {state.sup_depl} depletion tokens</div>")
    return f'<div class="hk-game-board" style="{_BOX}">{"".join(parts)}</div>'


def event_html(event, explain_kind: bool = True) -> str:
    """One event for a notebook log: its number and when, in words (``#12 season 1, round 2,
    turns``), the player's
    chip, the engine's sentence (cells as the board names them) and, with ``explain_kind``,
    what its kind of event means in words; a kit ruling it cites opens in place
    (:func:`~haunted_kit.events.rulings_html`). Never the engine's kind name."""
    who = chip(event.player, 13) + " " if event.player is not None else ""
    text = S.name_cells(event.text)
    extra = f' <span style="color:#666">({escape(EVENT_KINDS.get(event.kind, ""))})</span>' if explain_kind else ""
    return (f'<span style="color:#666">#{event.seq} {escape(event.when())}</span> '
            f"{who}{escape(text)}{extra}{rulings_html(text)}")


def event_log_html(state, viewer=None, last: int = 12, current: int | None = None, since: int | None = None) -> str:
    """The last ``last`` events as ``viewer`` may see them (private events of other
    players redacted), newest at the bottom; ``current`` (a seq) is marked. With ``since``
    (a position in the log: where the viewer's last decision began), every event from there
    on is kept too, under a line "Since your last decision", so nothing the bots did after
    it scrolls away (the box scrolls)."""
    events = list(state.log or [])
    if current is not None:
        events = [e for e in events if e.seq <= current]
    rows = []
    first = log_window(len(events), last, since)
    for i, e in enumerate(events[first:], first):
        if i == since:
            rows.append(SINCE_LINE)
        e = VISIBILITY.event(e, viewer)
        mark = "background:#fff3b0;" if current is not None and e.seq == current else ""
        rows.append(f'<div style="{mark}padding:1px 2px">{event_html(e, explain_kind=False)}</div>')
    if not rows:
        rows.append('<div style="color:#666">no events yet</div>')
    return f'<div class="hk-event-log"{S.scroll_region("game log")} style="{_BOX};max-height:260px;overflow-y:auto">{"".join(rows)}</div>'


def ranking_html(state) -> str:
    """The final ranking as a table (rank, player, valor, each quest card with its text,
    times fulfilled and valor, the quests' total), from
    :func:`haunted_kit.haunted.draw.scene.final_ranking`; after a collective loss, says so
    above the table. Empty before the game is over."""
    if state.phase != "over":
        return ""
    box = state.config.box
    head = ("<div><b>Kalena fell: every player loses.</b></div>" if state.lost else
            f"<div><b>{S.player_name(state.winner)} wins.</b> Ties on valor are broken by the valor stack.</div>")
    rows = []
    for r in final_ranking(state):
        quests = "<br>".join(f"quest {q} ({escape(clause(box.quests[q].text))}): {n}&times; = <b>{v}</b> valor"
                             for q, n, v in r.quests) or "none scored"
        rows.append(f'<tr class="hk-rank"><td style="padding:2px 6px;text-align:center"><b>{r.rank}</b></td>'
                    f'<td style="padding:2px 6px;white-space:nowrap">{_who(r.player)}</td>'
                    f'<td style="padding:2px 6px;text-align:right"><b>{r.valor}</b></td>'
                    f'<td style="padding:2px 6px">{quests}</td>'
                    f'<td style="padding:2px 6px;text-align:right">{r.quest_valor}</td></tr>')
    th = 'style="padding:2px 6px;border-bottom:1px solid #999;text-align:left"'
    return (f'<div class="hk-ranking" style="{_BOX}">{head}<table style="border-collapse:collapse;margin-top:4px">'
            f"<tr><th {th}>rank</th><th {th}>player</th><th {th}>valor</th><th {th}>quests</th>"
            f"<th {th}>from quests</th></tr>{''.join(rows)}</table></div>")
