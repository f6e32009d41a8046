"""Who may see what: a game declares its hidden parts once; every tool redacts from it.

A game's ``visibility`` (a :class:`Visibility`, declared beside its state fields and read
by :func:`visibility_of`) says, for every event kind it emits and for every part of its
observation that not everyone sees, who may see it and what the others see instead:

* ``Seen(EVERYONE)``: everyone (the default of an observation field the game does not name);
* ``Seen(ACTOR, "{who} takes a card face down.")``: an event seen by the player it belongs to
  (``event.player``); the others get the sentence, ``{who}`` written as that player
  (``"P2"``), with no cell and no data;
* ``Seen(OWNER, ..., owner="seat")``: an event seen by the seat named in its data
  (``event.data["seat"]``); an observation field ``"hands.*"`` seen by the seat whose entry
  it is (the index the ``*`` stands for; or ``owner="key"``: the seat the observation's
  ``key`` names); the others get ``instead``: a value, a function of the hidden value
  (``len``: how many cards) or :data:`DROP` (the key left out);
* ``Seen(NOBODY, ...)``: no player (the seed, a deck's order); only the omniscient view.

``until(observation) -> bool`` turns a hidden field face up for everyone (Landmarks'
architects once the game is over). ``guess`` marks an event kind whose words come from
values a viewer may not know: :data:`CHANCE` (a die, a draw, or what several seats hold,
such as final scores: no one viewer knows it) or :data:`HELD` (what the event's player
held hidden, turned up: only they know it). In a position a search guessed (a
determinisation; the ``guessed=True`` of :meth:`Visibility.event`) such an event is a
guess, so the hints and the review show its ``instead`` sentence, never the sampled value
(a HELD one stays as it is for its own player).

Every event is marked ``private`` from its kind (:meth:`Visibility.private`, read by each
engine's emit), so a kind's privacy too is said once.

Viewers: ``None`` is the omniscient view (the engine, a teacher's save); a player index
sees their own parts; any other number (``-1``, :data:`PUBLIC`: a projector, a covered
hot-seat screen, a watcher) sees only what everyone sees.

The kit's tools read nothing else: each game's ``observation(p)`` and ``events(viewer)``
are this declaration applied to the omniscient ones (:meth:`Visibility.observation`,
:meth:`Visibility.event`), the search redacts a determinisation's log and a guessed
move's events with it (:func:`haunted_kit.search.determinise`,
:func:`haunted_kit.search.move_events`), the review's sentences and the classroom store's
seat export go through it, each game's classroom view writes its log (and Landmarks its
player boards) through it, and :func:`declaration_problems` checks a game's declaration
against its games (``tests/test_visibility.py`` over every registered game and two toys).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .events import Event, log_to_frame

__all__ = ["ACTOR", "CHANCE", "DROP", "EVERYONE", "HELD", "NOBODY", "OWNER", "PUBLIC", "Seen", "Visibility",
           "decision_words", "declaration_problems", "seen_events", "seen_observation", "visibility_of"]

EVERYONE, ACTOR, OWNER, NOBODY = "everyone", "actor", "owner", "nobody"
WHO = (EVERYONE, ACTOR, OWNER, NOBODY)
CHANCE, HELD = "chance", "held"  #: an event's ``guess``: a chance outcome; what its player held hidden
PUBLIC = -1  #: a viewer who is no player (projector, covered hot seat, watcher): sees only what everyone sees


class _Drop:
    def __repr__(self) -> str:
        return "DROP"


DROP = _Drop()  #: ``instead`` of a field: the others' observation leaves the key out


@dataclass(frozen=True)
class Seen:
    """Who may see one event kind or one observation field (see the module).

    Args:
        who: :data:`EVERYONE`, :data:`ACTOR` (events only), :data:`OWNER` or :data:`NOBODY`.
        instead: what the others see. Events: a sentence, ``{who}`` standing for the
            event's player (``"P2"``). Fields: a value, a function of the hidden value, or
            :data:`DROP`.
        owner: OWNER events: the data key naming the owner seat. OWNER fields: ``None``
            (the index the path's first ``*`` stands for) or an observation key naming it.
        until: fields: ``until(omniscient observation) -> bool``, when True everyone sees it.
        guess: events: ``None``, :data:`CHANCE` or :data:`HELD` (see the module); in a
            guessed position such an event reads as ``instead``.

    Raises:
        ValueError: an unknown ``who``, ACTOR on a field, or a hidden event or guessed one
            without a sentence (checked by :class:`Visibility`).
    """

    who: str = EVERYONE
    instead: Any = None
    owner: str | None = None
    until: Callable[[dict], bool] | None = None
    guess: str | None = None

    def __post_init__(self):
        if self.who not in WHO:
            raise ValueError(f"who must be one of {', '.join(WHO)}, got {self.who!r}")
        if self.guess not in (None, CHANCE, HELD):
            raise ValueError(f"guess must be None, {CHANCE!r} or {HELD!r}, got {self.guess!r}")


#: the declaration of an event kind a game forgot to declare: its player's only
UNDECLARED = Seen(ACTOR, "{who}: something happened that the game does not say to everyone.")


@dataclass(frozen=True)
class Visibility:
    """A game's one declaration of what is hidden (see the module).

    Args:
        events: every event kind the game emits -> its :class:`Seen` (``Seen()``: public).
        fields: observation paths not everyone sees -> their :class:`Seen`. A path is dot
            separated; ``*`` stands for every entry of a list (or key of a dict):
            ``"players.*.quests"``, ``"hands.*"``, ``"config.seed"``.
        log: the observation key holding the event log as event dicts (each redacted as
            :meth:`event`), or None.

    Raises:
        ValueError: a declaration that cannot work (named).
    """

    events: Mapping[str, Seen]
    fields: Mapping[str, Seen] = field(default_factory=dict)
    log: str | None = None

    def __post_init__(self):
        # the kinds everyone sees outside a guessed position: a log's events of these kinds pass as they are
        object.__setattr__(self, "_public", frozenset(k for k, s in self.events.items() if s.who == EVERYONE))
        for kind, s in self.events.items():
            if (s.who != EVERYONE or s.guess) and not isinstance(s.instead, str):
                raise ValueError(f"event kind {kind!r}: what the others see instead must be a sentence")
            if s.who == OWNER and not s.owner:
                raise ValueError(f"event kind {kind!r}: an owner's event names the data key of its owner (owner=...)")
        for path, s in self.fields.items():
            if s.who == ACTOR:
                raise ValueError(f"field {path!r}: a field has no acting player; use OWNER or NOBODY")
            if s.who == OWNER and s.owner is None and "*" not in path.split("."):
                raise ValueError(f"field {path!r}: an owner's field is a per-seat entry ('x.*') or names owner=...")

    # ------------------------------------------------------------------ events
    def kind(self, kind: str) -> Seen:
        """The declaration of event ``kind``; an undeclared kind is :data:`UNDECLARED`
        (seen by its own player only: a forgotten kind never leaks, and
        :func:`declaration_problems` names it)."""
        return self.events.get(kind, UNDECLARED)

    def private(self, kind: str) -> bool:
        """Whether events of ``kind`` are not for everyone (``Event.private``: an engine's
        emit reads it here, so a kind's privacy is declared once)."""
        return self.kind(kind).who != EVERYONE

    def hides_event(self, kind: str, player, data, viewer, guessed: bool = False) -> bool:
        """Whether ``viewer`` sees an event of ``kind`` (of ``player``, with ``data``) as
        its ``instead`` sentence; ``guessed``: the event happened in a guessed position."""
        if viewer is None:
            return False
        s = self.kind(kind)
        owner = player if s.who != OWNER else data.get(s.owner)
        mine = owner is not None and viewer >= 0 and owner == viewer
        if guessed and (s.guess == CHANCE or (s.guess == HELD and not mine)):
            return True
        return s.who != EVERYONE and (s.who == NOBODY or not mine)

    def event(self, e: Event, viewer: int | None, *, guessed: bool = False) -> Event:
        """Event ``e`` as ``viewer`` may see it: ``e`` itself, or a copy with the declared
        sentence, no cell and no data (``private`` True). ``guessed``: ``e`` happened in a
        position a search guessed. Raises KeyError for an undeclared kind."""
        if not self.hides_event(e.kind, e.player, e.data, viewer, guessed):
            return e
        return Event(e.seq, e.season, e.round, e.phase, e.kind, e.player, self._sentence(e.kind, e.player), None, {}, True)

    def _sentence(self, kind: str, player) -> str:
        return self.kind(kind).instead.format(who="someone" if player is None else f"P{player + 1}")

    def event_dict(self, d: dict, viewer: int | None) -> dict:
        """:meth:`event` of an event's JSON form (``Event.to_dict``), a new dict when redacted."""
        if not self.hides_event(d["kind"], d["player"], d.get("data") or {}, viewer):
            return d
        return {**d, "text": self._sentence(d["kind"], d["player"]), "cell": None, "data": {}, "private": True}

    def log_for(self, events, viewer: int | None, *, guessed: bool = False) -> list:
        """``events`` as ``viewer`` may see them (a new list)."""
        if guessed:
            return [self.event(e, viewer, guessed=True) for e in events]
        public = self._public
        return [e if e.kind in public else self.event(e, viewer) for e in events]

    def frame(self, events, viewer: int | None):
        """``events`` as ``viewer`` may see them as a DataFrame
        (:func:`haunted_kit.events.log_to_frame`): a game's ``events(viewer)``."""
        return log_to_frame(self.log_for(events, viewer))

    # ------------------------------------------------------------------ observations
    def observation(self, obs: dict, viewer: int | None) -> dict:
        """The omniscient observation ``obs`` (freshly built: changed in place) as ``viewer``
        may see it: every declared field ``viewer`` may not see replaced by its ``instead``
        (or left out), the log's events redacted. Returns ``obs``."""
        if viewer is None:
            return obs
        for path, s in self.fields.items():
            if s.who == EVERYONE or (s.until is not None and s.until(obs)):
                continue
            fixed = obs.get(s.owner) if (s.who == OWNER and s.owner is not None) else None
            self._hide(obs, path.split("."), s, viewer, fixed, obs)
        if self.log is not None and isinstance(obs.get(self.log), list):
            public = self._public
            obs[self.log] = [d if d["kind"] in public else self.event_dict(d, viewer) for d in obs[self.log]]
        return obs

    def _hide(self, node, parts, s: Seen, viewer, owner, obs) -> None:
        key, rest = parts[0], parts[1:]
        if key == "*":
            keys = range(len(node)) if isinstance(node, list) else list(node) if isinstance(node, dict) else ()
        else:
            keys = [key] if isinstance(node, dict) and key in node else ()
        for k in keys:
            own = k if (key == "*" and owner is None and s.who == OWNER and isinstance(k, int)) else owner
            if rest:
                self._hide(node[k], rest, s, viewer, own, obs)
            elif s.who == NOBODY or own is None or own != viewer or viewer < 0:
                if s.instead is DROP:
                    del node[k]
                else:
                    node[k] = s.instead(node[k]) if callable(s.instead) else s.instead

    def hidden_paths(self, obs: dict) -> list[str]:
        """The declared field paths that match nothing in ``obs`` (a typo would leak)."""
        def found(node, parts) -> bool:
            if not parts:
                return True
            if parts[0] == "*":
                items = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
                return not items or any(found(x, parts[1:]) for x in items)
            return isinstance(node, dict) and parts[0] in node and found(node[parts[0]], parts[1:])
        return [p for p in self.fields if not found(obs, p.split("."))]


def visibility_of(game) -> Visibility | None:
    """The game's ``visibility`` declaration, or ``None`` for a game that declares none
    (its observation must then hide nothing: :func:`declaration_problems`)."""
    return getattr(game, "visibility", None)


def seat_secrets(game) -> bool:
    """Whether ``game`` hides anything from the other players that one player sees (a
    declared field or event of :data:`OWNER` or :data:`ACTOR`): a hand, a quest. A game
    hiding only what nobody sees (the seed, a deck's order) or nothing has none, so a shared
    screen has no cards to show the player to move."""
    vis = visibility_of(game)
    if vis is None:
        return False
    return any(s.who in (OWNER, ACTOR) for s in (*vis.events.values(), *vis.fields.values()))


def seen_events(game, events, viewer: int | None, *, guessed: bool = False) -> list:
    """``events`` (a list of :class:`~haunted_kit.events.Event`) as ``viewer`` may see them
    under ``game``'s declaration (unchanged for a game that declares none)."""
    vis = visibility_of(game)
    if vis is None or viewer is None:
        return list(events)
    return vis.log_for(events, viewer, guessed=guessed)


def decision_words(game, state, since: int, actor, viewer, own: str) -> str:
    """``actor``'s decision as ``viewer`` may read it, without a closing full stop.

    The actor themself and the omniscient viewer (``None``) read ``own`` (the action's
    words, ``describe()``). Anyone else (another seat, :data:`PUBLIC`) reads the events the
    decision made, ``state.log[since:]`` of ``state`` just after it, as they may see them
    (:func:`seen_events`: ``"P1 seals an offer face down"``), never the action's words: a
    sealed offer or a face-down bid stays sealed whatever ``describe()`` says. A decision
    that made no event (or a state without a log) reads ``"P2 decided"``.

    Used wherever the kit words one seat's decision to another: the play views, the
    tutorial (through them) and the review's decision texts."""
    if viewer is None or viewer == actor:
        return own
    log = getattr(state, "log", None) or []
    said = [e.text.strip().rstrip(".") for e in seen_events(game, log[since:], viewer) if e.text.strip()]
    who = "someone" if actor is None else f"P{actor + 1}"
    return "; ".join(said) if said else f"{who} decided"


def seen_observation(game, state, viewer: int | None) -> dict:
    """``state``'s observation as ``viewer`` may see it: ``state.observation(viewer)`` for
    None or a player, and for any other viewer (:data:`PUBLIC`, a watcher) the game's
    declaration applied to ``observation(None)`` (a game without one hides nothing)."""
    if viewer is None or viewer >= 0:
        return state.observation(viewer)
    vis = visibility_of(game)
    full = state.observation(None)
    return full if vis is None else vis.observation(full, viewer)


def declaration_problems(game, state) -> list[str]:
    """What is wrong with ``game``'s declaration at ``state`` (empty when nothing): an
    event kind in the log it does not declare, a declared field path matching nothing of
    ``observation(None)``, an ``observation(p)`` (each player and :data:`PUBLIC` where the
    game accepts it) other than the declaration applied to ``observation(None)``, a hiding
    game without a declaration, and a private event whose kind is declared public."""
    vis, problems = visibility_of(game), []
    full = state.observation(None)
    log = getattr(state, "log", None) or []
    if vis is None:
        for p in range(state.players):
            if state.observation(p) != full:
                problems.append(f"observation({p}) hides something but the game declares no visibility")
        return problems
    for e in log:
        if e.kind not in vis.events:
            problems.append(f"event kind {e.kind!r} (seq {e.seq}) is not declared")
        elif e.private and vis.events[e.kind].who == EVERYONE:
            problems.append(f"event {e.seq} ({e.kind}) is private but its kind is declared seen by everyone")
    problems += [f"declared field {p!r} matches nothing of observation(None)" for p in vis.hidden_paths(full)]
    for p in range(state.players):
        want = vis.observation(copy.deepcopy(full), p)
        got = state.observation(p)
        extra = sorted(k for k in set(got) ^ set(want) if k != "viewer")
        if extra or any(got[k] != want[k] for k in got if k in want and k != "viewer"):
            keys = extra or sorted(k for k in got if k in want and k != "viewer" and got[k] != want[k])
            problems.append(f"observation({p}) is not the declaration applied to observation(None) "
                            f"(keys: {', '.join(map(str, keys))})")
    return problems
