"""Server reflection under both names clients use: grpc.reflection.v1 and v1alpha.

grpcio-reflection serves only v1alpha; v1 is the same protocol (byte for byte)
under a new package, so the same servicer answers both, reading the default
descriptor pool (which also holds the game files a gateway learns at run time).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2 as alpha

V1_PACKAGE = "grpc.reflection.v1"
V1_SERVICE = f"{V1_PACKAGE}.ServerReflection"
NAMES = (V1_SERVICE, reflection.SERVICE_NAME)


def v1_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto, derived from the v1alpha file it renames."""
    proto = descriptor_pb2.FileDescriptorProto()
    alpha.DESCRIPTOR.CopyToProto(proto)
    old, new = f".{alpha.DESCRIPTOR.package}.", f".{V1_PACKAGE}."
    proto.name = "grpc/reflection/v1/reflection.proto"
    proto.package = V1_PACKAGE
    proto.ClearField("options")
    for message in proto.message_type:
        for field in message.field:
            if field.type_name:
                field.type_name = field.type_name.replace(old, new)
    for method in proto.service[0].method:
        method.input_type = method.input_type.replace(old, new)
        method.output_type = method.output_type.replace(old, new)
    return proto


def learn_files(files: Iterable[descriptor_pb2.FileDescriptorProto]) -> list[str]:
    """Add proto files (dependencies first) to the default pool; returns the names added."""
    pool = descriptor_pool.Default()
    added = []
    for file in files:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.AddSerializedFile(file.SerializeToString())
            added.append(file.name)
    return added


class Reflection(reflection.aio.ReflectionServicer):
    """The async reflection servicer; a symbol or file it does not know yet makes it
    `refresh` once (e.g. a gateway describing its games) and look again."""

    def __init__(self, names: Iterable[str], refresh: Callable[[], Awaitable] | None) -> None:
        super().__init__(names)
        self.refresh = refresh

    async def ServerReflectionInfo(self, request_iterator, context):
        async for request in request_iterator:
            async for answer in super().ServerReflectionInfo(_one(request), context):
                if answer.HasField("error_response") and self.refresh is not None:
                    try:
                        await self.refresh()
                    except Exception:  # noqa: BLE001 - the lookup's NOT_FOUND stands
                        pass
                    else:
                        async for again in super().ServerReflectionInfo(_one(request), context):
                            answer = again
                yield answer


async def _one(request):
    yield request


def enable(
    server: grpc.aio.Server,
    service_names: Iterable[str],
    refresh: Callable[[], Awaitable] | None = None,
) -> None:
    """Serve reflection (v1 and v1alpha) for the services and for reflection itself."""
    learn_files([v1_file()])
    servicer = Reflection([*service_names, *NAMES], refresh)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=alpha.ServerReflectionRequest.FromString,
        response_serializer=alpha.ServerReflectionResponse.SerializeToString,
    )
    for name in NAMES:
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": handler}),)
        )
