"""What Murder Castle tells clients: its refusal reasons and decision kinds, described
(published in docs/reference.md by tools/reference.py)."""

REASONS = {
    "ABILITY_NOT_AVAILABLE": "Your character's ability cannot be used now.",
    "ABILITY_NOT_OFFERED": "That Holmes' Ability Card is not one of the three offered.",
    "BONUS_NOT_AVAILABLE": "The Ferris Wheel bonus is not available now.",
    "CANNOT_COLLECT": "There is no evidence you may collect here.",
    "CANNOT_DRAW": "You may not draw an Event Card now.",
    "CANNOT_MOVE_HOLMES": "Holmes cannot be revealed or moved now.",
    "CARD_NOT_IN_HAND": "The card named is not in your hand.",
    "CARD_NOT_ASSIGNABLE": "That Holmes' Action Card cannot go on that Action Tile now.",
    "CARD_NOT_PLAYABLE": "That Event Card cannot be played now.",
    "CUBE_NOT_AVAILABLE": "No evidence cube of that colour is available.",
    "DECISION_REQUIRED": "You owe a decision and may not pass.",
    "DOORWAY_NOT_EXPLORABLE": "That doorway cannot be explored.",
    "EMPTY_ACTION": "The action names no move.",
    "HOLMES_ABILITY_NOT_AVAILABLE": "Holmes' Ability Card is played, or has no room to aim at.",
    "JUNCTION_CARD_NOT_PLAYABLE": "That Castle Junction Card is not yours or cannot be played now.",
    "NOT_VOTING_NOW": "There is no vote on a Castle Junction objective for you now.",
    "NOT_HIDING_NOW": "There is nowhere to hide now.",
    "PLACEHOLDER_NOT_OPEN": "That Control Panel placeholder cannot take the cube now.",
    "POTION_NOT_ON_SHELF": "That potion is not on the Laboratory shelf.",
    "PROPOSAL_NOT_ALLOWED": "Your Castle Junction discard was refused this round, a vote is "
                            "under way, or that slot is empty.",
    "ROOM_NOT_OFFERED": "That room is not one of the choices offered.",
    "ROOM_NOT_REACHABLE": "That room cannot be reached from here.",
    "ROTATION_DOES_NOT_CONNECT": "In that rotation the new room does not connect.",
    "SEAT_NOT_OFFERED": "That seat is not one of the choices offered.",
    "TARGET_NOT_OFFERED": "That cube or Action Tile is not one the Castle Junction Card can clear.",
    "TILE_NOT_IN_PILE": "That room tile is not in the pile.",
    "TILE_NOT_OPEN": "That Action Tile is not open for selection.",
    "WRONG_DECISION": "That move is not the decision you owe now.",
}

DECISION_KINDS = {
    "select_tile": "Select an Action Tile.",
    "act": "Perform (or pass) the selected Action Tile's action.",
    "place_room": "Choose how to rotate the room tile you revealed.",
    "fill_safe": "Choose cubes from the unloading gondola for a safe.",
    "holmes_room": "Choose which listed room Holmes moves to.",
    "rampage": "Holmes walks through a queue of rooms (automatic).",
    "escape": "As the Move Holmes selector, choose whether Holmes escapes.",
    "drop_evidence": "Struck by Holmes: drop evidence into your room's safe.",
    "hand_limit": "Holding four Keep cards: play or discard one.",
    "event_window": "Play a Keep card, or pass, in order.",
    "choose_place": "Choose a room for an Event Card or ability.",
    "choose_seat": "Choose another player for an Event Card or ability.",
    "defend": "Targeted by an attack: defend or decline.",
    "hide": "In the Whitechapel Suite: secretly choose a hiding spot.",
    "choose_colour": "Choose a cube colour for an Event Card effect.",
    "event_move": "Move for an Event Card or ability (Secret Passage, Adeline's escape).",
    "pick_room_tile": "Jeremiah: choose one of the room tiles he peeked at.",
    "choose_door": "Choose a doorway of a room (Jeremiah's exploration, Jonah's wall).",
    "end_round": "Finish the round after the end-of-round Holmes card (automatic).",
    "encounter": "Holmes strikes the seats still in the room he entered (automatic).",
    "follow": "Adeline follows Holmes after the movement card (automatic).",
    "effect": "An Event Card's effect in progress (automatic between its choices).",
    "fall": "Fall through a Trapdoor unless you defend (automatic).",
    "give_card": "Hoyt: choose which of your Event Cards to give.",
    "black_closet": "Ending the round in the Black Closet: draw an extra Event Card or not.",
    "pick_potion": "Collected in the Laboratory: turn over a potion per cube (The 2nd Story).",
    "automa": "Holmes resolves an Automa card (Automa; automatic between your choices).",
    "panel_cube": "Play as Holmes: put the end-of-round cube on a Control Panel placeholder.",
    "assign_cards": "Play as Holmes: put unlocked Holmes' Action Cards face down on Action "
                    "Tiles, one at a time, or stop.",
    "holmes_card": "Play as Holmes: a Holmes' Action Card resolves (automatic between Holmes' "
                   "choices).",
    "holmes_walk": "Play as Holmes: move Holmes one room through a doorway, or stop when the "
                   "move is optional.",
    "choose_holmes_ability": "Play as Holmes: Holmes secretly keeps one of his 3 Ability Cards.",
    "junction_vote": "Play as Holmes: vote, secretly and all at once, on discarding a face-up "
                     "Castle Junction objective.",
    "junction_target": "Play as Holmes: choose the Control Panel cube or the Action Tile's card "
                       "your Castle Junction Card removes.",
    "holmes_ability": "Play as Holmes: Holmes' Ability Card resolves (automatic between his "
                      "choices).",
}
