"""Health probe for containers: `python -m parlour.rpc.probe [host:port]` exits 0 when SERVING.

The address defaults to PARLOUR_ADDRESS with a wildcard host replaced by loopback,
so the same command works in every role's container healthcheck.
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


def main() -> int:
    address = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PARLOUR_ADDRESS", ":50051")
    return 0 if check(local_address(address)) else 1


if __name__ == "__main__":
    sys.exit(main())
