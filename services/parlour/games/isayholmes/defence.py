"""Out-of-turn defence: Alibi and Mastermind (Rulebook 7, Alibi and Mastermind)."""

from __future__ import annotations

from parlour.engine.game import Emitted, told
from parlour.engine.zones import remove_one
from parlour.games.isayholmes.effects import inspector_may_still_arrest, resolve
from parlour.games.isayholmes.ending import finish_turn
from parlour.games.isayholmes.piles import left, right
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def decline(state: pb.State, out: list[Emitted]) -> None:
    """The threatened seat does not defend: the penalty resolves."""
    out.append(Emitted(pb.Event(declined=pb.Declined(seat=state.effect.target, phase=state.phase))))
    resolve(state, out)


def defend(state: pb.State, card: int, out: list[Emitted]) -> None:
    """The threatened seat plays an Alibi or Mastermind onto the Discard Pile, cancelling."""
    effect = state.effect
    remove_one(state.hands[effect.target].cards, card, "CARD_NOT_IN_HAND")
    state.discard_pile.append(card)
    out.append(
        Emitted(pb.Event(defended=pb.Defended(seat=effect.target, card=card, against=effect.card)))
    )
    if card == pb.CARD_MASTERMIND:
        pass_hands_right(state, out)
        finish_turn(state, effect.actor, out, next_seat=effect.target)
        return
    state.passing[:] = [pb.CARD_UNSPECIFIED] * state.seats
    state.phase = pb.PHASE_PASS_LEFT
    if not owing_a_pass(state):
        complete_passes(state, out)


def pass_hands_right(state: pb.State, out: list[Emitted]) -> None:
    """Mastermind: every seat passes its whole hand to the seat on its right."""
    hands = [list(h.cards) for h in state.hands]
    for seat, hand in enumerate(hands):
        state.hands[right(state, seat)].cards[:] = hand
    out += told(pb.Event(passed_right=pb.HandsPassedRight()), [
        (pb.Event(passed_right=pb.HandsPassedRight(hand=sorted(hand.cards))), [seat])
        for seat, hand in enumerate(state.hands)])


def owing_a_pass(state: pb.State) -> list[int]:
    """Alibi: the seats that hold cards and have not yet chosen the one they pass left."""
    return [
        s
        for s in range(state.seats)
        if state.passing[s] == pb.CARD_UNSPECIFIED and state.hands[s].cards
    ]


def choose_pass(state: pb.State, seat: int, card: int, out: list[Emitted]) -> None:
    """A seat secretly sets aside the card it passes left; all move once everyone has chosen."""
    remove_one(state.hands[seat].cards, card, "CARD_NOT_IN_HAND")
    state.passing[seat] = card
    out.append(Emitted(pb.Event(pass_chosen=pb.PassChosen(seat=seat))))
    if not owing_a_pass(state):
        complete_passes(state, out)


def complete_passes(state: pb.State, out: list[Emitted]) -> None:
    """Every chosen card moves one seat left; play continues left of the attacker (after the
    Inspector's Arrest, if one is still to come)."""
    received = []
    for seat, card in enumerate(state.passing):
        if card:
            state.hands[left(state, seat)].cards.append(card)
            received.append((pb.Event(passed_left=pb.CardsPassedLeft(received=card)),
                             [left(state, seat)]))
    out += told(pb.Event(passed_left=pb.CardsPassedLeft()), received)
    state.passing[:] = [pb.CARD_UNSPECIFIED] * state.seats
    if inspector_may_still_arrest(state):
        state.phase = pb.PHASE_EXTRA_ARREST
        return
    finish_turn(state, state.effect.actor, out)
