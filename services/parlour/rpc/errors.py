"""The one place where failures become gRPC statuses with a stable ErrorInfo reason."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.rpc import metrics

DOMAIN = "parlour"
log = logging.getLogger("parlour.errors")


class ServiceError(Exception):
    """A refusal with a gRPC code, a stable UPPER_SNAKE reason and a message."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        *,
        field: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code.name} {reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.field = field
        self.metadata = metadata or {}

    def to_status(self) -> status_pb2.Status:
        """As google.rpc.Status with ErrorInfo (and BadRequest for a bad field)."""
        status = status_pb2.Status(code=self.code.value[0], message=self.message)
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain=DOMAIN, metadata=self.metadata
        )
        detail = any_pb2.Any()
        detail.Pack(info)
        status.details.append(detail)
        if self.field is not None:
            bad = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=self.field, description=self.message, reason=self.reason
                    )
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
        reason, metadata, field = code.name, {}, None
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason, metadata = info.reason, dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                if bad.field_violations:
                    field = bad.field_violations[0].field
        return cls(code, reason, status.message, field=field, metadata=metadata)

    @classmethod
    def from_rpc_error(cls, error: grpc.aio.AioRpcError | grpc.RpcError) -> ServiceError:
        """Rebuild from a failed call, keeping its details."""
        status = rpc_status.from_call(error) if hasattr(error, "trailing_metadata") else None
        if status is not None:
            return cls.from_status(status)
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        return cls(code, code.name, error.details() if hasattr(error, "details") else str(error))


_CODES = {code.value[0]: code for code in grpc.StatusCode}
assert _CODES[code_pb2.FAILED_PRECONDITION] is grpc.StatusCode.FAILED_PRECONDITION


def invalid_argument(field: str, message: str, reason: str = "INVALID_ARGUMENT") -> ServiceError:
    """Malformed input in `field`."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, reason, message, field=field)


def not_found(what: str, name: str) -> ServiceError:
    """No such resource."""
    return ServiceError(
        grpc.StatusCode.NOT_FOUND, f"{what.upper()}_NOT_FOUND", f"no {what} {name!r}"
    )


def unavailable(message: str, reason: str = "BACKEND_UNAVAILABLE") -> ServiceError:
    """A retryable outage."""
    return ServiceError(grpc.StatusCode.UNAVAILABLE, reason, message)


def classify(error: BaseException) -> ServiceError:
    """Any exception as a ServiceError (unexpected ones become INTERNAL and are logged)."""
    if isinstance(error, ServiceError):
        return error
    if isinstance(error, grpc.aio.AioRpcError):
        return ServiceError.from_rpc_error(error)
    if isinstance(error, RedisConnectionError | RedisTimeoutError | ConnectionError):
        return unavailable(f"storage unavailable: {error}", "STORAGE_UNAVAILABLE")
    log.exception("internal error", exc_info=error)
    return ServiceError(grpc.StatusCode.INTERNAL, "INTERNAL", "internal error")


def guarded(method: Callable) -> Callable:
    """Turn exceptions raised by a servicer method into an aborted call with a status,
    and count every call by service, method and status code."""
    service, _, name = method.__qualname__.rpartition(".")
    counted = {code: metrics.REQUESTS.labels(service, name, code.name) for code in grpc.StatusCode}

    if inspect.isasyncgenfunction(method):

        @functools.wraps(method)
        async def stream_wrapper(self, request, context):
            try:
                async for item in method(self, request, context):
                    yield item
            except grpc.aio.AbortError:
                raise
            except Exception as error:  # noqa: BLE001 - mapped to a status
                refusal = classify(error)
                counted[refusal.code].inc()
                await context.abort_with_status(rpc_status.to_status(refusal.to_status()))
            else:
                counted[grpc.StatusCode.OK].inc()

        return stream_wrapper

    @functools.wraps(method)
    async def wrapper(self, request, context):
        try:
            response = await method(self, request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as error:  # noqa: BLE001 - mapped to a status
            refusal = classify(error)
            counted[refusal.code].inc()
            await context.abort_with_status(rpc_status.to_status(refusal.to_status()))
        else:
            counted[grpc.StatusCode.OK].inc()
            return response

    return wrapper
