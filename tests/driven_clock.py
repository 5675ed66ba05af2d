"""A stack on a test clock, for the correspondence tests: days pass by writing an offset
that every process of the stack adds to its wall clock (no sleeps). Test modules take the
fixtures with `pytest_plugins = ["driven_clock"]`: `clock`, `stack` (module scope: a Redis of
its own, since deadlines jump days ahead; a rules replica and a gateway) and `client`."""

from __future__ import annotations

import time

import pytest
from lifecycle_support import own_redis

from parlour.client import GatewayClient
from parlour.launcher import LocalStack
from parlour.rules.clocks import CLOCK_FILE_ENV


class DrivenClock:
    """The offset file every process of the stack adds to its wall clock."""

    def __init__(self, path) -> None:
        self.path = path
        self.offset = 0
        path.write_text("0")

    def advance(self, ms: int) -> None:
        self.offset += ms
        self.path.write_text(str(self.offset))

    def now(self) -> int:
        return int(time.time() * 1000) + self.offset


@pytest.fixture(scope="module")
def clock(tmp_path_factory):
    return DrivenClock(tmp_path_factory.mktemp("clock") / "offset")


@pytest.fixture(scope="module")
def stack(clock):
    """Redis of its own, a rules replica and a gateway, all on the test clock."""
    with own_redis() as redis_url:
        env = {"PARLOUR_HEARTBEAT_SECONDS": "0.2", CLOCK_FILE_ENV: str(clock.path)}
        stack = LocalStack(["tinycards"], env=env, redis_url=redis_url).start()
        yield stack
        stack.stop()


@pytest.fixture
async def client(stack):
    async with GatewayClient(stack.address) as client:
        yield client
