"""The lobby: unfinished matches that allow spectators, listed oldest first, filtered by
game and status, a page at a time (ListMatches), and a seat in one of them or in a new
match (JoinOrCreate).

Listed matches live in Redis sorted sets (every game, and one per game) whose members
"<creation ms>:<match id>" sort by creation time, so a page token is simply the last
member a page looked at. A match leaves the sets when it finishes; one gone from Redis
otherwise (abandoned) is dropped as it is met.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Container

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import invalid_argument
from parlour.store.matchstore import MatchStore

PAGE_SIZE = 20
#: Candidates read per round trip, and round trips at most per page, when filtering.
BATCH = 64
ROUNDS = 8


def member(created_ms: int, match: str) -> str:
    """The sorted-set member of a listed match."""
    return f"{created_ms:015d}:{match}"


def encode_token(last: str) -> str:
    return base64.urlsafe_b64encode(last.encode()).decode()


def decode_token(token: str) -> str:
    """The member a page token resumes after; INVALID_ARGUMENT BAD_PAGE_TOKEN otherwise."""
    try:
        last = base64.urlsafe_b64decode(token.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        last = ""
    created, _, match = last.partition(":")
    if not (created.isdigit() and len(created) == 15 and match):
        raise invalid_argument("page_token", "not a page token of ListMatches", "BAD_PAGE_TOKEN")
    return last


class Lobby:
    """Listing and finding listed matches."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    async def add(self, game: str, listed: str) -> None:
        """List a match by its member (idempotent); the rules service unlists it when it
        finishes (MatchStore.unlist)."""
        await self.store.lobby.add(game, listed)

    async def page(
        self, game: str, statuses: Container[int], size: int, token: str, resource
    ) -> tuple[list[gw.Match], str]:
        """Up to `size` listed matches after the token (of `game`, in `statuses` unless
        empty), and the token of the next page ('' at the end). `resource(match, meta,
        progress)` builds a Match."""
        last = decode_token(token) if token else ""
        found: list[gw.Match] = []
        for _ in range(ROUNDS):
            members = await self.store.lobby.after(game, last, BATCH)
            if not members:
                return found, ""
            stored = await self.store.metas_and_progress([m.partition(":")[2] for m in members])
            gone = []
            for name, (meta, progress) in zip(members, stored, strict=True):
                last = name
                if not meta or progress is None:
                    gone.append(name)
                    continue
                match = resource(name.partition(":")[2], meta, progress)
                if match.allow_spectators and (not statuses or match.status in statuses):
                    found.append(match)
                    if len(found) == size:
                        await self.store.lobby.drop(game, gone)
                        return found, encode_token(last)
            await self.store.lobby.drop(game, gone)
            if len(members) < BATCH:
                return found, ""
        return found, encode_token(last)
