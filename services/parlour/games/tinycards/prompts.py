"""What each decision is for, in words: the prompt above a seat's choices, from its View."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def prompt(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> str:
    """Your turn, and what may be done with it."""
    draw = " or draw the top card of the deck" if any(a.HasField("draw") for a in actions) else ""
    return f"Your turn: play a card from your hand (it scores its number){draw}."
