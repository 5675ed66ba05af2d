"""People's notification preferences (issue 44): the set of notice kinds each turned off."""

from __future__ import annotations


def prefs_key(player: str) -> str:
    """Set of the notice kinds a person turned OFF (player: 'players/<record key>')."""
    return f"parlour:notify-prefs:{player.removeprefix('players/')}"


class NoticePrefs:
    """Which kinds of notice each person turned off."""

    def __init__(self, client) -> None:
        self.redis = client

    async def muted(self, player: str) -> set[str]:
        """The kinds `player` turned off ("your_turn"…)."""
        return {kind.decode() for kind in await self.redis.smembers(prefs_key(player))}

    async def mute(self, player: str, kinds: set[str]) -> None:
        """Turn off exactly these kinds for `player` (the rest on), in one transaction."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(prefs_key(player))
            if kinds:
                pipe.sadd(prefs_key(player), *kinds)
            await pipe.execute()

    async def is_muted(self, player: str, kind: str) -> bool:
        """Whether `player` turned `kind` off."""
        return bool(await self.redis.sismember(prefs_key(player), kind))
