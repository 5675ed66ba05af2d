"""Players' ratings in Redis (issue 36): one leaderboard per game and variant, each
player's standing and newest rated matches beside it, updated exactly once per match by
store/ratings.lua. Key names are in store/keys.py."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import redis.asyncio as aioredis

from parlour.store import keys

#: A player's newest rated matches kept per game and variant.
RECENT = 20
#: How long a match's `rated` marker is kept (s) when finished matches are kept for ever;
#: otherwise as long as the match (a match gone is never rated again, so it needs none).
RATED_MARKER_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Standing:
    """A player in one game and variant: the model's (mu, sigma), rated matches finished,
    wins, and the name it last played under."""

    mu: float
    sigma: float
    matches: int
    wins: int
    name: str

    @property
    def display(self) -> float:
        """The number shown and ranked by (openskill's ordinal: mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    def encode(self) -> str:
        return f"{self.mu!r}|{self.sigma!r}|{self.matches}|{self.wins}|{self.name}"

    @classmethod
    def decode(cls, raw: bytes | str) -> Standing:
        text = raw.decode() if isinstance(raw, bytes) else raw
        mu, sigma, matches, wins, name = text.split("|", 4)
        return cls(float(mu), float(sigma), int(matches), int(wins), name)


@dataclass(frozen=True, slots=True)
class Recorded:
    """One rated match in a player's list (GatewayService's RecordedMatch)."""

    match: str
    finished_ms: int
    seat: int
    place: int
    sides: int
    change: float
    private: bool

    def encode(self) -> str:
        return (f"{self.match}|{self.finished_ms}|{self.seat}|{self.place}|{self.sides}|"
                f"{self.change!r}|{int(self.private)}")

    @classmethod
    def decode(cls, raw: bytes | str) -> Recorded:
        text = raw.decode() if isinstance(raw, bytes) else raw
        match, finished, seat, place, sides, change, private = text.split("|")
        return cls(match, int(finished), int(seat), int(place), int(sides), float(change),
                   private == "1")


@dataclass(frozen=True, slots=True)
class Update:
    """One player's part of a match's update: what was read, what to write."""

    player: str
    before: str
    after: Standing
    recorded: Recorded


class RatingStore:
    """The ratings on one Redis client (standalone, Sentinel or Cluster)."""

    async def finished_facts(self, match: str) -> tuple[bytes | None, bytes | None, dict]:
        """(packed Options, MatchProgress bytes, metadata without token fields) of a match,
        in one round trip (None, None, {} once it is gone)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(keys.state(match), ["o", "p"])
        pipe.hgetall(keys.meta(match))
        (packed, progress), raw = await pipe.execute()
        meta = {k.decode(): v.decode() for k, v in raw.items() if not k.startswith(b"t:")}
        return packed, progress, meta

    def __init__(
        self, client: aioredis.Redis, finished_retention: int = 0, barrier=None
    ) -> None:
        self.redis = client
        #: MatchStore.barrier: an applied update waits for the replicas (issue 40).
        self.barrier = barrier
        #: Seconds a `rated` marker lives: the finished retention, or RATED_MARKER_SECONDS.
        self.marker_seconds = finished_retention or RATED_MARKER_SECONDS
        source = resources.files("parlour.store").joinpath("ratings.lua").read_text()
        self._apply = client.register_script(source)

    # -- the rules services' side ---------------------------------------------------------
    async def mark_due(self, game: str, match: str, when_ms: int) -> None:
        """Note a match about to be finished, before its finishing commit."""
        await self.redis.zadd(keys.ratings_due(game), {match: when_ms}, nx=True)

    async def due(self, game: str, before_ms: int, batch: int) -> list[tuple[str, int]]:
        """Matches noted before `before_ms`, oldest first."""
        found = await self.redis.zrangebyscore(
            keys.ratings_due(game), "-inf", before_ms, start=0, num=batch, withscores=True
        )
        return [(m.decode(), int(score)) for m, score in found]

    async def settled(self, game: str, match: str) -> None:
        await self.redis.zrem(keys.ratings_due(game), match)

    async def read(self, game: str, variant: str, players: list[str]) -> list[str]:
        """The stored values of `players` ('' for a newcomer), as ratings.lua compares them."""
        if not players:
            return []
        values = await self.redis.hmget(keys.players(game, variant), players)
        return [v.decode() if v is not None else "" for v in values]

    async def apply(self, game: str, variant: str, match: str, updates: list[Update]) -> int:
        """1 applied, 0 the match was already in, -1 a rating moved since read (retry)."""
        args: list = [self.marker_seconds, RECENT]
        for u in updates:
            args += [u.player, u.before, u.after.encode(), repr(u.after.display),
                     u.recorded.encode()]
        script_keys = [
            keys.rated(game, variant, match),
            keys.players(game, variant),
            keys.board(game, variant),
            *(keys.recent(game, variant, u.player) for u in updates),
        ]
        newcomers = [u.player for u in updates if not u.before]
        if newcomers:  # before the script, so a rated player's board is always in the set
            pipe = self.redis.pipeline(transaction=False)
            for player in newcomers:
                pipe.sadd(keys.played(player), f"{game}/{variant}")
            await pipe.execute()
        done = int(await self._apply(keys=script_keys, args=args))
        if self.barrier is not None:
            await self.barrier(keys.players(game, variant))
        return done

    async def is_rated(self, game: str, variant: str, match: str) -> bool:
        return bool(await self.redis.exists(keys.rated(game, variant, match)))

    # -- the gateway's side ----------------------------------------------------------------
    async def boards_of(self, player: str) -> list[tuple[str, str]]:
        """(game, variant) of every leaderboard the player is on, sorted."""
        found = await self.redis.smembers(keys.played(player))
        return sorted(tuple(m.decode().split("/", 1)) for m in found)

    async def standing(
        self, game: str, variant: str, player: str, recent: int = RECENT
    ) -> tuple[Standing, int, list[Recorded]] | None:
        """A player's standing, its rank (from 1) and its newest rated matches."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(keys.players(game, variant), player)
        pipe.zrevrank(keys.board(game, variant), player)
        pipe.lrange(keys.recent(game, variant, player), 0, recent - 1)
        raw, rank, matches = await pipe.execute()
        if raw is None or rank is None:
            return None
        return Standing.decode(raw), rank + 1, [Recorded.decode(m) for m in matches]

    async def size(self, game: str, variant: str) -> int:
        return int(await self.redis.zcard(keys.board(game, variant)))

    async def rank_of(self, game: str, variant: str, player: str) -> int | None:
        """Position from 1, None when not on the board."""
        rank = await self.redis.zrevrank(keys.board(game, variant), player)
        return None if rank is None else rank + 1

    async def rows(
        self, game: str, variant: str, first: int, last: int
    ) -> list[tuple[int, str, Standing]]:
        """Board positions first..last (from 1): (rank, player, standing)."""
        members = await self.redis.zrevrange(keys.board(game, variant), first - 1, last - 1)
        if not members:
            return []
        players = [m.decode() for m in members]
        values = await self.redis.hmget(keys.players(game, variant), players)
        return [
            (first + i, player, Standing.decode(value))
            for i, (player, value) in enumerate(zip(players, values, strict=True))
            if value is not None
        ]
