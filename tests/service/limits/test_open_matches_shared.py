"""The quota of open matches held by two gateways (`tavern serve` processes) and a worker, on a real
redis-server and on a Redis Cluster (the quota beside the queue, on its plain Redis): a burst of
creations sent to both at once gets exactly the quota's worth, the rest 429 and nothing created;
a match finished through one gateway gives its slot back to the other."""

from __future__ import annotations

import asyncio
import re
import time

import httpx
import pytest
import redis

from tests.service.client import bearer, seat_token
from tests.service.conftest import serve_all, service_env
from tests.service.redis_cluster import Cluster

pytestmark = pytest.mark.anyio
QUOTA = 3
ONE_BOT = {"game": "mercenaries", "seats": 2, "bots": [1]}


@pytest.fixture(params=["redis", "cluster"])
def env(request, tmp_path) -> dict[str, str]:
    quota = {"TAVERN_QUEUE": f"quota-{request.param}", "TAVERN_OPEN_MATCHES": str(QUOTA)}
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        redis.Redis.from_url(url).flushall()
        return service_env(url, **quota)
    cluster = Cluster(tmp_path).start()
    request.addfinalizer(cluster.stop)
    return service_env(cluster.url, QUEUE_URL=request.getfixturevalue("plain_url"), **quota)


def created_count(bases: list[str]) -> float:
    """Matches created, by both gateways' /metrics."""
    total = 0.0
    for base in bases:
        text = httpx.get(f"{base}/metrics").text
        total += sum(float(n) for n in re.findall(r'^tavern_matches_created_total\{[^}]*\} (\S+)$', text, re.M))
    return total


async def test_two_gateways_share_one_quota(env, processes):
    bases = serve_all(processes, env)
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    try:
        burst = await asyncio.gather(*(clients[n % 2].post("/v1/matches", json=ONE_BOT) for n in range(10)))
        statuses = sorted(answer.status_code for answer in burst)
        assert statuses == [201] * QUOTA + [429] * (10 - QUOTA), statuses
        assert {a.json()["error"]["code"] for a in burst if a.status_code == 429} == {"open_matches_quota"}
        assert created_count(bases) == QUOTA  # nothing made for the refused ones

        first = next(answer.json() for answer in burst if answer.status_code == 201)
        conceded = await clients[0].post(f"/v1/matches/{first['match_id']}/commands", json={"type": "Concede"},
                                         headers=bearer(seat_token(first, 0)))
        assert conceded.status_code == 200, conceded.text
        deadline = time.monotonic() + 30
        while (answer := await clients[1].post("/v1/matches", json=ONE_BOT)).status_code != 201:
            assert answer.json()["error"]["code"] == "open_matches_quota", answer.text
            assert time.monotonic() < deadline, "the finished match's slot was not given back"
            await asyncio.sleep(0.1)
        assert (await clients[0].post("/v1/matches", json=ONE_BOT)).status_code == 429
        assert created_count(bases) == QUOTA + 1
    finally:
        for api in clients:
            await api.aclose()


def test_behind_a_trusted_proxy_the_quota_counts_the_clients_address(redis_url, processes):
    """uvicorn takes the address from X-Forwarded-For when the peer is a trusted proxy (here the
    test itself, at 127.0.0.1, as nginx would be): each client its own quota, not one for all."""
    redis.Redis.from_url(redis_url).flushall()
    base = serve_all(processes, service_env(redis_url, TAVERN_OPEN_MATCHES="1", TAVERN_QUEUE="proxy"), workers=0)[0]

    def create(client: str) -> int:
        return httpx.post(f"{base}/v1/matches", json=ONE_BOT, headers={"x-forwarded-for": client}).status_code

    assert [create("203.0.113.1"), create("203.0.113.1"), create("203.0.113.2")] == [201, 429, 201]
