"""Issue 34 item 3: the last edges under faults, each with a test that fails without its fix."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import time

import grpc
import pytest
import uvloop
from edge_helpers import error_info

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import LocalStack
from parlour.rpc import metrics
from parlour.rpc.errors import classify
from parlour.rpc.interceptor import Drain, ServerInterceptor


def closed_transport_error() -> RuntimeError:
    """What uvloop raises for a write on a connection it already closed (redis-py lets it
    through while Redis restarts), made on a real loopback connection."""

    async def write_after_close() -> RuntimeError:
        server = await asyncio.start_server(lambda _r, peer: peer.close(), "127.0.0.1", 0)
        _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
        writer.transport.abort()
        await asyncio.sleep(0)
        try:
            writer.write(b"PING\r\n")
        except RuntimeError as error:
            return error
        finally:
            server.close()
            await server.wait_closed()
        raise AssertionError("the write on a closed transport did not fail")

    return uvloop.run(write_after_close())


def test_a_write_on_a_closed_redis_connection_is_unavailable_with_a_reason():
    """Issue 34: `RuntimeError: unable to perform operation on <TCPTransport closed=True>`
    (the seat-token lookup in edge.py while Redis restarts) is UNAVAILABLE
    STORAGE_UNAVAILABLE, retryable, never INTERNAL."""
    error = closed_transport_error()
    assert "closed=True" in str(error)
    refusal = classify(error)
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE")


def test_other_runtime_errors_stay_internal():
    """Only the closed-transport write is an outage; any other RuntimeError is a bug."""
    assert classify(RuntimeError("something else")).code is grpc.StatusCode.INTERNAL


def handled(method: str, code: str) -> float:
    """This process's grpc_server_handled_total for the test service's `method`."""
    labels = ("test.Streams", method, "server_stream", code)
    return metrics.GRPC_HANDLED.labels(*labels)._value.get()


async def test_a_client_cancelled_stream_ends_cancelled_not_unknown(caplog):
    """Issue 34: a server stream the client cancels while the server is between two
    messages ends CANCELLED in the metrics and the request log, never UNKNOWN with
    `ValueError: ... was created in a different Context` (the loop closes the abandoned
    generator in another task)."""

    async def endless(_request, _context):
        while True:
            yield b"x" * 1024

    handler = grpc.method_handlers_generic_handler(
        "test.Streams", {"Endless": grpc.unary_stream_rpc_method_handler(endless)}
    )
    server = grpc.aio.server(interceptors=[ServerInterceptor(Drain(), {})])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    before = {code: handled("Endless", code) for code in ("UNKNOWN", "CANCELLED")}
    caplog.set_level(logging.INFO, logger="parlour.requests")
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = channel.unary_stream("/test.Streams/Endless")
            for _ in range(20):
                stream = call(b"")
                await stream.read()
                stream.cancel()
            ended = lambda: handled("Endless", "CANCELLED") - before["CANCELLED"]  # noqa: E731
            async with asyncio.timeout(20):
                while ended() + handled("Endless", "UNKNOWN") - before["UNKNOWN"] < 20:
                    gc.collect()
                    await asyncio.sleep(0.05)
    finally:
        await server.stop(None)
    assert handled("Endless", "UNKNOWN") == before["UNKNOWN"]
    assert ended() == 20
    logged = [r for r in caplog.records if r.name == "parlour.requests"]
    assert {r.grpc_code for r in logged} == {"CANCELLED"}
    assert not [r for r in caplog.records if "different Context" in r.getMessage()]


async def test_a_play_stream_opened_as_the_drain_begins_gets_server_draining():
    """Issue 34: a Play stream that subscribes after SIGTERM (its `open` arrives while the
    gateway drains) is ended UNAVAILABLE SERVER_DRAINING within the grace, not cut by the
    process's exit (seen as INTERNAL)."""
    env = {"PARLOUR_DRAIN_SECONDS": "8", "PARLOUR_HEARTBEAT_SECONDS": "0.2"}
    with LocalStack(["tinycards"], env=env) as stack:
        async with GatewayClient(stack.address) as client:
            match = await client.create_match("tinycards", 2, seed=3)
            seat = await client.join(match.name, "p0", seat=0)
        go = asyncio.Event()

        async def requests():
            await go.wait()
            yield gw.PlayRequest(open=gw.OpenSession(match=match.name))
            await asyncio.Event().wait()  # the client sends nothing more

        async with grpc.aio.insecure_channel(stack.address) as channel:
            stream = gw_grpc.GatewayServiceStub(channel).Play(
                requests(), metadata=seat.metadata
            )
            await asyncio.sleep(0.5)  # the call is open on the gateway
            stack.gateway.popen.send_signal(signal.SIGTERM)
            await asyncio.sleep(0.5)  # the drain has begun
            go.set()
            started = time.monotonic()
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                async for _ in stream:
                    pass
            took = time.monotonic() - started
    assert ended.value.code() is grpc.StatusCode.UNAVAILABLE
    assert error_info(ended.value).reason == "SERVER_DRAINING"
    assert took < 5, f"the stream ended {took:.1f} s after its open (grace 8 s)"
