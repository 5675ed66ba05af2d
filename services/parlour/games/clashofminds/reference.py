"""What Clash of Minds tells clients: its refusal reasons and decision kinds, described
(published in docs/reference.md by tools/reference.py)."""

REASONS = {
    "ACTION_CARD_NOT_AVAILABLE": "That Action Card is already placed or cannot be placed now.",
    "ACTION_CARD_NOT_PLACED": "You have no such face-down Action Card to reveal.",
    "CARD_NOT_IN_HAND": "The card named is not in your hand.",
    "CARD_NOT_USABLE": "You have no unused Influence Card at that place.",
    "CHOOSE_EFFECT_TARGET": "A card effect is waiting for its target; answer it first.",
    "DRAW_FORBIDDEN_HERE": "The Diogenes Club forbids the optional draw.",
    "EMPTY_ACTION": "The action names no move.",
    "INFLUENCE_LIMIT_REACHED": "The Investigation Site's Influence Card Limit is reached.",
    "KEEP_A_CARD_TO_PLAY": "Your last card must go into play first.",
    "MANDATORY_ACTION_FIRST": "Use the Mandatory Action before ending the turn.",
    "MUST_PLAY_A_CARD": "You hold a card you can put into play, so you may not pass.",
    "NEEDS_PRIME_MINISTER": "Only Holmes may do this, and only after The Prime Minister.",
    "NOTHING_TO_DRAW": "Your Influence Deck and discard pile are both empty.",
    "NOTHING_TO_SKIP": "No Action Card is revealed, so there is nothing to skip.",
    "NOT_A_SUPPORT": "You have no Support Card at that place.",
    "NOT_A_TARGET": "That is not a legal target for the pending effect.",
    "NOT_ON_THIS_CARD": "The Action Card does not show the action named.",
    "NOT_THE_DRAWN_CARDS": "Arrange exactly the three Crime Plan Cards you drew.",
    "NO_SUCH_THREAD": "There is no Crime Thread with that number.",
    "RESOLVE_REVEALED_CARD": "Use or skip the revealed Action Card first.",
    "WRONG_PHASE": "That move is not possible in this phase of the round.",
    "WRONG_THREAD": "A Final Turn action applies only to its own Crime Thread.",
}

DECISION_KINDS = {
    "arrange_crime": "Moriarty arranges the three drawn Crime Plan Cards into threads.",
    "place_setup_card": "Place a setup Influence Card face down.",
    "turn": "Take a turn of the Course of the Investigation.",
    "choose_target": "Choose the target of a card effect.",
    "place_action_card": "Place an Action Card face down on a Crime Thread (Final Turn).",
    "reveal_action_card": "Reveal one of your placed Action Cards (Final Turn).",
    "resolve_action_card": "Use or skip the Action Card just revealed (Final Turn).",
    "discard_from_hand": "Discard down to the hand limit or keep your hand.",
}
