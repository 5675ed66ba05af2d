"""A finished match's log for one viewer, recomputed through the engine before it is sent."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2

from parlour.engine import versions
from parlour.engine.game import Game
from parlour.engine.replay import LogEvent, ReplayDiverged, check_events, replay
from parlour.rpc.errors import ServiceError, invalid_argument, not_found
from parlour.rules import records as records_of
from parlour.rules.core import rules_unavailable
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import meta as field
from parlour.store.matchstore import MatchNotFound, MatchRecords, MatchStore, StoredEvent


def refuse(reason: str, message: str) -> ServiceError:
    """A log that cannot be given now."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message)


def audit_of(meta: dict[str, str]) -> pb.SeedAudit:
    """The commitment, plus seed and salt unless the match keeps its secrets."""
    audit = pb.SeedAudit(commitment=bytes.fromhex(meta[field.COMMITMENT]))
    if meta.get(field.SECRET_AFTER_END) != "1":
        audit.seed = int(meta[field.SEED])
        audit.salt = bytes.fromhex(meta[field.SALT])
    return audit


def log_event(stored: StoredEvent, event_url: str) -> LogEvent:
    """A stored stream entry in the form a replay is compared with."""
    recorded = records_of.read_event(stored.payload, event_url)
    return LogEvent(
        sequence=stored.sequence,
        version=stored.version,
        actor=stored.actor,
        event=recorded.event.SerializeToString(deterministic=True),
        text=recorded.text,
        audience=stored.visibility.decode(),
    )


def verified(game: Game, records: MatchRecords, actions: list[pb.LoggedAction]) -> None:
    """Recompute the match from (seed, actions), each stretch under the rules version it was
    played with; DATA_LOSS if it differs, RULES_VERSION_UNAVAILABLE (naming the version) if
    this build cannot play a version the log needs."""
    options = game.options_type()
    any_pb2.Any.FromString(records.options).Unpack(options)
    stored = pb.MatchProgress.FromString(records.progress)
    created = versions.stored(records.meta.get(field.RULES_CREATED))
    missing = versions.needed(game, created, actions)
    if missing:
        raise rules_unavailable(game.name, missing[0])
    try:
        seats, seed = int(records.meta[field.SEATS]), int(records.meta[field.SEED])
        replayed = replay(game, options, seats, seed, actions, created)
        url = records_of.type_url(game.event_type)
        logged = [log_event(e, url) for e in records.events]
        check_events(replayed.events, logged, None, True)
    except ReplayDiverged as error:
        raise ServiceError(
            grpc.StatusCode.DATA_LOSS, "LOG_MISMATCH", f"the stored log does not replay: {error}"
        ) from None
    scores = None if replayed.outcome is None else list(replayed.outcome.scores)
    if scores != (list(stored.outcome.scores) if stored.HasField("outcome") else None):
        raise ServiceError(
            grpc.StatusCode.DATA_LOSS, "LOG_MISMATCH", "the replayed outcome differs"
        )


async def match_log(game: Game, store: MatchStore, request: pb.GetMatchLogRequest) -> pb.MatchLog:
    """The log of a finished match as `request.seat` (absent: a spectator) saw it live."""
    try:
        records = await store.match_log(request.match_id)
    except MatchNotFound:
        raise not_found("match", request.match_id) from None
    progress = pb.MatchProgress.FromString(records.progress)
    meta = records.meta
    seats = int(meta[field.SEATS])
    seat = request.seat if request.HasField("seat") else None
    if seat is not None and not 0 <= seat < seats:
        raise invalid_argument("seat", f"seat {seat} is not in this match", "NO_SUCH_SEAT")
    if not progress.HasField("outcome"):
        raise refuse("MATCH_NOT_FINISHED", "a match log is given once the match is over")
    if request.reveal_all and meta.get(field.SECRET_AFTER_END) == "1":
        raise ServiceError(
            grpc.StatusCode.PERMISSION_DENIED,
            "REVEAL_NOT_ALLOWED",
            "this match keeps its secrets after the end",
        )
    if field.SEED not in meta or not records.options:
        raise refuse("NO_MATCH_LOG", "this match was not created with a log")
    if len(records.events) != progress.last_sequence:
        raise refuse("LOG_TRIMMED", "the match's event stream was trimmed")
    actions = records_of.read_actions(game, records.actions)
    verified(game, records, actions)
    event_url = records_of.type_url(game.event_type)
    log = pb.MatchLog(
        game=meta[field.GAME],
        seats=seats,
        options=any_pb2.Any.FromString(records.options),
        audit=audit_of(meta),
        outcome=progress.outcome,
        reveal_all=request.reveal_all,
        rules_version=versions.stored(meta.get(field.RULES_CREATED)),
    )
    if not request.reveal_all and seat is not None:
        log.seat = seat
    for logged in actions:
        if request.reveal_all or logged.seat == seat or logged.migrated_to:
            log.actions.append(logged)
    for stored in records.events:
        if request.reveal_all or stored.visible_to(seat):
            log.events.add(
                sequence=stored.sequence,
                version=stored.version,
                actor=stored.actor,
                recorded=records_of.read_event(stored.payload, event_url),
                audience=stored.visibility.decode() if request.reveal_all else "",
            )
    return log
