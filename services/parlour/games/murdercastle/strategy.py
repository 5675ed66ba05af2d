"""Greedy bot heuristic for Murder Castle: evidence collected wins, so collect whenever
possible, then explore and move on; play Castle Junction rewards and Holmes' Ability Card when
it can; pass last, and never propose discarding a Castle Junction objective. The Holmes seat
(Play as Holmes) places every cube and card it can and sends Holmes where the most
investigators are."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.murdercastle.hooks import MODES
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PREFERENCE = (
    "collect", "explore", "reveal", "junction", "holmes_ability", "play", "ability", "move",
    "cube", "select", "rotate", "place", "pick", "target", "junction_target", "hide", "give",
    "draw", "turn_wheel", "choose_ability", "vote", "discard", "panel", "assign", "pass",
    "propose",
)


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    return best(actions, lambda a: (kind_rank(PREFERENCE, a), _crowd(view, seat, a)), rng)


def _crowd(view: pb.View, seat: int, action: pb.Action) -> int:
    """For the Holmes seat choosing a room: how many investigators are there."""
    options = view.options
    if action.WhichOneof("kind") != "place":
        return 0
    if seat != MODES.rules(options).holmes_seat_of(options):
        return 0
    return sum(p.place == action.place.place for p in view.players)
