"""One long-lived ActStream to one rules replica, multiplexing many Acts (batched when queued)."""

from __future__ import annotations

import asyncio
import itertools
import time

import grpc

from parlour.rpc import metrics
from parlour.rpc.batching import Batches, Mailbox
from parlour.rpc.errors import ServiceError, invalid_argument, unavailable
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc

#: Most Acts (or answers) carried by one stream message.
MAX_BATCH = 256
#: Largest single Act sent on a link (the rules service receives at most 4 MiB).
MAX_ACT_BYTES = 3 * 1024 * 1024
#: How often unanswered Acts are checked against their deadlines (one timer per link,
#: while any Act waits).
SWEEP_SECONDS = 0.5


class ActLink:
    """Sends Acts over one open stream and matches answers to callers by call id."""

    def __init__(self, stub: pb_grpc.RulesServiceStub, address: str) -> None:
        self.stub = stub
        self.address = address
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        #: Each pending call's deadline (time.monotonic()), checked by one sweeper.
        self._deadlines: dict[int, float] = {}
        self._outbox: Mailbox | None = None
        self._reader: asyncio.Task | None = None
        self._sweeper: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def act(self, request: pb.ActRequest, timeout: float = 30.0) -> pb.ActResponse:
        """Send one Act and wait for its answer; ServiceError if refused or the link fails.

        An Act too large for the link is refused alone, before it is sent."""
        if request.ByteSize() > MAX_ACT_BYTES:
            raise invalid_argument("action", "the action is too large", "ACTION_TOO_LARGE")
        outbox = self._open()
        call_id = next(self._ids)
        future = self._loop.create_future()
        self._pending[call_id] = future
        self._deadlines[call_id] = time.monotonic() + timeout
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = self._loop.create_task(self._sweep())
        outbox.put_nowait(pb.ActStreamRequest(call_id=call_id, act=request))
        try:
            return await future
        finally:
            del self._pending[call_id], self._deadlines[call_id]

    async def _sweep(self) -> None:
        """Fail the calls whose deadline passed (UNAVAILABLE), every SWEEP_SECONDS while
        any call waits (an idle link has no timer)."""
        while self._deadlines:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            late = [i for i, deadline in self._deadlines.items() if deadline <= now]
            for call_id in late:
                future = self._pending[call_id]
                if not future.done():
                    future.set_exception(
                        unavailable("the game service did not answer in time", detail=self.address)
                    )

    def _open(self) -> Mailbox:
        if self._outbox is None or self._reader is None or self._reader.done():
            self._loop = asyncio.get_running_loop()
            self._outbox = Mailbox()
            self._reader = self._loop.create_task(self._run(self._outbox))
        return self._outbox

    async def _run(self, outbox: Mailbox) -> None:
        async def requests():
            batches = Batches(outbox, MAX_BATCH)
            while (batch := await batches.next()) is not None:
                yield batch[0] if len(batch) == 1 else pb.ActStreamRequest(batch=batch)

        call = self.stub.ActStream(requests())
        failure: ServiceError = unavailable("the game service closed the link", detail=self.address)
        try:
            async for message in call:
                for answer in message.batch or (message,):
                    future = self._pending.get(answer.call_id)
                    if future is None or future.done():
                        continue
                    if answer.HasField("error"):
                        future.set_exception(ServiceError.from_status(answer.error))
                    else:
                        future.set_result(answer.response)
        except grpc.aio.AioRpcError as error:
            metrics.RULES_LINK_FAILURES.inc()
            failure = unavailable(
                "the game service is unavailable", detail=f"{self.address}: {error.details()}"
            )
        finally:
            if self._outbox is outbox:
                self._outbox = None
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(failure)
            call.cancel()

    async def close(self) -> None:
        """End the stream."""
        if self._outbox is not None:
            self._outbox.put_nowait(None)
        if self._reader is not None:
            self._reader.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
