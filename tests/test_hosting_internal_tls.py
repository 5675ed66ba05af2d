"""Internal mutual TLS as deployed on Kubernetes (deploy/README "Internal mutual TLS"):
the Secrets `parlour certs` prints, mounted as the kubelet mounts them, run a rules service
with mutual TLS and a gateway with the client certificate, each with the plaintext
health-only port (PARLOUR_HEALTH_PORT) the kubelet's probes use. Real processes, real Redis.
"""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import Process, wait_serving
from parlour.rpc import pki
from parlour.rpc.tls import InternalTls, from_settings
from parlour.rules.v1 import rules_pb2, rules_service_pb2_grpc
from parlour.settings import InternalTlsSettings, load
from parlour.store.server import EmbeddedRedis, free_port

GAME = "tinycards"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
TLS_ENV = {"CA": "ca.crt", "CERT": "tls.crt", "KEY": "tls.key"}


def parlour(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *args],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def mount(secret: dict, root: Path) -> Path:
    """Write a Secret's keys as the kubelet mounts a secret volume: files in a timestamped
    folder, a `..data` link to it, and one link per key."""
    target = root / secret["metadata"]["name"]
    stamp = target / "..2026_12_01_12_00_00.000000001"
    stamp.mkdir(parents=True)
    for key, value in secret["data"].items():
        (stamp / key).write_bytes(base64.b64decode(value))
    (target / "..data").symlink_to(stamp.name)
    for key in secret["data"]:
        (target / key).symlink_to(f"..data/{key}")
    return target


def tls_env(folder: Path) -> dict[str, str]:
    return {f"PARLOUR_INTERNAL_TLS_{k}": str(folder / v) for k, v in TLS_ENV.items()}


def internal_tls(env: dict[str, str]) -> InternalTls:
    """The identity a process with `env` presents (through the settings it would load)."""
    identity = from_settings(load(InternalTlsSettings, env))
    assert identity is not None
    return identity


def health(address: str, timeout: float = 5) -> int:
    """The overall status a plaintext caller (the kubelet) reads at `address`."""
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout).status


def until(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def probe(address: str) -> int:
    """The compose/container healthcheck, pointed at a health port as the settings do."""
    host, _, port = address.rpartition(":")
    env = {"PARLOUR_HEALTH_PORT": port, "PARLOUR_HEALTH_ADDR": host}
    return subprocess.run(
        [sys.executable, "-m", "parlour.rpc.probe"], env={**os.environ, **env}, timeout=30
    ).returncode


class Deployed:
    """A rules service and a gateway started from mounted Secrets, on their own Redis."""

    def __init__(self, secrets: list[dict], root: Path) -> None:
        self.root = root
        self.mounts = {s["metadata"]["labels"]["app.kubernetes.io/component"]: mount(s, root)
                       for s in secrets}  # fmt: skip
        self.redis = EmbeddedRedis().start()
        self.processes: list[Process] = []
        self.health: dict[str, str] = {}

    def spawn(self, role: str, argv: list[str], extra: dict[str, str]) -> Process:
        port, health_port = free_port(), free_port()
        env = {
            **os.environ,
            **tls_env(self.mounts[role]),
            **extra,
            "PARLOUR_REDIS_URL": self.redis.url,
            "PARLOUR_ADDRESS": f"127.0.0.1:{port}",
            "PARLOUR_HEALTH_PORT": str(health_port),
            "PARLOUR_HEALTH_ADDR": "127.0.0.1",
        }
        env.pop("PARLOUR_METRICS_PORT", None)
        with (self.root / f"{role}.log").open("wb") as log:
            popen = subprocess.Popen(
                [sys.executable, "-m", "parlour.cli", *argv],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        proc = Process(role, port, popen)
        self.processes.append(proc)
        self.health[role] = f"127.0.0.1:{health_port}"
        return proc

    def start(self) -> Deployed:
        self.rules = self.spawn("rules", ["serve-rules", GAME], {})
        identity = internal_tls(tls_env(self.mounts["gateway"]))
        self.rules.credentials = identity.channel_credentials()
        self.rules.options = identity.channel_options()
        wait_serving(self.rules)
        self.gateway = self.spawn(
            "gateway", ["serve-gateway"], {"PARLOUR_RULES": f"{GAME}={self.rules.address}"}
        )
        wait_serving(self.gateway)
        return self

    def log(self, role: str) -> str:
        return (self.root / f"{role}.log").read_text()[-2000:]

    def stop(self) -> None:
        for proc in reversed(self.processes):
            proc.stop()
        self.redis.stop()


@contextmanager
def deployed(secrets: list[dict], root: Path):
    stack = Deployed(secrets, root)
    try:
        yield stack.start()
    finally:
        stack.stop()


@pytest.fixture(scope="module")
def printed() -> tuple[list[dict], subprocess.CompletedProcess]:
    """What `parlour certs --namespace parlour-dev` prints (for `kubectl apply -f -`)."""
    done = parlour("certs", "--namespace", "parlour-dev", "--days", "2")
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc], done


@pytest.fixture(scope="module")
def stack(printed, tmp_path_factory):
    with deployed(printed[0], tmp_path_factory.mktemp("secrets")) as running:
        yield running


def test_certs_prints_tls_secrets_and_keeps_keys_out_of_its_messages(printed):
    """`parlour certs`: two kubernetes.io/tls Secrets (ca.crt, tls.crt, tls.key) in the given
    namespace, the same CA in both; its message on stderr carries no key material."""
    secrets, done = printed
    assert [(s["metadata"]["name"], s["metadata"]["namespace"], s["type"]) for s in secrets] == [
        (pki.RULES_SECRET, "parlour-dev", "kubernetes.io/tls"),
        (pki.GATEWAY_SECRET, "parlour-dev", "kubernetes.io/tls"),
    ]
    assert all(set(s["data"]) == {"ca.crt", "tls.crt", "tls.key"} for s in secrets)
    assert secrets[0]["data"]["ca.crt"] == secrets[1]["data"]["ca.crt"]
    assert "PRIVATE KEY" not in done.stderr and "parlour-rules" in done.stderr
    for secret in secrets:
        key = secret["data"]["tls.key"]
        assert key[:40] not in done.stderr
        assert b"PRIVATE KEY" in base64.b64decode(key)


async def test_a_match_plays_through_the_gateway_over_mutual_tls(stack):
    """A whole match, gateway -> rules over mutual TLS with the mounted certificates."""
    async with GatewayClient(stack.gateway.address) as client:
        report = await play_random_match(client, GAME, 2, seed=7)
    assert report.progress.HasField("outcome") and report.actions > 0


def test_the_rules_grpc_port_refuses_plaintext_callers(stack):
    """Mutual TLS is on: a plaintext caller gets nothing from the rules gRPC port, not even
    its health."""
    with grpc.insecure_channel(stack.rules.address) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            rules_service_pb2_grpc.RulesServiceStub(channel).DescribeGame(
                rules_pb2.DescribeGameRequest(), timeout=5
            )
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    with pytest.raises(grpc.RpcError) as refused:
        health(stack.rules.address)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_health_ports_answer_plaintext_probes(stack):
    """The kubelet's plaintext probe (and the container healthcheck) reads SERVING on the
    health port of the rules service and of the gateway."""
    for role in ("rules", "gateway"):
        assert health(stack.health[role]) == SERVING, role
        assert probe(stack.health[role]) == 0, role


def test_health_ports_serve_nothing_but_health(stack):
    """The plaintext port holds grpc.health.v1 only: the RulesService, the GatewayService and
    reflection are not there (UNIMPLEMENTED), so plaintext reaches no game call."""
    with grpc.insecure_channel(stack.health["rules"]) as channel:
        with pytest.raises(grpc.RpcError) as missing:
            rules_service_pb2_grpc.RulesServiceStub(channel).DescribeGame(
                rules_pb2.DescribeGameRequest(), timeout=5
            )
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED
        reflect = channel.unary_unary(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
        )
        with pytest.raises(grpc.RpcError) as missing:
            reflect(b"", timeout=5)
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED
    with grpc.insecure_channel(stack.health["gateway"]) as channel:
        with pytest.raises(grpc.RpcError) as missing:
            gw_grpc.GatewayServiceStub(channel).ListGames(gw.ListGamesRequest(), timeout=5)
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_health_ports_follow_redis_and_the_drain(printed, tmp_path):
    """The health ports report what the servers' health does: NOT_SERVING while Redis is
    down (the probe fails, so the pods leave the endpoints), SERVING once it is back, and
    NOT_SERVING as soon as SIGTERM starts the drain; then each server exits 0 and its health
    port closes with it."""
    with deployed(printed[0], tmp_path) as running:
        running.redis.stop()
        for role in ("rules", "gateway"):
            until(lambda r=role: health(running.health[r]) == NOT_SERVING, f"{role} NOT_SERVING")
            assert probe(running.health[role]) == 1
        running.redis.start()
        for role in ("rules", "gateway"):
            until(lambda r=role: health(running.health[r]) == SERVING, f"{role} SERVING again")
        for proc in reversed(running.processes):
            with grpc.insecure_channel(running.health[proc.name]) as channel:
                watch = health_pb2_grpc.HealthStub(channel).Watch(
                    health_pb2.HealthCheckRequest(), timeout=30
                )
                assert next(watch).status == SERVING
                proc.popen.send_signal(signal.SIGTERM)
                assert next(watch).status == NOT_SERVING, proc.name
                assert proc.popen.wait(30) == 0, running.log(proc.name)
            with pytest.raises(grpc.RpcError) as closed:
                health(running.health[proc.name], timeout=2)
            assert closed.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    ("role", "variable", "value", "says"),
    [
        ("serve-rules", "PARLOUR_HEALTH_PORT", "probes", "valid integer"),
        ("serve-rules", "PARLOUR_HEALTH_PORT", "70000", "less than or equal to 65535"),
        ("serve-rules", "PARLOUR_HEALTH_ADDR", "local host", "should match pattern"),
        ("serve-gateway", "PARLOUR_HEALTH_PORT", "-1", "greater than or equal to 0"),
        ("serve-gateway", "PARLOUR_HEALTH_PORT", "50051", "already the gRPC or metrics port"),
    ],
)
def test_bad_health_settings_stop_the_server_with_a_message(
    redis_url, role, variable, value, says
):
    """A bad health setting stops the server before it serves, naming the variable."""
    env = {"PARLOUR_REDIS_URL": redis_url, "PARLOUR_ADDRESS": "127.0.0.1:50051", variable: value}
    done = parlour(role, *([GAME] if role == "serve-rules" else []), env=env)
    assert done.returncode != 0
    assert "PARLOUR_HEALTH" in done.stderr and says in done.stderr
    assert "Traceback" not in done.stderr


async def test_rotation_with_a_kept_ca_keeps_old_and_new_pods_trusting_each_other(
    store, tmp_path
):
    """`parlour certs --ca DIR` re-run (rotation) signs new certificates with the same CA,
    so while the Deployments roll, an old gateway is accepted by a new rules replica and a
    new gateway by an old one; a run without --ca makes a CA the old pods do not trust."""
    from parlour.engine.registry import get_game
    from parlour.rules import server as rules_server

    runs = {}
    kept = ["--ca", str(tmp_path / "ca")]
    for run, ca in (("old", kept), ("new", kept), ("other", [])):
        done = parlour("certs", "--out", str(tmp_path / run), "--days", "2", *ca)
        assert done.returncode == 0, done.stderr
        assert "PRIVATE KEY" not in done.stdout + done.stderr
        runs[run] = {role: tls_env(tmp_path / run / role) for role in ("rules", "gateway")}
    assert (tmp_path / "ca" / "ca.key").stat().st_mode & 0o077 == 0
    assert (tmp_path / "old" / "rules" / "tls.key").stat().st_mode & 0o077 == 0
    certs = [(tmp_path / run / "rules" / "tls.crt").read_bytes() for run in ("old", "new")]
    assert certs[0] != certs[1]

    async def describes(rules: str, gateway: str) -> bool:
        tls = internal_tls(runs[rules]["rules"])
        server, port, _, watcher = await rules_server.start(get_game(GAME), store, tls=tls)
        caller = internal_tls(runs[gateway]["gateway"])
        try:
            async with rules_channel_to(port, caller) as channel:
                stub = rules_service_pb2_grpc.RulesServiceStub(channel)
                await stub.DescribeGame(rules_pb2.DescribeGameRequest(), timeout=5)
            return True
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            return False
        finally:
            watcher.cancel()
            await server.stop(None)

    assert await describes("new", "old") and await describes("old", "new")
    assert not await describes("other", "old") and not await describes("old", "other")


def rules_channel_to(port: int, tls: InternalTls) -> grpc.aio.Channel:
    from parlour.rpc.tls import rules_channel

    return rules_channel(f"127.0.0.1:{port}", tls, [])


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--days", "0"], "must be 1 to 3650 days, not 0"),
        (["--days", "4000"], "must be 1 to 3650 days, not 4000"),
        (["--namespace", "Parlour_Dev"], "is not a lower-case DNS name"),
        (["--namespace", "parlour.dev"], "is not a namespace name"),
        (["--server-name", "rules service"], "is not a lower-case DNS name"),
        (["--ca", "{half}"], "holds only one of ca.crt and ca.key"),
        (["--ca", "{kept}", "--days", "3650"], "the CA expires on"),
    ],
)
def test_certs_mistakes_get_one_line_and_print_no_key(tmp_path, args, says):
    """`parlour certs` checks its input: a bad value ends with one line, no traceback and
    no Secret (nothing on stdout)."""
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "ca.crt").write_bytes(b"")
    short = pki.Authority.create("a CA valid for 10 days", 10)
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "ca.crt").write_bytes(short.pem.cert)
    pki.write_private(tmp_path / "kept" / "ca.key", short.pem.key)
    filled = [a.format(half=tmp_path / "half", kept=tmp_path / "kept") for a in args]
    done = parlour("certs", *filled)
    assert done.returncode != 0 and done.stdout == ""
    assert says in done.stderr and "Traceback" not in done.stderr
