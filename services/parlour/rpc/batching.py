"""Gather what is already queued so that it leaves as one stream message."""

from __future__ import annotations

import asyncio
from typing import Any


def take_ready(queue: asyncio.Queue, first: Any, limit: int = 256) -> list[Any]:
    """`first` plus the items already waiting (at most `limit` in all).

    A None in the queue marks the end of the stream: it stops the batch and
    stays queued for the consumer to see next.
    """
    batch = [first]
    while len(batch) < limit and not queue.empty():
        item = queue.get_nowait()
        if item is None:
            queue.put_nowait(None)
            break
        batch.append(item)
    return batch
