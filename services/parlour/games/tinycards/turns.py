"""Tiny Cards' turns: play a card or draw one; skip a seat with nothing to do; score."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.zones import remove_one, take_top
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def legal_actions(state: pb.State, seat: int) -> list[pb.Action]:
    """Each distinct card in hand, and a draw while the deck has cards (RULES.md, "A turn")."""
    actions = [pb.Action(play=pb.PlayCard(card=c)) for c in sorted(set(state.hands[seat].cards))]
    if state.deck:
        actions.append(pb.Action(draw=pb.DrawCard()))
    return actions


def apply(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Play or draw, pass the turn on, and end the game once every card is played."""
    kind = action.WhichOneof("kind")
    if kind == "play":
        remove_one(state.hands[seat].cards, action.play.card, "CARD_NOT_IN_HAND")
        state.played[seat].cards.append(action.play.card)
        events = [Emitted(pb.Event(played=pb.CardPlayed(seat=seat, card=action.play.card)))]
    elif kind == "draw":
        if not state.deck:
            raise IllegalAction("DECK_EMPTY", "there is nothing to draw")
        (card,) = take_top(state.deck)
        state.hands[seat].cards.append(card)
        events = [
            Emitted(pb.Event(drawn=pb.CardDrawn(seat=seat)), hidden_from=frozenset([seat])),
            Emitted(pb.Event(drawn=pb.CardDrawn(seat=seat, card=card)), to=frozenset([seat])),
        ]
    else:
        raise IllegalAction("EMPTY_ACTION", "the action names no move")
    advance(state)
    if state.finished:
        events.append(Emitted(pb.Event(ended=pb.GameEnded(scores=scores(state)))))
    return events


def advance(state: pb.State) -> None:
    """The next seat that can play or draw takes the turn; with none, the game is over."""
    if not state.deck and not any(h.cards for h in state.hands):
        state.finished = True
        return
    for step in range(1, state.seats + 1):
        nxt = (state.turn + step) % state.seats
        if state.hands[nxt].cards or state.deck:
            state.turn = nxt
            return


def scores(state: pb.State) -> list[int]:
    """Each seat's score: the sum of the cards it played (RULES.md, "The end")."""
    return [sum(p.cards) for p in state.played]
