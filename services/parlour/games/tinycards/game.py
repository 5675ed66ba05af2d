"""Tiny Cards: deal hands from a 12-card deck; on your turn play a card or draw.

A seat with an empty hand and nothing to draw is skipped; the game ends when
every card has been played. Score: the sum of the cards you played (RULES.md).
"""

from __future__ import annotations

from parlour.engine.game import Decision, Emitted, Game, Outcome
from parlour.engine.rng import Rng
from parlour.games.tinycards import reference, setup, turns, views
from parlour.games.tinycards.catalogue import DECK
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


class TinyCards(Game):
    """The platform's test game."""

    name = "tinycards"
    display_name = "Tiny Cards (test game)"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS
    reasons = reference.REASONS
    decision_kinds = reference.DECISION_KINDS
    max_actions = 64
    for_tests = True

    def default_options(self, seats: int) -> pb.Options:
        return pb.Options(hand_size=2)

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        return setup.new_state(options, seats, seed)

    def pending(self, state: pb.State) -> list[Decision]:
        return [] if state.finished else [Decision(state.turn, "turn")]

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        return turns.legal_actions(state, seat)

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        return turns.apply(state, seat, action)

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return views.view(state, seat)

    def outcome(self, state: pb.State) -> Outcome | None:
        if not state.finished:
            return None
        scores = tuple(turns.scores(state))
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def check_conservation(self, state: pb.State) -> None:
        cards = list(state.deck)
        for hand, played in zip(state.hands, state.played, strict=True):
            cards += hand.cards
            cards += played.cards
        assert sorted(cards) == list(DECK), f"cards not conserved: {sorted(cards)}"

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)


GAME = TinyCards()
