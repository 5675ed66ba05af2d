"""I Say, Holmes! as a parlour Game: who decides what, and the end of the match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from parlour.engine.game import Decision, Emitted, Game, Outcome
from parlour.engine.rng import Rng
from parlour.engine.text import seat
from parlour.games.isayholmes import moves, reference, setup, views
from parlour.games.isayholmes.catalogue import DECK
from parlour.games.isayholmes.defence import owing_a_pass
from parlour.games.isayholmes.scoring import winners
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

#: Who owes the decision in each phase, and the decision's kind.
_DECIDER: dict[int, tuple[Callable[[pb.State], int], str]] = {
    pb.PHASE_TURN: (lambda s: s.turn, "turn"),
    pb.PHASE_TARGET: (lambda s: s.effect.actor, "name_opponent"),
    pb.PHASE_RESPOND: (lambda s: s.effect.target, "defend_or_decline"),
    pb.PHASE_SHOW: (lambda s: s.effect.target, "show_highest_card"),
    pb.PHASE_GIVE: (lambda s: s.effect.actor, "give_card"),
    pb.PHASE_FLEE: (lambda s: s.effect.actor, "discard_villain"),
    pb.PHASE_EXTRA_ARREST: (lambda s: s.effect.actor, "arrest_or_decline"),
    pb.PHASE_ACCUSE: (lambda s: s.chain.accuser, "accuse"),
}
_SORTED_DECK = sorted(DECK)


class ISayHolmes(Game):
    """I Say, Holmes! (Victory Point Games, 2007): 3 to 8 players, lowest score wins."""

    name = "isayholmes"
    display_name = "I Say, Holmes!"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS
    reasons = reference.REASONS
    decision_kinds = reference.DECISION_KINDS
    max_actions = 10_000
    lowest_score_wins = True
    #: 2: a seat told more by a private twin no longer also sees the public event (issue 43);
    #: version 1 matches play on as they began (`at_version`).
    rules_version = 2

    def served_versions(self) -> tuple[int, ...]:
        return (1, self.rules_version)

    def at_version(self, version: int) -> Game:
        return _VERSION_1 if version == 1 else super().at_version(version)

    # -- setup -------------------------------------------------------------
    def default_options(self, seats: int) -> pb.Options:
        return pb.Options(rounds=setup.DEFAULT_ROUNDS)

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        return setup.new_state(options, seats, seed)

    # -- who acts, and how ---------------------------------------------------
    def pending(self, state: pb.State) -> list[Decision]:
        if state.phase == pb.PHASE_PASS_LEFT:
            return [Decision(s, "pass_left") for s in owing_a_pass(state)]
        if state.phase == pb.PHASE_OVER:
            return []
        decider, kind = _DECIDER[state.phase]
        return [Decision(decider(state), kind)]

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        return moves.legal(state, seat)

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        return moves.apply(state, seat, action)

    # -- the end -------------------------------------------------------------
    def outcome(self, state: pb.State) -> Outcome | None:
        if state.phase != pb.PHASE_OVER:
            return None
        best = winners(state)
        names = " and ".join(seat(s) for s in best)
        rounds = f"{state.rounds} round{'' if state.rounds == 1 else 's'}"
        summary = (f"{names} won with the lowest total, {state.scores[best[0]]}, after "
                   f"{rounds}. Scores are each player's total: the lowest wins.")
        return Outcome(tuple(state.scores), tuple(best), summary)

    # -- declared checks -------------------------------------------------------
    def check_conservation(self, state: pb.State) -> None:
        cards = [*state.draw_pile, *state.discard_pile, *state.set_aside]
        cards += [c for c in state.passing if c]
        for hand in state.hands:
            cards += hand.cards
        cards.sort()
        assert cards == _SORTED_DECK, (
            f"cards not conserved: extra {Counter(cards) - Counter(DECK)}, "
            f"missing {Counter(DECK) - Counter(cards)}"
        )

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return views.view(state, seat)

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(rounds=1), n) for n in range(self.min_seats, self.max_seats + 1)]


class _Version1(ISayHolmes):
    """I Say, Holmes! as rules version 1 played it: every public event went to everyone,
    the seats that also received its private twin included (the only difference)."""

    rules_version = 1
    served_versions = Game.served_versions
    at_version = Game.at_version

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        return [Emitted(e.event, e.to) for e in super().apply(state, seat, action)]


_VERSION_1 = _Version1()

GAME = ISayHolmes()
