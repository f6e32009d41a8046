"""Landmarks & Architects' teach points for the kit's tutorial (:mod:`haunted_kit.tutorial`):
each decision kind and phase in a few words of our own, citing its section of the rules."""

from ..tutorial import TeachPoint as T
# ROUND_WORD, the game's own word for its round (:func:`haunted_kit.tutorial.round_word`), is the
# rulebook's (rules.ROUND_WORD, "turn": a leader's turn): the tutorial says "the first turn is over"
from .rules import ROUND_WORD, SEC_BUILD, SEC_GROUNDS, architect_words, majority_words

TAKE = "Landmarks: How To Play, Take One Action"


def landmark_points(state) -> str:
    """How landmark tokens score, from the box: the most of a type, each Gate, each full set."""
    b = state.box
    gates = [t for t in b.landmarks.values() if t.victory_points]
    each = "".join(f", {t.victory_points} per {t.name}" for t in gates)
    return f"{majority_words(b)}{each}, {b.set_points} per set of all {len(b.landmarks)} types"


def architect_line(state, seat: int = 0) -> str:
    """What ``seat``'s secret architect scores, in the setup log's own words
    (:func:`~haunted_kit.landmarks.rules.architect_words`), once dealt; before the deal, the
    same words for any architect."""
    b, dealt = state.box, getattr(state, "architects", None)
    if dealt and dealt[seat] in b.architects:
        a = b.architects[dealt[seat]]
        return f"your secret architect, {a.name}, scores {architect_words(b, a)}"
    return (f"your secret architect scores +{b.architect_points} per building of each of the two building types "
            "it names, at the end")


def goal(state) -> str:
    # the lead (its first sentence) says where points come from and how long the game is
    return (f"Score the most points at the end of {state.rounds} {ROUND_WORD}s: your landmark tokens and your secret "
            "architect score then (a building scores only through your architect; its own victory points count for "
            f"nothing here, kit ruling L14). Landmark tokens score: {landmark_points(state)}; "
            f"{architect_line(state)} (a building of both its types counts for each). This first game ends after "
            f"{state.rounds} {ROUND_WORD}s, one player leading each"
            + (", so every player leads once." if state.rounds == state.players else "."))


#: what each lead action does here, one line each (the kit plays the modules, not the base game: kit ruling L1,
#: said to the player in words, :data:`NOT_PLAYED`)
NOT_PLAYED = "this kit plays the Landmarks and Architects modules, not the base game's own actions"
LEAD_WORDS = {
    "build": f"choose a building card from your hand and pay its cost; everyone who follows builds too ({SEC_BUILD}); "
             f"a build may use Castle Grounds ({SEC_GROUNDS}).",
    "harvest": "a base-game action (its rulebook's Harvest): here leading or following it is recorded and changes "
               f"nothing ({NOT_PLAYED}).",
    "develop": f"a base-game action (its rulebook's Develop): here it is recorded and changes nothing ({NOT_PLAYED}).",
    "recruit": "a base-game action (its rulebook's Recruit, for adventurers, which are recruited, never built): here "
               f"it is recorded and changes nothing ({NOT_PLAYED}).",
    "trade": f"a base-game action (its rulebook's Trade): here it is recorded and changes nothing ({NOT_PLAYED}).",
}


def lead(state) -> str:
    others = [a for a in state.box.lead_actions if a != "build"]
    return (f"Choose the action everyone else may then follow: in this kit only Build changes anything (the other "
            f"{len(others)} are recorded and do nothing). Then each other player, in clockwise order from your left, "
            f"may follow it, acquire a landmark instead, or decline. What each action does here is listed below: "
            f"{NOT_PLAYED}.")


def lead_list(state) -> tuple:
    """``(action, what it does here)`` for each lead action of the box, in its order."""
    return tuple((a.capitalize(), LEAD_WORDS.get(a, "a base-game action: here it is recorded and changes nothing "
                                                  f"({NOT_PLAYED})")) for a in state.box.lead_actions)


def paying(state) -> str:
    """How a build is paid, with the box's gold per source (Architects: How To Play, Build)."""
    b = state.box
    return (f"Each resource of the cost comes from one source, with gold placed on it: {b.castle_gold} gold on your "
            f"castle gives any one resource; {b.developed_gold} gold on a developed resource gives its resource; "
            f"{b.grounds_gold} gold on any player's Castle Grounds, with a card discarded from your hand, gives any "
            "one resource (gold on another player's Castle Grounds becomes theirs when they next lead). Your gold "
            "comes back from your own castle and resources when you next lead"
            + (f" (in a game of {state.rounds} {ROUND_WORD}s nobody leads twice, so gold you place stays where it is)."
               if state.rounds <= state.players else "."))


def choose_building(state) -> str:
    b = state.box
    golds = {b.castle_gold, b.developed_gold, b.grounds_gold}
    each = f"{golds.pop()} gold" if len(golds) == 1 else "gold"
    # the lead says what a build costs the player (a newcomer spent all their gold unawares)
    return (f"Choose the card to build, then how to pay: each resource of its cost takes {each} of yours, placed "
            f"on a source. {paying(state)}")


def build(state) -> str:
    return f"Pay the card's cost; the card joins your village. {paying(state)}"


def over(state) -> str:
    return f"Landmark tokens score at the end: {landmark_points(state)}."


def acquire(state) -> str:
    costs = "; ".join(f"{t.name}: {t.discard} card{'s' if t.discard != 1 else ''}"
                      + (f" with the {t.icon} icon" if t.icon else "") for t in state.box.landmarks.values())
    return ("Instead of following, you may pay a landmark's acquisition cost by discarding cards from your hand "
            f"({costs}) and take its token into your village. Tokens are not cards: they never count toward the "
            f"{state.box.end_trigger_cards} village cards that end the game.")


def aid_lead(state) -> str:
    return f"on your turn, choose one action ({', '.join(state.box.lead_actions)}); the others may follow."


def aid_build(state) -> str:
    b = state.box
    return (f"its cost: {b.castle_gold} gold on your castle or on any Castle Grounds (with a discard) for any "
            f"resource, {b.developed_gold} on a developed resource for its own.")


def aid_acquire(state) -> str:
    costs = ", ".join(f"{t.name} {t.discard}" + (f" {t.icon}" if t.icon else "") for t in state.box.landmarks.values())
    return f"instead of following, discard cards for a landmark token ({costs})."

#: the decision kinds whose choices the board lights: none (every choice is a button or a list entry), so the
#: tutorial says "buttons under 'Your choices'" (:func:`haunted_kit.tutorial.choices_where`)
BOARD_KINDS = ()

TEACH_POINTS = (
    T("goal", "What you play for", goal, "Landmarks: Scoring"),
    T("phase:deal", "The deal", "Every player gets a hand of cards and an architect card, and starts with "
      "gold and a small village.", "Architects: Game Setup"),
    T("phase:lead", "Leading", "On your turn you lead: you choose one action and take it. Then each other "
      "player, in clockwise order from your left, may follow it, acquire a landmark, or decline.", TAKE,
      within="kind:Lead"),
    T("kind:Lead", "Lead an action", lead, TAKE, aid=aid_lead, lines=lead_list),
    T("kind:Follow", "Follow the lead", "Another player led: you may take the same action after them.", TAKE),
    T("kind:Decline", "Decline", "You may also do nothing when another player leads; your turn to lead comes "
      "when the Active Player Token reaches you.", TAKE),
    T("kind:Acquire", "Acquire a landmark", acquire, "Landmarks: How To Play, Acquiring a Landmark", "09-acquire",
      aid=aid_acquire),
    T("kind:ChooseBuilding", "Choose what to build", choose_building, SEC_BUILD,
      aid="when building: the card from your hand."),
    T("kind:Build", "Pay for the build", build, SEC_BUILD, "09-gold-after", aid=aid_build),
    T("phase:build", "Building", "The build action is under way: each player who takes it chooses a card and "
      "pays for it.", "Architects: How To Play, Build"),
    T("phase:follow", "Following", "The lead action has been taken: the others answer in turn.", TAKE),
    T("phase:over", "The end and the score", over, "Landmarks: Scoring"),
    T("event:grounds_gold", "Gold on Castle Grounds", "Gold paid onto another player's Castle Grounds stays "
      "there; it becomes that player's when they next lead.", "Architects: Concepts, Castle Grounds Cards"),
    T("event:round_ended", "The leader's token passes", "When every other player has followed, acquired or "
      "declined, the leader's turn is over and the Active Player Token passes to the left.", TAKE),
)


def holdings(state, seat: int) -> str:
    """What ``seat`` holds now, in one line (the tutorial keeps it in view beside the lesson): gold,
    the hand's size, the secret architect (the seat's own, as its board shows it to the seat) and
    landmark tokens taken."""
    b = state.box
    n = len(state.hands[seat])
    parts = [f"{state.gold[seat]} gold", f"{n} card{'s' if n != 1 else ''} in hand"]
    arch = state.architects[seat] if state.modules.get("architects") and state.architects else None
    if arch in b.architects:
        parts.append(f"architect {b.architects[arch].name}: {architect_words(b, b.architects[arch])}")
    if state.modules.get("landmarks"):
        got = [f"{lt.name} {state.tokens[seat][k]}" for k, lt in b.landmarks.items() if state.tokens[seat][k]]
        parts.append("landmark tokens: " + (", ".join(got) or "none yet"))
    return " · ".join(parts)

