"""docs/reference.md, generated from the code: every refusal reason and decision kind.

`python -m parlour.reference` rewrites the file; tests/test_api_reference.py
fails when the file is stale or when code can raise an undeclared reason.
"""

from __future__ import annotations

from pathlib import Path

from parlour.engine.registry import games
from parlour.rpc.reasons import PLATFORM_REASONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference.md"

HEADER = """\
# Reference: error reasons and decision kinds

Generated from the code by `python -m parlour.reference`; do not edit by hand.

A refused call ends with a `google.rpc.Status` whose details hold an
`ErrorInfo` (domain `parlour`, `reason` below, sometimes `metadata`) and, for a
bad field, a `BadRequest` with its field violations. On the Play stream a
refused action is an `ActionAck` with the same `code`, `reason`,
`field_violations` and `metadata`. A game refuses an illegal action with
`FAILED_PRECONDITION` and one of its reasons. Every `Decision` in a
`MatchProgress` names the seat and one of the game's decision kinds.
"""


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def render() -> str:
    """The reference document's text."""
    lines = [HEADER, "## Platform reasons", ""]
    lines += _table(
        ("reason", "gRPC code", "meaning"),
        [(f"`{r}`", code, text) for r, (code, text) in sorted(PLATFORM_REASONS.items())],
    )
    for name, game in sorted(games().items()):
        lines += [
            "",
            f"## {game.display_name} (`{name}`)",
            "",
            "Refusals (`FAILED_PRECONDITION`):",
            "",
        ]
        lines += _table(
            ("reason", "meaning"), [(f"`{r}`", t) for r, t in sorted(game.reasons.items())]
        )
        lines += ["", "Decision kinds:", ""]
        lines += _table(
            ("kind", "meaning"), [(f"`{k}`", t) for k, t in game.decision_kinds.items()]
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    DOC.write_text(render())
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
