"""The Python SDK: an async client of parlour.gateway.v1.GatewayService, and bots.

The client classes load on first use, so the bots' strategies (pure engine code) import
without gRPC, as in a plain `pip install parlour`.
"""

from __future__ import annotations

__all__ = ["GatewayClient", "Seat", "Session"]


def __getattr__(name: str):
    if name in __all__:
        from parlour.client import client

        return getattr(client, name)
    raise AttributeError(f"module 'parlour.client' has no attribute {name!r}")
