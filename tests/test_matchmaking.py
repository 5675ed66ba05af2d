"""Issue 45, matchmaking on one gateway: tickets meet by rating in one match, parties stay
together, cancellation, expiry and bad input each with its reason (real gRPC and Redis)."""

from __future__ import annotations

import asyncio
import dataclasses

import grpc
import pytest
from edge_helpers import error_info

from parlour.client import GatewayClient
from parlour.client.matchmaking import Ask, cancel_ticket, find_match, play_now
from parlour.gateway.config import Matchmaking
from parlour.gateway.records import name_key
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from parlour.store.ratingstore import Standing
from stack import running_stack

FAST = Matchmaking(pass_seconds=0.05, poll_seconds=0.2, grace_seconds=1.0)


@pytest.fixture
async def client(redis_url):
    async with running_stack(
        redis_url, games=("tinycards", "clashofminds"), matchmaking=FAST
    ) as (address, _):
        async with GatewayClient(address) as client:
            yield client


async def first_state(client, ask):
    stream = find_match(client, ask)
    return stream, await anext(stream)


async def test_two_tickets_meet_in_one_match(client):
    """Two people asking for the same game and variant get two seats of one new match,
    with working tokens; the seat order comes from the match's seed."""
    seats = await asyncio.wait_for(asyncio.gather(
        play_now(client, "tinycards", name="Ada"),
        play_now(client, "tinycards", name="Bea"),
    ), 60)
    (ada,), (bea,) = seats
    assert ada.match == bea.match and {ada.seat, bea.seat} == {0, 1}
    match = await client.match(ada.match)
    assert [s.display_name for s in sorted(match.seats, key=lambda s: s.seat)] == \
        [("Ada" if ada.seat == 0 else "Bea"), ("Bea" if ada.seat == 0 else "Ada")]
    assert match.status == gw.MATCH_STATUS_ACTIVE and match.rated
    assert (await ada.view()) is not None
    listed = [m.name async for m in client.lobby("tinycards")]
    assert ada.match not in listed



async def test_a_matched_seat_is_the_tickets_alone(client):
    """Nobody else may take a matched match's seat (it is not listed, and JoinMatch is
    refused NOT_INVITED); the ticket re-opened after the match gives its holder the same
    seat with a fresh token, and the old token stops working."""
    states: list = []
    (ada,), (bea,) = await asyncio.wait_for(asyncio.gather(
        play_now(client, "tinycards", name="Ada", on_state=states.append),
        play_now(client, "tinycards", name="Bea"),
    ), 60)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.join(ada.match, "Eve")
    assert reason_of(refused.value) == "NOT_INVITED"
    (again,) = [s async for s in find_match(client, ticket=states[-1].ticket)]
    assert again.state == gw.TICKET_STATE_MATCHED and again.match == ada.match
    assert again.seats[0].seat == ada.seat and again.seats[0].seat_token != ada.token
    with pytest.raises(grpc.aio.AioRpcError) as revoked:
        await ada.view()
    assert revoked.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert (await client.match(ada.match)).rated


async def test_party_stays_together_and_variants_apart(client):
    """A party of two and a single player fill a three-seat match together, the party's
    tokens both in its caller's answer; tickets of two variants never meet."""
    apart = [asyncio.create_task(play_now(client, "clashofminds", variant=v, name=v))
             for v in ("standard", "agents")]
    party, single = await asyncio.wait_for(asyncio.gather(
        play_now(client, "tinycards", name="Di", party=["Ed"], min_seats=3),
        play_now(client, "tinycards", name="Flo", min_seats=3),
    ), 60)
    assert len(party) == 2 and party[0].match == party[1].match == single[0].match
    names = {s.seat: s.display_name for s in (await client.match(single[0].match)).seats}
    assert sorted(names.values()) == ["Di", "Ed", "Flo"]
    assert not any(task.done() for task in apart)
    for task in apart:
        task.cancel()


async def test_tickets_meet_the_nearest_ratings(client, redis_url):
    """Two strong and two weak players asking alternately meet their own kind: a window
    of 3 points keeps 10 and 40 apart."""
    store = MatchStore.from_url(redis_url)
    names = {"Weak1": 10.0, "Strong1": 40.0, "Weak2": 11.0, "Strong2": 39.0}
    try:
        for name, mu in names.items():
            await store.redis.hset(keys.players("tinycards", "standard"), name_key(name),
                                   Standing(mu, 1.0, 5, 2, name).encode())
    finally:
        await store.close()
    seats = await asyncio.wait_for(asyncio.gather(
        *(play_now(client, "tinycards", name=name) for name in names)), 60)
    match = {name: s[0].match for name, s in zip(names, seats, strict=True)}
    assert match["Weak1"] == match["Weak2"] != match["Strong1"] == match["Strong2"]


async def test_bots_fill_after_the_hosts_wait(redis_url):
    """With bots after 0.5 s, a lone ticket is matched with a bot in its empty seat, and
    the bot (its own process) takes that seat and plays."""
    settings = dataclasses.replace(FAST, bots_after_seconds=0.5)
    async with running_stack(redis_url, games=("tinycards",), matchmaking=settings) as (
        address, _):
        async with GatewayClient(address) as client:
            states = []
            (me,) = await asyncio.wait_for(play_now(
                client, "tinycards", name="Lone", rated=False, on_state=states.append), 60)
            assert states[-1].bot_seats == 1 and states[-1].match_seats == 2
            async with asyncio.timeout(90):  # the bots' process starts (slow when loaded)
                match = await client.match(me.match)
                while not all(s.occupied for s in match.seats):
                    await asyncio.sleep(0.1)
                    match = await client.match(me.match)
            assert [s.display_name.endswith("bot 1") for s in match.seats] == \
                [s.seat != me.seat for s in match.seats]
            assert not match.rated


async def test_cancel_then_the_stream_ends_cancelled(client):
    """CancelTicket ends a searching ticket's stream with CANCELLED; a second cancel
    answers CANCELLED again, and the ticket is never matched."""
    stream, searching = await first_state(client, Ask("tinycards", name="Gus"))
    assert searching.state == gw.TICKET_STATE_SEARCHING and searching.window > 0
    assert await cancel_ticket(client, searching.ticket) == gw.TICKET_STATE_CANCELLED
    last = [s async for s in stream][-1]
    assert last.state == gw.TICKET_STATE_CANCELLED
    assert await cancel_ticket(client, searching.ticket) == gw.TICKET_STATE_CANCELLED
    reopened = [s.state async for s in find_match(client, ticket=searching.ticket)]
    assert reopened == [gw.TICKET_STATE_CANCELLED]


async def test_cancel_races_matching(client):
    """Cancels sent while a partner arrives: each ticket is either cancelled or matched,
    never both; a matched one's cancel is refused TICKET_ALREADY_MATCHED."""
    outcomes = set()
    for round_ in range(6):
        stream, searching = await first_state(client, Ask("tinycards", name=f"r{round_}"))
        partner_stream, partner = await first_state(client, Ask("tinycards", name=f"p{round_}"))
        await asyncio.sleep(0.02 * round_)
        try:
            state = await cancel_ticket(client, searching.ticket)
            assert state == gw.TICKET_STATE_CANCELLED
            cancelled = True
        except grpc.aio.AioRpcError as error:
            assert reason_of(error) == "TICKET_ALREADY_MATCHED"
            cancelled = False
        outcomes.add(cancelled)
        last = [s async for s in stream][-1]
        if cancelled:
            assert last.state == gw.TICKET_STATE_CANCELLED
            assert await cancel_ticket(client, partner.ticket) == gw.TICKET_STATE_CANCELLED
            assert [s async for s in partner_stream][-1].state == gw.TICKET_STATE_CANCELLED
        else:
            assert last.state == gw.TICKET_STATE_MATCHED
            other = [s async for s in partner_stream][-1]
            assert other.match == last.match and other.seats[0].seat != last.seats[0].seat
    assert outcomes  # which side wins each race is the timing's; both are checked above


async def test_a_closed_stream_expires_after_the_grace(client):
    """A ticket whose stream closed is never matched after its grace: re-opened late, it
    says EXPIRED, and a later ticket does not meet it."""
    stream, searching = await first_state(client, Ask("tinycards", name="Ivy"))
    await stream.aclose()
    await asyncio.sleep(FAST.grace_seconds + 1.5)
    states = [s.state async for s in find_match(client, ticket=searching.ticket)]
    assert states == [gw.TICKET_STATE_EXPIRED]


async def test_a_ticket_waiting_the_longest_wait_expires(redis_url):
    """A ticket nobody fits, followed all along, ends EXPIRED after the host's longest
    wait (and its stream with it)."""
    settings = dataclasses.replace(FAST, longest_wait_seconds=1.0)
    async with running_stack(redis_url, games=("tinycards",), matchmaking=settings) as (
        address, _):
        async with GatewayClient(address) as client:
            states = [s.state async for s in find_match(client, Ask("tinycards", name="Jo"))]
    assert states[0] == gw.TICKET_STATE_SEARCHING and states[-1] == gw.TICKET_STATE_EXPIRED


async def test_a_drain_ends_ticket_streams_to_be_reopened(redis_url):
    """A gateway's drain ends its ticket streams UNAVAILABLE SERVER_DRAINING; the ticket
    keeps searching through its grace and re-opens by name."""
    async with running_stack(redis_url, games=("tinycards",), matchmaking=FAST) as (
        address, gateway):
        async with GatewayClient(address) as client:
            call = client.stub.FindMatch(gw.FindMatchRequest(game="tinycards"))
            first = await anext(aiter(call))
            gateway.service.tickets.end_ticket_streams()
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                async for _ in call:
                    pass
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            assert reason_of(ended.value) == "SERVER_DRAINING"
            gateway.service.tickets.tickets_draining = False  # as if another gateway answered
            other = await anext(find_match(client, ticket=first.ticket))
            assert other.state == gw.TICKET_STATE_SEARCHING and other.ticket == first.ticket


@pytest.mark.parametrize(
    ("ask", "code", "reason"),
    [
        (Ask("nosuchgame"), grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
        (Ask("clashofminds", variant="nope"), grpc.StatusCode.NOT_FOUND, "VARIANT_NOT_FOUND"),
        (Ask("tinycards", min_seats=9), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAT_COUNT"),
        (Ask("tinycards", min_seats=2, max_seats=1), grpc.StatusCode.INVALID_ARGUMENT,
         "BAD_SEAT_COUNT"),
        (Ask("tinycards", party=["a", "b"]), grpc.StatusCode.INVALID_ARGUMENT,
         "PARTY_TOO_BIG"),
    ],
)
async def test_bad_input_each_with_its_reason(client, ask, code, reason):
    """Unknown game or variant, seats out of range, a party too big: refused before any
    ticket is stored, each with a stable reason."""
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await play_now(client, ask.game, **{k: getattr(ask, k) for k in (
            "variant", "min_seats", "max_seats", "party")})
    assert refused.value.code() == code
    assert reason_of(refused.value) == reason


async def test_unknown_ticket_is_not_found(client):
    """Re-opening or cancelling a ticket nobody asked for: NOT_FOUND TICKET_NOT_FOUND;
    a malformed name: INVALID_ARGUMENT BAD_TICKET."""
    name = "tickets/tinycards/standard/-/r/" + "0" * 32
    async def follow():
        return [s async for s in find_match(client, ticket=name)]

    for call in (follow(), cancel_ticket(client, name)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert reason_of(refused.value) == "TICKET_NOT_FOUND"
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await cancel_ticket(client, "tickets/x")
    assert reason_of(refused.value) == "BAD_TICKET"


def reason_of(error) -> str:
    return error_info(error).reason
