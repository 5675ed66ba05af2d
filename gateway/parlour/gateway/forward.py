"""The calls the gateway forwards to the match's rules replica, for the caller's seat:
ListGames, GetView, ListActions, SubmitAction (and each Play action), SampleHidden,
GetMatchLog."""

from __future__ import annotations

from parlour.gateway import public
from parlour.gateway.edge import (
    Callers,
    Viewer,
    check_any,
    client_request_id,
    match_id_of,
    unauthenticated,
)
from parlour.gateway.fanout import EventHub, Progress
from parlour.gateway.routing import RULES_VERSION_UNAVAILABLE, Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import ServiceError, guarded, invalid_argument
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import MatchStore, StoredEvent


def stored_event(event: rules.CommittedEvent) -> StoredEvent:
    """An event of the rules service's answer as the stream holds it."""
    return StoredEvent(
        event.sequence,
        event.recorded,
        event.visibility,
        event.actor,
        event.version,
        final=event.final,
        seat_version=event.seat_version,
    )


class ForwardCalls:
    """Answers that come from a rules replica."""

    def __init__(self, callers: Callers, store: MatchStore, router: Router, hub: EventHub) -> None:
        self.callers = callers
        self.store = store
        self.router = router
        self.hub = hub

    async def act(self, viewer: Viewer, request: gw.SubmitActionRequest) -> gw.SubmitActionResponse:
        """Forward one action for the caller's seat. The commit itself checks that the seat
        token still holds the seat; the action's events go to this gateway's subscribers
        from the answer."""
        if viewer.seat is None:
            raise unauthenticated("MISSING_SEAT_TOKEN", "spectators cannot act")
        if request.match and match_id_of(request.match) != viewer.match:
            raise invalid_argument(
                "action.match", "the action names another match than the session's", "WRONG_MATCH"
            )
        info = self.router.infos.get(viewer.game) or await self.router.describe(viewer.game)
        check_any(request.action, "action", info.max_action_bytes, "ACTION_TOO_LARGE")
        act = rules.ActRequest(
            match_id=viewer.match,
            seat=viewer.seat,
            action=request.action,
            request_id=client_request_id(request),
            token_hash=viewer.token_hash,
            origin=self.hub.gateway_id,
        )
        if request.HasField("expected_version"):
            act.expected_version = request.expected_version
        try:
            response = await self.act_under_rules(viewer, act)
        except Exception:
            self.hub.notified(viewer.match)  # it may have committed all the same
            raise
        if response.replayed and response.result.event_count:  # read what it committed
            self.hub.notified(viewer.match)
        else:
            progress = response.result.progress
            self.hub.deliver(
                viewer.match,
                [stored_event(e) for e in response.events],
                Progress(progress.version, progress.last_sequence, progress.SerializeToString()),
            )
        return gw.SubmitActionResponse(
            result=public.act_result(response.result), replayed=response.replayed
        )

    async def act_under_rules(self, viewer: Viewer, act: rules.ActRequest) -> rules.ActResponse:
        """Forward to a replica of the match's rules version; once more if a migration
        moved the match on since the viewer was resolved (a long Play session)."""
        try:
            return await self.router.act(viewer.game, act, viewer.rules)
        except ServiceError as error:
            if error.reason != RULES_VERSION_UNAVAILABLE:
                raise
            now = await self.store.meta.rules_version(viewer.match)
            if now == viewer.rules:
                raise
            viewer.rules = now
            return await self.router.act(viewer.game, act, now)

    @guarded
    async def ListGames(self, request, context):
        infos, unavailable = await self.router.describe_all()
        games = [
            gw.Game(
                name=f"games/{name}",
                info=public.game_info(info, self.router.routes[name].versions()),
            )
            for name, info in sorted(infos.items())
        ]
        unavailable_games = [f"games/{name}" for name in unavailable]
        files = self.router.files_of(sorted(infos)) if request.with_files else []
        return gw.ListGamesResponse(games=games, unavailable_games=unavailable_games, files=files)

    @guarded
    async def GetView(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=False)
        ask = rules.GetViewRequest(match_id=viewer.match)
        if viewer.seat is not None:
            ask.seat = viewer.seat
        response = await self.router.call(
            viewer.game, viewer.match, lambda r: r.stub.GetView(ask, timeout=10), rules=viewer.rules
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
        viewer = await self.callers.viewer(request.match, context, seated=True)
        ask = rules.ListActionsRequest(match_id=viewer.match, seat=viewer.seat)
        response = await self.router.call(
            viewer.game,
            viewer.match,
            lambda r: r.stub.ListActions(ask, timeout=10),
            rules=viewer.rules,
        )
        return gw.ListActionsResponse(
            actions=response.actions,
            labels=response.labels,
            prompt=response.prompt,
            progress=public.progress(response.progress),
        )

    @guarded
    async def SubmitAction(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        return await self.act(viewer, request)

    @guarded
    async def SampleHidden(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        ask = rules.SampleHiddenRequest(
            match_id=viewer.match, seat=viewer.seat, seed=request.seed, count=request.count
        )
        response = await self.router.call(
            viewer.game,
            viewer.match,
            lambda r: r.stub.SampleHidden(ask, timeout=10),
            rules=viewer.rules,
        )
        return gw.SampleHiddenResponse(states=response.states, version=response.version)

    @guarded
    async def GetMatchLog(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=False)
        ask = rules.GetMatchLogRequest(match_id=viewer.match, reveal_all=request.reveal_all)
        if viewer.seat is not None:
            ask.seat = viewer.seat
        response = await self.router.call(
            viewer.game,
            viewer.match,
            lambda r: r.stub.GetMatchLog(ask, timeout=30),
            rules=viewer.rules,
        )
        return gw.GetMatchLogResponse(log=public.match_log(f"matches/{viewer.match}", response.log))
