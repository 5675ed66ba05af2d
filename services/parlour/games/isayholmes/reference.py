"""What I Say, Holmes! tells clients: its refusal reasons and decision kinds, described
(published in docs/reference.md by tools/reference.py)."""

REASONS = {
    "BAD_TARGET": "That seat cannot be named: not an opponent, or not accusable in this chain.",
    "CARD_NOT_IN_HAND": "The card named is not in your hand.",
    "DEFENCE_NOT_ALLOWED": "That card cannot block the card played against you.",
    "DRAW_PILE_EMPTY": "There is nothing to draw.",
    "EMPTY_ACTION": "The action names no move.",
    "HAS_SUITABLE_CARD": "You hold a Suitable Card, so you may not draw or pass.",
    "MUST_DRAW": "Without a Suitable Card you must draw.",
    "MUST_ESCAPE": "A hand of only Villains must escape.",
    "MUST_NAME_OPPONENT": "This card must name an opponent; it cannot be declined.",
    "NOT_A_VILLAIN": "The card named is not a Villain.",
    "NOT_HIGHEST_CARD": "Disguise makes you show your highest-valued card.",
    "NOT_ONLY_VILLAINS": "Only a hand of nothing but Villains may escape.",
    "NOT_SUITABLE": "The card does not follow the Story Sequence.",
    "WRONG_DECISION": "That move is not the decision you owe now.",
}

DECISION_KINDS = {
    "turn": "Play a Suitable Card, draw, pass or escape.",
    "name_opponent": "Name the opponent a card targets.",
    "defend_or_decline": "Block the card played against you, or decline.",
    "arrest_or_decline": "Arrest the accused, or decline.",
    "accuse": "Name the seat you accuse.",
    "show_highest_card": "Show your highest-valued card (Disguise).",
    "give_card": "Give a card to the seat that asks for one.",
    "discard_villain": "Discard a Villain.",
    "pass_left": "Choose the card you pass to the left.",
}
