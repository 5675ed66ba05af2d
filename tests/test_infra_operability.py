"""Issue 10 item 8: operable servers. Metrics from a server interceptor with the
conventional labels, a latency histogram and gauges, one registry and metrics port per
process; settings checked at start with a message naming the variable; request log lines
with match, seat, request id and game; lifecycle events; a friendly CLI."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack
from parlour.store.server import free_port

GATEWAY = "parlour.gateway.v1.GatewayService"
RULES = "parlour.rules.v1.RulesService"


def parlour(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *args],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def until(condition, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not await asyncio.to_thread(condition):
            await asyncio.sleep(0.05)


async def test_item8_each_process_counts_its_own_calls_with_grpc_labels_and_gauges():
    with LocalStack(["tinycards"]) as stack:
        gateway, rules = stack.gateway, stack.rules["tinycards"][0]
        assert gateway.metrics_port != rules.metrics_port
        not_found = {
            "grpc_service": GATEWAY,
            "grpc_method": "GetMatch",
            "grpc_type": "unary",
            "grpc_code": "NOT_FOUND",
        }
        async with GatewayClient(stack.address) as client:
            with pytest.raises(grpc.aio.AioRpcError):
                await client.match("matches/none")
            match = await client.create_match("tinycards", 2, seed=4, spectators=True)
            stream = client.stub.StreamEvents(gw.StreamEventsRequest(match=match.name))
            await anext(aiter(stream))
            open_labels = {"grpc_service": GATEWAY, "grpc_method": "StreamEvents"}
            assert gateway.metric("parlour_open_streams", open_labels) == 1
            assert gateway.metric("parlour_subscribers") == 1
            assert gateway.metric("parlour_live_matches") == 1
            stream.cancel()
            await until(lambda: gateway.metric("parlour_open_streams", open_labels) == 0)
        assert gateway.metric("parlour_subscribers") == 0
        assert gateway.metric("grpc_server_handled_total", not_found) == 1
        latency = {"grpc_service": GATEWAY, "grpc_method": "GetMatch", "grpc_type": "unary"}
        assert gateway.metric("grpc_server_handling_seconds_count", latency) == 1
        created = {
            "grpc_service": RULES,
            "grpc_method": "CreateMatch",
            "grpc_type": "unary",
            "grpc_code": "OK",
        }
        assert rules.metric("grpc_server_handled_total", created) == 1
        assert gateway.metric("grpc_server_handled_total", created) == 0


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("PARLOUR_STATE_CACHE", "lots", "valid integer"),
        ("PARLOUR_KEEPALIVE_SECONDS", "-1", "greater than 0"),
        ("PARLOUR_LOG_LEVEL", "loud", "'DEBUG'"),
        ("PARLOUR_ADDRESS", "nowhere", "not host:port"),
        ("PARLOUR_INTERNAL_TLS_CA", "/nonexistent/ca.pem", "does not point to a file"),
        ("PARLOUR_METRICS_PORT", "70000", "less than or equal to 65535"),
        ("PARLOUR_TIMER_POLL_SECONDS", "0", "greater than 0"),
    ],
)
def test_item8_bad_setting_stops_a_server_with_a_message(redis_url, variable, value, says):
    env = {"PARLOUR_REDIS_URL": redis_url, variable: value}
    done = parlour("serve-rules", "tinycards", env=env)
    assert done.returncode != 0
    assert variable in done.stderr and says in done.stderr and "Traceback" not in done.stderr


def test_item8_gateway_settings_are_checked_too():
    done = parlour("serve-gateway", env={"PARLOUR_REDIS_URL": "", "PARLOUR_RULES": "x=y"})
    assert "PARLOUR_REDIS_URL" in done.stderr and "PARLOUR_RULES" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "chess"], "unknown game 'chess'; known: "),
        (["up", "chess"], "unknown game 'chess'"),
        (["demo", "chess"], "unknown game 'chess'"),
        (["serve-rules", "chess"], "unknown game 'chess'"),
        (["simulate", "tinycards", "--seats", "9"], "takes 2 to 4 seats, not 9"),
        (["up", "--replicas", "0"], "must be at least 1"),
        (["up", "--address", "nowhere"], "not host:port"),
    ],
)
def test_item8_cli_mistakes_get_one_line_not_a_traceback(args, says):
    done = parlour(*args)
    assert done.returncode != 0
    assert says in done.stderr and "Traceback" not in done.stderr


def test_item8_cli_bad_setting_before_starting_anything():
    done = parlour("up", "tinycards", env={"PARLOUR_SUBSCRIBER_QUEUE": "0"})
    assert done.returncode != 0 and "PARLOUR_SUBSCRIBER_QUEUE" in done.stderr
    assert "Traceback" not in done.stderr


def test_item8_cli_version():
    done = parlour("--version")
    assert done.returncode == 0 and done.stdout.startswith("parlour 0.")


def test_item8_up_serves_on_the_given_address_and_prints_every_metrics_port():
    port = free_port()
    up = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "up", "tinycards", "--address", f"127.0.0.1:{port}",
         "--web-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        lines = []
        while not lines or not lines[-1].startswith("Ctrl-C"):
            line = up.stdout.readline()
            assert line, f"parlour up ended early: {lines}"
            lines.append(line.strip())
        assert lines[0].startswith(f"parlour is up: gateway on 127.0.0.1:{port},")
        urls = [line.split()[-1] for line in lines if line.endswith("/metrics")]
        assert len(urls) == 2
        for url in urls:
            with urllib.request.urlopen(url, timeout=5) as reply:
                assert b"grpc_server_started_total" in reply.read()
    finally:
        up.send_signal(signal.SIGTERM)  # at once: the stack must stop, not be orphaned
        up.wait(30)
        up.stdout.close()
    web = next(line.split()[-1] for line in lines if line.startswith("Play in a browser"))
    web_port = int(web.rstrip("/").rsplit(":", 1)[1])
    for stopped in (port, web_port):
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", stopped), timeout=5).close()


async def test_item8_request_log_lines_carry_match_seat_request_id_and_game(redis_url, caplog):
    """The gateway's request lines (DEBUG when OK, INFO when refused) carry the call's match,
    seat, request id and game; the rules service logs match created and finished."""
    from stack import running_stack

    caplog.set_level(logging.DEBUG, logger="parlour")
    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=2)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            progress = (await players[0].get_view()).progress
            step, seats = 0, {}
            while not progress.HasField("outcome"):
                player = players[progress.pending[0].seat]
                action = (await player.actions()).actions[0]
                seats[f"r{step}"] = player.seat
                response = await player.submit(action, request_id=f"r{step}")
                progress = response.result.progress
                step += 1
            with pytest.raises(grpc.aio.AioRpcError):
                await players[0].submit(action, request_id="late")
    match_id = match.name.removeprefix("matches/")
    requests = [r for r in caplog.records if r.name == "parlour.requests"]
    submits = [r for r in requests if r.grpc_service == GATEWAY and r.grpc_method == "SubmitAction"]
    first = next(r for r in submits if r.request_id == "r0")
    assert (first.match, first.game, first.grpc_code) == (match_id, "tinycards", "OK")
    assert first.seat == seats["r0"]
    late = next(r for r in submits if r.request_id == "late")
    assert late.levelno == logging.INFO and late.grpc_code == "FAILED_PRECONDITION"
    assert late.reason and late.seat == 0 and late.match == match_id
    lifecycle = [(r.msg, r.match) for r in caplog.records if r.name == "parlour.rules.lifecycle"]
    assert ("match created", match_id) in lifecycle and ("match finished", match_id) in lifecycle
