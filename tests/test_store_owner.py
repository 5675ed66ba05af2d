"""Only parlour.store touches Redis (issue 46 item 3): the gateway, rules, notify, client and
the rest of services ask the store by meaning (tools/redis_owners.py scans them)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# loaded by path: tools/ on sys.path would let tools/buf.py hide the buf package
_spec = importlib.util.spec_from_file_location("redis_owners", ROOT / "tools" / "redis_owners.py")
owners = sys.modules["redis_owners"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(owners)


def test_nothing_outside_the_store_touches_redis():
    found = owners.direct_uses(ROOT)
    assert not found, "Redis used outside parlour.store (ask the store by meaning):\n" + "\n".join(
        f"{name}:{line}: {what}" for name, line, what in found
    )


def test_every_allowance_is_still_there():
    for (name, expression), why in owners.ALLOWED.items():
        assert why and expression in (ROOT / name).read_text(), (name, expression)


def test_the_scan_finds_each_kind_of_use(tmp_path):
    gateway = tmp_path / "gateway" / "parlour" / "gateway"
    gateway.mkdir(parents=True)
    (gateway / "bad.py").write_text(
        "import redis\n"
        "import redis.asyncio as aioredis\n"
        "from redis.exceptions import ResponseError\n"
        "from parlour.store import connection\n"
        "async def f(store, url):\n"
        "    await store.redis.hget('k', 'f')\n"
        "    client = connection.connect(url)\n"
        "    return aioredis, client, ResponseError\n"
    )
    store = tmp_path / "services" / "parlour" / "store"
    store.mkdir(parents=True)
    (store / "fine.py").write_text("import redis\nx = object().redis\n")
    found = owners.direct_uses(tmp_path)
    assert [(line, what) for _, line, what in found] == [
        (1, "import redis"),
        (2, "import redis.asyncio"),
        (3, "from redis.exceptions import"),
        (6, "store.redis"),
        (7, "connection.connect"),
        (8, "aioredis"),
    ]
    assert {name for name, _, _ in found} == {"gateway/parlour/gateway/bad.py"}
