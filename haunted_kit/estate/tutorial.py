"""The estate's teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`): each
decision kind and phase in a few words of our own, citing its section of the estate rules
(``Resource income``, ``Expand the lands``, ``Market actions``) or the kit's ruling (the
engine's own section names, :mod:`haunted_kit.estate.rules`)."""

from ..tutorial import TeachPoint as T
from .rules import END, SEASON_END, TURNS

TEACH_POINTS = (
    T("goal", "What you play for", "The printed rules name no winner, so the kit measures one: after 3 seasons "
      "each player's holdings are valued in gold (gold 1, marble 3, glass 2, wood and limestone 1 each) and the sole "
      "highest value ranks first. A season ends when every player has passed.", END),
    T("phase:setup", "Setting up", "Everyone starts with an income of 3 gold, 2 limestone, 2 wood and 0 marble, "
      "and four land tiles are laid face up as the display.", "Resource income"),
    T("phase:turns", "A season of turns", "In a season the players act in seat order, one action a turn, until "
      "everyone has passed (kit ruling E1).", TURNS),
    T("kind:TakeMaterial", "Take a material", "Send a worker to the Raw Materials Factory to take wood, limestone "
      "or marble, at most your income of it this season; the first player to take a material this season may take "
      "one extra unit.", "Resource income", "08-take-limit"),
    T("kind:TakeGold", "Take gold", "Gold needs no worker: move your gold marker and take up to your gold income "
      "this season, in one go or over several turns.", "Resource income"),
    T("kind:PlaceTile", "Place a land tile", "Pay 3 gold for a tile of the display and put it on the board with "
      "your marker: your first tile over the shared lower area, every later one touching your estate. A forest "
      "raises your wood income, a quarry limestone, a tax land gold.", "Expand the lands", "08-slots"),
    T("kind:Join", "Join a land", "Put your marker on another player's tile: its owner gets 1 gold for each "
      "marker already there (3 at most), and you get its income raise too.", "Expand the lands"),
    T("kind:RemoveTile", "Remove a tile", "You placed a white-dotted land: take its Market-condition token and "
      "take one other tile of the display out of the game.", "Expand the lands"),
    T("kind:VisitMarket", "Visit the Market", "Once a season you may visit the Market: the first visitor of the "
      "season takes three different actions, later visitors two. Market actions need no workers.", "Market actions"),
    T("kind:Trade", "A Market action", "Each Market action is a different row of the table: sell, exchange or "
      "hire. A marked price costs 2 the first time it is used in a season, then 3.", "Market actions",
      "08-gold-after"),
    T("kind:EndVisit", "Leave the Market", "You may leave the Market before using every action your visit "
      "allows.", "Market actions"),
    T("kind:Pass", "Pass", "Passing ends your season: you take no more actions until the next one (kit ruling "
      "E1).", TURNS),
    T("kind:InnReturn", "Bring a worker back", "After each season you may pay 1 gold to bring one worker back "
      "from the Inn.", "Market actions"),
    T("kind:InnDecline", "Leave workers at the Inn", "You may also leave your workers in the Inn this "
      "season.", "Market actions"),
    T("event:market_paid", "Marked prices", "A marked Market price costs 2 gold the first time it is used in a "
      "season and 3 after that; all marked prices go back to 2 at the season's end.", "Market actions"),
    T("event:season_ended", "The end of a season", "When everyone has passed, the season ends: Factory workers "
      "come back to their owners and the marked prices are reset.", SEASON_END),
)
