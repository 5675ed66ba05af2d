"""Summary of the Investigation: Conclusion per thread, the Winning Conditions, Archiving."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.engine.zones import remove_one
from parlour.games.clashofminds.catalogue import (
    CLOCK_HOURS,
    CRIME_ID,
    HOLMES,
    MORIARTY,
    THREADS,
)
from parlour.games.clashofminds.effects import reveal_crime
from parlour.games.clashofminds.hooks import rules
from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.rounds import order_of_play, start_round
from parlour.games.clashofminds.table import (
    at_site,
    discarded,
    move_clock,
    opponent,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

CLEAR_ADVANTAGE = 3


def conclude(state: pb.State) -> list[Emitted]:
    """Conclusion: sum each thread in order, apply its outcome, then check who won."""
    events: list[Emitted] = []
    for thread in range(THREADS):
        holmes, moriarty = side_total(state, thread, HOLMES), side_total(state, thread, MORIARTY)
        events.append(Emitted(pb.Event(thread_concluded=pb.ThreadConcluded(
            thread=thread, holmes=holmes, moriarty=moriarty))))
        if holmes == moriarty > 0 and at_site(state, "british_museum"):
            holmes += 1
        if holmes > moriarty:
            events += holmes_advantage(state, thread, holmes - moriarty)
        elif moriarty > holmes:
            events += moriarty_advantage(state, thread, moriarty - holmes)
    return events + rules(state).after_conclusion(state) + check_winner(state)


def holmes_advantage(state: pb.State, thread: int, advantage: int) -> list[Emitted]:
    """1-2: a Deduction Token (the second one reveals); 3 or more: reveal."""
    crime_thread = state.threads[thread]
    if crime_thread.revealed:
        return []
    clear = advantage >= CLEAR_ADVANTAGE or (advantage == 2 and at_site(state, "scotland_yard"))
    if clear or crime_thread.deduction_token:
        return reveal_crime(state, thread)
    crime_thread.deduction_token = True
    state.deduction_supply -= 1
    return [Emitted(pb.Event(deduction_token_placed=pb.DeductionTokenPlaced(thread=thread)))]


def moriarty_advantage(state: pb.State, thread: int, advantage: int) -> list[Emitted]:
    """1-2: one hour (two with The Air Gun here); 3 or more: two hours; Whitechapel: +1."""
    crime_thread = state.threads[thread]
    air_gun = crime_thread.revealed and crime_thread.crime_card == CRIME_ID["air_gun"]
    hours = 2 if advantage >= CLEAR_ADVANTAGE or air_gun else 1
    hours += 1 if at_site(state, "whitechapel") else 0
    return [move_clock(state, hours, "moriarty_advantage")]


def result(state: pb.State) -> int:
    """The Winning Conditions, checked at Archiving (RESULT_UNSPECIFIED: play on)."""
    all_revealed = all(t.revealed for t in state.threads)
    late = state.hours >= CLOCK_HOURS
    if late and not all_revealed:
        return pb.RESULT_MORIARTY_VICTORY
    if all_revealed and not late:
        return pb.RESULT_HOLMES_VICTORY
    if all_revealed:
        return pb.RESULT_UNRESOLVED_DUEL
    return pb.RESULT_UNSPECIFIED


def check_winner(state: pb.State) -> list[Emitted]:
    """End the game if a Winning Condition is met, else archive the round."""
    state.result = result(state)
    if state.result != pb.RESULT_UNSPECIFIED:
        state.phase = pb.PHASE_OVER
        return [Emitted(pb.Event(game_ended=pb.GameEnded(result=state.result, hours=state.hours)))]
    return archive_table(state)


def archive_table(state: pb.State) -> list[Emitted]:
    """Influence Cards in play go to discard piles; Supports stay; then a mode's part."""
    events: list[Emitted] = []
    for seat in (HOLMES, MORIARTY):
        player = state.players[seat]
        gone: list[int] = []
        for crime_thread in state.threads:
            side = crime_thread.sides[seat]
            state.distraction_supply += sum(1 for c in side.cards if c.distracted)
            gone += [c.card for c in side.cards if not c.support]
            supports = [c for c in side.cards if c.support]
            del side.cards[:]
            side.cards.extend(supports)
        player.discard.extend(gone)
        if gone:
            events.append(discarded(seat, gone, "archiving"))
        events += rules(state).archive(state, seat)
    state.phase = pb.PHASE_ARCHIVING
    state.turn = state.first_player
    return events


def archiving_actions(state: pb.State, seat: int) -> list[pb.Action]:
    """Discard any one card from hand, or stop discarding."""
    cards = sorted(set(state.players[seat].hand))
    return [pb.Action(discard_card=pb.DiscardCard(card=c)) for c in cards] + [
        pb.Action(keep_hand=pb.KeepHand())]


def discard_from_hand(state: pb.State, seat: int, action: pb.DiscardCard) -> list[Emitted]:
    """Archiving: discard one card from hand."""
    player = state.players[seat]
    remove_one(player.hand, action.card, "CARD_NOT_IN_HAND")
    player.discard.append(action.card)
    return [discarded(seat, [action.card], "archiving")]


def keep_hand(state: pb.State, seat: int) -> list[Emitted]:
    """Stop discarding; after both players, the First Player Card passes and a round starts."""
    first, second = order_of_play(state)
    if seat == first:
        state.turn = second
        return []
    state.site_discard.append(state.site)
    finished = state.round
    state.first_player = opponent(state.first_player)
    events = [Emitted(pb.Event(round_archived=pb.RoundArchived(
        round=finished, first_player=state.first_player)))]
    return events + start_round(state)
