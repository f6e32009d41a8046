"""Haunted Lands' teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`): each
decision kind and phase of the round in a few words of our own, citing the rulebook's
section."""

from ..tutorial import TeachPoint as T

TEACH_POINTS = (
    T("goal", "What you play for", "Be the sensor with the most valor points at the end. The game lasts three "
      "seasons of three rounds; after the third season the quest cards chosen are scored and the most valor wins (on "
      "a tie, the valor token higher in the stack). If the ghosts fill the Kalena tile, or a spread cannot place its "
      "4 ghosts, the game ends at once and everyone loses.", "Final Scoring"),
    T("phase:setup", "Setting up", "The game runs over three seasons of three rounds each; each season has its "
      "own bonus card. The valor tokens start in one stack: the token on top plays first, the next one second, "
      "and so on.", "Game Flow"),
    T("phase:spread", "The spread", "Each round opens with the spread: the last player in turn order rolls the "
      "terrain die and places 4 ghosts on free cells of that terrain. That is why the last player acts first.",
      "Game Flow"),
    T("kind:place_ghost", "Place a ghost", "A ghost never goes on a lake, on a building or on another ghost. If "
      "no cell of the rolled terrain is free, the rest go on the Kalena tile; when it is full, everyone loses.",
      "Ghosts", "02-spread-cells"),
    T("phase:turns", "Your turn", "After production each player takes one turn, in turn order, and may take any "
      "number of actions while they can pay for them.", "Game Flow"),
    T("kind:explore", "Explore", "Move your sensor to an adjacent cell and pay that terrain's exploration cost; "
      "never onto a lake.", "Basic Actions: Exploration", "03-explore-cells"),
    T("kind:extract", "Extract", "Flip an extraction token to take the resource of your sensor's terrain or of "
      "an adjacent lake; a depletion token then marks it. Not on a depleted cell or one with a building.",
      "Basic Actions: Extraction"),
    T("kind:build", "Build", "Pay to place the building of your sensor's terrain (or a noria beside a lake), "
      "mark it as yours and gain its valor points. Not where a building or a ghost stands.",
      "Basic Actions: Construction"),
    T("kind:contact", "Contact a ghost", "Pay the contact cost on the season's bonus card to send the ghost on "
      "your cell back to the supply, then roll the bonus die for a reward.", "Basic Actions: Contact"),
    T("kind:sell", "Sell", "In the city, pay one of the market card's costs in resources for pecunias, as often "
      "as you can pay.", "Additional Actions: Selling", "03-sale"),
    T("kind:train", "Train", "In the suburb, pay pecunias for a new action token; it arrives inactive and is "
      "only restored at rest.", "Additional Actions: Training"),
    T("kind:learn", "Learn a skill", "In the suburb, pay resources to learn a skill card; its property works at "
      "once and you gain valor points. No skill twice.", "Additional Actions: Learning"),
    T("kind:end_turn", "End your turn", "Your turn ends when you can do nothing more or choose to stop.",
      "Game Flow"),
    T("kind:choose_resource", "A resource of your choice", "A rule or skill gives you one resource of any type "
      "(skill 12 after an extraction, for example): choose which.", "Skill Cards"),
    T("kind:choose_bonus", "Choose a bonus", "With skill 2, after a contact you may take any reward of the season's "
      "bonus card instead of rolling the bonus die.", "Skill Cards"),
    T("kind:roll_bonus", "Roll the bonus die", "With skill 2 you may still roll the bonus die after a contact, "
      "as everyone else does.", "Skill Cards"),
    T("kind:restore_token", "Restore a token", "Skill 9: after a sale that spent at least 3 resources, restore one "
      "action token of your choice.", "Skill Cards"),
    T("kind:choose_quest", "Choose a quest", "At the end of the first two seasons everyone but the valor leader "
      "chooses quest cards, which score at the end.", "Game Flow"),
    T("event:production", "Production", "In the production step every building produces its resource by itself, "
      "wherever its owner's sensor stands.", "Game Flow"),
    T("event:rest", "Rest", "After everyone's turn, every player restores all their action tokens.", "Game Flow"),
    T("event:reorder", "Reorder", "The turn order is dealt again by valor: the most valor plays first next "
      "round. On a tie, the valor token on top of the stack plays first: a token that reaches a mark already "
      "holding others goes on top of them.", "Game Flow"),
)
