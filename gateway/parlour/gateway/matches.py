"""Matches and seats: CreateMatch, JoinMatch, GetMatch, LeaveMatch, and the Match resource."""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid

import grpc

from parlour.engine import audit
from parlour.gateway import correspondence, identity, public, tokens
from parlour.gateway.edge import (
    Callers,
    check_any,
    match_id_of,
    request_id_reused,
)
from parlour.gateway.lobby import Lobby
from parlour.gateway.lobby import member as lobby_member
from parlour.gateway.quotas import Quotas
from parlour.gateway.records import record_key
from parlour.gateway.revocation import Revocations
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.notify.outbox import Outbox, OutboxSettings
from parlour.rpc import context as request_context
from parlour.rpc.errors import ServiceError, guarded, invalid_argument, not_found
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import meta as field
from parlour.store.matchstore import MatchNotFound, MatchStore
from parlour.store.seating import Refusal, SeatRefused

#: Largest serialized game Options accepted by CreateMatch.
MAX_OPTIONS_BYTES = 16 * 1024
MATCH_NAMESPACE = uuid.UUID("5f0b7c2e-4c1a-4d8e-9a55-7a1f0c3d2b10")
#: Bounds of a client's join secret (JoinMatchRequest.join_secret).
MIN_JOIN_SECRET = 16
#: Whether a seat taken writes the match's notices (issue 44: the first mover's turn).
NOTIFY = OutboxSettings()
#: Most matches ListMyMatches returns by default.
MY_MATCHES = 20


def join_proof(request, who: identity.Identity | None) -> str:
    """What re-opens the seat a join takes: the subject (identity on), else the hash of
    the client's join secret, else nothing."""
    if who is not None:
        return who.key
    secret = request.join_secret
    if not secret:
        return ""
    if len(secret) < MIN_JOIN_SECRET:
        raise invalid_argument(
            "join_secret",
            f"a join secret has at least {MIN_JOIN_SECRET} characters",
            "BAD_JOIN_SECRET",
        )
    return "s" + hashlib.sha256(secret.encode()).hexdigest()[:32]


def invitation_meta(request: gw.CreateMatchRequest, who: identity.Identity | None) -> dict:
    """A private table's metadata: invite, its join code, the invited subjects (and the
    creator) as inv:<subject key>."""
    if not request.HasField("invitation"):
        return {}
    invitation = request.invitation
    if invitation.subjects and who is None:
        raise ServiceError(
            grpc.StatusCode.FAILED_PRECONDITION,
            "IDENTITY_NOT_ENABLED",
            "inviting subjects needs identity on the gateway",
        )
    meta = {field.INVITE: "1"}
    if invitation.join_code:
        meta[field.CODE] = secrets.token_urlsafe(9)
    invited = [identity.subject_key(s) for s in invitation.subjects]
    invited += [who.key] if who is not None else []
    meta.update({field.invited(key): "1" for key in invited})
    return meta


def creation_fingerprint(game: str, request: gw.CreateMatchRequest) -> str:
    """What a CreateMatch retry must repeat exactly (the game and every field but the id)."""
    fields = gw.CreateMatchRequest()
    fields.CopyFrom(request)
    fields.ClearField("request_id")
    fields.game = game
    return hashlib.sha256(fields.SerializeToString(deterministic=True)).hexdigest()[:32]


def creation_meta(game: str, request: gw.CreateMatchRequest, match: str, seed: int) -> dict:
    """The match's metadata hash as CreateMatch stores it (store/keys.meta)."""
    salt = audit.new_salt()
    life = request.lifecycle
    meta = {
        field.GAME: game,
        field.SEATS: str(request.seats),
        field.SPECTATORS: str(int(request.allow_spectators)),
        field.FINGERPRINT: creation_fingerprint(game, request),
        field.SALT: salt.hex(),
        field.SEED: str(seed),
        field.COMMITMENT: audit.commitment(seed, salt).hex(),
    }
    lifecycle = {
        field.SECRET_AFTER_END: str(int(life.secret_after_end)),
        field.TURN_TIMER: str(life.turn_timer_ms),
        field.ALLOW_UNDO: str(int(life.allow_undo)),
        field.UNDO_AGREEMENT: str(int(life.undo_needs_agreement)),
        field.TIME_BANK: str(life.time_bank_ms),
        field.TIME_BANK_INCREMENT: str(life.time_bank_increment_ms),
        field.ABANDON_AFTER: str(life.abandon_after_timeouts),
        field.ON_ABANDON: "end" if life.on_abandon == gw.ABANDON_POLICY_END_MATCH else "",
    }
    # an option left at its default is not stored (its readers take it as absent: 0, off,
    # 'platform'); a correspondence clock's fields are stored as they are
    meta |= {name: value for name, value in lifecycle.items() if value not in ("0", "")}
    meta |= correspondence.meta(life)
    if request.allow_spectators and not request.HasField("invitation"):
        meta[field.LISTED] = lobby_member(time.time_ns() // 1_000_000, match)
    return meta


def match_resource(match: str, meta: dict[str, str], progress_bytes: bytes) -> gw.Match:
    """The Match resource from metadata and stored progress."""
    progress = public.progress(progress_bytes)
    seats = int(meta[field.SEATS])
    resource = gw.Match(
        name=f"matches/{match}",
        game=meta[field.GAME],
        allow_spectators=meta.get(field.SPECTATORS) == "1",
        progress=progress,
        rated=meta.get(field.UNRATED) != "1",
        rules_version=int(meta.get(field.RULES) or 1),
        max_pause_days=correspondence.pause_days(meta),
    )
    for seat in range(seats):
        resource.seats.add(
            seat=seat,
            occupied=field.token(seat) in meta,
            display_name=meta.get(field.name(seat), ""),
        )
    if field.COMMITMENT in meta:
        resource.audit.commitment = bytes.fromhex(meta[field.COMMITMENT])
    if progress.HasField("outcome"):
        resource.status = gw.MATCH_STATUS_FINISHED
        if field.SEED in meta and meta.get(field.SECRET_AFTER_END) != "1":
            resource.audit.seed = int(meta[field.SEED])
            resource.audit.salt = bytes.fromhex(meta[field.SALT])
    elif all(s.occupied for s in resource.seats):
        resource.status = gw.MATCH_STATUS_ACTIVE
    else:
        resource.status = gw.MATCH_STATUS_WAITING
    return resource


def seat_refused(refused: SeatRefused, name: str, wanted: int) -> ServiceError:
    """JoinMatch's status and reason for a seat not taken (match `name`, seat `wanted`)."""
    why, seat = refused.refusal, refused.seat
    if why == Refusal.NO_MATCH:
        return not_found("match", name)
    if why == Refusal.ALREADY_SEATED:
        return ServiceError(
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_SEATED",
            f"you hold seat {seat} here; join without a seat to re-open it",
            metadata={"seat": str(seat)},
        )
    if why == Refusal.NO_SUCH_SEAT:
        return invalid_argument("seat", f"seat {wanted} is not in this match", "NO_SUCH_SEAT")
    if why in (Refusal.SEAT_TAKEN, Refusal.MATCH_FULL):
        reason = "SEAT_TAKEN" if why == Refusal.SEAT_TAKEN else "MATCH_FULL"
        return ServiceError(
            grpc.StatusCode.FAILED_PRECONDITION, reason, reason.replace("_", " ").lower()
        )
    if why == Refusal.REQUEST_REUSED:
        return request_id_reused()
    return ServiceError(
        grpc.StatusCode.ALREADY_EXISTS,
        "ALREADY_JOINED",
        f"this request id already took seat {seat}; its token is only in that answer",
        metadata={"seat": str(seat)},
    )


class MatchCalls:
    """Creating, joining, reading and leaving matches."""

    def __init__(
        self,
        callers: Callers,
        store: MatchStore,
        router: Router,
        lobby: Lobby,
        quotas: Quotas,
        revocations: Revocations,
        bot_runners: frozenset[str],
    ) -> None:
        self.callers = callers
        self.store = store
        self.router = router
        self.lobby = lobby
        self.quotas = quotas
        self.revocations = revocations
        self.bot_runners = bot_runners

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

    @guarded
    async def CreateMatch(self, request, context):
        return await self.create_match(request, context)

    async def create_match(self, request, context) -> gw.CreateMatchResponse:
        scope = self.callers.scope(context)
        self.quotas.spend_create(scope)
        invitation = invitation_meta(request, identity.current())
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
        match = (
            uuid.uuid5(MATCH_NAMESPACE, f"{scope}|{game}|{request.request_id}").hex
            if request.request_id
            else uuid.uuid4().hex
        )
        request_context.note(match=match, game=game)
        seed = request.seed if request.HasField("seed") else secrets.randbits(63)
        meta = creation_meta(game, request, match, seed) | invitation
        if request.HasField("rated") and not request.rated:
            meta[field.UNRATED] = "1"
        newest = self.router.routes[game].versions()
        if newest is not None:  # else the replica records its own newest
            meta[field.RULES] = str(newest.newest)
        create = rules.CreateMatchRequest(
            match_id=match, options=request.options, seats=request.seats, seed=seed, meta=meta
        )
        try:
            await self.router.call(
                game,
                match,
                lambda r: r.stub.CreateMatch(create, timeout=10),
                rules=newest.newest if newest is not None else None,
            )
        except ServiceError as error:
            if error.code != grpc.StatusCode.ALREADY_EXISTS:
                raise
            if await self.store.meta.fingerprint(match) != meta[field.FINGERPRINT]:
                raise request_id_reused() from None
        meta, progress = await self.meta_and_progress(match)
        if field.LISTED in meta and not public.progress(progress).HasField("outcome"):
            await self.lobby.add(game, meta[field.LISTED])
        return gw.CreateMatchResponse(
            match=match_resource(match, meta, progress), join_code=meta.get(field.CODE, "")
        )

    @guarded
    async def JoinMatch(self, request, context):
        return await self.join_match(request, context)

    async def join_match(self, request, context) -> gw.JoinMatchResponse:
        match = match_id_of(request.match)
        if request.HasField("seat") and request.seat < 0:
            raise invalid_argument(
                "seat", "seat must be 0 or more (leave it unset for any free seat)", "NO_SUCH_SEAT"
            )
        who = identity.current()
        proof = join_proof(request, who)
        await self.check_invited(match, request, proof)
        token = tokens.new_token()
        wanted = request.seat if request.HasField("seat") else -1
        scope = self.callers.scope(context)
        request_id = f"{scope}|{request.request_id}" if request.request_id else ""
        try:
            taken = await self.store.take_seat(
                match,
                wanted,
                tokens.token_hash(token),
                request.display_name,
                hashlib.sha256(request_id.encode()).hexdigest()[:32] if request_id else "",
                hashlib.sha256(f"{wanted}|{request.display_name}".encode()).hexdigest()[:32],
                proof,
                record_key(request, who, self.bot_runners),
            )
        except SeatRefused as refused:
            raise seat_refused(refused, request.match, wanted) from None
        seat, reopened = taken.seat, taken.reopened
        if reopened:
            self.revocations.revoke(taken.revoked)
        if who is not None:
            await self.store.note_mine(who.key, match, time.time_ns() // 1_000_000)
        meta, progress = await self.meta_and_progress(match)
        if NOTIFY.notify_outbox and not reopened:
            await Outbox(self.store.outbox).seated(match, progress)
        return gw.JoinMatchResponse(
            match=match_resource(match, meta, progress),
            seat=seat,
            seat_token=token,
            reopened=reopened,
            player=f"players/{meta[field.record(seat)]}" if meta.get(field.record(seat)) else "",
        )

    async def check_invited(self, match: str, request, proof: str) -> None:
        """A private table admits its seated (re-opening), its invited subjects and the
        holders of its join code; NOT_FOUND for a match that is not there."""
        if await self.store.meta.admits(match, proof, request.join_code):
            return
        raise ServiceError(
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_INVITED",
            "this match is a private table: joining needs its join code or an invitation",
        )

    @guarded
    async def ListMyMatches(self, request, context):
        who = identity.required("ListMyMatches")
        reply, gone = gw.ListMyMatchesResponse(), []
        for match in await self.store.mine(who.key, request.page_size or MY_MATCHES):
            try:
                meta, progress = await self.store.meta_and_progress(match)
            except MatchNotFound:
                meta, progress = {}, None
            seat = meta.get(field.proof_of(who.key))
            if progress is None or seat is None:
                gone.append(match)
                continue
            reply.matches.add(match=match_resource(match, meta, progress), seat=int(seat))
        await self.store.forget_mine(who.key, *gone)
        return reply

    @guarded
    async def GetMatch(self, request, context):
        return gw.GetMatchResponse(match=await self.match_resource(match_id_of(request.match)))

    @guarded
    async def LeaveMatch(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        await self.store.leave_seat(viewer.match, viewer.token_hash)
        self.revocations.revoke(viewer.token_hash)
        if (who := identity.current()) is not None:
            await self.store.forget_mine(who.key, viewer.match)
        return gw.LeaveMatchResponse(match=await self.match_resource(viewer.match))
