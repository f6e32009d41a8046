"""Landmarks & Architects' teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`):
each decision kind and phase in a few words of our own, citing its section of the rules."""

from ..tutorial import TeachPoint as T

TAKE = "Landmarks: How To Play, Take One Action"


def landmark_points(state) -> str:
    """How landmark tokens score, from the box: the most of a type, each Gate, each full set."""
    b = state.box
    gates = [t for t in b.landmarks.values() if t.victory_points]
    each = "".join(f", {t.victory_points} per {t.name}" for t in gates)
    return (f"{b.most_points} points to the sole player with the most of a type{each}, {b.set_points} per set of all "
            f"{len(b.landmarks)} types")


def goal(state) -> str:
    b = state.box
    per = f"{b.architect_points} point{'s' if b.architect_points != 1 else ''}"
    return (f"Score the most points at the end. Landmark tokens score: {landmark_points(state)}; your secret architect "
            f"adds {per} per building in your village of either of its two types. This first game ends after "
            f"{state.rounds} rounds, once every player has led.")


def over(state) -> str:
    return f"Landmark tokens score at the end: {landmark_points(state)}."


def acquire(state) -> str:
    costs = "; ".join(f"{t.name}: {t.discard} card{'s' if t.discard != 1 else ''}"
                      + (f" with the {t.icon} icon" if t.icon else "") for t in state.box.landmarks.values())
    return ("Instead of following, you may pay a landmark's acquisition cost by discarding cards from your hand "
            f"({costs}) and take its token into your village.")


def aid_lead(state) -> str:
    return f"on your turn, choose one action ({', '.join(state.box.lead_actions)}); the others may follow."


def aid_acquire(state) -> str:
    costs = ", ".join(f"{t.name} {t.discard}" + (f" {t.icon}" if t.icon else "") for t in state.box.landmarks.values())
    return f"instead of following, discard cards for a landmark token ({costs})."

TEACH_POINTS = (
    T("goal", "What you play for", goal, "Landmarks: Scoring"),
    T("phase:deal", "The deal", "Every player gets a hand of cards and an architect card, and starts with "
      "gold and a small village.", "Architects: Game Setup"),
    T("phase:lead", "Leading", "On your turn you lead: you choose one action and take it. Then each other "
      "player, in clockwise order from your left, may follow it, acquire a landmark, or decline.", TAKE),
    T("kind:Lead", "Lead an action", "Choose the action everyone else may then follow. Only the leader chooses "
      "it.", TAKE, aid=aid_lead),
    T("kind:Follow", "Follow the lead", "Another player led: you may take the same action after them.", TAKE),
    T("kind:Decline", "Decline", "You may also do nothing when another player leads; your turn to lead comes "
      "when the Active Player Token reaches you.", TAKE),
    T("kind:Acquire", "Acquire a landmark", acquire, "Landmarks: How To Play, Acquiring a Landmark", "09-acquire",
      aid=aid_acquire),
    T("kind:ChooseBuilding", "Choose what to build", "A build starts with the card you mean to build; then you "
      "say how you pay for it.", "Architects: How To Play, Build", aid="when building: the card from your hand."),
    T("kind:Build", "Pay for the build", "Pay the card's cost with the resources and gold of your village; the "
      "card joins your village.", "Architects: How To Play, Build", "09-gold-after",
      aid="its cost in your village's resources and gold."),
    T("phase:build", "Building", "The build action is under way: each player who takes it chooses a card and "
      "pays for it.", "Architects: How To Play, Build"),
    T("phase:follow", "Following", "The lead action has been taken: the others answer in turn.", TAKE),
    T("phase:over", "The end and the score", over, "Landmarks: Scoring"),
    T("event:grounds_gold", "Gold on Castle Grounds", "Gold paid onto another player's Castle Grounds stays "
      "there; it becomes that player's when they next lead.", "Architects: Concepts, Castle Grounds Cards"),
    T("event:round_ended", "The leader's token passes", "When every other player has followed, acquired or "
      "declined, the leader's turn is over and the Active Player Token passes to the left.", TAKE),
)

#: the first game's ``new_game`` keywords: three rounds, so every player leads once
OPTIONS = {"rounds": 3}
