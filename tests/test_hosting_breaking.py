"""Issue 10 item 8: `make breaking` compares the contracts with an earlier commit and fails on
a wire-breaking change (it used to fail always: the compared tree had no google/rpc deps)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
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
