"""House of Horrors in words: action labels, event lines and the table (issue 24)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from parlour.engine.text import seat
from parlour.games.houseofhorrors.card_text import (
    BATTLE_NAMES,
    SIDE_NAMES,
    brief,
    plural,
    room,
    with_hourglasses,
)
from parlour.games.houseofhorrors.catalogue import card, card_name
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb
from parlour.games.houseofhorrors.view_text import describe_view

__all__ = ["describe_action", "describe_event", "describe_view", "label_actions"]

ABILITY_NAMES = {pb.ABILITY_PSYCHIC: "Psychic", pb.ABILITY_STRENGTH: "Strength",
                 pb.ABILITY_TERROR: "Terror"}


def _cards(ids: Iterable[int]) -> str:
    return ", ".join(card_name(c) for c in ids) or "nothing"


def _battle(battle: int) -> str:
    return "a Bloodbath" if battle == pb.BATTLE_BLOODBATH else f"a {BATTLE_NAMES[battle]} battle"


def _side(side: int) -> str:
    return SIDE_NAMES.get(side, "no side")


def describe_action(action: pb.Action) -> str:
    """The action out of context: 'plays Vampire', 'gives Dawn to {seat:2}'."""
    kind = action.WhichOneof("kind")
    a = getattr(action, kind) if kind else None
    lines = {
        "choose_room": lambda: f"chooses {room(a.room)}",
        "declare_battle": lambda: f"declares {_battle(a.battle)}",
        "play_character": lambda: f"plays {card_name(a.card)}",
        "play_item": lambda: f"plays {card_name(a.card)} for {_side(a.side)}",
        "take_room_item": lambda: f"takes {card_name(a.card)} from the table",
        "discard": lambda: f"discards {card_name(a.card)}",
        "end_turn": lambda: "ends the turn",
        "claim": lambda: f"claims {card_name(a.card)}",
        "decline_claim": lambda: "claims nothing",
        "take_spoil": lambda: f"takes {card_name(a.card)} as a spoil",
        "give_spoil": lambda: f"gives {card_name(a.card)} to {seat(a.seat)}",
    }
    return lines[kind]() if kind else "does nothing"


def _owner(view: pb.View, card_id: int) -> int:
    return next(s for s, shown in enumerate(view.showings) if card_id in shown.characters)


def _label(view: pb.View, viewer: int, action: pb.Action) -> str:
    kind = action.WhichOneof("kind")
    a = getattr(action, kind)
    if kind == "choose_room":
        return f"choose {room(a.room)}"
    if kind == "declare_battle":
        return f"declare {_battle(a.battle)}"
    if kind == "play_character":
        return f"play {brief(a.card, view.battle)}"
    if kind == "play_item":
        return f"play {brief(a.card, view.battle)} for {_side(a.side)}"
    if kind == "take_room_item":
        return f"take {brief(a.card, view.battle)} from the table"
    if kind == "discard":
        return f"discard {card_name(a.card)}"
    if kind == "end_turn":
        shown = view.showings[viewer]
        return "end your turn" if shown.characters or shown.items else "pass: your hand is empty"
    if kind == "claim":
        return f"claim {seat(_owner(view, a.card))}'s {card_name(a.card)}"
    if kind == "decline_claim":
        return "claim nothing"
    if kind == "take_spoil":
        return f"take {with_hourglasses(a.card)} for yourself"
    return f"give {with_hourglasses(a.card)} to {seat(a.seat)}"


def label_actions(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action as `viewer` reads it: the card with its value in the battle declared,
    the Room and its floor, the seat; copies of a card are offered once (copies.py)."""
    return [_label(view, viewer, a) for a in actions]


def _claim_rolled(e: pb.ClaimRolled) -> str:
    need = card(e.card).claim_roll
    head = f"{seat(e.seat)} rolled {e.roll} for {card_name(e.card)}'s Claim ({need}+ needed)"
    if e.success:
        return f"{head} and may claim a card"
    return f"{head}: no target is visible" if e.roll >= need else f"{head}: no claim"


def _dice(e: pb.DiceRolled) -> str:
    rolls = " and ".join(str(r) for r in e.rolls)
    return f"{seat(e.seat)} rolled {rolls} for {card_name(e.card)}'s {ABILITY_NAMES[e.ability]}"


def _resolved(e: pb.EncounterResolved) -> str:
    if not e.winner:
        return (f"Mortals {e.mortal_total}, Horrors {e.horror_total}: a tie; the cards went "
                "under the Room")
    won, lost = sorted((e.mortal_total, e.horror_total), reverse=True)
    spoils = f"spoils: {_cards(e.spoils)}" if e.spoils else "no spoils"
    leader = f"{seat(e.leader)} had the largest total ({e.seat_totals[e.leader]})"
    return f"{_side(e.winner)} won, {won} to {lost}; {spoils}; {leader}"


def _room_chosen(e: pb.RoomChosen) -> str:
    line = f"{seat(e.seat)} chose {room(e.room)}"
    line += f" and discarded {room(e.discarded)}" if e.discarded else ""
    return line + (f" (revealed: {_cards(e.revealed)})" if e.revealed else "")


def _played(e: pb.CardPlayed) -> str:
    verb, where = ("took", " from the table") if e.from_table else ("played", "")
    return f"{seat(e.seat)} {verb} {card_name(e.card)}{where} for {_side(e.side)}"


def _drawn(e: pb.CardsDrawn) -> str:
    line = f"{seat(e.seat)} drew {plural(e.count, 'card')}"
    return line + (f": {_cards(e.cards)}" if e.cards else "")


def _ended(e: pb.GameEnded) -> str:
    scores = ", ".join(f"{seat(s)} {plural(n, 'hourglass')}" for s, n in enumerate(e.scores))
    won = " and ".join(seat(w) for w in e.winners)
    return f"the game ended ({e.reason}): {scores}; {won} won"


def describe_event(event: pb.Event) -> str:
    """One past-tense line: '{seat:1} played Psychic Kid for the Mortals'."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    lines = {
        "revealed": lambda: f"the Butler revealed {room(e.card)}",
        "reshuffled": lambda: (
            f"the {'Room' if e.room_deck else 'House of Horrors'} deck ran out: its discard pile "
            f"was shuffled into a new deck of {plural(e.count, 'card')}"
        ),
        "room_chosen": lambda: _room_chosen(e),
        "battle_declared": lambda: f"{seat(e.seat)} declared {_battle(e.battle)}",
        "played": lambda: _played(e),
        "discarded": lambda: f"{seat(e.seat)} discarded {card_name(e.card)}",
        "turn_ended": lambda: f"{seat(e.seat)} ended the turn",
        "claim_rolled": lambda: _claim_rolled(e),
        "claimed": lambda: f"{seat(e.seat)} claimed {card_name(e.card)} from {seat(e.from_seat)}",
        "claim_declined": lambda: f"{seat(e.seat)} claimed nothing",
        "dice": lambda: _dice(e),
        "resolved": lambda: _resolved(e),
        "spoil": lambda: f"{card_name(e.card)} went to {seat(e.seat)} as a spoil",
        "drawn": lambda: _drawn(e),
        "butler": lambda: f"{seat(e.seat)} became the Butler",
        "ended": lambda: _ended(e),
    }
    return lines[kind]() if kind else "nothing happened"
