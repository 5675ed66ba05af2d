"""House of Horrors as a parlour Game: declared facts plus dispatch to the rules modules."""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from parlour.engine.game import Decision, Emitted, Game, IllegalAction, Outcome
from parlour.engine.rng import Rng
from parlour.engine.text import seat
from parlour.games.houseofhorrors import butler, reference, setup, spoils, turns, views
from parlour.games.houseofhorrors.catalogue import ALL_IDS
from parlour.games.houseofhorrors.rounds import scores, winners
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

_EVERY_CARD = list(ALL_IDS)

_DECISIONS = {
    pb.PHASE_CHOOSE_ROOM: "choose_room",
    pb.PHASE_DECLARE: "declare_battle",
    pb.PHASE_PLAY: "play",
    pb.PHASE_CLAIM: "claim",
    pb.PHASE_SPOILS: "spoils",
}

Move = Callable[[pb.State, int, Message], list[Emitted]]

#: Each action kind (the Action oneof field), the phase it belongs to, and its rule.
_MOVES: dict[str, tuple[int, Move]] = {
    "choose_room": (pb.PHASE_CHOOSE_ROOM, butler.choose_room),
    "declare_battle": (pb.PHASE_DECLARE, butler.declare),
    "play_character": (pb.PHASE_PLAY, turns.play_character),
    "play_item": (pb.PHASE_PLAY, turns.play_item),
    "take_room_item": (pb.PHASE_PLAY, turns.take_room_item),
    "discard": (pb.PHASE_PLAY, turns.discard),
    "end_turn": (pb.PHASE_PLAY, turns.end_turn),
    "claim": (pb.PHASE_CLAIM, turns.claim),
    "decline_claim": (pb.PHASE_CLAIM, turns.decline_claim),
    "take_spoil": (pb.PHASE_SPOILS, spoils.take),
    "give_spoil": (pb.PHASE_SPOILS, spoils.give),
}


class HouseOfHorrors(Game):
    """Mortals against Horrors, room by room, until Dawn."""

    name = "houseofhorrors"
    display_name = "House of Horrors"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS
    reasons = reference.REASONS
    decision_kinds = reference.DECISION_KINDS
    max_actions = 5000

    def default_options(self, seats: int) -> pb.Options:
        return pb.Options(first_butler=0)

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        return setup.new_state(options, seats, seed)

    def pending(self, state: pb.State) -> list[Decision]:
        kind = _DECISIONS.get(state.phase)
        if kind is None:
            return []
        if state.phase in (pb.PHASE_PLAY, pb.PHASE_CLAIM):
            return [Decision(state.turn, kind)]
        if state.phase == pb.PHASE_SPOILS:
            return [Decision(state.spoils_leader, kind)]
        return [Decision(state.butler, kind)]

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        phase = state.phase
        if phase == pb.PHASE_PLAY:
            return turns.legal(state, seat)
        if phase == pb.PHASE_CLAIM:
            return turns.legal_claims(state, seat)
        if phase == pb.PHASE_SPOILS:
            return spoils.legal(state)
        if phase == pb.PHASE_CHOOSE_ROOM:
            return butler.legal_rooms(state)
        return butler.legal_battles()

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        kind = action.WhichOneof("kind")
        if kind is None:
            raise IllegalAction("EMPTY_ACTION", "the action names no move")
        phase, move = _MOVES[kind]
        if phase != state.phase:
            raise IllegalAction("WRONG_PHASE", f"{kind} is not possible now")
        return move(state, seat, getattr(action, kind))

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return views.view(state, seat)

    def outcome(self, state: pb.State) -> Outcome | None:
        if state.phase != pb.PHASE_OVER:
            return None
        points = tuple(scores(state))
        best = tuple(winners(state))
        names = " and ".join(seat(s) for s in best)
        return Outcome(points, best, f"{names} won with the most hourglasses, {max(points)}. "
                                     "Scores are the hourglasses each player gathered.")

    def check_conservation(self, state: pb.State) -> None:
        places = [
            state.room_deck, state.room_discard, state.house_deck, state.house_discard,
            state.revealed_rooms, state.table, state.under_mortal, state.under_horror,
            state.spoils_pool, [state.room] if state.room else [],
        ]
        places += [p.cards for p in state.hands] + [p.cards for p in state.spoils]
        places += [s.characters for s in state.showings] + [s.items for s in state.showings]
        cards: list[int] = []
        for place in places:
            cards.extend(place)
        cards.sort()
        assert cards == _EVERY_CARD, "cards were created or lost"

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)


GAME = HouseOfHorrors()
