"""The lobby's sorted sets (keys.lobby: listed matches by member) and JoinOrCreate's picks
(keys.lobby_pick: which match a request id chose)."""

from __future__ import annotations

from parlour.store import keys

#: How long a JoinOrCreate pick is kept (s).
PICK_SECONDS = 3600


class LobbyStore:
    """Listing matches and remembering JoinOrCreate's picks."""

    def __init__(self, client, barrier) -> None:
        self.redis = client
        #: MatchStore.barrier: a write waits for the replicas (issue 40).
        self.barrier = barrier

    async def add(self, game: str, listed: str) -> None:
        """List a match by its member, in the game's lobby and the whole one (idempotent)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in (keys.lobby(), keys.lobby(game)):
            pipe.zadd(key, {listed: 0})
        await pipe.execute()
        await self.barrier(keys.lobby(game))
        await self.barrier(keys.lobby())

    async def after(self, game: str, last: str, count: int) -> list[str]:
        """Up to `count` members of the lobby of `game` ('' all) after `last` ('' first)."""
        low = f"({last}" if last else "-"
        found = await self.redis.zrangebylex(keys.lobby(game), low, "+", 0, count)
        return [m.decode() for m in found]

    async def drop(self, game: str, members: list[str]) -> None:
        """Take members (of matches gone) out of the lobby of `game` ('' all)."""
        if members:
            await self.redis.zrem(keys.lobby(game), *members)

    async def picked(self, pick: str) -> tuple[str, bool] | None:
        """(match, whether the pick created it) of an earlier pick; None if none is kept."""
        earlier = await self.redis.get(pick)
        if earlier is None:
            return None
        match, _, created = earlier.decode().partition("|")
        return match, created == "1"

    async def pick(self, pick: str, match: str, created: bool) -> bool:
        """Remember the pick unless one is kept already; whether it was remembered."""
        value = f"{match}|{int(created)}"
        return bool(await self.redis.set(pick, value, nx=True, ex=PICK_SECONDS))

    async def unpick(self, pick: str) -> None:
        """Forget a pick (its match turned out full)."""
        await self.redis.delete(pick)
