"""Many clients at once on one match, with and without idempotency keys (on the real Redis also
through two gateways with their own caches): versions gapless, no event lost or doubled, every
200 in the log once, and the same key always the same answer."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter

import httpx
import msgspec
import pytest

from services.gateway.app import create_app
from tests.service.client import bearer, create, seat_token, view, wait_for

pytestmark = pytest.mark.anyio
COPIES = 4  # each chosen command is sent this many times at once


async def hammer(gateways: list[httpx.AsyncClient], created: dict, seats: int) -> list[tuple]:
    rng = random.Random(5)
    sent: list[tuple] = []
    url = f"/v1/matches/{created['match_id']}/commands"
    for round_ in itertools.count():
        assert round_ < 500, "the match did not finish"
        views = [await view(gateways[0], created, seat_token(created, seat)) for seat in range(seats)]
        if views[0]["status"] == "finished":
            return sent
        calls, meta = [], []
        for seat, seen in enumerate(views):
            if not seen["legal"]:
                continue
            command = rng.choice(seen["legal"])
            for copy in range(COPIES):
                # even rounds: two copies with one key, two without (an unkeyed copy, with no
                # key to look up first, usually wins); odd rounds: all four with one key
                key = f"r{round_}-s{seat}" if copy < 2 or round_ % 2 else None
                headers = bearer(seat_token(created, seat)) | ({"Idempotency-Key": key} if key else {})
                calls.append(gateways[copy % len(gateways)].post(url, json=command, headers=headers))
                meta.append((seat, key))
        answers = await asyncio.gather(*calls)
        sent += [
            (seat, key, answer.status_code, answer.content) for (seat, key), answer in zip(meta, answers, strict=True)
        ]
        newest = max((int(answer.json()["version"]) for answer in answers if answer.status_code == 200), default=0)
        await wait_for(gateways[0], created, seat_token(created, 0), newest)


@pytest.fixture
async def gateways(settings, api):
    if settings.embedded:
        yield [api]
        return
    second = create_app(settings, embedded_worker=False)  # its own caches, the same Redis
    async with second.router.lifespan_context(second):
        transport = httpx.ASGITransport(app=second)
        async with httpx.AsyncClient(transport=transport, base_url="http://second") as other:
            yield [api, other]


async def test_concurrent_commands_are_all_in_the_log_once(gateways):
    seats = 5
    created = await create(gateways[0], seats=seats)
    sent = await hammer(gateways, created, seats)
    statuses = Counter(status for _, _, status, _ in sent)
    assert set(statuses) <= {200, 409, 422}, statuses
    assert statuses[200] > 50 and statuses[422] > 50  # the race really happened

    by_key: dict[tuple, set] = {}
    for seat, key, status, body in sent:
        if key is not None:
            by_key.setdefault((seat, key), set()).add((status, body))
    assert all(len(answers) == 1 for answers in by_key.values()), "one key, two different answers"
    # the accepted commands: a keyed one once however often it was sent, an unkeyed one each time
    accepted = {(seat, key or index, body) for index, (seat, key, status, body) in enumerate(sent) if status == 200}
    accepted_at = {msgspec.json.decode(body)["version"]: seat for seat, _, body in accepted}
    assert len(accepted_at) == len(accepted), "two accepted commands answered the same version"

    url = f"/v1/matches/{created['match_id']}/events"
    log = (await gateways[0].get(url, headers=bearer(created["spectator_token"]))).json()
    assert [envelope["version"] for envelope in log] == list(range(1, len(log) + 1))
    for before, after in itertools.pairwise(log):
        assert after["prev"] == before["hash"]
    caused = [envelope for envelope in log if envelope["command"]["id"] is not None]
    last_version = {envelope["command"]["id"]: envelope["version"] for envelope in caused}
    assert sorted(last_version.values()) == sorted(accepted_at), "the log's commands are not the accepted ones"
    for version, seat in accepted_at.items():
        assert log[version - 1]["command"]["seat"] == seat
    keys = Counter(
        (e["command"]["seat"], e["command"]["idempotency_key"]) for e in caused if e["command"]["idempotency_key"]
    )
    commands_per_key = {
        pair: len(
            {e["command"]["id"] for e in caused if (e["command"]["seat"], e["command"]["idempotency_key"]) == pair}
        )
        for pair in keys
    }
    assert set(commands_per_key.values()) == {1}
