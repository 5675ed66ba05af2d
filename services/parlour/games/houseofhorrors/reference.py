"""What House of Horrors tells clients: its refusal reasons and decision kinds, described
(published in docs/reference.md by tools/reference.py)."""

REASONS = {
    "ALLIES_FIRST": "Hand one spoil to each ally before taking another.",
    "ALREADY_PLAYED": "You already played this round; discarding replaces playing.",
    "CHARACTER_LIMIT": "One Mortal or Horror per round (two at Midnight).",
    "EMPTY_ACTION": "The action names no move.",
    "LEADER_FIRST": "The spoils leader takes her own spoil first.",
    "MIXED_SIDES": "A Mortal is never played with a Horror, nor cards for both sides.",
    "MUST_PLAY_OR_DISCARD": "Play a card or discard one.",
    "NOT_AN_ITEM": "The card named is not an Item.",
    "NOT_A_CHARACTER": "The card named is not a Mortal or Horror.",
    "NOT_A_SPOIL": "The card named is not among the spoils.",
    "NOT_BUTLER": "Only the Butler may take a Room Item.",
    "NOT_CLAIMABLE": "That card is not a visible target of this claim.",
    "NOT_FIRST_COPY": "Copies of a card are alike: name the first one, as the legal actions do.",
    "NOT_IN_HAND": "The card named is not in your hand.",
    "NOT_ON_TABLE": "That Room Item is not on the table.",
    "NOT_OWED": "That seat is not owed a spoil now.",
    "NO_CHARACTER": "A Room Item is played together with your Mortal or Horror.",
    "NO_SIDE": "Name the side the Item fights for.",
    "ROOM_ITEM_TAKEN": "Only one Room Item per round.",
    "ROOM_NOT_REVEALED": "That room was not revealed this round.",
    "UNKNOWN_BATTLE": "Declare Psychic, Strength, Terror or Bloodbath.",
    "WRONG_FLOOR": "That Mortal or Horror may not go to this room's floor.",
    "WRONG_PHASE": "That move is not possible in this phase of the round.",
    "WRONG_SIDE": "This Item is for the other side.",
}

DECISION_KINDS = {
    "choose_room": "The Butler chooses the room of the round.",
    "declare_battle": "The Butler declares the battle type.",
    "play": "Play (or discard) cards for the encounter.",
    "claim": "Use a Claim effect of a card you won, or pass.",
    "spoils": "The spoils leader hands out the spoils.",
}
