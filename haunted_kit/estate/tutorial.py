"""The estate's teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`): each
decision kind and phase in a few words of our own, citing its section of the estate rules
(``Resource income``, ``Expand the lands``, ``Market actions``) or the kit's ruling (the
engine's own section names, :mod:`haunted_kit.estate.rules`). The numbers a player plans with
(prices, fees, income, the end's values) are read from the position's box (``state.box``), so
a house-rule box prints its own."""

from ..exercises import plural
from ..tutorial import TeachPoint as T
from .rules import END, SEASON_END, TURNS


def _amounts(d: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def goal(state) -> str:
    b = state.box
    return (f"After {b.seasons} seasons the sole player whose holdings are worth the most in gold ranks first (the "
            f"printed rules name no winner, so the kit measures one). Holdings are valued in gold ({_amounts(b.value)} "
            "each); land tiles and incomes count for nothing themselves: they bring you more to hold. A season ends "
            "when every player has passed.")


def setup(state) -> str:
    b = state.box
    return (f"Everyone starts with {b.start_workers} workers and an income of {_amounts(b.start_income)}, what you "
            f"may take each season. The display is {b.display_size} land tiles laid face up.")


def take_material(state) -> str:
    b = state.box
    who = "A worker" if b.workers_per_take == 1 else f"{b.workers_per_take} workers"
    return (f"{who} at the Raw Materials Factory take{'s' if b.workers_per_take == 1 else ''} up to your income of one material, "
            f"+{b.first_taker_extra} if you are first to take it this season. The materials are wood, limestone "
            f"and marble. Each take uses {plural(b.workers_per_take, 'worker')} of yours (you start with "
            f"{b.start_workers}); they come back at the season's end.")


def place_tile(state) -> str:
    return (f"Pay {state.box.tile_price} gold for a tile of the display and put it on the board with your marker. "
            "Your first marker goes on the shared lower area; every later tile touches one carrying your marker (a "
            "land you joined counts). A forest raises your wood income, a limestone quarry limestone, a tax land "
            "gold, from now on: this season already, so more may be taken at once. "
            f"{marble_quarry(state)}")


def marble_quarry(state) -> str:
    """The marble quarry's condition, from the box (Expand the lands)."""
    return (f"A marble quarry raises your marble income, but you may add one only once you have at least "
            f"{state.box.marble_quarry_min_tiles} land tiles.")


def join_fee(state) -> str:
    """Who pays whom to join a land, and for whose markers (Expand the lands, kit ruling E16), from the box."""
    b = state.box
    return (f"The joining player pays the tile's owner {b.join_fee_per_marker} gold for every marker already on the "
            f"tile, whoever's it is (the owner's own included), {b.join_fee_cap} gold at most (kit ruling E16).")


def join(state) -> str:
    return f"Put your marker on another player's tile to get its income raise too. {join_fee(state)}"


def remove_tile(state) -> str:
    """Why a white-dotted land makes you remove a tile, and what its token is for (Expand the lands,
    Market actions, kit ruling E13), from the box."""
    b = state.box
    return ("You placed a tile on a white-dotted outer land: take its Market-condition token, then remove one "
            "other tile of the display from the game. The token makes each marked Market price "
            f"{b.condition_discount} gold cheaper for you for the rest of the game (never below {b.price_minimum}; "
            "sale prices stay the same). The removal is the rules' price for the token: the tile is gone, so no one "
            "can buy it, and the display is refilled from the stack. Remove the tile you would least like another "
            "player to get (kit ruling E13).")


def market_visit(state) -> str:
    """A Market visit is one player's turn (Market actions, kit ruling E10), from the box."""
    b = state.box
    return (f"A Market visit is one turn: the season's first visitor takes up to {b.first_visitor_actions} "
            f"different Market actions, later visitors {b.later_visitor_actions} (kit ruling E10).")


def visit(state) -> str:
    b = state.box
    return (f"Once a season you may visit the Market: the first visitor of the season takes "
            f"{b.first_visitor_actions} different actions, later visitors {b.later_visitor_actions}. Market actions "
            "need no workers.")


def sale_prices(state) -> str:
    """The Market's sale rows, ``"Sell 1 marble: 3 gold"``, from the box."""
    out = []
    for a in state.box.market.values():
        if a.name.startswith("sell_"):
            got = a.options[0][1]
            out.append(f"{a.text}: {', '.join(f'{n} {k}' for k, n in got)}")
    return "; ".join(out)


def trade(state) -> str:
    b = state.box
    return (f"{market_visit(state)} Each Market action is a different row of the table: sell, exchange or hire. Sale prices: "
            f"{sale_prices(state)}. A "
            f"marked price costs {b.price_first} the first time it is used in a season, then {b.price_later}.")


def leave_market(state) -> str:
    return ("Leave the Market when its other actions are of no use to you: the actions left are lost, and the next "
            f"player's turn comes. {market_visit(state)}")


def inn_return(state) -> str:
    return (f"After each season you may pay {state.box.inn_price} gold to bring one worker back from the Inn. "
            "Workers at the Raw Materials Factory come back free at the season's end; only a worker at the Inn "
            "costs gold.")


def joined(state) -> str:
    b = state.box
    return (f"Another player joined a land tile: they paid its owner {b.join_fee_per_marker} gold per marker already "
            f"on it and get its income raise too (the Join action, which you may take too). {join_fee(state)} When "
            "another player joins one of your tiles, you are paid.")


def marked(state) -> str:
    b = state.box
    return (f"A marked Market price costs {b.price_first} gold the first time its row is used in a season and "
            f"{b.price_later} after that (each row counts its own uses); all marked prices go back to "
            f"{b.price_first} at the season's end.")

def aid_tile(s):
    return (f"{s.box.tile_price} gold: a display tile by your estate; it raises an income (a marble quarry only "
            f"once you have {s.box.marble_quarry_min_tiles} tiles).")


def aid_join(s):
    return f"your marker on another's tile; its owner gets {s.box.join_fee_per_marker} gold per marker there."


def aid_visit(s):
    return f"once a season: {s.box.first_visitor_actions} actions if first, later visitors {s.box.later_visitor_actions}."


def aid_trade(s):
    return f"one row of the table: {sale_prices(s)}; swaps; hiring (marked: {s.box.price_first}, then {s.box.price_later})."


def aid_inn(s):
    return (f"after a season, {s.box.inn_price} gold brings one worker back from the Inn (Factory workers come "
            "back free).")


#: the game's own word for its round (the tutorial says "the first season is over")
ROUND_WORD = "season"
#: the decision kinds whose choices the play view lights on the land board (a slot each, clicked there);
#: the tutorial says "lit on the board" for these only (:func:`haunted_kit.tutorial.choices_where`)
BOARD_KINDS = ("PlaceTile", "Join")

TEACH_POINTS = (
    T("goal", "What you play for", goal, END),
    T("phase:setup", "Setting up", setup, "Resource income"),
    T("phase:turns", "A season of turns", "Players act in seat order, one action a turn, until all have passed "
      "(kit ruling E1).", TURNS, within="kind:Pass"),
    T("kind:TakeMaterial", "Take a material", take_material, "Resource income", "08-take-limit",
      aid="a worker to the Factory: wood, limestone or marble, up to your income."),
    T("kind:TakeGold", "Take gold", "Gold needs no worker: take up to your gold income this season, in one go or "
      "over several turns. Your gold marker keeps count.", "Resource income", "08-gold-after",
      aid="no worker: up to your gold income this season."),
    T("kind:PlaceTile", "Place a land tile", place_tile, "Expand the lands", "08-slots", aid=aid_tile),
    T("kind:Join", "Join a land", join, "Expand the lands", aid=aid_join),
    T("kind:RemoveTile", "Remove a tile", remove_tile, "Expand the lands", aid=None),
    T("kind:VisitMarket", "Visit the Market", visit, "Market actions", aid=aid_visit),
    T("kind:Trade", "A Market action", trade, "Market actions", aid=aid_trade),
    T("kind:EndVisit", "Leave the Market", leave_market, "Market actions", aid="stop a Market visit early."),
    T("kind:Pass", "Turns, and passing", "Players act in seat order, one action a turn, until all have passed; "
      "passing ends your season until the next (kit ruling E1).", TURNS, aid="your season ends: no more actions until the next (kit ruling E1)."),
    T("kind:InnReturn", "Bring a worker back", inn_return, "Market actions", aid=aid_inn),
    T("kind:InnDecline", "Leave workers at the Inn", "You may also leave your workers in the Inn this "
      "season.", "Market actions", aid=None),
    T("event:market_paid", "Marked prices", marked, "Market actions"),
    T("event:joined", "Joining a land", joined, "Expand the lands"),
    T("event:season_ended", "The end of a season", "When everyone has passed, the season ends: Factory workers "
      "come back to their owners and the marked prices are reset.", SEASON_END),
)


def holdings(state, seat: int) -> str:
    """What ``seat`` holds now, in one line (the tutorial keeps it in view beside the lesson; its
    player board shows the same, nothing is hidden): holdings, income per season and workers."""
    held = ", ".join(f"{r} {v}" for r, v in state.hand[seat].items() if v) or "nothing"
    income = ", ".join(f"{r} {v}" for r, v in state.income[seat].items())
    w = state.workers[seat]
    return (f"{held} · income per season: {income} · workers: {w['supply']} free, {w['factory']} Factory, "
            f"{w['inn']} Inn")

