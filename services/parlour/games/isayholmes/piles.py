"""Drawing, reshuffling and seat order: the piles on the table."""

from __future__ import annotations

from parlour.engine.game import Emitted, told
from parlour.engine.rng import state_rng
from parlour.engine.zones import take_top
from parlour.games.isayholmes.sequence import sequence_index
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT


def left(state: pb.State, seat: int) -> int:
    """The seat to the left (play passes left)."""
    return (seat + 1) % state.seats


def right(state: pb.State, seat: int) -> int:
    """The seat to the right (the previous player)."""
    return (seat - 1) % state.seats


def reshufflable(state: pb.State) -> int:
    """How many Discard Pile cards below the card in force could go back into the Draw Pile."""
    below = state.discard_pile[: sequence_index(state.discard_pile)]
    return len(below) - (AFOOT in below)


def can_draw(state: pb.State) -> bool:
    """Whether a card can be drawn (after reshuffling the Discard Pile if need be)."""
    return bool(state.draw_pile) or reshufflable(state) > 0


def reshuffle(state: pb.State, out: list[Emitted], *, plot_thickens: bool) -> None:
    """Shuffle the Discard Pile below the card in force into the Draw Pile.

    A Plot Thickens on top goes in too. The card in force and any cards above
    it stay as the new Discard Pile; The Game is Afoot! is set aside (Rulebook 2).
    """
    below = [state.discard_pile.pop()] if plot_thickens else []
    start = sequence_index(state.discard_pile)
    below += state.discard_pile[:start]
    del state.discard_pile[:start]
    if AFOOT in below:
        below.remove(AFOOT)
        state.set_aside.append(AFOOT)
    state.draw_pile.extend(below)
    with state_rng(state) as rng:
        rng.shuffle(state.draw_pile)
    out.append(
        Emitted(
            pb.Event(
                reshuffled=pb.Reshuffled(
                    draw_pile=len(state.draw_pile), plot_thickens=plot_thickens
                )
            )
        )
    )


def draw(state: pb.State, n: int, out: list[Emitted]) -> list[int]:
    """Take up to n cards from the Draw Pile, reshuffling the discards when it runs out."""
    cards = take_top(state.draw_pile, n)
    if len(cards) < n and reshufflable(state):
        reshuffle(state, out, plot_thickens=False)
        cards += take_top(state.draw_pile, n - len(cards))
    return cards


def draw_into_hand(
    state: pb.State, seat: int, n: int, penalty: int, out: list[Emitted]
) -> list[int]:
    """Draw up to n cards into a seat's hand, telling everyone how many and the seat which."""
    cards = draw(state, n, out)
    state.hands[seat].cards.extend(cards)
    out += told(pb.Event(drawn=pb.CardsDrawn(seat=seat, count=len(cards), penalty=penalty)), [
        (pb.Event(drawn=pb.CardsDrawn(seat=seat, count=len(cards), cards=sorted(cards),
                                      penalty=penalty)), [seat] if cards else [])])
    return cards
