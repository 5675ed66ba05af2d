"""The Python SDK: an async client of parlour.gateway.v1.GatewayService, and bots."""

from parlour.client.client import GatewayClient, Seat

__all__ = ["GatewayClient", "Seat"]
