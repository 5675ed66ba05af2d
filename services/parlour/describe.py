"""`parlour describe GAME`: the game's Options, Action, Event and View messages, and every
message and enum of the game they use, with the comments of its .proto.

The comments come from local descriptors, not from the server: reflection serves the
generated descriptors, which carry no comments. A built wheel ships `<file>.binpb` (a
FileDescriptorSet with source info, made by hatch_build.py) beside each game's generated
module; in a source tree the game's .proto under protos/ is compiled with grpcio-tools.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2

from parlour.engine.game import Game

Field = descriptor_pb2.FieldDescriptorProto
#: SourceCodeInfo path numbers (descriptor.proto): a file's messages and enums, a message's
#: fields, nested messages, nested enums and oneofs, an enum's values.
FILE_MESSAGE, FILE_ENUM, FIELD, NESTED, NESTED_ENUM, ONEOF, VALUE = 4, 5, 2, 3, 4, 8, 2
SCALARS = {v: n.removeprefix("TYPE_").lower() for n, v in Field.Type.items()}


def descriptor_set(file_name: str, module_file: str) -> descriptor_pb2.FileDescriptorSet:
    """The FileDescriptorSet (with source info) of `file_name`, whose generated module is
    `module_file`: the shipped one, else compiled from the source tree's protos/."""
    shipped = Path(module_file).with_name(Path(file_name).stem + ".binpb")
    if shipped.exists():
        return descriptor_pb2.FileDescriptorSet.FromString(shipped.read_bytes())
    tree = next((p / "protos" for p in Path(module_file).parents if (p / "protos").is_dir()), None)
    if tree is None or not (tree / file_name).exists():
        raise FileNotFoundError(f"no descriptors of {file_name} (neither shipped nor in protos/)")
    return compile_protos(tree, [file_name])


def compile_protos(tree: Path, names: list[str]) -> descriptor_pb2.FileDescriptorSet:
    """Compile `names` under `tree` (with imports and source info) with grpcio-tools."""
    import grpc_tools
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "set.binpb"
        includes = [tree, Path(grpc_tools.__file__).parent / "_proto",
                    tree.parent / "third_party" / "googleapis"]
        args = ["protoc", *(f"-I{p}" for p in includes), f"--descriptor_set_out={out}",
                "--include_imports", "--include_source_info", *names]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {names}")
        return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


class Catalogue:
    """Every message and enum of a descriptor set by full name, with its comments."""

    def __init__(self, files: descriptor_pb2.FileDescriptorSet) -> None:
        self.types: dict[str, tuple[object, descriptor_pb2.FileDescriptorProto, tuple]] = {}
        self.comments: dict[tuple[str, tuple], str] = {}
        for file in files.file:
            for location in file.source_code_info.location:
                text = location.leading_comments or location.trailing_comments
                if text.strip():
                    lines = [line.removeprefix(" ").rstrip() for line in text.splitlines()]
                    self.comments[(file.name, tuple(location.path))] = "\n".join(lines).strip("\n")
            prefix = f".{file.package}" if file.package else ""
            self._add(file, prefix, file.message_type, file.enum_type, (), FILE_MESSAGE, FILE_ENUM)

    def _add(self, file, prefix, messages, enums, path, message_tag, enum_tag) -> None:
        for i, enum in enumerate(enums):
            self.types[f"{prefix}.{enum.name}"] = (enum, file, (*path, enum_tag, i))
        for i, message in enumerate(messages):
            here = (*path, message_tag, i)
            self.types[f"{prefix}.{message.name}"] = (message, file, here)
            self._add(file, f"{prefix}.{message.name}", message.nested_type, message.enum_type,
                      here, NESTED, NESTED_ENUM)

    def comment(self, file, path: tuple, indent: str) -> list[str]:
        text = self.comments.get((file.name, path), "")
        return [f"{indent}// {line}".rstrip() for line in text.splitlines()] if text else []


def describe(game: Game) -> str:
    """The text `parlour describe` prints for `game`."""
    roots = [game.options_type, game.action_type, game.event_type, game.view_type]
    module = sys.modules[roots[0].__module__]
    catalogue = Catalogue(descriptor_set(module.DESCRIPTOR.name, module.__file__))
    package = module.DESCRIPTOR.package
    lines = [f"// {game.display_name} ({game.name}): package {package}",
             "// Options, Action, Event and View, then the types they use."]
    queue = [f".{t.DESCRIPTOR.full_name}" for t in roots]
    seen: set[str] = set()
    while queue:
        name = queue.pop(0)
        if name in seen or name not in catalogue.types:
            continue
        seen.add(name)
        text, used = render(catalogue, name, package)
        lines += ["", *text]
        queue += [u for u in used if u.startswith(f".{package}.")]
    return "\n".join(lines)


def render(catalogue: Catalogue, name: str, package: str) -> tuple[list[str], list[str]]:
    """One message or enum as .proto text, and the type names its fields use."""
    proto, file, path = catalogue.types[name]
    short = name.removeprefix(f".{package}.")
    lines = catalogue.comment(file, path, "")
    if isinstance(proto, descriptor_pb2.EnumDescriptorProto):
        lines.append(f"enum {short} {{")
        for i, value in enumerate(proto.value):
            lines += catalogue.comment(file, (*path, VALUE, i), "  ")
            lines.append(f"  {value.name} = {value.number};")
        return [*lines, "}"], []
    lines.append(f"message {short} {{")
    used: list[str] = []
    oneofs: dict[int, list[str]] = {}
    for i, field in enumerate(proto.field):
        in_oneof = field.HasField("oneof_index") and not field.proto3_optional
        indent = "    " if in_oneof else "  "
        text = [*catalogue.comment(file, (*path, FIELD, i), indent),
                f"{indent}{field_type(catalogue, field, package, used)} {field.name}"
                f" = {field.number};"]
        if in_oneof:
            oneofs.setdefault(field.oneof_index, []).extend(text)
        else:
            lines += text
    for index, body in oneofs.items():
        lines += catalogue.comment(file, (*path, ONEOF, index), "  ")
        lines += [f"  oneof {proto.oneof_decl[index].name} {{", *body, "  }"]
    return [*lines, "}"], used


def field_type(catalogue: Catalogue, field, package: str, used: list[str]) -> str:
    """A field's type as written in .proto (maps as map<K, V>); records message types."""
    if field.type not in (Field.TYPE_MESSAGE, Field.TYPE_ENUM):
        kind = SCALARS[field.type]
    else:
        entry = catalogue.types.get(field.type_name, (None,))[0]
        if isinstance(entry, descriptor_pb2.DescriptorProto) and entry.options.map_entry:
            key, value = (field_type(catalogue, f, package, used) for f in entry.field)
            return f"map<{key}, {value}>"
        used.append(field.type_name)
        kind = field.type_name.removeprefix(f".{package}.").lstrip(".")
    repeated = field.label == Field.LABEL_REPEATED
    optional = field.proto3_optional
    return ("repeated " if repeated else "optional " if optional else "") + kind

