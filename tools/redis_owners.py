"""Where code outside parlour.store touches Redis (issue 46 item 3: only the store does).

Counts, in the gateway, services (but services/parlour/store) and clients source roots:
imports of redis-py (`import redis`, `from redis… import`), the name `aioredis`, attribute
reads of `.redis` (a store's connection: `store.redis`, `self.redis`) and `connection.connect`
(a connection of one's own). ALLOWED lists the few reads that are not connections.

    .venv/bin/python tools/redis_owners.py [ROOT]    # ROOT: a checkout (default: this one)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOTS = ("gateway/parlour", "services/parlour", "clients/parlour")
STORE = "services/parlour/store"
#: (file, expression) -> why it is not a Redis connection.
ALLOWED = {
    ("services/parlour/launcher.py", "self.redis"): (
        "LocalStack.redis is the Redis server process it starts (EmbeddedRedis: .url, "
        ".stop()), not a connection"
    ),
}


def uses_in(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, what) of each direct Redis use in one source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names
                      if a.name.split(".")[0] == "redis"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "redis":
            found.append((node.lineno, f"from {node.module} import"))
        elif isinstance(node, ast.Name) and node.id == "aioredis":
            found.append((node.lineno, "aioredis"))
        elif isinstance(node, ast.Attribute) and node.attr in ("redis", "aioredis"):
            expression = ast.unparse(node)
            if (name, expression) not in ALLOWED:
                found.append((node.lineno, expression))
        elif (isinstance(node, ast.Attribute) and node.attr == "connect"
              and isinstance(node.value, ast.Name) and node.value.id == "connection"):
            found.append((node.lineno, "connection.connect"))
    return found


def direct_uses(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, what) of every direct Redis use outside parlour.store under `root`."""
    found = []
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if name.startswith(STORE + "/") or "/v1/" in name:
                continue
            found += [(name, line, what) for line, what in sorted(uses_in(path, name))]
    return found


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    found = direct_uses(root)
    for name, line, what in found:
        print(f"{name}:{line}: {what}")
    print(f"{len(found)} direct Redis uses outside parlour.store in "
          f"{len({name for name, _, _ in found})} modules")


if __name__ == "__main__":
    main()
