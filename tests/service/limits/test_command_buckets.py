"""A seat token's command rate, held in two places (docs/LIMITS.md): the token's bucket shared by
every gateway, taken from inside the command's append (no round trip of its own), and the token's
bucket in the gateway's memory, taken before the command is decided, so a flood the gateway
refuses from what it holds (a stale 409's, a malformed command's) costs no Redis call."""

from __future__ import annotations

import dataclasses

import httpx
import msgspec
import pytest
import redis

from services.gateway.app import create_app
from services.runtime import Runtime
from services.store import keys
from services.store.bucket import digest
from tests.service.client import bearer, create, seat_token, view

pytestmark = pytest.mark.anyio
BURST = 5


@pytest.fixture
def embedded_worker() -> bool:
    return False  # no worker's calls among those counted


@pytest.fixture
def limited(settings):
    """The settings with a burst of BURST commands a token, refilled once in 1000 s (whatever the
    machine's speed, nothing refills during a test)."""
    limits = dataclasses.replace(settings.limits, commands_per_s_token=0.001, commands_burst_token=BURST)
    return dataclasses.replace(settings, limits=limits)


@pytest.fixture
async def gateways(limited):
    """Two gateways on one store, each with its own buckets in memory."""
    runtime = Runtime(limited)
    first = create_app(limited, runtime, embedded_worker=False)
    second = create_app(limited, Runtime(limited, server=getattr(runtime, "server", None)), False)
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern")
            for app in (first, second)
        ]
        yield first, second, *clients
        for client in clients:
            await client.aclose()


async def picks(api: httpx.AsyncClient, created: dict) -> tuple[int, list[bytes]]:
    """The match's version and each seat's first legal command (the views warm the gateway's folds)."""
    views = [await view(api, created, seat_token(created, seat)) for seat in range(len(created["seats"]))]
    return views[0]["version"], [msgspec.json.encode(seen["legal"][0]) for seen in views]


def versioned(body: bytes, version: int) -> bytes:
    return body[:-1] + b',"expected_version":%d}' % version


async def test_a_flood_past_the_shared_bucket_is_refused_by_the_append_and_appends_nothing(gateways):
    first, second, one, _ = gateways
    created = await create(one)
    match_id, token = created["match_id"], seat_token(created, 0)
    start, bodies = await picks(one, created)
    # another gateway takes the whole burst of seat 0's token (its own commands, say)
    limit = second.state.rate.commands("10.0.0.2", f"Bearer {token}", match_id)
    for _ in range(BURST):
        assert await second.state.runtime.rate_limits.take([limit]) == 0

    # this gateway's bucket of the token is full: each command is decided and its append refused
    path = f"/v1/matches/{match_id}/commands"
    answers = [await one.post(path, content=bodies[0], headers=bearer(token)) for _ in range(BURST + 3)]
    assert {(a.status_code, a.json()["error"]["code"]) for a in answers} == {(429, "rate_limited")}
    assert all(int(a.headers["retry-after"]) >= 1 for a in answers)
    assert [record.envelope.version for record in await first.state.runtime.store.read(match_id)][-1] == start
    # another seat's token is not limited: its command is taken
    taken = await one.post(path, content=bodies[1], headers=bearer(seat_token(created, 1)))
    assert taken.status_code == 200, taken.text


@pytest.mark.parametrize("settings", ["redis"], indirect=True)  # its calls counted by INFO commandstats
async def test_a_stale_flood_is_refused_from_the_gateways_memory_without_redis_calls(gateways, limited):
    _, _, one, _ = gateways
    created = await create(one)
    match_id, token = created["match_id"], seat_token(created, 1)
    start, bodies = await picks(one, created)
    path = f"/v1/matches/{match_id}/commands"
    assert (await one.post(path, content=bodies[0], headers=bearer(seat_token(created, 0)))).status_code == 200
    stale = {**bearer(token), "Prefer": "handling=strict"}

    events = redis.Redis.from_url(limited.redis_url)
    before = sum(int(stats["calls"]) for stats in events.info("commandstats").values())
    flood = [await one.post(path, content=versioned(bodies[1], start), headers=stale) for _ in range(200)]
    spent = sum(int(stats["calls"]) for stats in events.info("commandstats").values()) - before - 1  # less INFO

    codes = [(answer.status_code, answer.json()["error"]["code"]) for answer in flood]
    assert codes == [(409, "stale_version")] * BURST + [(429, "rate_limited")] * (len(flood) - BURST), codes
    assert "view" in flood[0].json()  # the 409 carries the view (from the fold this gateway keeps)
    # a call each before (the shared bucket's check); now none of the flood's: only the gateway's
    # own background (presence, sweeps), a few at most while the flood lasts
    assert spent < len(flood) / 10, spent
    assert not events.exists(keys.rate("cmd:token", digest(f"Bearer {token}"), match_id))  # never taken from
