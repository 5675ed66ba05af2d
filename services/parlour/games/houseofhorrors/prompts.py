"""What each decision is for, in words (issue 43): the prompt above a seat's choices, in
the rulebook's terms, from the seat's View alone."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.text import seat
from parlour.games.houseofhorrors.card_text import BATTLE_NAMES, room
from parlour.games.houseofhorrors.catalogue import card_name
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def _battle(view: pb.View) -> str:
    if view.battle == pb.BATTLE_BLOODBATH:
        return "in this Bloodbath Psychic, Strength and Terror all count"
    return f"only {BATTLE_NAMES[view.battle]} values count" if view.battle in BATTLE_NAMES else ""


def _play(view: pb.View, me: int, kinds: set[str]) -> str:
    where = room(view.room) if view.room else "the Room"
    counts = _battle(view)
    how = "two Mortals or two Horrors (it is Midnight)" if view.midnight else (
        "one Mortal or Horror")
    if "end_turn" in kinds and (view.showings[me].characters or view.showings[me].items):
        more = "a second Mortal or Horror, or Items" if "play_character" in kinds else "Items"
        doing = f"Play more for your side ({more}), or end your turn"
    elif "end_turn" in kinds:
        doing = "Your hand is empty: pass"
    else:
        doing = (f"Your turn: play {how} that may go to {where}, with any Items, or "
                 "discard one card instead")
    if "take_room_item" in kinds:
        doing += "; as the Butler you may also take a Room Item from the table"
    return f"{doing}{f' ({counts})' if counts else ''}."


def _spoils(view: pb.View, kinds: set[str]) -> str:
    n = len(view.spoils_pool)
    pool = "the spoil" if n == 1 else f"one of the {n} spoils"
    if "take_spoil" in kinds:
        return (f"You lead the winning side: take {pool} for yourself first, then hand one "
                "to each ally.")
    allies = " or ".join(seat(s) for s in view.spoils_owed)
    return f"Hand {pool} to an ally still owed one ({allies})."


def prompt(view: pb.View, me: int, actions: Sequence[pb.Action]) -> str:
    """What the seat's decision is for, one sentence."""
    kinds = {a.WhichOneof("kind") for a in actions}
    phase = view.phase
    if phase == pb.PHASE_CHOOSE_ROOM:
        rooms = " or ".join(room(r) for r in view.revealed_rooms) or "a Room"
        return (f"You are the Butler: choose the Room of this round's encounter ({rooms}); "
                "the other is discarded.")
    if phase == pb.PHASE_DECLARE:
        where = room(view.room) if view.room else "the Room"
        return (f"You are the Butler: declare the battle in {where}: Psychic, Strength, "
                "Terror, or a Bloodbath where all three count.")
    if phase == pb.PHASE_PLAY:
        return _play(view, me, kinds)
    if phase == pb.PHASE_CLAIM:
        return (f"Your {card_name(view.claim_card)} rolled well: claim a visible card for "
                "your spoils, or claim nothing.")
    if phase == pb.PHASE_SPOILS:
        return _spoils(view, kinds)
    return ""
