"""Scoring a round (Rulebook 6), then dealing the next one or ending the match."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.isayholmes.catalogue import VILLAINS, value
from parlour.games.isayholmes.setup import start_round
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def villain_points(cards) -> int:
    """Total value of the Villains among some cards."""
    return sum(value(c) for c in cards if c in VILLAINS)


def hand_points(cards) -> int:
    """Total value of the cards that are not Villains (the Villains are scored by end_round)."""
    return sum(value(c) for c in cards if c not in VILLAINS)


def end_round(
    state: pb.State, end: int, out: list[Emitted], *, arrester: int = 0, villain_seat: int = 0
) -> None:
    """Score the round (Rulebook 6), then deal the next one or end the match.

    After an Arrest the Guilty player's Villains are detected: they count in his hand total
    and he then adds them again, while the arrester subtracts them. Escaped Villains are not
    detected, so the escaper only subtracts them.
    """
    points = [hand_points(h.cards) for h in state.hands]
    detected = villain_points(state.hands[villain_seat].cards)
    if end == pb.ROUND_END_ARREST:
        points[villain_seat] += detected + detected
        points[arrester] -= detected
    elif end == pb.ROUND_END_ESCAPE:
        points[villain_seat] -= detected
    for seat, delta in enumerate(points):
        state.scores[seat] += delta
    result = pb.RoundResult(
        round=state.round,
        end=end,
        arrester=arrester,
        villain_seat=villain_seat,
        hands=state.hands,
        points=points,
    )
    state.last_result.CopyFrom(result)
    out.append(Emitted(pb.Event(round_ended=pb.RoundEnded(result=result, scores=state.scores))))
    if state.round < state.rounds:
        start_round(state, state.round + 1, out)
        return
    state.phase = pb.PHASE_OVER
    state.ClearField("effect")
    state.ClearField("chain")
    out.append(
        Emitted(pb.Event(match_ended=pb.MatchEnded(scores=state.scores, winners=winners(state))))
    )


def winners(state: pb.State) -> list[int]:
    """The seats with the lowest total."""
    best = min(state.scores)
    return [s for s, score in enumerate(state.scores) if score == best]
