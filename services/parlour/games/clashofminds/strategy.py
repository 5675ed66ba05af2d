"""Greedy bot heuristic for Clash of Minds: influence wins threads, so activate Agents, add
support and play influence before anything else; pass or end the turn last."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

PREFERENCE = (
    "activate_agent", "add_support", "play_influence", "use_influence", "place_action_card",
    "reveal_action_card", "target_card", "target_thread", "move_card", "remove_support",
    "keep_agent", "replace_agent", "place_setup_card", "arrange_crime", "keep_hand",
    "discard_card", "skip_action", "draw_influence", "pass_mandatory", "end_turn",
)


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    return best(actions, lambda a: kind_rank(PREFERENCE, a), rng)
