"""Hatch build hook: the protobuf code is generated while the wheel is built.

`pip install .`, `pip install parlour-*.tar.gz` and `python -m build` need no dev tooling:
the build environment gets grpcio-tools (protoc) and protovalidate (the compiled
buf/validate/validate.proto) from `[build-system].requires`, this hook compiles every
file under protos/ with them and puts the `_pb2` modules into the wheel (an editable
install gets them in the source tree, where `make gen` writes them), and beside each game's
module its descriptors with their comments (`<file>.binpb`, for `parlour describe`); the
wheel also carries the browser client's bundle (clients/web/dist) as `parlour/web/dist`.
`google/*` is not generated: protobuf and googleapis-common-protos provide it. The wheel
then requires a protobuf runtime at least as new as the code generator (protobuf refuses
older ones).
"""

from __future__ import annotations

import importlib.util
import re
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Source root of each generated package in the tree (everything else: services/).
OWNERS = {"parlour/gateway/": "gateway"}


def _validate_proto(root: Path):
    """tools/validate_proto.py, loaded by path (tools/ is no package)."""
    path = root / "tools" / "validate_proto.py"
    spec = importlib.util.spec_from_file_location("validate_proto", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generate(root: Path, out: Path) -> list[Path]:
    """Compile protos/ (and buf/validate) into `out`; returns the files written."""
    import grpc_tools
    from grpc_tools import protoc

    validate = _validate_proto(root)
    descriptors = out / ".validate.binpb"
    descriptors.write_bytes(validate.descriptor_set())
    includes = [
        f"-I{root / 'protos'}",
        f"-I{Path(grpc_tools.__file__).parent / '_proto'}",
        f"-I{root / 'third_party' / 'googleapis'}",
        f"--descriptor_set_in={descriptors}",
    ]
    tree = root / "protos"
    protos = [validate.NAME, *(p.relative_to(tree).as_posix() for p in tree.rglob("*.proto"))]
    for proto in sorted(protos):
        args = ["protoc", *includes, f"--python_out={out}", f"--pyi_out={out}"]
        if proto.endswith("_service.proto"):
            args.append(f"--grpc_python_out={out}")
        if proto.startswith("parlour/games/"):  # the comments `parlour describe` prints
            shipped = out / Path(proto).with_suffix(".binpb")
            args += [f"--descriptor_set_out={shipped}", "--include_imports",
                     "--include_source_info"]
        if protoc.main([*args, proto]) != 0:
            raise RuntimeError(f"protoc failed on {proto}")
    descriptors.unlink()
    return sorted(p for p in out.rglob("*") if p.is_file())


def gencode_version(files: list[Path]) -> str:
    """The protobuf release the generated code asks for at import time."""
    pattern = r"ValidateProtobufRuntimeVersion\(\s*\S+PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+)"
    for path in files:
        found = re.search(pattern, path.read_text()) if path.suffix == ".py" else None
        if found:
            return ".".join(found.groups())
    raise RuntimeError("the generated code names no protobuf runtime version")


class ProtosHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        if version == "editable":
            with tempfile.TemporaryDirectory(prefix="parlour-protos-") as scratch:
                for path in generate(root, Path(scratch)):
                    if path.suffix == ".binpb":  # a source tree's describe reads protos/
                        continue
                    rel = path.relative_to(scratch).as_posix()
                    owner = next((r for p, r in OWNERS.items() if rel.startswith(p)), "services")
                    target = root / owner / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(path.read_bytes())
            return
        self._scratch = tempfile.TemporaryDirectory(prefix="parlour-protos-")
        scratch = Path(self._scratch.name)
        files = generate(root, scratch)
        for path in files:
            build_data["force_include"][str(path)] = path.relative_to(scratch).as_posix()
        build_data["dependencies"].append(f"protobuf>={gencode_version(files)}")
        # the browser client's committed bundle, which `parlour serve-web` (and `up`) serves
        build_data["force_include"][str(root / "clients" / "web" / "dist")] = "parlour/web/dist"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if getattr(self, "_scratch", None) is not None:
            self._scratch.cleanup()
