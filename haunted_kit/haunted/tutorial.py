"""Haunted Lands' teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`): each
decision kind and phase of the round in a few words of our own, citing the rulebook's
section. The numbers a player plans with (exploration costs, buildings' costs and valor, the
market card, training and learning costs, contact costs) are read from the position's box
(``state.box``) by the functions below, so a house-rule box prints its own numbers."""

from ..exercises import plural
from ..tutorial import TeachPoint as T
from . import rules as R
from .flow import ROUND, Phase


def places(state, flag: str) -> str:
    """The terrains where an additional action happens (``sell`` or ``train_and_learn``)."""
    names = [t.name for t in state.box.terrains.values() if getattr(t, flag)]
    return " or ".join(f"the {n}" for n in names) or "nowhere"


def kalena_skill(state) -> str:
    """A sentence naming the skill card in play that lets its owner sell, train and learn on
    either Kalena terrain (effect ``anywhere_in_kalena``), or ``""`` when none is in play."""
    for n in state.skills:
        k = state.box.skills.get(n)
        if k is not None and k.effect == "anywhere_in_kalena":
            return f" Skill {n}, in play in this game, lets its owner do these on either."
    return ""


def explore_costs(state) -> str:
    """``"plain 1, forest 2, ..."``: each explorable terrain's exploration cost, from the box."""
    return ", ".join(f"{t.name} {t.explore_cost}" for t in state.box.terrains.values() if t.explorable)


def building_costs(state) -> str:
    """Each building: where it stands, what it costs and the valor it gives, from the box."""
    out = []
    for b in state.box.buildings.values():
        where = "beside a lake" if b.terrain == "near lake" else f"{b.terrain}"
        out.append(f"{b.name} ({where}) {' + '.join(b.cost)}, {plural(b.valor, 'valor point')}, "
                   f"makes {b.production} {b.income}")
    return "; ".join(out)


def market_words(state) -> str:
    """The market card in play (``state.market``), each exchange option, from the box."""
    options = state.box.market_cards.get(state.market)
    if not options:
        return "the exchanges of the market card drawn at setup"
    return "; ".join(o.describe() for o in options)


def training_words(state) -> str:
    """Each track's training costs (pecunias for its next slots) and the valor for filling it."""
    out = []
    for tr in state.box.tracks.values():
        costs = [c for c in tr.training_costs[tr.start_tokens:]]
        if costs:
            out.append(f"{tr.name} {', then '.join(map(str, costs))} (full: {tr.last_slot_valor} valor)")
    return "; ".join(out)


def skill_words(state) -> str:
    """The skill cards in play (``state.skills``) with their costs, from the box."""
    box = state.box
    skills = [box.skills[n] for n in state.skills if n in box.skills] or list(box.skills.values())
    return "; ".join(f"skill {k.number} {' + '.join(k.cost)}" for k in skills)


def slot_valor(state) -> str:
    """The valor of the marker slots open at this player count, left to right."""
    box = state.box
    covered = box.covered_slots.get(state.players, ())
    return ", ".join(str(v) for i, v in enumerate(box.skill_slot_valor) if i not in covered)


def contact_costs(state) -> str:
    """Each season's contact cost in contact tokens (its bonus card), from the box."""
    cards = state.box.bonus_cards
    return ", ".join(f"season {s}: {cards[s].contact_cost}" for s in sorted(cards))


def goal(state) -> str:
    box = state.box
    return (f"Be the sensor with the most valor points at the end. The game lasts {box.seasons} seasons of "
            f"{box.rounds_per_season} rounds. Valor counts the moment you earn it (buildings, skills, contacts, full "
            "tracks), except the quest cards you choose: they score only at the final scoring, after the last season. "
            "Then the most valor wins; on a tie, the tied player whose valor token is higher in the stack (the one "
            "that reached that mark last) wins. If the ghosts fill the Kalena tile (the centre tile, with the city), "
            f"or a spread cannot place its {box.ghosts_per_spread} ghosts, the game ends at once and everyone loses.")


def turns(state) -> str:
    return ("After production each player takes one turn, in turn order, with any number of actions they can pay "
            "for. The basic actions (explore, extract, build, contact) cost action tokens, anywhere; selling costs "
            f"resources, only in {places(state, 'sell')}; training and learning cost pecunias and resources, only "
            f"in {places(state, 'train_and_learn')}.{kalena_skill(state)}")


def explore_changes(state) -> str:
    """What changes exploration costs in this game: the skill cards in play that make a
    terrain cheaper, and a ghost card in play that makes a ghost's cell dearer (from the box)."""
    box, out = state.box, []
    for n in state.skills:
        k = box.skills.get(n)
        if k is not None and k.effect.startswith("cheaper_"):
            out.append(f"skill {n} takes {k.amount} off a {k.effect[len('cheaper_'):]}")
    for n in state.config.ghost_cards:
        g = box.ghost_cards.get(n)
        if g is not None and g.effect == "costly_ghost_cells":
            out.append(f"ghost card {n} adds {g.amount} on a cell holding a ghost")
    return f" In this game {' and '.join(out)}." if out else ""


def explore(state) -> str:
    return (f"Move your sensor to an adjacent cell, paying its terrain's cost in exploration tokens: "
            f"{explore_costs(state)}. A lake can never be entered.{explore_changes(state)}")


def depletion_ends(state) -> str:
    """When the depletion tokens leave the field in this game's mode, from the box: ``"at the end
    of seasons 1 and 2 every depletion token goes back to the supply (Game Flow: end of the
    season)"``, and a building placed on a depleted cell sends its token back."""
    seasons = [str(e.season) for e in state.box.modes[state.config.mode].season_ends if e.clear_depletion]
    when = (f"At the end of season{'s' if len(seasons) > 1 else ''} {' and '.join(seasons)} every depletion token "
            "goes back to the supply (Game Flow: end of the season)") if seasons else "No season's end clears them"
    return f"{when}; a building placed on a depleted cell sends its token back too."


def extract(state) -> str:
    made = ", ".join(f"{t.name} {t.extract}" for t in state.box.terrains.values() if t.extract and t.explorable)
    return ("Flip an extraction token: 1 resource of your cell, or water from an adjacent lake (the lake then takes "
            f"the depletion token, not your cell). Your cell gives its terrain's resource ({made}), or water when it "
            "touches a lake. A "
            f"depletion token marks the cell extracted; nothing more is extracted there. {depletion_ends(state)} Not "
            f"on a cell with a building. You keep at most {state.box.resource_cap} of each resource.")


def build(state) -> str:
    tokens = {b.cost_tokens for b in state.box.buildings.values()}
    tok = plural(tokens.pop(), "construction token") if len(tokens) == 1 else "its construction tokens"
    return (f"Pay {tok} and the resources to place a building on your sensor's cell, mark it as yours and gain its "
            f"valor at once: {building_costs(state)}. Each makes its resource at every production, wherever you "
            "stand. Not where a building or a ghost stands.")


def contact(state) -> str:
    return (f"Pay the season's contact cost in contact tokens ({contact_costs(state)}) to send the ghost on your "
            "cell back to the supply, then roll the bonus die for a reward of the season's bonus card.")


def sell(state) -> str:
    return (f"Only in {places(state, 'sell')}: pay resources for pecunias by the market card in play "
            f"({market_words(state)}), as often as you can pay.{kalena_skill(state)}")


def train(state) -> str:
    return (f"Only in {places(state, 'train_and_learn')}: pay pecunias for a new action token; it arrives inactive, "
            f"so you can use it only after the rest. Its price is on the next free slot of its track "
            f"({training_words(state)}).{kalena_skill(state)}")


def learn(state) -> str:
    return (f"Only in {places(state, 'train_and_learn')}: pay a skill card's resources to learn it ("
            f"{skill_words(state)}); its property works at once and you gain the valor of the leftmost free marker "
            f"slot (valor {slot_valor(state)}, left to right). No skill twice.{kalena_skill(state)}")


def quest_times(state) -> str:
    """When quests are chosen in this game's mode, from the box (``"season 1: 1 each, ..."``)."""
    who = {"non_leaders": "everyone but the valor leader", "everyone": "everyone"}
    ends = state.box.modes[state.config.mode].season_ends
    said = [f"end of season {e.season}: {who[e.choosers]} {plural(e.quests, 'quest')}" for e in ends
            if e.choosers in who and e.quests]
    return "; ".join(said) or "no season's end in this mode"


def quest(state) -> str:
    return (f"Quest cards are chosen at a season's end ({quest_times(state)}) and kept hidden. A quest's valor "
            "counts only at the final scoring, after the last season, so plan what it asks for.")


def ghost_words(state) -> str:
    """The ghost cards in play with what each does, from the box (``"ghost card 3: ..."``)."""
    cards = [state.box.ghost_cards[n] for n in state.config.ghost_cards if n in state.box.ghost_cards]
    return "; ".join(f"ghost card {g.number}: {g.text.rstrip('.')}" for g in cards) or "no ghost card"


def board_words(state) -> str:
    """How the board and the log name a cell, from the board in play (its region tiles' names)."""
    f = state.field
    tiles = sorted({t for t in f.tile if t != "Kalena"})
    i = next(i for i, t in enumerate(f.tile) if t != "Kalena")
    return (f"The board is laid from {len(tiles)} region tiles ({', '.join(tiles)}: the kit's names of the region "
            f"tiles, a thick outline around each) around the central Kalena tile; the log names a cell by its terrain, "
            f"its coordinates and its tile, such as '{f.describe(f.cells[i])}'. A black "
            "diamond (\u25c6) on a cell is a depletion token: nothing more can be extracted there.")


def setup(state) -> str:
    box = state.box
    tokens = ", ".join(f"{t.start_tokens} {name}" for name, t in box.tracks.items())
    # the lead says what each player starts with (a newcomer found only the game's length here)
    return (f"Every sensor starts in the city with action tokens {tokens}, all active (Game Setup, steps 11 and 14). "
            f"The game runs over {box.seasons} seasons of {box.rounds_per_season} rounds each; each season has its "
            "own bonus card. The valor tokens start in one stack, in random order (Game Setup, step 12): the token on "
            f"top plays first, the next one second, and so on. This game is in {state.config.mode} mode (it decides "
            "who chooses quests and when: "
            f"{quest_times(state)}), with {ghost_words(state)}. {board_words(state)}")


def _skill(state, effect: str):
    """The number of the skill card in play with ``effect``, or ``None`` (none in this game)."""
    return next((n for n in state.skills if getattr(state.box.skills.get(n), "effect", None) == effect), None)


def _owed(state):
    """The resource choice waiting now (its ``why``: ``"skill 12"``, ``"bonus reward 4"``), or ``None``."""
    top = state.pending[-1] if getattr(state, "pending", None) else None
    return top if type(top).__name__ == "ResourceChoice" else None


def choose_resource(state) -> str:
    """What gives a resource of your choice, read from the choice waiting now (a skill card
    in play or a bonus reward), else from the cards in play in this game."""
    top = _owed(state)
    if top is not None and top.why.startswith("bonus"):
        face = int(top.why.split()[-1])
        box = state.box
        reward = box.bonus_cards[state.season].rewards[box.bonus_die.index(face)]
        # the whole reward (a newcomer saw their pecunias rise unexplained), then the choice
        return (f"The season's bonus card gives {reward.describe()} for a roll of {face} after a contact: choose "
                "the resource's type (any of them).")
    n = int(top.why.split()[-1]) if top is not None and top.why.startswith("skill") else _skill(state, "extract_bonus")
    sources = ["a reward of the season's bonus card after a contact"]
    if n is not None:
        sources.insert(0, f"skill {n} after an extraction")
    return f"Some rewards give you a resource of any type ({' or '.join(sources)}): choose which."


def choose_resource_section(state) -> str:
    top = _owed(state)
    return "Basic Actions: Contact" if top is not None and top.why.startswith("bonus") else "Skill Cards"


def choose_bonus(state) -> str:
    n = _skill(state, "choose_bonus")
    who = f"With skill {n}" if n is not None else "With the skill card that lets you choose the bonus"
    return f"{who}, after a contact you may take any reward of the season's bonus card instead of rolling the bonus die."


def roll_bonus(state) -> str:
    n = _skill(state, "choose_bonus")
    who = f"With skill {n}" if n is not None else "With the skill card that lets you choose the bonus"
    return f"{who} you may still roll the bonus die after a contact, as everyone else does."


def restore_token(state) -> str:
    n = _skill(state, "sell_restore")
    k = state.box.skills.get(n) if n is not None else None
    need = f"at least {k.amount} resources" if k is not None else "enough resources"
    who = f"Skill {n}" if n is not None else "A skill card"
    return f"{who}: after a sale that spent {need}, restore one action token of your choice."


def production(state) -> str:
    """Where production sits in the round (its step in ``flow.ROUND``, between its neighbours),
    then what it did in the latest round the log shows (that round's production events)."""
    i = next(i for i, st in enumerate(ROUND) if st.phase == Phase.PRODUCTION)
    log = getattr(state, "log", None) or []
    last = next((e for e in reversed(log) if e.phase == "production"), None)
    said = " ".join(e.text.removeprefix("Production: ") for e in log if e.phase == "production"
                    and (e.season, e.round) == (last.season, last.round)) if last is not None else ""
    return (f"Production is step {i + 1} of every round: after the {ROUND[i - 1].phase}, before the "
            f"{ROUND[i + 1].phase}. Every building then makes its resource for its owner, wherever the owner's "
            "sensor stands." + (f" This time: {said}" if said else ""))


def spread(state) -> str:
    return ("Each round opens with the spread: the last player in turn order rolls the terrain die and places "
            f"{state.box.ghosts_per_spread} ghosts on free cells of that terrain. That is why the last player acts "
            "first.")


def place_ghost(state) -> str:
    """The spread's one decision, with the spread itself (the phase is taught within it)."""
    return (f"Place {state.box.ghosts_per_spread} ghosts on free cells of the rolled terrain: never on a lake, a "
            "building or another ghost. Each round opens with this spread, made by the last player in turn order: that "
            "is why the last player acts first. If no cell of the rolled terrain is free, the rest go on the Kalena "
            "tile; when it is full, everyone loses.")


def spread_now(state) -> str:
    """The spread in front of the learner: the terrain the die showed and the ghosts left to place."""
    now = state.pending[-1] if getattr(state, "pending", None) else None
    rolled, left = getattr(now, "terrain", None), getattr(now, "remaining", None)
    if not rolled or left is None:
        return ""
    n = state.box.ghosts_per_spread
    if rolled == "Kalena":
        return f"none of the rolled terrain is free: {left} of {n} left, on the Kalena tile"
    return f"the die showed {rolled}, {left} of {n} left"


def end_turn(state) -> str:
    """The turn's way out, with the turns themselves (the phase is taught within it)."""
    return f"Your turn ends when you can do nothing more or choose to stop. {turns(state)}"


# the player aid's lines (:func:`haunted_kit.tutorial.aid_step`), one short line per kind
def aid_ghost(s):
    return f"if you are last in turn order, {s.box.ghosts_per_spread} ghosts on the rolled terrain at the spread."


def aid_explore(s):
    return f"to an adjacent cell for exploration tokens ({explore_costs(s)}); never a lake."


def aid_extract(s):
    return "1 extraction token: 1 resource of your cell or water of an adjacent lake."


def aid_build(s):
    said = "; ".join(f"{b.name} ({'by a lake' if b.terrain == 'near lake' else b.terrain}) {'+'.join(b.cost)}: "
                     f"{b.valor} valor" for b in s.box.buildings.values())
    return f"a construction token and resources, valor at once: {said}."


def aid_contact(s):
    return f"remove the ghost on your cell for contact tokens ({contact_costs(s)}), then a bonus."


def aid_sell(s):
    return f"in {places(s, 'sell')}: resources for pecunias ({market_words(s)})."


def aid_train(s):
    said = "; ".join(f"{tr.name} {', '.join(map(str, tr.training_costs[tr.start_tokens:]))}"
                     for tr in s.box.tracks.values() if tr.training_costs[tr.start_tokens:])
    return f"in {places(s, 'train_and_learn')}: pecunias for an action token ({said}); it is inactive until the rest."


def aid_learn(s):
    return f"in {places(s, 'train_and_learn')}: a skill's resources ({skill_words(s)}); valor {slot_valor(s)} by slot."


def aid_quest(s):
    return f"{quest_times(s)}; a quest's valor counts only at the final scoring."


#: the decision kinds whose choices the play view lights on the field (a cell each, ``widgets.play.action_cell``);
#: the tutorial says "lit on the board" for these only (:func:`haunted_kit.tutorial.choices_where`)
BOARD_KINDS = ("place_ghost", "explore", "extract", "build", "contact")
#: of those, the kinds the play view also lists as buttons (what the sensor's own cell allows;
#: :data:`haunted_kit.haunted.widgets.play.SENSOR_ACTIONS` is read from here)
BUTTON_KINDS = ("extract", "build", "contact")

TEACH_POINTS = (
    T("goal", "What you play for", goal, "Final Scoring"),
    T("phase:setup", "Setting up", setup, "Game Flow"),
    T("phase:spread", "The spread", spread, "Game Flow", within="kind:place_ghost"),
    T("phase:production", "The production phase", production, "Game Flow: 2. Production"),
    T("kind:place_ghost", "Place a ghost", place_ghost, "Ghosts", "02-spread-cells", aid=aid_ghost, now=spread_now),
    T("phase:turns", "Your turn", turns, "Game Flow", within="kind:end_turn"),
    T("kind:explore", "Explore", explore, "Basic Actions: Exploration", "03-explore-cells", aid=aid_explore),
    T("kind:extract", "Extract", extract, "Basic Actions: Extraction", aid=aid_extract),
    T("kind:build", "Build", build, "Basic Actions: Construction", aid=aid_build),
    T("kind:contact", "Contact a ghost", contact, "Basic Actions: Contact", aid=aid_contact),
    T("kind:sell", "Sell", sell, "Additional Actions: Selling", "03-sale", aid=aid_sell),
    T("kind:train", "Train", train, "Additional Actions: Training", aid=aid_train),
    T("kind:learn", "Learn a skill", learn, "Additional Actions: Learning", aid=aid_learn),
    T("kind:end_turn", "Your turn, and ending it", end_turn, "Game Flow",
      aid="stop when you like; the next player goes on."),
    T("kind:choose_resource", "A resource of your choice", choose_resource, "Skill Cards", aid=None,
      where=choose_resource_section),
    T("kind:choose_bonus", "Choose a bonus", choose_bonus, "Skill Cards", aid=None),
    T("kind:roll_bonus", "Roll the bonus die", roll_bonus, "Skill Cards", aid=None),
    T("kind:restore_token", "Restore a token", restore_token, "Skill Cards", aid=None),
    T("kind:choose_quest", "Choose a quest", quest, "Game Flow", aid=aid_quest),
    T("event:production", "Production", "In the production step (after the spread, before the turns) every "
      "building produces its resource by itself, wherever its owner's sensor stands.", "Game Flow"),
    T("event:rest", "Rest", "After everyone's turn, every player restores all their action tokens.", "Game Flow"),
    T("event:reorder", "Reorder", "The turn order is dealt again by valor: the most valor plays first next "
      "round. On a tie, the valor token on top of the stack plays first: a token that reaches a mark already "
      "holding others goes on top of them.", "Game Flow"),
)


def holdings(state, seat: int) -> str:
    """What ``seat`` holds now, in one line (the tutorial keeps it in view beside the lesson; all of
    it is on the seat's own board, nothing hidden): valor, resources against the cap, pecunias and
    the active action tokens of each track."""
    cap = R.resource_cap(state, R.ctx_of(state), seat)
    res = ", ".join(f"{r} {k}" for r, k in state.resources(seat).items())
    tokens = ", ".join(f"{name} {state.tokens(seat, t, active=True)}/{state.tokens(seat, t)}"
                       for t, name in enumerate(state.config.box.tracks))
    return (f"valor {state.valor[seat]} · {res} (at most {cap} each) · pecunias {state.pecunias(seat)} · "
            f"tokens active/held: {tokens}")

