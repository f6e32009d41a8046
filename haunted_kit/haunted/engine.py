"""The flow of a game: setup, seasons, rounds, phases, chance and decisions.

A game is a sequence of **decisions** (a player picks one of the legal actions) and
**chance nodes** (setup draws, terrain die, bonus die). :func:`advance` runs every
automatic step (production, rest, reorder, season ends, scoring, forced choices)
until the next decision or chance node. With ``auto_chance`` the seeded generator
resolves chance nodes on the way; a caller may force outcomes
(:meth:`State.force_chance`) or resolve them by hand (``auto_chance=False``).

Round flow (rulebook "Game Flow"): the engine interprets :data:`haunted_kit.haunted.flow.ROUND`
(spread -> production -> turns -> rest -> reorder), each phase with its handler in
:data:`_STEPS`; after the last round of a season, the season end of the mode (from
``data/game.toml``); after the last season, final scoring. ``state.phase`` is the
:class:`~haunted_kit.haunted.flow.Phase` of the step running, so every event carries it.

Sub-decisions sit on ``state.pending`` (top = last), chance nodes on ``state.chance``,
as the typed values of :mod:`haunted_kit.haunted.flow` (:class:`~haunted_kit.haunted.flow.GhostPlacement`,
:class:`~haunted_kit.haunted.flow.ResourceChoice`, :class:`~haunted_kit.haunted.flow.BonusChoice`,
:class:`~haunted_kit.haunted.flow.RestoreChoice`, :class:`~haunted_kit.haunted.flow.QuestChoice`;
:class:`~haunted_kit.haunted.flow.TileDraw`... :class:`~haunted_kit.haunted.flow.BonusDie`).

A decision with exactly one legal action is applied automatically (the turn ends by
itself when ending it is all a player can do: rulebook "Game Flow", step 3).
"""

from __future__ import annotations

import json
import math

from . import actions as A
from . import rules as R
from . import serial
from .agents import AGENTS
from .board import KALENA, build_field
from .box import Box, default_box, load_box
from .boxmodels import SCHEMA as BOX_SCHEMA
from ..fileio import MAX_INPUT_BYTES, atomic_write, parse_json, read_json
from ..games import load_state
from .flow import (MARKET_DRAW, TERRAIN_DIE, BonusChoice, BonusDie, GhostPlacement, Phase, QuestChoice,
                   ResourceChoice, RestoreChoice, SkillDraw, StackDraw, TileDraw, next_step)
from ..protocol import ChanceError, GameOption, IllegalAction, Record, Refusal, chance_index
from .rules import P, ctx_of
from .state import (VISIBILITY, CONTACT, COVERED, EXPLORATION, EXTRACTION, FREE, OVER, SEASON_END, SETUP, SPREAD, TRACKS, TURNS, ConfigError,
                    GameConfig, SaveError, State)


# ============================================================================ the state as the game protocol


class HauntedLandsState(State):
    """A Haunted Lands position implementing :class:`haunted_kit.protocol.GameState`:
    the data and accessors of :class:`~haunted_kit.haunted.state.State` plus the rules-driven
    entry points (OpenSpiel-style) :meth:`current_player`, :meth:`legal_actions`,
    :meth:`apply_action`, :meth:`why_not`, :meth:`is_chance_node`,
    :meth:`chance_outcomes`, :meth:`apply_chance`, :meth:`is_terminal`, :meth:`returns`,
    :meth:`observation`, :meth:`events`, :meth:`history`, :meth:`copy` and saves
    (:meth:`to_dict`, :meth:`save`, :meth:`load`). Exported as ``haunted_kit.State``.
    """

    __slots__ = ()

    # current_player, legal_actions and apply_action are the hot path of every simulation:
    # their bodies are here (not a call to a module function) and the module-level
    # names are these functions (see below the class)
    # a state's phase is always a flow.Phase member (the engine sets the module's constants,
    # saves load through Phase(...)), so the hot path compares phases by identity
    def current_player(self) -> int | None:
        """The player to decide now, or ``None`` at a chance node or a terminal state."""
        if self.chance is not None:
            return None
        phase = self.phase
        if phase is OVER:
            return None
        if self.pending:
            return self.pending[-1].player
        if phase is TURNS and self.turn_pos < len(self.turn_order):
            return self.turn_order[self.turn_pos]
        return None

    def legal_actions(self) -> list:
        """The legal actions of the player to move (empty at chance nodes and terminal states)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _compute_legal(self)
        return [*legal]  # a new list (the caller may change it); [*x] costs less than list(x)

    def why_not(self, action):
        """``None`` if ``action`` is legal now, else a :class:`~haunted_kit.protocol.Refusal`
        giving the reason in plain words and the rule section."""
        r = why_not(self, action)
        if r is not None:
            r.text  # compose the sentence now, while it describes this state
        return r

    def apply_action(self, action) -> None:
        """Apply ``action`` for the player to move, append it to the action record, then
        run the game on to the next decision (resolving chance nodes when
        :attr:`auto_chance`).

        Raises:
            IllegalAction: with the :meth:`why_not` reason; the state is left unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for a in legal:  # the usual case: one of the listed (interned) objects; `is` skips dataclass __eq__
            if a is action:
                break
        else:
            _apply_unlisted(self, action, legal)
            return
        # _decide(self, action), written out: this runs at every decision of every game
        self.decisions += 1
        p = self.pending[-1].player if self.pending else self.turn_order[self.turn_pos]
        self.steps = (self.steps, p, action, False)  # the action record (protocol.Record's node)
        self._legal = None
        ctx = self._ctx  # ctx_of(self), without the call when the state's tables are current
        if ctx is None or ctx.field is not self.field or ctx.config is not self.config:
            ctx = ctx_of(self)
        _HANDLERS[action.__class__](self, ctx, p, action)
        advance(self, ctx)

    def is_chance_node(self) -> bool:
        """Whether a chance event (setup draw, terrain die, bonus die) waits for its outcome."""
        return self.chance is not None and self.phase != OVER

    def chance_outcomes(self) -> list:
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``."""
        return chance_outcomes(self)

    def apply_chance(self, outcome) -> None:
        """Resolve the waiting chance node with ``outcome`` (appended to the record);
        raises :class:`~haunted_kit.protocol.ChanceError` if it is not a possible outcome."""
        apply_chance(self, outcome)

    def sample_chance(self):
        """The seeded outcome of the waiting chance node (what ``auto_chance`` would
        draw: :func:`sample_chance`); raises :class:`~haunted_kit.protocol.ChanceError`
        when none waits."""
        if not self.is_chance_node():
            raise ChanceError("no chance node is waiting")
        return sample_chance(self)

    def force_chance(self, *outcomes) -> None:
        """Force the outcomes of the next chance nodes, in order (e.g. ``"forest"`` for
        the next terrain die). Checked when each node comes up."""
        self.forced.extend(outcomes)
        if self.auto_chance and self.chance is not None:
            advance(self)

    def is_terminal(self) -> bool:
        """Whether the game is over (final scoring done, or Kalena fell)."""
        return self.phase is OVER

    def returns(self) -> list[float]:
        """Per player: 1.0 for the winner, 0.0 for the others; -1.0 for all on a
        collective loss; 0.0 for all while the game runs."""
        return returns(self)

    def observation(self, player: int | None = None) -> dict:
        """The state as ``player`` sees it (JSON-ready): other players' quests appear
        only as a count, and the seed, forced outcomes and action record are hidden.
        ``None`` shows every quest. Raises ValueError for a player that does not exist."""
        return serial.to_dict(self, viewer=self._viewer(player), observation=True)

    def events(self, viewer: int | None = None):
        """The event log as a DataFrame (see :func:`haunted_kit.events.log_to_frame`);
        ``viewer`` (a player index) sees other players' quest choices face down."""
        return VISIBILITY.frame(self.log or [], self._viewer(viewer))

    # ------------------------------------------------------------------ saves
    def to_dict(self) -> dict:
        """Full JSON-ready form (format ``"haunted-kit-save"``, version
        :data:`~haunted_kit.haunted.state.SAVE_VERSION`), with the log, the action record and
        the random-generator position."""
        return serial.to_dict(self)

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    @classmethod
    def from_dict(cls, data: dict, box: Box | None = None) -> "HauntedLandsState":
        """Rebuild a state saved by :meth:`to_dict` with ``box`` (default: the kit's),
        after the kit's box check (:func:`haunted_kit.games.load_state`). Raises
        :class:`~haunted_kit.haunted.state.SaveError` naming the bad field, or saying
        that the save was made with another box."""
        return load_state(GAME, data, box, SaveError)

    @classmethod
    def read_save(cls, data: dict, box: Box | None = None) -> "HauntedLandsState":
        """The Game's ``from_dict``: rebuild a state saved by :meth:`to_dict` (version 1
        saves are migrated: their action record is rebuilt from the event log). The box's
        fingerprint is the kit's to check (:func:`haunted_kit.games.load_state`), not
        this reader's. Raises :class:`~haunted_kit.haunted.state.SaveError` naming the
        bad field."""
        s = serial.from_dict(data, box, cls)
        R.check_position(s)
        if s.phase != OVER and s.chance is None and not legal_actions(s):
            raise SaveError(f"save field 'pending': in the {s.phase} phase the game would wait for nothing "
                            f"(no decision with a legal action, no chance outcome)")
        if serial.needs_record(data):
            try:
                s.record, s.log = _record_from_log(s)
            except (ChanceError, IllegalAction) as exc:  # a log event the game cannot reproduce
                raise SaveError(f"version 1 save: the event log cannot be replayed ({exc})") from None
        else:
            draws = sum(1 for e in s.record.entries() if e.chance)
            if s.rng_count != draws:
                raise SaveError(f"save field 'rng_count': {s.rng_count}, but the action record holds {draws} chance "
                                "outcomes (the generator's position counts them; a wrong one changes every later draw)")
            _check_log(s)
        return s

    @classmethod
    def from_json(cls, text: str, box: Box | None = None) -> "HauntedLandsState":
        """:meth:`from_dict` of a JSON text. Raises SaveError for text that is not JSON."""
        return cls.from_dict(parse_json(text, "save", SaveError), box)

    def save(self, path) -> None:
        """Write the save to ``path`` as indented JSON, atomically (a failed write leaves
        the old file). Raises OSError."""
        atomic_write(path, self.to_json(indent=1))

    @classmethod
    def load(cls, path, box: Box | None = None, max_bytes: int | None = None) -> "HauntedLandsState":
        """Read a save file. ``max_bytes`` (default 16 MiB, :data:`haunted_kit.fileio.MAX_INPUT_BYTES`)
        refuses bigger files unread. Raises :class:`SaveError` naming the problem."""
        data = read_json(path, MAX_INPUT_BYTES if max_bytes is None else max_bytes, what="save", error=SaveError)
        return cls.from_dict(data, box)

    def __repr__(self) -> str:
        if self.phase == OVER:
            what = "collective loss" if self.lost else f"won by P{self.winner + 1}"
            return f"<State over ({what}) valor={self.valor}>"
        p = self.current_player()
        if p is not None:
            mover = f"to move: P{p + 1}"
        else:
            mover = f"waiting for the {self.chance.name()}" if self.chance is not None else "to move: nobody"
        where = "setup" if self.season == 0 else f"season {self.season} round {self.round} {self.phase}"
        return f"<State {where} {mover} valor={self.valor}>"


# ============================================================================ creating a game


def new_game(config: GameConfig | None = None, *, log: bool = True, auto_chance: bool = True,
             layout=None, skills=None, market=None, order=None, **kwargs) -> State:
    """Set up a new game (rulebook "Game Setup", steps 1-17).

    Args:
        config: the game's parameters; or pass :class:`GameConfig` fields as keyword
            arguments (``players=3, mode="citizen", seed=7``).
        log: record events (switch off for fast simulation).
        auto_chance: resolve setup draws and dice with the seeded generator. With
            ``False`` the returned state waits at the first setup draw.
        layout, skills, market, order: force setup draws instead of drawing them:
            the 6 region tile ids by slot, the skill card of each deck (4 numbers, deck
            order), the market card number, the starting stack from the top (player
            indexes; the top player takes the first turn).

    Returns:
        the state at the first decision (the last player's first ghost placement, or
        the first player's turn), or at the first chance node without ``auto_chance``.

    Raises:
        ConfigError: bad parameters.
    """
    if config is None:
        config = GameConfig(**kwargs)
    elif kwargs:
        raise TypeError("pass either a GameConfig or keyword arguments, not both")
    box = config.box
    n = config.players
    ncells = 7 * (1 + len(box.region_centres))
    s = HauntedLandsState(config)
    s.log = [] if log else None
    s.auto_chance = auto_chance
    _starting_pieces(s, ncells)
    _force_setup(s, config, layout, skills, market, order)
    if s.log is not None:
        R.emit(s, "setup", None, f"Setup for {n} players, {config.mode} mode, ghost card{'s' if len(config.ghost_cards) > 1 else ''} "
               f"{', '.join(map(str, config.ghost_cards))} in play; supplies go to the general supply (steps 3-4, 8).",
               players=n, mode=config.mode, ghost_cards=list(config.ghost_cards))
    advance(s)
    return s


def _starting_pieces(s: State, ncells: int) -> None:
    """Give a new game's ``s`` its empty field, each player's starting pieces, tokens and
    dealt quests, the supplies (limited or not) and its first setup draw."""
    config = s.config
    box = config.box
    n = config.players
    big = 10**9
    lim = config.limited_supplies
    s.ghosts = [0] * ncells
    s.depleted = [0] * ncells
    s.building = [-1] * ncells
    s.owner = [-1] * ncells
    R_ = len(box.resources)
    s.res = [0] * (n * R_)
    s.pec = [0] * n
    s.tok = [t.start_tokens for t in box.tracks.values()] * n
    s.act = s.tok[:]
    s.valor = [0] * n
    s.arrival = [0] * n
    s.learned = [0] * n
    s.markers = [0] * n
    removed = box.removed_quests.get(n, ())
    s.hand = [0] * n
    s.quests = [()] * n
    dealt = [q for q in box.quests if q not in removed]
    for p in range(n):
        s.set_quests(p, (), dealt)
    s.sup_ghosts = box.supply_ghosts if lim else big
    s.sup_build = [box.supply_buildings[b] if lim else big for b in box.buildings]
    s.sup_res = [box.supply_resources[r] if lim else big for r in box.resources]
    s.sup_depl = box.supply_depletion if lim else big
    s.sup_tok = [(box.supply_tokens[t] if lim else big) - n * tr.start_tokens for t, tr in box.tracks.items()]
    s.sensor = [0] * n
    s.phase = SETUP
    s.chance = TileDraw(0)


def _force_setup(s: State, config: GameConfig, layout, skills, market, order) -> None:
    """Queue the forced setup draws of :func:`new_game` on ``s``, in draw order.
    Raises ConfigError."""
    n_forced = 0
    _check_forced_setup(config, layout, skills, market)
    if order is not None:
        if sorted(order) != list(range(config.players)):
            raise ConfigError(f"order must list each player index 0..{config.players - 1} once, got {order!r}")
        order = list(order)[:-1]  # the last token's place follows from the others
    for part in (layout, skills, [market] if market is not None else None, order):
        if part is not None:
            s.forced.extend(part)
            n_forced += 1
    if n_forced and (layout is None or skills is None or market is None or order is None) and n_forced < 4:
        # forced outcomes apply in draw order: everything before a forced part must be forced too
        expected = [layout is not None, skills is not None, market is not None, order is not None]
        if expected != sorted(expected, reverse=True):
            raise ConfigError("forced setup parts apply in draw order: layout, skills, market, order; "
                            "force a later part only with every earlier one")


def _check_forced_setup(config: GameConfig, layout, skills, market) -> None:
    """Refuse forced setup draws that the box cannot produce (ConfigError naming them)."""
    box = config.box
    if layout is not None:
        layout = list(layout)
        unknown = [t for t in layout if t not in box.tiles]
        if len(layout) != len(box.region_centres) or unknown or len(set(layout)) != len(layout):
            raise ConfigError(f"layout must name {len(box.region_centres)} different region tiles of "
                              f"{', '.join(box.tiles)}; got {layout!r}")
    if skills is not None:
        skills, decks = list(skills), list(box.skill_decks.items())
        if len(skills) != len(decks) or any(k not in deck for k, (_, deck) in zip(skills, decks)):
            raise ConfigError("skills must give one skill card per deck, in deck order ("
                              + "; ".join(f"{name}: {', '.join(map(str, deck))}" for name, deck in decks)
                              + f"); got {skills!r}")
    if market is not None and market not in box.market_cards:
        raise ConfigError(f"market must be one of the market cards {', '.join(map(str, box.market_cards))}; got {market!r}")


# ============================================================================ queries


current_player = HauntedLandsState.current_player
legal_actions = HauntedLandsState.legal_actions
apply_action = HauntedLandsState.apply_action


def _compute_legal(s: State) -> list:
    if s.phase is OVER or s.chance is not None:
        return []
    ctx = ctx_of(s)
    if s.pending:
        return _pending_legal(s, ctx)
    if s.phase is TURNS:
        return _turn_legal(s, ctx, s.turn_order[s.turn_pos])
    return []


def _pending_legal(s: State, ctx) -> list:
    top = s.pending[-1]
    t, p = type(top), top.player
    if t is GhostPlacement:
        acts = ctx.place_ghost_actions
        return [acts[c] for c in _ghost_targets(s, ctx, top.terrain)]
    if t is ResourceChoice:
        return list(ctx.choose_resource)
    if t is BonusChoice:
        return list(ctx.choose_bonus) + [ctx.ROLL]
    if t is RestoreChoice:
        return [ctx.restore_actions[t] for t in range(TRACKS) if s.tokens(p, t) > s.tokens(p, t, active=True)]
    if t is QuestChoice:
        return [ctx.choose_quest[q] for q in ctx.quest_numbers if s.holds_quest(p, q)]
    raise AssertionError(top)  # pragma: no cover - flow.PENDING lists every kind


def _ghost_targets(s: State, ctx, terrain: str) -> list[int]:
    """Free cells of the rolled ``terrain``, or of Kalena once the spread moved there."""
    return R.kalena_targets(s, ctx) if terrain == KALENA else R.ghost_targets(s, ctx, terrain)


def _turn_legal(s: State, ctx, p: int) -> list:
    """The legal turn actions of player ``p``, in a fixed order: explore, extract, build,
    contact, sell, train, learn, end the turn. Each is allowed by its ``refuse_<action>``
    rule. Before asking it, a cheap check that rule also makes (the active tokens, a
    ghost to contact, no depletion token or building, a depletion token or player marker
    left, a skill not learned yet, the cost in resources or pecunias) skips the
    candidates it would refuse most often, so that listing composes no
    :class:`Refusal` for them. Building needs a cell without a ghost and contact one
    with a ghost, so at most one of the two is asked."""
    here = s.sensor[p]
    active, at = s.act, ctx.token_at[p]
    have = active[at[EXPLORATION]]
    if have:  # the explore actions of R.explore_targets, read off its memo when no ghost matters
        _, moves, ghost_rule = ctx.explore_reach(s.learned[p], here, have)
        out = [ctx.explore_actions[c] for c in R.explore_targets(s, ctx, p)] if ghost_rule else [*moves]
    else:
        out = []
    if active[at[EXTRACTION]] >= ctx.extraction_tokens and s.sup_depl > 0:  # R.extract_targets' own checks
        pairs = R.open_extractions(s, ctx, here)
        if pairs:  # none, one or two: a loop costs less than a map here
            extract = ctx.extract_actions
            for cr in pairs:
                out.append(extract[cr])
    if s.ghosts[here]:
        if active[at[CONTACT]] >= ctx.contact_costs[s.season] and R.refuse_contact(s, ctx, p) is None:  # R.contact_cost's table
            out.append(ctx.CONTACT)
    elif s.building[here] < 0 and s.markers[p] < ctx.player_markers:
        build_here = ctx.build_here[here]
        if build_here:
            held = tuple(s.res[ctx.resource_span[p]])
            payable = (ctx.afford_cache.get(held) or R.affordable(ctx, held))[1]  # the memo read without a call
            for b in build_here:
                if b in payable and R.refuse_build(s, ctx, p, b) is None:
                    out.append(ctx.build_actions[b])
    if ctx.can_sell[here] or ctx.can_train[here]:  # else sells_here and trains_here are False
        out += _sell_train_learn_legal(s, ctx, p)
    out.append(ctx.END_TURN)
    return out


def _sell_train_learn_legal(s: State, ctx, p: int) -> list:
    """The legal sales, trainings and learnings of player ``p``, whose sensor stands on a
    cell where selling or training is allowed (part of :func:`_turn_legal`, with the
    same cheap checks first)."""
    held = tuple(s.res[ctx.resource_span[p]])
    out = [*R.affordable_sales(ctx, s.market, held)] if R.sells_here(s, ctx, p) else []
    if R.trains_here(s, ctx, p):
        pec, owned, at = s.pec[p], s.tok, ctx.token_at[p]
        train, next_cost = ctx.train_actions, ctx.next_training_cost  # R.training_cost's table
        for t in range(TRACKS):
            cost = next_cost[t][owned[at[t]]]
            if cost is not None and cost <= pec and R.refuse_train(s, ctx, p, t, True) is None:
                out.append(train[t])
        if s.markers[p] < ctx.player_markers:
            payable = (ctx.afford_cache.get(held) or R.affordable(ctx, held))[0]
            if payable:  # else no skill's cost is held
                learned = s.learned[p]
                for k in s.skills:
                    if not learned >> k & 1 and k in payable and R.refuse_learn(s, ctx, p, k, True) is None:
                        out.append(ctx.learn_actions[k])
    return out


def _malformed(exc: A.ActionFormatError) -> Refusal:
    return Refusal(str(exc), "Actions", "kit")


def _normal(s: State, action):
    """``action`` checked and normalised for this game's box (:func:`actions.normalise`);
    raises ActionFormatError."""
    return A.normalise(action, A.box_names(s.config.box))


def why_not(s: State, action) -> Refusal | None:
    """``None`` when ``action`` is legal for the player to move, else the reason. A
    malformed action (:func:`actions.normalise`) is refused for its shape first."""
    try:
        action = _normal(s, action)
    except A.ActionFormatError as exc:
        return _malformed(exc)
    if s.phase == OVER:
        return Refusal("the game is over" + (" (Kalena fell)" if s.lost else ""), "Game Flow")
    if s.chance is not None:
        return Refusal(f"the game waits for a chance outcome ({s.chance.name()}), not for a decision", "Game Flow")
    ctx = ctx_of(s)
    if s.pending:
        return _why_not_pending(s, ctx, action)
    if s.phase != TURNS:
        return Refusal("no decision is due now", "Game Flow")
    p = s.turn_order[s.turn_pos]
    t = type(action)
    f = s.field
    try:
        if t is A.Explore:
            return R.refuse_explore(s, ctx, p, f.cell_index(action.cell))
        if t is A.Extract:
            return R.refuse_extract(s, ctx, p, f.cell_index(action.cell), ctx.ri[action.resource])
        if t is A.Build:
            return R.refuse_build(s, ctx, p, ctx.bi[action.building])
        if t is A.Contact:
            return R.refuse_contact(s, ctx, p)
        if t is A.Sell:
            return R.refuse_sell(s, ctx, p, action.option, action.payment)
        if t is A.Train:
            return R.refuse_train(s, ctx, p, ctx.ti[action.track])
        if t is A.Learn:
            return R.refuse_learn(s, ctx, p, action.skill)
        if t is A.EndTurn:
            return None
    except ValueError as exc:  # unknown cell
        return Refusal(str(exc), "Game Field")
    return Refusal(f"{P(p)} is taking a turn; {A.TYPE_NAMES[t].replace('_', ' ')} is not a turn action", "Game Flow")


def _why_not_pending(s: State, ctx, a) -> Refusal | None:
    top = s.pending[-1]
    kind, p = top.kind, top.player
    if not isinstance(a, top.accepts):
        return Refusal(f"{top.status(s.config.box)} first", "Game Flow")
    try:
        if kind == "ghosts":
            c = s.field.cell_index(a.cell)
            if c in _ghost_targets(s, ctx, top.terrain):
                return None
            t = s.field.terrain[c]
            if top.terrain == KALENA and s.field.tile[c] != KALENA:
                return Refusal(f"no cell of the rolled terrain is free any more, so the remaining ghosts go to Kalena, and {s.field.describe(c)} is not on Kalena", "Ghosts")
            if top.terrain != KALENA and t != top.terrain:
                # the rule, not a restatement of the cell: the spread's ghosts go on cells of the die's terrain
                return Refusal(f"the terrain die showed {top.terrain}, so this spread's ghosts go on free {top.terrain} "
                               f"cells; {s.field.describe(c)} is not a {top.terrain} cell", "Ghosts; Game Flow: Spread")
            if s.ghosts[c]:
                return Refusal(f"{s.field.describe(c)} already holds a ghost", "Ghosts")
            if s.building[c] >= 0:
                return Refusal(f"{s.field.describe(c)} has a building", "Ghosts")
            return Refusal(f"a ghost cannot go on {s.field.describe(c)}", "Ghosts")
    except ValueError as exc:
        return Refusal(str(exc), "Game Field")
    if kind == "resource":
        return None
    if kind == "bonus":
        if isinstance(a, A.ChooseBonus) and a.face not in s.config.box.bonus_die:
            return Refusal(f"the bonus card has no reward {a.face!r}", "Bonus Cards")
        return None
    if kind == "restore":
        return R.refuse_restore(s, ctx, p, ctx.ti[a.track])
    if kind == "quests":
        return R.refuse_choose_quest(s, ctx, p, a.quest)
    return None


# ============================================================================ applying decisions


def _apply_unlisted(s: State, action, legal) -> None:
    """apply_action for an action object that is not one of the listed ones: it is
    checked and normalised first (a malformed action is refused before anything is
    compared or changed), then the listed equal action is applied; anything else is
    refused with the :func:`why_not` reason."""
    try:
        canon = _normal(s, action)
    except A.ActionFormatError as exc:
        raise IllegalAction(action, _malformed(exc)) from None
    try:
        action = legal[legal.index(canon)]
    except ValueError:
        raise IllegalAction(action, why_not(s, canon) or Refusal("that action is not available now", "Game Flow")) from None
    _decide(s, action)


def _decide(s: State, a) -> None:
    """A player's decision (already checked legal): counted, appended to the action
    record, applied; then the game runs on."""
    s.decisions += 1
    p = s.pending[-1].player if s.pending else s.turn_order[s.turn_pos]
    s.steps = (s.steps, p, a, False)  # the action record (protocol.Record's node)
    s._legal = None
    ctx = s._ctx  # ctx_of(s), without the call when the state's tables are current (the usual case)
    if ctx is None or ctx.field is not s.field or ctx.config is not s.config:
        ctx = ctx_of(s)
    _HANDLERS[type(a)](s, ctx, p, a)
    advance(s, ctx)


def _apply(s: State, a) -> None:
    """Apply an action the engine takes by itself (the only legal one); not recorded,
    since replaying the record takes it again."""
    ctx = ctx_of(s)
    s._legal = None
    p = s.pending[-1].player if s.pending else s.turn_order[s.turn_pos]
    _HANDLERS[type(a)](s, ctx, p, a)


def _h_explore(s, ctx, p, a):
    R.do_explore(s, ctx, p, s.field.index[a.cell])


def _h_extract(s, ctx, p, a):
    R.do_extract(s, ctx, p, s.field.index[a.cell], ctx.ri[a.resource])


def _h_build(s, ctx, p, a):
    R.do_build(s, ctx, p, ctx.bi[a.building])


def _h_contact(s, ctx, p, a):
    R.do_contact(s, ctx, p)


def _h_sell(s, ctx, p, a):
    R.do_sell(s, ctx, p, a.option, tuple(R.counts_of(ctx, [ctx.ri[x] for x in a.payment])))


def _h_train(s, ctx, p, a):
    R.do_train(s, ctx, p, ctx.ti[a.track])


def _h_learn(s, ctx, p, a):
    R.do_learn(s, ctx, p, a.skill)


def _h_end_turn(s, ctx, p, a):
    if s.log is not None:
        R.emit(s, "turn_ended", p, f"{P(p)} ends the turn.")
    _next_turn(s, ctx)


def _h_place_ghost(s, ctx, p, a):
    top = s.pending.pop()
    R.place_ghost(s, ctx, p, s.field.index[a.cell], False)  # positional: a keyword call costs more
    if R.kalena_fallen(s, ctx):
        _lose(s, ctx, "every Kalena cell holds a ghost")
        return
    _spread_on(s, ctx, p, top.terrain, top.remaining - 1)


def _h_choose_resource(s, ctx, p, a):
    R.do_choose_resource(s, ctx, p, ctx.ri[a.resource])


def _h_choose_bonus(s, ctx, p, a):
    s.pending.pop()
    R.give_bonus(s, ctx, p, a.face, lambda: f"uses skill {ctx.skill_no['choose_bonus']} to take reward {a.face}")


def _h_roll_bonus(s, ctx, p, a):
    s.pending.pop()
    s.chance = BonusDie(p)


def _h_restore(s, ctx, p, a):
    s.pending.pop()
    R.restore(s, ctx, p, ctx.ti[a.track], 1, lambda: f"skill {ctx.skill_no['sell_restore']}")


def _h_choose_quest(s, ctx, p, a):
    R.do_choose_quest(s, ctx, p, a.quest)


_HANDLERS = {
    A.Explore: _h_explore, A.Extract: _h_extract, A.Build: _h_build, A.Contact: _h_contact,
    A.Sell: _h_sell, A.Train: _h_train, A.Learn: _h_learn, A.EndTurn: _h_end_turn,
    A.PlaceGhost: _h_place_ghost, A.ChooseResource: _h_choose_resource, A.ChooseBonus: _h_choose_bonus,
    A.RollBonus: _h_roll_bonus, A.RestoreToken: _h_restore, A.ChooseQuest: _h_choose_quest,
}


# ============================================================================ the automatic flow


def advance(s: State, ctx=None) -> None:
    """Run automatic steps until a decision with 2+ legal actions, an unresolved
    chance node, or the end of the game. Sets the legal-action cache. ``ctx``: the
    state's tables (:func:`rules.ctx_of`) when the caller has them; they are read
    again after a chance outcome (the layout draw makes the field).

    Every caller enters with the cache empty (a decision, a chance outcome and a new
    game clear it), so a cache found filled at a pending decision was filled by the
    step that pushed it: :func:`_spread_on` lists the ghost placement's cells as it
    pushes it, and that list is used, not listed again."""
    while True:
        if s.chance is None:  # the usual case first: a decision's consequences, no chance node
            phase = s.phase
            if phase is OVER:
                s._legal = []
                return
            if ctx is None:
                ctx = ctx_of(s)
            if s.pending:
                legal = s._legal
                if legal is None:
                    legal = _pending_legal(s, ctx)
                if len(legal) == 1:
                    _apply(s, legal[0])
                    continue
                s._legal = legal
                return
            if phase is TURNS:
                p = s.turn_order[s.turn_pos]
                legal = _turn_legal(s, ctx, p)
                if len(legal) == 1:
                    if s.log is not None:
                        R.emit(s, "turn_ended", p, f"{P(p)} cannot perform any action, so the turn ends (Game Flow: Turn).", forced=True)
                    _next_turn(s, ctx)
                    continue
                s._legal = legal
                return
            if phase is SEASON_END:
                _start_season(s, ctx)
                continue
            raise AssertionError(f"stuck in phase {s.phase}")  # pragma: no cover
        if s.phase is OVER:
            s._legal = []
            return
        # a chance node waits
        if s.forced:
            outcome = _possible_outcome(s, s.forced[0])
            if outcome is _IMPOSSIBLE:
                # drop it, so the game waits at this chance node for a valid outcome
                bad = s.forced.pop(0)
                s._legal = []
                raise ChanceError(f"forced outcome {bad!r} is not possible at {s.chance.name()} "
                                  f"(possible: {', '.join(repr(o) for o, _ in chance_outcomes(s))}); the game waits "
                                  "at this chance node, resolve it with apply_chance() or force_chance()")
            s.forced.pop(0)
            _resolve_chance(s, outcome)
        elif s.auto_chance:
            _resolve_chance(s, sample_chance(s))
        else:
            s._legal = []
            return
        ctx = None


def _next_turn(s: State, ctx) -> None:
    s.turn_pos += 1
    if s.turn_pos < len(s.turn_order):
        if s.log is not None:  # _turn_started logs only
            _turn_started(s)
    else:
        _step_done(s, ctx)


# ---------------------------------------------------------------- the round's steps (flow.ROUND)


def _step_done(s: State, ctx) -> None:
    """The round step of ``s.phase`` is over: enter the next step of
    :data:`haunted_kit.haunted.flow.ROUND`, or after the last one start the next round or end
    the season (rulebook "Game Flow")."""
    nxt = next_step(s.phase)
    if nxt is None:
        if s.round < s.config.box.rounds_per_season:
            _start_round(s, ctx)
        else:
            _end_season(s, ctx)
        return
    s.phase = nxt
    _STEPS[nxt](s, ctx)


def _spread_step(s: State, ctx) -> None:
    """Spread (step 1): the last player rolls the terrain die; :func:`_spread_on` goes on
    when it is rolled, and hands over when the ghosts are placed."""
    s.chance = TERRAIN_DIE


def _production_step(s: State, ctx) -> None:
    """Production (step 2): every building produces (:func:`rules.production`)."""
    R.production(s, ctx)
    _step_done(s, ctx)


def _turns_step(s: State, ctx) -> None:
    """Turns (step 3): the first player in turn order begins; :func:`_next_turn` hands
    over after the last turn."""
    s.turn_pos = 0
    if s.log is not None:  # _turn_started logs only
        _turn_started(s)


def _rest_step(s: State, ctx) -> None:
    """Rest (step 4): every player restores all action tokens (:func:`rules.rest`)."""
    R.rest(s, ctx)
    _step_done(s, ctx)


def _reorder_step(s: State, ctx) -> None:
    """Reorder (step 5): turn order from the valor track (:func:`rules.reorder`)."""
    R.reorder(s, ctx)
    _step_done(s, ctx)


#: phase -> what the engine does on entering it (one handler per step of flow.ROUND)
_STEPS = {Phase.SPREAD: _spread_step, Phase.PRODUCTION: _production_step, Phase.TURNS: _turns_step,
          Phase.REST: _rest_step, Phase.REORDER: _reorder_step}


def _turn_started(s: State) -> None:
    """Log the start of the turn at ``s.turn_pos`` (callers check that the log is on)."""
    if s.log is not None:
        p = s.turn_order[s.turn_pos]
        R.emit(s, "turn_started", p, f"{P(p)}'s turn ({s.turn_pos + 1} of {len(s.turn_order)} this round).")


def _start_season(s: State, ctx) -> None:
    s.season += 1
    s.round = 0
    if s.log is not None:
        card = s.config.box.bonus_cards[s.season]
        R.emit(s, "season_started", None, f"Season {s.season} begins: its bonus card sets contact at {card.contact_cost} contact token{'s' if card.contact_cost != 1 else ''} (Game Flow: Season).",
               contact_cost=card.contact_cost)
    _start_round(s, ctx)


def _start_round(s: State, ctx) -> None:
    s.round += 1
    s.phase = SPREAD
    if s.log is not None:
        R.emit(s, "round_started", None, f"Round {s.round} of season {s.season} begins with the spread.")
    _STEPS[SPREAD](s, ctx)


def _spread_on(s: State, ctx, p: int, terrain: str, remaining: int) -> None:
    """Continue the spread: place ``remaining`` ghosts on ``terrain`` cells, then on
    Kalena. Forced placements (no more free cells than ghosts) happen automatically.
    Rulebook: "Game Flow" step 1, "Ghosts"; rulings 2, 4, 12."""
    while remaining > 0:
        targets = R.kalena_targets(s, ctx) if terrain == KALENA else R.ghost_targets(s, ctx, terrain)
        if not targets:
            if terrain != KALENA:
                terrain = KALENA
                continue
            _lose(s, ctx, f"{remaining} spread ghost{'s' if remaining != 1 else ''} found no free cell, even on Kalena")
            return
        if len(targets) > remaining:
            s.pending.append(_ghost_placement(p, terrain, remaining))
            # the placement's legal actions are these cells: advance takes this list as it is
            acts = ctx.place_ghost_actions  # a loop: a comprehension's function (or a map) costs more
            legal = s._legal = []
            for c in targets:
                legal.append(acts[c])
            return
        for c in targets:
            R.place_ghost(s, ctx, p, c, True)
            remaining -= 1
        if R.kalena_fallen(s, ctx):
            _lose(s, ctx, "every Kalena cell holds a ghost")
            return
    _step_done(s, ctx)  # spread done: production next


#: (player, terrain, remaining) -> its GhostPlacement: the nodes are immutable values,
#: so the spread reuses one object per triple instead of building a dataclass per ghost
_GHOST_PLACEMENTS: dict = {}


def _ghost_placement(p: int, terrain: str, remaining: int) -> GhostPlacement:
    """The :class:`~haunted_kit.haunted.flow.GhostPlacement` of ``p`` placing ``remaining``
    more ghosts on ``terrain`` (one shared object per value)."""
    key = (p, terrain, remaining)
    node = _GHOST_PLACEMENTS.get(key)
    if node is None:
        node = _GHOST_PLACEMENTS[key] = GhostPlacement(p, terrain, remaining)
    return node


def _end_season(s: State, ctx) -> None:
    box = s.config.box
    if s.season >= box.seasons:
        _final_scoring(s, ctx)
        return
    end = box.modes[s.config.mode].season_end(s.season)
    s.phase = SEASON_END
    if end is None:
        return
    if end.clear_depletion:
        k = sum(s.depleted)
        s.sup_depl += k
        s.depleted = [0] * len(s.depleted)
        if s.log is not None:
            R.emit(s, "depletion_cleared", None, f"End of season {s.season}: {k} depletion token{'s' if k != 1 else ''} return to the supply.", amount=k)
    count = end.quests
    if s.config.players == 2 and end.trailing_two_player is not None:
        count = end.trailing_two_player
    if end.choosers == "nobody" or count == 0:  # a box may give 0 cards (to 2 players only)
        return
    top = R.leaders(s)
    choosers = [p for p in s.turn_order if end.choosers == "everyone" or p not in top]
    if s.log is not None:
        cards = f"{count} quest card{'s' if count != 1 else ''}"
        if end.choosers == "everyone":
            text = f"every player chooses {cards}, in turn order"
        elif not choosers:
            text = f"every player is tied for the lead ({', '.join(P(p) for p in top)}), so nobody chooses a quest card"
        else:
            who = ", ".join(P(p) for p in choosers)
            text = (f"{who} {'chooses' if len(choosers) == 1 else 'choose'} {cards}, in turn order "
                    f"(everyone but the leader{'s' if len(top) > 1 else ''} {', '.join(P(p) for p in top)})")
        R.emit(s, "quest_choice", None, f"End of season {s.season}: {text}.", choosers=choosers, count=count)
    for p in reversed(choosers):
        s.pending.append(QuestChoice(p, count))


def _final_scoring(s: State, ctx) -> None:
    """Reveal quests in the last turn order, add their valor, pick the winner.
    Rulebook: "Final Scoring"; ruling 10. Its events carry the phase ``scoring``."""
    s.phase = Phase.SCORING
    for p in s.turn_order:
        for q in s.quests[p]:
            v, n = R.quest_score(s, ctx, p, q)
            if s.log is not None:
                R.emit(s, "quest_revealed", p, f"{P(p)} reveals quest {q}: fulfilled {n} time{'s' if n != 1 else ''} for {v} valor.",
                       quest=q, fulfilments=n, valor=v)
            R.gain_valor(s, p, v, lambda: f"quest {q}", "quests")
    order = R.stack_order(s)
    s.winner = order[0]
    s.phase = OVER
    s.over_reason = "final scoring"
    if s.log is not None:
        R.emit(s, "game_over", s.winner, f"{P(s.winner)} wins with {s.valor[s.winner]} valor" +
               (" (top of the stack on a tie)" if sum(1 for v in s.valor if v == s.valor[s.winner]) > 1 else "") + ".",
               valor=list(s.valor), order=order)


def _lose(s: State, ctx, why: str) -> None:
    s.lost = True
    s.winner = None
    s.phase = OVER
    s.pending.clear()
    s.over_reason = why
    if s.log is not None:
        R.emit(s, "collective_loss", None, f"Kalena falls: {why}. The game ends and every player loses (Ghosts; Game Flow: Spread).")


def returns(s: State) -> list[float]:
    n = s.config.players
    if s.phase != OVER:
        return [0.0] * n
    if s.lost:
        return [-1.0] * n
    return [1.0 if p == s.winner else 0.0 for p in range(n)]


# ============================================================================ chance


def _chance_weights(s: State) -> tuple:
    """``(outcomes, weights)`` of the waiting chance node: the tiles, stack places
    left, or the fixed faces and cards of the box (:attr:`rules.Ctx.chance_weights`)."""
    node = s.chance
    kind = node.kind
    if kind == "tile":  # a loop, not a comprehension: six draws a game
        drawn, left = s.layout, []
        for t in s.config.box.tiles:
            if t not in drawn:
                left.append(t)
        left = tuple(left)
        return left, (1,) * len(left)
    if kind == "stack":
        left = tuple([p for p in range(s.config.players) if p not in s.turn_order])
        return left, (1,) * len(left)
    fixed = ctx_of(s).chance_weights
    if kind == "skill":
        return fixed["skill"][node.deck]
    return fixed[kind]


def chance_outcomes(s: State) -> list:
    """``[(outcome, probability), ...]`` for the waiting chance node (empty if none)."""
    if s.chance is None or s.phase == OVER:
        return []
    outs, w = _chance_weights(s)
    total = sum(w)
    return [(o, k / total) for o, k in zip(outs, w)]


def sample_chance(s: State):
    """Draw the waiting chance node's outcome from the seeded generator: outcome
    number ``rng_count`` of seed ``seed`` (:func:`haunted_kit.protocol.chance_index`, the
    kit's one seeded draw), so the draw is the same in any process on any machine."""
    outs, w = _chance_weights(s)
    return outs[chance_index(s.config.seed, s.rng_count, w)]


def apply_chance(s: State, outcome) -> None:
    """Resolve the waiting chance node with ``outcome`` and run on (see :func:`advance`)."""
    if s.chance is None or s.phase == OVER:
        raise ChanceError("no chance node is waiting")
    got = _possible_outcome(s, outcome)
    if got is _IMPOSSIBLE:
        valid = [o for o, _ in chance_outcomes(s)]
        raise ChanceError(f"{outcome!r} is not a possible outcome of the {s.chance.name()} (possible: {', '.join(map(repr, valid))})")
    _resolve_chance(s, got)
    advance(s)


_IMPOSSIBLE = object()


def _possible_outcome(s: State, outcome):
    """The listed chance outcome equal to ``outcome`` (an integer of any integral type
    or a string; never a bool or a float), or ``_IMPOSSIBLE``."""
    if A.is_integer(outcome):
        outcome = int(outcome)
    elif isinstance(outcome, str):
        outcome = str(outcome)
    else:
        return _IMPOSSIBLE
    for o, _ in chance_outcomes(s):
        if type(o) is type(outcome) and o == outcome:
            return o
    return _IMPOSSIBLE


def _resolve_chance(s: State, outcome) -> None:
    node = s.chance
    s.chance = None
    s._legal = None
    s.rng_count += 1
    s.steps = (s.steps, None, outcome, True)  # the action record (protocol.Record's node)
    kind = node.kind
    box = s.config.box
    if kind == "tile":
        s.layout.append(outcome)
        if s.log is not None:
            R.emit(s, "tile_drawn", None, f"Region tile {outcome} is placed in slot {len(s.layout)} around Kalena (setup step 1).", tile=outcome, slot=len(s.layout))
        if len(s.layout) < len(box.region_centres):
            s.chance = TileDraw(len(s.layout))
        else:
            s.field = build_field(tuple(s.layout), box)
            s.chance = SkillDraw(0)
    elif kind == "skill":
        s.skills.append(outcome)
        if s.log is not None:
            R.emit(s, "skill_drawn", None, f"Skill card {outcome} ({box.skills[outcome].deck}) is in play: {box.skills[outcome].text.rstrip('.')} (setup step 6).", skill=outcome)
        if len(s.skills) < len(ctx_of(s).chance_weights["skill"]):
            s.chance = SkillDraw(len(s.skills))
        else:
            S = len(box.skill_slot_valor)
            covered = box.covered_slots.get(s.config.players, ())
            s.slots = [COVERED if j in covered else FREE for _ in s.skills for j in range(S)]
            if covered and s.log is not None:
                R.emit(s, "setup", None, f"{s.config.players} players: counter markers cover marker slot{'s' if len(covered) > 1 else ''} "
                       f"{', '.join(str(j + 1) for j in covered)} of every skill card (setup step 16).", covered=[j + 1 for j in covered])
            s.chance = MARKET_DRAW
    elif kind == "market":
        s.market = outcome
        if s.log is not None:
            opts = "; ".join(o.describe() for o in box.market_cards[outcome])
            R.emit(s, "market_drawn", None, f"Market card {outcome} is in play: {opts} (setup step 7).", market=outcome)
        s.chance = StackDraw(0)
    elif kind == "stack":
        s.turn_order.append(outcome)
        if s.log is not None:
            R.emit(s, "stack_placed", outcome, f"{P(outcome)}'s valor token is number {len(s.turn_order)} from the top of the starting stack (setup step 12).")
        n = s.config.players
        if len(s.turn_order) < n - 1:
            s.chance = StackDraw(len(s.turn_order))
        else:
            if len(s.turn_order) == n - 1:  # the last token has one place left
                last = next(p for p in range(n) if p not in s.turn_order)
                s.turn_order.append(last)
            for pos, p in enumerate(s.turn_order):
                s.arrival[p] = n - pos
            s.arrivals = n
            _finish_setup(s)
    elif kind == "terrain_die":
        ctx = ctx_of(s)
        last = s.turn_order[-1]
        k = min(box.ghosts_per_spread, s.sup_ghosts)
        if s.log is not None:
            R.emit(s, "terrain_die", last, f"{P(last)}, the last player, rolls the terrain die: {outcome}.", terrain=outcome)
            if k == 0:
                R.emit(s, "ghosts_short", None, "The ghost supply is empty, so no ghost spreads this round (ruling 2).", amount=0)
            elif k < box.ghosts_per_spread:
                R.emit(s, "ghosts_short", None, f"The supply holds only {k} ghost{'s' if k != 1 else ''}, so only {k} spread{'s' if k == 1 else ''} (ruling 2).", amount=k)
        _spread_on(s, ctx, last, outcome, k)
    elif kind == "bonus_die":
        p = node.player
        if s.log is not None:
            R.emit(s, "bonus_die", p, f"{P(p)} rolls the bonus die: {outcome}.", face=outcome)
        R.give_bonus(s, ctx_of(s), p, outcome, lambda: f"rolled {outcome}")
    else:  # pragma: no cover
        raise AssertionError(kind)


def _finish_setup(s: State) -> None:
    n = s.config.players
    box = s.config.box
    s.sensor = [0] * n  # the city is Kalena's centre, cell 0
    if s.log is not None:
        R.emit(s, "setup", None, "Turn order tokens follow the starting stack: " + ", ".join(P(p) for p in s.turn_order) + " (setup step 13).",
               order=list(s.turn_order))
        starts = ", ".join(f"{t.start_tokens} {t.name}" for t in box.tracks.values())
        R.emit(s, "setup", None, f"Every player gets {starts} token(s), active side up, and puts the sensor in the city (setup steps 10-11, 14).")
        removed = box.removed_quests.get(n, ())
        if removed:
            R.emit(s, "setup", None, f"2 players: everyone returns quest cards {' and '.join(map(str, removed))} to the box (setup step 17).", removed=list(removed))
    _start_season(s, ctx_of(s))


# ============================================================================ checking a save's log


#: save fields that the action record does not determine
_NOT_RECORDED = ("log", "auto_chance", "forced")


def _check_log(s: State) -> None:
    """Refuse a loaded state whose event log is not the one its action record gives.

    The log is derived from the record: the record is replayed on a new game of the
    same config, and when the replay gives the saved state, the saved log must be the
    replay's event for event, compared as JSON text (so ``true`` is not ``1`` and ``3.5``
    is not ``3``). A state the record does not give (a position edited by
    :mod:`haunted_kit.haunted.scenario`, whose log explains the edits) keeps its log as
    read. Raises :class:`SaveError` naming the first event that differs."""
    if s.log is None:
        return
    t = new_game(s.config, auto_chance=False)
    try:
        for e in s.record.entries():
            if e.chance:
                apply_chance(t, e.action)
            else:
                t.apply_action(e.action)
    except (ChanceError, IllegalAction):
        return
    mine, theirs = serial.to_dict(s), serial.to_dict(t)
    for k in _NOT_RECORDED:
        mine.pop(k, None)
        theirs.pop(k, None)
    if json.dumps(mine, sort_keys=True) != json.dumps(theirs, sort_keys=True):
        return
    got = [json.dumps(e.to_dict(), sort_keys=True) for e in s.log]
    want = [json.dumps(e.to_dict(), sort_keys=True) for e in t.log]
    if got != want:
        i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise SaveError(f"save field 'log[{i}]': the event log differs from what the action record gives "
                        f"(saved {got[i] if i < len(got) else 'nothing'}, the record gives "
                        f"{want[i] if i < len(want) else 'nothing'})")


# ============================================================================ migrating version 1 saves


#: event kinds that version 1 saves never logged (their rebuilt logs have them)
_NEW_EVENT_KINDS = frozenset({"nothing_produced"})
#: a cell's region tile as sentences name it now (``on region tile R07``) and as version 1
#: wrote it (``on R07``): the same event either way
_REGION_TILE_NOW, _REGION_TILE_THEN = " on region tile ", " on "


def _norm_events(events) -> list:
    """Events as their JSON form (tuples become lists) without the phase and the
    sequence number and without :data:`_NEW_EVENT_KINDS`, for comparing logs across
    versions: version 1 logged production as spread and rest and reorder as turns,
    and logged nothing for a production step where nothing was produced. Each event is
    one JSON text, so the comparison is typed (``true`` is not ``1``); a region tile is read
    as version 1 named it (:data:`_REGION_TILE_NOW`)."""
    out = json.loads(json.dumps([e.to_dict() for e in events if e.kind not in _NEW_EVENT_KINDS]))
    for e in out:
        e.pop("phase")
        e.pop("seq", None)
        e["text"] = e["text"].replace(_REGION_TILE_NOW, _REGION_TILE_THEN)
    return [json.dumps(e, sort_keys=True) for e in out]


def _record_from_log(target: State):
    """``(record, log)`` of a version 1 save (which had no record), rebuilt from its
    event log: the game is set up again with the saved draws, and each step is the
    chance outcome or the legal decision whose events match the log (the phase aside).
    The record then replays to the saved state; the log is the rebuilt one, whose
    phase column names all five round steps. A save without a log gets an empty record
    (it loads and plays on, but cannot be replayed). Raises SaveError if the log cannot
    be reproduced."""
    log = target.log
    if not log:
        return Record(), log
    want = _norm_events(log)
    order = [e.player for e in log if e.kind == "stack_placed"]
    order += [p for p in range(target.config.players) if p not in order]
    try:
        s = new_game(target.config, auto_chance=False, layout=list(target.layout), skills=list(target.skills),
                     market=target.market, order=order)
    except ConfigError as exc:
        raise SaveError(f"version 1 save: cannot set the game up again from its draws: {exc}") from None
    if s.log is None:
        raise SaveError("version 1 save: the game cannot be set up again with a log")
    extra = 0  # events of _NEW_EVENT_KINDS in the rebuilt log so far
    while len(s.log) - extra < len(log):
        i = len(s.log)  # the next event of the rebuilt log
        k = i - extra  # the saved log's event it must match
        if s.phase == OVER:
            raise SaveError(f"version 1 save: the game ends at event {k - 1} but the log goes on")
        if s.chance is not None:
            ev = log[k]
            outcome = ev.data.get("terrain") if ev.kind == "terrain_die" else ev.data.get("face")
            if ev.kind not in ("terrain_die", "bonus_die") or s.chance.kind != ev.kind:
                raise SaveError(f"version 1 save: event {k} ({ev.kind}) is not the {s.chance.name()} the game waits for")
            apply_chance(s, outcome)
            extra += sum(1 for e in s.log[i:] if e.kind in _NEW_EVENT_KINDS)
            continue
        for a in legal_actions(s):
            t = s.copy()
            apply_action(t, a)
            got = _norm_events(t.log[i:])
            if got and got == want[k:k + len(got)]:
                s = t
                extra += sum(1 for e in s.log[i:] if e.kind in _NEW_EVENT_KINDS)
                break
        else:
            raise SaveError(f"version 1 save: no legal action reproduces event {k} ({log[k].kind}: {log[k].text})")
    if _norm_events(s.log) != want:
        raise SaveError("version 1 save: the rebuilt game's log differs from the saved one")
    return s.record, s.log


# ============================================================================ the game protocol's Game object


class HauntedLandsGame:
    """Haunted Lands as a :class:`~haunted_kit.protocol.Game` (see :mod:`haunted_kit.games`)."""

    name = "haunted"
    title = "Haunted Lands"
    visibility = VISIBILITY  #: who may see what (:data:`~haunted_kit.haunted.state.VISIBILITY`)
    #: the decision kinds (JSON type name -> action class) the conformance suite reaches
    action_types = A.ACTION_TYPES
    default_players = 4  #: the tools' player count when none is given (the box plays 2..4)
    compare_games = 500  #: ``compare``'s games per box when none are asked for (about 5-15 CPU s of games)
    #: what a player may set beyond players and seed (the command line's --mode, --ghost-cards)
    options = (
        GameOption("mode", "game mode of the box (wanderer, builder, citizen in the reference box; "
                           "rulebook: Game Modes)", default="wanderer"),
        GameOption("extra_ghost_cards", "extra ghost cards for higher difficulty, e.g. 2,3 "
                                        "(rulebook: Increasing Difficulty)", kind="ints", default=(), flag="ghost-cards"),
    )

    @property
    def min_players(self) -> int:
        return GameConfig().box.min_players

    @property
    def max_players(self) -> int:
        return GameConfig().box.max_players

    def new_game(self, *, players: int = 4, seed: int = 0, log: bool = True, **options) -> HauntedLandsState:
        """:func:`new_game` with ``players``, ``seed``, ``log`` (keep the event log) and any
        :class:`GameConfig` field or ``new_game`` keyword (``mode``, ``extra_ghost_cards``, ``box``...)."""
        return new_game(players=players, seed=seed, log=log, **options)

    def from_dict(self, data: dict, box=None) -> HauntedLandsState:
        return HauntedLandsState.read_save(data, box)

    #: the box's schema (``haunted_kit.boxschema.BoxSchema``): its files and every key, for docs/BOXES.md
    box_schema = BOX_SCHEMA

    def load_box(self, path):
        """The box in folder ``path`` (:func:`haunted_kit.load_box`; raises BoxError)."""
        return load_box(path)

    def settings(self, box=None) -> list[dict]:
        """Every mode x every player count of ``box`` (the reference box by default), as
        ``new_game`` keywords: what :func:`haunted_kit.testing.check_box` covers."""
        box = box or GameConfig().box
        return [{"players": n, "mode": m} for m in box.modes for n in range(box.min_players, box.max_players + 1)]

    def invariants(self, state: State, before: State | None = None) -> list[str]:
        """What is wrong with ``state`` (empty when nothing): the save loader's checks
        of states the rules could never produce (pieces adding up to the box, caps,
        quests, marker slots...), and against the previous state ``before``: valor never
        goes down (ruling 11), the decision count and the dice position never go back."""
        problems = []
        try:
            R.check_position(state)
        except SaveError as exc:
            problems.append(str(exc))
        if before is not None:
            if any(v < w for v, w in zip(state.valor, before.valor)):
                problems.append(f"valor went down from {before.valor} to {state.valor} (ruling 11: never)")
            if state.decisions < before.decisions or state.rng_count < before.rng_count:
                problems.append("the decision count or the dice position went back")
        return problems

    #: decisions a player's turn may take before a tool takes the game to be endless
    #: (:meth:`max_decisions`); the longest turn of the reference box's greedy games is far shorter
    DECISIONS_PER_TURN = 100

    def max_decisions(self, state: State) -> int:
        """The decision cap of ``state``'s game (:func:`haunted_kit.games.decision_cap`),
        from its length: :attr:`DECISIONS_PER_TURN` for each player's turn of each round of
        each season of its box, so a house-rule box with more seasons or rounds gets more
        (3,600 for 4 players with the reference box, whose longest greedy game takes 259)."""
        box = state.config.box
        return self.DECISIONS_PER_TURN * state.players * box.seasons * box.rounds_per_season

    def box_of(self, state: State) -> Box:
        """The box ``state`` is played with (named in the decision cap's message)."""
        return state.config.box

    def seed_of(self, state: State) -> int:
        """``state``'s game seed."""
        return state.config.seed

    def config_of(self, state: State) -> dict:
        """The ``new_game`` keywords that set ``state``'s game up again (its
        :class:`GameConfig` as JSON, every field; the box aside): what the classroom store
        keeps of a table."""
        return state.config.to_dict()

    def start_of(self, state: State) -> State:
        """The position before the first entry of ``state.history()``: the game set up
        again from its configuration (:meth:`config_of`) with chance nodes left waiting
        (the setup draws are the record's first entries) and the event log on, so that
        :func:`haunted_kit.protocol.states_along` re-plays the record from it (used by
        :mod:`haunted_kit.review`). A position edited with
        :mod:`haunted_kit.haunted.scenario` is not in its record and does not replay."""
        return new_game(state.config, auto_chance=False, log=True)

    def action_to_dict(self, action) -> dict:
        return A.action_to_dict(action)

    def action_from_dict(self, data: dict):
        return A.action_from_dict(data)

    # ---- optional members used by simulation, search and the environment (see protocol.py)
    state_type = State

    #: what a simulation dataset's result columns mean for Haunted Lands (see ``Game.result_meanings``)
    result_meanings = {
        "score": "final score (Haunted Lands: valor)",
        "rank": "final rank, 1 = best (Haunted Lands: top of the valor stack)",
        "won": "this player won (never after a collective loss)",
        "collective_loss": "the game ended in a collective loss (Kalena fell): every player lost",
        "returns": "the game's returns() for this player (Haunted Lands: 1 win, 0 loss, -1 collective loss)",
        "quests": "this player's face-down quest cards at the end",
        "quest_points": "points each of those quests scored, same order (0 after a collective loss)",
    }

    #: bots by name (each a class taking a seed) for :func:`haunted_kit.bots.make_bot`
    agents = AGENTS
    def default_box(self) -> Box:
        """The kit's reference box (:func:`haunted_kit.default_box`)."""
        return default_box()

    score_name = "valor"  #: what ``seat_results``' score is, in words (hint sentences)
    #: ``returns()`` are win/loss values (1 win, 0 loss, -1 for everyone after a collective
    #: loss), not scores: the search keeps them as playout values
    win_loss_returns = True

    def seat_results(self, state: State) -> list[dict]:
        """Per player (index order) the figures a simulation records: ``score`` (final
        valor), ``rank`` (1 = top of the valor stack; rulebook "Valor Points and the Valor
        Track"), ``won``, ``collective_loss`` (Kalena fell: every player loses), and
        ``quests`` / ``quest_points``: each face-down quest and the valor it scores at final
        scoring (rulebook "Card Reference: Quest Cards"; 0 after a collective loss)."""
        ctx = ctx_of(state)
        order = R.stack_order(state)
        out = []
        for p in range(state.config.players):
            qs = list(state.quests[p])
            pts = [0 if state.lost else R.quest_score(state, ctx, p, q)[0] for q in qs]
            out.append({"score": state.valor[p], "rank": order.index(p) + 1, "won": state.winner == p,
                        "collective_loss": bool(state.lost), "quests": qs, "quest_points": pts})
        return out

    #: :meth:`score_parts` reads the event log: simulation plays with the log on
    score_parts_need_log = True

    def score_parts(self, state: State) -> list[dict] | None:
        """Each player's valor by source (index order): source -> valor, the sources of
        :data:`haunted_kit.haunted.rules.VALOR_SOURCES` in that order (zeros included), the
        parts adding up to the player's valor (rulebook "Valor Points and the Valor Track",
        "Final Scoring"; as :func:`haunted_kit.haunted.analysis.valor_sources`). Read from the
        event log: ``None`` for a game played without one."""
        if state.log is None:
            return None
        out = [dict.fromkeys(R.VALOR_SOURCES, 0) for _ in range(state.config.players)]
        for e in state.log:
            if e.kind == "valor":
                src = e.data.get("source", "other")
                out[e.player][src] = out[e.player].get(src, 0) + int(e.data.get("amount", 0))
        return out

    length_name = "rounds"  #: what :meth:`game_length` counts, in words

    def game_length(self, state: State) -> int:
        """Rounds played (rulebook "Game Flow": seasons of ``rounds_per_season``
        rounds each): every round of the finished seasons plus the rounds begun in the
        last one, so fewer than ``seasons x rounds_per_season`` after a collective loss;
        0 before the first round."""
        if state.season < 1:
            return 0
        return (state.season - 1) * state.config.box.rounds_per_season + state.round

    def action_catalogue(self, box=None) -> list:
        """Every action a game with ``box`` can offer, in a fixed order (the integer
        encoding of :mod:`haunted_kit.env`): end the turn, contact, roll the bonus die;
        explore to each cell (field order); extract each resource on each cell; build
        each building; train, then restore, each track; learn each skill; choose each
        resource, each bonus-die face, each quest; place a ghost on each cell; every sale
        (market card by card, then option, then payment). Depends on the box only."""
        box = box or default_box()
        ctx = R.Ctx.get(GameConfig(players=box.min_players, box=box), None)
        cells = range(len(ctx.explore_actions))
        out = [ctx.END_TURN, ctx.CONTACT, ctx.ROLL, *ctx.explore_actions]
        out += [ctx.extract_actions[(c, r)] for c in cells for r in range(ctx.R)]
        out += [*ctx.build_actions, *ctx.train_actions, *ctx.restore_actions]
        out += [ctx.learn_actions[k] for k in sorted(box.skills)]
        out += [*ctx.choose_resource, *dict.fromkeys(ctx.choose_bonus)]
        out += [ctx.choose_quest[q] for q in sorted(box.quests)]
        out += list(ctx.place_ghost_actions)
        out += [a for card in sorted(ctx.sell_actions) for a, _ in ctx.sell_actions[card]]
        return list(dict.fromkeys(out))

    def observation_encoder(self, box, players: int):
        """The observation vector of :mod:`haunted_kit.env` (:class:`haunted_kit.haunted.encoding.HauntedObservation`;
        looked up by name: the encoder sits a layer above the engine)."""
        from . import encoding  # lazy: the environment's encoding (numpy, ~0.14 s) loads only for the environment

        return encoding.HauntedObservation(box, players)

    def turn_order(self, state: State) -> list[int]:
        """Players in turn order now (at a new game: the starting stack's order, setup step 13)."""
        return list(state.turn_order)

    def determinise(self, state: State, player: int, rng) -> State:
        """A copy of ``state`` built from what ``player`` sees (``state.observation(player)``),
        the hidden parts redrawn from ``rng`` (a :class:`random.Random`): every other
        player's face-down quests are drawn from the quests that player could hold (the
        hand dealt for this player count, rulebook "Game Setup" step 17), keeping their
        number; the chance generator gets a seed from ``rng`` and starts at position 0; the
        outcomes forced on the next chance nodes (:meth:`HauntedLandsState.force_chance`),
        the action record and the event log are left out. Reads nothing hidden from
        ``player``: two positions ``player`` sees alike give the same copy for the same
        ``rng`` (:func:`haunted_kit.testing.determinisation_problems`)."""
        d = state.copy(keep_log=False)
        # copy.copy of the frozen config, without its pickling protocol: same fields, a new seed
        cfg = object.__new__(type(state.config))
        cfg.__dict__.update(state.config.__dict__)
        object.__setattr__(cfg, "seed", rng.getrandbits(62))
        d.config = cfg
        d._ctx = None
        d._legal = None
        d.forced = []
        d.rng_count = 0
        d.steps = None
        dealt = ctx_of(state).quest_numbers  # the box's quests less those removed for this player count, sorted
        for o in range(cfg.players):
            if o == player:
                continue
            k = len(state.quests[o])
            chosen = tuple(rng.sample(dealt, k)) if k else ()
            d.set_quests(o, chosen, [q for q in dealt if q not in chosen])
        return d

    def evaluate(self, state: State) -> list[float]:
        """Each player's expected result from here, for truncated search playouts (a kit
        heuristic, not a rule; ``returns()`` once the game is over): with ``L`` the
        chance that Kalena falls (a logistic of the Kalena cells still free of ghosts,
        the free cells elsewhere and the rounds left) and ``w`` a player's chance to have
        the most valor (a softmax of valor plus the valor their face-down quests would
        score now, sharper as the end nears), ``(1 - L) * w - L``: -1..1 like
        ``returns()``. Constants fitted by ``benchmarks/calibrate_search.py`` on
        greedy games with calibration seeds."""
        if state.phase == OVER:
            return returns(state)
        f = eval_features(state, ctx_of(state))
        left = f["rounds_left"]
        n = min(max(state.config.players, 2), 4)
        a, b, c, d = _LOSS_W[n]
        loss = 1.0 / (1.0 + math.exp(-(a + b * f["kalena_free"] + c * f["free"] + d * left)))
        temp = _WIN_T[n][0] + _WIN_T[n][1] * left
        top = max(f["scores"])
        w = [math.exp((v - top) / temp) for v in f["scores"]]
        total = sum(w)
        return [(1.0 - loss) * x / total - loss for x in w]


#: by player count, the collective-loss logit: constant, per Kalena cell free of ghosts, per other free cell, per round left
_LOSS_W = {2: (-1.41, -0.50, 0.0, 0.39), 3: (-0.61, -0.50, -0.035, 0.48), 4: (-0.76, -0.42, 0.0, 0.33)}
#: by player count, the winner softmax temperature in valor: a + b * rounds left
_WIN_T = {2: (0.25, 1.0), 3: (0.25, 1.25), 4: (0.25, 1.25)}


def eval_features(s: State, ctx) -> dict:
    """What :meth:`HauntedLandsGame.evaluate` reads from a position: ``scores`` (per
    player, valor plus the valor their face-down quests would score now), ``kalena_free``
    (Kalena cells without a ghost), ``free`` (other cells that could take a ghost) and
    ``rounds_left`` (rounds still to play, the current one counted by the share of its
    turns left)."""
    n = s.config.players
    box = s.config.box
    scores = [s.valor[p] + sum(R.quest_score(s, ctx, p, q)[0] for q in s.quests[p]) for p in range(n)]
    kalena = set(ctx.kalena_cells)
    kalena_free = sum(1 for c in kalena if not s.ghosts[c])
    free = sum(1 for c, g in enumerate(s.ghosts) if not g and c not in kalena and ctx.holds_ghosts[c] and s.building[c] < 0)
    done = (s.season - 1) * box.rounds_per_season + s.round - 1
    if s.phase == Phase.TURNS:
        done += s.turn_pos / n
    elif s.phase in (Phase.REST, Phase.REORDER, Phase.SEASON_END):
        done += 1
    return {"scores": scores, "kalena_free": kalena_free, "free": free,
            "rounds_left": max(0.0, box.seasons * box.rounds_per_season - done)}


GAME = HauntedLandsGame()
