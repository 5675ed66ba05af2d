"""A player's turn: play a Suitable Card or an I Say, else draw; Escape (Rulebook 4 and 5)."""

from __future__ import annotations

from parlour.engine.game import Emitted, told
from parlour.engine.zones import remove_one
from parlour.games.isayholmes.catalogue import KINDS
from parlour.games.isayholmes.effects import change_score, start_effect
from parlour.games.isayholmes.piles import draw, left
from parlour.games.isayholmes.scoring import end_round
from parlour.games.isayholmes.sequence import i_say_penalty, suitable_cards
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

SCOTLAND_YARDS = frozenset({pb.CARD_SCOTLAND_YARD_PREVIOUS, pb.CARD_SCOTLAND_YARD_NEXT})
OTHER_REGION = {pb.REGION_LONDON: pb.REGION_COUNTRY, pb.REGION_COUNTRY: pb.REGION_LONDON}


def suitable_in_hand(state: pb.State, seat: int) -> set[int]:
    """The Suitable Cards a seat holds."""
    return set(state.hands[seat].cards) & suitable_cards(state)


def playable(state: pb.State, seat: int) -> set[int]:
    """Cards the seat may play now: its Suitable Cards and any I Say."""
    hand = state.hands[seat].cards
    cards = suitable_in_hand(state, seat)
    if pb.CARD_I_SAY in hand:
        cards.add(pb.CARD_I_SAY)
    return cards


def must_escape(state: pb.State, seat: int) -> bool:
    """A seat whose turn it is and who holds only Villains must reveal them: an Escape."""
    hand = state.hands[seat].cards
    return bool(hand) and all(KINDS[c].is_villain for c in hand)


def play(state: pb.State, seat: int, card: int, out: list[Emitted], *, drawn: bool = False) -> None:
    """Put a card on the Discard Pile, move the Location chit, score an I Say, start its rule."""
    kind = KINDS[card]
    if not drawn:
        remove_one(state.hands[seat].cards, card, "CARD_NOT_IN_HAND")
    penalty = i_say_penalty(state) if card == pb.CARD_I_SAY else 0
    on_scotland_yard = state.discard_pile[-1] in SCOTLAND_YARDS
    state.discard_pile.append(card)
    if kind.region:
        state.location = kind.region
    elif "LOCATION_OTHER_REGION" in kind.next:
        state.location = OTHER_REGION[state.location]
    state.idle_turns = 0
    out.append(
        Emitted(
            pb.Event(
                played=pb.CardPlayed(seat=seat, card=card, drawn=drawn, location=state.location)
            )
        )
    )
    if penalty:
        change_score(state, seat, penalty, card, out)
    start_effect(state, seat, card, on_scotland_yard, out, drawn=drawn)


def draw_card(state: pb.State, seat: int, out: list[Emitted]) -> None:
    """No Suitable Card: draw one; play it at once if Suitable, else keep it. Play passes left."""
    (card,) = draw(state, 1, out)
    if card in suitable_cards(state):
        play(state, seat, card, out, drawn=True)
        return
    state.hands[seat].cards.append(card)
    state.idle_turns = 0
    out += told(pb.Event(drawn=pb.CardsDrawn(seat=seat, count=1)),
                [(pb.Event(drawn=pb.CardsDrawn(seat=seat, count=1, cards=[card])), [seat])])
    state.turn = left(state, seat)


def pass_turn(state: pb.State, seat: int, out: list[Emitted]) -> None:
    """Nothing to play or draw: pass; a whole lap of passes ends the round in a stalemate."""
    state.idle_turns += 1
    out.append(Emitted(pb.Event(turn_passed=pb.TurnPassed(seat=seat))))
    if state.idle_turns >= state.seats:
        end_round(state, pb.ROUND_END_STALEMATE, out)
    else:
        state.turn = left(state, seat)


def escape(state: pb.State, seat: int, out: list[Emitted]) -> None:
    """Reveal a hand of only Villains: they Escape and the round is scored."""
    out.append(Emitted(pb.Event(escaped=pb.Escaped(seat=seat, villains=state.hands[seat].cards))))
    end_round(state, pb.ROUND_END_ESCAPE, out, villain_seat=seat)
