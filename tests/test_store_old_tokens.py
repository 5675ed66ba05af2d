"""Issue 31 item 5: seats taken before seat token hashes became 128 bits keep working."""

from __future__ import annotations

import hashlib

import grpc
import pytest
from edge_helpers import error_info, seated

from parlour.client import GatewayClient
from parlour.gateway import tokens
from parlour.store import keys
from stack import running_stack


async def store_old_hash(redis, match: str, seat: int, token: str) -> None:
    """Rewrite the seat as a version before the change stored it: the full SHA-256 hex."""
    old, new = hashlib.sha256(token.encode()).hexdigest(), tokens.token_hash(token)
    assert len(old) == 64 and len(new) == 32
    meta = keys.meta(match)
    await redis.hdel(meta, f"t:{new}")
    await redis.hset(meta, mapping={f"t:{old}": seat, f"token:{seat}": old})


async def test_item5_a_seat_stored_with_the_old_hash_length_plays(redis_url):
    """Item 5: a seat whose token hash was stored at the old length (64 hex characters)
    reads its view, acts (unary and Play: the commit checks the stored hash), and leaving
    revokes it."""
    async with running_stack(redis_url) as (address, gateway):
        async with GatewayClient(address) as client:
            match, players = await seated(client)
            match_id = match.name.removeprefix("matches/")
            redis = gateway.rules_stores[0].redis
            for player in players:
                await store_old_hash(redis, match_id, player.seat, player.token)

            progress = (await players[0].get_view()).progress
            for _ in range(2):  # two unary turns, whoever is pending
                seat = progress.pending[0].seat
                action = (await players[seat].actions()).actions[0]
                progress = (await players[seat].submit(action)).result.progress
            seat = progress.pending[0].seat
            session = players[seat].session()
            request_id = session.send((await players[seat].actions()).actions[0])
            while not (message := await session.receive()).HasField("ack"):
                pass
            session.cancel()
            assert message.ack.request_id == request_id and message.ack.response.result
            assert message.ack.response.result.progress.version == progress.version + 1

            await players[0].leave()
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await players[0].get_view()
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert error_info(refused.value).reason == "INVALID_SEAT_TOKEN"
            assert await redis.hget(keys.meta(match_id), "token:0") is None


def test_item5_both_hash_lengths_are_looked_up_new_first():
    """Item 5: the gateway asks the match for this version's hash, then the old one."""
    token = tokens.new_token()
    new, old = tokens.stored_hashes(token)
    assert new == tokens.token_hash(token) and old == hashlib.sha256(token.encode()).hexdigest()
    assert tokens.held_seat({f"t:{old}": "1"}, token) == (old, "1")
    assert tokens.held_seat({f"t:{new}": "0"}, token) == (new, "0")
    assert tokens.held_seat({}, token) is None
