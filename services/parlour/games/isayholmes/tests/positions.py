"""Build exact positions and play moves on them, for scenario tests."""

from __future__ import annotations

from collections import Counter

from parlour.engine import runtime
from parlour.engine.game import Emitted
from parlour.engine.rng import Rng
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.catalogue import DECK
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

A = pb.Action


def position(
    hands: list[list[int]],
    *,
    discard: tuple[int, ...] = (pb.CARD_THE_GAME_IS_AFOOT,),
    draw_top: tuple[int, ...] = (),
    set_aside: tuple[int, ...] = (),
    location: int = pb.REGION_LONDON,
    turn: int = 0,
    rounds: int = 1,
    scores: list[int] | None = None,
    seed: int = 1,
) -> pb.State:
    """A state in PHASE_TURN with these hands; every other card lies in the Draw Pile.

    `draw_top` lists the next cards to be drawn, first drawn first.
    """
    used = Counter(discard) + Counter(draw_top) + Counter(set_aside)
    for hand in hands:
        used.update(hand)
    rest = Counter(DECK) - used
    assert not used - Counter(DECK), f"more copies than the deck holds: {used - Counter(DECK)}"
    state = pb.State(
        seats=len(hands),
        rng=Rng.from_seed(seed).state,
        rounds=rounds,
        round=1,
        draw_pile=sorted(rest.elements()) + list(reversed(draw_top)),
        discard_pile=discard,
        set_aside=set_aside,
        location=location,
        scores=scores or [0] * len(hands),
        phase=pb.PHASE_TURN,
        turn=turn,
        passing=[0] * len(hands),
    )
    for hand in hands:
        state.hands.add(cards=hand)
        state.peeks.add()
    GAME.check_conservation(state)
    return state


def empty_draw_pile(state: pb.State) -> None:
    """Move the whole Draw Pile out of play (for positions that must not draw)."""
    state.set_aside.extend(state.draw_pile)
    del state.draw_pile[:]


def act(state: pb.State, seat: int, action: pb.Action) -> tuple[pb.State, list[Emitted]]:
    """Apply a move through the runtime (which checks the actor), checking conservation."""
    after, events = runtime.apply(GAME, state, seat, action)
    GAME.check_conservation(after)
    return after, events


def play(card: int) -> pb.Action:
    return A(play=pb.PlayCard(card=card))


def target(seat: int) -> pb.Action:
    return A(target=pb.ChooseTarget(seat=seat))


def defend(card: int) -> pb.Action:
    return A(defend=pb.Defend(card=card))


def decline() -> pb.Action:
    return A(decline=pb.Decline())


def draw() -> pb.Action:
    return A(draw=pb.DrawCard())


def legal(state: pb.State, seat: int) -> list[pb.Action]:
    """The seat's legal actions through the runtime."""
    return runtime.legal_actions(GAME, state, seat)


def legal_set(state: pb.State, seat: int) -> set[bytes]:
    """The seat's legal actions as a set of bytes, for order-free comparisons."""
    return {runtime.serialize(a) for a in legal(state, seat)}


def actions(*moves: pb.Action) -> set[bytes]:
    """Some actions as a set of bytes, to compare with legal_set()."""
    return {runtime.serialize(a) for a in moves}


def kinds(events: list[Emitted], kind: str, viewer: int | None = None) -> list:
    """The payloads of one kind of event visible to `viewer` (None: only public events)."""
    return [
        getattr(e.event, kind)
        for e in events
        if e.event.WhichOneof("kind") == kind and e.visible_to(viewer)
    ]


def hand(state: pb.State, seat: int) -> list[int]:
    """A seat's hand, sorted."""
    return sorted(state.hands[seat].cards)
