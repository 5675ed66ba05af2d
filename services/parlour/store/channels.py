"""Subscriptions to Redis channels (token revocations, commit notices), behind the store."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator


class Subscription:
    """One channel's messages, as text."""

    def __init__(self, pubsub) -> None:
        self._pubsub = pubsub

    async def next(self, timeout: float) -> str | None:
        """The next message, or None if none came within `timeout` seconds."""
        message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        if message is not None and message["type"] == "message":
            return message["data"].decode()
        return None


@contextlib.asynccontextmanager
async def subscribed(client, channel: str) -> AsyncIterator[Subscription]:
    """Subscribed to `channel` until the block ends (the connection is then closed)."""
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(channel)
        yield Subscription(pubsub)
    finally:
        with contextlib.suppress(Exception):
            await pubsub.aclose()
