"""The deploy kit, checked by the real validators the registries give (neither Docker nor a
cluster runs here): compose.yaml against the Compose Specification's schema, the Kubernetes
manifests against Kubernetes' own schemas, and the chart values as YAML that names what
deploy/README.md says it does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_compose_follows_the_compose_specification():
    done = run(str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(DEPLOY / "compose.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    expected = {"nginx", "gateway-1", "gateway-2", "worker-1", "worker-2", "queue", "queue-replica", "prometheus"}
    assert expected <= set(services)
    assert sum(name.startswith("redis-") and name[6:].isdigit() for name in services) == 6
    assert sum(name.startswith("sentinel-") for name in services) == 3


def test_a_broken_compose_file_is_refused(tmp_path):
    broken = tmp_path / "compose.yaml"
    broken.write_text("services:\n  gateway:\n    image: tavern\n    ports: 8000\n")
    done = run(str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(broken))
    assert done.returncode != 0


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
