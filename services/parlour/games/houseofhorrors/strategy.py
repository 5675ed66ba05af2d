"""Greedy bot heuristic for House of Horrors: the most hourglasses wins, so claim and take
spoils whenever offered, put characters and items into battles, and end the turn last."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

PREFERENCE = (
    "claim", "take_spoil", "take_room_item", "play_character", "play_item", "declare_battle",
    "choose_room", "give_spoil", "discard", "end_turn", "decline_claim",
)


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    return best(actions, lambda a: kind_rank(PREFERENCE, a), rng)
