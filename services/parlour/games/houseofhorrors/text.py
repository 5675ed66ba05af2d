"""One readable line per action and per event, for logs and the demo feed."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.games.houseofhorrors.catalogue import card_name
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

BATTLE_NAMES = {
    pb.BATTLE_PSYCHIC: "Psychic",
    pb.BATTLE_STRENGTH: "Strength",
    pb.BATTLE_TERROR: "Terror",
    pb.BATTLE_BLOODBATH: "Bloodbath",
}
SIDE_NAMES = {
    pb.SIDE_UNSPECIFIED: "nobody",
    pb.SIDE_MORTAL: "the Mortals",
    pb.SIDE_HORROR: "the Horrors",
}
ABILITY_NAMES = {
    pb.ABILITY_PSYCHIC: "Psychic",
    pb.ABILITY_STRENGTH: "Strength",
    pb.ABILITY_TERROR: "Terror",
}


def _cards(ids: Iterable[int]) -> str:
    return ", ".join(card_name(c) for c in ids) or "nothing"


def describe_action(action: pb.Action) -> str:
    """e.g. 'plays Vampire', 'gives Dawn to seat 2'."""
    kind = action.WhichOneof("kind")
    a = getattr(action, kind) if kind else None
    lines = {
        "choose_room": lambda: f"chooses {card_name(a.room)}",
        "declare_battle": lambda: f"declares {BATTLE_NAMES.get(a.battle, '?')}",
        "play_character": lambda: f"plays {card_name(a.card)}",
        "play_item": lambda: f"plays {card_name(a.card)} for {SIDE_NAMES.get(a.side, '?')}",
        "take_room_item": lambda: f"takes {card_name(a.card)} from the table",
        "discard": lambda: f"discards {card_name(a.card)}",
        "end_turn": lambda: "ends the turn",
        "claim": lambda: f"claims {card_name(a.card)}",
        "decline_claim": lambda: "declines the claim",
        "take_spoil": lambda: f"takes {card_name(a.card)} as a spoil",
        "give_spoil": lambda: f"gives {card_name(a.card)} to seat {a.seat}",
    }
    return lines[kind]() if kind else "does nothing"


def describe_event(event: pb.Event) -> str:
    """e.g. 'seat 1 played Psychic Kid for the Mortals'."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    lines = {
        "revealed": lambda: f"the Butler reveals {card_name(e.card)}",
        "reshuffled": lambda: (
            f"the {'Room' if e.room_deck else 'House of Horrors'} deck is rebuilt ({e.count} cards)"
        ),
        "room_chosen": lambda: f"seat {e.seat} chose {card_name(e.room)}"
        + (f" and discarded {card_name(e.discarded)}" if e.discarded else "")
        + (f" (revealed: {_cards(e.revealed)})" if e.revealed else ""),
        "battle_declared": lambda: f"seat {e.seat} declared {BATTLE_NAMES.get(e.battle, '?')}",
        "played": lambda: f"seat {e.seat} "
        + ("took" if e.from_table else "played")
        + f" {card_name(e.card)}"
        + (" from the table" if e.from_table else "")
        + f" for {SIDE_NAMES[e.side]}",
        "discarded": lambda: f"seat {e.seat} discarded {card_name(e.card)}",
        "turn_ended": lambda: f"seat {e.seat} ended the turn",
        "claim_rolled": lambda: f"seat {e.seat} rolled {e.roll} to claim with {card_name(e.card)}"
        + (" and may claim" if e.success else " and claims nothing"),
        "claimed": lambda: f"seat {e.seat} claimed {card_name(e.card)} from seat {e.from_seat}",
        "claim_declined": lambda: f"seat {e.seat} declined to claim",
        "dice": lambda: f"seat {e.seat} rolled {list(e.rolls)} for {card_name(e.card)}'s "
        f"{ABILITY_NAMES.get(e.ability, '?')}",
        "resolved": lambda: _resolved(e),
        "spoil": lambda: f"seat {e.seat} took {card_name(e.card)} as a spoil",
        "drawn": lambda: f"seat {e.seat} drew {e.count} card(s)"
        + (f": {_cards(e.cards)}" if e.cards else ""),
        "butler": lambda: f"seat {e.seat} is the Butler",
        "ended": lambda: f"game over ({e.reason}): hourglasses {list(e.scores)}, "
        f"winners {list(e.winners)}",
    }
    return lines[kind]() if kind else "nothing happened"


def _resolved(e: pb.EncounterResolved) -> str:
    score = f"Mortals {e.mortal_total}, Horrors {e.horror_total}"
    if not e.winner:
        return f"{score}: a tie, the cards go under the Room"
    return f"{score}: {SIDE_NAMES[e.winner]} win; spoils {_cards(e.spoils)}"
