"""Issue 45, matchmaking across gateways: two gateway processes share one Redis; tickets
arrive on both, one gateway is SIGKILLed mid-way, its players re-open their tickets by
name on the other, and every ticket ends in exactly one seat of one match (no player
seated twice, none lost); the bots of a killed gateway's match are restarted by another.
Real processes, real Redis."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter

import grpc

from parlour.client import Backoff, GatewayClient
from parlour.client.client import Seat
from parlour.client.matchmaking import Ask, find_match, play_now
from parlour.client.seatbot import play_seat
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, wait_serving

PLAYERS = 24
FAST = {
    "PARLOUR_MATCH_PASS_SECONDS": "0.1",
    "PARLOUR_MATCH_POLL_SECONDS": "0.3",
    "PARLOUR_MATCH_GRACE_SECONDS": "30",
    "PARLOUR_MATCH_WINDOW_START": "50",
}


async def one_player(i: int, first: GatewayClient, second: GatewayClient,
                     killed: asyncio.Event, moved: list[str]):
    """A player's ticket from `first` (or `second`, alternately), re-opened on `second`
    when its gateway dies (asked there anew if the dead one never answered); returns
    (name, ticket, the MATCHED message)."""
    name = f"p{i}"
    home = first if i % 2 == 0 else second
    await asyncio.sleep(0.1 * i)
    ticket = ""
    moved.append(name)
    try:
        async for state in find_match(home, Ask("tinycards", name=name)):
            ticket = state.ticket
            if state.state == gw.TICKET_STATE_MATCHED:
                moved.remove(name)
                return name, state.ticket, state
    except grpc.aio.AioRpcError as error:
        assert home is first and killed.is_set(), error
    again = find_match(second, ticket=ticket) if ticket else \
        find_match(second, Ask("tinycards", name=name))  # it asked a dead gateway: no ticket
    async for state in again:
        if state.state == gw.TICKET_STATE_MATCHED:
            return name, state.ticket, state
    raise AssertionError(f"{name}: its ticket ended unmatched")


async def test_a_gateway_killed_mid_matching_seats_nobody_twice_and_loses_no_ticket():
    with LocalStack(["tinycards"], env=FAST) as stack:
        routes = f"tinycards={stack.rules_target('tinycards')}"
        other = stack.start_gateway(routes)
        wait_serving(other)
        try:
            async with GatewayClient(stack.address, backoff=Backoff(attempts=1)) as first, \
                    GatewayClient(other.address) as second:
                killed, moved = asyncio.Event(), []
                players = asyncio.gather(*(
                    one_player(i, first, second, killed, moved) for i in range(PLAYERS)))

                async def kill_first():
                    await asyncio.sleep(0.1 * PLAYERS / 2)
                    killed.set()
                    stack.gateway.stop(signal.SIGKILL)

                results, _ = await asyncio.wait_for(asyncio.gather(players, kill_first()), 120)
                tickets = Counter(ticket for _, ticket, _ in results)
                assert len(tickets) == PLAYERS and set(tickets.values()) == {1}
                seats = Counter((m.match, s.seat) for _, _, m in results for s in m.seats)
                assert len(seats) == PLAYERS and set(seats.values()) == {1}, seats
                by_match = Counter(m.match for _, _, m in results)
                assert set(by_match.values()) == {2}
                assert moved, "the kill interrupted no ticket's stream"
                for name, _, matched in results:
                    match = await second.match(matched.match)
                    taken = {s.seat: s.display_name for s in match.seats if s.occupied}
                    assert taken[matched.seats[0].seat] == name
                    assert len(taken) == 2
        finally:
            other.stop()


async def test_bots_of_a_killed_gateway_are_restarted_and_the_match_goes_on():
    """A lone ticket gets a bot, run by the gateway that made the match; that gateway is
    SIGKILLed; the other gateway claims the bots' lapsed lease and restarts them, and the
    person plays the match to its end through the other gateway."""
    env = {**FAST, "PARLOUR_MATCH_BOTS_AFTER_SECONDS": "0.5"}
    with LocalStack(["tinycards"], env=env) as stack:
        async with GatewayClient(stack.address) as first:
            (me,) = await asyncio.wait_for(
                play_now(first, "tinycards", name="Lone", rated=False), 60)
            async with asyncio.timeout(90):  # the bots' process starts (slow when loaded)
                while not all(s.occupied for s in (await first.match(me.match)).seats):
                    await asyncio.sleep(0.2)
        other = stack.start_gateway(f"tinycards={stack.rules_target('tinycards')}")
        try:
            wait_serving(other)
            stack.gateway.stop(signal.SIGKILL)
            async with GatewayClient(other.address) as second:
                seat = Seat(second, me.match, me.seat, me.token)
                outcome = await asyncio.wait_for(
                    play_seat(seat, get_game("tinycards"), "random", 1), 180)
                assert list(outcome.scores)
                match = await second.match(me.match)
                assert [s.display_name.endswith("bot 1") for s in match.seats] == \
                    [s.seat != me.seat for s in match.seats]
        finally:
            other.stop()
