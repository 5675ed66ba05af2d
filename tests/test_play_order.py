"""Play session order (issue 31 item 2): an action's ack leaves before its events, also when
the events reached the gateway before the rules service's answer and were held."""

from __future__ import annotations

import asyncio

from parlour.gateway.fanout import EventHub
from parlour.gateway.play import PlaySession
from parlour.gateway.v1 import gateway_pb2 as gw
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
