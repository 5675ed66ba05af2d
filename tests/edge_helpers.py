"""Helpers for the issue 9 edge tests: status details, seated matches, playing turns."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status


def error_info(error: grpc.aio.AioRpcError) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo detail of a failed call."""
    status = rpc_status.from_call(error)
    assert status is not None, "the status carries no details"
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    raise AssertionError("no ErrorInfo in the status details")


async def refusal(call) -> tuple[grpc.StatusCode, str]:
    """The status code and ErrorInfo reason a call is refused with (it must be refused)."""
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call
    return refused.value.code(), error_info(refused.value).reason


def field_violations(error: grpc.aio.AioRpcError) -> dict[str, str]:
    """BadRequest field -> violation reason, from a failed call."""
    status = rpc_status.from_call(error)
    assert status is not None, "the status carries no details"
    found: dict[str, str] = {}
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found.update({v.field: v.reason for v in bad.field_violations})
    return found


async def seated(client, seats: int = 2, seed: int = 5):
    """A tinycards match with every seat taken."""
    match = await client.create_match("tinycards", seats, seed=seed, spectators=True)
    return match, [await client.join(match.name, f"p{i}") for i in range(seats)]


async def take_turn(players) -> object:
    """The pending seat plays its first legal action; returns the response."""
    view = await players[0].get_view()
    seat = view.progress.pending[0].seat
    actions = (await players[seat].actions()).actions
    return await players[seat].submit(actions[0])
