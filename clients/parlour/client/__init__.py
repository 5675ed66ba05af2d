"""The Python SDK: an async client of parlour.gateway.v1.GatewayService, a blocking
facade for scripts, and bots.

The client classes load on first use, so the bots' strategies (pure engine code) import
without gRPC, as in a plain `pip install parlour`.
"""

from __future__ import annotations

#: Every name the SDK exports, and the module that defines it.
_HOMES = {
    "Backoff": "client",
    "Finished": "client",
    "GatewayClient": "client",
    "Seat": "client",
    "Session": "client",
    "Update": "client",
    "new_request_id": "client",
    "pack": "client",
    "Ask": "matchmaking",
    "NoMatch": "matchmaking",
    "cancel_ticket": "matchmaking",
    "find_match": "matchmaking",
    "play_now": "matchmaking",
    "SyncClient": "sync",
    "SyncSeat": "sync",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(f"parlour.client.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'parlour.client' has no attribute {name!r}")
