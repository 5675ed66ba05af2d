"""Issue 31 item 2: a Play action's ack leaves before its events, also when the events reached
the gateway before the rules service's answer and were held; an Act the rules replica does
not answer fails at its deadline."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest

from parlour.gateway.fanout import EventHub
from parlour.gateway.links import SWEEP_SECONDS, ActLink
from parlour.gateway.play import PlaySession
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError
from parlour.rules.v1 import rules_pb2 as rules
from parlour.rules.v1 import rules_service_pb2_grpc as rules_grpc
from parlour.store.matchstore import encode_visibility


async def test_issue31_held_events_follow_the_ack(store, match_id):
    """The seat's own event arrives through Redis (as when another gateway's notice makes the
    feed read) while its action is in flight: the session holds it, and on the answer the
    client gets the ack first, then the event, as when nothing was held."""
    await store.create_state(match_id, b"s", b"")
    hub = EventHub(store)
    session: PlaySession

    async def act(action: gw.SubmitActionRequest) -> gw.SubmitActionResponse:
        await store.commit(match_id, 1, b"s", [(b"e", encode_visibility(None), 0)], "r", b"x", b"")
        hub.notified(match_id)  # the feed reads the event from Redis before the answer
        while not session.held:
            await asyncio.sleep(0.01)
        response = gw.SubmitActionResponse()
        response.result.progress.last_sequence = 1
        return response

    async def requests():
        yield gw.PlayRequest(action=gw.SubmitActionRequest(request_id="a"))

    async def finished() -> gw.MatchFinished:
        return gw.MatchFinished()

    session = PlaySession(0, act, lambda e: gw.MatchEvent(sequence=e.sequence), 5.0, finished)
    kinds = []
    async with hub.subscribe(match_id, 0, 0) as sub:
        async for message in session.run(gw.SessionOpened(), requests(), sub):
            items = message.batch.items if message.HasField("batch") else [message]
            kinds += [item.WhichOneof("kind") for item in items]
    await hub.close()
    assert kinds == ["opened", "ack", "event"]


class SilentRules(rules_grpc.RulesServiceServicer):
    """A rules service that takes Acts and never answers (a replica stuck mid-commit)."""

    async def ActStream(self, request_iterator, context):
        async for _ in request_iterator:
            pass
        yield rules.ActStreamResponse()  # pragma: no cover - the caller gives up first


async def test_issue31_an_unanswered_act_fails_at_its_deadline():
    """The link's one deadline sweeper (not a timer per Act) fails an Act the replica does
    not answer with UNAVAILABLE soon after its timeout, and forgets it."""
    server = grpc.aio.server()
    rules_grpc.add_RulesServiceServicer_to_server(SilentRules(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            link = ActLink(rules_grpc.RulesServiceStub(channel), f"127.0.0.1:{port}")
            started = time.monotonic()
            with pytest.raises(ServiceError) as failed:
                await asyncio.wait_for(link.act(rules.ActRequest(match_id="m"), timeout=0.2), 5)
            waited = time.monotonic() - started
            assert failed.value.code == grpc.StatusCode.UNAVAILABLE
            assert 0.2 <= waited < 0.2 + SWEEP_SECONDS + 1.0, waited
            assert not link._pending and not link._deadlines
            await link.close()
    finally:
        await server.stop(None)
