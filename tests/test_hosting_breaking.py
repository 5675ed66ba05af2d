"""Issue 10 item 8: `make breaking` compares the contracts with an earlier commit and fails on
a wire-breaking change (it used to fail always: the compared tree had no google/rpc deps)."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# loaded by path: a top-level `buf` package (protovalidate's generated code) may be imported
_spec = importlib.util.spec_from_file_location("buf_tool", ROOT / "tools" / "buf.py")
buf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(buf)

pytestmark = pytest.mark.xdist_group("buf")


@pytest.fixture
def head_tree(tmp_path):
    """The committed contracts (HEAD) as a buf workspace, with the shared deps."""
    tree = tmp_path / "head"
    tree.mkdir()
    buf.export_ref("HEAD", tree)
    return tree


def test_unchanged_contracts_pass(head_tree, tmp_path):
    """The same protos as HEAD are not a breaking change."""
    same = tmp_path / "same"
    shutil.copytree(head_tree, same)
    assert buf.breaking(head_tree, tree=same) == 0


def test_renumbered_field_fails(head_tree, tmp_path):
    """Changing a field number in rules.proto is reported as breaking."""
    changed = tmp_path / "changed"
    shutil.copytree(head_tree, changed)
    proto = changed / "protos" / "parlour" / "rules" / "v1" / "rules.proto"
    text, count = re.subn(r" = 1;", " = 99;", proto.read_text(), count=1)
    assert count == 1
    proto.write_text(text)
    assert buf.breaking(head_tree, tree=changed) != 0


def test_accepted_break_passes_and_a_new_one_fails(head_tree, tmp_path):
    """A break listed in breaking-accepted.yaml passes (so checks against commits from before
    it stay green), while any other break next to it is still reported."""
    old = tmp_path / "old"
    shutil.copytree(head_tree, old)
    proto = old / "protos" / "parlour" / "gateway" / "v1" / "gateway.proto"
    text = proto.read_text().replace(
        'import "google/protobuf/any.proto";\n',
        'import "google/protobuf/any.proto";\nimport "parlour/rules/v1/rules.proto";\n',
    )
    old_type = "\n  parlour.rules.v1.GameInfo info = 2;"
    text, count = re.subn(r"\n  GameInfo info = 2;", old_type, text)
    assert count == 1
    proto.write_text(text)
    assert buf.breaking(old, tree=head_tree) == 0
    renumbered = tmp_path / "renumbered"
    shutil.copytree(head_tree, renumbered)
    rules = renumbered / "protos" / "parlour" / "rules" / "v1" / "rules.proto"
    rules.write_text(rules.read_text().replace(" = 1;", " = 99;", 1))
    assert buf.breaking(old, tree=renumbered) != 0
