"""Matchmaking from the SDK (issue 45): a ticket for a game and variant, its stream of
states, and the seats it ends with.

    async with GatewayClient(address) as client:
        seats = await play_now(client, game, name="Ada")   # waits for opponents
        me = seats[0]                                       # a Seat, as join() gives

The stream is re-opened by the ticket's name while the gateway answers UNAVAILABLE (a
gateway that died, a drain), so a wait survives a lost gateway as long as another serves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import grpc
from google.protobuf.message import Message

from parlour.client.client import RETRY_CODES, GatewayClient, Seat, pack
from parlour.gateway.v1 import gateway_pb2 as gw

#: States that end a ticket's stream.
FINAL = frozenset({gw.TICKET_STATE_MATCHED, gw.TICKET_STATE_EXPIRED, gw.TICKET_STATE_CANCELLED})


class NoMatch(Exception):
    """The ticket ended without a match (expired or cancelled)."""

    def __init__(self, state: int) -> None:
        super().__init__(gw.TicketState.Name(state).removeprefix("TICKET_STATE_").lower())
        self.state = state


@dataclass(frozen=True)
class Ask:
    """What a ticket asks for: a game, its variant ("" the first), options (None the
    variant's), seat counts (0: the variant's fewest; max 0: exactly min), a rated or a
    friendly match, the caller's name and its party's names."""

    game: str
    variant: str = ""
    options: Message | None = None
    min_seats: int = 0
    max_seats: int = 0
    rated: bool = True
    name: str = ""
    party: Sequence[str] = ()

    def request(self) -> gw.FindMatchRequest:
        request = gw.FindMatchRequest(
            game=self.game, variant=self.variant, min_seats=self.min_seats,
            max_seats=self.max_seats, rated=self.rated, display_name=self.name,
            party=list(self.party),
        )
        if self.options is not None:
            request.options.CopyFrom(pack(self.options))
        return request


async def find_match(
    client: GatewayClient, ask: Ask | None = None, *, ticket: str = "", name: str = ""
) -> AsyncIterator[gw.FindMatchResponse]:
    """The ticket's states, from a new ticket (`ask`) or an existing one (`ticket`), until
    the last (matched, expired or cancelled); re-opened by name after UNAVAILABLE. Leaving
    it early (aclose) closes the stream: the ticket is then matched no more, and expires
    after the host's grace unless re-opened by name."""
    request = gw.FindMatchRequest(ticket=ticket, display_name=name) if ticket else ask.request()
    attempt = 0
    while True:
        call = client.stub.FindMatch(request)
        try:
            async for state in call:
                attempt = 0
                request = gw.FindMatchRequest(ticket=state.ticket)
                yield state
                if state.state in FINAL:
                    return
            return
        except grpc.aio.AioRpcError as error:
            attempt += 1
            if (error.code().value[0] not in RETRY_CODES or not request.ticket
                    or attempt >= client.backoff.attempts):
                raise
            await asyncio.sleep(client.backoff.delay(attempt))
        finally:
            call.cancel()  # a stream left early lets go of its ticket (the grace starts)


async def cancel_ticket(client: GatewayClient, ticket: str) -> int:
    """Cancel a searching ticket; its TicketState after (FAILED_PRECONDITION
    TICKET_ALREADY_MATCHED when it was matched first)."""
    return (await client.stub.CancelTicket(gw.CancelTicketRequest(ticket=ticket))).state


def seats_of(client: GatewayClient, matched: gw.FindMatchResponse) -> list[Seat]:
    """The matched ticket's seats (the caller's first, then its party's)."""
    return [Seat(client, matched.match, s.seat, s.seat_token) for s in matched.seats]


async def play_now(
    client: GatewayClient,
    game: str,
    *,
    on_state: Callable[[gw.FindMatchResponse], None] | None = None,
    **ask: object,
) -> list[Seat]:
    """Wait for a match of `game` (Ask's fields as keywords) and return its seats;
    `on_state` sees every state on the way. NoMatch if the ticket ends unmatched."""
    async for state in find_match(client, Ask(game, **ask)):
        if on_state is not None:
            on_state(state)
        if state.state == gw.TICKET_STATE_MATCHED:
            return seats_of(client, state)
        if state.state in FINAL:
            raise NoMatch(state.state)
    raise NoMatch(gw.TICKET_STATE_UNSPECIFIED)


def wait_line(state: gw.FindMatchResponse) -> str:
    """One line about a ticket's state, for a person waiting."""
    if state.state == gw.TICKET_STATE_SEARCHING:
        return (f"looking for players rated {state.rating:.1f} ± {state.window:.1f} "
                f"(waited {state.waited_ms // 1000} s)")
    if state.state == gw.TICKET_STATE_MATCHED:
        bots = f", {state.bot_seats} of them bots" if state.bot_seats else ""
        return f"matched: {state.match} ({state.match_seats} seats{bots})"
    return f"no match: the ticket {NoMatch(state.state)}"


async def matched_table(client: GatewayClient, game: str, name: str, *, variant: str = "",
                        options: Message | None = None, rated: bool = True,
                        say: Callable[[str], None] = print):
    """`parlour play GAME --match`: wait for a match (saying how the search goes) and
    return the person's Table in it."""
    from parlour.client.table import Table
    from parlour.engine.registry import get_game

    say(f"finding a match of {game} (Ctrl+C stops the search)")
    seats = await play_now(client, game, name=name, variant=variant, options=options,
                           rated=rated, on_state=lambda s: say(wait_line(s)))
    return Table(client, get_game(game), seats[0].match, seats[0])
