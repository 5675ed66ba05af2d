"""Spectator readers for bench/sizing.py (issue 31 item 3), one process of many: one
Python process cannot read 1,000 streams at 10k deliveries/s, so the readers are spread
over processes as the spectators are spread over the gateway's workers.

    python -m bench.spectate ADDRESS MATCH SPECTATORS CONNECTIONS

Opens SPECTATORS StreamEvents calls on CONNECTIONS connections of its own (the kernel
spreads connections over the gateway's workers), prints {"ready": true} once every call
is open, and when the match finishes one JSON line: per event version, the arrival times
(time.monotonic, the clock the parent stamps submissions with) and the events each call saw;
then exits when its stdin ends (so the parent reads its CPU time first).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw

#: Each client its own connection: channels to one target otherwise share one.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


async def watch(client: GatewayClient, match: str, arrivals: dict[int, list[float]]) -> int:
    """Read one spectator stream to the match's end; the events it saw."""
    seen = 0
    call = client.stub.StreamEvents(gw.StreamEventsRequest(match=match, progress_with_events=True))
    async for item in call:
        kind = item.WhichOneof("kind")
        now = time.monotonic()
        for event in {"event": [item.event], "batch": item.batch.events}.get(kind, []):
            arrivals.setdefault(event.version, []).append(now)
            seen += 1
        if kind == "finished":
            break
    return seen


async def main(address: str, match: str, count: int, connections: int) -> None:
    clients = [GatewayClient(address, channel_options=OWN_CONNECTION) for _ in range(connections)]
    try:
        for client in clients:
            await client.channel.channel_ready()
        arrivals: dict[int, list[float]] = {}
        watchers = [
            asyncio.create_task(watch(clients[i % connections], match, arrivals))
            for i in range(count)
        ]
        print(json.dumps({"ready": True}), flush=True)
        seen = await asyncio.gather(*watchers)
        print(json.dumps({"arrivals": arrivals, "seen": seen}), flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the parent has read this CPU
    finally:
        for client in clients:
            await client.close()


if __name__ == "__main__":
    import uvloop

    address, match, count, connections = sys.argv[1:5]
    uvloop.run(main(address, match, int(count), int(connections)))
