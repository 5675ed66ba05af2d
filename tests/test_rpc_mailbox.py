"""Issue 41 item 2: the one-reader Mailbox the Play session, the ActLink and the ActStream
queue their outgoing messages in, and the Batches taken from it."""

from __future__ import annotations

import asyncio

import pytest

from parlour.rpc.batching import Batches, Mailbox
from parlour.rules.v1 import rules_pb2 as pb


async def test_issue41_a_waiting_reader_wakes_in_order() -> None:
    box = Mailbox()
    reader = asyncio.ensure_future(box.get())
    await asyncio.sleep(0)
    assert not reader.done()
    box.put_nowait("a")
    box.put_nowait("b")
    assert await reader == "a"
    assert box.qsize() == 1 and box.get_nowait() == "b" and box.empty()
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


async def test_issue41_a_cancelled_wait_leaves_the_mailbox_usable() -> None:
    box = Mailbox()
    reader = asyncio.ensure_future(box.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    box.put_nowait(1)
    assert await box.get() == 1


async def test_issue41_batches_take_what_is_queued_then_end() -> None:
    box = Mailbox()
    big = pb.ActStreamRequest(call_id=1, act=pb.ActRequest(request_id="x" * 600))
    batches = Batches(box, limit=3, max_bytes=1000)
    box.put_nowait(pb.ActStreamRequest(call_id=0))
    assert [m.call_id for m in await batches.next()] == [0]  # alone
    for message in (big, big, pb.ActStreamRequest(call_id=2), None):
        box.put_nowait(message)
    assert len(await batches.next()) == 1  # a second big one is over the byte budget
    assert [m.call_id for m in await batches.next()] == [1, 2]
    assert await batches.next() is None
