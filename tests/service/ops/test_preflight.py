"""Operator mistakes refused at start, each in one line on standard error with a non-zero exit, by a
real `tavern serve` / `tavern worker` (services/store/preflight.py, services/ops/settings.py): a
plain URL to a node of a real Redis Cluster (it used to start, say ready, then answer 500
MovedError), a cluster URL without a queue, an archive that is relative, doubly named, unwritable
or a bucket that is not there (on moto's S3 server)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.service.conftest import ROOT, service_env

COMMANDS = [["serve", "--port", "0"], ["worker"]]


def refused(command: list[str], env: dict[str, str]) -> str:
    """The one line ``command`` stopped with (it must stop: the timeout catches one that serves)."""
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0, done.stderr
    errors = [line for line in done.stderr.splitlines() if not line.startswith("{")]  # JSON log lines apart
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith(f"tavern {command[0]}: ") and "serving" not in done.stdout
    return errors[0]


def a_node(cluster: str) -> str:
    return f"redis://{cluster.removeprefix('redis+cluster://').split(',')[0]}/0"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_plain_url_to_a_cluster_node_is_refused(command, cluster_url, redis_url):
    line = refused(command, service_env(a_node(cluster_url), QUEUE_URL=redis_url))
    assert "REDIS_URL (redis://127.0.0.1:" in line and "is a node of a Redis Cluster" in line
    assert "redis+cluster://" in line  # what to write instead


def test_a_queue_on_a_cluster_node_is_refused(cluster_url, redis_url):
    line = refused(["worker"], service_env(redis_url, QUEUE_URL=a_node(cluster_url)))
    assert "QUEUE_URL" in line and "is a node of a Redis Cluster" in line


@pytest.mark.parametrize("command", COMMANDS)
def test_a_cluster_url_without_a_queue_is_refused(command, cluster_url):
    line = refused(command, service_env(cluster_url))
    assert "REDIS_URL names a Redis Cluster" in line and "QUEUE_URL" in line


def test_the_cluster_named_as_a_cluster_starts(cluster_url, redis_url, processes, tmp_path):
    """The same nodes named as the cluster they are: no refusal, the worker starts."""
    env = service_env(cluster_url, QUEUE_URL=redis_url, LOG_LEVEL="info", TAVERN_QUEUE="preflight")
    worker = processes(["worker"], env)
    deadline = time.monotonic() + 60
    while "worker_started" not in (tmp_path / "0-worker.log").read_text():
        assert worker.poll() is None and time.monotonic() < deadline, (tmp_path / "0-worker.log").read_text()
        time.sleep(0.1)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_relative_archive_directory_is_refused(command, redis_url):
    line = refused(command, service_env(redis_url, TAVERN_ARCHIVE_DIR="tavern-archive"))
    assert "TAVERN_ARCHIVE_DIR='tavern-archive' is not an absolute path" in line


def test_an_archive_named_twice_is_refused(redis_url, tmp_path):
    env = service_env(redis_url, TAVERN_ARCHIVE_DIR=str(tmp_path), TAVERN_ARCHIVE_S3_BUCKET="tavern")
    assert "both set" in refused(["worker"], env)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_archive_directory_that_cannot_be_written_is_refused(command, redis_url, tmp_path):
    (tmp_path / "file").write_text("")  # a file where a folder would go: not even root can write under it
    line = refused(command, service_env(redis_url, TAVERN_ARCHIVE_DIR=str(tmp_path / "file" / "archive")))
    assert f"the archive directory {tmp_path / 'file' / 'archive'} is not writable here" in line


@pytest.mark.parametrize("command", COMMANDS)
def test_an_archive_bucket_that_is_not_there_is_refused(command, redis_url, s3_endpoint):
    env = service_env(redis_url, TAVERN_ARCHIVE_S3_BUCKET="no-such-bucket", TAVERN_ARCHIVE_S3_ENDPOINT=s3_endpoint)
    line = refused(command, env)
    assert f"the archive bucket 'no-such-bucket' at {s3_endpoint} cannot be reached" in line
