"""Issue 25, item 4: with identity on, every RPC refuses a call with no identity token, an
expired one, one from another issuer or for another audience, or one not signed by the
provider; and every call about a seat refuses another person's seat token. Each refusal
changes nothing in Redis and carries nothing but its status and ErrorInfo."""

from __future__ import annotations

import grpc
import pytest
from edge_helpers import error_info
from grpc_status import rpc_status
from identity_helpers import identity_stack, metadata, snapshot

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.store.matchstore import MatchStore


def calls(match: str, action, version: int) -> dict:
    """RPC name -> a function making that call with the given metadata (streams: their
    first message)."""

    async def first(stream):
        return await stream.read()

    def play(stub, md):
        opening = gw.PlayRequest(open=gw.OpenSession(match=match))
        return first(stub.Play(iter([opening]), metadata=md))

    return {
        "ListGames": lambda s, md: s.ListGames(gw.ListGamesRequest(), metadata=md),
        "CreateMatch": lambda s, md: s.CreateMatch(
            gw.CreateMatchRequest(game="tinycards", seats=2, request_id="c1"), metadata=md
        ),
        "JoinMatch": lambda s, md: s.JoinMatch(
            gw.JoinMatchRequest(match=match, seat=0, display_name="x"), metadata=md
        ),
        "GetMatch": lambda s, md: s.GetMatch(gw.GetMatchRequest(match=match), metadata=md),
        "GetView": lambda s, md: s.GetView(gw.GetViewRequest(match=match), metadata=md),
        "ListActions": lambda s, md: s.ListActions(gw.ListActionsRequest(match=match), metadata=md),
        "SubmitAction": lambda s, md: s.SubmitAction(
            gw.SubmitActionRequest(
                match=match, action=action, request_id="a1", expected_version=version
            ),
            metadata=md,
        ),
        "StreamEvents": lambda s, md: first(
            s.StreamEvents(gw.StreamEventsRequest(match=match), metadata=md)
        ),
        "Play": play,
        "LeaveMatch": lambda s, md: s.LeaveMatch(gw.LeaveMatchRequest(match=match), metadata=md),
        "SampleHidden": lambda s, md: s.SampleHidden(
            gw.SampleHiddenRequest(match=match, seed=1, count=1), metadata=md
        ),
        "GetMatchLog": lambda s, md: s.GetMatchLog(gw.GetMatchLogRequest(match=match), metadata=md),
        "UndoAction": lambda s, md: s.UndoAction(
            gw.UndoActionRequest(match=match, request_id="u1"), metadata=md
        ),
        "ListMatches": lambda s, md: s.ListMatches(gw.ListMatchesRequest(), metadata=md),
        "JoinOrCreate": lambda s, md: s.JoinOrCreate(
            gw.JoinOrCreateRequest(game="tinycards", display_name="x", request_id="j1"),
            metadata=md,
        ),
        "AnswerUndo": lambda s, md: s.AnswerUndo(
            gw.AnswerUndoRequest(match=match, request_id="n1"), metadata=md
        ),
        "ListMyMatches": lambda s, md: s.ListMyMatches(gw.ListMyMatchesRequest(), metadata=md),
        "SetAway": lambda s, md: s.SetAway(
            gw.SetAwayRequest(match=match, until_unix_ms=1, request_id="w1"), metadata=md
        ),
    }


#: The calls made as a seat (they take the seat token).
SEATED = {
    "GetView",
    "ListActions",
    "SubmitAction",
    "StreamEvents",
    "Play",
    "LeaveMatch",
    "SampleHidden",
    "GetMatchLog",
    "UndoAction",
    "AnswerUndo",
    "SetAway",
}


def assert_bare(error: grpc.aio.AioRpcError, secrets: list[str]) -> None:
    """The refusal carries its status and ErrorInfo only, and repeats no credential."""
    status = rpc_status.from_call(error)
    assert status is not None
    kinds = {detail.type_url.rpartition("/")[2] for detail in status.details}
    assert kinds == {"google.rpc.ErrorInfo"}, kinds
    text = error.details() + repr(error_info(error)) + repr(error.trailing_metadata())
    for secret in secrets:
        assert secret not in text


async def test_every_rpc_refuses_bad_identity_and_other_peoples_seats(redis_url, provider):
    """Item 4: each of the gateway's RPCs × {no token, expired, wrong issuer, wrong
    audience, bad signature} is UNAUTHENTICATED with its reason; each seated RPC with
    another person's seat token is PERMISSION_DENIED SEAT_NOT_YOURS (JoinMatch of that
    seat: SEAT_TAKEN); none changes what Redis holds or says more than its status."""
    async with identity_stack(redis_url, provider) as (address, _):
        alice, bob = provider.token("alice"), provider.token("bob")
        async with (
            GatewayClient(address, identity_token=alice) as as_alice,
            GatewayClient(address, identity_token=bob) as as_bob,
        ):
            created = await as_alice.create_match("tinycards", 2, seed=3, spectators=True)
            seats = {"alice": await as_alice.join(created.name, "Alice")}
            seats["bob"] = await as_bob.join(created.name, "Bob")
            view = await seats["alice"].get_view()
            pending = view.progress.pending[0].seat
            mover = seats["alice"] if pending == seats["alice"].seat else seats["bob"]
            other = provider.token("bob" if mover is seats["alice"] else "alice")
            action = (await mover.actions()).actions[0]
        store = MatchStore.from_url(redis_url)
        try:
            before = await snapshot(store.redis)
            async with grpc.aio.insecure_channel(address) as channel:
                stub = gw_grpc.GatewayServiceStub(channel)
                table = calls(created.name, action, view.progress.version)
                for case, (token, reason) in provider.bad_tokens("alice").items():
                    for name, call in table.items():
                        with pytest.raises(grpc.aio.AioRpcError) as refused:
                            await call(stub, metadata(token, mover.token))
                        error = refused.value
                        assert error.code() == grpc.StatusCode.UNAUTHENTICATED, (case, name)
                        assert error_info(error).reason == reason, (case, name)
                        assert_bare(error, [mover.token] + ([token] if token else []))
                for name in sorted(SEATED):
                    with pytest.raises(grpc.aio.AioRpcError) as refused:
                        await table[name](stub, metadata(other, mover.token))
                    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, name
                    assert error_info(refused.value).reason == "SEAT_NOT_YOURS", name
                    assert_bare(refused.value, [mover.token, other])
                with pytest.raises(grpc.aio.AioRpcError) as taken:
                    request = gw.JoinMatchRequest(match=created.name, seat=mover.seat)
                    await stub.JoinMatch(request, metadata=metadata(other))
                assert error_info(taken.value).reason == "ALREADY_SEATED"
                stranger = metadata(provider.token("carol"))
                with pytest.raises(grpc.aio.AioRpcError) as taken:
                    request = gw.JoinMatchRequest(match=created.name, seat=mover.seat)
                    await stub.JoinMatch(request, metadata=stranger)
                assert error_info(taken.value).reason == "SEAT_TAKEN"
                mine = await stub.ListMyMatches(gw.ListMyMatchesRequest(), metadata=stranger)
                assert list(mine.matches) == []
            assert await snapshot(store.redis) == before
        finally:
            await store.close()
