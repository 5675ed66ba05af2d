"""Health probe for containers: `python -m parlour.rpc.probe [host:port]` exits 0 when SERVING.

The address defaults to the plaintext health port when PARLOUR_HEALTH_PORT is set (on
PARLOUR_HEALTH_ADDR), else to PARLOUR_ADDRESS, read as the server reads them
(parlour.settings.HealthSettings); a wildcard host is replaced by loopback, so the same
command works in every role's container healthcheck, mutual TLS or not.
"""

from __future__ import annotations

import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.settings import HealthSettings, load


def local_address(address: str) -> str:
    """'0.0.0.0:50051' or '[::]:50051' -> '127.0.0.1:50051'; other addresses unchanged."""
    host, _, port = address.rpartition(":")
    return f"127.0.0.1:{port}" if host in ("", "0.0.0.0", "[::]") else address


def check(address: str, timeout: float = 2.0) -> bool:
    """Whether the server at `address` reports SERVING for the overall service."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=timeout
            )
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def probed_address(settings: HealthSettings) -> str:
    """Where the container healthcheck asks: the health port if there is one."""
    if settings.health_port:
        return local_address(f"{settings.health_addr}:{settings.health_port}")
    return local_address(settings.address)


def main() -> int:
    given = sys.argv[1] if len(sys.argv) > 1 else None
    address = local_address(given) if given else probed_address(load(HealthSettings))
    return 0 if check(address) else 1


if __name__ == "__main__":
    sys.exit(main())
