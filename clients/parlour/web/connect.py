"""GatewayService over Connect, gRPC-Web and gRPC (the `connectrpc` ASGI app), relayed to the
gateway's gRPC port: each call keeps its seat token, status code and message."""

from __future__ import annotations

import grpc
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_codecs
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import message_factory
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlour.engine.registry import games
from parlour.gateway.v1 import gateway_service_pb2

SERVICE = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"]
PATH = f"/{SERVICE.full_name}"
#: gRPC status names that Connect spells differently.
RENAMED = {"CANCELLED": "CANCELED"}
#: Headers relayed to the gateway as call metadata (the seat token travels in
#: x-parlour-seat-token when the page signs in: authorization then holds the ID token).
RELAYED = ("authorization", "x-parlour-seat-token", "x-request-id")


def connect_code(code: grpc.StatusCode) -> Code:
    return Code[RENAMED.get(code.name, code.name)]


def relayed_error(error: grpc.aio.AioRpcError) -> ConnectError:
    """The gateway's refusal as the same Connect error (code, message with its reason)."""
    reason = ""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason = info.reason
    details = error.details() or error.code().name
    message = f"{reason}: {details}" if reason and reason not in details else details
    return ConnectError(connect_code(error.code()), message)


def method_info(method) -> MethodInfo:
    streams = (method.client_streaming, method.server_streaming)
    stream_type = {
        (False, False): StreamType.UNARY,
        (False, True): StreamType.SERVER_STREAM,
        (True, False): StreamType.CLIENT_STREAM,
        (True, True): StreamType.BIDI_STREAM,
    }[streams]
    side_effects = method.GetOptions().idempotency_level == method.GetOptions().NO_SIDE_EFFECTS
    return MethodInfo(
        name=method.name,
        service_name=SERVICE.full_name,
        input=message_factory.GetMessageClass(method.input_type),
        output=message_factory.GetMessageClass(method.output_type),
        idempotency_level=(
            IdempotencyLevel.NO_SIDE_EFFECTS if side_effects else IdempotencyLevel.UNKNOWN
        ),
        stream_type=stream_type,
    )


class GatewayRelay:
    """Calls the gateway's gRPC methods on behalf of Connect clients."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.channel: grpc.aio.Channel | None = None

    def _call(self, name: str, info: MethodInfo):
        if self.channel is None:
            self.channel = grpc.aio.insecure_channel(self.address)
        path = f"{PATH}/{name}"
        serialize = info.input.SerializeToString
        deserialize = info.output.FromString
        if info.stream_type == StreamType.SERVER_STREAM:
            return self.channel.unary_stream(path, serialize, deserialize)
        return self.channel.unary_unary(path, serialize, deserialize)

    @staticmethod
    def metadata(ctx) -> tuple[tuple[str, str], ...]:
        headers = ctx.request_headers
        return tuple((k, headers[k]) for k in RELAYED if headers.get(k))

    def endpoints(self) -> dict[str, Endpoint]:
        """Unary and server-streaming methods (browsers cannot send client streams)."""
        out: dict[str, Endpoint] = {}
        for method in SERVICE.methods:
            info = method_info(method)
            if info.stream_type == StreamType.UNARY:
                out[f"{PATH}/{method.name}"] = Endpoint.unary(info, self._unary(method.name, info))
            elif info.stream_type == StreamType.SERVER_STREAM:
                out[f"{PATH}/{method.name}"] = Endpoint.server_stream(
                    info, self._stream(method.name, info)
                )
        return out

    def _unary(self, name: str, info: MethodInfo):
        async def call(request, ctx):
            try:
                return await self._call(name, info)(request, metadata=self.metadata(ctx),
                                                     timeout=30)
            except grpc.aio.AioRpcError as error:
                raise relayed_error(error) from None

        return call

    def _stream(self, name: str, info: MethodInfo):
        async def call(request, ctx):
            stream = self._call(name, info)(request, metadata=self.metadata(ctx))
            try:
                async for item in stream:
                    yield item
            except grpc.aio.AioRpcError as error:
                raise relayed_error(error) from None
            finally:
                stream.cancel()

        return call

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()


class GatewayConnectApp(ConnectASGIApplication):
    """The ASGI app serving GatewayService at /parlour.gateway.v1.GatewayService/<Method>."""

    path = PATH

    def __init__(self, relay: GatewayRelay) -> None:
        games()  # every game's messages, so the JSON codec can write the Any fields
        super().__init__(
            service=relay,
            endpoints=lambda r: r.endpoints(),
            codecs=google_protobuf_codecs(),
            read_max_bytes=1 << 20,
        )
