"""The status a server ended a gRPC stream with, even when grpc.aio reports its own.

When a client's write meets a stream the server has just ended (a refused credential, a
draining gateway), grpc.aio replaces the server's status with INTERNAL "Internal error
from Core": its `_write` calls `set_internal_error` whether the server's status arrived
before the failed write or arrives after it (grpc/grpc#36066). Every status set on a call
goes through the call's done callbacks, so a watcher added when the call starts sees the
server's one in either order (issue 40 item 4).
"""

from __future__ import annotations

import asyncio
import contextlib

import grpc

#: What grpc.aio reports in place of the server's status when a write met the stream's end.
LOST_STATUS = "Internal error from Core"
#: Seconds to wait for the server's status once grpc.aio reported LOST_STATUS in its place
#: (it follows at once unless the connection itself is gone).
STATUS_WAIT_SECONDS = 5.0


def is_lost(code: grpc.StatusCode | None, details: str | None) -> bool:
    """Whether a status is grpc.aio's own LOST_STATUS, not the server's."""
    return code == grpc.StatusCode.INTERNAL and details == LOST_STATUS


def _now(accessor):
    """The value of an ended call's status accessor (a coroutine that does not wait once
    the call has a status); None if it would wait."""
    try:
        accessor.send(None)
    except StopIteration as done:
        return done.value
    accessor.close()
    return None


class ServerStatus:
    """Watches one call, from its start, for the status its server ended it with.

    `await watcher.of(error)` is the error a read raised, or, when that is LOST_STATUS, the
    server's status as an AioRpcError (code OK when the server ended the stream cleanly)."""

    def __init__(self, call) -> None:
        self.error: grpc.aio.AioRpcError | None = None
        self.known = asyncio.Event()
        call.add_done_callback(self._seen)

    def _seen(self, call) -> None:
        code, details = _now(call.code()), _now(call.details())
        if self.known.is_set() or code is None or is_lost(code, details):
            return
        trailing = _now(call.trailing_metadata()) or grpc.aio.Metadata()
        self.error = grpc.aio.AioRpcError(code, grpc.aio.Metadata(), trailing, details)
        self.known.set()

    async def of(
        self, error: grpc.aio.AioRpcError, wait: float = STATUS_WAIT_SECONDS
    ) -> grpc.aio.AioRpcError:
        """`error`, or the server's status in its place when `error` is LOST_STATUS (still
        LOST_STATUS if the server's does not arrive within `wait` seconds)."""
        if not is_lost(error.code(), error.details()):
            return error
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.known.wait(), wait)
        return self.error or error
