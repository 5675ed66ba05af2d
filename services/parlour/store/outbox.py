"""The notification outbox's Redis side (issue 44): the stream notifiers read, each match's
hash of the notices written (keys.notified, written only by notice.lua and turns.lua), the
dead-letter stream and people's preferences. parlour.notify decides what a notice says."""

from __future__ import annotations

from collections.abc import AsyncIterator
from importlib import resources

from redis.exceptions import ResponseError

from parlour.store import connection, keys
from parlour.store.notices import NoticePrefs

#: The outbox stream every notifier reads (consumer group GROUP).
STREAM = "parlour:notify:outbox"
GROUP = "notifiers"
#: Notices given up on.
DEAD = "parlour:notify:dead"
#: The streams are trimmed (approximately) beyond these many notices.
MAXLEN, DEAD_MAXLEN = 100_000, 10_000


def _script(client, name: str):
    return client.register_script(resources.files("parlour.store").joinpath(name).read_text())


class OutboxStore:
    """Writes notices to the outbox stream, each once."""

    def __init__(self, client) -> None:
        self.redis = client
        self._turns = _script(client, "turns.lua")
        self._notice = _script(client, "notice.lua")

    async def meta(self, match: str) -> dict[bytes, bytes]:
        """The match's whole metadata ({} once it is gone)."""
        return await self.redis.hgetall(keys.meta(match))

    async def turns(self, match: str, version: int, seats: int, pending: list[int]) -> dict:
        """Each pending seat's turn (see turns.lua): {seat: version it is pending since}."""
        raw = await self._turns(
            keys=[keys.notified(match), keys.meta(match)], args=[version, seats, *pending]
        )
        return {int(seat): int(turn) for seat, turn in zip(raw[::2], raw[1::2], strict=True)}

    async def first_time(self, match: str, field: str, key: str) -> bool:
        """Note the notice `field` (idempotency key `key`) as written; False if it was."""
        return bool(
            await self._notice(keys=[keys.notified(match), keys.meta(match)], args=[field, key])
        )

    async def append(self, body: str) -> None:
        """Put a notice's webhook body on the outbox stream."""
        await self.redis.xadd(STREAM, {"n": body}, maxlen=MAXLEN, approximate=True)


class NoticeQueue:
    """One notifier's side of the outbox stream: its consumer group, deliveries and
    acknowledgements, and the timed matches its sweep re-reads."""

    def __init__(self, client, name: str) -> None:
        self.redis = client
        self.name = name
        #: The outbox writes of the notifiers' sweep, and the preferences they honour.
        self.outbox = OutboxStore(client)
        self.prefs = NoticePrefs(client)

    @classmethod
    def from_url(cls, url: str, name: str) -> NoticeQueue:
        """A queue on the Redis at `url` (see parlour.store.connection)."""
        return cls(connection.connect(url), name)

    async def close(self) -> None:
        await self.redis.aclose()

    async def ensure_group(self) -> None:
        """Create the consumer group (and the stream) unless there is one."""
        try:
            await self.redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    async def read(self, count: int, block_ms: int) -> list[tuple[bytes, dict]]:
        """Up to `count` new notices for this consumer, waiting up to `block_ms`."""
        got = await self.redis.xreadgroup(
            GROUP, self.name, {STREAM: ">"}, count=count, block=block_ms
        )
        return [entry for _, entries in got or [] for entry in entries]

    async def pending(self, count: int) -> list[dict]:
        """Up to `count` notices delivered and not acknowledged (any consumer's)."""
        return await self.redis.xpending_range(STREAM, GROUP, "-", "+", count)

    async def claim(self, min_idle_ms: int, entry_id) -> list[tuple[bytes, dict]]:
        """Take over a pending notice idle at least `min_idle_ms`."""
        return await self.redis.xclaim(STREAM, GROUP, self.name, min_idle_ms, [entry_id])

    async def ack(self, entry_id) -> None:
        """The notice is done with."""
        await self.redis.xack(STREAM, GROUP, entry_id)

    async def bury(self, entry_id, body: bytes) -> None:
        """Give a notice up: onto the dead-letter stream, and acknowledged."""
        await self.redis.xadd(DEAD, {"n": body}, maxlen=DEAD_MAXLEN, approximate=True)
        await self.ack(entry_id)

    async def timed_progress(self) -> AsyncIterator[tuple[str, bytes]]:
        """(match, stored MatchProgress bytes) of every match with a turn timer."""
        async for timers in self.redis.scan_iter(match=keys.timers("*")):
            async for member, _ in self.redis.zscan_iter(timers):
                match = member.decode()
                if raw := await self.redis.hget(keys.state(match), "p"):
                    yield match, raw
