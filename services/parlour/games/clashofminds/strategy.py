"""Greedy bot heuristic for Clash of Minds: influence wins threads, so add support and play
influence before anything else (a mode ranks its own moves among these); pass or end the
turn last."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.clashofminds.hooks import words
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

PREFERENCE = (
    "add_support", "play_influence", "use_influence", "place_action_card",
    "reveal_action_card", "target_card", "target_thread", "move_card", "remove_support",
    "place_setup_card", "arrange_crime", "keep_hand",
    "discard_card", "skip_action", "draw_influence", "pass_mandatory", "end_turn",
)


def preference() -> list[str]:
    """The base ranking with each mode's kinds placed just before the kind it names."""
    order = list(PREFERENCE)
    for kind, before in words("preference").items():
        order.insert(order.index(before), kind)
    return order


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    order = preference()
    return best(actions, lambda a: kind_rank(order, a), rng)
