"""One archive for every process: two `tavern serve` and two `tavern worker` on a real Redis, the
archive an S3 bucket on a real S3-compatible server (moto's, on 127.0.0.1), as compose and
Kubernetes run them (deploy/compose.yaml's and deploy/k8s's SeaweedFS). A match played to the end through one gateway,
archived by a worker (its keys gone from Redis), is served by the other gateway from the bucket:
view, replay, events and export, the export byte for byte the archived object and passing
`tavern audit`."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import time

import boto3
import httpx
import pytest
import redis

from services.cli.audit import run_audit
from services.store import archive, keys
from tests.service.client import bearer, create, play_to_end
from tests.service.conftest import serve_all, service_env, start_redis
from tests.service.s3 import BUCKET

pytestmark = pytest.mark.anyio
READS = ("view", "replay", "events", "export")


def archived_object(endpoint: str, name: str) -> bytes | None:
    bucket = boto3.client("s3", endpoint_url=endpoint)
    try:
        return bucket.get_object(Bucket=BUCKET, Key=name)["Body"].read()
    except bucket.exceptions.NoSuchKey:
        return None


async def test_a_match_archived_by_a_worker_is_served_by_the_other_gateway(processes, tmp_path, s3_endpoint):
    server, url = start_redis(tmp_path)
    try:
        env = service_env(url, TAVERN_QUEUE="shared", TAVERN_ARCHIVE_S3_BUCKET=BUCKET,
                          TAVERN_ARCHIVE_S3_ENDPOINT=s3_endpoint, TAVERN_ARCHIVE_GRACE_S="0",
                          TAVERN_ARCHIVE_EVERY_S="0.2")
        played_on, served_by = serve_all(processes, env, gateways=2, workers=2)
        async with httpx.AsyncClient(base_url=played_on, timeout=30) as api:
            created = await create(api, seats=2, bots=[1], game="mercenaries")
            finished = await play_to_end(api, created, [0], seed=30)
        assert finished["status"] == "finished"
        match_id, spectator = created["match_id"], bearer(created["spectator_token"])

        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 60
        while client.exists(keys.meta(match_id)) or archived_object(s3_endpoint, archive.meta_name(match_id)) is None:
            assert time.monotonic() < deadline, "no worker archived the finished match"
            await asyncio.sleep(0.1)
        assert not list(client.scan_iter(f"match:{{{match_id}}}:*")), "the match left keys in Redis"

        async with httpx.AsyncClient(base_url=served_by, timeout=30) as other:
            answers = {read: await other.get(f"/v1/matches/{match_id}/{read}", headers=spectator) for read in READS}
        for read, answer in answers.items():
            assert answer.status_code == 200, (read, answer.text)
        assert answers["view"].json()["status"] == "finished"
        packed = archived_object(s3_endpoint, archive.export_name(match_id))
        assert packed is not None and answers["export"].content == gzip.decompress(packed)
        meta = json.loads(archived_object(s3_endpoint, archive.meta_name(match_id)) or b"{}")
        assert meta["ended"] == "finished" and meta["version"] == answers["view"].json()["version"]
        exported = tmp_path / "export.jsonl"
        exported.write_bytes(answers["export"].content)
        with contextlib.redirect_stdout(io.StringIO()):
            assert run_audit(str(exported)) == 0
    finally:
        server.kill()
        server.wait(10)
