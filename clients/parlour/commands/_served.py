"""What the gateway a command talks to serves (the commands' helper, no command)."""

from __future__ import annotations

import socket

from parlour.commands._common import UsageError
from parlour.engine.registry import known_game, playable_games


def gateway_games(address: str, timeout: float = 5.0) -> list[str]:
    """The games the gateway at `address` serves; UsageError naming what is wrong when it
    does not answer (a host name that does not resolve, nothing listening, no gateway)."""
    import grpc

    from parlour.gateway.v1 import gateway_pb2, gateway_service_pb2_grpc

    host, _, port = address.rpartition(":")
    try:
        socket.getaddrinfo(host.strip("[]"), int(port))
    except socket.gaierror as error:
        raise UsageError(f"the gateway host {host!r} does not resolve ({error.strerror})") from None
    with grpc.insecure_channel(address) as channel:
        stub = gateway_service_pb2_grpc.GatewayServiceStub(channel)
        try:
            reply = stub.ListGames(gateway_pb2.ListGamesRequest(), timeout=timeout)
        except grpc.RpcError as error:
            raise UsageError(
                f"no gateway answers at {address} ({error.code().name}: {error.details()}); "
                "is `parlour up` running?"
            ) from None
    return [g.name.removeprefix("games/") for g in reply.games]


def served_games(address: str, names: list[str]) -> list[str]:
    """The named games (each checked, each served at `address`), or every playable game
    the gateway serves."""
    served = gateway_games(address)
    wanted = [known_game(n).name for n in names]
    missing = [n for n in wanted if n not in served]
    if missing:
        raise UsageError(f"the gateway at {address} does not serve {', '.join(missing)} "
                         f"(it serves {', '.join(served) or 'no game now'})")
    return wanted or [g.name for g in playable_games() if g.name in served]
