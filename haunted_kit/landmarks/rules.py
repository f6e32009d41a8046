"""The rules of the Landmarks & Architects modules, each once: legality with its reason
next to its effect, the scoring, and the payment planner for a Build.

Functions take a position ``s`` (a :class:`~haunted_kit.landmarks.state.Position`) and a
player ``p`` (0-based). Refusals are :class:`~haunted_kit.protocol.Refusal` objects with
the section of the Landmarks & Architects text and ``source="landmarks rules"``; places
where the text is silent cite the kit's ruling (``docs/RULINGS.md``, "Landmarks & Architects").

* acquiring a landmark: :func:`refuse_acquire`, :func:`acquire_options`, :func:`do_acquire`
* building with Castle Grounds: :func:`plan_payments` (every minimal payment, ranked, or why
  none exists); a Build is two decisions: which card (:func:`refuse_choose`,
  :func:`buildable_cards`), then how to pay (:func:`refuse_build`, :func:`card_builds`;
  :func:`build_options` lists every card's), :func:`do_build`
* the lead: :func:`collect_at_lead` (own gold back, Castle Grounds gold to its owner)
* the end trigger: :func:`village_cards` (landmark tokens are not cards)
* scoring: :func:`score_table`, :func:`score_summary`, :func:`totals`, :func:`player_points`,
  :func:`game_over_sentence` (the ranking in words)
* memo tables for the hot paths of search and simulation: :func:`memo_table`
"""

from __future__ import annotations

import weakref
from collections import Counter
from itertools import combinations

import networkx as nx

from ..protocol import Refusal, is_integer
from .actions import Acquire, Build, Use

SOURCE = "landmarks rules"
SEC_SETUP = "Landmarks: Game Setup"
SEC_TAKE = "Landmarks: How To Play, Take One Action"
SEC_ACQUIRE = "Landmarks: How To Play, Acquiring a Landmark"
SEC_LANDMARK_SCORING = "Landmarks: Scoring"
SEC_GROUNDS = "Architects: Concepts, Castle Grounds Cards"
SEC_BUILD = "Architects: How To Play, Build"
SEC_ARCHITECT_SCORING = "Architects: Scoring"
SEC_ARCHITECT_SETUP = "Architects: Game Setup"
#: the kit's rulings these modules' engine cites by code (their words open in place, ``events.rulings_html``)
SEC_SOURCES = "kit ruling L9"       # when gold placed on a source is free again
SEC_LEAD_BUILD = "kit ruling L3"    # leading Build needs a building that can be paid
SEC_TWO_STEP = "kit ruling L15"     # a Build is two decisions: the building, then the payment
SEC_WINNER = "kit ruling L14"       # who wins, for simulation and search

#: the rulebook's word for the unit a game is counted in, one leader's turn: the leader leads,
#: the others follow, acquire or decline, then "your turn is complete" and the Active Player
#: Token passes left (Take One Action). Every player-facing line says it (the kit's tutorial
#: reads it as the game's ``ROUND_WORD``); the code's name for it stays ``round``.
ROUND_WORD = "turn"


def turn_words(s) -> str:
    """Where ``s`` is in its game, in the rulebook's unit: ``"turn 2 of 3"``."""
    return f"{ROUND_WORD} {s.round} of {s.rounds}"


#: entries a memo table keeps before it is emptied (a bound on memory, not on correctness)
MEMO_SIZE = 50_000
_MEMOS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_LAST: list = [None, None]  # the box of the last memo_table call and its tables (kept until another box comes)


def memo_table(box, name: str) -> dict:
    """The memo table ``name`` of ``box``: a plain dict the hot paths (payment plans, legal
    Builds, legal actions) keep their answers in, keyed by every field of the position the
    answer reads, so an entry never goes stale: a position that differs in anything read
    has another key. A box is immutable (a frozen dataclass); a house-rule box is another
    object with tables of its own, dropped with it (weak keys). A table holding
    :data:`MEMO_SIZE` entries is emptied before it takes another."""
    if _LAST[0] is box:  # the box of the last call (a weak-key lookup makes a weak reference each time)
        tables = _LAST[1]
    else:
        tables = _MEMOS.get(box)
        if tables is None:
            tables = _MEMOS[box] = {}
        _LAST[:] = [box, tables]
    table = tables.get(name)
    if table is None or len(table) >= MEMO_SIZE:
        table = tables[name] = {}
    return table


def refusal(text, section: str) -> Refusal:
    """A refusal of this module (source ``"landmarks rules"``)."""
    return Refusal(text, section, SOURCE)


def card_name(s, key: str) -> str:
    card = s.box.cards.get(key)
    return card.name if card is not None else repr(key)


def majority_words(box) -> str:
    """The majority scoring in words, with the box's numbers: ``"+2 to the one player with
    the most tokens of a type (at least 1; a tie: nobody)"`` (Landmarks: Scoring, Most)."""
    least = box.most_minimum
    return (f"+{box.most_points} to the one player with the most tokens of a type (at least {least}"
            f"{'' if least == 1 else ' tokens'}; a tie: nobody)")


def architect_words(box, architect) -> str:
    """What an architect card scores, in the words of the setup log and of the tutorial
    (one wording for both): ``"+1 per worker and per holy building at the end"``, its points
    from ``box.architect_points`` (Architects: Scoring)."""
    return f"+{box.architect_points} per {architect.types[0]} and per {architect.types[1]} building at the end"


def who(p: int) -> str:
    return f"P{p + 1}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _gold(n: int) -> str:
    return f"{n} gold"


def _cost_text(cost) -> str:
    c = Counter(cost)
    return " + ".join(f"{n} {r}" for r, n in c.items())


# ============================================================================ end trigger


def village_cards(s, p: int) -> int:
    """Cards in ``p``'s village for the base game's end trigger: buildings, adventurers and
    developed resources. Landmark tokens are not cards and never count (Landmarks: Acquiring a
    Landmark, last paragraph)."""
    return len(s.villages[p]) + len(s.developed[p])


# ============================================================================ acquiring a landmark


def _eligible(s, p: int, lt) -> list[str]:
    return [k for k in s.hands[p] if not lt.icon or lt.icon in s.box.cards[k].icons]


def refuse_acquire(s, p: int, key, discards=None) -> Refusal | None:
    """Why ``p`` may not acquire a ``key`` token now, discarding ``discards``, or ``None``.

    With ``discards=None`` only the landmark itself is judged (is there a token, a card that
    pays), so a table of options can explain each refused type. Checks the module switch, the
    follower's turn (only a player following the lead may acquire, instead of following), the
    supply, the number of cards and the icon of each card (Landmarks: Acquiring a Landmark).
    """
    box = s.box
    if not s.modules["landmarks"]:
        return refusal("the Landmarks module is not in play in this game", SEC_TAKE)
    turn = s.refuse_follower(p)
    if turn is not None:
        return turn
    lt = box.landmarks.get(key) if isinstance(key, str) else None
    if lt is None:
        return refusal(f"there is no landmark {key!r} (landmarks: {', '.join(box.landmarks)})", SEC_ACQUIRE)
    if s.supply[key] <= 0:
        return refusal(lambda: f"the {lt.name} supply is empty: all {box.supply(s.players)} {lt.name} tokens of "
                               f"this {s.players}-player game are taken", SEC_ACQUIRE)
    eligible = _eligible(s, p, lt)
    if len(eligible) < lt.discard:
        if lt.icon:
            return refusal(lambda: f"a {lt.name} costs {_plural(lt.discard, 'card')} showing a {lt.icon} icon in its "
                                   f"Resource section; {who(p)} holds {len(eligible)} such card"
                                   f"{'' if len(eligible) == 1 else 's'}"
                                   f" ({', '.join(card_name(s, k) for k in s.hands[p]) or 'an empty hand'})",
                           SEC_ACQUIRE)
        return refusal(lambda: f"a {lt.name} costs any {_plural(lt.discard, 'card')} from hand; {who(p)} holds "
                               f"{_plural(len(s.hands[p]), 'card')}", SEC_ACQUIRE)
    if discards is None:
        return None
    if not isinstance(discards, tuple) or not all(isinstance(k, str) for k in discards):
        return refusal(f"the discards must be a tuple of card keys, got {discards!r}", SEC_ACQUIRE)
    if len(discards) != lt.discard:
        return refusal(lambda: f"a {lt.name} costs {_plural(lt.discard, 'card')}; the action discards {len(discards)}",
                       SEC_ACQUIRE)
    missing = Counter(discards) - Counter(s.hands[p])
    if missing:
        k = next(iter(missing))
        return refusal(lambda: f"{who(p)} has no {'' if k in box.cards else 'card '}{card_name(s, k)} "
                               f"{'left ' if k in s.hands[p] else ''}in hand to discard", SEC_ACQUIRE)
    for k in discards:
        if lt.icon and lt.icon not in box.cards[k].icons:
            shows = ", ".join(box.cards[k].icons) or "no icon"
            return refusal(lambda: f"a {lt.name} needs a card showing a {lt.icon} icon; the {card_name(s, k)} shows "
                                   f"{shows} in its Resource section", SEC_ACQUIRE)
    return None


def acquire_options(s, p: int) -> list[Acquire]:
    """Every legal :class:`Acquire` of ``p``: each landmark type with each distinct choice of
    discards (cards are told apart by key; a discard set is sorted). When the module is in
    play and ``p`` is the follower to choose, the answer depends only on ``p``'s hand and
    the landmarks left in the supply, and is memoised by those (:func:`memo_table`
    ``"acquires"``); equal acquisitions are the same :class:`Acquire` object wherever legal."""
    if not s.modules["landmarks"] or s.refuse_follower(p) is not None:
        return []  # refuse_acquire refuses every landmark alike
    return follower_acquires(s, p)


def follower_acquires(s, p: int) -> list[Acquire]:
    """:func:`acquire_options` of ``p`` when the Landmarks module is in play and ``p`` is
    the follower to choose (the caller knows it: the legal actions of a follow), without
    checking those again."""
    hand = tuple(sorted(s.hands[p]))
    supply = s.supply
    key = (hand, tuple([k for k in supply if supply[k] > 0]))
    memo = memo_table(s.box, "acquires")
    hit = memo.get(key)
    if hit is None:
        # the module is in play and p follows, so refuse_acquire(s, p, key_) refuses exactly the landmarks
        # with an empty supply or too few cards to discard (those showing its icon, if it names one)
        box = s.box
        same = memo_table(box, "acquire objects")  # one Acquire object per (landmark, discards) wherever legal
        cards = box.cards
        out = []
        for key_, lt in box.landmarks.items():
            if supply[key_] <= 0:
                continue
            icon = lt.icon  # the hand sorted, so the eligible cards are too (what _eligible keeps, in sorted order)
            eligible = [k for k in hand if icon in cards[k].icons] if icon else hand
            if len(eligible) < lt.discard:
                continue
            for combo in _choices(eligible, lt.discard):
                a = same.get((key_, combo))
                if a is None:
                    a = same[(key_, combo)] = Acquire(key_, combo)
                out.append(a)
        hit = memo[key] = tuple(out)
    return list(hit)


def do_acquire(s, p: int, a: Acquire) -> None:
    """Apply a legal Acquire ``a`` (:func:`refuse_acquire`): ``a.discards`` (card keys)
    go from ``p``'s hand to the discard pile and one ``a.landmark`` token from the supply to
    ``p``'s Castle card. Pushes no decision; logs ``landmark_acquired`` (Landmarks: How To
    Play, Acquiring a Landmark)."""
    lt = s.box.landmarks[a.landmark]
    for k in a.discards:
        s.hands[p].remove(k)
        s.discard_pile.append(k)
    s.supply[a.landmark] -= 1
    s.tokens[p][a.landmark] += 1
    if s.log is None:
        return
    names = " and ".join(f"the {card_name(s, k)}" for k in a.discards)
    icon = f" (showing {lt.icon})" if lt.icon else ""
    s.emit("landmark_acquired", p,
           f"{who(p)} discards {names}{icon} and takes a {lt.name} token into their village instead of following "
           f"({s.supply[a.landmark]} left; {SEC_ACQUIRE}).",
           landmark=a.landmark, discards=list(a.discards))


# ============================================================================ the lead


def source_gold(box, source: str) -> int:
    """Gold placed on one source of kind ``source`` (``"castle"``, ``"developed"`` or
    ``"grounds"``) for one resource, from ``box`` (Architects: How To Play, Build)."""
    return {"castle": box.castle_gold, "developed": box.developed_gold, "grounds": box.grounds_gold}[source]


def collect_at_lead(s, p: int) -> None:
    """``p`` leads: the gold on ``p``'s own castle and developed resources comes back to ``p``
    (kit default: as in the base game, sources are free again at your next lead), and every
    gold on ``p``'s Castle Grounds, whoever placed it, now belongs to ``p`` (Architects: Build,
    note on other players' Castle Grounds)."""
    box = s.box
    back = 0
    for src in sorted(s.spent[p]):
        back += source_gold(box, "castle" if src == "castle" else "developed")
    if back:
        s.spent[p].clear()
        s.gold[p] += back
        if s.log is not None:
            s.emit("gold_returned", p, f"{who(p)} leads and takes back {_gold(back)} from their castle and "
                                       f"developed resources ({SEC_SOURCES}).", gold=back)
    if s.grounds[p]:
        payers = list(s.grounds[p])
        gained = len(payers) * box.grounds_gold
        s.grounds[p].clear()
        s.gold[p] += gained
        if s.log is not None:
            from_whom = ", ".join(who(q) for q in payers)
            s.emit("grounds_gold", p, f"{who(p)} leads: the {_gold(gained)} on their Castle Grounds (placed by "
                                      f"{from_whom}) now belong{'s' if gained == 1 else ''} to {who(p)} ({SEC_BUILD}).",
                   gold=gained, payers=payers)


# ============================================================================ payment planner


class Plan:
    """One minimal way to pay a building: the sources used (``uses``, discards not yet
    chosen), ``gold`` placed in all, ``gold_to_others`` placed on other players' Castle
    Grounds (it is theirs at their next lead: never comes back), ``cards`` discarded.

    The :class:`Use` parts are made on first read, so listing many plans stays cheap."""

    __slots__ = ("_parts", "_uses", "gold", "gold_to_others", "cards")

    def __init__(self, parts, gold: int, gold_to_others: int, cards: int):
        self._parts = parts  # tuple of Use, or a zero-argument function making them
        self._uses = parts if isinstance(parts, tuple) else None
        self.gold, self.gold_to_others, self.cards = gold, gold_to_others, cards

    @property
    def uses(self) -> tuple[Use, ...]:
        if self._uses is None:
            self._uses = self._parts()
        return self._uses

    def __eq__(self, other) -> bool:
        return isinstance(other, Plan) and (self.uses, self.gold, self.gold_to_others, self.cards) == (
            other.uses, other.gold, other.gold_to_others, other.cards)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Plan({self.uses!r}, gold={self.gold}, gold_to_others={self.gold_to_others}, cards={self.cards})"

    def describe(self, s=None) -> str:
        """The plan in words, e.g. ``"P1's castle -> wood; P1's Lumber Camp -> wood"``."""
        parts = []
        for u in self.uses:
            if u.source == "grounds" and not u.discard:
                parts.append(f"P{u.owner + 1}'s Castle Grounds + a discard -> {u.resource}")
            else:
                parts.append(u.describe(s.box if s is not None else None))
        return "; ".join(parts)


class PaymentPlans:
    """The answer of :func:`plan_payments`.

    Attributes:
        card, cost: the building and its cost (resource names, one per unit).
        plans: every minimal payment as a :class:`Plan`, best first (ranked by gold placed,
            then gold placed on other players' Castle Grounds, then cards discarded).
        why_none: ``None`` when a plan exists, else the exact reason in words.
        graph: the bipartite networkx graph (cost units -- free sources) the plans match on
            (made on first read: the planner itself does not need it).
    """

    def __init__(self, s, p, card, cost, plans, why_none, sources):
        self._s, self.player, self.card, self.cost = s, p, card, cost
        self.plans, self.why_none = plans, why_none
        self._sources, self._graph = sources, None

    @property
    def graph(self) -> nx.Graph:
        if self._graph is None:
            self._graph = _graph(self.cost, self._sources)
        return self._graph

    def __bool__(self) -> bool:
        return bool(self.plans)

    def __len__(self) -> int:
        return len(self.plans)

    def frame(self):
        """The plans as a DataFrame: rank, payment (sentence), gold, gold to others, cards discarded."""
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame([{"rank": i + 1, "payment": pl.describe(self._s), "gold": pl.gold,
                              "gold to others": pl.gold_to_others, "cards discarded": pl.cards}
                             for i, pl in enumerate(self.plans)],
                            columns=["rank", "payment", "gold", "gold to others", "cards discarded"])

    def __repr__(self) -> str:
        head = f"{who(self.player)} building the {card_name(self._s, self.card)} ({_cost_text(self.cost)}): "
        if not self.plans:
            return head + "no payment: " + (self.why_none or "")
        return head + f"{_plural(len(self.plans), 'minimal payment')}; best: {self.plans[0].describe(self._s)}"


def free_sources(s, p: int) -> list[tuple[str, int, int, tuple[str, ...], int]]:
    """The sources ``p`` may place gold on now, as (source, owner, slot, resources it can give,
    gold it needs): ``p``'s castle and developed resources without gold on them, and every
    Castle Grounds (``p``'s own and, when the box allows, other players') with room for a gold."""
    box = s.box
    out = []
    if "castle" not in s.spent[p]:
        out.append(("castle", p, 0, box.resources, box.castle_gold))
    for i, k in enumerate(s.developed[p]):
        if f"developed:{i}" not in s.spent[p] and box.cards[k].icons:
            out.append(("developed", p, i, box.cards[k].icons, box.developed_gold))
    if s.modules["castle_grounds"]:
        owners = [p] + ([q for q in range(s.players) if q != p] if box.grounds_any_player else [])
        for q in owners:
            if len(s.grounds[q]) < box.grounds_uses:
                out.append(("grounds", q, 0, box.resources, box.grounds_gold))
    return out


def _graph(cost, sources) -> nx.Graph:
    g = nx.Graph()
    units = [("unit", j, r) for j, r in enumerate(cost)]
    g.add_nodes_from(units, bipartite=0)
    for src in sources:
        node = ("source",) + src[:3]
        g.add_node(node, bipartite=1, gives=src[3], gold=src[4])
        for u in units:
            if u[2] in src[3]:
                g.add_edge(u, node)
    return g


def _tied_text(s, p: int) -> str:
    bits = []
    if "castle" in s.spent[p]:
        bits.append("castle")
    bits += [card_name(s, s.developed[p][int(k.split(":")[1])]) for k in sorted(s.spent[p]) if k != "castle"]
    parts = []
    if bits:
        parts.append(f"{who(p)}'s {' and '.join(bits)} already hold{'s' if len(bits) == 1 else ''} gold until "
                     f"{who(p)}'s next lead")
    full = [q for q in range(s.players) if len(s.grounds[q]) >= s.box.grounds_uses]
    if full and s.modules["castle_grounds"]:
        parts.append("the Castle Grounds of " + ", ".join(who(q) for q in full) + " already hold gold")
    return "; ".join(parts)


def _plan_table(s, p: int, card: str, sources: tuple | None = None, devs: tuple | None = None):
    """The planner's answer for ``p`` paying ``card`` now, memoised (:func:`memo_table`
    ``"plans"``) by everything it reads: the card, the player, the free sources (with the
    developed cards behind them), ``p``'s gold and hand size.

    Returns ``(key, nodes, ranked, over_gold, over_cards)``: the memo key (its third item
    the free sources, :func:`free_sources`), those sources in canonical order as ``(source, owner, slot, card)``,
    and the plans as ``(gold, gold_to_others, cards, pairs)`` items, ``pairs`` being
    ``(index into nodes, resource)``: the affordable ones ranked, then those needing more
    gold, then those needing more discards than the hand holds. No plan at all means no
    matching of cost units to free sources exists (every matching is one of the items)."""
    box = s.box
    if sources is None:
        sources = tuple(free_sources(s, p))
    hand_left = len(s.hands[p]) - 1
    key = (card, p, sources, tuple(s.developed[p]) if devs is None else devs, s.gold[p], hand_left)
    memo = memo_table(box, "plans")
    hit = memo.get(key)
    if hit is not None:
        return hit
    raws = memo_table(box, "raw plans")  # the matchings do not depend on the gold or the hand: kept apart
    got = raws.get(key[:4])
    if got is None:
        got = raws[key[:4]] = _raw_plans(box, p, card, sources, key[3])
    nodes, items = got
    gold_now = s.gold[p]
    ranked, over_gold, over_cards = [], [], []
    for item in items:
        (over_gold if item[0] > gold_now else over_cards if item[2] > hand_left else ranked).append(item)
    ranked.sort()
    out = memo[key] = (key, nodes, tuple(ranked), tuple(over_gold), tuple(over_cards))
    return out


def _raw_plans(box, p: int, card: str, sources: tuple, devs: tuple) -> tuple:
    """``(nodes, items)`` of :func:`_plan_table` before the gold and the hand are read: the
    free ``sources`` in canonical order as ``(source, owner, slot, card)`` (``devs``, ``p``'s
    developed cards), and every matching of ``card``'s cost units to them as a
    ``(gold, gold_to_others, cards, pairs)`` item, in the order the enumeration's set gives
    them (the same sources give the same order)."""
    cost = box.cards[card].cost
    # sources in canonical order: own castle, own developed by slot, own Castle Grounds, others' by seat
    order = sorted(sources, key=lambda n: (n[1] != p, n[1], ("castle", "developed", "grounds").index(n[0]), n[2]))
    nodes = tuple((n[0], n[1], n[2], devs[n[2]] if n[0] == "developed" else "") for n in order)
    gold_of = [n[4] for n in order]
    others_of = [box.grounds_gold if n[0] == "grounds" and n[1] != p else 0 for n in order]
    cards_of = [box.grounds_discard if n[0] == "grounds" else 0 for n in order]
    need = Counter(cost)
    types = list(need)
    specific = [i for i, n in enumerate(order) if n[0] == "developed"]
    wild = [i for i, n in enumerate(order) if n[0] != "developed"]
    can = {r: [i for i in specific if r in order[i][3]] for r in types}
    raw: set = set()
    _assign(types, need, can, wild, raw, 0, frozenset(), (), ())
    items = []
    for pairs in raw:
        items.append((sum(gold_of[i] for i, _ in pairs), sum(others_of[i] for i, _ in pairs),
                      sum(cards_of[i] for i, _ in pairs), pairs))
    return nodes, tuple(items)


def _assign(types: list, need: Counter, can: dict, wild: list, raw: set, t: int, used: frozenset, chosen: tuple,
            left: tuple) -> None:
    """Add to ``raw`` every plan (sorted ``(source index, resource)`` pairs) that gives the
    resource types from ``types[t]`` on: each type's developed sources ``can[r]`` not yet
    ``used`` chosen directly (0 to ``need[r]`` of them), the units ``left`` given by ``wild``
    sources in cost order. A module function, not a closure calling itself: a recursive
    closure is a reference cycle (function, cell, function) left for the cycle collector on
    every plan worked out."""
    if t == len(types):
        for ws in combinations(wild, len(left)):  # wild sources take the resources left, in cost order
            raw.add(tuple(sorted(chosen + tuple(zip(ws, left)))))
        return
    r = types[t]
    cands = [i for i in can[r] if i not in used]
    for k in range(min(need[r], len(cands)) + 1):
        for combo in combinations(cands, k):
            _assign(types, need, can, wild, raw, t + 1, used | set(combo), chosen + tuple((i, r) for i in combo),
                    left + (r,) * (need[r] - k))


def plan_payments(s, p: int, card: str) -> PaymentPlans:
    """Every minimal way for ``p`` to pay ``card`` now, or exactly why none exists.

    A minimal payment places one gold on each of exactly ``len(cost)`` sources, each giving one
    needed resource (no gold or card that the cost does not need): ``p``'s castle (a wild
    resource), ``p``'s developed resources (an icon they show), Castle Grounds (``p``'s own or
    another player's: a wild resource for a gold and a discard from ``p``'s hand other than the
    building). It is a matching of cost units to free sources on a bipartite graph: the plans
    are all saturating matchings up to interchangeable units (each resource type's developed
    sources chosen directly, wild resources given in cost order: castle first, then Castle
    Grounds by seat), memoised by position (:func:`_plan_table`); when there is none, Hall's
    condition over the resource types on the networkx graph says which resources lack sources.

    Returns:
        :class:`PaymentPlans`; ``plans`` ranked by gold placed, gold placed on other players'
        Castle Grounds, cards discarded, then the sources in seat order (own castle,
        developed resources by slot, own Castle Grounds, other players' by seat).

    Raises:
        KeyError: ``card`` is not a card of the box.
    """
    box = s.box
    c = box.cards[card]
    cost = c.cost
    key, nodes, ranked, over_gold, over_cards = _plan_table(s, p, card)
    sources = key[2]
    if not (ranked or over_gold or over_cards):
        return PaymentPlans(s, p, card, cost, [], _hall_reason(s, p, card, cost, _graph(cost, sources)), sources)
    hand_left = len(s.hands[p]) - 1

    def plan(item) -> Plan:
        gold, others, cards, pairs = item
        return Plan(lambda: _uses_of(nodes, pairs), gold, others, cards)

    plans = [plan(x) for x in ranked]
    over_gold = [plan(x) for x in over_gold]
    over_cards = [plan(x) for x in over_cards]
    why = None
    if not plans:
        if over_gold and (not over_cards or min(x.gold for x in over_gold) <= min(x.gold for x in over_cards)):
            least = min(x.gold for x in over_gold + over_cards)
            why = (f"every way to pay the {c.name} ({_cost_text(cost)}) places at least {_gold(least)} "
                   f"(one per resource), and {who(p)} has {_gold(s.gold[p])}")
        else:
            least = min(x.cards for x in over_cards)
            why = (f"the free sources left need Castle Grounds: {_plural(least, 'discard')} from hand besides the "
                   f"{c.name}, and {who(p)} holds {_plural(hand_left, 'other card')}")
    return PaymentPlans(s, p, card, cost, plans, why, sources)


def _uses_of(nodes, pairs) -> tuple[Use, ...]:
    """A plan's :class:`Use` parts (no discards yet) from :func:`_plan_table`'s nodes and pairs."""
    return tuple(_use(nodes[i][0], nodes[i][1], r, nodes[i][2], "", nodes[i][3]) for i, r in pairs)


_USES: dict = {}  # (source, owner, resource, slot, discard, card) -> the one Use of those values (see _use)


def _use(source: str, owner: int, resource: str, slot: int, discard: str, card: str) -> Use:
    """The :class:`Use` of these values, one object for all the Builds that pay with it (a
    search lists tens of thousands of Builds over a few hundred distinct parts: fewer
    objects to make and for the garbage collector to walk); at most :data:`MEMO_SIZE` kept."""
    key = (source, owner, resource, slot, discard, card)
    u = _USES.get(key)
    if u is None:
        if len(_USES) >= MEMO_SIZE:
            _USES.clear()
        u = _USES[key] = Use(source, owner, resource, slot, discard, card)
    return u


def can_build(s, p: int) -> bool:
    """Whether ``p`` has a legal Build now: a building in hand with an affordable minimal
    payment (the same answer as ``bool(build_options(s, p))``, without listing them); each
    card's answer kept per situation (:func:`build_options`)."""
    cards = s.box.cards
    payable = _situation(s, p)[1]
    return any(cards[k].kind == "building" and _payable(s, p, k, payable) for k in set(s.hands[p]))


def _payable(s, p: int, card: str, payable: dict) -> bool:
    """Whether some affordable minimal payment of ``p`` pays for ``card`` (a building) now,
    kept in ``payable`` (:func:`_situation`'s card -> answer table of ``p``'s situation)."""
    ok = payable.get(card)
    if ok is None:
        ok = payable[card] = bool(_plan_table(s, p, card)[2])
    return ok


def _hall_reason(s, p: int, card: str, cost, g: nx.Graph) -> str:
    """Hall's condition over resource types: the smallest set of needed resources with more
    units than free sources able to give one of them."""
    need = Counter(cost)
    ts, units, nbrs = _hall_violation(cost, g)
    names = []
    for n in sorted(nbrs, key=lambda n: (n[2] != p, n[2], n[1], n[3])):
        if n[1] == "castle":
            names.append(f"{who(n[2])}'s castle")
        elif n[1] == "developed":
            names.append(f"{who(n[2])}'s {card_name(s, s.developed[n[2]][n[3]])}")
        else:
            names.append(f"{who(n[2])}'s Castle Grounds")
    what = " + ".join(f"{need[t]} {t}" for t in ts)
    have = ", ".join(names) if names else "none"
    tied = _tied_text(s, p)
    off = ""
    if not s.modules["castle_grounds"]:
        # what makes the build illegal in the player's terms: a switched-off module that would pay it
        owners = [p] + ([q for q in range(s.players) if q != p] if s.box.grounds_any_player else [])
        grounds = [("grounds", q, 0, s.box.resources, s.box.grounds_gold) for q in owners
                   if len(s.grounds[q]) < s.box.grounds_uses]
        short = units - len(nbrs)  # each Grounds use discards another card from the hand
        if (grounds and len(s.hands[p]) - 1 >= short
                and _hall_violation(cost, _graph(cost, list(free_sources(s, p)) + grounds)) is None):
            off = ("; a Castle Grounds could give what is missing, but the Castle Grounds module is not in play in "
                   f"this game ({SEC_GROUNDS})")
    return (f"the {card_name(s, card)} needs {what} but only {_plural(len(nbrs), 'free source')} can give "
            f"{'it' if len(ts) == 1 and need[ts[0]] == 1 else 'them'} ({have})" + (f"; {tied}" if tied else "") + off)


def _hall_violation(cost, g: nx.Graph):
    """``(resource types, units, sources)``: the smallest set of needed resource types with
    more units than free sources able to give one of them on the payment graph ``g``; ``None``
    when every set has enough (Hall's condition: the cost can be matched to sources)."""
    need = Counter(cost)
    types = list(need)
    for k in range(1, len(types) + 1):
        for ts in combinations(types, k):
            units = sum(need[t] for t in ts)
            nbrs = set()
            for j, r in enumerate(cost):
                if r in ts:
                    nbrs |= set(g.neighbors(("unit", j, r)))
            if units > len(nbrs):
                return ts, units, nbrs
    return None


def discard_choices(s, p: int, card: str, plan: Plan) -> list[tuple[str, ...]]:
    """The distinct choices of discards for the Castle Grounds uses of ``plan`` (sorted card
    keys from ``p``'s hand without one copy of the building)."""
    return _discard_choices(s.hands[p], card, plan.cards)


def _discard_choices(hand, card: str, n: int) -> list[tuple[str, ...]]:
    if n == 0:
        return [()]
    if n == 1:  # each distinct card of the hand without one copy of the building (_choices' common case)
        return [(k,) for k in sorted(set(hand)) if k != card or hand.count(k) > 1]
    hand = list(hand)
    hand.remove(card)
    return _choices(hand, n)


def _choices(cards, n: int) -> list[tuple[str, ...]]:
    """The distinct choices of ``n`` of ``cards`` (card keys, copies alike), each a sorted
    tuple, in sorted order."""
    if n == 1:  # the common case (a Castle Grounds use, an icon landmark): one per distinct card
        return [(k,) for k in sorted(set(cards))]
    return sorted(set(combinations(sorted(cards), n)))


def build_options(s, p: int) -> list[Build]:
    """Every :class:`Build` ``p`` could make now, over both of a Build's decisions: each
    building of the hand (by key), each minimal payment, each choice of discards
    (:func:`card_builds` of each card in turn). The legal actions list one card's at a time,
    once it is chosen (:class:`~.actions.ChooseBuilding`); this is the whole set, for tables
    and checks. Equal positions give the same :class:`Build` objects."""
    out = []
    cards = s.box.cards
    for key in sorted(set(s.hands[p])):
        if cards[key].kind == "building":
            out += card_builds(s, p, key)
    return out


def card_builds(s, p: int, card: str) -> list[Build]:
    """The legal :class:`Build` actions of ``p`` building ``card`` (a building of the hand)
    now: each minimal payment in rank order (:func:`plan_payments`), each with each choice
    of discards for its Castle Grounds uses; empty when no payment fits (Architects: How To
    Play, Build). Each building's payments are worked out once per *situation* (``p``, the
    developed cards, the sources holding gold, how full each Castle Grounds is, ``p``'s gold,
    the Castle Grounds switch and the hand's size) and kept (:func:`memo_table` ``"builds"``,
    :func:`_plan_builds`), so a hand only picks its discards. Equal positions give the same
    :class:`Build` objects."""
    by_card = _situation(s, p)[0]
    plan = by_card.get(card)
    if plan is None:
        plan = by_card[card] = _plan_builds(s, p, card, tuple(free_sources(s, p)), tuple(s.developed[p]))
    entries, plain = plan
    return list(plain) if plain is not None else _hand_builds(tuple(sorted(s.hands[p])), card, entries)


def buildable_cards(s, p: int) -> list[str]:
    """The distinct buildings of ``p``'s hand that some minimal payment can pay for now, by
    key: the cards ``p`` may choose to build (:class:`~.actions.ChooseBuilding`; each has at
    least one :func:`card_builds`). Each card's answer is kept per situation, as
    :func:`can_build`'s."""
    cards = s.box.cards
    payable = _situation(s, p)[1]
    return [k for k in sorted(set(s.hands[p])) if cards[k].kind == "building" and _payable(s, p, k, payable)]


def refuse_choose(s, p: int, card) -> Refusal | None:
    """Why ``p`` may not choose to build ``card`` now (the first of a Build's two decisions),
    or ``None``: the card must be a building of ``p``'s hand that some minimal payment can pay
    for; the reason names what is missing (:func:`plan_payments`' ``why_none``; Architects:
    How To Play, Build)."""
    box = s.box
    if not isinstance(card, str) or card not in box.cards:
        return refusal(f"there is no card {card!r} in the deck", SEC_BUILD)
    c = box.cards[card]
    if card not in s.hands[p]:
        return refusal(lambda: f"{who(p)} has no {c.name} in hand", SEC_BUILD)
    if c.kind != "building":
        return refusal(lambda: f"the {c.name} is an adventurer: adventurers are recruited, not built", SEC_BUILD)
    if not _payable(s, p, card, _situation(s, p)[1]):
        return refusal(lambda: f"{who(p)} cannot pay for the {c.name}: {plan_payments(s, p, card).why_none}", SEC_BUILD)
    return None


def _situation(s, p: int) -> tuple[dict, dict]:
    """The tables :func:`card_builds`, :func:`buildable_cards` and :func:`can_build` keep for ``p``'s situation
    (:func:`memo_table` ``"builds"``): card -> its plan Builds (:func:`_plan_builds`); card
    -> whether an affordable payment exists."""
    situation = (p, tuple(s.developed[p]), tuple(sorted(s.spent[p])), tuple([len(g) for g in s.grounds]), s.gold[p],
                 s.modules["castle_grounds"], len(s.hands[p]))
    memo = memo_table(s.box, "builds")
    known = memo.get(situation)
    if known is None:
        known = memo[situation] = ({}, {})
    return known


def _plan_builds(s, p: int, card: str, sources: tuple, devs: tuple) -> tuple:
    """``(entries, plain)`` for ``p`` building ``card`` with the free ``sources``: per plan of
    :func:`_plan_table`, in rank order, the discards it needs and either its Build (no
    discard) or its Builds by discards (the ``"builds by parts"`` table: the card and the
    payment's parts as plain values -> discards -> Build, so each Build that discards is one
    object wherever it is legal) with the parts; ``plain``, the Builds themselves when no
    plan discards (then the hand does not matter), else ``None``. Memoised
    (:func:`memo_table` ``"plan builds"``) by the plan table's key."""
    table = _plan_table(s, p, card, sources, devs)
    plans = memo_table(s.box, "plan builds")
    hit = plans.get(table[0])
    if hit is None:
        nodes = table[1]
        same = memo_table(s.box, "builds by parts")  # plain values in, so no action is compared
        entries = []
        for _, _, cards, pairs in table[2]:
            if not cards:
                entries.append((0, Build(card, _uses_of(nodes, pairs)), None))
                continue
            parts = tuple((nodes[i], r) for i, r in pairs)
            by_discards = same.get((card, parts))
            if by_discards is None:
                by_discards = same[(card, parts)] = {}
            entries.append((cards, by_discards, parts))
        plain = tuple(e[1] for e in entries) if all(e[0] == 0 for e in entries) else None
        hit = plans[table[0]] = (tuple(entries), plain)
    return hit


def _hand_builds(hand: tuple, card: str, entries: tuple) -> list[Build]:
    """The Builds of ``card`` from :func:`_plan_builds`' ``entries`` with each choice of
    discards from ``hand`` (the builder's, sorted; :func:`_discard_choices`), in plan order."""
    choices = {}
    out = []
    for cards, found, parts in entries:
        if not cards:
            out.append(found)
            continue
        ch = choices.get(cards)
        if ch is None:
            ch = choices[cards] = _discard_choices(hand, card, cards)
        got = list(map(found.get, ch))  # one C-level pass over a card's payments (dozens with discard choices)
        if not all(got):  # None where this payment with these discards is new (a Build is always true)
            for i, a in enumerate(got):
                if a is None:
                    ds = ch[i]
                    got[i] = found[ds] = Build(card, _payment(parts, ds))
        out += got
    return out


def _payment(parts, discards: tuple) -> tuple[Use, ...]:
    """A Build's payment from a plan's ``parts`` (``(source, owner, slot, card), resource``
    pairs) with ``discards`` given to its Castle Grounds uses in order."""
    out = []
    i = 0
    for n, r in parts:  # inline: a search makes a Build's payment tens of thousands of times
        if n[0] == "grounds":
            d = discards[i]
            i += 1
        else:
            d = ""
        u = _USES.get((n[0], n[1], r, n[2], d, n[3]))
        out.append(_use(n[0], n[1], r, n[2], d, n[3]) if u is None else u)
    return tuple(out)


def refuse_build(s, p: int, a: Build) -> Refusal | None:
    """Why ``p`` may not make Build ``a`` now, or ``None``: the card must be a building in
    hand; the payment must place one gold on each of distinct free sources of the right kind
    (own castle, own developed resource showing that icon, a Castle Grounds with room and a
    discard of another card in hand), give exactly the resources of the cost, and fit ``p``'s
    gold (Architects: How To Play, Build; minimal payments only, kit ruling L10)."""
    box = s.box
    if not isinstance(a.card, str) or a.card not in box.cards:
        return refusal(f"there is no card {a.card!r} in the deck", SEC_BUILD)
    c = box.cards[a.card]
    if a.card not in s.hands[p]:
        return refusal(lambda: f"{who(p)} has no {c.name} in hand", SEC_BUILD)
    if c.kind != "building":
        return refusal(lambda: f"the {c.name} is an adventurer: adventurers are recruited, not built", SEC_BUILD)
    if not isinstance(a.payment, tuple) or not all(isinstance(u, Use) for u in a.payment):
        return refusal(f"the payment must be a tuple of Use parts, got {a.payment!r}", SEC_BUILD)
    seen, gold, discards, gives = set(), 0, [], []
    for u in a.payment:
        why = _refuse_use(s, u)
        if why is not None:
            return why
        key = (u.source, u.owner, u.slot if u.source == "developed" else 0)
        if u.source == "castle" or u.source == "developed":
            why, placed = _own_source(s, p, u)
            if why is not None:
                return why
            gold += placed
        elif u.source == "grounds":
            why = _refuse_grounds(s, p, u, key, seen)
            if why is not None:
                return why
            if u.discard:
                discards.append(u.discard)
            gold += box.grounds_gold
        else:
            return refusal(f"{u.source!r} is not a source (castle, developed, grounds)", SEC_BUILD)
        if key in seen:
            return refusal(f"the payment uses {who(u.owner)}'s {u.source} twice; each holds one gold", SEC_BUILD)
        seen.add(key)
        gives.append(u.resource)
    return _refuse_totals(s, p, a, c, gives, gold, discards)


def _refuse_use(s, u: Use) -> Refusal | None:
    """Why one part of a payment is malformed (its owner, slot, resource, and the card
    or discard only the sources that have one name), or ``None``."""
    box = s.box
    if not is_integer(u.owner):
        return refusal(f"the owner must be a player index, a whole number (an int, not a bool or a float), "
                       f"got {u.owner!r}", SEC_BUILD)
    if not 0 <= u.owner < s.players:
        return refusal(f"{u.owner!r} is not a player of this game (players 0..{s.players - 1})", SEC_BUILD)
    if not is_integer(u.slot):
        return refusal(f"slot {u.slot!r} must be a whole number (an int, not a bool or a float)", SEC_BUILD)
    if u.resource not in box.resources:
        return refusal(f"{u.resource!r} is not a resource (resources: {', '.join(box.resources)})", SEC_BUILD)
    if u.source != "developed" and (u.slot or u.card):
        return refusal(f"only a developed resource has a slot and a card; the {u.source} part names one", SEC_BUILD)
    if u.source != "grounds" and u.discard:
        return refusal(f"only a Castle Grounds use discards a card; the {u.source} part names one", SEC_GROUNDS)
    return None


def _own_source(s, p: int, u: Use) -> tuple:
    """A part on ``p``'s castle or developed resource: ``(Refusal, 0)`` when it may not be,
    else ``(None, the gold it places)``."""
    box = s.box
    if u.owner != p:
        return refusal(lambda u=u: f"{who(p)} may place gold only on their own castle and developed resources, "
                                   f"not on {who(u.owner)}'s", SEC_BUILD), 0
    if u.source == "castle":
        if "castle" in s.spent[p]:
            return refusal(lambda: f"{who(p)}'s castle already holds gold until {who(p)}'s next lead", SEC_SOURCES), 0
        return None, box.castle_gold
    else:
        if not 0 <= u.slot < len(s.developed[p]):
            return refusal(f"{who(p)} has no developed resource {u.slot + 1}", SEC_BUILD), 0
        dev = box.cards[s.developed[p][u.slot]]
        if u.card and u.card != dev.key:
            return refusal(lambda dev=dev, u=u: f"{who(p)}'s developed resource {u.slot + 1} is the {dev.name}, "
                                                f"not the {card_name(s, u.card)}", SEC_BUILD), 0
        if f"developed:{u.slot}" in s.spent[p]:
            return refusal(lambda dev=dev: f"{who(p)}'s {dev.name} already holds gold until {who(p)}'s next lead",
                           SEC_SOURCES), 0
        if u.resource not in dev.icons:
            return refusal(lambda dev=dev, u=u: f"{who(p)}'s {dev.name} gives {', '.join(dev.icons) or 'nothing'}, "
                                                f"not {u.resource}", SEC_BUILD), 0
        return None, box.developed_gold


def _refuse_grounds(s, p: int, u: Use, key: tuple, seen: set) -> Refusal | None:
    """Why a part may not use a Castle Grounds (module, whose grounds, room, discard), or ``None``."""
    box = s.box
    if not s.modules["castle_grounds"]:
        return refusal("the Castle Grounds module is not in play in this game", SEC_GROUNDS)
    if u.owner != p and not box.grounds_any_player:
        return refusal("this box allows only your own Castle Grounds", SEC_BUILD)
    if len(s.grounds[u.owner]) >= box.grounds_uses or key in seen:
        return refusal(lambda u=u: f"{who(u.owner)}'s Castle Grounds already hold gold (one at a time, as on a "
                                   f"developed resource)", SEC_SOURCES)
    if box.grounds_discard and not u.discard:
        return refusal("a Castle Grounds use needs a card discarded from hand", SEC_GROUNDS)
    return None


def _refuse_totals(s, p: int, a: Build, c, gives: list, gold: int, discards: list) -> Refusal | None:
    """Why the payment as a whole fails: resources other than the cost, more gold than
    ``p`` has, discards ``p`` does not hold besides the building; or ``None``."""
    if Counter(gives) != Counter(c.cost):
        got = _cost_text(gives) or "nothing"
        extra = "overpays" if len(gives) > len(c.cost) else "does not pay"
        return refusal(lambda: f"the {c.name} costs {_cost_text(c.cost)}; this payment gives {got}, so it {extra} "
                               f"it (only minimal payments are legal)", SEC_BUILD)
    if gold > s.gold[p]:
        return refusal(lambda: f"the payment places {_gold(gold)}; {who(p)} has {_gold(s.gold[p])}",
                       SEC_BUILD)
    hand = Counter(s.hands[p])
    hand[a.card] -= 1
    missing = Counter(discards) - hand
    if missing:
        k = next(iter(missing))
        return refusal(lambda: f"{who(p)} has no {card_name(s, k)} to discard besides the {c.name} being built",
                       SEC_GROUNDS)
    return None


def do_build(s, p: int, a: Build) -> None:
    """Apply a legal Build ``a`` (:func:`refuse_build`): one gold on each source of the
    payment (castle, developed card, Castle Grounds with its discard), and the building card
    from ``p``'s hand to the village. Pushes no decision; logs ``paid`` and ``built``
    (Architects: How To Play, Build)."""
    box = s.box
    c = box.cards[a.card]
    s.hands[p].remove(a.card)
    logged = s.log is not None
    for u in a.payment:
        if u.source == "castle":
            s.spent[p].add("castle")
            s.gold[p] -= box.castle_gold
            if logged:
                s.emit("paid", p, f"{who(p)} places {_gold(box.castle_gold)} on their castle for a wild resource: "
                                  f"{u.resource} ({SEC_BUILD}).", source="castle", owner=p, resource=u.resource)
        elif u.source == "developed":
            s.spent[p].add(f"developed:{u.slot}")
            s.gold[p] -= box.developed_gold
            if logged:
                dev = card_name(s, s.developed[p][u.slot])
                s.emit("paid", p, f"{who(p)} places {_gold(box.developed_gold)} on their {dev}: {u.resource} "
                                  f"({SEC_BUILD}).", source="developed", owner=p, slot=u.slot, resource=u.resource)
        else:
            s.grounds[u.owner].append(p)
            s.gold[p] -= box.grounds_gold
            if u.discard:
                s.hands[p].remove(u.discard)
                s.discard_pile.append(u.discard)
            if logged:
                whose = "their own" if u.owner == p else f"{who(u.owner)}'s"
                later = (f"; it belongs to {who(u.owner)} at {who(u.owner)}'s next lead" if u.owner != p else "")
                s.emit("paid", p, f"{who(p)} places {_gold(box.grounds_gold)} on {whose} Castle Grounds and "
                                  f"discards the {card_name(s, u.discard)} for a wild resource: {u.resource}{later} "
                                  f"({SEC_BUILD}).", source="grounds", owner=u.owner, resource=u.resource, discard=u.discard)
    s.villages[p].append(a.card)
    if logged:
        s.emit("built", p, f"{who(p)} builds the {c.name} ({c.type}, {_plural(c.victory_points, 'victory point')}) "
                           f"into their village ({SEC_BUILD}).", card=a.card)
    n = village_cards(s, p)
    if n >= box.end_trigger_cards and not s.end_triggered:
        s.end_triggered = True
        if logged:
            s.emit("end_trigger", p, f"{who(p)}'s village reaches {n} cards (landmark tokens do not count), which "
                                     f"triggers the end of the base game ({SEC_ACQUIRE}).", cards=n)


# ============================================================================ scoring


def score_rows(s) -> list[dict]:
    """One row per player and scoring source, with its points and a sentence explaining them:
    most of each landmark type (Landmarks: Scoring 1), token victory points (Gates, Scoring 2),
    sets of all types (Scoring 3), and the architect's two building types (Architects: Scoring).
    A switched-off module adds no rows."""
    box = s.box
    rows = []
    n = s.players
    if s.modules["landmarks"]:
        for key, lt in box.landmarks.items():
            counts = [s.tokens[p][key] for p in range(n)]
            top = max(counts)
            leaders = [p for p in range(n) if counts[p] == top]
            for p in range(n):
                if top < box.most_minimum:
                    pts, why = 0, f"nobody has a {lt.name} token"
                elif len(leaders) > 1 and p in leaders:
                    others = ", ".join(who(q) for q in leaders if q != p)
                    pts, why = 0, f"tied for the most {lt.name} tokens ({top}) with {others}: nobody scores"
                elif p in leaders:
                    pts, why = box.most_points, f"the most {lt.name} tokens: {counts[p]} (next best {max([c for q, c in enumerate(counts) if q != p], default=0)})"
                else:
                    mine = f"{counts[p]} {lt.name} token{'s' if counts[p] != 1 else ''}"
                    if len(leaders) > 1:
                        pts, why = 0, f"{mine}; {' and '.join(who(q) for q in leaders)} tie with {top}: nobody scores"
                    else:
                        pts, why = 0, f"{mine}; {who(leaders[0])} has the most ({top})"
                rows.append({"player": who(p), "source": f"most {lt.name}", "points": pts, "explanation": why,
                             "section": SEC_LANDMARK_SCORING})
        for key, lt in box.landmarks.items():
            if lt.victory_points:
                for p in range(n):
                    k = s.tokens[p][key]
                    rows.append({"player": who(p), "source": f"{lt.name} tokens", "points": k * lt.victory_points,
                                 "explanation": f"{k} {lt.name} token{'s' if k != 1 else ''} x {lt.victory_points}",
                                 "section": SEC_LANDMARK_SCORING})
        for p in range(n):
            sets = min(s.tokens[p][k] for k in box.landmarks)
            have = ", ".join(f"{s.tokens[p][k]} {box.landmarks[k].name}" for k in box.landmarks)
            rows.append({"player": who(p), "source": "landmark sets", "points": sets * box.set_points,
                         "explanation": f"{sets} full set{'s' if sets != 1 else ''} of the {len(box.landmarks)} types "
                                        f"x {box.set_points} ({have})", "section": SEC_LANDMARK_SCORING})
    if s.modules["architects"]:
        for p in range(n):
            arch = box.architects.get(s.architects[p]) if s.architects[p] else None
            if arch is None:
                continue
            for t in arch.types:
                blds = [box.cards[k] for k in s.villages[p] if box.cards[k].type == t]
                built = [c for c in blds if c.kind == "building"]
                skipped = len(blds) - len(built)
                note = f"; {skipped} adventurer{'s' if skipped != 1 else ''} of that type not counted" if skipped else ""
                rows.append({"player": who(p), "source": f"architect: {t}", "points": len(built) * box.architect_points,
                             "explanation": f"{arch.name}: {len(built)} {t} building{'s' if len(built) != 1 else ''} "
                                            f"x {box.architect_points}{note}", "section": SEC_ARCHITECT_SCORING})
    return rows


def score_table(s):
    """The module's victory points as a long pandas DataFrame: columns player, source,
    points, explanation, section; one row per player and source (zeros explained too)."""
    import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

    cols = ["player", "source", "points", "explanation", "section"]
    rows = score_rows(s)
    return pd.DataFrame({c: [r[c] for r in rows] for c in cols}, columns=cols)


def score_summary(s):
    """Points per player (rows P1..) and source (columns), with a ``total`` column."""
    t = score_table(s)
    players = [who(p) for p in range(s.players)]
    if t.empty:
        import pandas as pd  # lazy: pandas is heavy to import; only the table outputs need it

        return pd.DataFrame({"total": [0] * s.players}, index=players)
    pv = t.pivot_table(index="player", columns="source", values="points", aggfunc="sum", sort=False).fillna(0).astype(int)
    pv = pv.reindex(players).fillna(0).astype(int)
    pv["total"] = pv.sum(axis=1)
    pv.columns.name = None
    return pv


def _players_words(players: list[int]) -> str:
    """``"P1"``, ``"P1 and P3"``, ``"P1, P2 and P4"``."""
    names = [who(p) for p in players]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def game_over_sentence(points: list[int]) -> str:
    """The game-over event's sentence: the players ranked by module points (P1 first in
    ``points``), in words. The sole most points wins; players tied at the top share the
    first place and nobody wins alone (RULINGS L14, the kit's measure: the base game, which
    decides the real winner, is not played); equal points share a place.

    ``[6, 1, 7]``: "The game is over and the modules are scored: P3 wins with 7 points; then
    P1 with 6 points; then P2 with 1 point (who wins: kit ruling L14)." ``[2, 4, 4]``: "... P2 and P3 tie for the most points with 4 points each,
    so nobody wins alone; then P1 with 2 points (...)."
    """
    places = sorted(set(points), reverse=True)
    groups = [(v, [p for p, x in enumerate(points) if x == v]) for v in places]
    (top, leaders), rest = groups[0], groups[1:]
    if len(leaders) == 1:
        first = f"{who(leaders[0])} wins with {_plural(top, 'point')}"
    else:
        first = f"{_players_words(leaders)} tie for the most points with {_plural(top, 'point')} each, so nobody wins alone"
    after = "".join(f"; then {_players_words(ps)} with {_plural(v, 'point')}{' each' if len(ps) > 1 else ''}"
                    for v, ps in rest)
    return f"The game is over and the modules are scored: {first}{after} (who wins: {SEC_WINNER})."


def totals(s) -> list[int]:
    """Each player's module points, P1 first: the sum of :func:`score_rows` per player,
    without the explanations (what :func:`player_points` gives each player, worked out in
    one pass over the landmark types: a majority is the sole top count of a type, at least
    the box's minimum)."""
    box = s.box
    n = s.players
    pts = [0] * n
    if s.modules["landmarks"]:
        landmark_points = scoring_tables(box)[0]
        tokens = s.tokens
        most_minimum, most_points = box.most_minimum, box.most_points
        least = None
        for key, vp in landmark_points:
            col = [t[key] for t in tokens]
            top = max(col)
            if top >= most_minimum and col.count(top) == 1:
                pts[col.index(top)] += most_points
            if vp:
                for q in range(n):
                    pts[q] += col[q] * vp
            least = col if least is None else list(map(min, least, col))
        if least is not None and box.set_points:
            for q in range(n):
                pts[q] += least[q] * box.set_points
    if s.modules["architects"]:
        for q in range(n):
            pts[q] += _architect_points(s, q)
    return pts


def token_points(s, p: int) -> tuple[int, dict]:
    """``p``'s module points now and, for each landmark type, right after acquiring one more
    token of it: ``(player_points(s, p), {key: player_points(s, p, plus_token=key)})``, worked
    out in one pass (the greedy bot scores every acquisition of a follow with them). One more
    token changes that type's majority, its token points and perhaps the number of sets."""
    box = s.box
    if not s.modules["landmarks"]:
        now = _architect_points(s, p) if s.modules["architects"] else 0
        return now, dict.fromkeys(box.landmarks, now)
    landmark_points = scoring_tables(box)[0]
    tokens = s.tokens
    mine = tokens[p]
    others = [tokens[q] for q in range(s.players) if q != p]
    most_minimum, most_points, set_points = box.most_minimum, box.most_points, box.set_points
    now = 0
    gain = {}  # key -> the points one more token adds to that type's majority and token points
    counts = []
    for key, vp in landmark_points:
        k = mine[key]
        best = max([t[key] for t in others], default=-1)
        had = most_points if k >= most_minimum and best < k else 0
        now += had + k * vp
        gain[key] = (most_points if k + 1 >= most_minimum and best < k + 1 else 0) - had + vp
        counts.append(k)
    least = min(counts) if counts else 0
    now += least * set_points
    if s.modules["architects"]:
        now += _architect_points(s, p)
    after = {}
    for i, (key, _) in enumerate(landmark_points):
        k = counts[i]
        # sets: the least count rises only if this type was the only one at the least
        more = set_points if k == least and counts.count(least) == 1 else 0
        after[key] = now + gain[key] + more
    return now, after


def _architect_points(s, p: int) -> int:
    """The points ``p``'s architect gives for the buildings in ``p``'s village (Architects:
    Scoring); 0 without an architect (the module in play is the caller's check)."""
    if not s.architects[p]:
        return 0
    box = s.box
    arch = box.architects.get(s.architects[p])
    if arch is None:
        return 0
    building_types = scoring_tables(box)[1]
    types = arch.types
    n = 0
    for k in s.villages[p]:
        t = building_types[k]
        if t is not None and t in types:
            n += types.count(t)
    return n * box.architect_points


def architect_bonus(s, p: int, card: str) -> int:
    """The points ``p``'s architect adds for ``card`` entering ``p``'s village: the box's
    architect points for each of the architect's types that is the card's, if it is a
    building (adventurers do not count; Architects: Scoring); 0 without the module or an
    architect. ``player_points(s, p, plus_card=card) == player_points(s, p) + architect_bonus(s, p, card)``."""
    if not s.modules["architects"] or not s.architects[p]:
        return 0
    arch = s.box.architects.get(s.architects[p])
    c = s.box.cards[card]
    if arch is None or c.kind != "building":
        return 0
    return sum(1 for t in arch.types if t == c.type) * s.box.architect_points


def player_points(s, p: int, plus_token: str | None = None, plus_card: str | None = None) -> int:
    """``p``'s module points (what :func:`score_rows` gives ``p`` in all), optionally as if
    ``p`` held one more ``plus_token`` landmark token or had ``plus_card`` in the village:
    the points right after acquiring that landmark or building that card (the greedy bot's
    score). Majorities (the sole most tokens of a type, at least the box's minimum), token
    victory points and sets (Landmarks: Scoring), the architect's building types
    (Architects: Scoring)."""
    box = s.box
    pts = 0
    if s.modules["landmarks"]:
        landmark_points = scoring_tables(box)[0]
        tokens = s.tokens
        mine = tokens[p]
        others = [tokens[q] for q in range(s.players) if q != p]
        least = None
        most_minimum, most_points = box.most_minimum, box.most_points
        for key, vp in landmark_points:
            k = mine[key] + (key == plus_token)
            if k >= most_minimum:
                for t in others:
                    if t[key] >= k:
                        break
                else:
                    pts += most_points
            pts += k * vp
            if least is None or k < least:
                least = k
        pts += (least or 0) * box.set_points
    if s.modules["architects"]:
        pts += _architect_points(s, p)
        if plus_card is not None:
            pts += architect_bonus(s, p, plus_card)
    return pts


def scoring_tables(box) -> tuple[tuple[tuple[str, int], ...], dict]:
    """What scoring reads of ``box``, worked out once per box (:func:`memo_table`
    ``"scoring"``): the landmark types as ``(key, victory points)`` pairs in the box's order,
    and each card key -> its type if it is a building, else ``None`` (adventurers never
    count for an architect; Architects: Scoring)."""
    if _SCORING[0] is box:
        return _SCORING[1]
    table = memo_table(box, "scoring")
    hit = table.get(None)
    if hit is None:
        hit = table[None] = (tuple((key, lt.victory_points) for key, lt in box.landmarks.items()),
                             {k: (c.type if c.kind == "building" else None) for k, c in box.cards.items()})
    _SCORING[:] = [box, hit]
    return hit


_SCORING: list = [None, None]  # the box of the last scoring_tables call and its answer
