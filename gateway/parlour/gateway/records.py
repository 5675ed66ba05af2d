"""Players' records (issue 36): GetPlayerRecord and ListLeaderboard, read from the ratings
the rules services keep (store/ratingstore.py). Anyone may read any record; a private
table's match counts but is listed only to its owner (identity on, the caller's subject)."""

from __future__ import annotations

import hashlib
import re

import grpc

from parlour.engine.text import bot_name
from parlour.gateway import identity
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError, guarded, invalid_argument
from parlour.store.ratingstore import RatingStore, Standing

PLAYER = re.compile(
    r"players/(me|[pn][0-9a-f]{32}|bot:[a-z0-9-]{1,32}|game:[a-z0-9-]{1,64}|name:.{1,64})",
    re.DOTALL,
)
KINDS = {"p": gw.PLAYER_KIND_PERSON, "n": gw.PLAYER_KIND_NAME, "b": gw.PLAYER_KIND_BOT,
         "g": gw.PLAYER_KIND_RULES}
TOP = 10
NEIGHBOURS = 5


def player_key(name: str, field: str) -> str:
    """The record key a "players/{key}" name holds ("players/me": the caller's subject)."""
    found = PLAYER.fullmatch(name)
    key = name_key(found[1].removeprefix("name:")) if found and found[1][:5] == "name:" else ""
    if found is None or found[1][:5] == "name:" and not key:
        raise invalid_argument(
            field, "a player is named players/{key} (as JoinMatchResponse.player), "
            "players/name:<display name> or players/me", "BAD_PLAYER")
    if key:
        return key
    if found[1] != "me":
        return found[1]
    return identity.required("players/me").key


def name_key(display_name: str) -> str:
    """The record key of a display name (identity off): a digest of the name with its
    spaces collapsed and its letter case folded; '' for a blank name."""
    name = " ".join(display_name.split()).casefold()
    return "n" + hashlib.sha256(name.encode()).hexdigest()[:32] if name else ""


def record_key(request: gw.JoinMatchRequest, who: identity.Identity | None,
               bot_runners: frozenset[str]) -> str:
    """The record a seat's results count toward (issue 36): a bot strategy's when it joins
    as one (with identity on, only from the host's bot runners), else the subject's (identity
    on), else its display name's (letter case ignored); '' for no name."""
    if request.bot and (who is None or who.subject in bot_runners):
        return f"bot:{request.bot}"
    if who is not None:
        return who.key
    return name_key(request.display_name)


def rating(standing: Standing) -> gw.Rating:
    return gw.Rating(mu=standing.mu, sigma=standing.sigma, display=standing.display)


def record_name(key: str, stored: str) -> str:
    """The name a record is shown under: a bot's as its seats say it, without their number
    ("Clever bot"; older records stored the strategy's key), else the stored one."""
    return bot_name(key[4:]) if key.startswith("bot:") else stored


def entry(rank: int, player: str, standing: Standing) -> gw.LeaderboardEntry:
    return gw.LeaderboardEntry(
        rank=rank, player=f"players/{player}", display_name=record_name(player, standing.name),
        kind=KINDS[player[0]], rating=rating(standing), matches=standing.matches,
        wins=standing.wins,
    )


class RecordCalls:
    """GetPlayerRecord and ListLeaderboard."""

    def __init__(self, ratings: RatingStore, router: Router) -> None:
        self.ratings = ratings
        self.router = router

    @guarded
    async def GetPlayerRecord(self, request, context):
        key = player_key(request.player, "player")
        who = identity.current()
        owner = who is not None and who.key == key
        reply = gw.GetPlayerRecordResponse(player=f"players/{key}", kind=KINDS[key[0]],
                                           display_name=record_name(key, ""))
        newest = -1
        for game, variant in await self.ratings.boards_of(key):
            if request.game and game != request.game.removeprefix("games/"):
                continue
            if request.variant and variant != request.variant:
                continue
            found = await self.ratings.standing(game, variant, key)
            if found is None:
                continue
            standing, rank, recent = found
            record = reply.records.add(
                game=game, variant=variant, rating=rating(standing), matches=standing.matches,
                wins=standing.wins, rank=rank,
            )
            for played in recent:
                if played.private and not owner:
                    continue
                record.recent.add(
                    match=f"matches/{played.match}", finished_unix_ms=played.finished_ms,
                    seat=played.seat, place=played.place, sides=played.sides,
                    change=played.change, private=played.private,
                )
            when = recent[0].finished_ms if recent else 0
            if when > newest:
                newest, reply.display_name = when, record_name(key, standing.name)
        if not reply.records and request.player != "players/me" and not request.game:
            raise ServiceError(
                grpc.StatusCode.NOT_FOUND, "PLAYER_NOT_FOUND",
                f"no rated match of {request.player} is on record",
            )
        return reply

    @guarded
    async def ListLeaderboard(self, request, context):
        game = request.game.removeprefix("games/")
        info = await self.router.describe(game)
        variants = [v.name for v in info.variants] or ["standard"]
        variant = request.variant or variants[0]
        if variant not in variants:
            raise ServiceError(
                grpc.StatusCode.NOT_FOUND, "VARIANT_NOT_FOUND",
                f"{info.display_name} has no variant {variant!r}",
            )
        top = request.top or TOP
        reply = gw.ListLeaderboardResponse(
            variant=variant, players=await self.ratings.size(game, variant)
        )
        reply.top.extend(entry(*row) for row in await self.ratings.rows(game, variant, 1, top))
        if request.around:
            key = player_key(request.around, "around")
            rank = await self.ratings.rank_of(game, variant, key)
            if rank is not None:
                near = request.neighbours or NEIGHBOURS
                rows = await self.ratings.rows(game, variant, max(1, rank - near), rank + near)
                reply.around.extend(entry(*row) for row in rows)
        return reply
