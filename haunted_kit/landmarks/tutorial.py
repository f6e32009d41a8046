"""Landmarks & Architects' teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`):
each decision kind and phase in a few words of our own, citing its section of the rules."""

from ..tutorial import TeachPoint as T

TAKE = "Landmarks: How To Play, Take One Action"

TEACH_POINTS = (
    T("goal", "What you play for", "Score the most points at the end. Landmark tokens score: 2 points to the sole "
      "player with the most of a type, 1 per Gate, 3 per set of all five types; your secret architect adds 1 point "
      "per building in your village of either of its two types. This first game ends after 3 rounds, once every "
      "player has led.", "Landmarks: Scoring"),
    T("phase:deal", "The deal", "Every player gets a hand of cards and an architect card, and starts with "
      "gold and a small village.", "Architects: Game Setup"),
    T("phase:lead", "Leading", "On your turn you lead: you choose one action and take it. Then each other "
      "player, in clockwise order from your left, may follow it, acquire a landmark, or decline.", TAKE),
    T("kind:Lead", "Lead an action", "Choose the action everyone else may then follow. Only the leader chooses "
      "it.", TAKE),
    T("kind:Follow", "Follow the lead", "Another player led: you may take the same action after them.", TAKE),
    T("kind:Decline", "Decline", "You may also do nothing when another player leads; your turn to lead comes "
      "when the Active Player Token reaches you.", TAKE),
    T("kind:Acquire", "Acquire a landmark", "Instead of following, you may pay a landmark's acquisition cost by "
      "discarding cards from your hand (two cards for a Gate, a card with the matching resource icon for the "
      "others) and take its token into your village.", "Landmarks: How To Play, Acquiring a Landmark", "09-acquire"),
    T("kind:ChooseBuilding", "Choose what to build", "A build starts with the card you mean to build; then you "
      "say how you pay for it.", "Architects: How To Play, Build"),
    T("kind:Build", "Pay for the build", "Pay the card's cost with the resources and gold of your village; the "
      "card joins your village.", "Architects: How To Play, Build", "09-gold-after"),
    T("phase:build", "Building", "The build action is under way: each player who takes it chooses a card and "
      "pays for it.", "Architects: How To Play, Build"),
    T("phase:follow", "Following", "The lead action has been taken: the others answer in turn.", TAKE),
    T("phase:over", "The end and the score", "Landmark tokens score at the end: 2 points to the sole player "
      "with the most of each type, 1 point per Gate, 3 points per set of all five types.", "Landmarks: Scoring"),
    T("event:grounds_gold", "Gold on Castle Grounds", "Gold paid onto another player's Castle Grounds stays "
      "there; it becomes that player's when they next lead.", "Architects: Concepts, Castle Grounds Cards"),
    T("event:round_ended", "The leader's token passes", "When every other player has followed, acquired or "
      "declined, the leader's turn is over and the Active Player Token passes to the left.", TAKE),
)

#: the first game's ``new_game`` keywords: three rounds, so every player leads once
OPTIONS = {"rounds": 3}
