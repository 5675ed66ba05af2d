"""parlour.gateway.v1.GatewayService: thin conversions around seats, routing and fan-out."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import secrets
import time
import uuid

import grpc

from parlour.engine import audit
from parlour.gateway import public, tokens
from parlour.gateway.fanout import EventHub, Finished, Heartbeat, Subscription
from parlour.gateway.lobby import PAGE_SIZE, Lobby
from parlour.gateway.lobby import member as lobby_member
from parlour.gateway.play import PlaySession
from parlour.gateway.quotas import Quotas
from parlour.gateway.revocation import Revocations, revoked
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.rpc import context as request_context
from parlour.rpc import metrics
from parlour.rpc.errors import Refused, ServiceError, guarded, invalid_argument, not_found
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.matchstore import MatchNotFound, MatchStore, StoredEvent

#: Longest type URL accepted in an Any ("type.googleapis.com/" + a full message name).
MAX_TYPE_URL = 256
#: Largest serialized game Options accepted by CreateMatch.
MAX_OPTIONS_BYTES = 16 * 1024
MATCH_NAMESPACE = uuid.UUID("5f0b7c2e-4c1a-4d8e-9a55-7a1f0c3d2b10")
STATUS = {
    "waiting": gw.MATCH_STATUS_WAITING,
    "active": gw.MATCH_STATUS_ACTIVE,
    "finished": gw.MATCH_STATUS_FINISHED,
}


def match_id_of(name: str) -> str:
    """'matches/{id}' or a bare id -> id."""
    match = name.removeprefix("matches/")
    if not match or "/" in match or "{" in match or "}" in match:
        raise invalid_argument("match", f"{name!r} is not a match name like 'matches/<id>'")
    return match


def unauthenticated(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, reason, message)


def check_any(packed, field: str, max_bytes: int, reason: str) -> None:
    """Refuse an Any whose type URL or size is over its bound (INVALID_ARGUMENT)."""
    if len(packed.type_url) > MAX_TYPE_URL:
        message = f"the type URL is over {MAX_TYPE_URL} characters"
        raise invalid_argument(f"{field}.type_url", message, "TYPE_URL_TOO_LONG")
    if packed.ByteSize() > max_bytes:
        raise invalid_argument(field, f"{field} is over {max_bytes} bytes", reason)


def request_id_reused() -> ServiceError:
    return invalid_argument(
        "request_id",
        "this request_id was already used for a different request",
        "REQUEST_ID_REUSED",
    )


def scope(context) -> str:
    """The caller's network address without its port: request ids are scoped to it, so
    two clients picking the same request id never meet (grpc peer 'ipv4:1.2.3.4:5678')."""
    return context.peer().rpartition(":")[0]


def creation_fingerprint(game: str, request: gw.CreateMatchRequest) -> str:
    """What a CreateMatch retry must repeat exactly (the game and every field but the id)."""
    fields = gw.CreateMatchRequest()
    fields.CopyFrom(request)
    fields.ClearField("request_id")
    fields.game = game
    return hashlib.sha256(fields.SerializeToString(deterministic=True)).hexdigest()[:32]


class Viewer:
    """Who is calling about a match: its game, the caller's seat (None: spectator) and
    the hash of the seat token it authenticated with."""

    __slots__ = ("match", "game", "seat", "token_hash")

    def __init__(
        self, match: str, game: str, seat: int | None, token_hash: str | None = None
    ) -> None:
        self.match = match
        self.game = game
        self.seat = seat
        self.token_hash = token_hash


def resolve_viewer(match: str, meta: dict[str, str], token: str | None, seated: bool) -> Viewer:
    """The caller's seat from its token (None: spectator), checked against the metadata."""
    if token is not None:
        seat = meta.get(f"t:{tokens.token_hash(token)}") if token else None
        if seat is None:
            raise unauthenticated(
                "INVALID_SEAT_TOKEN", "the seat token is not valid for this match"
            )
        return Viewer(match, meta["game"], int(seat), tokens.token_hash(token))
    if seated:
        raise unauthenticated("MISSING_SEAT_TOKEN", "send 'authorization: Bearer <seat token>'")
    if meta.get("spectators") != "1":
        raise ServiceError(
            grpc.StatusCode.PERMISSION_DENIED,
            "SPECTATORS_NOT_ALLOWED",
            "this match does not allow spectators",
        )
    return Viewer(match, meta["game"], None)


class GatewayService(gw_grpc.GatewayServiceServicer):
    """The public API."""

    def __init__(
        self,
        store: MatchStore,
        router: Router,
        hub: EventHub,
        heartbeat: float,
        revocations: Revocations,
        *,
        play_queue: int = 1024,
        quotas: Quotas | None = None,
    ) -> None:
        self.store = store
        self.router = router
        self.hub = hub
        self.heartbeat = heartbeat
        self.revocations = revocations
        self.play_queue = play_queue
        self.quotas = quotas or Quotas(0, 0)
        self.lobby = Lobby(store)
        self.lobby_locks: collections.defaultdict[str, asyncio.Lock] = collections.defaultdict(
            asyncio.Lock
        )

    # -- helpers ----------------------------------------------------------
    async def viewer(self, match_name: str, context, *, seated: bool) -> Viewer:
        """Resolve match and seat token; spectators only where allowed."""
        match = match_id_of(match_name)
        token = tokens.token_from_metadata(context.invocation_metadata())
        fields = ["game", "spectators"] + ([f"t:{tokens.token_hash(token)}"] if token else [])
        values = await self.store.redis.hmget(keys.meta(match), fields)
        if values[0] is None:
            raise not_found("match", match_name)
        meta = {k: v.decode() for k, v in zip(fields, values, strict=True) if v is not None}
        viewer = resolve_viewer(match, meta, token, seated)
        request_context.note(match=match, game=viewer.game, seat=viewer.seat)
        return viewer

    async def match_resource(self, match: str) -> gw.Match:
        """The Match resource from metadata and stored progress."""
        return match_resource(match, *await self.meta_and_progress(match))

    async def meta_and_progress(self, match: str) -> tuple[dict[str, str], bytes]:
        """A match's metadata and progress bytes; NOT_FOUND before both exist."""
        try:
            meta, progress = await self.store.meta_and_progress(match)
        except MatchNotFound:
            raise not_found("match", f"matches/{match}") from None
        if progress is None:
            raise not_found("match", f"matches/{match}")
        return meta, progress

    async def still_seated(self, viewer: Viewer) -> None:
        """Refuse (SEAT_TOKEN_REVOKED) once the viewer's token no longer holds its seat."""
        if await self.store.seat_of(viewer.match, viewer.token_hash) != viewer.seat:
            raise revoked()

    @contextlib.contextmanager
    def revocable(self, viewer: Viewer, sub: Subscription):
        """End the subscription when the viewer's seat token is revoked, on any gateway."""
        if viewer.token_hash is None:
            yield
            return
        sub.guard = lambda: self.still_seated(viewer)
        with self.revocations.watch(viewer.match, viewer.token_hash, sub.end):
            yield

    async def act(
        self, viewer: Viewer, request: gw.SubmitActionRequest, *, recheck: bool = False
    ) -> gw.SubmitActionResponse:
        """Forward one action for the caller's seat (re-checking its token if `recheck`)."""
        if viewer.seat is None:
            raise unauthenticated("MISSING_SEAT_TOKEN", "spectators cannot act")
        if request.match and match_id_of(request.match) != viewer.match:
            raise invalid_argument(
                "action.match", "the action names another match than the session's", "WRONG_MATCH"
            )
        info = await self.router.describe(viewer.game)
        check_any(request.action, "action", info.max_action_bytes, "ACTION_TOO_LARGE")
        if recheck:
            await self.still_seated(viewer)
        if request.request_id.startswith(keys.PLATFORM_REQUEST_PREFIX):
            raise invalid_argument(
                "request_id",
                f"request ids starting {keys.PLATFORM_REQUEST_PREFIX!r} are the platform's",
                "RESERVED_REQUEST_ID",
            )
        act = rules.ActRequest(
            match_id=viewer.match,
            seat=viewer.seat,
            action=request.action,
            request_id=request.request_id or uuid.uuid4().hex,
        )
        if request.HasField("expected_version"):
            act.expected_version = request.expected_version
        response = await self.router.act(viewer.game, act)
        return gw.SubmitActionResponse(
            result=public.act_result(response.result), replayed=response.replayed
        )

    @staticmethod
    def match_event(event: StoredEvent) -> gw.MatchEvent:
        """A stored event (a RecordedEvent) as the public MatchEvent, with the game's text."""
        recorded = rules.RecordedEvent.FromString(event.payload)
        return gw.MatchEvent(
            sequence=event.sequence,
            version=event.version,
            actor=event.actor,
            event=recorded.event,
            text=recorded.text,
        )

    def stream_message(self, item: list[StoredEvent] | Heartbeat) -> gw.StreamEventsResponse:
        """A heartbeat, one event, or a batch of events as one StreamEvents message."""
        if isinstance(item, Heartbeat):
            return gw.StreamEventsResponse(heartbeat=gw.Heartbeat(last_sequence=item.last_sequence))
        metrics.EVENTS_SENT.inc(len(item))
        if len(item) == 1:
            return gw.StreamEventsResponse(event=self.match_event(item[0]))
        return gw.StreamEventsResponse(
            batch=gw.EventBatch(events=[self.match_event(e) for e in item])
        )

    # -- unary ------------------------------------------------------------
    @guarded
    async def ListGames(self, request, context):
        infos, unavailable = await self.router.describe_all()
        games = [
            gw.Game(name=f"games/{name}", info=public.game_info(info))
            for name, info in sorted(infos.items())
        ]
        unavailable_games = [f"games/{name}" for name in unavailable]
        return gw.ListGamesResponse(games=games, unavailable_games=unavailable_games)

    @guarded
    async def CreateMatch(self, request, context):
        self.quotas.spend_create(scope(context))
        game = request.game.removeprefix("games/")
        info = await self.router.describe(game)
        if not info.min_seats <= request.seats <= info.max_seats:
            raise invalid_argument(
                "seats",
                f"{info.display_name} takes {info.min_seats} to {info.max_seats} seats",
                "BAD_SEAT_COUNT",
            )
        if request.HasField("options"):
            check_any(request.options, "options", MAX_OPTIONS_BYTES, "OPTIONS_TOO_LARGE")
        fingerprint = creation_fingerprint(game, request)
        match = (
            uuid.uuid5(MATCH_NAMESPACE, f"{scope(context)}|{game}|{request.request_id}").hex
            if request.request_id
            else uuid.uuid4().hex
        )
        request_context.note(match=match, game=game)
        seed = request.seed if request.HasField("seed") else secrets.randbits(63)
        salt = audit.new_salt()
        meta = {
            "game": game,
            "seats": str(request.seats),
            "spectators": str(int(request.allow_spectators)),
            "fp": fingerprint,
            "salt": salt.hex(),
            "seed": str(seed),
            "commitment": audit.commitment(seed, salt).hex(),
            "secret_after_end": str(int(request.lifecycle.secret_after_end)),
            "turn_timer_ms": str(request.lifecycle.turn_timer_ms),
            "allow_undo": str(int(request.lifecycle.allow_undo)),
            "undo_agreement": str(int(request.lifecycle.undo_needs_agreement)),
            "time_bank_ms": str(request.lifecycle.time_bank_ms),
            "time_bank_increment_ms": str(request.lifecycle.time_bank_increment_ms),
            "abandon_after": str(request.lifecycle.abandon_after_timeouts),
            "on_abandon": "end"
            if request.lifecycle.on_abandon == gw.ABANDON_POLICY_END_MATCH
            else "platform",
        }
        if request.allow_spectators:
            meta["listed"] = lobby_member(time.time_ns() // 1_000_000, match)
        create = rules.CreateMatchRequest(
            match_id=match, options=request.options, seats=request.seats, seed=seed, meta=meta
        )
        try:
            await self.router.call(game, match, lambda r: r.stub.CreateMatch(create, timeout=10))
        except ServiceError as error:
            if error.code != grpc.StatusCode.ALREADY_EXISTS:
                raise
            if await self.store.redis.hget(keys.meta(match), "fp") != fingerprint.encode():
                raise request_id_reused() from None
        meta, progress = await self.meta_and_progress(match)
        if "listed" in meta and not public.progress(progress).HasField("outcome"):
            await self.lobby.add(game, meta["listed"])
        return gw.CreateMatchResponse(match=match_resource(match, meta, progress))

    @guarded
    async def JoinMatch(self, request, context):
        match = match_id_of(request.match)
        if request.HasField("seat") and request.seat < 0:
            raise invalid_argument(
                "seat", "seat must be 0 or more (leave it unset for any free seat)", "NO_SUCH_SEAT"
            )
        token = tokens.new_token()
        wanted = request.seat if request.HasField("seat") else -1
        request_id = f"{scope(context)}|{request.request_id}" if request.request_id else ""
        reply = await self.store.take_seat(
            match,
            wanted,
            tokens.token_hash(token),
            request.display_name,
            hashlib.sha256(request_id.encode()).hexdigest()[:32] if request_id else "",
            hashlib.sha256(f"{wanted}|{request.display_name}".encode()).hexdigest()[:32],
        )
        seat = reply[0]
        if seat == -4:
            raise not_found("match", request.match)
        if seat == -1:
            raise invalid_argument("seat", f"seat {wanted} is not in this match", "NO_SUCH_SEAT")
        if seat in (-2, -3):
            reason = "SEAT_TAKEN" if seat == -2 else "MATCH_FULL"
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION, reason, reason.replace("_", " ").lower()
            )
        if seat == -5:
            raise request_id_reused()
        if seat == -6:
            raise ServiceError(
                grpc.StatusCode.ALREADY_EXISTS,
                "ALREADY_JOINED",
                f"this request id already took seat {reply[1]}; its token is only in that answer",
                metadata={"seat": str(reply[1])},
            )
        return gw.JoinMatchResponse(
            match=await self.match_resource(match), seat=seat, seat_token=token
        )

    @guarded
    async def GetMatch(self, request, context):
        return gw.GetMatchResponse(match=await self.match_resource(match_id_of(request.match)))

    @guarded
    async def GetView(self, request, context):
        viewer = await self.viewer(request.match, context, seated=False)
        ask = rules.GetViewRequest(match_id=viewer.match)
        if viewer.seat is not None:
            ask.seat = viewer.seat
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.GetView(ask, timeout=10)
        )
        reply = gw.GetViewResponse(
            view=response.view,
            progress=public.progress(response.progress),
            table=public.table(response.table),
        )
        if viewer.seat is not None:
            reply.seat = viewer.seat
        return reply

    @guarded
    async def ListActions(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        ask = rules.ListActionsRequest(match_id=viewer.match, seat=viewer.seat)
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.ListActions(ask, timeout=10)
        )
        return gw.ListActionsResponse(
            actions=response.actions,
            labels=response.labels,
            progress=public.progress(response.progress),
        )

    @guarded
    async def SubmitAction(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        return await self.act(viewer, request)

    @guarded
    async def SampleHidden(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        ask = rules.SampleHiddenRequest(
            match_id=viewer.match, seat=viewer.seat, seed=request.seed, count=request.count
        )
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.SampleHidden(ask, timeout=10)
        )
        return gw.SampleHiddenResponse(states=response.states, version=response.version)

    @guarded
    async def LeaveMatch(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        await self.store.leave_seat(viewer.match, viewer.token_hash)
        self.revocations.revoke(viewer.token_hash)
        return gw.LeaveMatchResponse(match=await self.match_resource(viewer.match))

    @guarded
    async def UndoAction(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        ask = rules.UndoActionRequest(
            match_id=viewer.match, seat=viewer.seat, request_id=client_request_id(request)
        )
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.UndoAction(ask, timeout=30)
        )
        return gw.UndoActionResponse(
            result=public.act_result(response.result), replayed=response.replayed
        )

    @guarded
    async def AnswerUndo(self, request, context):
        viewer = await self.viewer(request.match, context, seated=True)
        if request.answer not in (gw.UNDO_ANSWER_ACCEPT, gw.UNDO_ANSWER_REFUSE):
            raise invalid_argument("answer", "answer must be accept or refuse", "MISSING_ANSWER")
        ask = rules.AnswerUndoRequest(
            match_id=viewer.match,
            seat=viewer.seat,
            request_id=client_request_id(request),
            answer=request.answer,
        )
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.AnswerUndo(ask, timeout=30)
        )
        return gw.AnswerUndoResponse(
            result=public.act_result(response.result), replayed=response.replayed
        )

    @guarded
    async def GetMatchLog(self, request, context):
        viewer = await self.viewer(request.match, context, seated=False)
        ask = rules.GetMatchLogRequest(match_id=viewer.match, reveal_all=request.reveal_all)
        if viewer.seat is not None:
            ask.seat = viewer.seat
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.GetMatchLog(ask, timeout=30)
        )
        return gw.GetMatchLogResponse(log=public.match_log(f"matches/{viewer.match}", response.log))

    # -- the lobby ----------------------------------------------------------
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
        pick = (
            keys.lobby_pick(f"{scope(context)}|{request.request_id}") if request.request_id else ""
        )
        if pick and (earlier := await self.store.redis.get(pick)):
            match, _, created = earlier.decode().partition("|")
            return await self.join_listed(match, request, context, created == "1")
        waiting, _ = await self.lobby.page(
            game, {gw.MATCH_STATUS_WAITING}, PAGE_SIZE, "", match_resource
        )
        for candidate in waiting:
            match = match_id_of(candidate.name)
            if pick and not await self.store.redis.set(pick, f"{match}|0", nx=True, ex=3600):
                return await self.join_or_create(request, context)
            try:
                return await self.join_listed(match, request, context, False)
            except ServiceError as error:
                if error.reason not in ("MATCH_FULL", "SEAT_TAKEN"):
                    raise
                if pick:
                    await self.store.redis.delete(pick)
        create = gw.CreateMatchRequest(
            game=game,
            seats=request.seats or info.min_seats,
            allow_spectators=True,
            request_id=f"join-or-create|{request.request_id}" if request.request_id else "",
        )
        created = await self.CreateMatch.__wrapped__(self, create, context)
        match = match_id_of(created.match.name)
        if pick and not await self.store.redis.set(pick, f"{match}|1", nx=True, ex=3600):
            return await self.join_or_create(request, context)
        return await self.join_listed(match, request, context, True)

    async def join_listed(self, match: str, request, context, created: bool):
        """JoinMatch (its logic, unwrapped) for JoinOrCreate."""
        join = gw.JoinMatchRequest(
            match=f"matches/{match}",
            display_name=request.display_name,
            request_id=request.request_id,
        )
        joined = await self.JoinMatch.__wrapped__(self, join, context)
        return gw.JoinOrCreateResponse(joined=joined, created=created)

    # -- streams ----------------------------------------------------------
    async def finished(self, match: str) -> gw.MatchFinished:
        """The last message of a finished match's streams."""
        _, progress = await self.meta_and_progress(match)
        return gw.MatchFinished(progress=public.progress(progress))

    @guarded
    async def StreamEvents(self, request, context):
        with self.quotas.stream(context.peer()):
            viewer = await self.viewer(request.match, context, seated=False)
            async for message in self.stream_events(viewer, request.after_sequence):
                yield message

    async def stream_events(self, viewer: Viewer, after: int):
        """The viewer's events after `after`, heartbeats while idle."""
        async with self.hub.subscribe(viewer.match, viewer.seat, after) as sub:
            with self.revocable(viewer, sub):
                if viewer.token_hash is not None:
                    await self.still_seated(viewer)
                async for item in sub.events(self.heartbeat):
                    if isinstance(item, Finished):
                        yield gw.StreamEventsResponse(finished=await self.finished(viewer.match))
                        return
                    yield self.stream_message(item)

    @guarded
    async def Play(self, request_iterator, context):
        with self.quotas.stream(context.peer()):
            async for message in self.play(request_iterator, context):
                yield message

    async def play(self, request_iterator, context):
        """A Play session once its stream slot is held."""
        first = await anext(request_iterator, None)
        if isinstance(first, Refused):
            raise first.error
        if first is None or not first.HasField("open"):
            raise invalid_argument("open", "the first message of Play must be 'open'", "OPEN_FIRST")
        match = match_id_of(first.open.match)
        meta, progress = await self.meta_and_progress(match)
        token = tokens.token_from_metadata(context.invocation_metadata())
        viewer = resolve_viewer(match, meta, token, seated=False)
        request_context.note(match=match, game=viewer.game, seat=viewer.seat)
        opened = gw.SessionOpened(match=match_resource(match, meta, progress))
        if viewer.seat is not None:
            opened.seat = viewer.seat
        session = PlaySession(
            viewer.seat,
            lambda action: self.act(viewer, action, recheck=True),
            self.match_event,
            self.heartbeat,
            lambda: self.finished(viewer.match),
            self.play_queue,
        )
        async with self.hub.subscribe(viewer.match, viewer.seat, first.open.after_sequence) as sub:
            with self.revocable(viewer, sub):
                if viewer.token_hash is not None:
                    await self.still_seated(viewer)
                async for message in session.run(opened, request_iterator, sub):
                    yield message


def match_resource(match: str, meta: dict[str, str], progress_bytes: bytes) -> gw.Match:
    """The Match resource from metadata and stored progress."""
    progress = public.progress(progress_bytes)
    seats = int(meta["seats"])
    resource = gw.Match(
        name=f"matches/{match}",
        game=meta["game"],
        allow_spectators=meta.get("spectators") == "1",
        progress=progress,
    )
    for seat in range(seats):
        resource.seats.add(
            seat=seat,
            occupied=f"token:{seat}" in meta,
            display_name=meta.get(f"name:{seat}", ""),
        )
    if "commitment" in meta:
        resource.audit.commitment = bytes.fromhex(meta["commitment"])
    if progress.HasField("outcome"):
        resource.status = gw.MATCH_STATUS_FINISHED
        if "seed" in meta and meta.get("secret_after_end") != "1":
            resource.audit.seed = int(meta["seed"])
            resource.audit.salt = bytes.fromhex(meta["salt"])
    elif all(s.occupied for s in resource.seats):
        resource.status = gw.MATCH_STATUS_ACTIVE
    else:
        resource.status = gw.MATCH_STATUS_WAITING
    return resource


def client_request_id(request) -> str:
    """A caller's request id (a fresh one when empty); the platform's prefix is refused."""
    if request.request_id.startswith(keys.PLATFORM_REQUEST_PREFIX):
        raise invalid_argument(
            "request_id", "request ids starting 'parlour:' are the platform's",
            "RESERVED_REQUEST_ID",
        )
    return request.request_id or uuid.uuid4().hex

