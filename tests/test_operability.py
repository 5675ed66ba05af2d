"""Operability: metrics, JSON logs, drain on SIGTERM (DESIGN: Quality bars, "Operable")."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys

from prometheus_client import REGISTRY

from parlour.launcher import LocalStack
from parlour.rpc.logs import JsonFormatter


def test_json_log_lines_keep_extra_fields():
    """A log record becomes one JSON object with its extra fields."""
    record = logging.makeLogRecord({"msg": "serving", "levelname": "INFO", "port": 5})
    entry = json.loads(JsonFormatter().format(record))
    assert entry["msg"] == "serving" and entry["port"] == 5 and entry["level"] == "info"


async def test_actions_are_counted_in_metrics(redis_url):
    """Applied actions and refusals show up in the Prometheus registry."""
    from parlour.client import GatewayClient
    from stack import running_stack

    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=2)
            players = [await client.join(match.name, f"p{i}") for i in range(2)]
            before = REGISTRY.get_sample_value("parlour_actions_total", {"game": "tinycards"}) or 0
            await players[0].submit((await players[0].actions()).actions[0])
            after = REGISTRY.get_sample_value("parlour_actions_total", {"game": "tinycards"})
    assert after == before + 1


def test_servers_drain_and_exit_cleanly_on_sigterm():
    """SIGTERM makes every server report NOT_SERVING, drain, and exit with status 0."""
    stack = LocalStack(["tinycards"]).start()
    try:
        procs = stack.processes()
        for proc in procs:
            proc.popen.send_signal(signal.SIGTERM)
        codes = [proc.popen.wait(15) for proc in procs]
    finally:
        stack.stop()
    assert codes == [0] * len(procs)


def test_cli_help_lists_every_command():
    """`parlour --help` offers up, demo, serve-rules, serve-gateway and simulate."""
    out = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("up", "demo", "serve-rules", "serve-gateway", "simulate"):
        assert command in out


def test_simulate_reports_speed():
    """`parlour simulate` plays games in-process and reports games/s and actions/s."""
    out = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "simulate", "tinycards", "--matches", "20"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "20 games" in out and "actions/s" in out


async def test_calls_are_counted_by_method_and_code(redis_url):
    """Every gateway call is counted by service, method, type and status code
    (grpc_server_handled_total, from the server interceptor)."""
    import grpc

    from parlour.client import GatewayClient
    from stack import running_stack

    labels = {
        "grpc_service": "parlour.gateway.v1.GatewayService",
        "grpc_method": "GetMatch",
        "grpc_type": "unary",
        "grpc_code": "NOT_FOUND",
    }
    before = REGISTRY.get_sample_value("grpc_server_handled_total", labels) or 0
    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            try:
                await client.match("matches/none")
            except grpc.aio.AioRpcError:
                pass
    assert REGISTRY.get_sample_value("grpc_server_handled_total", labels) == before + 1
