"""Decode and check request messages before any handler sees them.

Each method's request deserializer parses the bytes and checks the contract's field
rules (protovalidate annotations). Bytes that do not parse (junk, truncated, nested
too deep) and messages that break a rule become a `Refused` marker instead of an
exception inside gRPC (which would answer UNKNOWN with a Python exception name):
`guarded` turns it into INVALID_ARGUMENT, and streaming handlers see it in their
request iterator.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
import protovalidate
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError, Message

from parlour.rpc.errors import Refused, ServiceError, classify, invalid_argument

_validator = protovalidate.Validator()


def field_path(violation: protovalidate.Violation) -> str:
    """'action.request_id', 'seats[2].display_name' for a violation's field."""
    parts = []
    for element in violation.proto.field.elements:
        name = element.field_name
        if element.has_field("index"):
            name += f"[{element.subscript.value}]"
        parts.append(name)
    return ".".join(parts)


def bad_fields(violations: list[protovalidate.Violation]) -> ServiceError:
    """INVALID_ARGUMENT with one BadRequest field violation per broken rule."""
    found = [
        (field_path(v), v.proto.message, v.proto.rule_id.upper().replace(".", "_"))
        for v in violations
    ]
    field, description, _ = found[0]
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_FIELD",
        f"{field}: {description}",
        field=field,
        violations=found,
    )


def check(message: Message) -> None:
    """Raise INVALID_ARGUMENT (BadRequest) if the message breaks its field rules."""
    violations = _validator.collect_violations(message)
    if violations:
        raise bad_fields(violations)


def decoder(message_type: type[Message]) -> Callable[[bytes], Message | Refused]:
    """Parse and check one request message, or say why it is refused."""

    def decode(data: bytes) -> Message | Refused:
        try:
            message = message_type.FromString(data)
        except (DecodeError, RecursionError):
            return Refused(
                invalid_argument("request", "the request bytes do not parse", "MALFORMED_REQUEST")
            )
        try:
            check(message)
        except Exception as error:  # noqa: BLE001 - a broken rule, or a bug shown as INTERNAL
            return Refused(classify(error))
        return message

    return decode


def encoder(message_type: type[Message]) -> Callable[[Message | bytes], bytes]:
    """Serialize a response; bytes (a message encoded once for many streams) pass as they are."""
    serialize = message_type.SerializeToString

    def encode(message: Message | bytes) -> bytes:
        return message if type(message) is bytes else serialize(message)

    return encode


def checked_handler(service: ServiceDescriptor, servicer: object) -> grpc.GenericRpcHandler:
    """A handler for every method of `service`, decoding requests with `decoder`."""
    handlers = {}
    for method in service.methods:
        request_type = message_factory.GetMessageClass(method.input_type)
        response_type = message_factory.GetMessageClass(method.output_type)
        kind = {
            (False, False): grpc.unary_unary_rpc_method_handler,
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, False): grpc.stream_unary_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler,
        }[(method.client_streaming, method.server_streaming)]
        handlers[method.name] = kind(
            getattr(servicer, method.name),
            request_deserializer=decoder(request_type),
            response_serializer=encoder(response_type),
        )
    return grpc.method_handlers_generic_handler(service.full_name, handlers)
