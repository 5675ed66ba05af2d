"""The rules service's logic, between gRPC messages and the pure engine plus the store."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable

import grpc
from google.protobuf import any_pb2, descriptor_pb2
from google.protobuf.message import DecodeError, Message

from parlour.engine import abandon, runtime, timeouts
from parlour.engine.game import Emitted, Game, IllegalAction, InvalidOptions, copy_message
from parlour.engine.replay import describe
from parlour.engine.sampling import sample_hidden
from parlour.engine.text import seat as seat_ref
from parlour.engine.v1.platform_pb2 import Abandoned, RulesUpdated, UndoExpired
from parlour.notify.outbox import Outbox, OutboxSettings
from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError, invalid_argument, log_failure, not_found
from parlour.rules import clocks, records
from parlour.rules.cache import Cached, StateCache
from parlour.rules.clocks import ClockPolicy, now_ms
from parlour.rules.ratings import Ratings
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import keys
from parlour.store import meta as field
from parlour.store.matchstore import (
    CommitConflict,
    MatchFinished,
    MatchNotFound,
    MatchStore,
    SeatRevoked,
    encode_visibility,
)

FINISHED = "finished"
#: Bytes of the (seat, action) digest kept in a request record to spot a reused id.
FINGERPRINT_BYTES = 16
MAX_SAMPLES = 64
SEED_MASK = (1 << 64) - 1

log = logging.getLogger("parlour.rules.lifecycle")


def pack(message: Message) -> any_pb2.Any:
    """Wrap a message in an Any."""
    packed = any_pb2.Any()
    packed.Pack(message, deterministic=True)
    return packed


def unpack(packed: any_pb2.Any, message_type: type[Message], field: str) -> Message:
    """Unwrap an Any of exactly `message_type`, or refuse with INVALID_ARGUMENT."""
    expected = message_type.DESCRIPTOR.full_name
    if not packed.type_url:
        raise invalid_argument(field, f"{field} is empty; expected {expected}", "MISSING_FIELD")
    if packed.TypeName() != expected:
        raise invalid_argument(
            field, f"{field} is a {packed.TypeName()!r}, expected {expected}", "WRONG_MESSAGE_TYPE"
        )
    message = message_type()
    try:
        message.ParseFromString(packed.value)
    except DecodeError as error:
        raise invalid_argument(
            field, f"{field} does not parse: {error}", "MALFORMED_MESSAGE"
        ) from None
    return message


def expiry(progress: pb.MatchProgress) -> list[Emitted]:
    """The UndoExpired event of an undo request still open when a seat acts (else none)."""
    if not progress.HasField("undo_request"):
        return []
    asked = progress.undo_request
    return [Emitted(UndoExpired(seat=asked.seat, version=asked.undoes))]


def game_over() -> ServiceError:
    """Nothing commits after the end (also an end the host's policy decided)."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER", "the game is over")


def seat_revoked() -> ServiceError:
    """The action's seat token was revoked (the seat was left) before it committed."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "SEAT_TOKEN_REVOKED",
        "the seat token was revoked (the seat was left)",
    )


def committed_events(
    events: list[tuple[bytes, bytes, int]],
    first: int,
    version: int,
    seat_version: int,
    finished: bool,
) -> list[pb.CommittedEvent]:
    """The events of a commit as the gateway delivers them to its own subscribers."""
    last = first + len(events) - 1
    return [
        pb.CommittedEvent(
            sequence=first + i,
            recorded=payload,
            visibility=visibility,
            actor=actor,
            version=version,
            final=finished and first + i == last,
            seat_version=seat_version,
        )
        for i, (payload, visibility, actor) in enumerate(events)
    ]


def rules_unavailable(game: str, version: int) -> ServiceError:
    """A match (or log) under a rules version this replica does not play: UNAVAILABLE, so
    the gateway tries a replica that does; never played under other rules."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "RULES_VERSION_UNAVAILABLE",
        f"no {game} rules replica here plays rules version {version}",
        metadata={"rules_version": str(version)},
    )


def refused(error: IllegalAction) -> ServiceError:
    """An illegal action as FAILED_PRECONDITION with the rule's reason."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, error.reason, error.message)


class MatchLock:
    """`async with` it to change one match (a plain class: no generator per action); it
    leaves `locks` when its last user is done."""

    __slots__ = ("locks", "match", "lock", "users")

    def __init__(self, locks: dict[str, MatchLock], match: str) -> None:
        self.locks = locks
        self.match = match
        self.lock = asyncio.Lock()
        self.users = 0

    async def __aenter__(self) -> None:
        self.users += 1
        try:
            await self.lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.lock.release()
        self._leave()

    def _leave(self) -> None:
        self.users -= 1
        if not self.users and self.locks.get(self.match) is self:
            del self.locks[self.match]


def json_names(messages, descriptors) -> None:
    """Fill every field's json_name (protoc leaves it out of the descriptors embedded in
    generated Python; clients building types from the files, e.g. protobuf-es, need it)."""
    for message in messages:
        descriptor = descriptors[message.name]
        for proto_field in message.field:
            proto_field.json_name = descriptor.fields_by_name[proto_field.name].json_name
        json_names(message.nested_type, descriptor.nested_types_by_name)


class RulesCore:
    """Create matches, answer views and legal actions, and apply actions for one game."""

    def __init__(
        self,
        game: Game,
        store: MatchStore,
        cache_size: int = 10_000,
        max_retries: int = 16,
        migrate: bool = False,
    ) -> None:
        self.game = game
        #: The host turned migration on: matches of `game.migrates_from` move forward.
        self.migrate = migrate
        self.served = frozenset(game.served_versions())
        self.store = store
        self.cache = StateCache(cache_size)
        self.max_retries = max_retries
        self._locks: dict[str, MatchLock] = {}
        self._clocks: dict[str, ClockPolicy] = {}
        self._actions = metrics.ACTIONS.labels(game.name)
        self._act_seconds = metrics.ACT_SECONDS.labels(game.name)
        self._commit_retries = metrics.COMMIT_RETRIES.labels(game.name)
        #: Told of each deadline this replica arms (the turn timers' wake-up).
        self.on_armed: Callable[[int], None] | None = None
        self.ratings = Ratings(game, store.ratings())
        #: The notification outbox (issue 44), when PARLOUR_NOTIFY_OUTBOX is on.
        self.outbox = Outbox(store.outbox) if OutboxSettings().notify_outbox else None

    def info(self) -> pb.GameInfo:
        """The game's declared facts."""
        g = self.game
        catalogue = g.catalogue()
        info = pb.GameInfo(
            game=g.name,
            display_name=g.display_name,
            min_seats=g.min_seats,
            max_seats=g.max_seats,
            hidden_information=g.hidden_information,
            options_type=g.options_type.DESCRIPTOR.full_name,
            action_type=g.action_type.DESCRIPTOR.full_name,
            event_type=g.event_type.DESCRIPTOR.full_name,
            view_type=g.view_type.DESCRIPTOR.full_name,
            for_tests=g.for_tests,
            max_action_bytes=g.max_action_bytes,
            rules_version=g.rules_version,
            served_rules_versions=sorted(self.served),
            migrates_from_rules_versions=sorted(g.migrates_from) if self.migrate else [],
        )
        if catalogue is not None:
            info.catalogue.CopyFrom(pack(catalogue))
        for variant in g.variants():
            low, high = g.seat_range(variant.options)
            info.variants.add(
                name=variant.name,
                display_name=variant.display_name,
                options=pack(variant.options),
                min_seats=low,
                max_seats=high,
            )
        return info

    def files(self) -> list[descriptor_pb2.FileDescriptorProto]:
        """The game's proto files and their imports, then the platform's events (TimedOut,
        Undone, Abandoned: they stream with the game's), dependencies first."""
        ordered: dict[str, descriptor_pb2.FileDescriptorProto] = {}

        def visit(file) -> None:
            if file.name in ordered:
                return
            for dependency in file.dependencies:
                visit(dependency)
            proto = descriptor_pb2.FileDescriptorProto()
            file.CopyToProto(proto)
            json_names(proto.message_type, file.message_types_by_name)
            ordered[file.name] = proto

        g = self.game
        for message in (g.options_type, g.action_type, g.event_type, g.view_type):
            visit(message.DESCRIPTOR.file)
        visit(type(g.catalogue()).DESCRIPTOR.file)
        visit(UndoExpired.DESCRIPTOR.file)  # the platform events (platform.proto)
        return list(ordered.values())

    def progress(
        self, state: Message, version: int, last_sequence: int, game: Game | None = None
    ) -> pb.MatchProgress:
        """Version, pending decisions and outcome of a state (under `game`: the rules
        version it is played under; default the newest)."""
        game = game or self.game
        progress = pb.MatchProgress(version=version, last_sequence=last_sequence)
        for decision in runtime.pending(game, state):
            progress.pending.add(seat=decision.seat, kind=decision.kind)
        outcome = game.outcome(state)
        if outcome is not None:
            progress.outcome.CopyFrom(
                pb.Outcome(scores=outcome.scores, winners=outcome.winners, summary=outcome.summary)
            )
        return progress

    # -- create -------------------------------------------------------------
    async def create_match(self, request: pb.CreateMatchRequest) -> pb.MatchProgress:
        """Set up and store a match's initial state."""
        if not request.match_id:
            raise invalid_argument("match_id", "match_id is required")
        rules = int(request.meta.get(field.RULES) or self.game.rules_version)
        g = self.rules_at(rules)
        if not g.min_seats <= request.seats <= g.max_seats:
            raise invalid_argument(
                "seats",
                f"{g.display_name} takes {g.min_seats} to {g.max_seats} seats",
                "BAD_SEAT_COUNT",
            )
        options = (
            unpack(request.options, g.options_type, "options")
            if request.options.type_url
            else g.default_options(request.seats)
        )
        low, high = g.seat_range(options)
        if not low <= request.seats <= high:
            raise invalid_argument(
                "seats",
                f"{g.display_name} with these options takes {low} to {high} seats",
                "BAD_SEAT_COUNT",
            )
        try:
            state = g.new_state(options, request.seats, request.seed)
        except InvalidOptions as error:
            raise invalid_argument(f"options.{error.field}", error.message, "BAD_OPTIONS") from None
        progress = self.progress(state, 1, 0, g)
        policy = ClockPolicy.of(request.meta)
        self._clocks[request.match_id] = policy
        clocks.advance(None, progress, policy, now_ms(), request.seats)
        await self.arm(request.match_id, progress, policy)
        data = runtime.serialize(state)
        stored = await self.store.create_state(
            request.match_id,
            data,
            runtime.serialize(progress),
            dict(request.meta),
            runtime.serialize(pack(options)),
            rules,
        )
        if not stored:
            raise ServiceError(
                grpc.StatusCode.ALREADY_EXISTS, "MATCH_EXISTS", f"match {request.match_id!r} exists"
            )
        self.cache.put(request.match_id, Cached(1, 0, state, progress, rules))
        log.info(
            "match created",
            extra={"match": request.match_id, "seats": request.seats, "rules": rules},
        )
        return progress

    # -- reads --------------------------------------------------------------
    async def current(self, match: str) -> Cached:
        """The match's state at its current version (from the cache when still current)."""
        cached = self.cache.get(match)
        if cached is not None:
            try:
                if cached.version == await self.store.version(match):
                    return cached
            except MatchNotFound:
                raise not_found("match", match) from None
        return await self._load(match)

    # -- rules versions (issue 42) -------------------------------------------------
    def rules_at(self, version: int) -> Game:
        """The rules of `version`, or RULES_VERSION_UNAVAILABLE if this build does not play
        it."""
        if version not in self.served:
            raise rules_unavailable(self.game.name, version)
        return self.game.at_version(version)

    def moves_forward(self, version: int) -> bool:
        """Whether this replica migrates matches of `version` (the host's setting)."""
        return self.migrate and version in self.game.migrates_from

    async def playable(self, match: str) -> tuple[Cached, Game]:
        """The match's current entry and the rules it is played under: migrated first when
        this build does not play its version but may move it forward (not once it is
        over: it keeps the rules it ended under); else refused."""
        entry = await self.current(match)
        over = entry.progress.HasField("outcome")
        if entry.rules not in self.served and self.moves_forward(entry.rules) and not over:
            async with self.serialized(match):
                entry = await self.current(match)
                if entry.rules not in self.served:
                    entry = await self.migrated(match, entry)
        return entry, self.rules_at(entry.rules)

    async def migrated(self, match: str, entry: Cached) -> Cached:
        """Move the match to the newest rules (the game's migrate), once: committed with a
        RulesUpdated event everyone sees and a log entry; hold the match's lock. Refused
        unless the host turned migration on for its version; after a lost race, the
        match as it is now."""
        g = self.game
        if not self.moves_forward(entry.rules):
            raise rules_unavailable(g.name, entry.rules)
        state = copy_message(entry.state)
        g.migrate(state, entry.rules)
        notice = RulesUpdated(from_version=entry.rules, to_version=g.rules_version)
        version = entry.version + 1
        progress = clocks.carry(entry.progress, version, entry.last_sequence + 1)
        request_id = f"{keys.PLATFORM_REQUEST_PREFIX}rules:{version}:{g.rules_version}"
        result = pb.ActResult(
            progress=progress, first_sequence=entry.last_sequence + 1, event_count=1
        )
        logged = pb.LoggedAction(
            seat=-1, request_id=request_id, version=version, migrated_to=g.rules_version
        )
        fingerprint = hashlib.sha256(request_id.encode()).digest()[:FINGERPRINT_BYTES]
        try:
            await self.store.commit_action(
                match,
                entry.version,
                runtime.serialize(state),
                [(self.record(notice), encode_visibility(None), -1)],
                request_id,
                fingerprint + runtime.serialize(result),
                runtime.serialize(progress),
                "",
                records.compact_action(logged, g),
                rules=g.rules_version,
            )
        except CommitConflict:
            self.cache.drop(match)
            return await self._load(match)
        except MatchNotFound:
            raise not_found("match", match) from None
        except MatchFinished:
            raise game_over() from None
        log.info(
            "match migrated",
            extra={"match": match, "version": version, "rules": g.rules_version},
        )
        moved = Cached(version, progress.last_sequence, state, progress, g.rules_version)
        self.cache.put(match, moved)
        return moved

    def check_seat(self, state: Message, seat: int) -> None:
        """Refuse a seat number outside the match."""
        if not 0 <= seat < self.game.seat_count(state):
            raise invalid_argument("seat", f"seat {seat} is not in this match", "NO_SUCH_SEAT")

    async def get_view(self, match: str, seat: int | None) -> pb.GetViewResponse:
        """A seat's (None: spectator's) view, the same in words, and the match progress."""
        entry, game = await self.playable(match)
        if seat is not None:
            self.check_seat(entry.state, seat)
        view = runtime.view(game, entry.state, seat)
        return pb.GetViewResponse(
            view=pack(view),
            progress=entry.progress,
            table=game.describe_view(view, seat),
        )

    async def list_actions(self, match: str, seat: int) -> pb.ListActionsResponse:
        """A seat's legal actions, each with the game's label, and the match progress."""
        entry, game = await self.playable(match)
        self.check_seat(entry.state, seat)
        actions = runtime.legal_actions(game, entry.state, seat)
        return pb.ListActionsResponse(
            actions=[pack(a) for a in actions],
            labels=game.label_actions(entry.state, seat, actions),
            prompt=game.prompt(entry.state, seat, actions) if actions else "",
            progress=entry.progress,
        )

    async def sample_hidden(
        self, match: str, seat: int, seed: int, count: int
    ) -> tuple[list[any_pb2.Any], int]:
        """States `seat` cannot tell from the match, hidden parts dealt afresh, and the version."""
        if not 1 <= count <= MAX_SAMPLES:
            raise invalid_argument("count", f"count must be 1 to {MAX_SAMPLES}", "BAD_SAMPLE_COUNT")
        entry, game = await self.playable(match)
        self.check_seat(entry.state, seat)
        states = [
            pack(sample_hidden(game, entry.state, seat, (seed + i) & SEED_MASK))
            for i in range(count)
        ]
        return states, entry.version

    # -- act ------------------------------------------------------------------
    async def act(
        self, request: pb.ActRequest, timed_out: str = "", abandoned: bool = False
    ) -> pb.ActResponse:
        """Check, apply and commit one action; idempotent by request id.

        `timed_out` is the decision kind when the platform plays it for a seat whose turn
        timer ran out: a TimedOut event precedes the action's own events. `abandoned` marks
        the timeout that made the seat count as abandoned (an Abandoned event follows it).
        """
        started = time.perf_counter()
        action = unpack(request.action, self.game.action_type, "action")
        fingerprint = hashlib.sha256(
            request.seat.to_bytes(4, "big", signed=True) + runtime.serialize(action)
        ).digest()[:FINGERPRINT_BYTES]
        try:
            async with self.serialized(request.match_id):
                response = await self._act_locked(
                    request, action, fingerprint, timed_out, abandoned
                )
        except ServiceError as error:
            metrics.REFUSALS.labels(self.game.name, error.reason).inc()
            raise
        if not response.replayed:
            self._actions.inc()
        self._act_seconds.observe(time.perf_counter() - started)
        return response

    def serialized(self, match: str) -> MatchLock:
        """One change per match at a time in this process; the lock lives while anyone uses
        it."""
        lock = self._locks.get(match)
        if lock is None:
            lock = self._locks[match] = MatchLock(self._locks, match)
        return lock

    async def _act_locked(
        self,
        request: pb.ActRequest,
        action: Message,
        fingerprint: bytes,
        timed_out: str,
        abandoned: bool,
    ) -> pb.ActResponse:
        match = request.match_id
        policy = self._clocks.get(match) or await self.clock_policy(match)
        platform_seats = await self.platform_seats(match) if policy.timed else frozenset()
        fresh = False
        for _ in range(self.max_retries):
            entry = self.cache.get(match) if not fresh else None
            if entry is None:
                entry = await self._load(match)
                fresh = True
            if entry.rules not in self.served:
                if not self.moves_forward(entry.rules):
                    raise rules_unavailable(self.game.name, entry.rules)
                entry, fresh = await self.migrated(match, entry), True
                if entry.rules not in self.served:
                    continue
            game = self.game.at_version(entry.rules)
            if request.HasField("expected_version") and request.expected_version != entry.version:
                if not fresh:
                    fresh = True
                    continue
                replay = await self.earlier_answer(request, fingerprint)
                if replay is not None:
                    return replay
                raise ServiceError(
                    grpc.StatusCode.ABORTED,
                    "VERSION_MISMATCH",
                    f"match is at version {entry.version}, not {request.expected_version}",
                    metadata={"current_version": str(entry.version)},
                )
            self.check_seat(entry.state, request.seat)
            try:
                state, emitted = runtime.apply(game, entry.state, request.seat, action)
            except IllegalAction as error:
                if not fresh:
                    fresh = True
                    continue
                replay = await self.earlier_answer(request, fingerprint)
                if replay is not None:
                    return replay
                raise refused(error) from None
            if timed_out:
                notice = timeouts.timed_out_event(game, request.seat, timed_out, action)
                handed = [Emitted(Abandoned(seat=request.seat))] if abandoned else []
                emitted = [Emitted(notice), *handed, *emitted]
            emitted = [*expiry(entry.progress), *emitted]
            version = entry.version + 1
            progress = self.progress(state, version, entry.last_sequence + len(emitted), game)
            clocks.advance(
                entry.progress,
                progress,
                policy,
                now_ms(),
                game.seat_count(state),
                acted=None if timed_out else request.seat,
                timed_out=request.seat if timed_out else None,
                platform_seats=platform_seats,
            )
            if progress.HasField("outcome") and platform_seats:
                played = " and ".join(seat_ref(s) for s in sorted(platform_seats))
                progress.outcome.summary += f" The platform played for {played} after leaving."
            result = pb.ActResult(
                progress=progress, first_sequence=entry.last_sequence + 1, event_count=len(emitted)
            )
            events = [
                (
                    self.record(e.event),
                    encode_visibility(e.to, e.hidden_from),
                    request.seat,
                )
                for e in emitted
            ]
            logged = pb.LoggedAction(
                seat=request.seat,
                action=pack(action),
                request_id=request.request_id,
                version=version,
                timed_out=timed_out,
                abandoned=abandoned,
            )
            finished = progress.HasField("outcome")
            if finished:
                await self.ratings.note(match, now_ms())
            try:
                done = await self.store.commit_action(
                    match,
                    entry.version,
                    runtime.serialize(state),
                    events,
                    request.request_id,
                    fingerprint + runtime.serialize(result),
                    runtime.serialize(progress),
                    FINISHED if finished else "",
                    records.compact_action(logged, self.game),
                    seat=request.seat,
                    token_hash=request.token_hash,
                    origin=request.origin,
                )
            except SeatRevoked:
                raise seat_revoked() from None
            except CommitConflict:
                self._commit_retries.inc()
                self.cache.drop(match)
                fresh = False
                continue
            except MatchNotFound:
                raise not_found("match", match) from None
            except MatchFinished:
                raise game_over() from None
            if done.earlier is not None:
                return self._replay(done.earlier, fingerprint)
            self.cache.put(
                match, Cached(version, progress.last_sequence, state, progress, entry.rules)
            )
            if policy.timed or self.outbox is not None:
                await self.arm(match, progress, policy)
            if finished:
                log.info("match finished", extra={"match": match, "version": version})
                await self.store.unlist(match)
                await self.ratings.after_commit(match, now_ms())
            first = entry.last_sequence + 1
            delivered = committed_events(events, first, version, done.seat_version, finished)
            return pb.ActResponse(result=result, events=delivered)
        raise ServiceError(
            grpc.StatusCode.ABORTED, "TOO_MUCH_CONTENTION", "the match kept changing; retry"
        )

    # -- turn timers (issue 17 item 1) ------------------------------------------
    async def clock_policy(self, match: str) -> ClockPolicy:
        """The match's turn-timer budget and time bank, read once per process."""
        if match not in self._clocks:
            if len(self._clocks) >= self.cache.capacity:
                self._clocks.clear()
            self._clocks[match] = ClockPolicy(*await self.store.meta.clock_options(match))
        return self._clocks[match]

    async def platform_seats(self, match: str) -> frozenset[int]:
        """Seats that abandoned the match and that the platform now plays."""
        return await self.store.meta.platform_seats(match)

    async def end_abandoned(self, match: str, seat: int, version: int) -> None:
        """The host's policy: end the match at `version` because `seat` abandoned it."""
        async with self.serialized(match):
            entry = await self.current(match)
            if entry.version != version or entry.rules not in self.served:
                return
            request_id = f"{keys.PLATFORM_REQUEST_PREFIX}abandon:{version}:{seat}"
            ended = abandon.ended_outcome(self.rules_at(entry.rules), entry.state, seat)
            notices = [*expiry(entry.progress), Emitted(Abandoned(seat=seat, ended=True))]
            progress = pb.MatchProgress(
                version=version + 1,
                last_sequence=entry.last_sequence + len(notices),
                outcome=pb.Outcome(
                    scores=ended.scores, winners=ended.winners, summary=ended.summary
                ),
            )
            result = pb.ActResult(
                progress=progress,
                first_sequence=entry.last_sequence + 1,
                event_count=len(notices),
            )
            logged = pb.LoggedAction(
                seat=seat, request_id=request_id, version=version + 1, abandoned=True
            )
            fingerprint = hashlib.sha256(request_id.encode()).digest()[:FINGERPRINT_BYTES]
            await self.ratings.note(match, now_ms())
            try:
                await self.store.commit(
                    match,
                    version,
                    runtime.serialize(entry.state),
                    [(self.record(n.event), encode_visibility(None), seat) for n in notices],
                    request_id,
                    fingerprint + runtime.serialize(result),
                    runtime.serialize(progress),
                    FINISHED,
                    records.compact_action(logged, self.game),
                )
            except (CommitConflict, MatchFinished):
                self.cache.drop(match)
                return
            await self.store.arm_timer(self.game.name, match, None)
            await self.notify(match, progress)
            await self.store.unlist(match)
            await self.ratings.after_commit(match, now_ms())

    async def notify(self, match: str, progress: pb.MatchProgress) -> None:
        """Write the notices of a committed change to the outbox (issue 44), when enabled; the
        notifiers' sweep makes up for a failure here."""
        if self.outbox is not None:
            try:
                await self.outbox.changed(match, progress)
            except Exception as error:  # noqa: BLE001 - the action stands; the sweep retries
                log_failure(log, "outbox write failed", error, match=match)

    async def arm(self, match: str, progress: pb.MatchProgress, policy: ClockPolicy) -> None:
        """Point the game's timer set at the earliest deadline of `progress` (if timed), and
        write the change's notices."""
        await self.notify(match, progress)
        if policy.timed:
            deadline = clocks.earliest_deadline(progress)
            await self.store.arm_timer(self.game.name, match, deadline)
            if deadline is not None and self.on_armed is not None:
                self.on_armed(deadline)

    async def commit_step(
        self,
        entry: Cached,
        request: pb.UndoActionRequest | pb.AnswerUndoRequest | pb.SetAwayRequest,
        fingerprint: bytes,
        step: tuple[Message, list[Message], pb.MatchProgress, pb.LoggedAction],
    ) -> pb.ActResponse:
        """Commit an undo step (an undo, an undo request or an answer) or a pause on top of
        `entry`: `step` is the state it leaves, its public events, the progress and the log
        entry."""
        match = request.match_id
        state, notices, progress, logged = step
        result = pb.ActResult(
            progress=progress, first_sequence=entry.last_sequence + 1, event_count=len(notices)
        )
        try:
            _, repeated = await self.store.commit(
                match,
                entry.version,
                runtime.serialize(state),
                [(self.record(n), encode_visibility(None), request.seat) for n in notices],
                request.request_id,
                fingerprint + runtime.serialize(result),
                runtime.serialize(progress),
                "",
                records.compact_action(logged, self.game),
            )
        except CommitConflict:
            self.cache.drop(match)
            raise ServiceError(
                grpc.StatusCode.ABORTED, "VERSION_MISMATCH", "the match moved on; retry"
            ) from None
        except MatchNotFound:
            raise not_found("match", match) from None
        except MatchFinished:
            raise game_over() from None
        if repeated is not None:
            return self._replay(repeated, fingerprint)
        self.cache.put(
            match, Cached(progress.version, progress.last_sequence, state, progress, entry.rules)
        )
        await self.arm(match, progress, await self.clock_policy(match))
        return pb.ActResponse(result=result)

    def record(self, event: Message) -> bytes:
        """An event as stored in the match's stream: the event and the game's words."""
        return records.recorded_event(self.game, event, describe(self.game, event), pack)

    async def _load(self, match: str) -> Cached:
        try:
            stored = await self.store.load(match)
        except MatchNotFound:
            raise not_found("match", match) from None
        entry = Cached(
            stored.version,
            stored.last_sequence,
            self.game.state_type.FromString(stored.data),
            pb.MatchProgress.FromString(stored.progress),
            stored.rules,
        )
        self.cache.put(match, entry)
        return entry

    async def earlier_answer(self, request, fingerprint: bytes) -> pb.ActResponse | None:
        """The first answer to this request id, when a repeat would now be refused."""
        if not request.request_id:
            return None
        earlier = await self.store.request_record(request.match_id, request.request_id)
        return None if earlier is None else self._replay(earlier, fingerprint)

    @staticmethod
    def _replay(earlier: bytes, fingerprint: bytes) -> pb.ActResponse:
        if earlier[:FINGERPRINT_BYTES] != fingerprint:
            raise invalid_argument(
                "request_id",
                "this request_id was already used for a different action",
                "REQUEST_ID_REUSED",
            )
        return pb.ActResponse(
            result=pb.ActResult.FromString(earlier[FINGERPRINT_BYTES:]), replayed=True
        )
