"""Async access to match state: create, load, the batched atomic commit, seats, events."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from dataclasses import dataclass, field
from importlib import resources

import redis.asyncio as aioredis
from redis.asyncio.sentinel import SentinelConnectionPool
from redis.exceptions import NoScriptError

from parlour.store import connection, keys, packing, seating
from parlour.store.channels import Subscription, subscribed
from parlour.store.lobby import LobbyStore
from parlour.store.meta import MatchMeta
from parlour.store.notices import NoticePrefs
from parlour.store.outbox import OutboxStore
from parlour.store.ratingstore import RatingStore
from parlour.store.replication import (
    MARK,
    NotReplicated,
    Replication,
    demoted,
    forget_primary,
    mark_key,
    on_one_connection,
)
from parlour.store.retention import Retention
from parlour.store.ticketstore import TicketStore

log = logging.getLogger("parlour.store")

EVERYONE = b"*"


class MatchNotFound(LookupError):
    """No match with that id."""


class MatchFinished(Exception):
    """The match is over: nothing commits after its end."""


class SeatRevoked(Exception):
    """The seat token an action was sent with no longer holds its seat."""


class CommitConflict(Exception):
    """The match moved on since the state was read."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"match is at version {current_version}")
        self.current_version = current_version


@dataclass(frozen=True, slots=True)
class StoredState:
    """A match's state as stored: version, last event sequence, State and MatchProgress
    bytes, and the rules version the State is played under."""

    version: int
    last_sequence: int
    data: bytes
    progress: bytes
    #: 1 for a match stored before rules versions were recorded.
    rules: int = 1


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event stream entry."""

    sequence: int
    payload: bytes
    visibility: bytes
    actor: int
    version: int
    request_id: str = ""
    #: The match's last event (written by the action that finished it).
    final: bool = False
    #: Seat tokens the match had revoked when the event was committed (store/seat.lua).
    seat_version: int = 0
    #: What a reader made of the event once, for every subscriber (the gateway's public
    #: MatchEvent); not part of the event's value.
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def visible_to(self, seat: int | None) -> bool:
        """Whether a seat (None: spectator) may see the event."""
        if self.visibility == EVERYONE:
            return True
        if self.visibility.startswith(b"*!"):
            return seat is None or str(seat).encode() not in self.visibility[2:].split(b",")
        return seat is not None and str(seat).encode() in self.visibility.split(b",")


@dataclass(frozen=True, slots=True)
class MatchRecords:
    """What the store keeps of one match for its log."""

    meta: dict[str, str]
    options: bytes
    progress: bytes
    actions: list[bytes]
    events: list[StoredEvent]


def encode_visibility(
    to: frozenset[int] | None, hidden_from: frozenset[int] = frozenset()
) -> bytes:
    """'*' for everyone, '*!1,2' for everyone but seats 1 and 2, else '0,3' for only those seats."""
    if to is None:
        return EVERYONE + (
            b"!" + ",".join(map(str, sorted(hidden_from))).encode() if hidden_from else b""
        )
    return ",".join(map(str, sorted(to))).encode()


@dataclass(slots=True)
class _Commit:
    args: list
    keys: list[str]
    future: asyncio.Future


@dataclass(frozen=True, slots=True)
class Committed:
    """What a commit did: the new version, the last sequence and the seat version it was
    made at, or (version 0) the earlier record of a repeated request id."""

    version: int
    last_sequence: int = 0
    seat_version: int = 0
    earlier: bytes | None = None
    #: The version to confirm once replicated (the new one, or the match's at a repeat).
    confirms: int = 0


def record_key(request_id: str) -> bytes:
    """The compact key of a request's record: 12 bytes of digest (collisions within one
    match are out of reach: about 2**-96 per pair)."""
    return hashlib.blake2b(request_id.encode(), digest_size=12).digest()


def _script(name: str) -> str:
    return resources.files("parlour.store").joinpath(name).read_text()


# retention.lua: the first keys hold the match itself (meta, state, events, action log) and
# take the finished retention whole; the rest (request records) may be due sooner and keep
# that (commit.lua does the same inline)
WHOLE_MATCH_KEYS = 4


def retained_keys(match: str) -> list[str]:
    """The match's keys for retention.lua: meta, state, events and actions, then the rest."""
    whole = [keys.meta(match), keys.state(match), keys.events(match), keys.actions(match)]
    return whole + [k for k in keys.all_for(match) if k not in whole]


class MatchStore:
    """One Redis client (standalone, Sentinel or Cluster) plus the match scripts; commits
    share pipelined round trips; every write keeps the match's retention."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        max_events: int = 0,
        finished_request_ttl: int = 3600,
        retention: Retention | None = None,
        replication: Replication | None = None,
    ) -> None:
        self.redis = client
        self.replication = replication or Replication()
        #: Matches whose stored events wait for a confirmation (see events_after).
        self._repairs: dict[str, asyncio.Task] = {}
        self.max_events = max_events
        self.finished_request_ttl = finished_request_ttl
        self.retention = retention or Retention()
        self._commit_src = _script("commit.lua")
        self._create = client.register_script(_script("create.lua"))
        self._seat = client.register_script(_script("seat.lua"))
        self._keep = client.register_script(_script("retention.lua"))
        self._settle = client.register_script(_script("settle_timer.lua"))
        self._confirm = client.register_script(_script("confirm.lua"))
        self._commit_sha: str | None = None
        self._cluster = connection.is_cluster(client)
        self._queue: list[_Commit] = []
        self._flusher: asyncio.Task | None = None
        #: The loop of the running flusher (asking for the running loop is a getpid() on
        #: CPython 3.11).
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The match's metadata hash, read by meaning (parlour.store.meta).
        self.meta = MatchMeta(client)
        self.lobby = LobbyStore(client, self.barrier)
        self.prefs = NoticePrefs(client)
        self.outbox = OutboxStore(client)

    def ratings(self) -> RatingStore:
        """The ratings on this store's connection (markers kept as long as finished matches;
        applied updates wait for the replicas)."""
        return RatingStore(self.redis, self.retention.finished_seconds, self.barrier)

    def tickets(self) -> TicketStore:
        """The matchmaking tickets on this store's connection."""
        return TicketStore(self.redis)

    def subscribed(self, channel: str) -> contextlib.AbstractAsyncContextManager[Subscription]:
        """A subscription to a channel (keys.REVOKED, a gateway's commit notices)."""
        return subscribed(self.redis, channel)

    @classmethod
    def from_url(cls, url: str, timeout: float = 5.0, **kwargs) -> MatchStore:
        """A store on the Redis at `url` (see parlour.store.connection for the forms);
        commands time out after `timeout` seconds. Retention and replication default to the
        environment's.

        A command that meets a connection broken since its last use (Redis restarted) is
        sent once more on a fresh one; every script is idempotent, so this is safe."""
        kwargs.setdefault("retention", Retention.from_env())
        kwargs.setdefault("finished_request_ttl", kwargs["retention"].request_seconds)
        kwargs.setdefault("replication", Replication.from_env(connection.parse(url).topology))
        client = connection.connect(url, timeout)
        packing.install(client)
        return cls(client, **kwargs)

    async def close(self) -> None:
        """Close the connection pool (and, through Sentinel, the sentinels' connections)."""
        for task in self._repairs.values():
            task.cancel()
        pool = getattr(self.redis, "connection_pool", None)
        await self.redis.aclose()
        if isinstance(pool, SentinelConnectionPool):
            for sentinel in pool.sentinel_manager.sentinels:
                await sentinel.aclose()

    async def ping(self) -> bool:
        """Whether Redis answers. Through Sentinel it also asks which server is primary now,
        dropping idle connections to a demoted one (the servers' storage check does this
        every second, so reads follow a fail-over within about a second)."""
        pool = getattr(self.redis, "connection_pool", None)
        if isinstance(pool, SentinelConnectionPool):
            await pool.get_master_address()
        return bool(await self.redis.ping())

    # -- replication (issue 40) ---------------------------------------------
    @property
    def replicated(self) -> bool:
        """Whether writes wait for replicas before they are acknowledged."""
        return self.replication.replicas > 0

    async def barrier(self, key: str) -> None:
        """Return once every write made so far on the server owning `key`'s slot is on
        enough replicas (at once without replicas); NotReplicated if not in time."""
        if self.replicated:
            replies = await self._waited(key, [("EVAL", MARK, 1, mark_key(key))])
            if isinstance(replies[0], Exception):
                raise replies[0]

    async def _waited(self, key: str, commands: list[tuple]) -> list:
        """`commands` then WAIT on one connection of `key`'s server; their replies (errors
        as values), once the WAIT confirmed them. A demoted primary's refusal, or too few
        replicas, makes the next command ask which server is primary now."""
        try:
            *replies, waited = await on_one_connection(
                self.redis, key, [*commands, self.replication.wait]
            )
            for reply in (*replies, waited):
                if isinstance(reply, Exception) and demoted(reply):
                    raise reply
            self.replication.check(waited)
        except Exception as error:
            if isinstance(error, NotReplicated) or demoted(error):
                await forget_primary(self.redis)
            raise
        return replies

    async def confirm_stored(self, match: str) -> None:
        """Confirm whatever the match has stored (a commit whose own confirmation was lost:
        its committer died, or its WAIT timed out and nobody retried) and tell every gateway."""
        version, sequence = await self.redis.hmget(keys.state(match), "v", "q")
        if version is None:
            return
        await self.barrier(keys.state(match))
        await self._confirm(
            keys=[keys.state(match), keys.gateways(match)],
            args=[int(version), "", keys.GATEWAY_CHANNEL, match, int(sequence or 0)],
        )

    def _unconfirmed(self, match: str) -> None:
        """Stored events wait for their confirmation: if it has not come after the time a
        commit may wait for its replicas (and a second), confirm them here."""
        if match not in self._repairs:
            self._repairs[match] = asyncio.create_task(self._repair(match))

    async def _repair(self, match: str) -> None:
        try:
            await asyncio.sleep(self.replication.timeout_ms / 1000 + 1)
            state, confirmed = await self.redis.hmget(keys.state(match), "v", "c")
            if state is not None and confirmed is not None and int(confirmed) < int(state):
                log.warning("confirming a match's stored commits", extra={"match": match})
                await self.confirm_stored(match)
        except Exception as error:  # noqa: BLE001 - the next read that finds them tries again
            log.warning("confirmation failed", extra={"match": match, "error": repr(error)})
        finally:
            self._repairs.pop(match, None)

    # -- matches ----------------------------------------------------------
    async def create_state(
        self,
        match: str,
        state: bytes,
        progress: bytes,
        meta: dict[str, str] | None = None,
        options: bytes = b"",
        rules: int = 1,
    ) -> bool:
        """Store a new match's metadata and initial state (version 1, with its packed Options
        and its rules version, kept in the state as `r` and in the meta as `rules` and
        `rules_created`) in one atomic step; False if the match exists."""
        meta = {**(meta or {}), "rules": str(rules), "rules_created": str(rules)}
        flat = [x for kv in meta.items() for x in kv]
        args = [len(meta), *flat, "v", 1, "q", 0, "c", 1, "cq", 0, "s", state, "p", progress,
                "o", options, "r", rules]
        created = bool(await self._create(keys=[keys.meta(match), keys.state(match)], args=args))
        if created:
            await self.keep(match)
        await self.barrier(keys.meta(match))
        return created

    async def keep(self, match: str) -> int:
        """Activity on the match: push its expiry out by the abandoned-match time (no change
        once finished); returns the seconds applied, -1 for none."""
        return int(await self._keep(keys=retained_keys(match), args=self._retention_args(False)))

    def _retention_args(self, finishing: bool) -> list:
        r = self.retention
        finishing_flag = "1" if finishing else "0"
        return [r.abandoned_seconds, r.finished_seconds, finishing_flag, WHOLE_MATCH_KEYS]

    async def delete(self, match: str) -> bool:
        """Remove every key of the match now (a host's decision); False if nothing was there."""
        return bool(await self.redis.delete(*keys.all_for(match)))

    async def meta_and_progress(self, match: str) -> tuple[dict[str, str], bytes | None]:
        """Metadata and stored MatchProgress bytes in one round trip (the progress confirmed
        first, as `load`'s state is); MatchNotFound if no match."""
        return (await self.metas_and_progress([match], missing=MatchNotFound))[0]

    async def metas_and_progress(
        self, matches: list[str], missing: type[Exception] | None = None
    ) -> list[tuple[dict[str, str], bytes | None]]:
        """Metadata and stored MatchProgress bytes of several matches in one round trip ({}
        for a missing one, or `missing` raised). With replicas, a progress whose commit is
        not yet confirmed replicated is confirmed first (NotReplicated if it cannot be), so
        that no match resource shows what a fail-over could still take back."""
        pipe = self.redis.pipeline(transaction=False)
        for match in matches:
            pipe.hgetall(keys.meta(match))
            pipe.hmget(keys.state(match), "p", "v", "c")
        replies = await pipe.execute()
        found = []
        for match, raw, (progress, version, confirmed) in zip(
            matches, replies[::2], replies[1::2], strict=True
        ):
            if not raw and missing is not None:
                raise missing(match)
            await self._confirmed(match, version, confirmed)
            found.append(({k.decode(): v.decode() for k, v in raw.items()}, progress))
        return found

    async def _confirmed(
        self, match: str, version: bytes | None, confirmed: bytes | None
    ) -> None:
        """Before a state or progress read at `version` is handed out: with replicas, its
        commit confirmed replicated (NotReplicated if it cannot be)."""
        if self.replicated and None not in (version, confirmed) and int(confirmed) < int(version):
            await self.confirm_stored(match)

    async def unlist(self, match: str) -> None:
        """Take a finished match out of the lobby (its meta `listed` names its member)."""
        game, listed = await self.redis.hmget(keys.meta(match), "game", "listed")
        if listed is not None:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(keys.lobby(), listed)
            pipe.zrem(keys.lobby(game.decode()), listed)
            pipe.hdel(keys.meta(match), "listed")  # a finished match keeps no listing
            await pipe.execute()

    async def load(self, match: str) -> StoredState:
        """The current state; MatchNotFound if there is none. With replicas, a state whose
        commit is not yet confirmed replicated is confirmed first (NotReplicated if it cannot
        be), so that no view shows what a fail-over could still take back."""
        version, seq, data, progress, rules, confirmed = await self.redis.hmget(
            keys.state(match), "v", "q", "s", "p", "r", "c"
        )
        if version is None:
            raise MatchNotFound(match)
        await self._confirmed(match, version, confirmed)
        return StoredState(int(version), int(seq), data, progress or b"", int(rules or 1))

    async def version(self, match: str) -> int:
        """The current version; MatchNotFound if there is none."""
        version = await self.redis.hget(keys.state(match), "v")
        if version is None:
            raise MatchNotFound(match)
        return int(version)

    async def take_seat(
        self,
        match: str,
        seat: int,
        token_hash: str,
        name: str,
        request_id: str,
        fingerprint: str,
        proof: str = "",
        record: str = "",
    ) -> seating.Taken:
        """Take a seat (-1: lowest free), or re-open the one `proof` took (see seat.lua);
        SeatRefused says why not. `record`: the record the seat counts toward (rk:<seat>)."""
        args = ["take", seat, token_hash, name, request_id, fingerprint, proof, keys.REVOKED,
                record]
        reply = await self._seat(keys=[keys.meta(match)], args=args)
        if int(reply[0]) >= 0:
            await self.keep(match)
        await self.barrier(keys.meta(match))
        return seating.taken(reply)

    async def note_mine(self, subject_key: str, match: str, when_ms: int) -> None:
        """Remember a subject's match for ListMyMatches (kept as long as a finished match)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.mine(subject_key), {match: when_ms})
        if self.retention.finished_seconds:
            pipe.expire(keys.mine(subject_key), self.retention.finished_seconds)
        await pipe.execute()
        await self.barrier(keys.mine(subject_key))

    async def mine(self, subject_key: str, count: int) -> list[str]:
        """The subject's matches, the newest join first."""
        return [
            m.decode() for m in await self.redis.zrevrange(keys.mine(subject_key), 0, count - 1)
        ]

    async def forget_mine(self, subject_key: str, *matches: str) -> None:
        """The subject no longer sits in these matches (left, or gone)."""
        if matches:
            await self.redis.zrem(keys.mine(subject_key), *matches)

    async def leave_seat(self, match: str, token_hash: str) -> int:
        """Free the seat a token holds and announce the revocation; the seat, or -1."""
        args = ["leave", token_hash, keys.REVOKED]
        left = int((await self._seat(keys=[keys.meta(match)], args=args))[0])
        if left >= 0:
            await self.keep(match)
        await self.barrier(keys.meta(match))
        return left

    async def seat_of(self, match: str, token_hash: str) -> int | None:
        """The seat a token holds now, or None once revoked."""
        seat = await self.redis.hget(keys.meta(match), f"t:{token_hash}")
        return None if seat is None else int(seat)

    async def seat_and_version(self, match: str, token_hash: str) -> tuple[int | None, int]:
        """The seat a token holds now (None once revoked) and the match's seat version."""
        seat, version = await self.redis.hmget(keys.meta(match), f"t:{token_hash}", "sv")
        return (None if seat is None else int(seat)), int(version or 0)

    async def open_feed(
        self, match: str, gateway: str
    ) -> tuple[bytes | None, int | None, int, int | None]:
        """Tell commits of the match to notify this gateway (keys.gateways), then, in the
        same round trip, read the stored progress and stream_bounds(finished=True)'s
        answer: (progress, first, last, finished_at)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.sadd(keys.gateways(match), gateway)
        if self.retention.abandoned_seconds:
            pipe.expire(keys.gateways(match), self.retention.abandoned_seconds)
        pipe.hmget(keys.state(match), "p", "v", "c")
        self._bounds(pipe, match)
        *_, (progress, version, confirmed), head, tail, status, final = await pipe.execute()
        if self.replicated and None not in (version, confirmed) and int(version) > int(confirmed):
            self._unconfirmed(match)  # its commit waits for its confirmation
            progress = None
        return progress, *await self._bounds_answer(match, head, tail, status, final)

    async def unwatch_match(self, match: str, gateway: str) -> None:
        """This gateway has no subscriber of the match any more."""
        await self.redis.srem(keys.gateways(match), gateway)

    async def request_record(self, match: str, request_id: str) -> bytes | None:
        """The record of an earlier request with this id, if still kept (and, with replicas,
        confirmed replicated before it is answered from)."""
        earlier = await self.redis.hget(keys.requests(match), record_key(request_id))
        if earlier is not None and self.replicated:
            await self.confirm_stored(match)
        return earlier

    # -- the commit ---------------------------------------------------------
    async def commit(
        self,
        match: str,
        expected_version: int,
        state: bytes,
        events: list[tuple[bytes, bytes, int]],
        request_id: str,
        record: bytes,
        progress: bytes,
        status: str = "",
        logged_action: bytes = b"",
    ) -> tuple[int, bytes | None]:
        """commit_action without a token check: (new_version, None), or (0, earlier_record)
        for a repeated request id."""
        done = await self.commit_action(
            match, expected_version, state, events, request_id, record, progress, status,
            logged_action,
        )  # fmt: skip
        return done.version, done.earlier

    async def commit_action(
        self,
        match: str,
        expected_version: int,
        state: bytes,
        events: list[tuple[bytes, bytes, int]],
        request_id: str,
        record: bytes,
        progress: bytes,
        status: str = "",
        logged_action: bytes = b"",
        *,
        seat: int = 0,
        token_hash: str = "",
        origin: str = "",
        rules: int = 0,
    ) -> Committed:
        """Atomically write state + events + request record if the version still matches
        (and, given a token hash, the token still holds `seat`), keep the retention and
        notify the match's other gateways (store/commit.lua).

        Raises CommitConflict, MatchNotFound, MatchFinished or SeatRevoked. Commits issued
        in the same moment share one pipelined round trip. `rules` (a migration): the match
        is played under this rules version from this commit on.
        """
        r = self.retention
        args: list = [
            expected_version,
            state,
            record_key(request_id) if request_id else "",
            record,
            self.max_events,
            status,
            self.finished_request_ttl,
            logged_action,
            progress,
            seat,
            token_hash,
            origin,
            r.abandoned_seconds,
            r.finished_seconds,
            keys.GATEWAY_CHANNEL,
            match,
            len(events),
            "0" if self.replicated else "1",
        ]
        for payload, visibility, actor in events:
            args += [payload, visibility, actor]
        if rules:
            args.append(rules)
        match_keys = [
            keys.state(match),
            keys.events(match),
            keys.requests(match),
            keys.meta(match),
            keys.actions(match),
            keys.gateways(match),
        ]
        if self._flusher is None or self._flusher.done():
            self._loop = asyncio.get_running_loop()  # once per flusher, not per commit
            self._flusher = self._loop.create_task(self._flush())
        future = self._loop.create_future()
        self._queue.append(_Commit(args, match_keys, future))
        reply = await future
        if reply[0] == 1:
            return Committed(int(reply[1]), int(reply[2]), int(reply[3]))
        if reply[0] == 0:
            return Committed(0, earlier=reply[1], confirms=int(reply[2]))
        if reply[0] == -1:
            raise CommitConflict(int(reply[1]))
        if reply[0] == -3:
            raise MatchFinished(match)
        if reply[0] == -4:
            raise SeatRevoked(match)
        raise MatchNotFound(match)

    async def _flush(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                replies = await self._run_batch(batch)
            except Exception as error:  # noqa: BLE001 - handed to every waiter
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(error)
                continue
            for item, reply in zip(batch, replies, strict=True):
                if item.future.done():
                    continue
                if isinstance(reply, Exception):
                    item.future.set_exception(reply)
                else:
                    item.future.set_result(reply)

    async def _run_batch(self, batch: list[_Commit]) -> list:
        """Every commit of the batch in one pipelined round trip (with replicas: followed by
        WAIT, and by the confirmation of those that committed)."""
        if self._commit_sha is None:
            self._commit_sha = await self.redis.script_load(self._commit_src)
        if self.replicated:
            return await self._run_replicated(batch)
        if len(batch) == 1 and not self._cluster:  # alone: no pipeline (~15 % less CPU)
            try:
                replies = [await self._run_one(batch[0])]
            except Exception as error:  # noqa: BLE001 - a reply, as the pipeline gives it
                replies = [error]
        elif self._cluster:
            replies = await asyncio.gather(*map(self._run_one, batch), return_exceptions=True)
        else:
            pipe = self.redis.pipeline(transaction=False)
            for item in batch:
                pipe.evalsha(self._commit_sha, len(item.keys), *item.keys, *item.args)
            replies = await pipe.execute(raise_on_error=False)
        if any(isinstance(r, NoScriptError) for r in replies):
            self._commit_sha = None
            return await self._run_batch(batch)
        return replies

    async def _run_replicated(self, batch: list[_Commit]) -> list:
        """The batch, WAIT, then confirm.lua for each commit (or repeat) it confirmed; a
        commit not confirmed in time is answered NotReplicated."""
        if self._cluster:
            replies = await asyncio.gather(
                *(self._replicated([item]) for item in batch), return_exceptions=True
            )
            replies = [r[0] if isinstance(r, list) else r for r in replies]
        else:
            try:
                replies = await self._replicated(batch)
            except Exception as error:  # noqa: BLE001 - a reply for each, as a pipeline gives
                replies = [error] * len(batch)
        if any(isinstance(r, NoScriptError) for r in replies):
            self._commit_sha = None
            return await self._run_batch(batch)
        return replies

    async def _replicated(self, batch: list[_Commit]) -> list:
        """One round trip of commits and WAIT (one server), then their confirmations."""
        commands = [
            ("EVALSHA", self._commit_sha, len(item.keys), *item.keys, *item.args)
            for item in batch
        ]
        replies = await self._waited(batch[0].keys[0], commands)
        done = [
            (item, reply)
            for item, reply in zip(batch, replies, strict=True)
            if isinstance(reply, list) and reply[0] in (0, 1)
        ]
        if done:
            try:
                await self._confirm_all(done)
            except Exception as error:  # noqa: BLE001 - replicated all the same
                log.warning("confirmation failed", extra={"error": repr(error)})
        return replies

    async def _confirm_all(self, done: list[tuple[_Commit, list]]) -> None:
        """confirm.lua for each replicated commit, in one round trip (one per commit on
        a Cluster)."""
        calls = []
        for item, reply in done:
            match = item.args[15]
            version, sequence = reply[1:3] if reply[0] == 1 else reply[2:4]
            calls.append(
                ([item.keys[0], item.keys[5]],
                 [int(version), item.args[11], keys.GATEWAY_CHANNEL, match, int(sequence)])
            )  # fmt: skip
        if self._cluster:
            await asyncio.gather(*(self._confirm(keys=k, args=a) for k, a in calls))
            return
        # (the block resets the pipeline: redis-py's execute loads its scripts before the
        # part that gives its connection back, and a fail-over can fail that load)
        async with self.redis.pipeline(transaction=False) as pipe:
            for k, a in calls:
                await self._confirm(keys=k, args=a, client=pipe)
            await pipe.execute()

    async def _run_one(self, item: _Commit):
        """One commit: alone, or in Cluster (a Cluster pipeline may not carry scripts; the
        batch's commits still go out together, each to its match's node)."""
        return await self.redis.evalsha(self._commit_sha, len(item.keys), *item.keys, *item.args)

    async def match_log(self, match: str) -> MatchRecords:
        """Everything a match log is made of, read in one round trip; MatchNotFound if none."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(keys.meta(match))
        pipe.hmget(keys.state(match), "o", "p")
        pipe.lrange(keys.actions(match), 0, -1)
        pipe.xrange(keys.events(match))
        meta, (options, progress), actions, entries = await pipe.execute()
        if not meta or progress is None:
            raise MatchNotFound(match)
        return MatchRecords(
            meta={k.decode(): v.decode() for k, v in meta.items()},
            options=options or b"",
            progress=progress,
            actions=actions,
            events=[parse_entry(entry_id, fields) for entry_id, fields in entries],
        )

    # -- turn timers (issue 17 item 1) ------------------------------------------
    async def arm_timer(self, game: str, match: str, deadline_ms: int | None) -> None:
        """Point the game's timer set at a match's earliest deadline (None: no timer)."""
        if deadline_ms is None:
            await self.redis.zrem(keys.timers(game), match)
        else:
            await self.redis.zadd(keys.timers(game), {match: deadline_ms})

    async def due_timers(
        self, game: str, now_ms: int, count: int, start: int = 0
    ) -> list[tuple[str, int]]:
        """Up to `count` (match, deadline) whose deadline has passed, earliest first, from
        the `start`-th."""
        due = await self.redis.zrangebyscore(
            keys.timers(game), "-inf", now_ms, start=start, num=count, withscores=True
        )
        return [(match.decode(), int(score)) for match, score in due]

    async def next_timer(self, game: str) -> int | None:
        """The earliest deadline in the game's timer set (None: no timer)."""
        first = await self.redis.zrange(keys.timers(game), 0, 0, withscores=True)
        return int(first[0][1]) if first else None

    async def settle_timer(
        self, game: str, match: str, seen_ms: int, deadline_ms: int | None
    ) -> None:
        """Move (or, with None, drop) a timer entry unless someone re-armed it meanwhile."""
        new = "" if deadline_ms is None else deadline_ms
        await self._settle(keys=[keys.timers(game)], args=[match, seen_ms, new])

    async def last_actions(self, match: str, count: int) -> list[bytes]:
        """The match's last `count` logged actions (LoggedAction bytes), oldest first."""
        return await self.redis.lrange(keys.actions(match), -count, -1)

    async def stored_progress(self, match: str) -> bytes | None:
        """The MatchProgress bytes committed with the current state (confirmed first, as
        `load`'s state is)."""
        progress, version, confirmed = await self.redis.hmget(keys.state(match), "p", "v", "c")
        await self._confirmed(match, version, confirmed)
        return progress

    # -- events ----------------------------------------------------------------
    async def events_after(
        self, match: str, after: int, count: int = 512, block_ms: int | None = None
    ) -> list[StoredEvent]:
        """Events with sequence > after, oldest first (blocking up to block_ms if none).
        With replicas, only those of confirmed commits (the state's field c): the rest wait
        for their confirmation, which this store makes itself if it is late."""
        key = keys.events(match)
        if self.replicated and block_ms is None:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(keys.state(match), "c")
            pipe.xrange(key, min=f"({after}-0", count=count)
            confirmed, entries = await pipe.execute()
            events = [parse_entry(entry_id, fields) for entry_id, fields in entries]
            if confirmed is None:
                return events
            kept = [e for e in events if e.version <= int(confirmed)]
            if len(kept) < len(events):
                self._unconfirmed(match)
            return kept
        if block_ms is None:
            entries = await self.redis.xrange(key, min=f"({after}-0", count=count)
        else:
            reply = await self.redis.xread({key: f"{after}-0"}, count=count, block=block_ms)
            entries = reply[0][1] if reply else []
        return [parse_entry(entry_id, fields) for entry_id, fields in entries]

    async def confirmed_progress(self, match: str) -> tuple[bytes | None, int | None]:
        """(stored_progress, or None while its commit waits for its confirmation; the last
        stored event sequence, None if there is no match) in one command."""
        progress, last, version, confirmed = await self.redis.hmget(
            keys.state(match), "p", "q", "v", "c"
        )
        last = None if last is None else int(last)
        if not self.replicated or confirmed is None or version is None:
            return progress, last
        if int(version) > int(confirmed):
            self._unconfirmed(match)
            return None, last
        return progress, last

    async def finished_at(self, match: str) -> int | None:
        """The last event sequence of a finished match; None while it is not finished."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(keys.meta(match), "status")
        pipe.hget(keys.state(match), "q")
        status, last = await pipe.execute()
        return int(last) if status == b"finished" and last is not None else None

    async def stream_bounds(self, match: str, finished: bool = False):
        """(oldest kept sequence or None, newest (confirmed) sequence or 0) in one round
        trip; with `finished`, also finished_at's answer (the same round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        self._bounds(pipe, match)
        first, last, final = await self._bounds_answer(match, *await pipe.execute())
        return (first, last, final) if finished else (first, last)

    @staticmethod
    def _bounds(pipe, match: str) -> None:
        pipe.xrange(keys.events(match), count=1)
        pipe.xrevrange(keys.events(match), count=1)
        pipe.hget(keys.meta(match), "status")
        pipe.hmget(keys.state(match), "q", "cq")

    async def _bounds_answer(self, match: str, head, tail, status, final_and_confirmed):
        """stream_bounds' answer from _bounds' replies; with replicas, the newest sequence is
        the newest confirmed (what waits for its confirmation is not there yet)."""
        final, confirmed = final_and_confirmed
        first = _sequence(head[0][0]) if head else None
        last = _sequence(tail[0][0]) if tail else 0
        if self.replicated and confirmed is not None and int(confirmed) < last:
            last = await self._confirmed_last(match, last, int(confirmed))
        return first, last, (int(final) if status == b"finished" and final is not None else None)

    async def _confirmed_last(self, match: str, last: int, confirmed: int) -> int:
        """`last` once confirmed here (a WAIT covers whatever is stored, in flight or with a
        confirmation lost in a fail-over), else the confirmed `confirmed`."""
        try:
            await self.confirm_stored(match)
        except Exception as error:  # noqa: BLE001 - the confirmed part is shown meanwhile
            log.warning("confirmation failed", extra={"match": match, "error": repr(error)})
            return confirmed
        return last


def _sequence(entry_id: bytes) -> int:
    return int(entry_id.split(b"-", 1)[0])


def parse_entry(entry_id: bytes, fields: dict[bytes, bytes]) -> StoredEvent:
    """A stream entry as a StoredEvent."""
    return StoredEvent(
        sequence=_sequence(entry_id),
        payload=fields[b"e"],
        visibility=fields[b"v"],
        actor=int(fields[b"a"]),
        version=int(fields[b"n"]),
        final=b"f" in fields,
        seat_version=int(fields.get(b"s", 0)),
    )
