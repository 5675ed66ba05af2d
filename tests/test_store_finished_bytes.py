"""Issue 41 item 4: what a finished match keeps in Redis is stored compactly and reads back
the same: the action log's SDK request ids as 16 bytes, the events stream rewritten at its
exact size by the finishing commit. Real Redis, real rules service and gateway."""

from __future__ import annotations

import uuid

from edge_helpers import seated

from parlour.client import GatewayClient
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules import records
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import keys
from stack import running_stack

SIZE_CLASS_SLACK = 128  # bytes: allocator rounding of the key's object and rax nodes


def test_an_sdk_request_id_is_stored_as_its_bytes_and_read_back_as_sent():
    """A 32-hex request id is stored as 16 bytes; any other id is stored as it was sent."""
    game = get_game("tinycards")
    for request_id, stored_hex in (
        (uuid.uuid4().hex, True),
        (uuid.uuid4().hex.upper(), False),
        (str(uuid.uuid4()), False),
        ("r1", False),
        ("", False),
    ):
        raw = records.compact_action(
            pb.LoggedAction(seat=1, request_id=request_id, version=3), game
        )
        stored = pb.LoggedAction.FromString(raw)
        assert bool(stored.request_id_hex) == stored_hex
        (back,) = records.read_actions(game, [raw])
        assert back == pb.LoggedAction(seat=1, request_id=request_id, version=3)


async def test_a_finished_match_keeps_its_events_and_request_ids_exactly(redis_url):
    """The finishing commit's rewrite leaves every entry, id and field of the stream as
    committed, with no more bytes than before it; the match log gives back the request ids
    the seats sent."""
    async with running_stack(redis_url) as (address, gateway):
        async with GatewayClient(address) as client:
            match, players = await seated(client)
            match_id = match.name.removeprefix("matches/")
            redis = gateway.rules_stores[0].redis
            sent: list[str] = []
            progress = (await players[0].get_view()).progress
            while not progress.HasField("outcome"):
                seat = progress.pending[0].seat
                action = (await players[seat].actions()).actions[0]
                sent.append(uuid.uuid4().hex if len(sent) % 3 else f"plain-{len(sent)}")
                stream = await redis.xrange(keys.events(match_id))
                progress = (await players[seat].submit(action, request_id=sent[-1])).result.progress
            after = await redis.xrange(keys.events(match_id))
            assert after[: len(stream)] == stream and after[-1][1][b"f"] == b"1"
            # rewritten at its exact size: no bigger than a fresh copy of it (DUMP/RESTORE, the
            # same time to live and a name as long), where a stream left as appended keeps its
            # last node's preallocation (up to stream-node-max-bytes). The copy's object may be
            # allocated a size class apart, so a few bytes either way are not a failure.
            events = keys.events(match_id)
            copy = keys.events(match_id[:-4] + "copy")
            await redis.restore(copy, await redis.pttl(events), await redis.dump(events))
            try:
                assert (await redis.memory_usage(events, samples=0)
                        <= await redis.memory_usage(copy, samples=0) + SIZE_CLASS_SLACK)
            finally:
                await redis.delete(copy)
            assert await redis.ttl(keys.events(match_id)) > 0
            logged = []
            for player in players:  # each seat's log holds its own actions
                reply = await client.stub.GetMatchLog(
                    gw.GetMatchLogRequest(match=match.name), metadata=player.metadata
                )
                logged += [(a.version, a.request_id) for a in reply.log.actions]
    assert [request_id for _, request_id in sorted(logged)] == sent
