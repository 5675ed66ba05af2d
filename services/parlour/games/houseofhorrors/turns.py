"""A player's turn: one Mortal or Horror (two at Midnight) plus Items, or one discard; Claims."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.rng import state_rng
from parlour.engine.zones import remove_one
from parlour.games.houseofhorrors.catalogue import CHARACTER_SIDE, card
from parlour.games.houseofhorrors.copies import first_copies, require_first_copy
from parlour.games.houseofhorrors.effects import claimable
from parlour.games.houseofhorrors.events import public
from parlour.games.houseofhorrors.resolution import resolve
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

Refusal = tuple[str, str] | None
SIDES = (pb.SIDE_MORTAL, pb.SIDE_HORROR)


def _has_played(showing: pb.Showing) -> bool:
    return bool(showing.characters or showing.items)


def character_refusal(state: pb.State, seat: int, card_id: int) -> Refusal:
    """Why `seat` may not play this Mortal or Horror now (None if it may)."""
    info = card(card_id)
    showing = state.showings[seat]
    if not info.is_character:
        return "NOT_A_CHARACTER", f"{info.name} is not a Mortal or Horror"
    if showing.side not in (pb.SIDE_UNSPECIFIED, CHARACTER_SIDE[info.kind]):
        return "MIXED_SIDES", "a Mortal may never be played with a Horror"
    if len(showing.characters) >= (2 if state.midnight else 1):
        return "CHARACTER_LIMIT", "one Mortal or Horror per round (two at Midnight)"
    if not info.floors & card(state.room).floors:
        return "WRONG_FLOOR", f"{info.name} may not go to this room's floor"
    return None


def item_refusal(state: pb.State, seat: int, card_id: int, side: int) -> Refusal:
    """Why `seat` may not play this Item for `side` now (None if it may)."""
    info = card(card_id)
    if info.kind != pb.CARD_KIND_ITEM:
        return "NOT_AN_ITEM", f"{info.name} is not an Item"
    return _side_refusal(state.showings[seat], info.side, side)


def _side_refusal(showing: pb.Showing, item_side: int, side: int) -> Refusal:
    if side not in SIDES:
        return "NO_SIDE", "name the side the item fights for"
    if item_side not in (pb.SIDE_UNSPECIFIED, side):
        return "WRONG_SIDE", "this item is for the other side"
    if showing.side not in (pb.SIDE_UNSPECIFIED, side):
        return "MIXED_SIDES", "your cards already fight for the other side"
    return None


def room_item_refusal(state: pb.State, seat: int, card_id: int) -> Refusal:
    """Why `seat` may not play this Room Item from the table now (None if it may)."""
    showing = state.showings[seat]
    if seat != state.butler:
        return "NOT_BUTLER", "only the Butler may take a Room Item"
    if card_id not in state.table or card(card_id).kind != pb.CARD_KIND_ROOM_ITEM:
        return "NOT_ON_TABLE", "that Room Item is not on the table"
    if not showing.characters:
        return "NO_CHARACTER", "a Room Item is played with your Mortal or Horror"
    if any(card(c).kind == pb.CARD_KIND_ROOM_ITEM for c in showing.items):
        return "ROOM_ITEM_TAKEN", "only one Room Item per round"
    return _side_refusal(showing, card(card_id).side, showing.side)


def legal(state: pb.State, seat: int) -> list[pb.Action]:
    """Every play, discard or end of turn open to the seat to act (copies of a card once)."""
    showing = state.showings[seat]
    hand = first_copies(state.hands[seat].cards)
    actions: list[pb.Action] = []
    if _has_played(showing) or not hand:
        actions.append(pb.Action(end_turn=pb.EndTurn()))
    else:
        actions += [pb.Action(discard=pb.DiscardCard(card=c)) for c in hand]
    for c in hand:
        if card(c).is_character:
            if character_refusal(state, seat, c) is None:
                actions.append(pb.Action(play_character=pb.PlayCharacter(card=c)))
            continue
        for side in SIDES:
            if item_refusal(state, seat, c, side) is None:
                actions.append(pb.Action(play_item=pb.PlayItem(card=c, side=side)))
    if seat == state.butler:
        for c in sorted(set(state.table)):
            if room_item_refusal(state, seat, c) is None:
                actions.append(pb.Action(take_room_item=pb.TakeRoomItem(card=c)))
    return actions


def _require_in_hand(state: pb.State, seat: int, card_id: int) -> None:
    hand = state.hands[seat].cards
    if card_id not in hand:
        raise IllegalAction("NOT_IN_HAND", "that card is not in your hand")
    require_first_copy(hand, card_id)


def _refuse(refusal: Refusal) -> None:
    if refusal is not None:
        raise IllegalAction(*refusal)


def play_character(state: pb.State, seat: int, action: pb.PlayCharacter) -> list[Emitted]:
    """Play a Mortal or Horror allowed on the room's floor; its Claim rolls at once."""
    _require_in_hand(state, seat, action.card)
    _refuse(character_refusal(state, seat, action.card))
    side = CHARACTER_SIDE[card(action.card).kind]
    remove_one(state.hands[seat].cards, action.card, "NOT_IN_HAND")
    state.showings[seat].side = side
    state.showings[seat].characters.append(action.card)
    return [public(played=pb.CardPlayed(seat=seat, card=action.card, side=side)),
            *_claim_roll(state, seat, action.card)]


def play_item(state: pb.State, seat: int, action: pb.PlayItem) -> list[Emitted]:
    """Play an Item from hand for a side (alone, or with your Mortal or Horror)."""
    _require_in_hand(state, seat, action.card)
    _refuse(item_refusal(state, seat, action.card, action.side))
    remove_one(state.hands[seat].cards, action.card, "NOT_IN_HAND")
    state.showings[seat].side = action.side
    state.showings[seat].items.append(action.card)
    return [public(played=pb.CardPlayed(seat=seat, card=action.card, side=action.side)),
            *_claim_roll(state, seat, action.card)]


def take_room_item(state: pb.State, seat: int, action: pb.TakeRoomItem) -> list[Emitted]:
    """The Butler plays one Room Item from the table with her Mortal or Horror."""
    _refuse(room_item_refusal(state, seat, action.card))
    remove_one(state.table, action.card, "NOT_ON_TABLE")
    showing = state.showings[seat]
    showing.items.append(action.card)
    played = pb.CardPlayed(seat=seat, card=action.card, side=showing.side, from_table=True)
    return [public(played=played)]


def discard(state: pb.State, seat: int, action: pb.DiscardCard) -> list[Emitted]:
    """Instead of playing, discard one card; that ends the turn."""
    if _has_played(state.showings[seat]):
        raise IllegalAction("ALREADY_PLAYED", "discarding replaces playing")
    _require_in_hand(state, seat, action.card)
    remove_one(state.hands[seat].cards, action.card, "NOT_IN_HAND")
    state.house_discard.append(action.card)
    return [public(discarded=pb.CardDiscarded(seat=seat, card=action.card)), *_end(state, seat)]


def end_turn(state: pb.State, seat: int, _move: pb.EndTurn) -> list[Emitted]:
    """Finish the turn; after the last player the encounter is resolved."""
    if not _has_played(state.showings[seat]) and state.hands[seat].cards:
        raise IllegalAction("MUST_PLAY_OR_DISCARD", "play a card or discard one")
    return _end(state, seat)


def _end(state: pb.State, seat: int) -> list[Emitted]:
    events = [public(turn_ended=pb.TurnEnded(seat=seat))]
    state.turns_done += 1
    if state.turns_done == state.seats:
        return events + resolve(state)
    state.turn = (seat + 1) % state.seats
    return events


def _claim_roll(state: pb.State, seat: int, card_id: int) -> list[Emitted]:
    """A card that says Claim rolls when played; on success the player may claim a visible card."""
    info = card(card_id)
    if not info.claim_target:
        return []
    with state_rng(state) as rng:
        roll = rng.roll()
    success = roll >= info.claim_roll and bool(claimable(state, seat, card_id))
    if success:
        state.phase = pb.PHASE_CLAIM
        state.claim_card = card_id
    rolled = pb.ClaimRolled(seat=seat, card=card_id, roll=roll, success=success)
    return [public(claim_rolled=rolled)]


def legal_claims(state: pb.State, seat: int) -> list[pb.Action]:
    """Claim one of the visible targets (a seat's copies of a card once), or decline."""
    targets = sorted(c for c, _ in _first_targets(state, seat))
    return [pb.Action(decline_claim=pb.DeclineClaim())] + [
        pb.Action(claim=pb.ClaimCard(card=c)) for c in targets
    ]


def claim(state: pb.State, seat: int, action: pb.ClaimCard) -> list[Emitted]:
    """Remove a visible target from the table into your spoils."""
    owners = dict(_first_targets(state, seat))
    if action.card not in owners:
        raise IllegalAction("NOT_CLAIMABLE", "that card is not a visible target of this claim")
    owner = owners[action.card]
    remove_one(state.showings[owner].characters, action.card, "NOT_CLAIMABLE")
    state.spoils[seat].cards.append(action.card)
    _close_claim(state)
    return [public(claimed=pb.CardClaimed(seat=seat, card=action.card, from_seat=owner))]


def _first_targets(state: pb.State, seat: int) -> list[tuple[int, int]]:
    """The claimable (card, owner) pairs, one per owner and card name."""
    targets = claimable(state, seat, state.claim_card)
    firsts = {o: first_copies(t for t, owner in targets if owner == o) for _, o in targets}
    return [(c, owner) for c, owner in targets if c in firsts[owner]]


def decline_claim(state: pb.State, seat: int, _move: pb.DeclineClaim) -> list[Emitted]:
    """Let a successful Claim roll go unused."""
    _close_claim(state)
    return [public(claim_declined=pb.ClaimDeclined(seat=seat))]


def _close_claim(state: pb.State) -> None:
    state.phase = pb.PHASE_PLAY
    state.claim_card = 0
