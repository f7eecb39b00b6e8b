"""An S3-compatible server for tests: moto's (an emulator of S3's HTTP API, from PyPI), started on a
free port of 127.0.0.1 with the bucket ``BUCKET`` made, and the AWS_* variables boto3 reads set (a
`tavern` process started with ``service_env`` inherits them)."""

from __future__ import annotations

import shutil
import subprocess
import time

import boto3
import httpx
import pytest

BUCKET = "tavern-archive"


@pytest.fixture
def s3_endpoint(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    from tests.service.conftest import free_port  # here: conftest imports this module

    port = free_port()
    server = subprocess.Popen(
        [shutil.which("moto_server") or "moto_server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(endpoint, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=BUCKET)
        yield endpoint
    finally:
        server.terminate()
        server.wait(10)
