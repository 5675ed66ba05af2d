"""Issue 10 item 3: the gateway spreads matches over every replica behind one name.

Three replicas of a game listen on one port at 127.0.0.2-4; a real DNS server (UDP, on
loopback, started here) answers the name with their addresses, as a Kubernetes headless
Service answers with its ready pods. The gateway resolves it (PARLOUR_DNS_SERVER),
re-resolves it, and routes by rendezvous over the live set.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
from collections import Counter

import dns.message
import dns.rcode
import dns.rdatatype
import dns.rrset
import grpc

from parlour.client import GatewayClient
from parlour.engine.rng import Rng
from parlour.launcher import LocalStack, Process, wait_serving

NAME = "rules-{game}.parlour.test"
HOSTS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]


class DnsServer:
    """A tiny authoritative DNS server on a loopback UDP port: A records from `records`."""

    def __init__(self) -> None:
        self.records: dict[str, list[str]] = {}
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                data, peer = self.sock.recvfrom(4096)
            except OSError:
                return
            query = dns.message.from_wire(data)
            reply = dns.message.make_response(query)
            question = query.question[0]
            name = question.name.to_text().rstrip(".")
            if name not in self.records:
                reply.set_rcode(dns.rcode.NXDOMAIN)
            elif question.rdtype == dns.rdatatype.A and self.records[name]:
                reply.answer.append(
                    dns.rrset.from_text(question.name, 0, "IN", "A", *self.records[name])
                )
            self.sock.sendto(reply.to_wire(), peer)

    def __enter__(self) -> DnsServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


async def play_until(client, seed: int, stop: asyncio.Event, tally: Counter) -> None:
    """Play matches until `stop` (no client-side retry); count actions and failures."""
    rng = Rng.from_seed(seed)
    while not stop.is_set():
        try:
            match = await client.create_match("tinycards", 2, seed=seed)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            progress = (await players[0].get_view()).progress
            while not progress.HasField("outcome") and not stop.is_set():
                player = players[progress.pending[0].seat]
                legal = (await player.actions()).actions
                progress = (await player.submit(legal[rng.below(len(legal))])).result.progress
                tally["actions"] += 1
            tally["matches"] += 1
        except grpc.aio.AioRpcError as error:
            tally[error.code().name] += 1


async def until(condition, timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not await asyncio.to_thread(condition):
            await asyncio.sleep(0.05)


def actions(proc: Process) -> float:
    return proc.metric("parlour_actions_total", {"game": "tinycards"})


def replicas(stack: LocalStack, state: str) -> float:
    return stack.gateway.metric("parlour_rules_replicas", {"game": "tinycards", "state": state})


async def test_item3_replicas_behind_one_name_share_matches_and_join_and_leave_cleanly():
    name = NAME.format(game="tinycards")
    with DnsServer() as server:
        server.records[name] = list(HOSTS)
        env = {"PARLOUR_DNS_SERVER": server.address, "PARLOUR_DISCOVERY_SECONDS": "0.2"}
        stack = LocalStack(["tinycards"], replicas=3, hosts=HOSTS, rules_name=NAME, env=env)
        with stack:
            first, second, third = stack.rules["tinycards"]
            tally: Counter = Counter()
            stop = asyncio.Event()
            async with GatewayClient(stack.address) as client:
                games = [play_until(client, seed, stop, tally) for seed in range(8)]
                players = [asyncio.create_task(game) for game in games]
                try:
                    # Every replica gets matches.
                    await until(lambda: all(actions(p) > 0 for p in (first, second, third)))
                    # One leaves: out of DNS first, then drained.
                    server.records[name] = HOSTS[:2]
                    await until(lambda: replicas(stack, "live") == 2)
                    await asyncio.to_thread(third.stop, signal.SIGTERM)
                    # One joins on a new address.
                    fourth = stack.start_rules("tinycards", "127.0.0.5", first.port)
                    stack.rules["tinycards"].append(fourth)
                    await asyncio.to_thread(wait_serving, fourth)
                    server.records[name] = [*HOSTS[:2], "127.0.0.5"]
                    await until(lambda: replicas(stack, "live") == 3)
                    await until(lambda: actions(fourth) > 0)
                    before = tally["matches"]
                    await until(lambda: tally["matches"] >= before + 8)
                finally:
                    stop.set()
                    await asyncio.gather(*players)
        failures = {k: n for k, n in tally.items() if k not in ("actions", "matches")}
        assert failures == {}, failures
