"""One server interceptor for every call: drain refusal, in-flight tracking, metrics, request log.

Metrics follow the go-grpc-prometheus names and labels (grpc_service, grpc_method,
grpc_type, grpc_code); health and reflection calls are measured but never refused.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Callable

import grpc

from parlour.rpc import context as request_context
from parlour.rpc import metrics
from parlour.rpc.errors import unavailable

log = logging.getLogger("parlour.requests")

#: Services that keep answering while draining (probes and tools).
ALWAYS_SERVED = ("grpc.health.v1.Health", "grpc.reflection.")
#: The refusal of a call that arrives while the server drains (retryable).
DRAINING = unavailable(
    "the server is shutting down; retry (another replica will answer)", "SERVER_DRAINING"
).grpc_status()


class Drain:
    """Counts calls in flight; once draining, new calls are refused with UNAVAILABLE."""

    def __init__(self) -> None:
        self.draining = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._hooks: list[Callable[[], object]] = []

    def on_drain(self, hook: Callable[[], object]) -> None:
        """Call `hook` (sync or async) when draining starts (e.g. to end open streams)."""
        self._hooks.append(hook)

    async def start(self) -> None:
        """Refuse new calls from now on and tell the hooks."""
        self.draining = True
        for hook in self._hooks:
            result = hook()
            if inspect.isawaitable(result):
                await result

    async def wait_idle(self, timeout: float) -> bool:
        """Wait (at most `timeout` s) until no call is in flight; True if none is."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def enter(self) -> None:
        self.in_flight += 1
        self._idle.clear()

    def leave(self) -> None:
        self.in_flight -= 1
        if not self.in_flight:
            self._idle.set()


class Observed:
    """What the interceptor knows about one method."""

    __slots__ = ("service", "method", "kind", "exempt", "started", "seconds", "handled", "open")

    def __init__(self, full_method: str, kind: str) -> None:
        self.service, _, self.method = full_method.lstrip("/").rpartition("/")
        self.kind = kind
        self.exempt = self.service.startswith(ALWAYS_SERVED)
        labels = (self.service, self.method, kind)
        self.started = metrics.GRPC_STARTED.labels(*labels)
        self.seconds = metrics.GRPC_SECONDS.labels(*labels)
        self.handled = {
            code: metrics.GRPC_HANDLED.labels(*labels, code.name) for code in grpc.StatusCode
        }
        self.open = metrics.OPEN_STREAMS.labels(self.service, self.method)


def _kind(handler: grpc.RpcMethodHandler) -> str:
    if handler.request_streaming and handler.response_streaming:
        return "bidi_stream"
    if handler.request_streaming:
        return "client_stream"
    if handler.response_streaming:
        return "server_stream"
    return "unary"


class ServerInterceptor(grpc.aio.ServerInterceptor):
    """Wraps every method handler of a server; `log_fields` go on every request log line
    (e.g. the game a rules service serves)."""

    def __init__(self, drain: Drain, log_fields: dict) -> None:
        self.drain = drain
        self.log_fields = log_fields
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    async def intercept_service(self, continuation, details: grpc.HandlerCallDetails):
        handler = await continuation(details)
        if handler is None:
            return None
        wrapped = self._wrapped.get(details.method)
        if wrapped is None:
            wrapped = self._wrapped[details.method] = self._wrap(details.method, handler)
        return wrapped

    def _wrap(self, full_method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        seen = Observed(full_method, _kind(handler))
        drain, defaults = self.drain, self.log_fields
        inner = (
            handler.unary_unary
            or handler.unary_stream
            or handler.stream_unary
            or handler.stream_stream
        )
        unary_request = not handler.request_streaming

        async def begin(request, context):
            """Refuse while draining; else count the call and start its log fields."""
            if not seen.exempt:
                if drain.draining:
                    await context.abort_with_status(DRAINING)
                drain.enter()
            seen.started.inc()
            token = request_context.begin(defaults)
            if unary_request:
                request_context.note_message(request)
            return token, time.perf_counter()

        def finish(context, token, started: float, error: BaseException | None) -> None:
            if not seen.exempt:
                drain.leave()
            code = _code_of(context, error)
            seen.handled[code].inc()
            elapsed = time.perf_counter() - started
            seen.seconds.observe(elapsed)
            level = logging.DEBUG if code is grpc.StatusCode.OK else logging.INFO
            if log.isEnabledFor(level):
                log.log(
                    level,
                    "request",
                    extra={
                        "grpc_service": seen.service,
                        "grpc_method": seen.method,
                        "grpc_code": code.name,
                        "ms": round(elapsed * 1000, 2),
                        **request_context.request_fields(),
                    },
                )
            request_context.end(token)

        if inspect.isasyncgenfunction(inner):

            async def behavior(request, context):
                token, started = await begin(request, context)
                seen.open.inc()
                error = None
                try:
                    async for item in inner(request, context):
                        yield item
                except BaseException as raised:
                    error = raised
                    raise
                finally:
                    seen.open.dec()
                    finish(context, token, started, error)

        else:

            async def behavior(request, context):
                token, started = await begin(request, context)
                error = None
                try:
                    return await inner(request, context)
                except BaseException as raised:
                    error = raised
                    raise
                finally:
                    finish(context, token, started, error)

        make = {
            "unary": grpc.unary_unary_rpc_method_handler,
            "server_stream": grpc.unary_stream_rpc_method_handler,
            "client_stream": grpc.stream_unary_rpc_method_handler,
            "bidi_stream": grpc.stream_stream_rpc_method_handler,
        }[seen.kind]
        return make(
            behavior,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


def _code_of(context, error: BaseException | None) -> grpc.StatusCode:
    # GeneratorExit: a stream abandoned by its client and closed by the loop (issue 34)
    if isinstance(error, asyncio.CancelledError | GeneratorExit):
        return grpc.StatusCode.CANCELLED
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if error is not None and not isinstance(error, grpc.aio.AbortError):
        return grpc.StatusCode.UNKNOWN
    return grpc.StatusCode.OK
