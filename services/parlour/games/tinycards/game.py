"""Tiny Cards rules: deal hands from a 12-card deck; on your turn play a card or draw.

A seat with an empty hand and nothing to draw is skipped; the game ends when
every card has been played. Score: the sum of the cards you played.
"""

from __future__ import annotations

from parlour.engine.game import (
    Decision,
    Emitted,
    Game,
    IllegalAction,
    InvalidOptions,
    Outcome,
    copy_message,
)
from parlour.engine.rng import Rng, state_rng
from parlour.engine.zones import remove_one, take_top
from parlour.games.tinycards import reference
from parlour.games.tinycards.v1 import tinycards_pb2 as pb

DECK = tuple(range(1, 13))


class TinyCards(Game):
    """The platform's test game."""

    name = "tinycards"
    display_name = "Tiny Cards (test game)"
    min_seats = 2
    max_seats = 4
    reasons = reference.REASONS
    decision_kinds = reference.DECISION_KINDS
    max_actions = 64
    for_tests = True

    def default_options(self, seats: int) -> pb.Options:
        return pb.Options(hand_size=2)

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions("seats", f"Tiny Cards takes 2 to 4 seats, not {seats}")
        hand_size = options.hand_size or 2
        if hand_size * seats > len(DECK):
            raise InvalidOptions(
                "hand_size", f"{hand_size} cards for {seats} seats exceeds the deck"
            )
        state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, deck=DECK)
        with state_rng(state) as rng:
            rng.shuffle(state.deck)
        for _ in range(seats):
            state.hands.add(cards=take_top(state.deck, hand_size))
            state.played.add()
        return state

    def pending(self, state: pb.State) -> list[Decision]:
        return [] if state.finished else [Decision(state.turn, "turn")]

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        actions = [
            pb.Action(play=pb.PlayCard(card=c)) for c in sorted(set(state.hands[seat].cards))
        ]
        if state.deck:
            actions.append(pb.Action(draw=pb.DrawCard()))
        return actions

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
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
        self._advance(state)
        if state.finished:
            events.append(Emitted(pb.Event(ended=pb.GameEnded(scores=self._scores(state)))))
        return events

    def _advance(self, state: pb.State) -> None:
        if not state.deck and not any(h.cards for h in state.hands):
            state.finished = True
            return
        for step in range(1, state.seats + 1):
            nxt = (state.turn + step) % state.seats
            if state.hands[nxt].cards or state.deck:
                state.turn = nxt
                return

    @staticmethod
    def _scores(state: pb.State) -> list[int]:
        return [sum(p.cards) for p in state.played]

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return pb.View(
            hand=sorted(state.hands[seat].cards) if seat is not None else [],
            hand_sizes=[len(h.cards) for h in state.hands],
            deck_size=len(state.deck),
            played=state.played,
            turn=state.turn,
            finished=state.finished,
        )

    def outcome(self, state: pb.State) -> Outcome | None:
        if not state.finished:
            return None
        scores = tuple(self._scores(state))
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def check_conservation(self, state: pb.State) -> None:
        cards = list(state.deck)
        for hand, played in zip(state.hands, state.played, strict=True):
            cards += hand.cards
            cards += played.cards
        assert sorted(cards) == list(DECK), f"cards not conserved: {sorted(cards)}"

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        other = copy_message(state)
        hidden_hands = [s for s in range(state.seats) if s != seat]
        pool = list(other.deck)
        for s in hidden_hands:
            pool += other.hands[s].cards
        rng.shuffle(pool)
        other.deck[:] = take_top(pool, len(state.deck))
        for s in hidden_hands:
            other.hands[s].cards[:] = take_top(pool, len(state.hands[s].cards))
        return other


GAME = TinyCards()
