"""Issue 40: master discoveries through Sentinel, many at once while a sentinel is gone (what
a fail-over brings: every new connection asks), keep every sentinel exactly once. redis-py's
own discovery could put one sentinel in two places and drop another, leaving its sockets to
the garbage collector (the ResourceWarnings that ended the long fail-over run) and never
asking it again. Real sentinels from tests/topologies.py."""

from __future__ import annotations

import asyncio
import signal

import pytest
from topologies import LocalSentinel

from parlour.store import connection

pytestmark = pytest.mark.xdist_group("redis-topologies")


async def test_concurrent_discoveries_keep_every_sentinel_once():
    """The first sentinel killed, forty discoveries at once: each finds the primary, and
    the client still knows each of the three sentinels once (the one that answered
    first in line)."""
    with LocalSentinel() as sentinels:
        client = connection.connect(sentinels.url)
        manager = client.connection_pool.sentinel_manager
        known = {id(s) for s in manager.sentinels}
        primary = sentinels.primary()
        try:
            sentinels.signal(sentinels.sentinel_ports[0], signal.SIGKILL)
            found = await asyncio.gather(
                *(manager.discover_master(sentinels.service) for _ in range(40))
            )
            assert {int(port) for _, port in found} == {primary}
            assert sorted(id(s) for s in manager.sentinels) == sorted(known)
            first = manager.sentinels[0].connection_pool.connection_kwargs["port"]
            assert first != sentinels.sentinel_ports[0]
        finally:
            await client.aclose()
            for sentinel in manager.sentinels:
                await sentinel.aclose()
