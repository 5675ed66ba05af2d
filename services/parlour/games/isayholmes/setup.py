"""Setup (Rulebook 3) and the opening card (Rulebook 4): a new match and each round's deal."""

from __future__ import annotations

from parlour.engine.game import Emitted, InvalidOptions, told
from parlour.engine.rng import Rng, state_rng
from parlour.engine.zones import remove_one, take_top
from parlour.games.isayholmes.catalogue import HAND_SIZE, deal_out_stack, draw_pile_cards
from parlour.games.isayholmes.piles import AFOOT, left
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

MIN_SEATS, MAX_SEATS = 3, 8
DEFAULT_ROUNDS = 3
MAX_ROUNDS = 10


def new_state(options: pb.Options, seats: int, seed: int) -> pb.State:
    """A match of `options.rounds` rounds (0: 3) for 3 to 8 players, its first round dealt."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("seats", f"I Say, Holmes! takes 3 to 8 players, not {seats}")
    rounds = options.rounds or DEFAULT_ROUNDS
    if rounds > MAX_ROUNDS:
        raise InvalidOptions("rounds", f"at most {MAX_ROUNDS} rounds, not {rounds}")
    state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, rounds=rounds, scores=[0] * seats)
    start_round(state, 1, [])
    return state


def start_round(state: pb.State, number: int, out: list[Emitted]) -> None:
    """Deal six cards each from the Deal Out Stack; the holder of The Game is Afoot! opens."""
    seats = state.seats
    stack = list(deal_out_stack(seats))
    rest = list(draw_pile_cards(seats))
    with state_rng(state) as rng:
        rng.shuffle(stack)
        hands = [take_top(stack, HAND_SIZE) for _ in range(seats)]
        rest += stack
        rng.shuffle(rest)
    state.round = number
    del state.hands[:]
    for hand in hands:
        state.hands.add(cards=hand)
    state.draw_pile[:] = rest
    del state.discard_pile[:]
    del state.set_aside[:]
    state.location = pb.REGION_LONDON
    state.passing[:] = [pb.CARD_UNSPECIFIED] * seats
    state.ClearField("effect")
    state.ClearField("chain")
    del state.peeks[:]
    for _ in range(seats):
        state.peeks.add()
    state.idle_turns = 0
    opener = next(s for s in range(seats) if AFOOT in state.hands[s].cards)
    remove_one(state.hands[opener].cards, AFOOT)
    state.discard_pile.append(AFOOT)
    state.turn = left(state, opener)
    state.phase = pb.PHASE_TURN
    out += told(pb.Event(round_started=pb.RoundStarted(round=number, opener=opener)), [
        (pb.Event(round_started=pb.RoundStarted(round=number, opener=opener,
                                                hand=sorted(state.hands[seat].cards))), [seat])
        for seat in range(seats)])
