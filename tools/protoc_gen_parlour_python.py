"""A protoc plugin (run by `buf generate`, see buf.gen.yaml): the Python code of every file.

It hands the request's files to the protoc compiler that grpcio-tools ships
(same version as the runtime), with --python_out, --pyi_out and, for
*_service.proto, --grpc_python_out, and writes each file into the source root
that owns its package: parlour/gateway/... into gateway/, everything else
into services/ (both relative to the plugin's out directory, the repo root).
Imports are generated too (buf's include_imports), except google/* (the protobuf
and googleapis-common-protos packages provide them); buf/validate/validate.proto is
generated from the real descriptor the protovalidate package ships
(tools/validate_proto.py), not from the text buf compiled.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc

sys.path.insert(0, str(Path(__file__).resolve().parent))
import validate_proto  # noqa: E402

OWNERS = {"parlour/gateway/": "gateway"}
DEFAULT_OWNER = "services"


def owner(name: str) -> str:
    """The source root of a generated file, from its proto path."""
    return next((root for prefix, root in OWNERS.items() if name.startswith(prefix)), DEFAULT_OWNER)


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    with tempfile.TemporaryDirectory() as tmp:
        descriptors = Path(tmp) / "files.binpb"
        files = [
            validate_proto.file_proto() if f.name == validate_proto.NAME else f
            for f in request.proto_file
        ]
        descriptors.write_bytes(descriptor_pb2.FileDescriptorSet(file=files).SerializeToString())
        out = Path(tmp) / "out"
        out.mkdir()
        for name in request.file_to_generate:
            if name.startswith("google/"):
                continue
            args = [
                "protoc",
                f"--descriptor_set_in={descriptors}",
                f"--python_out={out}",
                f"--pyi_out={out}",
            ]
            if name.endswith("_service.proto"):
                args.append(f"--grpc_python_out={out}")
            if protoc.main([*args, name]) != 0:
                response.error = f"protoc failed on {name}"
                return response
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            rel = path.relative_to(out).as_posix()
            response.file.add(name=f"{owner(rel)}/{rel}", content=path.read_text())
    return response


def main() -> None:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    sys.stdout.buffer.write(generate(request).SerializeToString())


if __name__ == "__main__":
    main()
