"""Small helpers to emit events: public ones, and a private event with its public twin."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def public(**kind: object) -> Emitted:
    """An event everyone sees, spectators included."""
    return Emitted(pb.Event(**kind))


def private_with_twin(seat: int, private: pb.Event, twin: pb.Event) -> list[Emitted]:
    """`private` for `seat` only; `twin` (without the secret) for everyone else and spectators."""
    only = frozenset([seat])
    return [Emitted(twin, hidden_from=only), Emitted(private, to=only)]
