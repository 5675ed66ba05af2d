"""buf/validate/validate.proto, taken from the installed `protovalidate` package.

The package ships the file only compiled (a FileDescriptorProto inside its generated
code), so the code generator gets it as a descriptor set (`protoc
--descriptor_set_in`), and `buf lint` gets a .proto text printed from it. Nothing is
fetched from the network.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, duration_pb2, field_mask_pb2, timestamp_pb2

NAME = "buf/validate/validate.proto"
_F = descriptor_pb2.FieldDescriptorProto
_TYPES = {
    value: name.removeprefix("TYPE_").lower()
    for name, value in _F.Type.items()
    if name not in ("TYPE_MESSAGE", "TYPE_ENUM", "TYPE_GROUP")
}
_LABELS = {
    _F.LABEL_OPTIONAL: "optional",
    _F.LABEL_REPEATED: "repeated",
    _F.LABEL_REQUIRED: "required",
}


def file_proto() -> descriptor_pb2.FileDescriptorProto:
    """The FileDescriptorProto of buf/validate/validate.proto."""
    from protovalidate._gen.buf.validate import validate_pb

    proto = descriptor_pb2.FileDescriptorProto()
    proto.ParseFromString(validate_pb._DESC.proto.to_binary())
    return proto


def descriptor_set() -> bytes:
    """A FileDescriptorSet of validate.proto and the well-known types it imports."""
    files = descriptor_pb2.FileDescriptorSet()
    for module in (descriptor_pb2, duration_pb2, field_mask_pb2, timestamp_pb2):
        module.DESCRIPTOR.CopyToProto(files.file.add())
    files.file.append(file_proto())
    return files.SerializeToString()


def _field(field: _F, indent: str) -> str:
    kind = field.type_name.lstrip(".") and f".{field.type_name.lstrip('.')}"
    kind = kind or _TYPES[field.type]
    label = "" if field.HasField("oneof_index") else _LABELS[field.label] + " "
    return f"{indent}{label}{kind} {field.name} = {field.number};"


def _enum(enum: descriptor_pb2.EnumDescriptorProto, indent: str) -> list[str]:
    lines = [f"{indent}enum {enum.name} {{"]
    lines += [f"{indent}  {v.name} = {v.number};" for v in enum.value]
    lines += [f"{indent}  reserved {r.start} to {r.end};" for r in enum.reserved_range]
    return [*lines, f"{indent}}}"]


def _message(message: descriptor_pb2.DescriptorProto, indent: str) -> list[str]:
    inner = indent + "  "
    lines = [f"{indent}message {message.name} {{"]
    for nested in message.nested_type:
        lines += _message(nested, inner)
    for enum in message.enum_type:
        lines += _enum(enum, inner)
    for field in message.field:
        if not field.HasField("oneof_index"):
            lines.append(_field(field, inner))
    for index, oneof in enumerate(message.oneof_decl):
        lines.append(f"{inner}oneof {oneof.name} {{")
        lines += [
            _field(f, inner + "  ")
            for f in message.field
            if f.HasField("oneof_index") and f.oneof_index == index
        ]
        lines.append(f"{inner}}}")
    for extensions in message.extension_range:
        end = "max" if extensions.end >= 536870912 else str(extensions.end - 1)
        lines.append(f"{inner}extensions {extensions.start} to {end};")
    for reserved in message.reserved_range:
        lines.append(f"{inner}reserved {reserved.start} to {reserved.end - 1};")
    return [*lines, f"{indent}}}"]


def source() -> str:
    """validate.proto as .proto text: its types and extensions, without their options
    (enough to compile and lint files that use the rules; not for code generation)."""
    proto = file_proto()
    lines = [f'syntax = "{proto.syntax or "proto2"}";', f"package {proto.package};"]
    lines += [f'import "{dependency}";' for dependency in proto.dependency]
    for message in proto.message_type:
        lines += _message(message, "")
    for enum in proto.enum_type:
        lines += _enum(enum, "")
    for extension in proto.extension:
        lines += [f"extend {extension.extendee} {{", _field(extension, "  "), "}"]
    return "\n".join(lines) + "\n"
