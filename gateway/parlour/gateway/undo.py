"""Undo: UndoAction (a seat takes back its last action, or asks to) and AnswerUndo (the
other seats' answer); SetAway (a seat's "away until ...", issue 44). Each is forwarded to
the rules replica that keeps the match."""

from __future__ import annotations

from parlour.gateway import public
from parlour.gateway.edge import Callers, client_request_id
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import guarded, invalid_argument
from parlour.rules.v1 import rules_pb2 as rules


class UndoCalls:
    """UndoAction, AnswerUndo and SetAway."""

    def __init__(self, callers: Callers, router: Router) -> None:
        self.callers = callers
        self.router = router

    @guarded
    async def UndoAction(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        ask = rules.UndoActionRequest(
            match_id=viewer.match, seat=viewer.seat, request_id=client_request_id(request)
        )
        return await self._step(viewer, "UndoAction", ask, gw.UndoActionResponse)

    @guarded
    async def AnswerUndo(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        if request.answer not in (gw.UNDO_ANSWER_ACCEPT, gw.UNDO_ANSWER_REFUSE):
            raise invalid_argument("answer", "answer must be accept or refuse", "MISSING_ANSWER")
        ask = rules.AnswerUndoRequest(
            match_id=viewer.match,
            seat=viewer.seat,
            request_id=client_request_id(request),
            answer=request.answer,
        )
        return await self._step(viewer, "AnswerUndo", ask, gw.AnswerUndoResponse)

    @guarded
    async def SetAway(self, request, context):
        viewer = await self.callers.viewer(request.match, context, seated=True)
        ask = rules.SetAwayRequest(
            match_id=viewer.match,
            seat=viewer.seat,
            request_id=client_request_id(request),
            until_unix_ms=request.until_unix_ms,
        )
        return await self._step(viewer, "SetAway", ask, gw.SetAwayResponse)

    async def _step(self, viewer, call: str, ask, answer):
        """Send a seat's platform step (`call` on the rules service) to the replicas of its
        match's rules version; its result in the public `answer` message."""
        response = await self.router.call(
            viewer.game,
            viewer.match,
            lambda r: getattr(r.stub, call)(ask, timeout=30),
            rules=viewer.rules,
        )
        return answer(result=public.act_result(response.result), replayed=response.replayed)
