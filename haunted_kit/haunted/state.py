"""Game state as plain data: the field table, copies and accessors in the game's words.

:class:`GameConfig` fixes a game's parameters (players, mode, ghost cards, seed,
switches for the rulings). :class:`State` holds everything that changes, in flat lists
indexed by player or by cell index so that :meth:`State.copy` is cheap (a search can
copy a mid-game state in microseconds); :data:`FIELDS` lists every field once, with how
it is copied and saved. Code outside this module reads and changes the state through
the accessors (:meth:`State.tokens`, :meth:`State.resources`, :meth:`State.knows_skill`...),
never by index arithmetic.

This module knows no rules: the rules are in :mod:`haunted_kit.haunted.rules`, the flow and the
game protocol's methods in :mod:`haunted_kit.haunted.engine` (its :class:`HauntedLandsState`
subclasses :class:`State`), the save format in :mod:`haunted_kit.haunted.serial`.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from functools import lru_cache

from .board import Field
from .box import Box, default_box
from .flow import Phase
from ..protocol import HistoryEntry, Record, check_seed, is_integer
from ..events import EVENT_KINDS
from ..saves import StateField, compile_copy
from ..visibility import ACTOR, CHANCE, EVERYONE, HELD, NOBODY, OWNER, Seen, Visibility

SAVE_FORMAT = "haunted-kit-save"
SAVE_VERSION = 2  #: 2 adds the action record ("history"); version 1 saves are migrated on load

# phases (haunted_kit.haunted.flow.Phase; the names are kept for the modules that import them)
SETUP, SPREAD, TURNS, SEASON_END, OVER = Phase.SETUP, Phase.SPREAD, Phase.TURNS, Phase.SEASON_END, Phase.OVER

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
    n_resources: int = dc_field(init=False, repr=False, compare=False)  #: resource types of the box

    def __post_init__(self):
        b = self.box
        if not isinstance(b, Box):
            raise ConfigError(f"box must be a Box (haunted_kit.load_box), got {type(b).__name__}")
        object.__setattr__(self, "n_resources", len(b.resources))
        if not is_integer(self.players) or not b.min_players <= self.players <= b.max_players:
            raise ConfigError(f"players must be between {b.min_players} and {b.max_players}, got {self.players!r}")
        object.__setattr__(self, "players", int(self.players))
        if not isinstance(self.mode, str):
            raise ConfigError(f"mode must be a mode name ({', '.join(b.modes)}), got {self.mode!r}")
        if self.mode not in b.modes:
            raise ConfigError(f"unknown mode {self.mode!r} (known: {', '.join(b.modes)})")
        if isinstance(self.extra_ghost_cards, (str, bytes)) or not hasattr(self.extra_ghost_cards, "__iter__"):
            raise ConfigError(f"extra_ghost_cards must be a list of ghost card numbers, e.g. (2, 3); got {self.extra_ghost_cards!r}")
        if not all(is_integer(g) for g in self.extra_ghost_cards):
            raise ConfigError(f"extra_ghost_cards must list ghost card numbers (integers), got {self.extra_ghost_cards!r}")
        object.__setattr__(self, "extra_ghost_cards", tuple(int(g) for g in self.extra_ghost_cards))
        for g in self.extra_ghost_cards:
            if g not in b.ghost_cards:
                raise ConfigError(f"unknown ghost card {g!r} (known: {', '.join(map(str, b.ghost_cards))})")
            if g == b.modes[self.mode].ghost_card:
                raise ConfigError(f"ghost card {g} is already the {self.mode} mode's card")
        if len(set(self.extra_ghost_cards)) != len(self.extra_ghost_cards):
            raise ConfigError(f"extra ghost cards repeat: {self.extra_ghost_cards}")
        object.__setattr__(self, "seed", check_seed(self.seed, error=ConfigError))
        if not isinstance(self.limited_supplies, bool):
            raise ConfigError(f"limited_supplies must be True or False, got {self.limited_supplies!r}")
        if not isinstance(self.terrain_die, str) or self.terrain_die not in ("standard", "with_lakes"):
            raise ConfigError(f"terrain_die must be 'standard' or 'with_lakes', got {self.terrain_die!r}")

    @property
    def ghost_cards(self) -> tuple[int, ...]:
        """Ghost cards in play: the mode's card, then the extra ones."""
        return (self.box.modes[self.mode].ghost_card,) + self.extra_ghost_cards

    def to_dict(self) -> dict:
        return {"players": self.players, "mode": self.mode, "extra_ghost_cards": list(self.extra_ghost_cards),
                "seed": self.seed, "limited_supplies": self.limited_supplies, "terrain_die": self.terrain_die}


# ============================================================================ the field table


_F = StateField

#: Every field of :class:`State`, in save order (:class:`haunted_kit.saves.StateField`:
#: name, copy kind, save codec of :mod:`haunted_kit.haunted.serial`, save key, secret).
#: Adding a field is one line here (and a codec in :mod:`haunted_kit.haunted.serial` if
#: none of the existing ones fits).
FIELDS: tuple[StateField, ...] = (
    # setup draws
    _F("layout", "list", "layout", "layout"),          # region tile id per slot, as drawn
    _F("skills", "list", "skill_cards", "skills"),          # skill card in play per deck (deck order)
    _F("market", "value", "int", "market"),          # market card in play
    # flow
    _F("season", "value", "count", "season"),
    _F("round", "value", "count", "round"),
    _F("phase", "value", "phase", "phase"),
    _F("turn_order", "list", "turn_order", "turn_order"),  # players, first to last
    _F("turn_pos", "value", "count", "turn_pos"),
    _F("pending", "list", "pending", "pending"),     # pending decisions (flow.Pending), top = last
    _F("chance", "value", "chance", "chance"),       # the chance node waiting (flow.ChanceNode) or None
    _F("forced", "list", "outcomes", "forced", secret=True),  # outcomes forced on the next chance nodes
    # cells (indexed by the field's cell index)
    _F("ghosts", "list", "cells", "cells.ghosts"),
    _F("depleted", "list", "cells", "cells.depleted"),
    _F("building", "list", "buildings", "cells.buildings"),  # building index or -1 (saved with its owner)
    _F("owner", "list", None),                                # player or -1 (saved with the building)
    # players (per-player lists; resources and tokens flat, see the accessors)
    _F("sensor", "list", "player_cell", "players.sensor"),
    _F("res", "list", "player_resources", "players.resources"),
    _F("pec", "list", "player_int", "players.pecunias"),
    _F("tok", "list", "player_tracks", "players.tokens"),
    _F("act", "list", "player_tracks", "players.active"),
    _F("valor", "list", "player_int", "players.valor"),
    _F("arrival", "list", "player_int", "players.arrival"),  # when the valor token last arrived
    _F("learned", "list", "player_skills", "players.skills"),  # bitmask of skill numbers
    _F("hand", "list", "player_hand", "players.quests_in_hand"),  # bitmask of quest cards in hand
    _F("quests", "list", "player_quests", "players.quests"),  # tuple of chosen (face-down) quests
    _F("markers", "list", "player_int", "players.markers_used"),
    _F("slots", "list", "marker_slots", "marker_slots"),  # marker slots of the skill cards in play
    _F("arrivals", "value", "count", "arrivals"),
    # general supply
    _F("sup_ghosts", "value", "supply_int", "supply.ghosts"),
    _F("sup_build", "list", "supply_buildings", "supply.buildings"),
    _F("sup_res", "list", "supply_resources", "supply.resources"),
    _F("sup_depl", "value", "supply_int", "supply.depletion"),
    _F("sup_tok", "list", "supply_tracks", "supply.tokens"),
    # outcome and bookkeeping
    _F("winner", "value", "winner", "winner"),
    _F("lost", "value", "bool", "lost"),
    _F("over_reason", "value", "str", "over_reason"),
    _F("decisions", "value", "count", "decisions"),
    _F("auto_chance", "value", "bool", "auto_chance"),
    _F("rng_count", "value", "count", "rng_count", secret=True),
    _F("steps", "value", "record", "history", secret=True),  # head of the action record (shared by copies)
    _F("log", "log", "log", "log"),
    # caches, never saved
    _F("_legal", "value", None),  # the legal actions, computed once per decision
    _F("_ctx", "value", None),    # the game's lookup tables (rules.Ctx)
)


#: Who may see what (:mod:`haunted_kit.visibility`, the one declaration every tool redacts
#: from): each player's quests, chosen and in hand, are theirs alone (rulebook "Quest
#: Cards"); the seed would foretell every die. A quest card taken is seen by its player
#: only; the dice, draws and the quests turned up at the end are what a search guesses in
#: a determinisation, so its hints and the review never state them as what happened.
VISIBILITY = Visibility(
    events={**{kind: Seen() for kind in EVENT_KINDS},
            "quest_chosen": Seen(ACTOR, "{who} takes a quest card face down."),
            "quest_revealed": Seen(EVERYONE, "{who} turns up a quest card and scores it.", guess=HELD),
            "game_over": Seen(EVERYONE, "The game ends and the quests are scored.", guess=CHANCE),
            "terrain_die": Seen(EVERYONE, "{who} rolls the terrain die.", guess=CHANCE),
            "bonus_die": Seen(EVERYONE, "{who} rolls the bonus die.", guess=CHANCE),
            "bonus_reward": Seen(EVERYONE, "{who} receives what the bonus die gives.", guess=CHANCE),
            "ghosts_short": Seen(EVERYONE, "The ghost supply may run short for the spread.", guess=CHANCE),
            "tile_drawn": Seen(EVERYONE, "A region tile is drawn.", guess=CHANCE),
            "skill_drawn": Seen(EVERYONE, "A skill card is drawn.", guess=CHANCE),
            "market_drawn": Seen(EVERYONE, "A market card is drawn.", guess=CHANCE)},
    fields={"players.*.quests": Seen(OWNER, None), "players.*.quests_in_hand": Seen(OWNER, None),
            "config.seed": Seen(NOBODY, None)},
    log="log")


# ============================================================================ the state


def _list():
    return dc_field(default_factory=list)


@dataclass(slots=True, eq=False, repr=False)
class State:
    """Everything that changes during a game, and accessors in the game's words.

    Create one with :func:`haunted_kit.new_game` (which returns the rules-driven
    subclass :class:`haunted_kit.haunted.engine.HauntedLandsState`, the one implementing the
    game protocol). This class is the data: its fields are listed, with how each is
    copied and saved, in :data:`FIELDS`. Per-player lists are indexed by player
    (0-based; shown as P1..P4), per-cell lists by the cell index of
    :class:`~haunted_kit.haunted.board.Field`.

    Read it through the accessors, never by index arithmetic:

    * :meth:`tokens` (owned or active action tokens of a track), :meth:`token_counts`;
    * :meth:`resources` (dict by name), :meth:`resource`, :meth:`resource_counts`;
    * :meth:`pecunias`, :meth:`knows_skill`, :meth:`skills_known`,
      :meth:`quests_in_hand`, :meth:`holds_quest`, :meth:`quests_chosen`;
    * :meth:`marker_slots`, :meth:`supply`;
    * :meth:`history` (the action record).
    """

    config: GameConfig
    field: Field | None = None
    layout: list = _list()
    skills: list = _list()
    market: int = 0
    season: int = 0
    round: int = 0
    phase: Phase = SETUP
    turn_order: list = _list()
    turn_pos: int = 0
    pending: list = _list()
    chance: tuple | None = None
    forced: list = _list()
    ghosts: list = _list()
    depleted: list = _list()
    building: list = _list()
    owner: list = _list()
    sensor: list = _list()
    res: list = _list()
    pec: list = _list()
    tok: list = _list()
    act: list = _list()
    valor: list = _list()
    arrival: list = _list()
    learned: list = _list()
    hand: list = _list()
    quests: list = _list()
    markers: list = _list()
    slots: list = _list()
    arrivals: int = 0
    sup_ghosts: int = 0
    sup_build: list = _list()
    sup_res: list = _list()
    sup_depl: int = 0
    sup_tok: list = _list()
    winner: int | None = None
    lost: bool = False
    over_reason: str = ""
    decisions: int = 0
    auto_chance: bool = True
    rng_count: int = 0
    steps: tuple | None = None
    log: list | None = None
    _legal: list | None = None
    _ctx: object = None

    copy = compile_copy(FIELDS, shared=("config", "field"), doc="""An independent copy (the log is copied too
        unless ``keep_log`` is False, in which case the copy records no events). Config, box
        and field are shared: they never change; so is the action record, whose common
        prefix copies share (appending makes a new head).""")
    __copy__ = copy

    # ------------------------------------------------------------------ the action record
    @property
    def record(self) -> Record:
        """The action record (a :class:`~haunted_kit.protocol.Record` over :attr:`steps`,
        the newest node, which copies share)."""
        return Record(self.steps)

    @record.setter
    def record(self, record: Record) -> None:
        self.steps = record.head

    def history(self) -> list[HistoryEntry]:
        """Every decision and chance outcome so far, oldest first: the setup draws,
        dice rolls and the players' decisions (not the ones the engine took by itself
        because only one action was legal). Re-applying them to a new game of the same
        config (without ``auto_chance``) gives this state again."""
        return self.record.entries()

    # ------------------------------------------------------------------ tracks
    def track_index(self, track) -> int:
        """The index (0..3) of an action track given by name (``"exploration"``...) or index.
        Raises ValueError for an unknown track."""
        if track.__class__ is int and 0 <= track < TRACKS:
            return track
        try:
            return _track_indexes(self.config.box)[track]
        except (KeyError, TypeError):
            raise ValueError(f"{track!r} is not an action track ({', '.join(self.config.box.tracks)})") from None

    def tokens(self, p: int, track, active: bool = False) -> int:
        """Action tokens of player ``p`` on ``track`` (name or index): owned, or only the
        active ones with ``active=True``. Rulebook: "Player Board", "Action Tokens"."""
        t = track if track.__class__ is int else self.track_index(track)
        return (self.act if active else self.tok)[p * TRACKS + t]

    def active_tokens(self, p: int, t: int) -> int:
        """Active tokens of player ``p`` on track index ``t`` (the rules' fast path of
        :meth:`tokens`)."""
        return self.act[p * TRACKS + t]

    def owned_tokens(self, p: int, t: int) -> int:
        """Tokens player ``p`` owns on track index ``t``, active or not (fast path)."""
        return self.tok[p * TRACKS + t]

    def token_counts(self, p: int) -> dict[str, tuple[int, int]]:
        """``{track name: (owned, active)}`` of player ``p``, in track order."""
        base = p * TRACKS
        return {name: (self.tok[base + t], self.act[base + t]) for t, name in enumerate(self.config.box.tracks)}

    def spend_tokens(self, p: int, t: int, k: int) -> None:
        """Turn ``k`` active tokens of track index ``t`` of player ``p`` face down."""
        self.act[p * TRACKS + t] -= k

    def restore_tokens(self, p: int, t: int, k: int) -> None:
        """Turn ``k`` inactive tokens of track index ``t`` of player ``p`` face up."""
        self.act[p * TRACKS + t] += k

    def set_tokens(self, p: int, track, owned: int, active: int) -> None:
        """Set player ``p``'s tokens of ``track`` (name or index); the caller keeps the
        supply right."""
        t = track if track.__class__ is int else self.track_index(track)
        self.tok[p * TRACKS + t] = owned
        self.act[p * TRACKS + t] = active

    def rest_all(self) -> None:
        """Every player's tokens active again (the rest)."""
        self.act[:] = self.tok

    # ------------------------------------------------------------------ resources
    def resource_index(self, resource) -> int:
        """The index of a resource given by name (``"wood"``) or index; ValueError if unknown."""
        names = self.config.box.resources
        if resource.__class__ is int and 0 <= resource < len(names):
            return resource
        try:
            return names.index(resource)
        except ValueError:
            raise ValueError(f"{resource!r} is not a resource ({', '.join(names)})") from None

    def resource(self, p: int, resource) -> int:
        """Tokens of one resource (name or index) in player ``p``'s personal supply."""
        r = resource if resource.__class__ is int else self.resource_index(resource)
        return self.res[p * self.config.n_resources + r]

    def resources(self, p: int) -> dict[str, int]:
        """``{resource name: tokens}`` held by player ``p``, in the box's resource order."""
        names = self.config.box.resources
        return dict(zip(names, self.res[p * len(names):(p + 1) * len(names)]))

    def resource_counts(self, p: int) -> tuple[int, ...]:
        """Player ``p``'s resource tokens as a tuple in resource-index order."""
        n = self.config.n_resources
        return tuple(self.res[p * n:(p + 1) * n])

    def resource_row(self, p: int) -> list[int]:
        """Player ``p``'s resource tokens as a new list in resource-index order (changing
        it does not change the state)."""
        n = self.config.n_resources
        return self.res[p * n:(p + 1) * n]

    def set_resource(self, p: int, resource, k: int) -> None:
        """Set player ``p``'s tokens of ``resource`` (name or index) to ``k``; the caller
        keeps the supply right (see :func:`haunted_kit.haunted.scenario.set_resources`)."""
        r = resource if resource.__class__ is int else self.resource_index(resource)
        self.res[p * len(self.config.box.resources) + r] = k

    def add_resource(self, p: int, r: int, k: int) -> None:
        """Add ``k`` (negative: remove) tokens of resource index ``r`` to player ``p``
        (the caller moves them from or to the general supply)."""
        self.res[p * self.config.n_resources + r] += k

    # ------------------------------------------------------------------ money, skills, quests
    def pecunias(self, p: int) -> int:
        """Pecunias held by player ``p``."""
        return self.pec[p]

    def knows_skill(self, p: int, skill: int) -> bool:
        """Whether player ``p`` has learned skill card number ``skill``."""
        return bool(self.learned[p] >> skill & 1)

    def set_skills_known(self, p: int, skills) -> None:
        """Make ``skills`` (card numbers) exactly what player ``p`` knows: for what-if
        analyses; markers and supplies are left alone."""
        mask = 0
        for k in skills:
            mask |= 1 << k
        self.learned[p] = mask

    def skills_known(self, p: int) -> list[int]:
        """The skill card numbers player ``p`` has learned, ascending."""
        mask = self.learned[p]
        return [k for k in range(mask.bit_length()) if mask >> k & 1]

    def holds_quest(self, p: int, quest: int) -> bool:
        """Whether quest card ``quest`` is still in player ``p``'s hand."""
        return bool(self.hand[p] >> quest & 1)

    def quests_in_hand(self, p: int) -> list[int]:
        """Quest card numbers still in player ``p``'s hand, ascending."""
        mask = self.hand[p]
        return [q for q in range(mask.bit_length()) if mask >> q & 1]

    def quests_chosen(self, p: int) -> tuple[int, ...]:
        """Quest cards player ``p`` has taken face down, in the order taken."""
        return self.quests[p]

    def set_quests(self, p: int, chosen, in_hand) -> None:
        """Player ``p``'s face-down quests (``chosen``, in the order taken) and the quest
        cards still in hand (``in_hand``): for the deal at setup and what-if copies."""
        self.quests[p] = tuple(chosen)
        mask = 0
        for q in in_hand:
            mask |= 1 << q
        self.hand[p] = mask

    def take_quest(self, p: int, quest: int) -> None:
        """Quest card ``quest`` leaves player ``p``'s hand and joins their face-down
        quests. Legality is the caller's."""
        self.hand[p] &= ~(1 << quest)
        self.quests[p] = self.quests[p] + (quest,)

    def marker_slots(self, skill: int) -> list[int]:
        """The marker slots of skill card ``skill`` (in play), left to right: a player
        index, :data:`FREE` or :data:`COVERED`. Raises ValueError if not in play."""
        k = self.skills.index(skill)
        S = len(self.config.box.skill_slot_valor)
        return self.slots[k * S:(k + 1) * S]

    def set_marker_slot(self, skill: int, j: int, value: int) -> None:
        """Put ``value`` (a player, FREE or COVERED) in slot ``j`` of skill card ``skill``."""
        S = len(self.config.box.skill_slot_valor)
        self.slots[self.skills.index(skill) * S + j] = value

    def mark_skill(self, p: int, skill: int, j: int) -> None:
        """Player ``p`` learns ``skill``: their marker goes on slot ``j`` of its card
        (one of their player markers used). Legality is the caller's."""
        self.set_marker_slot(skill, j, p)
        self.learned[p] |= 1 << skill
        self.markers[p] += 1

    def supply(self) -> dict:
        """The general supply: ``{"ghosts": n, "depletion": n, "buildings": {name: n},
        "resources": {name: n}, "tokens": {track: n}}``."""
        box = self.config.box
        return {"ghosts": self.sup_ghosts, "depletion": self.sup_depl,
                "buildings": dict(zip(box.buildings, self.sup_build)),
                "resources": dict(zip(box.resources, self.sup_res)),
                "tokens": dict(zip(box.tracks, self.sup_tok))}

    # ------------------------------------------------------------------ convenience
    @property
    def players(self) -> int:
        """Number of players."""
        return self.config.players

    @property
    def box(self) -> Box:
        return self.config.box

    def _viewer(self, viewer):
        if viewer is not None and not (is_integer(viewer) and 0 <= viewer < self.config.players):
            raise ValueError(f"viewer must be a player index 0..{self.config.players - 1} or None, got {viewer!r}")
        return viewer

    def __repr__(self) -> str:
        if self.phase == OVER:
            what = "collective loss" if self.lost else f"won by P{self.winner + 1}"
            return f"<State over ({what}) valor={self.valor}>"
        where = "setup" if self.season == 0 else f"season {self.season} round {self.round} {self.phase}"
        return f"<State {where} valor={self.valor}>"


TRACKS = 4  #: action tracks per player (the box loader enforces exactly these four)


def _track_indexes(box: Box) -> dict:
    return {name: i for i, name in enumerate(box.tracks)}


@lru_cache(maxsize=64)
def flat_index(players: int, width: int) -> tuple[tuple[int, ...], ...]:
    """``flat_index(n, w)[p][i]``: where entry ``i`` of player ``p`` sits in a flat
    per-player list of ``w`` entries each (tokens by track, resources). The rules' fast
    path to the flat lists, as a lookup table (see :class:`State` for the accessors)."""
    return tuple(tuple(p * width + i for i in range(width)) for p in range(players))


@lru_cache(maxsize=64)
def flat_spans(rows: int, width: int) -> tuple[slice, ...]:
    """``flat_spans(n, w)[k]``: the slice of row ``k`` in a flat list of ``n`` rows of
    ``w`` entries (a player's resources, a skill card's marker slots)."""
    return tuple(slice(k * width, (k + 1) * width) for k in range(rows))


def player_row(values: list, width: int, p: int) -> list:
    """Player ``p``'s part of a flat per-player list whose players hold ``width``
    entries each (resources, tokens): the one place that knows the layout."""
    return values[p * width:(p + 1) * width]
