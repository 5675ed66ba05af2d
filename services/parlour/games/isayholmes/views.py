"""What each seat may see, and states that differ only in what it may not."""

from __future__ import annotations

from parlour.engine.game import copy_message
from parlour.engine.rng import Rng
from parlour.engine.zones import take_top
from parlour.games.isayholmes.catalogue import DECK
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def view(state: pb.State, seat: int | None) -> pb.View:
    """Own hand, own pending pass and own last peek; everything else only as public facts."""
    result = pb.View(
        hand_sizes=[len(h.cards) for h in state.hands],
        draw_pile_size=len(state.draw_pile),
        discard_pile=state.discard_pile,
        set_aside=state.set_aside,
        location=state.location,
        scores=state.scores,
        round=state.round,
        rounds=state.rounds,
        phase=state.phase,
        turn=state.turn,
        effect=state.effect,
        pass_chosen=[card != pb.CARD_UNSPECIFIED for card in state.passing],
        chain=state.chain,
        last_result=state.last_result,
        idle_turns=state.idle_turns,
    )
    if seat is not None:
        result.hand[:] = sorted(state.hands[seat].cards)
        result.passing = state.passing[seat]
        result.peek.CopyFrom(state.peeks[seat])
    return result


def resample_hidden(state: pb.State, seat: int | None, rng: Rng) -> pb.State:
    """Shuffle every card `seat` cannot see (Draw Pile, other hands, others' chosen passes)
    among the places it cannot see, keeping each place's size; invent others' peeks."""
    other = copy_message(state)
    others = [s for s in range(state.seats) if s != seat]
    pool = list(other.draw_pile)
    for s in others:
        pool += other.hands[s].cards
        if other.passing[s]:
            pool.append(other.passing[s])
    quick_shuffle(pool, rng)
    other.draw_pile[:] = take_top(pool, len(state.draw_pile))
    for s in others:
        other.hands[s].cards[:] = take_top(pool, len(state.hands[s].cards))
        if other.passing[s]:
            (other.passing[s],) = take_top(pool)
        peek = other.peeks[s]
        peek.cards[:] = [rng.choice(DECK) for _ in peek.cards]
        if peek.source:
            peek.target = rng.below(state.seats)
    return other


def quick_shuffle(items: list[int], rng: Rng) -> None:
    """Fisher-Yates taking four 16-bit draws from each 64-bit output (a near-uniform shuffle,
    plenty for building a twin state, at a quarter of the RNG calls)."""
    bits = 0
    for n, i in enumerate(range(len(items) - 1, 0, -1)):
        if n % 4 == 0:
            bits = rng.next64()
        j = (bits & 0xFFFF) % (i + 1)
        bits >>= 16
        items[i], items[j] = items[j], items[i]
