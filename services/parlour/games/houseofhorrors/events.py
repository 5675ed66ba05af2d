"""Small helpers to emit events: public ones, and a private event with its public twin."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def public(**kind: object) -> Emitted:
    """An event everyone sees, spectators included."""
    return Emitted(pb.Event(**kind))


def private_with_twin(seat: int, seats: int, private: pb.Event, twin: pb.Event) -> list[Emitted]:
    """`private` for `seat` only, `twin` (without the secret) for every other seat."""
    others = frozenset(s for s in range(seats) if s != seat)
    return [Emitted(twin, others), Emitted(private, frozenset([seat]))]
