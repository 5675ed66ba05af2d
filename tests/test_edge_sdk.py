"""Issue 9, item 19: the Python SDK surfaces the server's status when Play is refused."""

from __future__ import annotations

import grpc

from parlour.client import Backoff, GatewayClient
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from parlour.store.server import EmbeddedRedis
from stack import running_stack


async def test_item19_a_play_session_refused_on_open_reports_the_server_status():
    """Item 19: with storage down the gateway refuses Play on open with UNAVAILABLE, and
    the SDK reports exactly that, even with actions already queued on the session (once
    its reconnection attempts, one here, are spent)."""
    with EmbeddedRedis() as redis:
        async with running_stack(redis.url) as (address, _):
            once = Backoff(initial=0.001, maximum=0.001, attempts=1)
            async with GatewayClient(address, backoff=once) as client:
                match = await client.create_match("tinycards", 2)
                seat = await client.join(match.name, "a")
                redis.stop()
                codes = set()
                for _ in range(30):
                    session = seat.session()
                    for _ in range(10):
                        session.send(tc.Action())
                    try:
                        await session.receive()
                    except grpc.aio.AioRpcError as error:
                        codes.add(error.code())
                assert codes == {grpc.StatusCode.UNAVAILABLE}
