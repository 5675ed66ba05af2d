"""The lobby's calls: ListMatches (a page of listed matches) and JoinOrCreate (a seat in a
waiting match of the game, or in a new one). Storage of the listing is lobby.py."""

from __future__ import annotations

import asyncio
import collections

from parlour.gateway.edge import Callers, match_id_of
from parlour.gateway.lobby import PAGE_SIZE, Lobby
from parlour.gateway.matches import MatchCalls, match_resource
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError, guarded, not_found
from parlour.store import keys
from parlour.store.matchstore import MatchStore


class LobbyCalls:
    """ListMatches and JoinOrCreate (joining and creating through `matches`)."""

    def __init__(
        self, callers: Callers, store: MatchStore, router: Router, lobby: Lobby,
        matches: MatchCalls,
    ) -> None:
        self.callers = callers
        self.store = store
        self.router = router
        self.lobby = lobby
        self.matches = matches
        self.lobby_locks: collections.defaultdict[str, asyncio.Lock] = collections.defaultdict(
            asyncio.Lock
        )

    @guarded
    async def ListMatches(self, request, context):
        game = request.game.removeprefix("games/")
        if game and game not in self.router.routes:
            raise not_found("game", request.game)
        matches, token = await self.lobby.page(
            game,
            set(request.statuses),
            request.page_size or PAGE_SIZE,
            request.page_token,
            match_resource,
        )
        return gw.ListMatchesResponse(matches=matches, next_page_token=token)

    @guarded
    async def JoinOrCreate(self, request, context):
        """Callers of one game take turns on this gateway, so they fill a match before
        another is created (callers on other gateways may still race: they never share
        a seat, but may open a match more than needed)."""
        async with self.lobby_locks[request.game.removeprefix("games/")]:
            return await self.join_or_create(request, context)

    async def join_or_create(self, request, context) -> gw.JoinOrCreateResponse:
        game = request.game.removeprefix("games/")
        info = await self.router.describe(game)
        rid = request.request_id
        pick = keys.lobby_pick(f"{self.callers.scope(context)}|{rid}") if rid else ""
        if pick and (earlier := await self.store.lobby.picked(pick)):
            match, created = earlier
            return await self.join_listed(match, request, context, created)
        waiting, _ = await self.lobby.page(
            game, {gw.MATCH_STATUS_WAITING}, PAGE_SIZE, "", match_resource
        )
        for candidate in waiting:
            match = match_id_of(candidate.name)
            if pick and not await self.store.lobby.pick(pick, match, False):
                return await self.join_or_create(request, context)
            try:
                return await self.join_listed(match, request, context, False)
            except ServiceError as error:
                if error.reason not in ("MATCH_FULL", "SEAT_TAKEN"):
                    raise
                if pick:
                    await self.store.lobby.unpick(pick)
        create = gw.CreateMatchRequest(
            game=game,
            seats=request.seats or info.min_seats,
            allow_spectators=True,
            request_id=f"join-or-create|{request.request_id}" if request.request_id else "",
        )
        created = await self.matches.create_match(create, context)
        match = match_id_of(created.match.name)
        if pick and not await self.store.lobby.pick(pick, match, True):
            return await self.join_or_create(request, context)
        if pick:
            await self.store.barrier(pick)
        return await self.join_listed(match, request, context, True)

    async def join_listed(self, match: str, request, context, created: bool):
        """JoinMatch's logic for JoinOrCreate."""
        join = gw.JoinMatchRequest(
            match=f"matches/{match}",
            display_name=request.display_name,
            request_id=request.request_id,
        )
        joined = await self.matches.join_match(join, context)
        return gw.JoinOrCreateResponse(joined=joined, created=created)
