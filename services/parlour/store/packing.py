"""Redis command packing without a Python step per argument.

redis-py's hiredis serializer runs its Encoder over every argument in Python before hiredis
packs them; a commit's EVALSHA carries about thirty. `Packer` hands a command whose
arguments are all bytes, str or int (no bool) straight to `hiredis.pack_command`, which
encodes them the same way (str as UTF-8, int in decimal) in C, and leaves anything else
(floats, memoryviews, a command name with a space in it) to redis-py's own serializer.
"""

from __future__ import annotations

import hiredis
from redis.connection import HiredisRespSerializer

#: Argument types hiredis packs exactly as redis-py's Encoder would.
_PLAIN = frozenset((bytes, str, int))


class Packer:
    """Packs a connection's commands; `fallback` is the connection's own serializer."""

    def __init__(self, fallback: HiredisRespSerializer) -> None:
        self._fallback = fallback

    def pack(self, *args) -> list[bytes]:
        if set(map(type, args)) <= _PLAIN and " " not in str(args[0]):
            return [hiredis.pack_command(args)]
        return self._fallback.pack(*args)


def install(client) -> None:
    """Make every connection `client`'s pool opens pack with `Packer` (standalone and
    Sentinel clients; a Cluster client's nodes keep redis-py's packing)."""
    pool = getattr(client, "connection_pool", None)
    if pool is None:
        return
    make = pool.make_connection

    def make_connection():
        made = make()
        if made._command_packer is not None:  # hiredis is there
            made._command_packer = Packer(made._command_packer)
        return made

    pool.make_connection = make_connection
