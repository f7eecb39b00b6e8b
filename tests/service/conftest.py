"""Fixtures: the gateway on fakeredis and on a real redis-server started here on a free port."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import fakeredis
import httpx
import pytest
import redis
import redis.asyncio
import uvicorn

from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store.resp import Pooled
from services.store.wire import Wire
from tests.service.backends import backend, cluster_url, flush_cluster  # noqa: F401 (fixtures: every store repository's backends)
from tests.service.s3 import s3_endpoint  # noqa: F401 (a fixture: moto's S3 server)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(directory, *extra: str, port: int | None = None) -> tuple[subprocess.Popen, str]:
    """A redis-server on ``port`` (a free one by default) with ``extra`` arguments, and its URL (as
    a client without a password reaches it: give one with ``--requirepass`` and the ping here is
    refused). Started again on the same port and directory, it is the same server restarted."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is missing: apt-get install redis-server (make test does it)")
    port = port or free_port()
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
        *extra,
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(200):
        try:
            client.ping()
            return process, url
        except redis.AuthenticationError:
            return process, url  # it answers, and wants the password
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
def plain_url(tmp_path):
    """A plain redis-server: the queue's beside a cluster, or the events' beside Sentinel."""
    (tmp_path / "plain").mkdir()
    process, url = start_redis(tmp_path / "plain")
    yield url
    process.kill()
    process.wait(10)


@pytest.fixture(params=["fakeredis", "redis"])
async def linked(request):
    """A redis-py client and the link the hot paths would send through beside it: on fakeredis its
    pool (``Pooled``), on a real redis-server a Wire of its own."""
    if request.param == "fakeredis":
        client = fakeredis.FakeAsyncRedis()
        link = Pooled(client)
    else:
        url = request.getfixturevalue("redis_url")
        client, link = redis.asyncio.Redis.from_url(url, protocol=2), Wire(url)
    yield client, link
    link.close()
    await client.aclose()


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(params=["fakeredis", "redis"])
def settings(request) -> Settings:
    """The service's settings on each backend; a module that covers the API's flows end to end
    runs them on the cluster too: ``pytest.mark.parametrize("settings", BACKENDS, indirect=True)``."""
    queue = f"test-{uuid.uuid4().hex[:8]}"  # a worker thread of an earlier test never takes our jobs
    if request.param == "fakeredis":
        return Settings(redis_url=None, queue_url=None, queue_name=queue, lease_s=1.0)
    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushall()
    if request.param == "cluster":  # the events on the cluster, the queue on the plain Redis beside it
        cluster = request.getfixturevalue("cluster_url")
        flush_cluster(cluster)
        return Settings(redis_url=cluster, queue_url=url, queue_name=queue, lease_s=1.0)
    return Settings(redis_url=url, queue_url=None, queue_name=queue, lease_s=1.0)


@pytest.fixture
def embedded_worker() -> bool:
    """Whether ``app`` runs a worker in a thread; a module may override this fixture."""
    return True


@pytest.fixture
async def app(settings, embedded_worker):
    application = create_app(settings, embedded_worker=embedded_worker)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def api(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as client:
        yield client


ROOT = Path(__file__).resolve().parents[2]


# the per-client limits, which service_env leaves as shipped (on): a test that must turn one off
# (many matches from one address, faster than a client may) passes these and says why
NO_CREATE_LIMITS = {"TAVERN_CREATES_PER_S": "0", "TAVERN_OPEN_MATCHES": "0"}


def service_env(redis: str | None, **extra: str) -> dict[str, str]:
    """The environment of a `tavern serve` or `tavern worker` a test starts: the shipped settings
    (every limit on; none of the shell's TAVERN_* settings), a short lease, quiet logs, and ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL") and not k.startswith("TAVERN_")}
    env |= {"LOG_LEVEL": "warning", "TAVERN_LEASE_S": "1", "PYTHONPATH": str(ROOT), **extra}
    if redis is not None:
        env["REDIS_URL"] = redis
    return env


def spawn(args: list[str], env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env, stdout=log, stderr=log)


def wait_healthy(base_url: str, process: subprocess.Popen) -> None:
    for _ in range(300):
        assert process.poll() is None, "the gateway exited"
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    pytest.fail("the gateway did not become healthy")


def serve_healthy(processes, env: dict[str, str]) -> tuple[str, subprocess.Popen]:
    """A `tavern serve` on a free port (started by the ``processes`` fixture), once healthy: its
    base URL and its process."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    gateway = processes(["serve", "--port", str(port)], env)
    wait_healthy(base, gateway)
    return base, gateway


def serve_all(processes, env: dict[str, str], gateways: int = 2, workers: int = 1) -> list[str]:
    """``gateways`` `tavern serve` and ``workers`` `tavern worker` processes on one ``env``, once every
    gateway is healthy: their base URLs."""
    started = []
    for _ in range(gateways):
        port = free_port()
        started.append((f"http://127.0.0.1:{port}", processes(["serve", "--port", str(port)], env)))
    for _ in range(workers):
        processes(["worker"], env)
    for base, gateway in started:
        wait_healthy(base, gateway)
    return [base for base, _ in started]


@pytest.fixture
def processes(tmp_path):
    """Start `tavern serve` / `tavern worker` processes; all are killed at the end."""
    started: list[subprocess.Popen] = []

    def start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = open(tmp_path / f"{len(started)}-{args[0]}.log", "wb")  # noqa: SIM115 (closed with the process)
        process = spawn(args, env, log)
        started.append(process)
        return process

    yield start
    for process in started:
        process.kill()
        process.wait(10)


@pytest.fixture
async def served(app):
    """The same app under a real uvicorn on a free port (streams need a real server)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        yield client
    server.should_exit = True
    await task
