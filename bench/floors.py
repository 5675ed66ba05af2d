"""The floors: what bare grpc.aio (and one Redis call) costs here, measured in the same run.

Servers (each its own process on uvloop, like the stack's):
    python -m bench.floors echo  PORT RESPONSE_BYTES [REDIS_URL]
    python -m bench.floors proxy PORT UPSTREAM
    python -m bench.floors evalsha REDIS_URL WORKERS WARMUP DURATION   (prints its JSON)

The echo server answers `/bench.Echo/Unary` and `/bench.Echo/UnaryRedis` (the
latter after one EVALSHA of a tiny Lua script) with RESPONSE_BYTES bytes, and
echoes every message of the bidirectional `/bench.Echo/Stream` with a reply of
RESPONSE_BYTES bytes. The proxy forwards `/bench.Proxy/<method>` to the echo
server's `/bench.Echo/<method>` over one channel. Messages are raw bytes (no
protobuf work), so the floors are pure transport.

Floors (client in the bench process, closed loop, one call in flight per worker):
    unary_echo        client -> echo                       (one unary hop)
    two_hops          client -> proxy -> echo               (two unary hops)
    two_hops_redis    client -> proxy -> echo + EVALSHA     (two hops + one Redis round trip)
    stream_echo       one bidi stream per worker, message -> reply round trip
    stream_mux        ONE bidi stream shared by all workers, one message in flight per worker
                      (the shape of the gateway's ActLink to a rules replica)
    evalsha           WORKERS asyncio tasks of one process, each doing EVALSHA of the tiny
                      script in a closed loop through the store's client (its connection
                      settings and packer): one Redis call's cost to its caller, which that
                      process measures itself (its CPU from the first call to the last)

Each result's `calls` counts every call completed, warm-up included: CPU per call is the
CPU of the whole run divided by it (`ops` counts only the measured window's calls).
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

import grpc

from bench.stats import summarize_ms

TINY_SCRIPT = "redis.call('INCR', KEYS[1]) return ARGV[1]"
OPTIONS = [("grpc.so_reuseport", 0)]


# -- servers ------------------------------------------------------------------------------
async def serve_echo(port: int, response_bytes: int, redis_url: str | None) -> None:
    reply = b"r" * response_bytes
    redis_client = sha = None
    if redis_url:
        import redis.asyncio as aioredis

        redis_client = aioredis.from_url(redis_url, max_connections=256)
        sha = await redis_client.script_load(TINY_SCRIPT)

    async def unary(request: bytes, context) -> bytes:
        return reply

    async def unary_redis(request: bytes, context) -> bytes:
        await redis_client.evalsha(sha, 1, "bench:floor", b"1")
        return reply

    async def stream(request_iterator, context):
        async for _ in request_iterator:
            yield reply

    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(unary),
        "UnaryRedis": grpc.unary_unary_rpc_method_handler(unary_redis),
        "Stream": grpc.stream_stream_rpc_method_handler(stream),
    }
    server = grpc.aio.server(options=OPTIONS)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Echo", handlers)])
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


async def serve_proxy(port: int, upstream: str) -> None:
    channel = grpc.aio.insecure_channel(upstream)
    plain = channel.unary_unary("/bench.Echo/Unary")
    with_redis = channel.unary_unary("/bench.Echo/UnaryRedis")

    async def unary(request: bytes, context) -> bytes:
        return await plain(request)

    async def unary_redis(request: bytes, context) -> bytes:
        return await with_redis(request)

    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(unary),
        "UnaryRedis": grpc.unary_unary_rpc_method_handler(unary_redis),
    }
    server = grpc.aio.server(options=OPTIONS)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Proxy", handlers)])
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


async def evalsha_loop(redis_url: str, workers: int, warmup: float, duration: float) -> dict:
    """The evalsha floor, run in its own process: its latencies and its CPU per call."""
    from parlour.store import connection, packing

    client = connection.connect(redis_url)
    packing.install(client)
    sha = await client.script_load(TINY_SCRIPT)
    clock = time.perf_counter

    async def worker(record, running) -> None:
        while running():
            start = clock()
            await client.evalsha(sha, 1, "bench:floor", b"1")
            record(start, clock())

    cpu = time.process_time()
    result = await closed_loop(workers, warmup, duration, worker)
    cpu = time.process_time() - cpu
    await client.aclose()
    result["cpu_us_per_call"] = round(cpu / max(result["calls"], 1) * 1e6, 1)
    return result


def main(argv: list[str]) -> None:
    import uvloop

    if argv[0] == "evalsha":
        workers, warmup, duration = int(argv[2]), float(argv[3]), float(argv[4])
        print(json.dumps(uvloop.run(evalsha_loop(argv[1], workers, warmup, duration))))
        return
    kind, port = argv[0], int(argv[1])
    if kind == "echo":
        uvloop.run(serve_echo(port, int(argv[2]), argv[3] if len(argv) > 3 else None))
    elif kind == "proxy":
        uvloop.run(serve_proxy(port, argv[2]))
    else:
        raise SystemExit(f"unknown floor server {kind!r}")


# -- processes --------------------------------------------------------------------------------
@dataclass
class FloorServers:
    """The echo and proxy processes."""

    echo: subprocess.Popen
    proxy: subprocess.Popen
    echo_address: str
    proxy_address: str
    redis_url: str

    @classmethod
    def start(cls, response_bytes: int, redis_url: str) -> FloorServers:
        from parlour.store.server import free_port

        echo_port, proxy_port = free_port(), free_port()
        base = [sys.executable, "-m", "bench.floors"]
        echo = subprocess.Popen(
            [*base, "echo", str(echo_port), str(response_bytes), redis_url], start_new_session=True
        )
        proxy = subprocess.Popen(
            [*base, "proxy", str(proxy_port), f"127.0.0.1:{echo_port}"], start_new_session=True
        )
        servers = cls(
            echo, proxy, f"127.0.0.1:{echo_port}", f"127.0.0.1:{proxy_port}", redis_url
        )
        for popen, port in ((echo, echo_port), (proxy, proxy_port)):
            _wait_listening(popen, port)
        return servers

    def pids(self) -> dict[str, int]:
        return {"echo": self.echo.pid, "proxy": self.proxy.pid}

    def stop(self) -> None:
        for popen in (self.proxy, self.echo):
            if popen.poll() is None:
                popen.terminate()
                try:
                    popen.wait(5)
                except subprocess.TimeoutExpired:
                    popen.kill()
                    popen.wait()


def _wait_listening(popen: subprocess.Popen, port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            raise RuntimeError(f"floor server on port {port} exited with {popen.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"floor server on port {port} did not listen")


# -- load ---------------------------------------------------------------------------------------
async def closed_loop(workers: int, warmup: float, duration: float, make_worker) -> dict:
    """Run `workers` closed loops; count and time the calls started inside the measured window.

    `make_worker(record, running)` returns a coroutine that loops while running() is true and
    calls record(start, end) for each completed call.
    """
    begin = time.perf_counter()
    window_start, window_end = begin + warmup, begin + warmup + duration
    latencies: list[float] = []
    calls = 0

    def record(start: float, end: float) -> None:
        nonlocal calls
        calls += 1
        if window_start <= start < window_end:
            latencies.append(end - start)

    def running() -> bool:
        return time.perf_counter() < window_end

    await asyncio.gather(*(make_worker(record, running) for _ in range(workers)))
    return {
        "calls": calls,
        "ops": len(latencies),
        "ops_per_s": round(len(latencies) / duration, 1),
        **summarize_ms(latencies),
    }


async def unary_floor(
    address: str, method: str, request: bytes, workers: int, warmup: float, duration: float
) -> dict:
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.unary_unary(method)
        await call(request)
        clock = time.perf_counter  # (uvloop's loop.time() has millisecond resolution)

        async def worker(record, running) -> None:
            while running():
                start = clock()
                await call(request)
                record(start, clock())

        return await closed_loop(workers, warmup, duration, worker)


async def stream_floor(
    address: str, request: bytes, workers: int, warmup: float, duration: float
) -> dict:
    async with grpc.aio.insecure_channel(address) as channel:
        open_stream = channel.stream_stream("/bench.Echo/Stream")
        clock = time.perf_counter  # (uvloop's loop.time() has millisecond resolution)

        async def worker(record, running) -> None:
            call = open_stream()
            while running():
                start = clock()
                await call.write(request)
                await call.read()
                record(start, clock())
            await call.done_writing()
            while await call.read() is not grpc.aio.EOF:
                pass

        return await closed_loop(workers, warmup, duration, worker)


async def stream_mux_floor(
    address: str, request: bytes, workers: int, warmup: float, duration: float
) -> dict:
    """All workers share one stream; replies are matched to waiters in order (the echo is FIFO)."""
    async with grpc.aio.insecure_channel(address) as channel:
        outbox: asyncio.Queue = asyncio.Queue()
        waiting: asyncio.Queue = asyncio.Queue()

        async def requests():
            while (item := await outbox.get()) is not None:
                yield item

        call = channel.stream_stream("/bench.Echo/Stream")(requests())

        async def dispatch() -> None:
            while (await call.read()) is not grpc.aio.EOF:
                waiting.get_nowait().set_result(None)

        dispatcher = asyncio.create_task(dispatch())
        loop = asyncio.get_running_loop()
        clock = time.perf_counter

        async def worker(record, running) -> None:
            while running():
                start = clock()
                future = loop.create_future()
                waiting.put_nowait(future)
                outbox.put_nowait(request)
                await future
                record(start, clock())

        try:
            return await closed_loop(workers, warmup, duration, worker)
        finally:
            outbox.put_nowait(None)
            call.cancel()
            dispatcher.cancel()


FLOORS = ("unary_echo", "two_hops", "two_hops_redis", "stream_echo", "stream_mux", "evalsha")


async def evalsha_floor(redis_url: str, workers: int, warmup: float, duration: float) -> dict:
    """The evalsha floor in a process of its own; its own CPU per call as `cpu_us_per_call`."""
    argv = ["-m", "bench.floors", "evalsha", redis_url, str(workers), str(warmup), str(duration)]
    child = await asyncio.create_subprocess_exec(
        sys.executable, *argv, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await child.communicate()
    if child.returncode:
        raise RuntimeError(f"the evalsha floor exited with {child.returncode}")
    return json.loads(out)


async def measure(
    servers: FloorServers, floor: str, request: bytes, workers: int, warmup: float, duration: float
) -> dict:
    if floor == "unary_echo":
        return await unary_floor(
            servers.echo_address, "/bench.Echo/Unary", request, workers, warmup, duration
        )
    if floor == "two_hops":
        return await unary_floor(
            servers.proxy_address, "/bench.Proxy/Unary", request, workers, warmup, duration
        )
    if floor == "two_hops_redis":
        return await unary_floor(
            servers.proxy_address, "/bench.Proxy/UnaryRedis", request, workers, warmup, duration
        )
    if floor == "stream_echo":
        return await stream_floor(servers.echo_address, request, workers, warmup, duration)
    if floor == "stream_mux":
        return await stream_mux_floor(servers.echo_address, request, workers, warmup, duration)
    if floor == "evalsha":
        return await evalsha_floor(servers.redis_url, workers, warmup, duration)
    raise ValueError(floor)


if __name__ == "__main__":
    main(sys.argv[1:])
