"""Generate Python code for every .proto under protos/ without buf, for images without Node.

`make gen` uses buf (buf.gen.yaml, tools/protoc_gen_parlour_python.py) instead.

Each file is generated into the source root that owns its package:
parlour/gateway/... into gateway/, everything else into services/.
buf/validate/validate.proto (the field rules checked by protovalidate) comes from
the installed `protovalidate` package as a descriptor set (tools/validate_proto.py)
and is generated into services/ too. No network is needed.
Generated files are git-ignored and carry protoc's DO NOT EDIT banner.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import grpc_tools
import validate_proto
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
OWNERS = {"parlour/gateway/": ROOT / "gateway"}
DEFAULT_OWNER = ROOT / "services"


def include_paths() -> list[str]:
    """protos/, protobuf's well-known types and googleapis' google/rpc."""
    import google.rpc

    paths = [str(PROTOS), str(Path(grpc_tools.__file__).parent / "_proto")]
    paths += [str(Path(p).parent.parent) for p in google.rpc.__path__]
    return paths


def owner(proto: Path) -> Path:
    rel = proto.relative_to(PROTOS).as_posix()
    return next((root for prefix, root in OWNERS.items() if rel.startswith(prefix)), DEFAULT_OWNER)


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        descriptors = Path(scratch) / "validate.binpb"
        descriptors.write_bytes(validate_proto.descriptor_set())
        includes = [f"-I{p}" for p in include_paths()] + [f"--descriptor_set_in={descriptors}"]
        jobs = [(validate_proto.NAME, DEFAULT_OWNER)]
        jobs += [(str(p), owner(p)) for p in sorted(PROTOS.rglob("*.proto"))]
        for proto, out in jobs:
            args = ["protoc", *includes, f"--python_out={out}", f"--pyi_out={out}"]
            if proto.endswith("_service.proto"):
                args.append(f"--grpc_python_out={out}")
            if protoc.main([*args, proto]) != 0:
                print(f"protoc failed on {proto}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
