"""Setup: Preparing the Crime and Establishing the Course of Events, then the first round."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction, InvalidOptions
from parlour.engine.rng import Rng, state_rng
from parlour.games.clashofminds.catalogue import (
    CATALOGUE,
    CRIME_THREAD_TYPES,
    DEDUCTION_TOKENS,
    DISTRACTION_TOKENS,
    HOLMES,
    MORIARTY,
    THREADS,
)
from parlour.games.clashofminds.hooks import rules
from parlour.games.clashofminds.rounds import start_round
from parlour.games.clashofminds.table import only
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

SEATS = 2


def new_state(options: pb.Options, seats: int, seed: int) -> pb.State:
    """Setup: shuffled decks, the clock at 12 o'clock, Moriarty's three drawn Crime Plan Cards."""
    if seats != SEATS:
        raise InvalidOptions("seats", f"Clash of Minds is for exactly 2 players, not {seats}")
    state = pb.State(seats=SEATS, rng=Rng.from_seed(seed).state, phase=pb.PHASE_PREPARING_CRIME,
                     first_player=HOLMES, turn=MORIARTY, deduction_supply=DEDUCTION_TOKENS,
                     distraction_supply=DISTRACTION_TOKENS)
    state.options.CopyFrom(options)
    with state_rng(state) as rng:
        state.site_deck.extend(sorted(CATALOGUE.sites))
        rng.shuffle(state.site_deck)
        for seat in (HOLMES, MORIARTY):
            player = state.players.add()
            player.deck.extend(CATALOGUE.deck())
            rng.shuffle(player.deck)
            rules(state).deal(player, seat, rng)
        for kind in CRIME_THREAD_TYPES:
            cards = CATALOGUE.crime_of_type(kind)
            state.crime_drawn.append(cards.pop(rng.below(len(cards))))
            state.crime_box.extend(cards)
    state.crime_box[:] = sorted(state.crime_box)
    for _ in range(THREADS):
        state.threads.add().sides.extend([pb.Side(), pb.Side()])
    return state


def arrangements(state: pb.State) -> list[pb.Action]:
    """Every order Moriarty may give the three drawn Crime Plan Cards."""
    a, b, c = state.crime_drawn
    orders = [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)]
    return [pb.Action(arrange_crime=pb.ArrangeCrime(order=order)) for order in orders]


def arrange_crime(state: pb.State, action: pb.ArrangeCrime) -> list[Emitted]:
    """Preparing the Crime: the cards go face down into Crime Threads 1, 2, 3 in
    the chosen order."""
    if sorted(action.order) != sorted(state.crime_drawn):
        raise IllegalAction("NOT_THE_DRAWN_CARDS", "arrange exactly the three drawn cards")
    for thread, card in zip(state.threads, action.order, strict=True):
        thread.crime_card = card
    del state.crime_drawn[:]
    events = [
        Emitted(pb.Event(crime_arranged=pb.CrimeArranged()), hidden_from=only(MORIARTY)),
        Emitted(pb.Event(crime_arranged=pb.CrimeArranged(order=action.order)), to=only(MORIARTY)),
    ]
    return events + start_round(state)
