"""Gather what is already queued so that it leaves as one stream message."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from google.protobuf.message import Message

#: Default byte budget of one batch: well under gRPC's 4 MiB default message limit.
MAX_BATCH_BYTES = 1024 * 1024
_NOTHING = object()


def _size(item: Any) -> int:
    return item.ByteSize() if isinstance(item, Message) else 0


class Mailbox:
    """A FIFO with one reader: asyncio.Queue's put_nowait, get_nowait, get and empty without
    its bookkeeping. The reader's wake-up future comes from the loop it was made on
    (asyncio.Queue asks for the running loop each time it waits: a getpid() on CPython 3.11)."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self) -> None:
        self._items: deque = deque()
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    def get_nowait(self) -> Any:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> Any:
        while not self._items:
            self._waiter = self._loop.create_future()
            await self._waiter
        return self._items.popleft()


class Batches:
    """Takes the items of a queue in batches: the first waiting item plus those already
    queued behind it, at most `limit` items and `max_bytes` serialized bytes (a single
    item over the budget travels alone).

    A None in the queue marks the end of the stream: `next()` then returns None.
    """

    def __init__(
        self, queue: asyncio.Queue | Mailbox, limit: int = 256, max_bytes: int = MAX_BATCH_BYTES
    ):
        self.queue = queue
        self.limit = limit
        self.max_bytes = max_bytes
        self._carry: Any = _NOTHING

    async def next(self) -> list[Any] | None:
        """The next batch, or None at the end of the stream."""
        first, self._carry = self._carry, _NOTHING
        if first is _NOTHING:
            first = self.queue.get_nowait() if not self.queue.empty() else await self.queue.get()
        if first is None:
            return None
        if self.queue.empty():  # alone: no size to weigh
            return [first]
        batch, size = [first], _size(first)
        while len(batch) < self.limit and not self.queue.empty():
            item = self.queue.get_nowait()
            if item is None:
                self.queue.put_nowait(None)
                break
            size += _size(item)
            if size > self.max_bytes:
                self._carry = item
                break
            batch.append(item)
        return batch
