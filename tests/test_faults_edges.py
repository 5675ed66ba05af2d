"""Issue 34 item 3: the last edges under faults, each with a test that fails without its fix."""

from __future__ import annotations

import asyncio

import grpc
import uvloop

from parlour.rpc.errors import classify


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
