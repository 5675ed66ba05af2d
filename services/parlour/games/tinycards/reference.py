"""What Tiny Cards tells clients: its refusal reasons and decision kinds, described
(published in docs/reference.md by tools/reference.py)."""

REASONS = {
    "CARD_NOT_IN_HAND": "The card named is not in your hand.",
    "DECK_EMPTY": "There is nothing to draw.",
    "EMPTY_ACTION": "The action names no move.",
}

DECISION_KINDS = {
    "turn": "Play a card or draw one.",
}
