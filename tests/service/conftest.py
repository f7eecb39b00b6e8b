"""Fixtures: the gateway on fakeredis and on a real redis-server started here on a free port."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid

import httpx
import pytest
import redis

from services.gateway import create_app
from services.settings import Settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(directory) -> tuple[subprocess.Popen, str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is missing: install it (apt-get install redis-server; .ci/run does)")
    port = free_port()
    args = [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(directory),
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(200):
        try:
            client.ping()
            return process, url
        except redis.ConnectionError:
            time.sleep(0.02)
    process.kill()
    pytest.fail(f"redis-server did not answer on port {port}")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    process, url = start_redis(tmp_path_factory.mktemp("redis"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(params=["fakeredis", "redis"])
def settings(request) -> Settings:
    queue = f"test-{uuid.uuid4().hex[:8]}"  # a worker thread of an earlier test never takes our jobs
    if request.param == "fakeredis":
        return Settings(redis_url=None, queue_url=None, queue_name=queue, lease_s=1.0)
    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushall()
    return Settings(redis_url=url, queue_url=None, queue_name=queue, lease_s=1.0)


@pytest.fixture
async def app(settings):
    application = create_app(settings, embedded_worker=True)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def api(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as client:
        yield client
