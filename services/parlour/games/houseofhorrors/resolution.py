"""Resolution: roll the '?' dice, total each side, then the spoils or a tie."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.engine.rng import Rng, state_rng
from parlour.games.houseofhorrors.catalogue import ABILITIES, card
from parlour.games.houseofhorrors.decks import discard
from parlour.games.houseofhorrors.effects import COUNTED, item_bonus
from parlour.games.houseofhorrors.events import public
from parlour.games.houseofhorrors.rounds import after_tie
from parlour.games.houseofhorrors.spoils import hand_out
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def turn_order(state: pb.State) -> list[int]:
    """Seats in playing order this round: the Butler, then clockwise."""
    return [(state.butler + step) % state.seats for step in range(state.seats)]


def resolve(state: pb.State) -> list[Emitted]:
    """Everyone has played: roll dice, find the winning side and set out the spoils."""
    counted = COUNTED[state.battle]
    events: list[Emitted] = []
    side_totals = {pb.SIDE_MORTAL: 0, pb.SIDE_HORROR: 0}
    with state_rng(state) as rng:
        for seat in turn_order(state):
            showing = state.showings[seat]
            showing.total = _seat_total(seat, showing, counted, rng, events)
            if showing.side:
                side_totals[showing.side] += showing.total
    mortal, horror = side_totals[pb.SIDE_MORTAL], side_totals[pb.SIDE_HORROR]
    if mortal == horror:
        return events + _tie(state, mortal)
    winner = pb.SIDE_MORTAL if mortal > horror else pb.SIDE_HORROR
    return events + _win(state, winner, mortal, horror)


def _seat_total(
    seat: int, showing: pb.Showing, counted: tuple[int, ...], rng: Rng, events: list[Emitted]
) -> int:
    total = 0
    for c in showing.characters:
        for index in counted:
            fixed, dice = card(c).values[index]
            total += fixed
            if dice:
                rolls = [rng.roll() for _ in range(dice)]
                total += sum(rolls)
                events.append(public(dice=pb.DiceRolled(
                    seat=seat, card=c, ability=ABILITIES[index], rolls=rolls)))
    with_mage = any(card(c).mage for c in showing.characters)
    return total + sum(item_bonus(card(c), counted, with_mage) for c in showing.items)


def _tie(state: pb.State, total: int) -> list[Emitted]:
    """All played cards go under the Room; the same Room is fought again."""
    for showing in state.showings:
        under = state.under_mortal if showing.side == pb.SIDE_MORTAL else state.under_horror
        under.extend(showing.characters)
        under.extend(showing.items)
    totals = [s.total for s in state.showings]
    _clear_showings(state)
    resolved = pb.EncounterResolved(mortal_total=total, horror_total=total, seat_totals=totals)
    return [public(resolved=resolved), *after_tie(state)]


def _win(state: pb.State, winner: int, mortal: int, horror: int) -> list[Emitted]:
    """Winners' cards are recycled; losers' hourglass cards and unused Room cards become spoils."""
    order = turn_order(state)
    winning, losing = [], []
    for seat in order:
        showing = state.showings[seat]
        played = [*showing.characters, *showing.items]
        (winning if showing.side == winner else losing).extend(played)
    under_win, under_lose = (
        (state.under_mortal, state.under_horror)
        if winner == pb.SIDE_MORTAL
        else (state.under_horror, state.under_mortal)
    )
    winning += under_win
    losing += under_lose
    for c in winning:
        discard(state, c)
    pool = [c for c in losing if card(c).hourglasses]
    for c in losing:
        if not card(c).hourglasses:
            discard(state, c)
    pool += state.table
    discard(state, state.room)
    eligible = [
        s for s in order
        if state.showings[s].side == winner
        and (state.showings[s].characters or state.showings[s].items)
        and state.showings[s].total > 0
    ]
    totals = [s.total for s in state.showings]
    leader = max(eligible, key=lambda s: totals[s])  # max() keeps the first: who played first
    resolved = pb.EncounterResolved(
        mortal_total=mortal, horror_total=horror, winner=winner, seat_totals=totals,
        spoils=pool, leader=leader, eligible=eligible,
    )
    del state.under_mortal[:]
    del state.under_horror[:]
    del state.table[:]
    state.room = 0
    state.midnight = False
    _clear_showings(state)
    allies = [s for s in eligible if s != leader]
    return [public(resolved=resolved), *hand_out(state, pool, leader, allies)]


def _clear_showings(state: pb.State) -> None:
    for showing in state.showings:
        showing.Clear()
    state.battle = pb.BATTLE_UNSPECIFIED
