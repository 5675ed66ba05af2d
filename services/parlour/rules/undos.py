"""Undo with a policy (issue 17 item 4): a seat takes back its own last action, at once or,
when the match's options need it, once every other seat still playing accepted.

Every step is a new version with public events and a log entry, never a rewrite: a request
(UndoRequested), each answer (UndoAnswered), and the undo itself (Undone) when the last
needed seat accepts. A refusal closes the request; so does any seat's move (UndoExpired,
see `core.expiry`). Requests and answers leave the state and every clock as they were.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.engine import undo, versions
from parlour.engine.replay import replay
from parlour.engine.v1.platform_pb2 import UndoAnswered, Undone, UndoRequested
from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError, invalid_argument, not_found
from parlour.rules import clocks
from parlour.rules.cache import Cached
from parlour.rules.clocks import now_ms
from parlour.rules.core import FINGERPRINT_BYTES, RulesCore, rules_unavailable
from parlour.rules.records import read_actions
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import meta as field
from parlour.store.matchstore import MatchNotFound, MatchRecords


def refused(reason: str, message: str) -> ServiceError:
    """An undo step the match's policy does not allow now."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message)


def fingerprint_of(data: bytes) -> bytes:
    """What a request id is bound to, so a reused id with another meaning is refused."""
    return hashlib.sha256(data).digest()[:FINGERPRINT_BYTES]


async def serialized_step(
    core: RulesCore, match: str, step: Callable[[], Awaitable[pb.ActResponse]]
) -> pb.ActResponse:
    """A platform step run under the match's lock; a refusal is counted by its reason."""
    try:
        async with core.serialized(match):
            return await step()
    except ServiceError as error:
        metrics.REFUSALS.labels(core.game.name, error.reason).inc()
        raise


async def undo_action(core: RulesCore, request: pb.UndoActionRequest) -> pb.UndoActionResponse:
    """Take back the seat's last action as a new version, or ask the others to agree."""
    fingerprint = fingerprint_of(b"undo" + request.seat.to_bytes(4, "big", signed=True))
    response = await serialized_step(
        core, request.match_id, lambda: _undo_locked(core, request, fingerprint)
    )
    return pb.UndoActionResponse(result=response.result, replayed=response.replayed)


async def answer_undo(core: RulesCore, request: pb.AnswerUndoRequest) -> pb.AnswerUndoResponse:
    """Accept or refuse the open undo request; the last needed accept applies the undo."""
    if request.answer not in (pb.UNDO_ANSWER_ACCEPT, pb.UNDO_ANSWER_REFUSE):
        raise invalid_argument("answer", "answer must be accept or refuse", "MISSING_ANSWER")
    seat = request.seat.to_bytes(4, "big", signed=True)
    fingerprint = fingerprint_of(b"undo-answer" + seat + bytes([request.answer]))
    response = await serialized_step(
        core, request.match_id, lambda: _answer_locked(core, request, fingerprint)
    )
    return pb.AnswerUndoResponse(result=response.result, replayed=response.replayed)


async def _records(core: RulesCore, match: str) -> tuple[MatchRecords, list[pb.LoggedAction]]:
    try:
        records = await core.store.match_log(match)
    except MatchNotFound:
        raise not_found("match", match) from None
    return records, read_actions(core.game, records.actions)


def _states(core: RulesCore, records: MatchRecords, actions: list) -> list[Message]:
    """Every state of the match, recomputed from its log (index i: version i + 1), each
    stretch under its rules version."""
    options = core.game.options_type()
    any_pb2.Any.FromString(records.options).Unpack(options)
    seats, seed = int(records.meta[field.SEATS]), int(records.meta[field.SEED])
    created = versions.stored(records.meta.get(field.RULES_CREATED))
    try:
        return replay(core.game, options, seats, seed, actions, created).states
    except versions.UnservedVersion as missing:
        raise rules_unavailable(core.game.name, missing.version) from None


def _checked(entry: Cached, actions: list) -> None:
    """The log read must be the one the current state ends (else the match moved on)."""
    newest = actions[-1].version if actions else 1
    if entry.version != newest:
        raise ServiceError(grpc.StatusCode.ABORTED, "VERSION_MISMATCH", "the match moved on")


async def _undo_locked(
    core: RulesCore, request: pb.UndoActionRequest, fingerprint: bytes
) -> pb.ActResponse:
    match, game = request.match_id, core.game
    earlier = await core.earlier_answer(request, fingerprint)
    if earlier is not None:
        return earlier
    records, actions = await _records(core, match)
    if records.meta.get(field.ALLOW_UNDO) != "1":
        raise refused("UNDO_NOT_ALLOWED", "this match does not allow undo")
    entry = await core.current(match)
    _checked(entry, actions)
    game = core.rules_at(entry.rules)
    if entry.progress.HasField("undo_request"):
        raise refused("UNDO_ALREADY_REQUESTED", "an undo request is open; it is answered first")
    last, steps = undo.last_move(actions)
    if last is None or last.undoes or last.timed_out:
        raise refused("NOTHING_TO_UNDO", "there is no action of yours to take back")
    if last.seat != request.seat:
        raise refused("OTHER_SEAT_ACTED", "another seat acted after your last action")
    if any(step.undo_answer == pb.UNDO_ANSWER_REFUSE for step in steps):
        raise refused("UNDO_REFUSED", "the other seats refused taking back this action")
    states = _states(core, records, actions)
    before, action = states[last.version - 2], game.action_type()
    last.action.Unpack(action)
    reason = undo.refusal(game, before, request.seat, action)
    if reason is not None:
        raise refused(reason, "your last action revealed or drew something")
    label = game.describe_action(action)
    platform = await core.platform_seats(match)
    seats = game.seat_count(before)
    awaiting = [s for s in range(seats) if s != request.seat and s not in platform]
    version = entry.version + 1
    logged = pb.LoggedAction(seat=request.seat, request_id=request.request_id, version=version)
    if records.meta.get(field.UNDO_AGREEMENT) == "1" and awaiting:
        notice = UndoRequested(
            seat=request.seat, version=last.version, took_back=label, awaiting=awaiting
        )
        progress = clocks.carry(entry.progress, version, entry.last_sequence + 1)
        progress.undo_request.CopyFrom(
            pb.UndoRequest(
                seat=request.seat, undoes=last.version, took_back=label, awaiting=awaiting
            )
        )
        logged.undo_requested = last.version
        step = (entry.state, [notice], progress, logged)
    else:
        notice = Undone(seat=request.seat, version=last.version, took_back=label)
        logged.undoes = last.version
        step = (before, [notice], await _restored(core, match, entry, before, 1), logged)
    return await core.commit_step(entry, request, fingerprint, step)


async def _restored(
    core: RulesCore, match: str, entry: Cached, before: Message, events: int
) -> pb.MatchProgress:
    """The progress of the state before the taken-back action, its budgets restarted."""
    game = core.rules_at(entry.rules)
    progress = core.progress(before, entry.version + 1, entry.last_sequence + events, game)
    clocks.advance(
        entry.progress,
        progress,
        await core.clock_policy(match),
        now_ms(),
        core.game.seat_count(before),
        platform_seats=await core.platform_seats(match),
    )
    return progress


async def _answer_locked(
    core: RulesCore, request: pb.AnswerUndoRequest, fingerprint: bytes
) -> pb.ActResponse:
    match = request.match_id
    earlier = await core.earlier_answer(request, fingerprint)
    if earlier is not None:
        return earlier
    entry = await core.current(match)
    core.rules_at(entry.rules)
    core.check_seat(entry.state, request.seat)
    if not entry.progress.HasField("undo_request"):
        raise refused("NO_UNDO_REQUEST", "no undo request is open")
    asked = entry.progress.undo_request
    if request.seat not in asked.awaiting:
        raise refused("ANSWER_NOT_AWAITED", "this undo request does not wait for your answer")
    if request.seat in asked.accepted:
        raise refused("ALREADY_ANSWERED", "you already accepted this undo request")
    accepted = request.answer == pb.UNDO_ANSWER_ACCEPT
    version = entry.version + 1
    answer = UndoAnswered(seat=request.seat, requester=asked.seat, accepted=accepted)
    logged = pb.LoggedAction(
        seat=request.seat,
        request_id=request.request_id,
        version=version,
        undo_answer=request.answer,
    )
    agreed = sorted({*asked.accepted, request.seat})
    if accepted and agreed == sorted(asked.awaiting):
        records, actions = await _records(core, match)
        _checked(entry, actions)
        before = _states(core, records, actions)[asked.undoes - 2]
        notice = Undone(seat=asked.seat, version=asked.undoes, took_back=asked.took_back)
        logged.undoes = asked.undoes
        step = (before, [answer, notice], await _restored(core, match, entry, before, 2), logged)
    else:
        progress = clocks.carry(entry.progress, version, entry.last_sequence + 1)
        if accepted:
            progress.undo_request.CopyFrom(asked)
            progress.undo_request.accepted[:] = agreed
        step = (entry.state, [answer], progress, logged)
    return await core.commit_step(entry, request, fingerprint, step)
