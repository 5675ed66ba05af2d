"""The right refusal code under faults, over real processes (issue 28 items 3 and 4;
DESIGN: Contracts, "a stale expected version is refused with ABORTED")."""

from __future__ import annotations

import asyncio
import collections
import signal

import grpc
from edge_helpers import error_info
from grpc_status import rpc_status

from parlour.client import Backoff, GatewayClient
from parlour.engine.rng import Rng
from parlour.gateway import tokens
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import LocalStack, Process, wait_serving
from parlour.rpc.errors import ServiceError
from parlour.rules.v1 import rules_pb2, rules_service_pb2_grpc
from parlour.store.server import free_port


def rules_stub(proc: Process, channels: list) -> rules_service_pb2_grpc.RulesServiceStub:
    """A stub on one rules replica, with the identity its mutual TLS port accepts."""
    channel = grpc.aio.secure_channel(proc.address, proc.credentials, options=proc.options)
    channels.append(channel)
    return rules_service_pb2_grpc.RulesServiceStub(channel)


async def test_the_losing_racer_gets_aborted_through_either_replica():
    """Two replicas race every action of a match, the final one included, with the same
    expected version: the one that commits second is refused ABORTED VERSION_MISMATCH,
    never FAILED_PRECONDITION GAME_OVER, although its replica had the old version cached."""
    with LocalStack(["tinycards"], replicas=2) as stack:
        channels: list = []
        first, second = (rules_stub(p, channels) for p in stack.rules["tinycards"])
        try:
            async with GatewayClient(stack.address) as client:
                match = await client.create_match("tinycards", 2, seed=7)
                joined = [await client.join(match.name, f"p{seat}") for seat in range(2)]
            held = {s.seat: tokens.token_hash(s.token) for s in joined}
            match_id = match.name.removeprefix("matches/")
            rng = Rng.from_seed(7)
            await second.GetView(rules_pb2.GetViewRequest(match_id=match_id))
            finished, step = False, 0
            while not finished:
                viewed = await first.GetView(rules_pb2.GetViewRequest(match_id=match_id))
                seat = viewed.progress.pending[0].seat
                listed = await first.ListActions(
                    rules_pb2.ListActionsRequest(match_id=match_id, seat=seat)
                )
                action = listed.actions[rng.below(len(listed.actions))]
                version = listed.progress.version

                def act(racer: str, action=action, seat=seat, version=version, step=step):
                    return rules_pb2.ActRequest(
                        match_id=match_id,
                        seat=seat,
                        action=action,
                        request_id=f"{racer}-{step}",
                        expected_version=version,
                        token_hash=held[seat],
                    )

                won = await first.Act(act("winner"))
                finished = won.result.progress.HasField("outcome")
                try:
                    await second.Act(act("loser"))
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.ABORTED, (step, finished, error)
                    assert error_info(error).reason == "VERSION_MISMATCH", error
                else:
                    raise AssertionError(f"the second racer of step {step} was applied")
                step += 1
            assert step > 2
        finally:
            for channel in channels:
                await channel.close()


async def hammer(stub, request, codes: collections.Counter, reasons: collections.Counter, until):
    """Unary GetMatch calls one after another until `until` is set, counting the codes."""
    while not until.is_set():
        try:
            await stub.GetMatch(request, timeout=10)
            codes["OK"] += 1
        except grpc.aio.AioRpcError as error:
            codes[error.code().name] += 1
            status = rpc_status.from_call(error)
            if status is not None:
                reasons[ServiceError.from_status(status).reason] += 1


async def test_unary_calls_after_sigterm_are_unavailable_never_cancelled():
    """A gateway SIGTERMed under unary load answers every call OK or UNAVAILABLE: the
    calls it refuses while draining say SERVER_DRAINING (retryable), none is CANCELLED."""
    codes: collections.Counter = collections.Counter()
    reasons: collections.Counter = collections.Counter()
    with LocalStack(["tinycards"], env={"PARLOUR_DRAIN_SECONDS": "1"}) as stack:
        for _round in range(3):
            async with GatewayClient(stack.address) as client:
                match = await client.create_match("tinycards", 2, seed=3)
            request = gw.GetMatchRequest(match=match.name)
            until = asyncio.Event()
            channels = [grpc.aio.insecure_channel(stack.address) for _ in range(4)]
            workers = [
                asyncio.create_task(
                    hammer(
                        gw_grpc.GatewayServiceStub(channels[i % 4]), request, codes, reasons, until
                    )
                )
                for i in range(48)
            ]
            await asyncio.sleep(0.5)
            served = codes["OK"]
            stack.gateway.popen.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(stack.gateway.popen.wait, 30) == 0
            until.set()
            await asyncio.gather(*workers)
            for channel in channels:
                await channel.close()
            assert served > 0
            routes = ";".join(f"{game}={stack.rules_target(game)}" for game in stack.rules)
            stack.gateway = stack.start_gateway(routes)
            wait_serving(stack.gateway)
    assert codes["CANCELLED"] == 0, codes
    assert set(codes) <= {"OK", "UNAVAILABLE"}, codes
    assert set(reasons) == {"SERVER_DRAINING"}, reasons


async def play_until_refused(seat, action, request: int) -> grpc.aio.AioRpcError:
    """Open a Play session, keep writing actions, and (through another call) leave the
    seat meanwhile, so the gateway ends the stream while actions are still being written."""
    session = seat.session()
    for k in range(request):
        session.send(action, request_id=f"{seat.token[:8]}-{k}")
    left = False
    try:
        while True:
            message = await session.receive()
            if message.HasField("opened") and not left:
                left = True
                await seat.leave()
    except grpc.aio.AioRpcError as error:
        return error
    finally:
        session.cancel()
    raise AssertionError("the session ended without a status")


async def test_a_refused_play_stream_says_why_even_while_actions_are_written():
    """Ending a Play stream UNAUTHENTICATED while the client is writing actions reaches the
    SDK as UNAUTHENTICATED with the gateway's reason (the seat token was revoked or is no
    longer valid), never as gRPC's own INTERNAL "Internal error from Core"."""
    seen: collections.Counter = collections.Counter()
    with LocalStack(["tinycards"]) as stack:
        async with GatewayClient(stack.address) as client:
            for round_ in range(24):
                match = await client.create_match("tinycards", 2, seed=round_)
                seats = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
                action = (await seats[0].actions()).actions[0]
                error = await play_until_refused(seats[round_ % 2], action, 300)
                status = rpc_status.from_call(error)
                why = ServiceError.from_status(status).reason if status else error.details()
                seen[(error.code().name, why)] += 1
    assert set(seen) <= {
        ("UNAUTHENTICATED", "SEAT_TOKEN_REVOKED"),
        ("UNAUTHENTICATED", "INVALID_SEAT_TOKEN"),
    }, seen


async def ack_every_action(seat, action, count: int) -> dict[str, int]:
    """Send `count` actions on one Play session and read until each has its ack; how many
    acks each request id got."""
    session = seat.session()
    ids = [session.send(action, request_id=f"{seat.token[:8]}-{k}") for k in range(count)]
    acks = dict.fromkeys(ids, 0)
    try:
        while sum(acks.values()) < count:
            message = await session.receive()
            if message.HasField("ack"):
                acks[message.ack.request_id] += 1
    finally:
        session.cancel()
    return acks


async def test_play_sessions_writing_through_a_gateway_restart_get_every_ack():
    """Play sessions that keep writing actions while their gateway is SIGTERMed and started
    again on the same port resume by themselves: every action gets exactly one ack, and no
    session ends INTERNAL (gRPC's own code for a write that met the stream's end)."""
    env = {"PARLOUR_DRAIN_SECONDS": "1"}
    with LocalStack(["tinycards"], env=env, gateway_address=f"127.0.0.1:{free_port()}") as stack:
        async with GatewayClient(stack.address, backoff=Backoff(attempts=30)) as client:
            seats = []
            for seed in range(4):
                match = await client.create_match("tinycards", 2, seed=seed)
                seats += [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            action = (await seats[0].actions()).actions[0]
            sessions = [asyncio.create_task(ack_every_action(s, action, 400)) for s in seats]
            await asyncio.sleep(0.3)
            stack.gateway.popen.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(stack.gateway.popen.wait, 30) == 0
            routes = ";".join(f"{game}={stack.rules_target(game)}" for game in stack.rules)
            stack.gateway = stack.start_gateway(routes)
            acks = await asyncio.wait_for(asyncio.gather(*sessions), 120)
    for seat_acks in acks:
        assert set(seat_acks.values()) == {1}, seat_acks
