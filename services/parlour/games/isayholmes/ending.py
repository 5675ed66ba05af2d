"""Ending a turn, Arrests, and the Went Out chain (Rulebook 5)."""

from __future__ import annotations

from parlour.engine.game import Emitted, told
from parlour.games.isayholmes.catalogue import VILLAINS
from parlour.games.isayholmes.piles import draw_into_hand, left
from parlour.games.isayholmes.scoring import end_round
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def finish_turn(
    state: pb.State, seat: int, out: list[Emitted], *, next_seat: int | None = None
) -> None:
    """The card `seat` played has resolved: it Went Out if its hand is empty, else play moves on.

    A card drawn and played at once was never in the hand, so it is not "the last card in
    their hand" (Rulebook 4 and 5): a turn that began with a draw never goes out.
    """
    drawn = state.effect.drawn
    state.ClearField("effect")
    if not state.hands[seat].cards and not drawn:
        out.append(Emitted(pb.Event(went_out=pb.WentOut(seat=seat))))
        state.phase = pb.PHASE_ACCUSE
        state.chain.CopyFrom(pb.Chain(went_out=seat, accuser=seat))
        return
    state.turn = left(state, seat) if next_seat is None else next_seat
    state.phase = pb.PHASE_TURN


def is_guilty(state: pb.State, seat: int) -> bool:
    """Whether a seat harbours a Villain."""
    return any(c in VILLAINS for c in state.hands[seat].cards)


def arrest(
    state: pb.State, accuser: int, accused: int, card: int, penalty: bool, out: list[Emitted]
) -> None:
    """Guilty ends the round; Not Guilty costs the accuser the accused's hand if `penalty`."""
    if is_guilty(state, accused):
        out.append(
            Emitted(pb.Event(arrested=pb.Arrested(seat=accuser, target=accused, guilty=True)))
        )
        end_round(state, pb.ROUND_END_ARREST, out, arrester=accuser, villain_seat=accused)
        return
    if not penalty:
        out.append(Emitted(pb.Event(arrested=pb.Arrested(seat=accuser, target=accused))))
        finish_turn(state, accuser, out)
        return
    taken = list(state.hands[accused].cards)
    state.hands[accuser].cards.extend(taken)
    del state.hands[accused].cards[:]
    out += told(pb.Event(arrested=pb.Arrested(seat=accuser, target=accused, taken=len(taken))), [
        (pb.Event(arrested=pb.Arrested(seat=accuser, target=accused, taken=len(taken),
                                       cards=sorted(taken))), [accuser])])
    draw_into_hand(state, accused, len(taken), card, out)
    finish_turn(state, accuser, out)


def suspects(state: pb.State) -> list[int]:
    """Who the Went Out chain's accuser may name: not itself, not who went out, not the cleared."""
    chain = state.chain
    barred = {chain.accuser, chain.went_out, *chain.cleared}
    return [s for s in range(state.seats) if s not in barred]


def accuse(state: pb.State, accused: int, out: list[Emitted]) -> None:
    """One Arrest of the Went Out chain; a Not Guilty accused keeps its cards and accuses next."""
    accuser = state.chain.accuser
    if is_guilty(state, accused):
        out.append(
            Emitted(pb.Event(arrested=pb.Arrested(seat=accuser, target=accused, guilty=True)))
        )
        end_round(state, pb.ROUND_END_ARREST, out, arrester=accuser, villain_seat=accused)
        return
    out.append(Emitted(pb.Event(arrested=pb.Arrested(seat=accuser, target=accused))))
    state.chain.cleared.append(accused)
    state.chain.accuser = accused
    if not suspects(state):
        end_round(state, pb.ROUND_END_NO_VILLAIN, out)
