"""The public messages the gateway answers with, built from the rules services' internal ones.

The public API (parlour.gateway.v1) defines its own GameInfo, MatchProgress, ActResult,
Outcome, SeedAudit, TableText and Variant so that it imports nothing internal. Each has
the rules service's (or the engine's) wire layout (tests/test_api_contracts.py checks
it), so they convert by bytes; GameInfo adds complete type URLs.
"""

from __future__ import annotations

from typing import TypeVar

from google.protobuf.message import Message

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2 as rules

TYPE_URL_PREFIX = "type.googleapis.com/"
M = TypeVar("M", bound=Message)


def same_layout(message: Message, public_type: type[M]) -> M:
    """An internal message as the public message with the same wire layout."""
    return public_type.FromString(message.SerializeToString())


def progress(message: rules.MatchProgress | bytes) -> gw.MatchProgress:
    """Public MatchProgress from the internal one (or its stored bytes)."""
    data = message if isinstance(message, bytes) else message.SerializeToString()
    return gw.MatchProgress.FromString(data)


def act_result(result: rules.ActResult) -> gw.ActResult:
    """Public ActResult from the internal one."""
    return same_layout(result, gw.ActResult)


def table(text: Message) -> gw.TableText:
    """Public TableText from the engine's (a rules service's GetView answer)."""
    return same_layout(text, gw.TableText)


def game_info(info: rules.GameInfo, versions=None) -> gw.GameInfo:
    """Public GameInfo: the same facts (same layout), plus complete type URLs; with
    `versions` (routing.RulesVersions), the rules versions of the live replicas."""
    public = same_layout(info, gw.GameInfo)
    public.options_type_url = TYPE_URL_PREFIX + info.options_type
    public.action_type_url = TYPE_URL_PREFIX + info.action_type
    public.event_type_url = TYPE_URL_PREFIX + info.event_type
    public.view_type_url = TYPE_URL_PREFIX + info.view_type
    if versions is not None:
        public.rules_version = versions.newest
        public.served_rules_versions[:] = sorted(versions.served)
        public.migrates_from_rules_versions[:] = sorted(versions.migrates)
    return public


def match_log(name: str, log: rules.MatchLog) -> gw.MatchLog:
    """The rules service's MatchLog as the public message."""
    answer = gw.MatchLog(
        match=name,
        game=log.game,
        seats=log.seats,
        options=log.options,
        audit=same_layout(log.audit, gw.SeedAudit),
        outcome=same_layout(log.outcome, gw.Outcome),
        reveal_all=log.reveal_all,
        rules_version=log.rules_version,
    )
    if log.HasField("seat"):
        answer.seat = log.seat
    for action in log.actions:
        answer.actions.add(
            seat=action.seat,
            action=action.action,
            request_id=action.request_id,
            version=action.version,
            timed_out=action.timed_out,
            undoes=action.undoes,
            abandoned=action.abandoned,
            undo_requested=action.undo_requested,
            undo_answer=action.undo_answer,
            migrated_to=action.migrated_to,
        )
        if action.HasField("away"):
            answer.actions[-1].away.CopyFrom(same_layout(action.away, gw.SeatAway))
    for event in log.events:
        answer.events.add(
            event=gw.MatchEvent(
                sequence=event.sequence,
                version=event.version,
                actor=event.actor,
                event=event.recorded.event,
                text=event.recorded.text,
            ),
            audience=event.audience,
        )
    return answer
