"""The one place where failures become gRPC statuses with a stable ErrorInfo reason."""

from __future__ import annotations

import functools
import inspect
import logging
import uuid
from collections.abc import Callable

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from parlour.rpc import context as request_context
from parlour.store.connection import UNREACHABLE
from parlour.store.replication import NotReplicated, demoted

DOMAIN = "parlour"
#: Longest message a status carries (anything echoed from input is cut well before).
MAX_MESSAGE = 200
#: Longest piece of caller input quoted in a message.
MAX_QUOTE = 40
#: Codes that mean the server, not the caller, failed: logged as warnings with detail.
SERVER_SIDE = frozenset(
    {
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.DATA_LOSS,
    }
)
log = logging.getLogger("parlour.errors")


def quote(text: str) -> str:
    """Caller input, cut short enough to quote in a message."""
    return repr(text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "...")


class ServiceError(Exception):
    """A refusal with a gRPC code, a stable UPPER_SNAKE reason and a short message.

    `violations` are (field, description, reason) triples sent as BadRequest; `detail`
    is internal (addresses, library errors): logged under the correlation id, never sent.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        *,
        field: str | None = None,
        metadata: dict[str, str] | None = None,
        violations: list[tuple[str, str, str]] | None = None,
        detail: str = "",
        trailers: dict[str, str] | None = None,
    ) -> None:
        message = message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."
        super().__init__(f"{code.name} {reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.field = field
        self.metadata = metadata or {}
        self.violations = violations or (
            [(field, message, reason)] if field is not None else []
        )
        self.detail = detail
        self.trailers = trailers or {}

    def grpc_status(self) -> grpc.Status:
        """As the status a servicer aborts with: details plus any extra trailing metadata."""
        status = rpc_status.to_status(self.to_status())
        if not self.trailers:
            return status
        extra = tuple(self.trailers.items())
        return status._replace(trailing_metadata=(*status.trailing_metadata, *extra))

    def to_status(self) -> status_pb2.Status:
        """As google.rpc.Status with ErrorInfo (and BadRequest for a bad field)."""
        status = status_pb2.Status(code=self.code.value[0], message=self.message)
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain=DOMAIN, metadata=self.metadata
        )
        detail = any_pb2.Any()
        detail.Pack(info)
        status.details.append(detail)
        if self.violations:
            bad = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=field, description=description, reason=reason
                    )
                    for field, description, reason in self.violations
                ]
            )
            detail = any_pb2.Any()
            detail.Pack(bad)
            status.details.append(detail)
        return status

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> ServiceError:
        """Rebuild from a google.rpc.Status (e.g. one relayed by another service)."""
        code = _CODES.get(status.code, grpc.StatusCode.UNKNOWN)
        reason, metadata, violations = code.name, {}, []
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason, metadata = info.reason, dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations = [(v.field, v.description, v.reason) for v in bad.field_violations]
        field = violations[0][0] if violations else None
        return cls(
            code, reason, status.message, field=field, metadata=metadata, violations=violations
        )

    @classmethod
    def from_rpc_error(cls, error: grpc.aio.AioRpcError | grpc.RpcError) -> ServiceError:
        """Rebuild from a failed call, keeping its details."""
        status = rpc_status.from_call(error) if hasattr(error, "trailing_metadata") else None
        if status is not None:
            return cls.from_status(status)
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        detail = error.details() if hasattr(error, "details") else str(error)
        return cls(code, code.name, "an internal call failed", detail=detail or "")


_CODES = {code.value[0]: code for code in grpc.StatusCode}
assert _CODES[code_pb2.FAILED_PRECONDITION] is grpc.StatusCode.FAILED_PRECONDITION


def invalid_argument(field: str, message: str, reason: str = "INVALID_ARGUMENT") -> ServiceError:
    """Malformed input in `field`."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, reason, message, field=field)


def not_found(what: str, name: str) -> ServiceError:
    """No such resource."""
    return ServiceError(
        grpc.StatusCode.NOT_FOUND, f"{what.upper()}_NOT_FOUND", f"no {what} {quote(name)}"
    )


def unavailable(
    message: str, reason: str = "BACKEND_UNAVAILABLE", detail: str = ""
) -> ServiceError:
    """A retryable outage; `detail` (which replica, which library error) is only logged."""
    return ServiceError(grpc.StatusCode.UNAVAILABLE, reason, message, detail=detail)


def closed_transport(error: BaseException) -> bool:
    """A write on a connection the event loop already closed (uvloop's RuntimeError, which
    redis-py lets through while Redis restarts: issue 34)."""
    return isinstance(error, RuntimeError) and str(error).startswith(
        "unable to perform operation on"
    )


def storage_reason(error: BaseException) -> str | None:
    """The stable reason of a storage failure parlour expects and handles (a write its
    replicas did not confirm in time: NOT_REPLICATED; Redis away, restarting or a demoted
    primary: STORAGE_UNAVAILABLE); None for anything else."""
    if isinstance(error, NotReplicated):
        return "NOT_REPLICATED"
    if isinstance(error, (*UNREACHABLE, ConnectionError)) or (
        closed_transport(error) or demoted(error)
    ):
        return "STORAGE_UNAVAILABLE"
    return None


def log_failure(logger: logging.Logger, message: str, error: BaseException, **fields) -> None:
    """A failed background step that will be tried again: an expected storage failure
    (storage_reason) as one warning line with its reason, anything else with its
    traceback."""
    reason = storage_reason(error)
    if reason is None:
        logger.error(message, exc_info=error, extra=fields)
    else:
        logger.warning(message, extra={**fields, "reason": reason, "error": repr(error)})


def classify(error: BaseException) -> ServiceError:
    """Any exception as a ServiceError (unexpected ones become INTERNAL and are logged)."""
    if isinstance(error, ServiceError):
        return error
    if isinstance(error, grpc.aio.AioRpcError):
        return ServiceError.from_rpc_error(error)
    reason = storage_reason(error)
    if reason == "NOT_REPLICATED":
        return unavailable(
            "the write was not confirmed by Redis's replicas in time; retry with the same "
            "request id",
            reason,
            repr(error),
        )
    if reason is not None:
        return unavailable("storage unavailable; retry", reason, repr(error))
    log.error("internal error", exc_info=error)
    return ServiceError(grpc.StatusCode.INTERNAL, "INTERNAL", "internal error", detail=repr(error))


def refusal_of(error: BaseException, method: str) -> ServiceError:
    """The public form of a failure: classified, with a correlation id in its ErrorInfo,
    logged (with its internal detail) under that id."""
    refusal = classify(error)
    correlation = refusal.metadata.setdefault("correlation_id", uuid.uuid4().hex[:16])
    log.log(
        logging.WARNING if refusal.code in SERVER_SIDE else logging.DEBUG,
        "call refused",
        extra={
            "correlation_id": correlation,
            "method": method,
            "code": refusal.code.name,
            "reason": refusal.reason,
            "detail": refusal.detail,
        },
    )
    return refusal


class Refused:
    """A request message that was refused while decoding (see parlour.rpc.decoding)."""

    __slots__ = ("error",)

    def __init__(self, error: ServiceError) -> None:
        self.error = error


def guarded(method: Callable) -> Callable:
    """Turn exceptions raised by a servicer method into an aborted call with a status (its
    reason also goes on the call's log line; the interceptor counts calls). A request the
    decoder refused arrives as `Refused` and is answered with its error."""
    name = method.__qualname__.rpartition(".")[2]

    async def abort(context, error: Exception) -> None:
        refusal = refusal_of(error, name)
        request_context.note(reason=refusal.reason)
        await context.abort_with_status(refusal.grpc_status())

    if inspect.isasyncgenfunction(method):

        @functools.wraps(method)
        async def stream_wrapper(self, request, context):
            try:
                if isinstance(request, Refused):
                    raise request.error
                async for item in method(self, request, context):
                    yield item
            except grpc.aio.AbortError:
                raise
            except Exception as error:  # noqa: BLE001 - mapped to a status
                await abort(context, error)

        return stream_wrapper

    @functools.wraps(method)
    async def wrapper(self, request, context):
        try:
            if isinstance(request, Refused):
                raise request.error
            return await method(self, request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as error:  # noqa: BLE001 - mapped to a status
            await abort(context, error)

    return wrapper
