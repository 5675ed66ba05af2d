"""The thin gRPC servicer: converts messages and delegates to RulesCore."""

from __future__ import annotations

import asyncio

import grpc

from parlour.rpc.batching import Batches
from parlour.rpc.errors import ServiceError, classify, guarded, unavailable
from parlour.rules import away, undos
from parlour.rules.core import RulesCore
from parlour.rules.matchlog import match_log
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc


def seated(request: pb.ActRequest) -> pb.ActRequest:
    """An Act must carry the hash of the seat token it acts with, which the commit checks:
    the internal certificate alone cannot act for a seat (issue 34). The platform's own
    actions (timers) call the core, not this port."""
    if not request.token_hash:
        raise ServiceError(
            grpc.StatusCode.UNAUTHENTICATED,
            "MISSING_SEAT_TOKEN",
            "an Act must carry the hash of its seat token (token_hash)",
        )
    return request


class RulesServicer(pb_grpc.RulesServiceServicer):
    """parlour.rules.v1.RulesService for one game."""

    def __init__(self, core: RulesCore) -> None:
        self.core = core
        self.draining = asyncio.Event()

    def drain(self) -> None:
        """Open ActStreams answer their running Acts, refuse new ones, then end."""
        self.draining.set()

    @guarded
    async def DescribeGame(self, request, context):
        return pb.DescribeGameResponse(game=self.core.info(), files=self.core.files())

    @guarded
    async def CreateMatch(self, request, context):
        return pb.CreateMatchResponse(progress=await self.core.create_match(request))

    @guarded
    async def GetView(self, request, context):
        seat = request.seat if request.HasField("seat") else None
        return await self.core.get_view(request.match_id, seat)

    @guarded
    async def ListActions(self, request, context):
        return await self.core.list_actions(request.match_id, request.seat)

    @guarded
    async def SampleHidden(self, request, context):
        states, version = await self.core.sample_hidden(
            request.match_id, request.seat, request.seed, request.count
        )
        return pb.SampleHiddenResponse(states=states, version=version)

    @guarded
    async def GetMatchLog(self, request, context):
        log = await match_log(self.core.game, self.core.store, request)
        return pb.GetMatchLogResponse(log=log)

    @guarded
    async def UndoAction(self, request, context):
        return await undos.undo_action(self.core, request)

    @guarded
    async def AnswerUndo(self, request, context):
        return await undos.answer_undo(self.core, request)

    @guarded
    async def SetAway(self, request, context):
        return await away.set_away(self.core, request)

    @guarded
    async def Act(self, request, context):
        return await self.core.act(seated(request))

    async def ActStream(self, request_iterator, context):
        """Answer each multiplexed Act as soon as it is done (possibly out of order).

        Acts may arrive batched; answers ready at the same moment leave as one batch.
        Once draining, new Acts are answered UNAVAILABLE (the gateway retries them on
        another replica) and the stream ends when its running Acts are answered.
        """
        out: asyncio.Queue = asyncio.Queue()
        running: set[asyncio.Task] = set()
        refusal = unavailable("this rules replica is shutting down", "SERVER_DRAINING")

        async def answer(call: pb.ActStreamRequest) -> None:
            try:
                response = await self.core.act(seated(call.act))
            except Exception as error:  # noqa: BLE001 - relayed to the caller as a status
                out.put_nowait(
                    pb.ActStreamResponse(call_id=call.call_id, error=classify(error).to_status())
                )
            else:
                out.put_nowait(pb.ActStreamResponse(call_id=call.call_id, response=response))

        async def read() -> None:
            async for message in request_iterator:
                for call in message.batch or (message,):
                    if self.draining.is_set():
                        error = refusal.to_status()
                        out.put_nowait(pb.ActStreamResponse(call_id=call.call_id, error=error))
                        continue
                    task = asyncio.create_task(answer(call))
                    running.add(task)
                    task.add_done_callback(running.discard)
            if running:
                await asyncio.wait(set(running))
            out.put_nowait(None)

        async def end_on_drain() -> None:
            await self.draining.wait()
            if running:
                await asyncio.wait(set(running))
            out.put_nowait(None)

        reader = asyncio.create_task(read())
        ender = asyncio.create_task(end_on_drain())
        try:
            batches = Batches(out)
            while (batch := await batches.next()) is not None:
                yield batch[0] if len(batch) == 1 else pb.ActStreamResponse(batch=batch)
        finally:
            reader.cancel()
            ender.cancel()
