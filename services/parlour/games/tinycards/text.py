"""Tiny Cards in words: action labels, event lines and the table."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.text import item, seat, section, table
from parlour.engine.v1.table_pb2 import TableText
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def describe_action(action: pb.Action) -> str:
    """'play the 7' or 'draw a card'."""
    return f"play the {action.play.card}" if action.HasField("play") else "draw a card"


def label_actions(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action's label (every card in a hand is distinct, so labels are)."""
    return [describe_action(a) for a in actions]


def describe_event(event: pb.Event) -> str:
    """One past-tense line per event."""
    kind = event.WhichOneof("kind")
    if kind == "played":
        return f"{seat(event.played.seat)} played the {event.played.card}"
    if kind == "drawn":
        card = f" (the {event.drawn.card})" if event.drawn.card else ""
        return f"{seat(event.drawn.seat)} drew a card{card}"
    scores = ", ".join(f"{seat(s)} {v}" for s, v in enumerate(event.ended.scores))
    return f"the game ended: {scores}"


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(str(c) for c in cards) or "none"


def describe_view(view: pb.View, viewer: int | None) -> TableText:
    """Your hand, then every seat's hand size and played cards, then the deck."""
    seats = [
        item(
            f"{seat(s)}: {size} in hand, played {_cards(view.played[s].cards)} "
            f"(scores {sum(view.played[s].cards)})" + (" ← to play" if s == view.turn
                                                        and not view.finished else "")
        )
        for s, size in enumerate(view.hand_sizes)
    ]
    return table(
        section("Your hand", [_cards(view.hand)] if viewer is not None else []),
        section("Seats", seats),
        section("Deck", [f"{view.deck_size} cards left"]),
    )
