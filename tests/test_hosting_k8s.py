"""Issue 10 item 2: the kustomize base and overlays render (with kustomize itself), validate
against the Kubernetes schemas offline, serve every registered game, and carry the
operational settings; issue 35: the per-game files come from the game registry."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from parlour.engine.registry import playable_games
from parlour.rpc import pki

ROOT = Path(__file__).resolve().parent.parent
# tools/deploy.py loaded by path: tools/ on sys.path would let tools/buf.py hide the buf package
_spec = importlib.util.spec_from_file_location("deploy_tool", ROOT / "tools" / "deploy.py")
k8s = sys.modules["deploy_tool"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(k8s)

OVERLAYS = ["dev", "prod"]
DRAIN_SECONDS = 5  # parlour.rpc.serving.run_until_stopped's grace


@pytest.fixture(scope="module", params=OVERLAYS)
def rendered(request):
    return request.param, k8s.render(k8s.OVERLAYS / request.param)


def by_kind(objects, kind):
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def test_every_overlay_validates_and_serves_every_game():
    """Item 2: generated files are current, every object validates (strict), every
    registered game has a Deployment, Service, PDB, HPA and a gateway route."""
    assert k8s.check() == []


def test_a_registered_game_without_rules_deployment_fails():
    """Item 2: CI fails when a registered game has no rules Deployment."""
    issues = k8s.problems(k8s.OVERLAYS / "dev", ["isayholmes", "newgame"])
    assert issues == [
        "dev: game newgame has no Deployment, HorizontalPodAutoscaler, PodDisruptionBudget, "
        "Service, route"
    ]


def test_schema_validation_rejects_a_bad_object():
    """Item 2: the offline validation is strict (a wrong type or unknown field fails)."""
    bad = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}}
    bad["spec"] = {"replicas": "two", "selector": {}, "template": {}, "surplus": 1}
    assert len(k8s.validate([bad])) >= 1


def test_a_new_game_folder_is_deployed_by_generating(tmp_path):
    """Issue 35 item 1: a registered game needs no line anywhere in deploy/: `generate` gives
    it a Deployment, headless Service, PDB, HPA and gateway route, and a compose service the
    gateway waits for."""
    tree = tmp_path / "deploy"
    shutil.copytree(k8s.DEPLOY, tree)
    games = [*k8s.served_game_names(), "newgame"]
    for path, text in k8s.generated(games, tree).items():
        path.write_text(text)
    objects = k8s.render(tree / "k8s" / "overlays" / "prod")
    served = k8s.served_games(objects)
    assert served["newgame"] == {
        "Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "route"
    }  # fmt: skip
    deployment = by_kind(objects, "Deployment")["rules-newgame"]
    assert deployment["spec"]["template"]["spec"]["containers"][0]["args"] == [
        "serve-rules",
        "newgame",
    ]
    compose = yaml.safe_load((tree / "compose.yaml").read_text())["services"]
    assert compose["newgame"]["command"] == ["serve-rules", "newgame"]
    assert compose["gateway"]["depends_on"]["newgame"] == {"condition": "service_healthy"}
    assert "newgame=newgame:50051" in compose["gateway"]["environment"]["PARLOUR_RULES"]


def test_deploy_files_serve_exactly_the_registered_games():
    """Issue 35 item 1: compose and the Kubernetes base serve every registered game and no
    other (and the committed files are what `generate` writes: the check above)."""
    names = set(k8s.served_game_names())
    assert names == {game.name for game in playable_games()}
    compose = yaml.safe_load((k8s.DEPLOY / "compose.yaml").read_text())["services"]
    served = {name for name, s in compose.items() if s.get("command", [""])[0] == "serve-rules"}
    assert served == names
    deployed = k8s.served_games(k8s.render(k8s.OVERLAYS / "prod"))
    assert {game for game, kinds in deployed.items() if "Deployment" in kinds} == names


def test_servers_are_locked_down_probed_and_drained(rendered):
    """Item 2: non-root, read-only root filesystem, no privilege escalation, resources,
    gRPC startup/readiness/liveness probes (on the health port), preStop + grace covering
    the drain, scrape annotations on the metrics port, a pinned image."""
    _, objects = rendered
    workloads = [
        *by_kind(objects, "Deployment").values(),
        *by_kind(objects, "StatefulSet").values(),
    ]
    for workload in workloads:
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] > 0
        for container in pod["containers"]:
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True
            assert security["allowPrivilegeEscalation"] is False
            assert security["capabilities"]["drop"] == ["ALL"]
            assert {"cpu", "memory"} <= set(container["resources"]["requests"])
            assert not container["image"].endswith(":latest") and ":" in container["image"]
    for deployment in by_kind(objects, "Deployment").values():
        pod = deployment["spec"]["template"]["spec"]
        container = pod["containers"][0]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"]["port"] == ports["health"]
        pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
        assert pod["terminationGracePeriodSeconds"] >= pre_stop + DRAIN_SECONDS
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        metrics_port = {p["name"]: p["containerPort"] for p in container["ports"]}["metrics"]
        assert annotations["prometheus.io/scrape"] == "true"
        assert annotations["prometheus.io/port"] == str(metrics_port)


def test_every_deployment_has_pdb_and_cpu_hpa(rendered):
    """Item 2: a PodDisruptionBudget and a CPU HorizontalPodAutoscaler per Deployment."""
    _, objects = rendered
    pdbs = by_kind(objects, "PodDisruptionBudget")
    hpas = by_kind(objects, "HorizontalPodAutoscaler")
    for name, deployment in by_kind(objects, "Deployment").items():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        selector = pdbs[name]["spec"]["selector"]["matchLabels"]
        assert selector.items() <= labels.items()
        assert hpas[name]["spec"]["scaleTargetRef"]["name"] == name
        assert hpas[name]["spec"]["metrics"][0]["resource"]["name"] == "cpu"


def test_rules_services_are_headless_and_reached_only_by_gateways(rendered):
    """Item 2: headless rules Services (one address per replica); NetworkPolicy admits only
    gateway pods to the rules gRPC port."""
    _, objects = rendered
    services = by_kind(objects, "Service")
    for game in playable_games():
        assert services[f"rules-{game.name}"]["spec"]["clusterIP"] == "None"
    policy = by_kind(objects, "NetworkPolicy")["rules-from-gateways"]["spec"]
    assert policy["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "rules"}
    grpc_rule = next(
        r for r in policy["ingress"] if {"port": "grpc", "protocol": "TCP"} in r["ports"]
    )
    assert grpc_rule["from"] == [
        {"podSelector": {"matchLabels": {"app.kubernetes.io/component": "gateway"}}}
    ]


def test_dev_runs_redis_reached_only_by_servers():
    """Item 2: dev has a Redis StatefulSet; only pods labelled as Redis clients (the gateway
    and rules pods, nothing else) reach it; the URL comes from a generated Secret."""
    objects = k8s.render(k8s.OVERLAYS / "dev")
    assert "redis" in by_kind(objects, "StatefulSet")
    policy = by_kind(objects, "NetworkPolicy")["redis-from-servers"]["spec"]
    allowed = policy["ingress"][0]["from"][0]["podSelector"]["matchLabels"]
    clients = [
        d["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"]
        for d in by_kind(objects, "Deployment").values()
        if allowed.items() <= d["spec"]["template"]["metadata"]["labels"].items()
    ]
    assert set(clients) == {"gateway", "rules"}
    assert len(clients) == len(by_kind(objects, "Deployment"))
    secret = next(s for s in by_kind(objects, "Secret").values())
    gateway = by_kind(objects, "Deployment")["gateway"]["spec"]["template"]["spec"]
    env = {e["name"]: e for e in gateway["containers"][0]["env"]}
    assert (
        env["PARLOUR_REDIS_URL"]["valueFrom"]["secretKeyRef"]["name"] == secret["metadata"]["name"]
    )


def test_prod_uses_an_external_redis_from_a_host_secret():
    """Item 2: prod runs no Redis; servers read the URL from the host-made Secret."""
    objects = k8s.render(k8s.OVERLAYS / "prod")
    assert "StatefulSet" not in {o["kind"] for o in objects}
    assert "Secret" not in {o["kind"] for o in objects}
    for deployment in by_kind(objects, "Deployment").values():
        env = {e["name"]: e for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
        assert env["PARLOUR_REDIS_URL"]["valueFrom"]["secretKeyRef"]["name"] == "parlour-redis"


def test_settings_come_from_a_configmap(rendered):
    """Item 2: every server reads its settings from the (content-hashed) settings ConfigMap."""
    _, objects = rendered
    settings = next(n for n in by_kind(objects, "ConfigMap") if n.startswith("parlour-settings-"))
    for deployment in by_kind(objects, "Deployment").values():
        refs = deployment["spec"]["template"]["spec"]["containers"][0]["envFrom"]
        assert {"configMapRef": {"name": settings}} in refs


def servers(objects):
    """(role, pod spec, container) of every gateway and rules Deployment."""
    for deployment in by_kind(objects, "Deployment").values():
        role = deployment["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"]
        pod = deployment["spec"]["template"]["spec"]
        if role in ("gateway", "rules"):
            yield role, pod, pod["containers"][0]


TLS_FILES = {
    "PARLOUR_INTERNAL_TLS_CA": "ca.crt",
    "PARLOUR_INTERNAL_TLS_CERT": "tls.crt",
    "PARLOUR_INTERNAL_TLS_KEY": "tls.key",
}


def test_internal_mutual_tls_files_come_from_the_certs_secrets(rendered):
    """Mutual TLS between gateways and rules (deploy/README "Internal mutual TLS"): every
    gateway and rules container points PARLOUR_INTERNAL_TLS_CA/CERT/KEY at the ca.crt,
    tls.crt and tls.key of a read-only mount of its role's kubernetes.io/tls Secret, the
    names `parlour certs` prints (and a cert-manager Certificate can write)."""
    _, objects = rendered
    printed = {
        s["metadata"]["labels"]["app.kubernetes.io/component"]: s
        for s in pki.tls_secrets(
            pki.internal_certificates(pki.Authority.create("test CA", 1), 1), "parlour"
        )
    }
    roles = []
    for role, pod, container in servers(objects):
        roles.append(role)
        env = {e["name"]: e for e in container["env"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        for variable, key in TLS_FILES.items():
            path = Path(env[variable]["value"])
            mount = next(m for m in container["volumeMounts"] if m["mountPath"] == str(path.parent))
            assert mount["readOnly"] is True
            secret = volumes[mount["name"]]["secret"]
            assert secret["secretName"] == printed[role]["metadata"]["name"]
            assert path.name == key and key in printed[role]["data"]
            assert secret["defaultMode"] & 0o077 == 0o040  # the group (fsGroup) reads, no other
        assert pod["securityContext"]["fsGroup"] == pod["securityContext"]["runAsGroup"]
        assert printed[role]["type"] == "kubernetes.io/tls"
    assert set(roles) == {"gateway", "rules"}
    assert roles.count("rules") == len(playable_games())


def test_printed_secrets_validate_against_the_kubernetes_schemas():
    """`parlour certs` output is valid Secrets (strict, offline), one per role."""
    authority = pki.Authority.create("test CA", 1)
    secrets = pki.tls_secrets(pki.internal_certificates(authority, 1), "parlour-dev")
    assert k8s.validate(secrets) == []
    assert [s["metadata"]["name"] for s in secrets] == [pki.RULES_SECRET, pki.GATEWAY_SECRET]
    assert secrets == list(yaml.safe_load_all(pki.to_yaml(secrets)))


def test_probes_use_the_plaintext_health_port_not_the_grpc_port(rendered):
    """The kubelet's gRPC probes are plaintext, so they ask the health-only port
    (PARLOUR_HEALTH_PORT, bound on every address), never the mutual-TLS gRPC port."""
    _, objects = rendered
    settings = next(
        o["data"] for n, o in by_kind(objects, "ConfigMap").items()
        if n.startswith("parlour-settings-")
    )  # fmt: skip
    assert settings["PARLOUR_HEALTH_ADDR"] == "0.0.0.0"
    for _, _, container in servers(objects):
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        assert ports["health"] == int(settings["PARLOUR_HEALTH_PORT"])
        assert ports["health"] != ports["grpc"]
        assert ports["grpc"] == int(settings["PARLOUR_ADDRESS"].rpartition(":")[2])
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"]["port"] == ports["health"]


def test_network_policy_admits_probes_to_the_health_port_only(rendered):
    """Anyone (the kubelet) may reach the health port; the rules gRPC port stays gateway-only."""
    _, objects = rendered
    policies = by_kind(objects, "NetworkPolicy")
    rules = policies["rules-from-gateways"]["spec"]["ingress"]
    open_to_all = [p["port"] for r in rules if "from" not in r for p in r["ports"]]
    assert "health" in open_to_all and "grpc" not in open_to_all
    gateway = policies["gateway-public"]["spec"]["ingress"]
    assert "health" in [p["port"] for r in gateway for p in r["ports"]]


def test_render_takes_an_overlay_by_name_or_by_path(capsys):
    """Issue 26 (hosts): `tools/deploy.py render prod` and `render deploy/k8s/overlays/prod` (as
    the tree shows it) print the same objects; an unknown overlay is one line naming both."""
    printed = []
    for name in ("prod", "deploy/k8s/overlays/prod", str(k8s.OVERLAYS / "prod")):
        assert k8s.main(["render", name]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] == printed[2]
    assert yaml.safe_load_all(printed[0])
    with pytest.raises(SystemExit, match="no overlay 'staging'; known: dev, prod"):
        k8s.main(["render", "staging"])
