"""Matchmaking's calls (issue 45): FindMatch (a ticket and the stream of its state) and
CancelTicket. Tickets and passes are store/ticketstore.py; the passes and match creation
are matchmaker.py.

A ticket is named "tickets/<game>/<variant>/<options digest or ->/<r|f>/<id>", the id 128
random bits: whoever holds the name may follow or cancel it, so only its asker learns it.
A stream renews the ticket's lease every poll; a pass only takes a ticket whose lease is
running, and one whose lease lapsed for the grace expires. When matched, the stream that
sees it (on any gateway) makes sure the match exists and seats the ticket's members at
the seats the match's seed gives them, each with a proof of the ticket, so a re-opened
stream re-opens the same seats with fresh tokens.

A ticket's rating is the mean of its members' mu in the game and variant (25, openskill's
default, for a newcomer), not the leaderboard's mu - 3 sigma: mu is the model's best guess
of strength, while mu - 3 sigma is a cautious floor that puts every newcomer (0) beside
the weakest established players; sigma is not used (the window's widening stands in for
the uncertainty).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import re
import secrets

import grpc

from parlour.gateway import identity, tokens
from parlour.gateway.config import Matchmaking
from parlour.gateway.edge import check_any
from parlour.gateway.matches import MAX_OPTIONS_BYTES
from parlour.gateway.matchmaker import Matcher, member_proof, seat_slots
from parlour.gateway.quotas import Quotas
from parlour.gateway.records import name_key
from parlour.gateway.revocation import Revocations
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError, guarded, invalid_argument, unavailable
from parlour.store.matchstore import MatchStore
from parlour.store.ratingstore import RatingStore, Standing
from parlour.store.seating import SeatRefused
from parlour.store.ticketstore import now_ms

TICKET = re.compile(r"tickets/([a-z0-9-]{1,64})/([a-z0-9_-]{1,64})/([0-9a-f]{16}|-)/([rf])/"
                    r"([0-9a-f]{32})")
#: A newcomer's rating (openskill's default mu).
NEW_RATING = 25.0
STATES = {"s": gw.TICKET_STATE_SEARCHING, "m": gw.TICKET_STATE_MATCHED,
          "c": gw.TICKET_STATE_CANCELLED, "x": gw.TICKET_STATE_EXPIRED}


def parse_ticket(name: str, field: str = "ticket") -> tuple[str, str]:
    """(pool, id) of a ticket name; INVALID_ARGUMENT BAD_TICKET otherwise."""
    found = TICKET.fullmatch(name)
    if found is None:
        raise invalid_argument(field, "a ticket is named as FindMatchResponse.ticket",
                               "BAD_TICKET")
    return ":".join(found.groups()[:4]), found[5]


def ticket_missing(name: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, "TICKET_NOT_FOUND",
                        f"no ticket {name!r} (unknown, or finished long ago)")


class TicketCalls:
    """FindMatch and CancelTicket."""

    def __init__(
        self,
        store: MatchStore,
        router: Router,
        ratings: RatingStore,
        quotas: Quotas,
        revocations: Revocations,
        matchmaking: Matchmaking,
    ) -> None:
        self.store = store
        self.router = router
        self.ratings = ratings
        self.quotas = quotas
        self.revocations = revocations
        self.matchmaking = matchmaking
        self.tickets = self.store.tickets()
        self.matcher = Matcher(
            self.tickets, self.store.meta, self.router, self.matchmaking, lambda: ""
        )
        #: Set by a drain: every ticket stream here ends UNAVAILABLE SERVER_DRAINING, to be
        #: re-opened by name on another gateway (the ticket keeps its grace meanwhile).
        self.tickets_draining = False

    def end_ticket_streams(self) -> None:
        """The drain: end every ticket stream of this gateway now."""
        self.tickets_draining = True
        for event in self.matcher.waiters.values():
            event.set()

    @guarded
    async def CancelTicket(self, request, context):
        pool, ticket_id = parse_ticket(request.ticket)
        ticket = await self.tickets.cancel(pool, ticket_id)
        if ticket is None:
            raise ticket_missing(request.ticket)
        if ticket["s"] == "m":
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION, "TICKET_ALREADY_MATCHED",
                "the ticket is matched already: its stream carries the seats",
                metadata={"match": f"matches/{ticket['m']}"},
            )
        if (event := self.matcher.waiters.get(ticket_id)) is not None:
            event.set()
        return gw.CancelTicketResponse(state=STATES[ticket["s"]])

    @guarded
    async def FindMatch(self, request, context):
        with self.quotas.stream(context.peer()):
            if request.ticket:
                pool, ticket_id = parse_ticket(request.ticket)
                name = request.ticket
                await self.join_party(name, pool, ticket_id, request.display_name)
            else:
                pool, ticket_id = await self.new_ticket(request, context)
                name = f"tickets/{pool.replace(':', '/')}/{ticket_id}"
            async for message in self.follow(name, pool, ticket_id):
                yield message

    async def new_ticket(self, request, context) -> tuple[str, str]:
        """Check the request, store its ticket; (pool, ticket id)."""
        game = request.game.removeprefix("games/")
        if not game:
            raise invalid_argument("game", "name the game to play", "MISSING_FIELD")
        info = await self.router.describe(game)
        variants = list(info.variants)
        if request.variant:
            chosen = [v for v in variants if v.name == request.variant]
            if not chosen:
                raise ServiceError(grpc.StatusCode.NOT_FOUND, "VARIANT_NOT_FOUND",
                                   f"{info.display_name} has no variant {request.variant!r}")
            variant = chosen[0]
            name, low, high, options = variant.name, variant.min_seats, variant.max_seats, \
                variant.options
        elif variants:
            variant = variants[0]
            name, low, high, options = variant.name, variant.min_seats, variant.max_seats, \
                variant.options
        else:
            name, low, high, options = "standard", info.min_seats, info.max_seats, None
        digest = "-"
        if request.HasField("options"):
            check_any(request.options, "options", MAX_OPTIONS_BYTES, "OPTIONS_TOO_LARGE")
            if options is not None and options.type_url and \
                    request.options.type_url != options.type_url:
                raise invalid_argument("options", f"options are {options.type_url}",
                                       "WRONG_MESSAGE_TYPE")
            options = request.options
            digest = hashlib.sha256(options.SerializeToString(deterministic=True)).hexdigest()[:16]
        lo = request.min_seats or low
        hi = request.max_seats or lo
        if not low <= lo <= hi <= high:
            raise invalid_argument(
                "max_seats" if request.max_seats else "min_seats",
                f"{info.display_name} ({name}) takes {low} to {high} seats",
                "BAD_SEAT_COUNT",
            )
        size = 1 + len(request.party)
        if size > hi:
            raise invalid_argument(
                "party", f"a party of {size} does not fit a match of at most {hi} seats",
                "PARTY_TOO_BIG",
            )
        who = identity.current()
        rated = not request.HasField("rated") or request.rated
        pool = f"{game}:{name}:{digest}:{'r' if rated else 'f'}"
        if who is None:
            names = [request.display_name, *request.party]
            records = [name_key(n) for n in names]
        else:  # the party names subjects; each confirms with its own identity (join_party)
            names = [request.display_name, *([""] * len(request.party))]
            records = [who.key, *(identity.subject_key(s) for s in request.party)]
            if len(set(records)) < len(records):
                raise invalid_argument("party", "name each friend once, and not yourself",
                                       "BAD_PARTY")
        stored = dict(zip(records, await self.ratings.read(game, name, records), strict=True))
        mus = [Standing.decode(stored[r]).mu if stored.get(r) else NEW_RATING for r in records]
        asked = now_ms()
        ticket = {
            "r": sum(mus) / len(mus), "t": asked, "n": size, "lo": lo, "hi": hi,
            "l": asked + self.lease_ms, "s": "s",
            "o": base64.b64encode(options.SerializeToString()).decode() if options else "",
            "p": [[n, r] for n, r in zip(names, records, strict=True)],
            "w": who.key if who is not None else "",
        }
        if who is not None and request.party:
            ticket.update(ws=records, q=records[1:])
        ticket_id = secrets.token_hex(16)
        await self.tickets.put(pool, ticket_id, ticket, self.matchmaking.pool_lifetime_ms)
        return pool, ticket_id

    async def join_party(self, name: str, pool: str, ticket_id: str, display: str) -> None:
        """With identity on, a ticket is followed only by its asker (a party's: by its
        members); a member named but not yet confirmed confirms now, under `display`."""
        ticket = await self.tickets.get(pool, ticket_id)
        if ticket is None:
            raise ticket_missing(name)
        if not ticket["w"]:
            return
        who = identity.current()
        if who is None or who.key not in (ticket.get("ws") or [ticket["w"]]):
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_TICKET",
                               f"{name} is another person's ticket, and does not name you")
        if who.key in (ticket.get("q") or ()):
            await self.tickets.confirm(pool, ticket_id, who.key, display or "guest")

    @property
    def lease_ms(self) -> int:
        """A stream renews its ticket every poll; the lease outlives a few polls."""
        return int(self.matchmaking.poll_seconds * 3000) + 2000

    async def follow(self, name: str, pool: str, ticket_id: str):
        """The ticket's state until it ends; the lease lapses when the stream closes."""
        settings = self.matchmaking
        grace = int(settings.grace_seconds * 1000)
        longest = int(settings.longest_wait_seconds * 1000)
        event = self.matcher.waiters.setdefault(ticket_id, asyncio.Event())
        sent = ticket = None
        try:
            while True:
                ticket = await self.tickets.touch(pool, ticket_id, self.lease_ms, grace, longest)
                if ticket is None:
                    raise ticket_missing(name)
                state = ticket["s"]
                reply = gw.FindMatchResponse(ticket=name, state=STATES[state],
                                             rating=ticket["r"])
                if state == "s":
                    if self.tickets_draining:
                        raise unavailable(f"the gateway is shutting down; re-open {name}",
                                          "SERVER_DRAINING")
                    waited = now_ms() - ticket["t"]
                    reply.waited_ms = waited
                    reply.window = round(settings.window.at(waited), 1)
                    if sent != reply.window:
                        sent = reply.window
                        yield reply
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), settings.poll_seconds)
                    event.clear()
                    continue
                if state == "m":
                    await self.seat(pool, ticket_id, ticket, reply)
                yield reply
                return
        finally:
            if self.matcher.waiters.get(ticket_id) is event:
                del self.matcher.waiters[ticket_id]
            if sent is not None or ticket is not None:
                task = asyncio.ensure_future(self.tickets.touch(pool, ticket_id, 0, grace, longest))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def seat(self, pool: str, ticket_id: str, ticket: dict, reply) -> None:
        """Seat a matched ticket's members (re-opening their seats when seated already); a
        party's with identity on: only the caller's own seat."""
        await self.matcher.ensure_match(pool, ticket)
        match = ticket["m"]
        members = ticket["p"]
        seats = {slot: i for i, slot in enumerate(seat_slots(ticket))}
        reply.match, reply.match_seats, reply.bot_seats = f"matches/{match}", ticket["N"], \
            ticket["b"]
        subjects = ticket.get("ws") or ticket["w"]
        who = identity.current()
        for k, (display, record) in enumerate(members):
            if isinstance(subjects, list) and (who is None or subjects[k] != who.key):
                continue
            proof = member_proof(ticket_id, k, subjects)
            owner = subjects[k] if isinstance(subjects, list) else subjects * (k == 0)
            token = tokens.new_token()
            seat = seats[(ticket_id, k)]
            try:
                taken = await self.store.take_seat(
                    match, seat, tokens.token_hash(token), display, "", "", proof, record)
            except SeatRefused:
                raise ServiceError(grpc.StatusCode.INTERNAL, "SEATING_FAILED",
                                   f"seat {seat} of matches/{match} could not be taken") from None
            if taken.reopened:
                self.revocations.revoke(taken.revoked)
            if owner:
                await self.store.note_mine(owner, match, now_ms())
            reply.seats.add(seat=seat, seat_token=token, display_name=display)

