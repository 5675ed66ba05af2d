"""Issue 26 (hosts): each server process exports its own role's metric families (a gateway no
rules families, a rules service no gateway families), and each logs its drain on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from parlour.launcher import Process, wait_serving
from parlour.rpc import metrics
from parlour.store.server import free_port

GATEWAY_ONLY = {"parlour_subscribers", "parlour_live_matches", "parlour_rules_replicas",
                "parlour_events_sent", "parlour_play_queued_messages"}
RULES_ONLY = {"parlour_actions", "parlour_act_seconds", "parlour_refusals",
              "parlour_commit_retries"}
EVERY_SERVER = {"grpc_server_started", "grpc_server_handled", "grpc_server_handling_seconds",
                "parlour_open_streams", "process_cpu_seconds"}


def serve(argv: list[str], redis_url: str, **extra: str) -> tuple[Process, int]:
    port, metrics_port = free_port(), free_port()
    env = {**os.environ, **extra, "PARLOUR_REDIS_URL": redis_url,
           "PARLOUR_ADDRESS": f"127.0.0.1:{port}", "PARLOUR_METRICS_PORT": str(metrics_port)}
    popen = subprocess.Popen([sys.executable, "-m", "parlour.cli", *argv], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return Process(argv[0], port, popen), metrics_port


def families(metrics_port: int) -> set[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as reply:
        return {f.name for f in text_string_to_metric_families(reply.read().decode())}


def drained(proc: Process) -> list[dict]:
    """Stop the process with SIGTERM; its log lines."""
    proc.popen.send_signal(signal.SIGTERM)
    _, err = proc.popen.communicate(timeout=30)
    assert proc.popen.returncode == 0, err
    return [json.loads(line) for line in err.splitlines()]


def test_each_role_exports_its_own_families_and_logs_its_drain(redis_url):
    rules, rules_metrics = serve(["serve-rules", "tinycards"], redis_url)
    gateway, gateway_metrics = serve(["serve-gateway"], redis_url,
                                     PARLOUR_RULES=f"tinycards={rules.address}")
    try:
        for proc in (rules, gateway):
            wait_serving(proc)
        served_by_rules, served_by_gateway = families(rules_metrics), families(gateway_metrics)
    finally:
        logs = {proc.name: drained(proc) for proc in (gateway, rules)}
    assert EVERY_SERVER <= served_by_rules and EVERY_SERVER <= served_by_gateway
    assert RULES_ONLY <= served_by_rules and not GATEWAY_ONLY & served_by_rules
    assert GATEWAY_ONLY <= served_by_gateway and not RULES_ONLY & served_by_gateway
    for name, lines in logs.items():
        messages = [line["msg"] for line in lines]
        assert "draining" in messages and messages[-1] == "stopped", (name, messages)


def test_every_family_belongs_to_every_server_or_one_role():
    """A family added to parlour.rpc.metrics must say which role serves it."""
    grouped = [*metrics.COMMON, *(m for group in metrics.ROLES.values() for m in group)]
    declared = {name for name, value in vars(metrics).items()
                if hasattr(value, "_type") and name.isupper()}
    assert {id(m) for m in grouped} == {id(getattr(metrics, n)) for n in declared}
    assert len(grouped) == len({id(m) for m in grouped})


def test_demo_plays_through_a_running_gateway():
    """deploy/README.md: `parlour demo --gateway ADDR` plays its matches through a gateway
    that is already running (compose's, a cluster's) instead of starting a stack."""
    from parlour.launcher import LocalStack

    with LocalStack(["tinycards"]) as stack:
        done = subprocess.run(
            [sys.executable, "-m", "parlour.cli", "demo", "tinycards", "--gateway",
             stack.address, "--lines", "2"],
            capture_output=True, text=True, timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Playing through the gateway at {stack.address}")
    assert "status MATCH_STATUS_FINISHED" in done.stdout and "Starting Redis" not in done.stdout
