"""The game protocol every rule module of the kit implements.

The kit's tools (widgets, agents, simulation, saves, the CLI, notebooks) talk to a
game only through this protocol, so they serve Haunted Lands and the companion rule
modules alike. It follows OpenSpiel's Game/State split:

* a :class:`Game` describes one rule module (its name, player counts, how to start a
  game, how to read a save and an action's JSON form);
* a :class:`GameState` is one position of that game, mutated in place by
  :meth:`GameState.apply_action` / :meth:`GameState.apply_chance`.

This module is at the bottom of the import graph: it imports nothing of the kit. It
also holds the pieces every module shares: :class:`Refusal` (why an action is
illegal, with the rule text's section), :class:`IllegalAction`, :class:`ChanceError`
and :class:`Record` / :class:`HistoryEntry` (the action record: every decision and
chance outcome, in order, shared by copies).
"""

from __future__ import annotations

import hashlib
import math
import numbers
import operator
import random
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

from .hexgrid import name_cells

__all__ = [
    "SCORE_ONLY_MEANINGS", "ActionCatalogue", "ChanceError", "Game", "GameOption", "GameState", "HistoryEntry", "IllegalAction",
    "ObservationEncoder", "RandomAgent", "RankedEntry", "Record", "Refusal", "SEED_MAX", "SEED_MIN", "agent_table", "chance_hash",
    "chance_index", "check_seed", "describe_action", "is_integer", "is_the_integer", "plain_integers", "results_by_score", "sample_chance",
    "seat_agents", "seat_seed", "seeded_random", "states_along", "strict_equality",
]


def is_integer(v) -> bool:
    """An integral number of any integral type (int, numpy integers...), not a bool;
    floats, even ``1.0``, are not integers. Every game's action fields use this test."""
    if type(v) is int:  # the usual case, first: this test runs on every chance draw and action field
        return True
    return isinstance(v, numbers.Integral) and not isinstance(v, bool) and type(v).__name__ != "bool_"


#: Every seed of the kit (games, saves, ``--seed``, ``--first-seed``, env resets, box
#: checks) is a signed 64-bit integer, ``SEED_MIN <= seed <= SEED_MAX``: it fits the
#: Parquet ``int64`` seed column of ``simulate`` and every game's save loader.
SEED_MIN, SEED_MAX = -(2 ** 63), 2 ** 63 - 1


def check_seed(seed, what: str = "seed", error: type[Exception] = ValueError) -> int:
    """``seed`` as a plain ``int`` when it is a seed of the kit: an integer (numpy
    integers too, never a bool or a float) with ``-2**63 <= seed < 2**63``.

    Raises:
        error (default ValueError): ``"{what} must be an integer of at most 64 bits
        (-2**63 <= seed < 2**63), got ..."``; every entry point that takes a seed
        calls this, so the message is the same everywhere.
    """
    if not is_integer(seed) or not SEED_MIN <= seed <= SEED_MAX:
        raise error(f"{what} must be an integer of at most 64 bits (-2**63 <= seed < 2**63), got {seed!r}")
    return int(seed)


# ============================================================================ the seeded chance draw


def chance_hash(seed: int, *path) -> int:
    """A number in ``0 .. 2**64 - 1`` drawn from ``seed`` (a signed 64-bit seed,
    :func:`check_seed`) and ``path`` (where in the game the draw is: for a chance node its
    position, the number of chance outcomes drawn before it; for a setup shuffle a word
    such as ``"deck"``): the first 8 bytes, big-endian, of the BLAKE2b hash of the text
    ``"seed:path[0]:path[1]..."``. The seed is written with its sign, so seeds ``k`` and
    ``-k`` draw differently; the text is the same in any process on any machine (Python's
    own ``hash`` is salted per process and is never used). Every game's chance draws come
    from here."""
    text = ":".join([str(seed), *map(str, path)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def chance_index(seed: int, position: int, weights) -> int:
    """The index of the outcome that chance node number ``position`` (0-based) of game
    ``seed`` draws among outcomes of whole-number ``weights`` (e.g. ``[3, 1]``: the first
    three times as likely): ``chance_hash(seed, position) % sum(weights)`` walked along the
    weights. The same seed and position give the same index in any process.

    Raises:
        ValueError: no weights, or weights that do not add up to a positive whole number.
    """
    if type(weights) is not tuple:
        weights = tuple(weights)
    total = sum(weights)
    if not weights or not is_integer(total) or total <= 0:
        raise ValueError(f"a chance draw needs whole-number weights adding up to at least 1, got {list(weights)!r}")
    # chance_hash(seed, position), written out: this runs at every chance node of every game
    x = int.from_bytes(hashlib.blake2b(f"{seed}:{position}".encode(), digest_size=8).digest(), "big") % total
    for i, k in enumerate(weights):
        if x < k:
            return i
        x -= k
    raise AssertionError  # pragma: no cover  (x < total)


def seeded_random(seed: int) -> random.Random:
    """A :class:`random.Random` for a game's seeded setup (e.g. a deck shuffle), from a
    signed 64-bit ``seed`` (:func:`check_seed`): seeded with the seed's 64 bits read as an
    unsigned number (``seed % 2**64``: two's complement), so seeds ``k`` and ``-k`` give
    different generators, unlike ``random.Random(seed)``, which drops the sign. For
    ``seed >= 0`` it is ``random.Random(seed)``.

    Raises:
        ValueError: ``seed`` is not a seed of the kit (:func:`check_seed`).
    """
    return random.Random(check_seed(seed) % 2 ** 64)


def sample_chance(state: "GameState", seed: int, position: int | None = None):
    """The seeded outcome of ``state``'s waiting chance node: the game's own
    ``state.sample_chance()`` when it has one (the draw its ``auto_chance`` would make),
    else an outcome of ``state.chance_outcomes()`` drawn by :func:`chance_hash` of ``seed``
    and ``position`` (default: the number of chance outcomes in the record so far).

    Raises:
        ChanceError: no chance node is waiting.
    """
    own = getattr(state, "sample_chance", None)
    if own is not None:
        return own()
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ChanceError("no chance node is waiting")
    if position is None:
        position = sum(1 for e in state.history() if e.chance)
    x = chance_hash(seed, position) / 2 ** 64
    for o, p in outcomes:
        x -= p
        if x < 0:
            return o
    return outcomes[-1][0]  # rounding: the probabilities added up to a little under 1


def plain_integers(value):
    """``value`` with every integer of another integral type (numpy's...) made a plain
    ``int``, inside dicts (keys too), lists and tuples; anything else unchanged, so a
    bool or a float is still refused by the check that follows. Every entry point that
    takes whole numbers from Python code (positions, configurations) normalises with this,
    as the actions do, so a numpy integer is accepted everywhere and saves stay plain JSON."""
    if is_integer(value):
        return int(value)
    if isinstance(value, dict):
        return {plain_integers(k): plain_integers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain_integers(v) for v in value)
    return value


def is_the_integer(value, expected: int | None) -> bool:
    """Whether ``value`` (read from a save, a dataset or a message) is the whole number
    ``expected`` (:func:`is_integer`: ``True`` is not 1, ``1.0`` is not 1), or ``None``
    when ``expected`` is ``None``. Every loader compares a save's numbers with this."""
    return value is None if expected is None else (is_integer(value) and value == expected)


def _kind(v):
    """The kind of an action field's value, as :func:`strict_equality` compares it: any
    integral type is one kind, a bool another, a float another, any str another."""
    if is_integer(v):
        return int
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return bool
    if isinstance(v, str):
        return str
    if isinstance(v, (tuple, list)):
        return (type(v), tuple(_kind(x) for x in v))
    return type(v)


def _flat_same_types(a: tuple, b: tuple) -> bool:
    """Whether tuples ``a`` and ``b`` have the same length and, place by place, elements of
    the same type, none a tuple or list (so :func:`_kind` agrees on them, being a function
    of the type alone there)."""
    return len(a) == len(b) and all(type(x) is type(y) and type(x) is not tuple and type(x) is not list
                                    for x, y in zip(a, b))


def strict_equality(cls):
    """Class decorator for a game's frozen action dataclasses: two actions are equal when
    their fields are equal *and of the same kind*, so ``Learn(1.0) != Learn(1)`` (although
    ``1.0 == 1``) and ``action in state.legal_actions()`` agrees with ``apply_action``, which
    refuses a float. Integers of any integral type (numpy's too) stay equal, as
    ``apply_action`` accepts them. The dataclass hash is kept (equal actions hash alike), but for a
    class without fields, whose instances all hash by the class (see :func:`_class_hash`)."""
    names = tuple(f.name for f in fields(cls) if f.compare)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        for n in names:
            a, b = getattr(self, n), getattr(other, n)
            t = type(a)
            if t is type(b) and (t is str or t is int or (t is tuple and _flat_same_types(a, b))):
                if a != b:  # same types all through: the kinds agree, only the values can differ
                    return False
            elif a != b or _kind(a) != _kind(b):
                return False
        return True

    cls.__eq__ = __eq__
    if not names:  # every instance is equal: one hash for the class, apart from other field-less kinds
        cls.__hash__ = _class_hash(cls)
    return cls


def _class_hash(cls):
    """``__hash__`` for a field-less action class. The dataclass hash would be ``hash(())`` for
    every such class, so a search node's children ``Pass()`` and ``VisitMarket()`` (or ``EndTurn()``
    and ``Contact()``) collided in its dict and each lookup ran ``__eq__``."""
    h = hash(cls.__qualname__)

    def __hash__(self):
        return h
    return __hash__


# ============================================================================ refusals


class Refusal:
    """Why an action is illegal: ``text`` in plain words and the ``section`` of the rule
    text it comes from; ``source`` names that text (``"rulebook"`` for Haunted Lands,
    e.g. ``"estate rules"`` for a companion module).

    The text may be given as a zero-argument function; it is then only composed when
    read, so listing legal actions never pays for sentences nobody reads.
    """

    __slots__ = ("_text", "section", "source", "_named")

    def __init__(self, text: str | Callable[[], str], section: str, source: str = "rulebook"):
        self._text = text
        self.section = section
        self.source = source
        self._named = False

    @property
    def text(self) -> str:
        """The sentence, with cells written as the boards write them (``cell 2,-1``,
        :func:`~haunted_kit.hexgrid.name_cells`), composed once when first read."""
        if not self._named:
            self._text = name_cells(self._text() if callable(self._text) else self._text)
            self._named = True
        return self._text

    def __str__(self) -> str:
        return f"{self.text} ({self.source}: {self.section})"

    def __repr__(self) -> str:
        return f"Refusal({self.text!r}, {self.section!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Refusal) and (self.text, self.section) == (other.text, other.section)

    __hash__ = None  # mutable lazy text: not hashable

    def __iter__(self):
        return iter((self.text, self.section))


class IllegalAction(Exception):
    """Raised by ``apply_action`` for an illegal or malformed action; ``refusal`` holds
    the reason and the rule section. The state is unchanged."""

    def __init__(self, action, refusal: Refusal):
        self.action, self.refusal = action, refusal
        super().__init__(f"{action!r} is illegal: {refusal}")


class ChanceError(ValueError):
    """An outcome that the waiting chance node cannot produce, or no chance node waiting."""


# ============================================================================ the action record


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One step of a game's action record.

    Attributes:
        player: who decided (0-based), or ``None`` for a chance outcome.
        action: the action object (a decision) or the outcome (a chance node).
        chance: ``True`` for a chance outcome.
    """

    player: int | None
    action: Any
    chance: bool = False


class Record:
    """An append-only action record shared by copies.

    Stored as a persistent linked list of nodes ``(previous node, player, action,
    chance)``: appending makes a new head and never changes the old one, so
    :meth:`GameState.copy` shares the common prefix in O(1) however long the game. An
    engine may keep just the head node in its state (one tuple per step, the fastest
    append) and wrap it as ``Record(head)`` when asked. ``len`` is O(1) after the first
    call; iterating is oldest first.
    """

    __slots__ = ("_head", "_len")

    def __init__(self, head=None, length: int | None = None):
        self._head = head  # (previous head, player, action, chance) or None
        self._len = length

    @property
    def head(self):
        """The newest node, ``(previous node, player, action, chance)``, or ``None``."""
        return self._head

    def append(self, entry: HistoryEntry) -> "Record":
        """A new record with ``entry`` appended (this one is unchanged)."""
        return self.step(entry.player, entry.action, entry.chance)

    def step(self, player: int | None, action: Any, chance: bool = False) -> "Record":
        """A new record with one step appended: ``player``'s decision ``action``, or
        with ``chance=True`` (and ``player=None``) a chance outcome. This one is
        unchanged. The fast path engines call on every step."""
        new = _new_record(Record)
        new._head = (self._head, player, action, chance)
        n = self._len
        new._len = (len(self) if n is None else n) + 1
        return new

    def __len__(self) -> int:
        if self._len is None:
            n, node = 0, self._head
            while node is not None:
                node, n = node[0], n + 1
            self._len = n
        return self._len

    def __iter__(self) -> Iterator[HistoryEntry]:
        return iter(self.entries())

    def entries(self) -> list[HistoryEntry]:
        """All entries, oldest first (a new list)."""
        out = []
        node = self._head
        while node is not None:
            node, player, action, chance = node
            out.append(HistoryEntry(player, action, chance))
        out.reverse()
        return out

    def __repr__(self) -> str:
        return f"<Record of {len(self)} steps>"


_new_record = object.__new__


# ============================================================================ the protocol


@runtime_checkable
class GameState(Protocol):
    """One position of a game. Players are 0-based ints (shown as P1, P2...)."""

    @property
    def players(self) -> int:
        """Number of players in this game."""

    def current_player(self) -> int | None:
        """The player to decide now; ``None`` at a chance node or a terminal state."""

    def legal_actions(self) -> list:
        """The legal actions of :meth:`current_player` (empty at chance nodes and at the
        end). Actions are frozen dataclasses with a ``describe()`` sentence."""

    def why_not(self, action) -> Refusal | None:
        """``None`` if ``action`` is legal now, else the :class:`Refusal` explaining why
        not, with the rule section. Never raises for a malformed action: says so."""

    def apply_action(self, action) -> None:
        """Apply a legal action of the player to move and run on to the next decision.

        Raises:
            IllegalAction: the action is illegal or malformed; the state is unchanged.
        """

    def is_chance_node(self) -> bool:
        """``True`` when a chance event (die, draw, deal) waits for its outcome."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``."""

    def apply_chance(self, outcome) -> None:
        """Resolve the waiting chance node. Raises :class:`ChanceError` if impossible."""

    def is_terminal(self) -> bool:
        """``True`` once the game is over."""

    # optional: ``sample_chance()``, the seeded outcome of the waiting chance node (the
    # draw ``auto_chance`` makes, from :func:`chance_index`); :func:`sample_chance` uses it

    def returns(self) -> list[float]:
        """One number per player once terminal (the module documents its meaning);
        zeros while the game runs."""

    def observation(self, player: int | None = None) -> dict:
        """JSON-ready view of the state as ``player`` may see it (hidden information
        of others removed); ``None`` is the omniscient view."""

    def events(self, viewer: int | None = None):
        """The event log as a pandas DataFrame, one sentence per change."""

    def history(self) -> list[HistoryEntry]:
        """Every decision and chance outcome so far, oldest first."""

    def copy(self) -> "GameState":
        """An independent copy (cheap: shares immutable parts and the action record)."""

    def to_dict(self) -> dict:
        """The full save as JSON-ready data (versioned, with the module's name)."""

    def save(self, path) -> None:
        """Write the save to ``path`` atomically."""


@runtime_checkable
class Game(Protocol):
    """One rule module: how to start, load and decode its games.

    **Required** (every tool uses them; with these and a :class:`GameState` a game is
    played, saved, replayed, simulated and checked): ``name``, ``title``,
    ``min_players``, ``max_players``, ``new_game(*, players, seed=0, **options)``,
    ``from_dict(data, box=None)``, ``action_to_dict(action)``, ``action_from_dict(data)``.
    Register it with one line in :data:`haunted_kit.games.REGISTRY`. ``from_dict`` reads
    the save with ``box``; it need not check the save's box fingerprint: the kit calls it
    only through :func:`haunted_kit.games.load_state`, which does (docs/NEW_GAME.md walks
    through adding a game).

    **Optional** members, each used by the tools named when present; a tool that cannot
    work without one says so (:class:`haunted_kit.games.MissingHook` naming the hook, a
    usage error on the command line), never a traceback:

    * ``new_game`` keywords declared in its signature: ``log`` (keep the event log;
      ``play``/``simulate``/the environment drop it for speed, see
      :func:`haunted_kit.games.start_game`), ``box`` (a loaded box, with
      ``default_box``/``load_box``), ``auto_chance`` (leave chance nodes waiting);
    * ``default_box()``: the game's own box (``play`` checks player counts against it,
      ``simulate`` and the classroom store record its fingerprint; else ``min_players``..
      ``max_players`` and no fingerprint);
    * ``load_box(path)``: a house-rule box from a folder (needed by ``--box``,
      ``check-box`` and a store table with a box folder; raises ValueError);
    * ``state_type``: the class of its states (``games.game_of(state)`` matches it; else
      the state's class is matched by the game's package);
    * ``score_parts(state) -> list[dict] | None``: per player (index order) the score by
      source, ``{source: points}`` with every source in a fixed order (zeros included),
      the parts adding up to ``seat_results``' score (Haunted Lands: valor by source; the
      estate: gold value by holding; Landmarks: module points by source); ``None`` when
      the state cannot tell. A game whose parts come from the event log sets
      ``score_parts_need_log = True`` and simulation plays it with the log on. Recorded
      in a simulation dataset's ``score_parts`` column (else ``{}``) and compared by
      :mod:`haunted_kit.compare`;
    * ``game_length(state) -> int`` and ``length_name``: how long the game ran in the
      game's own unit (Haunted Lands: rounds; the estate: seasons; Landmarks: rounds),
      the dataset's ``game_turns`` column (else 0);
    * ``visibility``: a :class:`haunted_kit.visibility.Visibility`, who may see each event
      kind and observation field and what the others see instead (required when anything
      is hidden: ``observation(p)`` must be it applied to ``observation(None)``); every tool
      redacts from it (observations, ``events(viewer)``, hints, the review, the store's
      seat export);
    * ``determinise(state, player, rng) -> state``: a copy consistent with what
      ``player`` may know (needed by the ``search`` agent and ``search.hints``; a game
      whose ``observation(p)`` ever differs from ``observation(None)`` must have it:
      the conformance suite fails it otherwise; a game hiding nothing may return
      ``state.copy()``);
    * ``agents``: name -> agent class (taking a seed) beyond ``"random"`` (a
      ``"greedy"`` one serves the search as rollout policy and prior), the data
      :func:`agent_table` and ``haunted_kit.bots.make_bot`` build bots from;
    * ``seat_results(state) -> list[dict]``: per player ``score``, ``rank``, ``won``,
      ``collective_loss``, ``quests``, ``quest_points`` (``simulate``, hints' score
      gains, the generic summary; else :func:`results_by_score` of ``returns()``);
    * ``score_name``: what ``seat_results``' score is in words (``"valor"``), for hints
      and summaries;
    * ``result_meanings``: dataset column -> what it means for this game, recorded in a
      simulation dataset's schema (else neutral meanings);
    * ``win_loss_returns``: ``True`` when ``returns()`` are win/loss values (Haunted
      Lands: 1 win, 0 loss, -1 collective loss) rather than scores; the search keeps
      them as playout values (else the top score's players share 1);
    * ``turn_order(state) -> list[int]``: players in turn order (``simulate``'s seat
      column; else index order);
    * ``evaluate(state) -> list[float]``: a cheap per-player estimate for truncated
      search playouts (else playouts run to the end);
    * ``prior(state, actions) -> list[float]``: how plausible each legal move is
      (probabilities summing to 1), the search's prior over moves (else the greedy
      agent's :meth:`OneStepGreedyAgent.prior`, else uniform);
    * ``default_players``: the player count the tools start a game with when none is
      given (``play``, ``simulate``, ``compare``, the servers; else ``min_players``; see
      :func:`haunted_kit.games.default_players`);
    * ``options``: the ``new_game`` keywords a player may set beyond ``players`` and
      ``seed``, each a :class:`GameOption` with its default for the tools (Haunted Lands:
      ``mode``, ``extra_ghost_cards``; Landmarks: ``rounds``); the command line turns each
      into a flag of ``play``, ``simulate``, ``compare``, ``handout`` and the servers
      (:func:`haunted_kit.cli.add_game_options`), the table server into a field;
    * ``config_of(state) -> dict``: the ``new_game`` keywords (JSON, box aside) that set
      ``state``'s game up again, every default filled in (the classroom store keeps them;
      else it keeps the keywords the table was created with);
    * ``migrate_record(record) -> (record, origin)``: a record of the game's previous
      version (save entries ``{"player", "chance", "action"}``) as this version reads it,
      with per new entry the index of the old one it comes from; the one reader of old
      records, for its saves and for a classroom store table whose rows no longer replay
      (Landmarks: a Build was one decision); raises ValueError for a record that is not
      the previous version's;
    * ``start_of(state) -> state``: the position before the first entry of
      ``state.history()`` (chance nodes left waiting, the log on), from which
      :func:`states_along` re-plays the record (needed by :mod:`haunted_kit.review`);
    * ``action_types``: ``{JSON type name: action class}``, every decision kind the game
      declares; the conformance suite plays seeded games until each has been legal
      (:func:`haunted_kit.testing.reach_decision_kinds`), and ``conformance_starts(box)
      -> list[state]``: prepared positions it also plays from, for kinds that play from
      ``new_game`` never reaches;
    * ``settings(box)`` and ``invariants(state, before)``: the settings ``check-box`` and
      the conformance suite cover (else every player count) and the game's own checks
      (:mod:`haunted_kit.testing`);
    * ``action_catalogue(box) -> ActionCatalogue``: the fixed integer encoding of its
      actions (needed by :mod:`haunted_kit.env`);
    * ``observation_encoder(box, players)``: a callable ``(observation dict, me, to_move)
      -> float32 vector`` with ``names`` (one per entry) and ``bounds()`` (the lowest
      and highest value of each entry under the rules, :func:`vector_bounds`), built
      only from ``state.observation(me)`` (needed by :mod:`haunted_kit.env`; see
      :class:`ObservationEncoder`).

    Optional modules of the game's package (beside its engine, found by
    :func:`haunted_kit.games.game_module`): ``cli`` (``summary``, ``play_game``,
    ``check_settings``, ``handout``; without it the command line plays the
    kit's loop and prints a summary from the protocol, and ``handout`` says it is not
    available), ``exercises`` (``EXERCISES`` and ``exercise_note(key, seed)``: the notes of
    ``haunted-kit teacher``'s copies) and ``classroom`` (the table server's view; without it the
    server says it cannot show the table). Optional state members: ``sample_chance()``
    (below) and ``log`` (a list of :class:`haunted_kit.events.Event`, for ``play --log``'s
    JSON lines and the hints' sentences; else ``events()`` rows).
    """

    name: str  #: short name used by the CLI and saves (``"haunted"``, ``"estate"``...)
    title: str  #: human title
    min_players: int
    max_players: int

    def new_game(self, *, players: int, seed: int = 0, **options) -> GameState:
        """A new game; raises ``ValueError`` (a ConfigError) for bad parameters."""

    def from_dict(self, data: dict, box=None) -> GameState:
        """Rebuild a saved state; raises ``ValueError`` (a SaveError) naming the field."""

    def action_to_dict(self, action) -> dict:
        """The JSON form of an action."""

    def action_from_dict(self, data: dict):
        """An action from its JSON form; raises ``ValueError`` naming the problem."""


@dataclass(frozen=True)
class GameOption:
    """One ``new_game`` keyword a game lets a player set (a :class:`Game`'s ``options``),
    which the tools offer without naming the game: a ``--FLAG`` of the command line
    (:func:`haunted_kit.cli.add_game_options`), a field of the table server's new-table
    form, a default filled in when a tool starts a game.

    Attributes:
        keyword: the ``new_game`` keyword (``"rounds"``, ``"mode"``, ``"extra_ghost_cards"``).
        help: what it sets, in a player's words, with the rule section or kit default.
        kind: ``"int"`` (a whole number from ``low`` to ``high``), ``"str"`` (a word) or
            ``"ints"`` (whole numbers separated by commas, e.g. ``2,3``; a list).
        default: the value the tools use when the option is not given (``None``: none
            passed, ``new_game``'s own default applies).
        flag: the command-line flag without ``--`` (default: ``keyword`` with ``-`` for ``_``),
            in the game's own words (Landmarks: ``turns``, the rulebook's word for what its
            ``rounds`` keyword counts); it names the option for people (its label).
        aliases: more flags without ``--`` the command line also takes (a flag's earlier name).
        low, high: the range of an ``"int"`` option (``None``: unbounded).
        choices: for a ``"str"`` option whose values are a fixed list, each value with its
            words for people, ``(("group", "one connected group"), ...)``: the new-table
            form's dropdown and the settings lines show the words, never the value
            (:meth:`words`); ``check`` refuses any other value. Empty: any word (e.g. a
            mode a house-rule box may add).
    """

    keyword: str
    help: str
    kind: str = "str"
    default: Any = None
    flag: str | None = None
    low: int | None = None
    high: int | None = None
    choices: tuple = ()
    aliases: tuple = ()

    def __post_init__(self):
        if self.kind not in ("int", "str", "ints"):
            raise ValueError(f"GameOption {self.keyword!r}: kind must be 'int', 'str' or 'ints', got {self.kind!r}")
        if self.flag is None:
            object.__setattr__(self, "flag", self.keyword.replace("_", "-"))
        if self.choices and (self.kind != "str" or not all(isinstance(c, tuple) and len(c) == 2 and all(
                isinstance(x, str) and x for x in c) for c in self.choices)):
            raise ValueError(f"GameOption {self.keyword!r}: choices are (value, words) pairs of a 'str' option, "
                             f"got {self.choices!r}")

    def words(self, value) -> str:
        """``value``'s words for people: its declared choice's words, else the value itself."""
        return dict(self.choices).get(value, str(value))

    def check(self, value):
        """``value`` as ``new_game`` takes it (an int, a str, a list of ints).

        Raises:
            ValueError: ``"argument --rounds: must be a whole number from 1 to 1000, got 0"``.
        """
        if self.kind == "str":
            if not isinstance(value, str) or not value:
                raise ValueError(f"argument --{self.flag}: expected a word, got {value!r}")
            if self.choices and value not in dict(self.choices):
                raise ValueError(f"argument --{self.flag}: must be one of "
                                 + ", ".join(f"{v} ({w})" for v, w in self.choices) + f", got {value!r}")
            return value
        if self.kind == "ints":
            if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or not all(map(is_integer, value)):
                raise ValueError(f"argument --{self.flag}: expected whole numbers, got {value!r}")
            return [int(v) for v in value]
        low, high = self.low, self.high
        if not is_integer(value) or (low is not None and value < low) or (high is not None and value > high):
            span = (f" from {low} to {high}" if low is not None and high is not None
                    else f" of at least {low}" if low is not None else f" of at most {high}" if high is not None else "")
            raise ValueError(f"argument --{self.flag}: must be a whole number{span}, got {value!r}")
        return int(value)


# ============================================================================ results and action numbers


def results_by_score(scores) -> list[dict]:
    """Per player the figures a simulation records, from one score each (higher is
    better): ``score``, ``rank`` (1 = highest; equal scores share a rank, the next rank
    follows on: 1, 1, 2), ``won`` (the sole highest score; a tie at the top: nobody),
    ``collective_loss`` (always ``False``), empty ``quests`` and ``quest_points``."""
    scores = list(scores)
    order = sorted(set(scores), reverse=True)
    top = order[0] if order else None
    return [{"score": v, "rank": order.index(v) + 1, "won": v == top and scores.count(v) == 1,
             "collective_loss": False, "quests": [], "quest_points": []} for v in scores]


#: how many legal action objects (beyond its entries) an :class:`ActionCatalogue` remembers by identity
SEEN_KEPT = 4096


def _no_values(action) -> tuple:
    """The field values of an action without fields (an ``ActionCatalogue`` lookup key)."""
    return ()


class ActionCatalogue:
    """A fixed integer encoding of a game's actions: number ``i`` is ``entries[i]``.

    An entry is an action (then that number always means that action) or a *ranked
    entry* (:class:`RankedEntry`) standing for the ``rank``-th
    (0-based) legal action of the position whose :meth:`key_of` is ``ranked_key``, in
    the order ``legal_actions()`` lists them (a game documents that order). Ranked
    entries serve actions too many to list (e.g. every way to pay for a building): a
    subclass gives :meth:`key_of`. Every entry has ``describe()``.

    Raises:
        ValueError: two entries are equal.
    """

    def __init__(self, entries):
        self.entries = list(entries)
        self.index = {a: i for i, a in enumerate(self.entries)}
        if len(self.index) != len(self.entries):
            raise ValueError("an action catalogue lists an action twice")
        # id -> number of the entries, then (up to SEEN_KEPT more) of each fixed-number legal action met, whose
        # objects _kept holds alive so that an id in the dict is its own object's (a game interning its actions,
        # as Haunted Lands does per field, then has every one numbered by identity, in C)
        self._by_id, self._kept = self._entries_by_id()
        # (class, field values) -> number of the plain dataclass entries, for legal actions made anew (not
        # interned): a lookup compared in C instead of the actions' own (strict, Python) __eq__
        self._values_of = {}
        for a in self.entries:
            if is_dataclass(a) and not isinstance(a, RankedEntry) and a.__class__ not in self._values_of:
                names = [f.name for f in fields(a) if f.compare]
                self._values_of[a.__class__] = operator.attrgetter(*names) if names else _no_values
        self._by_values = {(a.__class__, self._values_of[a.__class__](a)): i for i, a in enumerate(self.entries)
                           if a.__class__ in self._values_of}

    def __len__(self) -> int:
        return len(self.entries)

    def _entries_by_id(self) -> tuple[dict, list]:
        """``({id(entry): number}, the entries)`` of the entries alone: the identity memory with nothing
        met yet, and the list that keeps its objects alive (so their ids stay theirs)."""
        return {id(a): i for i, a in enumerate(self.entries)}, list(self.entries)

    def key_of(self, action):
        """The ranked key of ``action``, or ``None`` for an action with a fixed number."""
        return None

    def legal_numbers(self, state, legal: list | None = None) -> list[int]:
        """The number of each of ``state.legal_actions()``, in that order (all different);
        ``legal``: that list when the caller has it already.

        Raises:
            ValueError: a legal action has no number (the catalogue is too small for this
                position; the message names the action).
        """
        if legal is None:
            legal = state.legal_actions()
        by_id = self._by_id
        known = list(map(by_id.get, map(id, legal)))  # entries and action objects met before, by identity
        if None not in known:
            return known
        out, seen = [], {}
        for a, hit in zip(legal, known):
            if hit is not None:
                out.append(hit)
                continue
            key = self.key_of(a)
            if key is None:
                values = self._values_of.get(a.__class__)
                i = None if values is None else self._by_values.get((a.__class__, values(a)))
                if i is None:
                    i = self.index.get(a)
                if i is not None:
                    if len(by_id) >= len(self.entries) + SEEN_KEPT:  # forget the objects met, keep the entries
                        self._by_id, self._kept = self._entries_by_id()
                        by_id = self._by_id
                    by_id[id(a)] = i
                    self._kept.append(a)
            else:
                rank = seen[key] = seen.get(key, -1) + 1
                i = self.index.get(RankedEntry(key, rank))
            if i is None:
                raise ValueError(f"the legal action {a!r} has no number in this catalogue of {len(self)} actions")
            out.append(i)
        return out

    def encode(self, state, action) -> int:
        """The number of ``action`` in ``state``. Raises ValueError if it has none there."""
        legal = state.legal_actions()
        nums = self.legal_numbers(state, legal)
        for a, i in zip(legal, nums):
            if a == action:
                return i
        if self.key_of(action) is None and action in self.index:
            return self.index[action]
        raise ValueError(f"{action!r} has no number in this position")

    def decode(self, state, i: int):
        """The action numbered ``i`` in ``state`` (a ranked entry needs the position).

        Raises:
            ValueError: ``i`` is not a whole number in range, or names a ranked entry
                that this position does not offer.
        """
        if not is_integer(i) or not 0 <= i < len(self.entries):
            raise ValueError(f"action must be an integer 0..{len(self.entries) - 1}, got {i!r}")
        e = self.entries[int(i)]
        if not isinstance(e, RankedEntry):
            return e
        k = -1
        for a in state.legal_actions():
            if self.key_of(a) == e.ranked_key:
                k += 1
                if k == e.rank:
                    return a
        raise ValueError(f"action {int(i)} ({e.describe()}) is not offered now: {k + 1} such option(s)")


def vector_bounds(names, entry_high):
    """The bounds of an observation vector whose entries are all counts or flags: low 0
    for every entry, high ``entry_high(name)`` (1 for a flag, the rules' cap for a
    count, ``math.inf`` where there is none). Returns two float32 arrays of
    ``len(names)``, for a Gymnasium ``Box``."""
    import numpy as np  # lazy: the protocol imports no third-party package; only the environment needs vectors

    high = np.array([entry_high(n) for n in names], dtype=np.float32)
    return np.zeros(len(names), dtype=np.float32), high


class ObservationEncoder:
    """Base of a game's ``observation_encoder(box, players)``: a callable turning
    ``state.observation(me)`` into a float32 vector of fixed length. Seats are named from
    the observer: ``"player+0"`` is ``me``, ``"player+1"`` the next player. ``names`` gives
    each entry's meaning and ``at`` its position; the entries ``to_move=me`` and
    ``to_move=player+k`` say who decides. Subclasses give :meth:`entry_names` and
    :meth:`fill`; one may also give ``from_state(state, me, to_move)``: the same vector,
    read from the state's fields without building ``state.observation(me)`` (nothing hidden
    from ``me``), which the environment then uses instead."""

    def __init__(self, box, players: int):
        self.box, self.n = box, players
        self.names = ["to_move=me"] + [f"to_move=player+{k}" for k in range(1, players)] + self.entry_names()
        self.at = {name: i for i, name in enumerate(self.names)}

    def entry_names(self) -> list[str]:
        """The names of the game's own entries, in order."""
        raise NotImplementedError

    def seat(self, p: int, me: int) -> str:
        """``"player+k"``: player ``p`` as seen from ``me``."""
        return f"player+{(p - me) % self.n}"

    def fill(self, v, obs: dict, me: int) -> None:
        """Write the observation ``obs`` of player ``me`` into the zeroed vector ``v``."""
        raise NotImplementedError

    def entry_high(self, name: str) -> float:
        """The highest value entry ``name`` can take under the rules (1 for a flag;
        ``math.inf`` where the rules set no cap). The base knows the ``to_move`` flags;
        subclasses add their own entries."""
        return 1.0 if name.startswith("to_move=") else math.inf

    def bounds(self):
        """(low, high): float32 arrays of the vector's length; see :func:`vector_bounds`."""
        return vector_bounds(self.names, self.entry_high)

    def __call__(self, obs: dict, me: int, to_move: int | None):
        import numpy as np  # lazy: the protocol imports no third-party package; only the environment needs vectors

        v = np.zeros(len(self.names), dtype=np.float32)
        if to_move is not None:
            v[self.at["to_move=me" if to_move == me else f"to_move={self.seat(to_move, me)}"]] = 1
        self.fill(v, obs, me)
        return v


@dataclass(frozen=True)
class RankedEntry:
    """A catalogue entry standing for the ``rank``-th (0-based) legal action whose key is
    ``ranked_key`` (see :class:`ActionCatalogue`); ``text`` and ``data`` (its JSON form)
    describe it and take no part in equality."""

    ranked_key: Any
    rank: int
    text: str = field(default="", compare=False)
    data: Any = field(default=None, compare=False)

    def describe(self) -> str:
        return self.text or f"option {self.rank + 1} of {self.ranked_key}"

    def to_dict(self) -> dict:
        return dict(self.data) if self.data else {"ranked": repr(self.ranked_key), "rank": self.rank}


#: dataset column meanings shared by games scored by one number per player with no
#: collective loss and no quests (the companion modules; see ``Game.result_meanings``)
SCORE_ONLY_MEANINGS = {
    "rank": "1 = the highest score; equal scores share a rank",
    "won": "the sole highest score (a tie at the top: nobody)",
    "collective_loss": "always false: the game has no collective loss",
    "returns": "the score",
    "quests": "always empty: the game has no quests", "quest_points": "always empty", "quest_total": "always 0",
}


# ============================================================================ a player for any game


class RandomAgent:
    """Picks uniformly among ``state.legal_actions()`` with its own seeded generator, so
    it plays any game of the protocol; the same seed and game give the same choices."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, state: GameState):
        """One of ``state.legal_actions()``, uniformly; IndexError when there is none.

        The draw is ``self.rng.choice(legal)`` written out (CPython's ``choice`` is
        ``legal[rng._randbelow(len(legal))]``, by rejection from ``getrandbits`` of the
        length's bit count): the same number taken from the generator, the same action,
        without two Python calls per decision (``tests/test_protocol.py`` checks the
        draws against ``rng.choice``)."""
        legal = state.legal_actions()
        n = len(legal)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]


def describe_action(action, state) -> str:
    """``action`` in words: ``action.describe_at(state)`` when the game words it by the
    position (Haunted Lands says whether a resource comes from a lake), else
    ``action.describe(box)`` when the game's describe takes the box
    (Landmarks names cards that way), else ``action.describe()``, else its repr; a cell
    written as the board writes it (``"cell 2,-1"``, not ``"(2, -1)"``:
    :func:`haunted_kit.hexgrid.name_cells`)."""

    at = getattr(action, "describe_at", None)
    if at is not None:  # a game that words an action by the position (where it happens)
        return name_cells(at(state))
    describe = getattr(action, "describe", None)
    if describe is None:
        return repr(action)
    box = getattr(state, "box", None)
    try:
        return name_cells(describe(box))
    except TypeError:
        return name_cells(describe())


def states_along(start: GameState, entries) -> list:
    """``[(None, a copy of start), (entry, state after it), ...]``: the record's ``entries``
    (:class:`HistoryEntry`) re-applied one by one to a copy of ``start`` through the
    protocol (``apply_action`` / ``apply_chance``), with no search over legal actions.

    Raises:
        IllegalAction, ChanceError: an entry the game refuses at that point.
    """
    s = start.copy()
    out = [(None, s.copy())]
    for e in entries:
        if e.chance:
            s.apply_chance(e.action)
        else:
            s.apply_action(e.action)
        out.append((e, s.copy()))
    return out


def agent_table(game) -> dict:
    """The agents ``game`` (a :class:`Game`) offers by name: ``"random"``
    (:class:`RandomAgent`, plays any game), then the Game's own optional ``agents``
    mapping (name -> agent class taking a seed; a ``"greedy"`` one is the search's rollout
    policy and prior). No game is special: each declares its agents as data."""
    return {"random": RandomAgent, **(getattr(game, "agents", None) or {})}


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` (0-based player index) of the game seeded ``seed``:
    ``seed * 100 + seat``. The one seat-seeding rule: ``play`` (every game), ``simulate``,
    the environment's opponents, the classroom's bot seats and the play widgets all seed
    their bots with it, so the same seed and bot specs play the same game wherever they are
    started."""
    return seed * 100 + seat


def seat_agents(agents, players: int, seed: int, make) -> tuple[list, list[str]]:
    """One agent per seat, as every entry point seats them.

    Args:
        agents: names or agent objects, one per seat; a shorter sequence repeats.
        players: the number of seats.
        seed: the agents' base seed; seat ``i``'s named agent is ``make(name, seat_seed(seed, i))``.
        make: the agent factory (``haunted_kit.bots.make_bot`` for one game), raising
            ValueError for an unknown name.

    Returns:
        ``(agents, names)``: ``players`` agent objects and their names (an object's
        ``name`` attribute, else its class name).
    """
    bots = []
    for i in range(players):
        a = agents[i % len(agents)]
        bots.append(make(a, seat_seed(seed, i)) if isinstance(a, str) else a)
    return bots, [getattr(a, "name", type(a).__name__) for a in bots]


class OneStepGreedyAgent:
    """Base of the one-step greedy bots: plays the legal action with the highest
    :meth:`score` for the player to move, breaking ties with its own seeded generator
    (a single legal action is played without scoring). Subclasses give ``score``."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    #: how many score points make a move e (2.72) times as likely in :meth:`prior`
    prior_temperature = 1.0

    def score(self, state: GameState, action) -> float:
        """The heuristic value of ``action`` for the player to move (higher is better)."""
        raise NotImplementedError

    def scores(self, state: GameState, actions) -> list[float]:
        """:meth:`score` of each of ``actions``, in order. A game whose scores share work
        per position (the player, the resources wanted...) overrides it to do that work once."""
        score = self.score
        return [score(state, a) for a in actions]

    def prior(self, state: GameState, actions) -> list[float]:
        """How plausible each of ``actions`` (legal for the player to move) is, as
        probabilities summing to 1: a softmax of :meth:`score` over
        :attr:`prior_temperature`. The search agent's prior over moves. Each weight and
        probability is worked out once per distinct score (a Landmarks builder's dozens of
        payments for one card all take its card's points): the same expression of the same numbers,
        summed in the moves' order, so the same floats as one per move."""
        scores = self.scores(state, actions)
        top = max(scores)
        t = self.prior_temperature
        weight = {v: math.exp((v - top) / t) for v in set(scores)}
        total = sum(map(weight.__getitem__, scores))
        prob = {v: x / total for v, x in weight.items()}
        return list(map(prob.__getitem__, scores))

    def act(self, state: GameState):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(state, legal)
        top = max(scores)
        if scores.count(top) == 1:
            return legal[scores.index(top)]
        best = [a for a, v in zip(legal, scores) if v == top]
        return best[self.rng.randrange(len(best))]
