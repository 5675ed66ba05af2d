"""Issue 34: the public protos' comments name each platform refusal with the gRPC code the
code answers (parlour/rpc/reasons.py; DESIGN, Quality bars: INVALID_ARGUMENT is malformed
input, FAILED_PRECONDITION is illegal now, e.g. identity off on this gateway)."""

from __future__ import annotations

import re
from pathlib import Path

import grpc

from parlour.rpc.reasons import PLATFORM_REASONS

PROTOS = Path(__file__).resolve().parents[1] / "protos"
CODES = "|".join(grpc.StatusCode.__members__)
#: "<CODE> <REASON>" in a comment, possibly across a line break.
PAIR = re.compile(rf"\b({CODES})\s+(?://\s*)?([A-Z][A-Z0-9_]+)\b")


def test_proto_comments_name_each_reason_with_its_code():
    """Every "<CODE> <REASON>" a proto comment names for a platform reason is the code the
    gateway answers with (inviting subjects without identity: FAILED_PRECONDITION)."""
    named = [
        (path.name, code, reason)
        for path in sorted(PROTOS.rglob("*.proto"))
        for code, reason in PAIR.findall(path.read_text())
        if reason in PLATFORM_REASONS
    ]
    assert ("gateway.proto", "FAILED_PRECONDITION", "IDENTITY_NOT_ENABLED") in named
    wrong = [n for n in named if PLATFORM_REASONS[n[2]][0] != n[1]]
    assert not wrong, f"proto comments disagree with parlour/rpc/reasons.py: {wrong}"
