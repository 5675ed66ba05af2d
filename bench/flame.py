"""Flame graphs as standalone SVG from folded stacks ("root;child;leaf count" lines), and
`perf script` output folded the same way (Redis has no Python frames for py-spy)."""

from __future__ import annotations

import html
import zlib
from collections.abc import Iterable

WIDTH, ROW, FONT_PX, CHAR_PX = 1200, 16, 11, 6.6
MIN_PX = 0.3


class Node:
    __slots__ = ("name", "count", "children")

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0
        self.children: dict[str, Node] = {}


def tree(folded: Iterable[tuple[list[str], int]]) -> Node:
    """The call tree of (frames root first, samples) pairs."""
    root = Node("all")
    for frames, count in folded:
        node = root
        node.count += count
        for frame in frames:
            node = node.children.setdefault(frame, Node(frame))
            node.count += count
    return root


def _depth(node: Node) -> int:
    return 1 + max((_depth(c) for c in node.children.values()), default=0)


def _colour(name: str) -> str:
    """Warm hues for native frames, green-blue for Python ones (which name a .py file)."""
    h = zlib.crc32(name.encode())
    if ".py" in name:
        return f"rgb({60 + h % 60},{150 + (h >> 8) % 80},{120 + (h >> 16) % 100})"
    return f"rgb({205 + h % 50},{90 + (h >> 8) % 110},{40 + (h >> 16) % 40})"


def svg(root: Node, title: str) -> str:
    """The flame graph: the root at the bottom, width = share of samples; hover for names."""
    if not root.count:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="40">'
            f'<text x="10" y="24">{html.escape(title)}: no samples</text></svg>\n'
        )
    depth = _depth(root)
    height = (depth + 2) * ROW + 10
    scale = WIDTH / root.count
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'font-family="monospace" font-size="{FONT_PX}">',
        f'<rect width="{WIDTH}" height="{height}" fill="#fafafa"/>',
        f'<text x="6" y="{ROW}">{html.escape(title)} ({root.count} samples)</text>',
    ]

    def draw(node: Node, x: float, level: int) -> None:
        w = node.count * scale
        if w < MIN_PX:
            return
        y = height - (level + 1) * ROW - 4
        share = 100 * node.count / root.count
        label = html.escape(f"{node.name} ({node.count} samples, {share:.1f}%)")
        parts.append(
            f'<g><title>{label}</title><rect x="{x:.1f}" y="{y}" width="{w:.1f}" '
            f'height="{ROW - 1}" fill="{_colour(node.name)}"/>'
        )
        chars = int((w - 4) / CHAR_PX)
        if chars >= 3:
            text = node.name if len(node.name) <= chars else node.name[: chars - 2] + ".."
            parts.append(f'<text x="{x + 2:.1f}" y="{y + ROW - 4}">{html.escape(text)}</text>')
        parts.append("</g>")
        for child in sorted(node.children.values(), key=lambda c: c.name):
            draw(child, x, level + 1)
            x += child.count * scale

    draw(root, 0.0, 0)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def fold_perf_script(text: str) -> list[tuple[list[str], int]]:
    """`perf script` samples as (frames root first, 1); frames are 'function (library)'."""
    out: list[tuple[list[str], int]] = []
    frames: list[str] | None = None
    for line in text.splitlines():
        if not line.strip():
            if frames:
                out.append((frames[::-1], 1))
            frames = None
            continue
        if not line[0].isspace():
            frames = []
            continue
        if frames is None:
            continue
        _, _, rest = line.strip().partition(" ")
        func, _, dso = rest.rpartition(" (")
        func = func.split("+0x", 1)[0] or "[unknown]"
        library = dso.rstrip(")").rsplit("/", 1)[-1]
        frames.append(f"{func} ({library})")
    if frames:
        out.append((frames[::-1], 1))
    return out
