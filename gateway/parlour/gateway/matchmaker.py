"""The matchmaker every gateway runs (issue 45): a matching pass over every pool in Redis
a few times a second (store/match.lua; two gateways' passes never take one ticket twice,
so running one on every gateway is what keeps matching going when a gateway dies), then
the matches it made are created through the rules services, and bots started for the
seats a long wait left to them. Those bots are held by a lease in Redis that the gateway
running them renews every pass; when it dies (SIGKILL) or stops, the lease lapses and any
gateway's matcher claims it and restarts the bots, which re-open their seats (a bot seat's
join secret comes from the match's join code and the seat), so the match goes on.

Where a ticket's seats are: the match's seed shuffles the group's members (each ticket's
in ticket-id order, its caller first) and its bot seats, so any gateway finds the same
seats from the stored ticket alone.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import random
import secrets
import subprocess
import sys

import grpc

from parlour.gateway.config import Matchmaking
from parlour.gateway.matches import creation_meta
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError, log_failure
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import meta as field
from parlour.store.meta import MatchMeta
from parlour.store.ticketstore import TicketStore, now_ms

log = logging.getLogger("parlour.gateway.matchmaker")
#: The environment variable carrying a join code to `parlour bots` (not its command line).
JOIN_CODE = "PARLOUR_JOIN_CODE"
#: Restarts of one match's bots after which they are given up (they keep failing).
MOST_RESTARTS = 5


def pool_parts(pool: str) -> tuple[str, str, bool]:
    """(game, variant, rated) of a pool name "<game>:<variant>:<digest>:<r|f>"."""
    game, variant, _, rated = pool.split(":")
    return game, variant, rated == "r"


def member_proof(ticket_id: str, member: int, subject: str | list[str] = "") -> str:
    """The join proof of a ticket member's seat (what re-opens it): with identity on, the
    member's subject (`subject`: the asker's, or a party's list of every member's), else a
    digest of the ticket (whose name only its holder knows)."""
    owner = subject[member] if isinstance(subject, list) else subject * (member == 0)
    if owner:
        return owner
    return "s" + hashlib.sha256(f"ticket|{ticket_id}|{member}".encode()).hexdigest()[:32]


def group_proofs(ticket: dict) -> list[str]:
    """The join proof of every member of a matched ticket's group."""
    return [member_proof(tid, k, subject) for tid, size, subject in ticket["g"]
            for k in range(size)]


def seat_slots(ticket: dict) -> list[tuple[str, int]]:
    """Who sits where in a ticket's match: slot i is seat i, (ticket id, member) or
    ("", bot number)."""
    slots = [(tid, k) for tid, size, _ in sorted(ticket["g"]) for k in range(size)]
    slots += [("", b) for b in range(ticket["b"])]
    random.Random(int(ticket["sd"])).shuffle(slots)
    return slots


class Matcher:
    """One gateway's matching passes and match creation."""

    def __init__(self, tickets: TicketStore, meta: MatchMeta, router: Router,
                 settings: Matchmaking, own_address) -> None:
        self.tickets = tickets
        self.meta = meta
        self.router = router
        self.settings = settings
        #: () -> "host:port" of this gateway, for the bots it starts.
        self.own_address = own_address
        #: ticket id -> set when a pass here matched it (its stream need not wait a poll).
        self.waiters: dict[str, asyncio.Event] = {}
        #: match id -> the `parlour bots` process this gateway runs for it.
        self.bots: dict[str, subprocess.Popen] = {}
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self.run())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for bots in self.bots.values():  # their leases lapse: another gateway restarts them
            bots.terminate()
        for bots in self.bots.values():
            try:
                await asyncio.wait_for(asyncio.to_thread(bots.wait), 5)
            except TimeoutError:
                bots.kill()
                await asyncio.to_thread(bots.wait)
        self.bots.clear()

    async def run(self) -> None:
        """Passes until cancelled; an error (Redis away) is logged and the next pass tries."""
        while True:
            try:
                await self.run_passes()
                await self.keep_bots()
            except Exception as error:  # noqa: BLE001 - keep matching; health reports Redis
                log_failure(log, "matching pass failed", error)
            await asyncio.sleep(self.settings.pass_seconds)

    @property
    def bot_lease_ms(self) -> int:
        """How long a bot lease outlives its last renewal (many passes)."""
        return max(5000, int(self.settings.pass_seconds * 20_000))

    async def keep_bots(self) -> None:
        """Renew the leases of the bots running here, drop those of bots that finished,
        and restart the bots of lapsed leases (a gateway died, or its bots crashed)."""
        until = now_ms() + self.bot_lease_ms
        for match, bots in list(self.bots.items()):
            if bots.poll() is not None:
                del self.bots[match]
                if bots.returncode == 0:  # played to the end
                    await self.tickets.drop_bots(match)
        await self.tickets.renew_bots(list(self.bots), until)
        for match, bots in await self.tickets.claim_bots(until, 4):
            if match in self.bots:  # ours, still running (a late renewal): keep them
                continue
            code = await self.meta.open_code(match)
            if code is None or not bots or \
                    bots.get("n", 0) >= MOST_RESTARTS:
                await self.tickets.drop_bots(match)
                continue
            bots["n"] = bots.get("n", 0) + 1
            await self.tickets.lease_bots(match, bots, until)
            log.info("restarting a matchmade match's bots", extra={"match": match})
            self.spawn_bots(match, bots["seats"], code)

    async def run_passes(self) -> int:
        """One pass over every listed pool; returns the matches made."""
        made = 0
        rules_now = self.settings.pass_rules()
        for pool in await self.tickets.pools(self.settings.pool_lifetime_ms):
            _, matches = await self.tickets.run_pass(pool, rules_now)
            for _, ticket_ids in matches:
                for ticket_id in ticket_ids:
                    if (event := self.waiters.get(ticket_id)) is not None:
                        event.set()
            made += len(matches)
            for match, ticket_ids in matches:
                ticket = await self.tickets.get(pool, ticket_ids[0])
                if ticket is not None:
                    try:
                        await self.ensure_match(pool, ticket)
                    except ServiceError as error:  # the streams' own ensure_match retries
                        log.warning("creating a matched match failed",
                                    extra={"match": match, "reason": error.reason})
        return made

    async def ensure_match(self, pool: str, ticket: dict) -> bool:
        """Create a matched ticket's match unless it exists; True when this call created it
        (and then started its bots, if it has bot seats)."""
        game, _, rated = pool_parts(pool)
        match, seed, seats = ticket["m"], int(ticket["sd"]), ticket["N"]
        request = gw.CreateMatchRequest(game=game, seats=seats, seed=seed,
                                        allow_spectators=True, rated=rated)
        if ticket.get("o"):
            request.options.ParseFromString(base64.b64decode(ticket["o"]))
        meta = creation_meta(game, request, match, seed)
        meta.pop(field.LISTED, None)  # never in the lobby: its seats belong to the tickets
        # admission as a private table's, to the group's members (and the bots' join
        # code), but not private in the records: invite "2" (store/keys.meta)
        meta[field.INVITE] = "2"
        meta.update({field.invited(proof): "1" for proof in group_proofs(ticket)})
        code = secrets.token_urlsafe(18)
        if ticket["b"]:
            meta[field.CODE] = code
        if not rated:
            meta[field.UNRATED] = "1"
        create = rules.CreateMatchRequest(match_id=match, options=request.options,
                                          seats=seats, seed=seed, meta=meta)
        try:
            await self.router.call(game, match, lambda r: r.stub.CreateMatch(create, timeout=10))
        except ServiceError as error:
            if error.code != grpc.StatusCode.ALREADY_EXISTS:
                raise
            return False
        if ticket["b"]:
            seats = [i for i, (tid, _) in enumerate(seat_slots(ticket)) if not tid]
            await self.tickets.lease_bots(match, {"seats": seats, "n": 0},
                                          now_ms() + self.bot_lease_ms)
            self.spawn_bots(match, seats, code)
        return True

    def spawn_bots(self, match: str, seats: list[int], code: str) -> None:
        """`parlour bots` for the match's bot seats, in its own process, against this
        gateway, with the match's join code in its environment."""
        self.bots[match] = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "bots", f"matches/{match}",
             "--seats", ",".join(map(str, seats)), "--strategy", self.settings.bot_strategy,
             "--gateway", self.own_address()],
            env={**os.environ, JOIN_CODE: code},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
