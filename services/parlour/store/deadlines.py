"""Redis command deadlines kept by one watchdog per event loop.

redis-py enforces `socket_timeout` with an asyncio.timeout around every read and an
asyncio.wait_for (a task) around every write: about a quarter of an EVALSHA's client CPU.
Here a connection notes when its write or read must end and one watchdog per loop looks
every TICK seconds while any is under way: a read past its deadline fails with the
TimeoutError redis-py raises for `socket_timeout` (the connection is dropped); a write past
it has its socket aborted (ConnectionError). A stopped server is still given up on, within
the timeout plus TICK.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.utils import check_protocol_version

#: Seconds between the watchdog's looks (only while commands are under way).
TICK = 0.25


class Watchdog:
    """The deadlines of one event loop's Redis connections."""

    def __init__(self) -> None:
        self.busy: dict[Any, float] = {}
        self.task: asyncio.Task | None = None
        #: A deadline was set since the last look (the watchdog keeps looking a tick more:
        #: no new timer for each command of a lightly loaded process).
        self.active = False

    def watch(self, connection: Any, deadline: float) -> None:
        self.busy[connection] = deadline
        self.active = True
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def done(self, connection: Any) -> None:
        self.busy.pop(connection, None)

    async def _run(self) -> None:
        try:
            while self.busy or self.active:
                self.active = False
                await asyncio.sleep(TICK)
                now = time.monotonic()
                for connection in [c for c, at in self.busy.items() if at <= now]:
                    del self.busy[connection]
                    connection.expire()
        finally:
            self.task = None


_WATCHDOGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watchdog() -> Watchdog:
    """The running loop's watchdog."""
    loop = asyncio.get_running_loop()
    found = _WATCHDOGS.get(loop)
    if found is None:
        found = _WATCHDOGS[loop] = Watchdog()  # (holds no loop: the entry goes with it)
    return found


class Deadlines:
    """Mixin for a redis.asyncio connection class: each write, and each read without a
    timeout of its own, must end within `command_timeout` seconds (the class's own
    socket_timeout is None). It adds no coroutine to a command: it replaces redis-py's
    innermost write and read steps instead of wrapping them."""

    def __init__(self, *args: Any, command_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command_timeout = command_timeout
        self._watchdog: Watchdog | None = None
        self._watch_read = True
        self._writing = False
        self._expired = False

    def _dog(self) -> Watchdog:
        if self._watchdog is None:
            self._watchdog = watchdog()
        return self._watchdog

    async def _send_packed_command(self, command: Any) -> None:
        writer = self._writer
        if writer is None or writer.transport.is_closing():
            raise RedisConnectionError("Connection closed by the server before write")
        dog = self._watchdog or self._dog()
        self._writing = True
        dog.watch(self, time.monotonic() + self.command_timeout)
        try:
            writer.writelines(command)
            await writer.drain()
        finally:
            dog.done(self)
            self._writing = False

    def read_response(
        self, disable_decoding: bool = False, timeout: float | None = None, **kwargs: Any
    ) -> Any:
        # (a caller's own timeout, as pub/sub polls and blocking reads have, is not ours)
        self._watch_read = timeout is None
        return super().read_response(disable_decoding, timeout, **kwargs)

    async def _read_response_from_parser(
        self, disable_decoding: bool = False, push_request: bool | None = False
    ) -> Any:
        kwargs = {"push_request": push_request} if check_protocol_version(self.protocol, 3) else {}
        if not self._watch_read:
            return await self._parser.read_response(disable_decoding=disable_decoding, **kwargs)
        dog = self._watchdog or self._dog()
        dog.watch(self, time.monotonic() + self.command_timeout)
        try:
            return await self._parser.read_response(disable_decoding=disable_decoding, **kwargs)
        finally:
            dog.done(self)
            if self._expired:  # (also when the answer came just as the watchdog looked)
                self._expired = False
                await self.disconnect(nowait=True)

    async def disconnect(self, *args: Any, **kwargs: Any) -> None:
        self._watchdog = None  # a reconnection may be on another loop
        await super().disconnect(*args, **kwargs)

    def expire(self) -> None:
        """The deadline passed: fail the read (as socket_timeout would) or abort the write."""
        self._expired = True
        if self._writing:
            if self._writer is not None:
                self._writer.transport.abort()
        elif self._reader is not None:
            self._reader.set_exception(TimeoutError("Redis did not answer in time"))


_CLASSES: dict[type, type] = {}


def watched(client: Any, timeout: float) -> Any:
    """`client` (a redis.asyncio Redis, standalone or through Sentinel) with its commands'
    deadlines kept by the watchdog instead of per-command timers; before its first use."""
    pool = client.connection_pool
    base = pool.connection_class
    if base not in _CLASSES:
        _CLASSES[base] = type(f"Watched{base.__name__}", (Deadlines, base), {})
    pool.connection_class = _CLASSES[base]
    pool.connection_kwargs.update(socket_timeout=None, command_timeout=timeout)
    return client
