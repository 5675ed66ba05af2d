"""Issue 40 item 4: a Play client learns the server's status (UNAUTHENTICATED for a
malformed credential, UNAVAILABLE SERVER_DRAINING at a gateway's SIGTERM), never gRPC's
own INTERNAL "Internal error from Core", even when its write races the server's end.

The INTERNAL is made on the client: grpc.aio's `_write` replaces the call's status with it
when a write meets a stream the server has just ended (grpc/grpc#36066). The server never
answers INTERNAL: the sync client, whose writes never touch the status, always reads the
server's code. parlour.client.status.ServerStatus keeps the server's status from the call's
done callbacks; the SDK's Play session raises that one. Each test loads both cores with
busy loops, so writes and refusals race often (the raw INTERNAL shows in ~3-20 % of calls).
"""

from __future__ import annotations

import asyncio
import collections
import signal
import subprocess
import sys

import grpc
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from identity_helpers import AUDIENCE, ISSUER, Provider

from parlour.client import Backoff, GatewayClient
from parlour.client.client import Seat
from parlour.client.status import ServerStatus
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import LocalStack, free_port, wait_serving

#: Malformed credentials: another scheme, an empty bearer.
MALFORMED = {"basic": "Basic dXNlcjpwYXNz", "empty bearer": "Bearer "}
#: An action to write (never read: the credential is refused first).
ACTION = any_pb2.Any(type_url="type.googleapis.com/parlour.tinycards.v1.Action")
#: The long variants' limit (pytest's default 300 s is too short for them).
LONG_SECONDS = 1800
#: Seconds any one call may take on a loaded machine before the test fails naming it.
CALL_SECONDS = 60


@pytest.fixture
def busy():
    """Two busy loops (the machine has 2 cores), for as long as the test runs."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for loop in loops:
        loop.kill()
        loop.wait()


def said(error: grpc.RpcError) -> str:
    """'CODE REASON': a status's code and its ErrorInfo reason ('' without one)."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return f"{error.code().name} {info.reason}"
    return f"{error.code().name} "


def identity_env(provider: Provider) -> dict[str, str]:
    return {
        "PARLOUR_AUTH_JWKS_URL": provider.url,
        "PARLOUR_AUTH_ISSUER": ISSUER,
        "PARLOUR_AUTH_AUDIENCE": AUDIENCE,
    }


def requests(match: str, action, count: int):
    """The open message, then `count` actions at once (not waiting for `opened`)."""
    yield gw.PlayRequest(open=gw.OpenSession(match=match))
    for k in range(count):
        yield gw.PlayRequest(action=gw.SubmitActionRequest(action=action, request_id=f"a{k}"))


async def raw_play(stub, match: str, action, metadata) -> tuple[str, str]:
    """A raw grpc.aio Play writing actions at once: (the code grpc.aio raised, the code the
    server ended the call with, as ServerStatus keeps it)."""
    call = stub.Play(requests(match, action, 3), metadata=metadata)
    watcher = ServerStatus(call)
    try:
        async with asyncio.timeout(CALL_SECONDS):
            async for _ in call:
                pass
    except grpc.aio.AioRpcError as raised:
        return raised.code().name, said(await watcher.of(raised))
    return "OK", "OK "


def sync_play(address: str, match: str, action, metadata) -> str:
    """The same with the sync client: its failed writes leave the server's status alone."""
    with grpc.insecure_channel(address) as channel:
        stub = gw_grpc.GatewayServiceStub(channel)
        try:
            for _ in stub.Play(requests(match, action, 3), metadata=metadata, timeout=60):
                pass
        except grpc.RpcError as error:
            return said(error)
    return "OK "


async def sdk_play(seat: Seat, action) -> str:
    """An SDK Play session (no second try: Backoff(attempts=0)) sending an action; the
    code `receive` raised."""
    session = seat.session()
    session.send(action)
    try:
        async with asyncio.timeout(CALL_SECONDS):
            while True:
                await session.receive()
    except grpc.aio.AioRpcError as error:
        return said(error)
    finally:
        session.cancel()


async def new_match(address: str, **client) -> str:
    """A tinycards match (the credentials are refused before any seat matters)."""
    async with GatewayClient(address, **client) as owner:
        return (await owner.create_match("tinycards", 2, seed=3)).name


async def credential_matrix(rounds: int) -> collections.Counter:
    """Play with a malformed credential, identity off and on, raw and SDK, `rounds` times."""
    seen: collections.Counter = collections.Counter()
    provider = Provider()
    try:
        for identity in (False, True):
            env = identity_env(provider) if identity else {}
            with LocalStack(["tinycards"], env=env) as stack:
                token = provider.token("owner") if identity else None
                match = await new_match(stack.address, identity_token=token)
                async with GatewayClient(stack.address, backoff=Backoff(attempts=0)) as client:
                    for _ in range(rounds):
                        for name, credential in MALFORMED.items():
                            metadata = (("authorization", credential),)
                            raw = await raw_play(client.stub, match, ACTION, metadata)
                            seen[("raw", identity, name, *raw)] += 1
                            seat = Seat(client, match, 0, "")
                            seat.metadata = metadata
                            seen[("sdk", identity, name, await sdk_play(seat, ACTION))] += 1
                    sync = await asyncio.to_thread(
                        sync_play, stack.address, match, ACTION, (("authorization", "Basic x"),)
                    )
                    seen[("sync", identity, "basic", sync)] += 1
    finally:
        provider.close()
    return seen


def check_credentials(seen: collections.Counter, rounds: int) -> None:
    """Every client, every time: the server's UNAUTHENTICATED, with a reason."""
    codes: collections.Counter = collections.Counter()
    for key, count in seen.items():
        code, reason = key[-1].split(" ")
        codes[(key[0], code if reason else "no reason")] += count
    assert codes == {
        ("raw", "UNAUTHENTICATED"): 2 * len(MALFORMED) * rounds,
        ("sdk", "UNAUTHENTICATED"): 2 * len(MALFORMED) * rounds,
        ("sync", "UNAUTHENTICATED"): 2,
    }, seen


async def test_play_with_a_malformed_credential_learns_unauthenticated(busy):
    """Raw grpc.aio, the SDK and the sync client: the server's UNAUTHENTICATED every time,
    whether grpc.aio raised its own INTERNAL for an action written as the refusal came."""
    seen = await credential_matrix(20)
    check_credentials(seen, 20)


@pytest.mark.slow
@pytest.mark.timeout(LONG_SECONDS)
async def test_play_with_a_malformed_credential_learns_unauthenticated_long(busy):
    seen = await credential_matrix(400)
    check_credentials(seen, 400)


async def open_then_wait(stub, match: str, metadata) -> str:
    """A careful raw client: writes `open`, then waits for the answer; the code grpc.aio
    itself raised (no ServerStatus)."""

    async def opening_only():
        yield gw.PlayRequest(open=gw.OpenSession(match=match))
        await asyncio.sleep(CALL_SECONDS)

    try:
        async with asyncio.timeout(CALL_SECONDS):
            async for _ in stub.Play(opening_only(), metadata=metadata):
                pass
    except grpc.aio.AioRpcError as error:
        return said(error)
    return "OK "


async def test_a_raw_play_writing_only_open_gets_unauthenticated_from_grpc_itself(busy):
    """With identity on, the gateway refuses a malformed credential once the stream's first
    message has arrived (as it does with identity off), so a raw client that writes `open`
    and waits never has a write racing the refusal: grpc.aio raises UNAUTHENTICATED itself
    (before: INTERNAL in 4 of 150)."""
    seen: collections.Counter = collections.Counter()
    provider = Provider()
    try:
        with LocalStack(["tinycards"], env=identity_env(provider)) as stack:
            match = await new_match(stack.address, identity_token=provider.token("owner"))
            async with GatewayClient(stack.address) as client:
                for k in range(150):
                    credential = list(MALFORMED.values())[k % len(MALFORMED)]
                    metadata = (("authorization", credential),)
                    seen[await open_then_wait(client.stub, match, metadata)] += 1
    finally:
        provider.close()
    assert seen == {"UNAUTHENTICATED IDENTITY_MISSING": 150}, seen


async def writing_play_raw(stub, seat: Seat, action, started: asyncio.Event) -> tuple[str, str]:
    """A raw Play writing actions until the stream ends (request ids never repeat)."""

    async def forever():
        yield gw.PlayRequest(open=gw.OpenSession(match=seat.match))
        k = 0
        while True:
            k += 1
            request = gw.SubmitActionRequest(action=action, request_id=f"{seat.token[:10]}{k}")
            yield gw.PlayRequest(action=request)
            await asyncio.sleep(0.001)

    call = stub.Play(forever(), metadata=seat.metadata)
    watcher = ServerStatus(call)
    try:
        async for _ in call:
            started.set()
    except grpc.aio.AioRpcError as raised:
        return raised.code().name, said(await watcher.of(raised))
    return "OK", "OK "


async def writing_play_sdk(seat: Seat, action, started: asyncio.Event) -> str:
    """An SDK Play session sending actions until it ends; the code `receive` raised."""
    session = seat.session()
    try:
        while True:
            session.send(action)
            await session.receive()
            started.set()
    except grpc.aio.AioRpcError as error:
        return said(error)
    finally:
        session.cancel()


async def sigterm_rounds(rounds: int, matches: int = 6) -> collections.Counter:
    """Play sessions writing actions while their gateway is SIGTERMed, `rounds` times (the
    gateway started again on its port between rounds): what each session ended with."""
    seen: collections.Counter = collections.Counter()
    env = {"PARLOUR_DRAIN_SECONDS": "1"}
    with LocalStack(["tinycards"], env=env, gateway_address=f"127.0.0.1:{free_port()}") as stack:
        routes = ";".join(f"{game}={stack.rules_target(game)}" for game in stack.rules)
        for _ in range(rounds):
            # attempts=0: the first status the session meets is the one it raises
            async with GatewayClient(stack.address, backoff=Backoff(attempts=0)) as client:
                seats = []
                for seed in range(matches):
                    match = await client.create_match("tinycards", 2, seed=seed)
                    seats += [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
                action = (await seats[0].actions()).actions[0]
                started = [asyncio.Event() for _ in range(2 * len(seats))]
                raw = [
                    writing_play_raw(client.stub, seat, action, started[i])
                    for i, seat in enumerate(seats)
                ]
                sdk = [
                    writing_play_sdk(seat, action, started[len(seats) + i])
                    for i, seat in enumerate(seats)
                ]
                sessions = [asyncio.create_task(s) for s in raw + sdk]
                async with asyncio.timeout(CALL_SECONDS):
                    await asyncio.gather(*(event.wait() for event in started))
                stack.gateway.popen.send_signal(signal.SIGTERM)
                async with asyncio.timeout(CALL_SECONDS):
                    ended = await asyncio.gather(*sessions)
                for k, result in enumerate(ended):
                    kind = "raw" if k < len(seats) else "sdk"
                    seen[(kind, *result) if kind == "raw" else (kind, result)] += 1
            assert await asyncio.to_thread(stack.gateway.popen.wait, CALL_SECONDS) == 0
            stack.gateway = stack.start_gateway(routes)
            await asyncio.to_thread(wait_serving, stack.gateway)
    return seen


def check_sigterm(seen: collections.Counter) -> None:
    """The server's UNAVAILABLE for every session (SDK: its first answer; raw: the status
    ServerStatus kept, whatever grpc.aio raised)."""
    assert {key[-1] for key in seen} == {"UNAVAILABLE SERVER_DRAINING"}, seen


async def test_play_at_a_gateway_sigterm_learns_unavailable(busy):
    check_sigterm(await sigterm_rounds(3))


@pytest.mark.slow
@pytest.mark.timeout(LONG_SECONDS)
async def test_play_at_a_gateway_sigterm_learns_unavailable_long(busy):
    check_sigterm(await sigterm_rounds(40))
