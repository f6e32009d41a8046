"""Game state as plain data, with a versioned JSON form.

:class:`GameConfig` fixes a game's parameters (players, mode, ghost cards, seed,
switches for the rulings). :class:`State` holds everything that changes, in flat
lists indexed by player or by cell index so that :meth:`State.copy` is cheap (a
search can copy a mid-game state in microseconds). The rules live in
:mod:`haunted_kit.rules` and the flow in :mod:`haunted_kit.engine`; the methods of
:class:`State` are thin entry points into them.

Saves: :meth:`State.to_json` / :meth:`State.from_json` (format
``"haunted-kit-save"``, version :data:`SAVE_VERSION`). Never pickle. A loaded save
plays on exactly like the original (the random generator is a counter in the state).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field as dc_field

from .board import Field
from .components import Box, default_box

SAVE_FORMAT = "haunted-kit-save"
SAVE_VERSION = 1

# phases
SETUP, SPREAD, TURNS, SEASON_END, OVER = "setup", "spread", "turns", "season_end", "over"

# fixed indexes of the four action tracks (the loader enforces this order)
EXPLORATION, CONTACT, EXTRACTION, CONSTRUCTION = 0, 1, 2, 3

FREE, COVERED = -1, -2  # skill marker slot contents besides a player index


class ConfigError(ValueError):
    """Game parameters that do not make a game (wrong player count, unknown mode...)."""


class SaveError(ValueError):
    """A save file that cannot be loaded: corrupt, wrong format or wrong version."""


@dataclass(frozen=True)
class GameConfig:
    """The fixed parameters of one game.

    Args:
        players: number of players, 2..4 (rulebook: "Game Setup").
        mode: ``"wanderer"``, ``"builder"`` or ``"citizen"`` (rulebook: "Game Modes").
        extra_ghost_cards: ghost cards placed in addition to the mode's card, for higher
            difficulty (rulebook: "Increasing Difficulty"); e.g. ``(2, 3)`` for the hardest.
        seed: seeds every chance event (setup draws, terrain die, bonus die).
        limited_supplies: ruling 1; ``False`` makes every supply unlimited.
        terrain_die: ``"standard"`` (kit default) or ``"with_lakes"`` (ruling 15).
        box: the box to play with; the reference box by default.

    Raises:
        ConfigError: naming the bad value.
    """

    players: int = 4
    mode: str = "wanderer"
    extra_ghost_cards: tuple[int, ...] = ()
    seed: int = 0
    limited_supplies: bool = True
    terrain_die: str = "standard"
    box: Box = dc_field(default_factory=default_box, repr=False, compare=False)

    def __post_init__(self):
        b = self.box
        if not isinstance(self.players, int) or not b.min_players <= self.players <= b.max_players:
            raise ConfigError(f"players must be between {b.min_players} and {b.max_players}, got {self.players!r}")
        if self.mode not in b.modes:
            raise ConfigError(f"unknown mode {self.mode!r} (known: {', '.join(b.modes)})")
        if isinstance(self.extra_ghost_cards, (str, bytes)) or not hasattr(self.extra_ghost_cards, "__iter__"):
            raise ConfigError(f"extra_ghost_cards must be a list of ghost card numbers, e.g. (2, 3); got {self.extra_ghost_cards!r}")
        object.__setattr__(self, "extra_ghost_cards", tuple(self.extra_ghost_cards))
        for g in self.extra_ghost_cards:
            if g not in b.ghost_cards:
                raise ConfigError(f"unknown ghost card {g!r} (known: {', '.join(map(str, b.ghost_cards))})")
            if g == b.modes[self.mode].ghost_card:
                raise ConfigError(f"ghost card {g} is already the {self.mode} mode's card")
        if len(set(self.extra_ghost_cards)) != len(self.extra_ghost_cards):
            raise ConfigError(f"extra ghost cards repeat: {self.extra_ghost_cards}")
        if not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, got {self.seed!r}")
        if self.terrain_die not in ("standard", "with_lakes"):
            raise ConfigError(f"terrain_die must be 'standard' or 'with_lakes', got {self.terrain_die!r}")

    @property
    def ghost_cards(self) -> tuple[int, ...]:
        """Ghost cards in play: the mode's card, then the extra ones."""
        return (self.box.modes[self.mode].ghost_card,) + self.extra_ghost_cards

    def to_dict(self) -> dict:
        return {"players": self.players, "mode": self.mode, "extra_ghost_cards": list(self.extra_ghost_cards),
                "seed": self.seed, "limited_supplies": self.limited_supplies, "terrain_die": self.terrain_die}


# State fields that are lists and are copied element-wise by State.copy()
_LIST_FIELDS = (
    "layout", "skills", "turn_order", "pending", "forced", "ghosts", "depleted", "building", "owner",
    "sensor", "res", "pec", "tok", "act", "valor", "arrival", "learned", "slots", "hand", "quests",
    "markers", "sup_build", "sup_res", "sup_tok",
)
_SCALAR_FIELDS = (
    "market", "season", "round", "phase", "turn_pos", "chance", "arrivals", "sup_ghosts", "sup_depl",
    "rng_count", "winner", "lost", "over_reason", "auto_chance", "decisions",
)


@dataclass(slots=True, eq=False)
class State:
    """Everything that changes during a game. Create one with :func:`haunted_kit.new_game`.

    Per-player lists are indexed by player (0-based; shown as P1..P4). Flat per-player
    lists of resources/tokens use ``player * 4 + i``. Per-cell lists use the cell index
    of :class:`~haunted_kit.board.Field`.

    Public entry points (OpenSpiel-style): :meth:`current_player`, :meth:`legal_actions`,
    :meth:`apply_action`, :meth:`why_not`, :meth:`is_chance_node`,
    :meth:`chance_outcomes`, :meth:`apply_chance`, :meth:`is_terminal`,
    :meth:`returns`, :meth:`observation`, :meth:`copy`, :meth:`to_json`.
    """

    config: GameConfig
    field: Field | None = None
    # setup draws
    layout: list = dc_field(default_factory=list)  # region tile id per slot, as drawn
    skills: list = dc_field(default_factory=list)  # skill card in play per deck (deck order)
    market: int = 0
    # flow
    season: int = 0
    round: int = 0
    phase: str = SETUP
    turn_order: list = dc_field(default_factory=list)  # players, first to last
    turn_pos: int = 0
    pending: list = dc_field(default_factory=list)  # pending-decision stack, top = last
    chance: tuple | None = None  # the chance node waiting for an outcome
    forced: list = dc_field(default_factory=list)  # outcomes forced on the next chance nodes
    # cells
    ghosts: list = dc_field(default_factory=list)
    depleted: list = dc_field(default_factory=list)
    building: list = dc_field(default_factory=list)  # building index or -1
    owner: list = dc_field(default_factory=list)  # player or -1
    # players
    sensor: list = dc_field(default_factory=list)  # cell index per player
    res: list = dc_field(default_factory=list)  # resources, flat [player * R + r]
    pec: list = dc_field(default_factory=list)  # pecunias
    tok: list = dc_field(default_factory=list)  # tokens owned, flat [player * 4 + track]
    act: list = dc_field(default_factory=list)  # active tokens, flat [player * 4 + track]
    valor: list = dc_field(default_factory=list)
    arrival: list = dc_field(default_factory=list)  # when the valor token last arrived (stack order)
    arrivals: int = 0
    learned: list = dc_field(default_factory=list)  # bitmask of skill numbers per player
    slots: list = dc_field(default_factory=list)  # marker slots, flat [skill card in play * S + slot]
    hand: list = dc_field(default_factory=list)  # bitmask of quest cards still in hand per player
    quests: list = dc_field(default_factory=list)  # tuple of chosen (face-down) quests per player
    markers: list = dc_field(default_factory=list)  # player markers used per player
    # general supply
    sup_ghosts: int = 0
    sup_build: list = dc_field(default_factory=list)
    sup_res: list = dc_field(default_factory=list)
    sup_depl: int = 0
    sup_tok: list = dc_field(default_factory=list)
    # chance, outcome, bookkeeping
    rng_count: int = 0
    winner: int | None = None
    lost: bool = False
    over_reason: str = ""
    auto_chance: bool = True
    decisions: int = 0
    log: list | None = None
    _legal: list | None = None
    _ctx: object = None  # the game's lookup tables (rules.Ctx), shared by copies

    # ------------------------------------------------------------------ copying
    def copy(self, keep_log: bool = True) -> "State":
        """An independent copy (the log is copied too unless ``keep_log`` is False, in
        which case the copy records no events). Config, box and field are shared: they
        never change."""
        new = State.__new__(State)
        new.config = self.config
        new.field = self.field
        new.layout = self.layout[:]
        new.skills = self.skills[:]
        new.market = self.market
        new.season = self.season
        new.round = self.round
        new.phase = self.phase
        new.turn_order = self.turn_order[:]
        new.turn_pos = self.turn_pos
        new.pending = self.pending[:]
        new.chance = self.chance
        new.forced = self.forced[:]
        new.ghosts = self.ghosts[:]
        new.depleted = self.depleted[:]
        new.building = self.building[:]
        new.owner = self.owner[:]
        new.sensor = self.sensor[:]
        new.res = self.res[:]
        new.pec = self.pec[:]
        new.tok = self.tok[:]
        new.act = self.act[:]
        new.valor = self.valor[:]
        new.arrival = self.arrival[:]
        new.arrivals = self.arrivals
        new.learned = self.learned[:]
        new.slots = self.slots[:]
        new.hand = self.hand[:]
        new.quests = self.quests[:]
        new.markers = self.markers[:]
        new.sup_ghosts = self.sup_ghosts
        new.sup_build = self.sup_build[:]
        new.sup_res = self.sup_res[:]
        new.sup_depl = self.sup_depl
        new.sup_tok = self.sup_tok[:]
        new.rng_count = self.rng_count
        new.winner = self.winner
        new.lost = self.lost
        new.over_reason = self.over_reason
        new.auto_chance = self.auto_chance
        new.decisions = self.decisions
        new.log = self.log[:] if (keep_log and self.log is not None) else None
        new._legal = self._legal
        new._ctx = self._ctx
        return new

    __copy__ = copy

    # ------------------------------------------------------------------ engine entry points
    def current_player(self) -> int | None:
        """The player to decide now, or ``None`` at a chance node or a terminal state."""
        return _engine.current_player(self)

    def legal_actions(self) -> list:
        """The legal actions of the player to move (empty at chance nodes and terminal states)."""
        return _engine.legal_actions(self)

    def why_not(self, action):
        """``None`` if ``action`` is legal now, else a :class:`~haunted_kit.rules.Refusal`
        giving the reason in plain words and the rule section."""
        r = _engine.why_not(self, action)
        if r is not None:
            r.text  # compose the sentence now, while it describes this state
        return r

    def apply_action(self, action) -> None:
        """Apply ``action`` for the player to move, then run the game on to the next
        decision (resolving chance nodes when :attr:`auto_chance`).

        Raises:
            IllegalAction: with the :meth:`why_not` reason; the state is left unchanged.
        """
        _engine.apply_action(self, action)

    def is_chance_node(self) -> bool:
        return self.chance is not None and self.phase != OVER

    def chance_outcomes(self) -> list:
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``."""
        return _engine.chance_outcomes(self)

    def apply_chance(self, outcome) -> None:
        """Resolve the waiting chance node with ``outcome``; raises
        :class:`~haunted_kit.engine.ChanceError` if it is not a possible outcome."""
        _engine.apply_chance(self, outcome)

    def force_chance(self, *outcomes) -> None:
        """Force the outcomes of the next chance nodes, in order (e.g. ``"forest"`` for
        the next terrain die). Checked when each node comes up."""
        self.forced.extend(outcomes)
        if self.auto_chance and self.chance is not None:
            _engine.advance(self)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """Per player: 1.0 for the winner, 0.0 for the others; -1.0 for all on a
        collective loss; 0.0 for all while the game runs."""
        return _engine.returns(self)

    def _viewer(self, viewer):
        if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < self.config.players):
            raise ValueError(f"viewer must be a player index 0..{self.config.players - 1} or None, got {viewer!r}")
        return viewer

    def observation(self, player: int | None = None) -> dict:
        """The state as ``player`` sees it (JSON-ready): other players' quests appear
        only as a count, and the seed is hidden. ``None`` shows every quest.
        Raises ValueError for a player that does not exist."""
        return _serial.to_dict(self, viewer=self._viewer(player), observation=True)

    def events(self, viewer: int | None = None):
        """The event log as a DataFrame (see :func:`haunted_kit.events.log_to_frame`);
        ``viewer`` (a player index) sees other players' quest choices face down."""
        from .events import log_to_frame

        return log_to_frame(self.log or [], self._viewer(viewer))

    # ------------------------------------------------------------------ saves
    def to_dict(self) -> dict:
        """Full JSON-ready form (including the log and the random-generator position)."""
        return _serial.to_dict(self)

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    @staticmethod
    def from_dict(data: dict, box: Box | None = None) -> "State":
        """Rebuild a state saved by :meth:`to_dict`. Raises :class:`SaveError`."""
        return _serial.from_dict(data, box)

    @staticmethod
    def from_json(text: str, box: Box | None = None) -> "State":
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise SaveError(f"save is not valid JSON: {exc}") from None
        return _serial.from_dict(data, box)

    def save(self, path) -> None:
        """Write the save to ``path`` atomically (a failed write leaves the old file).
        Raises OSError."""
        from .fileio import atomic_write

        atomic_write(path, self.to_json(indent=1))

    @staticmethod
    def load(path, box: Box | None = None, max_bytes: int | None = None) -> "State":
        """Read a save file. ``max_bytes`` (default 16 MiB, :data:`haunted_kit.fileio.MAX_INPUT_BYTES`)
        refuses bigger files unread. Raises :class:`SaveError` naming the problem."""
        from .fileio import MAX_INPUT_BYTES, InputTooLarge, read_text

        try:
            text = read_text(path, MAX_INPUT_BYTES if max_bytes is None else max_bytes, what="save")
        except OSError as exc:
            raise SaveError(f"cannot read save {path}: {exc.strerror or exc}") from None
        except InputTooLarge as exc:
            raise SaveError(str(exc)) from None
        except UnicodeDecodeError:
            raise SaveError(f"save {path} is not a text (UTF-8 JSON) file") from None
        return State.from_json(text, box)

    # ------------------------------------------------------------------ convenience
    @property
    def players(self) -> int:
        return self.config.players

    @property
    def box(self) -> Box:
        return self.config.box

    def __repr__(self) -> str:
        if self.phase == OVER:
            what = "collective loss" if self.lost else f"won by P{self.winner + 1}"
            return f"<State over ({what}) valor={self.valor}>"
        return (f"<State season {self.season} round {self.round} {self.phase} "
                f"to move: {self.current_player()} valor={self.valor}>")


from . import engine as _engine  # noqa: E402  (engine needs State defined)
from . import serial as _serial  # noqa: E402
