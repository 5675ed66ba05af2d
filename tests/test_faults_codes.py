"""The right refusal code under faults, over real processes (issue 28 items 3 and 4;
DESIGN: Contracts, "a stale expected version is refused with ABORTED")."""

from __future__ import annotations

import grpc
from edge_helpers import error_info

from parlour.client import GatewayClient
from parlour.engine.rng import Rng
from parlour.launcher import LocalStack, Process
from parlour.rules.v1 import rules_pb2, rules_service_pb2_grpc


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
                for seat in range(2):
                    await client.join(match.name, f"p{seat}")
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

                def act(racer: str, action=action, seat=seat, version=version):
                    return rules_pb2.ActRequest(
                        match_id=match_id,
                        seat=seat,
                        action=action,
                        request_id=f"{racer}-{step}",
                        expected_version=version,
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
