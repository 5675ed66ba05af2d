"""Health probe for containers: `python -m parlour.rpc.probe [host:port]` exits 0 when SERVING.

The address defaults to the plaintext health port when PARLOUR_HEALTH_PORT is set (on
PARLOUR_HEALTH_ADDR), else to PARLOUR_ADDRESS; a wildcard host is replaced by loopback,
so the same command works in every role's container healthcheck, mutual TLS or not.
"""

from __future__ import annotations

import os
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


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


def probed_address(env: dict[str, str]) -> str:
    """Where the container healthcheck asks: the health port if there is one."""
    if env.get("PARLOUR_HEALTH_PORT"):
        host = env.get("PARLOUR_HEALTH_ADDR") or "127.0.0.1"
        return local_address(f"{host}:{env['PARLOUR_HEALTH_PORT']}")
    return local_address(env.get("PARLOUR_ADDRESS", ":50051"))


def main() -> int:
    address = local_address(sys.argv[1]) if len(sys.argv) > 1 else probed_address(os.environ)
    return 0 if check(address) else 1


if __name__ == "__main__":
    sys.exit(main())
